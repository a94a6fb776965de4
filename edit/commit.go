package edit

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// fileSystem is the set of operations Commit performs, so that tests can
// fail each one in turn. osFS is the real one.
type fileSystem interface {
	CreateTemp(dir, pattern string) (tempFile, error)
	ReadFile(name string) ([]byte, error)
	Rename(oldpath, newpath string) error
	Remove(name string) error
	SyncDir(dir string) error
}

// tempFile is the part of *os.File that Commit uses.
type tempFile interface {
	Name() string
	Write(b []byte) (int, error)
	Chmod(mode fs.FileMode) error
	Chown(uid, gid int) error
	Sync() error
	Close() error
}

type osFS struct{}

func (osFS) CreateTemp(dir, pattern string) (tempFile, error) { return os.CreateTemp(dir, pattern) }
func (osFS) ReadFile(name string) ([]byte, error)             { return os.ReadFile(name) }
func (osFS) Rename(oldpath, newpath string) error             { return os.Rename(oldpath, newpath) }
func (osFS) Remove(name string) error                         { return os.Remove(name) }
func (osFS) SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// Commit atomically replaces the file doc was read from with content. It
// first checks that the file still holds doc.Content (else ErrChanged), then
// writes a temporary file in the same directory, syncs it, gives it doc's
// permission bits (and owner, when running as root), checks again, renames
// it over the file and syncs the directory. A symbolic link is written
// through to its target. The error is a *FileError; on any error the file is
// untouched and no temporary file remains.
func Commit(doc *Document, content []byte) error {
	return commit(osFS{}, doc, content)
}

func commit(fsys fileSystem, doc *Document, content []byte) (err error) {
	target, err := filepath.EvalSymlinks(doc.Path)
	if err != nil {
		return &FileError{Path: doc.Path, Reason: reason(err), Err: err}
	}
	fi, err := os.Lstat(target)
	if err != nil {
		return &FileError{Path: doc.Path, Reason: reason(err), Err: err}
	}
	if !fi.Mode().IsRegular() {
		return &FileError{Path: doc.Path, Reason: fmt.Sprintf("not a regular file (%s)", kind(fi.Mode())), Err: ErrNotRegular}
	}
	if err := unchanged(fsys, doc, target); err != nil {
		return err
	}
	fail := func(step string, err error) error {
		return &FileError{Path: doc.Path, Reason: fmt.Sprintf("%s: %s; the file was not changed", step, reason(err)), Err: err}
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	tmp, err := fsys.CreateTemp(dir, "."+base+".symedit-*")
	if err != nil {
		return fail("cannot create a temporary file in "+dir, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			fsys.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(content); err != nil {
		return fail("cannot write the temporary file", err)
	}
	if err = tmp.Chmod(fi.Mode().Perm()); err != nil {
		return fail("cannot set the temporary file's permissions", err)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && os.Geteuid() == 0 {
		if err = tmp.Chown(int(st.Uid), int(st.Gid)); err != nil {
			return fail("cannot set the temporary file's owner", err)
		}
	}
	if err = tmp.Sync(); err != nil {
		return fail("cannot sync the temporary file", err)
	}
	if err = tmp.Close(); err != nil {
		return fail("cannot close the temporary file", err)
	}
	if err = unchanged(fsys, doc, target); err != nil {
		return err
	}
	if err = fsys.Rename(tmp.Name(), target); err != nil {
		return fail("cannot rename the temporary file over the original", err)
	}
	// The new content is in place; a failed directory sync only weakens
	// durability after a crash, so it is not reported as a failed edit.
	_ = fsys.SyncDir(dir)
	return nil
}

// unchanged checks that target still holds doc.Content.
func unchanged(fsys fileSystem, doc *Document, target string) error {
	now, err := fsys.ReadFile(target)
	if err != nil {
		return &FileError{Path: doc.Path, Reason: reason(err), Err: err}
	}
	if !bytes.Equal(now, doc.Content) {
		return &FileError{Path: doc.Path, Reason: "the file changed on disk since symedit read it; nothing was written, read it again and retry", Err: ErrChanged}
	}
	return nil
}
