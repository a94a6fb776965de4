package ops_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/ops"
	"github.com/symedit/symedit/remedy"
)

// replaceTree copies the fixtures of testdata/src (CPython's
// multiprocessing/process.py and contextlib excerpt, Go's sync/atomic and
// log/slog excerpts, hand-written Java and TypeScript) into a new folder
// under src/, adds the files extra maps (slash path to content) and opens
// a Workspace there (Root and Dir).
func replaceTree(t *testing.T, extra map[string]string) (*ops.Workspace, string) {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join("..", "testdata", "src")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		return replaceWriteAt(filepath.Join(dir, "src", rel), b)
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range extra {
		if err := replaceWriteAt(filepath.Join(dir, filepath.FromSlash(name)), []byte(content)); err != nil {
			t.Fatal(err)
		}
	}
	w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, dir
}

func replaceWriteAt(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// replaceSnapshot reads every regular file under dir: slash path to content.
func replaceSnapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		m[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// replaceSameTree fails unless every file under dir is byte-identical to before
// and no file was added or removed (no temporary file left either).
func replaceSameTree(t *testing.T, dir string, before map[string]string, what string) {
	t.Helper()
	after := replaceSnapshot(t, dir)
	for p, b := range before {
		if a, ok := after[p]; !ok {
			t.Errorf("%s: %s is gone", what, p)
		} else if a != b {
			t.Errorf("%s: %s changed", what, p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s: %s appeared", what, p)
		}
	}
}

func replaceIntp(n int) *int { return &n }

// replaceStatuses returns "path=status" for each file of res.
func replaceStatuses(res *ops.ReplaceResult) []string {
	var out []string
	for _, f := range res.Files {
		out = append(out, f.Path+"="+f.Status)
	}
	return out
}

func TestReplaceLiteralRegexAndCount(t *testing.T) {
	w, dir := replaceTree(t, nil)
	ctx := context.Background()
	py := "src/python/process.py"
	orig := replaceSnapshot(t, dir)[py]

	// Literal: the metacharacters of the search and the $1 of the
	// replacement are taken as they are.
	res, err := w.Replace(ctx, ops.ReplaceRequest{Search: "(*self._args, **self._kwargs)",
		Replacement: "(*self._args, **self._kwargs)  # $1", Paths: []string{py}})
	if err != nil {
		t.Fatalf("literal: %v", err)
	}
	got := replaceSnapshot(t, dir)[py]
	if want := strings.Replace(orig, "(*self._args, **self._kwargs)", "(*self._args, **self._kwargs)  # $1", 1); got != want {
		t.Errorf("literal: the file is not the original with the one match replaced")
	}
	if !res.OK || !res.Written || !res.Changed || res.FilesWritten != 1 || res.TotalMatches != 1 || res.TotalReplacements != 1 || res.Path != "" || res.Diff != "" {
		t.Errorf("literal: result %+v", res)
	}
	if len(res.Files) != 1 {
		t.Fatalf("literal: %d files, want 1", len(res.Files))
	}
	f := res.Files[0]
	if !f.OK || f.Path != py || f.Status != ops.ReplaceReplaced || !f.Written || !f.Changed || f.Matches != 1 ||
		f.Replacements != 1 || f.Summary != "replaced 1 of 1 match(es)" || f.Syntax == nil || !f.Syntax.Checked || f.Error != nil || f.Diff != "" {
		t.Errorf("literal: file %+v", f)
	}
	if err := os.WriteFile(filepath.Join(dir, py), []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}

	// Regex with a named submatch, and \1 read as $1.
	res, err = w.Replace(ctx, ops.ReplaceRequest{Search: `def (?P<name>\w+)\(self\):`, Replacement: "def ${name}(self) -> None:",
		Paths: []string{py}, Regex: true})
	if err != nil || res.TotalMatches != 20 || res.TotalReplacements != 20 {
		t.Fatalf("regex: %v, %+v", err, res)
	}
	if got := replaceSnapshot(t, dir)[py]; !strings.Contains(got, "    def kill(self) -> None:\n") || strings.Contains(got, "    def kill(self):\n") {
		t.Error("regex: kill not rewritten")
	}
	if err := os.WriteFile(filepath.Join(dir, py), []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err = w.Replace(ctx, ops.ReplaceRequest{Search: `assert (self\._popen) is None`, Replacement: `assert \1 is None and True`,
		Paths: []string{py}, Regex: true})
	if err != nil || res.TotalReplacements != 2 || !strings.Contains(replaceSnapshot(t, dir)[py], "assert self._popen is None and True, 'cannot start") {
		t.Fatalf(`regex \1: %v, %+v`, err, res)
	}
	if err := os.WriteFile(filepath.Join(dir, py), []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}

	// Count and IgnoreCase: the first match of two, found case-insensitively.
	res, err = w.Replace(ctx, ops.ReplaceRequest{Search: "terminateprocess()", Replacement: "TerminateProcess() on Windows",
		Paths: []string{py}, IgnoreCase: true, Count: 1})
	if err != nil || res.Files[0].Matches != 2 || res.Files[0].Replacements != 1 || res.Files[0].Summary != "replaced 1 of 2 match(es)" {
		t.Fatalf("count: %v, %+v", err, res)
	}
	if got := replaceSnapshot(t, dir)[py]; strings.Count(got, "TerminateProcess() on Windows") != 1 {
		t.Errorf("count: %d replacements in the file, want 1", strings.Count(got, "TerminateProcess() on Windows"))
	}
}

// TestReplaceRefusalsLeaveEveryFileIdentical: every refusal, before or
// after the files are read, writes nothing, says why with its code, and
// leaves every file of the tree byte-identical.
func TestReplaceRefusalsLeaveEveryFileIdentical(t *testing.T) {
	goFiles := []string{"src/go/slog_value.go", "src/go/atomic_type.go"}
	tests := []struct {
		name  string
		req   ops.ReplaceRequest
		setup func(t *testing.T, dir string)
		code  ops.Code
		check func(t *testing.T, res *ops.ReplaceResult)
	}{
		{name: "empty search", req: ops.ReplaceRequest{Search: "", Replacement: "x", Paths: goFiles}, code: ops.CodeUsage},
		{name: "bad regex", req: ops.ReplaceRequest{Search: "wait(", Replacement: "x", Paths: goFiles, Regex: true}, code: ops.CodeUsage},
		{name: "negative count", req: ops.ReplaceRequest{Search: "unsafe.", Replacement: "x", Paths: goFiles, Count: -1}, code: ops.CodeUsage},
		{name: "negative expect", req: ops.ReplaceRequest{Search: "unsafe.", Replacement: "x", Paths: goFiles, Expect: replaceIntp(-1)}, code: ops.CodeUsage},
		{name: "no paths", req: ops.ReplaceRequest{Search: "unsafe.", Replacement: "x"}, code: ops.CodeUsage},
		{name: "bad check mode", req: ops.ReplaceRequest{Search: "unsafe.", Replacement: "x", Paths: goFiles, WriteOptions: ops.WriteOptions{Check: "lax"}}, code: ops.CodeUsage},
		{name: "unknown language", req: ops.ReplaceRequest{Search: "def kill(self):", Replacement: "def kill(self:", Paths: []string{"src/python/process.py"},
			WriteOptions: ops.WriteOptions{Lang: "nosuch"}}, code: ops.CodeUnsupported},
		{name: "bad exclude", req: ops.ReplaceRequest{Search: "unsafe.", Replacement: "x", Paths: []string{"src"}, WalkOptions: ops.WalkOptions{Exclude: []string{"[a"}}}, code: ops.CodeUsage},
		{name: "one file twice", req: ops.ReplaceRequest{Search: "unsafe.", Replacement: "x", Paths: []string{"src/go/slog_value.go", "src/go/../go/slog_value.go"}}, code: ops.CodeUsage},
		{name: "one file through a link", req: ops.ReplaceRequest{Search: "unsafe.", Replacement: "x", Paths: []string{"src/go/slog_value.go", "link.go"}},
			setup: func(t *testing.T, dir string) {
				if err := os.Symlink("src/go/slog_value.go", filepath.Join(dir, "link.go")); err != nil {
					t.Fatal(err)
				}
			}, code: ops.CodeUsage},
		{name: "outside the root", req: ops.ReplaceRequest{Search: "unsafe.", Replacement: "x", Paths: []string{"src/go/slog_value.go", "../outside.go"}}, code: ops.CodeOutsideRoot},
		{name: "no match", req: ops.ReplaceRequest{Search: "self._check_close()", Replacement: "x", Paths: []string{"src/python/process.py", "src/go/atomic_type.go"}},
			code: ops.CodeNoMatchText, check: func(t *testing.T, res *ops.ReplaceResult) {
				near, ok := res.Error.Nearest.([]ops.SimilarLine)
				if !ok || len(near) == 0 || near[0].Path != "src/python/process.py" || near[0].Line != 120 || near[0].Text != "        self._check_closed()" {
					t.Errorf("nearest %#v, want process.py's line 120 first", res.Error.Nearest)
				}
				if !strings.Contains(res.Error.Message, "similar lines:\n  src/python/process.py:120:         self._check_closed()  (similarity 0.97)") {
					t.Errorf("message %q", res.Error.Message)
				}
				if got := replaceStatuses(res); !slices.Equal(got, []string{"src/python/process.py=no_match", "src/go/atomic_type.go=no_match"}) {
					t.Errorf("statuses %v", got)
				}
				for _, f := range res.Files {
					if f.Syntax != nil {
						t.Errorf("%s has no match, yet the guard parsed it: %+v", f.Path, f.Syntax)
					}
				}
			}},
		{name: "no match in a walk", req: ops.ReplaceRequest{Search: "Nope", Replacement: "x", Paths: []string{"src"}}, code: ops.CodeNoMatchText,
			check: func(t *testing.T, res *ops.ReplaceResult) {
				if len(res.Files) != 0 || res.Searched != 24 || !strings.Contains(res.Error.Message, `no match for "Nope" in the 24 file(s) of src`) {
					t.Errorf("files %v, searched %d, message %q", replaceStatuses(res), res.Searched, res.Error.Message)
				}
			}},
		{name: "expect not met", req: ops.ReplaceRequest{Search: "unsafe.", Replacement: "unsafepkg.", Paths: goFiles, Expect: replaceIntp(10)}, code: ops.CodeCount,
			check: func(t *testing.T, res *ops.ReplaceResult) {
				if res.TotalMatches != 11 || !strings.HasPrefix(res.Error.Message, `expected 10 match(es) of "unsafe.", found 11; nothing was written:`) ||
					!strings.Contains(res.Error.Message, "\n  src/go/atomic_type.go:55:4: \tv unsafe.Pointer") {
					t.Errorf("total %d, message %q", res.TotalMatches, res.Error.Message)
				}
				if got := replaceStatuses(res); !slices.Equal(got, []string{"src/go/slog_value.go=not_written", "src/go/atomic_type.go=not_written"}) {
					t.Errorf("statuses %v", got)
				}
			}},
		{name: "expect not met with partial", req: ops.ReplaceRequest{Search: "unsafe.", Replacement: "unsafepkg.", Paths: goFiles, Expect: replaceIntp(1), Partial: true}, code: ops.CodeCount},
		{name: "one file cannot be read", req: ops.ReplaceRequest{Search: "unsafe.", Replacement: "unsafepkg.", Paths: []string{"src/go/slog_value.go", "src/go/nosuch.go"}},
			code: ops.CodeError, check: func(t *testing.T, res *ops.ReplaceResult) {
				if got := replaceStatuses(res); !slices.Equal(got, []string{"src/go/slog_value.go=not_written", "src/go/nosuch.go=refused"}) {
					t.Errorf("statuses %v", got)
				}
				if res.Refused != 1 || res.Error.Message != "refused 1 of 2 file(s); nothing was written (1 file(s) passed)" ||
					!slices.Equal(res.Error.Remedy, remedy.Set(remedy.Partial, "true")) {
					t.Errorf("refused %d, message %q", res.Refused, res.Error.Message)
				}
				if f := res.Files[1]; f.OK || f.Error == nil || !errors.Is(f.Error, fs.ErrNotExist) {
					t.Errorf("nosuch.go: %+v", f)
				}
				if f := res.Files[0]; f.OK || f.Error != nil || f.Summary != "6 match(es), not written" {
					t.Errorf("slog_value.go: %+v", f)
				}
			}},
		{name: "syntax guard refuses one file", req: ops.ReplaceRequest{Search: "#", Replacement: "// ", Paths: []string{"src/go", "src/typescript"}},
			code: ops.CodeSyntax, check: func(t *testing.T, res *ops.ReplaceResult) {
				if got := replaceStatuses(res); !slices.Equal(got, []string{"src/go/atomic_type.go=not_written", "src/typescript/scheduler.ts=refused"}) {
					t.Errorf("statuses %v", got)
				}
				f := res.Files[1]
				var se *ops.SyntaxError
				if !errors.As(f.Error, &se) || f.Syntax == nil || len(f.Syntax.New) != 1 || f.Syntax.New[0].Line != 406 {
					t.Errorf("scheduler.ts: %+v", f)
				}
				// The guard gets one edit per replacement, not one span
				// from the first to the last (lines 313-406).
				if !strings.HasSuffix(f.Error.Error(), "src/typescript/scheduler.ts: the edit changed lines 313, 406") {
					t.Errorf("scheduler.ts: %v", f.Error)
				}
				if !res.Walked || res.Skipped["unsupported language"] != 1 || res.Summary != "3 match(es) in 2 of 4 file(s); skipped: 1 unsupported language" {
					t.Errorf("walk: %v %v %q", res.Walked, res.Skipped, res.Summary)
				}
			}},
		{name: "syntax guard refuses a dry run", req: ops.ReplaceRequest{Search: "#", Replacement: "// ", Paths: []string{"src/go", "src/typescript"}, WriteOptions: ops.WriteOptions{DryRun: true}},
			code: ops.CodeSyntax, check: func(t *testing.T, res *ops.ReplaceResult) {
				if !strings.HasSuffix(res.Error.Message, "; dry run, nothing was written") {
					t.Errorf("message %q", res.Error.Message)
				}
				// A dry run shows every diff, the refused file's too.
				for _, f := range res.Files {
					if !f.DryRun || !strings.HasPrefix(f.Diff, "--- a/") {
						t.Errorf("%s: dry run %v, diff %q", f.Path, f.DryRun, f.Diff)
					}
				}
			}},
		{name: "expect_sha256 differs", req: ops.ReplaceRequest{Search: "unsafe.", Replacement: "x.", Paths: goFiles,
			WriteOptions: ops.WriteOptions{ExpectSHA256: ops.SHA256(strings.Repeat("0", 64))}}, code: ops.CodeChanged},
		{name: "expect_sha256 malformed", req: ops.ReplaceRequest{Search: "unsafe.", Replacement: "x.", Paths: goFiles,
			WriteOptions: ops.WriteOptions{ExpectSHA256: "abc"}}, code: ops.CodeUsage},
		{name: "binary file named", req: ops.ReplaceRequest{Search: "unsafe.", Replacement: "x.", Paths: []string{"src/go/slog_value.go", "blob.go"}},
			setup: func(t *testing.T, dir string) {
				if err := os.WriteFile(filepath.Join(dir, "blob.go"), []byte("package x\x00unsafe."), 0o644); err != nil {
					t.Fatal(err)
				}
			}, code: ops.CodeError},
		{name: "canceled", req: ops.ReplaceRequest{Search: "unsafe.", Replacement: "x.", Paths: goFiles}, code: ops.CodeError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, dir := replaceTree(t, nil)
			if tt.setup != nil {
				tt.setup(t, dir)
			}
			before := replaceSnapshot(t, dir)
			ctx := context.Background()
			if tt.name == "canceled" {
				c, cancel := context.WithCancel(ctx)
				cancel()
				ctx = c
			}
			res, err := w.Replace(ctx, tt.req)
			if res == nil {
				t.Fatal("nil result")
			}
			var oe *ops.Error
			if !errors.As(err, &oe) || oe != res.Error {
				t.Fatalf("error %v (%T), want the result's *ops.Error", err, err)
			}
			if oe.Code != tt.code {
				t.Errorf("code %s, want %s: %v", oe.Code, tt.code, err)
			}
			if res.OK || res.Written || res.FilesWritten != 0 {
				t.Errorf("ok %v, written %v, files written %d", res.OK, res.Written, res.FilesWritten)
			}
			for _, f := range res.Files {
				if f.Written || f.Status == ops.ReplaceReplaced {
					t.Errorf("%s: status %s, written %v", f.Path, f.Status, f.Written)
				}
			}
			if tt.check != nil {
				tt.check(t, res)
			}
			replaceSameTree(t, dir, before, tt.name)
		})
	}
}

// TestReplacePartial: Partial writes the files that pass and reports the
// refused one, which stays byte-identical.
func TestReplacePartial(t *testing.T) {
	w, dir := replaceTree(t, nil)
	before := replaceSnapshot(t, dir)
	res, err := w.Replace(context.Background(), ops.ReplaceRequest{Search: "#", Replacement: "// ",
		Paths: []string{"src/go", "src/typescript"}, Partial: true})
	if ops.CodeOf(err) != ops.CodeSyntax || res.OK {
		t.Fatalf("error %v, ok %v: want SYNTAX, not ok", err, res.OK)
	}
	if res.Error.Message != "refused 1 of 2 file(s); wrote the 1 file(s) that passed" ||
		!slices.Equal(res.Error.Remedy, remedy.Set(remedy.Check, "warn")) || res.FilesWritten != 1 || !res.Written || res.Refused != 1 {
		t.Errorf("result %+v, message %q", res, res.Error.Message)
	}
	if got := replaceStatuses(res); !slices.Equal(got, []string{"src/go/atomic_type.go=replaced", "src/typescript/scheduler.ts=refused"}) {
		t.Errorf("statuses %v", got)
	}
	after := replaceSnapshot(t, dir)
	if want := strings.Replace(before["src/go/atomic_type.go"], "#", "// ", 1); after["src/go/atomic_type.go"] != want {
		t.Error("atomic_type.go was not written as replaced")
	}
	delete(before, "src/go/atomic_type.go")
	delete(after, "src/go/atomic_type.go")
	for p, b := range before {
		if after[p] != b {
			t.Errorf("%s changed", p)
		}
	}
}

// TestReplaceWalkDryRun: over a folder only the files with matches are
// listed; a dry run writes nothing and its diffs, applied by git apply,
// give what the real run writes.
func TestReplaceWalkDryRun(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	w, dir := replaceTree(t, nil)
	before := replaceSnapshot(t, dir)
	req := ops.ReplaceRequest{Search: "unsafe.", Replacement: "unsafepkg.", Paths: []string{"src"}, WriteOptions: ops.WriteOptions{DryRun: true}}
	dry, err := w.Replace(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	replaceSameTree(t, dir, before, "dry run")
	if got := replaceStatuses(dry); !slices.Equal(got, []string{"src/go/atomic_type.go=replaced", "src/go/slog_value.go=replaced"}) {
		t.Errorf("statuses %v", got)
	}
	if !dry.OK || !dry.DryRun || dry.Written || !dry.Changed || dry.Searched != 24 || dry.Summary != "11 match(es) in 2 of 24 file(s); skipped: 8 unsupported language" {
		t.Errorf("dry run result %+v", dry)
	}
	var patch strings.Builder
	for _, f := range dry.Files {
		patch.WriteString(f.Diff)
	}
	req.DryRun = false
	real, err := w.Replace(context.Background(), req)
	if err != nil || real.FilesWritten != 2 {
		t.Fatalf("real run: %v, %+v", err, real)
	}
	for _, f := range real.Files {
		if f.Diff != "" {
			t.Errorf("%s: a real run without Diff has a diff", f.Path)
		}
	}
	want := replaceSnapshot(t, dir)
	for p, b := range before {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("git", "apply", "-")
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(patch.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v\n%s", err, out)
	}
	replaceSameTree(t, dir, want, "git apply of the dry run's diffs")
}

// TestReplaceWriteFailure: when a write fails (here the file changed on
// disk after it was read), the files before it stay written, that file is
// refused with CHANGED and the files after it are not written.
func TestReplaceWriteFailure(t *testing.T) {
	files := map[string]string{}
	for _, p := range []string{"a/x.go", "b/y.go", "c/z.go"} {
		files[p] = "package p\n\nconst Old = 1\n"
	}
	w, dir := replaceTree(t, files)
	res, err := w.Replace(context.Background(), ops.ReplaceRequest{Search: "Old", Replacement: "New",
		Paths: []string{"a/x.go", "b/y.go", "c/z.go"},
		OnFile: func(path string, n int) {
			if path == "c/z.go" { // every file checked, none written yet
				if err := os.WriteFile(filepath.Join(dir, "b/y.go"), []byte("package p\n\nconst Old = 2\n"), 0o644); err != nil {
					t.Error(err)
				}
			}
		}})
	if ops.CodeOf(err) != ops.CodeChanged || !errors.Is(err, edit.ErrChanged) {
		t.Fatalf("error %v, want CHANGED", err)
	}
	if got := replaceStatuses(res); !slices.Equal(got, []string{"a/x.go=replaced", "b/y.go=refused", "c/z.go=not_written"}) {
		t.Errorf("statuses %v", got)
	}
	if res.FilesWritten != 1 || !res.Files[0].Written || res.Files[2].Error == nil ||
		res.Files[2].Error.Message != "not written: writing b/y.go failed first" {
		t.Errorf("result %+v", res)
	}
	after := replaceSnapshot(t, dir)
	if after["a/x.go"] != "package p\n\nconst New = 1\n" || after["b/y.go"] != "package p\n\nconst Old = 2\n" || after["c/z.go"] != "package p\n\nconst Old = 1\n" {
		t.Errorf("files after: %q %q %q", after["a/x.go"], after["b/y.go"], after["c/z.go"])
	}
}

// TestReplaceConcurrentOverlappingFiles runs replaces of distinct words
// over overlapping sets of files, named in different orders, at once on
// one Workspace: the locks (taken in one order) serialize them without
// deadlock, and every replacement lands (none is lost, none refused as
// CHANGED by the commit's check).
func TestReplaceConcurrentOverlappingFiles(t *testing.T) {
	const n = 8
	names := []string{"p/a.go", "p/b.go", "p/c.go", "p/d.go"}
	var src strings.Builder
	src.WriteString("package p\n\n")
	for i := range n {
		fmt.Fprintf(&src, "var w%d = %d\n", i, i)
	}
	extra := map[string]string{}
	for _, p := range names {
		extra[p] = src.String()
	}
	w, dir := replaceTree(t, extra)
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		paths := slices.Clone(names)
		if i%2 == 1 {
			slices.Reverse(paths)
		}
		paths = paths[:3] // each call names three of the four files
		wg.Go(func() {
			_, errs[i] = w.Replace(context.Background(), ops.ReplaceRequest{Search: fmt.Sprintf("var w%d ", i),
				Replacement: fmt.Sprintf("var v%d ", i), Paths: paths, WalkOptions: ops.WalkOptions{Jobs: 2}})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("replace %d: %v", i, err)
		}
	}
	after := replaceSnapshot(t, dir)
	for _, p := range names {
		for i := range n {
			named := p != "p/d.go" && i%2 == 0 || p != "p/a.go" && i%2 == 1
			if got := strings.Contains(after[p], fmt.Sprintf("var v%d = %d\n", i, i)); got != named {
				t.Errorf("%s: replacement %d present %v, want %v", p, i, got, named)
			}
		}
	}
}

// TestReplaceJSON: the result marshals as the common envelope (no path at
// the top, one envelope per file) with replace's own fields.
func TestReplaceJSON(t *testing.T) {
	w, _ := replaceTree(t, nil)
	res, err := w.Replace(context.Background(), ops.ReplaceRequest{Search: "unsafe.", Replacement: "unsafepkg.",
		Paths: []string{"src/go/atomic_type.go", "src/python/process.py"}, WriteOptions: ops.WriteOptions{DryRun: true}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"changed", "dry_run", "files", "files_written", "ok", "refused", "searched", "summary", "total_matches", "total_replacements", "written"}
	if !slices.Equal(keys, want) {
		t.Errorf("top-level keys %v, want %v", keys, want)
	}
	files := m["files"].([]any)
	f0, f1 := files[0].(map[string]any), files[1].(map[string]any)
	if f0["path"] != "src/go/atomic_type.go" || f0["status"] != "replaced" || f0["ok"] != true || f0["matches"] != 5.0 ||
		!strings.HasPrefix(f0["diff"].(string), "--- a/") || f0["syntax"] == nil {
		t.Errorf("files[0] %v", f0)
	}
	if f1["path"] != "src/python/process.py" || f1["status"] != "no_match" || f1["ok"] != true || f1["changed"] != false || f1["syntax"] != nil || f1["diff"] != nil {
		t.Errorf("files[1] %v", f1)
	}
	if !bytes.Contains(b, []byte(`"summary":"replaced 5 of 5 match(es)","status":"replaced","matches":5,"replacements":5}`)) {
		t.Errorf("JSON %s", b)
	}
}

// TestReplaceCancelledWhileChecked: a call cancelled after its files were
// checked (here with the guard off, which never looks at the context)
// writes nothing; every file is not written, with the reason.
func TestReplaceCancelledWhileChecked(t *testing.T) {
	w, dir := replaceTree(t, nil)
	before := replaceSnapshot(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	paths := []string{"src/go/slog_value.go", "src/go/atomic_type.go"}
	res, err := w.Replace(ctx, ops.ReplaceRequest{Search: "unsafe.", Replacement: "unsafepkg.", Paths: paths,
		WriteOptions: ops.WriteOptions{Check: "off"},
		OnFile: func(path string, n int) {
			if path == paths[len(paths)-1] {
				cancel()
			}
		}})
	if !errors.Is(err, context.Canceled) || ops.CodeOf(err) != ops.CodeError || res.OK || res.Written {
		t.Fatalf("error %v, result %+v: want the call stopped, nothing written", err, res)
	}
	if got := replaceStatuses(res); !slices.Equal(got, []string{"src/go/slog_value.go=not_written", "src/go/atomic_type.go=not_written"}) {
		t.Errorf("statuses %v", got)
	}
	for _, f := range res.Files {
		if f.Error == nil || !errors.Is(f.Error, context.Canceled) {
			t.Errorf("%s: error %v, want the cancellation", f.Path, f.Error)
		}
	}
	replaceSameTree(t, dir, before, "cancelled")
}

// TestReplaceSkipsNotUTF8WithoutMatch: a file that is not UTF-8 text
// (here Latin-1, as the test files of large trees are) and holds no match
// is searched as raw bytes, counted in Skipped and left alone, and the run
// writes the files with matches; one that does hold a match is still
// refused, with every file byte-identical.
func TestReplaceSkipsNotUTF8WithoutMatch(t *testing.T) {
	latin1 := "# -*- coding: latin-1 -*-\ns = 'caf\xe9'\n"
	w, dir := replaceTree(t, map[string]string{"src/python/latin1.py": latin1})
	req := ops.ReplaceRequest{Search: "unsafe.", Replacement: "unsafepkg.", Paths: []string{"src"}}
	res, err := w.Replace(context.Background(), req)
	if err != nil || !res.OK || res.FilesWritten != 2 {
		t.Fatalf("replace with an unrelated Latin-1 file: %v, %+v", err, res)
	}
	if res.Skipped["not UTF-8 (no match)"] != 1 || !strings.Contains(res.Summary, "1 not UTF-8 (no match)") {
		t.Errorf("skipped %v, summary %q", res.Skipped, res.Summary)
	}
	if want := []ops.SkippedFile{{Path: "src/python/latin1.py", Reason: "not UTF-8 (no match)"}}; !slices.Equal(res.SkippedFiles, want) {
		t.Errorf("skipped files %+v, want %+v", res.SkippedFiles, want)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "src", "python", "latin1.py")); string(got) != latin1 {
		t.Errorf("the Latin-1 file changed: %q", got)
	}

	// The same file named on its own, holding no match: skipped, the run
	// refused only for having no match at all.
	res, err = w.Replace(context.Background(), ops.ReplaceRequest{Search: "unsafe.", Replacement: "x", Paths: []string{"src/python/latin1.py"}})
	if err == nil || res.Error.Code != ops.CodeNoMatchText || res.Skipped["not UTF-8 (no match)"] != 1 {
		t.Errorf("named Latin-1 file without a match: %v, %+v", err, res)
	}

	// A match inside the Latin-1 file: refused as a file symedit cannot
	// edit, and nothing is written anywhere.
	before := replaceSnapshot(t, dir)
	res, err = w.Replace(context.Background(), ops.ReplaceRequest{Search: "caf", Replacement: "cafe", Paths: []string{"src"}})
	if err == nil || res.OK || res.FilesWritten != 0 || len(res.SkippedFiles) != 0 {
		t.Errorf("a match in a Latin-1 file: %v, %+v", err, res)
	}
	if got := replaceStatuses(res); !slices.Contains(got, "src/python/latin1.py=refused") {
		t.Errorf("statuses %v: want the Latin-1 file refused", got)
	}
	sum, others := 0, 0
	for _, f := range res.Files {
		sum += f.Matches
		if f.Path != "src/python/latin1.py" {
			others += f.Matches
			continue
		}
		if f.Error == nil || !strings.Contains(f.Error.Error(), "UTF-8") {
			t.Errorf("the Latin-1 file's error %v: want it to say the file is not UTF-8", f.Error)
		}
		// Its bytes hold one "caf": counted, though it is refused, so
		// the summary does not say there is less to replace than there is.
		if f.Matches != 1 {
			t.Errorf("the Latin-1 file's matches: %d, want 1 (counted in its bytes)", f.Matches)
		}
	}
	if res.TotalMatches != sum || !strings.HasPrefix(res.Summary, fmt.Sprintf("%d match(es)", sum)) {
		t.Errorf("total %d, summary %q: want the %d matches of every file, the refused one's included", res.TotalMatches, res.Summary, sum)
	}
	replaceSameTree(t, dir, before, "a refused replace")

	// An expected count that leaves out the Latin-1 file's match is a
	// count refusal that names it, with or without --partial: nothing is
	// written.
	for _, partial := range []bool{false, true} {
		res, err = w.Replace(context.Background(), ops.ReplaceRequest{Search: "caf", Replacement: "cafe", Paths: []string{"src"}, Expect: &others, Partial: partial})
		if err == nil || res.FilesWritten != 0 || res.Error == nil ||
			!strings.Contains(res.Error.Message, fmt.Sprintf("expected %d match(es)", others)) ||
			!strings.Contains(res.Error.Message, "src/python/latin1.py: 1 match(es) in bytes that are not UTF-8 text") {
			t.Errorf("partial=%v, expecting the matches of the UTF-8 files only: %v, %+v", partial, err, res.Error)
		}
		replaceSameTree(t, dir, before, "a replace refused for its count")
	}

	// With --partial the other files are written, the Latin-1 file still
	// refused and left as it was.
	res, err = w.Replace(context.Background(), ops.ReplaceRequest{Search: "caf", Replacement: "cafe", Paths: []string{"src"}, Partial: true})
	if err == nil || res.Refused != 1 {
		t.Errorf("a match in a Latin-1 file, partial: %v, %+v", err, res)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "src", "python", "latin1.py")); string(got) != latin1 {
		t.Errorf("the Latin-1 file changed: %q", got)
	}
}
