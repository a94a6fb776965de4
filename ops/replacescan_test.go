package ops_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/symedit/symedit/internal/probe"
	"github.com/symedit/symedit/ops"
)

// A walked file that cannot be read when replace looks at it (here
// removed, or replaced by a named pipe, after the walk listed it: the
// tests run as root, for whom no permission bit makes a file unreadable)
// is reported in SkippedFiles and counted in Skipped, and the run goes
// on: the files with matches are written. Named on its own, the same
// file is still a refusal, and nothing is written.
func TestReplaceSkipsUnreadableWalkedFile(t *testing.T) {
	for _, tc := range []struct {
		name   string
		spoil  func(path string) error
		reason string
	}{
		{"removed", os.Remove, "unreadable: no such file or directory"},
		{"a named pipe", func(p string) error {
			if err := os.Remove(p); err != nil {
				return err
			}
			return syscall.Mkfifo(p, 0o644)
		}, "unreadable: not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, dir := replaceTree(t, map[string]string{"src/python/gone.py": "x = 'unsafe.'\n"})
			gone := filepath.Join(dir, "src", "python", "gone.py")
			ops.SetScanHook(w, func(p string) {
				if p == "src/python/gone.py" {
					if err := tc.spoil(gone); err != nil {
						t.Error(err)
					}
				}
			})
			res, err := w.Replace(context.Background(), ops.ReplaceRequest{Search: "unsafe.", Replacement: "unsafepkg.", Paths: []string{"src"}})
			if err != nil || !res.OK || res.FilesWritten != 2 {
				t.Fatalf("replace past an unreadable file: %v, %+v", err, res)
			}
			want := []ops.SkippedFile{{Path: "src/python/gone.py", Reason: tc.reason}}
			if !slices.Equal(res.SkippedFiles, want) || res.Skipped["unreadable"] != 1 || !strings.Contains(res.Summary, "1 unreadable") {
				t.Errorf("skipped %+v %v, summary %q; want %+v", res.SkippedFiles, res.Skipped, res.Summary, want)
			}
			for _, f := range res.Files {
				if f.Path == "src/python/gone.py" {
					t.Errorf("the unreadable file is listed among the files: %+v", f)
				}
			}
		})
	}

	// Named, a file that cannot be read is the user's mistake: refused,
	// and the other file named is not written either.
	w, dir := replaceTree(t, nil)
	if err := syscall.Mkfifo(filepath.Join(dir, "src", "pipe.py"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := replaceSnapshot(t, dir)
	res, err := w.Replace(context.Background(), ops.ReplaceRequest{Search: "unsafe.", Replacement: "unsafepkg.",
		Paths: []string{"src/go/atomic_type.go", "src/pipe.py"}})
	if err == nil || res.OK || res.FilesWritten != 0 || res.Refused != 1 || len(res.SkippedFiles) != 0 {
		t.Errorf("a named pipe named: %v, %+v", err, res)
	}
	replaceSameTree(t, dir, before, "a refused replace")
}

// Without root's rights, a file without read permission is the usual
// unreadable file: skipped in a walk, not a refusal.
func TestReplaceSkipsUnreadablePermission(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads a file whatever its mode: TestReplaceSkipsUnreadableWalkedFile covers unreadable files")
	}
	w, dir := replaceTree(t, map[string]string{"src/python/secret.py": "x = 'unsafe.'\n"})
	secret := filepath.Join(dir, "src", "python", "secret.py")
	if err := os.Chmod(secret, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(secret, 0o644) })
	res, err := w.Replace(context.Background(), ops.ReplaceRequest{Search: "unsafe.", Replacement: "unsafepkg.", Paths: []string{"src"}})
	if err != nil || !res.OK || res.FilesWritten != 2 {
		t.Fatalf("replace past an unreadable file: %v, %+v", err, res)
	}
	want := []ops.SkippedFile{{Path: "src/python/secret.py", Reason: "unreadable: permission denied"}}
	if !slices.Equal(res.SkippedFiles, want) {
		t.Errorf("skipped %+v, want %+v", res.SkippedFiles, want)
	}
}

// A walked file without a match costs one read of its bytes and no
// parse, whatever the number of such files: the reads and parses of a
// replace are counted (probe.WithReads, probe.WithParses) over a tree
// with one Python file that matches and n that do not. The file that
// matches is read twice (its first look, then under its lock as a
// document) and parsed by the guard; every other file is read once.
func TestReplaceReadsFileWithoutMatchOnce(t *testing.T) {
	count := func(n int) (reads, parses int64) {
		t.Helper()
		extra := map[string]string{"tree/hit.py": "def f():\n    return old_name\n"}
		for i := range n {
			extra[fmt.Sprintf("tree/miss%02d.py", i)] = fmt.Sprintf("def g%d():\n    return %d\n", i, i)
		}
		w, _ := replaceTree(t, extra)
		var r, p atomic.Int64
		ctx := probe.WithParses(probe.WithReads(context.Background(), &r), &p)
		res, err := w.Replace(ctx, ops.ReplaceRequest{Search: "old_name", Replacement: "new_name", Paths: []string{"tree"}})
		if err != nil || res.FilesWritten != 1 || res.Searched != n+1 {
			t.Fatalf("n=%d: %v, %+v", n, err, res)
		}
		return r.Load(), p.Load()
	}
	r0, p0 := count(0)
	r1, p1 := count(1)
	r20, p20 := count(20)
	if r0 != 2 || r1 != 3 || r20 != 22 {
		t.Errorf("reads with 0, 1, 20 files without a match: %d, %d, %d; want 2, 3, 22", r0, r1, r20)
	}
	if p0 == 0 || p1 != p0 || p20 != p0 {
		t.Errorf("parses with 0, 1, 20 files without a match: %d, %d, %d; want the same, not 0", p0, p1, p20)
	}
}

// A walked file with several hard links and no match is left alone
// without a refusal (symedit would refuse to write it, but nothing is
// written to it); with a match it is refused as before, and nothing is
// written anywhere.
func TestReplaceHardLinkWithoutMatch(t *testing.T) {
	w, dir := replaceTree(t, map[string]string{"src/python/linked.py": "x = 1\n"})
	if err := os.Link(filepath.Join(dir, "src", "python", "linked.py"), filepath.Join(dir, "linked-too.py")); err != nil {
		t.Fatal(err)
	}
	res, err := w.Replace(context.Background(), ops.ReplaceRequest{Search: "unsafe.", Replacement: "unsafepkg.", Paths: []string{"src"}})
	if err != nil || !res.OK || res.FilesWritten != 2 || res.Refused != 0 {
		t.Fatalf("a hard-linked file without a match: %v, %+v", err, res)
	}
	before := replaceSnapshot(t, dir)
	res, err = w.Replace(context.Background(), ops.ReplaceRequest{Search: "x = 1", Replacement: "x = 2", Paths: []string{"src"}})
	if err == nil || res.OK || res.Refused != 1 || res.FilesWritten != 0 {
		t.Errorf("a hard-linked file with a match: %v, %+v", err, res)
	}
	replaceSameTree(t, dir, before, "a refused replace")
}
