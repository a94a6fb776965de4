package reply_test

import (
	"strings"
	"testing"

	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/reply"
)

// applyPatchTo parses a reply holding one apply_patch patch for path and
// applies its blocks to text. It fails the test when the reply does not
// parse into well-formed blocks for path alone.
func applyPatchTo(t *testing.T, replyText, path, text string) (string, *reply.Failure) {
	t.Helper()
	res := reply.Parse(replyText)
	if len(res.Malformed) > 0 || len(res.Blocks) == 0 {
		t.Fatalf("parsed %d blocks, malformed %+v\n%s", len(res.Blocks), res.Malformed, replyText)
	}
	for _, b := range res.Blocks {
		if b.Path != path || b.Format != reply.FormatApplyPatch {
			t.Fatalf("block for %q, format %s; want %q", b.Path, b.Format, path)
		}
	}
	out, _, _, f := reply.ApplyAll(res.Blocks, text, match.Exact)
	return out, f
}

// malformedOnly parses replyText and fails the test unless it holds no
// well-formed block and exactly one malformed one whose reason holds each
// of want; it returns that Malformed.
func malformedOnly(t *testing.T, replyText string, want ...string) reply.Malformed {
	t.Helper()
	res := reply.Parse(replyText)
	if len(res.Blocks) != 0 || len(res.Malformed) != 1 {
		t.Fatalf("want one malformed block and no other, got %+v\n%s", res, replyText)
	}
	for _, w := range want {
		if !strings.Contains(res.Malformed[0].Reason, w) {
			t.Errorf("reason %q lacks %q", res.Malformed[0].Reason, w)
		}
	}
	return res.Malformed[0]
}

// TestPatchPaddedMarkers reads apply_patch markers padded with spaces or
// tabs as the markers, as Codex does: its scenarios
// 017_whitespace_padded_hunk_header ("  *** Update File:"),
// 018_whitespace_padded_patch_markers (" *** Begin Patch", "*** End Patch
// ") and 020_whitespace_padded_patch_marker_lines ("*** Begin Patch ",
// " *** End Patch" after a hunk line) in openai/codex's apply-patch tests,
// and padded file and move lines between files. Inside a hunk a line that
// starts with a space is a context line, so a padded marker there is
// refused unless it is the "*** End Patch" that no line of the patch
// follows (the patch's last line, which Codex reads as its end).
func TestPatchPaddedMarkers(t *testing.T) {
	for _, c := range []struct{ name, reply, text, want string }{
		{"codex 017", "*** Begin Patch\n  *** Update File: foo.txt\n@@\n-old\n+new\n*** End Patch\n", "old\n", "new\n"},
		{"codex 018", " *** Begin Patch\n*** Update File: foo.txt\n@@\n-one\n+two\n*** End Patch \n", "one\n", "two\n"},
		{"codex 020", "*** Begin Patch \n*** Update File: foo.txt\n@@\n-one\n+two\n *** End Patch\n", "one\n", "two\n"},
		{"codex 020 in a heredoc", "apply_patch <<'EOF'\n*** Begin Patch \n*** Update File: foo.txt\n@@\n-one\n+two\n  *** End Patch\nEOF\n", "one\n", "two\n"},
		{"codex 020 in a fence, blank line before", "```\n*** Begin Patch\n*** Update File: foo.txt\n@@\n-one\n+two\n\n\t*** End Patch\n```\n", "one\n", "two\n"},
		{"padded move and end of file", "*** Begin Patch\n*** Update File: foo.txt\n   *** Move to: foo.txt\n@@\n-one\n+two\n\t*** End of File\n *** End Patch\n", "one\n", "two\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := reply.Parse(c.reply)
			if len(res.Malformed) != 0 || len(res.Blocks) != 1 || res.Blocks[0].Path != "foo.txt" {
				t.Fatalf("got %+v", res)
			}
			if strings.Contains(c.reply, "Move to") {
				return // the move is ops' job; parsed is enough
			}
			out, f := applyPatchTo(t, c.reply, "foo.txt", c.text)
			if f != nil || out != c.want {
				t.Fatalf("got %q, %v; want %q", out, f, c.want)
			}
		})
	}

	// Padded file lines after an added file and a deleted one.
	res := reply.Parse("*** Begin Patch\n*** Add File: a.txt\n+x\n  *** Delete File: b.txt\n\t*** Update File: c.txt\n@@\n-1\n+2\n*** End Patch\n")
	if len(res.Malformed) != 0 || len(res.Blocks) != 3 || res.Blocks[1].Path != "b.txt" || !res.Blocks[1].Delete || res.Blocks[2].Path != "c.txt" {
		t.Fatalf("got %+v", res)
	}

	// Inside a hunk: a padded file line, or a padded "*** End Patch" that
	// more of the patch follows, may be a context line holding the text.
	for _, c := range []struct{ reply, line string }{
		{"*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n  *** Update File: b.txt\n@@\n-one\n+two\n*** End Patch\n", "line 6"},
		{"*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n *** End Patch\n+two\n*** End Patch\n", "line 5"},
		{"*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n *** End of File\n*** End Patch\n", "line 6"},
	} {
		m := malformedOnly(t, c.reply, "padded with spaces or a context line holding a marker's text", c.line)
		if m.Path != "a.txt" {
			t.Errorf("malformed path %q, want a.txt", m.Path)
		}
	}
}

// TestPatchPureAddition applies update hunks that only add lines, with no
// context and no removed lines, as Codex does: without an @@ line they go
// after the file's last line (openai/codex's scenario
// 016_pure_addition_update_chunk: "line1\nline2\n" and "@@", "+added line
// 1", "+added line 2"); with one they go right after that line's one
// place, where Codex, wrongly, appends them too (openai/codex#30946).
func TestPatchPureAddition(t *testing.T) {
	const py = "class A:\n    def f(self):\n        pass\n\nclass B:\n    def f(self):\n        pass\n"
	patch := func(hunks string) string {
		return "*** Begin Patch\n*** Update File: x.py\n" + hunks + "*** End Patch\n"
	}
	for _, c := range []struct{ name, hunks, text, want string }{
		{"codex 016", "@@\n+added line 1\n+added line 2\n", "line1\nline2\n", "line1\nline2\nadded line 1\nadded line 2\n"},
		{"codex 016 without @@", "+added line 1\n", "line1\nline2\n", "line1\nline2\nadded line 1\n"},
		{"codex 016 with End of File", "@@\n+added line 1\n*** End of File\n", "line1\nline2\n", "line1\nline2\nadded line 1\n"},
		// The file's missing final line ending stays missing, as for
		// every block (Codex adds one).
		{"codex 016 without a final line ending", "@@\n+added\n", "line1\nline2", "line1\nline2\nadded"},
		{"codex 016 on an empty file", "@@\n+added\n", "", "added\n"},
		{"codex 016 on a CRLF file", "@@\n+added\n", "a\r\nb\r\n", "a\r\nb\r\nadded\r\n"},
		{"codex#30946 scope", "@@ class B:\n+    x = 1\n", py,
			"class A:\n    def f(self):\n        pass\n\nclass B:\n    x = 1\n    def f(self):\n        pass\n"},
		{"codex#30946 nested scope", "@@ class B:\n@@ def f(self):\n+        '''doc'''\n", py,
			"class A:\n    def f(self):\n        pass\n\nclass B:\n    def f(self):\n        '''doc'''\n        pass\n"},
		{"codex#30946 scope at the last line", "@@ pass\n+# end\n", "a\npass\n", "a\npass\n# end\n"},
		{"codex#30946 with a hunk that changes lines", "@@ class A:\n+    y = 2\n@@ class B:\n     def f(self):\n-        pass\n+        return 1\n", py,
			"class A:\n    y = 2\n    def f(self):\n        pass\n\nclass B:\n    def f(self):\n        return 1\n"},
		{"two appends keep their order", "@@\n+one\n@@\n+two\n", "a\n", "a\none\ntwo\n"},
		{"an insertion after a changed line", "@@\n-a\n+A\n@@ b\n+c\n", "a\nb\nd\n", "A\nb\nc\nd\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := reply.Parse(patch(c.hunks))
			for _, b := range res.Blocks {
				if len(b.Old) == 0 && (!b.Insert || b.IsCreate()) {
					t.Fatalf("block %+v: want Insert and no create", b)
				}
			}
			out, f := applyPatchTo(t, patch(c.hunks), "x.py", c.text)
			if f != nil || out != c.want {
				t.Fatalf("got %q, %v; want %q", out, f, c.want)
			}
		})
	}

	// Refused, the text unchanged.
	for _, c := range []struct{ name, hunks, text, code, msg string }{
		// Codex would take the first "def f(self):" (openai/codex#30946).
		{"codex#30946 ambiguous scope", "@@ def f(self):\n+        '''doc'''\n", py, reply.CodeAmbiguous, "occur at 2 places (ending at lines 2, 6)"},
		{"scope not found", "@@ class C:\n+    x = 1\n", py, reply.CodeNotFound, `the line "class C:" does not occur`},
		{"nested scope not found", "@@ class B:\n@@ def g(self):\n+    x = 1\n", py, reply.CodeNotFound, `the line "def g(self):" does not occur`},
		{"two insertions at one place", "@@ class A:\n+    x = 1\n@@ class A:\n+    y = 2\n", py, reply.CodeOverlap, "inserts too"},
		{"an insertion inside a changed hunk", "@@\n class A:\n-    def f(self):\n+    def g(self):\n         pass\n@@ class A:\n+    x = 1\n", py, reply.CodeOverlap, "it inserts its lines at line 2, inside lines that hunk wrote"},
		// The @@ line occurs twice in the original: an earlier hunk
		// changing one does not single out the other.
		{"scope ambiguous in the original", "@@\n-class B:\n+class Z:\n     def f(self):\n         pass\n@@ class B:\n@@ def f(self):\n+        x = 1\n",
			"class B:\n    def f(self):\n        pass\n\nclass B:\n    def f(self):\n        return\n", reply.CodeAmbiguous, "in the original file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, f := applyPatchTo(t, patch(c.hunks), "x.py", c.text)
			if f == nil || f.Code != c.code || !strings.Contains(f.Message, c.msg) {
				t.Fatalf("got %+v; want %s with %q", f, c.code, c.msg)
			}
		})
	}
	// Ambiguous: Candidates are the lines of the @@ line's places.
	_, f := applyPatchTo(t, patch("@@ def f(self):\n+        '''doc'''\n"), "x.py", py)
	if f == nil || len(f.Candidates) != 2 || f.Candidates[0] != 2 || f.Candidates[1] != 6 {
		t.Errorf("candidates %+v, want lines 2 and 6", f)
	}
	// Not found: the nearest lines to the missing @@ line.
	_, f = applyPatchTo(t, patch("@@ class C:\n+    x = 1\n"), "x.py", py)
	if f == nil || f.Expected != "class C:" || len(f.Nearest) == 0 || f.Nearest[0].Text != "class A:" && f.Nearest[0].Text != "class B:" {
		t.Errorf("failure %+v, want the nearest lines to class C:", f)
	}

	// Both an @@ line and *** End of File on an insertion: malformed.
	malformedOnly(t, patch("@@ class A:\n+    x = 1\n*** End of File\n"), "both its @@ line(s) and *** End of File")
}

// TestInsertString: Block.String writes an insertion as the apply_patch
// patch it came from, which Parse reads back.
func TestInsertString(t *testing.T) {
	for _, b := range []reply.Block{
		{Format: reply.FormatApplyPatch, Path: "my dir/x.py", New: []string{"a", "", "+b"}, Insert: true},
		{Format: reply.FormatApplyPatch, Path: "x.py", New: []string{"a"}, Scope: []string{"class A:", "def f():"}, Insert: true, MoveTo: "y.py"},
	} {
		res := reply.Parse(b.String())
		if len(res.Malformed) != 0 || len(res.Blocks) != 1 {
			t.Fatalf("Parse(%q) = %+v", b.String(), res)
		}
		got := res.Blocks[0]
		got.Line, got.PathLine = 0, 0
		if !equalResults(reply.Result{Blocks: []reply.Block{got}}, reply.Result{Blocks: []reply.Block{b}}) {
			t.Errorf("Parse(%q) = %+v, want %+v", b.String(), got, b)
		}
	}
}
