package edit

import (
	"fmt"
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
	for i, d := range docs {
		if err := commit(fsys, opt, d, contents[i]); err != nil {
			te := &TransactionError{Failed: i, Path: d.Path, Err: err}
			for k := i - 1; k >= 0; k-- {
				if rerr := restore(fsys, opt, docs[k], contents[k]); rerr != nil {
					te.RestoreErrs = append(te.RestoreErrs, rerr)
				} else {
					te.Restored = append(te.Restored, docs[k].Path)
				}
			}
			return te
		}
	}
	return nil
}

// restore puts back the file doc was read from after written was
// committed to it: the original content by an atomic commit, or, for a
// file the transaction created, its removal.
func restore(fsys fileSystem, opt Options, doc *Document, written []byte) error {
	if doc.absent {
		if err := fsys.Remove(doc.fsName()); err != nil {
			return &FileError{Path: doc.Path, Reason: "cannot remove the file created before the failure: " + reason(err), Err: err}
		}
		return nil
	}
	now := *doc
	now.Content = written
	return commit(fsys, opt, &now, doc.Content)
}
