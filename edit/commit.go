package edit

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// fileSystem is the set of operations Read and Commit perform, so that the
// same code runs unconfined (osFS) or confined to a root (rootFS), and so
// that tests can fail each operation in turn. Names are paths as the
// implementation takes them: OS paths for osFS, root-relative for rootFS.
type fileSystem interface {
	CreateTemp(dir, pattern string) (tempFile, error)
	ReadFile(name string) ([]byte, error)
	Rename(oldpath, newpath string) error
	Link(oldpath, newpath string) error
	Remove(name string) error
	SyncDir(dir string) error
	Stat(name string) (fs.FileInfo, error)
	Lstat(name string) (fs.FileInfo, error)
	MkdirAll(dir string, perm fs.FileMode) error
	// Resolve follows symbolic links in name to the file they name.
	Resolve(name string) (string, error)
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

// osFS is the unconfined file system.
type osFS struct{}

func (osFS) CreateTemp(dir, pattern string) (tempFile, error) { return os.CreateTemp(dir, pattern) }
func (osFS) ReadFile(name string) ([]byte, error)             { return os.ReadFile(name) }
func (osFS) Rename(oldpath, newpath string) error             { return os.Rename(oldpath, newpath) }
func (osFS) Link(oldpath, newpath string) error               { return os.Link(oldpath, newpath) }
func (osFS) Remove(name string) error                         { return os.Remove(name) }
func (osFS) Stat(name string) (fs.FileInfo, error)            { return os.Stat(name) }
func (osFS) Lstat(name string) (fs.FileInfo, error)           { return os.Lstat(name) }
func (osFS) MkdirAll(dir string, perm fs.FileMode) error      { return os.MkdirAll(dir, perm) }
func (osFS) Resolve(name string) (string, error)              { return filepath.EvalSymlinks(name) }
func (osFS) SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// Commit atomically replaces the file doc was read from with content, on
// the unconfined file system; see Files.Commit.
func Commit(doc *Document, content []byte) error {
	return commit(osFS{}, doc, content)
}

func commit(fsys fileSystem, doc *Document, content []byte) (err error) {
	name := doc.fsName()
	if doc.absent {
		return create(fsys, doc, name, content)
	}
	target, err := fsys.Resolve(name)
	if err != nil {
		return &FileError{Path: doc.Path, Reason: reason(err), Err: err}
	}
	fi, err := fsys.Lstat(target)
	if err != nil {
		return &FileError{Path: doc.Path, Reason: reason(err), Err: err}
	}
	if !fi.Mode().IsRegular() {
		return &FileError{Path: doc.Path, Reason: fmt.Sprintf("not a regular file (%s)", kind(fi.Mode())), Err: ErrNotRegular}
	}
	if err := unchanged(fsys, doc, target); err != nil {
		return err
	}
	tmp, err := writeTemp(fsys, doc, target, content, fi)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			fsys.Remove(tmp)
		}
	}()
	if err = unchanged(fsys, doc, target); err != nil {
		return err
	}
	if err = fsys.Rename(tmp, target); err != nil {
		return failed(doc, "cannot rename the temporary file over the original", err)
	}
	// The new content is in place; a failed directory sync only weakens
	// durability after a crash, so it is not reported as a failed edit.
	_ = fsys.SyncDir(dirOf(target))
	return nil
}

// create writes a new file: its folders are made, a temporary file is
// written and synced, and then hard-linked to the name, which fails rather
// than replace a file that appeared since the document was read.
func create(fsys fileSystem, doc *Document, name string, content []byte) (err error) {
	if _, err := fsys.Lstat(name); err == nil {
		return &FileError{Path: doc.Path, Reason: "the file was created by someone else since symedit looked; nothing was written, read it and retry", Err: ErrChanged}
	}
	if err := fsys.MkdirAll(dirOf(name), 0o755); err != nil {
		return failed(doc, "cannot create the file's folder", err)
	}
	tmp, err := writeTemp(fsys, doc, name, content, nil)
	if err != nil {
		return err
	}
	defer fsys.Remove(tmp)
	if err := fsys.Link(tmp, name); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return &FileError{Path: doc.Path, Reason: "the file was created by someone else since symedit looked; nothing was written, read it and retry", Err: ErrChanged}
		}
		return failed(doc, "cannot link the new file into place", err)
	}
	_ = fsys.SyncDir(dirOf(name))
	return nil
}

// writeTemp writes content to a new temporary file beside target, with
// the mode (and, as root, the owner) of fi, or 0o644 when fi is nil, and
// syncs and closes it. It returns the temporary file's name; on error the
// file is already removed.
func writeTemp(fsys fileSystem, doc *Document, target string, content []byte, fi fs.FileInfo) (name string, err error) {
	dir := dirOf(target)
	tmp, err := fsys.CreateTemp(dir, "."+filepath.Base(target)+".symedit-*")
	if err != nil {
		return "", failed(doc, "cannot create a temporary file in "+dir, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			fsys.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(content); err != nil {
		return "", failed(doc, "cannot write the temporary file", err)
	}
	perm := fs.FileMode(0o644)
	if fi != nil {
		perm = fi.Mode().Perm()
	}
	if err = tmp.Chmod(perm); err != nil {
		return "", failed(doc, "cannot set the temporary file's permissions", err)
	}
	if fi != nil {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && os.Geteuid() == 0 {
			if err = tmp.Chown(int(st.Uid), int(st.Gid)); err != nil {
				return "", failed(doc, "cannot set the temporary file's owner", err)
			}
		}
	}
	if err = tmp.Sync(); err != nil {
		return "", failed(doc, "cannot sync the temporary file", err)
	}
	if err = tmp.Close(); err != nil {
		return "", failed(doc, "cannot close the temporary file", err)
	}
	return tmp.Name(), nil
}

func failed(doc *Document, step string, err error) error {
	return &FileError{Path: doc.Path, Reason: fmt.Sprintf("%s: %s; the file was not changed", step, reason(err)), Err: err}
}

func dirOf(name string) string {
	dir := filepath.Dir(name)
	if dir == "" {
		return "."
	}
	return dir
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

// randomSuffix returns 16 random hex digits for temporary names.
func randomSuffix() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
