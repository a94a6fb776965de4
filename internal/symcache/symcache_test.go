package symcache_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/symedit/symedit/internal/symcache"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

// realSymbols extracts the symbols of one of the repository's real Python
// sources, so that every field (byte offsets, parents) is exercised.
func realSymbols(t testing.TB) (string, []symbols.Symbol) {
	t.Helper()
	path, err := filepath.Abs("../../testdata/src/python/contextlib_excerpt.py")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lang, err := lang.ForPath(path)
	if err != nil {
		t.Fatal(err)
	}
	syms, err := symbols.Extract(context.Background(), src, lang)
	if err != nil || len(syms) < 5 {
		t.Fatalf("extract: %d symbols, %v", len(syms), err)
	}
	return path, syms
}

// oldKey returns the key of path with its times an hour before now: a file
// that no clock tick can confuse.
func oldKey(t testing.TB, path string) (symcache.Key, time.Time) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	k := symcache.KeyOf(path, "python", fi)
	now := time.Now()
	k.ModTime, k.ChangeTime = now.Add(-time.Hour).UnixNano()+123, now.Add(-time.Hour).UnixNano()+456
	return k, now
}

func open(t testing.TB, dir string, opt symcache.Options) *symcache.Cache {
	t.Helper()
	opt.Dir = dir
	c, err := symcache.Open(opt)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// entryFiles returns the entry files under dir (temporary files included).
func entryFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != "pruned" {
			out = append(out, p)
		}
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}

// TestRoundTrip checks that Get returns exactly what Put stored, every
// field (the byte offsets and parents JSON output leaves out) included,
// and nothing for a key that differs in any field or another build.
func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path, syms := realSymbols(t)
	k, now := oldKey(t, path)
	c := open(t, dir, symcache.Options{Build: "b1"})
	if _, ok := c.Get(k); ok {
		t.Fatal("hit in an empty index")
	}
	if err := c.Put(k, now, syms); err != nil {
		t.Fatal(err)
	}
	got, ok := c.Get(k)
	if !ok || !reflect.DeepEqual(got, syms) {
		t.Fatalf("Get before Flush = %v, %v; want the %d symbols put", len(got), ok, len(syms))
	}
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	got, ok = c.Get(k)
	if !ok || !reflect.DeepEqual(got, syms) {
		t.Fatalf("Get after Flush = %v, %v; want the %d symbols put", len(got), ok, len(syms))
	}
	if st := c.Stats(); st.Hits != 2 || st.Misses != 1 || st.Writes != 1 || st.Corrupt != 0 || st.Racy != 0 {
		t.Errorf("stats %+v", st)
	}
	changed := map[string]func(*symcache.Key){
		"size":  func(k *symcache.Key) { k.Size++ },
		"mtime": func(k *symcache.Key) { k.ModTime++ },
		"ctime": func(k *symcache.Key) { k.ChangeTime++ },
		"inode": func(k *symcache.Key) { k.Inode++ },
		"dev":   func(k *symcache.Key) { k.Device++ },
		"lang":  func(k *symcache.Key) { k.Lang = "go" },
		"path":  func(k *symcache.Key) { k.Path += "x" },
	}
	for name, f := range changed {
		k2 := k
		f(&k2)
		if _, ok := c.Get(k2); ok {
			t.Errorf("%s changed: still a hit", name)
		}
	}
	if _, ok := open(t, dir, symcache.Options{Build: "b2"}).Get(k); ok {
		t.Error("another build: a hit")
	}
	if _, ok := open(t, dir, symcache.Options{Build: "b1"}).Get(k); !ok {
		t.Error("the same build reopened: a miss")
	}
}

// TestRacilyClean checks git's racily-clean rule: Put stores nothing for a
// file whose modification or change time is not strictly older than the
// stat's time minus the granularity (Margin for nanosecond times,
// CoarseMargin for whole seconds), and stores it once it is.
func TestRacilyClean(t *testing.T) {
	path, syms := realSymbols(t)
	base, _ := oldKey(t, path)
	cases := []struct {
		name       string
		mtime      int64 // relative to stated
		ctime      int64
		wantStored bool
	}{
		{"modified at the stat", 0, -int64(time.Hour), false},
		{"modified just before the stat", -int64(time.Millisecond), -int64(time.Hour), false},
		{"modified after the stat", int64(time.Second), -int64(time.Hour), false},
		{"changed (ctime) just before the stat", -int64(time.Hour), -int64(time.Millisecond), false},
		{"both older than the margin", -int64(2 * symcache.Margin), -int64(2 * symcache.Margin), true},
	}
	stated := time.Unix(1_700_000_000, 500_000_000) // times with nanoseconds
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := open(t, t.TempDir(), symcache.Options{})
			k := base
			k.ModTime, k.ChangeTime = stated.UnixNano()+tc.mtime, stated.UnixNano()+tc.ctime
			if got := k.Racy(stated); got == tc.wantStored {
				t.Errorf("Racy = %v", got)
			}
			if err := c.Put(k, stated, syms); err != nil {
				t.Fatal(err)
			}
			if _, ok := c.Get(k); ok != tc.wantStored {
				t.Errorf("stored = %v, want %v (stats %+v)", ok, tc.wantStored, c.Stats())
			}
		})
	}
	// Whole-second times (a 1 s or 2 s file system): a second older is
	// still racy, CoarseMargin older is not.
	k := base
	whole := time.Unix(1_700_000_000, 0)
	k.ModTime, k.ChangeTime = whole.UnixNano(), whole.UnixNano()
	if !k.Racy(whole.Add(time.Second)) || k.Racy(whole.Add(symcache.CoarseMargin+time.Nanosecond)) {
		t.Error("whole-second times: wrong margin")
	}
	// No change time (not Linux): never stored.
	k = base
	k.ChangeTime = 0
	if !k.Racy(time.Now().Add(24 * time.Hour)) {
		t.Error("a key without a change time is trusted")
	}
}

// TestCorruptEntry checks that an entry damaged in any way (a flipped
// byte, a truncation, garbage, an empty file) is ignored and counted, and
// that Put rewrites it.
func TestCorruptEntry(t *testing.T) {
	path, syms := realSymbols(t)
	k, now := oldKey(t, path)
	damage := map[string]func([]byte) []byte{
		"flipped byte": func(b []byte) []byte { b = bytes.Clone(b); b[len(b)/2] ^= 1; return b },
		"truncated":    func(b []byte) []byte { return b[:len(b)/2] },
		"garbage":      func([]byte) []byte { return []byte("not an entry\n{}") },
		"empty":        func([]byte) []byte { return nil },
		"checksum ok, trailing bytes": func(b []byte) []byte {
			return withSum(append(bytes.Clone(b[bytes.IndexByte(b, '\n')+1:]), 0))
		},
		"checksum ok, body short": func(b []byte) []byte {
			body := b[bytes.IndexByte(b, '\n')+1:]
			return withSum(body[:len(body)-3])
		},
	}
	for name, f := range damage {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			c := open(t, dir, symcache.Options{})
			if err := c.Put(k, now, syms); err != nil || c.Flush() != nil {
				t.Fatal(err)
			}
			files := entryFiles(t, dir)
			if len(files) != 1 {
				t.Fatalf("%d entry files", len(files))
			}
			data, err := os.ReadFile(files[0])
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(files[0], f(data), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, ok := c.Get(k); ok {
				t.Fatal("a damaged entry was returned")
			}
			if st := c.Stats(); st.Corrupt != 1 {
				t.Errorf("corrupt = %d", st.Corrupt)
			}
			if err := c.Put(k, now, syms); err != nil || c.Flush() != nil {
				t.Fatal(err)
			}
			fresh := open(t, dir, symcache.Options{})
			if got, ok := fresh.Get(k); !ok || !reflect.DeepEqual(got, syms) || fresh.Stats().Corrupt != 0 {
				t.Errorf("not rewritten (stats %+v)", fresh.Stats())
			}
		})
	}
}

// TestConcurrent checks that runs putting, flushing and getting entries
// of files in one folder at once (each its own file, as concurrent runs
// over one tree do) only ever see a whole pack, never a corrupt one, that
// whatever a Get returns is the entry put for that key, and that no
// temporary file remains and the folder's entries share one pack.
func TestConcurrent(t *testing.T) {
	dir := t.TempDir()
	path, syms := realSymbols(t)
	k, now := oldKey(t, path)
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			key := k
			key.Path = fmt.Sprintf("%s.%d", path, g)
			want := syms[:1+g]
			for i := 0; i < 20; i++ {
				c := open(t, dir, symcache.Options{})
				if err := c.Put(key, now, want); err != nil || c.Flush() != nil {
					errs <- fmt.Sprint("put: ", err)
					return
				}
				r := open(t, dir, symcache.Options{})
				if got, ok := r.Get(key); ok && !reflect.DeepEqual(got, want) {
					errs <- "a Get saw another file's entry"
					return
				}
				if r.Stats().Corrupt != 0 {
					errs <- "a corrupt pack"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if files := entryFiles(t, dir); len(files) != 1 {
		t.Errorf("files left: %v", files)
	}
}

// TestPack checks the layout: the entries of one folder's files share one
// pack file; a Flush keeps the entries already in it and replaces only
// those put again; another build's pack is replaced, not merged.
func TestPack(t *testing.T) {
	dir := t.TempDir()
	path, syms := realSymbols(t)
	k, now := oldKey(t, path)
	keys := make([]symcache.Key, 5)
	c := open(t, dir, symcache.Options{Build: "b1"})
	for i := range keys {
		keys[i] = k
		keys[i].Path = fmt.Sprintf("%s.%d", path, i)
		if err := c.Put(keys[i], now, syms[:i+1]); err != nil || c.Flush() != nil { // one Flush per file: merged
			t.Fatal(err)
		}
	}
	if files := entryFiles(t, dir); len(files) != 1 || files[0] != c.EntryPath(k) {
		t.Fatalf("pack files %v, want one, %s", files, c.EntryPath(k))
	}
	again := open(t, dir, symcache.Options{Build: "b1"})
	if err := again.Put(keys[2], now, syms[:4]); err != nil || again.Flush() != nil {
		t.Fatal(err)
	}
	r := open(t, dir, symcache.Options{Build: "b1"})
	for i, key := range keys {
		want := syms[:i+1]
		if i == 2 {
			want = syms[:4]
		}
		if got, ok := r.Get(key); !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("entry %d: %v, %d symbols; want %d", i, ok, len(got), len(want))
		}
	}
	other := open(t, dir, symcache.Options{Build: "b2"})
	if err := other.Put(keys[0], now, syms); err != nil || other.Flush() != nil {
		t.Fatal(err)
	}
	r = open(t, dir, symcache.Options{Build: "b2"})
	if _, ok := r.Get(keys[1]); ok {
		t.Error("another build's entry survived in the pack")
	}
	if got, ok := r.Get(keys[0]); !ok || !reflect.DeepEqual(got, syms) {
		t.Error("the new build's entry is missing")
	}
}

// TestPackGroups checks the grouping: the files of sibling folders share
// their parent's pack, each entry under its own folder and name, so that
// two files of one base name in two siblings (a/x.py, b/x.py) and a file
// of a folder and one of its parent (/x.py, /src/x.py: groups "/" and
// "/") never take each other's entry.
func TestPackGroups(t *testing.T) {
	dir := t.TempDir()
	path, syms := realSymbols(t)
	base, now := oldKey(t, path)
	paths := []string{"/src/a/x.py", "/src/b/x.py", "/src/x.py", "/x.py", "/src/a/b/x.py"}
	c := open(t, dir, symcache.Options{Build: "b1"})
	keys := make([]symcache.Key, len(paths))
	for i, p := range paths {
		keys[i] = base
		keys[i].Path = p
		if err := c.Put(keys[i], now, syms[:i+1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	r := open(t, dir, symcache.Options{Build: "b1"})
	for i, k := range keys {
		if got, ok := r.Get(k); !ok || !reflect.DeepEqual(got, syms[:i+1]) {
			t.Errorf("%s: %d symbols, %v; want %d", k.Path, len(got), ok, i+1)
		}
	}
	same := func(a, b int) bool { return r.EntryPath(keys[a]) == r.EntryPath(keys[b]) }
	if !same(0, 1) || !same(2, 3) || same(0, 2) || same(0, 4) {
		t.Errorf("packs: %v", []string{r.EntryPath(keys[0]), r.EntryPath(keys[1]), r.EntryPath(keys[2]), r.EntryPath(keys[3]), r.EntryPath(keys[4])})
	}
	if files := entryFiles(t, dir); len(files) != 3 {
		t.Errorf("%d pack files, want 3 (groups /src, / and /src/a): %v", len(files), files)
	}
}

// TestPrune checks the size bound: over MaxBytes, Prune removes the
// oldest-written entries until the folder is under three quarters of it,
// keeps the newest, removes a temporary file a killed run left an hour
// ago (not a fresh one) and other schema versions' folders; under the
// bound it removes no entry.
func TestPrune(t *testing.T) {
	dir := t.TempDir()
	path, syms := realSymbols(t)
	k, now := oldKey(t, path)
	c := open(t, dir, symcache.Options{})
	const n = 20
	keys := make([]symcache.Key, n)
	for i := range keys {
		keys[i] = k
		// A pack each: every file in a folder of its own parent.
		keys[i].Path = filepath.Join(filepath.Dir(path)+strings.Repeat("x", i), "sub", filepath.Base(path))
		if err := c.Put(keys[i], now, syms); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	// Entry i written i minutes after the first.
	var size int64
	for i, key := range keys {
		f := c.EntryPath(key)
		mt := now.Add(-time.Hour + time.Duration(i)*time.Minute)
		if err := os.Chtimes(f, mt, mt); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if symcache.DiskUse(fi) < fi.Size() {
			t.Fatalf("disk use %d under the apparent size %d", symcache.DiskUse(fi), fi.Size())
		}
		size += symcache.DiskUse(fi)
	}
	one := size / n
	shard := filepath.Dir(entryFiles(t, dir)[0])
	oldTemp, newTemp := filepath.Join(shard, ".tmp-old"), filepath.Join(shard, ".tmp-new")
	for _, f := range []string{oldTemp, newTemp} {
		if err := os.WriteFile(f, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chtimes(oldTemp, now.Add(-2*time.Hour), now.Add(-2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "v0", "ab"), 0o755); err != nil {
		t.Fatal(err)
	}

	// Under the bound: only the stale temporary file and v0 go.
	if removed, err := open(t, dir, symcache.Options{MaxBytes: size * 2}).Prune(); err != nil || removed != 2 {
		t.Fatalf("under the bound: removed %d, %v", removed, err)
	}
	if _, err := os.Stat(oldTemp); !os.IsNotExist(err) {
		t.Error("the stale temporary file remains")
	}
	if _, err := os.Stat(newTemp); err != nil {
		t.Error("a fresh temporary file (a run in progress) was removed")
	}
	if _, err := os.Stat(filepath.Join(dir, "v0")); !os.IsNotExist(err) {
		t.Error("another schema's folder remains")
	}
	os.Remove(newTemp)

	// A bound of 10 entries: 20 is over it; 7 (three quarters, rounded
	// down) remain, the newest.
	max := one * 10
	c = open(t, dir, symcache.Options{MaxBytes: max})
	if _, err := c.Prune(); err != nil {
		t.Fatal(err)
	}
	var left int64
	for _, f := range entryFiles(t, dir) {
		fi, _ := os.Stat(f)
		left += symcache.DiskUse(fi)
	}
	if left > max/4*3 {
		t.Errorf("%d bytes left, over three quarters of %d", left, max)
	}
	for i, key := range keys {
		_, ok := c.Get(key)
		if newest := i >= n-int(max/4*3/one); ok != newest {
			t.Errorf("entry %d (of %d, oldest first): kept = %v", i, n, ok)
		}
	}
}

// TestMaybePrune checks that MaybePrune prunes on its first call and then
// not again until PruneEvery has passed (an injected clock).
func TestMaybePrune(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	clock := func() time.Time { return now }
	c := open(t, dir, symcache.Options{Now: clock})
	if ran, _, err := c.MaybePrune(); !ran || err != nil {
		t.Fatalf("first call: ran %v, %v", ran, err)
	}
	now = now.Add(symcache.PruneEvery / 2)
	if ran, _, _ := c.MaybePrune(); ran {
		t.Error("pruned again within PruneEvery")
	}
	now = now.Add(symcache.PruneEvery)
	if ran, _, _ := c.MaybePrune(); !ran {
		t.Error("did not prune after PruneEvery")
	}
}

// TestDefaultDir checks the environment override and the user cache
// folder default.
func TestDefaultDir(t *testing.T) {
	t.Setenv(symcache.EnvDir, "/some/where")
	if d, err := symcache.DefaultDir(); err != nil || d != "/some/where" {
		t.Errorf("with %s: %q, %v", symcache.EnvDir, d, err)
	}
	t.Setenv(symcache.EnvDir, "")
	t.Setenv("XDG_CACHE_HOME", "/xdg")
	if d, err := symcache.DefaultDir(); err != nil || d != "/xdg/symedit" {
		t.Errorf("default: %q, %v", d, err)
	}
}

// withSum returns an entry file with body and a header line holding its
// correct checksum.
func withSum(body []byte) []byte {
	sum := crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli))
	return append(fmt.Appendf(nil, "symedit-pack %08x\n", sum), body...)
}

// FuzzGet checks that Get never panics on an entry file with a valid
// checksum and any body, and that whatever it returns keeps the
// invariants Extract's symbols keep (parents before children, byte
// ranges inside the file).
func FuzzGet(f *testing.F) {
	path, syms := realSymbols(f)
	k, now := oldKey(f, path)
	seedDir := f.TempDir()
	c := open(f, seedDir, symcache.Options{Build: "b"})
	if err := c.Put(k, now, syms[:3]); err != nil || c.Flush() != nil {
		f.Fatal(err)
	}
	data, err := os.ReadFile(c.EntryPath(k))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data[bytes.IndexByte(data, '\n')+1:])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, body []byte) {
		c := open(t, t.TempDir(), symcache.Options{Build: "b"})
		if err := os.MkdirAll(filepath.Dir(c.EntryPath(k)), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(c.EntryPath(k), withSum(body), 0o600); err != nil {
			t.Fatal(err)
		}
		got, ok := c.Get(k)
		if !ok {
			return
		}
		for i, s := range got {
			if s.Parent < -1 || s.Parent >= i || s.StartByte < 0 || s.StartByte > s.EndByte || int64(s.EndByte) > k.Size {
				t.Fatalf("symbol %d breaks the invariants: %+v", i, s)
			}
		}
	})
}

// TestEntryNotRegular: a named pipe or a folder where an entry's file
// should be (a foreign file in the index folder) is a miss, at once (a
// pipe with no writer never blocks the lookup), and a Put replaces it.
func TestEntryNotRegular(t *testing.T) {
	path, syms := realSymbols(t)
	k, now := oldKey(t, path)
	for _, kind := range []string{"fifo", "folder"} {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			c := open(t, dir, symcache.Options{})
			name := c.EntryPath(k)
			if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
				t.Fatal(err)
			}
			var err error
			if kind == "fifo" {
				err = syscall.Mkfifo(name, 0o644)
			} else {
				err = os.Mkdir(name, 0o755)
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := c.Get(k); ok {
				t.Fatalf("a %s was read as an entry", kind)
			}
			if kind == "folder" {
				return // a Put cannot rename over a folder; the lookup still missed
			}
			if err := c.Put(k, now, syms); err != nil || c.Flush() != nil {
				t.Fatal(err)
			}
			if got, ok := open(t, dir, symcache.Options{}).Get(k); !ok || !reflect.DeepEqual(got, syms) {
				t.Error("the pack was not written over the pipe")
			}
		})
	}
}

// TestRoundTripSums checks that an entry's SHA-256 sums come back as
// stored (the file's and one per symbol), that an entry stored without
// them comes back without them, and that a sum of the wrong length is
// refused when read back as a corrupt entry.
func TestRoundTripSums(t *testing.T) {
	dir := t.TempDir()
	path, syms := realSymbols(t)
	k, now := oldKey(t, path)
	c := open(t, dir, symcache.Options{Build: "b1"})
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return string(h[:]) }
	e := symcache.Entry{Symbols: syms, SHA256: sum("file")}
	for _, s := range syms {
		e.SymbolSHA256 = append(e.SymbolSHA256, sum(s.NamePath))
	}
	if err := c.PutEntry(k, now, e); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.GetEntry(k); !ok || !reflect.DeepEqual(got, e) {
		t.Fatalf("GetEntry = %v; the entry put does not come back", ok)
	}
	if err := c.Put(k, now, syms); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.GetEntry(k); !ok || got.SHA256 != "" || got.SymbolSHA256 != nil || !reflect.DeepEqual(got.Symbols, syms) {
		t.Fatalf("an entry put without sums: %v, sums %q %d", ok, got.SHA256, len(got.SymbolSHA256))
	}
	bad := e
	bad.SHA256 = "short"
	if err := c.PutEntry(k, now, bad); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.GetEntry(k); ok || c.Stats().Corrupt != 1 {
		t.Fatalf("a 5-byte sum read back: ok %v, stats %+v", ok, c.Stats())
	}
}

// TestPutWritesBehind checks the writes Put starts in the background
// once it holds maxPending bytes (here every Put): from many goroutines
// at once, each entry is found by Get as soon as it is put, while it is
// being written and after; Flush waits for the background writes and
// writes the rest; another Cache on the folder then finds every entry,
// one pack per group (the folders' parent: 12 folders in 4 parents), no
// temporary file left.
func TestPutWritesBehind(t *testing.T) {
	dir := t.TempDir()
	path, syms := realSymbols(t)
	base, now := oldKey(t, path)
	c := open(t, dir, symcache.Options{Build: "b1"})
	symcache.SetMaxPending(c, 1)
	const folders, files, groups = 12, 15, 4
	key := func(f, i int) symcache.Key {
		k := base
		k.Path = filepath.Join("/src", "g"+strconv.Itoa(f%groups), "pkg"+strconv.Itoa(f), "f"+strconv.Itoa(i)+".py")
		k.Inode = uint64(f*files + i + 1)
		return k
	}
	var wg sync.WaitGroup
	errs := make(chan string, folders*files)
	for f := range folders {
		wg.Go(func() {
			for i := range files {
				k := key(f, i)
				if err := c.Put(k, now, syms[:1+(f+i)%len(syms)]); err != nil {
					errs <- err.Error()
				}
				if got, ok := c.Get(k); !ok || len(got) != 1+(f+i)%len(syms) {
					errs <- fmt.Sprintf("%s: Get right after Put = %d symbols, %v", k.Path, len(got), ok)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	other := open(t, dir, symcache.Options{Build: "b1"})
	for f := range folders {
		for i := range files {
			if got, ok := other.Get(key(f, i)); !ok || !reflect.DeepEqual(got, syms[:1+(f+i)%len(syms)]) {
				t.Errorf("%s: Get after Flush = %d symbols, %v", key(f, i).Path, len(got), ok)
			}
		}
	}
	packs := entryFiles(t, dir)
	if len(packs) != groups {
		t.Errorf("%d files in the index, want %d packs: %v", len(packs), groups, packs)
	}
	for _, p := range packs {
		if strings.HasPrefix(filepath.Base(p), ".tmp-") {
			t.Errorf("temporary file left: %s", p)
		}
	}
	if st := c.Stats(); st.Writes != folders*files || st.Failed != 0 {
		t.Errorf("stats %+v", st)
	}
}

// BenchmarkPutGetOneGroup puts and then gets the entries of 4,000 files
// of one group (40 folders of 100 files under one parent), as a cold
// run over a large folder does before its pack is written: the lookups
// inside a group are by name, so the cost per file does not grow with
// the group.
func BenchmarkPutGetOneGroup(b *testing.B) {
	path, syms := realSymbols(b)
	base, now := oldKey(b, path)
	keys := make([]symcache.Key, 4000)
	for i := range keys {
		keys[i] = base
		keys[i].Path = filepath.Join("/src", "pkg"+strconv.Itoa(i/100), "f"+strconv.Itoa(i)+".py")
	}
	for b.Loop() {
		c := open(b, b.TempDir(), symcache.Options{Build: "b1"})
		for _, k := range keys {
			if err := c.Put(k, now, syms[:1]); err != nil {
				b.Fatal(err)
			}
			if _, ok := c.Get(k); !ok {
				b.Fatal("missed")
			}
		}
	}
}

// TestFlushManyGroups: Flush writes the packs of many groups (at once,
// one per CPU) and one group whose pack cannot be written (a folder
// with a file in it stands at its name) fails alone: Flush returns its
// error, counts its entries as failed, and every other group's entries
// are on disk with no temporary file left.
func TestFlushManyGroups(t *testing.T) {
	dir := t.TempDir()
	path, syms := realSymbols(t)
	base, now := oldKey(t, path)
	c := open(t, dir, symcache.Options{Build: "b1"})
	const groups, files, blocked = 40, 3, 17
	key := func(g, i int) symcache.Key {
		k := base
		k.Path = filepath.Join("/src", "g"+strconv.Itoa(g), "pkg", "f"+strconv.Itoa(i)+".py")
		k.Inode = uint64(g*files + i + 1)
		return k
	}
	pack := c.PackPath(filepath.Dir(key(blocked, 0).Path))
	if err := os.MkdirAll(pack, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pack, "keep"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for g := range groups {
		for i := range files {
			if err := c.Put(key(g, i), now, syms[:1+(g+i)%len(syms)]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := c.Flush(); err == nil {
		t.Fatal("Flush wrote a pack over a folder")
	}
	if st := c.Stats(); st.Failed != files {
		t.Errorf("failed %d, want the blocked group's %d entries", st.Failed, files)
	}
	other := open(t, dir, symcache.Options{Build: "b1"})
	for g := range groups {
		for i := range files {
			got, ok := other.Get(key(g, i))
			if want := g != blocked; ok != want || want && !reflect.DeepEqual(got, syms[:1+(g+i)%len(syms)]) {
				t.Errorf("%s: Get after Flush = %d symbols, %v; want found %v", key(g, i).Path, len(got), ok, want)
			}
		}
	}
	for _, p := range entryFiles(t, dir) {
		if strings.HasPrefix(filepath.Base(p), ".tmp-") {
			t.Errorf("temporary file left: %s", p)
		}
	}
}

// TestHolds: Holds is false for a folder whose group has no pack, whose
// pack is another build's or corrupt, and for entries only put in this
// Cache (a cold run's own), written or not; it is true once the group's
// pack holds an entry of this build when a Cache first reads it, for
// every folder of the group and no other.
func TestHolds(t *testing.T) {
	dir := t.TempDir()
	path, syms := realSymbols(t)
	k, now := oldKey(t, path)
	k.Path = "/src/a/x.py"
	c := open(t, dir, symcache.Options{Build: "b1"})
	if c.Holds("/src/a") {
		t.Fatal("an empty index holds /src/a")
	}
	if err := c.Put(k, now, syms); err != nil {
		t.Fatal(err)
	}
	if c.Holds("/src/a") || c.Holds("/src/b") {
		t.Error("an entry only put counts as held")
	}
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	// The Cache that wrote the group's pack found it cold: it still
	// does, and Get still finds what it wrote.
	if c.Holds("/src/a") {
		t.Error("a group this Cache found empty and then wrote counts as held")
	}
	if _, ok := c.Get(k); !ok {
		t.Error("the entry written is not found by the Cache that wrote it")
	}
	r := open(t, dir, symcache.Options{Build: "b1"})
	for folder, want := range map[string]bool{"/src/a": true, "/src/b": true, "/src": false, "/other/a": false} {
		if got := r.Holds(folder); got != want {
			t.Errorf("Holds(%s) = %v after a flush, want %v", folder, got, want)
		}
	}
	if open(t, dir, symcache.Options{Build: "b2"}).Holds("/src/a") {
		t.Error("another build's pack is held")
	}
	pack := r.PackPath("/src/a")
	if err := os.WriteFile(pack, []byte("not a pack\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if open(t, dir, symcache.Options{Build: "b1"}).Holds("/src/a") {
		t.Error("a corrupt pack is held")
	}
}
