package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/symedit/symedit/internal/symcache"
)

// TestMCPUndo passes a chunk result's op_id to the undo tool: the file is
// byte-identical to before the chunk; the journal tool lists both
// operations; an undo after an outside change is refused, naming the
// file, with nothing written.
func TestMCPUndo(t *testing.T) {
	t.Setenv(symcache.EnvDir, t.TempDir())
	root := t.TempDir()
	copyFixtures(t, root)
	process := filepath.Join(root, "python/process.py")
	orig, err := os.ReadFile(process)
	if err != nil {
		t.Fatal(err)
	}
	cs := serveInProcess(t, root, time.Hour, nil, nil)
	chunks := []map[string]any{{"context_before": []string{"        self._check_closed()"}, "old_lines": []string{},
		"new_lines": []string{"        util.debug('start')"}, "context_after": []string{"        assert self._popen is None, 'cannot start a process twice'"}}}
	c := callTool(t, cs, "chunk", map[string]any{"location": process + "::BaseProcess/start", "chunks": chunks})
	id, _ := get(c.data, "op_id").(string)
	if c.isError || id == "" {
		t.Fatalf("chunk: %+v", c)
	}
	u := callTool(t, cs, "undo", map[string]any{"op_id": id})
	if u.isError || get(u.data, "undone", 0) != id || get(u.data, "files", 0, "action") != "restored" || !strings.Contains(u.text, "python/process.py: restored") {
		t.Fatalf("undo: %+v", u)
	}
	if got, _ := os.ReadFile(process); !bytes.Equal(got, orig) {
		t.Fatal("the file differs from before the chunk after the undo")
	}
	j := callTool(t, cs, "journal", nil)
	if j.isError || get(j.data, "entries", 0, "op") != "chunk" || get(j.data, "entries", 1, "op") != "undo" || get(j.data, "entries", 1, "undoable") != true {
		t.Fatalf("journal: %+v", j)
	}
	hand := append(bytes.Clone(orig), "# by hand\n"...)
	if err := os.WriteFile(process, hand, 0o644); err != nil {
		t.Fatal(err)
	}
	r := callTool(t, cs, "undo", map[string]any{})
	if !r.isError || get(r.data, "error", "code") != "CHANGED" || get(r.data, "files", 0, "state") != "changed" || !strings.Contains(r.text, "python/process.py") {
		t.Fatalf("undo after a change: %+v", r)
	}
	if got, _ := os.ReadFile(process); !bytes.Equal(got, hand) {
		t.Fatal("a refused undo wrote the file")
	}
}
