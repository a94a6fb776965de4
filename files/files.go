package files

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/remedy"
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
	// os.Root: paths are taken relative to the working directory as usual
	// and resolved as the kernel resolves them (a link's target from the
	// folder the link lives in, ".." from the real folder reached), but a
	// path that ends outside Root, or that once inside it steps out
	// through ".." or a link, is refused with ErrOutsideRoot before
	// anything is read (see resolver).
	Root string
	// AllowHardlinks lets Read accept a file with several hard links; the
	// commit then replaces this name only, splitting it from the others.
	AllowHardlinks bool
	// AllowReadOnly lets Commit replace a file the caller may not write
	// (open(O_WRONLY) would fail, as for a 0444 file or another user's
	// file in a folder the caller can write); the new file belongs to the
	// caller. Without it Commit refuses with ErrNotWritable.
	AllowReadOnly bool
	// AllowMetadataLoss lets Commit write a file whose owner, setuid,
	// setgid or sticky bit, or extended attributes (POSIX ACLs included)
	// the new file cannot keep. Without it Commit refuses with
	// ErrMetadata, naming what would be lost.
	AllowMetadataLoss bool
	// Dir is the folder relative paths are taken from (a relative Root
	// included); "" means the working directory. It is made absolute
	// once, by Open.
	Dir string
}

// Files reads documents and commits them, optionally confined to a root.
// A Files is safe for concurrent use; Close releases the root.
type Files struct {
	fsys    fileSystem
	root    *os.Root
	rootDir string // absolute, symlinks resolved; "" when unconfined
	opt     Options
	view    bool // a ForReading view: Close leaves the root to its owner
}

// Open returns a Files for opt. The error is a *FileError if opt.Root does
// not exist or is not a directory. A relative opt.Root is taken from the
// working directory, and ".." in it after a symbolic link means what the
// kernel makes of it, as in every path a program opens, not what the
// text reads after cleaning.
func Open(opt Options) (*Files, error) {
	if opt.Dir != "" {
		d, err := absolute(opt.Dir, "")
		if err != nil {
			return nil, &edit.FileError{Path: opt.Dir, Reason: "cannot take paths from it: " + reason(err), Err: err}
		}
		opt.Dir = d
	}
	f := &Files{fsys: osFS{}, opt: opt}
	if opt.Root == "" {
		return f, nil
	}
	dir, err := absolute(opt.Root, opt.Dir)
	if err == nil {
		dir, err = filepath.EvalSymlinks(dir)
	}
	if err != nil {
		return nil, &edit.FileError{Path: opt.Root, Reason: "cannot use as root: " + reason(err), Err: err}
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, &edit.FileError{Path: opt.Root, Reason: "cannot use as root: " + reason(err), Err: err}
	}
	f.root, f.rootDir, f.fsys = r, dir, rootFS{r: r, dir: dir}
	return f, nil
}

// ForReading returns a view of f for operations that never write (show,
// symbols, check): it reads a file with several hard links, since reading
// one splits nothing, and is otherwise f (the same root, options and
// refusals). The view shares f's root: it must not be used after f is
// closed, and its own Close does nothing.
func (f *Files) ForReading() *Files {
	v := *f
	v.opt.AllowHardlinks, v.view = true, true
	return &v
}

// Close releases the root, if any; a ForReading view releases nothing.
func (f *Files) Close() error {
	if f.root != nil && !f.view {
		return f.root.Close()
	}
	return nil
}

// resolver returns the resolver of f's paths.
func (f *Files) resolver() resolver {
	if f.root == nil {
		return resolver{dir: f.opt.Dir}
	}
	return resolver{root: f.root, top: components(f.rootDir), dir: f.opt.Dir}
}

// name maps a user's path to the file system's name for it: the real path
// of its folder (every symbolic link and ".." resolved as the kernel
// does) followed by its last component, which may be a link and may not
// exist; below the root, relative to it, when confined. A path outside the
// root, or leaving it on the way, is refused with ErrOutsideRoot.
func (f *Files) name(path string) (string, error) {
	name, _, err := f.nameInfo(path)
	return name, err
}

// nameInfo is name, with the lstat information of the file the name
// names, as the resolution found it (nil when it could not tell: after
// an error, or a final ".." or ".").
func (f *Files) nameInfo(path string) (string, fs.FileInfo, error) {
	rv := f.resolver()
	real, fi, err := rv.resolve(path, false)
	if real == nil {
		return "", nil, f.wrapRoot(path, err)
	}
	return rv.fsName(real), fi, nil
}

// wrapRoot turns an escape from the root (ErrOutsideRoot, or os.Root's
// own error for a race it caught) into a *FileError wrapping
// ErrOutsideRoot, and any other error into a *FileError.
func (f *Files) wrapRoot(path string, err error) error {
	if f.root == nil || err == nil {
		return &edit.FileError{Path: path, Reason: reason(err), Err: err}
	}
	// The words are those of earlier versions, which scripts match; Err
	// keeps the step that left the root.
	if ee := (*escapeError)(nil); errors.As(err, &ee) && !ee.linked {
		return &edit.FileError{Path: path, Reason: fmt.Sprintf("outside the root %s; nothing was read", f.opt.Root), Err: ee}
	}
	if errors.Is(err, ErrOutsideRoot) || strings.Contains(err.Error(), "path escapes from parent") {
		if !errors.Is(err, ErrOutsideRoot) {
			err = ErrOutsideRoot
		}
		return &edit.FileError{Path: path, Reason: fmt.Sprintf("resolves outside the root %s (through a symbolic link); nothing was read", f.opt.Root), Err: err}
	}
	return &edit.FileError{Path: path, Reason: reason(err), Err: err}
}

// ConfineDir refuses the folder dir when it resolves outside the root,
// every symbolic link (the last one too) and ".." resolved as the kernel
// resolves them, with the *edit.FileError wrapping ErrOutsideRoot that
// Read gives a file there; a folder that cannot be resolved (missing, not
// searchable) is a *edit.FileError too. Without a root it returns nil: a
// walk of folders (package walk) asks it before it reads one, so that
// confinement has one implementation.
func (f *Files) ConfineDir(dir string) error {
	if f.root == nil {
		return nil
	}
	real, _, err := f.resolver().resolve(dir, true)
	if real == nil || err != nil {
		return f.wrapRoot(dir, err)
	}
	return nil
}

// Read reads path for editing. Besides the refusals of the package-level
// Read (ErrNotRegular, ErrTooLarge, ErrEncoding, ErrBinary), it refuses a
// path outside the root (ErrOutsideRoot) and, unless AllowHardlinks, a
// file with several hard links (ErrHardLink). All errors are *FileError.
func (f *Files) Read(path string) (*edit.Document, error) {
	r, err := f.Resolve(path)
	if err != nil {
		return nil, err
	}
	return f.ReadResolved(r)
}

// ReadBytes reads path as Read does (confined to the root, a regular
// file, one hard link unless AllowHardlinks, at most MaxFileSize bytes)
// and returns its bytes as they are, without Read's text checks (the
// encoding, NUL bytes): for searching a file symedit does not edit. The
// errors are Read's *FileError for those checks.
func (f *Files) ReadBytes(path string) ([]byte, error) {
	r, err := f.Resolve(path)
	if err != nil {
		return nil, err
	}
	content, fi, err := f.readFile(r.target)
	if err != nil {
		return nil, f.wrapRoot(path, err)
	}
	if err := f.checkInfo(path, fi); err != nil {
		return nil, err
	}
	return content, nil
}

// Resolution is a path that Files.Resolve resolved and checked, for
// Files.ReadResolved to read without resolving it again: a caller that
// needs the file's identity before it reads (to take a lock keyed by it)
// resolves each path once, not once for the identity and again for the
// read.
type Resolution struct {
	files              *Files
	path, name, target string // as stat returns them
}

// RealPath returns the file's absolute real path, every symbolic link
// resolved, as Stat returns it and as Document.RealPath will.
func (r *Resolution) RealPath() string { return r.files.abs(r.target) }

// Resolve makes every check Stat makes (the root, a final link followed,
// ErrNotRegular, ErrHardLink, ErrTooLarge) and returns the resolution,
// for ReadResolved. The error is a *FileError, Read's for the same path.
func (f *Files) Resolve(path string) (*Resolution, error) {
	name, target, _, err := f.stat(path)
	if err != nil {
		return nil, err
	}
	return &Resolution{files: f, path: path, name: name, target: target}, nil
}

// ReadResolved reads the file r names for editing, as Read(path) would,
// without resolving the path again: the file is opened by the name r
// resolved it to (a link put in its place meanwhile is refused, a file
// renamed into its place is read), and the checks of the file's
// information (ErrNotRegular, ErrHardLink, ErrTooLarge) are made again on
// the file opened. Between Resolve and ReadResolved a link on the way may
// have been repointed; the document keeps the name as resolved, and
// Commit resolves it again and refuses a file that no longer holds the
// content read (ErrChanged). A Resolution of another Files is read with
// Read. The errors are Read's.
func (f *Files) ReadResolved(r *Resolution) (*edit.Document, error) {
	if r.files != f {
		return f.Read(r.path)
	}
	content, fi, err := f.readFile(r.target)
	if err != nil {
		return nil, f.wrapRoot(r.path, err)
	}
	if err := f.checkInfo(r.path, fi); err != nil {
		return nil, err
	}
	return edit.NewFileDocument(r.path, content, fi.Mode(), edit.Origin{Name: r.name, Real: f.abs(r.target), Info: fi})
}

// readFile reads the file system's name name as readRegular says and
// returns its information from the descriptor read (fstat). A file system
// other than osFS and rootFS (a test's wrapper) is asked for the
// information (Stat) before the read.
func (f *Files) readFile(name string) ([]byte, fs.FileInfo, error) {
	switch fsys := f.fsys.(type) {
	case osFS:
		return readRegularInfo(name, os.OpenFile, os.Lstat)
	case rootFS:
		return readRegularInfo(name, fsys.r.OpenFile, fsys.r.Lstat)
	}
	fi, err := f.fsys.Stat(name)
	if err != nil {
		return nil, nil, err
	}
	b, err := f.fsys.ReadFile(name)
	return b, fi, err
}

// Stat makes every check Read makes before it reads the file (the root, a
// final link followed, ErrNotRegular, ErrHardLink, ErrTooLarge) and returns
// the file's absolute real path (every symbolic link resolved) and its
// information, without reading it: for a cache keyed by the file's identity,
// which a hit then answers without reading the file. Content checks
// (ErrBinary, ErrEncoding) need the content and are Read's. The error is a
// *FileError.
func (f *Files) Stat(path string) (realPath string, fi fs.FileInfo, err error) {
	_, target, fi, err := f.stat(path)
	if err != nil {
		return "", nil, err
	}
	return f.abs(target), fi, nil // Document.RealPath's path
}

// stat resolves path to its file system name and the real name of its
// target and makes Read's checks of the target's information.
func (f *Files) stat(path string) (name, target string, fi fs.FileInfo, err error) {
	name, fi, err = f.nameInfo(path)
	if err != nil {
		return "", "", nil, err
	}
	if fi != nil && fi.Mode()&fs.ModeSymlink == 0 {
		// The resolution's lstat of the file itself: no final link to
		// follow, so the target is the name and its stat is that lstat.
		target = name
	} else {
		// Follow a final link by the same rule as Commit. The document
		// keeps the name with that link unresolved: Commit resolves it
		// again, so a link repointed meanwhile is caught.
		target, err = f.fsys.Resolve(name)
		if err != nil {
			return "", "", nil, f.wrapRoot(path, err)
		}
		fi, err = f.fsys.Stat(target)
		if err != nil {
			return "", "", nil, f.wrapRoot(path, err)
		}
	}
	if err := f.checkInfo(path, fi); err != nil {
		return "", "", nil, err
	}
	return name, target, fi, nil
}

// checkInfo makes Read's checks of the information fi of the file path
// names: a regular file (ErrNotRegular), one hard link unless
// AllowHardlinks (ErrHardLink), at most MaxFileSize bytes (ErrTooLarge).
func (f *Files) checkInfo(path string, fi fs.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return &edit.FileError{Path: path, Reason: fmt.Sprintf("not a regular file (%s)", kind(fi.Mode())), Err: edit.ErrNotRegular}
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 && !f.opt.AllowHardlinks {
		return (&edit.FileError{Path: path, Reason: fmt.Sprintf("the file has %d hard links; an atomic write would split this name from the others", st.Nlink), Err: ErrHardLink}).
			WithRemedy(remedy.Set(remedy.AllowHardlinks, "true"))
	}
	if fi.Size() > edit.MaxFileSize {
		return &edit.FileError{Path: path, Reason: fmt.Sprintf("file is %d bytes, over the %d-byte limit", fi.Size(), edit.MaxFileSize), Err: edit.ErrTooLarge}
	}
	return nil
}

// abs returns the absolute path of the file system's name name: itself
// unconfined, else joined to the root's real path.
func (f *Files) abs(name string) string {
	if f.root == nil {
		return name
	}
	return filepath.Join(f.rootDir, name) // name is resolved already: no ".." to clean
}

// Root returns the root's real absolute path (every symbolic link and ".."
// resolved as the kernel resolves them, never by cleaning the text), or ""
// when f is unconfined.
func (f *Files) Root() string { return f.rootDir }

// ReadOrNew reads path like Read, or, if it does not exist, returns an
// empty Document that Commit will create (with its parent folders).
func (f *Files) ReadOrNew(path string) (*edit.Document, error) {
	d, err := f.Read(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return d, err
	}
	name, nerr := f.name(path)
	if nerr != nil {
		return nil, nerr
	}
	if fi, lerr := f.fsys.Lstat(name); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, &edit.FileError{Path: path, Reason: "a symbolic link to a file that does not exist; symedit does not create files through links: name the link's target instead", Err: edit.ErrNotRegular}
	}
	return edit.NewFileDocument(path, nil, 0, edit.Origin{Name: name, Real: f.abs(name), Absent: true})
}

// rootFS is a file system confined to an os.Root. Names are relative to
// the root.
type rootFS struct {
	r   *os.Root
	dir string // the root's absolute path
}

// ReadFile reads the file name, which must be a regular file, as
// readRegular says; os.Root follows a link put in its place (inside the
// root only), and readRegular's lstat then refuses it.
func (f rootFS) ReadFile(name string) ([]byte, error) {
	return readRegular(name, f.r.OpenFile, f.r.Lstat)
}

func (f rootFS) Remove(name string) error                    { return f.r.Remove(name) }
func (f rootFS) Stat(name string) (fs.FileInfo, error)       { return f.r.Stat(name) }
func (f rootFS) Lstat(name string) (fs.FileInfo, error)      { return f.r.Lstat(name) }
func (f rootFS) MkdirAll(dir string, perm fs.FileMode) error { return f.r.MkdirAll(dir, perm) }

// Resolve follows the symbolic links of name, a name below the root, to
// the real name of the file, below the root, by the rules of resolver.
func (f rootFS) Resolve(name string) (string, error) {
	rv := resolver{root: f.r, top: components(f.dir)}
	real, err := rv.walk(rv.top, rv.parts(name, ""), true)
	if err != nil {
		return "", err
	}
	return rv.fsName(real), nil
}

// maxLinks is how many symbolic links one resolution follows before it
// fails with ELOOP: Linux's own limit.
const maxLinks = 40

// resolver resolves a path component by component as the kernel does, so
// that the file edited is the one cat shows: a relative link target is read
// from the folder the link really lives in, and ".." goes up from the real
// folder reached so far, never by cleaning the text. Unconfined (root nil)
// that is all. Confined, the components below the root are looked at through
// the os.Root; a path must reach the root, and from there stay inside it: a
// ".." above the root, or a link whose target goes above it, is refused with
// ErrOutsideRoot even if later components would come back in (as os.Root
// refuses them); an absolute link target starts again from "/" under the
// same rule; and a path that ends outside the root is refused.
type resolver struct {
	root *os.Root
	top  []string // the root's real absolute path, as components
	dir  string   // where relative paths start (Options.Dir); "": the working directory
}

// part is one component still to resolve, and the symbolic link ("LINK
// -> TARGET") whose target it came from, "" for the path itself.
type part struct {
	name, via string
}

// components splits a slash-separated path into its non-empty components;
// a trailing slash becomes a final ".", so that the component before it
// must be a folder, as for the kernel.
func components(p string) []string {
	var out []string
	for _, c := range strings.Split(p, "/") {
		if c != "" {
			out = append(out, c)
		}
	}
	if len(out) > 0 && strings.HasSuffix(p, "/") {
		out = append(out, ".")
	}
	return out
}

// parts returns the components of p as parts that came through via.
func (rv resolver) parts(p, via string) []part {
	var out []part
	for _, c := range components(p) {
		out = append(out, part{c, via})
	}
	return out
}

// resolve resolves path (relative to the working directory, or absolute)
// to the real absolute path of the file, as components. The last
// component is followed when it is a symbolic link only if followLast.
// When a component does not exist, the result is where the file would be
// created (the real folders reached, then the missing components) with an
// error wrapping fs.ErrNotExist; nil when it cannot be told (a ".." after
// the missing component). A place outside the root is ErrOutsideRoot.
// The FileInfo is the lstat of the result's last component as the walk
// found it (nil when it cannot tell; see walkInfo).
func (rv resolver) resolve(path string, followLast bool) ([]string, fs.FileInfo, error) {
	var ps []part
	if !filepath.IsAbs(path) {
		wd, err := absolute(".", rv.dir)
		if err != nil {
			return nil, nil, err
		}
		ps = rv.parts(wd, "")
	}
	return rv.walkInfo(nil, append(ps, rv.parts(path, "")...), followLast)
}

// walk resolves ps from the real absolute folder cur; see resolve.
func (rv resolver) walk(cur []string, ps []part, followLast bool) ([]string, error) {
	real, _, err := rv.walkInfo(cur, ps, followLast)
	return real, err
}

// walkInfo is walk, with the lstat information of the result's last
// component from the lstat that reached it; nil after an error, and when
// the walk ended by going up ("..") or never moved from cur.
func (rv resolver) walkInfo(cur []string, ps []part, followLast bool) ([]string, fs.FileInfo, error) {
	links := 0
	var info fs.FileInfo // cur's last component's, when cur came from an lstat
	for len(ps) > 0 {
		p := ps[0]
		ps = ps[1:]
		switch p.name {
		case ".":
			continue
		case "..":
			if len(cur) > 0 && rv.root != nil && len(cur) == len(rv.top) && rv.inside(cur) {
				return nil, nil, escapeUp(p.via)
			}
			if len(cur) > 0 {
				cur = cur[:len(cur)-1]
			}
			info = nil
			continue
		}
		next := append(cur[:len(cur):len(cur)], p.name)
		fi, err := rv.lstat(next)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) || slices.ContainsFunc(ps, func(p part) bool { return p.name == ".." }) {
				return nil, nil, err
			}
			for _, q := range ps {
				if q.name != "." {
					next = append(next, q.name)
				}
			}
			if !rv.inside(next) {
				return nil, nil, escapeTo(next, links)
			}
			return next, nil, err
		}
		last := len(ps) == 0
		if fi.Mode()&fs.ModeSymlink != 0 && (!last || followLast) {
			if links++; links > maxLinks {
				return nil, nil, &fs.PathError{Op: "resolve", Path: rv.show(next), Err: syscall.ELOOP}
			}
			target, err := rv.readlink(next)
			if err != nil {
				return nil, nil, err
			}
			via := rv.show(next) + " -> " + target
			if filepath.IsAbs(target) {
				cur, info = nil, nil
			}
			ps = append(rv.parts(target, via), ps...)
			continue
		}
		if !last && !fi.IsDir() {
			return nil, nil, &fs.PathError{Op: "resolve", Path: rv.show(next), Err: syscall.ENOTDIR}
		}
		cur, info = next, fi
	}
	if !rv.inside(cur) {
		return nil, nil, escapeTo(cur, links)
	}
	return cur, info, nil
}

// escapeError is a path that leaves the root; it wraps ErrOutsideRoot.
type escapeError struct {
	how    string // in words: where the path ends, or the step that leaves
	linked bool   // a symbolic link was followed on the way
}

func (e *escapeError) Error() string { return e.how + ": " + ErrOutsideRoot.Error() }
func (e *escapeError) Unwrap() error { return ErrOutsideRoot }

// escapeUp is the escape of a ".." above the root, in the target of the
// link via when via is not "".
func escapeUp(via string) error {
	if via == "" {
		return &escapeError{how: `".." goes above the root`}
	}
	return &escapeError{how: `".." goes above the root, in the target of the symbolic link ` + via, linked: true}
}

// escapeTo is the escape of a path whose file is at abs, outside the root,
// after following links links.
func escapeTo(abs []string, links int) error {
	return &escapeError{how: "it resolves to /" + strings.Join(abs, "/"), linked: links > 0}
}

// inside reports whether the real absolute path abs is the root or below
// it; always true unconfined.
func (rv resolver) inside(abs []string) bool {
	return rv.root == nil || (len(abs) >= len(rv.top) && slices.Equal(abs[:len(rv.top)], rv.top))
}

// fsName returns the file system's name for the real absolute path abs:
// itself unconfined, else relative to the root ("." for the root).
func (rv resolver) fsName(abs []string) string {
	if rv.root == nil {
		return "/" + strings.Join(abs, "/")
	}
	if len(abs) == len(rv.top) {
		return "."
	}
	return strings.Join(abs[len(rv.top):], "/")
}

// show names abs in messages: below the root relative to it, else
// absolute.
func (rv resolver) show(abs []string) string {
	if rv.root != nil && rv.inside(abs) {
		return rv.fsName(abs)
	}
	return "/" + strings.Join(abs, "/")
}

// lstat describes abs without following a final link, through the root
// when abs is inside it.
func (rv resolver) lstat(abs []string) (fs.FileInfo, error) {
	if rv.root != nil && rv.inside(abs) {
		return rv.root.Lstat(rv.fsName(abs))
	}
	return os.Lstat("/" + strings.Join(abs, "/"))
}

// readlink returns the target of the link abs, through the root when abs
// is inside it.
func (rv resolver) readlink(abs []string) (string, error) {
	if rv.root != nil && rv.inside(abs) {
		return rv.root.Readlink(rv.fsName(abs))
	}
	return os.Readlink("/" + strings.Join(abs, "/"))
}

// absolute returns path made absolute from dir (absolute), or from the
// working directory when dir is "", without cleaning it, so that ".."
// keeps the kernel's meaning.
func absolute(path, dir string) (string, error) {
	if filepath.IsAbs(path) {
		return path, nil
	}
	if dir != "" {
		return dir + "/" + path, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return wd + "/" + path, nil
}

// readFlags are the flags a file is opened with to be read: O_NONBLOCK, so
// that opening a named pipe put in the file's place returns at once instead
// of waiting for a writer; O_NOFOLLOW, as the name was resolved already and
// a link put in its place is not the file (os.Root ignores it and follows
// links inside the root, which readRegular then catches); O_NOCTTY, so that
// a terminal device never becomes the controlling terminal.
const readFlags = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOFOLLOW | syscall.O_NOCTTY

// readAttempts is how many times readRegular opens a name that another
// writer keeps replacing with a new regular file (an atomic rename, as
// symedit's own commit does) before it gives up with ErrChanged.
const readAttempts = 8

// readRegular reads the file name opened by open with readFlags. Before
// reading anything it requires, from the open descriptor (fstat), a
// regular file, and that lstat(name) is that same file: a named pipe,
// device, folder or symbolic link found there instead is an error
// wrapping ErrNotRegular that names what it is. A different regular file
// found there was renamed into place by another writer between the open
// and the lstat; that is an atomic replacement, not a refusal, so the name
// is opened again, up to readAttempts times, after which the error wraps
// ErrChanged. It reads at most MaxFileSize bytes; a file that has grown
// past that is an error wrapping ErrTooLarge. Other errors are the
// system's.
func readRegular(name string, open func(string, int, fs.FileMode) (*os.File, error), lstat func(string) (fs.FileInfo, error)) ([]byte, error) {
	b, _, err := readRegularInfo(name, open, lstat)
	return b, err
}

// readRegularInfo is readRegular that also returns the information of the
// file read, from its open descriptor (fstat).
func readRegularInfo(name string, open func(string, int, fs.FileMode) (*os.File, error), lstat func(string) (fs.FileInfo, error)) ([]byte, fs.FileInfo, error) {
	for range readAttempts {
		b, fi, err := readRegularOnce(name, open, lstat)
		if !errors.Is(err, errReplaced) {
			return b, fi, err
		}
	}
	return nil, nil, fmt.Errorf("%w: another writer replaced it %d times while it was being opened; read it again", edit.ErrChanged, readAttempts)
}

// errReplaced is readRegularOnce's error when name is, by the time of the
// lstat, a regular file other than the one it opened.
var errReplaced = errors.New("replaced while being opened")

// readRegularOnce is one attempt of readRegular.
func readRegularOnce(name string, open func(string, int, fs.FileMode) (*os.File, error), lstat func(string) (fs.FileInfo, error)) ([]byte, fs.FileInfo, error) {
	fh, err := open(name, readFlags, 0)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			if fi, lerr := lstat(name); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
				return nil, nil, notRegular(fi.Mode())
			}
		}
		return nil, nil, err
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, notRegular(fi.Mode())
	}
	li, err := lstat(name)
	if err != nil {
		return nil, nil, err
	}
	if !li.Mode().IsRegular() {
		return nil, nil, notRegular(li.Mode())
	}
	if !os.SameFile(fi, li) {
		return nil, nil, errReplaced
	}
	b := make([]byte, 0, min(fi.Size(), edit.MaxFileSize)+1)
	for {
		n, err := fh.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if len(b) > edit.MaxFileSize {
			return nil, nil, fmt.Errorf("%w: it grew past the %d-byte limit while being read", edit.ErrTooLarge, edit.MaxFileSize)
		}
		if err == io.EOF {
			return b, fi, nil
		}
		if err != nil {
			return nil, nil, err
		}
		if len(b) == cap(b) {
			b = slices.Grow(b, min(cap(b), edit.MaxFileSize+1-len(b)))
		}
	}
}

// notRegular is the error of a file that is not a regular file: "not a
// regular file (a named pipe)", wrapping ErrNotRegular.
func notRegular(m fs.FileMode) error {
	return fmt.Errorf("%w (%s)", edit.ErrNotRegular, kind(m))
}

// osReadFile reads the file name of the unconfined file system as
// readRegular says.
func osReadFile(name string) ([]byte, error) {
	return readRegular(name, os.OpenFile, os.Lstat)
}

// Read reads path for editing, unconfined and refusing hard links: it is
// Files.Read of Open(Options{}). It follows a symbolic link, and refuses
// (with a *FileError) anything but a regular file (ErrNotRegular), a file
// with several hard links (ErrHardLink), a file over MaxFileSize
// (ErrTooLarge), a UTF-16 or UTF-32 byte order mark or invalid UTF-8
// (ErrEncoding), and a NUL byte in the first 8,000 bytes (ErrBinary).
// System errors come wrapped in a *FileError too.
func Read(path string) (*edit.Document, error) {
	return (&Files{fsys: osFS{}}).Read(path)
}

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "mode " + m.String()
}

// reason turns a system error into words, without the path it names.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file or folder" // ENOENT: the file, or a folder on its way, so the message names both
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.Is(err, syscall.ENOSPC):
		return "no space left on device"
	case errors.Is(err, syscall.EFBIG):
		return "file too large for the file system or its limits"
	case errors.Is(err, syscall.EROFS):
		return "read-only file system"
	}
	return err.Error()
}
