package ops_test

import (
	"context"
	"strings"
	"testing"

	"github.com/symedit/symedit/ops"
)

// ownDiffBefore are the files the round trips of symedit's own diffs
// start from.
var ownDiffBefore = map[string]string{
	"f.py":      "def f():\n    return 1\n\n\ndef g():\n    return 2\n",
	"old.txt":   "old\nlines\n",
	"noeol.txt": "a\nb",
	"eol.txt":   "a\nb\n",
	"s.sh":      "echo hi\n",
	"mv.txt":    "move\nme\n",
	"crlf.txt":  "a\r\nb\r\nc",
}

// TestApplyReadsItsOwnDiffs: the diff symedit's dry run prints for a
// reply (symedit's own output) is a diff that symedit apply, git apply
// and patch read back to the very files the reply itself writes: for a
// created file (git's "new file mode" and "--- /dev/null"), an edit, a
// deletion ("deleted file mode", "+++ /dev/null"), a move with and
// without an edit, a mode change, and a final line ending added or
// removed.
func TestApplyReadsItsOwnDiffs(t *testing.T) {
	for _, c := range []struct {
		name, reply string
		want        []string // in the dry run's diff
	}{
		{"create", "newdir/helper.go\n<<<<<<< SEARCH\n=======\npackage newdir\n\nfunc helper() {}\n>>>>>>> REPLACE\n",
			[]string{"diff --git a/newdir/helper.go b/newdir/helper.go\nnew file mode 100644\n--- /dev/null\n+++ b/newdir/helper.go\n@@ -0,0 +1,3 @@\n"}},
		{"create with a space in the name", "*** Begin Patch\n*** Add File: my dir/new file.txt\n+x\n*** End Patch\n",
			[]string{"diff --git a/my dir/new file.txt b/my dir/new file.txt\nnew file mode 100644\n--- /dev/null\n+++ b/my dir/new file.txt\t\n"}},
		{"create without a final line ending", "--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n\\ No newline at end of file\n",
			[]string{"--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n\\ No newline at end of file\n"}},
		{"create an executable file", "diff --git a/run.sh b/run.sh\nnew file mode 100755\n--- /dev/null\n+++ b/run.sh\n@@ -0,0 +1 @@\n+echo run\n",
			[]string{"new file mode 100755\n--- /dev/null\n+++ b/run.sh\n"}},
		{"edit", "f.py\n<<<<<<< SEARCH\n    return 1\n=======\n    return 10\n>>>>>>> REPLACE\n",
			[]string{"--- a/f.py\n+++ b/f.py\n"}},
		{"delete", "*** Begin Patch\n*** Delete File: old.txt\n*** End Patch\n",
			[]string{"diff --git a/old.txt b/old.txt\ndeleted file mode 100644\n--- a/old.txt\n+++ /dev/null\n"}},
		{"move with an edit", "*** Begin Patch\n*** Update File: mv.txt\n*** Move to: sub/moved.txt\n@@\n move\n-me\n+you\n*** End Patch\n",
			[]string{"rename from mv.txt\nrename to sub/moved.txt\n"}},
		{"move", "*** Begin Patch\n*** Update File: mv.txt\n*** Move to: moved.txt\n*** End Patch\n",
			[]string{"rename from mv.txt\nrename to moved.txt\n"}},
		{"mode change", "diff --git a/s.sh b/s.sh\nold mode 100644\nnew mode 100755\n",
			[]string{"old mode 100644\nnew mode 100755\n"}},
		{"adds the final line ending", "--- a/noeol.txt\n+++ b/noeol.txt\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n",
			[]string{"-b\n\\ No newline at end of file\n+b\n"}},
		{"edit of a CRLF file without a final line ending", "crlf.txt\n<<<<<<< SEARCH\nc\n=======\nC\n>>>>>>> REPLACE\n",
			[]string{"-c\n\\ No newline at end of file\n+C\n\\ No newline at end of file\n"}},
		{"removes the final line ending", "--- a/eol.txt\n+++ b/eol.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n",
			[]string{"-b\n+b\n\\ No newline at end of file\n"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			want, res, err := symeditApply(t, ownDiffBefore, c.reply, false)
			if err != nil {
				t.Fatalf("apply: %v %+v", err, res)
			}
			_, res, err = symeditApply(t, ownDiffBefore, c.reply, true)
			if err != nil {
				t.Fatalf("dry run: %v %+v", err, res)
			}
			var d strings.Builder
			for _, f := range res.Files {
				d.WriteString(f.Diff)
			}
			for _, w := range c.want {
				if !strings.Contains(d.String(), w) {
					t.Errorf("the dry run's diff has no %q:\n%s", w, d.String())
				}
			}
			checkOwnDiff(t, d.String(), want)
		})
	}
}

// checkOwnDiff applies diff, printed by symedit, to ownDiffBefore with
// symedit apply, git apply and patch, and compares each result with want.
func checkOwnDiff(t *testing.T, diff string, want map[string]string) {
	t.Helper()
	got, res, err := symeditApply(t, ownDiffBefore, diff, false)
	if err != nil {
		t.Fatalf("symedit apply of its own diff: %v %+v\n%s", err, res, diff)
	}
	sameTree(t, "symedit apply of its own diff", got, want)
	for _, peer := range []string{"git", "patch"} {
		got, out, ok := peerApply(t, peer, ownDiffBefore, diff, 1)
		if !ok {
			t.Errorf("%s refused symedit's diff: %s\n%s", peer, out, diff)
			continue
		}
		if peer == "patch" {
			// patch sets no execute permission from a diff's mode.
			for p, c := range want {
				if strings.HasSuffix(p, " (x)") {
					if g, ok := got[strings.TrimSuffix(p, " (x)")]; ok && g == c {
						delete(got, strings.TrimSuffix(p, " (x)"))
						got[p] = c
					}
				}
			}
		}
		sameTree(t, peer, got, want)
	}
}

// TestApplyReadsWriteDiffs: the diff `write --dry-run` prints for a new
// file (symedit's own output: git's "new file mode 100644", "--- /dev/null"
// and "+++ b/PATH", or the header alone for an empty file, as git writes
// it) reads back, with symedit apply, git apply and patch, to the file
// the write itself creates.
func TestApplyReadsWriteDiffs(t *testing.T) {
	for _, c := range []struct{ name, path, content, want string }{
		{"new file", "newdir/helper.go", "package newdir\n\nfunc helper() {}\n",
			"diff --git a/newdir/helper.go b/newdir/helper.go\nnew file mode 100644\n--- /dev/null\n+++ b/newdir/helper.go\n@@ -0,0 +1,3 @@\n+package newdir\n+\n+func helper() {}\n"},
		{"new file without a final line ending", "n.txt", "x\ny",
			"diff --git a/n.txt b/n.txt\nnew file mode 100644\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n\\ No newline at end of file\n"},
		{"new empty file", "empty.txt", "", "diff --git a/empty.txt b/empty.txt\nnew file mode 100644\n"},
		{"existing file", "f.py", "def f():\n    return 3\n", "--- a/f.py\n+++ b/f.py\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			write := func(dry bool) (map[string]string, string) {
				root := writeTree(t, ownDiffBefore)
				w, err := ops.Open(ops.Options{Root: root, Dir: root})
				if err != nil {
					t.Fatal(err)
				}
				defer w.Close()
				req := ops.WriteRequest{Path: c.path, Content: c.content}
				req.DryRun = dry
				res, err := w.Write(context.Background(), req)
				if err != nil {
					t.Fatalf("write: %v %+v", err, res)
				}
				return treeOf(t, root), res.Diff
			}
			want, _ := write(false)
			_, d := write(true)
			if !strings.HasPrefix(d, c.want) {
				t.Errorf("write --dry-run's diff is\n%s\nwant it to start with\n%s", d, c.want)
			}
			checkOwnDiff(t, d, want)
		})
	}
}
