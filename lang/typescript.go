package lang

// TypeScript and TSX (one query, one set of rules, two grammars); their
// rules serve JavaScript too (javascript.go).

import (
	"context"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// typescriptDef is TypeScript's definition.
var typescriptDef = Definition{
	Name:           "typescript",
	Extensions:     []string{".ts", ".mts", ".cts"},
	Grammar:        typescript.GetLanguage,
	QueryFile:      "typescript.scm",
	Rules:          tsRules,
	Anatomy:        tsAnatomy,
	SendsOverloads: tsSendsOverloads,
}

// tsxDef is TSX's definition: TypeScript's, with the TSX grammar.
var tsxDef = Definition{
	Name:           "tsx",
	Extensions:     []string{".tsx"},
	Grammar:        tsx.GetLanguage,
	QueryFile:      "typescript.scm", // one query serves both grammars
	Rules:          tsRules,
	Anatomy:        tsAnatomy,
	SendsOverloads: tsSendsOverloads,
}

// tsAnatomy is the head of a TypeScript or JavaScript definition:
// TypeScript's modifiers and export / export default / declare, and
// decorators. A method may be named "static": NameAfterModifier is the
// default, which has "<", "?" and "!".
var tsAnatomy = Anatomy{
	ModifierWords: []string{"export", "default", "declare", "public", "private", "protected", "static",
		"readonly", "abstract", "override", "async", "accessor"},
	Decorators: true,
}

// tsModifiers are the node types of TypeScript's and JavaScript's
// modifier keywords before a definition's keyword.
var tsModifiers = map[string]bool{
	"export": true, "default": true, "declare": true, "accessibility_modifier": true,
	"static": true, "readonly": true, "abstract": true, "override_modifier": true,
	"async": true, "accessor": true,
}

// tsRules are the symbol rules of TypeScript, TSX and JavaScript.
var tsRules = Rules{
	Head: func(t *Tree, n *sitter.Node) HeadPart {
		switch {
		case n.Type() == "decorator":
			return HeadDecorator
		case tsModifiers[n.Type()]:
			return HeadModifier
		}
		return HeadOther
	},
	Adjust: func(t *Tree, c *Candidate) bool {
		switch c.Def.Type() {
		case "method_definition", "method_signature", "abstract_method_signature":
			// A member of a class body, not of an object literal or an
			// interface: the query leaves the parent to this check (see the
			// query's "Class members").
			if p := t.Parent(c.Def); p == nil || p.Type() != "class_body" {
				return false
			}
		}
		switch c.Def.Type() {
		case "function_signature", "method_signature", "abstract_method_signature":
			if s := t.NextSibling(c.Def); s != nil && s.Type() == ";" && !s.IsNamed() {
				c.Last = s // in a class body the ";" is the body's: the compiler's range has it
			}
			if c.Def.Type() == "method_signature" && c.Name.Content(t.src) == "constructor" {
				c.Kind = kindConstructor // declare class X { constructor(a: string); }
			}
			return c.Def.Type() == "abstract_method_signature" || !tsIsOverload(t, c.Def, t.src)
		case "function_declaration", "generator_function_declaration", "method_definition":
			if c.First = tsFirstOverload(t, c.Def, t.src); c.First != nil {
				sig := c.First
				if sig.Type() == "export_statement" {
					sig = sig.ChildByFieldName("declaration")
				}
				if n := sig.ChildByFieldName("name"); n != nil {
					c.Name = n // the name of the first declaration, as the language service's
				}
			}
		case "lexical_declaration", "variable_declaration":
			if !tsModuleLevel(t, c.Def) {
				return false
			}
			if n := countNamed(c.Def, "variable_declarator"); n > 1 {
				c.Outer = t.Parent(c.Name) // the declarator
			}
		}
		return true
	},
	Widen: func(t *Tree, n *sitter.Node) *sitter.Node {
		for {
			p := t.Parent(n)
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
	Leading: func(t *Tree, n *sitter.Node) *sitter.Node {
		if p := t.Parent(n); p == nil || p.Type() != "class_body" {
			return n
		}
		start := n
		for s := t.PrevSibling(n); s != nil; s = t.PrevSibling(s) {
			if s.Type() == "decorator" {
				start = s
			} else if !IsComment(s) {
				break
			}
		}
		return start
	},
	Owner: func(t *Tree, def *sitter.Node) (*sitter.Node, bool) {
		if p := t.Parent(def); p != nil && p.Type() == "class_body" {
			return t.Parent(p), true
		}
		return nil, false
	},
}

// tsIsOverload reports whether sig (a function_signature or a
// method_signature in a class body) is an overload signature: a same-named
// implementation follows it, possibly after more same-named signatures.
func tsIsOverload(t *Tree, sig *sitter.Node, src []byte) bool {
	name := fieldText(sig, "name", src)
	n := sig
	if p := t.Parent(n); p != nil && p.Type() == "export_statement" {
		n = p
	}
	for s := t.NextNamedSibling(n); s != nil; s = t.NextNamedSibling(s) {
		if IsComment(s) || s.Type() == "decorator" {
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

// tsFirstOverload returns the first of the overload signatures that
// directly precede def, a function or method implementation, with the
// same name (an export_statement around a signature included), or nil
// when there are none. Comments and the implementation's decorators may
// stand between them.
func tsFirstOverload(t *Tree, def *sitter.Node, src []byte) *sitter.Node {
	name := fieldText(def, "name", src)
	n := def
	if p := t.Parent(n); p != nil && p.Type() == "export_statement" {
		n = p
	}
	var first *sitter.Node
	for s := t.PrevNamedSibling(n); s != nil; s = t.PrevNamedSibling(s) {
		if IsComment(s) || s.Type() == "decorator" {
			continue
		}
		d := s
		if d.Type() == "export_statement" {
			if d = d.ChildByFieldName("declaration"); d == nil {
				break
			}
		}
		if (d.Type() != "function_signature" && d.Type() != "method_signature") || fieldText(d, "name", src) != name {
			break
		}
		first = s
	}
	return first
}

// tsModuleLevel reports whether a variable declaration is at module level:
// in the program or in a namespace body, possibly exported.
func tsModuleLevel(t *Tree, decl *sitter.Node) bool {
	p := t.Parent(decl)
	if p != nil && p.Type() == "export_statement" {
		p = t.Parent(p)
	}
	if p == nil {
		return false
	}
	switch p.Type() {
	case "program":
		return true
	case "statement_block":
		g := t.Parent(p)
		return g != nil && (g.Type() == "internal_module" || g.Type() == "module")
	}
	return false
}

// tsSendsOverloads is TypeScript's Definition.SendsOverloads: it reports
// whether text, a definition sent in place of a symbol (a method's or a
// constructor's when member is true), begins with an overload signature
// ("function f(a: string): void;", or for a member "f(a: string): void;"),
// comments, decorators and export aside. The text is parsed with grammar,
// a member's inside a class body. Text that does not parse to a
// definition first gives false.
func tsSendsOverloads(grammar *sitter.Language, member bool, text string) bool {
	src := text
	if member {
		src = "class _ {\n" + text + "\n}\n"
	}
	parser := sitter.NewParser()
	defer parser.Close()
	parser.SetLanguage(grammar)
	tree, err := parser.ParseCtx(context.Background(), nil, []byte(src))
	if err != nil {
		return false
	}
	defer tree.Close()
	n := tsFirstDefinition(tree.RootNode())
	if member {
		if n == nil || n.Type() != "class_declaration" {
			return false
		}
		n = tsFirstDefinition(n.ChildByFieldName("body"))
	}
	for n != nil && (n.Type() == "export_statement" || n.Type() == "ambient_declaration") {
		n = tsFirstDefinition(n)
	}
	return n != nil && (n.Type() == "function_signature" || n.Type() == "method_signature")
}

// tsFirstDefinition returns n's first named child that is not a comment
// or a decorator, or nil.
func tsFirstDefinition(n *sitter.Node) *sitter.Node {
	if n == nil {
		return nil
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); !IsComment(c) && c.Type() != "decorator" {
			return c
		}
	}
	return nil
}
