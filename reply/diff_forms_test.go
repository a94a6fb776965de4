package reply_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/reply"
)

// parseOne parses a reply holding one diff for one file and returns its
// blocks; it fails the test on a malformed block.
func parseOne(t *testing.T, text string) []reply.Block {
	t.Helper()
	res := reply.Parse(text)
	if len(res.Malformed) != 0 || len(res.Blocks) == 0 {
		t.Fatalf("parse: %+v\n%s", res, text)
	}
	return res.Blocks
}

// TestDiffFinalLineEnding: "\ No newline at end of file" marks the last
// line of the side it follows (git diff, GNU diff -u): the hunk is
// pinned to the end of the file, and the result's final line ending is
// the new side's, as git apply writes it.
func TestDiffFinalLineEnding(t *testing.T) {
	for _, c := range []struct {
		name, diff, text, want string
		oldNo, newNo           bool
	}{
		{"adds it", "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n", "a\nb", "a\nb\n", true, false},
		{"removes it", "@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n", "a\nb\n", "a\nb", false, true},
		{"keeps its absence", "@@ -1,2 +1,2 @@\n-a\n+A\n b\n\\ No newline at end of file\n", "a\nb", "A\nb", true, true},
		{"adds it in a CRLF file", "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n", "a\r\nb", "a\r\nb\r\n", true, false},
		{"removes it in a CRLF file", "@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n", "a\r\nb\r\n", "a\r\nb", false, true},
		{"removes the only line's", "@@ -1 +1 @@\n-x\n+x\n\\ No newline at end of file\n", "x\n", "x", false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			bs := parseOne(t, "--- a/f\n+++ b/f\n"+c.diff)
			b := bs[0]
			if b.OldNoEOL != c.oldNo || b.NewNoEOL != c.newNo || !b.AtEnd {
				t.Errorf("OldNoEOL %v NewNoEOL %v AtEnd %v; want %v %v true", b.OldNoEOL, b.NewNoEOL, b.AtEnd, c.oldNo, c.newNo)
			}
			got, _, failed, f := reply.ApplyAll(bs, c.text, match.Exact)
			if failed >= 0 || got != c.want {
				t.Errorf("ApplyAll(%q) = %q, %v; want %q", c.text, got, f, c.want)
			}
		})
	}
	// Pinned to the end: the same lines higher up are not the place.
	bs := parseOne(t, "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n")
	if got, _, failed, _ := reply.ApplyAll(bs, "a\nb\nc\na\nb", match.Exact); failed >= 0 || got != "a\nb\nc\na\nb\n" {
		t.Errorf("pinned hunk gave %q", got)
	}
	// A file whose last line has an ending is not the file the hunk
	// was written against.
	if got, _, failed, f := reply.ApplyAll(bs, "a\nb\n", match.Exact); failed != 0 || f == nil || f.Code != reply.CodeOldMismatch || got != "a\nb\n" {
		t.Errorf("ApplyAll = %q, %d, %+v; want OLD_MISMATCH", got, failed, f)
	}
	// A created file without a final line ending (git diff of a new
	// file whose last line has none).
	bs = parseOne(t, "--- /dev/null\n+++ b/n\n@@ -0,0 +1,2 @@\n+x\n+y\n\\ No newline at end of file\n")
	if got, _, failed, f := reply.ApplyAll(bs, "", match.Exact); failed >= 0 || got != "x\ny" {
		t.Errorf("create = %q, %v", got, f)
	}
}

// TestDiffFinalLineEndingMalformed: a marker that git and GNU diff never
// write is a malformed block, naming its line: a line of the same side
// after the one it marks, and a marked empty line.
func TestDiffFinalLineEndingMalformed(t *testing.T) {
	for _, c := range []struct{ diff, want string }{
		{"@@ -1,2 +1,2 @@\n-a\n\\ No newline at end of file\n+A\n b\n", `line 7 " b" follows the line "\ No newline at end of file" marks as the last of the hunk's old side`},
		{"@@ -1,2 +1,2 @@\n a\n\\ No newline at end of file\n-b\n+b\n", `line 6 "-b" follows the line`},
		{"@@ -1 +1,2 @@\n a\n+\n\\ No newline at end of file\n", "line 6 \"\\\\ No newline at end of file\" marks an empty line"},
		{"@@ -1 +1 @@\n-a\n+b\n\\ No newline at end of file\n\\ No newline at end of file\n", "follows no line of the hunk"},
	} {
		res := reply.Parse("--- a/f\n+++ b/f\n" + c.diff)
		if len(res.Blocks) != 0 || len(res.Malformed) != 1 || !strings.Contains(res.Malformed[0].Reason, c.want) {
			t.Errorf("%q: %+v; want one malformed saying %q", c.diff, res, c.want)
		}
	}
}

// TestDiffZeroContext: a numbered hunk without context lines (diff -U0;
// git apply reads it only with --unidiff-zero) is Pinned: it applies
// only where its line numbers put it, when that is the end of the file.
// One against an empty old file (@@ -0,0) creates the file.
func TestDiffZeroContext(t *testing.T) {
	five := "1\n2\n3\n4\n5\n"
	for _, c := range []struct {
		name, diff, text, want string
		code                   string
	}{
		{"appends at the end", "@@ -5,0 +6,2 @@\n+x\n+y\n", five, five + "x\ny\n", ""},
		{"replaces the last lines", "@@ -4,2 +4 @@\n-4\n-5\n+z\n", five, "1\n2\n3\nz\n", ""},
		{"deletes the last line", "@@ -5 +4,0 @@\n-5\n", five, "1\n2\n3\n4\n", ""},
		{"fills an empty file", "@@ -0,0 +1 @@\n+x\n", "", "x\n", ""},
		{"inserts mid-file", "@@ -3,0 +4,2 @@\n+x\n+y\n", five, five, reply.CodeTrailingNotFound},
		{"replaces mid-file", "@@ -2,2 +2 @@\n-2\n-3\n+z\n", five, five, reply.CodeTrailingNotFound},
		{"numbers past the end", "@@ -9,0 +10 @@\n+x\n", five, five, reply.CodeTrailingNotFound},
		{"old lines not there", "@@ -4,2 +4 @@\n-4\n-6\n+z\n", five, five, reply.CodeOldMismatch},
		{"onto a file with lines", "@@ -0,0 +1 @@\n+x\n", five, five, reply.CodeFileExists},
	} {
		t.Run(c.name, func(t *testing.T) {
			bs := parseOne(t, "--- a/f\n+++ b/f\n"+c.diff)
			got, _, failed, f := reply.ApplyAll(bs, c.text, match.Loose)
			switch {
			case c.code == "" && (failed >= 0 || got != c.want):
				t.Errorf("ApplyAll = %q, %v; want %q", got, f, c.want)
			case c.code != "" && (f == nil || f.Code != c.code || got != c.text):
				t.Errorf("ApplyAll = %q, %+v; want %s and the text unchanged", got, f, c.code)
			}
		})
	}
	bs := parseOne(t, "--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+x\n")
	if !bs[0].IsCreate() || bs[0].Pinned {
		t.Errorf("@@ -0,0: %+v, want a create block", bs[0])
	}
	bs = parseOne(t, "--- a/f\n+++ b/f\n@@ -5,0 +6,2 @@\n+x\n+y\n")
	if bs[0].IsCreate() || !bs[0].Pinned || !bs[0].AtEnd || bs[0].Hint != 6 {
		t.Errorf("@@ -5,0 +6,2: %+v, want Pinned at 6", bs[0])
	}
	// The place is the numbers' even among identical lines; a hunk
	// after a hunk against an empty old file has nothing to apply to; a
	// hunk without numbers, context or removed lines (Aider's udiff) has
	// nothing to place it.
	for _, c := range []struct{ diff, want string }{
		{"@@ -0,0 +1 @@\n+x\n@@ -1,0 +2 @@\n+y\n", "follows the hunk on line 3, which says the old file is empty"},
		{"@@ ... @@\n+x\n", "has no line numbers, no context and no removed lines"},
	} {
		res := reply.Parse("--- a/f\n+++ b/f\n" + c.diff)
		if len(res.Malformed) != 1 || !strings.Contains(res.Malformed[0].Reason, c.want) {
			t.Errorf("%q: %+v; want one malformed saying %q", c.diff, res, c.want)
		}
	}
}

// TestDiffEpochTimestamps: diff -N (diff -ruN a b) dates a missing file
// at the Unix epoch, in the local time zone: on the --- line the diff
// creates the file, on the +++ line it deletes it, as GNU patch reads
// them. Another timestamp is only a timestamp.
func TestDiffEpochTimestamps(t *testing.T) {
	for _, c := range []struct {
		name, diff     string
		create, delete bool
		path           string
	}{
		{"created, UTC", "--- a/new.txt\t1970-01-01 00:00:00.000000000 +0000\n+++ b/new.txt\t2026-11-27 03:44:00.350079099 +0000\n@@ -0,0 +1,2 @@\n+x\n+y\n", true, false, "new.txt"},
		{"created, +0530", "--- a/new.txt\t1970-01-01 05:30:00.000000000 +0530\n+++ b/new.txt\t2026-11-27 09:14:00.350079099 +0530\n@@ -0,0 +1,2 @@\n+x\n+y\n", true, false, "new.txt"},
		{"created, -0800", "--- a/new.txt\t1969-12-31 16:00:00.000000000 -0800\n+++ b/new.txt\t2026-11-26 19:53:02.261407775 -0800\n@@ -0,0 +1 @@\n+x\n", true, false, "new.txt"},
		{"deleted", "--- a/old.txt\t2026-11-27 03:44:00.350079099 +0000\n+++ b/old.txt\t1970-01-01 00:00:00.000000000 +0000\n@@ -1 +0,0 @@\n-gone\n", false, true, "old.txt"},
		{"one second after the epoch", "--- a/f\t1970-01-01 00:00:01.000000000 +0000\n+++ b/f\t2026-11-27 03:44:00 +0000\n@@ -1 +1 @@\n-a\n+b\n", false, false, "f"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := parseOne(t, c.diff)[0]
			if b.IsCreate() != c.create || b.Delete != c.delete || b.Path != c.path {
				t.Errorf("%+v: create %v delete %v path %q; want %v %v %q", b, b.IsCreate(), b.Delete, b.Path, c.create, c.delete, c.path)
			}
		})
	}
	// A created file's hunk must only add lines.
	res := reply.Parse("--- a/f\t1970-01-01 00:00:00.000000000 +0000\n+++ b/f\t2026-11-27 03:44:00 +0000\n@@ -1 +1 @@\n-a\n+b\n")
	if len(res.Malformed) != 1 || !strings.Contains(res.Malformed[0].Reason, "1970-01-01 timestamp") {
		t.Errorf("%+v, want a malformed block naming the timestamp", res)
	}
}

// TestDiffTwoNames: GNU diff's names of an edited copy (diff -u x.orig x,
// diff -u x x.new) are both carried on the block, the --- name first, for
// the caller to choose the one that exists; "./x" and "x" are one file.
func TestDiffTwoNames(t *testing.T) {
	for _, c := range []struct {
		diff    string
		path    string
		choices []string
	}{
		{"--- x.py.orig\t2026-11-27 03:44:00.000000000 +0000\n+++ x.py\t2026-11-27 03:45:00.000000000 +0000\n@@ -1 +1 @@\n-a\n+b\n", "x.py", []string{"x.py.orig", "x.py"}},
		{"--- x.py\n+++ x.py.new\n@@ -1 +1 @@\n-a\n+b\n", "x.py.new", []string{"x.py", "x.py.new"}},
		{"--- src/x.py.orig\n+++ src/x.py\n@@ -1 +1 @@\n-a\n+b\n", "src/x.py", []string{"src/x.py.orig", "src/x.py"}},
		{"--- ./x.py\n+++ x.py\n@@ -1 +1 @@\n-a\n+b\n", "x.py", nil},
	} {
		b := parseOne(t, c.diff)[0]
		if b.Path != c.path || !reflect.DeepEqual(b.PathChoices, c.choices) || b.MoveTo != "" {
			t.Errorf("%q: path %q choices %q move %q; want %q %q", c.diff, b.Path, b.PathChoices, b.MoveTo, c.path, c.choices)
		}
	}
	// A malformed hunk names both files, so --partial writes neither.
	res := reply.Parse("--- x.py.orig\n+++ x.py\n@@ -1 +1 @@\n-a\n")
	if len(res.Malformed) != 1 || !reflect.DeepEqual(res.Malformed[0].Paths, []string{"x.py.orig", "x.py"}) {
		t.Errorf("%+v, want one malformed naming both files", res.Malformed)
	}
}

// TestDiffEpochTwoNames: diff -N of two differently named files (GNU
// diff's "diff -Nu x.py x.py.new" with one missing) dates the missing one
// at the epoch. A deletion deletes the name that exists (PathChoices, as
// patch does); a creation is refused, since patch names the new file by
// the folders it must create, which the text cannot tell. /dev/null
// dated at the epoch is still /dev/null.
func TestDiffEpochTwoNames(t *testing.T) {
	b := parseOne(t, "--- x.py\t2026-11-27 04:06:28.798010668 +0000\n+++ x.py.new\t1970-01-01 00:00:00.000000000 +0000\n@@ -1 +0,0 @@\n-x\n")[0]
	if !b.Delete || b.Path != "x.py" || !reflect.DeepEqual(b.PathChoices, []string{"x.py", "x.py.new"}) {
		t.Errorf("deletion: %+v, want Delete of x.py with both names", b)
	}
	res := reply.Parse("--- x.py\t1970-01-01 00:00:00.000000000 +0000\n+++ x.py.new\t2026-11-27 04:06:28.798010668 +0000\n@@ -0,0 +1 @@\n+x\n")
	if len(res.Blocks) != 0 || len(res.Malformed) != 1 || !strings.Contains(res.Malformed[0].Reason, "which name the file it creates gets cannot be told") ||
		!reflect.DeepEqual(res.Malformed[0].Paths, []string{"x.py", "x.py.new"}) {
		t.Errorf("creation: %+v, want one malformed block", res)
	}
	b = parseOne(t, "--- /dev/null\t1970-01-01 00:00:00.000000000 +0000\n+++ b/n.txt\t2026-11-27 04:06:28 +0000\n@@ -0,0 +1 @@\n+x\n")[0]
	if !b.IsCreate() || b.Path != "n.txt" {
		t.Errorf("/dev/null at the epoch: %+v", b)
	}
}
