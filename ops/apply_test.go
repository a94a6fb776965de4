package ops_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/symedit/symedit/diff"
	"github.com/symedit/symedit/ops"
)

// applyWorkspace copies the repository's fixtures (CPython's
// multiprocessing/process.py, Go's sync/atomic/type.go and
// log/slog/value.go excerpts, see testdata/src/README.md) into a
// temporary root and opens a workspace confined to it, relative paths
// taken from it.
func applyWorkspace(t *testing.T) (*ops.Workspace, string) {
	t.Helper()
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("../testdata/src")); err != nil {
		t.Fatal(err)
	}
	w, err := ops.Open(ops.Options{Root: root, Dir: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, root
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// snapshot returns the content of every file below root.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		m[p] = read(t, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// sameFiles fails unless root holds exactly the files of before, byte for
// byte.
func sameFiles(t *testing.T, root string, before map[string]string) {
	t.Helper()
	after := snapshot(t, root)
	for p, b := range before {
		a, ok := after[p]
		switch {
		case !ok:
			t.Errorf("%s is gone", p)
		case a != b:
			t.Errorf("%s changed", p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s appeared", p)
		}
	}
}

func replaceOnce(t *testing.T, s, old, new string) string {
	t.Helper()
	if strings.Count(s, old) != 1 {
		t.Fatalf("%q occurs %d times", old, strings.Count(s, old))
	}
	return strings.Replace(s, old, new, 1)
}

// TestApplyEditBlock: an anchored EDIT block edits a real file and an
// empty one creates another; the result says which file was added and
// which updated, and each block applied.
func TestApplyEditBlock(t *testing.T) {
	w, root := applyWorkspace(t)
	proc := filepath.Join(root, "python/process.py")
	orig := read(t, proc)
	rep := "Make terminate say what it does.\n\npython/process.py\n```python\n<<<<<<< EDIT\n    def terminate(self):\n" +
		"-------\n        '''\n        Terminate process; sends SIGTERM signal or uses TerminateProcess()\n        '''\n" +
		"=======\n        '''\n        Terminate the process (SIGTERM, or TerminateProcess() on Windows)\n        '''\n" +
		"-------\n        self._check_closed()\n        self._popen.terminate()\n>>>>>>>\n```\n\n" +
		"notes/NEW.md\n<<<<<<< EDIT\n-------\n=======\n# Notes\n-------\n>>>>>>>\n"
	res, err := w.Apply(context.Background(), ops.ApplyRequest{Reply: rep})
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	want := replaceOnce(t, orig, "Terminate process; sends SIGTERM signal or uses TerminateProcess()\n        '''\n        self._check_closed()\n        self._popen.terminate()",
		"Terminate the process (SIGTERM, or TerminateProcess() on Windows)\n        '''\n        self._check_closed()\n        self._popen.terminate()")
	if got := read(t, proc); got != want {
		t.Errorf("process.py:\n%s", got)
	}
	if got := read(t, filepath.Join(root, "notes/NEW.md")); got != "# Notes\n" {
		t.Errorf("NEW.md = %q", got)
	}
	if !res.OK || !res.Written || !res.Changed || res.Error != nil || len(res.Files) != 2 || len(res.Blocks) != 2 {
		t.Fatalf("result %+v", res)
	}
	for i, op := range []string{ops.ApplyUpdate, ops.ApplyAdd} {
		f := res.Files[i]
		if f.Op != op || !f.OK || !f.Written || !f.Changed || f.Status != ops.ApplyApplied || len(f.Blocks) != 1 || f.Blocks[0] != i+1 {
			t.Errorf("file %d: %+v", i, f)
		}
		if b := res.Blocks[i]; b.Status != ops.ApplyApplied || b.Format != "edit" || b.Index != i+1 {
			t.Errorf("block %d: %+v", i, b)
		}
	}
	if res.Blocks[0].ReplyLine != 5 || res.Files[0].Syntax == nil || !res.Files[0].Syntax.Checked {
		t.Errorf("block 1 at reply line %d, syntax %+v", res.Blocks[0].ReplyLine, res.Files[0].Syntax)
	}
}

// TestApplySearchReplace: SEARCH/REPLACE blocks for a Go and a Python
// file; a dry run writes nothing and shows each file's diff, the real run
// writes both.
func TestApplySearchReplace(t *testing.T) {
	w, root := applyWorkspace(t)
	atomic, proc := filepath.Join(root, "go/atomic_type.go"), filepath.Join(root, "python/process.py")
	before := snapshot(t, root)
	rep := "go/atomic_type.go\n<<<<<<< SEARCH\n// b32 returns a uint32 0 or 1 representing b.\n=======\n// b32 returns 1 for true and 0 for false.\n>>>>>>> REPLACE\n\n" +
		"python/process.py\n<<<<<<< SEARCH\n    def _check_closed(self):\n=======\n    def _check_closed(self):  # raises if closed\n>>>>>>> REPLACE\n"
	req := ops.ApplyRequest{Reply: rep}
	req.DryRun = true
	res, err := w.Apply(context.Background(), req)
	if err != nil {
		t.Fatalf("dry run: %v", err)
	}
	sameFiles(t, root, before)
	if !res.OK || !res.DryRun || res.Written || !res.Changed {
		t.Errorf("dry run result %+v", res.Result)
	}
	for _, f := range res.Files {
		if f.Written || !f.DryRun || !strings.Contains(f.Diff, "+++ b/") || f.Status != ops.ApplyApplied {
			t.Errorf("dry run file %+v", f)
		}
	}
	if !strings.Contains(res.Files[0].Diff, "+// b32 returns 1 for true and 0 for false.") {
		t.Errorf("diff:\n%s", res.Files[0].Diff)
	}
	res, err = w.Apply(context.Background(), ops.ApplyRequest{Reply: rep})
	if err != nil || !res.OK {
		t.Fatalf("Apply: %v %+v", err, res)
	}
	if got, want := read(t, atomic), replaceOnce(t, before[atomic], "// b32 returns a uint32 0 or 1 representing b.", "// b32 returns 1 for true and 0 for false."); got != want {
		t.Errorf("atomic_type.go:\n%s", got)
	}
	if got, want := read(t, proc), replaceOnce(t, before[proc], "def _check_closed(self):\n", "def _check_closed(self):  # raises if closed\n"); got != want {
		t.Errorf("process.py:\n%s", got)
	}
	if res.Files[0].Diff != "" {
		t.Errorf("a real run without Diff has a diff: %q", res.Files[0].Diff)
	}
}

// TestApplyUnifiedDiff: the unified diff of a real edit (two hunks far
// apart in process.py) reproduces the edited file byte for byte, even
// with its line numbers off by 20; a diff to /dev/null deletes a file.
func TestApplyUnifiedDiff(t *testing.T) {
	for _, shift := range []int{0, 20} {
		t.Run(fmt.Sprint("shift ", shift), func(t *testing.T) {
			w, root := applyWorkspace(t)
			proc := filepath.Join(root, "python/process.py")
			orig := read(t, proc)
			edited := replaceOnce(t, orig, "        _cleanup()\n        self._popen = self._Popen(self)\n", "        _cleanup()\n        # start the child\n        self._popen = self._Popen(self)\n")
			edited = replaceOnce(t, edited, "    def kill(self):\n", "    def kill(self):  # SIGKILL\n")
			diff := diff.Diff("python/process.py", []byte(orig), []byte(edited))
			if strings.Count(diff, "\n@@ ") != 2 {
				t.Fatalf("want two hunks:\n%s", diff)
			}
			diff = shiftHunks(t, diff, shift)
			res, err := w.Apply(context.Background(), ops.ApplyRequest{Reply: "```diff\n" + diff + "```\n"})
			if err != nil {
				t.Fatalf("Apply: %v\n%s", err, diff)
			}
			if got := read(t, proc); got != edited {
				t.Errorf("process.py:\n%s", got)
			}
			if len(res.Blocks) != 2 || res.Blocks[0].Format != "unified-diff" || res.Files[0].Op != ops.ApplyUpdate {
				t.Errorf("result %+v", res)
			}
		})
	}
	t.Run("delete", func(t *testing.T) {
		w, root := applyWorkspace(t)
		ts := filepath.Join(root, "typescript/scheduler.ts")
		diff := strings.Replace(diff.Diff("typescript/scheduler.ts", []byte(read(t, ts)), nil), "+++ b/typescript/scheduler.ts", "+++ /dev/null", 1)
		res, err := w.Apply(context.Background(), ops.ApplyRequest{Reply: diff})
		if err != nil {
			t.Fatalf("Apply: %v\n%s", err, diff)
		}
		if _, err := os.Stat(ts); !os.IsNotExist(err) {
			t.Errorf("scheduler.ts still exists: %v", err)
		}
		if f := res.Files[0]; f.Op != ops.ApplyDelete || !f.Written || !f.Changed {
			t.Errorf("file %+v", f)
		}
	})
}

// shiftHunks adds n to the line numbers of every @@ header of diff.
func shiftHunks(t *testing.T, diff string, n int) string {
	t.Helper()
	var b strings.Builder
	for _, l := range strings.SplitAfter(diff, "\n") {
		var a, as, c, cs int
		if _, err := fmt.Sscanf(l, "@@ -%d,%d +%d,%d @@", &a, &as, &c, &cs); err == nil {
			_, rest, _ := strings.Cut(l[2:], "@@")
			l = fmt.Sprintf("@@ -%d,%d +%d,%d @@%s", a+n, as, c+n, cs, rest)
		}
		b.WriteString(l)
	}
	return b.String()
}

// TestApplyPatch: a Codex apply_patch patch updates process.py with an
// "@@ def" anchor (the hunk's lines occur in several methods), adds a
// file, moves one and deletes another, in one transaction.
func TestApplyPatch(t *testing.T) {
	w, root := applyWorkspace(t)
	proc := filepath.Join(root, "python/process.py")
	orig := read(t, proc)
	patch := "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: python/process.py\n@@     def kill(self):\n" +
		"         '''\n         Terminate process; sends SIGKILL signal or uses TerminateProcess()\n         '''\n" +
		"-        self._check_closed()\n+        self._check_closed()  # before SIGKILL\n         self._popen.kill()\n" +
		"*** Add File: notes/todo.md\n+# To do\n+- nothing\n" +
		"*** Update File: go/slog_value.go\n*** Move to: go/value.go\n" +
		"*** Delete File: typescript/widget.tsx\n*** End Patch\nEOF\n"
	res, err := w.Apply(context.Background(), ops.ApplyRequest{Reply: patch})
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	want := replaceOnce(t, orig, "sends SIGKILL signal or uses TerminateProcess()\n        '''\n        self._check_closed()\n",
		"sends SIGKILL signal or uses TerminateProcess()\n        '''\n        self._check_closed()  # before SIGKILL\n")
	if got := read(t, proc); got != want {
		t.Errorf("process.py:\n%s", got)
	}
	if got := read(t, filepath.Join(root, "notes/todo.md")); got != "# To do\n- nothing\n" {
		t.Errorf("todo.md = %q", got)
	}
	if _, err := os.Stat(filepath.Join(root, "go/slog_value.go")); !os.IsNotExist(err) {
		t.Errorf("slog_value.go was not moved: %v", err)
	}
	if got := read(t, filepath.Join(root, "go/value.go")); !strings.Contains(got, "package slog") {
		t.Errorf("value.go = %.80q", got)
	}
	if _, err := os.Stat(filepath.Join(root, "typescript/widget.tsx")); !os.IsNotExist(err) {
		t.Errorf("widget.tsx was not deleted: %v", err)
	}
	var got []string
	for _, f := range res.Files {
		got = append(got, f.Op+" "+f.Path+" "+f.MoveTo)
		if !f.Written || f.Status != ops.ApplyApplied {
			t.Errorf("file %+v", f)
		}
	}
	if s := strings.Join(got, "; "); s != "update python/process.py ; add notes/todo.md ; move go/slog_value.go go/value.go; delete typescript/widget.tsx " {
		t.Errorf("files: %s", s)
	}
}

// TestApplyRefusal: a reply whose last block does not apply, one with a
// malformed block, one with a path outside the root and one whose edit
// breaks the Go syntax are refused as a whole: every file byte-identical,
// dry run or not, with the reason in the result.
func TestApplyRefusal(t *testing.T) {
	good := "go/atomic_type.go\n<<<<<<< SEARCH\n// b32 returns a uint32 0 or 1 representing b.\n=======\n// b32 returns 1 for true and 0 for false.\n>>>>>>> REPLACE\n\n" +
		"```diff\n--- a/typescript/widget.tsx\n+++ /dev/null\n```\n\n" +
		"*** Begin Patch\n*** Add File: notes/new.md\n+new\n*** End Patch\n\n"
	tests := []struct {
		name, reply string
		code        ops.Code
		file        string // the file whose error is checked, with its code
		fileCode    ops.Code
	}{
		{"no match", good + "python/process.py\n<<<<<<< SEARCH\n    def _check_close(self):\n=======\n    def _check_closed(self):  # x\n>>>>>>> REPLACE\n",
			ops.CodeApply, "python/process.py", ops.CodeApply},
		{"ambiguous", good + "python/process.py\n<<<<<<< SEARCH\n        self._check_closed()\n=======\n        self._check_closed()  # x\n>>>>>>> REPLACE\n",
			ops.CodeApply, "python/process.py", ops.CodeApply},
		{"malformed", good + "python/process.py\n<<<<<<< SEARCH\n    def run(self):\n>>>>>>> REPLACE\n", ops.CodeApply, "go/atomic_type.go", ops.CodeApply},
		{"outside root", good + "../escape.py\n<<<<<<< SEARCH\n=======\nx = 1\n>>>>>>> REPLACE\n", ops.CodeOutsideRoot, "", ""},
		{"syntax", good + "go/slog_value.go\n<<<<<<< SEARCH\ntype Value struct {\n=======\ntype Value struct {{\n>>>>>>> REPLACE\n",
			ops.CodeApply, "go/slog_value.go", ops.CodeSyntax},
		{"delete missing", good + "*** Begin Patch\n*** Delete File: go/nosuch.go\n*** End Patch\n", ops.CodeApply, "go/nosuch.go", ops.CodeApply},
		{"move onto a file", good + "*** Begin Patch\n*** Update File: go/slog_value.go\n*** Move to: python/process.py\n*** End Patch\n", ops.CodeApply, "go/slog_value.go", ops.CodeApply},
		{"no blocks", "Just prose, ``` and no blocks.\n", ops.CodeApply, "", ""},
		// Its second hunk's lines occur twice in the original, and the
		// first hunk changes one of them: hunks are placed in the original
		// text, where the second is still ambiguous.
		{"patch ambiguous in the original", good + "*** Begin Patch\n*** Update File: python/process.py\n@@\n     def is_alive(self):\n" +
			"-        from multiprocessing.connection import wait\n+        from multiprocessing.connection import wait as _wait\n" +
			"@@\n-        from multiprocessing.connection import wait\n+        from multiprocessing import connection\n*** End Patch\n",
			ops.CodeApply, "python/process.py", ops.CodeApply},
	}
	for _, tt := range tests {
		for _, dry := range []bool{false, true} {
			t.Run(fmt.Sprint(tt.name, " dry ", dry), func(t *testing.T) {
				w, root := applyWorkspace(t)
				before := snapshot(t, root)
				req := ops.ApplyRequest{Reply: tt.reply}
				req.DryRun = dry
				res, err := w.Apply(context.Background(), req)
				sameFiles(t, root, before)
				var oe *ops.Error
				if !errors.As(err, &oe) || oe != res.Error || oe.Code != tt.code {
					t.Fatalf("error %v (%T), result error %+v, want code %s", err, err, res.Error, tt.code)
				}
				if res.OK || res.Written {
					t.Errorf("result %+v", res.Result)
				}
				if tt.file == "" {
					return
				}
				found := false
				for _, f := range res.Files {
					if f.Written || f.OK != (f.Status == ops.ApplyApplied) || f.OK && f.Error != nil || !f.OK && f.Error == nil {
						t.Errorf("file %+v", f)
					}
					if f.Path == tt.file {
						found = true
						status := ops.ApplyFailed
						if tt.name == "malformed" {
							status = ops.ApplySkipped // valid, not written: another block is malformed
						}
						if f.Error == nil || f.Error.Code != tt.fileCode || f.Status != status {
							t.Errorf("file %s: %+v, want error code %s", f.Path, f, tt.fileCode)
						}
					}
				}
				if !found {
					t.Errorf("no file %s in %+v", tt.file, res.Files)
				}
			})
		}
	}
}

// TestApplyFailureFields: the file of a block that does not apply carries
// the block's failure as its error: the real line, the candidates.
func TestApplyFailureFields(t *testing.T) {
	w, _ := applyWorkspace(t)
	rep := "python/process.py\n<<<<<<< SEARCH\n        self._check_closed()\n        self._popen.kill()\n=======\n        self._popen.kill()\n>>>>>>> REPLACE\n" +
		"python/process.py\n<<<<<<< SEARCH\n        self._check_closed()\n=======\n        pass\n>>>>>>> REPLACE\n"
	res, _ := w.Apply(context.Background(), ops.ApplyRequest{Reply: rep})
	f := res.Files[0]
	if f.Status != ops.ApplyFailed || f.Error == nil || len(f.Error.Candidates) < 2 {
		t.Fatalf("file %+v error %+v", f, f.Error)
	}
	if res.Blocks[0].Status != ops.ApplySkipped || res.Blocks[1].Status != ops.ApplyFailed || res.Blocks[1].Failure == nil || res.Blocks[1].Failure.Code != "AMBIGUOUS" {
		t.Errorf("blocks %+v", res.Blocks)
	}
	if !strings.Contains(res.Error.Message, "1 of 2 block(s) failed; nothing was written") {
		t.Errorf("message %q", res.Error.Message)
	}
}

// TestApplyPartial: with Partial, the file whose blocks all apply is
// written and the other is byte-identical.
func TestApplyPartial(t *testing.T) {
	w, root := applyWorkspace(t)
	atomic, proc := filepath.Join(root, "go/atomic_type.go"), filepath.Join(root, "python/process.py")
	origGo, origPy := read(t, atomic), read(t, proc)
	rep := "go/atomic_type.go\n<<<<<<< SEARCH\n// b32 returns a uint32 0 or 1 representing b.\n=======\n// b32 returns 1 for true and 0 for false.\n>>>>>>> REPLACE\n\n" +
		"python/process.py\n<<<<<<< SEARCH\n    def nosuch(self):\n=======\n    pass\n>>>>>>> REPLACE\n"
	res, err := w.Apply(context.Background(), ops.ApplyRequest{Reply: rep, Partial: true})
	if err == nil || res.OK || !res.Written {
		t.Fatalf("err %v result %+v", err, res.Result)
	}
	if read(t, atomic) == origGo || read(t, proc) != origPy {
		t.Errorf("partial wrote the wrong files")
	}
	if !res.Files[0].Written || res.Files[1].Written || !strings.Contains(res.Error.Message, "; wrote the 1 file(s) whose blocks all applied: go/atomic_type.go") || res.Error.Remedy != nil {
		t.Errorf("files %+v, message %q", res.Files, res.Error.Message)
	}
}

// TestApplyJSON: the result marshals as the common envelope, with files,
// blocks, malformed and shell_suggestions as arrays, never null.
func TestApplyJSON(t *testing.T) {
	w, _ := applyWorkspace(t)
	res, _ := w.Apply(context.Background(), ops.ApplyRequest{Reply: "no blocks"})
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"ok":false,"changed":false,"written":false,"dry_run":false,"error":{"code":"APPLY","message":"the reply has no edit blocks: none of a path line and \u003c\u003c\u003c\u003c\u003c\u003c\u003c EDIT or \u003c\u003c\u003c\u003c\u003c\u003c\u003c SEARCH, a unified diff (--- and +++ lines, then @@ hunks) or a Codex patch (*** Begin Patch, *** Update File:, *** Add File:, *** Delete File:); nothing was written"},"files":[],"blocks":[],"malformed":[],"shell_suggestions":[]}`
	if string(b) != want {
		t.Errorf("JSON\n%s\nwant\n%s", b, want)
	}
	var req ops.ApplyRequest
	if err := json.Unmarshal([]byte(`{"reply": "r", "path": "p", "match": "loose", "partial": true, "dry_run": true}`), &req); err != nil {
		t.Fatal(err)
	}
	if req.Reply != "r" || req.Path != "p" || req.Match != "loose" || !req.Partial || !req.DryRun {
		t.Errorf("request %+v", req)
	}
}

// TestApplyConcurrent: replies that edit the same two files, named in
// opposite orders (and one through a second name), run at once: the locks
// of every file are taken in one order, so none deadlocks, and each
// reply's edits land, none lost.
func TestApplyConcurrent(t *testing.T) {
	w, root := applyWorkspace(t)
	atomic, proc := filepath.Join(root, "go/atomic_type.go"), filepath.Join(root, "python/process.py")
	origGo, origPy := read(t, atomic), read(t, proc)
	goAnchors := []string{"func b32(b bool) uint32 {", "// For testing *Pointer[T]'s methods can be inlined."}
	pyAnchors := []string{"    def _check_closed(self):", "    def terminate(self):"}
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			g, p := goAnchors[i%2], pyAnchors[i%2]
			goBlock := fmt.Sprintf("go/atomic_type.go\n<<<<<<< SEARCH\n%s\n=======\n// edit %d\n%s\n>>>>>>> REPLACE\n", g, i, g)
			pyPath := "python/process.py"
			if i%4 == 3 {
				pyPath = "python/../python/process.py"
			}
			pyBlock := fmt.Sprintf("%s\n<<<<<<< SEARCH\n%s\n=======\n    # edit %d\n%s\n>>>>>>> REPLACE\n", pyPath, p, i, p)
			rep := goBlock + "\n" + pyBlock
			if i%2 == 1 {
				rep = pyBlock + "\n" + goBlock
			}
			_, errs[i] = w.Apply(context.Background(), ops.ApplyRequest{Reply: rep})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("reply %d: %v", i, err)
		}
	}
	gotGo, gotPy := read(t, atomic), read(t, proc)
	for i := range n {
		if !strings.Contains(gotGo, fmt.Sprintf("// edit %d\n", i)) || !strings.Contains(gotPy, fmt.Sprintf("    # edit %d\n", i)) {
			t.Errorf("the edits of reply %d were lost", i)
		}
	}
	if len(gotGo) <= len(origGo) || len(gotPy) <= len(origPy) {
		t.Errorf("files did not grow")
	}
}

// TestApplyGitDiffWithoutHunks: the changes git writes without hunks (an
// empty file created, an empty file deleted, a mode change)
// apply with the hunks of the same `git diff`, and the modes of a diff
// with hunks (a mode change with an edit, a new executable file) apply
// with them: real git output of a real change reproduces the changed
// tree, content and execute permission. A dry run changes nothing and
// shows git's headers.
func TestApplyGitDiffWithoutHunks(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	w, root := applyWorkspace(t)
	if err := os.WriteFile(filepath.Join(root, "python/empty.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// The same tree in a git repository, changed there.
	repo := t.TempDir()
	if err := os.CopyFS(repo, os.DirFS(root)); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(gitBin, append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "core.fileMode=true"}, args...)...)
		cmd.Dir = repo
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "orig")
	proc := read(t, filepath.Join(repo, "python/process.py"))
	if err := os.WriteFile(filepath.Join(repo, "python/process.py"), []byte(replaceOnce(t, proc, "    def kill(self):\n", "    def kill(self):  # SIGKILL\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(repo, "python/empty.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(repo, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		name    string
		perm    fs.FileMode
		content string
	}{{"notes/empty.md", 0o644, ""}, {"notes/run.sh", 0o755, ""}, {"notes/tool.sh", 0o755, "#!/bin/sh\necho tool\n"}} {
		if err := os.WriteFile(filepath.Join(repo, f.name), []byte(f.content), f.perm); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(filepath.Join(repo, f.name), f.perm); err != nil {
			t.Fatal(err)
		}
	}
	// A mode change alone, and one with hunks.
	for _, f := range []string{"go/atomic_type.go", "python/process.py"} {
		if err := os.Chmod(filepath.Join(repo, f), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	git("add", "-A")
	diff := git("diff", "--cached", "--no-renames")
	for _, want := range []string{"new file mode 100644", "new file mode 100755", "deleted file mode 100644", "old mode 100644\nnew mode 100755\ndiff", "old mode 100644\nnew mode 100755\nindex", "@@ "} {
		if !strings.Contains(diff, want) {
			t.Fatalf("git diff has no %q:\n%s", want, diff)
		}
	}
	before := snapshot(t, root)
	req := ops.ApplyRequest{Reply: "```diff\n" + diff + "```\n"}
	req.DryRun = true
	res, err := w.Apply(context.Background(), req)
	if err != nil {
		t.Fatalf("dry run: %v\n%s", err, diff)
	}
	sameFiles(t, root, before)
	var diffs string
	for _, f := range res.Files {
		diffs += f.Diff
	}
	for _, want := range []string{"diff --git a/notes/empty.md b/notes/empty.md\nnew file mode 100644\n", "diff --git a/notes/run.sh b/notes/run.sh\nnew file mode 100755\n",
		"diff --git a/python/empty.py b/python/empty.py\ndeleted file mode 100644\n", "diff --git a/go/atomic_type.go b/go/atomic_type.go\nold mode 100644\nnew mode 100755\n"} {
		if !strings.Contains(diffs, want) {
			t.Errorf("the dry run's diffs have no %q:\n%s", want, diffs)
		}
	}
	res, err = w.Apply(context.Background(), ops.ApplyRequest{Reply: diff})
	if err != nil {
		t.Fatalf("Apply: %v\n%s", err, diff)
	}
	got, want := snapshot(t, root), snapshot(t, repo)
	for p, c := range want {
		rel, _ := filepath.Rel(repo, p)
		if strings.HasPrefix(rel, ".git"+string(filepath.Separator)) {
			continue
		}
		q := filepath.Join(root, rel)
		g, ok := got[q]
		if !ok || g != c {
			t.Errorf("%s: missing or different", rel)
			continue
		}
		fi, err1 := os.Stat(p)
		gi, err2 := os.Stat(q)
		if err1 != nil || err2 != nil || fi.Mode().Perm()&0o100 != gi.Mode().Perm()&0o100 {
			t.Errorf("%s: mode %v, git's %v", rel, gi.Mode(), fi.Mode())
		}
	}
	for q := range got {
		rel, _ := filepath.Rel(root, q)
		if _, ok := want[filepath.Join(repo, rel)]; !ok {
			t.Errorf("%s exists, git deleted it", rel)
		}
	}
	opOf := map[string]string{}
	for _, f := range res.Files {
		opOf[f.Path] = f.Op
	}
	if opOf["notes/empty.md"] != ops.ApplyAdd || opOf["python/empty.py"] != ops.ApplyDelete || opOf["go/atomic_type.go"] != ops.ApplyUpdate {
		t.Errorf("ops %v", opOf)
	}
}

// TestApplyGitDiffWithoutHunksRefused: a hunkless deletion of a file that
// is not empty, a mode change of a missing file, and a new empty file over
// a file that is not empty are refused with every file byte-identical and
// every mode kept.
func TestApplyGitDiffWithoutHunksRefused(t *testing.T) {
	for name, c := range map[string]struct{ reply, want string }{
		"delete a file that is not empty": {"diff --git a/go/atomic_type.go b/go/atomic_type.go\ndeleted file mode 100644\nindex e69de29..0000000\n",
			"deletes the file as an empty file (deleted file mode and no hunks"},
		"mode change of a missing file": {"diff --git a/go/nosuch.go b/go/nosuch.go\nold mode 100644\nnew mode 100755\n",
			"go/nosuch.go: no such file, so the reply cannot change its mode"},
		"new empty file over a file": {"diff --git a/go/atomic_type.go b/go/atomic_type.go\nnew file mode 100644\nindex 0000000..e69de29\n",
			"the file exists and is not empty"},
		"two modes": {"diff --git a/go/atomic_type.go b/go/atomic_type.go\nold mode 100644\nnew mode 100755\n\ndiff --git a/go/atomic_type.go b/go/atomic_type.go\nold mode 100755\nnew mode 100644\n",
			"changes the file's mode to both 100755 and 100644"},
	} {
		t.Run(name, func(t *testing.T) {
			w, root := applyWorkspace(t)
			before := snapshot(t, root)
			mode := func() fs.FileMode {
				fi, err := os.Stat(filepath.Join(root, "go/atomic_type.go"))
				if err != nil {
					t.Fatal(err)
				}
				return fi.Mode()
			}
			m := mode()
			mv := "*** Begin Patch\n*** Update File: python/process.py\n*** Move to: python/proc.py\n*** End Patch\n"
			res, err := w.Apply(context.Background(), ops.ApplyRequest{Reply: mv + c.reply})
			sameFiles(t, root, before)
			if mode() != m {
				t.Errorf("mode %v, was %v", mode(), m)
			}
			if err == nil || !strings.Contains(err.Error()+fmt.Sprint(res.Blocks), c.want) {
				t.Errorf("error %v, blocks %+v; want %q", err, res.Blocks, c.want)
			}
		})
	}
}

// TestApplyGitRenameModes: git's renames keep the execute permission of
// the file they move, and apply a mode change written with them: real `git diff -M` output of a rename of an executable script, a
// rename with chmod +x and an edit, reproduces the tree and its modes.
func TestApplyGitRenameModes(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	w, root := applyWorkspace(t)
	script := "#!/bin/sh\n# run the checks\nset -e\ngo vet ./...\ngo test ./...\necho done\n"
	for name, perm := range map[string]fs.FileMode{"bin/check.sh": 0o755, "bin/plain.sh": 0o644} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(script+"# "+name+"\n"), perm); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, perm); err != nil {
			t.Fatal(err)
		}
	}
	repo := t.TempDir()
	if err := os.CopyFS(repo, os.DirFS(root)); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(gitBin, append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "core.fileMode=true"}, args...)...)
		cmd.Dir = repo
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "orig")
	git("mv", "bin/check.sh", "bin/verify.sh")
	git("mv", "bin/plain.sh", "bin/run.sh")
	run := filepath.Join(repo, "bin/run.sh")
	if err := os.WriteFile(run, []byte(strings.Replace(script, "echo done", "echo ok", 1)+"# bin/plain.sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(run, 0o755); err != nil {
		t.Fatal(err)
	}
	git("add", "-A")
	diff := git("diff", "--cached", "-M")
	for _, want := range []string{"rename from bin/check.sh", "old mode 100644\nnew mode 100755\nsimilarity index", "rename from bin/plain.sh"} {
		if !strings.Contains(diff, want) {
			t.Fatalf("git diff has no %q:\n%s", want, diff)
		}
	}
	req := ops.ApplyRequest{Reply: diff}
	req.DryRun = true
	res, err := w.Apply(context.Background(), req)
	if err != nil {
		t.Fatalf("dry run: %v\n%s", err, diff)
	}
	var d string
	for _, f := range res.Files {
		d += f.Diff
	}
	if !strings.Contains(d, "diff --git a/bin/plain.sh b/bin/run.sh\nold mode 100644\nnew mode 100755\nrename from bin/plain.sh\n") ||
		!strings.Contains(d, "diff --git a/bin/check.sh b/bin/verify.sh\nrename from bin/check.sh\n") {
		t.Errorf("dry run diffs:\n%s", d)
	}
	if _, err := w.Apply(context.Background(), ops.ApplyRequest{Reply: diff}); err != nil {
		t.Fatalf("Apply: %v\n%s", err, diff)
	}
	for _, name := range []string{"bin/verify.sh", "bin/run.sh"} {
		if got, want := read(t, filepath.Join(root, name)), read(t, filepath.Join(repo, name)); got != want {
			t.Errorf("%s:\n%s\nwant\n%s", name, got, want)
		}
		fi, err := os.Stat(filepath.Join(root, name))
		if err != nil || fi.Mode().Perm()&0o100 == 0 {
			t.Errorf("%s: mode %v, want executable (%v)", name, fi.Mode(), err)
		}
	}
	for _, name := range []string{"bin/check.sh", "bin/plain.sh"} {
		if _, err := os.Stat(filepath.Join(root, name)); !os.IsNotExist(err) {
			t.Errorf("%s still exists: %v", name, err)
		}
	}
}
