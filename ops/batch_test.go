package ops_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/symedit/symedit/chunk"
	"github.com/symedit/symedit/ops"
)

// batchFixture copies the real files rels (under testdata/src, licences
// there) into a new folder, keeping their relative paths, and opens a
// workspace there. It returns the workspace, the folder and the files'
// contents by rel.
func batchFixture(t *testing.T, rels ...string) (*ops.Workspace, string, map[string][]byte) {
	t.Helper()
	dir := t.TempDir()
	orig := map[string][]byte{}
	for _, rel := range rels {
		src, err := os.ReadFile(filepath.Join("..", "testdata", "src", rel))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		orig[rel] = src
	}
	w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, dir, orig
}

// batchOps decodes JSON Lines into operations, as `symedit batch` reads
// them.
func batchOps(t *testing.T, lines ...string) []ops.BatchOp {
	t.Helper()
	out := make([]ops.BatchOp, len(lines))
	for i, l := range lines {
		if err := json.Unmarshal([]byte(l), &out[i]); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
	}
	return out
}

// batchStatuses returns the operations' statuses in order.
func batchStatuses(res *ops.BatchResult) []string {
	var out []string
	for _, r := range res.Ops {
		out = append(out, r.Status)
	}
	return out
}

// readRel reads rel under dir.
func readRel(t *testing.T, dir, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const (
	batchPy   = "python/process.py"
	batchGo   = "go/slog_value.go"
	batchJava = "java/Inventory.java"
	// batchChunk inserts a line into BaseProcess.start of process.py.
	batchChunk = `{"op": "chunk", "location": "python/process.py::BaseProcess/start", "chunks": [{"context_before": "        self._check_closed()", "old_lines": [], "new_lines": ["        util.debug('start')"], "context_after": "        assert self._popen is None, 'cannot start a process twice'"}]}`
	// batchEditStart finds only what batchChunk wrote.
	batchEditStart = `{"op": "edit", "path": "python/process.py", "edits": [{"old_text": "util.debug('start')", "new_text": "util.debug('starting')"}]}`
	batchEditBad   = `{"op": "edit", "path": "python/process.py", "edits": [{"old_text": "not in the file", "new_text": "x"}]}`
	batchLinesJava = `{"op": "lines", "path": "java/Inventory.java", "edits": [{"insert_after": 0, "new_content": "// header"}]}`
)

// Ops on one file see the result of the ops before them: the edit finds
// the line the chunk wrote, the insertion finds the function the replace
// renamed; the file is checked once (syntax on its last op only) and
// written once.
func TestBatchOneFileInOrder(t *testing.T) {
	w, dir, orig := batchFixture(t, batchPy, batchGo)
	req := ops.BatchRequest{Ops: batchOps(t,
		batchChunk,
		`{"op": "replace", "path": "go/slog_value.go", "search": "countEmptyGroups", "replacement": "countEmpty"}`,
		batchEditStart,
		`{"op": "insert-after", "location": "go/slog_value.go::countEmpty", "text": "func helper() {}\n"}`,
	)}
	res, err := w.Batch(context.Background(), req)
	if err != nil {
		t.Fatalf("Batch: %v", err)
	}
	if want := []string{"applied", "applied", "applied", "applied"}; !reflect.DeepEqual(batchStatuses(res), want) {
		t.Fatalf("statuses %v, want %v", batchStatuses(res), want)
	}
	if !res.OK || !res.Written || !res.Changed || res.Error != nil {
		t.Errorf("result ok %v written %v changed %v error %v, want true true true nil", res.OK, res.Written, res.Changed, res.Error)
	}
	for i, r := range res.Ops {
		if r.Index != i+1 {
			t.Errorf("op %d: index %d", i+1, r.Index)
		}
		last := i >= 2 // the third op is process.py's last, the fourth slog_value.go's
		if (r.Syntax != nil) != last || last && !r.Syntax.Checked {
			t.Errorf("op %d: syntax %+v, want it on each file's last op only, checked", i+1, r.Syntax)
		}
	}
	if res.Ops[0].Path != batchPy || res.Ops[1].Path != batchGo {
		t.Errorf("paths %q %q", res.Ops[0].Path, res.Ops[1].Path)
	}
	py := string(readRel(t, dir, batchPy))
	if strings.Count(py, "        util.debug('starting')\n        assert self._popen is None") != 1 || strings.Contains(py, "util.debug('start')") {
		t.Errorf("process.py: the chunk then the edit did not both apply")
	}
	goSrc := string(readRel(t, dir, batchGo))
	if strings.Contains(goSrc, "countEmptyGroups") || strings.Count(goSrc, "\nfunc helper() {}\n") != 1 {
		t.Errorf("slog_value.go: the replace then the insertion did not both apply")
	}
	// Nothing else changed: undoing the ops gives the original back.
	undone := strings.Replace(py, "        util.debug('starting')\n", "", 1)
	if undone != string(orig[batchPy]) {
		t.Errorf("process.py changed elsewhere")
	}
}

// A failing op on one file of two: without Atomic, the other file is
// written and the failing file is left byte-identical (its earlier op
// skipped); with Atomic nothing is written.
func TestBatchFailure(t *testing.T) {
	for _, atomic := range []bool{false, true} {
		w, dir, orig := batchFixture(t, batchPy, batchJava)
		req := ops.BatchRequest{Atomic: atomic, Ops: batchOps(t, batchChunk, batchEditBad, batchLinesJava)}
		res, err := w.Batch(context.Background(), req)
		var oe *ops.Error
		if !errors.As(err, &oe) || oe.Code != ops.CodeNoMatch {
			t.Fatalf("atomic %v: error %v, want an *ops.Error NO_MATCH", atomic, err)
		}
		if res.OK || res.Error != oe || res.Ops[1].Error != oe {
			t.Errorf("atomic %v: result ok %v, error %p, op 2's %p, want false and %p", atomic, res.OK, res.Error, res.Ops[1].Error, oe)
		}
		if oe.SearchText != "not in the file" {
			t.Errorf("atomic %v: search_text %q: the edit's error fields are lost", atomic, oe.SearchText)
		}
		third := "applied"
		if atomic {
			third = "skipped"
		}
		if want := []string{"skipped", "failed", third}; !reflect.DeepEqual(batchStatuses(res), want) {
			t.Errorf("atomic %v: statuses %v, want %v", atomic, batchStatuses(res), want)
		}
		if res.Ops[0].Error != nil || res.Ops[2].Error != nil {
			t.Errorf("atomic %v: an error on an op that did not fail", atomic)
		}
		if got := readRel(t, dir, batchPy); !bytes.Equal(got, orig[batchPy]) {
			t.Errorf("atomic %v: process.py changed", atomic)
		}
		java := readRel(t, dir, batchJava)
		if atomic {
			if !bytes.Equal(java, orig[batchJava]) || res.Written {
				t.Errorf("atomic: Inventory.java changed (written %v)", res.Written)
			}
		} else if !bytes.HasPrefix(java, []byte("// header\n/*")) || !res.Written {
			t.Errorf("not atomic: Inventory.java not written (written %v)", res.Written)
		}
	}
}

// A dry run writes nothing, gives each file's diff on its last op, and
// without Atomic a file that would be written says applied even when
// another file fails.
func TestBatchDryRun(t *testing.T) {
	w, dir, orig := batchFixture(t, batchPy, batchJava)
	req := ops.BatchRequest{Ops: batchOps(t, batchChunk, batchEditStart, batchLinesJava)}
	req.DryRun = true
	res, err := w.Batch(context.Background(), req)
	if err != nil || !res.OK || res.Written || !res.DryRun || !res.Changed {
		t.Fatalf("Batch: ok %v written %v dry_run %v changed %v, error %v", res.OK, res.Written, res.DryRun, res.Changed, err)
	}
	if res.Ops[0].Diff != "" || !strings.HasPrefix(res.Ops[1].Diff, "--- a/python/process.py\n") ||
		!strings.Contains(res.Ops[1].Diff, "+        util.debug('starting')\n") ||
		!strings.Contains(res.Ops[2].Diff, "+// header\n") {
		t.Errorf("diffs: %q, %q, %q", res.Ops[0].Diff, res.Ops[1].Diff, res.Ops[2].Diff)
	}
	for rel, b := range orig {
		if !bytes.Equal(readRel(t, dir, rel), b) {
			t.Errorf("%s changed in a dry run", rel)
		}
	}
	req.Ops = batchOps(t, batchChunk, batchEditBad, batchLinesJava)
	res, _ = w.Batch(context.Background(), req)
	if want := []string{"skipped", "failed", "applied"}; !reflect.DeepEqual(batchStatuses(res), want) {
		t.Errorf("dry run with a failure: statuses %v, want %v", batchStatuses(res), want)
	}
	for rel, b := range orig {
		if !bytes.Equal(readRel(t, dir, rel), b) {
			t.Errorf("%s changed in a dry run", rel)
		}
	}
}

// Two names of one file are one file: the ops apply in order on one
// content and the file is written once (not refused as changed by the
// first name's write).
func TestBatchTwoNamesOneFile(t *testing.T) {
	w, dir, _ := batchFixture(t, batchPy)
	req := ops.BatchRequest{Ops: batchOps(t, batchChunk,
		`{"op": "edit", "path": "./python/../python/process.py", "edits": [{"old_text": "util.debug('start')", "new_text": "util.debug('two names')"}]}`)}
	res, err := w.Batch(context.Background(), req)
	if err != nil {
		t.Fatalf("Batch: %v", err)
	}
	if res.Ops[1].Path != "./python/../python/process.py" {
		t.Errorf("op 2's path %q, want it as the op named it", res.Ops[1].Path)
	}
	if strings.Count(string(readRel(t, dir, batchPy)), "util.debug('two names')") != 1 {
		t.Errorf("the second name's edit did not apply to the first's result")
	}
}

// A request that is malformed as a request is refused before any file is
// read: no results, the files byte-identical.
func TestBatchRefusedRequest(t *testing.T) {
	w, dir, orig := batchFixture(t, batchPy, batchJava)
	dry := &ops.LinesRequest{Path: batchJava, Edits: ops.LineEdits{{InsertAfter: new(int), NewContent: "x"}}}
	dry.DryRun = true
	cases := []struct {
		name string
		ops  []ops.BatchOp
		code ops.Code
		msg  string
	}{
		{"no ops", nil, ops.CodeUsage, "no operations"},
		{"no path", batchOps(t, batchLinesJava, `{"op": "edit", "edits": [{"old_text": "a", "new_text": "b"}]}`), ops.CodeUsage, "operation 2 (edit): path is empty"},
		{"bad location", batchOps(t, `{"op": "insert-after", "location": "python/process.py::", "text": "x = 1\n"}`), ops.CodeUsage, "operation 1 (insert_after)"},
		{"bad match", batchOps(t, batchLinesJava, strings.Replace(batchChunk, `"chunks"`, `"match": "fuzzy", "chunks"`, 1)), ops.CodeUsage, "operation 2 (chunk): match"},
		{"bad regex", batchOps(t, `{"op": "replace", "path": "go/x.go", "search": "(", "replacement": "", "regex": true}`), ops.CodeUsage, "operation 1 (replace)"},
		{"bad line edit", []ops.BatchOp{{Op: ops.OpLines, Lines: &ops.LinesRequest{Path: batchJava, Edits: ops.LineEdits{{StartLine: 3, EndLine: 1}}}}}, ops.CodeInvalidInput, "operation 1 (lines)"},
		{"dry run on an op", []ops.BatchOp{{Op: ops.OpLines, Lines: dry}}, ops.CodeUsage, "for the whole batch"},
		// A line's "lang" is never dropped: it is the batch's, so on an
		// operation, show included, it is refused.
		{"lang on a show", batchOps(t, `{"op": "show", "location": "python/process.py::BaseProcess/start", "lang": "python"}`), ops.CodeUsage, "for the whole batch"},
		{"lang on an edit", batchOps(t, `{"op": "edit", "path": "python/process.py", "edits": [{"old_text": "a", "new_text": "b"}], "lang": "python"}`), ops.CodeUsage, "for the whole batch"},
		{"request of another op", []ops.BatchOp{{Op: ops.OpEdit, Lines: &ops.LinesRequest{Path: batchJava}}}, ops.CodeUsage, `op "edit" does not go with the request set`},
		{"two requests", []ops.BatchOp{{Op: ops.OpLines, Lines: dry, Write: &ops.WriteRequest{Path: "x"}}}, ops.CodeUsage, "2 requests set"},
		{"unknown op", []ops.BatchOp{{Op: "delete", Write: &ops.WriteRequest{Path: "x"}}}, ops.CodeUsage, `unknown op "delete"`},
	}
	for _, c := range cases {
		res, err := w.Batch(context.Background(), ops.BatchRequest{Ops: c.ops})
		var oe *ops.Error
		if !errors.As(err, &oe) || oe.Code != c.code || !strings.Contains(oe.Message, c.msg) {
			t.Errorf("%s: error %v, want %s containing %q", c.name, err, c.code, c.msg)
			continue
		}
		if res == nil || res.OK || len(res.Ops) != 0 || res.Ops == nil || res.Error != oe {
			t.Errorf("%s: result %+v, want not ok, no op results, the error", c.name, res)
		}
	}
	for rel, b := range orig {
		if !bytes.Equal(readRel(t, dir, rel), b) {
			t.Errorf("%s changed", rel)
		}
	}
}

// expect_sha256 on an op is checked against its file as read: a stale
// hash fails that op (CHANGED) and the file is not written.
func TestBatchExpectSHA256(t *testing.T) {
	w, dir, orig := batchFixture(t, batchPy)
	stale := strings.Repeat("0", 64)
	good := string(textSHA(orig[batchPy]))
	edit := func(sum string) string {
		return strings.Replace(batchEditStart, `"path"`, `"expect_sha256": "`+sum+`", "path"`, 1)
	}
	res, err := w.Batch(context.Background(), ops.BatchRequest{Ops: batchOps(t, batchChunk, edit(stale))})
	if ops.CodeOf(err) != ops.CodeChanged {
		t.Fatalf("stale hash: error %v, want CHANGED", err)
	}
	if want := []string{"skipped", "failed"}; !reflect.DeepEqual(batchStatuses(res), want) {
		t.Errorf("stale hash: statuses %v, want %v", batchStatuses(res), want)
	}
	if !bytes.Equal(readRel(t, dir, batchPy), orig[batchPy]) {
		t.Errorf("stale hash: the file changed")
	}
	// The hash of the file as read, not as the chunk left it.
	if _, err := w.Batch(context.Background(), ops.BatchRequest{Ops: batchOps(t, batchChunk, edit(good))}); err != nil {
		t.Errorf("the file's hash: %v", err)
	}
}

// A symbol op on a file in no supported language fails that op
// (UNSUPPORTED_LANGUAGE); a write creates a file, and later ops on it see
// the written content.
func TestBatchWriteThenEdit(t *testing.T) {
	w, dir, _ := batchFixture(t, batchPy)
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("f\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := w.Batch(context.Background(), ops.BatchRequest{Ops: batchOps(t,
		`{"op": "write", "path": "pkg/new.py", "content": "def f():\n    return 1\n"}`,
		`{"op": "insert-after", "location": "pkg/new.py::f", "text": "def g():\n    return 2\n"}`,
		`{"op": "insert-after", "location": "notes.txt::f", "text": "x"}`,
	)})
	if ops.CodeOf(err) != ops.CodeUnsupported {
		t.Fatalf("error %v, want UNSUPPORTED_LANGUAGE for notes.txt", err)
	}
	if want := []string{"applied", "applied", "failed"}; !reflect.DeepEqual(batchStatuses(res), want) {
		t.Errorf("statuses %v, want %v", batchStatuses(res), want)
	}
	if got, want := string(readRel(t, dir, "pkg/new.py")), "def f():\n    return 1\n\n\ndef g():\n    return 2\n"; got != want {
		t.Errorf("pkg/new.py:\n%s\nwant:\n%s", got, want)
	}
}

// Each op line is read strictly into the same request types as the
// other front ends: an unknown field, a missing or unknown op and
// malformed chunks are errors, and MarshalJSON writes what
// UnmarshalJSON reads.
func TestBatchOpJSON(t *testing.T) {
	var op ops.BatchOp
	if err := json.Unmarshal([]byte(batchChunk), &op); err != nil {
		t.Fatal(err)
	}
	if op.Op != ops.OpChunk || op.Chunk == nil || op.Chunk.Location != "python/process.py::BaseProcess/start" || len(op.Chunk.Chunks) != 1 ||
		op.Edit != nil || op.Lines != nil || op.Replace != nil || op.Write != nil || op.SymbolText != nil {
		t.Fatalf("decoded %+v", op)
	}
	b, err := json.Marshal(op)
	if err != nil {
		t.Fatal(err)
	}
	var again ops.BatchOp
	if err := json.Unmarshal(b, &again); err != nil || !reflect.DeepEqual(again, op) {
		t.Errorf("round trip through %s: %+v, %v", b, again, err)
	}
	for _, c := range []struct{ line, want string }{
		{`{"op": "write", "pth": "x.py", "content": ""}`, `unknown field "pth"`},
		{`{"op": "replace-body", "location": "a.py::f", "body": "x"}`, `op "replace-body" needs "text"`},
		{`{"op": "replace-body", "location": "a.py::f", "text": "x", "body": "x"}`, `unknown field "body"`},
		{`{"op": "edit", "path": "a.go", "dry_run": true, "edits": [{"old_text": "a", "new_text": "b"}], "extra": 1}`, `unknown field "extra"`},
		{`{"path": "a.go"}`, `no "op"`},
		{`{"op": 1, "path": "a.go"}`, `no "op"`},
		{`{"op": "write", "path": "a.go"}`, `op "write" needs "content"`},
		{`{"op": "replace", "path": "a.go", "search": "x"}`, `op "replace" needs "replacement"`},
		{`{"op": "insert-before", "location": "a.go::f"}`, `op "insert-before" needs "text"`},
		{`{"op": "delete", "path": "a.go"}`, `unknown op "delete"`},
		{`{"op": "chunk", "location": "a.py::f", "chunks": [{"old_lines": ["a"]}]}`, "new_lines"},
		{`["op", "edit"]`, "cannot unmarshal"},
	} {
		var op ops.BatchOp
		err := json.Unmarshal([]byte(c.line), &op)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.line, err, c.want)
		}
	}
	var ie *chunk.InputError
	if err := json.Unmarshal([]byte(`{"op": "chunk", "location": "a.py::f", "chunks": []}`), &op); !errors.As(err, &ie) {
		t.Errorf("empty chunks: error %v (%T), want a *chunk.InputError", err, err)
	}
}

// Batches on overlapping files at once, atomic and not, some naming the
// files in the other order: each file's lock is held from the read to
// the commit (atomic batches take theirs in one order, so none
// deadlocks), so every batch applies, none is refused as CHANGED by the
// commit's check and no edit is lost.
func TestBatchConcurrentOverlapping(t *testing.T) {
	dir := t.TempDir()
	const n = 8
	for _, name := range []string{"a.py", "b.py"} {
		var src strings.Builder
		for i := range n {
			fmt.Fprintf(&src, "def f%d(x):\n    return x + %d\n\n\n", i, i)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			first, second := "a.py", "b.py"
			if i%2 == 1 {
				first, second = second, first
			}
			op := func(path string) ops.BatchOp {
				return ops.BatchOp{Op: ops.OpEdit, Edit: &ops.EditRequest{Path: path,
					Edits: ops.TextEdits{{OldText: fmt.Sprintf("return x + %d\n", i), NewText: fmt.Sprintf("return x * %d\n", i)}}}}
			}
			_, errs[i] = w.Batch(context.Background(), ops.BatchRequest{Atomic: i%4 < 2, Ops: []ops.BatchOp{op(first), op(second)}})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("batch %d: %v", i, err)
		}
	}
	for _, name := range []string{"a.py", "b.py"} {
		got := string(readRel(t, dir, name))
		for i := range n {
			if !strings.Contains(got, fmt.Sprintf("    return x * %d\n", i)) {
				t.Errorf("%s: batch %d's edit is not in the file", name, i)
			}
		}
	}
}

// A batch's replace is Replace's request with one file: it sees the ops
// before it, counts its matches against expect, and a search that finds
// nothing is NO_MATCH_TEXT with the most similar lines, the file left
// byte-identical.
func TestBatchReplace(t *testing.T) {
	w, dir, orig := batchFixture(t, batchGo)
	_, err := w.Batch(context.Background(), ops.BatchRequest{Ops: batchOps(t,
		`{"op": "edit", "path": "go/slog_value.go", "edits": [{"old_text": "func countEmptyGroups(", "new_text": "func countEmptyGroupz("}]}`,
		`{"op": "replace", "path": "go/slog_value.go", "search": "countEmptyGroupz", "replacement": "countEmpty", "expect": 1}`,
	)})
	if err != nil {
		t.Fatalf("Batch: %v", err)
	}
	if got := string(readRel(t, dir, batchGo)); !strings.Contains(got, "\nfunc countEmpty(as []Attr) int {") || !strings.Contains(got, "countEmptyGroups(as)") {
		t.Errorf("the replace did not apply to the edit's result alone")
	}
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(batchGo)), orig[batchGo], 0o644); err != nil {
		t.Fatal(err)
	}

	_, err = w.Batch(context.Background(), ops.BatchRequest{Ops: batchOps(t,
		`{"op": "replace", "path": "go/slog_value.go", "search": "countEmptyGroups", "replacement": "n", "expect": 1}`)})
	if oe := ops.AsError(err); oe == nil || oe.Code != ops.CodeCount || !strings.Contains(oe.Message, "expected 1 match(es)") {
		t.Errorf("expect 1: error %v, want COUNT", err)
	}
	res, err := w.Batch(context.Background(), ops.BatchRequest{Ops: batchOps(t,
		`{"op": "replace", "path": "go/slog_value.go", "search": "countEmptyGroupsX", "replacement": "n"}`)})
	oe := ops.AsError(err)
	if oe == nil || oe.Code != ops.CodeNoMatchText || res.Ops[0].Error != oe {
		t.Fatalf("no match: error %v, want NO_MATCH_TEXT on the op", err)
	}
	near, ok := oe.Nearest.([]ops.SimilarLine)
	if !ok || len(near) == 0 || !strings.Contains(near[0].Text, "countEmptyGroups") {
		t.Errorf("no match: nearest %#v, want the similar lines", oe.Nearest)
	}
	if !bytes.Equal(readRel(t, dir, batchGo), orig[batchGo]) {
		t.Errorf("a refused replace changed the file")
	}

	for _, c := range []struct{ line, msg string }{
		{`{"op": "replace", "path": "go/slog_value.go", "paths": ["go/slog_value.go"], "search": "a", "replacement": "b"}`, `not "paths"`},
		{`{"op": "replace", "path": "go/slog_value.go", "partial": true, "search": "a", "replacement": "b"}`, `"partial"`},
		{`{"op": "replace", "path": "go/slog_value.go", "expect": -1, "search": "a", "replacement": "b"}`, "expect -1"},
	} {
		_, err := w.Batch(context.Background(), ops.BatchRequest{Ops: batchOps(t, c.line)})
		if oe := ops.AsError(err); oe == nil || oe.Code != ops.CodeUsage || !strings.Contains(oe.Message, c.msg) {
			t.Errorf("%s: error %v, want USAGE containing %q", c.line, err, c.msg)
		}
	}
	if !bytes.Equal(readRel(t, dir, batchGo), orig[batchGo]) {
		t.Errorf("a refused request changed the file")
	}

	// MarshalJSON writes a replace as a batch line, without "paths".
	op := batchOps(t, `{"op": "replace", "path": "go/slog_value.go", "search": "a", "replacement": "b", "expect": 2}`)[0]
	b, err := json.Marshal(op)
	if err != nil {
		t.Fatal(err)
	}
	var again ops.BatchOp
	if err := json.Unmarshal(b, &again); err != nil || !reflect.DeepEqual(again, op) || strings.Contains(string(b), "paths") {
		t.Errorf("round trip through %s: %+v, %v", b, again, err)
	}
}

// A batch whose first op on a Go file locates a symbol hands the guard
// that parse of the file as read (its layout, so the guard does not
// parse it again): an edit in
// another declaration that breaks the file is still refused with
// go/parser's error and the file byte-identical, and a valid pair is
// written. The file's diff then holds both edits.
func TestBatchGoFirstOpParse(t *testing.T) {
	insert := `{"op": "insert-after", "location": "go/slog_value.go::countEmptyGroups", "text": "func helper() {}\n"}`
	tests := []struct {
		name, second string
		refused      bool
	}{
		{"valid", `{"op": "edit", "path": "go/slog_value.go", "edits": [{"old_text": "func (v Value) Kind() Kind {", "new_text": "func (v Value) Kind() (k Kind) {"}]}`, false},
		{"broken elsewhere", `{"op": "edit", "path": "go/slog_value.go", "edits": [{"old_text": "func (v Value) Kind() Kind {", "new_text": "func (v Value) Kind() Kind {{"}]}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, dir, orig := batchFixture(t, batchGo)
			res, err := w.Batch(context.Background(), ops.BatchRequest{Ops: batchOps(t, insert, tt.second)})
			got := readRel(t, dir, batchGo)
			if tt.refused {
				var oe *ops.Error
				if !errors.As(err, &oe) || oe.Code != ops.CodeSyntax || res.Written {
					t.Fatalf("error %v (written %v), want SYNTAX, nothing written", err, res.Written)
				}
				if !bytes.Equal(got, orig[batchGo]) {
					t.Error("slog_value.go changed")
				}
				return
			}
			if err != nil || !res.Written {
				t.Fatalf("Batch: %v (written %v)", err, res.Written)
			}
			if !bytes.Contains(got, []byte("\nfunc helper() {}\n")) || !bytes.Contains(got, []byte("func (v Value) Kind() (k Kind) {")) {
				t.Error("the two edits are not both in the file")
			}
		})
	}
}

// TestEmptyExpectSHA256Refused: "expect_sha256": "" in JSON (a request, a
// batch operation, a batch's request) is a usage error for that field,
// never "no check", while leaving the field out is no check.
func TestEmptyExpectSHA256Refused(t *testing.T) {
	for _, in := range []struct {
		name string
		v    any
		json string
	}{
		{"edit request", &ops.EditRequest{}, `{"path": "a.py", "edits": [{"old_text": "a", "new_text": "b"}], "expect_sha256": ""}`},
		{"write options", &ops.WriteOptions{}, `{"expect_sha256": ""}`},
		{"batch op", &ops.BatchOp{}, strings.Replace(batchEditStart, `"path"`, `"expect_sha256": "", "path"`, 1)},
	} {
		err := json.Unmarshal([]byte(in.json), in.v)
		var ue *ops.UsageError
		if !errors.As(err, &ue) || ue.Field != "expect_sha256" || ops.CodeOf(err) != ops.CodeUsage {
			t.Errorf("%s: %v, want a usage error for expect_sha256", in.name, err)
		}
	}
	var o ops.WriteOptions
	if err := json.Unmarshal([]byte(`{"dry_run": true}`), &o); err != nil || o.ExpectSHA256 != "" {
		t.Errorf("left out: %v, %q", err, o.ExpectSHA256)
	}
	if err := json.Unmarshal([]byte(`{"expect_sha256": "ab"}`), &o); err != nil || o.ExpectSHA256 != "ab" {
		t.Errorf("a value: %v, %q (validate refuses it later)", err, o.ExpectSHA256)
	}
}

// TestBatchTakesToolNames: a batch line may name an operation as the MCP
// tool does (replace_body, insert_before, insert_after); it runs as the
// batch name's and reports that name.
func TestBatchTakesToolNames(t *testing.T) {
	for tool, name := range map[string]string{"replace_body": ops.OpReplaceBody, "insert_before": ops.OpInsertBefore, "insert_after": ops.OpInsertAfter} {
		var op ops.BatchOp
		if err := json.Unmarshal([]byte(`{"op": "`+tool+`", "location": "a.py::f", "text": "def g():\n    pass\n"}`), &op); err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		if op.Op != name || op.SymbolText == nil || op.SymbolText.Location != "a.py::f" {
			t.Errorf("%s: %+v", tool, op)
		}
	}
}
