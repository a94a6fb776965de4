package edit

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

// faultFS is the real file system with one operation made to fail. It
// records every operation Commit performs, in order.
type faultFS struct {
	osFS
	fail  string // the operation to fail, as recorded in calls
	err   error  // the error it fails with
	calls []string
	reads int
	temps []*faultFile
	// changed, for fail == "ReadFile#2", is what the second read returns:
	// the file as a concurrent writer left it just before the rename.
	changed []byte
}

func (f *faultFS) record(op string) bool {
	f.calls = append(f.calls, op)
	return f.fail == op
}

func (f *faultFS) CreateTemp(dir, pattern string) (tempFile, error) {
	if f.record("CreateTemp") {
		return nil, &fs.PathError{Op: "open", Path: filepath.Join(dir, pattern), Err: f.err}
	}
	t, err := f.osFS.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	ff := &faultFile{tempFile: t, fs: f}
	f.temps = append(f.temps, ff)
	return ff, nil
}

func (f *faultFS) ReadFile(name string) ([]byte, error) {
	f.reads++
	if f.record("ReadFile#"+string(rune('0'+f.reads))) && f.changed != nil {
		return f.changed, nil
	}
	return f.osFS.ReadFile(name)
}

func (f *faultFS) Rename(oldpath, newpath string) error {
	if f.record("Rename") {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: f.err}
	}
	return f.osFS.Rename(oldpath, newpath)
}

func (f *faultFS) Remove(name string) error {
	f.record("Remove")
	return f.osFS.Remove(name)
}

func (f *faultFS) SyncDir(dir string) error {
	if f.record("SyncDir") {
		return f.err
	}
	return f.osFS.SyncDir(dir)
}

// faultFile is a real temporary file with one operation made to fail.
type faultFile struct {
	tempFile
	fs     *faultFS
	closed bool
}

func (f *faultFile) Write(b []byte) (int, error) {
	if f.fs.record("Write") {
		// A short write, as when the disk fills up.
		n, _ := f.tempFile.Write(b[:len(b)/2])
		return n, &fs.PathError{Op: "write", Path: f.Name(), Err: f.fs.err}
	}
	return f.tempFile.Write(b)
}

func (f *faultFile) Chmod(mode fs.FileMode) error {
	if f.fs.record("Chmod") {
		return &fs.PathError{Op: "chmod", Path: f.Name(), Err: f.fs.err}
	}
	return f.tempFile.Chmod(mode)
}

func (f *faultFile) Chown(uid, gid int) error {
	if f.fs.record("Chown") {
		return &fs.PathError{Op: "chown", Path: f.Name(), Err: f.fs.err}
	}
	return f.tempFile.Chown(uid, gid)
}

func (f *faultFile) Sync() error {
	if f.fs.record("Sync") {
		return &fs.PathError{Op: "sync", Path: f.Name(), Err: f.fs.err}
	}
	return f.tempFile.Sync()
}

func (f *faultFile) Close() error {
	f.closed = true
	if f.fs.record("Close") {
		// The descriptor is released, but the close reports an error
		// (as NFS can on a delayed write failure).
		f.tempFile.Close()
		return &fs.PathError{Op: "close", Path: f.Name(), Err: f.fs.err}
	}
	return f.tempFile.Close()
}

// TestCommitFailureInjection fails each step of Commit in turn: the file
// must stay byte-identical with its mode, no temporary file may remain,
// and the error must be a *FileError saying so.
func TestCommitFailureInjection(t *testing.T) {
	root := os.Geteuid() == 0
	successCalls := []string{"ReadFile#1", "CreateTemp", "Write", "Chmod", "Sync", "Close", "ReadFile#2", "Rename", "SyncDir"}
	if root {
		successCalls = []string{"ReadFile#1", "CreateTemp", "Write", "Chmod", "Chown", "Sync", "Close", "ReadFile#2", "Rename", "SyncDir"}
	}
	tests := []struct {
		fail    string
		err     error
		message string // in the error
	}{
		{"CreateTemp", syscall.ENOSPC, "cannot create a temporary file in "},
		{"Write", syscall.ENOSPC, "cannot write the temporary file: no space left on device; the file was not changed"},
		{"Chmod", syscall.EPERM, "cannot set the temporary file's permissions"},
		{"Chown", syscall.EPERM, "cannot set the temporary file's owner"},
		{"Sync", syscall.EIO, "cannot sync the temporary file: input/output error; the file was not changed"},
		{"Close", syscall.EIO, "cannot close the temporary file"},
		{"Rename", syscall.EXDEV, "cannot rename the temporary file over the original"},
		{"ReadFile#1", nil, "changed on disk"},
		{"ReadFile#2", nil, "changed on disk"},
	}
	orig := []byte("def f():\n    return 1\n")
	for _, tt := range tests {
		t.Run(tt.fail, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f.py")
			if err := os.WriteFile(path, orig, 0o640); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, 0o640); err != nil {
				t.Fatal(err)
			}
			doc, err := Read(path)
			if err != nil {
				t.Fatal(err)
			}
			fsys := &faultFS{fail: tt.fail, err: tt.err}
			if tt.err == nil {
				fsys.changed = []byte("def f():\n    return 2\n")
			}
			err = commit(fsys, doc, []byte("def f():\n    return 42\n"))

			if tt.fail == "Chown" && !root {
				// Only root gives the temporary file an owner.
				if err != nil || !reflect.DeepEqual(fsys.calls, successCalls) {
					t.Fatalf("commit = %v with calls %v; want success with %v", err, fsys.calls, successCalls)
				}
				return
			}
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("commit = %v (%T), want a *FileError", err, err)
			}
			if fe.Path != path {
				t.Errorf("FileError.Path = %q, want %q", fe.Path, path)
			}
			if !strings.Contains(err.Error(), tt.message) {
				t.Errorf("error %q does not say %q", err, tt.message)
			}
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Errorf("error %v does not wrap %v", err, tt.err)
				}
				if !strings.HasSuffix(err.Error(), "; the file was not changed") {
					t.Errorf("error %q does not say the file was not changed", err)
				}
			} else {
				if !errors.Is(err, ErrChanged) {
					t.Errorf("error %v is not ErrChanged", err)
				}
				if !strings.Contains(err.Error(), "nothing was written") {
					t.Errorf("error %q does not say nothing was written", err)
				}
			}

			// The file is byte-identical, with its mode.
			got, rerr := os.ReadFile(path)
			if rerr != nil || !bytes.Equal(got, orig) {
				t.Errorf("file now holds %q (%v), want %q", got, rerr, orig)
			}
			if fi, serr := os.Lstat(path); serr != nil || fi.Mode() != 0o640 {
				t.Errorf("file mode %v (%v), want 0640", fi.Mode(), serr)
			}
			// No temporary file remains, and none is left open.
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				t.Errorf("directory holds %v, want only f.py", names)
			}
			for _, f := range fsys.temps {
				if !f.closed {
					t.Errorf("temporary file %s was not closed", f.Name())
				}
			}
			// Nothing ran after the failure but the cleanup.
			if i := indexOf(fsys.calls, tt.fail); i < 0 {
				t.Errorf("calls %v never reached %s", fsys.calls, tt.fail)
			} else {
				for _, c := range fsys.calls[i+1:] {
					if c != "Close" && c != "Remove" {
						t.Errorf("after %s failed, commit went on with %s (calls %v)", tt.fail, c, fsys.calls)
					}
				}
			}
		})
	}
}

func indexOf(s []string, x string) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}

// TestCommitSteps checks the order of a successful commit, and that a
// failed directory sync after the rename is not reported: the new content
// is already in place.
func TestCommitSteps(t *testing.T) {
	for _, failSyncDir := range []bool{false, true} {
		dir := t.TempDir()
		path := filepath.Join(dir, "f.go")
		if err := os.WriteFile(path, []byte("package a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		doc, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		fsys := &faultFS{err: syscall.EIO}
		if failSyncDir {
			fsys.fail = "SyncDir"
		}
		if err := commit(fsys, doc, []byte("package b\n")); err != nil {
			t.Fatalf("commit (SyncDir fails: %v) = %v", failSyncDir, err)
		}
		want := []string{"ReadFile#1", "CreateTemp", "Write", "Chmod", "Sync", "Close", "ReadFile#2", "Rename", "SyncDir"}
		if os.Geteuid() == 0 {
			want = []string{"ReadFile#1", "CreateTemp", "Write", "Chmod", "Chown", "Sync", "Close", "ReadFile#2", "Rename", "SyncDir"}
		}
		if !reflect.DeepEqual(fsys.calls, want) {
			t.Errorf("calls %v, want %v", fsys.calls, want)
		}
		if got, _ := os.ReadFile(path); string(got) != "package b\n" {
			t.Errorf("file holds %q after commit", got)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("directory holds %d entries, want 1", len(entries))
		}
	}
}
