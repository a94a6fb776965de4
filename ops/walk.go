package ops

import (
	"errors"
	"runtime"
	"strings"

	"github.com/symedit/symedit/walk"
)

// WalkOptions are how a multi-file operation (check, symbols) expands its
// paths and spreads the work: the rules of package walk for folders and
// doublestar patterns, and the number of files processed at once. They
// are set by the front end (flags), not sent by a model.
type WalkOptions struct {
	// Exclude holds doublestar patterns of files and folders a walk leaves
	// out (walk.Options.Exclude); a malformed one is a *UsageError.
	Exclude []string `json:"-"`
	// NoIgnore walks what .gitignore files and .git/info/exclude ignore
	// too.
	NoIgnore bool `json:"-"`
	// Hidden walks hidden files and folders too (never .git).
	Hidden bool `json:"-"`
	// Jobs is how many files are processed at once; 0 or less means the
	// number of cores.
	Jobs int `json:"-"`

	// deferChecks leaves the walk's content checks (binary, too large) to
	// the operation (walk.Options.DeferContentChecks): symbols with an
	// index, which opens no file whose entry hits.
	deferChecks bool
}

// walkPath returns the name the walk gave the file expand named p (Dir
// joined back to a relative p), for walk.Check.
func (w *Workspace) walkPath(p string) string {
	if w.opt.Dir == "" || strings.HasPrefix(p, "/") {
		return p
	}
	return strings.TrimSuffix(w.opt.Dir, "/") + "/" + p
}

// jobs returns o.Jobs, or the number of cores when it is 0 or less.
func (o WalkOptions) jobs() int {
	if o.Jobs > 0 {
		return o.Jobs
	}
	return runtime.NumCPU()
}

// expand is expandRead that leaves no check of the walked files to the
// caller.
func (w *Workspace) expand(paths []string, o WalkOptions) (walk.Result, error) {
	return w.expandRead(paths, o, false)
}

// expandRead expands paths, each a file, a folder or a doublestar pattern
// (package walk), confined to the workspace's root. A relative path is
// taken from Options.Dir when it is set, and the files found keep the
// path's form (relative to Dir; when any path is absolute, the files
// found are named as walk names them). With noRead the walk opens no
// file (walk.Options.DeferContentChecks): the caller sniffs the files the
// result marks Unchecked (uncheckedSet) on its own read. The errors are walk.Expand's: a malformed
// pattern (*UsageError), a pattern that matches no file, a walk outside
// the root (OUTSIDE_ROOT), a folder that cannot be read.
func (w *Workspace) expandRead(paths []string, o WalkOptions, noRead bool) (walk.Result, error) {
	dir, strip := w.opt.Dir, w.opt.Dir != ""
	if dir != "" {
		dir = strings.TrimSuffix(dir, "/") + "/"
		args := make([]string, len(paths))
		for i, p := range paths {
			if strings.HasPrefix(p, "/") {
				args[i] = p
				strip = false // an absolute path's files keep their names
			} else {
				// Not filepath.Join, which would clean "sub/.." to
				// "." when sub is a link: walk resolves names as the
				// kernel does.
				args[i] = dir + p
			}
		}
		paths = args
	}
	r, err := walk.Expand(paths, walk.Options{Exclude: o.Exclude, NoIgnore: o.NoIgnore, Hidden: o.Hidden, Confine: w.files.ConfineDir,
		DeferContentChecks: o.deferChecks || noRead})
	if errors.Is(err, walk.ErrBadPattern) {
		return r, &UsageError{Msg: err.Error()}
	}
	if err != nil || !strip {
		return r, err
	}
	for i, f := range r.Files {
		if rel, ok := strings.CutPrefix(f, dir); ok {
			r.Files[i] = rel
		}
	}
	return r, nil
}

// uncheckedSet returns the files of r whose content checks its walk left
// to the caller (walk.Result.Unchecked), by name; nil when none.
func uncheckedSet(r walk.Result) map[string]bool {
	var set map[string]bool
	for i, u := range r.Unchecked {
		if u {
			if set == nil {
				set = map[string]bool{}
			}
			set[r.Files[i]] = true
		}
	}
	return set
}
