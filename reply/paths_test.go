package reply_test

import (
	"strings"
	"testing"

	"github.com/symedit/symedit/reply"
)

// TestParseDiffPaths checks how a unified diff's file names are read:
// a name with spaces as git writes it (a TAB after it), as
// diff -u writes it (a TAB and a timestamp) and bare as a model writes
// it; git's C-quoted names decoded exactly (octal escapes, \t, \n, \",
// \\); a "diff --git" line split only where it is one file; and a quoted
// name git would not write refused with the reason.
func TestParseDiffPaths(t *testing.T) {
	const hunk = "@@ -1 +1 @@\n-x\n+y\n"
	for _, c := range []struct {
		name, reply string
		path, move  string // the first block's Path and MoveTo
		bad         string // else: a substring of the only Malformed's reason
	}{
		{name: "git diff, a space", reply: "diff --git a/my file.py b/my file.py\nindex 1..2 100644\n--- a/my file.py\t\n+++ b/my file.py\t\n" + hunk, path: "my file.py"},
		{name: "diff -u, timestamps", reply: "--- my file.py\t2026-11-25 00:00:00.000000000 +0000\n+++ my file.py\t2026-11-25 00:01:00.000000000 +0000\n" + hunk, path: "my file.py"},
		{name: "folders of diff -u", reply: "--- old/src/my file.py\t2026-11-25 00:00:00 +0000\n+++ new/src/my file.py\t2026-11-25 00:00:00 +0000\n" + hunk, path: "src/my file.py"},
		{name: "bare, as Aider writes", reply: "--- src/my file.py\n+++ src/my file.py\n" + hunk, path: "src/my file.py"},
		{name: "trailing space, no tab", reply: "--- a/x.py \n+++ b/x.py \n" + hunk, path: "x.py"},
		{name: "a space at the end, before git's tab", reply: "--- a/x \t\n+++ b/x \t\n" + hunk, path: "x "},
		{name: "quoted non-ASCII", reply: "diff --git \"a/t\\303\\251st.py\" \"b/t\\303\\251st.py\"\n--- \"a/t\\303\\251st.py\"\n+++ \"b/t\\303\\251st.py\"\n" + hunk, path: "tést.py"},
		{name: "quoted tab", reply: "--- \"a/tab\\there\"\n+++ \"b/tab\\there\"\n" + hunk, path: "tab\there"},
		{name: "quoted quote, backslash, newline", reply: "--- \"a/q\\\"uo\\\\te\\nnl.py\"\n+++ \"b/q\\\"uo\\\\te\\nnl.py\"\n" + hunk, path: "q\"uo\\te\nnl.py"},
		{name: "quoted, then a timestamp", reply: "--- \"t\\303\\251st.py\"\t2026-11-25 00:00:00 +0000\n+++ \"t\\303\\251st.py\"\t2026-11-25 00:00:00 +0000\n" + hunk, path: "tést.py"},
		{name: "quoted created file", reply: "--- /dev/null\n+++ \"b/n\\303\\251w.py\"\n@@ -0,0 +1 @@\n+y\n", path: "néw.py"},
		{name: "unknown escape", reply: "--- \"a/x\\q\"\n+++ \"b/x\\q\"\n" + hunk, bad: `the escape \q in a quoted name is not one git writes`},
		{name: "short octal escape", reply: "--- \"a/x\\30\"\n+++ \"b/x\\30\"\n" + hunk, bad: "is not three octal digits"},
		{name: "no closing quote", reply: "--- \"a/x.py\n+++ \"b/x.py\n" + hunk, bad: "without its closing quote"},
		{name: "NUL", reply: "--- \"a/x\\000\"\n+++ \"b/x\\000\"\n" + hunk, bad: "NUL byte"},
		{name: "text after the quoted name", reply: "--- \"a/x.py\" y\n+++ \"b/x.py\" y\n" + hunk, bad: "follows the quoted name"},
		{name: "rename with spaces", reply: "diff --git a/old name.py b/new name.py\nsimilarity index 90%\nrename from old name.py\nrename to new name.py\nindex 1..2 100644\n--- a/old name.py\t\n+++ b/new name.py\t\n" + hunk, path: "old name.py", move: "new name.py"},
		{name: "pure rename, quoted", reply: "diff --git \"a/t\\303\\251st.py\" \"b/b\\303\\251st.py\"\nsimilarity index 100%\nrename from \"t\\303\\251st.py\"\nrename to \"b\\303\\251st.py\"\n", path: "tést.py", move: "bést.py"},
		{name: "rename, bad quoting", reply: "rename from \"a.py\nrename to b.py\n", bad: "do not name the renamed file"},
		{name: "rename disagreeing with ---/+++ by a space", reply: "rename from old name.py\nrename to new name.py\n--- a/old name.py\t\n+++ b/new  name.py\t\n" + hunk, bad: "but the --- and +++ lines"},
		{name: "hunkless, name holding \" b/\"", reply: "diff --git a/x b/y b/x b/y\nnew file mode 100644\n", path: "x b/y"},
		{name: "hunkless, names differ around \" b/\"", reply: "diff --git a/x b/y b/z\nnew file mode 100644\n", bad: "are not one file"},
		{name: "hunkless, quoted", reply: "diff --git \"a/t\\303\\251st.sh\" \"b/t\\303\\251st.sh\"\nold mode 100644\nnew mode 100755\n", path: "tést.sh"},
		{name: "hunkless, quoted and unquoted", reply: "diff --git a/a.py \"b/a.py\"\nnew file mode 100644\n", path: "a.py"},
		{name: "hunkless, bad quoting", reply: "diff --git \"a/a.py \"b/a.py\"\nnew file mode 100644\n", bad: "are not one file"},
		{name: "\" b/\" in a name, with hunks", reply: "diff --git a/x b/y b/x b/y\nnew file mode 100755\n--- /dev/null\n+++ b/x b/y\t\n@@ -0,0 +1 @@\n+y\n", path: "x b/y"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := reply.Parse(c.reply)
			if c.bad != "" {
				if len(res.Malformed) != 1 || !strings.Contains(res.Malformed[0].Reason, c.bad) || len(res.Blocks) != 0 {
					t.Fatalf("want one malformed block with %q, got %+v", c.bad, res)
				}
				return
			}
			if len(res.Malformed) != 0 || len(res.Blocks) == 0 {
				t.Fatalf("want blocks, got %+v", res)
			}
			if b := res.Blocks[0]; b.Path != c.path || b.MoveTo != c.move {
				t.Fatalf("got path %q move %q, want %q and %q", b.Path, b.MoveTo, c.path, c.move)
			}
		})
	}
	// The mode of "\" b/\" in a name, with hunks" comes from its "diff
	// --git" line, so that line was split as one file.
	res := reply.Parse("diff --git a/x b/y b/x b/y\nnew file mode 100755\n--- /dev/null\n+++ b/x b/y\t\n@@ -0,0 +1 @@\n+y\n")
	if len(res.Blocks) != 1 || res.Blocks[0].Mode != reply.ModeExecutable {
		t.Errorf("want the new file's mode %s from the diff --git line, got %+v", reply.ModeExecutable, res)
	}
}

// TestParsePatchPaths checks that in a Codex apply_patch patch the rest of
// a file line is the path, spaces included.
func TestParsePatchPaths(t *testing.T) {
	res := reply.Parse("*** Begin Patch\n" +
		"*** Update File: src/my file.py\n*** Move to: src/your file.py\n@@ def f():\n-x\n+y\n" +
		"*** Add File: new file.py\n+z\n" +
		"*** Delete File: old file.py\n" +
		"*** End Patch\n")
	if len(res.Malformed) != 0 || len(res.Blocks) != 3 {
		t.Fatalf("want 3 blocks, got %+v", res)
	}
	got := []string{res.Blocks[0].Path, res.Blocks[0].MoveTo, res.Blocks[1].Path, res.Blocks[2].Path}
	want := []string{"src/my file.py", "src/your file.py", "new file.py", "old file.py"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestParseSpacedPathLine checks the path line of an EDIT or SEARCH/REPLACE
// block naming a file with spaces: read only in backticks or
// quotes, since a bare line with spaces may be prose; on the fence line
// only in quotes, since "```python src/my file.py" may name
// "src/my file.py" or "file.py"; never cut to a part of it.
func TestParseSpacedPathLine(t *testing.T) {
	for _, body := range []string{
		"<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n",
		"<<<<<<< EDIT\na\n-------\nx\n=======\ny\n-------\nb\n>>>>>>>\n",
	} {
		for _, c := range []struct {
			before, want string // want "" means malformed, with reason bad
			bad          string
		}{
			{before: "`src/my file.py`\n", want: "src/my file.py"},
			{before: "\"src/my file.py\"\n", want: "src/my file.py"},
			{before: "'my file.py'\n", want: "my file.py"},
			{before: "**`src/my file.py`**\n", want: "src/my file.py"},
			{before: "### `src/my file.py`\n", want: "src/my file.py"},
			{before: "File: `src/my file.py`\n", want: "src/my file.py"},
			{before: "`src/my file.py`:\n```python\n", want: "src/my file.py"},
			{before: "```python \"src/my file.py\"\n", want: "src/my file.py"},
			{before: "`src/my file.py`\n```python src/my file.py\n", want: "src/my file.py"},
			{before: "```python src/x.py\n", want: "src/x.py"},
			{before: "src/my file.py\n", bad: "a path with spaces goes in backticks"},
			{before: "**src/my file.py**\n", bad: "a path with spaces goes in backticks"},
			{before: "Update the file x.py\n", bad: "path line missing"},
			{before: "`Update the file`\n", bad: "path line missing"},
			{before: "` src/my file.py `\n", want: "src/my file.py"}, // white space inside the backticks is decoration, as before
			{before: "`src/my\tfile.py`\n", bad: "path line missing"},
			{before: "```python src/my file.py\n", bad: "which holds white space, so where its path starts cannot be told"},
			{before: "`src/a.py`\n```python src/my file.py\n", bad: "which holds white space"},
			{before: "```python \"src/my file.py\"\n", want: "src/my file.py"},
			{before: "`src/a.py`\n```python \"src/my file.py\"\n", bad: "two paths"},
		} {
			res := reply.Parse(c.before + body)
			switch {
			case c.want == "" && (len(res.Malformed) != 1 || len(res.Blocks) != 0 || !strings.Contains(res.Malformed[0].Reason, c.bad)):
				t.Errorf("%q: want malformed with %q, got %+v", c.before, c.bad, res)
			case c.want != "" && (len(res.Blocks) != 1 || res.Blocks[0].Path != c.want):
				t.Errorf("%q: want path %q, got %+v", c.before, c.want, res)
			}
		}
	}
	// Block.String writes a path with spaces in backticks, so Parse reads
	// it back.
	b := reply.Block{Format: reply.FormatSearchReplace, Path: "src/my file.py", OldLines: []string{"x"}, NewLines: []string{"y"}}
	res := reply.Parse(b.String())
	if len(res.Blocks) != 1 || res.Blocks[0].Path != b.Path {
		t.Errorf("Parse(%q) = %+v, want the path %q back", b.String(), res, b.Path)
	}
}
