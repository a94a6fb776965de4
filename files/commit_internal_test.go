package files

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/internal/probe"
)

// faultFS is a file system (the real one unless set) with one commit step
// made to fail. It records every step of the commit, in order: the
// folder's ("Lock", "Lstat#1", ..., "SyncDir", "CloseDir") and the
// temporary file's ("Write", "Chmod", ..., "Close"). It may be used by
// several goroutines at once (a transaction prepares its files at once).
type faultFS struct {
	fileSystem
	fail string // the step to fail, as recorded in calls
	err  error  // the error it fails with
	// failOnly, if set, fails the temporary file's steps (and CreateTemp)
	// only for the file of that base name.
	failOnly string
	mu       sync.Mutex // guards calls, count, temps and syncs
	calls    []string
	count    map[string]int
	temps    []*faultFile
	// syncs counts the folder syncs of each folder, by the name it was
	// opened with.
	syncs map[string]int
	// before, if set, runs before the step of that name.
	before map[string]func()
	// noTmpfile makes the real folder use named temporary files.
	noTmpfile bool
	// every, if set, is called with each step's number (1-based) and
	// name before the step, under mu (the steps of a transaction's
	// phase 1 may come from several goroutines).
	every func(n int, op string)
}

func newFaultFS(fail string, err error) *faultFS {
	return &faultFS{fileSystem: osFS{}, fail: fail, err: err}
}

// record records op (numbered "op#n" for the steps that repeat) and
// reports whether it is to fail.
func (f *faultFS) record(op string) bool {
	f.mu.Lock()
	if op == "Lstat" || op == "LinkTemp" {
		if f.count == nil {
			f.count = map[string]int{}
		}
		f.count[op]++
		op = fmt.Sprintf("%s#%d", op, f.count[op])
	}
	f.calls = append(f.calls, op)
	if f.every != nil {
		f.every(len(f.calls), op)
	}
	h := f.before[op]
	f.mu.Unlock()
	if h != nil {
		h()
	}
	return f.fail == op
}

// recordFile is record for a step of the temporary file of base: it
// fails only if failOnly is unset or base.
func (f *faultFS) recordFile(op, base string) bool {
	return f.record(op) && (f.failOnly == "" || f.failOnly == base)
}

// steps returns a copy of the steps recorded so far.
func (f *faultFS) steps() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func (f *faultFS) OpenDir(dir string) (commitDir, error) {
	d, err := f.fileSystem.OpenDir(dir)
	if err != nil {
		return nil, err
	}
	if sd, ok := d.(*sysDir); ok {
		sd.noTmpfile = f.noTmpfile
	}
	return &faultDir{commitDir: d, fs: f, name: dir}, nil
}

// faultDir is a real folder with one step made to fail.
type faultDir struct {
	commitDir
	fs   *faultFS
	name string // as opened
}

func (d *faultDir) Lock(ctx context.Context) error {
	if d.fs.record("Lock") {
		return &fs.PathError{Op: "flock", Path: ".", Err: d.fs.err}
	}
	return d.commitDir.Lock(ctx)
}

func (d *faultDir) Unlock() error {
	d.fs.record("Unlock")
	return d.commitDir.Unlock()
}

func (d *faultDir) Lstat(name string) (*unix.Stat_t, error) {
	if strings.Contains(name, ".symedit-") {
		return d.commitDir.Lstat(name) // the stale-temporary scan
	}
	if d.fs.record("Lstat") {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: d.fs.err}
	}
	return d.commitDir.Lstat(name)
}

func (d *faultDir) Open(name string) (*os.File, error) {
	if d.fs.record("Open") {
		return nil, &fs.PathError{Op: "open", Path: name, Err: d.fs.err}
	}
	return d.commitDir.Open(name)
}

func (d *faultDir) Access(name string) error {
	if d.fs.record("Access") {
		return &fs.PathError{Op: "access", Path: name, Err: d.fs.err}
	}
	return d.commitDir.Access(name)
}

func (d *faultDir) CreateTemp(base string, perm fs.FileMode) (tempFile, error) {
	if d.fs.recordFile("CreateTemp", base) {
		return nil, &fs.PathError{Op: "open", Path: base, Err: d.fs.err}
	}
	t, err := d.commitDir.CreateTemp(base, perm)
	if err != nil {
		return nil, err
	}
	ff := &faultFile{tempFile: t, fs: d.fs, base: base}
	d.fs.mu.Lock()
	d.fs.temps = append(d.fs.temps, ff)
	d.fs.mu.Unlock()
	return ff, nil
}

func (d *faultDir) LinkTemp(t tempFile, name string) error {
	if d.fs.record("LinkTemp") {
		return &os.LinkError{Op: "link", Old: t.Name(), New: name, Err: d.fs.err}
	}
	return d.commitDir.LinkTemp(t.(*faultFile).tempFile, name)
}

func (d *faultDir) Rename(oldname, newname string) error {
	if d.fs.record("Rename") {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: d.fs.err}
	}
	return d.commitDir.Rename(oldname, newname)
}

func (d *faultDir) Names() ([]string, error) {
	d.fs.record("Names")
	return d.commitDir.Names()
}

func (d *faultDir) Remove(name string) error {
	d.fs.record("Remove")
	return d.commitDir.Remove(name)
}

func (d *faultDir) Sync() error {
	d.fs.mu.Lock()
	if d.fs.syncs == nil {
		d.fs.syncs = map[string]int{}
	}
	d.fs.syncs[d.name]++
	d.fs.mu.Unlock()
	if d.fs.record("SyncDir") {
		return d.fs.err
	}
	return d.commitDir.Sync()
}

func (d *faultDir) Close() error {
	d.fs.record("CloseDir")
	return d.commitDir.Close()
}

// faultFile is a real temporary file with one step made to fail.
type faultFile struct {
	tempFile
	fs     *faultFS
	base   string // the name of the file it is for
	closed bool
}

func (f *faultFile) Write(b []byte) (int, error) {
	if f.fs.recordFile("Write", f.base) {
		// A short write, as when the disk fills up.
		n, _ := f.tempFile.Write(b[:len(b)/2])
		return n, &fs.PathError{Op: "write", Path: f.Name(), Err: f.fs.err}
	}
	return f.tempFile.Write(b)
}

func (f *faultFile) Chmod(mode fs.FileMode) error {
	if f.fs.recordFile("Chmod", f.base) {
		return &fs.PathError{Op: "chmod", Path: f.Name(), Err: f.fs.err}
	}
	return f.tempFile.Chmod(mode)
}

func (f *faultFile) Chown(uid, gid int) error {
	if f.fs.recordFile("Chown", f.base) {
		return &fs.PathError{Op: "chown", Path: f.Name(), Err: f.fs.err}
	}
	return f.tempFile.Chown(uid, gid)
}

func (f *faultFile) Setxattr(name string, value []byte) error {
	if f.fs.recordFile("Setxattr", f.base) {
		return f.fs.err
	}
	return f.tempFile.Setxattr(name, value)
}

func (f *faultFile) Sync() error {
	if f.fs.recordFile("Sync", f.base) {
		return &fs.PathError{Op: "sync", Path: f.Name(), Err: f.fs.err}
	}
	return f.tempFile.Sync()
}

func (f *faultFile) Close() error {
	f.closed = true
	if f.fs.recordFile("Close", f.base) {
		// The descriptor is released, but the close reports an error
		// (as NFS can on a delayed write failure).
		f.tempFile.Close()
		return &fs.PathError{Op: "close", Path: f.Name(), Err: f.fs.err}
	}
	return f.tempFile.Close()
}

// xattrsSupported reports whether dir's file system takes user.*
// extended attributes, trying on a scratch file.
func xattrsSupported(t *testing.T, dir string) bool {
	t.Helper()
	p := filepath.Join(dir, "xattr-probe")
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(p)
	return unix.Setxattr(p, "user.probe", []byte("1"), 0) == nil
}

// commitOne commits content to the file doc was read from on fsys with
// opt as Files.Commit does a one-file commit (one change, EachAlone).
func commitOne(fsys fileSystem, opt Options, doc *edit.Document, content []byte) error {
	_, err := commit(context.Background(), fsys, opt, []Change{{Doc: doc, Content: content}}, EachAlone, commitBatch)
	return err
}

// commitSteps is the order of a successful commit of an existing file
// with the same owner as the caller and no extended attributes, where the
// file system has O_TMPFILE: the folder is not listed (no "Names").
var commitSteps = []string{"Lock", "Lstat#1", "Open", "Access", "CreateTemp", "Write", "Chmod", "Sync", "LinkTemp#1", "Close", "Lstat#2", "Rename", "SyncDir", "Unlock", "CloseDir"}

// TestCommitFailureInjection fails each step of a one-file commit in turn: the file
// must stay byte-identical with its mode, no temporary file may remain
// (named or not), and the error must be a *FileError saying so.
func TestCommitFailureInjection(t *testing.T) {
	tests := []struct {
		fail    string
		err     error
		message string // in the error
		is      error  // the error wraps it
	}{
		{"Lock", syscall.EWOULDBLOCK, "another symedit process has been writing in the file's folder", ErrLocked},
		{"Lock", syscall.EIO, "cannot lock the file's folder: input/output error; the file was not changed", syscall.EIO},
		{"Lstat#1", syscall.EIO, "input/output error", syscall.EIO},
		{"Open", syscall.EIO, "input/output error; nothing was written", syscall.EIO},
		{"Access", syscall.EACCES, "this user may not write the file (opening it for writing fails: permission denied); the file was not changed", ErrNotWritable},
		{"Access", syscall.EROFS, "cannot write the file: read-only file system; the file was not changed", syscall.EROFS},
		{"CreateTemp", syscall.ENOSPC, "cannot create a temporary file in ", syscall.ENOSPC},
		{"Write", syscall.ENOSPC, "cannot write the temporary file: no space left on device; the file was not changed", syscall.ENOSPC},
		{"Chown", syscall.EPERM, "the new file cannot keep the file's owner 65534:65534 (permission denied); nothing was written", ErrMetadata},
		{"Setxattr", syscall.ENOTSUP, "the new file cannot keep the file's extended attribute user.origin (operation not supported)", ErrMetadata},
		{"Chmod", syscall.EPERM, "cannot set the temporary file's permissions", syscall.EPERM},
		{"Sync", syscall.EIO, "cannot sync the temporary file: input/output error; the file was not changed", syscall.EIO},
		{"LinkTemp#1", syscall.ENOSPC, "cannot name the temporary file: no space left on device", syscall.ENOSPC},
		{"Close", syscall.EIO, "cannot close the temporary file", syscall.EIO},
		{"Lstat#2", syscall.ENOENT, "the file changed on disk while symedit was writing", edit.ErrChanged},
		{"Rename", syscall.EXDEV, "cannot rename the temporary file over the original", syscall.EXDEV},
	}
	orig := []byte("def f():\n    return 1\n")
	for _, tt := range tests {
		for _, named := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/%v/named=%v", tt.fail, tt.err, named), func(t *testing.T) {
				if tt.fail == "LinkTemp#1" && named {
					t.Skip("a named temporary file needs no link before the rename")
				}
				dir := t.TempDir()
				path := filepath.Join(dir, "f.py")
				if err := os.WriteFile(path, orig, 0o640); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(path, 0o640); err != nil {
					t.Fatal(err)
				}
				if tt.fail == "Chown" {
					if os.Geteuid() != 0 {
						t.Skip("needs root to give the file another owner")
					}
					if err := os.Chown(path, 65534, 65534); err != nil {
						t.Fatal(err)
					}
				}
				if tt.fail == "Setxattr" {
					if !xattrsSupported(t, dir) {
						t.Skip("the test folder's file system has no user.* extended attributes")
					}
					if err := unix.Setxattr(path, "user.origin", []byte("upstream"), 0); err != nil {
						t.Fatal(err)
					}
				}
				before, err := os.Lstat(path)
				if err != nil {
					t.Fatal(err)
				}
				doc, err := Read(path)
				if err != nil {
					t.Fatal(err)
				}
				fsys := newFaultFS(tt.fail, tt.err)
				fsys.noTmpfile = named
				err = commitOne(fsys, Options{}, doc, []byte("def f():\n    return 42\n"))

				var fe *edit.FileError
				if !errors.As(err, &fe) {
					t.Fatalf("commit = %v (%T), want a *FileError (calls %v)", err, err, fsys.calls)
				}
				if fe.Path != path {
					t.Errorf("FileError.Path = %q, want %q", fe.Path, path)
				}
				if !strings.Contains(err.Error(), tt.message) {
					t.Errorf("error %q does not say %q", err, tt.message)
				}
				if !errors.Is(err, tt.is) {
					t.Errorf("error %v does not wrap %v", err, tt.is)
				}
				if !strings.HasSuffix(err.Error(), "; the file was not changed") && !strings.Contains(err.Error(), "nothing was written") {
					t.Errorf("error %q does not say the file was not changed", err)
				}

				// The file is byte-identical: the same inode, with its mode.
				got, rerr := os.ReadFile(path)
				if rerr != nil || !bytes.Equal(got, orig) {
					t.Errorf("file now holds %q (%v), want %q", got, rerr, orig)
				}
				if fi, serr := os.Lstat(path); serr != nil || fi.Mode() != 0o640 || !os.SameFile(fi, before) {
					t.Errorf("file %v (%v), want the same file with mode 0640", fi, serr)
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
				// Nothing ran after the failure but the cleanup (and, for
				// metadata, the other metadata steps, so that the error
				// lists everything that cannot be kept).
				if i := indexOf(fsys.calls, tt.fail); i < 0 {
					t.Errorf("calls %v never reached %s", fsys.calls, tt.fail)
				} else {
					for _, c := range fsys.calls[i+1:] {
						switch c {
						case "Close", "Remove", "Unlock", "CloseDir":
						case "Chown", "Setxattr", "Chmod":
							if tt.is != ErrMetadata {
								t.Errorf("after %s failed, commit went on with %s (calls %v)", tt.fail, c, fsys.calls)
							}
						default:
							t.Errorf("after %s failed, commit went on with %s (calls %v)", tt.fail, c, fsys.calls)
						}
					}
				}
			})
		}
	}
}

// TestCommitMetadataLossAllowed: with AllowMetadataLoss an owner or an
// extended attribute that cannot be kept does not stop the commit.
func TestCommitMetadataLossAllowed(t *testing.T) {
	for _, fail := range []string{"Chown", "Setxattr"} {
		t.Run(fail, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f.py")
			if err := os.WriteFile(path, []byte("x = 1\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			switch fail {
			case "Chown":
				if os.Geteuid() != 0 {
					t.Skip("needs root to give the file another owner")
				}
				if err := os.Chown(path, 65534, 65534); err != nil {
					t.Fatal(err)
				}
			case "Setxattr":
				if !xattrsSupported(t, dir) {
					t.Skip("the test folder's file system has no user.* extended attributes")
				}
				if err := unix.Setxattr(path, "user.origin", []byte("upstream"), 0); err != nil {
					t.Fatal(err)
				}
			}
			doc, err := Read(path)
			if err != nil {
				t.Fatal(err)
			}
			fsys := newFaultFS(fail, syscall.EPERM)
			if err := commitOne(fsys, Options{AllowMetadataLoss: true}, doc, []byte("x = 2\n")); err != nil {
				t.Fatalf("commit = %v", err)
			}
			if got, _ := os.ReadFile(path); string(got) != "x = 2\n" {
				t.Errorf("file holds %q", got)
			}
			if indexOf(fsys.calls, fail) < 0 {
				t.Errorf("calls %v never tried %s", fsys.calls, fail)
			}
		})
	}
}

// TestCommitLockUnsupported: on a file system without flock on a folder
// the commit goes on unlocked.
func TestCommitLockUnsupported(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.ENOLCK, syscall.EOPNOTSUPP, syscall.EBADF} {
		t.Run(errno.Error(), func(t *testing.T) { testCommitLockUnsupported(t, errno) })
	}
}

func testCommitLockUnsupported(t *testing.T, errno syscall.Errno) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.py")
	if err := os.WriteFile(path, []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := commitOne(newFaultFS("Lock", errno), Options{}, doc, []byte("x = 2\n")); err != nil {
		t.Fatalf("commit = %v, want success without the lock", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "x = 2\n" {
		t.Errorf("file holds %q", got)
	}
}

// TestCommitDetectsUnlockedWriter: a writer that does not take the lock
// and changes the file while the temporary file is written (after the
// content check, before the rename) is caught by the last check of inode,
// size and times, and its write is kept.
func TestCommitDetectsUnlockedWriter(t *testing.T) {
	writers := map[string]func(t *testing.T, path string){
		"append": func(t *testing.T, path string) {
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteString("theirs = 1\n"); err != nil {
				t.Fatal(err)
			}
		},
		"same size in place": func(t *testing.T, path string) {
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteAt([]byte("y"), 0); err != nil {
				t.Fatal(err)
			}
		},
		"replaced by rename": func(t *testing.T, path string) {
			tmp := path + ".theirs"
			if err := os.WriteFile(tmp, []byte("x = 1\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, path); err != nil {
				t.Fatal(err)
			}
		},
		"chmod": func(t *testing.T, path string) {
			if err := os.Chmod(path, 0o600); err != nil {
				t.Fatal(err)
			}
		},
	}
	for name, write := range writers {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f.py")
			if err := os.WriteFile(path, []byte("x = 1\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			doc, err := Read(path)
			if err != nil {
				t.Fatal(err)
			}
			fsys := newFaultFS("", nil)
			fsys.before = map[string]func(){"Lstat#2": func() { write(t, path) }}
			var theirs []byte
			fsys.before["Rename"] = func() { t.Error("renamed over the other writer's file") }
			err = commitOne(fsys, Options{}, doc, []byte("x = 2\n"))
			if !errors.Is(err, edit.ErrChanged) || !strings.Contains(err.Error(), "changed on disk while symedit was writing") {
				t.Fatalf("commit = %v, want ErrChanged", err)
			}
			theirs, _ = os.ReadFile(path)
			if bytes.Equal(theirs, []byte("x = 2\n")) {
				t.Errorf("file holds symedit's content")
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("directory holds %d entries, want 1", len(entries))
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
		fsys := newFaultFS("", syscall.EIO)
		if failSyncDir {
			fsys.fail = "SyncDir"
		}
		if err := commitOne(fsys, Options{}, doc, []byte("package b\n")); err != nil {
			t.Fatalf("commit (SyncDir fails: %v) = %v", failSyncDir, err)
		}
		if len(fsys.temps) == 1 && fsys.temps[0].Name() != "" {
			t.Skipf("the test folder's file system has no O_TMPFILE")
		}
		if !reflect.DeepEqual(fsys.calls, commitSteps) {
			t.Errorf("calls %v, want %v", fsys.calls, commitSteps)
		}
		if got, _ := os.ReadFile(path); string(got) != "package b\n" {
			t.Errorf("file holds %q after commit", got)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("directory holds %d entries, want 1", len(entries))
		}
	}
}

// TestCommitTempUnnamedWhileWritten: where the file system has O_TMPFILE
// the temporary file has no name while it is written, so a kill then
// leaves nothing behind.
func TestCommitTempUnnamedWhileWritten(t *testing.T) {
	for _, create := range []bool{false, true} {
		dir := t.TempDir()
		path := filepath.Join(dir, "f.go")
		var doc *edit.Document
		var err error
		if create {
			doc, err = (&Files{fsys: osFS{}}).ReadOrNew(path)
		} else {
			if err := os.WriteFile(path, []byte("package a\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			doc, err = Read(path)
		}
		if err != nil {
			t.Fatal(err)
		}
		var during []string
		fsys := newFaultFS("", nil)
		fsys.before = map[string]func(){"Sync": func() {
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				during = append(during, e.Name())
			}
		}}
		if err := commitOne(fsys, Options{}, doc, []byte("package b\n")); err != nil {
			t.Fatal(err)
		}
		if len(fsys.temps) != 1 || fsys.temps[0].Name() != "" {
			t.Skipf("the test folder's file system has no O_TMPFILE (temporary file %q)", fsys.temps[0].Name())
		}
		want := []string{"f.go"}
		if create {
			want = nil
		}
		if !reflect.DeepEqual(during, want) {
			t.Errorf("create=%v: while the temporary file was written the folder held %v, want %v", create, during, want)
		}
	}
}

const killEnv = "SYMEDIT_KILLED_COMMIT"

// TestHelperKilledCommit is not a test: unless the environment asks it to
// act as a helper process it does nothing. As one, it commits new content
// to the file SYMEDIT_KILLED_COMMIT_PATH (with named temporary files if
// SYMEDIT_KILLED_COMMIT_NAMED is set) and, once the temporary file is
// written, prints "writing" and waits to be killed.
func TestHelperKilledCommit(t *testing.T) {
	path := os.Getenv(killEnv + "_PATH")
	if path == "" {
		return
	}
	doc, err := Read(path)
	if err != nil {
		fmt.Println("error", err)
		return
	}
	fsys := newFaultFS("", nil)
	fsys.noTmpfile = os.Getenv(killEnv+"_NAMED") != ""
	fsys.before = map[string]func(){"Sync": func() {
		fmt.Println("writing")
		select {} // until killed
	}}
	err = commitOne(fsys, Options{}, doc, bytes.Repeat([]byte("x = 1\n"), 1<<16))
	fmt.Println("error: the commit finished:", err)
}

// TestCommitKilled kills a process in the middle of a
// commit, with the temporary file written: with O_TMPFILE nothing is
// left; with a named temporary file (a file system without O_TMPFILE) the
// temporary file stays until it is StaleTempAge old, and then the next
// commit of the file removes it. The file is untouched either way.
func TestCommitKilled(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, named := range []bool{false, true} {
		t.Run(fmt.Sprintf("named=%v", named), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f.py")
			orig := []byte("x = 0\n")
			if err := os.WriteFile(path, orig, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(exe, "-test.run=^TestHelperKilledCommit$", "-test.count=1")
			cmd.Env = append(os.Environ(), killEnv+"_PATH="+path)
			if named {
				cmd.Env = append(cmd.Env, killEnv+"_NAMED=1")
			}
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(out)
			if !sc.Scan() || sc.Text() != "writing" {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("helper printed %q", sc.Text())
			}
			if err := cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			cmd.Wait()
			if got, _ := os.ReadFile(path); !bytes.Equal(got, orig) {
				t.Errorf("file holds %q after the kill", got)
			}
			var temps []string
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if e.Name() != "f.py" {
					temps = append(temps, e.Name())
				}
			}
			if !named {
				if len(temps) != 0 {
					t.Errorf("the kill left %v", temps)
				}
				return
			}
			if len(temps) != 1 || !isTempOf(temps[0], "f.py") {
				t.Fatalf("the kill left %v, want one temporary file of f.py", temps)
			}
			// The next commit keeps a recent temporary file (its writer
			// may be at work) and removes an old one.
			tmp := filepath.Join(dir, temps[0])
			for _, age := range []time.Duration{0, StaleTempAge + time.Minute} {
				when := time.Now().Add(-age)
				if err := os.Chtimes(tmp, when, when); err != nil {
					t.Fatal(err)
				}
				doc, err := Read(path)
				if err != nil {
					t.Fatal(err)
				}
				next := newFaultFS("", nil)
				next.noTmpfile = true
				if err := commitOne(next, Options{}, doc, append(doc.Content, "y = 1\n"...)); err != nil {
					t.Fatal(err)
				}
				_, err = os.Lstat(tmp)
				if gone := errors.Is(err, fs.ErrNotExist); gone != (age > 0) {
					t.Errorf("temporary file %s aged %v: removed %v", temps[0], age, gone)
				}
			}
		})
	}
}

// TestCommitNamedTempLongName: with named temporary files (no
// O_TMPFILE) a 255-byte name is still replaced and created: the
// temporary file's name keeps 200 bytes of it, cut at a UTF-8 boundary.
func TestCommitNamedTempLongName(t *testing.T) {
	name := strings.Repeat("é", 126) + ".py" // 255 bytes
	if p := tempPrefix(name); len(p)+16 > 255 || !utf8.ValidString(p) || !isTempOf(tempName(name), name) {
		t.Fatalf("tempPrefix = %q (%d bytes)", p, len(p))
	}
	dir := t.TempDir()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	fsys := newFaultFS("", nil)
	fsys.noTmpfile = true
	if err := commitOne(fsys, Options{}, doc, []byte("x = 2\n")); err != nil {
		t.Fatal(err)
	}
	if fsys.temps[0].Name() == "" {
		t.Fatal("the temporary file had no name")
	}
	doc, err = (&Files{fsys: osFS{}}).ReadOrNew(filepath.Join(dir, "sub", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := commitOne(fsys, Options{}, doc, []byte("y = 1\n")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, doc.Path} {
		if got, err := os.ReadFile(p); err != nil || len(got) != 6 {
			t.Errorf("%s: %q %v", p, got, err)
		}
	}
}

// TestCommitFIFOSwappedIn: a FIFO (or a symbolic link) put in the file's
// place between the commit's look at the name and its open is never read
// from (which would hang) nor replaced: the open does not block or follow
// links, and the descriptor's inode is compared with the name's.
func TestCommitFIFOSwappedIn(t *testing.T) {
	for _, kind := range []string{"fifo", "symlink"} {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f.py")
			if err := os.WriteFile(path, []byte("x = 1\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			doc, err := Read(path)
			if err != nil {
				t.Fatal(err)
			}
			fsys := newFaultFS("", nil)
			fsys.before = map[string]func(){"Open": func() {
				if err := os.Remove(path); err != nil {
					t.Fatal(err)
				}
				if kind == "fifo" {
					err = syscall.Mkfifo(path, 0o644)
				} else {
					err = os.Symlink("/dev/zero", path)
				}
				if err != nil {
					t.Fatal(err)
				}
			}}
			err = commitOne(fsys, Options{}, doc, []byte("x = 2\n"))
			if !errors.Is(err, edit.ErrChanged) {
				t.Fatalf("commit = %v, want ErrChanged", err)
			}
			if fi, err := os.Lstat(path); err != nil || fi.Mode().IsRegular() {
				t.Errorf("the %s was replaced: %v %v", kind, fi, err)
			}
			if indexOf(fsys.calls, "Rename") >= 0 || indexOf(fsys.calls, "CreateTemp") >= 0 {
				t.Errorf("calls %v went on after the open", fsys.calls)
			}
		})
	}
}

// TestCommitWaitsForLock: while another process holds the folder's lock
// (here a second open file description of the folder, which flock treats
// as another holder), a commit does not write; once the lock is released
// it does.
func TestCommitWaitsForLock(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.py")
	if err := os.WriteFile(path, []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	holder, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if err := unix.Flock(int(holder.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	locking := make(chan struct{})
	fsys := newFaultFS("", nil)
	fsys.before = map[string]func(){"Lock": func() { close(locking) }}
	done := make(chan error, 1)
	go func() { done <- commitOne(fsys, Options{}, doc, []byte("x = 2\n")) }()
	<-locking
	time.Sleep(50 * time.Millisecond) // room for a commit that ignored the lock
	select {
	case err := <-done:
		t.Fatalf("commit returned %v while the lock was held", err)
	default:
	}
	if got, _ := os.ReadFile(path); string(got) != "x = 1\n" {
		t.Fatalf("file written while the lock was held: %q", got)
	}
	if err := unix.Flock(int(holder.Fd()), unix.LOCK_UN); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "x = 2\n" {
		t.Errorf("file holds %q after the lock was released", got)
	}
}

// TestCommitRemovesStaleTemporaries: a commit of NAME
// with a named temporary file (a file system without O_TMPFILE) removes
// the temporary files of NAME that a killed symedit left (".NAME.symedit-"
// and 16 hex digits) once they are older than StaleTempAge, and nothing
// else: not a recent one (a writer may still be at work), not another
// file's, not one whose name only looks similar.
func TestCommitRemovesStaleTemporaries(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "value.go")
	if err := os.WriteFile(path, []byte("package slog\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-StaleTempAge - time.Minute)
	files := map[string]bool{ // name: removed by the commit
		".value.go.symedit-0123456789abcdef": true,
		".value.go.symedit-fedcba9876543210": false, // recent
		".other.go.symedit-0123456789abcdef": false, // another file's
		".value.go.symedit-0123456789abcde":  false, // 15 digits
		".value.go.symedit-0123456789abcdeg": false, // not hex
		"value.go.symedit-0123456789abcdef":  false, // no leading dot
	}
	for name := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
		if name != ".value.go.symedit-fedcba9876543210" {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	doc, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	fsys := newFaultFS("", nil)
	fsys.noTmpfile = true
	if err := commitOne(fsys, Options{}, doc, append([]byte("// edited\n"), doc.Content...)); err != nil {
		t.Fatal(err)
	}
	for name, removed := range files {
		_, err := os.Lstat(filepath.Join(dir, name))
		if gone := errors.Is(err, fs.ErrNotExist); gone != removed {
			t.Errorf("%s: removed %v, want %v", name, gone, removed)
		}
	}
}

// TestCommitLockWaitStopsWithContext: while another process holds the
// folder's lock, a commit (one file, a transaction, each of several alone) whose
// context is cancelled while it waits, or whose deadline passes, returns
// the context's error, not ErrLocked after LockWait, and writes nothing.
func TestCommitLockWaitStopsWithContext(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.py")
	if err := os.WriteFile(path, []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "g.py"), []byte("y = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	holder, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if err := unix.Flock(int(holder.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	files, err := Open(Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer files.Close()
	commits := map[string]func(ctx context.Context, doc *edit.Document) error{
		"one file": func(ctx context.Context, doc *edit.Document) error {
			_, err := files.Commit(ctx, []Change{{Doc: doc, Content: []byte("x = 2\n")}}, EachAlone)
			return err
		},
		"AllOrNone": func(ctx context.Context, doc *edit.Document) error {
			_, err := files.Commit(ctx, []Change{{Doc: doc, Content: []byte("x = 2\n")}}, AllOrNone)
			return err
		},
		"EachAlone": func(ctx context.Context, doc *edit.Document) error {
			other, err := files.Read("g.py")
			if err != nil {
				return err
			}
			_, err = files.Commit(ctx, []Change{{Doc: doc, Content: []byte("x = 2\n")}, {Doc: other, Content: []byte("y = 2\n")}}, EachAlone)
			return err
		},
	}
	for name, commit := range commits {
		for _, want := range []error{context.Canceled, context.DeadlineExceeded} {
			t.Run(fmt.Sprintf("%s/%v", name, want), func(t *testing.T) {
				doc, err := files.Read("f.py")
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithCancel(context.Background())
				if want == context.DeadlineExceeded {
					ctx, cancel = context.WithTimeout(context.Background(), time.Millisecond)
				}
				defer cancel()
				waits := probe.FolderLockWaits.Load()
				done := make(chan error, 1)
				go func() { done <- commit(ctx, doc) }()
				if want == context.Canceled {
					for probe.FolderLockWaits.Load() == waits {
						runtime.Gosched() // until the commit waits for the lock
					}
					cancel()
				}
				err = <-done
				if !errors.Is(err, want) || errors.Is(err, ErrLocked) {
					t.Fatalf("err = %v, want %v", err, want)
				}
				if got, _ := os.ReadFile(path); string(got) != "x = 1\n" {
					t.Fatalf("file written while the lock was held: %q", got)
				}
			})
		}
	}
}
