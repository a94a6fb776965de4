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
				if len(b.OldLines) == 0 && (!b.Insert || b.IsCreate()) {
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
		{Format: reply.FormatApplyPatch, Path: "my dir/x.py", NewLines: []string{"a", "", "+b"}, Insert: true},
		{Format: reply.FormatApplyPatch, Path: "x.py", NewLines: []string{"a"}, Scope: []string{"class A:", "def f():"}, Insert: true, MoveTo: "y.py"},
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

// body is a patch that names a file of each kind, for the shell wrapper
// tests: an update with a move, an added file and a deleted one.
const body = "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-x\n+y\n*** Add File: n.txt\n+new\n*** Delete File: d.txt\n*** End Patch\n"

// TestPatchShellWrapper reads the shell line Codex models put around a
// patch as Codex reads it ("cd DIR && apply_patch <<'EOF'", from its
// invocation.rs): the cd makes every path of the patch, move targets
// included, relative to DIR, with DIR unquoted as the shell would and
// cleaned as cd cleans it; it used to be dropped, so the patch edited
// ./a.txt instead of sub/a.txt. Confining the paths to the root is the
// caller's (ops) job: "cd .." gives "../a.txt".
func TestPatchShellWrapper(t *testing.T) {
	for _, c := range []struct{ name, before, after, dir string }{
		{"no cd", "apply_patch <<'EOF'\n", "EOF\n", ""},
		{"the wrong-folder case", "cd sub && apply_patch <<'EOF'\n", "EOF\n", "sub/"},
		{"cd and a semicolon", "cd sub; apply_patch <<EOF\n", "EOF\n", "sub/"},
		{"applypatch and another word", "cd sub && applypatch <<\"PATCH\"\n", "PATCH\n", "sub/"},
		{"double quotes", "cd \"my dir\" && apply_patch <<'EOF'\n", "EOF\n", "my dir/"},
		{"single quotes", "cd 'it''s x' && apply_patch <<'EOF'\n", "EOF\n", "its x/"},
		{"a backslash", "cd my\\ dir && apply_patch <<'EOF'\n", "EOF\n", "my dir/"},
		{"cleaned as cd does", "cd ./sub/../other/ && apply_patch <<'EOF'\n", "EOF\n", "other/"},
		{"cd .", "cd . && apply_patch <<'EOF'\n", "EOF\n", ""},
		{"cd ..", "cd .. && apply_patch <<'EOF'\n", "EOF\n", "../"},
		{"an absolute folder", "cd /srv/x && apply_patch <<'EOF'\n", "EOF\n", "/srv/x/"},
		{"a shell fence with a prompt and comments", "```bash\n# apply it\n$ cd sub && apply_patch <<'EOF'\n", "EOF\n# done\n```\n", "sub/"},
		{"blank lines and a padded end", "cd sub && apply_patch <<'EOF'\n\n", "\nEOF  \n", "sub/"},
		{"prose that is no cd line above", "cd into the folder and run this:\n\napply_patch <<'EOF'\n", "EOF\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := reply.Parse(c.before + body + c.after)
			if len(res.Malformed) != 0 || len(res.Blocks) != 3 {
				t.Fatalf("got %+v", res)
			}
			got := []string{res.Blocks[0].Path, res.Blocks[0].MoveTo, res.Blocks[1].Path, res.Blocks[2].Path}
			want := []string{c.dir + "a.txt", c.dir + "b.txt", c.dir + "n.txt", c.dir + "d.txt"}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("paths %q, want %q", got, want)
			}
		})
	}
	// An absolute path in the patch stays absolute, as Codex joins it.
	res := reply.Parse("cd sub && apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: /etc/x\n*** End Patch\nEOF\n")
	if len(res.Blocks) != 1 || res.Blocks[0].Path != "/etc/x" {
		t.Errorf("got %+v", res)
	}

	// Refused: anything else the shell would run, and anything it would
	// expand, names the line and every file of the patch.
	for _, c := range []struct{ name, before, after, want string }{
		{"a command before", "git stash && apply_patch <<'EOF'\n", "EOF\n", `runs "git stash" before apply_patch`},
		{"a command after", "apply_patch <<'EOF' && rm x\n", "EOF\n", `runs "&& rm x" after the heredoc`},
		{"a command on the end line", "apply_patch <<'EOF'\n", "EOF && rm x\n", `"EOF && rm x" is not the line "EOF" that ends the heredoc`},
		{"a heredoc left open", "apply_patch <<'EOF'\n", "Done.\n", `has no line "EOF" after the patch`},
		{"a heredoc to cat", "cat > x.patch <<'EOF'\n", "EOF\n", `feeds the heredoc to "cat > x.patch", not to apply_patch`},
		{"apply_patch with arguments", "apply_patch -p1 <<'EOF'\n", "EOF\n", `runs apply_patch with the arguments "-p1"`},
		{"two commands before", "cd a && cd b && apply_patch <<'EOF'\n", "EOF\n", `runs "cd a && cd b" before apply_patch`},
		{"cd joined with ||", "cd sub || apply_patch <<'EOF'\n", "EOF\n", `joins cd and apply_patch with "||"`},
		{"cd without a folder", "cd && apply_patch <<'EOF'\n", "EOF\n", "cd without a folder"},
		{"cd with an option", "cd -P sub && apply_patch <<'EOF'\n", "EOF\n", "with options or more than one folder"},
		{"cd to two folders", "cd a b && apply_patch <<'EOF'\n", "EOF\n", "with options or more than one folder"},
		{"cd to $VAR", "cd $HOME/src && apply_patch <<'EOF'\n", "EOF\n", `the shell expansion "$"`},
		{"cd to \"$VAR\"", "cd \"$D\" && apply_patch <<'EOF'\n", "EOF\n", `the shell expansion "$"`},
		{"cd to a command's output", "cd `pwd` && apply_patch <<'EOF'\n", "EOF\n", "the shell expansion \"`\""},
		{"cd home", "cd ~/src && apply_patch <<'EOF'\n", "EOF\n", `the shell expansion "~"`},
		{"cd to a glob", "cd sr* && apply_patch <<'EOF'\n", "EOF\n", `the shell expansion "*"`},
		{"cd to an empty name", "cd '' && apply_patch <<'EOF'\n", "EOF\n", "an empty folder name"},
		{"a tab-stripping heredoc", "apply_patch <<-EOF\n", "EOF\n", "strips the tabs"},
		{"an open quote", "bash -lc \"cd sub && apply_patch <<'EOF'\n", "EOF\n\"\n", "cannot be read as a shell line"},
		{"cd on its own line in a fence", "```bash\ncd sub\napply_patch <<'EOF'\n", "EOF\n```\n", `line 2 "cd sub" changes the folder on a line of its own`},
		{"cd on its own line above a raw patch", "$ cd sub\n\n", "", `line 1 "$ cd sub" changes the folder on a line of its own`},
		{"cd on its own line in a diff fence", "```\ncd sub\n", "```\n", `line 2 "cd sub" changes the folder`},
		{"a command before in a shell fence", "```sh\ngit checkout -b fix\napply_patch <<'EOF'\n", "EOF\n```\n", `line 2 "git checkout -b fix" runs a command before the patch`},
		{"a command after in a shell fence", "```sh\napply_patch <<'EOF'\n", "EOF\nrm d.txt\n```\n", `"rm d.txt" runs a command after the patch`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := c.before + body + c.after
			m := malformedOnly(t, r, c.want)
			first := strings.Count(c.before, "\n") + 1
			if m.Line != first || m.Format != reply.FormatApplyPatch || strings.Join(m.Paths, "|") != "a.txt|b.txt|n.txt|d.txt" && strings.Join(m.Paths, "|") != "sub/a.txt|sub/b.txt|sub/n.txt|sub/d.txt" {
				t.Errorf("malformed %+v, want line %d and every file of the patch", m, first)
			}
		})
	}
}
