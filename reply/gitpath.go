package reply

import (
	"fmt"
	"strings"
	"time"
)

// unquoteGit decodes a file name that git wrote C-quoted (quote.c's
// quote_c_style: a name with a control character, a double quote, a
// backslash or, with core.quotePath on, the default, a byte of 0x80 or
// more): s starts with '"', and the name runs to the next unescaped '"'.
// The escapes are \a \b \t \n \v \f \r \" \\ and three octal digits for
// one byte (\303\251 is "é"). It returns the name and the rest of s after
// the closing quote, or a reason when s is not such a name (an unknown
// escape, no closing quote, a NUL byte: git never writes those).
func unquoteGit(s string) (name, rest, reason string) {
	if !strings.HasPrefix(s, `"`) {
		return "", s, "not a quoted name"
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			if b.Len() == 0 {
				return "", "", "an empty quoted name"
			}
			return b.String(), s[i+1:], ""
		case '\\':
			if i+1 == len(s) {
				return "", "", "a quoted name cut short after a backslash"
			}
			i++
			switch e := s[i]; e {
			case 'a':
				b.WriteByte('\a')
			case 'b':
				b.WriteByte('\b')
			case 't':
				b.WriteByte('\t')
			case 'n':
				b.WriteByte('\n')
			case 'v':
				b.WriteByte('\v')
			case 'f':
				b.WriteByte('\f')
			case 'r':
				b.WriteByte('\r')
			case '"', '\\':
				b.WriteByte(e)
			case '0', '1', '2', '3':
				if i+2 >= len(s) || !octal(s[i+1]) || !octal(s[i+2]) {
					return "", "", fmt.Sprintf("the escape \\%s in a quoted name is not three octal digits", s[i:min(i+3, len(s))])
				}
				v := (e-'0')<<6 | (s[i+1]-'0')<<3 | (s[i+2] - '0')
				if v == 0 {
					return "", "", "a quoted name holds a NUL byte (\\000)"
				}
				b.WriteByte(v)
				i += 2
			default:
				return "", "", fmt.Sprintf("the escape \\%c in a quoted name is not one git writes", e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", "", "a quoted name without its closing quote"
}

func octal(c byte) bool { return c >= '0' && c <= '7' }

// diffName is the file name of a --- or +++ header line l after prefix,
// and the text after the tab that ends it (diff -u's timestamp, "" when
// none). A name git C-quoted ("a/t\303\251st.py") is decoded
// (unquoteGit); after its closing quote only a tab and a timestamp may
// follow. Otherwise the name runs up to a tab (git writes one after a
// name with a space, diff -u one before its timestamp) and is taken
// exactly; without a tab it is the rest of the line, trimmed of
// surrounding white space. It returns a reason when the name cannot be
// read.
func diffName(l, prefix string) (name, stamp, reason string) {
	s := strings.TrimLeft(strings.TrimPrefix(l, prefix), " ")
	if strings.HasPrefix(s, `"`) {
		name, rest, why := unquoteGit(s)
		if why != "" {
			return "", "", why
		}
		if rest != "" && rest[0] != '\t' && strings.TrimSpace(rest) != "" {
			return "", "", fmt.Sprintf("%q follows the quoted name", abbreviate(rest, 30))
		}
		return name, strings.TrimSpace(rest), ""
	}
	if name, rest, tab := strings.Cut(s, "\t"); tab {
		return name, strings.TrimSpace(rest), ""
	}
	return strings.TrimSpace(s), "", ""
}

// epochStamp reports whether stamp, the text after a --- or +++ line's
// name, is the Unix epoch (1970-01-01 00:00:00 UTC, written in any time
// zone, "1970-01-01 01:00:00.000000000 +0100" too): diff -N and diff -ruN
// date a file that does not exist so, and GNU patch reads it as the file
// being created (on the --- line) or deleted (on the +++ line). The
// stamp is diff -u's format, "YYYY-MM-DD HH:MM:SS[.fraction] +HHMM".
func epochStamp(stamp string) bool {
	t, err := time.Parse("2006-01-02 15:04:05 -0700", stamp)
	return err == nil && t.Unix() == 0 && t.Nanosecond() == 0
}

// gitName reads the name at the start of s on a "diff --git" or "rename
// from" line: C-quoted (unquoteGit) or, unquoted, all of s.
func gitName(s string) (name, rest string, ok bool) {
	if strings.HasPrefix(s, `"`) {
		name, rest, why := unquoteGit(s)
		return name, rest, why == ""
	}
	return s, "", true
}

// gitDiffPath returns the file a "diff --git a/P b/P" line names, and
// whether it names one file: both names alike after git's a/ and b/.
// Names may hold spaces, and either may be C-quoted (unquoteGit). Two
// unquoted names are split where the two halves are equal, as git apply
// does: for one file named alike on both sides that split is unique,
// even when the name holds " b/"; names that differ (a rename or a copy)
// are not one file.
func gitDiffPath(l string) (string, bool) {
	s := strings.TrimPrefix(l, "diff --git ")
	var a, b string
	switch {
	case strings.HasPrefix(s, `"`):
		n, rest, ok := gitName(s)
		if !ok || !strings.HasPrefix(rest, " ") {
			return "", false
		}
		m, rest2, ok := gitName(rest[1:])
		if !ok || strings.TrimSpace(rest2) != "" {
			return "", false
		}
		a, b = n, m
	case strings.HasSuffix(s, `"`) && strings.Count(s, ` "b/`) == 1:
		// a/P "b/Q": an unquoted name, then a quoted one.
		k := strings.Index(s, ` "b/`)
		m, rest, ok := gitName(s[k+1:])
		if !ok || rest != "" {
			return "", false
		}
		a, b = s[:k], m
	default:
		n := (len(s) - 5) / 2
		if n <= 0 || len(s) != 2*n+5 || s[2+n:5+n] != " b/" {
			return "", false
		}
		a, b = s[:2+n], s[3+n:]
	}
	if !strings.HasPrefix(a, "a/") || !strings.HasPrefix(b, "b/") || a[2:] != b[2:] || a[2:] == "" {
		return "", false
	}
	return a[2:], true
}
