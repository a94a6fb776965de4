package symbols_test

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/symedit/symedit/internal/goroot"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

// longTrees skips the calling test unless SYMEDIT_PARSER_TREES=1 (set by
// `make test-parsers`): the comparisons with each language's own parser
// over whole trees (Go's, CPython's standard library, the JDK's sources)
// take minutes, too long for `make test`.
func longTrees(t *testing.T) {
	t.Helper()
	if os.Getenv("SYMEDIT_PARSER_TREES") != "1" {
		t.Skip("whole-tree parser comparison: run with SYMEDIT_PARSER_TREES=1 (make test-parsers)")
	}
}

// goroot returns $GOROOT/src/<rel>, skipping the test if it is missing.
func gorootSrc(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(goroot.Src(), filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		t.Skipf("GOROOT source not available: %v", err)
	}
	return p
}

// goFiles returns the non-test .go files of dir.
func goFiles(t testing.TB, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		n := e.Name()
		if !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			out = append(out, filepath.Join(dir, n))
		}
	}
	if len(out) == 0 {
		t.Skipf("no Go files in %s", dir)
	}
	return out
}

// recvName is the receiver's type name as symedit prints it: without "*",
// parentheses or type parameters.
func recvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.SelectorExpr:
			return x.Sel.Name
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// checkAgainstGoAST checks that Extract finds every function and method
// go/parser finds in path, with the same name path, kind, start (the func
// keyword) and exclusive end, and no other functions or methods.
func checkAgainstGoAST(t *testing.T, path string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	lang, _ := lang.ByName("go")
	syms, err := symbols.Extract(context.Background(), src, lang)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]symbols.Symbol{}
	for _, s := range syms {
		if s.Kind == symbols.KindFunction || s.Kind == symbols.KindMethod {
			if _, dup := got[s.NamePath]; dup && s.Name != "init" && s.Name != "_" {
				t.Errorf("%s: duplicate name path %s", path, s.NamePath)
			}
			got[s.NamePath] = s
		}
	}
	count := 0
	seen := map[string]int{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		count++
		name, kind := fd.Name.Name, symbols.KindFunction
		if fd.Recv != nil && len(fd.Recv.List) > 0 {
			name, kind = recvName(fd.Recv.List[0].Type)+"/"+name, symbols.KindMethod
		}
		seen[name]++
		if n := seen[name]; n > 1 { // init, _
			name += "[" + strconv.Itoa(n) + "]"
		}
		s, ok := got[name]
		if !ok {
			t.Errorf("%s: %s (%s) at %v not extracted", path, name, kind, fset.Position(fd.Pos()))
			continue
		}
		start, end := fset.Position(fd.Pos()), fset.Position(fd.End())
		if s.Kind != kind ||
			s.Start != (symbols.Position{Line: start.Line, Column: start.Column}) ||
			s.End != (symbols.Position{Line: end.Line, Column: end.Column}) ||
			s.StartByte != start.Offset || s.EndByte != end.Offset ||
			s.Parent != -1 {
			t.Errorf("%s: %s: got %s %d:%d-%d:%d bytes %d-%d parent %d; go/ast: %s %d:%d-%d:%d bytes %d-%d",
				path, name, s.Kind, s.Start.Line, s.Start.Column, s.End.Line, s.End.Column, s.StartByte, s.EndByte, s.Parent,
				kind, start.Line, start.Column, end.Line, end.Column, start.Offset, end.Offset)
		}
		sel := fset.Position(fd.Name.Pos())
		if s.Selection != (symbols.Position{Line: sel.Line, Column: sel.Column}) {
			t.Errorf("%s: %s: selection %v, go/ast name at %d:%d", path, name, s.Selection, sel.Line, sel.Column)
		}
	}
	if len(got) != count {
		t.Errorf("%s: %d functions and methods extracted, go/ast has %d", path, len(got), count)
	}
}

func TestGoFunctionsMatchGoAST(t *testing.T) {
	checkAgainstGoAST(t, gorootSrc(t, "net/http/server.go"))
}

func TestGoFunctionsMatchGoASTStrings(t *testing.T) {
	for _, p := range goFiles(t, gorootSrc(t, "strings")) {
		checkAgainstGoAST(t, p)
	}
}

func TestGoFunctionsMatchGoASTMore(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	for _, dir := range []string{"net/http", "sort", "slices", "go/ast", "runtime"} {
		for _, p := range goFiles(t, gorootSrc(t, dir)) {
			checkAgainstGoAST(t, p)
		}
	}
}

// TestGoTypesMatchGoAST checks type specs against go/ast over net/http
// and cmd/trace (whose UserTaskHandlerFunc declares a type in its body):
// package-level types and types declared in function bodies.
func TestGoTypesMatchGoAST(t *testing.T) {
	for _, dir := range []string{"net/http", "cmd/trace"} {
		for _, p := range goFiles(t, gorootSrc(t, dir)) {
			checkGoTypes(t, p)
		}
	}
}

// TestGoMatchGoASTWholeTree runs both go/ast checks over every non-test Go
// file of $GOROOT/src that go/parser accepts (about 7,000 files, a minute
// or two); it runs only in `make test-parsers` (see longTrees).
func TestGoMatchGoASTWholeTree(t *testing.T) {
	longTrees(t)
	root := gorootSrc(t, ".")
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if _, err := parser.ParseFile(token.NewFileSet(), p, src, parser.SkipObjectResolution); err != nil {
			return nil // not Go (build-tagged generators with errors on purpose)
		}
		n++
		checkAgainstGoAST(t, p)
		checkGoTypes(t, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 1000 {
		t.Errorf("only %d Go files under %s", n, root)
	}
}

// goTypeSpec is one type spec go/ast reports, with the name path symedit
// should give it.
type goTypeSpec struct {
	namePath string
	spec     *ast.TypeSpec
	decl     *ast.GenDecl
}

// goTypeSpecs returns every type spec of f in source order: package-level
// ones named by their name, those inside a function's or method's body
// named under it ("UserTaskHandlerFunc/event", "S/M/event"), those inside
// a function literal of a package-level var under nothing; the second and
// later same-named ones with "[2]", "[3]", ...
func goTypeSpecs(f *ast.File) []goTypeSpec {
	var out []goTypeSpec
	count := map[string]int{}
	suffixed := func(base string) string {
		count[base]++
		if n := count[base]; n > 1 {
			return base + "[" + strconv.Itoa(n) + "]"
		}
		return base
	}
	collect := func(n ast.Node, prefix string) {
		ast.Inspect(n, func(n ast.Node) bool {
			gd, ok := n.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				return true
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				out = append(out, goTypeSpec{suffixed(prefix + ts.Name.Name), ts, gd})
			}
			return false
		})
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			collect(d, "")
			continue
		}
		name := fd.Name.Name
		if fd.Recv != nil && len(fd.Recv.List) > 0 {
			name = recvName(fd.Recv.List[0].Type) + "/" + name
		}
		name = suffixed(name)
		if fd.Body != nil {
			collect(fd.Body, name+"/")
		}
	}
	return out
}

// checkGoTypes checks that Extract finds every type spec go/parser finds in
// path, with its name path, kind (struct, interface, else type), range
// (the whole declaration for a lone spec, the spec inside a group), name
// position and parent, and no other types.
func checkGoTypes(t *testing.T, path string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	lang, _ := lang.ByName("go")
	syms, err := symbols.Extract(context.Background(), src, lang)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]symbols.Symbol{}
	for _, s := range syms {
		if s.Kind != symbols.KindFunction && s.Kind != symbols.KindMethod {
			byName[s.NamePath] = s
		}
	}
	specs := goTypeSpecs(f)
	for _, x := range specs {
		ts := x.spec
		kind := symbols.KindType
		if !ts.Assign.IsValid() {
			switch ts.Type.(type) {
			case *ast.StructType:
				kind = symbols.KindStruct
			case *ast.InterfaceType:
				kind = symbols.KindInterface
			}
		}
		var node ast.Node = ts
		if !x.decl.Lparen.IsValid() {
			node = x.decl
		}
		start, end := fset.Position(node.Pos()), fset.Position(node.End())
		s, ok := byName[x.namePath]
		if !ok {
			t.Errorf("%s: type %s at %v not extracted", path, x.namePath, fset.Position(ts.Pos()))
			continue
		}
		if s.Kind != kind || s.StartByte != start.Offset || s.EndByte != end.Offset ||
			s.Start != (symbols.Position{Line: start.Line, Column: start.Column}) ||
			s.End != (symbols.Position{Line: end.Line, Column: end.Column}) {
			t.Errorf("%s: type %s: got %s %v-%v bytes %d-%d, go/ast %s %d:%d-%d:%d bytes %d-%d", path, x.namePath,
				s.Kind, s.Start, s.End, s.StartByte, s.EndByte, kind, start.Line, start.Column, end.Line, end.Column, start.Offset, end.Offset)
		}
		if sel := fset.Position(ts.Name.Pos()); s.Selection != (symbols.Position{Line: sel.Line, Column: sel.Column}) {
			t.Errorf("%s: type %s: selection %v, go/ast name at %d:%d", path, x.namePath, s.Selection, sel.Line, sel.Column)
		}
		if i := strings.LastIndexByte(x.namePath, '/'); i >= 0 {
			if s.Parent < 0 || syms[s.Parent].NamePath != x.namePath[:i] {
				t.Errorf("%s: type %s: parent %d, want %s", path, x.namePath, s.Parent, x.namePath[:i])
			}
		} else if s.Parent != -1 {
			t.Errorf("%s: type %s: parent %s, want none", path, x.namePath, syms[s.Parent].NamePath)
		}
	}
	if len(specs) != len(byName) {
		t.Errorf("%s: %d types extracted, go/ast has %d", path, len(byName), len(specs))
	}
}
