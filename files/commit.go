package files

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/internal/probe"
	"github.com/symedit/symedit/remedy"
	"golang.org/x/sys/unix"
)

// ErrLocked is wrapped by the *FileError of a commit that waited LockWait
// for the folder's lock, held by another symedit process, without getting
// it. The lock keeps two processes from both replacing the version of a
// file they read, the second undoing the first's edit. Nothing was
// written.
var ErrLocked = errors.New("folder locked by another symedit process")

// ErrNotWritable is wrapped by the *FileError of a commit refused because
// the caller may not write the file: open(O_WRONLY) would be refused (a
// read-only mode, another user's file in a folder the caller can write),
// and Options.AllowReadOnly is not set: a rename would replace it all the
// same, since only the folder's permission counts for one. The system
// error (EACCES, EPERM, EROFS) is wrapped too.
var ErrNotWritable = errors.New("file not writable by this user")

// ErrMetadata is wrapped by the *FileError of a commit refused because the
// new file could not be given all of the original's metadata: its owner,
// setuid, setgid or sticky bit, or an extended attribute (POSIX ACLs
// included), and Options.AllowMetadataLoss is not set: an edit should
// change the content, never quietly who may read or run the file.
var ErrMetadata = errors.New("file metadata cannot be kept")

// LockWait is how long a commit waits for another symedit process to
// release the folder's lock before it gives up with ErrLocked.
const LockWait = 60 * time.Second

// StaleTempAge is the age (by modification time) past which a commit
// removes a temporary file of the file it writes that a killed symedit
// left behind, on a file system without O_TMPFILE, so that kills do not
// pile up hidden files; a younger one may belong to a writer at work.
const StaleTempAge = 15 * time.Minute

// tempNameMax is how many bytes of a file's name its temporary file's name
// keeps: "." + 200 + ".symedit-" + 16 hex digits is 226 bytes, under
// NAME_MAX (255) for any name.
const tempNameMax = 200

// fileSystem is the set of operations Read and Commit perform, so that the
// same code runs unconfined (osFS) or confined to a root (rootFS), and so
// that tests can fail each operation in turn. Names are paths as the
// implementation takes them: OS paths for osFS, root-relative for rootFS.
// Commit does its work through the directory OpenDir returns, naming
// files by their base name in it.
type fileSystem interface {
	ReadFile(name string) ([]byte, error)
	Remove(name string) error
	Stat(name string) (fs.FileInfo, error)
	Lstat(name string) (fs.FileInfo, error)
	MkdirAll(dir string, perm fs.FileMode) error
	// Resolve follows symbolic links in name to the file they name.
	Resolve(name string) (string, error)
	// OpenDir opens the directory dir for a commit in it.
	OpenDir(dir string) (commitDir, error)
}

// commitDir is an open directory in which Commit replaces or creates a
// file; every name is a base name in it. sysDir is the real one.
type commitDir interface {
	// Lock takes the directory's exclusive advisory lock (flock), waiting
	// up to LockWait, or until ctx is done (ctx's error); Unlock releases
	// it.
	Lock(ctx context.Context) error
	Unlock() error
	Lstat(name string) (*unix.Stat_t, error)
	// Open opens name for reading, not following a symbolic link and
	// without blocking on a FIFO.
	Open(name string) (*os.File, error)
	// Access reports whether the caller may open name for writing.
	Access(name string) error
	// CreateTemp creates a temporary file for base with permission bits
	// perm (the umask applies): unnamed (O_TMPFILE) where the file
	// system allows, else named ".BASE.symedit-RANDOM".
	CreateTemp(base string, perm fs.FileMode) (tempFile, error)
	// LinkTemp gives the temporary file t the name name (which must not
	// exist).
	LinkTemp(t tempFile, name string) error
	Rename(oldname, newname string) error
	Remove(name string) error
	// Names lists the directory's entries.
	Names() ([]string, error)
	Sync() error
	Close() error
}

// tempFile is a temporary file being written by Commit.
type tempFile interface {
	// Name is the temporary file's base name, or "" while it has none.
	Name() string
	Write(b []byte) (int, error)
	Chmod(mode fs.FileMode) error
	Chown(uid, gid int) error
	Setxattr(name string, value []byte) error
	Removexattr(name string) error
	// Fd is the file's descriptor, for reading its metadata.
	Fd() uintptr
	Sync() error
	Close() error
}

// osFS is the unconfined file system.
type osFS struct{}

func (osFS) ReadFile(name string) ([]byte, error)        { return osReadFile(name) }
func (osFS) Remove(name string) error                    { return os.Remove(name) }
func (osFS) Stat(name string) (fs.FileInfo, error)       { return os.Stat(name) }
func (osFS) Lstat(name string) (fs.FileInfo, error)      { return os.Lstat(name) }
func (osFS) MkdirAll(dir string, perm fs.FileMode) error { return os.MkdirAll(dir, perm) }
func (osFS) Resolve(name string) (string, error)         { return filepath.EvalSymlinks(name) }
func (osFS) OpenDir(dir string) (commitDir, error) {
	return openDir(func(flag int) (*os.File, error) { return os.OpenFile(dir, flag, 0) })
}

// OpenDir opens dir through the root, so the commit stays inside it.
func (f rootFS) OpenDir(dir string) (commitDir, error) {
	return openDir(func(flag int) (*os.File, error) { return f.r.OpenFile(dir, flag, 0) })
}

// openDir opens a folder with open(flag) for reading or, where the caller
// may write and search it but not read it (mode 0300), as a path only
// (O_PATH): the commit then works unlocked (flock needs a folder open for
// reading) and without the stale clean-up (which lists the folder).
func openDir(open func(flag int) (*os.File, error)) (commitDir, error) {
	f, err := open(os.O_RDONLY | unix.O_DIRECTORY)
	if errors.Is(err, fs.ErrPermission) {
		if pf, perr := open(unix.O_PATH | unix.O_DIRECTORY); perr == nil {
			return &sysDir{f: pf}, nil
		}
	}
	if err != nil {
		return nil, err
	}
	return &sysDir{f: f}, nil
}

// sysDir is a commitDir on an open directory: every step is a *at system
// call relative to it, so a folder renamed or replaced meanwhile cannot
// redirect the commit.
type sysDir struct {
	f *os.File
	// noTmpfile makes CreateTemp use a named file, as on a file system
	// without O_TMPFILE (for tests).
	noTmpfile bool
}

func (d *sysDir) fd() int { return int(d.f.Fd()) }

func (d *sysDir) Lock(ctx context.Context) error {
	deadline := time.Now().Add(LockWait)
	delay := time.Millisecond
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for waited := false; ; {
		err := unix.Flock(d.fd(), unix.LOCK_EX|unix.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case err == unix.EINTR:
			continue
		case err != unix.EWOULDBLOCK:
			return &fs.PathError{Op: "flock", Path: d.f.Name(), Err: err}
		}
		if time.Now().After(deadline) {
			return &fs.PathError{Op: "flock", Path: d.f.Name(), Err: err}
		}
		if !waited {
			waited = true
			probe.FolderLockWaits.Add(1)
		}
		// flock has no timeout: poll, and stop as soon as ctx is done (a
		// call's time limit is usually far shorter than LockWait).
		if timer == nil {
			timer = time.NewTimer(delay)
		} else {
			timer.Reset(delay)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		}
		delay = min(2*delay, 50*time.Millisecond)
	}
}

func (d *sysDir) Unlock() error { return unix.Flock(d.fd(), unix.LOCK_UN) }

func (d *sysDir) Lstat(name string) (*unix.Stat_t, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd(), name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: err}
	}
	return &st, nil
}

func (d *sysDir) Open(name string) (*os.File, error) {
	fd, err := unix.Openat(d.fd(), name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return os.NewFile(uintptr(fd), name), nil
}

func (d *sysDir) Access(name string) error {
	if err := unix.Faccessat(d.fd(), name, unix.W_OK, unix.AT_EACCESS|unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return &fs.PathError{Op: "access", Path: name, Err: err}
	}
	return nil
}

func (d *sysDir) CreateTemp(base string, perm fs.FileMode) (tempFile, error) {
	if !d.noTmpfile {
		fd, err := unix.Openat(d.fd(), ".", unix.O_TMPFILE|unix.O_RDWR|unix.O_CLOEXEC, uint32(perm.Perm()))
		if err == nil {
			// Naming it later goes through /proc/self/fd; without /proc,
			// fall back to a named file.
			if _, serr := os.Lstat(procFD(fd)); serr == nil {
				return &sysTemp{File: os.NewFile(uintptr(fd), "(unnamed temporary file)")}, nil
			}
			unix.Close(fd)
		}
		// EOPNOTSUPP (the file system has no O_TMPFILE), EISDIR (the
		// kernel has none), or a real error that the named file meets
		// again and reports.
	}
	for range 100 {
		name := tempName(base)
		fd, err := unix.Openat(d.fd(), name, unix.O_RDWR|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
		if err == unix.EEXIST {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return &sysTemp{File: os.NewFile(uintptr(fd), name), name: name}, nil
	}
	return nil, &fs.PathError{Op: "createtemp", Path: d.f.Name(), Err: fs.ErrExist}
}

func procFD(fd int) string { return fmt.Sprintf("/proc/self/fd/%d", fd) }

func (d *sysDir) LinkTemp(t tempFile, name string) error {
	var err error
	if t.Name() != "" {
		err = unix.Linkat(d.fd(), t.Name(), d.fd(), name, 0)
	} else {
		err = unix.Linkat(unix.AT_FDCWD, procFD(int(t.Fd())), d.fd(), name, unix.AT_SYMLINK_FOLLOW)
	}
	if err != nil {
		return &os.LinkError{Op: "link", Old: t.Name(), New: name, Err: err}
	}
	return nil
}

func (d *sysDir) Rename(oldname, newname string) error {
	if err := unix.Renameat(d.fd(), oldname, d.fd(), newname); err != nil {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: err}
	}
	return nil
}

func (d *sysDir) Remove(name string) error {
	if err := unix.Unlinkat(d.fd(), name, 0); err != nil {
		return &fs.PathError{Op: "remove", Path: name, Err: err}
	}
	return nil
}

func (d *sysDir) Names() ([]string, error) {
	// A second descriptor, so the listing's offset is its own.
	fd, err := unix.Openat(d.fd(), ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), ".")
	defer f.Close()
	return f.Readdirnames(-1)
}

func (d *sysDir) Sync() error  { return d.f.Sync() }
func (d *sysDir) Close() error { return d.f.Close() }

// sysTemp is a temporary file on the real file system.
type sysTemp struct {
	*os.File
	name string
}

func (t *sysTemp) Name() string { return t.name }
func (t *sysTemp) Setxattr(name string, value []byte) error {
	return unix.Fsetxattr(int(t.Fd()), name, value, 0)
}
func (t *sysTemp) Removexattr(name string) error { return unix.Fremovexattr(int(t.Fd()), name) }

// tempName returns a new name for a temporary file of base:
// ".BASE.symedit-" and 16 random hex digits, BASE cut to tempNameMax bytes
// (at a UTF-8 boundary) so that the name fits NAME_MAX.
func tempName(base string) string { return tempPrefix(base) + randomSuffix() }

func tempPrefix(base string) string {
	if len(base) > tempNameMax {
		cut := tempNameMax
		for cut > 0 && !utf8RuneStart(base[cut]) {
			cut--
		}
		base = base[:cut]
	}
	return "." + base + ".symedit-"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// isTempOf reports whether name is a temporary file's name for base.
func isTempOf(name, base string) bool {
	suffix, ok := strings.CutPrefix(name, tempPrefix(base))
	if !ok || len(suffix) != 16 {
		return false
	}
	_, err := hex.DecodeString(suffix)
	return err == nil
}

// Policy says what a failure in a Commit of several changes undoes.
type Policy int

const (
	// AllOrNone commits the changes as one transaction: when one fails,
	// the changes put in place before it are undone, the last first (a
	// written file gets its content and mode as read, a created file is
	// removed, a deleted file gets its name back from its copy), and the
	// error is a *TransactionError. symedit apply, batch --atomic and
	// undo commit so.
	AllOrNone Policy = iota
	// EachAlone commits each change on its own, in order: Commit stops
	// at the first that fails, and the changes before it stay in place.
	// The error is the failed change's own (a *FileError, or ctx's
	// error). symedit replace commits so, and a one-file commit (a
	// single change) is EachAlone.
	EachAlone
)

// String returns the policy's name: "AllOrNone" or "EachAlone", else
// "Policy(N)".
func (p Policy) String() string {
	switch p {
	case AllOrNone:
		return "AllOrNone"
	case EachAlone:
		return "EachAlone"
	}
	return fmt.Sprintf("Policy(%d)", int(p))
}

// Commit puts changes in place, in order, under the policy p, and
// returns how many of them, from the first, are in place when it
// returns: len(changes) when err is nil; under EachAlone, the changes
// before the one that failed (changes[written] failed); under AllOrNone,
// 0 (the changes put in place before the failure were undone;
// TransactionError.RestoreErrs lists any that could not be). An empty
// list commits nothing (0, nil).
//
// Every change is checked and committed atomically; see the package
// documentation's "Atomic commit" for every step. In short: new content
// is checked as Read would check it (ErrTooLarge, ErrBinary,
// ErrEncoding); the folder is locked against other symedit processes
// (ErrLocked after LockWait); the file must still hold its Document's
// Content (ErrChanged) and, unless Options.AllowReadOnly, be writable by
// the caller (ErrNotWritable); a temporary file gets the content, the
// owner, mode (changed by Change.Exec) and extended attributes of the
// file (ErrMetadata unless Options.AllowMetadataLoss), is synced, and is
// renamed over the file after a last check that the file was not written
// meanwhile and got no new hard link (ErrChanged). A symbolic link is
// written through to its target and stays a link. A new file (a Document
// from ReadOrNew) is linked into place, so one created meanwhile is never
// overwritten (ErrChanged). A deletion and a move are checked as a write
// is (see Change). On any error the failed change's file is untouched
// and no temporary file remains.
//
// A single change under EachAlone that writes or creates a file (a
// one-file commit) does every step under its folder's lock: the lock,
// the checks, the temporary file and its sync, the rename, the folder's
// sync. Any other commit works in two phases, so that its syncs do not
// wait one after another. Phase 1, without any lock, up to 8 changes at
// once: every file is checked and its temporary file written, given the
// metadata and synced (a created file's folders are made; a deleted
// file's own content is copied, to put it back). Phase 2, in order: each
// change takes its folder's lock alone (never two at once, so concurrent
// commits cannot deadlock), makes the last check and renames (links, for
// a created file; removes the name, for a deleted file). Last, each
// folder written in is synced once, the folders at once (a failed
// folder sync is not reported: the content is in place). Past 256
// changes this runs in batches of 256, each synced before the next is
// prepared. Under AllOrNone a failure in phase 1 leaves every file
// untouched, and one in phase 2, or in a later batch, undoes the changes
// put in place before it; under EachAlone a failure in phase 1 still
// lets phase 2 put the changes before it in place, as committing them
// one by one would.
//
// ctx is asked before each change is put in place (before anything, for
// a one-file commit), and ends the wait for a folder's lock that another
// symedit process holds: that change and the ones after it are then not
// written, and the error is, or wraps, ctx's error (a *FileError wraps it
// when the wait for the lock was stopped). Under AllOrNone the changes
// before it are undone, and the undoing itself is not stopped by ctx: a
// transaction is never left half done.
//
// The error is a *TransactionError under AllOrNone, whose Err is the
// failed change's error; under EachAlone it is that error itself: a
// *FileError wrapping ErrChanged, ErrLocked, ErrNotWritable, ErrMetadata,
// ErrOutsideRoot, ErrNotRegular, a content error or the system's error,
// or ctx's error. Commit panics if p is neither AllOrNone nor EachAlone.
func (f *Files) Commit(ctx context.Context, changes []Change, p Policy) (written int, err error) {
	return commit(ctx, f.fsys, f.opt, changes, p, commitBatch)
}

// commit is Files.Commit on fsys with opt, the two-phase commits in
// batches of batch changes.
func commit(ctx context.Context, fsys fileSystem, opt Options, changes []Change, p Policy, batch int) (int, error) {
	switch p {
	case AllOrNone:
		if err := transaction(ctx, fsys, opt, changes, batch); err != nil {
			return 0, err
		}
		return len(changes), nil
	case EachAlone:
		if len(changes) == 1 && !changes[0].Delete && changes[0].From == nil {
			c := changes[0]
			if err := ctx.Err(); err != nil {
				return 0, err
			}
			if err := commitFile(ctx, fsys, opt, c.Doc, c.Content, c.mode()); err != nil {
				return 0, err
			}
			return 1, nil
		}
		return eachAlone(ctx, fsys, opt, changes, batch)
	}
	panic(fmt.Sprintf("files: Commit: unknown %v", p))
}

// commitFile commits content to the file doc was read from (a one-file
// commit), giving the new file the mode mode returns for the file's mode
// (for a created file, its mode once created), or the file's mode when
// mode is nil. It does every step under the folder's lock and syncs the
// folder after the rename. The wait for the lock ends when ctx is done
// (the *FileError then wraps ctx's error).
func commitFile(ctx context.Context, fsys fileSystem, opt Options, doc *edit.Document, content []byte, mode func(fs.FileMode) fs.FileMode) error {
	if err := edit.CheckContent(doc, content); err != nil {
		return err
	}
	name := fsName(doc)
	if doc.IsNew() {
		return create(ctx, fsys, doc, name, content, mode)
	}
	target, err := fsys.Resolve(name)
	if err != nil {
		return &edit.FileError{Path: doc.Path, Reason: reason(err), Err: err}
	}
	d, err := fsys.OpenDir(dirOf(target))
	if err != nil {
		return failed(doc, "cannot open the file's folder", err)
	}
	defer d.Close()
	locked, err := lockDir(ctx, doc, d)
	if err != nil {
		return err
	}
	defer d.Unlock()
	p := &pendingWrite{doc: doc, d: d, dir: dirOf(target), base: filepath.Base(target), locked: locked}
	defer p.discard()
	if err := p.prepareWrite(opt, content, mode, true); err != nil {
		return err
	}
	if err := p.finish(); err != nil {
		return err
	}
	// The new content is in place; a failed directory sync only weakens
	// durability after a crash, so it is not reported as a failed edit.
	_ = d.Sync()
	return nil
}

// pendingWrite is a file's new content written and synced to a temporary
// file in the file's folder, with the original's metadata, not yet put in
// place. The caller fills doc, d, dir and base; prepareWrite or
// prepareCreate writes the temporary file, finish puts it in place (under
// the folder's lock), discard removes what is left of it.
type pendingWrite struct {
	doc  *edit.Document
	d    commitDir
	dir  string // d's name, for messages
	base string // the file's name in d
	// orig is the original file, held open from its check past the
	// rename, until discard, so that its inode cannot be reused and
	// mistaken for it before the rename; st is its status as of
	// before its content was compared. Both nil for a created file.
	orig *os.File
	st   *unix.Stat_t
	t    tempFile
	tmp  string // t's name in d while it has one ("" while unnamed)
	open bool   // t is not closed yet
	// hardlinks is Options.AllowHardlinks: the original may have several
	// hard links (see checkLinks).
	hardlinks bool
	// locked: the caller holds d's lock (not only asked for it: a file
	// system may have no lock for folders), so a temporary name of p.base
	// that only a commit holding the lock gives is stale (see finish).
	locked bool
	// ownDir: d is p's own, closed by discard (a deleted file's copy,
	// which may outlive the batch whose folders it would share).
	ownDir bool
	// deleting: the file is being deleted, and the temporary file is its
	// copy, for putting it back (see removeLocked).
	deleting bool
	// from is, for a created file that is another's new name (a move),
	// that file's status when its metadata was copied (prepareMove).
	from *unix.Stat_t
}

// prepareWrite checks that p.base in p.d is the regular file p.doc was
// read from, still holding its Content, and that the caller may write it
// (unless opt.AllowReadOnly), and writes content to a new temporary file
// in p.d with the original's metadata (mode changed by mode, if not nil),
// synced. The temporary file stays unnamed where the file system has
// O_TMPFILE. With locked (the caller holds p.d's lock) it removes the
// stale temporary files of p.base too; without, the caller does that
// under the lock (removeStale). The error is a *FileError; the caller
// then discards p, which leaves nothing.
func (p *pendingWrite) prepareWrite(opt Options, content []byte, mode func(fs.FileMode) fs.FileMode, locked bool) error {
	doc, d, base := p.doc, p.d, p.base
	orig, st, err := openUnchanged(doc, d, base)
	if err != nil {
		return err
	}
	p.orig, p.st, p.hardlinks = orig, st, opt.AllowHardlinks
	if err := checkWritable(doc, d, base, st, opt); err != nil {
		return err
	}
	meta, err := readMeta(p.orig, p.st)
	if err != nil {
		return failed(doc, "cannot read the file's extended attributes", err)
	}
	if mode != nil {
		meta.mode = mode(meta.mode)
	}
	if err := p.createTemp(0o600, locked); err != nil {
		return err
	}
	if _, err := p.t.Write(content); err != nil {
		return failed(doc, "cannot write the temporary file", err)
	}
	if err := copyMeta(doc, p.t, meta, opt); err != nil {
		var fe *edit.FileError
		if p.deleting && errors.As(err, &fe) && errors.Is(err, ErrMetadata) {
			fe.Reason = "deleting a file takes what writing it takes, and " + fe.Reason
		}
		return err
	}
	if p.deleting {
		return nil // synced only if it is put back (putBack)
	}
	if err := p.t.Sync(); err != nil {
		return failed(doc, "cannot sync the temporary file", err)
	}
	return nil
}

// checkWritable refuses (ErrNotWritable) the file base in d, whose status
// is st, unless the caller may open it for writing or opt.AllowReadOnly:
// replacing, moving or deleting a file takes what writing it takes.
func checkWritable(doc *edit.Document, d commitDir, base string, st *unix.Stat_t, opt Options) error {
	if opt.AllowReadOnly {
		return nil
	}
	err := d.Access(base)
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	sysErr := err
	if errors.As(err, &pe) {
		sysErr = pe.Err
	}
	if errors.Is(sysErr, unix.EROFS) {
		return failed(doc, "cannot write the file", err) // no option helps
	}
	// Replacing the file anyway makes a new file, which belongs to this
	// user: another user's file loses its owner too.
	r := remedy.Set(remedy.AllowReadOnly, "true")
	why := ""
	if int(st.Uid) != os.Geteuid() {
		r = append(r, remedy.Setting{Option: remedy.AllowMetadataLoss, Value: "true"})
		why = "; it belongs to another user, and a replacement would belong to this one"
	}
	return (&edit.FileError{Path: doc.Path, Reason: fmt.Sprintf("this user may not write the file (opening it for writing fails: %s%s); the file was not changed", reason(err), why),
		Err: fmt.Errorf("%w: %w", ErrNotWritable, sysErr)}).WithRemedy(r)
}

// moveSource is the file a move gives a new name (Change.From), as
// readMoveSource found it.
type moveSource struct {
	doc  *edit.Document
	st   *unix.Stat_t
	meta *fileMeta
}

// readMoveSource checks the file from was read from as a commit of it
// would: still the regular file read, holding its content, and writable
// by the caller unless opt.AllowReadOnly (ErrNotWritable); and reads its
// status and metadata. The error is a *FileError.
func readMoveSource(fsys fileSystem, opt Options, from *edit.Document) (*moveSource, error) {
	name := fsName(from)
	sd, err := fsys.OpenDir(dirOf(name))
	if err != nil {
		return nil, failed(from, "cannot open the file's folder", err)
	}
	defer sd.Close()
	base := filepath.Base(name)
	orig, st, err := openUnchanged(from, sd, base)
	if err != nil {
		return nil, err
	}
	defer orig.Close()
	if err := checkWritable(from, sd, base, st, opt); err != nil {
		return nil, err
	}
	meta, err := readMeta(orig, st)
	if err != nil {
		return nil, failed(from, "cannot read the file's extended attributes", err)
	}
	return &moveSource{doc: from, st: st, meta: meta}, nil
}

// prepareMove writes content to a new temporary file for p.base in p.d,
// a file that does not exist yet, as the new name of src (a move; the
// transaction deletes src): it gets src's owner, extended attributes and
// mode (changed by mode, if not nil), ErrMetadata for what cannot be
// kept unless opt.AllowMetadataLoss, and is synced. p.from is set to
// src's status, for the check that the deletion removes the file as it
// was read here (checkMoves). The error is a *FileError, whose Path is
// src's for a refusal; the caller then discards p.
func (p *pendingWrite) prepareMove(opt Options, src *moveSource, content []byte, mode func(fs.FileMode) fs.FileMode) error {
	meta := *src.meta
	if mode != nil {
		meta.mode = mode(meta.mode)
	}
	if err := p.createTemp(0o600, false); err != nil {
		return err
	}
	if _, err := p.t.Write(content); err != nil {
		return failed(p.doc, "cannot write the temporary file", err)
	}
	if err := copyMeta(src.doc, p.t, &meta, opt); err != nil {
		return err
	}
	if err := p.t.Sync(); err != nil {
		return failed(p.doc, "cannot sync the temporary file", err)
	}
	p.from = src.st
	return nil
}

// createTemp creates p's temporary file with permission bits perm and,
// with locked, removes the stale temporary files of p.base (see
// removeStaleTemps).
func (p *pendingWrite) createTemp(perm fs.FileMode, locked bool) error {
	t, err := p.d.CreateTemp(p.base, perm)
	if err != nil {
		return failed(p.doc, "cannot create a temporary file in "+p.dir, err)
	}
	p.t, p.tmp, p.open = t, t.Name(), true
	if locked {
		p.removeStale()
	}
	return nil
}

// removeStale removes the stale temporary files of p.base, where p's own
// is named (see removeStaleTemps). The caller holds the folder's lock.
func (p *pendingWrite) removeStale() {
	if p.tmp != "" {
		removeStaleTemps(p.d, p.base, p.tmp)
	}
}

// prepareCreate writes content to a new temporary file for p.base in
// p.d, a file that does not exist yet: permission bits 0666 less the
// umask, changed by mode if not nil, synced. locked and the error are as
// for prepareWrite.
func (p *pendingWrite) prepareCreate(content []byte, mode func(fs.FileMode) fs.FileMode, locked bool) error {
	doc := p.doc
	if err := p.createTemp(0o666, locked); err != nil {
		return err
	}
	if _, err := p.t.Write(content); err != nil {
		return failed(doc, "cannot write the temporary file", err)
	}
	if mode != nil {
		var st unix.Stat_t
		if err := unix.Fstat(int(p.t.Fd()), &st); err != nil {
			return failed(doc, "cannot read the temporary file's status", err)
		}
		if m := statMode(&st) & fs.ModePerm; mode(m) != m {
			if err := p.t.Chmod(mode(m)); err != nil {
				return failed(doc, "cannot set the temporary file's permissions", err)
			}
		}
	}
	if err := p.t.Sync(); err != nil {
		return failed(doc, "cannot sync the temporary file", err)
	}
	return nil
}

// finish puts p's temporary file in place; the caller holds the folder's
// lock and syncs the folder afterwards. A replaced file: the temporary
// file is named (if unnamed), closed, the file's inode, size and times
// are compared with what was read (a writer that does not lock; a symedit
// that renamed another file over it), and the temporary file is renamed
// over it. A created file: the temporary file is linked to the name,
// which fails rather than replace a file that appeared meanwhile
// (ErrChanged). On failure the file is untouched and the error is a
// *FileError; discard then removes the temporary file.
func (p *pendingWrite) finish() error {
	doc, d := p.doc, p.d
	if p.orig == nil {
		if err := d.LinkTemp(p.t, p.base); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return errCreatedMeanwhile(doc)
			}
			return failed(doc, "cannot link the new file into place", err)
		}
		// The file is in place and synced: a failed close only releases
		// the descriptor.
		p.open = false
		_ = p.t.Close()
		if p.tmp != "" {
			_ = d.Remove(p.tmp)
			p.tmp = ""
		}
		return nil
	}
	if p.tmp == "" {
		name, err := p.nameTemp()
		if err != nil {
			return failed(doc, "cannot name the temporary file", err)
		}
		p.tmp = name
	}
	if err := p.replace(); err != nil {
		// The name goes while the lock is still held: nameTemp's fixed
		// name is taken as stale by the next holder.
		_ = d.Remove(p.tmp)
		p.tmp = ""
		return err
	}
	// The original stays open until discard: its last close frees its
	// inode and blocks, work the kernel does in that close, which a
	// commit of many files makes while it syncs their folders.
	p.tmp = ""
	return nil
}

// replace is the end of finish for a replaced file, its temporary file
// named p.tmp: it closes the temporary file, makes the last checks and
// renames it over the original.
func (p *pendingWrite) replace() error {
	doc, d := p.doc, p.d
	p.open = false
	if err := p.t.Close(); err != nil {
		return failed(doc, "cannot close the temporary file", err)
	}
	// The last look before the rename: the same file, not written since
	// it was read (a writer that does not take the lock).
	if now, err := d.Lstat(p.base); err != nil || !sameFile(now, p.st) {
		return &edit.FileError{Path: doc.Path, Reason: "the file changed on disk while symedit was writing; nothing was written, read it again and retry", Err: edit.ErrChanged}
	}
	if err := p.checkLinks(); err != nil {
		return err
	}
	if err := d.Rename(p.tmp, p.base); err != nil {
		return failed(doc, "cannot rename the temporary file over the original", err)
	}
	return nil
}

// nameTemp gives p's unnamed temporary file a name for the rename over
// the original, and returns it. Under the folder's lock the name is
// always the same, ".BASE.symedit-0000000000000000", held only from here
// to the rename: one found there is a killed commit's, and is removed
// and taken. Elsewhere (no lock, or taken meanwhile) it is a random one.
func (p *pendingWrite) nameTemp() (string, error) {
	if p.locked {
		name := lockedTempName(p.base)
		err := p.d.LinkTemp(p.t, name)
		if errors.Is(err, fs.ErrExist) && p.d.Remove(name) == nil {
			err = p.d.LinkTemp(p.t, name)
		}
		if err == nil {
			return name, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
	}
	name := tempName(p.base)
	return name, p.d.LinkTemp(p.t, name)
}

// lockedTempName is the name nameTemp gives a temporary file of base
// under the folder's lock.
func lockedTempName(base string) string { return tempPrefix(base) + "0000000000000000" }

// checkLinks refuses (ErrChanged) to replace a file that has got a hard
// link since it was read, unless p.hardlinks: Read refuses a file with
// several links, because the rename would give this name the new content
// and leave the old one at the others, and a link made after the read
// must not slip past that. The link count is taken from the original's
// descriptor, held open since its content was compared, and not from
// the status compared by sameFile: a link made between the read and the
// commit is already in that status, and one made later may leave the
// status change time as it was (the kernel's clock for it is coarse).
// The caller holds the folder's lock.
func (p *pendingWrite) checkLinks() error {
	if p.hardlinks || p.orig == nil {
		return nil
	}
	var st unix.Stat_t
	if err := unix.Fstat(int(p.orig.Fd()), &st); err != nil {
		return failed(p.doc, "cannot read the file's status", err)
	}
	if st.Nlink > 1 {
		return &edit.FileError{Path: p.doc.Path, Reason: fmt.Sprintf("the file got another hard link since symedit read it (it has %d now), and replacing this name would split it from the others; nothing was written, read it again", st.Nlink), Err: edit.ErrChanged}
	}
	return nil
}

// discard closes and removes what is left of p: its temporary file, if
// not yet put in place, and the original's descriptor. It may be called
// again.
func (p *pendingWrite) discard() {
	if p.open {
		p.open = false
		_ = p.t.Close()
	}
	if p.tmp != "" {
		_ = p.d.Remove(p.tmp)
		p.tmp = ""
	}
	if p.orig != nil {
		_ = p.orig.Close()
		p.orig = nil
	}
	if p.ownDir {
		p.ownDir = false
		_ = p.d.Close()
	}
}

// errCreatedMeanwhile is the error of a created file whose name another
// writer took since the document was read.
func errCreatedMeanwhile(doc *edit.Document) error {
	return &edit.FileError{Path: doc.Path, Reason: "the file was created by someone else since symedit looked; nothing was written, read it and retry", Err: edit.ErrChanged}
}

// lock is lockDir without saying whether the lock was taken.
func lock(ctx context.Context, doc *edit.Document, d commitDir) error {
	_, err := lockDir(ctx, doc, d)
	return err
}

// lockDir takes d's lock and reports whether it holds it. A file system
// without flock on a folder (ENOLCK, EOPNOTSUPP, ENOSYS, EINVAL; EBADF
// or EISDIR where NFS turns flock into a POSIX lock, which wants a folder
// open for writing) is written unlocked (false, nil): the checks before
// the rename still catch most concurrent writers. The wait for a lock
// another process holds ends after LockWait (ErrLocked) or when ctx is
// done first: the *FileError then wraps ctx's error.
func lockDir(ctx context.Context, doc *edit.Document, d commitDir) (bool, error) {
	err := d.Lock(ctx)
	if err == nil {
		return true, nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
		return false, &edit.FileError{Path: doc.Path, Reason: "stopped while waiting for another symedit process to finish writing in the file's folder; nothing was written", Err: err}
	}
	var pe *fs.PathError
	sysErr := err
	if errors.As(err, &pe) {
		sysErr = pe.Err
	}
	switch {
	case errors.Is(sysErr, unix.ENOLCK), errors.Is(sysErr, unix.EOPNOTSUPP), errors.Is(sysErr, unix.ENOSYS),
		errors.Is(sysErr, unix.EINVAL), errors.Is(sysErr, unix.EBADF), errors.Is(sysErr, unix.EISDIR):
		return false, nil
	case errors.Is(sysErr, unix.EWOULDBLOCK):
		return false, &edit.FileError{Path: doc.Path, Reason: fmt.Sprintf("another symedit process has been writing in the file's folder for %v; nothing was written, retry later", LockWait), Err: fmt.Errorf("%w: %w", ErrLocked, sysErr)}
	}
	return false, failed(doc, "cannot lock the file's folder", err)
}

// openUnchanged opens base in d, checks that it is a regular file holding
// doc.Content and returns it with its status as of before the read.
func openUnchanged(doc *edit.Document, d commitDir, base string) (*os.File, *unix.Stat_t, error) {
	lst, err := d.Lstat(base)
	if err != nil {
		return nil, nil, &edit.FileError{Path: doc.Path, Reason: reason(err) + "; nothing was written", Err: err}
	}
	if m := statMode(lst); !m.IsRegular() {
		return nil, nil, &edit.FileError{Path: doc.Path, Reason: fmt.Sprintf("not a regular file (%s)", kind(m)), Err: edit.ErrNotRegular}
	}
	changed := &edit.FileError{Path: doc.Path, Reason: "the file changed on disk since symedit read it; nothing was written, read it again and retry", Err: edit.ErrChanged}
	f, err := d.Open(base)
	if errors.Is(err, unix.ELOOP) {
		return nil, nil, changed // a symbolic link put in its place
	}
	if err != nil {
		return nil, nil, &edit.FileError{Path: doc.Path, Reason: reason(err) + "; nothing was written", Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil || st.Ino != lst.Ino || st.Dev != lst.Dev || int64(len(doc.Content)) != st.Size {
		f.Close()
		return nil, nil, changed
	}
	same, err := sameContent(f, doc.Content)
	if err != nil {
		f.Close()
		return nil, nil, failed(doc, "cannot read the file", err)
	}
	if !same {
		f.Close()
		return nil, nil, changed
	}
	return f, &st, nil
}

// sameContent reports whether r holds exactly want, nothing more, reading
// it in blocks of at most 64 KiB compared as they come (one read of the
// whole file for most files, no copy of it kept). The error is r's,
// other than io.EOF.
func sameContent(r io.Reader, want []byte) (bool, error) {
	buf := make([]byte, min(len(want), 64<<10)+1)
	for {
		n, err := io.ReadFull(r, buf[:min(len(buf), len(want)+1)])
		if n > len(want) || !bytes.Equal(buf[:n], want[:n]) {
			return false, nil // more than want, or different
		}
		want = want[n:]
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			return len(want) == 0, nil
		case err != nil:
			return false, err
		}
	}
}

// sameFile reports whether now is the file st described, unchanged: the
// same inode, size, modification and status change times.
func sameFile(now, st *unix.Stat_t) bool {
	return now.Dev == st.Dev && now.Ino == st.Ino && now.Size == st.Size &&
		now.Mtim == st.Mtim && now.Ctim == st.Ctim
}

// statMode converts a unix mode to an fs.FileMode: type, permission bits
// and the setuid, setgid and sticky bits.
func statMode(st *unix.Stat_t) fs.FileMode {
	m := fs.FileMode(st.Mode & 0o777)
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		m |= fs.ModeDir
	case unix.S_IFLNK:
		m |= fs.ModeSymlink
	case unix.S_IFIFO:
		m |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		m |= fs.ModeSocket
	case unix.S_IFBLK:
		m |= fs.ModeDevice
	case unix.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	}
	if st.Mode&unix.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if st.Mode&unix.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if st.Mode&unix.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}

// create writes a new file: its folders are made, a temporary file is
// written and synced, and then linked to the name, which fails rather
// than replace a file that appeared since the document was read. The new
// file's mode is 0666 less the umask (or the folder's default ACL), as
// any tool's, so that a file symedit creates is not more or less open
// than one an editor would.
func create(ctx context.Context, fsys fileSystem, doc *edit.Document, name string, content []byte, mode func(fs.FileMode) fs.FileMode) error {
	if _, err := fsys.Lstat(name); err == nil {
		return errCreatedMeanwhile(doc)
	}
	dir, base := dirOf(name), filepath.Base(name)
	if err := fsys.MkdirAll(dir, 0o777); err != nil {
		return failed(doc, "cannot create the file's folder", err)
	}
	d, err := fsys.OpenDir(dir)
	if err != nil {
		return failed(doc, "cannot open the file's folder", err)
	}
	defer d.Close()
	if err := lock(ctx, doc, d); err != nil {
		return err
	}
	defer d.Unlock()
	p := &pendingWrite{doc: doc, d: d, dir: dir, base: base}
	defer p.discard()
	if err := p.prepareCreate(content, mode, true); err != nil {
		return err
	}
	if err := p.finish(); err != nil {
		return err
	}
	// A failed folder sync only weakens durability.
	_ = d.Sync()
	return nil
}

// removeStaleTemps removes, from d, the temporary files of base that a
// killed symedit left: named ".BASE.symedit-" and 16 hex digits, regular
// files, last modified over StaleTempAge ago, other than own (the
// caller's). It lists the folder, so a commit calls it only where it
// writes a named temporary file itself (no O_TMPFILE): where the file
// system has O_TMPFILE a kill leaves a name only in the instant between
// naming the temporary file and the rename, a fixed name that the next
// commit removes without a listing (nameTemp). The caller holds d's lock, so
// no symedit that locks is writing them; the age spares one that does
// not (a file system without flock). Errors are ignored: the clean-up is
// a courtesy, never a reason to refuse an edit.
func removeStaleTemps(d commitDir, base, own string) {
	names, err := d.Names()
	if err != nil {
		return
	}
	cutoff := time.Now().Add(-StaleTempAge)
	for _, n := range names {
		if n == own || !isTempOf(n, base) {
			continue
		}
		st, err := d.Lstat(n)
		if err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG || !time.Unix(st.Mtim.Unix()).Before(cutoff) {
			continue
		}
		_ = d.Remove(n)
	}
}

func failed(doc *edit.Document, step string, err error) error {
	return &edit.FileError{Path: doc.Path, Reason: fmt.Sprintf("%s: %s; the file was not changed", step, reason(err)), Err: err}
}

func dirOf(name string) string {
	dir := filepath.Dir(name)
	if dir == "" {
		return "."
	}
	return dir
}

// randomSuffix returns 16 random hex digits for temporary names.
func randomSuffix() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// fsName returns the file system's name for doc's file: its Origin's
// Name, or its Path for a Document read from no file.
func fsName(doc *edit.Document) string {
	if n := doc.Origin().Name; n != "" {
		return n
	}
	return doc.Path
}
