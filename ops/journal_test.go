package ops_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/symedit/symedit/ops"
)

// fileState is a file's bytes and mode.
type fileState struct {
	content string
	mode    fs.FileMode
}

// tree returns every regular file below root (relative, slash-separated)
// with its content and mode.
func treeState(t *testing.T, root string) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = fileState{string(b), fi.Mode()}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameTree fails unless root holds exactly want, bytes and modes.
func sameTreeState(t *testing.T, root string, want map[string]fileState, what string) {
	t.Helper()
	got := treeState(t, root)
	for p, w := range want {
		if g, ok := got[p]; !ok {
			t.Errorf("%s: %s is missing", what, p)
		} else if g != w {
			t.Errorf("%s: %s differs: mode %v, want %v; content equal: %v", what, p, g.mode, w.mode, g.content == w.content)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s: %s should not exist", what, p)
		}
	}
}

// journalWorkspace copies the fixtures into a temporary root (process.py
// made executable, so that undo's keeping of modes shows) and opens a
// workspace with its own journal folder.
func journalWorkspace(t *testing.T, opt ops.Options) (*ops.Workspace, string) {
	t.Helper()
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("../testdata/src")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(root, "python/process.py"), 0o755); err != nil {
		t.Fatal(err)
	}
	opt.Root, opt.Dir = root, root
	if opt.IndexDir == "" {
		opt.IndexDir = t.TempDir()
	}
	w, err := ops.Open(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, root
}

func decode[T any](t *testing.T, s string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

const (
	jChunk = `{"location": "python/process.py::BaseProcess/start", "chunks": [{"context_before": "        self._check_closed()", "old_lines": [], "new_lines": ["        util.debug('start')"], "context_after": "        assert self._popen is None, 'cannot start a process twice'"}]}`
	jReply = "*** Begin Patch\n*** Update File: python/process.py\n@@\n-    return _current_process\n+    return _current_process  # the current one\n*** Update File: go/slog_value.go\n@@\n-func (v Value) Kind() Kind {\n+func (v Value) Kind() Kind { // kind\n*** End Patch\n"
)

// writers are the writing operations, each run once on a fresh root.
var writers = map[string]func(ctx context.Context, t *testing.T, w *ops.Workspace) (*ops.Result, error){
	"chunk": func(ctx context.Context, t *testing.T, w *ops.Workspace) (*ops.Result, error) {
		r, err := w.Chunk(ctx, decode[ops.ChunkRequest](t, jChunk))
		return &r.Result, err
	},
	"edit": func(ctx context.Context, t *testing.T, w *ops.Workspace) (*ops.Result, error) {
		r, err := w.Edit(ctx, decode[ops.EditRequest](t, `{"path": "python/process.py", "edits": [{"old_text": "cannot start a process twice", "new_text": "started already"}]}`))
		return &r.Result, err
	},
	"lines": func(ctx context.Context, t *testing.T, w *ops.Workspace) (*ops.Result, error) {
		r, err := w.Lines(ctx, ops.LinesRequest{Path: "python/process.py", Edits: ops.LineEdits{{StartLine: 1, EndLine: 2, NewContent: "# replaced\n"}}})
		return &r.Result, err
	},
	"write": func(ctx context.Context, t *testing.T, w *ops.Workspace) (*ops.Result, error) {
		r, err := w.Write(ctx, ops.WriteRequest{Path: "new/made.py", Content: "x = 1\n"})
		return &r.Result, err
	},
	"write-over": func(ctx context.Context, t *testing.T, w *ops.Workspace) (*ops.Result, error) {
		r, err := w.Write(ctx, ops.WriteRequest{Path: "python/process.py", Content: "x = 1\n"})
		return &r.Result, err
	},
	"replace": func(ctx context.Context, t *testing.T, w *ops.Workspace) (*ops.Result, error) {
		r, err := w.Replace(ctx, ops.ReplaceRequest{Search: "Value", Replacement: "Valeur", Paths: []string{"go/slog_value.go", "python/process.py"}})
		return &r.Result, err
	},
	"replace-body": func(ctx context.Context, t *testing.T, w *ops.Workspace) (*ops.Result, error) {
		r, err := w.ReplaceBody(ctx, ops.SymbolTextRequest{Location: "python/process.py::current_process", Text: "def current_process():\n    return None\n"})
		return &r.Result, err
	},
	"insert-after": func(ctx context.Context, t *testing.T, w *ops.Workspace) (*ops.Result, error) {
		r, err := w.InsertAfter(ctx, ops.SymbolTextRequest{Location: "python/process.py::current_process", Text: "def added():\n    return 1\n"})
		return &r.Result, err
	},
	"apply": func(ctx context.Context, t *testing.T, w *ops.Workspace) (*ops.Result, error) {
		r, err := w.Apply(ctx, ops.ApplyRequest{Reply: jReply})
		return &r.Result, err
	},
	"batch": func(ctx context.Context, t *testing.T, w *ops.Workspace) (*ops.Result, error) {
		req := ops.BatchRequest{Ops: []ops.BatchOp{
			decode[ops.BatchOp](t, `{"op": "chunk", `+strings.TrimPrefix(jChunk, "{")),
			decode[ops.BatchOp](t, `{"op": "write", "path": "go/slog_value.go", "content": "package slog\n"}`),
		}}
		r, err := w.Batch(ctx, req)
		return &r.Result, err
	},
}

func TestUndoEachOperation(t *testing.T) {
	for name, run := range writers {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			w, root := journalWorkspace(t, ops.Options{})
			before := treeState(t, root)
			res, err := run(ctx, t, w)
			if err != nil || !res.Written || res.OpID == "" || res.JournalError != "" {
				t.Fatalf("%s: err %v, written %v, op_id %q, journal_error %q", name, err, res.Written, res.OpID, res.JournalError)
			}
			if after := treeState(t, root); len(after) == len(before) && fmt.Sprint(after) == fmt.Sprint(before) {
				t.Fatalf("%s wrote nothing", name)
			}
			u, err := w.Undo(ctx, ops.UndoRequest{})
			if err != nil || !u.OK || !u.Written || len(u.Undone) != 1 || u.Undone[0] != res.OpID {
				t.Fatalf("undo: %v, %+v", err, u)
			}
			sameTreeState(t, root, before, "after undo of "+name)
		})
	}
}

func TestUndoByIDAndTwiceRedoes(t *testing.T) {
	ctx := context.Background()
	w, root := journalWorkspace(t, ops.Options{})
	before := treeState(t, root)
	res, err := w.Chunk(ctx, decode[ops.ChunkRequest](t, jChunk))
	if err != nil {
		t.Fatal(err)
	}
	edited := treeState(t, root)
	dry, err := w.Undo(ctx, ops.UndoRequest{OpID: res.OpID, DryRun: true})
	if err != nil || !strings.Contains(dry.Diff, "-        util.debug('start')") || dry.Written {
		t.Fatalf("dry run: %v, %+v", err, dry)
	}
	sameTreeState(t, root, edited, "after a dry run")
	u, err := w.Undo(ctx, ops.UndoRequest{OpID: res.OpID})
	if err != nil || u.OpID == "" {
		t.Fatalf("undo: %v, %+v", err, u)
	}
	sameTreeState(t, root, before, "after undo")
	if _, err := w.Undo(ctx, ops.UndoRequest{}); err != nil {
		t.Fatal(err)
	}
	sameTreeState(t, root, edited, "after undo of the undo")
	j, err := w.Journal(ctx, ops.JournalRequest{})
	if err != nil || len(j.Entries) != 3 || j.Entries[1].Op != "undo" || j.Entries[1].Undoes[0] != res.OpID || !j.Entries[2].Undoable || j.Entries[1].Undoable {
		// The chunk's file holds what it wrote again (undoable); the first
		// undo's does not.
		t.Fatalf("journal: %v, %+v", err, j)
	}
}

// applyMoveDelete is a reply that edits a.py, deletes b.py and moves c.py
// to sub/d.py.
const applyMoveDelete = "*** Begin Patch\n*** Update File: a.py\n@@\n-a = 1\n+a = 2\n*** Delete File: b.py\n*** Update File: c.py\n*** Move to: sub/d.py\n@@\n-c = 1\n+c = 2\n*** End Patch\n"

func TestUndoApplyMoveDeleteAllOrNone(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	for name, content := range map[string]string{"a.py": "a = 1\n", "b.py": "b = 1\n", "c.py": "c = 1\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(root, "c.py"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The deleted file is private: undo puts it back 0600, not as a new
	// file (0666 less the umask).
	if err := os.Chmod(filepath.Join(root, "b.py"), 0o600); err != nil {
		t.Fatal(err)
	}
	w, err := ops.Open(ops.Options{Root: root, Dir: root, IndexDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	before := treeState(t, root)
	if res, err := w.Apply(ctx, ops.ApplyRequest{Reply: applyMoveDelete}); err != nil || res.OpID == "" {
		t.Fatalf("apply: %v, %+v", err, res)
	}
	applied := treeState(t, root)
	if _, ok := applied["sub/d.py"]; !ok || len(applied) != 2 {
		t.Fatalf("apply left %v", applied)
	}
	// A change between undo's checks and its commit makes the commit
	// fail: nothing may be written.
	d := filepath.Join(root, "sub/d.py")
	ops.SetUndoHook(w, func() { os.WriteFile(d, []byte("c = 3\n"), 0o755) })
	_, err = w.Undo(ctx, ops.UndoRequest{})
	ops.SetUndoHook(w, nil)
	if ops.CodeOf(err) != ops.CodeChanged {
		t.Fatalf("undo with a fault: %v, want CHANGED", err)
	}
	faulted := applied
	faulted["sub/d.py"] = fileState{"c = 3\n", applied["sub/d.py"].mode}
	sameTreeState(t, root, faulted, "after a failed undo")
	// Put it back as the apply left it: the undo proceeds.
	if err := os.WriteFile(d, []byte("c = 2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if u, err := w.Undo(ctx, ops.UndoRequest{}); err != nil {
		t.Fatalf("undo: %v, %+v", err, u)
	}
	sameTreeState(t, root, before, "after undo")
}

func TestUndoRefusedAfterOutsideChange(t *testing.T) {
	ctx := context.Background()
	w, root := journalWorkspace(t, ops.Options{})
	if _, err := w.Apply(ctx, ops.ApplyRequest{Reply: jReply}); err != nil {
		t.Fatal(err)
	}
	hand := filepath.Join(root, "go/slog_value.go")
	if err := os.WriteFile(hand, []byte("package slog // by hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	now := treeState(t, root)
	u, err := w.Undo(ctx, ops.UndoRequest{})
	if ops.CodeOf(err) != ops.CodeChanged || !strings.Contains(err.Error(), "go/slog_value.go (changed)") || strings.Contains(err.Error(), "process.py (") {
		t.Fatalf("undo: %v, want CHANGED naming go/slog_value.go only", err)
	}
	states := map[string]string{}
	for _, f := range u.Files {
		states[f.Path] = f.State
	}
	if states["go/slog_value.go"] != "changed" || states["python/process.py"] != "" {
		t.Errorf("files: %+v", u.Files)
	}
	sameTreeState(t, root, now, "after the refused undo")
	os.Remove(hand)
	if _, err := w.Undo(ctx, ops.UndoRequest{}); ops.CodeOf(err) != ops.CodeChanged || !strings.Contains(err.Error(), "(deleted)") {
		t.Fatalf("undo of a deleted file: %v", err)
	}
}

func TestUndoLast(t *testing.T) {
	ctx := context.Background()
	w, root := journalWorkspace(t, ops.Options{})
	before := treeState(t, root)
	if _, err := w.Chunk(ctx, decode[ops.ChunkRequest](t, jChunk)); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Edit(ctx, decode[ops.EditRequest](t, `{"path": "python/process.py", "edits": [{"old_text": "util.debug('start')", "new_text": "util.debug('started')"}]}`)); err != nil {
		t.Fatal(err)
	}
	u, err := w.Undo(ctx, ops.UndoRequest{Last: 2})
	if err != nil || len(u.Undone) != 2 {
		t.Fatalf("undo --last 2: %v, %+v", err, u)
	}
	sameTreeState(t, root, before, "after undo of the last 2")
	if _, err := w.Undo(ctx, ops.UndoRequest{Last: 9}); ops.CodeOf(err) != ops.CodeInvalidInput {
		t.Errorf("undo of more than the journal holds: %v", err)
	}
	if _, err := w.Undo(ctx, ops.UndoRequest{OpID: "no-such-id", Last: 1}); ops.CodeOf(err) != ops.CodeUsage {
		t.Errorf("undo of an id and a count: %v", err)
	}
	sameTreeState(t, root, before, "after refused undos")
}

func TestJournalOff(t *testing.T) {
	ctx := context.Background()
	cache := t.TempDir()
	w, _ := journalWorkspace(t, ops.Options{IndexDir: cache, NoJournal: true})
	res, err := w.Chunk(ctx, decode[ops.ChunkRequest](t, jChunk))
	if err != nil || res.OpID != "" {
		t.Fatalf("chunk: %v, op_id %q", err, res.OpID)
	}
	t.Setenv(ops.EnvNoJournal, "1")
	w2, _ := journalWorkspace(t, ops.Options{IndexDir: cache})
	if res, err := w2.Chunk(ctx, decode[ops.ChunkRequest](t, jChunk)); err != nil || res.OpID != "" {
		t.Fatalf("chunk: %v, op_id %q", err, res.OpID)
	}
	if _, err := os.Stat(filepath.Join(cache, "journal")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the journal folder exists: %v", err)
	}
}

func TestJournalErrorDoesNotBlock(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "not-a-folder")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	w, root := journalWorkspace(t, ops.Options{IndexDir: file})
	res, err := w.Chunk(ctx, decode[ops.ChunkRequest](t, jChunk))
	if err != nil || !res.Written || res.OpID != "" || res.JournalError == "" {
		t.Fatalf("chunk: %v, %+v", err, res.Result)
	}
	if !strings.Contains(treeState(t, root)["python/process.py"].content, "util.debug('start')") {
		t.Error("the edit was not written")
	}
}

func TestJournalBoundsAndCorrupt(t *testing.T) {
	ctx := context.Background()
	w, root := journalWorkspace(t, ops.Options{JournalMaxEntries: 3})
	var ids []string
	for i := range 5 {
		res, err := w.Write(ctx, ops.WriteRequest{Path: "w.py", Content: fmt.Sprintf("x = %d\n", i)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.OpID)
	}
	j, err := w.Journal(ctx, ops.JournalRequest{})
	if err != nil || len(j.Entries) != 3 || j.Entries[0].OpID != ids[2] || j.Entries[2].OpID != ids[4] {
		t.Fatalf("journal: %v, %+v", err, j)
	}
	if err := os.WriteFile(filepath.Join(j.Dir, "00000000T000000.000000000Z-00000000.json"), []byte("{corrupt"), 0o600); err != nil {
		t.Fatal(err)
	}
	j, err = w.Journal(ctx, ops.JournalRequest{})
	if err != nil || len(j.Problems) != 1 || len(j.Entries) < 2 {
		t.Fatalf("journal with a corrupt entry: %v, %+v", err, j)
	}
	if _, err := w.Undo(ctx, ops.UndoRequest{}); err != nil {
		t.Fatalf("undo past a corrupt entry: %v", err)
	}
	if got := treeState(t, root)["w.py"].content; got != "x = 3\n" {
		t.Errorf("w.py = %q after undo", got)
	}
	for _, e := range j.Entries {
		for _, f := range e.Files {
			if f.Path != "w.py" {
				t.Errorf("journal path %q, want w.py", f.Path)
			}
		}
	}
	fi, err := os.Stat(j.Dir)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("journal folder: %v, %v", fi.Mode(), err)
	}
}

func TestJournalConcurrent(t *testing.T) {
	ctx := context.Background()
	w, _ := journalWorkspace(t, ops.Options{})
	const n = 16
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := w.Write(ctx, ops.WriteRequest{Path: fmt.Sprintf("c%d.py", i%4), Content: fmt.Sprintf("x = %d\n", i)}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	j, err := w.Journal(ctx, ops.JournalRequest{})
	if err != nil || len(j.Entries) != n {
		t.Fatalf("journal: %v, %d entries, want %d", err, len(j.Entries), n)
	}
}
