package files

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

const killTxEnv = "SYMEDIT_KILLED_TRANSACTION"

// killTx is the transaction TestHelperKilledTransaction runs in a folder:
// gone.py deleted, kept.py written, old.py moved to sub/new.py (created,
// then old.py deleted). before and after are each file's content before
// and after it ("" for no file).
var killTx = []struct{ name, before, after string }{
	{"gone.py", "gone = 1\n", ""},
	{"kept.py", "kept = 1\n", "kept = 2\n"},
	{"sub/new.py", "", "moved = 1\n"},
	{"old.py", "moved = 1\n", ""},
}

// TestHelperKilledTransaction is not a test: unless the environment asks
// it to act as a helper process it does nothing. As one, it runs killTx
// in the folder SYMEDIT_KILLED_TRANSACTION and, when
// SYMEDIT_KILLED_TRANSACTION_AT is N > 0, kills itself (SIGKILL) before
// the transaction's N-th step; else it prints "steps N" after it.
func TestHelperKilledTransaction(t *testing.T) {
	dir := os.Getenv(killTxEnv)
	if dir == "" {
		return
	}
	at, _ := strconv.Atoi(os.Getenv(killTxEnv + "_AT"))
	files := &Files{fsys: osFS{}}
	var changes []Change
	for _, f := range killTx {
		doc, err := files.ReadOrNew(filepath.Join(dir, f.name))
		if err != nil {
			fmt.Println("error", err)
			return
		}
		changes = append(changes, Change{Doc: doc, Content: []byte(f.after), Delete: f.after == ""})
	}
	fsys := newFaultFS("", nil)
	fsys.every = func(n int, op string) {
		if n == at {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
	}
	if err := commitChanges(fsys, Options{}, changes); err != nil {
		fmt.Println("error", err)
		return
	}
	fmt.Println("steps", len(fsys.steps()))
}

// TestTransactionKilledLeavesNothing kills a transaction with deletions
// (a file deleted, one written, one moved) before each of its steps in
// turn: every file then holds its content from before or after the
// transaction, never a part, and once the next commit in the folder has
// run no name of a temporary file remains (a deletion never renames the
// file aside; a written file's temporary file has a name only under the
// folder's lock, the one name the next commit of the file removes).
func TestTransactionKilledLeavesNothing(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	setup := func(t *testing.T) string {
		dir := t.TempDir()
		for _, f := range killTx {
			if f.before != "" {
				if err := os.WriteFile(filepath.Join(dir, f.name), []byte(f.before), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	run := func(dir string, at int) (string, error) {
		cmd := exec.Command(exe, "-test.run=^TestHelperKilledTransaction$", "-test.count=1")
		cmd.Env = append(os.Environ(), killTxEnv+"="+dir, killTxEnv+"_AT="+strconv.Itoa(at))
		out, err := cmd.Output()
		return string(out), err
	}
	out, err := run(setup(t), 0)
	var steps int
	if _, serr := fmt.Sscanf(out[strings.Index(out, "steps"):], "steps %d", &steps); err != nil || serr != nil {
		t.Fatalf("helper: %v %v\n%s", err, serr, out)
	}
	fd, err := unix.Open(t.TempDir(), unix.O_TMPFILE|unix.O_RDWR|unix.O_CLOEXEC, 0o600)
	if err != nil {
		t.Skipf("the test folder's file system has no O_TMPFILE: %v", err)
	}
	unix.Close(fd)
	for at := 1; at <= steps; at++ {
		dir := setup(t)
		out, err := run(dir, at)
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("step %d: the helper was not killed: %v\n%s", at, err, out)
		}
		for _, f := range killTx {
			got, err := os.ReadFile(filepath.Join(dir, f.name))
			if err != nil {
				got = nil
			}
			if s := string(got); s != f.before && s != f.after {
				t.Errorf("killed before step %d: %s holds %q, want %q or %q", at, f.name, got, f.before, f.after)
			}
		}
		if _, err := os.Lstat(filepath.Join(dir, "old.py")); err != nil {
			if _, err := os.Lstat(filepath.Join(dir, "sub", "new.py")); err != nil {
				t.Errorf("killed before step %d: the moved file is at neither name", at)
			}
		}
		// The next commit in the folder: kept.py written again.
		doc, err := Read(filepath.Join(dir, "kept.py"))
		if err != nil {
			t.Fatal(err)
		}
		if err := commitOne(osFS{}, Options{}, doc, append(bytes.Clone(doc.Content), "# next\n"...)); err != nil {
			t.Fatalf("killed before step %d: the next commit: %v", at, err)
		}
		if left := tempsLeft(t, dir); len(left) > 0 {
			t.Errorf("killed before step %d: after the next commit, left %v", at, left)
		}
	}
}
