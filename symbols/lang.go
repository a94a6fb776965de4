package symbols

import (
	sitter "github.com/smacker/go-tree-sitter"
)

// langRules are the language-specific steps Extract applies to the
// definitions its query captures. Every field may be nil. The rules are
// read-only tables; they hold no state.
type langRules struct {
	// adjust may drop a candidate (return false) or set its outer node,
	// name text or name path prefix.
	adjust func(x *extractor, c *candidate) bool
	// widen returns the node whose range is the symbol's: n or an
	// enclosing wrapper (decorators, export, declare, type declaration).
	widen func(n *sitter.Node) *sitter.Node
	// leading returns the node where the range starts, given the widened
	// node: the node itself or a decorator preceding it.
	leading func(n *sitter.Node) *sitter.Node
	// owner reports whether def is a member of a body (a class body ...)
	// and, if so, the node that owns the body. A member is kept only when
	// its owner is a symbol's scope.
	owner func(def *sitter.Node) (owner *sitter.Node, member bool)
	// kindIn returns the kind of a symbol of kind k whose parent symbol has
	// kind parent.
	kindIn func(k, parent Kind) Kind
}

// languageRules maps grammars.Language.Name to its rules. It is never
// modified.
var languageRules = map[string]*langRules{
	"python":     &pythonRules,
	"go":         &goRules,
	"java":       &javaRules,
	"typescript": &typescriptRules,
	"tsx":        &typescriptRules,
	"javascript": &typescriptRules,
}

// Python.

var pythonRules = langRules{
	widen: func(n *sitter.Node) *sitter.Node {
		if p := n.Parent(); p != nil && p.Type() == "decorated_definition" {
			return p
		}
		return n
	},
	kindIn: func(k, parent Kind) Kind {
		if k == KindFunction && parent == KindClass {
			return KindMethod
		}
		return k
	},
}

// Go.

var goRules = langRules{
	adjust: func(x *extractor, c *candidate) bool {
		switch c.def.Type() {
		case "method_declaration":
			c.prefix, c.hasPrefix = goReceiver(c.def, x.src), true
		case "type_spec", "type_alias":
			if d := c.def.Parent(); d != nil && d.Type() == "type_declaration" && !hasToken(d, "(") {
				c.outer = d
			}
		}
		return true
	},
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
			t = firstNamedChild(t)
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

// Java.

var javaBodies = map[string]bool{
	"class_body":             true,
	"interface_body":         true,
	"enum_body":              true,
	"enum_body_declarations": true,
	"annotation_type_body":   true,
}

var javaRules = langRules{
	owner: func(def *sitter.Node) (*sitter.Node, bool) {
		p := def.Parent()
		if p == nil || !javaBodies[p.Type()] {
			return nil, false
		}
		for p != nil && javaBodies[p.Type()] {
			p = p.Parent()
		}
		return p, true
	},
}

// TypeScript, TSX and JavaScript.

var typescriptRules = langRules{
	adjust: func(x *extractor, c *candidate) bool {
		switch c.def.Type() {
		case "function_signature", "method_signature":
			return !tsIsOverload(c.def, x.src)
		case "lexical_declaration", "variable_declaration":
			if !tsModuleLevel(c.def) {
				return false
			}
			if n := countNamed(c.def, "variable_declarator"); n > 1 {
				c.outer = c.name.Parent() // the declarator
			}
		}
		return true
	},
	widen: func(n *sitter.Node) *sitter.Node {
		for {
			p := n.Parent()
			if p == nil {
				return n
			}
			switch p.Type() {
			case "export_statement", "ambient_declaration":
				n = p
				continue
			case "expression_statement":
				if n.Type() == "internal_module" {
					n = p
					continue
				}
			}
			return n
		}
	},
	leading: func(n *sitter.Node) *sitter.Node {
		if p := n.Parent(); p == nil || p.Type() != "class_body" {
			return n
		}
		start := n
		for s := n.PrevSibling(); s != nil; s = s.PrevSibling() {
			if s.Type() == "decorator" {
				start = s
			} else if !isComment(s) {
				break
			}
		}
		return start
	},
	owner: func(def *sitter.Node) (*sitter.Node, bool) {
		if p := def.Parent(); p != nil && p.Type() == "class_body" {
			return p.Parent(), true
		}
		return nil, false
	},
}

// tsIsOverload reports whether sig (a function_signature or a
// method_signature in a class body) is an overload signature: a same-named
// implementation follows it, possibly after more same-named signatures.
func tsIsOverload(sig *sitter.Node, src []byte) bool {
	name := fieldText(sig, "name", src)
	n := sig
	if p := n.Parent(); p != nil && p.Type() == "export_statement" {
		n = p
	}
	for s := n.NextNamedSibling(); s != nil; s = s.NextNamedSibling() {
		if isComment(s) || s.Type() == "decorator" {
			continue
		}
		d := s
		if d.Type() == "export_statement" {
			if d = d.ChildByFieldName("declaration"); d == nil {
				return false
			}
		}
		if fieldText(d, "name", src) != name {
			return false
		}
		switch d.Type() {
		case "function_signature", "method_signature":
			continue
		case "function_declaration", "generator_function_declaration", "method_definition":
			return true
		}
		return false
	}
	return false
}

// tsModuleLevel reports whether a variable declaration is at module level:
// in the program or in a namespace body, possibly exported.
func tsModuleLevel(decl *sitter.Node) bool {
	p := decl.Parent()
	if p != nil && p.Type() == "export_statement" {
		p = p.Parent()
	}
	if p == nil {
		return false
	}
	switch p.Type() {
	case "program":
		return true
	case "statement_block":
		g := p.Parent()
		return g != nil && (g.Type() == "internal_module" || g.Type() == "module")
	}
	return false
}

// Helpers.

func firstNamedChild(n *sitter.Node) *sitter.Node {
	if n.NamedChildCount() == 0 {
		return nil
	}
	return n.NamedChild(0)
}

func fieldText(n *sitter.Node, field string, src []byte) string {
	if f := n.ChildByFieldName(field); f != nil {
		return f.Content(src)
	}
	return ""
}

func hasToken(n *sitter.Node, tok string) bool {
	for i := 0; i < int(n.ChildCount()); i++ {
		if c := n.Child(i); !c.IsNamed() && c.Type() == tok {
			return true
		}
	}
	return false
}

func countNamed(n *sitter.Node, typ string) int {
	k := 0
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if n.NamedChild(i).Type() == typ {
			k++
		}
	}
	return k
}
