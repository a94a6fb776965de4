package edit

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

// writeDiffHeader writes the "---" and "+++" lines of a diff of path, with
// "a/" and "b/" prefixes, the leading "./" dropped and a tab after a name
// that holds a space or a tab, as git writes them.
func writeDiffHeader(out *strings.Builder, path string) {
	path = strings.TrimPrefix(path, "./")
	tab := ""
	if strings.ContainsAny(path, " \t") {
		tab = "\t"
	}
	fmt.Fprintf(out, "--- a/%s%s\n+++ b/%s%s\n", path, tab, path, tab)
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
