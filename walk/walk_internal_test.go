package walk

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestDirNamedPipe walks a folder that a named pipe has replaced since it
// was listed as a folder, a moment black-box tests cannot reach: the walk
// fails with ENOTDIR at once instead of opening the pipe for reading,
// which waits for a writer forever. os.ReadDir opens
// with O_DIRECTORY; this keeps any other way of listing honest.
func TestDirNamedPipe(t *testing.T) {
	for _, noIgnore := range []bool{false, true} {
		base := t.TempDir()
		fifo := filepath.Join(base, "pkg")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Fatal(err)
		}
		d := &dirWalk{walker: &walker{opt: Options{NoIgnore: noIgnore}, skipped: map[string]int{}}, base: base, real: base}
		done := make(chan error, 1)
		go func() { done <- d.dir(fifo, "pkg", []string{"pkg"}, nil) }()
		var err error
		select {
		case err = <-done:
		case <-time.After(30 * time.Second):
			// A hang detector, not a time limit: dir takes microseconds.
			// A writer lets the blocked open go on.
			if w, werr := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); werr == nil {
				w.Close()
			}
			t.Fatalf("dir blocked opening the named pipe %s (released: %v)", fifo, <-done)
		}
		if !errors.Is(err, syscall.ENOTDIR) {
			t.Errorf("NoIgnore=%v: dir = %v, want ENOTDIR", noIgnore, err)
		}
		if len(d.files) != 0 {
			t.Errorf("NoIgnore=%v: files %v from a named pipe", noIgnore, d.files)
		}
	}
}
