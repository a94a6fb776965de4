package files_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/files"
)

// TestCommitExec: a change's Exec sets or clears the execute
// permission with the content (as git diffs' mode changes ask), on an
// existing file and on a created one, and a failed transaction restores
// the mode the file was read with.
func TestCommitExec(t *testing.T) {
	dir := t.TempDir()
	fl, err := files.Open(files.Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer fl.Close()
	run, other := filepath.Join(dir, "run.sh"), filepath.Join(dir, "other.txt")
	for _, p := range []string{run, other} {
		if err := os.WriteFile(p, []byte("echo hi\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	perm := func(p string) fs.FileMode {
		t.Helper()
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Mode().Perm()
	}
	commit := func(path string, x files.Exec) error {
		doc, err := fl.ReadOrNew(path)
		if err != nil {
			t.Fatal(err)
		}
		return commitChanges(fl, []files.Change{{Doc: doc, Content: []byte("echo hi\n"), Exec: x}})
	}
	if err := commit("run.sh", files.ExecSet); err != nil || perm(run) != 0o755 {
		t.Fatalf("ExecSet: %v, mode %o", err, perm(run))
	}
	if err := commit("run.sh", files.ExecKeep); err != nil || perm(run) != 0o755 {
		t.Fatalf("ExecKeep: %v, mode %o", err, perm(run))
	}
	if err := commit("run.sh", files.ExecClear); err != nil || perm(run) != 0o644 {
		t.Fatalf("ExecClear: %v, mode %o", err, perm(run))
	}
	if b, _ := os.ReadFile(run); string(b) != "echo hi\n" {
		t.Fatalf("content %q", b)
	}
	// A created file: execute permission where the umask left read.
	if err := commit("new.sh", files.ExecSet); err != nil {
		t.Fatal(err)
	}
	if m := perm(filepath.Join(dir, "new.sh")); m&0o100 == 0 || m != files.ExecSet.Apply(m&^0o111) {
		t.Errorf("created with ExecSet: mode %o", m)
	}
	// The second change fails (its file changed since it was read): it
	// fails while the files are prepared, so the first file was never
	// written (nothing to restore) and keeps its content and mode.
	doc, err := fl.ReadOrNew("run.sh")
	if err != nil {
		t.Fatal(err)
	}
	stale, err := fl.ReadOrNew("other.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = commitChanges(fl, []files.Change{{Doc: doc, Content: []byte("echo bye\n"), Exec: files.ExecSet}, {Doc: stale, Content: []byte("x\n")}})
	var te *files.TransactionError
	if !errors.As(err, &te) || te.Failed != 1 || len(te.Restored) != 0 || !errors.Is(err, edit.ErrChanged) {
		t.Fatalf("Commit: %v", err)
	}
	if b, _ := os.ReadFile(run); string(b) != "echo hi\n" || perm(run) != 0o644 {
		t.Errorf("after the failed transaction: %q, mode %o", b, perm(run))
	}
	// The third change fails once the first two are in place (it writes
	// the file the second one just replaced): the first file gets its
	// content and its mode back, the second its content.
	if stale, err = fl.ReadOrNew("other.txt"); err != nil {
		t.Fatal(err)
	}
	err = commitChanges(fl, []files.Change{{Doc: doc, Content: []byte("echo bye\n"), Exec: files.ExecSet},
		{Doc: stale, Content: []byte("x\n")}, {Doc: stale, Content: []byte("y\n")}})
	if !errors.As(err, &te) || te.Failed != 2 || len(te.Restored) != 2 || len(te.RestoreErrs) != 0 || !errors.Is(err, edit.ErrChanged) {
		t.Fatalf("Commit: %v", err)
	}
	if b, _ := os.ReadFile(run); string(b) != "echo hi\n" || perm(run) != 0o644 {
		t.Errorf("after the failed transaction: %q, mode %o", b, perm(run))
	}
	if b, _ := os.ReadFile(other); string(b) != "changed\n" {
		t.Errorf("after the failed transaction: other.txt holds %q", b)
	}
}
