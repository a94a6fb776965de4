package files

import (
	"io/fs"
	"os"
	"strings"
	"sync"

	"github.com/symedit/symedit/edit"
)

// DirStat makes Stat's checks of many files, resolving and opening each
// file's folder once instead of resolving every path from the top one
// component at a time: a walk lists a folder's files together, and a
// warm symbol index needs only each file's status. A file is looked at
// with one fstatat relative to its folder's open descriptor (an os.Root
// of that folder), which reads nothing outside that folder, so
// confinement holds as the folder's resolution found it. It is safe for
// concurrent use; Close releases the folders.
//
// A folder is resolved when its first file is asked for: a folder link
// repointed or a folder renamed after that is not seen by later calls of
// the same DirStat (their files are those of the folder as it was
// resolved, as a walk's listing is the folder as it was listed).
type DirStat struct {
	f    *Files
	mu   sync.Mutex
	dirs map[string]*statDir // by the folder as the path names it
}

// statDir is one resolved folder: open, or the reason it is not (then
// DirStat.Stat falls back to Files.Stat, whose errors it gives).
type statDir struct {
	once sync.Once
	root *os.Root // nil: not opened
	real string   // the folder's absolute real path
	name string   // the folder's file system name (resolver.fsName): real unconfined, relative to the root confined
	done bool     // once has run; guarded by DirStat.mu
}

// maxStatDirs bounds how many folders a DirStat keeps open: a walk's
// files come folder by folder, and a large tree must not exhaust the
// process's descriptors.
const maxStatDirs = 64

// NewDirStat returns a DirStat of f's files.
func (f *Files) NewDirStat() *DirStat { return &DirStat{f: f, dirs: map[string]*statDir{}} }

// Stat is Files.Stat(path): the file's absolute real path and its
// information, after the checks Read makes before it reads (the root,
// ErrNotRegular, ErrHardLink, ErrTooLarge). A path whose last component
// is a symbolic link, ".", "..", or that fails (missing, refused) goes
// through Files.Stat, so that its result and error are exactly Stat's.
// The error is a *FileError.
func (s *DirStat) Stat(path string) (realPath string, fi fs.FileInfo, err error) {
	d, name := s.parent(path)
	if d == nil || d.root == nil {
		return s.f.Stat(path)
	}
	fi, err = d.root.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return s.f.Stat(path) // a link to follow, or an error in Stat's words
	}
	if err := s.f.checkInfo(path, fi); err != nil {
		return "", nil, err
	}
	return join(d.real, name), fi, nil
}

// Read is Files.Read(path): the document, or Read's *FileError. A file
// is opened relative to its folder, resolved and opened once (as for
// Stat), instead of by a resolution of its whole path one component at a
// time: a cold listing of a large tree reads every file, and that
// resolution was most of a read's system calls (seven lstats for a file
// six folders deep). What Files.Read would not open the same way (a
// final symbolic link, ".", "..", a folder that cannot be opened) and
// every failure go through Files.Read, so that its result and error are
// exactly Read's; the document's Origin names the file as Read's would.
// As for Stat, a folder is the one resolved on its first use: a folder
// renamed since, and another put in its place, is still the one read.
func (s *DirStat) Read(path string) (*edit.Document, error) {
	d, name := s.parent(path)
	if d == nil || d.root == nil {
		return s.f.Read(path)
	}
	// O_NOFOLLOW (readFlags) and the lstat after the open refuse a final
	// link, which Read follows: that refusal sends the path to Read.
	content, fi, err := readRegularInfo(name, d.root.OpenFile, d.root.Lstat)
	if err != nil || s.f.checkInfo(path, fi) != nil {
		return s.f.Read(path)
	}
	return edit.NewFileDocument(path, content, fi.Mode(), edit.Origin{Name: join(d.name, name), Real: join(d.real, name), Info: fi})
}

// join returns the name name in the folder dir: a file system name or
// an absolute path, "." the root of a confined Files.
func join(dir, name string) string {
	switch dir {
	case ".":
		return name
	case "/":
		return "/" + name
	}
	return dir + "/" + name
}

// RealDir returns the absolute real path of the folder that holds path,
// as Stat resolves it (once per folder), without looking at path's last
// component: a caller can tell which folder's files path is among
// before it stats the file. ok is false when Stat would resolve path
// whole instead (its last component empty, "." or "..") or the folder
// cannot be resolved and opened (Stat then reports why). A last
// component that is a symbolic link is not followed: its target may be
// in another folder.
func (s *DirStat) RealDir(path string) (realDir string, ok bool) {
	d, _ := s.parent(path)
	if d == nil || d.root == nil {
		return "", false
	}
	return d.real, true
}

// parent returns path's folder, resolved and opened on its first use, and
// path's last component; nil when that component is empty, "." or "..".
func (s *DirStat) parent(path string) (*statDir, string) {
	dir, name := ".", path
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		dir, name = path[:i], path[i+1:]
		if dir == "" {
			dir = "/"
		}
	}
	if name == "" || name == "." || name == ".." {
		return nil, name
	}
	return s.dir(dir), name
}

// dir returns the folder dir, resolved and opened on its first use.
func (s *DirStat) dir(dir string) *statDir {
	s.mu.Lock()
	d := s.dirs[dir]
	if d == nil {
		if len(s.dirs) >= maxStatDirs {
			s.closeLocked() // a holder's calls on a closed root fail, and fall back to Files.Stat
		}
		d = &statDir{}
		s.dirs[dir] = d
	}
	s.mu.Unlock()
	d.once.Do(func() {
		defer func() {
			s.mu.Lock()
			d.done = true
			s.mu.Unlock()
		}()
		if s.openChild(d, dir) {
			return
		}
		rv := s.f.resolver()
		real, _, err := rv.resolve(dir, true)
		if real == nil || err != nil {
			return
		}
		var r *os.Root
		if s.f.root != nil {
			r, err = s.f.root.OpenRoot(rv.fsName(real))
		} else {
			r, err = os.OpenRoot(rv.fsName(real))
		}
		if err != nil {
			return
		}
		d.root, d.real, d.name = r, s.f.abs(rv.fsName(real)), rv.fsName(real)
	})
	return d
}

// openChild opens dir as a child of its parent folder when that is
// open, and dir's last component is a plain name that names a folder,
// not a link: one lstat and one open relative to the parent instead of a
// resolution of every component from the top, since a walk asks for
// every folder of a tree. The folder opened must be the one the lstat
// saw (a link put in its place meanwhile, which os.Root would follow
// inside the parent, is caught by comparing the two); anything else
// reports false, for a full resolution.
func (s *DirStat) openChild(d *statDir, dir string) bool {
	i := strings.LastIndexByte(dir, '/')
	if i <= 0 {
		return false
	}
	parent, name := dir[:i], dir[i+1:]
	if name == "" || name == "." || name == ".." {
		return false
	}
	p := s.dir(parent)
	if p.root == nil {
		return false
	}
	li, err := p.root.Lstat(name)
	if err != nil || !li.IsDir() {
		return false
	}
	r, err := p.root.OpenRoot(name)
	if err != nil {
		return false
	}
	if fi, err := r.Stat("."); err != nil || !os.SameFile(fi, li) {
		r.Close()
		return false
	}
	d.root, d.real, d.name = r, join(p.real, name), join(p.name, name)
	return true
}

// Close closes the folders DirStat opened. It may be used afterwards:
// it opens them again.
func (s *DirStat) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closeLocked()
}

// closeLocked closes the folders opened and forgets every folder. One
// still being opened (by another call, or by this very call resolving a
// child of it) is forgotten and left open for its caller, not waited for:
// that wait could be on the waiting goroutine itself.
func (s *DirStat) closeLocked() {
	for _, d := range s.dirs {
		if d.done && d.root != nil {
			d.root.Close()
		}
	}
	clear(s.dirs)
}
