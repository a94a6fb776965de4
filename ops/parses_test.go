package ops_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/symedit/symedit/chunk"
	"github.com/symedit/symedit/internal/probe"
	"github.com/symedit/symedit/ops"
)

// The tree-sitter parses a writing operation on a symbol makes, counted
// (probe.WithParses), not timed: the parse that locates the symbol is the
// guard's parse of the content before, so a Python chunk edit parses
// twice (the content before, to locate the symbol, and the content after,
// incrementally from the first tree), where it used to parse three times
// (locate, and the guard's before and after); a refused edit once more
// (the guard confirms a new problem with a full parse before it refuses);
// a Go edit whose result go/parser accepts runs no tree-sitter parse at
// all; a Go file that go/parser refuses is parsed by tree-sitter to
// locate, and that tree is the guard's too. The symbols of the content
// after, for the receipt, come from the guard's tree of it: no parse. A
// byte order mark or CR-only
// lines change nothing: the tree located in is of the text the guard
// checks.
func TestSymbolEditParsesOnce(t *testing.T) {
	const py = "import os\n\n\ndef f():\n    x = 1\n    return x\n\n\ndef g():\n    return 2\n"
	const goClean = "package p\n\nfunc f() int {\n\tx := 1\n\treturn x\n}\n\nfunc g() {}\n"
	const goBroken = "package p\n\nfunc f() int {\n\tx := 1\n\treturn x\n}\n\nfunc g() {\n"
	pyChunk := chunk.Chunk{ContextBefore: []string{"    x = 1"}, OldLines: []string{"    return x"}, NewLines: []string{"    return x + 1"}}
	pyBreaks := chunk.Chunk{ContextBefore: []string{"    x = 1"}, OldLines: []string{"    return x"}, NewLines: []string{"    return (x"}}
	goChunk := chunk.Chunk{ContextBefore: []string{"\tx := 1"}, OldLines: []string{"\treturn x"}, NewLines: []string{"\treturn x + 1"}, ContextAfter: []string{"}"}}
	chunkOp := func(loc string, c chunk.Chunk) func(context.Context, *ops.Workspace) error {
		return func(ctx context.Context, w *ops.Workspace) error {
			_, err := w.Chunk(ctx, ops.ChunkRequest{Location: loc, Chunks: ops.Chunks{c}})
			return err
		}
	}
	tests := []struct {
		name, file, src string
		op              func(context.Context, *ops.Workspace) error
		parses          int64
		refused         bool // the guard refuses (show: nothing is written either)
	}{
		{"python chunk", "a.py", py, chunkOp("a.py::f", pyChunk), 2, false},
		{"python chunk, byte order mark", "a.py", "\uFEFF" + py, chunkOp("a.py::f", pyChunk), 2, false},
		{"python chunk, CR lines", "a.py", string(bytes.ReplaceAll([]byte(py), []byte("\n"), []byte("\r"))), chunkOp("a.py::f", pyChunk), 2, false},
		{"python chunk, refused", "a.py", py, chunkOp("a.py::f", pyBreaks), 3, true},
		{"go chunk go/parser accepts", "a.go", goClean, chunkOp("a.go::f", goChunk), 0, false},
		// The receipt's symbols of the content after (Result.Symbols)
		// cost one more parse here: the guard's incremental tree has an
		// error in it, and such a tree is not trusted to stand for a
		// fresh parse (guard.GuardOptions.KeepAfter).
		{"go chunk, an error elsewhere", "a.go", goBroken, chunkOp("a.go::f", goChunk), 3, false},
		{"python replace-body", "a.py", py, func(ctx context.Context, w *ops.Workspace) error {
			_, err := w.ReplaceBody(ctx, ops.SymbolTextRequest{Location: "a.py::g", Text: "def g():\n    return 3\n"})
			return err
		}, 2, false},
		{"python insert-before", "a.py", py, func(ctx context.Context, w *ops.Workspace) error {
			_, err := w.InsertBefore(ctx, ops.SymbolTextRequest{Location: "a.py::g", Text: "def h():\n    return 4\n"})
			return err
		}, 2, false},
		{"python insert-after", "a.py", py, func(ctx context.Context, w *ops.Workspace) error {
			_, err := w.InsertAfter(ctx, ops.SymbolTextRequest{Location: "a.py::g", Text: "def h():\n    return 4\n"})
			return err
		}, 2, false},
		// A file-level edit locates nothing: the content before is
		// parsed once, for the guard and the receipt's symbols, and the
		// content after once, incrementally, for both as well.
		{"python edit", "a.py", py, func(ctx context.Context, w *ops.Workspace) error {
			_, err := w.Edit(ctx, ops.EditRequest{Path: "a.py", Edits: ops.TextEdits{{OldText: "return 2", NewText: "return 3"}}})
			return err
		}, 2, false},
		// A batch: the first operation's parse is of the file as read,
		// the guard's content before; the second operation locates in
		// the first one's result, a parse of its own.
		{"python batch, one chunk", "a.py", py, func(ctx context.Context, w *ops.Workspace) error {
			_, err := w.Batch(ctx, ops.BatchRequest{Ops: []ops.BatchOp{{Op: ops.OpChunk, Chunk: &ops.ChunkRequest{Location: "a.py::f", Chunks: ops.Chunks{pyChunk}}}}})
			return err
		}, 2, false},
		{"python batch, two symbol operations", "a.py", py, func(ctx context.Context, w *ops.Workspace) error {
			_, err := w.Batch(ctx, ops.BatchRequest{Ops: []ops.BatchOp{
				{Op: ops.OpChunk, Chunk: &ops.ChunkRequest{Location: "a.py::f", Chunks: ops.Chunks{pyChunk}}},
				{Op: ops.OpInsertAfter, SymbolText: &ops.SymbolTextRequest{Location: "a.py::g", Text: "def h():\n    return 4\n"}},
			}})
			return err
		}, 3, false},
		// show locates without checking: one parse, no tree kept.
		{"python show", "a.py", py, func(ctx context.Context, w *ops.Workspace) error {
			_, err := w.Show(ctx, ops.ShowRequest{Location: "a.py::f"})
			return err
		}, 1, true},
		{"go batch go/parser accepts", "a.go", goClean, func(ctx context.Context, w *ops.Workspace) error {
			_, err := w.Batch(ctx, ops.BatchRequest{Ops: []ops.BatchOp{{Op: ops.OpChunk, Chunk: &ops.ChunkRequest{Location: "a.go::f", Chunks: ops.Chunks{goChunk}}}}})
			return err
		}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, tt.file)
			if err := os.WriteFile(path, []byte(tt.src), 0o644); err != nil {
				t.Fatal(err)
			}
			w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			var n atomic.Int64
			err = tt.op(probe.WithParses(context.Background(), &n), w)
			var se *ops.SyntaxError
			show := strings.HasSuffix(tt.name, "show")
			if refused := errors.As(err, &se); err != nil && (!refused || !tt.refused) || err == nil && tt.refused && !show {
				t.Fatalf("error %v, want refused %v", err, tt.refused)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if written := string(got) != tt.src; written == tt.refused {
				t.Fatalf("written %v, refused %v:\n%s", written, tt.refused, got)
			}
			if p := n.Load(); p != tt.parses {
				t.Errorf("%d tree-sitter parses, want %d", p, tt.parses)
			}
		})
	}
}

// A replace in a large Go file whose matches lie in three of its forty
// functions hands go/parser, to list the symbols the edit changed, the
// content before once (the guard reuses that parse) and, of the content
// after, only the three functions' declarations, each after a package
// clause: counted in bytes (probe.WithOwnParsed), not timed. The receipt
// still lists the three functions as changed, and nothing else.
func TestGoReplaceParsesTheEditedDeclarations(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p\n\nimport \"bytes\"\n")
	for i := range 40 {
		typ := "int"
		if i == 3 || i == 20 || i == 37 {
			typ = "bytes.Buffer"
		}
		fmt.Fprintf(&b, "\n// f%d is a function.\nfunc f%d() {\n\tvar x %s\n\t_ = x\n\tfor i := 0; i < %d; i++ {\n\t\tprintln(i)\n\t}\n}\n", i, i, typ, i)
	}
	b.WriteString("\nvar _ bytes.Reader\n")
	src := b.String()
	dir := t.TempDir()
	path := filepath.Join(dir, "a.go")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var n atomic.Int64
	res, err := w.Replace(probe.WithOwnParsed(context.Background(), &n), ops.ReplaceRequest{Search: "bytes.Buffer", Replacement: "bytes.Buffr", Paths: []string{"a.go"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 1 || res.Files[0].Symbols == nil {
		t.Fatalf("no receipt: %+v", res.Files)
	}
	var changed []string
	for _, r := range res.Files[0].Symbols.Changed {
		changed = append(changed, r.NamePath)
	}
	if fmt.Sprint(changed) != "[f3 f20 f37]" || len(res.Files[0].Symbols.Added)+len(res.Files[0].Symbols.Removed) != 0 {
		t.Fatalf("the receipt: changed %v, added %v, removed %v", changed, res.Files[0].Symbols.Added, res.Files[0].Symbols.Removed)
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Each edited function: its comment and declaration, the blank line
	// before and the lines after up to the next declaration (its comment),
	// after a package clause of its own.
	one := len("\n// f20 is a function.\nfunc f20() {\n\tvar x bytes.Buffr\n\t_ = x\n\tfor i := 0; i < 20; i++ {\n\t\tprintln(i)\n\t}\n}\n" +
		"\n// f21 is a function.\n")
	most := int64(len(src) + 3*(len("package p\n")+one))
	t.Logf("go/parser read %d bytes for the receipt; the file is %d bytes before, %d after", n.Load(), len(src), len(after))
	if got := n.Load(); got < int64(len(src)) || got > most {
		t.Fatalf("go/parser read %d bytes, want the content before (%d) and at most %d in all", got, len(src), most)
	}
}

// With WriteOptions.NoSymbols a replace that only respells tokens hands
// go/parser nothing (no parse of the file as it was, for the symbols
// before) and has no symbols in its result, yet is checked as before:
// an edit that breaks the file is refused, the file left byte for byte.
func TestReplaceNoSymbolsParsesNothing(t *testing.T) {
	const src = "package p\n\nimport \"bytes\"\n\nfunc f() {\n\tvar x bytes.Buffer\n\t_ = x\n}\n\nfunc g() {\n\tif true {\n\t}\n}\n"
	dir := t.TempDir()
	path := filepath.Join(dir, "a.go")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := ops.Open(ops.Options{Root: dir, Dir: dir, NoJournal: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()

	// Breaks the file: refused with the symbols left out too.
	var n atomic.Int64
	res, err := w.Replace(probe.WithOwnParsed(context.Background(), &n), ops.ReplaceRequest{Search: "if true {", Replacement: "if true {{",
		Paths: []string{"a.go"}, WriteOptions: ops.WriteOptions{NoSymbols: true}})
	var se *ops.Error
	if !errors.As(err, &se) || len(res.Files) != 1 || res.Files[0].Status != ops.ReplaceRefused || res.Files[0].Syntax == nil || len(res.Files[0].Syntax.New) == 0 {
		t.Fatalf("a replace that breaks the file: err %v, files %+v", err, res.Files)
	}
	if got, _ := os.ReadFile(path); string(got) != src {
		t.Fatalf("refused, yet the file changed:\n%s", got)
	}

	n.Store(0)
	res, err = w.Replace(probe.WithOwnParsed(context.Background(), &n), ops.ReplaceRequest{Search: "bytes.Buffer", Replacement: "bytes.Buffr",
		Paths: []string{"a.go"}, WriteOptions: ops.WriteOptions{NoSymbols: true}})
	if err != nil {
		t.Fatal(err)
	}
	f := res.Files[0]
	if f.Status != ops.ReplaceReplaced || !f.Written || f.Symbols != nil || f.Syntax == nil || !f.Syntax.Checked {
		t.Fatalf("want written and checked, with no symbols: %+v", f)
	}
	if got := n.Load(); got != 0 {
		t.Fatalf("go/parser read %d bytes for a respelling with NoSymbols, want 0", got)
	}
	if got, _ := os.ReadFile(path); string(got) != strings.Replace(src, "bytes.Buffer", "bytes.Buffr", 1) {
		t.Fatalf("the file after:\n%s", got)
	}
}

// A listing of Python files (the symbols command, with its index or
// without) reads them with the outline reader: no tree-sitter parse,
// where it used to make one per file; a file the reader declines (a
// string left open) is parsed, and only that one.
func TestSymbolsListingParses(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.py":      "class A:\n    def m(self):\n        return 1\n",
		"b.py":      "@d\ndef f():\n    return '''\ndef g(): pass\n'''\n",
		"c.py":      "def h():\n    pass\n",
		"broken.py": "def k():\n    return 'open\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, noCache := range []bool{true, false} {
		w, err := ops.Open(ops.Options{Root: dir, Dir: dir, IndexDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		var n atomic.Int64
		res, err := w.Symbols(probe.WithParses(context.Background(), &n), ops.SymbolsRequest{Paths: []string{"."}, NoCache: noCache})
		w.Close()
		if err != nil {
			t.Fatal(err)
		}
		listed := 0
		for _, f := range res.Files {
			listed += len(f.Symbols)
		}
		if len(res.Files) != len(files) || listed != 5 {
			t.Fatalf("no cache %v: %d files, %d symbols listed, want %d files and 5 (A, A/m, f, h, k)", noCache, len(res.Files), listed, len(files))
		}
		if p := n.Load(); p != 1 {
			t.Errorf("no cache %v: %d tree-sitter parses, want 1 (broken.py)", noCache, p)
		}
	}
}

// A chunk already applied (its new lines in place, nothing to write)
// costs the parse and the symbols query that locate the symbol and no
// other: the content after is the content before, whose symbols the
// receipt need not extract again to say nothing changed.
func TestChunkAlreadyAppliedParsesOnce(t *testing.T) {
	const py = "import os\n\n\ndef f():\n    x = 1\n    return x + 1\n\n\ndef g():\n    return 2\n"
	dir := t.TempDir()
	path := filepath.Join(dir, "a.py")
	if err := os.WriteFile(path, []byte(py), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var n, q atomic.Int64
	res, err := w.Chunk(probe.WithQueries(probe.WithParses(context.Background(), &n), &q), ops.ChunkRequest{Location: "a.py::f",
		Chunks: ops.Chunks{{ContextBefore: []string{"    x = 1"}, OldLines: []string{"    return x"}, NewLines: []string{"    return x + 1"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Changed || res.Written || !res.Symbols.Empty() {
		t.Fatalf("changed %v, written %v, symbols %+v; want an edit already applied", res.Changed, res.Written, res.Symbols)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != py {
		t.Fatalf("the file changed: %q, %v", got, err)
	}
	if p, q := n.Load(), q.Load(); p != 1 || q != 1 {
		t.Errorf("%d tree-sitter parses and %d symbols queries, want 1 of each (those that locate)", p, q)
	}
}
