//go:build unix

package ops_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/symedit/symedit/internal/symcache"
	"github.com/symedit/symedit/ops"
)

// A run with the index gives what a run without it gives, files it
// cannot read included, whether its files' group is one the index holds
// nothing of (a cold run, which reads each file without a lookup stat)
// or one it holds entries of (each file stat'ed for a lookup first): a
// file linked under two names, a FIFO, a dangling link, a missing file,
// a binary file, a file that is not UTF-8 and a link to a file in
// another group, named one by one and walked. The files are left as
// they were.
func TestSymbolsIndexErrorsEqualNoCache(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("g/a/good.py", "def good():\n    return 1\n")
	write("g/a/hard.py", "def hard():\n    return 2\n")
	write("g/a/latin1.py", "# caf\xe9\ndef latin():\n    pass\n")
	write("g/a/bin.py", "\x00\x01\x02def\n")
	write("g/b/other.py", "def other():\n    return 3\n")
	write("h/target.py", "def target():\n    return 4\n")
	before := snapshot(t, dir) // the regular files; reading a FIFO would block
	for _, err := range []error{
		os.Link(filepath.Join(dir, "g/a/hard.py"), filepath.Join(dir, "g/a/hard2.py")),
		syscall.Mkfifo(filepath.Join(dir, "g/a/fifo.py"), 0o644),
		os.Symlink("nowhere.py", filepath.Join(dir, "g/a/dangling.py")),
		os.Symlink("../../h/target.py", filepath.Join(dir, "g/a/link.py")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(2 * symcache.Margin) // not a measurement: the files must be older than the racily-clean margin to be stored

	named := []string{"g/a/bin.py", "g/a/dangling.py", "g/a/fifo.py", "g/a/good.py", "g/a/hard.py",
		"g/a/latin1.py", "g/a/link.py", "g/a/missing.py"}
	run := func(w *ops.Workspace, noCache bool, paths ...string) (string, ops.IndexStats) {
		t.Helper()
		res, _ := w.Symbols(context.Background(), ops.SymbolsRequest{Paths: paths, NoCache: noCache})
		js, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		return string(js), res.Index
	}
	for _, held := range []bool{false, true} {
		for _, paths := range [][]string{named, {"g/a"}} {
			w := symbolsWorkspace(t, dir, t.TempDir())
			if held {
				// An entry of the group g (the parent of g/a and g/b).
				if _, st := run(w, false, "g/b/other.py"); st.Written != 1 {
					t.Fatalf("g/b/other.py not stored: %+v", st)
				}
			}
			want, _ := run(w, true, paths...)
			got, st := run(w, false, paths...)
			if got != want {
				t.Errorf("group held %v, %v:\nindex      %s\n--no-cache %s", held, paths, got, want)
			}
			// In a cold run no file is stat'ed for a lookup; over a held
			// group the files are.
			if !held && st.LookedUp != 0 || held && st.LookedUp == 0 {
				t.Errorf("group held %v, %v: %d lookups (stats %+v)", held, paths, st.LookedUp, st)
			}
			if again, st := run(w, false, paths...); again != want || st.LookedUp == 0 || st.Hits == 0 {
				t.Errorf("group held %v, %v, run again (stats %+v):\nindex      %s\n--no-cache %s", held, paths, st, again, want)
			}
		}
	}
	for p, b := range before {
		if got, err := os.ReadFile(p); err != nil || string(got) != b {
			t.Errorf("%s changed (%v)", p, err)
		}
	}
}
