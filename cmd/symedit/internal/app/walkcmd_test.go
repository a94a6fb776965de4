package app

import (
	"bytes"
	"os"
	"testing"
)

// TestProgressNotOnPipe checks that no progress bar is drawn when standard
// error is a pipe or a buffer, with --json, or for few files.
func TestProgressNotOnPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for _, e := range []*env{{stderr: w}, {stderr: &bytes.Buffer{}}} {
		if p := e.progress(1000, false); p.shown() {
			t.Errorf("progress bar on %T", e.stderr)
		}
		p := e.progress(1000, false)
		p.add()
		p.clear()
		p.done()
	}
}

// TestProgressOnTerminal checks that a bar is drawn on a terminal, only
// for more than progressMin files and not with --json.
func TestProgressOnTerminal(t *testing.T) {
	tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no terminal to check the positive case:", err)
	}
	defer tty.Close()
	e := &env{stderr: tty}
	if e.progress(1000, true).shown() || e.progress(progressMin, false).shown() {
		t.Error("progress bar with --json or for few files")
	}
	if !e.progress(progressMin+1, false).shown() {
		t.Error("no progress bar on a terminal")
	}
}
