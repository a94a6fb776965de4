package ops

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/symedit/symedit/chunk"
	"github.com/symedit/symedit/diff"
	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/lang"
)

// locateTest locates location in an in-memory document of src.
func locateTest(t *testing.T, path, src, location string) *target {
	t.Helper()
	doc, err := edit.NewDocument(path, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	l, err := lang.Select(path, "")
	if err != nil {
		t.Fatal(err)
	}
	tg, err := locateIn(context.Background(), doc, l, location)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// A chunk edit's change carries the chunks' own spans: a two-chunk
// request gives exactly two byte edits, each the whole lines its chunk
// replaced, and the diff shown is built from them (DiffChange takes
// change.edits), equal to the diff of the whole contents.
func TestChunkChangeEditsAreTheChunks(t *testing.T) {
	const src = "package p\n\nfunc f() int {\n\ta := 1\n\tb := 2\n\tc := 3\n\td := 4\n\te := 5\n\tf := 6\n\treturn a\n}\n"
	tg := locateTest(t, "a.go", src, "a.go::f")
	req := ChunkRequest{Chunks: Chunks{
		{ContextBefore: []string{"\ta := 1"}, OldLines: []string{"\tb := 2"}, NewLines: []string{"\tb := 20", "\tbb := 21"}, ContextAfter: []string{"\tc := 3"}},
		{ContextBefore: []string{"\te := 5"}, OldLines: []string{"\tf := 6"}, NewLines: []string{"\tf := 60"}, ContextAfter: []string{"\treturn a"}},
	}}
	ch, err := planChunk(tg, req, &ChunkResult{})
	if err != nil {
		t.Fatal(err)
	}
	line := func(n int) (int, int) { // line n's bytes, its ending included
		r := tg.doc.LineRanges()[n-1]
		return r.Start, r.Next
	}
	s5, e5 := line(5)
	s9, e9 := line(9)
	want := []edit.Edit{{Start: s5, End: e5, New: "\tb := 20\n\tbb := 21\n"}, {Start: s9, End: e9, New: "\tf := 60\n"}}
	if !reflect.DeepEqual(ch.edits, want) {
		t.Fatalf("edits %+v, want %+v", ch.edits, want)
	}
	got, err := edit.Apply(tg.doc.Content, ch.edits)
	if err != nil || string(got) != string(ch.content) {
		t.Fatalf("the edits give %q (%v), the change's content is %q", got, err, ch.content)
	}
	fromEdits, err := diff.DiffEdits("a.go", ch.doc, ch.edits)
	if err != nil {
		t.Fatal(err)
	}
	if shown := diff.DiffChange("a.go", ch.doc, ch.content, ch.edits); shown != fromEdits || shown != diff.Diff("a.go", ch.doc.Content, ch.content) {
		t.Fatalf("diff shown:\n%s\nfrom the edits:\n%s", shown, fromEdits)
	}
}

// The chunks' edits give the content that replacing the whole symbol by
// chunk.Result.Lines gives, at a file's end without a final line ending,
// for insertions after the symbol's last line and deletions through it
// next to a replaced line (whose two edits become one), and in a CRLF file.
func TestChunkChangeEditsMatchWholeSymbol(t *testing.T) {
	tests := []struct {
		name, path, src string
		chunks          Chunks
		edits           int
	}{
		{"delete the unterminated last line after a replaced one", "a.py",
			"def f():\n    a = 1\n    b = 2\n    c = 3",
			Chunks{
				{ContextBefore: []string{"    a = 1"}, OldLines: []string{"    b = 2"}, NewLines: []string{"    b = 20"}, ContextAfter: []string{"    c = 3"}},
				{ContextBefore: []string{"    b = 2"}, OldLines: []string{"    c = 3"}, NewLines: []string{}},
			}, 1},
		{"insert after the unterminated last line", "a.py",
			"def f():\n    a = 1\n    b = 2",
			Chunks{
				{ContextBefore: []string{"    a = 1"}, OldLines: []string{"    b = 2"}, NewLines: []string{"    b = 20"}},
				{ContextBefore: []string{"    b = 2"}, OldLines: []string{}, NewLines: []string{"    c = 3"}},
			}, 2},
		{"delete the unterminated last line alone", "a.py",
			"def f():\n    a = 1\n    b = 2\n    c = 3",
			Chunks{
				{ContextBefore: []string{"    b = 2"}, OldLines: []string{"    c = 3"}, NewLines: []string{}},
			}, 1},
		{"crlf, an insertion and a deletion", "a.py",
			"def f():\r\n    a = 1\r\n    b = 2\r\n    c = 3\r\n    d = 4\r\n",
			Chunks{
				{ContextBefore: []string{"    a = 1"}, OldLines: []string{}, NewLines: []string{"    a2 = 1", ""}, ContextAfter: []string{"    b = 2"}},
				{ContextBefore: []string{"    c = 3"}, OldLines: []string{"    d = 4"}, NewLines: []string{}},
			}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg := locateTest(t, tt.path, tt.src, tt.path+"::f")
			ch, err := planChunk(tg, ChunkRequest{Chunks: tt.chunks}, &ChunkResult{})
			if err != nil {
				t.Fatal(err)
			}
			out, err := chunk.Apply(chunk.Target{Lines: tg.doc.Lines(tg.first, tg.last), FirstLine: tg.first}, tt.chunks)
			if err != nil {
				t.Fatal(err)
			}
			whole, err := tg.replaceLines(out.Lines)
			if err != nil {
				t.Fatal(err)
			}
			if string(ch.content) != string(whole.content) {
				t.Fatalf("chunk edits give %q, the whole symbol %q", ch.content, whole.content)
			}
			if len(ch.edits) != tt.edits {
				t.Errorf("%d edits %+v, want %d", len(ch.edits), ch.edits, tt.edits)
			}
		})
	}
}

// An exact-text edit's change carries the text engine's own
// replacements, in offsets of the file's content (its byte order mark
// included), one per place replaced.
func TestEditChangeEditsAreTheReplacements(t *testing.T) {
	doc, err := edit.NewDocument("a.txt", []byte("\uFEFFone\ntwo\nthree\nfour\n"))
	if err != nil {
		t.Fatal(err)
	}
	req := EditRequest{Edits: TextEdits{{OldText: "two", NewText: "2"}, {OldText: "four", NewText: "4"}}}
	ch, err := planEdit(context.Background(), doc, nil, req, &EditResult{})
	if err != nil {
		t.Fatal(err)
	}
	want := []edit.Edit{{Start: 7, End: 10, New: "2"}, {Start: 17, End: 21, New: "4"}}
	if !reflect.DeepEqual(ch.edits, want) {
		t.Fatalf("edits %+v, want %+v", ch.edits, want)
	}
	if got, err := edit.Apply(doc.Content, ch.edits); err != nil || string(got) != string(ch.content) {
		t.Fatalf("the edits give %q (%v), the content is %q", got, err, ch.content)
	}
}

// A batch's change carries its operations' edits composed into edits of
// the file as read: an edit, a chunk in the result of that edit and a
// line edit after both end as three edits of the original content, each
// its engine's own span mapped back through the edits before it, and
// give the batch's content.
func TestBatchChangeEditsAreComposed(t *testing.T) {
	const src = "package p\n\nconst a = 1\n\nfunc f() int {\n\tx := 1\n\treturn x\n}\n\nconst z = 26\n"
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := Open(Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	req := BatchRequest{Ops: []BatchOp{
		{Op: OpEdit, Edit: &EditRequest{Path: "a.go", Edits: TextEdits{{OldText: "const a = 1", NewText: "const a = 100"}}}},
		{Op: OpChunk, Chunk: &ChunkRequest{Location: "a.go::f", Chunks: Chunks{
			{ContextBefore: []string{"\tx := 1"}, OldLines: []string{"\treturn x"}, NewLines: []string{"\treturn x + 1"}, ContextAfter: []string{"}"}}}}},
		{Op: OpLines, Lines: &LinesRequest{Path: "a.go", Edits: LineEdits{{StartLine: 10, EndLine: 10, NewContent: "const z = 0"}}}},
	}}
	f := &batchFile{path: "a.go", ops: []int{0, 1, 2}}
	results := make([]BatchOpResult, len(req.Ops))
	w.batchFile(context.Background(), f, req, results)
	if !f.ok {
		t.Fatalf("batch refused: %+v", results)
	}
	line := func(n int) (int, int) { // line n's bytes, its ending included
		r := f.ch.doc.LineRanges()[n-1]
		return r.Start, r.Next
	}
	s3, _ := line(3)
	s7, e7 := line(7)
	s10, _ := line(10)
	want := []edit.Edit{
		{Start: s3, End: s3 + len("const a = 1"), New: "const a = 100"},
		{Start: s7, End: e7, New: "\treturn x + 1\n"},
		{Start: s10 + len("const z = "), End: s10 + len("const z = 26"), New: "0"},
	}
	if !reflect.DeepEqual(f.ch.edits, want) {
		t.Fatalf("edits %+v, want %+v", f.ch.edits, want)
	}
	if got, err := edit.Apply(f.ch.doc.Content, f.ch.edits); err != nil || string(got) != string(f.ch.content) {
		t.Fatalf("the edits give %q (%v), the content is %q", got, err, f.ch.content)
	}
}
