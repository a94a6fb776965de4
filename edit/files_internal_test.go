package edit

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
			opt := Options{}
			if root {
				opt.Root = dir
			}
			f, err := Open(opt)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
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
			err = f.Commit(doc, []byte("package ours\n"))
			var fe *FileError
			if !errors.As(err, &fe) || !errors.Is(err, ErrChanged) || fe.Path != path {
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
	err = f.Commit(doc, []byte("x\n"))
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
