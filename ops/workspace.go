package ops

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sync"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/files"
	"github.com/symedit/symedit/guard"
	"github.com/symedit/symedit/internal/journal"
	"github.com/symedit/symedit/internal/probe"
	"github.com/symedit/symedit/lang"
)

// Options are what every call of a Workspace shares.
type Options struct {
	// Root confines every path: a path that resolves outside it is refused
	// (OUTSIDE_ROOT) before anything is read. "" means no confinement;
	// relative paths are then taken from the working directory.
	Root string
	// AllowHardlinks, AllowReadOnly and AllowMetadataLoss are the edit
	// layer's permissions (files.Options): edit a file with several hard
	// links, replace a file this user may not write, write even if the
	// owner, special mode bits or extended attributes cannot be kept.
	AllowHardlinks, AllowReadOnly, AllowMetadataLoss bool
	// Dir is the folder relative paths are taken from, and the folder the
	// diffs' headers name files relative to; "" means the working
	// directory (the CLI). A Go program usually sets it to Root.
	Dir string
	// IndexDir is the folder of the persistent symbol index that Symbols
	// reads and writes (package internal/symcache); "" means its default
	// ($SYMEDIT_CACHE_DIR, else the user's cache folder).
	IndexDir string
	// NoJournal records nothing in the journal (as the environment
	// variable SYMEDIT_NO_JOURNAL=1 does): the writes cannot be undone.
	// Else every write that commits is recorded in the journal of the
	// root (Root, else the real path of Dir or of the working directory),
	// in IndexDir's folder ("" as for the index)/journal: see Undo.
	NoJournal bool
	// JournalMaxEntries and JournalMaxBytes bound each root's journal:
	// it keeps the last JournalMaxEntries operations and at most
	// JournalMaxBytes bytes of entries, dropping the oldest first; 0
	// means 100 operations and 64 MiB.
	JournalMaxEntries int
	JournalMaxBytes   int64
}

// Workspace is a folder's files and the operations on them. It is safe for
// concurrent use: calls on different files run in parallel, and calls that
// write the same file are serialized (a lock per file, held from the read
// to the commit), so concurrent edits of one file never lose an update;
// the commit's read-then-rename check still guards against other
// processes (files.Files.Commit).
type Workspace struct {
	files *files.Files
	view  *files.Files // files.ForReading: for the operations that only read
	opt   Options
	locks pathLocks

	jonce   sync.Once // opens journal on first use
	journal *journal.Journal
	jerr    error

	// beforeUndoCommit, set only by tests (SetUndoHook), runs after an
	// undo's checks and before its commit, so that a test can change a
	// file exactly there.
	beforeUndoCommit func()
	// beforeScan, set only by tests (SetScanHook), runs before replace's
	// first look at a walked file (scanWalked), with its path, so that a
	// test can make the file unreadable after the walk listed it.
	beforeScan func(path string)
}

// Open opens a workspace. It fails when Root is not a folder.
func Open(opt Options) (*Workspace, error) {
	files, err := files.Open(files.Options{Root: opt.Root, AllowHardlinks: opt.AllowHardlinks,
		AllowReadOnly: opt.AllowReadOnly, AllowMetadataLoss: opt.AllowMetadataLoss, Dir: opt.Dir})
	if err != nil {
		return nil, err
	}
	return &Workspace{files: files, view: files.ForReading(), opt: opt}, nil
}

// Close releases the workspace's root. Calls after Close fail.
func (w *Workspace) Close() error { return w.files.Close() }

// Root returns the absolute real path of the root, or "" when the
// workspace is not confined.
func (w *Workspace) Root() string { return w.files.Root() }

// Files returns the workspace's edit layer, for front ends that read files
// themselves (walks).
func (w *Workspace) Files() *files.Files { return w.files }

// WriteOptions are the options every writing request carries. The fields
// tagged "-" are set by the front end (flags), not sent by a model.
type WriteOptions struct {
	// DryRun: write nothing; the result carries the unified diff and the
	// syntax check, and a dry run refuses what the real run would.
	DryRun bool `json:"dry_run,omitempty" jsonschema:"true: write nothing; the result shows the unified diff and the syntax check. Omitted or false: write the file when every check passes."`
	// ExpectSHA256 refuses (CHANGED) unless the file's content has this
	// SHA-256, 64 hexadecimal digits, as when it was read earlier; ""
	// checks nothing. Sent in JSON it may not be "" (see SHA256).
	ExpectSHA256 SHA256 `json:"expect_sha256,omitempty" jsonschema:"Refuse, writing nothing, unless the file has this SHA-256 (64 hexadecimal digits: show's or symbols' sha256, a result's sha256_after)."`
	// Lang parses files as this language (lang.Select) instead of by
	// extension; "" is by extension.
	Lang string `json:"lang,omitempty" jsonschema:"Parse the files as this language instead of by their extensions, as for a C++ header named .h (read as c unless cpp is given). Omitted: by extension."`
	// Check is the syntax guard's mode: "strict" (the default when ""),
	// "warn" or "off" (guard.ParseCheckMode).
	Check string `json:"-"`
	// Diff puts the unified diff in the result of a real run too (a dry
	// run always has it).
	Diff bool `json:"-"`
	// NoSymbols leaves the result's symbols (what the change did to the
	// file's symbols: Result.Symbols) out, for a front end that does not
	// show them: they cost a parse of each changed file as it was, which
	// the syntax guard does not need when an edit only respells tokens.
	// The guard checks as it would without it.
	NoSymbols bool `json:"-"`
}

// SHA256 is the SHA-256 a file's content is expected to have: 64
// hexadecimal digits, or "" for no check. Decoded from JSON, an empty
// string is refused (a *UsageError): a caller that sends the field means
// the check, and an empty value would silently turn it off.
type SHA256 string

// EmptySHA256 is the message of the *UsageError for an empty expected
// SHA-256, sent as JSON or given as a flag.
const EmptySHA256 = "empty: want a SHA-256 as 64 hexadecimal digits (as sha256sum prints), or leave the check out"

// UnmarshalJSON decodes a JSON string, refusing "" with a *UsageError
// (its Field is "expect_sha256": the field of every writing request; a
// location's expect_symbol_sha256 is refused alike).
func (s *SHA256) UnmarshalJSON(data []byte) error {
	var v string
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	if v == "" {
		return &UsageError{Field: "expect_sha256", Msg: EmptySHA256}
	}
	*s = SHA256(v)
	return nil
}

// validate returns nil for "" or 64 hexadecimal digits, else a
// *UsageError for the request's field.
func (s SHA256) validate(field string) error {
	if s == "" {
		return nil
	}
	if b, err := hex.DecodeString(string(s)); err != nil || len(b) != sha256.Size {
		return &UsageError{Field: field, Msg: fmt.Sprintf("%q is not a SHA-256: want 64 hexadecimal digits (as sha256sum prints)", string(s))}
	}
	return nil
}

// mode returns the check mode, or a *UsageError.
func (o WriteOptions) mode() (guard.CheckMode, error) {
	m, err := guard.ParseCheckMode(o.Check)
	if err != nil {
		return m, &UsageError{Msg: err.Error()}
	}
	return m, nil
}

// validate checks the options that can be malformed.
func (o WriteOptions) validate() error {
	if _, err := o.mode(); err != nil {
		return err
	}
	if err := o.ExpectSHA256.validate("expect_sha256"); err != nil {
		return err
	}
	// A language that does not exist is refused before anything is read:
	// taken as "no language", the guard would be skipped and the edit
	// written unchecked.
	if o.Lang != "" {
		if _, err := lang.ByName(o.Lang); err != nil {
			return err
		}
	}
	return nil
}

// readResolved reads path for editing and applies ExpectSHA256: the
// file r resolved path to when r is not nil (files.Files.ReadResolved:
// the path is not resolved again), else path (whose errors are then
// Read's).
func (w *Workspace) readResolved(path string, r *files.Resolution, o WriteOptions) (*edit.Document, error) {
	var doc *edit.Document
	var err error
	if r != nil {
		doc, err = w.files.ReadResolved(r)
	} else {
		doc, err = w.files.Read(path)
	}
	if err != nil {
		return nil, err
	}
	if o.ExpectSHA256 != "" {
		if err := doc.CheckSHA256(string(o.ExpectSHA256)); err != nil {
			return nil, err
		}
	}
	return doc, nil
}

// language returns the language for path (or the one named langName), or
// nil when the file is in no supported language: the guard then skips it.
func language(path, langName string) *lang.Language {
	l, err := lang.Select(path, langName)
	if err != nil {
		return nil
	}
	return l
}

// lock takes the in-process lock of the file path names and returns its
// release; it gives up when ctx is done (see pathLocks.lock).
func (w *Workspace) lock(ctx context.Context, path string) (unlock func(), err error) {
	return w.locks.lock(ctx, w.lockKey(path))
}

// lockResolved is lock that resolves path once, for the lock's key and
// for the read after it (readResolved of the resolution's res), and
// returns that resolution with the release.
func (w *Workspace) lockResolved(ctx context.Context, path string) (r resolved, unlock func(), err error) {
	r = w.resolve(path)
	unlock, err = w.locks.lock(ctx, r.key)
	return r, unlock, err
}

// lockAll takes the in-process locks of the files paths name, each once
// (two names of one file share a lock), in sorted order of their keys, so
// that two calls locking overlapping sets never deadlock; it returns their
// release. When ctx is done first, it releases what it took and returns
// the error of cancelled.
func (w *Workspace) lockAll(ctx context.Context, paths []string) (unlock func(), err error) {
	keys := make([]string, 0, len(paths))
	for _, p := range paths {
		keys = append(keys, w.lockKey(p))
	}
	return w.lockKeys(ctx, keys)
}

// lockKeys is lockAll of the files whose lock keys are keys (lockKey's);
// keys may be reordered.
func (w *Workspace) lockKeys(ctx context.Context, keys []string) (unlock func(), err error) {
	keys = slices.Clone(keys)
	slices.Sort(keys)
	keys = slices.Compact(keys)
	unlocks := make([]func(), 0, len(keys))
	release := func() {
		for i := len(unlocks) - 1; i >= 0; i-- {
			unlocks[i]()
		}
	}
	for _, k := range keys {
		u, err := w.locks.lock(ctx, k)
		if err != nil {
			release()
			return nil, err
		}
		unlocks = append(unlocks, u)
	}
	return release, nil
}

// lockKey is the key of path's lock: the file's real path when it exists
// (so two names of one file share a lock), else the path made absolute.
func (w *Workspace) lockKey(path string) string { return w.resolve(path).key }

// pathKey is the lock key of a path that does not resolve to a file: the
// path made absolute.
func (w *Workspace) pathKey(path string) string {
	key := path
	if !filepath.IsAbs(key) && w.opt.Dir != "" {
		key = filepath.Join(w.opt.Dir, key)
	}
	if abs, err := filepath.Abs(key); err == nil {
		key = abs
	}
	return key
}

// resolved is a path's lock key (lockKey's) and, when the file resolved,
// its resolution, so that the read after the lock does not resolve the
// path again: replace, the file-level write prologue
// (writeFile) and the symbol one (writeSymbol) read through it.
type resolved struct {
	key string
	res *files.Resolution // nil: read by the path, which gives Read's error
}

// resolve returns path's lock key and resolution: lockKey of path, with
// one resolution of it for the lock and the read.
func (w *Workspace) resolve(path string) resolved {
	r, err := w.files.Resolve(path)
	if err != nil {
		return resolved{key: w.pathKey(path)}
	}
	return resolved{key: r.RealPath(), res: r}
}

// pathLocks is a lock per key, dropped when no call holds or waits for
// it.
type pathLocks struct {
	mu sync.Mutex
	m  map[string]*pathLock
}

// pathLock is one key's lock: a channel holding one token while the lock
// is held, so that a wait for it can end when the call's context does (a
// sync.Mutex cannot be given up on).
type pathLock struct {
	held chan struct{}
	refs int // the calls holding or waiting for it
}

// lock takes key's lock and returns its release. When ctx is done first
// it returns the error of cancelled (nothing was written), and holds
// nothing: a call past its time limit answers at once instead of after
// the call that holds the file.
func (p *pathLocks) lock(ctx context.Context, key string) (func(), error) {
	p.mu.Lock()
	if p.m == nil {
		p.m = map[string]*pathLock{}
	}
	l := p.m[key]
	if l == nil {
		l = &pathLock{held: make(chan struct{}, 1)}
		p.m[key] = l
	}
	l.refs++
	p.mu.Unlock()
	drop := func() {
		p.mu.Lock()
		if l.refs--; l.refs == 0 {
			delete(p.m, key)
		}
		p.mu.Unlock()
	}
	if err := ctx.Err(); err != nil {
		drop()
		return nil, cancelled(ctx)
	}
	select {
	case l.held <- struct{}{}:
	default:
		probe.PathLockWaits.Add(1)
		select {
		case l.held <- struct{}{}:
		case <-ctx.Done():
			drop()
			return nil, cancelled(ctx)
		}
	}
	return func() {
		<-l.held
		drop()
	}, nil
}
