package ops

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/symedit/symedit/chunk"
	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/guard"
	"github.com/symedit/symedit/lang"
)

// A change made from a located target carries the parse it was located
// in: whether go/parser accepted the content, and only then (a Go file
// with a syntax error elsewhere, and other languages, are not clean), and
// otherwise tree-sitter's tree; the guard's report on the change is the
// same as without the parse, for a valid and a breaking chunk.
func TestTargetChangeBeforeClean(t *testing.T) {
	const goClean = "package p\n\nfunc f() int {\n\tx := 1\n\treturn x\n}\n\nfunc g() {}\n"
	const goBroken = "package p\n\nfunc f() int {\n\tx := 1\n\treturn x\n}\n\nfunc g() {\n"
	const py = "def f():\n    x = 1\n    return x\n"
	valid := chunk.Chunk{ContextBefore: []string{"\tx := 1"}, OldLines: []string{"\treturn x"}, NewLines: []string{"\treturn x + 1"}, ContextAfter: []string{"}"}}
	breaking := chunk.Chunk{ContextBefore: []string{"\tx := 1"}, OldLines: []string{"\treturn x"}, NewLines: []string{"\treturn (x"}, ContextAfter: []string{"}"}}
	pyValid := chunk.Chunk{ContextBefore: []string{"    x = 1"}, OldLines: []string{"    return x"}, NewLines: []string{"    return x + 1"}}
	tests := []struct {
		name, path, src string
		c               chunk.Chunk
		clean, refused  bool
	}{
		{"go, valid chunk", "a.go", goClean, valid, true, false},
		{"go, breaking chunk", "a.go", goClean, breaking, true, true},
		{"go with an error elsewhere", "a.go", goBroken, valid, false, false},
		{"go with an error elsewhere, breaking chunk", "a.go", goBroken, breaking, false, true},
		{"python", "a.py", py, pyValid, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := edit.NewDocument(tt.path, []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			lang, err := lang.Select(tt.path, "")
			if err != nil {
				t.Fatal(err)
			}
			tg, err := locateIn(context.Background(), doc, lang, tt.path+"::f")
			if err != nil {
				t.Fatal(err)
			}
			defer tg.close()
			ch, err := planChunk(tg, ChunkRequest{Chunks: Chunks{tt.c}}, &ChunkResult{})
			if err != nil {
				t.Fatal(err)
			}
			if ch.located == nil || ch.located.snap == nil {
				t.Fatal("the change carries no parse of the content before")
			}
			before := ch.located.snap
			if before.Clean != tt.clean || (before.Tree != nil) == tt.clean || ch.doc != doc {
				t.Fatalf("before %+v, want clean %v and a tree unless clean (doc the parsed one: %v)", before, tt.clean, ch.doc == doc)
			}
			with, err := guard.CheckSyntax(context.Background(), lang, ch.doc.Content, ch.content, ch.edits, guard.GuardOptions{Before: before})
			if err != nil {
				t.Fatal(err)
			}
			without, err := guard.CheckSyntax(context.Background(), lang, ch.doc.Content, ch.content, ch.edits, guard.GuardOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(with, without) || with.Rejects(guard.CheckStrict) != tt.refused {
				t.Errorf("refused %v, want %v; with the parse %+v, without %+v", with.Rejects(guard.CheckStrict), tt.refused, with, without)
			}
		})
	}
}

// Workspace.Chunk on a Go file go/parser accepts, with the guard's
// shortcut taken on the parse's word: a breaking chunk is refused with
// SYNTAX and the file is byte-identical; a valid one is written.
func TestChunkBeforeCleanWrites(t *testing.T) {
	const src = "package p\n\nfunc f() int {\n\tx := 1\n\treturn x\n}\n\nfunc g() {}\n"
	dir := t.TempDir()
	path := filepath.Join(dir, "a.go")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := Open(Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx := context.Background()
	bad := chunk.Chunk{ContextBefore: []string{"\tx := 1"}, OldLines: []string{"\treturn x"}, NewLines: []string{"\treturn (x"}, ContextAfter: []string{"}"}}
	res, err := w.Chunk(ctx, ChunkRequest{Location: "a.go::f", Chunks: Chunks{bad}})
	var se *SyntaxError
	if !errors.As(err, &se) || res.Written {
		t.Fatalf("breaking chunk: %+v, %v; want a *SyntaxError", res, err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, []byte(src)) {
		t.Fatalf("file changed by a refused chunk:\n%s", got)
	}
	good := chunk.Chunk{ContextBefore: []string{"\tx := 1"}, OldLines: []string{"\treturn x"}, NewLines: []string{"\treturn x + 1"}, ContextAfter: []string{"}"}}
	res, err = w.Chunk(ctx, ChunkRequest{Location: "a.go::f", Chunks: Chunks{good}})
	if err != nil || !res.Written || !res.Syntax.Checked {
		t.Fatalf("valid chunk: %+v, %v", res, err)
	}
	if got, _ := os.ReadFile(path); !bytes.Contains(got, []byte("\treturn x + 1\n")) {
		t.Fatalf("valid chunk not written:\n%s", got)
	}
}

// The parses that check no edit keep no tree: the symbol index's and
// show's (parse without keep) hold no lang.Parse at all, and a writing
// operation's parse, once closed, holds none either.
func TestParseKeepsTreeOnlyForEdits(t *testing.T) {
	doc, err := edit.NewDocument("a.py", []byte("def f():\n    return 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := lang.Select("a.py", "")
	if err != nil {
		t.Fatal(err)
	}
	p, err := parse(context.Background(), doc, l, false)
	if err != nil || p.snap != nil {
		t.Fatalf("a parse without keep holds %+v (%v)", p.snap, err)
	}
	tg, err := locateIn(context.Background(), doc, l, "a.py::f")
	if err != nil {
		t.Fatal(err)
	}
	if tg.snap == nil || tg.snap.Tree == nil || !tg.snap.Of(l, doc.Text) {
		t.Fatalf("a writing operation's parse holds %+v, want the tree of doc's text", tg.snap)
	}
	tg.close()
	tg.close() // a second close is allowed
	if tg.snap.Tree != nil {
		t.Fatal("the tree survives close")
	}
	if _, err := locateIn(context.Background(), doc, l, "a.py::nosuch"); err == nil {
		t.Fatal("no error for a missing symbol")
	}
}
