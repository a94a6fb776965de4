package app

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/symedit/symedit/internal/goroot"
	"github.com/symedit/symedit/internal/symcache"
)

// TestMain points the symbol index of every test in this package (and of
// the processes they start) at a temporary folder, so that tests never
// write to the user's cache folder; tests that look at the index set
// their own with t.Setenv.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "symedit-index-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv(symcache.EnvDir, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// indexStats is one run's --cache-stats line.
type indexStats struct{ fromIndex, parsed, written, corrupt, racy int }

var statsLine = regexp.MustCompile(`symedit: index: (\d+) from the index, (\d+) parsed, (\d+) written, (\d+) corrupt, (\d+) too recent to store`)

// runSymbols runs `symedit symbols --cache-stats args...` and returns its
// standard output and the counts it printed.
func runSymbols(t *testing.T, args ...string) (string, indexStats) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(append([]string{"symedit", "symbols", "--cache-stats"}, args...), strings.NewReader(""), &out, &errb)
	if code != ExitOK {
		t.Fatalf("symbols %v: exit %d\n%s", args, code, errb.String())
	}
	m := statsLine.FindStringSubmatch(errb.String())
	if m == nil {
		t.Fatalf("no stats line in %q", errb.String())
	}
	n := make([]int, 5)
	for i := range n {
		n[i], _ = strconv.Atoi(m[i+1])
	}
	return out.String(), indexStats{n[0], n[1], n[2], n[3], n[4]}
}

// TestSymbolsIndexWarmEqualsCold runs `symbols --json` and the outline
// over a real tree (Go's net/http and the repository's testdata/src, all
// four languages) with an empty index, then again: the warm run's output
// is byte-identical to the cold run's and to --no-cache's, and the warm
// run parsed nothing.
func TestSymbolsIndexWarmEqualsCold(t *testing.T) {
	src := goroot.Src()
	if src == "" {
		t.Skip("no go command")
	}
	t.Setenv(symcache.EnvDir, t.TempDir())
	tree := []string{filepath.Join(src, "net", "http"), "../../../../testdata/src"}
	// The text output names no language: a file of each, by extension.
	ext := map[string]string{"go": ".go", "python": ".py", "java": ".java", "typescript": ".ts", "tsx": ".tsx"}
	for _, mode := range [][]string{{"--json"}, nil} {
		args := append(mode, tree...)
		cold, cs := runSymbols(t, args...)
		warm, ws := runSymbols(t, args...)
		plain, ps := runSymbols(t, append([]string{"--no-cache"}, args...)...)
		for _, lang := range []string{"go", "python", "java", "typescript", "tsx"} {
			if !strings.Contains(cold, `"language":"`+lang+`"`) && !strings.Contains(cold, ext[lang]+":") {
				t.Errorf("%v: no %s file in the tree", mode, lang)
			}
		}
		if cold != warm || cold != plain {
			t.Errorf("%v: outputs differ: cold %d bytes, warm %d, --no-cache %d", mode, len(cold), len(warm), len(plain))
		}
		files := cs.parsed
		if mode == nil { // the outline run follows the JSON run: the index is warm
			files = cs.fromIndex
			if cs.parsed != 0 {
				t.Errorf("outline after --json parsed %d files", cs.parsed)
			}
		}
		if files < 50 || ws.parsed != 0 || ws.fromIndex != files || ps.parsed != files || ps.fromIndex != 0 {
			t.Errorf("%v: cold %+v, warm %+v, --no-cache %+v", mode, cs, ws, ps)
		}
	}
}

// copyTree copies the repository's testdata/src into a new folder and
// waits until the copies are older than the racily-clean margin, so the
// first run stores them.
func copyTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	err := filepath.WalkDir("../../../../testdata/src", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, filepath.Base(p)), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * symcache.Margin) // not a measurement: the files must be older than the margin
	return dir
}

// TestSymbolsIndexChangedFiles checks that the index is never stale: a
// file rewritten with the same size and its modification time restored
// is parsed again (its change time moved) and shows its new symbols; a
// touched file is parsed again; a file whose modification time is not
// older than the run (racily clean) is parsed on every run and never
// stored; the others come from the index.
func TestSymbolsIndexChangedFiles(t *testing.T) {
	t.Setenv(symcache.EnvDir, t.TempDir())
	dir := copyTree(t)
	_, s1 := runSymbols(t, dir)
	if s1.parsed != 24 || s1.written != 24 {
		t.Fatalf("cold: %+v", s1)
	}

	// Same size, modification time restored.
	py := filepath.Join(dir, "process.py")
	fi, err := os.Stat(py)
	if err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile(py)
	if err != nil || !bytes.Contains(old, []byte("def active_children(")) {
		t.Fatalf("process.py: %v", err)
	}
	if err := os.WriteFile(py, bytes.Replace(old, []byte("def active_children("), []byte("def access_children("), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(py, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if fi2, _ := os.Stat(py); fi2.Size() != fi.Size() || !fi2.ModTime().Equal(fi.ModTime()) {
		t.Fatal("size or time not restored")
	}
	out, s2 := runSymbols(t, dir)
	if s2.parsed != 1 || s2.fromIndex != 23 || !strings.Contains(out, "access_children") || strings.Contains(out, "active_children") {
		t.Errorf("restored time: %+v\n%s", s2, out)
	}

	// process.py was parsed within the margin of its change: it may not
	// be stored yet. Let it age and store it.
	time.Sleep(2 * symcache.Margin)
	if _, s := runSymbols(t, dir); s.parsed > 1 {
		t.Errorf("after the restored time: %+v", s)
	}
	if _, s := runSymbols(t, dir); s.parsed != 0 {
		t.Errorf("stored: %+v", s)
	}

	// Touched: a new modification time, an hour ago.
	java := filepath.Join(dir, "Inventory.java")
	hourAgo := time.Now().Add(-time.Hour)
	if err := os.Chtimes(java, hourAgo, hourAgo); err != nil {
		t.Fatal(err)
	}
	if _, s3 := runSymbols(t, dir); s3.parsed != 1 || s3.fromIndex != 23 {
		t.Errorf("touched: %+v", s3)
	}

	// Racily clean: a modification time in the future is never older
	// than the run, so the file is parsed every time and never stored.
	ts := filepath.Join(dir, "scheduler.ts")
	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(ts, future, future); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if _, s := runSymbols(t, dir); s.racy < 1 || s.parsed < 1 || s.fromIndex > 23 {
			t.Errorf("racy run %d: %+v", i, s)
		}
	}
}

// TestSymbolsIndexCorrupt checks that damaged packs are ignored,
// counted (once per pack read), rewritten, and change nothing in the
// output. The 24 files of testdata/src live in 10 folders of one parent:
// one pack, whose 24 entries are all lost to its damage.
func TestSymbolsIndexCorrupt(t *testing.T) {
	cache := t.TempDir()
	t.Setenv(symcache.EnvDir, cache)
	tree := "../../../../testdata/src"
	cold, _ := runSymbols(t, "--json", tree)
	n := 0
	err := filepath.WalkDir(cache, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "pruned" {
			return err
		}
		n++
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(p, data[:len(data)-n], 0o644) // a different truncation each
	})
	if err != nil || n != 1 {
		t.Fatalf("%d packs, %v", n, err)
	}
	got, s := runSymbols(t, "--json", tree)
	if got != cold || s.corrupt != 1 || s.parsed != 24 || s.written != 24 {
		t.Errorf("corrupt run: %+v, same output %v", s, got == cold)
	}
	if got, s := runSymbols(t, "--json", tree); got != cold || s.parsed != 0 || s.corrupt != 0 {
		t.Errorf("after the rewrite: %+v", s)
	}
}
