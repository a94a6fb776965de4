package edit_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/symedit/symedit/edit"
)

// TestCommitChangesExec: a change's Exec sets or clears the execute
// permission with the content (issue 14: git diffs' mode changes), on an
// existing file and on a created one, and a failed transaction restores
// the mode the file was read with.
func TestCommitChangesExec(t *testing.T) {
	dir := t.TempDir()
	files, err := edit.Open(edit.Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer files.Close()
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
	commit := func(path string, x edit.Exec) error {
		doc, err := files.ReadOrNew(path)
		if err != nil {
			t.Fatal(err)
		}
		return files.CommitChanges([]edit.Change{{Doc: doc, Content: []byte("echo hi\n"), Exec: x}})
	}
	if err := commit("run.sh", edit.ExecSet); err != nil || perm(run) != 0o755 {
		t.Fatalf("ExecSet: %v, mode %o", err, perm(run))
	}
	if err := commit("run.sh", edit.ExecKeep); err != nil || perm(run) != 0o755 {
		t.Fatalf("ExecKeep: %v, mode %o", err, perm(run))
	}
	if err := commit("run.sh", edit.ExecClear); err != nil || perm(run) != 0o644 {
		t.Fatalf("ExecClear: %v, mode %o", err, perm(run))
	}
	if b, _ := os.ReadFile(run); string(b) != "echo hi\n" {
		t.Fatalf("content %q", b)
	}
	// A created file: execute permission where the umask left read.
	if err := commit("new.sh", edit.ExecSet); err != nil {
		t.Fatal(err)
	}
	if m := perm(filepath.Join(dir, "new.sh")); m&0o100 == 0 || m != edit.ExecSet.Apply(m&^0o111) {
		t.Errorf("created with ExecSet: mode %o", m)
	}
	// The second change fails (its file changed since it was read): it
	// fails while the files are prepared, so the first file was never
	// written (nothing to restore) and keeps its content and mode.
	doc, err := files.ReadOrNew("run.sh")
	if err != nil {
		t.Fatal(err)
	}
	stale, err := files.ReadOrNew("other.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = files.CommitChanges([]edit.Change{{Doc: doc, Content: []byte("echo bye\n"), Exec: edit.ExecSet}, {Doc: stale, Content: []byte("x\n")}})
	var te *edit.TransactionError
	if !errors.As(err, &te) || te.Failed != 1 || len(te.Restored) != 0 || !errors.Is(err, edit.ErrChanged) {
		t.Fatalf("CommitChanges: %v", err)
	}
	if b, _ := os.ReadFile(run); string(b) != "echo hi\n" || perm(run) != 0o644 {
		t.Errorf("after the failed transaction: %q, mode %o", b, perm(run))
	}
	// The third change fails once the first two are in place (it writes
	// the file the second one just replaced): the first file gets its
	// content and its mode back, the second its content.
	if stale, err = files.ReadOrNew("other.txt"); err != nil {
		t.Fatal(err)
	}
	err = files.CommitChanges([]edit.Change{{Doc: doc, Content: []byte("echo bye\n"), Exec: edit.ExecSet},
		{Doc: stale, Content: []byte("x\n")}, {Doc: stale, Content: []byte("y\n")}})
	if !errors.As(err, &te) || te.Failed != 2 || len(te.Restored) != 2 || len(te.RestoreErrs) != 0 || !errors.Is(err, edit.ErrChanged) {
		t.Fatalf("CommitChanges: %v", err)
	}
	if b, _ := os.ReadFile(run); string(b) != "echo hi\n" || perm(run) != 0o644 {
		t.Errorf("after the failed transaction: %q, mode %o", b, perm(run))
	}
	if b, _ := os.ReadFile(other); string(b) != "changed\n" {
		t.Errorf("after the failed transaction: other.txt holds %q", b)
	}
}
