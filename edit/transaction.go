package edit

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
)

// TransactionError is a CommitAll that failed at one file. The files
// committed before it were restored to their content as read (created
// files removed); RestoreErrs lists any that could not be, so the caller
// can say exactly which files need a look.
type TransactionError struct {
	// Failed is the index, in CommitAll's arguments, of the file whose
	// commit failed, and Err its error (a *FileError).
	Failed int
	Path   string
	Err    error
	// Restored are the paths written before the failure and restored.
	Restored []string
	// RestoreErrs are the restorations that failed, one error per file.
	RestoreErrs []error
}

func (e *TransactionError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v", e.Err)
	if len(e.Restored) > 0 {
		fmt.Fprintf(&b, "; restored the %d file(s) written before it: %s", len(e.Restored), strings.Join(e.Restored, ", "))
	}
	for _, r := range e.RestoreErrs {
		fmt.Fprintf(&b, "; COULD NOT RESTORE: %v", r)
	}
	return b.String()
}

// Unwrap returns the failed commit's error.
func (e *TransactionError) Unwrap() error { return e.Err }

// Change is one file's part of CommitChanges: Content committed to the
// file Doc was read from (created, for a Document from ReadOrNew), or,
// when Delete is set, that file removed (Content is then ignored). A move
// is two changes: the new file's content, and the old file's removal.
type Change struct {
	Doc     *Document
	Content []byte
	// Delete removes the file Doc was read from, after the checks of
	// Commit (still as read, a regular file, inside the root); a symbolic
	// link is refused (ErrNotRegular), as is a Document from ReadOrNew
	// for a file that does not exist.
	Delete bool
	// Exec changes the file's execute permission with its content (a git
	// diff's mode change or new executable file, issue 14); ExecKeep, the
	// zero value, keeps the file's mode. A failed transaction restores
	// the mode the file was read with.
	Exec Exec
}

// Exec is a change of a file's execute permission (Change.Exec), as git
// tracks it: a regular file of mode 100644 or 100755.
type Exec int8

const (
	// ExecKeep keeps the file's mode (a created file gets 0666 less the
	// umask).
	ExecKeep Exec = iota
	// ExecSet gives execute permission wherever the file has read
	// permission (0644 becomes 0755), as git checks out mode 100755.
	ExecSet
	// ExecClear removes every execute permission (0755 becomes 0644),
	// as git checks out mode 100644.
	ExecClear
)

// Apply returns mode m with x's change to its permission bits; the other
// bits are kept.
func (x Exec) Apply(m fs.FileMode) fs.FileMode {
	switch x {
	case ExecSet:
		return m | (m&0o444)>>2
	case ExecClear:
		return m &^ 0o111
	}
	return m
}

// CommitAll commits contents[i] to docs[i] for every i, in order, as one
// transaction: if a commit fails, the files already committed are put back
// as they were read (each by the same atomic commit, a created file by
// removing it), and the error is a *TransactionError saying which file
// failed and which were restored. Every file is checked as Commit checks
// it (still as read, a regular file, inside the root). It panics if the
// slices differ in length.
func (f *Files) CommitAll(docs []*Document, contents [][]byte) error {
	return commitAll(f.fsys, f.opt, docs, contents)
}

func commitAll(fsys fileSystem, opt Options, docs []*Document, contents [][]byte) error {
	if len(docs) != len(contents) {
		panic("edit: CommitAll: docs and contents differ in length")
	}
	changes := make([]Change, len(docs))
	for i, d := range docs {
		changes[i] = Change{Doc: d, Content: contents[i]}
	}
	return commitChanges(fsys, opt, changes)
}

// CommitChanges applies changes in order as one transaction, as CommitAll
// does, with deletions too (issue 14: apply_patch's Delete File and Move
// to, a unified diff's +++ /dev/null and renames). A deleted file is first
// renamed aside, in its folder, to a temporary name (".NAME.symedit-" and
// 16 hex digits); only when every change has succeeded are those removed.
// If a change fails, the changes before it are undone in reverse order: a
// written file gets its content as read, a created file is removed, a
// deleted file is renamed back (refused, and listed in RestoreErrs, if a
// file appeared at its name meanwhile). The error is a *TransactionError.
func (f *Files) CommitChanges(changes []Change) error {
	return commitChanges(f.fsys, f.opt, changes)
}

func commitChanges(fsys fileSystem, opt Options, changes []Change) error {
	aside := make([]string, len(changes)) // a deleted file's temporary name
	for i, c := range changes {
		var err error
		if c.Delete {
			aside[i], err = removeAside(fsys, c.Doc)
		} else {
			err = commitMode(fsys, opt, c.Doc, c.Content, c.Exec.Apply)
		}
		if err != nil {
			te := &TransactionError{Failed: i, Path: c.Doc.Path, Err: err}
			for k := i - 1; k >= 0; k-- {
				var rerr error
				if changes[k].Delete {
					rerr = putBack(fsys, changes[k].Doc, aside[k])
				} else {
					rerr = restore(fsys, opt, changes[k].Doc, changes[k].Content, changes[k].Exec != ExecKeep)
				}
				if rerr != nil {
					te.RestoreErrs = append(te.RestoreErrs, rerr)
				} else {
					te.Restored = append(te.Restored, changes[k].Doc.Path)
				}
			}
			return te
		}
	}
	for _, name := range aside {
		if name != "" {
			// The file's name is gone already; a temporary file left by a
			// failed removal is a stale one that a later commit in the
			// folder removes (see removeStaleTemps).
			_ = fsys.Remove(name)
		}
	}
	return nil
}

// removeAside renames the file doc was read from to a temporary name in
// its folder, under the folder's lock, after checking that it is a
// regular file (not a symbolic link) that still holds doc.Content. It
// returns the temporary file's name (a file system name, as fsName).
func removeAside(fsys fileSystem, doc *Document) (string, error) {
	if doc.absent {
		return "", &FileError{Path: doc.Path, Reason: "no such file; nothing to delete", Err: fs.ErrNotExist}
	}
	name := doc.fsName()
	if fi, err := fsys.Lstat(name); err != nil {
		return "", &FileError{Path: doc.Path, Reason: reason(err) + "; nothing was deleted", Err: err}
	} else if fi.Mode()&fs.ModeSymlink != 0 {
		return "", &FileError{Path: doc.Path, Reason: "a symbolic link; symedit does not delete links: delete it yourself", Err: ErrNotRegular}
	}
	dir, base := dirOf(name), filepath.Base(name)
	d, err := fsys.OpenDir(dir)
	if err != nil {
		return "", failed(doc, "cannot open the file's folder", err)
	}
	defer d.Close()
	if err := lock(doc, d); err != nil {
		return "", err
	}
	defer d.Unlock()
	orig, _, err := openUnchanged(doc, d, base)
	if err != nil {
		return "", err
	}
	orig.Close()
	tmp := tempName(base)
	if err := d.Rename(base, tmp); err != nil {
		return "", failed(doc, "cannot rename the file aside to delete it", err)
	}
	_ = d.Sync()
	return filepath.Join(dir, tmp), nil
}

// putBack renames the file removeAside set aside as tmp back to its name,
// unless a file appeared there meanwhile.
func putBack(fsys fileSystem, doc *Document, tmp string) error {
	dir, base := dirOf(tmp), filepath.Base(doc.fsName())
	d, err := fsys.OpenDir(dir)
	if err != nil {
		return &FileError{Path: doc.Path, Reason: fmt.Sprintf("cannot open the folder to put the deleted file back (it is kept as %s): %s", tmp, reason(err)), Err: err}
	}
	defer d.Close()
	if err := lock(doc, d); err != nil {
		return err
	}
	defer d.Unlock()
	if _, err := d.Lstat(base); err == nil {
		return &FileError{Path: doc.Path, Reason: fmt.Sprintf("a file appeared at the deleted file's name; the deleted file is kept as %s", tmp), Err: ErrChanged}
	}
	if err := d.Rename(filepath.Base(tmp), base); err != nil {
		return &FileError{Path: doc.Path, Reason: fmt.Sprintf("cannot rename the deleted file back (it is kept as %s): %s", tmp, reason(err)), Err: err}
	}
	_ = d.Sync()
	return nil
}

// restore puts back the file doc was read from after written was
// committed to it: the original content (and, with mode, its permission
// bits as read) by an atomic commit, or, for a file the transaction
// created, its removal.
func restore(fsys fileSystem, opt Options, doc *Document, written []byte, mode bool) error {
	if doc.absent {
		if err := fsys.Remove(doc.fsName()); err != nil {
			return &FileError{Path: doc.Path, Reason: "cannot remove the file created before the failure: " + reason(err), Err: err}
		}
		return nil
	}
	now := *doc
	now.Content = written
	if mode {
		perm := doc.Mode & fs.ModePerm
		return commitMode(fsys, opt, &now, doc.Content, func(m fs.FileMode) fs.FileMode { return m&^fs.ModePerm | perm })
	}
	return commit(fsys, opt, &now, doc.Content)
}
