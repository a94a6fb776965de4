package edit

import (
	"bytes"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// noNewline is the marker git and patch print after a line that has no
// line ending at the end of a file.
const noNewline = "\n\\ No newline at end of file\n"

// Diff returns the unified diff from old to new for the file at path, with
// "a/" and "b/" prefixed headers and 3 lines of context, as git diff prints
// it, so that `git apply` and `patch -p1` accept it. A last line without a
// line ending is followed by "\ No newline at end of file", which
// github.com/pmezard/go-difflib does not write by itself. Lines keep their
// own endings (a CRLF file's diff has CRLF lines). Equal contents give "".
func Diff(path string, old, new []byte) string {
	if bytes.Equal(old, new) {
		return ""
	}
	path = strings.TrimPrefix(path, "./")
	// git ends a header with a tab when the name holds a space, so that
	// patch reads the whole name rather than stopping at the space.
	tab := ""
	if strings.ContainsAny(path, " \t") {
		tab = "\t"
	}
	ud := difflib.UnifiedDiff{
		A:        diffLines(old),
		B:        diffLines(new),
		FromFile: "a/" + path + tab,
		ToFile:   "b/" + path + tab,
		Context:  3,
	}
	s, err := difflib.GetUnifiedDiffString(ud)
	if err != nil { // only a failing writer errs; strings.Builder does not
		panic(err)
	}
	return s
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
