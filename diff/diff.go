package diff

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// noNewline is the marker git and patch print after a line that has no
// line ending at the end of a file.
const noNewline = "\n\\ No newline at end of file\n"

// diffContext is the number of unchanged lines around each hunk.
const diffContext = 3

// autoJunkAbove is the size, in lines, of the changed middle of two files
// above which the matcher's "popular line" heuristic is turned on: it keeps
// huge diffs fast, at the price of hunks that are not minimal.
const autoJunkAbove = 20000

// Diff returns the unified diff from old to new for the file at path, with
// "a/" and "b/" prefixed headers and 3 lines of context, as git diff prints
// it, so that `git apply` and `patch -p1` accept it. A last line without a
// line ending is followed by "\ No newline at end of file", and a header
// whose name holds a space ends with a tab, as git writes them. Lines keep
// their own endings (a CRLF file's diff has CRLF lines). Equal contents
// give "".
//
// The lines are matched by github.com/pmezard/go-difflib's SequenceMatcher
// and grouped into hunks by its GetGroupedOpCodes, without the "popular
// line" heuristic that difflib turns on for 200 lines or more, which marks
// repeated lines such as "}" as junk and shows unchanged lines as removed
// and added again. For files over 20,000 lines the common first and last
// lines are set aside and the heuristic is on, so the diff stays fast.
func Diff(path string, old, new []byte) string {
	if bytes.Equal(old, new) {
		return ""
	}
	a, b := diffLines(old), diffLines(new)
	from, toA, toB := 0, len(a), len(b)
	if max(len(a), len(b)) > autoJunkAbove {
		// A large file: match only the changed middle and its context,
		// with the heuristic on, so the diff stays fast.
		p := 0
		for p < len(a) && p < len(b) && a[p] == b[p] {
			p++
		}
		s := 0
		for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
			s++
		}
		from, toA, toB = max(0, p-diffContext), len(a)-max(0, s-diffContext), len(b)-max(0, s-diffContext)
	}
	subA, subB := a[from:toA], b[from:toB]
	m := difflib.NewMatcherWithJunk(subA, subB, toA-from > autoJunkAbove, nil)
	var out strings.Builder
	writeDiffHeader(&out, path)
	for _, g := range m.GetGroupedOpCodes(diffContext) {
		writeHunk(&out, g, from, func(i int) string { return a[i] }, func(j int) string { return b[j] })
	}
	return out.String()
}

// NewFileDiff returns git diff's form of creating the file at path with
// content and the git mode mode (such as "100644", or "100755" for an
// executable file): "diff --git a/PATH b/PATH" and "new file mode MODE",
// then, unless content is empty (git writes the header alone for an
// empty file), "--- /dev/null", "+++ b/PATH" and one hunk adding every
// line (@@ -0,0 +1,N @@, "\ No newline at end of file" after a last line
// without a line ending), so that git apply, patch and symedit apply all
// read it as creating the file. Names are written as Diff writes them
// (GitName, HeaderName).
func NewFileDiff(path string, content []byte, mode string) string {
	path = strings.TrimPrefix(path, "./")
	h := fmt.Sprintf("diff --git %s %s\nnew file mode %s\n", GitName("a/", path), GitName("b/", path), mode)
	d := Diff(path, nil, content)
	if d == "" {
		return h
	}
	_, rest, _ := strings.Cut(d, "\n") // the --- line names /dev/null
	return h + "--- /dev/null\n" + rest
}

// writeDiffHeader writes the "---" and "+++" lines of a diff of path, with
// "a/" and "b/" prefixes and the leading "./" dropped, as git writes them
// (HeaderName).
func writeDiffHeader(out *strings.Builder, path string) {
	path = strings.TrimPrefix(path, "./")
	fmt.Fprintf(out, "--- %s\n+++ %s\n", HeaderName("a/", path), HeaderName("b/", path))
}

// HeaderName returns prefix+name as a unified diff's "---" or "+++" line
// names it, as git does: C-quoted when it must be (GitName), else
// followed by a tab when it holds a space, since patch otherwise stops
// the name at the space.
func HeaderName(prefix, name string) string {
	s := GitName(prefix, name)
	if !strings.HasPrefix(s, `"`) && strings.Contains(s, " ") {
		s += "\t"
	}
	return s
}

// GitName returns prefix+name as git's diff headers write a file name
// ("--- a/NAME", "diff --git a/NAME b/NAME", "rename from NAME"):
// unchanged, or, when it holds a control character (a byte under 0x20,
// or 0x7f), a double quote or a backslash, C-quoted as git's
// quote_c_style does: in double quotes, with \a \b \t \n \v \f \r \" \\
// and three octal digits for the other control bytes. Bytes of 0x80 and
// more (UTF-8) are left as they are, as git does with core.quotePath
// off; git apply and patch read both forms. Without quoting, a name with
// a tab or a line ending would break the header it is written in.
func GitName(prefix, name string) string {
	s := prefix + name
	if !strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '"' || r == '\\' }) {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\v':
			b.WriteString(`\v`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			if c < 0x20 || c == 0x7f {
				fmt.Fprintf(&b, `\%03o`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// writeHunk writes one hunk: the group g of opcodes (0-based line indexes,
// exclusive ends, shifted by off) as a header and its lines, where a(i)
// and b(j) return the old and new lines at absolute 0-based indexes, with
// their endings (see diffLines).
func writeHunk(out *strings.Builder, g []difflib.OpCode, off int, a, b func(int) string) {
	first, last := g[0], g[len(g)-1]
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(off+first.I1, off+last.I2), hunkRange(off+first.J1, off+last.J2))
	for _, c := range g {
		if c.Tag == 'e' {
			for i := c.I1; i < c.I2; i++ {
				out.WriteString(" " + a(off+i))
			}
			continue
		}
		if c.Tag == 'r' || c.Tag == 'd' {
			for i := c.I1; i < c.I2; i++ {
				out.WriteString("-" + a(off+i))
			}
		}
		if c.Tag == 'r' || c.Tag == 'i' {
			for j := c.J1; j < c.J2; j++ {
				out.WriteString("+" + b(off+j))
			}
		}
	}
}

// hunkRange formats the 0-based half-open line range [start, stop) of a
// hunk header as the unified format wants it: 1-based start, then the
// length unless it is 1; an empty range starts at the line before it.
func hunkRange(start, stop int) string {
	begin, n := start+1, stop-start
	switch n {
	case 1:
		return fmt.Sprint(begin)
	case 0:
		begin--
	}
	return fmt.Sprintf("%d,%d", begin, n)
}

// diffLines splits b into lines that keep their "\n" endings; an
// unterminated last line carries the no-newline marker instead, so that it
// differs from the same text with an ending and prints as git prints it.
func diffLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	lines := strings.SplitAfter(string(b), "\n")
	if lines[len(lines)-1] == "" {
		return lines[:len(lines)-1]
	}
	lines[len(lines)-1] += noNewline
	return lines
}
