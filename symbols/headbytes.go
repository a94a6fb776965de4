package symbols

// A symbol's head: where its modifiers and its keyword begin.

import (
	sitter "github.com/smacker/go-tree-sitter"

	"github.com/symedit/symedit/lang"
)

// head returns c's ModifiersByte and KeywordByte: it walks the nodes from
// start (where the range starts) into c.Outer and the definition, skipping
// comments, past the decorators and modifiers that the language's
// lang.Rules.Head names, down through the wrappers that contain the definition node
// (decorated_definition, export_statement, ambient_declaration, ...).
func (x *extractor) head(c *candidate, start *sitter.Node) (mod, kw uint32) {
	part := x.rules.Head
	if part == nil {
		return c.implByte, c.implByte
	}
	const unset = ^uint32(0)
	mod, kw = unset, unset
	var visit func(n *sitter.Node) bool // reports whether the keyword was found
	visit = func(n *sitter.Node) bool {
		if skippable(n, x.src) {
			return false
		}
		switch part(x.tree, n) {
		case lang.HeadDecorator:
			return false
		case lang.HeadModifier:
			if mod == unset {
				mod = n.StartByte()
			}
			return false
		case lang.HeadGroup:
			return visitChildren(n, visit)
		}
		if n.StartByte() <= c.Def.StartByte() && c.Def.EndByte() <= n.EndByte() && n.ChildCount() > 0 {
			if visitChildren(n, visit) {
				return true
			}
		}
		kw = n.StartByte()
		return true
	}
	found := false
	for s := start; s != nil && !found; s = x.tree.NextSibling(s) {
		found = visit(s)
		if s.Equal(c.Outer) {
			break
		}
	}
	if !found || kw < c.implByte || kw >= c.endByte {
		kw = c.implByte
	}
	if mod == unset || mod > kw || mod < c.implByte {
		mod = kw
	}
	return mod, kw
}

// visitChildren calls visit on n's children in order until it returns
// true, and reports whether it did.
func visitChildren(n *sitter.Node, visit func(*sitter.Node) bool) bool {
	for i := 0; i < int(n.ChildCount()); i++ {
		if visit(n.Child(i)) {
			return true
		}
	}
	return false
}
