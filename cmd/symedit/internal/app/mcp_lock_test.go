//go:build unix

package app

import (
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestMCPCallTimeLimitWhileLocked: a call that waits for a folder's lock
// held by another symedit process (here a second open file description
// of the folder, which flock treats as another holder) is answered at the
// server's time limit for one call, saying so, not when the lock wait
// gives up (files.LockWait, a minute), and writes nothing.
func TestMCPCallTimeLimitWhileLocked(t *testing.T) {
	dir := t.TempDir()
	path := writeFuncs(t, dir, 1)[0]
	holder, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if err := unix.Flock(int(holder.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	cs := serveInProcess(t, dir, 300*time.Millisecond, nil, nil)
	c := callTool(t, cs, "chunk", map[string]any{"location": path + "::f", "chunks": returnChunk(1)})
	if !c.isError || !strings.Contains(c.text, "the server's time limit for one call (300ms)") ||
		strings.Contains(c.text, "has been writing") || get(c.data, "ok") != false {
		t.Errorf("a call waiting for a held lock: %+v", c)
	}
	if got := readFile(t, path); got != "def f():\n    return 0\n" {
		t.Errorf("the file: %q", got)
	}
}
