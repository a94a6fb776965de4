package ops

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/internal/probe"
	"github.com/symedit/symedit/textedit"
	"github.com/symedit/symedit/walk"
)

// SkippedFile is a file a walk found that Replace left alone because it
// could not be read to the end, or because it is not UTF-8 text and holds
// no match: such a file is reported, not a refusal of the run, since
// replace would not change it (or cannot tell that it would) and a large
// tree has such files (Latin-1 test data, a file another program has
// locked or removed meanwhile).
type SkippedFile struct {
	// Path is the file's name, as the other files of the result are
	// named.
	Path string `json:"path" jsonschema:"The file, named as in files."`
	// Reason says why: skipNotUTF8, or "unreadable: " and the system's
	// words (permission denied, no such file or folder, not a regular
	// file, ...).
	Reason string `json:"reason" jsonschema:"Why it was left alone: not UTF-8 with no match, or unreadable and why."`
}

// skipUnreadable is the reason, in ReplaceResult.Skipped, for a walked
// file whose bytes could not be read: no match can be told, so nothing is
// written to it, and the run goes on as grep and ripgrep go on past such
// files. A file named in Paths that cannot be read stays a refusal.
const skipUnreadable = "unreadable"

// scanned is what the first look at a walked file found.
type scanned struct {
	// keep: the file may hold a match (textedit.Searcher.MayMatch), or
	// it is UTF-16 or UTF-32 (whose text a byte search cannot see), or
	// the look was not made: it is read again under its lock and
	// searched as a document.
	keep bool
	// searched: the file was read and searched, and holds no match.
	searched bool
	// skip is the reason counted in ReplaceResult.Skipped (a walk's
	// binary or too large, skipNotUTF8, skipUnreadable), or "".
	skip string
	// why is the reason listed in SkippedFiles, or "" when the file is
	// not listed (binary and too large ones are only counted, as a walk
	// counts them).
	why string
}

// scanWalked gives each file of found that its walk left to the caller
// (sniff, the files its result marks Unchecked) a first look, on WalkOptions.Jobs goroutines: one open,
// one status call, one read of its bytes, the walk's size and binary
// checks (walk.Sniff), and sr's prefilter (MayMatch) on the bytes. A file
// that holds no match is done there: it is never made a Document, its
// lines are never split, it is never parsed, and its lock is not taken
// (its read sees the file before or after any other call's write, which
// is an atomic rename). It returns the files still to search in path
// order (those that may hold a match, and every file named in the
// request), and counts the others in res (Searched, Skipped,
// SkippedFiles) and in found.Skipped; onFile is called for each of them,
// in path order.
//
// The look opens the name the walk found, as the walk itself opens it to
// sniff a file, with O_NOFOLLOW: the walk reached it through folders it
// confined to the root and never through a symbolic link. A file kept
// for the search is read again through the file layer, which checks
// every component and refuses a path that leaves the root.
func (w *Workspace) scanWalked(ctx context.Context, req ReplaceRequest, sr *textedit.Searcher, found *walk.Result, sniff map[string]bool, res *ReplaceResult, onFile func(string)) []string {
	if len(sniff) == 0 {
		return found.Files
	}
	bufs := sync.Pool{New: func() any { return new([]byte) }}
	var keep []string
	// The walk's own skips (binary, too large) leave found.Files, as
	// they would have if the walk had made them: the summary's file count is the
	// same either way.
	listed := found.Files[:0:0]
	_ = forEachOrdered(len(found.Files), req.jobs(), func(i int) scanned {
		p := found.Files[i]
		if !sniff[p] || ctx.Err() != nil {
			return scanned{keep: true} // named, or stopped: the search says so
		}
		if w.beforeScan != nil {
			w.beforeScan(p)
		}
		buf := bufs.Get().(*[]byte)
		defer bufs.Put(buf)
		return scanFile(ctx, w.osPath(p), sr, buf)
	}, func(i int, s scanned) error {
		p := found.Files[i]
		if s.skip != walk.SkipBinary && s.skip != walk.SkipTooLarge {
			listed = append(listed, p)
		}
		if s.keep {
			keep = append(keep, p)
			return nil
		}
		onFile(p)
		if s.searched {
			res.Searched++
		}
		if s.skip != "" {
			addSkip(found, res, s.skip)
		}
		if s.why != "" {
			res.SkippedFiles = append(res.SkippedFiles, SkippedFile{Path: p, Reason: s.why})
		}
		return nil
	})
	found.Files = listed
	return keep
}

// addSkip counts one file skipped for reason in found.Skipped, which res
// shares.
func addSkip(found *walk.Result, res *ReplaceResult, reason string) {
	if found.Skipped == nil {
		found.Skipped = map[string]int{}
	}
	found.Skipped[reason]++
	res.Skipped = found.Skipped
}

// sortSkippedFiles puts res.SkippedFiles in path order: the first look
// lists its files in order, and the search adds those it finds not UTF-8
// after.
func sortSkippedFiles(res *ReplaceResult) {
	slices.SortStableFunc(res.SkippedFiles, func(a, b SkippedFile) int { return strings.Compare(a.Path, b.Path) })
}

// osPath is the name the system opens for the workspace's path p: p
// itself when absolute or when the workspace has no Dir, else below Dir.
func (w *Workspace) osPath(p string) string {
	if w.opt.Dir == "" || filepath.IsAbs(p) {
		return p
	}
	return strings.TrimSuffix(w.opt.Dir, "/") + "/" + p
}

// scanOpenFlags open a file for its first look as the walk opens one to
// sniff it: read only, not following a final link, not waiting for a
// writer of a named pipe put in its place, not making a terminal the
// controlling one, closed on exec.
const scanOpenFlags = unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC

// scanFile makes the first look at the file name (see scanWalked) with
// raw system calls: open, fstat, read (one, unless the kernel returns
// less), close; an os.File would add the runtime poller's attempt to
// register the file and a second status call per file. buf is reused
// from one file to the next. A file is read up to the size its status
// gave: bytes appended meanwhile are as if appended after the look.
func scanFile(ctx context.Context, name string, sr *textedit.Searcher, buf *[]byte) scanned {
	fd, err := retryEINTR(func() (int, error) { return unix.Open(name, scanOpenFlags, 0) })
	if err != nil {
		return unreadable(err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return unreadable(err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return scanned{skip: skipUnreadable, why: skipUnreadable + ": not a regular file"}
	}
	if reason := walk.Sniff(nil, st.Size, 0); reason != "" {
		return scanned{skip: reason} // too large: not read at all
	}
	if int64(cap(*buf)) < st.Size {
		*buf = make([]byte, st.Size)
	}
	b := (*buf)[:st.Size]
	n := 0
	for n < len(b) {
		k, err := retryEINTR(func() (int, error) { return unix.Read(fd, b[n:]) })
		if err != nil {
			return unreadable(err)
		}
		if k == 0 {
			break // shrunk since the status call
		}
		n += k
	}
	b = b[:n]
	probe.CountRead(ctx)
	if reason := walk.Sniff(b, int64(n), 0); reason != "" {
		return scanned{skip: reason}
	}
	if sr.MayMatch(b) || edit.WideBOM(b) != "" {
		return scanned{keep: true}
	}
	if !utf8.Valid(b) {
		// Reported: a Latin-1 file is left alone, not edited by mistake
		// in another encoding. Only files without a match get here, and
		// the check of an ASCII file runs eight bytes at a time.
		return scanned{searched: true, skip: skipNotUTF8, why: skipNotUTF8}
	}
	return scanned{searched: true}
}

// unreadable is the look at a file whose bytes could not be read: err is
// the system's.
func unreadable(err error) scanned {
	return scanned{skip: skipUnreadable, why: fmt.Sprintf("%s: %v", skipUnreadable, err)}
}

// retryEINTR calls f until it fails with something other than EINTR (the
// runtime's preemption signal interrupts raw system calls).
func retryEINTR(f func() (int, error)) (int, error) {
	for {
		n, err := f()
		if err != unix.EINTR {
			return n, err
		}
	}
}
