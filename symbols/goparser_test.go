package symbols_test

import (
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

// diffSymbols describes the first difference between two symbol slices,
// field by field, or returns "" when they are equal.
func diffSymbols(got, want []symbols.Symbol) string {
	for i := 0; i < len(got) && i < len(want); i++ {
		if got[i] == want[i] {
			continue
		}
		g, w := reflect.ValueOf(got[i]), reflect.ValueOf(want[i])
		var fields []string
		for f := 0; f < g.NumField(); f++ {
			if !reflect.DeepEqual(g.Field(f).Interface(), w.Field(f).Interface()) {
				fields = append(fields, fmt.Sprintf("%s %v, tree-sitter %v", g.Type().Field(f).Name, g.Field(f).Interface(), w.Field(f).Interface()))
			}
		}
		return fmt.Sprintf("symbol %d (%s): %s", i, want[i].NamePath, strings.Join(fields, "; "))
	}
	if len(got) != len(want) {
		return fmt.Sprintf("%d symbols, tree-sitter %d (got %s, tree-sitter %s)", len(got), len(want), summary(got), summary(want))
	}
	return ""
}

// goPaths is how the two Go paths compared on one source.
type goPaths int

const (
	goFellBack  goPaths = iota // go/parser refused the source: Extract is the tree-sitter path
	goEqual                    // go/parser accepted it and both paths agree
	goMisparsed                // go/parser accepted it, tree-sitter's tree has an error, and the paths differ
)

// treeSitterErrs reports whether tree-sitter's tree of the Go source src
// has an ERROR or MISSING node.
func treeSitterErrs(t testing.TB, src []byte) bool {
	t.Helper()
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(language(t, "go").Grammar())
	tree, err := p.ParseCtx(context.Background(), nil, src)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	return tree.RootNode().HasError()
}

// compareGoPaths checks that Extract's output for the Go source src equals
// the tree-sitter path's, field by field, whether go/parser accepts src
// (Extract used go/parser) or not (Extract fell back to tree-sitter). The
// one difference allowed is on source that go/parser accepts and
// tree-sitter's grammar misreads (an ERROR node in its tree, as for a
// generic alias, type A[P any] = struct{}): go/parser is the authority
// there. It returns which of these happened.
func compareGoPaths(t testing.TB, name string, src []byte) goPaths {
	t.Helper()
	lang := language(t, "go")
	_, perr := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	got, err := symbols.Extract(context.Background(), src, lang)
	if err != nil {
		t.Fatalf("%s: Extract: %v", name, err)
	}
	want, err := symbols.ExtractTreeSitter(context.Background(), src, lang)
	if err != nil {
		t.Fatalf("%s: tree-sitter path: %v", name, err)
	}
	if len(src) == 0 {
		want = nil // Extract returns nil before parsing
	}
	file, err := symbols.ExtractFile(context.Background(), src, lang)
	if err != nil {
		t.Fatalf("%s: ExtractFile: %v", name, err)
	}
	if file.Clean != (perr == nil && len(src) > 0) || diffSymbols(file.Symbols, got) != "" {
		t.Errorf("%s: ExtractFile: Clean %v with go/parser's error %v, or symbols not Extract's: %s", name, file.Clean, perr, diffSymbols(file.Symbols, got))
	}
	d := diffSymbols(got, want)
	switch {
	case perr != nil:
		if d != "" {
			t.Errorf("%s: go/parser refused it (%v), but Extract's output is not tree-sitter's: %s", name, perr, d)
		}
		return goFellBack
	case d == "":
		return goEqual
	case treeSitterErrs(t, src):
		t.Logf("%s: tree-sitter misreads it (go/parser is the authority): %s", name, d)
		return goMisparsed
	}
	t.Errorf("%s: go/parser accepts it and tree-sitter parses it without error, but %s", name, d)
	return goEqual
}

// goParserCases are Go sources on which Extract's go/parser path must
// give the tree-sitter path's symbols, each with how the two compare.
var goParserCases = []struct {
	name string
	src  string
	want goPaths
}{
	{"functions and methods", "package p\n\n// F is doc.\nfunc F() {}\n\nfunc (l *List[T]) Len() int { return 0 }\nfunc (List[T]) Cap() int\nfunc (m Map[K, V]) Get(k K) V { var v V; return v }\nfunc (p (*pkg.T)) Q()\nfunc (x T) M()\nfunc (x T) M() {}\nfunc init() {}\nfunc init() {}\nfunc _() {}\n", goEqual},
	{"bodiless and results", "package p\n\nfunc a() int\nfunc b() (int, error)\nfunc c() (n int)\nfunc d(x ...int)\n//go:noescape\nfunc e(p *byte) /* trailing */\n", goEqual},
	{"types", "package p\n\ntype S struct{ a int }\ntype I interface{ M() }\ntype N int\ntype A = struct{}\ntype B = I\ntype P (struct{})\ntype G[T any] struct{ v T }\ntype H[T ~int | ~string] interface{ ~[]T }\ntype GA[T any] = []T\ntype Arr [4]int\ntype F func() (a, b int)\n", goEqual},
	{"groups", "package p\n\ntype (\n\tA int\n\tB struct{}\n\n\tC = A\n)\ntype ( D interface{}; E int )\ntype ()\ntype (\n\tOnly int\n)\n", goEqual},
	{"local types", "package p\n\nfunc F() {\n\ttype t struct{}\n\tf := func() { type u int }\n\t_ = f\n\ttype (\n\t\tv int\n\t\tw = v\n\t)\n}\n\nfunc (s *S) M() { type event int; { type event int } }\n\nvar V = func() int { type local int; return 0 }()\n\ntype T [len(func() string { type inner int; return \"\" }())]int\n", goEqual},
	{"same-named siblings", "package p\n\nfunc init() {}\nfunc init() { type x int; type x int }\nfunc (A) M() {}\nfunc (*A) M() {}\ntype _ int\ntype _ int\n", goEqual},
	{"odd receivers", "package p\n\nfunc () Empty()\nfunc (a, b T) Two()\nfunc (x []T) Slice()\nfunc (x ...T) Variadic()\nfunc (x pkg.T[int]) Qualified()\nfunc (x map[K]V) Map()\nfunc (x * /* c */ T) Commented()\nfunc (x (/* c */ T)) ParenCommented()\n", goEqual},
	{"CRLF", "package p\r\n\r\n// Doc.\r\nfunc F() {\r\n}\r\n\r\ntype (\r\n\tA int\r\n\tB struct {\r\n\t}\r\n)\r\nfunc (s *S) M() {\r\n\ttype t int\r\n}\r\n", goEqual},
	{"CR only, one statement per line", "package p;\rfunc F() { type t int };\rtype T struct{ a int };\r", goEqual},
	{"CR only, no semicolons", "package p\rfunc F() {\r}\rtype T int\r", goFellBack},
	{"generic alias of a struct", "package p\n\ntype A[P any] = struct{}\ntype B = struct{}\n", goMisparsed},
	{"BOM", "\ufeffpackage p\n\nfunc F() {}\ntype T int\n", goEqual},
	{"line directive", "package p\n\n//line other.go:100:1\nfunc F() {\n}\n/*line x.go:1:1*/type T int\n", goEqual},
	{"unicode names and columns", "package p\n\n/* é */ func Ünïcode() {}\ntype Ω struct{}\nfunc (ω *Ω) Μ() {}\n", goEqual},
	{"comments between", "package p\n\nfunc /* a */ F /* b */ () /* c */ { /* d */ } // e\ntype /* f */ T /* g */ int // h\ntype ( /* i */ A /* j */ int /* k */ )\n", goEqual},
	{"syntax error falls back", "package p\n\nfunc F() {\n\ttype t struct{\n}\n\nfunc G() {}\ntype T int\n", goFellBack},
	{"no package clause", "func F() {}\n", goFellBack},
	{"NUL byte", "package p\n\nfunc F() {}\x00\n", goFellBack},
	{"invalid UTF-8", "package p\n\nfunc F() { _ = \"\xff\" }\n", goFellBack},
	{"BOM not at start", "package p\n\ufeff\nfunc F() {}\n", goFellBack},
}

// TestGoParserMatchesTreeSitter checks that Extract's go/parser path gives
// the tree-sitter path's symbols, field by field, on hand-written cases
// (generics, groups, local types, BOM, CRLF, CR-only, //line, odd
// receivers), and that sources go/parser refuses get the tree-sitter
// output, so switching Go to go/parser changes no symbol.
func TestGoParserMatchesTreeSitter(t *testing.T) {
	for _, c := range goParserCases {
		if got := compareGoPaths(t, c.name, []byte(c.src)); got != c.want {
			t.Errorf("%s: compared as %d, want %d", c.name, got, c.want)
		}
		extract(t, "go", c.src) // checks the invariants
	}
}

// TestGoGenericAlias checks that a generic alias of a struct type is a
// type, as every alias (go/parser's reading; tree-sitter-go's grammar
// has no generic aliases and reads it as a struct after an ERROR node).
func TestGoGenericAlias(t *testing.T) {
	expectSymbols(t, "go", "package p\n\ntype A[P any] = struct{}\ntype (\n\tB[P any] = interface{}\n)\n", `
A type 3:1-3:25
B type 5:2-5:24
`)
}

// TestGoParserMatchesTreeSitterFixtures compares both paths on the Go
// fixtures and on two packages of Go's tree, test files included.
func TestGoParserMatchesTreeSitterFixtures(t *testing.T) {
	for _, f := range fixtures(t) {
		if f.Lang.Name == "go" && compareGoPaths(t, f.Rel, f.Src) != goEqual {
			t.Errorf("%s: go/parser refused the fixture", f.Rel)
		}
	}
	for _, dir := range []string{"strings", "go/ast"} {
		ents, err := os.ReadDir(gorootSrc(t, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".go") {
				p := filepath.Join(gorootSrc(t, dir), e.Name())
				src, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				if compareGoPaths(t, p, src) != goEqual {
					t.Errorf("%s: go/parser refused it", p)
				}
			}
		}
	}
}

// TestGoParserMatchesTreeSitterWholeTree compares both paths on every .go
// file under $GOROOT/src, test files and testdata included (about 7,700
// files; a minute or two), and logs how many go/parser accepted
// (compared), how many of those tree-sitter misreads, and how many fell
// back to tree-sitter. It runs only in `make test-parsers` (see
// longTrees).
func TestGoParserMatchesTreeSitterWholeTree(t *testing.T) {
	longTrees(t)
	root := gorootSrc(t, ".")
	var n [3]int
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n[compareGoPaths(t, p, src)]++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d Go files compared (go/parser accepted them): %d equal field by field, %d that tree-sitter misreads; %d fell back to tree-sitter",
		n[goEqual]+n[goMisparsed], n[goEqual], n[goMisparsed], n[goFellBack])
	if n[goEqual] < 5000 {
		t.Errorf("only %d Go files under %s that go/parser accepts", n[goEqual], root)
	}
}

// FuzzGoParserMatchesTreeSitter mutates Go sources and checks that both
// paths agree field by field wherever go/parser accepts the input and
// tree-sitter reads it without error, and that Extract gives the
// tree-sitter output where go/parser refuses it.
func FuzzGoParserMatchesTreeSitter(f *testing.F) {
	for _, c := range goParserCases {
		f.Add(c.src)
	}
	lang, err := lang.ByName("go")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		compareGoPaths(t, "input", []byte(src))
		syms, err := symbols.Extract(context.Background(), []byte(src), lang)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, "go", []byte(src), syms)
	})
}

// TestExtractFileCleanOnlyGo checks that ExtractFile's Clean is false
// outside Go, for valid and broken source alike, and that its symbols are
// Extract's.
func TestExtractFileCleanOnlyGo(t *testing.T) {
	for _, c := range []struct{ lang, src string }{
		{"python", "def f():\n    return 1\n"},
		{"python", "def f(:\n    return 1\n"},
		{"java", "class A { void f() {} }\n"},
		{"typescript", "function f() {}\n"},
	} {
		lang := language(t, c.lang)
		file, err := symbols.ExtractFile(context.Background(), []byte(c.src), lang)
		if err != nil {
			t.Fatal(err)
		}
		syms, err := symbols.Extract(context.Background(), []byte(c.src), lang)
		if err != nil {
			t.Fatal(err)
		}
		if file.Clean || len(syms) == 0 || diffSymbols(file.Symbols, syms) != "" {
			t.Errorf("%s %q: Clean %v, symbols %s, Extract's %s", c.lang, c.src, file.Clean, summary(file.Symbols), summary(syms))
		}
	}
}
