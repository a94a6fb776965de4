package symbols_test

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/symedit/symedit/grammars"
	"github.com/symedit/symedit/internal/goroot"
	"github.com/symedit/symedit/symbols"
)

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
	lang, _ := grammars.ByName("go")
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

// TestGoTypesMatchGoAST checks package-level type specs against go/ast:
// kind, and range (whole declaration for a lone spec, the spec inside a
// group).
func TestGoTypesMatchGoAST(t *testing.T) {
	for _, path := range goFiles(t, gorootSrc(t, "net/http")) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		lang, _ := grammars.ByName("go")
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
		n := 0
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				n++
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
				if !gd.Lparen.IsValid() {
					node = gd
				}
				start, end := fset.Position(node.Pos()), fset.Position(node.End())
				s, ok := byName[ts.Name.Name]
				if !ok {
					t.Errorf("%s: type %s not extracted", path, ts.Name.Name)
					continue
				}
				if s.Kind != kind || s.StartByte != start.Offset || s.EndByte != end.Offset {
					t.Errorf("%s: type %s: got %s bytes %d-%d, go/ast %s %d-%d", path, ts.Name.Name, s.Kind, s.StartByte, s.EndByte, kind, start.Offset, end.Offset)
				}
			}
		}
		if n != len(byName) {
			t.Errorf("%s: %d types extracted, go/ast has %d", path, len(byName), n)
		}
	}
}
