//go:build unix

package ops

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/symedit/symedit/internal/probe"
)

// waitFor yields until waits (a counter of lock waits) passes from, that
// is until the call under test waits for a lock: a condition, not a
// sleep, so that the test holds on a loaded machine.
func waitFor(waits func() int64, from int64) {
	for waits() == from {
		runtime.Gosched()
	}
}

// TestLockWaitStopsWithContext: a call waiting for a file's lock, held by
// another call of this process (the in-process lock) or by another
// process (the folder's flock, held here through a second open file
// description of the folder), returns the context's error when the
// context is cancelled or its deadline passes, writes nothing, and holds
// no lock afterwards.
func TestLockWaitStopsWithContext(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.py")
	const src = "def f():\n    return 0\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := Open(Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	edit := func(ctx context.Context) error {
		_, err := w.Edit(ctx, EditRequest{Path: "m.py", Edits: TextEdits{{OldText: "return 0", NewText: "return 1"}}})
		return err
	}
	holders := map[string]func(t *testing.T) (waits func() int64, release func()){
		"in-process": func(t *testing.T) (func() int64, func()) {
			unlock, err := w.lock(context.Background(), "m.py")
			if err != nil {
				t.Fatal(err)
			}
			return probe.PathLockWaits.Load, unlock
		},
		"other process": func(t *testing.T) (func() int64, func()) {
			holder, err := os.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			if err := unix.Flock(int(holder.Fd()), unix.LOCK_EX); err != nil {
				t.Fatal(err)
			}
			return probe.FolderLockWaits.Load, func() { holder.Close() }
		},
	}
	for name, hold := range holders {
		for _, deadline := range []bool{false, true} {
			t.Run(name+map[bool]string{false: "/cancelled", true: "/deadline"}[deadline], func(t *testing.T) {
				waits, release := hold(t)
				ctx, cancel := context.WithCancel(context.Background())
				want := context.Canceled
				if deadline {
					ctx, cancel = context.WithTimeout(context.Background(), 0)
					want = context.DeadlineExceeded
				}
				defer cancel()
				from := waits()
				done := make(chan error, 1)
				go func() { done <- edit(ctx) }()
				if !deadline {
					waitFor(waits, from)
					cancel()
				}
				err := <-done
				release()
				if !errors.Is(err, want) || CodeOf(err) != CodeError {
					t.Fatalf("error %v (%s), want %v", err, CodeOf(err), want)
				}
				if got, _ := os.ReadFile(path); string(got) != src {
					t.Fatalf("written while the lock was held: %q", got)
				}
			})
		}
	}
	// Nothing is left locked: a call now goes through.
	if err := edit(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestReplaceLockWaitStopsWithContext: a replace waiting for a file's
// lock held by another call returns the context's error once cancelled.
func TestReplaceLockWaitStopsWithContext(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("foo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := Open(Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	unlock, err := w.lock(context.Background(), "a.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	ctx, cancel := context.WithCancel(context.Background())
	from := probe.PathLockWaits.Load()
	done := make(chan error, 1)
	go func() {
		_, err := w.Replace(ctx, ReplaceRequest{Search: "foo", Replacement: "bar", Paths: []string{"a.txt"}})
		done <- err
	}()
	waitFor(probe.PathLockWaits.Load, from)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want the cancellation", err)
	}
}

// TestReplaceLongLineStopsWithContext: a replace of every match on one
// long line (and a NO_MATCH_TEXT search for similar lines over many
// lines) whose context is cancelled in the middle of the search stops
// searching: the error is the context's, nothing is written, and the
// search runs at most a few context checks' worth of steps after the
// cancellation (it asks the context every 1,024 steps), not to the
// end of the text.
func TestReplaceLongLineStopsWithContext(t *testing.T) {
	dir := t.TempDir()
	const n = 200_000
	texts := map[string]string{
		"a.txt": strings.Repeat("foo bar ", n) + "\n",
		"b.txt": strings.Repeat("fob bar baz qux\n", n),
	}
	for name, src := range texts {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w, err := Open(Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, req := range []ReplaceRequest{
		{Search: "foo", Replacement: "baz", Paths: []string{"a.txt"}},
		{Search: "foo", Replacement: "baz", Paths: []string{"a.txt"}, WriteOptions: WriteOptions{DryRun: true}},
		{Search: "foo bar baz qux", Replacement: "x", Paths: []string{"b.txt"}},
	} {
		ctx := &probe.StepsContext{Context: context.Background(), After: probe.SearchSteps.Load() + 5000}
		res, err := w.Replace(ctx, req)
		if !errors.Is(err, context.Canceled) || res.Written {
			t.Fatalf("%s in %s: error %v, written %v: want the cancellation, nothing written", req.Search, req.Paths[0], err, res.Written)
		}
		at := ctx.At()
		if at == 0 {
			t.Fatalf("%s in %s: the context was never asked", req.Search, req.Paths[0])
		}
		if steps := probe.SearchSteps.Load() - at; steps > 4*1024 {
			t.Errorf("%s in %s: %d search steps after the cancellation, want at most %d", req.Search, req.Paths[0], steps, 4*1024)
		}
	}
	for name, src := range texts {
		if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) != src {
			t.Fatalf("%s written", name)
		}
	}
}
