package symbols

import (
	"go/ast"
	"go/parser"
	"go/token"
)

// extractGo returns the symbols of the Go source src found with go/parser
// (issue 15): the same []Symbol, field by field, as extractTree gives for
// a file go/parser accepts, at a fraction of the cost. ok is false when
// go/parser reports any error; Extract then falls back to tree-sitter,
// whose error recovery still yields the symbols of a broken file.
//
// go/parser reads src as the tree-sitter path does (Go text is not
// rewritten: lang.Language.ParserInput returns it as it is); a BOM at
// the start is skipped by both and counts in the byte offsets. Offsets are
// taken from token.Pos values directly, never from fset.Position, so a
// //line directive cannot move them.
//
// layout is the source's top-level layout (File.Layout), with offsets
// taken the same way.
func extractGo(src []byte) (syms []Symbol, layout *Layout, ok bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, false
	}
	base := fset.File(f.Package).Base()
	off := func(p token.Pos) uint32 { return uint32(int(p) - base) }
	layout = &Layout{PackageEnd: int(off(f.Name.End())), Decls: make([]Decl, 0, len(f.Decls))}
	for _, d := range f.Decls {
		g, isGen := d.(*ast.GenDecl)
		layout.Decls = append(layout.Decls, Decl{Start: int(off(d.Pos())), End: int(off(d.End())), Import: isGen && g.Tok == token.IMPORT})
	}

	var cands []*candidate
	ast.Inspect(f, func(n ast.Node) bool {
		switch d := n.(type) {
		case *ast.FuncDecl:
			// go/ast's range: the func keyword to the body's "}" or the
			// signature's end; the doc comment is not part of it.
			c := &candidate{
				kind:      KindFunction,
				startByte: off(d.Pos()),
				endByte:   off(d.End()),
				nameText:  d.Name.Name,
				nameByte:  off(d.Name.Pos()),
			}
			if d.Recv != nil {
				c.kind = KindMethod
				c.prefix, c.hasPrefix = goRecvName(d.Recv, src, off), true
			}
			cands = append(cands, c)
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				return true
			}
			for _, s := range d.Specs {
				ts := s.(*ast.TypeSpec)
				c := &candidate{
					kind:      goSpecKind(ts),
					startByte: off(ts.Pos()),
					endByte:   off(ts.End()),
					nameText:  ts.Name.Name,
					nameByte:  off(ts.Name.Pos()),
				}
				if !d.Lparen.IsValid() {
					c.startByte = off(d.Pos()) // a lone spec: its whole declaration, from the type keyword
				}
				cands = append(cands, c)
			}
		}
		return true // function literals in bodies, initializers and types may declare types
	})
	for _, c := range cands {
		c.implByte, c.modByte, c.kwByte = c.startByte, c.startByte, c.startByte
	}
	x := &extractor{src: src, rules: &goRules, lines: newLineIndex(src)}
	return x.assemble(cands), layout, true
}

// goSpecKind returns a type spec's kind as the Go query's patterns give
// it: struct or interface for a defined type of that literal type, type
// for any other defined type and for every alias (type A = struct{}).
func goSpecKind(ts *ast.TypeSpec) Kind {
	if ts.Assign.IsValid() {
		return KindType
	}
	switch ts.Type.(type) {
	case *ast.StructType:
		return KindStruct
	case *ast.InterfaceType:
		return KindInterface
	}
	return KindType
}

// goRecvName returns a method's receiver type name as goReceiver gives it
// from tree-sitter's tree: the first receiver's type (a variadic one's
// element type) without "*", parentheses, package qualifier or type
// arguments, through at most 16 steps as goReceiver; the type's source
// text when it is not a named type ("[]T", which go/parser accepts and the
// type checker refuses); "" for an empty receiver list.
func goRecvName(recv *ast.FieldList, src []byte, off func(token.Pos) uint32) string {
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
