package files

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/symedit/symedit/edit"
)

// linkRaceFS is a file system on which another writer creates the file
// right before Commit links the new file into place: after create's
// check that the name is free, which black-box tests cannot reach.
type linkRaceFS struct {
	fileSystem
	before func() // run before the link into place
	links  int
}

func (f *linkRaceFS) OpenDir(dir string) (commitDir, error) {
	d, err := f.fileSystem.OpenDir(dir)
	if err != nil {
		return nil, err
	}
	return &linkRaceDir{commitDir: d, fs: f}, nil
}

type linkRaceDir struct {
	commitDir
	fs *linkRaceFS
}

func (d *linkRaceDir) LinkTemp(t tempFile, name string) error {
	d.fs.links++
	d.fs.before()
	return d.commitDir.LinkTemp(t, name)
}

// TestFilesCreateLinkRace: a file that appears between ReadOrNew's check and
// the link is not overwritten; the commit fails with ErrChanged and leaves
// no temporary file.
func TestFilesCreateLinkRace(t *testing.T) {
	for _, root := range []bool{false, true} {
		t.Run(map[bool]string{false: "unconfined", true: "root"}[root], func(t *testing.T) {
			dir := t.TempDir()
			f := openIn(t, dir, root)
			path := filepath.Join(dir, "pkg", "new.go")
			theirs := []byte("package theirs\n")
			race := &linkRaceFS{fileSystem: f.fsys, before: func() {
				if err := os.WriteFile(path, theirs, 0o600); err != nil {
					t.Fatal(err)
				}
			}}
			f.fsys = race
			doc, err := f.ReadOrNew(path)
			if err != nil {
				t.Fatal(err)
			}
			_, err = f.Commit(context.Background(), []Change{{Doc: doc, Content: []byte("package ours\n")}}, EachAlone)
			var fe *edit.FileError
			if !errors.As(err, &fe) || !errors.Is(err, edit.ErrChanged) || fe.Path != path {
				t.Fatalf("Commit = %v, want a *FileError for %s wrapping ErrChanged", err, path)
			}
			if !strings.Contains(fe.Reason, "created by someone else") {
				t.Errorf("Reason %q does not say the file was created meanwhile", fe.Reason)
			}
			if race.links != 1 {
				t.Errorf("Link called %d times, want 1", race.links)
			}
			got, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(got, theirs) {
				t.Errorf("the other writer's file holds %q (%v), want %q", got, err, theirs)
			}
			if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("the other writer's file: %v %v, want mode 0600", fi, err)
			}
			entries, err := os.ReadDir(filepath.Dir(path))
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != 1 {
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				t.Errorf("folder holds %v, want only new.go (no temporary file)", names)
			}
		})
	}
}

// TestFilesCreateLinkFails: a Link failure other than "exists" is reported as
// a failed step, and the temporary file is removed.
func TestFilesCreateLinkFails(t *testing.T) {
	dir := t.TempDir()
	f, err := Open(Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.fsys = &failLinkFS{fileSystem: f.fsys}
	path := filepath.Join(dir, "new.txt")
	doc, err := f.ReadOrNew(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.Commit(context.Background(), []Change{{Doc: doc, Content: []byte("x\n")}}, EachAlone)
	if !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "cannot link the new file into place: permission denied; the file was not changed") {
		t.Fatalf("Commit = %v, want the link step's permission error", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("folder holds %d entries (%v), want none", len(entries), entries)
	}
}

type failLinkFS struct{ fileSystem }

func (f failLinkFS) OpenDir(dir string) (commitDir, error) {
	d, err := f.fileSystem.OpenDir(dir)
	if err != nil {
		return nil, err
	}
	return failLinkDir{d}, nil
}

type failLinkDir struct{ commitDir }

func (failLinkDir) LinkTemp(t tempFile, name string) error {
	return &os.LinkError{Op: "link", Old: t.Name(), New: name, Err: fs.ErrPermission}
}

// swapFS puts something else in a file's place at a chosen moment, which
// black-box tests cannot reach: afterStat runs once, right after the
// first Stat.
type swapFS struct {
	fileSystem
	afterStat func()
}

func (f *swapFS) Stat(name string) (fs.FileInfo, error) {
	fi, err := f.fileSystem.Stat(name)
	if f.afterStat != nil {
		f.afterStat()
		f.afterStat = nil
	}
	return fi, err
}

// toFIFO replaces path by a named pipe. It may run off the test's
// goroutine, so it reports with t.Error.
func toFIFO(t *testing.T, path string) {
	if err := os.Remove(path); err != nil {
		t.Error(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Error(err)
	}
}

// noHang returns op's error. An open of a named pipe for reading waits for
// a writer forever, so if op has not returned after 30 s (a hang detector,
// not a time limit: op takes milliseconds) noHang opens the pipe fifo for
// writing, which lets the blocked open go on, and fails the test.
func noHang(t *testing.T, fifo string, op func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- op() }()
	select {
	case err := <-done:
		return err
	case <-time.After(30 * time.Second):
		w, werr := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if werr == nil {
			w.Close()
		}
		t.Fatalf("blocked opening the named pipe %s (released: %v)", fifo, <-done)
		return nil
	}
}

// wantNotRegular fails unless err is a *FileError for path wrapping
// ErrNotRegular whose reason names what, and the file at path is still
// of type mode.
func wantNotRegular(t *testing.T, err error, path, what string, mode fs.FileMode) {
	t.Helper()
	var fe *edit.FileError
	if !errors.As(err, &fe) || !errors.Is(err, edit.ErrNotRegular) || fe.Path != path {
		t.Fatalf("err = %v, want a *FileError for %s wrapping ErrNotRegular", err, path)
	}
	if !strings.Contains(fe.Reason, what) {
		t.Errorf("Reason %q does not say %q", fe.Reason, what)
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode().Type() != mode {
		t.Errorf("%s is now %v (%v), want type %v", path, fi, err, mode)
	}
}

// TestFilesReadFIFOSwappedIn puts a named pipe in the file's place after
// Read has looked at it and before it opens it: Read refuses it at once
// instead of waiting for a writer that may never come.
func TestFilesReadFIFOSwappedIn(t *testing.T) {
	for _, root := range []bool{false, true} {
		t.Run(map[bool]string{false: "unconfined", true: "root"}[root], func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f.py")
			if err := os.WriteFile(path, []byte("x = 1\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			f := openIn(t, dir, root)
			f.fsys = &swapFS{fileSystem: f.fsys, afterStat: func() { toFIFO(t, path) }}
			err := noHang(t, path, func() error {
				_, err := f.Read(path)
				return err
			})
			wantNotRegular(t, err, path, "not a regular file (a named pipe)", fs.ModeNamedPipe)
		})
	}
}

// TestReadRegularReplacedWhileOpened: another writer renames a new regular
// file over the name between readRegular's open and its lstat (as a
// concurrent symedit commit does). That is an atomic replacement, not a
// file of another kind: readRegular opens the name again and returns the
// new content; only a name replaced on every attempt is ErrChanged. It
// never reports such a file as not regular (TestCommitConcurrentGoroutines
// once failed that way).
func TestReadRegularReplacedWhileOpened(t *testing.T) {
	for _, tc := range []struct {
		replacements int
		wantErr      error
	}{
		{1, nil},
		{readAttempts - 1, nil},
		{readAttempts, edit.ErrChanged},
	} {
		t.Run(fmt.Sprint(tc.replacements), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f.py")
			if err := os.WriteFile(path, []byte("x = 0\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			n := 0
			lstat := func(name string) (fs.FileInfo, error) {
				if n < tc.replacements {
					n++
					tmp := filepath.Join(dir, "tmp")
					if err := os.WriteFile(tmp, fmt.Appendf(nil, "x = %d\n", n), 0o644); err != nil {
						t.Fatal(err)
					}
					if err := os.Rename(tmp, path); err != nil {
						t.Fatal(err)
					}
				}
				return os.Lstat(name)
			}
			b, err := readRegular(path, os.OpenFile, lstat)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) || errors.Is(err, edit.ErrNotRegular) {
					t.Fatalf("err = %v, want one wrapping %v only", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v, want the replaced file's content", err)
			}
			if want := fmt.Sprintf("x = %d\n", tc.replacements); string(b) != want {
				t.Errorf("read %q, want %q (the file in place after the last replacement)", b, want)
			}
		})
	}
}

// TestReadResolvedChecksTheFileOpened: ReadResolved reads the file that
// Resolve resolved without resolving the path again, but makes Read's
// checks of the file again on the file it opens: a named pipe put in its
// place after Resolve is refused at once (ErrNotRegular, no hang), a hard
// link made meanwhile is refused (ErrHardLink, with Read's words), and a
// file renamed into its place is read (an atomic replacement); each
// unconfined and under a root, with nothing on disk changed by the read.
func TestReadResolvedChecksTheFileOpened(t *testing.T) {
	for _, root := range []bool{false, true} {
		t.Run(map[bool]string{false: "unconfined", true: "root"}[root], func(t *testing.T) {
			dir := t.TempDir()
			f := openIn(t, dir, root)
			resolve := func(name string) (string, *Resolution) {
				t.Helper()
				path := filepath.Join(dir, name)
				if err := os.WriteFile(path, []byte("x = 1\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				r, err := f.Resolve(path)
				if err != nil {
					t.Fatal(err)
				}
				if real, _, err := f.Stat(path); err != nil || r.RealPath() != real {
					t.Errorf("RealPath() = %q, want Stat's %q (%v)", r.RealPath(), real, err)
				}
				return path, r
			}

			fifo, r := resolve("fifo.py")
			toFIFO(t, fifo)
			err := noHang(t, fifo, func() error {
				_, err := f.ReadResolved(r)
				return err
			})
			wantNotRegular(t, err, fifo, "not a regular file (a named pipe)", fs.ModeNamedPipe)

			linked, r := resolve("linked.py")
			if err := os.Link(linked, linked+".other"); err != nil {
				t.Fatal(err)
			}
			_, err = f.ReadResolved(r)
			_, readErr := f.Read(linked)
			var fe *edit.FileError
			if !errors.As(err, &fe) || !errors.Is(err, ErrHardLink) || fe.Path != linked || readErr == nil || err.Error() != readErr.Error() {
				t.Errorf("a hard link made after Resolve: err = %v, want Read's %v (ErrHardLink)", err, readErr)
			}

			replaced, r := resolve("replaced.py")
			if err := os.WriteFile(replaced+".new", []byte("x = 2\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(replaced+".new", replaced); err != nil {
				t.Fatal(err)
			}
			doc, err := f.ReadResolved(r)
			if err != nil || string(doc.Content) != "x = 2\n" || doc.RealPath() != r.RealPath() || doc.Path != replaced {
				t.Errorf("a file renamed into place after Resolve: %v, want its content x = 2", err)
			}
			// Info is the file read, not the one Resolve saw.
			if now, err := os.Stat(replaced); doc != nil && (err != nil || doc.Info() == nil || !os.SameFile(doc.Info(), now) || doc.Info().Size() != 6) {
				t.Errorf("a file renamed into place after Resolve: Info %v, want the new file's (%v)", doc.Info(), err)
			}
		})
	}
}

// TestResolveErrorsAreReads: Resolve refuses what Read refuses, with the
// same error, before anything is read.
func TestResolveErrorsAreReads(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "o.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "o.py"), filepath.Join(dir, "out.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := Open(Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range []string{"missing.py", "out.py", "sub", "../x.py", filepath.Join(outside, "o.py")} {
		path := filepath.Join(dir, p)
		if filepath.IsAbs(p) {
			path = p
		}
		_, rerr := f.Resolve(path)
		_, err := f.Read(path)
		if rerr == nil || err == nil || rerr.Error() != err.Error() {
			t.Errorf("%s: Resolve's error %v, want Read's %v", p, rerr, err)
		}
	}
}

// openIn opens Files unconfined, or with its root at dir when root, and
// closes them when the test ends.
func openIn(t *testing.T, dir string, root bool) *Files {
	t.Helper()
	opt := Options{}
	if root {
		opt.Root = dir
	}
	f, err := Open(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
