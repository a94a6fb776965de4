package lang

// Java: tree-sitter's grammar, the symbol rules (anonymous classes named
// as javac names them) and the anatomy of a definition's head.

import (
	"strconv"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/java"
)

// javaDef is Java's definition.
var javaDef = Definition{
	Name:       "java",
	Extensions: []string{".java"},
	Grammar:    java.GetLanguage,
	QueryFile:  "java.scm",
	// A listing parses method bodies blanked where they declare no
	// class (java_listing.go).
	ListingInput: javaListingInput,
	// Java is free-form: the parse reads each blanked stretch, with
	// the white space around it, as one space or line ending.
	ListingCollapses: true,
	Rules: Rules{
		Adjust: func(t *Tree, c *Candidate) bool {
			if c.Def.Type() != "object_creation_expression" {
				return true
			}
			simple := javaSimpleType(c.Name)
			if simple == nil {
				return false
			}
			c.Name = simple
			c.NameText = simple.Content(t.src) + "$" + strconv.Itoa(t.javaOrdinal(c.Def))
			return true
		},
		Head: func(t *Tree, n *sitter.Node) HeadPart {
			switch n.Type() {
			case "modifiers":
				return HeadGroup
			case "marker_annotation", "annotation":
				return HeadDecorator
			}
			if p := t.Parent(n); p != nil && p.Type() == "modifiers" {
				return HeadModifier // public, static, final, sealed, non-sealed, ...
			}
			return HeadOther
		},
		Owner: func(t *Tree, def *sitter.Node) (*sitter.Node, bool) {
			p := t.Parent(def)
			if p == nil || !javaBodies[p.Type()] {
				return nil, false
			}
			for p != nil && javaBodies[p.Type()] {
				p = t.Parent(p)
			}
			return p, true
		},
	},
	Anatomy: Anatomy{
		// JLS 8.1.1, 8.3.1, 8.4.3, 9.1.1, 9.4.
		ModifierWords: []string{"public", "protected", "private", "static", "final", "abstract", "synchronized",
			"native", "strictfp", "transient", "volatile", "default", "sealed", "non-sealed"},
		// Java's modifiers are keywords: "public <T> T f()" is a modifier.
		NameAfterModifier: "(:=;,",
		Decorators:        true,
		// "@interface" declares an annotation type: the definition's
		// keyword, not an annotation.
		DefinitionAfterAt: []string{"interface"},
	},
}

var javaBodies = map[string]bool{
	"class_body":             true,
	"interface_body":         true,
	"enum_body":              true,
	"enum_body_declarations": true,
	"annotation_type_body":   true,
}

// javaSimpleType returns the type_identifier that is the simple name of
// the type t of new T(...) { ... }: Entry for java.util.Map.Entry<K, V>,
// or nil.
func javaSimpleType(t *sitter.Node) *sitter.Node {
	for depth := 0; t != nil && depth < 32; depth++ {
		switch t.Type() {
		case "type_identifier":
			return t
		case "generic_type":
			t = firstNamedChild(t)
		case "scoped_type_identifier", "annotated_type":
			if n := t.NamedChildCount(); n > 0 {
				t = t.NamedChild(int(n) - 1)
			} else {
				return nil
			}
		default:
			return nil
		}
	}
	return nil
}

// javaAnonBody returns the class body of an anonymous class (new T(...)
// { ... }) or an enum constant with a body, or nil for any other node.
func javaAnonBody(n *sitter.Node) *sitter.Node {
	switch n.Type() {
	case "object_creation_expression":
		for i := 0; i < int(n.NamedChildCount()); i++ {
			if c := n.NamedChild(i); c.Type() == "class_body" {
				return c
			}
		}
	case "enum_constant":
		return n.ChildByFieldName("body")
	}
	return nil
}

// javaClassDecl reports a named class-like declaration, whose body
// encloses the anonymous classes in it.
func javaClassDecl(n *sitter.Node) bool {
	switch n.Type() {
	case "class_declaration", "interface_declaration", "enum_declaration",
		"record_declaration", "annotation_type_declaration":
		return true
	}
	return false
}

// javaOrdinal returns the number javac gives the anonymous class anon in its
// binary name (Outer$3, JLS 13.1): its 1-based position among the anonymous
// classes and enum constant bodies whose innermost enclosing class is
// anon's, in the order javac attributes them: source order, a class's
// constructor arguments before the class itself. Nested named classes,
// local classes and anonymous class bodies start their own numbering;
// lambdas do not. The ordinals of one enclosing class are computed once per
// Tree.
func (t *Tree) javaOrdinal(anon *sitter.Node) int {
	var encl *sitter.Node
	for prev, p := anon, t.Parent(anon); p != nil; prev, p = p, t.Parent(p) {
		if b := javaAnonBody(p); b != nil && b.Equal(prev) || javaClassDecl(p) && p.ChildByFieldName("body") != nil && p.ChildByFieldName("body").Equal(prev) {
			encl = prev
			break
		}
	}
	if encl == nil {
		return 0 // broken input: no enclosing class
	}
	if t.ordinals == nil {
		t.ordinals = map[nodeKey]int{}
	}
	if n, ok := t.ordinals[keyOf(anon)]; ok {
		return n
	}
	next := 0
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		for i := 0; i < int(n.NamedChildCount()); i++ {
			c := n.NamedChild(i)
			if javaClassDecl(c) {
				continue // a nested or local class numbers its own
			}
			body := javaAnonBody(c)
			if body == nil {
				walk(c)
				continue
			}
			for j := 0; j < int(c.NamedChildCount()); j++ {
				if a := c.NamedChild(j); !a.Equal(body) {
					walk(a) // the constructor arguments first
				}
			}
			next++
			t.ordinals[keyOf(c)] = next
		}
	}
	walk(encl)
	return t.ordinals[keyOf(anon)]
}
