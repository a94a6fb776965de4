package symbols_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/symedit/symedit/symbols"
)

// pyDef is one definition as testdata/parsers/pyast.py prints it from
// Python's own parser (ast).
type pyDef struct {
	NamePath string       `json:"name_path"`
	Kind     symbols.Kind `json:"kind"`
	Line     int          `json:"line"`
	Col      int          `json:"col"`
	EndLine  int          `json:"end_line"`
	EndCol   int          `json:"end_col"`
	NameLine int          `json:"name_line"`
	NameCol  int          `json:"name_col"`
}

type pyFile struct {
	Path  string  `json:"path"`
	Defs  []pyDef `json:"defs"`
	Error string  `json:"error"`
}

// pythonStdlib returns python3 and its standard library's folder,
// skipping the test when python3 is absent.
func pythonStdlib(t *testing.T) (python, stdlib string) {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	out, err := exec.Command(python, "-c", `import sysconfig; print(sysconfig.get_paths()["stdlib"])`).Output()
	if err != nil {
		t.Skipf("python3 does not run: %v", err)
	}
	return python, strings.TrimSpace(string(out))
}

// checkAgainstPythonAST runs pyast.py over files and checks that Extract
// finds exactly the definitions Python's ast finds, with the same name
// path, kind, keyword position (def, async def or class: ast's lineno and
// col_offset; KeywordByte), exclusive end (end_lineno, end_col_offset)
// and name position. It returns how many definitions it compared. A file
// whose path is a key of limits is one tree-sitter's grammar cannot
// parse although ast can: its differences are logged with the reason, not
// reported as failures. With list the symbols are symbols.ListFile's, the
// listing's outline reader (which reads what tree-sitter's grammar
// cannot), not Extract's.
func checkAgainstPythonAST(t *testing.T, python string, files []string, limits map[string]string, list bool) int {
	t.Helper()
	cmd := exec.Command(python, append([]string{filepath.Join("testdata", "parsers", "pyast.py")}, files...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pyast.py: %v\n%s", err, stderr.Bytes())
	}
	lang := language(t, "python")
	n, parsed := 0, 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var f pyFile
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			t.Fatal(err)
		}
		if f.Error != "" {
			continue // not Python 3 as this python3 reads it (lib2to3's test data, ...)
		}
		parsed++
		errorf := t.Errorf
		if why, ok := limits[filepath.ToSlash(f.Path)]; ok {
			errorf = func(format string, args ...any) { t.Logf("known grammar limit ("+why+"): "+format, args...) }
		}
		src, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		syms, err := symbols.Extract(context.Background(), src, lang)
		if list {
			var f symbols.File
			f, err = symbols.ListFile(context.Background(), src, lang)
			syms = f.Symbols
		}
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]symbols.Symbol{}
		for _, s := range syms {
			got[s.NamePath] = s
		}
		for _, d := range f.Defs {
			n++
			s, ok := got[d.NamePath]
			if !ok {
				errorf("%s:%d: %s (%s) not extracted", f.Path, d.Line, d.NamePath, d.Kind)
				continue
			}
			kw := position(src, s.KeywordByte)
			if s.Kind != d.Kind || kw != (symbols.Position{Line: d.Line, Column: d.Col}) ||
				s.End != (symbols.Position{Line: d.EndLine, Column: d.EndCol}) ||
				s.Selection != (symbols.Position{Line: d.NameLine, Column: d.NameCol}) {
				errorf("%s: %s: got %s keyword %v end %v name %v; ast: %s %d:%d end %d:%d name %d:%d",
					f.Path, d.NamePath, s.Kind, kw, s.End, s.Selection, d.Kind, d.Line, d.Col, d.EndLine, d.EndCol, d.NameLine, d.NameCol)
			}
		}
		if len(syms) != len(f.Defs) {
			errorf("%s: %d symbols extracted, ast has %d definitions", f.Path, len(syms), len(f.Defs))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if parsed == 0 {
		t.Fatalf("ast parsed none of %d files", len(files))
	}
	return n
}

// TestPythonMatchesAST checks a sample of CPython's standard library
// against Python's ast: modules full of decorators, nested and
// async definitions.
func TestPythonMatchesAST(t *testing.T) {
	python, stdlib := pythonStdlib(t)
	var files []string
	for _, rel := range []string{"functools.py", "contextlib.py", "dataclasses.py", "enum.py", "argparse.py",
		"typing.py", "asyncio/tasks.py", "asyncio/base_events.py", "multiprocessing/process.py", "email/message.py"} {
		p := filepath.Join(stdlib, filepath.FromSlash(rel))
		if _, err := os.Stat(p); err == nil {
			files = append(files, p)
		}
	}
	if len(files) == 0 {
		t.Skipf("no sample modules under %s", stdlib)
	}
	n := checkAgainstPythonAST(t, python, files, nil, false)
	t.Logf("%d definitions in %d files agree with ast", n, len(files))
	n = checkAgainstPythonAST(t, python, files, nil, true)
	t.Logf("%d definitions in %d files listed agree with ast", n, len(files))
}

// TestPythonMatchesASTWholeTree checks every .py file of CPython's
// standard library against Python's ast; it runs only in `make
// test-parsers` (see longTrees).
func TestPythonMatchesASTWholeTree(t *testing.T) {
	longTrees(t)
	python, stdlib := pythonStdlib(t)
	var files []string
	err := filepath.WalkDir(stdlib, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "site-packages" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".py") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	limits := map[string]string{
		filepath.ToSlash(filepath.Join(stdlib, "test", "test_compile.py")): "tree-sitter-python reads no dedent inside parentheses, line 1335",
	}
	n := 0
	for len(files) > 0 {
		k := min(len(files), 500)
		n += checkAgainstPythonAST(t, python, files[:k], limits, false)
		// The listing reads what the grammar cannot: no limits.
		checkAgainstPythonAST(t, python, files[:k], nil, true)
		files = files[k:]
	}
	t.Logf("%d definitions agree with ast, extracted and listed", n)
}
