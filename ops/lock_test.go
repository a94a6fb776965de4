package ops_test

import (
	"context"
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
