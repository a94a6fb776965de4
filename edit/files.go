package edit

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// ErrOutsideRoot is wrapped by the *FileError for a path that resolves
// outside the root that Files confines to: through "..", an absolute path
// elsewhere, or a symbolic link that leads out.
var ErrOutsideRoot = errors.New("path outside the root")

// ErrHardLink is wrapped by the *FileError for a file with several hard
// links, which an atomic rename would split from its other names.
var ErrHardLink = errors.New("file has several hard links")

// Options configures Files.
type Options struct {
	// Root, when not "", confines every path to that directory through
	// os.Root: paths are taken relative to the working directory as usual,
	// but one that resolves outside Root is refused before anything is
	// read.
	Root string
	// AllowHardlinks lets Read accept a file with several hard links; the
	// commit then replaces this name only, splitting it from the others.
	AllowHardlinks bool
}

// Files reads documents and commits them, optionally confined to a root.
// A Files is safe for concurrent use; Close releases the root.
type Files struct {
	fsys    fileSystem
	root    *os.Root
	rootDir string // absolute, symlinks resolved; "" when unconfined
	opt     Options
}

// Open returns a Files for opt. The error is a *FileError if opt.Root does
// not exist or is not a directory.
func Open(opt Options) (*Files, error) {
	f := &Files{fsys: osFS{}, opt: opt}
	if opt.Root == "" {
		return f, nil
	}
	dir, err := filepath.Abs(opt.Root)
	if err == nil {
		dir, err = filepath.EvalSymlinks(dir)
	}
	if err != nil {
		return nil, &FileError{Path: opt.Root, Reason: "cannot use as root: " + reason(err), Err: err}
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, &FileError{Path: opt.Root, Reason: "cannot use as root: " + reason(err), Err: err}
	}
	f.root, f.rootDir, f.fsys = r, dir, rootFS{r: r, dir: dir}
	return f, nil
}

// Close releases the root, if any.
func (f *Files) Close() error {
	if f.root != nil {
		return f.root.Close()
	}
	return nil
}

// name maps a user's path to the file system's name for it: itself when
// unconfined, else the path relative to the root, refusing one outside.
func (f *Files) name(path string) (string, error) {
	if f.root == nil {
		return path, nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", &FileError{Path: path, Reason: reason(err), Err: err}
	}
	// The path is tried as written, then with the symbolic links of its
	// folder resolved (the working directory may be reached through a
	// link); the root, as given and with its links resolved. Either way
	// os.Root then refuses anything that escapes through a link.
	paths := []string{abs}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		paths = append(paths, filepath.Join(dir, filepath.Base(abs)))
	}
	roots := []string{f.rootDir}
	if alt, err := filepath.Abs(f.opt.Root); err == nil {
		roots = append(roots, alt)
	}
	for _, p := range paths {
		for _, r := range roots {
			if rel, err := filepath.Rel(r, p); err == nil && inside(rel) {
				return rel, nil
			}
		}
	}
	return "", &FileError{Path: path, Reason: fmt.Sprintf("outside the root %s; nothing was read", f.opt.Root), Err: ErrOutsideRoot}
}

// inside reports whether a relative path stays below its base.
func inside(rel string) bool {
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// wrapRoot turns os.Root's escape error into ErrOutsideRoot.
func (f *Files) wrapRoot(path string, err error) error {
	if f.root != nil && err != nil && (errors.Is(err, ErrOutsideRoot) || strings.Contains(err.Error(), "path escapes from parent")) {
		return &FileError{Path: path, Reason: fmt.Sprintf("resolves outside the root %s (through a symbolic link); nothing was read", f.opt.Root), Err: ErrOutsideRoot}
	}
	return &FileError{Path: path, Reason: reason(err), Err: err}
}

// Read reads path for editing. Besides the refusals of the package-level
// Read (ErrNotRegular, ErrTooLarge, ErrEncoding, ErrBinary), it refuses a
// path outside the root (ErrOutsideRoot) and, unless AllowHardlinks, a
// file with several hard links (ErrHardLink). All errors are *FileError.
func (f *Files) Read(path string) (*Document, error) {
	name, err := f.name(path)
	if err != nil {
		return nil, err
	}
	// Follow links by the same rule as Commit (os.Root alone refuses an
	// absolute link even to a file inside the root). The document keeps
	// the name as given: Commit resolves it again, so a link repointed
	// meanwhile is caught.
	target, err := f.fsys.Resolve(name)
	if err != nil {
		return nil, f.wrapRoot(path, err)
	}
	fi, err := f.fsys.Stat(target)
	if err != nil {
		return nil, f.wrapRoot(path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, &FileError{Path: path, Reason: fmt.Sprintf("not a regular file (%s)", kind(fi.Mode())), Err: ErrNotRegular}
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 && !f.opt.AllowHardlinks {
		return nil, &FileError{Path: path, Reason: fmt.Sprintf("the file has %d hard links; an atomic write would split this name from the others (pass --allow-hardlinks to accept that)", st.Nlink), Err: ErrHardLink}
	}
	if fi.Size() > MaxFileSize {
		return nil, &FileError{Path: path, Reason: fmt.Sprintf("file is %d bytes, over the %d-byte limit", fi.Size(), MaxFileSize), Err: ErrTooLarge}
	}
	content, err := f.fsys.ReadFile(target)
	if err != nil {
		return nil, f.wrapRoot(path, err)
	}
	d, err := NewDocument(path, content)
	if err != nil {
		return nil, err
	}
	d.Mode, d.name = fi.Mode(), name
	return d, nil
}

// ReadOrNew reads path like Read, or, if it does not exist, returns an
// empty Document that Commit will create (with its parent folders).
func (f *Files) ReadOrNew(path string) (*Document, error) {
	d, err := f.Read(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return d, err
	}
	name, nerr := f.name(path)
	if nerr != nil {
		return nil, nerr
	}
	if fi, lerr := f.fsys.Lstat(name); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, &FileError{Path: path, Reason: "a symbolic link to a file that does not exist; symedit does not create files through links: name the link's target instead", Err: ErrNotRegular}
	}
	d, _ = NewDocument(path, nil)
	d.name, d.absent = name, true
	return d, nil
}

// Commit atomically replaces the file doc was read from with content (or
// creates it, for a Document from ReadOrNew). It first checks that the
// file still holds doc.Content (else ErrChanged), then writes a temporary
// file (created with O_EXCL) in the same directory, syncs it, gives it
// doc's permission bits (and owner, when running as root), checks again,
// renames it over the file and syncs the directory. A symbolic link is
// written through to its target and stays a link. A new file is linked
// into place, so one created meanwhile is never overwritten (ErrChanged).
// The error is a *FileError; on any error the file is untouched and no
// temporary file remains.
func (f *Files) Commit(doc *Document, content []byte) error {
	return commit(f.fsys, doc, content)
}

// IsNew reports a Document from ReadOrNew for a file that does not exist
// yet: Commit creates it.
func (d *Document) IsNew() bool { return d.absent }

// SHA256 returns the hex SHA-256 of the document's content as read.
func (d *Document) SHA256() string {
	sum := sha256.Sum256(d.Content)
	return hex.EncodeToString(sum[:])
}

// CheckSHA256 returns a *FileError wrapping ErrChanged unless the
// document's content has the SHA-256 want (hex, case-insensitive): the
// check of --expect-sha256, for a caller that read the file earlier.
func (d *Document) CheckSHA256(want string) error {
	if got := d.SHA256(); !strings.EqualFold(got, want) {
		return &FileError{Path: d.Path, Reason: fmt.Sprintf("the file's SHA-256 is %s, not the expected %s: it changed since it was read; nothing was written", got, strings.ToLower(want)), Err: ErrChanged}
	}
	return nil
}

// rootFS is a file system confined to an os.Root. Names are relative to
// the root.
type rootFS struct {
	r   *os.Root
	dir string // the root's absolute path
}

func (f rootFS) CreateTemp(dir, pattern string) (tempFile, error) {
	prefix, suffix, _ := strings.Cut(pattern, "*")
	for range 100 {
		name := filepath.Join(dir, prefix+randomSuffix()+suffix)
		fh, err := f.r.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return rootTemp{fh, name}, nil
	}
	return nil, &fs.PathError{Op: "createtemp", Path: dir, Err: fs.ErrExist}
}

// rootTemp is a temporary file whose Name is root-relative.
type rootTemp struct {
	*os.File
	name string
}

func (t rootTemp) Name() string { return t.name }

func (f rootFS) ReadFile(name string) ([]byte, error)        { return f.r.ReadFile(name) }
func (f rootFS) Rename(oldpath, newpath string) error        { return f.r.Rename(oldpath, newpath) }
func (f rootFS) Link(oldpath, newpath string) error          { return f.r.Link(oldpath, newpath) }
func (f rootFS) Remove(name string) error                    { return f.r.Remove(name) }
func (f rootFS) Stat(name string) (fs.FileInfo, error)       { return f.r.Stat(name) }
func (f rootFS) Lstat(name string) (fs.FileInfo, error)      { return f.r.Lstat(name) }
func (f rootFS) MkdirAll(dir string, perm fs.FileMode) error { return f.r.MkdirAll(dir, perm) }
func (f rootFS) SyncDir(dir string) error {
	d, err := f.r.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// Resolve follows symbolic links in the last element of name, staying in
// the root: an absolute target is taken relative to the root's path, and a
// target outside the root is an error wrapping ErrOutsideRoot.
func (f rootFS) Resolve(name string) (string, error) {
	for range 40 {
		fi, err := f.r.Lstat(name)
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return name, nil
		}
		target, err := f.r.Readlink(name)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(target) {
			rel, err := filepath.Rel(f.dir, target)
			if err != nil || !inside(rel) {
				return "", fmt.Errorf("%s: %w", name, ErrOutsideRoot)
			}
			name = rel
		} else {
			name = filepath.Join(filepath.Dir(name), target)
			if !inside(name) {
				return "", fmt.Errorf("%s: %w", name, ErrOutsideRoot)
			}
		}
	}
	return "", &fs.PathError{Op: "resolve", Path: name, Err: syscall.ELOOP}
}
