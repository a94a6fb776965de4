package guard_test

import (
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/symedit/symedit/guard"
	"github.com/symedit/symedit/internal/goroot"
	"github.com/symedit/symedit/internal/probe"
	"github.com/symedit/symedit/lang"
)

func TestFindSyntaxProblems(t *testing.T) {
	goLang, _ := lang.ByName("go")
	pyLang, _ := lang.ByName("python")
	tests := []struct {
		name    string
		lang    *lang.Language
		src     string
		want    []string // "LINE:COL KIND" of each problem
		checked bool
	}{
		{"go ok", goLang, "package p\n\nfunc f() {}\n", nil, true},
		{"go broken", goLang, "package p\n\nfunc f() {\n\tx := )\n}\n", []string{"4:2 ERROR", "4:7 go/parser", "6:1 go/parser"}, true},
		{"go top-level statement", goLang, "package p\n\nx := 1\n", []string{"3:1 go/parser"}, true},
		{"python ok", pyLang, "def f():\n    return 1\n", nil, true},
		{"python no body", pyLang, "def f():\nx = 1\n", []string{"2:1 python/indent"}, true},
		{"bom", goLang, "\ufeffpackage p\nfunc f( {}\n", nil, true},
		{"unsupported", nil, "whatever", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := guard.FindSyntaxProblems(context.Background(), tt.lang, []byte(tt.src), guard.GuardOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Checked != tt.checked {
				t.Fatalf("Checked = %v (skipped %q), want %v", rep.Checked, rep.Skipped, tt.checked)
			}
			if tt.name == "bom" {
				if len(rep.New) == 0 || rep.New[0].Line != 2 {
					t.Fatalf("bom: got %v, want problems on line 2", rep.New)
				}
				return
			}
			var got []string
			for _, p := range rep.New {
				got = append(got, fmt.Sprintf("%d:%d %s", p.Line, p.Column, p.Kind))
				if p.Kind == guard.KindError && p.Text == "" {
					t.Errorf("problem %v has no line text", p)
				}
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("problems = %v, want %v (%v)", got, tt.want, rep.New)
			}
			if rep.After != len(rep.New) || rep.Before != 0 {
				t.Errorf("Before, After = %d, %d", rep.Before, rep.After)
			}
		})
	}
}

func TestFindSyntaxProblemsSkips(t *testing.T) {
	goLang, _ := lang.ByName("go")
	rep, err := guard.FindSyntaxProblems(context.Background(), goLang, []byte("package p\n"), guard.GuardOptions{Mode: guard.CheckOff})
	if err != nil || rep.Checked || rep.Skipped != "check off" {
		t.Errorf("check off: %+v, %v", rep, err)
	}
	rep, err = guard.FindSyntaxProblems(context.Background(), goLang, []byte("package p\n// long\n"), guard.GuardOptions{MaxSize: 5})
	if err != nil || rep.Checked || !strings.HasPrefix(rep.Skipped, "too large") {
		t.Errorf("too large: %+v, %v", rep, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err = guard.FindSyntaxProblems(ctx, goLang, []byte("package p\n"), guard.GuardOptions{Timeout: time.Second})
	if err != nil || rep.Checked || !strings.HasPrefix(rep.Skipped, "canceled") {
		t.Errorf("canceled: %+v, %v", rep, err)
	}
}

// TestFindSyntaxProblemsGoParserDecides checks that in Go, code
// go/parser accepts has no problem and no note (tree-sitter does not
// parse it), though tree-sitter's Go grammar, which lags the language,
// rejects Go 1.24's generic type alias, Go 1.26's new(expression) and a
// shadowed make; and that in a file go/parser refuses, tree-sitter's
// problems above go/parser's first error are notes, not problems.
func TestFindSyntaxProblemsGoParserDecides(t *testing.T) {
	goLang, _ := lang.ByName("go")
	tests := []struct {
		name        string
		src         string
		want, notes []string // "LINE:COL KIND"
	}{
		{"generic alias", "package p\n\ntype S[T comparable] = map[T]struct{}\n", nil, nil},
		{"new of an expression", "package p\n\nfunc f() *int64 {\n\treturn new(int64(0))\n}\n", nil, nil},
		{"shadowed make", "package p\n\nfunc g() {\n\tmake := func(n int) []int { return nil }\n\t_ = make(3)\n}\n", nil, nil},
		// go/parser's first error is below the alias: the alias is a note,
		// the broken line is a problem for both parsers.
		{"alias, then an error", "package p\n\ntype S[T comparable] = map[T]struct{}\n\nfunc f() {\n\tx := )\n}\n",
			[]string{"6:2 ERROR", "6:7 go/parser", "8:1 go/parser"}, []string{"3:22 ERROR"}},
		// go/parser's first error is above the alias: it no longer vouches
		// for the code below it, and tree-sitter's error stays a problem.
		{"an error, then an alias", "package p\n\nfunc f() {\n\tx := )\n}\n\ntype S[T comparable] = map[T]struct{}\n",
			[]string{"4:2 ERROR", "4:7 go/parser", "7:1 go/parser", "7:22 ERROR", "8:1 go/parser"}, nil},
		// A CR-only file: Go ends lines at LF only, so tree-sitter reads the
		// text as it is, CR as white space, and go/parser still decides.
		// Positions are Document's lines, at CR.
		{"CR-only", "package p;\rimport \"fmt\";\rfunc F(n int) int {\r\tx := n + 1;\r\tfmt.Println(x);\r\treturn x;\r};\r", nil, nil},
		{"CR-only alias", "package p;\rtype S[T comparable] = map[T]struct{};\r", nil, nil},
		{"CR-only, go/parser rejects", "package p;\rfunc F() {\r\tx := )\r}\r", []string{"3:2 ERROR", "3:7 go/parser"}, nil},
	}
	kinds := func(ps []guard.SyntaxProblem) string {
		var out []string
		for _, p := range ps {
			out = append(out, fmt.Sprintf("%d:%d %s", p.Line, p.Column, p.Kind))
		}
		return strings.Join(out, ",")
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var parses atomic.Int64
			rep, err := guard.FindSyntaxProblems(probe.WithParses(context.Background(), &parses), goLang, []byte(tt.src), guard.GuardOptions{})
			if err != nil || !rep.Checked {
				t.Fatalf("%+v, %v", rep, err)
			}
			// tree-sitter parses only what go/parser refuses.
			if want := int64(min(len(tt.want), 1)); parses.Load() != want {
				t.Errorf("%d tree-sitter parses, want %d", parses.Load(), want)
			}
			if got := kinds(rep.New); got != strings.Join(tt.want, ",") {
				t.Errorf("problems = %v, want %v", got, tt.want)
			}
			if got := kinds(rep.Notes); got != strings.Join(tt.notes, ",") {
				t.Errorf("notes = %v, want %v", got, tt.notes)
			}
			for _, n := range rep.Notes {
				if !strings.HasPrefix(n.Message, "tree-sitter: ") || !strings.HasSuffix(n.Message, guard.NoteSuffix) {
					t.Errorf("note message %q", n.Message)
				}
			}
		})
	}
}

// TestFindSyntaxProblemsGOROOT checks every Go file of $(go env
// GOROOT)/src as `symedit check` does: a file go/parser accepts has no
// problem, whatever tree-sitter says of it, and a
// file go/parser rejects (the go/types test data holds some) has a
// go/parser problem. The whole tree is about 90 MB in 7,700 files (20 to
// 35 s on two cores); with -short or under the race detector only every
// 20th file is checked, and every file of internal/types/testdata, the
// type checker's test data, where most of the code tree-sitter's Go grammar
// rejects is.
func TestFindSyntaxProblemsGOROOT(t *testing.T) {
	src := goroot.Src()
	if src == "" {
		t.Skip("no GOROOT source")
	}
	var files []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	step := 1
	if testing.Short() || raceOn {
		step = 20
	}
	goLang, _ := lang.ByName("go")
	type result struct {
		path                    string
		goOK                    bool
		problems, notes, goErrs int
		first                   string
		err                     error
	}
	jobs := make(chan string)
	results := make(chan result)
	var wg sync.WaitGroup
	for range max(runtime.GOMAXPROCS(0), 2) {
		wg.Go(func() {
			for p := range jobs {
				r := result{path: p}
				b, err := os.ReadFile(p)
				if err != nil {
					r.err = err
					results <- r
					continue
				}
				_, perr := parser.ParseFile(token.NewFileSet(), p, b, parser.AllErrors|parser.SkipObjectResolution)
				r.goOK = perr == nil
				rep, err := guard.FindSyntaxProblems(context.Background(), goLang, b, guard.GuardOptions{Timeout: time.Minute})
				switch {
				case err != nil:
					r.err = err
				case !rep.Checked:
					r.err = fmt.Errorf("not checked: %s", rep.Skipped)
				}
				r.problems, r.notes = len(rep.New), len(rep.Notes)
				for _, q := range rep.New {
					if q.Kind == guard.KindGoParser {
						r.goErrs++
					}
				}
				if len(rep.New) > 0 {
					r.first = rep.New[0].String()
				}
				results <- r
			}
		})
	}
	go func() {
		for i, f := range files {
			if i%step == 0 || strings.Contains(filepath.ToSlash(f), "/internal/types/testdata/") {
				jobs <- f
			}
		}
		close(jobs)
		wg.Wait()
		close(results)
	}()
	checked, rejected, noted := 0, 0, 0
	for r := range results {
		checked++
		switch {
		case r.err != nil:
			t.Errorf("%s: %v", r.path, r.err)
		case r.goOK && r.problems > 0:
			t.Errorf("%s: go/parser accepts it, check reports %d problem(s), first %s", r.path, r.problems, r.first)
		case !r.goOK && r.goErrs == 0:
			t.Errorf("%s: go/parser rejects it, check reports no go/parser problem", r.path)
		case !r.goOK:
			rejected++
		}
		if r.notes > 0 {
			noted++
		}
	}
	if checked == 0 {
		t.Fatal("no Go file")
	}
	t.Logf("%d Go files checked: %d rejected by go/parser, %d with tree-sitter-only notes", checked, rejected, noted)
}

// TestFindSyntaxProblemsCROnly checks `symedit check` on files whose lines
// end with a lone CR. In Python, Java and TypeScript a
// lone CR ends a line, so a CR-only file gets the report of the same file
// with LF endings: nothing for real valid code (the test data's CPython,
// Java and TypeScript files, whole, and single CPython definitions), and
// for broken code the same problems at the same lines (counted at CR, as
// Document counts them) and columns. With the raw text, tree-sitter read
// each file as one line and reported errors in valid code.
func TestFindSyntaxProblemsCROnly(t *testing.T) {
	// cpython returns the lines of the test data's file from the line
	// holding start up to the line before the one holding end.
	cpython := func(file, start, end string) string {
		s := string(guardFixture(t, file))
		i := strings.Index(s, start)
		j := strings.Index(s[i:], end)
		if i < 0 || j < 0 {
			t.Fatalf("%s: %q or %q not found", file, start, end)
		}
		return s[i : i+j]
	}
	tests := []struct {
		name, lang, src string
		valid           bool
	}{
		{"process.py", "python", string(guardFixture(t, "python/process.py")), true},
		{"contextlib_excerpt.py", "python", string(guardFixture(t, "python/contextlib_excerpt.py")), true},
		{"Inventory.java", "java", string(guardFixture(t, "java/Inventory.java")), true},
		{"scheduler.ts", "typescript", string(guardFixture(t, "typescript/scheduler.ts")), true},
		{"widget.tsx", "tsx", string(guardFixture(t, "typescript/widget.tsx")), true},
		{"active_children", "python", cpython("python/process.py", "def active_children():", "\n\ndef parent_process"), true},
		{"AbstractContextManager", "python", cpython("python/contextlib_excerpt.py", "class AbstractContextManager(", "\n\nclass AbstractAsyncContextManager"), true},
		{"python two definitions", "python", "def f(a):\n    x = 1\n    return x\n\ndef g():\n    pass\n", true},
		{"python unbalanced", "python", "def f(a):\n    x = (1\n    return x\n\ndef g():\n    pass\n", false},
		{"python bad dedent", "python", "def f(a):\n    x = 1\n  return x\n\ndef g():\n    pass\n", false},
		{"python two bad dedents", "python", "def f(a):\n    x = 1\n  return x\n\ndef g():\n    y = 1\n  return y\n", false},
		{"java missing brace", "java", "class A {\n    int f() {\n        return 1;\n\n    int g() { return 2; }\n}\n", false},
		{"typescript unbalanced", "typescript", "function f(a: number) {\n  const x = (a;\n  return x;\n}\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lang, _ := lang.ByName(tt.lang)
			want, err := guard.FindSyntaxProblems(context.Background(), lang, []byte(tt.src), guard.GuardOptions{})
			if err != nil {
				t.Fatal(err)
			}
			cr := strings.ReplaceAll(tt.src, "\n", "\r")
			got, err := guard.FindSyntaxProblems(context.Background(), lang, []byte(cr), guard.GuardOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if tt.valid != (len(want.New) == 0) {
				t.Fatalf("the LF file: %v, want valid %v", want.New, tt.valid)
			}
			if guardReportKey(got) != guardReportKey(want) {
				t.Errorf("CR-only file:\n%s\nLF file:\n%s", guardReportKey(got), guardReportKey(want))
			}
		})
	}
}

// TestFindSyntaxProblemsGoTimeout: in Go, where go/parser decides, a
// tree-sitter parse that runs out of the check's time (here a timeout of
// 1 ns, out before the parse starts) leaves go/parser's errors as the
// report, checked, with their real lines; in Python, whose tree-sitter
// parse decides, the same timeout leaves the file not checked. The
// caller's own cancellation skips Go too (TestFindSyntaxProblemsSkips).
func TestFindSyntaxProblemsGoTimeout(t *testing.T) {
	goLang, _ := lang.ByName("go")
	pyLang, _ := lang.ByName("python")
	opt := guard.GuardOptions{Timeout: time.Nanosecond}
	broken := []byte("package p\n\nfunc f() {\n\tx := \n}\n\nfunc g() {\n\treturn 1 +\n}\n")
	rep, err := guard.FindSyntaxProblems(context.Background(), goLang, broken, opt)
	if err != nil || !rep.Checked || rep.Skipped != "" {
		t.Fatalf("go, broken: %+v, %v; want checked", rep, err)
	}
	full, err := guard.FindSyntaxProblems(context.Background(), goLang, broken, guard.GuardOptions{})
	if err != nil || !full.Checked {
		t.Fatalf("go, broken, no timeout: %+v, %v", full, err)
	}
	var goParser []guard.SyntaxProblem
	for _, p := range full.New {
		if p.Kind == guard.KindGoParser {
			goParser = append(goParser, p)
		}
	}
	if len(rep.New) == 0 || fmt.Sprint(rep.New) != fmt.Sprint(goParser) || len(rep.Notes) != 0 || rep.After != len(rep.New) {
		t.Errorf("go, broken, timed out: %+v\nwant go/parser's problems of the full check: %+v", rep.New, goParser)
	}
	rep, err = guard.FindSyntaxProblems(context.Background(), goLang, []byte("package p\n\nfunc f() {}\n"), opt)
	if err != nil || !rep.Checked || len(rep.New) != 0 {
		t.Errorf("go, clean: %+v, %v; want checked, no problem", rep, err)
	}
	rep, err = guard.FindSyntaxProblems(context.Background(), pyLang, []byte("def f(:\n    pass\n"), opt)
	if err != nil || rep.Checked || rep.SkipCode != guard.SkipTimeout {
		t.Errorf("python: %+v, %v; want not checked, timed out", rep, err)
	}
}
