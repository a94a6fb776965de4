package walk_test

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/symedit/symedit/files"
	"github.com/symedit/symedit/walk"
)

// tree makes a work tree in a temporary folder and returns its path.
func tree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		".git/info/exclude":  "# local\nsecret.go\n",
		".git/y.go":          "package y\n",
		".gitignore":         "build/\n*.gen.go\n",
		"a.go":               "package a\n",
		"b.py":               "x = 1\n",
		"README.md":          "# readme\n",
		"secret.go":          "package secret\n",
		"x.gen.go":           "package x\n",
		"build/out.go":       "package out\n",
		".hidden/h.go":       "package h\n",
		".h.go":              "package h\n",
		"bin.go":             "package bin\x00\n",
		"sub/.gitignore":     "local.go\n!keep.gen.go\n",
		"sub/c.go":           "package c\n",
		"sub/local.go":       "package local\n",
		"sub/keep.gen.go":    "package keep\n",
		"sub/other.gen.go":   "package other\n",
		"sub/deep/d.ts":      "let d = 1;\n",
		"sub/deep/e.go":      "package e\n",
		"sub/deep/big.java":  strings.Repeat("// x\n", 100),
		"other/{a,b}/lit.go": "package lit\n",
	}
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a.go", filepath.Join(root, "link.go")); err != nil {
		t.Fatal(err)
	}
	return root
}

// rel returns files relative to root, slash-separated.
func rel(t *testing.T, root string, files []string) []string {
	t.Helper()
	var out []string
	for _, f := range files {
		r, err := filepath.Rel(root, f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, filepath.ToSlash(r))
	}
	return out
}

func TestExpand(t *testing.T) {
	root := tree(t)
	j := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	tests := []struct {
		name    string
		args    []string
		opt     walk.Options
		want    []string
		skipped map[string]int
	}{
		{"directory", []string{root}, walk.Options{},
			[]string{"a.go", "b.py", "other/{a,b}/lit.go", "sub/c.go", "sub/deep/big.java", "sub/deep/d.ts", "sub/deep/e.go", "sub/keep.gen.go"},
			map[string]int{walk.SkipBinary: 1, walk.SkipUnsupported: 1, walk.SkipSymlink: 1}},
		{"subfolder keeps the parent's .gitignore", []string{j("sub")}, walk.Options{},
			[]string{"sub/c.go", "sub/deep/big.java", "sub/deep/d.ts", "sub/deep/e.go", "sub/keep.gen.go"}, nil},
		{"no ignore", []string{j("sub")}, walk.Options{NoIgnore: true},
			[]string{"sub/c.go", "sub/deep/big.java", "sub/deep/d.ts", "sub/deep/e.go", "sub/keep.gen.go", "sub/local.go", "sub/other.gen.go"}, nil},
		{"hidden", []string{root}, walk.Options{Hidden: true, Exclude: []string{"sub", "other"}},
			[]string{".h.go", ".hidden/h.go", "a.go", "b.py"}, nil},
		{"doublestar", []string{j("**/*.go")}, walk.Options{},
			[]string{"a.go", "other/{a,b}/lit.go", "sub/c.go", "sub/deep/e.go", "sub/keep.gen.go"},
			map[string]int{walk.SkipBinary: 1, walk.SkipSymlink: 1}},
		{"alternatives", []string{j("**/*.{py,ts}")}, walk.Options{}, []string{"b.py", "sub/deep/d.ts"}, nil},
		{"class", []string{j("sub/[a-c].go")}, walk.Options{}, []string{"sub/c.go"}, nil},
		{"one level", []string{j("*/*.go")}, walk.Options{}, []string{"sub/c.go", "sub/keep.gen.go"}, nil},
		{"exclude by path and name", []string{root}, walk.Options{Exclude: []string{"sub/deep", "*.py", "other/**"}},
			[]string{"a.go", "sub/c.go", "sub/keep.gen.go"}, nil},
		{"too large", []string{j("sub/deep")}, walk.Options{MaxSize: 100},
			[]string{"sub/deep/d.ts", "sub/deep/e.go"}, map[string]int{walk.SkipTooLarge: 1}},
		{"explicit names bypass ignores, in order", []string{j("x.gen.go"), j("build/out.go"), j("a.go"), j("a.go")}, walk.Options{},
			[]string{"x.gen.go", "build/out.go", "a.go", "a.go"}, nil},
		{"explicit and walked: sorted, distinct", []string{j("x.gen.go"), j("sub/deep"), j("a.go"), j("sub/deep/e.go")}, walk.Options{},
			[]string{"a.go", "sub/deep/big.java", "sub/deep/d.ts", "sub/deep/e.go", "x.gen.go"}, nil},
		{"existing name with metacharacters is a file", []string{j("other/{a,b}/lit.go")}, walk.Options{}, []string{"other/{a,b}/lit.go"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := walk.Expand(tt.args, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := rel(t, root, r.Files); !slices.Equal(got, tt.want) {
				t.Errorf("files:\n got %q\nwant %q", got, tt.want)
			}
			if tt.skipped != nil && !maps.Equal(r.Skipped, tt.skipped) {
				t.Errorf("skipped = %v, want %v", r.Skipped, tt.skipped)
			}
		})
	}
}

func TestExpandDeterministic(t *testing.T) {
	root := tree(t)
	first, err := walk.Expand([]string{filepath.Join(root, "sub"), root + "/**/*.go", root}, walk.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !first.Walked || !slices.IsSorted(first.Files) {
		t.Fatalf("not sorted or not walked: %+v", first)
	}
	for range 5 {
		again, err := walk.Expand([]string{root, root + "/**/*.go", filepath.Join(root, "sub")}, walk.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(again.Files, first.Files) {
			t.Fatalf("runs differ:\n%q\n%q", first.Files, again.Files)
		}
	}
}

func TestExpandErrors(t *testing.T) {
	root := tree(t)
	if _, err := walk.Expand([]string{root + "/**/*.rs"}, walk.Options{}); !errors.Is(err, walk.ErrNoMatch) {
		t.Errorf("no match: %v", err)
	}
	if _, err := walk.Expand([]string{root + "/nowhere/*.go"}, walk.Options{}); !errors.Is(err, walk.ErrNoMatch) {
		t.Errorf("missing base: %v", err)
	}
	if _, err := walk.Expand([]string{root + "/[a.go"}, walk.Options{}); !errors.Is(err, walk.ErrBadPattern) {
		t.Errorf("bad pattern: %v", err)
	}
	if _, err := walk.Expand([]string{root}, walk.Options{Exclude: []string{"[x"}}); !errors.Is(err, walk.ErrBadPattern) {
		t.Errorf("bad exclude: %v", err)
	}
	if _, err := walk.Expand([]string{root + "/**/*.go"}, walk.Options{Confine: confineTo(t, filepath.Join(root, "sub"))}); !errors.Is(err, files.ErrOutsideRoot) {
		t.Errorf("outside root: %v", err)
	}
	r, err := walk.Expand([]string{filepath.Join(root, "sub", "**", "*.go")}, walk.Options{Confine: confineTo(t, filepath.Join(root, "sub"))})
	if err != nil || len(r.Files) != 3 {
		t.Errorf("inside root: %v, %v", r.Files, err)
	}
	// A missing plain name is passed on for the command to report.
	r, err = walk.Expand([]string{filepath.Join(root, "missing.go")}, walk.Options{})
	if err != nil || len(r.Files) != 1 || r.Walked {
		t.Errorf("missing file: %+v, %v", r, err)
	}
}

func TestSummary(t *testing.T) {
	r := walk.Result{Files: []string{"a", "b"}, Skipped: map[string]int{walk.SkipTooLarge: 1, walk.SkipBinary: 2}}
	if got, want := r.Summary(), "2 file(s); skipped: 2 binary, 1 too large"; got != want {
		t.Errorf("Summary = %q, want %q", got, want)
	}
	if got := (walk.Result{}).Summary(); got != "0 file(s)" {
		t.Errorf("empty Summary = %q", got)
	}
}

// linkedTree makes a work tree whose folder link is followed by ".." in
// the walked paths, the layout where cleaning a name's text would reach
// a different folder than the kernel does:
//
//	w/.git/info/exclude
//	w/.gitignore       "/a/b/skip.py": applies to w/a/b/skip.py only
//	w/sub -> a/b       so w/sub/.. is w/a, not w
//	w/x.py, w/top.go   in w: no walk below w/a may list them
//	w/a/.gitignore     "secret.py"
//	w/a/x.py, w/a/secret.py, w/a/b/y.py, w/a/b/skip.py
//
// Every file holds its own path, so a test can tell which file a name
// reaches.
func linkedTree(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	files := map[string]string{
		"w/.git/info/exclude": "# nothing\n",
		"w/.gitignore":        "/a/b/skip.py\n",
		"w/a/.gitignore":      "secret.py\n",
		"w/x.py":              "",
		"w/top.go":            "",
		"w/a/x.py":            "",
		"w/a/secret.py":       "",
		"w/a/b/y.py":          "",
		"w/a/b/skip.py":       "",
	}
	for name, content := range files {
		if content == "" {
			content = "WHERE = '" + name + "'\n"
		}
		p := filepath.Join(base, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a/b", filepath.Join(base, "w", "sub")); err != nil {
		t.Fatal(err)
	}
	return base
}

// TestExpandDotDotAfterLink walks folders and patterns written with ".."
// after a folder link: the walk lists the files of the folder the kernel
// reaches, under names that reach them, reads that folder's ignore files,
// and confines by the real folders, never by the cleaned text.
func TestExpandDotDotAfterLink(t *testing.T) {
	tests := []struct {
		name string
		args []string // relative to base
		opt  walk.Options
		root string   // the root to confine the walk to, relative to base; "" for none
		want []string // the files the names must reach, relative to base
	}{
		{"folder", []string{"w/sub/.."}, walk.Options{}, "", []string{"w/a/b/y.py", "w/a/x.py"}},
		{"folder with a trailing slash", []string{"w/sub/../"}, walk.Options{}, "", []string{"w/a/b/y.py", "w/a/x.py"}},
		{"folder below", []string{"w/sub/../b"}, walk.Options{}, "", []string{"w/a/b/y.py"}},
		{"pattern", []string{"w/sub/../**/*.py"}, walk.Options{}, "", []string{"w/a/b/y.py", "w/a/x.py"}},
		{"no ignore", []string{"w/sub/.."}, walk.Options{NoIgnore: true}, "",
			[]string{"w/a/b/skip.py", "w/a/b/y.py", "w/a/secret.py", "w/a/x.py"}},
		{"two names of one folder", []string{"w/sub/..", "w/a"}, walk.Options{}, "", []string{"w/a/b/y.py", "w/a/x.py"}},
		{"inside a root given with ..", []string{"w/a"}, walk.Options{}, "w/sub/..", []string{"w/a/b/y.py", "w/a/x.py"}},
		{"root given plainly", []string{"w/sub/.."}, walk.Options{}, "w/a", []string{"w/a/b/y.py", "w/a/x.py"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := linkedTree(t)
			t.Chdir(base)
			if tt.root != "" {
				tt.opt.Confine = confineTo(t, tt.root)
			}
			r, err := walk.Expand(tt.args, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			var reached []string
			for _, f := range r.Files {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				where := strings.TrimSuffix(strings.TrimPrefix(string(b), "WHERE = '"), "'\n")
				reached = append(reached, where)
			}
			slices.Sort(reached)
			if !slices.Equal(reached, tt.want) {
				t.Errorf("the names %q reach %q, want %q", r.Files, reached, tt.want)
			}
		})
	}
	t.Run("outside a root given with ..", func(t *testing.T) {
		base := linkedTree(t)
		t.Chdir(base)
		// w/sub/.. is w/a: w is outside it.
		for _, arg := range []string{"w", "w/sub/../..", "w/*.go"} {
			if r, err := walk.Expand([]string{arg}, walk.Options{Confine: confineTo(t, "w/sub/..")}); !errors.Is(err, files.ErrOutsideRoot) {
				t.Errorf("Expand(%s) = %q, %v, want ErrOutsideRoot", arg, r.Files, err)
			}
		}
	})
}

// TestExpandNamedPipes puts named pipes where a walk reads: a .gitignore
// of the walked folder or of a folder above it, .git/info/exclude, and a
// source file. Opening a pipe for reading waits for a writer forever; the
// walk must not open one that way, must not read one, and goes on as if
// the ignore file were absent, so a pipe cannot hang the walk.
func TestExpandNamedPipes(t *testing.T) {
	tests := []struct {
		name  string
		fifos []string // below the tree
		arg   string   // below the tree
		want  []string // below the tree
	}{
		{"walked folder's .gitignore", []string{"sub/.gitignore"}, "sub",
			[]string{"sub/c.go", "sub/deep/big.java", "sub/deep/d.ts", "sub/deep/e.go", "sub/local.go"}},
		{"parent's .gitignore", []string{".gitignore"}, "sub/deep", []string{"sub/deep/big.java", "sub/deep/d.ts", "sub/deep/e.go"}},
		{".git/info/exclude", []string{".git/info/exclude"}, ".", []string{"a.go", "b.py", "other/{a,b}/lit.go", "secret.go",
			"sub/c.go", "sub/deep/big.java", "sub/deep/d.ts", "sub/deep/e.go", "sub/keep.gen.go"}},
		{"a source file", []string{"sub/deep/f.go"}, "sub/deep/*.go", []string{"sub/deep/e.go"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := tree(t)
			for _, f := range tt.fifos {
				p := filepath.Join(root, filepath.FromSlash(f))
				if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
					t.Fatal(err)
				}
				if err := syscall.Mkfifo(p, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			type result struct {
				r   walk.Result
				err error
			}
			done := make(chan result, 1)
			go func() {
				r, err := walk.Expand([]string{filepath.Join(root, filepath.FromSlash(tt.arg))}, walk.Options{})
				done <- result{r, err}
			}()
			var res result
			select {
			case res = <-done:
			case <-time.After(30 * time.Second):
				// A hang detector, not a time limit: the walk takes
				// milliseconds. Writers let a blocked open go on.
				for _, f := range tt.fifos {
					if w, err := os.OpenFile(filepath.Join(root, filepath.FromSlash(f)), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
						w.Close()
					}
				}
				res = <-done
				t.Fatalf("Expand blocked on a named pipe (released: %v)", res.err)
			}
			if res.err != nil {
				t.Fatal(res.err)
			}
			if got := rel(t, root, res.r.Files); !slices.Equal(got, tt.want) {
				t.Errorf("files:\n got %q\nwant %q", got, tt.want)
			}
			for _, f := range tt.fifos {
				if fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(f))); err != nil || fi.Mode().Type() != os.ModeNamedPipe {
					t.Errorf("%s is no longer a named pipe: %v %v", f, fi, err)
				}
			}
		})
	}
}

// TestExpandManyChecked walks a folder of 500 files, a fifth of them
// binary, some too large and some in no supported language, so that the
// checks run on several goroutines (settle): the files kept and the
// counts are exactly those of the rules, in order, run after run; and a
// pattern whose every match is skipped matches no file.
func TestExpandManyChecked(t *testing.T) {
	root := t.TempDir()
	var want []string
	wantSkipped := map[string]int{}
	for i := range 500 {
		name, content := fmt.Sprintf("f%03d.go", i), "package f\n"
		switch {
		case i%5 == 0:
			content, name = "package f\x00\n", fmt.Sprintf("bin%03d.go", i)
			wantSkipped[walk.SkipBinary]++
		case i%7 == 0:
			content = strings.Repeat("// x\n", 30)
			wantSkipped[walk.SkipTooLarge]++
		case i%11 == 0:
			name = fmt.Sprintf("f%03d.txt", i) // no language claims .txt
			wantSkipped[walk.SkipUnsupported]++
		default:
			want = append(want, name)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(want)
	for range 3 {
		r, err := walk.Expand([]string{root}, walk.Options{MaxSize: 100})
		if err != nil {
			t.Fatal(err)
		}
		if got := rel(t, root, r.Files); !slices.Equal(got, want) {
			t.Fatalf("files %d, want %d:\n%q\n%q", len(got), len(want), got, want)
		}
		if !maps.Equal(r.Skipped, wantSkipped) {
			t.Fatalf("skipped %v, want %v", r.Skipped, wantSkipped)
		}
	}
	if _, err := walk.Expand([]string{root + "/bin*.go"}, walk.Options{}); !errors.Is(err, walk.ErrNoMatch) {
		t.Errorf("a pattern matching only binary files: %v, want ErrNoMatch", err)
	}
}

// confineTo returns the confinement to root that symedit's commands give
// a walk: the file layer's refusal of a folder outside it.
func confineTo(t *testing.T, root string) func(string) error {
	t.Helper()
	fl, err := files.Open(files.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fl.Close() })
	return fl.ConfineDir
}

// TestExpandDeferContentChecks: with DeferContentChecks the walk opens no
// walked file: it keeps the binary and the too large files too, marked
// Unchecked, with only the language decided (unsupported still
// skipped); Check then gives the reasons the plain walk skips them for,
// and files named as arguments are never marked.
func TestExpandDeferContentChecks(t *testing.T) {
	root := tree(t)
	j := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	plain, err := walk.Expand([]string{root, j("x.gen.go")}, walk.Options{MaxSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	deferred, err := walk.Expand([]string{root, j("x.gen.go")}, walk.Options{MaxSize: 100, DeferContentChecks: true})
	if err != nil {
		t.Fatal(err)
	}
	if plain.Unchecked != nil || len(deferred.Unchecked) != len(deferred.Files) {
		t.Fatalf("Unchecked: plain %v, deferred %d flags for %d files", plain.Unchecked, len(deferred.Unchecked), len(deferred.Files))
	}
	if want := map[string]int{walk.SkipUnsupported: 1, walk.SkipSymlink: 1}; !maps.Equal(deferred.Skipped, want) {
		t.Errorf("deferred skipped = %v, want %v", deferred.Skipped, want)
	}
	var kept []string
	reasons := map[string]int{walk.SkipUnsupported: 1, walk.SkipSymlink: 1}
	for i, f := range deferred.Files {
		if f == j("x.gen.go") {
			if deferred.Unchecked[i] {
				t.Error("a file named as an argument is marked unchecked")
			}
			kept = append(kept, f)
			continue
		}
		if !deferred.Unchecked[i] {
			t.Errorf("%s: walked but not marked unchecked", f)
		}
		if r := walk.Check(f, 100); r != "" {
			reasons[r]++
			continue
		}
		kept = append(kept, f)
	}
	if !slices.Equal(kept, plain.Files) || !maps.Equal(reasons, plain.Skipped) {
		t.Errorf("deferred, then checked:\n %q %v\nplain:\n %q %v", kept, reasons, plain.Files, plain.Skipped)
	}
	if r := walk.Check(j("sub/deep/big.java"), 0); r != "" {
		t.Errorf("Check with the default limit: %q", r)
	}
}
