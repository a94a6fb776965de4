package ops_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/symedit/symedit/ops"
)

// TestChunkConcurrentOneFile runs chunk edits of eight functions of one
// file at once on one Workspace: the lock per file serializes them, so
// every one applies (none is refused as CHANGED by the commit's check,
// none is lost) and the file ends with all eight.
func TestChunkConcurrentOneFile(t *testing.T) {
	dir := t.TempDir()
	var src strings.Builder
	const n = 8
	for i := range n {
		fmt.Fprintf(&src, "def f%d(x):\n    y = x + %d\n    return y\n\n\n", i, i)
	}
	path := filepath.Join(dir, "m.py")
	if err := os.WriteFile(path, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = w.Chunk(context.Background(), ops.ChunkRequest{
				Location: fmt.Sprintf("m.py::f%d", i),
				Chunks: ops.Chunks{{
					OldLines:     []string{fmt.Sprintf("    y = x + %d", i)},
					NewLines:     []string{fmt.Sprintf("    y = x * %d", i)},
					ContextAfter: []string{"    return y"},
				}},
			})
		}()
	}
	wg.Wait()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if errs[i] != nil {
			t.Errorf("chunk %d: %v", i, errs[i])
		}
		if !strings.Contains(string(got), fmt.Sprintf("    y = x * %d\n", i)) {
			t.Errorf("edit %d is not in the file", i)
		}
	}
}

// TestCancelledBeforeCommit checks that a call whose context is done by
// the time its checks pass writes nothing and says so.
func TestCancelledBeforeCommit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.py")
	src := "def f(x):\n    return x\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// The guard off, so that nothing but the commit's check sees the
	// context (with the guard on, it is refused NOT_CHECKED earlier).
	off := ops.WriteOptions{Check: "off"}
	res, err := w.Write(ctx, ops.WriteRequest{Path: "m.py", Content: "def f(x):\n    return x + 1\n", WriteOptions: off})
	if err == nil || res.OK || res.Written || !errors.Is(err, context.Canceled) {
		t.Errorf("write with a cancelled context: ok %v written %v err %v", res.OK, res.Written, err)
	}
	ares, err := w.Apply(ctx, ops.ApplyRequest{Reply: "m.py\n<<<<<<< SEARCH\n    return x\n=======\n    return x + 2\n>>>>>>> REPLACE\n", WriteOptions: off})
	if err == nil || ares.OK || !errors.Is(err, context.Canceled) {
		t.Errorf("apply with a cancelled context: ok %v err %v", ares.OK, err)
	}
	if got, _ := os.ReadFile(path); string(got) != src {
		t.Errorf("the file changed: %q", got)
	}
}

// TestUnknownLanguageRefused checks that a request naming a language that
// does not exist is refused (UNSUPPORTED_LANGUAGE) before anything is
// written: taken as no language, the syntax guard would be skipped and
// the edit written unchecked.
func TestUnknownLanguageRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.py")
	src := "def f(x):\n    return x\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	bad := ops.WriteOptions{Lang: "nosuch"}
	ctx := context.Background()
	_, err1 := w.Edit(ctx, ops.EditRequest{Path: "m.py", Edits: ops.TextEdits{{OldText: "return x", NewText: "return x +"}}, WriteOptions: bad})
	_, err2 := w.Write(ctx, ops.WriteRequest{Path: "m.py", Content: "def f(:\n", WriteOptions: bad})
	_, err3 := w.Lines(ctx, ops.LinesRequest{Path: "m.py", Edits: ops.LineEdits{{StartLine: 2, EndLine: 2, NewContent: "    return (\n"}}, WriteOptions: bad})
	for i, err := range []error{err1, err2, err3} {
		if ops.CodeOf(err) != ops.CodeUnsupported {
			t.Errorf("request %d: %v, want UNSUPPORTED_LANGUAGE", i+1, err)
		}
	}
	if got, _ := os.ReadFile(path); string(got) != src {
		t.Errorf("the file changed: %q", got)
	}
}
