package symcache

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/symedit/symedit/internal/cachefile"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

// Schema is the version of the entry format and of what symbols.ListFile
// produces for the same query and grammar. Bump it when either changes in
// a way the query digest does not show (a rule in package symbols).
//
// 10: a blob stores offsets and lines as differences, name paths its
// parent and name make as one byte, kinds as numbers; 9: a pack's checksum a CRC-32C, not a SHA-256; 8: the packs in one
// folder, not in 256 subfolders by their name's first two hexadecimal
// digits (a cold run made each of those folders, and
// a new folder costs the kernel more than a new file); 7: one pack file
// per parent of the source folders (see doc.go); 6:
// Python listed by its outline reader (symbols.ListFile), which
// differs from a full parse on some files with a syntax error; 5: one pack file per source folder (see doc.go); 4: the file's SHA-256 and each symbol's; 3: Go parsed with go/parser, whose symbols differ from
// tree-sitter's where tree-sitter-go misreads the source (a generic alias)
// and where a comment sits in a receiver's type; 2: binary bodies; 1: JSON
// bodies.
const Schema = 10

// EnvDir is the environment variable that overrides the cache folder
// (DefaultDir); tests set it to a t.TempDir().
const EnvDir = "SYMEDIT_CACHE_DIR"

// DefaultMaxBytes is the default bound of the cache folder's disk use in
// bytes, counted in blocks (DiskUse): 256 MiB, about 22 times the index
// of Go's whole source tree (GOROOT/src of Go 1.26.8: 7,879 files listed,
// 282 packs, 11.5 MiB on disk) and over twice that of a 100,000-file
// mixed tree (bench/tree.sh: 71,609 files listed, 2,433 packs, 112 MiB
// on disk).
const DefaultMaxBytes = 256 << 20

// Margin is the timestamp granularity the racily-clean rule allows for
// when the file's times carry nanoseconds (a file system with sub-second
// times; Linux stamps files from a clock that lags by up to a tick,
// 1-10 ms). CoarseMargin is used when a time's nanoseconds are zero: a
// file system with 1 s (ext3, HFS+) or 2 s (FAT) times.
const (
	Margin       = 100 * time.Millisecond
	CoarseMargin = 2 * time.Second
)

// DefaultDir returns the cache folder: $SYMEDIT_CACHE_DIR when set, else
// os.UserCacheDir()/symedit. The error is os.UserCacheDir's.
func DefaultDir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "symedit"), nil
}

// Key is a source file's identity: the file is taken as unchanged while
// every field stays the same.
type Key struct {
	// Path is the file's absolute path, every symbolic link resolved.
	Path string `json:"path"`
	// Lang is the lang.Language name the symbols were extracted with.
	Lang string `json:"lang"`
	// Size is the file's size in bytes.
	Size int64 `json:"size"`
	// ModTime and ChangeTime are the file's modification and status change
	// times in nanoseconds since the Unix epoch. The change time cannot be
	// set by a program, so a file rewritten with its size and
	// modification time restored still gets a new key.
	ModTime    int64 `json:"mtime"`
	ChangeTime int64 `json:"ctime"`
	// Inode and Device identify the file; a file replaced by a rename
	// gets a new inode.
	Inode  uint64 `json:"ino"`
	Device uint64 `json:"dev"`
}

// KeyOf returns the key of the file at realPath (absolute, links
// resolved) with information fi, for symbols of language lang. Without a
// *syscall.Stat_t in fi.Sys() (or off Linux, where only the change time
// is read so far) the change time, inode and device are 0, and Put then
// stores nothing (Key.Racy).
func KeyOf(realPath, lang string, fi fs.FileInfo) Key {
	k := Key{Path: realPath, Lang: lang, Size: fi.Size(), ModTime: fi.ModTime().UnixNano()}
	k.ChangeTime, k.Inode, k.Device = statIdentity(fi)
	return k
}

// Racy reports whether k's file may have changed, within its timestamps'
// granularity, after stated (the time taken just before the stat that
// produced k): git's racily-clean rule. A key without a change time is
// always racy (nothing shows a rewrite that restored the modification
// time).
func (k Key) Racy(stated time.Time) bool {
	if k.ChangeTime == 0 {
		return true
	}
	limit := stated.UnixNano()
	for _, t := range []int64{k.ModTime, k.ChangeTime} {
		m := Margin
		if t%int64(time.Second) == 0 {
			m = CoarseMargin
		}
		if t >= limit-int64(m) {
			return true
		}
	}
	return false
}

// Options configures Open. The zero value is the default cache.
type Options struct {
	// Dir is the cache folder; "" means DefaultDir().
	Dir string
	// MaxBytes bounds the folder's disk use for Prune, in bytes of
	// blocks allocated (st_blocks × 512, what du counts); 0 means
	// DefaultMaxBytes.
	MaxBytes int64
	// Build identifies the symedit build; "" means BuildID().
	Build string
	// Now is the clock for Prune's ages; nil means time.Now.
	Now func() time.Time
}

// Cache is an open symbol index. It is safe for concurrent use by many
// goroutines, and by many processes on the same folder.
type Cache struct {
	dir      string // Dir/v<Schema>
	root     string // Dir
	maxBytes int64
	build    string
	now      func() time.Time

	mu     sync.Mutex
	loaded map[string]*packSlot // packs read this run, by group (groupOf); bounded by maxLoaded
	// cold are the groups whose pack, the first time this Cache read it,
	// held nothing of this build (see Holds).
	cold         map[string]bool
	pending      groupEntries // entries put and not yet written
	pendingBytes int
	maxPending   int // maxPending, or a test's
	// inflight are the entries a background write (writeBehind) is
	// writing, by group, found by Get until they are on disk; werr is
	// the first error of a background write since the last Flush.
	inflight groupEntries
	werr     error
	// wmu is held while packs are written (Flush, or a background write
	// from its start to its end), so that the packs of one folder are
	// written in the order their entries were put, and Flush waits for
	// a background write.
	wmu sync.Mutex

	hits, misses, corrupt, writes, racy, failed atomic.Int64
}

// packSlot is a pack read once for every Get of its folder's files.
type packSlot struct {
	once    sync.Once
	entries map[entryName]packEntry // nil: no pack, or another build's, or corrupt
}

// entryName is an entry's key inside its pack: the member name
// (memberName) and the language.
type entryName struct{ name, lang string }

// groupEntries are entries to write, by group (groupOf) and by name
// inside it: a group holds the files of all its subfolders, thousands
// in a large one, and each Put and each Get of a cold run looks its
// file up there.
type groupEntries map[string]map[entryName]packEntry

// groupOf returns the group of the source folder dir (an absolute real
// path): the folder whose pack holds the entries of dir's files, dir's
// parent ("/" for "/"). One pack per source folder made a pack file of
// every folder, however few its files: 9,173 packs for 71,609 files of
// the bench tree (bench/tree.sh), and creating a file costs the kernel
// about a millisecond on some ext4 file systems (the open that creates
// it: 3.7 of 4.4 s of the index's writing in a profile of a cold run).
// A parent's subfolders are listed one after the other by a walk in
// path order, so grouping them keeps a pack's entries together: 2,433
// packs for the same files, the largest 4.6 MB of entries.
func groupOf(dir string) string { return filepath.Dir(dir) }

// memberName returns the name of the entry of the file at path (an
// absolute real path) inside its group's pack: its folder's base name,
// "/", its own base name. Two folders of one group are siblings, so
// their base names differ; the root folder's base name is "/".
func memberName(path string) string {
	return filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)
}

// maxLoaded bounds how many packs a Cache keeps read: a walk visits a
// folder's files together (in path order, a subfolder's between them),
// and the folders of one group one after the other, so a handful
// suffices, and a run over a large tree must not hold the
// whole index.
const maxLoaded = 64

// maxPending is how many bytes of entries Put holds before it writes
// them: a cold run over a large tree writes a pack per group, not per
// file, without holding the whole index. Those writes run in the
// background (writeBehind): creating a file costs the kernel most of a
// millisecond on some ext4 file systems, thousands of packs several
// seconds, which the parses of the files still to list can overlap.
const maxPending = 8 << 20

// Open returns the index in opt.Dir, creating nothing yet (Flush creates
// folders as it needs them). The error is DefaultDir's.
func Open(opt Options) (*Cache, error) {
	c := &Cache{root: opt.Dir, maxBytes: opt.MaxBytes, build: opt.Build, now: opt.Now,
		loaded: map[string]*packSlot{}, cold: map[string]bool{}, pending: groupEntries{}, maxPending: maxPending}
	if c.root == "" {
		d, err := DefaultDir()
		if err != nil {
			return nil, fmt.Errorf("symcache: no cache folder: %w", err)
		}
		c.root = d
	}
	if c.maxBytes <= 0 {
		c.maxBytes = DefaultMaxBytes
	}
	if c.build == "" {
		c.build = BuildID()
	}
	if c.now == nil {
		c.now = time.Now
	}
	c.dir = filepath.Join(c.root, fmt.Sprintf("v%d", Schema))
	return c, nil
}

// Dir returns the cache folder (Options.Dir or DefaultDir()).
func (c *Cache) Dir() string { return c.root }

// Stats counts what a Cache did since Open.
type Stats struct {
	// Hits counts Gets that returned symbols; Misses those that did not
	// (Corrupt included).
	Hits, Misses int64
	// Corrupt counts what was found unreadable: a pack with a bad header
	// or checksum or a body that does not decode (once per read of it),
	// and an entry whose symbols do not decode or break their invariants
	// (once per Get).
	Corrupt int64
	// Writes counts entries Put accepted (Flush writes them); Racy counts
	// Puts that stored nothing by the racily-clean rule; Failed counts
	// entries Flush could not write (a read-only cache folder, a full
	// disk).
	Writes, Racy, Failed int64
}

// Stats returns the counts so far.
func (c *Cache) Stats() Stats {
	return Stats{Hits: c.hits.Load(), Misses: c.misses.Load(), Corrupt: c.corrupt.Load(),
		Writes: c.writes.Load(), Racy: c.racy.Load(), Failed: c.failed.Load()}
}

// PackPath returns the pack file that holds the entries of the files in
// the folder dir, an absolute real path (whether or not it exists): the
// pack of dir's group, the folder's parent,
// Dir/v<Schema>/<hh>/<rest of the hex SHA-256 of the group's path>.
func (c *Cache) PackPath(dir string) string { return c.groupPack(groupOf(dir)) }

// groupPack returns the pack file of the group g (groupOf).
func (c *Cache) groupPack(g string) string {
	sum := sha256.Sum256([]byte(g))
	return filepath.Join(c.dir, hex.EncodeToString(sum[:]))
}

// EntryPath returns the pack file that holds k's entry: PackPath of
// k.Path's folder.
func (c *Cache) EntryPath(k Key) string { return c.PackPath(filepath.Dir(k.Path)) }

// Get returns the symbols stored for k, the key of the file a path names
// now (a stat is enough: an entry's key is that of the file read, see
// Put, so an equal key is that file, unchanged), or false when there is
// no entry, the entry is for another key or build, or it is corrupt
// (counted in Stats.Corrupt; the caller's Put replaces it).
func (c *Cache) Get(k Key) ([]symbols.Symbol, bool) {
	e, ok := c.GetEntry(k)
	return e.Symbols, ok
}

// Entry is what the index stores for a file: its symbols and, when the
// caller gave them, SHA-256 sums as raw 32-byte strings: SHA256 the
// file's content's, SymbolSHA256 each symbol's text's (in Symbols'
// order, as many as Symbols, or none). The strings of an Entry that Get
// returns share one copy of the entry's bytes.
type Entry struct {
	Symbols      []symbols.Symbol
	SHA256       string
	SymbolSHA256 []string
}

// GetEntry is Get returning the whole entry, with its sums.
func (c *Cache) GetEntry(k Key) (Entry, bool) {
	e, ok := c.get(k)
	if ok {
		c.hits.Add(1)
	} else {
		c.misses.Add(1)
	}
	return e, ok
}

func (c *Cache) get(k Key) (Entry, bool) {
	dir, name := groupOf(filepath.Dir(k.Path)), memberName(k.Path)
	want := Key{Path: name, Lang: k.Lang, Size: k.Size, ModTime: k.ModTime, ChangeTime: k.ChangeTime, Inode: k.Inode, Device: k.Device}
	pe, ok := c.pendingEntry(dir, want)
	if !ok {
		pe, ok = c.pack(dir).entries[entryName{name, k.Lang}]
	}
	if !ok || pe.key != want {
		return Entry{}, false
	}
	e, err := decodeBlob(pe.blob)
	if err != nil {
		c.corrupt.Add(1)
		return Entry{}, false
	}
	for i, s := range e.Symbols {
		if s.Parent < -1 || s.Parent >= i || s.StartByte < 0 || s.StartByte > s.EndByte || int64(s.EndByte) > k.Size {
			c.corrupt.Add(1)
			return Entry{}, false
		}
	}
	return e, true
}

// Holds reports whether the index may hold an entry for a file in the
// folder dir (an absolute real path) from an earlier run: false only when
// the pack of dir's group, the first time this Cache read it, held no
// entry of this build. Get then misses whatever the key, but for an entry
// this Cache was given by Put, and a caller that lists each file once
// and has not yet stat'ed it can skip the stat a key needs: a cold run
// over a tree saves one stat per file. The entries this Cache put are
// left out on purpose, written or not: the first file a cold run puts in
// a group would otherwise make every later file of the group a lookup
// that misses (and once a background write wrote the group's pack, a
// read of it). An entry written by another run since the pack was first
// read is not seen either; the file is then parsed again, as on any
// miss. A Cache is meant for one run: a group stays cold for its life.
func (c *Cache) Holds(dir string) bool {
	g := groupOf(dir)
	c.mu.Lock()
	cold := c.cold[g]
	c.mu.Unlock()
	if cold {
		return false
	}
	if c.pack(g).entries != nil {
		return true
	}
	c.mu.Lock()
	c.cold[g] = true
	c.mu.Unlock()
	return false
}

// pendingEntry returns the entry put for want's file in the group dir
// and not yet written, if any.
func (c *Cache) pendingEntry(dir string, want Key) (packEntry, bool) {
	name := entryName{want.Path, want.Lang}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.pending[dir][name]; ok && e.key == want {
		return e, true
	}
	if e, ok := c.inflight[dir][name]; ok && e.key == want {
		return e, true
	}
	return packEntry{}, false
}

// pack returns the pack of the group dir, read once per Cache while it
// stays among the last maxLoaded read.
func (c *Cache) pack(dir string) *packSlot {
	c.mu.Lock()
	s := c.loaded[dir]
	if s == nil {
		if len(c.loaded) >= maxLoaded {
			clear(c.loaded) // the holders of a slot keep it
		}
		s = &packSlot{}
		c.loaded[dir] = s
	}
	c.mu.Unlock()
	s.once.Do(func() {
		entries, corrupt := c.readPack(dir)
		if corrupt {
			c.corrupt.Add(1)
		}
		if len(entries) > 0 {
			s.entries = make(map[entryName]packEntry, len(entries))
			for _, e := range entries {
				s.entries[entryName{e.key.Path, e.key.Lang}] = e
			}
		}
	})
	return s
}

// readPack returns the entries of the group dir's pack of this build:
// none when there is no pack, it is another build's or another group's (a
// hash collision), or it is corrupt (then corrupt is true).
func (c *Cache) readPack(dir string) (entries []packEntry, corrupt bool) {
	data, err := readEntry(c.groupPack(dir))
	if err != nil {
		return nil, false
	}
	build, packDir, entries, err := decodePack(data)
	if err != nil {
		return nil, true
	}
	if build != c.build || packDir != dir {
		return nil, false
	}
	return entries, false
}

// Put stores syms as the symbols of the file with key k, whose content
// the caller read after stated, a time it took before it resolved the
// file's path. k must describe the file the content was read from: its
// information taken from the descriptor read (fstat after the open),
// never from a stat of the path, which between the stat and the open may
// name another file (a folder link repointed, a folder renamed) whose
// symbols would then be served for this one for as long as it stays
// unchanged. It stores nothing when k is racy (Key.Racy): the content
// read may be newer than k shows. The entry is held in memory, where Get
// finds it, until it is written: by Flush, or once Put holds maxPending
// bytes by a write Put starts in the background, whose error the next
// Flush returns. Put returns nil.
func (c *Cache) Put(k Key, stated time.Time, syms []symbols.Symbol) error {
	return c.PutEntry(k, stated, Entry{Symbols: syms})
}

// PutEntry is Put storing a whole entry, its sums with the symbols
// (Entry: raw 32-byte sums, SymbolSHA256 as many as Symbols or none; the
// entry is stored as given, unchecked).
func (c *Cache) PutEntry(k Key, stated time.Time, e Entry) error {
	if k.Racy(stated) {
		c.racy.Add(1)
		return nil
	}
	dir := groupOf(filepath.Dir(k.Path))
	pe := packEntry{key: k, blob: encodeBlob(e)}
	pe.key.Path = memberName(k.Path)
	name := entryName{pe.key.Path, pe.key.Lang}
	c.mu.Lock()
	group := c.pending[dir]
	if group == nil {
		group = map[entryName]packEntry{}
		c.pending[dir] = group
	}
	if old, ok := group[name]; ok {
		c.pendingBytes -= len(old.blob)
	}
	group[name] = pe
	c.pendingBytes += len(pe.blob)
	full := c.pendingBytes >= c.maxPending
	c.mu.Unlock()
	c.writes.Add(1)
	if full {
		c.writeBehind()
	}
	return nil
}

// writeBehind starts writing the entries put so far in the background,
// unless a write is running already (then they wait for the next one, or
// for Flush).
func (c *Cache) writeBehind() {
	if !c.wmu.TryLock() {
		return
	}
	c.mu.Lock()
	batch := c.pending
	c.pending, c.pendingBytes, c.inflight = groupEntries{}, 0, batch
	c.mu.Unlock()
	go func() {
		defer c.wmu.Unlock()
		err := c.write(batch, 1)
		c.mu.Lock()
		c.inflight = nil
		if c.werr == nil {
			c.werr = err
		}
		c.mu.Unlock()
	}()
}

// Flush writes the entries Put holds, one pack per group (the parent of
// their folders): the group's pack as it is on disk now (another run may
// have written it since this one read it), its entries of this build
// kept, those put replacing theirs (same member name and language), written to a temporary file in
// the pack's folder and renamed over it. Two runs flushing one group at
// once leave one of their packs, whole; the other's new entries are
// parsed again by a later run. The packs of different groups are
// written at once, one per CPU. A failure is counted (Stats.Failed, per
// entry) and the first in group order is returned (an *fs.PathError or
// *os.LinkError);
// the index stays valid either way. Flush first waits for a write Put
// started in the background, and returns its error if it failed first.
func (c *Cache) Flush() error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.mu.Lock()
	pending, first := c.pending, c.werr
	c.pending, c.pendingBytes, c.werr = groupEntries{}, 0, nil
	c.mu.Unlock()
	if err := c.write(pending, runtime.GOMAXPROCS(0)); first == nil {
		first = err
	}
	return first
}

// write writes the packs of pending's groups (see Flush), jobs of them
// at once; the caller holds wmu. A background write (writeBehind) writes
// one at a time, beside the parses of the files still to list; Flush,
// which a run calls once its files are listed, writes one per CPU: the
// packs of different groups are different files, and the last of a
// cold run's packs are otherwise written one after another while the
// CPUs wait.
func (c *Cache) write(pending groupEntries, jobs int) error {
	dirs := slices.Sorted(maps.Keys(pending))
	if jobs <= 1 { // on this goroutine, not one more per group
		var first error
		for _, dir := range dirs {
			if err := c.writeGroup(dir, pending[dir]); first == nil {
				first = err
			}
		}
		return first
	}
	errs := make([]error, len(dirs))
	var g errgroup.Group
	g.SetLimit(max(1, jobs))
	for i, dir := range dirs {
		g.Go(func() error {
			errs[i] = c.writeGroup(dir, pending[dir])
			return nil // every group is written; the first error is picked below
		})
	}
	_ = g.Wait()
	// The first in group order, as a write one group at a time would
	// have met it.
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// writeGroup writes the pack of the group dir: the entries of its pack
// on disk now, those of put replacing theirs. A failure is counted per
// entry of put (Stats.Failed) and returned.
func (c *Cache) writeGroup(dir string, put map[entryName]packEntry) error {
	old, _ := c.readPack(dir) // a corrupt pack was counted when read
	merged := make([]packEntry, 0, len(old)+len(put))
	for _, e := range old {
		if _, ok := put[entryName{e.key.Path, e.key.Lang}]; !ok {
			merged = append(merged, e)
		}
	}
	for _, name := range slices.SortedFunc(maps.Keys(put), compareNames) {
		merged = append(merged, put[name])
	}
	if err := writeAtomic(c.groupPack(dir), encodePack(c.build, dir, merged)); err != nil {
		c.failed.Add(int64(len(put)))
		return err
	}
	c.mu.Lock()
	delete(c.loaded, dir) // read again, with the entries written
	c.mu.Unlock()
	return nil
}

// compareNames orders entry names by member name, then language: a pack
// lists its new entries in that order, whatever the order of the Puts.
func compareNames(a, b entryName) int {
	return cmp.Or(strings.Compare(a.name, b.name), strings.Compare(a.lang, b.lang))
}

// tempPrefix starts the names of temporary pack files.
const tempPrefix = ".tmp-"

// writeAtomic writes data to path, whole or not at all, mode 0600
// (cachefile.WriteAtomic).
func writeAtomic(path string, data []byte) error {
	return cachefile.WriteAtomic(path, tempPrefix, data)
}

// staleTemp is the age after which Prune removes a temporary file that a
// killed run left.
const staleTemp = time.Hour

// Prune removes the oldest-written packs (by modification time) until
// the cache folder's packs take at most three quarters of MaxBytes on
// disk, when they take more than MaxBytes; and removes temporary files
// older than an hour, which a killed run left. Disk use is counted in
// blocks allocated (st_blocks × 512, what du shows), not in apparent
// size: a small file takes a whole block. It returns how many files it
// removed. Entries of other schema versions (other v<N> folders) are
// removed whole. A file another run removed meanwhile is not an error;
// the error is the first other one met.
func (c *Cache) Prune() (int, error) {
	type file struct {
		path string
		size int64
		mod  time.Time
	}
	var files []file
	var total int64
	removed := 0
	var firstErr error
	note := func(err error) {
		if err != nil && !errors.Is(err, fs.ErrNotExist) && firstErr == nil {
			firstErr = err
		}
	}
	tops, err := os.ReadDir(c.root)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, nil
		}
		return 0, err
	}
	for _, t := range tops {
		if t.IsDir() && strings.HasPrefix(t.Name(), "v") && t.Name() != filepath.Base(c.dir) {
			if _, err := fmt.Sscanf(t.Name(), "v%d", new(int)); err == nil {
				note(os.RemoveAll(filepath.Join(c.root, t.Name())))
				removed++
			}
		}
	}
	now := c.now()
	err = filepath.WalkDir(c.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			note(err)
			return nil
		}
		if d.IsDir() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			note(err)
			return nil
		}
		if strings.HasPrefix(d.Name(), tempPrefix) {
			if now.Sub(fi.ModTime()) > staleTemp {
				note(os.Remove(path))
				removed++
			}
			return nil
		}
		size := DiskUse(fi)
		files = append(files, file{path, size, fi.ModTime()})
		total += size
		return nil
	})
	note(err)
	if total <= c.maxBytes {
		return removed, firstErr
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod.Before(files[j].mod) })
	for _, f := range files {
		if total <= c.maxBytes/4*3 {
			break
		}
		note(os.Remove(f.path))
		total -= f.size
		removed++
	}
	return removed, firstErr
}

// PruneEvery is how often MaybePrune prunes: a cold run over a large tree
// writes thousands of packs, and walking the folder after every run
// would cost more than it saves.
const PruneEvery = time.Hour

// stampName is the file in Dir whose modification time is the last
// MaybePrune's.
const stampName = "pruned"

// MaybePrune runs Prune when the last MaybePrune (the stamp file "pruned"
// in Dir) is PruneEvery or more ago, or never ran. It reports whether it
// pruned, and Prune's count and error.
func (c *Cache) MaybePrune() (bool, int, error) {
	stamp := filepath.Join(c.root, stampName)
	now := c.now()
	if fi, err := os.Stat(stamp); err == nil && now.Sub(fi.ModTime()) < PruneEvery {
		return false, 0, nil
	}
	if err := os.MkdirAll(c.root, 0o700); err != nil {
		return false, 0, err
	}
	if err := os.WriteFile(stamp, nil, 0o600); err != nil {
		return false, 0, err
	}
	if err := os.Chtimes(stamp, now, now); err != nil {
		return false, 0, err
	}
	n, err := c.Prune()
	return true, n, err
}

// BuildID returns the identity of the running symedit build for the
// index's keys: the schema version, lang.QueryDigest, the main
// module's version and sum, its VCS revision and modified flag, the
// versions of its dependencies (the grammars among them), and the
// executable's size and modification time (a rebuild from modified
// sources changes them). It is computed once.
func BuildID() string { return buildID() }

var buildID = sync.OnceValue(func() string {
	h := sha256.New()
	fmt.Fprintf(h, "schema %d\nqueries %s\n", Schema, lang.QueryDigest())
	if bi, ok := debug.ReadBuildInfo(); ok {
		fmt.Fprintf(h, "go %s\nmain %s %s %s\n", bi.GoVersion, bi.Main.Path, bi.Main.Version, bi.Main.Sum)
		for _, d := range bi.Deps {
			fmt.Fprintf(h, "dep %s %s %s\n", d.Path, d.Version, d.Sum)
		}
		for _, s := range bi.Settings {
			if strings.HasPrefix(s.Key, "vcs.") {
				fmt.Fprintf(h, "%s %s\n", s.Key, s.Value)
			}
		}
	}
	if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			fmt.Fprintf(h, "exe %d %d\n", fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return hex.EncodeToString(h.Sum(nil))
})
