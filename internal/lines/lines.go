// Package lines holds the one line-splitting rule that the chunk engine and
// the edit layer share, so that a string sent by a model splits into the
// same lines whichever command reads it.
package lines

import "strings"

// Split splits s into lines at CRLF, LF or lone CR, dropping the endings.
// A single trailing line ending does not start an empty last line ("a\n"
// is ["a"]); "" is one empty line, [""]. It is Python's str.splitlines
// restricted to those three endings, except for "".
func Split(s string) []string {
	var out []string
	for {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i])
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		if s = s[i+1:]; s == "" {
			return out
		}
	}
}

// DominantEnding returns the dominant line ending of s by the chunk spec's
// rule (seed 000): "\r\n" if CRLF outnumbers both lone LF and lone CR, else
// "\n" if lone LF outnumbers lone CR, else "\r" if there is any, else "\n".
func DominantEnding(s string) string {
	crlf := strings.Count(s, "\r\n")
	lf := strings.Count(s, "\n") - crlf
	cr := strings.Count(s, "\r") - crlf
	switch {
	case crlf > max(lf, cr):
		return "\r\n"
	case lf > cr:
		return "\n"
	case cr > 0:
		return "\r"
	}
	return "\n"
}
