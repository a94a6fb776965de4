package walk_test

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/symedit/symedit/internal/goroot"
	"github.com/symedit/symedit/walk"
)

// sameAsSerial expands args with and without reading folders
// concurrently and fails unless the two results are equal in every
// field, or fail with the same error. It returns the serial result and
// how many goroutines the concurrent walk started.
func sameAsSerial(t *testing.T, args []string, opt walk.Options) (walk.Result, int64) {
	t.Helper()
	want, wantErr := walk.ExpandSerial(args, opt)
	got, started, err := walk.ExpandCounting(args, opt)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("%q %+v: error %v, serial %v", args, opt, err, wantErr)
	}
	if got.Walked != want.Walked || !slices.Equal(got.Files, want.Files) ||
		!slices.Equal(got.Unchecked, want.Unchecked) || !maps.Equal(got.Skipped, want.Skipped) {
		t.Fatalf("%q %+v: concurrent walk differs from the serial one:\n%s\nserial:\n%s",
			args, opt, got.Summary(), want.Summary())
	}
	return want, started
}

// checkFanned fails when a walk of a tree of many folders started no
// goroutine although the process may run more than one: the comparison
// would then be of the serial walk with itself.
func checkFanned(t *testing.T, started int64) {
	t.Helper()
	if runtime.GOMAXPROCS(0) > 1 && started == 0 {
		t.Errorf("the walk started no goroutine with GOMAXPROCS %d", runtime.GOMAXPROCS(0))
	}
}

// TestExpandConcurrentSameAsSerialGoroot walks GOROOT/src (about 1,300
// folders) concurrently and serially, plain, without ignore files, with
// an Exclude pattern, and through a pattern, with the content checks
// deferred and made: the results are equal in every field.
func TestExpandConcurrentSameAsSerialGoroot(t *testing.T) {
	src := goroot.Src()
	if _, err := os.Stat(filepath.Join(src, "go", "parser")); src == "" || err != nil {
		t.Skipf("no Go source tree: %v", err)
	}
	for _, c := range []struct {
		arg string
		opt walk.Options
	}{
		{src, walk.Options{DeferContentChecks: true}},
		{src, walk.Options{DeferContentChecks: true, NoIgnore: true}},
		{src, walk.Options{DeferContentChecks: true, Exclude: []string{"**/testdata/**", "*_test.go"}}},
		{src + "/**/*.go", walk.Options{DeferContentChecks: true}},
		{src + "/go/**/*.go", walk.Options{}},
	} {
		r, started := sameAsSerial(t, []string{c.arg}, c.opt)
		if len(r.Files) < 100 {
			t.Errorf("%s %+v: %d files", c.arg, c.opt, len(r.Files))
		}
		checkFanned(t, started)
	}
}

// TestExpandConcurrentSameAsSerialTestdata walks the repository's
// testdata (fewer folders than a walk reads before it starts a
// goroutine) and the walk package itself, named twice: equal results.
func TestExpandConcurrentSameAsSerialTestdata(t *testing.T) {
	for _, opt := range []walk.Options{{}, {DeferContentChecks: true}, {NoIgnore: true, Hidden: true}} {
		if r, _ := sameAsSerial(t, []string{"../testdata", ".", "../walk"}, opt); len(r.Files) < 10 {
			t.Errorf("%+v: %d files", opt, len(r.Files))
		}
	}
}

// ignoreTree makes a tree of 170 folders, three deep, four wide, each
// with a build folder, with .gitignore files at several levels
// (negations, folder-only and anchored patterns, a "**" pattern), links,
// hidden and binary files, and returns its path.
func ignoreTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".git/info/exclude", "secret.go\n")
	write(".gitignore", "build/\nold.go/\n*.gen.go\n!keep.gen.go\n/d0/a.go\n")
	var fill func(rel string, depth int)
	fill = func(rel string, depth int) {
		for _, f := range []string{"a.go", "b.py", "c.txt", "x.gen.go", "keep.gen.go", "secret.go", ".h.go", "old.go"} {
			write(rel+"/"+f, "package p\n")
		}
		write(rel+"/bin.go", "package p\x00\n")
		write(rel+"/build/out.go", "package out\n")
		if err := os.Symlink("a.go", filepath.Join(root, filepath.FromSlash(rel), "link.go")); err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasSuffix(rel, "d1"):
			write(rel+"/.gitignore", "*.py\n!keep.gen.go\nd2/\n")
		case strings.HasSuffix(rel, "d3"):
			write(rel+"/.gitignore", "!*.gen.go\n/d2\n**/d0/a.go\n!build/\n")
		}
		if depth == 3 {
			return
		}
		for i := range 4 {
			fill(fmt.Sprintf("%s/d%d", rel, i), depth+1)
		}
	}
	fill(".", 0)
	return root
}

// TestExpandConcurrentSameAsSerialIgnoreFiles walks a generated tree whose
// .gitignore files change from branch to branch, concurrently and
// serially, with several options and a pattern: equal results; and the
// ignore files did leave files out.
func TestExpandConcurrentSameAsSerialIgnoreFiles(t *testing.T) {
	root := ignoreTree(t)
	var ignored, all walk.Result
	for _, c := range []struct {
		args []string
		opt  walk.Options
		fans bool // whether a walk reads enough folders to start goroutines
	}{
		{[]string{root}, walk.Options{}, true},
		{[]string{root}, walk.Options{NoIgnore: true}, true},
		{[]string{root}, walk.Options{Hidden: true, MaxSize: 10}, true},
		{[]string{root}, walk.Options{DeferContentChecks: true, Exclude: []string{"d2", "**/d3/d1/**"}}, true},
		{[]string{root + "/d1/**/*.go", root + "/d3"}, walk.Options{}, false},
		{[]string{root + "/d3/d3", root + "/d*/d3/**/*.{go,py}", root}, walk.Options{}, true},
	} {
		r, started := sameAsSerial(t, c.args, c.opt)
		if c.fans {
			checkFanned(t, started)
		}
		if r.Skipped[walk.SkipSymlink] == 0 || len(r.Files) == 0 {
			t.Errorf("%q %+v: %s", c.args, c.opt, r.Summary())
		}
		switch {
		case len(c.args) == 1 && c.opt.Hidden == c.opt.NoIgnore && c.opt.Exclude == nil:
			ignored = r
		case c.opt.NoIgnore:
			all = r
		}
	}
	if len(ignored.Files) == 0 || len(ignored.Files) >= len(all.Files) {
		t.Errorf("the ignore files left nothing out: %d files, %d without them", len(ignored.Files), len(all.Files))
	}
}

// badTree makes a tree where two folders fail the walk, root/a/z/bad,
// first in depth-first order, and root/b/bad, by calling spoil on each,
// and returns root. Forty folders before them outlast the walk's serial
// start, so that a and b are read concurrently: one goroutine has a's
// sixty folders to read before a/z/bad while another reads b/bad at
// once, so b/bad usually fails first in time.
func badTree(t *testing.T, spoil func(dir string)) string {
	t.Helper()
	root := t.TempDir()
	var dirs []string
	for i := range 40 {
		dirs = append(dirs, fmt.Sprintf("0%02d", i))
	}
	for i := range 60 {
		dirs = append(dirs, fmt.Sprintf("a/d%02d", i))
	}
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(root, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"a/z/bad", "b/bad"} {
		p := filepath.Join(root, filepath.FromSlash(d))
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "x.go"), []byte("package x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		spoil(p)
	}
	return root
}

// checkFirstError walks root 20 times, concurrently and serially: every
// walk fails with the error of the path want (the first failing one in
// depth-first order), and with wantErr.
func checkFirstError(t *testing.T, root, want string, wantErr error) {
	t.Helper()
	for i := range 20 {
		expand := walk.Expand
		if i == 0 {
			expand = walk.ExpandSerial
		}
		_, err := expand([]string{root}, walk.Options{})
		var pe *fs.PathError
		if !errors.As(err, &pe) || pe.Path != want || !errors.Is(err, wantErr) {
			t.Fatalf("run %d: %v, want %v on %s", i, err, wantErr, want)
		}
	}
}

// TestExpandFirstErrorUnreadableIgnoreFile: two folders whose .gitignore
// cannot be read (a link to itself: ELOOP, for root too); the concurrent
// walk reads every folder, and may fail in root/b/bad first, but names
// the error the serial walk stops at, root/a/z/bad's, run after run.
func TestExpandFirstErrorUnreadableIgnoreFile(t *testing.T) {
	root := badTree(t, func(dir string) {
		if err := os.Symlink(".gitignore", filepath.Join(dir, ".gitignore")); err != nil {
			t.Fatal(err)
		}
	})
	checkFirstError(t, root, filepath.Join(root, "a", "z", "bad", ".gitignore"), syscall.ELOOP)
}

// TestExpandFirstErrorUnreadableFolder: two folders that cannot be listed
// (mode 000); the walk's error is root/a/z/bad's, first in depth-first
// order, run after run.
func TestExpandFirstErrorUnreadableFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads a folder of mode 000")
	}
	root := badTree(t, func(dir string) {
		if err := os.Chmod(dir, 0); err != nil {
			t.Fatal(err)
		}
		// Registered after t.TempDir's removal, so run before it.
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
	})
	checkFirstError(t, root, filepath.Join(root, "a", "z", "bad"), fs.ErrPermission)
}
