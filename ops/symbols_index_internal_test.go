package ops

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/internal/symcache"
)

// Two versions of one file: in v1 alpha004 is at lines 1-2, in v2
// zulu004 is at 1-2 and alpha004 at 5-6. They are the same size, so that
// the size alone never tells them apart.
const (
	raceV1 = "def alpha004():\n    return 1\n\n\ndef beta004():\n    return 2\n"
	raceV2 = "def zulu004():\n    return 1\n\n\ndef alpha004():\n    return 2\n"
)

// raceTree makes dir/race/v1/f004.py and dir/race/v2/f004.py (raceV1 and
// raceV2) and the folder link dir/race/cur -> v1, waits until they are
// older than the racily-clean margin so that a run stores their entries,
// and returns a Workspace confined to dir with its own index.
func raceTree(t *testing.T) (*Workspace, string) {
	t.Helper()
	dir := t.TempDir()
	for name, content := range map[string]string{"race/v1/f004.py": raceV1, "race/v2/f004.py": raceV2, "race/other/g.py": raceV1} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("v1", filepath.Join(dir, "race", "cur")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * symcache.Margin) // not a measurement: the files must be older than the margin to be stored
	return raceWorkspace(t, dir), dir
}

// holdGroup stores the entry of race/other/g.py, so that the index holds
// entries of the group of race/v1 and race/v2 (their parent, race): a
// later run stats each of their files for a lookup
// (symcache.Cache.Holds), where a cold run reads them without one.
func holdGroup(t *testing.T, w *Workspace) {
	t.Helper()
	if _, st := outline(t, w, SymbolsRequest{}, "race/other/g.py"); st.Written != 1 {
		t.Fatalf("race/other/g.py not stored: %+v", st)
	}
}

// raceWorkspace opens a Workspace confined to dir with an index of its
// own, empty.
func raceWorkspace(t *testing.T, dir string) *Workspace {
	t.Helper()
	w, err := Open(Options{Root: dir, Dir: dir, IndexDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

// pointLink makes the link dir/race/cur point at target, replacing it
// with one rename, as a deployment flips a "current" link.
func pointLink(t *testing.T, dir, target string) {
	t.Helper()
	tmp := filepath.Join(dir, "race", "cur.new")
	if err := os.Symlink(target, tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "race", "cur")); err != nil {
		t.Fatal(err)
	}
}

// swap exchanges the names a and b (files or folders) below dir with
// three renames.
func swap(t *testing.T, dir, a, b string) {
	t.Helper()
	a, b = filepath.Join(dir, filepath.FromSlash(a)), filepath.Join(dir, filepath.FromSlash(b))
	tmp := a + ".swap"
	for _, r := range [][2]string{{a, tmp}, {b, a}, {tmp, b}} {
		if err := os.Rename(r[0], r[1]); err != nil {
			t.Fatal(err)
		}
	}
}

// outline runs Symbols over paths and returns the result's files as JSON
// and the run's index counts.
func outline(t *testing.T, w *Workspace, req SymbolsRequest, paths ...string) (string, IndexStats) {
	t.Helper()
	req.Paths = paths
	res, err := w.Symbols(context.Background(), req)
	if err != nil {
		t.Fatalf("%v: %v", paths, err)
	}
	js, err := json.Marshal(res.Files)
	if err != nil {
		t.Fatal(err)
	}
	return string(js), res.Index
}

// outlineRanges returns a file's symbols from a Symbols JSON as "name start-end".
func outlineRanges(t *testing.T, js string) string {
	t.Helper()
	var files []SymbolsFile
	if err := json.Unmarshal([]byte(js), &files); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range files {
		for _, s := range f.Symbols {
			fmt.Fprintf(&b, "%s %d-%d; ", s.NamePath, s.Start.Line, s.LastLine())
		}
	}
	return b.String()
}

// A folder link repointed between a file's stat (the index lookup) and
// its read must not leave the other target's symbols keyed to this one:
// afterwards race/v1/f004.py, never modified, is outlined from its own
// content, by the index as without it, on every later run.
func TestSymbolsIndexLinkFlippedBetweenStatAndRead(t *testing.T) {
	for _, held := range []bool{false, true} {
		t.Run(fmt.Sprintf("group held %v", held), func(t *testing.T) { linkFlippedBetweenStatAndRead(t, held) })
	}
}

// linkFlippedBetweenStatAndRead is TestSymbolsIndexLinkFlippedBetweenStatAndRead
// over a cold index (no lookup stat) or one that holds the files' group
// (held: the link is repointed between the lookup's stat and the read).
func linkFlippedBetweenStatAndRead(t *testing.T, held bool) {
	w, dir := raceTree(t)
	if held {
		holdGroup(t, w)
	}
	flips := 0
	raced, st := outline(t, w, SymbolsRequest{afterStat: func(string) {
		flips++
		pointLink(t, dir, "v2")
	}}, "race/cur/f004.py")
	if flips != 1 || held != (st.LookedUp == 1) {
		t.Fatalf("the hook ran %d times; %d lookups", flips, st.LookedUp)
	}
	// The raced run outlines what it read; which target that was is the
	// race's to decide, but it must be one of them.
	if got := outlineRanges(t, raced); got != "zulu004 1-2; alpha004 5-6; " && got != "alpha004 1-2; beta004 5-6; " {
		t.Errorf("raced run: %s", got)
	}
	for run := range 2 {
		for _, p := range []string{"race/v1/f004.py", "race/cur/f004.py", "race/v2/f004.py"} {
			warm, st := outline(t, w, SymbolsRequest{}, p)
			plain, _ := outline(t, w, SymbolsRequest{NoCache: true}, p)
			if warm != plain {
				t.Errorf("run %d, %s: the index gave %s, the file holds %s (stats %+v)", run, p, outlineRanges(t, warm), outlineRanges(t, plain), st)
			}
		}
	}
	if got, _ := outline(t, w, SymbolsRequest{}, "race/v1/f004.py"); outlineRanges(t, got) != "alpha004 1-2; beta004 5-6; " {
		t.Errorf("race/v1/f004.py: %s", outlineRanges(t, got))
	}
}

// Warm output equals --no-cache output, byte for byte, after each way a
// file can change under a path between the index lookup's stat and the
// read: a folder link repointed, two folders swapped by renames, two
// files swapped by renames, and a rewrite of the same size with the
// modification time set back (os.Chtimes; the change time moves, and the
// index keys by it, so that rewrite gets a new key). Each is compared
// after the race is undone, when the first file is back under its old
// name (with its old identity, but for the renamed and rewritten files,
// whose change times moved), and with the race's change made again.
func TestSymbolsIndexWarmEqualsNoCacheAfterRaces(t *testing.T) {
	rewrite := func(t *testing.T, dir string) {
		p := filepath.Join(dir, "race", "v1", "f004.py")
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		b := []byte(strings.Replace(raceV1, "beta004", "gamma04", 1))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
		if now, err := os.Stat(p); err != nil || now.Size() != fi.Size() || !now.ModTime().Equal(fi.ModTime()) {
			t.Fatalf("size or time not restored: %v", err)
		}
	}
	cases := []struct {
		name       string
		race, undo func(t *testing.T, dir string)
	}{
		{"folder link repointed",
			func(t *testing.T, dir string) { pointLink(t, dir, "v2") },
			func(t *testing.T, dir string) { pointLink(t, dir, "v1") }},
		{"folders swapped",
			func(t *testing.T, dir string) { swap(t, dir, "race/v1", "race/v2") },
			func(t *testing.T, dir string) { swap(t, dir, "race/v1", "race/v2") }},
		{"files swapped",
			func(t *testing.T, dir string) { swap(t, dir, "race/v1/f004.py", "race/v2/f004.py") },
			func(t *testing.T, dir string) { swap(t, dir, "race/v1/f004.py", "race/v2/f004.py") }},
		{"same size, same modification time", rewrite, func(*testing.T, string) {}},
	}
	paths := []string{"race/cur/f004.py", "race/v1/f004.py", "race/v2/f004.py"}
	for _, c := range cases {
		for _, held := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, group held %v", c.name, held), func(t *testing.T) {
				w, dir := raceTree(t)
				if held {
					holdGroup(t, w)
				}
				raced := 0
				_, st := outline(t, w, SymbolsRequest{afterStat: func(string) {
					if raced++; raced == 1 {
						c.race(t, dir)
					}
				}}, paths[0])
				if raced != 1 || held != (st.LookedUp == 1) {
					t.Fatalf("the hook ran %d times; %d lookups", raced, st.LookedUp)
				}
				compare := func(when string) {
					for run := range 2 {
						for _, p := range append(paths, "race") {
							warm, _ := outline(t, w, SymbolsRequest{}, p)
							plain, _ := outline(t, w, SymbolsRequest{NoCache: true}, p)
							if warm != plain {
								t.Errorf("%s, run %d, %s:\nindex      %s\n--no-cache %s", when, run, p, warm, plain)
							}
						}
					}
				}
				// Undone first: a run over the raced state would parse the
				// file now under the raced name and overwrite its entry,
				// hiding what the race stored.
				c.undo(t, dir)
				compare("undone")
				c.race(t, dir)
				compare("raced again")
			})
		}
	}
}

// An agent that takes a symbol's lines from a warm outline and edits
// them with `lines` edits that symbol, after a race between the index's
// stat and the read: the outline it got was the file's own.
func TestLinesFromAWarmOutlineAfterARace(t *testing.T) {
	w, dir := raceTree(t)
	outline(t, w, SymbolsRequest{afterStat: func(string) { pointLink(t, dir, "v2") }}, "race/cur/f004.py")
	js, _ := outline(t, w, SymbolsRequest{}, "race/v1/f004.py")
	var files []SymbolsFile
	if err := json.Unmarshal([]byte(js), &files); err != nil {
		t.Fatal(err)
	}
	first, last := 0, 0
	for _, s := range files[0].Symbols {
		if s.NamePath == "alpha004" {
			first, last = s.Start.Line, s.LastLine()
		}
	}
	if first == 0 {
		t.Fatalf("no alpha004 in %s", outlineRanges(t, js))
	}
	_, err := w.Lines(context.Background(), LinesRequest{Path: "race/v1/f004.py",
		Edits: LineEdits{{StartLine: first, EndLine: last, NewContent: "def alpha004():\n    return 10\n"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(raceV1, "return 1\n", "return 10\n", 1)
	if got, err := os.ReadFile(filepath.Join(dir, "race", "v1", "f004.py")); err != nil || string(got) != want {
		t.Errorf("lines %d-%d from the outline wrote:\n%s\nwant:\n%s", first, last, got, want)
	}
}

// The writing operations, and show, locate a symbol in the file they
// read, never through the index: with an entry that holds another file's
// symbols under this file's exact key (what a stale index would hold),
// `symbols` is misled, and chunk, lines and show are not.
func TestWritesNeverTrustTheIndex(t *testing.T) {
	w, dir := raceTree(t)
	ctx := context.Background()
	other, err := w.Symbols(ctx, SymbolsRequest{Path: "race/v2/f004.py", NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	// Plant the other file's symbols under race/v1/f004.py's key.
	real, fi, err := w.files.Stat("race/v1/f004.py")
	if err != nil {
		t.Fatal(err)
	}
	c, err := symcache.Open(symcache.Options{Dir: w.opt.IndexDir})
	if err != nil {
		t.Fatal(err)
	}
	planted := symcache.Entry{SHA256: unhex(t, other.Files[0].SHA256)}
	for _, s := range other.Files[0].Symbols {
		planted.Symbols = append(planted.Symbols, s.Symbol)
		planted.SymbolSHA256 = append(planted.SymbolSHA256, unhex(t, s.SHA256))
	}
	if err := c.PutEntry(symcache.KeyOf(real, "python", fi), time.Now(), planted); err != nil || c.Stats().Writes != 1 || c.Flush() != nil {
		t.Fatalf("planting the entry: %v, %+v", err, c.Stats())
	}
	if js, st := outline(t, w, SymbolsRequest{}, "race/v1/f004.py"); outlineRanges(t, js) != "zulu004 1-2; alpha004 5-6; " || st.Hits != 1 {
		t.Fatalf("the planted entry is not served: %s %+v", outlineRanges(t, js), st)
	}

	show, err := w.Show(ctx, ShowRequest{Location: "race/v1/f004.py::alpha004"})
	if err != nil || show.FirstLine != 1 || show.LastLine != 2 {
		t.Errorf("show alpha004: lines %d-%d (%v), want 1-2", show.FirstLine, show.LastLine, err)
	}
	ch, err := w.Chunk(ctx, ChunkRequest{Location: "race/v1/f004.py::alpha004",
		Chunks: Chunks{{OldLines: []string{"    return 1"}, NewLines: []string{"    return 11"}}}})
	if err != nil || ch.Symbol == nil || ch.Symbol.Start.Line != 1 {
		t.Fatalf("chunk alpha004: %v, %+v", err, ch)
	}
	if _, err := w.Lines(ctx, LinesRequest{Path: "race/v1/f004.py",
		Edits: LineEdits{{StartLine: 5, EndLine: 6, NewContent: "def beta004():\n    return 22\n"}}}); err != nil {
		t.Fatal(err)
	}
	want := "def alpha004():\n    return 11\n\n\ndef beta004():\n    return 22\n"
	if got, err := os.ReadFile(filepath.Join(dir, "race", "v1", "f004.py")); err != nil || string(got) != want {
		t.Errorf("after chunk and lines:\n%s\nwant:\n%s", got, want)
	}
	// Written, the file has a new identity: the planted entry is never
	// served again.
	warm, _ := outline(t, w, SymbolsRequest{}, "race/v1/f004.py")
	if plain, _ := outline(t, w, SymbolsRequest{NoCache: true}, "race/v1/f004.py"); warm != plain {
		t.Errorf("after the writes: index %s, file %s", outlineRanges(t, warm), outlineRanges(t, plain))
	}
}

// unhex returns the raw bytes of a SHA-256 in hexadecimal digits, as the
// index stores it.
func unhex(t *testing.T, h string) string {
	t.Helper()
	b, err := hex.DecodeString(h)
	if err != nil || len(b) != 32 {
		t.Fatalf("not a SHA-256: %q", h)
	}
	return string(b)
}

// A warm run opens no file whose entry hits, not even for the walk's
// binary and size checks, and still skips the binary and the too large
// files exactly as a run without the index does: the same files, the
// same summary, the same counts by reason.
func TestSymbolsIndexWarmOpensNothing(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"a/one.py": raceV1, "a/two.py": raceV2, "a/b/three.py": raceV1,
		"a/bin.py": "x = 1\x00\n", "a/big.py": "x = 1\n", "a/notes.txt": "not code\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Truncate(filepath.Join(dir, "a", "big.py"), edit.MaxFileSize+1); err != nil { // sparse: over the limit by size alone
		t.Fatal(err)
	}
	time.Sleep(2 * symcache.Margin) // not a measurement: the files must be older than the margin to be stored
	w := raceWorkspace(t, dir)
	run := func(noCache bool) (*SymbolsResult, string) {
		t.Helper()
		res, err := w.Symbols(context.Background(), SymbolsRequest{Path: "a", NoCache: noCache})
		if err != nil {
			t.Fatal(err)
		}
		js, err := json.Marshal(res.Files)
		if err != nil {
			t.Fatal(err)
		}
		return res, string(js)
	}
	plain, plainJS := run(true)
	cold, coldJS := run(false)
	warm, warmJS := run(false)
	want := "3 file(s); skipped: 1 binary, 1 too large, 1 unsupported language"
	for name, r := range map[string]*SymbolsResult{"no index": plain, "cold": cold, "warm": warm} {
		if r.Summary != want {
			t.Errorf("%s: summary %q, want %q", name, r.Summary, want)
		}
	}
	if coldJS != plainJS || warmJS != plainJS {
		t.Errorf("listings differ:\nno index %s\ncold     %s\nwarm     %s", plainJS, coldJS, warmJS)
	}
	if st := cold.Index; st.Parsed != 3 || st.Checked != 5 || st.Written != 3 {
		t.Errorf("cold: %+v; want 3 parsed, 5 checked (3 listed, 2 skipped), 3 written", st)
	}
	if st := warm.Index; st.Hits != 3 || st.Parsed != 0 || st.Checked != 2 {
		t.Errorf("warm: %+v; want 3 hits and only the binary and the large file checked", st)
	}
}
