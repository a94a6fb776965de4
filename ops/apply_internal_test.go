package ops

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/symedit/symedit/diff"
	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/reply"
)

// planApplyTest plans an apply of replyText in a folder holding files,
// writing nothing, and returns the applier.
func planApplyTest(t *testing.T, files map[string]string, replyText string) *applier {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w, err := Open(Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	req := ApplyRequest{Reply: replyText, WriteOptions: WriteOptions{DryRun: true}}
	parsed := reply.ParseWith(req.Reply, reply.Options{})
	a := &applier{w: w, req: req, level: match.Exact, all: parsed.Blocks}
	if err := a.plan(context.Background(), parsed); err != nil {
		t.Fatal(err)
	}
	return a
}

// An apply's change carries the reply engine's edits: a two-block reply
// gives two byte edits of the file as read, each where its block landed
// (trimmed of the SEARCH lines a block writes back), and the diff shown is
// built from them, equal to the diff of the whole contents.
func TestApplyChangeEditsAreTheBlocks(t *testing.T) {
	const src = "def f():\n    a = 1\n    b = 2\n    c = 3\n\n\ndef g():\n    x = 1\n    return x\n"
	const replyText = "a.py\n<<<<<<< SEARCH\n    a = 1\n    b = 2\n=======\n    a = 1\n    b = 20\n>>>>>>> REPLACE\n\n" +
		"a.py\n<<<<<<< SEARCH\n    return x\n=======\n    return x + 1\n>>>>>>> REPLACE\n"
	a := planApplyTest(t, map[string]string{"a.py": src}, replyText)
	f := a.files[0]
	if f.ch == nil || f.out.Status != ApplyApplied {
		t.Fatalf("the reply did not apply: %+v", f.out)
	}
	line := func(n int) int { return f.ch.doc.LineRanges()[n-1].Start }
	want := []edit.Edit{
		{Start: line(3) + len("    b = 2"), End: line(3) + len("    b = 2"), New: "0"},
		{Start: line(9) + len("    return x"), End: line(9) + len("    return x"), New: " + 1"},
	}
	if !reflect.DeepEqual(f.ch.edits, want) {
		t.Fatalf("edits %+v, want %+v", f.ch.edits, want)
	}
	if got, err := edit.Apply(f.ch.doc.Content, f.ch.edits); err != nil || string(got) != string(f.ch.content) {
		t.Fatalf("the edits give %q (%v), the content is %q", got, err, f.ch.content)
	}
	if f.out.Diff != diff.Diff("a.py", f.ch.doc.Content, f.ch.content) {
		t.Fatalf("diff shown:\n%s\nwant the diff of the contents", f.out.Diff)
	}
}

// A file an apply creates or moves has no edits of its old text in
// place: its change's one edit is the whole content, as a write's.
func TestApplyChangeEditsOnlyInPlace(t *testing.T) {
	const replyText = "*** Begin Patch\n*** Add File: n.py\n+x = 1\n*** Update File: m.py\n*** Move to: m2.py\n@@\n-y = 1\n+y = 2\n*** End Patch\n"
	a := planApplyTest(t, map[string]string{"m.py": "y = 1\n"}, replyText)
	for _, f := range a.files {
		if f.ch == nil || f.out.Status != ApplyApplied {
			t.Fatalf("%s did not apply: %+v", f.out.Path, f.out)
		}
		want := []edit.Edit{{Start: 0, End: len(f.ch.doc.Content), New: string(f.ch.content)}}
		if !reflect.DeepEqual(f.ch.edits, want) {
			t.Errorf("%s: edits %+v, want the whole content's %+v", f.out.Path, f.ch.edits, want)
		}
	}
}
