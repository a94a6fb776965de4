package ops_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/symedit/symedit/chunk"
	"github.com/symedit/symedit/ops"
)

// roundTripExts are the extensions of the real code the round trip
// edits: C, C++, Rust, C#, PHP and Ruby.
var roundTripExts = []string{".c", ".cc", ".rs", ".cs", ".php", ".rb"}

// Real code in C (SQLite), C++ (googletest), Rust (the standard
// library), C# (FlatBuffers), Ruby (its standard library) and PHP
// (Doctrine, PHP-Parser): for up to eight functions or methods of each
// file (three with -short), spread over it, replace-body sent the symbol's own text (as show
// gives it) leaves the file byte-identical; a chunk that adds a comment
// line after the symbol's first line, under the syntax guard, adds
// exactly that line; and the chunk that takes it out again leaves the
// file byte-identical. Each step must succeed: these are valid edits of
// valid code.
func TestEditsRoundTripOnRealCode(t *testing.T) {
	real := map[string]string{}
	for _, name := range []string{"sqlite_util.c", "gmock-cardinalities.cc", "gtest-filepath.cc"} {
		b, err := os.ReadFile(filepath.Join("testdata", "real", name))
		if err != nil {
			t.Fatal(err)
		}
		real["real/"+name] = string(b)
	}
	_, dir := tree(t, real)
	w := symbolsWorkspace(t, dir, t.TempDir())
	ctx := context.Background()
	var paths []string
	for _, p := range []string{"real", "src/rust", "src/csharp", "src/ruby", "src/php"} {
		entries, err := os.ReadDir(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if slices.Contains(roundTripExts, filepath.Ext(e.Name())) {
				paths = append(paths, p+"/"+e.Name())
			}
		}
	}
	perLang := map[string]int{}
	for _, path := range paths {
		listed, err := w.Symbols(ctx, ops.SymbolsRequest{Path: path})
		if err != nil || len(listed.Files) != 1 {
			t.Fatalf("%s: %v", path, err)
		}
		var funcs []ops.ListedSymbol
		for _, s := range listed.Files[0].Symbols {
			if (s.Kind == "function" || s.Kind == "method") && s.End.Line-s.Start.Line >= 2 {
				funcs = append(funcs, s)
			}
		}
		if len(funcs) == 0 {
			t.Errorf("%s: no function of three lines or more", path)
			continue
		}
		per := 8
		if testing.Short() {
			per = 3 // make test: three functions of each file
		}
		step := max(1, len(funcs)/per)
		for i := 0; i < len(funcs) && i/step < per; i += step {
			roundTrip(t, w, dir, path, funcs[i])
			perLang[filepath.Ext(path)]++
		}
	}
	t.Logf("round trips by extension: %v", perLang)
	for _, ext := range roundTripExts {
		if perLang[ext] < 3 {
			t.Errorf("%s: %d round trips, want at least 3", ext, perLang[ext])
		}
	}
}

// roundTrip runs the three edits of TestEditsRoundTripOnRealCode on s,
// a symbol of the file path (slash-separated, under dir).
func roundTrip(t *testing.T, w *ops.Workspace, dir, path string, s ops.ListedSymbol) {
	t.Helper()
	ctx := context.Background()
	file := filepath.Join(dir, filepath.FromSlash(path))
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	loc := fmt.Sprintf("%s::%s", path, s.NamePath)
	same := func(step string) {
		t.Helper()
		if got, _ := os.ReadFile(file); string(got) != string(orig) {
			t.Fatalf("%s: after %s the file is not byte-identical to the original", loc, step)
		}
	}
	shown, err := w.Show(ctx, ops.ShowRequest{Location: loc})
	if err != nil {
		t.Fatalf("%s: %v", loc, err)
	}
	if _, err := w.ReplaceBody(ctx, ops.SymbolTextRequest{Location: loc, Text: shown.Text}); err != nil {
		t.Fatalf("%s: replace-body with its own text: %v", loc, err)
	}
	same("replace-body with its own text")

	lines := strings.Split(string(orig), "\n")
	first, second := lines[s.Start.Line-1], lines[s.Start.Line]
	indent := second[:len(second)-len(strings.TrimLeft(second, " \t"))]
	added := indent + commentOpeners[filepath.Ext(path)][0] + " symedit round trip"
	in := chunk.Chunk{ContextBefore: []string{first}, NewLines: []string{added}, ContextAfter: []string{second}}
	if _, err := w.Chunk(ctx, ops.ChunkRequest{Location: loc, Chunks: ops.Chunks{in}}); err != nil {
		t.Fatalf("%s: chunk adding a comment line: %v", loc, err)
	}
	want := strings.Join(lines[:s.Start.Line], "\n") + "\n" + added + "\n" + strings.Join(lines[s.Start.Line:], "\n")
	if got, _ := os.ReadFile(file); string(got) != want {
		t.Fatalf("%s: the chunk did not add exactly its line after line %d", loc, s.Start.Line)
	}
	out := chunk.Chunk{ContextBefore: []string{first}, OldLines: []string{added}, ContextAfter: []string{second}}
	if _, err := w.Chunk(ctx, ops.ChunkRequest{Location: loc, Chunks: ops.Chunks{out}}); err != nil {
		t.Fatalf("%s: chunk taking the comment line out: %v", loc, err)
	}
	same("adding a comment line and taking it out")
}
