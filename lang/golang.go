package lang

// Go: tree-sitter's grammar and symbol rules for a file go/parser
// refuses; go/parser, Go's own parser, for the symbols of every other
// file and for the syntax guard, where its verdict decides
// (golang_check.go).

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/golang"
)

// goDef is Go's definition.
var goDef = Definition{
	Name:       "go",
	Extensions: []string{".go"},
	Grammar:    golang.GetLanguage,
	QueryFile:  "go.scm",
	// Go's spec ends lines at LF only, and go/parser is the authority.
	LFOnly: true,
	Rules: Rules{
		Adjust: func(t *Tree, c *Candidate) bool {
			switch c.Def.Type() {
			case "method_declaration":
				c.Prefix, c.HasPrefix = goReceiver(c.Def, t.src), true
			case "type_spec", "type_alias":
				if d := t.Parent(c.Def); d != nil && d.Type() == "type_declaration" && !hasToken(d, "(") {
					c.Outer = d
				}
			}
			return true
		},
	},
	// Go has no decorators or modifiers: "@" begins no line of Go.
	Anatomy: Anatomy{},
	Checker: &Checker{
		Kind:       "go/parser",
		Check:      goErrors,
		CheckEdits: goCheck,
		// tree-sitter's Go grammar is older than the language, and
		// accepts some invalid Go (a top-level `x := 1`, a missing
		// package clause): go/parser decides.
		Decides:  true,
		Cascades: true,
	},
	Extract:      goExtract,
	ListExtract:  goListExtract,
	ExtractEdits: goExtractEdits,
}

// goReceiver returns the receiver type name of a method_declaration: the
// type without "*", parentheses, package qualifier or type arguments.
func goReceiver(method *sitter.Node, src []byte) string {
	recv := method.ChildByFieldName("receiver")
	if recv == nil {
		return ""
	}
	var t *sitter.Node
	for i := 0; i < int(recv.NamedChildCount()); i++ {
		if p := recv.NamedChild(i); p.Type() == "parameter_declaration" || p.Type() == "variadic_parameter_declaration" {
			t = p.ChildByFieldName("type")
			break
		}
	}
	for depth := 0; t != nil && depth < 16; depth++ {
		switch t.Type() {
		case "type_identifier":
			return t.Content(src)
		case "pointer_type", "parenthesized_type":
			t = firstNamedNonComment(t) // (x * /* c */ T): T, not the comment
		case "generic_type":
			t = t.ChildByFieldName("type")
		case "qualified_type":
			t = t.ChildByFieldName("name")
		default:
			return t.Content(src)
		}
	}
	return ""
}

// goExtract returns the definitions of the Go source src found with
// go/parser: the same symbols, once package symbols assembles them, field
// by field, as its tree-sitter path gives for a file go/parser accepts, at
// a fraction of the cost (go/parser made 6.5-19 MB/s where tree-sitter
// made 0.8-1.6 MB/s). ok is false when go/parser reports any error; the
// caller then falls back to tree-sitter, whose error recovery still
// yields the symbols of a broken file.
//
// go/parser reads src as the tree-sitter path does (Go text is not
// rewritten: ParserInput returns it as it is); a BOM at the start is
// skipped by both and counts in the byte offsets. Offsets are taken from
// token.Pos values directly, never from fset.Position, so a //line
// directive cannot move them.
//
// layout is the source's top-level layout, with offsets taken the same
// way.
func goExtract(src []byte) (defs []Def, layout *Layout, ok bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, false
	}
	base := fset.File(f.Package).Base()
	defs, layout = goDefs(f, src, func(p token.Pos) int { return int(p) - base })
	return defs, layout, true
}

// goDefs returns the definitions and the top-level layout of f, a file
// go/parser parsed, as goExtract gives them; off turns a position of f
// into a byte offset into src, the text the offsets index (the receiver
// of a method whose type is not a named type is read from it).
func goDefs(f *ast.File, src []byte, off func(token.Pos) int) (defs []Def, layout *Layout) {
	layout = &Layout{PackageEnd: off(f.Name.End()), Decls: make([]Decl, 0, len(f.Decls))}
	for _, d := range f.Decls {
		g, isGen := d.(*ast.GenDecl)
		layout.Decls = append(layout.Decls, Decl{Start: off(d.Pos()), End: off(d.End()), Import: isGen && g.Tok == token.IMPORT})
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch d := n.(type) {
		case *ast.BlockStmt:
			// A type declared in a block has its "type" keyword in the
			// block's text: a block without the word holds none, and
			// its statements, most of a file's nodes, are not walked.
			if s, e := off(d.Pos()), off(d.End()); s >= 0 && e <= len(src) && s <= e && !bytes.Contains(src[s:e], []byte("type")) {
				return false
			}
		case *ast.FuncDecl:
			// go/ast's range: the func keyword to the body's "}" or the
			// signature's end; the doc comment is not part of it.
			def := Def{
				Kind:      kindFunction,
				Start:     off(d.Pos()),
				End:       off(d.End()),
				Name:      d.Name.Name,
				NameStart: off(d.Name.Pos()),
			}
			if d.Recv != nil {
				def.Kind = kindMethod
				def.Prefix, def.HasPrefix = goRecvName(d.Recv, src, off), true
			}
			defs = append(defs, def)
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				return true
			}
			for _, s := range d.Specs {
				ts := s.(*ast.TypeSpec)
				def := Def{
					Kind:      goSpecKind(ts),
					Start:     off(ts.Pos()),
					End:       off(ts.End()),
					Name:      ts.Name.Name,
					NameStart: off(ts.Name.Pos()),
				}
				if !d.Lparen.IsValid() {
					def.Start = off(d.Pos()) // a lone spec: its whole declaration, from the type keyword
				}
				defs = append(defs, def)
			}
		}
		return true // function literals in bodies, initializers and types may declare types
	})
	return defs, layout
}

// goSpecKind returns a type spec's kind as the Go query's patterns give
// it: struct or interface for a defined type of that literal type, type
// for any other defined type and for every alias (type A = struct{}).
func goSpecKind(ts *ast.TypeSpec) string {
	if ts.Assign.IsValid() {
		return "type"
	}
	switch ts.Type.(type) {
	case *ast.StructType:
		return "struct"
	case *ast.InterfaceType:
		return "interface"
	}
	return "type"
}

// goRecvName returns a method's receiver type name as goReceiver gives it
// from tree-sitter's tree: the first receiver's type (a variadic one's
// element type) without "*", parentheses, package qualifier or type
// arguments, through at most 16 steps as goReceiver; the type's source
// text when it is not a named type ("[]T", which go/parser accepts and the
// type checker refuses); "" for an empty receiver list.
func goRecvName(recv *ast.FieldList, src []byte, off func(token.Pos) int) string {
	if len(recv.List) == 0 {
		return ""
	}
	t := recv.List[0].Type
	if e, ok := t.(*ast.Ellipsis); ok {
		t = e.Elt
	}
	for depth := 0; t != nil && depth < 16; depth++ {
		switch e := t.(type) {
		case *ast.Ident:
			return e.Name
		case *ast.StarExpr:
			t = e.X
		case *ast.ParenExpr:
			t = e.X
		case *ast.IndexExpr:
			t = e.X
		case *ast.IndexListExpr:
			t = e.X
		case *ast.SelectorExpr:
			t = e.Sel
		default:
			return string(src[off(t.Pos()):off(t.End())])
		}
	}
	return ""
}
