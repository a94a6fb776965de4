package ops_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/symedit/symedit/ops"
)

// TestApplyPatchInsertion: an apply_patch update hunk that only adds lines
// appends them to the file (openai/codex's scenario
// 016_pure_addition_update_chunk), or inserts them right after its @@
// line when that line occurs once (openai/codex#30946, where Codex
// appends them anyway); an @@ line that occurs twice or nowhere refuses
// the reply, the files byte for byte as they were.
func TestApplyPatchInsertion(t *testing.T) {
	w, root := applyWorkspace(t)
	proc := filepath.Join(root, "python/process.py")
	orig := read(t, proc)
	r := "*** Begin Patch\n*** Update File: python/process.py\n@@\n+# appended\n" +
		"@@ class AuthenticationString(bytes):\n+    '''A secret.'''\n*** End Patch\n"
	if _, err := w.Apply(context.Background(), ops.ApplyRequest{Reply: r}); err != nil {
		t.Fatal(err)
	}
	want := replaceOnce(t, orig, "class AuthenticationString(bytes):\n", "class AuthenticationString(bytes):\n    '''A secret.'''\n") + "# appended\n"
	if got := read(t, proc); got != want {
		t.Fatalf("got\n%s", got)
	}

	for name, r := range map[string]string{
		// "def is_alive(self):" is in BaseProcess and _ParentProcess.
		"codex#30946 ambiguous": "*** Begin Patch\n*** Update File: python/process.py\n@@     def is_alive(self):\n+        pass\n*** End Patch\n",
		"not found":             "*** Begin Patch\n*** Update File: python/process.py\n@@ class NoSuch:\n+    pass\n*** End Patch\n",
		"missing file":          "*** Begin Patch\n*** Update File: python/nosuch.py\n@@\n+x = 1\n*** End Patch\n",
	} {
		t.Run(name, func(t *testing.T) {
			before := snapshot(t, root)
			res, err := w.Apply(context.Background(), ops.ApplyRequest{Reply: r})
			sameFiles(t, root, before)
			var oe *ops.Error
			if !errors.As(err, &oe) || oe.Code != ops.CodeApply || res.Written {
				t.Fatalf("error %v, result %+v", err, res.Result)
			}
			if name == "codex#30946 ambiguous" && (len(res.Blocks) != 1 || res.Blocks[0].Failure == nil || len(res.Blocks[0].Failure.Candidates) != 2) {
				t.Errorf("blocks %+v, want the two places listed", res.Blocks)
			}
			if name == "missing file" && !strings.Contains(res.Files[0].Reason, "no such file") {
				t.Errorf("file %+v", res.Files[0])
			}
		})
	}
}

// TestApplyPatchAfterCd: Codex models write "cd sub && apply_patch
// <<'EOF'"; the patch's paths, move targets included, are in sub. It
// used to be applied to ./a.txt (the wrong file, two wrong edits in the
// peer cases). A cd out of the root, a command other than cd and a cd on
// a line of its own refuse the reply, every file byte for byte as it was.
func TestApplyPatchAfterCd(t *testing.T) {
	setup := func(t *testing.T) (*ops.Workspace, string) {
		w, root := applyWorkspace(t)
		for p, c := range map[string]string{"a.txt": "top\n", "sub/a.txt": "one\ntwo\n", "sub/m.txt": "m\n"} {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, p), []byte(c), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return w, root
	}
	patch := "*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+2\n*** Update File: m.txt\n*** Move to: moved/m.txt\n*** Add File: new.txt\n+n\n*** End Patch\n"

	t.Run("the wrong-folder case", func(t *testing.T) {
		w, root := setup(t)
		before := snapshot(t, root)
		res, err := w.Apply(context.Background(), ops.ApplyRequest{Reply: "```bash\ncd sub && apply_patch <<'EOF'\n" + patch + "EOF\n```\n"})
		if err != nil {
			t.Fatalf("%v\n%+v", err, res)
		}
		want := map[string]string{}
		for p, c := range before {
			want[p] = c
		}
		want[filepath.Join(root, "sub/a.txt")] = "one\n2\n"
		delete(want, filepath.Join(root, "sub/m.txt"))
		want[filepath.Join(root, "sub/moved/m.txt")] = "m\n"
		want[filepath.Join(root, "sub/new.txt")] = "n\n"
		sameFiles(t, root, want) // ./a.txt untouched
		var paths []string
		for _, f := range res.Files {
			paths = append(paths, f.Path+">"+f.MoveTo)
		}
		if strings.Join(paths, " ") != "sub/a.txt> sub/m.txt>sub/moved/m.txt sub/new.txt>" {
			t.Errorf("files %v", paths)
		}
	})

	outside := t.TempDir()
	for _, c := range []struct {
		name, wrap string
		code       ops.Code
		msg        string
	}{
		{"cd out of the root", "cd .. && apply_patch <<'EOF'\n", ops.CodeOutsideRoot, "outside"},
		{"cd out of the root from a folder", "cd sub/../.. && apply_patch <<'EOF'\n", ops.CodeOutsideRoot, "outside"},
		{"cd to an absolute folder outside", "cd " + outside + " && apply_patch <<'EOF'\n", ops.CodeOutsideRoot, "outside"},
		{"cd through a link out of the root", "cd links/out && apply_patch <<'EOF'\n", ops.CodeOutsideRoot, "outside"},
		{"an unknown command before apply_patch", "git stash && apply_patch <<'EOF'\n", ops.CodeApply, `runs "git stash" before apply_patch`},
		{"a cd on a line of its own", "cd sub\napply_patch <<'EOF'\n", ops.CodeApply, "changes the folder on a line of its own"},
		{"a cd with a variable", "cd $SUB && apply_patch <<'EOF'\n", ops.CodeApply, "shell expansion"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, root := setup(t)
			for _, p := range []string{"a.txt", "m.txt"} {
				if err := os.WriteFile(filepath.Join(outside, p), []byte("one\ntwo\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// The link to the outside folder is in a folder of its own,
			// which snapshot leaves alone (it reads no links).
			links := filepath.Join(root, "links")
			if err := os.Mkdir(links, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, filepath.Join(links, "out")); err != nil {
				t.Fatal(err)
			}
			before, beforeOut := snapshot(t, filepath.Join(root, "sub")), snapshot(t, outside)
			top := read(t, filepath.Join(root, "a.txt"))
			for _, partial := range []bool{false, true} {
				res, err := w.Apply(context.Background(), ops.ApplyRequest{Reply: "```bash\n" + c.wrap + patch + "EOF\n```\n", Partial: partial})
				sameFiles(t, filepath.Join(root, "sub"), before)
				sameFiles(t, outside, beforeOut)
				if read(t, filepath.Join(root, "a.txt")) != top {
					t.Errorf("a.txt changed")
				}
				for _, p := range []string{"new.txt", "moved", "links/new.txt"} {
					if _, err := os.Lstat(filepath.Join(root, p)); err == nil {
						t.Errorf("%s appeared", p)
					}
				}
				var oe *ops.Error
				if !errors.As(err, &oe) || oe.Code != c.code || res.Written {
					t.Fatalf("error %v, result %+v; want %s", err, res.Result, c.code)
				}
				text := oe.Message
				for _, m := range res.Malformed {
					text += " " + m.Reason
				}
				if !strings.Contains(text, c.msg) {
					t.Errorf("%q lacks %q", text, c.msg)
				}
			}
		})
	}
}

// TestApplyAiderElision: a SEARCH/REPLACE block split by "..." lines
// applies piece by piece, as Aider's try_dotdotdots applies it; one whose
// pieces do not each occur once, in order, refuses the reply, the files
// byte for byte as they were.
func TestApplyAiderElision(t *testing.T) {
	w, root := applyWorkspace(t)
	proc := filepath.Join(root, "python/process.py")
	orig := read(t, proc)
	r := "python/process.py\n```python\n<<<<<<< SEARCH\nclass AuthenticationString(bytes):\n...\nclass _ParentProcess(BaseProcess):\n=======\nclass AuthenticationString(bytes):  # secret\n...\nclass _ParentProcess(BaseProcess):  # parent\n>>>>>>> REPLACE\n```\n"
	if _, err := w.Apply(context.Background(), ops.ApplyRequest{Reply: r}); err != nil {
		t.Fatal(err)
	}
	want := replaceOnce(t, replaceOnce(t, orig, "class AuthenticationString(bytes):\n", "class AuthenticationString(bytes):  # secret\n"),
		"class _ParentProcess(BaseProcess):\n", "class _ParentProcess(BaseProcess):  # parent\n")
	if got := read(t, proc); got != want {
		t.Fatalf("got\n%s", got)
	}

	before := snapshot(t, root)
	// "def is_alive(self):" occurs twice: the second piece is ambiguous.
	r = "python/process.py\n<<<<<<< SEARCH\nclass BaseProcess(object):\n...\n    def is_alive(self):\n=======\nclass BaseProcess(object):\n...\n    def is_alive(self):  # x\n>>>>>>> REPLACE\n"
	res, err := w.Apply(context.Background(), ops.ApplyRequest{Reply: r})
	sameFiles(t, root, before)
	var oe *ops.Error
	if !errors.As(err, &oe) || oe.Code != ops.CodeApply || res.Written || !strings.Contains(res.Blocks[0].Reason, "read as Aider's elision, piece 2's SEARCH lines occur at lines") {
		t.Fatalf("error %v, blocks %+v", err, res.Blocks)
	}
}
