package ops_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/symedit/symedit/ops"
)

// tree copies the fixtures of testdata/src (CPython and Go excerpts,
// hand-written Java and TypeScript) into a new folder, adds the files
// extra maps (path to content), and opens a Workspace on it, relative
// paths taken from the folder.
func tree(t *testing.T, extra map[string]string) (*ops.Workspace, string) {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join("..", "testdata", "src")
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		extra["src/"+filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range extra {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
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

const (
	brokenGo = "package broken\n\nfunc F() {\n\tx := )\n}\n"
	brokenPy = "def f():\nx = 1\n"
)

// The real fixtures have no syntax error; the walk skips the files in no
// supported language (licences, README) and says so.
func TestCheckFixtures(t *testing.T) {
	w, _ := tree(t, map[string]string{})
	res, err := w.Check(context.Background(), ops.CheckRequest{Path: "src"})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range res.Files {
		paths = append(paths, f.Path)
		if !f.OK || len(f.Problems) != 0 || f.Error != nil || f.Language == "" {
			t.Errorf("%s: %+v", f.Path, f)
		}
	}
	want := []string{"src/c/shapes.c", "src/c/shapes.h", "src/cpp/widget.cpp", "src/cpp/widget.hpp",
		"src/csharp/flatbuffers_FlatBufferVerify.cs", "src/csharp/flatbuffers_Table.cs", "src/csharp/modern.cs", "src/csharp/shapes.cs",
		"src/go/atomic_type.go", "src/go/slog_value.go", "src/java/Inventory.java", "src/php/doctrine_Column.php",
		"src/php/php_parser_NodeTraverser.php", "src/php/shapes.php", "src/python/contextlib_excerpt.py", "src/python/process.py",
		"src/ruby/delegate.rb", "src/ruby/ostruct.rb", "src/ruby/shapes.rb", "src/rust/alloc_borrow.rs", "src/rust/core_char_mod.rs",
		"src/rust/shapes.rs",
		"src/typescript/scheduler.ts", "src/typescript/widget.tsx"}
	if !slices.Equal(paths, want) {
		t.Errorf("files %q, want %q", paths, want)
	}
	if !res.OK || res.Checked != 24 || res.Problems != 0 || res.Skipped["unsupported language"] != 8 {
		t.Errorf("result %+v", res)
	}
	if want := "checked 24 file(s): 0 syntax error(s) in 0 file(s); skipped: 8 unsupported language"; res.Summary != want {
		t.Errorf("summary %q, want %q", res.Summary, want)
	}
}

// Broken files are reported with every problem, in path order, with the
// SYNTAX code, beside a good fixture; the files are left as they were.
// The JSON of a file is one line of `symedit check --json`.
func TestCheckBroken(t *testing.T) {
	w, dir := tree(t, map[string]string{"broken/bad.go": brokenGo, "broken/nobody.py": brokenPy})
	res, err := w.Check(context.Background(), ops.CheckRequest{Path: "broken", Paths: []string{"src/python/process.py"}, WalkOptions: ops.WalkOptions{Jobs: 2}})
	var oe *ops.Error
	if !errors.As(err, &oe) || oe.Code != ops.CodeSyntax || res.Error != oe || res.OK {
		t.Fatalf("error %v, result %+v", err, res)
	}
	if oe.Message != "4 syntax error(s) in 2 file(s)" || res.BadFiles != 2 || res.Checked != 3 {
		t.Errorf("message %q, result %+v", oe.Message, res)
	}
	if len(res.Files) != 3 || res.Files[0].Path != "broken/bad.go" || res.Files[1].Path != "broken/nobody.py" || res.Files[2].Path != "src/python/process.py" {
		t.Fatalf("files %+v", res.Files)
	}
	js, err := json.Marshal(res.Files[1])
	if err != nil {
		t.Fatal(err)
	}
	want := `{"path":"broken/nobody.py","language":"python","ok":false,"problems":[{"line":2,"column":1,"end_line":2,"end_column":1,` +
		`"kind":"python/indent","message":"python/indent: expected an indented block after \"def f():\"","text":"x = 1"}]}`
	if string(js) != want {
		t.Errorf("JSON\n%s\nwant\n%s", js, want)
	}
	if !res.Files[2].OK {
		t.Errorf("process.py: %+v", res.Files[2])
	}
	sameFile(t, dir, "broken/bad.go", []byte(brokenGo))
	sameFile(t, dir, "broken/nobody.py", []byte(brokenPy))
}

// OnFile receives the files in path order however many run at once, with
// the number of files, and Files stays empty.
func TestCheckOnFileOrder(t *testing.T) {
	extra := map[string]string{}
	var want []string
	for _, c := range "abcdefghijklmnopqrst" {
		name := "many/" + string(c) + ".py"
		extra[name] = "def " + string(c) + "():\n    return 1\n"
		want = append(want, name)
	}
	extra["many/k.py"] = brokenPy
	w, _ := tree(t, extra)
	for _, jobs := range []int{1, 4} {
		var got []string
		res, err := w.Check(context.Background(), ops.CheckRequest{Path: "many/*.py", WalkOptions: ops.WalkOptions{Jobs: jobs},
			OnFile: func(f *ops.CheckFile, n int) error {
				if n != len(want) {
					t.Errorf("n %d", n)
				}
				got = append(got, f.Path)
				return nil
			}})
		if ops.CodeOf(err) != ops.CodeSyntax || len(res.Files) != 0 || res.Problems != 1 {
			t.Errorf("jobs %d: error %v, %d files, %d problems", jobs, err, len(res.Files), res.Problems)
		}
		if !slices.Equal(got, want) {
			t.Errorf("jobs %d: order %q", jobs, got)
		}
	}
}

// A file that cannot be read is reported with its error beside the
// others, and its code is the result's; malformed or empty patterns and
// paths outside the root fail the whole request.
func TestCheckErrors(t *testing.T) {
	w, _ := tree(t, map[string]string{"notes.txt": "hello\n"})
	res, err := w.Check(context.Background(), ops.CheckRequest{Path: "nowhere.py", Paths: []string{"src/go/slog_value.go", "notes.txt"}})
	if ops.CodeOf(err) != ops.CodeError || res.OK || len(res.Files) != 3 || res.Unchecked != 2 || res.Checked != 1 {
		t.Fatalf("error %v, result %+v", err, res)
	}
	if f := res.Files[0]; f.Error == nil || f.Error.Code != ops.CodeError || !strings.Contains(f.Error.Message, "no such file") || f.Problems == nil {
		t.Errorf("nowhere.py: %+v", f)
	}
	if f := res.Files[2]; f.Error == nil || f.Error.Code != ops.CodeUnsupported {
		t.Errorf("notes.txt: %+v", f)
	}
	if !strings.HasPrefix(res.Summary, "checked 1 of 3 file(s) (2 could not be checked)") {
		t.Errorf("summary %q", res.Summary)
	}
	for _, tc := range []struct {
		path string
		code ops.Code
	}{
		{"src/**/*.{go", ops.CodeUsage},
		{"nothing/**/*.go", ops.CodeError},
		{"../*.go", ops.CodeOutsideRoot},
	} {
		res, err := w.Check(context.Background(), ops.CheckRequest{Path: tc.path})
		if ops.CodeOf(err) != tc.code || res.OK || len(res.Files) != 0 || res.Summary != "" || res.Error == nil {
			t.Errorf("%s: error %v (%s), result %+v", tc.path, err, ops.CodeOf(err), res)
		}
	}
}
