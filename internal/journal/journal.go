// Package journal stores the record of every write symedit made, so that
// an operation can be undone: one entry per operation, per root, in the
// user's cache folder beside the symbol index (never inside the project
// tree). It is pure storage: what an entry means, and whether it can be
// undone, is package ops's business.
//
// Layout: <cache>/journal/<first 16 bytes of the SHA-256 of the root's
// real path, hex>/<entry id>.json, each file written whole to a
// temporary file and renamed into place, with mode 0600 in folders of
// mode 0700, since an entry holds file contents that other users must not
// read. The journal keeps the last MaxEntries entries and at most
// MaxBytes of them, dropping the oldest first.
package journal

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/symedit/symedit/internal/cachefile"
)

// DefaultMaxEntries is the default bound of a root's journal in entries:
// the last 100 operations.
const DefaultMaxEntries = 100

// DefaultMaxBytes is the default bound of a root's journal in bytes of
// entry files: 64 MiB.
const DefaultMaxBytes = 64 << 20

// ext ends every entry file's name.
const ext = ".json"

// tempPrefix starts the names of temporary files, which List skips.
const tempPrefix = ".tmp-"

// File is one file's part of an entry: its state before and after the
// operation. A move is two Files (the old name deleted, the new one
// created), linked by MovedTo and MovedFrom.
type File struct {
	// Path is the file's real path relative to the journal's root,
	// slash-separated; an absolute path when the file is outside it.
	Path string `json:"path"`
	// SHA256Before is the SHA-256 (64 lowercase hexadecimal digits) of
	// the content before, "" when the file did not exist; SHA256After
	// that of the content after, "" when the operation removed it.
	SHA256Before string `json:"sha256_before,omitempty"`
	SHA256After  string `json:"sha256_after,omitempty"`
	// Mode is the file's mode before (0 when it did not exist), and
	// ModeAfter its mode after when the operation changed it (0: kept, or
	// not known).
	Mode      fs.FileMode `json:"mode,omitempty"`
	ModeAfter fs.FileMode `json:"mode_after,omitempty"`
	// Before is the content before; nil when the file did not exist.
	Before []byte `json:"before,omitempty"`
	// MovedTo, for a file the operation renamed, is its new Path;
	// MovedFrom, for the new name, the old one.
	MovedTo   string `json:"moved_to,omitempty"`
	MovedFrom string `json:"moved_from,omitempty"`
}

// Existed reports that the file existed before the operation.
func (f File) Existed() bool { return f.SHA256Before != "" }

// Exists reports that the file exists after the operation.
func (f File) Exists() bool { return f.SHA256After != "" }

// Entry is one operation's record.
type Entry struct {
	// ID identifies the entry; IDs sort in the order entries were made
	// (NewID).
	ID string `json:"id"`
	// Time is when the operation committed.
	Time time.Time `json:"time"`
	// Op is the operation's name (chunk, apply, undo, ...), and Target
	// what it named (a location, a pattern), or "".
	Op     string `json:"op"`
	Target string `json:"target,omitempty"`
	// Root is the real path of the root the Paths are relative to.
	Root string `json:"root"`
	// Undoes lists the IDs of the entries an undo reverted.
	Undoes []string `json:"undoes,omitempty"`
	// Files are the files the operation wrote, created, deleted or moved.
	Files []File `json:"files"`
}

// Options configures Open.
type Options struct {
	// Dir is the cache folder (the journal lives in Dir/journal); it must
	// not be "".
	Dir string
	// Root is the real path of the folder the journal is for.
	Root string
	// MaxEntries and MaxBytes bound the journal; 0 means
	// DefaultMaxEntries and DefaultMaxBytes.
	MaxEntries int
	MaxBytes   int64
	// Now is the clock for new entries' IDs and times; nil means time.Now.
	Now func() time.Time
}

// Journal is one root's journal. It is safe for concurrent use, by many
// goroutines and many processes: each entry is its own file with a
// random part in its name.
type Journal struct {
	dir        string
	root       string
	maxEntries int
	maxBytes   int64
	now        func() time.Time
}

// Open returns the journal of opt.Root in opt.Dir, creating nothing yet.
func Open(opt Options) (*Journal, error) {
	if opt.Dir == "" {
		return nil, errors.New("journal: no cache folder")
	}
	j := &Journal{root: opt.Root, maxEntries: opt.MaxEntries, maxBytes: opt.MaxBytes, now: opt.Now}
	if j.maxEntries <= 0 {
		j.maxEntries = DefaultMaxEntries
	}
	if j.maxBytes <= 0 {
		j.maxBytes = DefaultMaxBytes
	}
	if j.now == nil {
		j.now = time.Now
	}
	sum := sha256.Sum256([]byte(opt.Root))
	j.dir = filepath.Join(opt.Dir, "journal", hex.EncodeToString(sum[:16]))
	return j, nil
}

// Dir returns the folder of the journal's entry files.
func (j *Journal) Dir() string { return j.dir }

// Root returns the real path of the journal's root.
func (j *Journal) Root() string { return j.root }

// NewID returns a new entry ID for time t: the UTC time to the
// nanosecond, fixed width, then 8 random hexadecimal digits, so that IDs
// sort by time and two processes never make the same one.
func NewID(t time.Time) string {
	var b [4]byte
	rand.Read(b[:])
	return t.UTC().Format("20060102T150405.000000000Z") + "-" + hex.EncodeToString(b[:])
}

// validID reports whether id can name an entry file (no separator, no
// leading dot): an ID from a user is checked before it names a file.
func validID(id string) bool {
	return id != "" && !strings.ContainsAny(id, `/\`) && !strings.HasPrefix(id, ".") && len(id) < 128
}

// Append sets e's ID, Time and Root (when unset), writes e as a new entry
// and drops the oldest entries past the bounds (never e itself). The
// error is the write's; a failed pruning is not reported (the next Append
// tries again).
func (j *Journal) Append(e *Entry) error {
	if e.Time.IsZero() {
		e.Time = j.now()
	}
	if e.ID == "" {
		e.ID = NewID(e.Time)
	}
	if e.Root == "" {
		e.Root = j.root
	}
	data, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(j.dir, e.ID+ext), data); err != nil {
		return err
	}
	j.prune(e.ID)
	return nil
}

// writeAtomic writes data to path, whole or not at all, mode 0600
// (cachefile.WriteAtomic).
func writeAtomic(path string, data []byte) error {
	return cachefile.WriteAtomic(path, tempPrefix, data)
}

// stored is an entry file's name and size.
type stored struct {
	id   string
	size int64
}

// files returns the entry files, oldest first.
func (j *Journal) files() ([]stored, error) {
	des, err := os.ReadDir(j.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []stored
	for _, de := range des {
		name := de.Name()
		if !de.Type().IsRegular() || strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ext) {
			continue
		}
		fi, err := de.Info()
		if err != nil {
			continue // removed meanwhile
		}
		out = append(out, stored{id: strings.TrimSuffix(name, ext), size: fi.Size()})
	}
	slices.SortFunc(out, func(a, b stored) int { return strings.Compare(a.id, b.id) })
	return out, nil
}

// prune removes the oldest entries until at most maxEntries remain and
// they hold at most maxBytes, keeping keep.
func (j *Journal) prune(keep string) {
	all, err := j.files()
	if err != nil {
		return
	}
	var total int64
	for _, s := range all {
		total += s.size
	}
	n := len(all)
	for _, s := range all {
		if n <= j.maxEntries && total <= j.maxBytes {
			break
		}
		if s.id == keep {
			continue
		}
		// Another process may have removed it already: that counts.
		if err := os.Remove(filepath.Join(j.dir, s.id+ext)); err == nil || errors.Is(err, fs.ErrNotExist) {
			n--
			total -= s.size
		}
	}
}

// CorruptError is an entry file that could not be read or decoded: List
// reports it and goes on, and an edit is never blocked by it.
type CorruptError struct {
	// ID is the entry file's name without ".json"; File its path.
	ID, File string
	// Err is the read's or the decoding's error.
	Err error
}

// Error says which entry file is unreadable and why.
func (e *CorruptError) Error() string {
	return fmt.Sprintf("journal entry %s (%s) is unreadable, skipped: %v", e.ID, e.File, e.Err)
}

// Unwrap returns the read's or the decoding's error.
func (e *CorruptError) Unwrap() error { return e.Err }

// ErrNotFound is Get's error for an ID with no entry.
var ErrNotFound = errors.New("no such journal entry")

// Get returns the entry id. The error wraps ErrNotFound when there is
// none, and is a *CorruptError when its file is unreadable.
func (j *Journal) Get(id string) (*Entry, error) {
	if !validID(id) {
		return nil, fmt.Errorf("%q: %w", id, ErrNotFound)
	}
	return j.read(id)
}

// read reads and decodes the entry id.
func (j *Journal) read(id string) (*Entry, error) {
	path := filepath.Join(j.dir, id+ext)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, &CorruptError{ID: id, File: path, Err: err}
	}
	var e Entry
	if err := json.Unmarshal(data, &e); err != nil {
		return nil, &CorruptError{ID: id, File: path, Err: err}
	}
	if e.ID != id {
		return nil, &CorruptError{ID: id, File: path, Err: fmt.Errorf("it holds the entry %q", e.ID)}
	}
	return &e, nil
}

// List returns the entries, oldest first, and a *CorruptError for each
// entry file it could not read (skipped). The error is the folder's (a
// journal not made yet has no entries and no error).
func (j *Journal) List() ([]*Entry, []error, error) {
	all, err := j.files()
	if err != nil {
		return nil, nil, err
	}
	var out []*Entry
	var bad []error
	for _, s := range all {
		e, err := j.read(s.id)
		if errors.Is(err, ErrNotFound) {
			continue // pruned meanwhile
		}
		if err != nil {
			bad = append(bad, err)
			continue
		}
		out = append(out, e)
	}
	return out, bad, nil
}
