package symbols_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/symedit/symedit/internal/goroot"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

// listingFiles returns the files under root (walked in lexical order)
// whose names end with one of exts, site-packages left out; with -short
// every step-th of them.
func listingFiles(t *testing.T, root string, step int, exts ...string) []string {
	t.Helper()
	var files []string
	i := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "site-packages" {
			return filepath.SkipDir
		}
		for _, e := range exts {
			if !d.IsDir() && strings.HasSuffix(p, e) {
				if !testing.Short() || i%step == 0 {
					files = append(files, p)
				}
				i++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// listingStats is what compareListing counted.
type listingStats struct {
	files, clean, outlined, broken, brokenDiffer int
}

// compareListing checks that symbols.ListFile lists exactly the symbols
// symbols.ExtractFile extracts, every field, for each of files whose
// tree-sitter parse has no error; on a file with an error they may
// differ, and are counted.
func compareListing(t *testing.T, l *lang.Language, files []string) listingStats {
	t.Helper()
	var st listingStats
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		full, listed := extractAndList(t, src, l)
		st.files++
		if outline := l.Outline(); outline != nil {
			if _, ok := outline(l.ParserInput(src)); ok {
				st.outlined++
			}
		}
		if !symbols.TreeClean(full) {
			st.broken++
			if !reflect.DeepEqual(full.Symbols, listed.Symbols) {
				st.brokenDiffer++
			}
			continue
		}
		st.clean++
		if d := firstSymbolDiff(full.Symbols, listed.Symbols); d != "" {
			t.Errorf("%s: the listing differs from the extraction: %s", p, d)
		}
	}
	return st
}

// extractAndList returns src's File as ExtractFile extracts it and as
// ListFile lists it, failing t on either's error.
func extractAndList(t testing.TB, src []byte, l *lang.Language) (full, listed symbols.File) {
	t.Helper()
	ctx := context.Background()
	full, err := symbols.ExtractFile(ctx, src, l)
	if err != nil {
		t.Fatal(err)
	}
	listed, err = symbols.ListFile(ctx, src, l)
	if err != nil {
		t.Fatal(err)
	}
	return full, listed
}

// firstSymbolDiff describes the first difference between want and got,
// or returns "".
func firstSymbolDiff(want, got []symbols.Symbol) string {
	for i := range min(len(want), len(got)) {
		if !reflect.DeepEqual(want[i], got[i]) {
			return "symbol " + want[i].NamePath + ": extracted " + symbolString(want[i]) + ", listed " + symbolString(got[i])
		}
	}
	switch {
	case len(want) > len(got):
		return "not listed: " + symbolString(want[len(got)])
	case len(got) > len(want):
		return "listed, not extracted: " + symbolString(got[len(want)])
	}
	return ""
}

func symbolString(s symbols.Symbol) string { return fmt.Sprintf("%+v", s) }

// TestListFileMatchesExtractPython checks the Python outline reader
// against tree-sitter's extraction over the Python fixtures and CPython's
// standard library (every 10th file with -short): on every file whose
// parse has no error the listing is the extraction, field by field, and
// the reader declines few of them.
func TestListFileMatchesExtractPython(t *testing.T) {
	l := language(t, "python")
	files := listingFiles(t, filepath.Join("..", "testdata"), 1, ".py", ".pyi")
	if _, stdlib := pythonStdlib(t); stdlib != "" {
		files = append(files, listingFiles(t, stdlib, 10, ".py")...)
	}
	st := compareListing(t, l, files)
	t.Logf("%d files: %d parse clean, %d read by the outline, %d with a parse error (%d listed otherwise)",
		st.files, st.clean, st.outlined, st.broken, st.brokenDiffer)
	if st.outlined < st.clean*97/100 {
		t.Errorf("the outline read %d of %d files that parse clean, want 97%% or more", st.outlined, st.clean)
	}
}

// FuzzListFilePython checks the Python outline reader on any text: the
// listing equals tree-sitter's extraction whenever the parse has no
// error, and every definition the outline reads lies inside the text,
// its name inside its range.
func FuzzListFilePython(f *testing.F) {
	for _, seed := range []string{
		"def f():\n    return 1\n",
		"@d\n@e(1)\nclass A(B):\n    x = 1  # c\n    async def m(self): pass\n\n    # trailing\n",
		"def f(a,\n      b):\n    s = '''x\ndef g(): pass\n'''\n    return s;\n",
		"class A: pass\nif x:\n    def f():\n        def g():\n            pass\n        return g\n",
		"def f():\n\tif x:\n\t\treturn f'{a!r:>{w}}'\n\treturn \\\n  2\n",
		"x = (1,\n2)\n@dec\ndef f[T](x: T) -> T: ...\n",
		"def f():\n    return f\"{x[\"a\"]}\"\n",
	} {
		f.Add(seed)
	}
	l, err := lang.ByName("python")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if defs, ok := l.Outline()(l.ParserInput([]byte(src))); ok {
			for _, d := range defs {
				if d.Start < 0 || d.Start > d.Keyword && d.Keyword != 0 || d.NameStart < d.Start || d.NameStart+len(d.Name) > d.End || d.End > len(src) {
					t.Fatalf("definition %+v out of place in %q", d, src)
				}
			}
		}
		full, listed := extractAndList(t, []byte(src), l)
		if symbols.TreeClean(full) {
			if d := firstSymbolDiff(full.Symbols, listed.Symbols); d != "" {
				t.Fatalf("%q: %s", src, d)
			}
		}
	})
}

// TestListFilePythonCases checks the outline reader on the corners of
// Python's tokenizer: each source is either read by the outline, with
// the extraction's symbols, or left to tree-sitter, as its case says.
func TestListFilePythonCases(t *testing.T) {
	l := language(t, "python")
	for _, c := range []struct {
		name, src string
		read      bool // the outline reads it (else it declines)
	}{
		{"crlf", "class A:\r\n    def m(self):\r\n        return 1\r\n\r\ndef f(): pass\r\n", true},
		{"lone cr", "def f():\r    return 1\rdef g(): pass\r", true},
		{"tabs", "class A:\n\tdef m(self):\n\t\tif x:\n\t\t\treturn 1\n\t\treturn 2\n", true},
		{"tab then spaces", "class A:\n\tdef m(self):\n\t    return 1\n", true},
		{"one-liners", "def f(): return 1;\nclass A: x = 1; y = 2\nasync def g(): await h()  # c\n", true},
		{"decorators and comments", "@a\n# between\n@b(1,\n   2)\nclass A:\n    @property\n    def p(self): ...\n", true},
		{"nested in blocks", "if X:\n    def f():\n        try:\n            def g(): pass\n        except E:\n            class C: pass\n        return g\nelse:\n    f = None\n", true},
		{"trailing comments", "def f():\n    x = 1\n    # inside\n# outside\n\ndef g():\n    pass\n        # deeper\n", true},
		{"comment dedented inside", "def f():\n    x = 1\n# col 0\n    y = 2\n", true},
		{"strings", "def f():\n    s = '''\ndef not_me(): pass\n'''\n    t = \"a\\\"b\" 'c\\'d' r'\\'' b\"\\\\\"\n    return s\n", true},
		{"continuations", "def f(a,\n      b) -> \\\n        int:\n    return a + \\\n        b\n", true},
		{"f-strings", "def f(x):\n    return f'{x!r:>{w}}{{}}' F\"{x['k']}\" rf'{x}\\d'\n", true},
		{"unicode names", "class Ünïcode:\n    def naïve(self): pass\n", true},
		{"dict colon in header", "class A(metaclass=M, **{'k': 1}):\n    pass\n", true},
		{"unterminated string", "def f():\n    return 'x\n", false},
		{"unclosed bracket", "def f(:\n    pass\n", false},
		{"unexpected indent", "def f():\n    pass\n        x = 1\n", false},
		{"no block", "def f():\nx = 1\n", false},
		{"space then tab", "def f():\n  \treturn 1\n", false},
		{"type parameters", "def f[T](x: T) -> T:\n    return x\n", false},
		{"type parameters after a space", "class A [T]:\n    pass\n", false},
		{"nested f-string quotes", "def f(x):\n    return f\"{x[\"k\"]}\"\n", false},
		{"decorator alone", "@d\nx = 1\n", false},
		{"continuation before a comment line", "def f():\n    assert g(x) \\\n        # why\n    return 1\n\ndef h():\n    return g(1, \\\n  # c\n  2)\n", false},
		{"byte order mark", "\ufeffdef f():\n    pass\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := []byte(c.src)
			_, read := l.Outline()(l.ParserInput(src))
			if read != c.read {
				t.Errorf("outline read it: %v, want %v", read, c.read)
			}
			full, listed := extractAndList(t, src, l)
			if !symbols.TreeClean(full) {
				if c.read {
					t.Fatalf("the case's source does not parse clean")
				}
				return
			}
			if d := firstSymbolDiff(full.Symbols, listed.Symbols); d != "" {
				t.Error(d)
			}
			if c.read && len(full.Symbols) == 0 {
				t.Error("no symbols: the case tests nothing")
			}
		})
	}
}

// TestListFileMatchesExtractGo checks Go's listing (go/parser over the
// text with the bodies that declare no type blanked) against the
// extraction over Go's source tree (every 10th file with -short): on
// every file go/parser accepts the listing is the extraction, field by
// field; it counts the files whose listing blanked something.
func TestListFileMatchesExtractGo(t *testing.T) {
	l := language(t, "go")
	step := 1
	if testing.Short() {
		step = 10
	}
	if goroot.Src() == "" {
		t.Skip("no Go source tree")
	}
	files := listingFiles(t, goroot.Src(), step, ".go")
	var clean, differ int
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		full, listed := extractAndList(t, src, l)
		if !full.Clean {
			continue // go/parser refuses it: the listing may differ
		}
		clean++
		if d := firstSymbolDiff(full.Symbols, listed.Symbols); d != "" {
			differ++
			t.Errorf("%s: the listing differs from the extraction: %s", p, d)
		}
	}
	t.Logf("%d files, %d go/parser accepts, %d listed otherwise", len(files), clean, differ)
	if clean == 0 {
		t.Fatal("no Go file go/parser accepts")
	}
}

// FuzzListFileGo checks Go's listing on any text: wherever go/parser
// accepts it, the listing is the extraction.
func FuzzListFileGo(f *testing.F) {
	for _, s := range []string{
		"package p\n\nfunc f() {\n\ttype T int\n}\n\nfunc g() { x := `}` ; _ = x }\n",
		"package p\n\ntype S struct {\n\ta int\n}\n\nfunc (s struct{ x int }) M() {}\n",
		"package p\n\nvar v = []int{\n\t1,\n}\n\nfunc F[T interface{ ~int }](x T) { /* } */ }\n",
		"package p\n\nfunc f() { '}' }\n",
	} {
		f.Add([]byte(s))
	}
	l, err := lang.ByName("go")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		full, listed := extractAndList(t, src, l)
		if !full.Clean {
			return
		}
		if d := firstSymbolDiff(full.Symbols, listed.Symbols); d != "" {
			t.Errorf("%q: the listing differs from the extraction: %s", src, d)
		}
	})
}
