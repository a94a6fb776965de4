package ops_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/symedit/symedit/internal/symcache"
	"github.com/symedit/symedit/ops"
	"github.com/symedit/symedit/symbols"
)

// expected reads testdata/symbols/NAME.expect: one "name_path kind
// start_line end_line" per symbol, written by hand.
func expected(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "symbols", name+".expect"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, strings.Join(strings.Fields(l), " "))
		}
	}
	return out
}

// symbolsOptions opens a Workspace on dir with its own symbol index.
func symbolsWorkspace(t *testing.T, dir, index string) *ops.Workspace {
	t.Helper()
	w, err := ops.Open(ops.Options{Root: dir, Dir: dir, IndexDir: index})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

// The symbols of every fixture, found by walking the folder, are the
// hand-written expectations, in path order; the walk skips the licences
// and the README and says so.
func TestSymbolsFixtures(t *testing.T) {
	_, dir := tree(t, map[string]string{})
	w := symbolsWorkspace(t, dir, t.TempDir())
	res, err := w.Symbols(context.Background(), ops.SymbolsRequest{Path: "src", WalkOptions: ops.WalkOptions{Jobs: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || !res.Walked || res.Summary != "24 file(s); skipped: 8 unsupported language" || len(res.Files) != 24 {
		t.Fatalf("result %+v", res)
	}
	for _, f := range res.Files {
		var got []string
		for _, s := range f.Symbols {
			got = append(got, fmt.Sprintf("%s %s %d %d", s.NamePath, s.Kind, s.Start.Line, s.LastLine()))
		}
		if want := expected(t, filepath.Base(f.Path)); !slices.Equal(got, want) {
			t.Errorf("%s (%s):\n got %q\nwant %q", f.Path, f.Language, got, want)
		}
	}
	if res.Files[0].Path != "src/c/shapes.c" || res.Files[0].Language != "c" {
		t.Errorf("first file %s (%s)", res.Files[0].Path, res.Files[0].Language)
	}
}

// A second run takes every file from the index, parsing none, and its
// result marshals to the same bytes as the first (cold) run's and as a
// run without the index.
func TestSymbolsIndexWarmEqualsCold(t *testing.T) {
	_, dir := tree(t, map[string]string{})
	time.Sleep(2 * symcache.Margin) // not a measurement: the files must be older than the racily-clean margin to be stored
	w := symbolsWorkspace(t, dir, t.TempDir())
	run := func(noCache bool) (string, ops.IndexStats) {
		res, err := w.Symbols(context.Background(), ops.SymbolsRequest{Path: "src/**/*.{py,go,java,ts,tsx}", NoCache: noCache})
		if err != nil {
			t.Fatal(err)
		}
		js, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		return string(js), res.Index
	}
	cold, st1 := run(false)
	warm, st2 := run(false)
	none, st3 := run(true)
	if st1.Parsed != 7 || st1.Written != 7 || st2.Hits != 7 || st2.Parsed != 0 || st3.Parsed != 7 || st3.Dir != "" {
		t.Errorf("index stats: cold %+v, warm %+v, no cache %+v", st1, st2, st3)
	}
	if warm != cold || none != cold {
		t.Errorf("outputs differ:\ncold %s\nwarm %s\nnone %s", cold, warm, none)
	}
	if !strings.Contains(cold, `{"path":"src/python/process.py","language":"python","sha256":"2ac367b871c056c00b51283464d671940f0fb9e518972e960a99153c1df9b807","symbols":[{"name":"current_process","name_path":"current_process","kind":"function"`) {
		t.Errorf("JSON %.300s", cold)
	}
}

// OnFile receives every file in path order, however many run at once,
// and Files stays empty; a file that cannot be read is reported in its
// place with its error, the others still listed, and the result carries
// the first one's error (in path order); the files are left as they were.
func TestSymbolsOnFileAndErrors(t *testing.T) {
	w, dir := tree(t, map[string]string{"notes.txt": "hello\n"})
	before, err := os.ReadFile(filepath.Join(dir, "src/go/slog_value.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, jobs := range []int{1, 4} {
		var got []string
		res, err := w.Symbols(context.Background(), ops.SymbolsRequest{
			Path: "src/python", Paths: []string{"nowhere.py", "notes.txt", "src/go/slog_value.go"}, NoCache: true,
			WalkOptions: ops.WalkOptions{Jobs: jobs},
			OnFile: func(f *ops.SymbolsFile, n int) error {
				if n != 5 {
					t.Errorf("n %d", n)
				}
				code := ops.Code("")
				if f.Error != nil {
					code = f.Error.Code
				}
				got = append(got, fmt.Sprintf("%s %s %d %s", f.Path, f.Language, len(f.Symbols), code))
				return nil
			}})
		if ops.CodeOf(err) != ops.CodeUnsupported || res.OK || len(res.Files) != 0 || !strings.Contains(err.Error(), "notes.txt") {
			t.Errorf("jobs %d: error %v, result %+v", jobs, err, res)
		}
		// A walk sorts the files by path; the counts are the .expect files'.
		want := []string{"notes.txt  0 UNSUPPORTED_LANGUAGE", "nowhere.py  0 ERROR", "src/go/slog_value.go go 42 ",
			"src/python/contextlib_excerpt.py python 45 ", "src/python/process.py python 37 "}
		if !slices.Equal(got, want) {
			t.Errorf("jobs %d:\n got %q\nwant %q", jobs, got, want)
		}
	}
	sameFile(t, dir, "src/go/slog_value.go", before)
	for _, path := range []string{"src/**/*.{go", "nothing/**/*.go", "../*.go"} {
		res, err := w.Symbols(context.Background(), ops.SymbolsRequest{Path: path, NoCache: true})
		if err == nil || res.OK || res.Error == nil || len(res.Files) != 0 {
			t.Errorf("%s: error %v, result %+v", path, err, res)
		}
	}
}

// TestSymbolsSearch: Name (a substring, or a glob over the name path) and
// Kind keep the matching symbols, equal to filtering the full outline by
// hand, and leave out the files with none; a bad glob or an unknown kind
// is a usage error. Warm (from the index) and cold give the same answer.
func TestSymbolsSearch(t *testing.T) {
	_, dir := tree(t, map[string]string{})
	w := symbolsWorkspace(t, dir, t.TempDir())
	ctx := context.Background()
	all, err := w.Symbols(ctx, ops.SymbolsRequest{Path: "src"})
	if err != nil {
		t.Fatal(err)
	}
	search := func(name, kind string) map[string][]string {
		t.Helper()
		res, err := w.Symbols(ctx, ops.SymbolsRequest{Path: "src", Name: name, Kind: kind})
		if err != nil {
			t.Fatalf("%q %q: %v", name, kind, err)
		}
		got := map[string][]string{}
		for _, f := range res.Files {
			if len(f.Symbols) == 0 {
				t.Errorf("%q %q: %s listed with no symbol", name, kind, f.Path)
			}
			for _, s := range f.Symbols {
				got[f.Path] = append(got[f.Path], s.NamePath+" "+string(s.Kind))
			}
		}
		return got
	}
	byHand := func(keep func(symbols.Symbol) bool) map[string][]string {
		want := map[string][]string{}
		for _, f := range all.Files {
			for _, s := range f.Symbols {
				if keep(s.Symbol) {
					want[f.Path] = append(want[f.Path], s.NamePath+" "+string(s.Kind))
				}
			}
		}
		return want
	}
	for _, tt := range []struct {
		name, kind string
		keep       func(symbols.Symbol) bool
	}{
		{"start", "", func(s symbols.Symbol) bool { return strings.Contains(s.NamePath, "start") }},
		{"", "method", func(s symbols.Symbol) bool { return s.Kind == symbols.KindMethod }},
		{"run", "method", func(s symbols.Symbol) bool {
			return s.Kind == symbols.KindMethod && strings.Contains(s.NamePath, "run")
		}},
		{"BaseProcess/*", "", func(s symbols.Symbol) bool { ok, _ := path.Match("BaseProcess/*", s.NamePath); return ok }},
		{"*", "class", func(s symbols.Symbol) bool { return s.Kind == symbols.KindClass && !strings.Contains(s.NamePath, "/") }},
	} {
		want := byHand(tt.keep)
		if len(want) == 0 {
			t.Fatalf("%q %q: the fixtures have no such symbol", tt.name, tt.kind)
		}
		for run := range 2 { // the second from the index
			if got := search(tt.name, tt.kind); !reflect.DeepEqual(got, want) {
				t.Errorf("%q %q, run %d:\n got %v\nwant %v", tt.name, tt.kind, run, got, want)
			}
		}
	}
	for _, bad := range []ops.SymbolsRequest{{Path: "src", Name: "[x"}, {Path: "src", Kind: "func"}} {
		if _, err := w.Symbols(ctx, bad); ops.CodeOf(err) != ops.CodeUsage {
			t.Errorf("%+v: %v, want USAGE", bad, err)
		}
	}
}

// Render runs for exactly the files OnFile receives (a search leaves out
// the files without a match), and OnFile gets what it returned.
func TestSymbolsRenderForEachFileOnFileGets(t *testing.T) {
	_, dir := tree(t, map[string]string{})
	w := symbolsWorkspace(t, dir, t.TempDir())
	var rendered, received atomic.Int64
	var got []string
	res, err := w.Symbols(context.Background(), ops.SymbolsRequest{Path: "src", Name: "start", WalkOptions: ops.WalkOptions{Jobs: 3},
		Render: func(f *ops.SymbolsFile) []byte {
			rendered.Add(1)
			return []byte(fmt.Sprintf("%s %d", f.Path, len(f.Symbols)))
		},
		OnFile: func(f *ops.SymbolsFile, n int) error {
			received.Add(1)
			if want := fmt.Sprintf("%s %d", f.Path, len(f.Symbols)); string(f.Rendered) != want {
				t.Errorf("%s: rendered %q, want %q", f.Path, f.Rendered, want)
			}
			got = append(got, f.Path)
			return nil
		}})
	if err != nil || !res.OK {
		t.Fatal(err)
	}
	if len(got) == 0 || rendered.Load() != received.Load() {
		t.Errorf("rendered %d files, OnFile received %d (%v)", rendered.Load(), received.Load(), got)
	}
}
