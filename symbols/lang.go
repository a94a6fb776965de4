package symbols

import (
	"strconv"

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
	widen func(x *extractor, n *sitter.Node) *sitter.Node
	// leading returns the node where the range starts, given the widened
	// node: the node itself or a decorator preceding it.
	leading func(x *extractor, n *sitter.Node) *sitter.Node
	// owner reports whether def is a member of a body (a class body ...)
	// and, if so, the node that owns the body. A member is kept only when
	// its owner is a symbol's scope.
	owner func(x *extractor, def *sitter.Node) (owner *sitter.Node, member bool)
	// kindIn returns the kind of a symbol of kind k whose parent symbol has
	// kind parent.
	kindIn func(k, parent Kind) Kind
	// head says how a node before a definition's keyword counts for
	// ModifiersByte and KeywordByte; nil means the language has no
	// decorators or modifiers (both equal StartByte).
	head func(x *extractor, n *sitter.Node) headPart
}

// languageRules maps lang.Language.Name to its rules. It is never
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
	head: func(x *extractor, n *sitter.Node) headPart {
		if n.Type() == "decorator" {
			return headDecorator
		}
		return headOther // async def is the definition's keyword, as Python's AsyncFunctionDef
	},
	widen: func(x *extractor, n *sitter.Node) *sitter.Node {
		if p := x.parent(n); p != nil && p.Type() == "decorated_definition" {
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
			if d := x.parent(c.def); d != nil && d.Type() == "type_declaration" && !hasToken(d, "(") {
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

// Java.

var javaBodies = map[string]bool{
	"class_body":             true,
	"interface_body":         true,
	"enum_body":              true,
	"enum_body_declarations": true,
	"annotation_type_body":   true,
}

var javaRules = langRules{
	adjust: func(x *extractor, c *candidate) bool {
		if c.def.Type() != "object_creation_expression" {
			return true
		}
		simple := javaSimpleType(c.name)
		if simple == nil {
			return false
		}
		c.name = simple
		c.nameText = simple.Content(x.src) + "$" + strconv.Itoa(x.javaOrdinal(c.def))
		return true
	},
	head: func(x *extractor, n *sitter.Node) headPart {
		switch n.Type() {
		case "modifiers":
			return headGroup
		case "marker_annotation", "annotation":
			return headDecorator
		}
		if p := x.parent(n); p != nil && p.Type() == "modifiers" {
			return headModifier // public, static, final, sealed, non-sealed, ...
		}
		return headOther
	},
	owner: func(x *extractor, def *sitter.Node) (*sitter.Node, bool) {
		p := x.parent(def)
		if p == nil || !javaBodies[p.Type()] {
			return nil, false
		}
		for p != nil && javaBodies[p.Type()] {
			p = x.parent(p)
		}
		return p, true
	},
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
// Extract call.
func (x *extractor) javaOrdinal(anon *sitter.Node) int {
	var encl *sitter.Node
	for prev, p := anon, x.parent(anon); p != nil; prev, p = p, x.parent(p) {
		if b := javaAnonBody(p); b != nil && b.Equal(prev) || javaClassDecl(p) && p.ChildByFieldName("body") != nil && p.ChildByFieldName("body").Equal(prev) {
			encl = prev
			break
		}
	}
	if encl == nil {
		return 0 // broken input: no enclosing class
	}
	if x.ordinals == nil {
		x.ordinals = map[nodeKey]int{}
	}
	if n, ok := x.ordinals[keyOf(anon)]; ok {
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
			x.ordinals[keyOf(c)] = next
		}
	}
	walk(encl)
	return x.ordinals[keyOf(anon)]
}

// TypeScript, TSX and JavaScript.

// tsModifiers are the node types of TypeScript's and JavaScript's
// modifier keywords before a definition's keyword.
var tsModifiers = map[string]bool{
	"export": true, "default": true, "declare": true, "accessibility_modifier": true,
	"static": true, "readonly": true, "abstract": true, "override_modifier": true,
	"async": true, "accessor": true,
}

var typescriptRules = langRules{
	head: func(x *extractor, n *sitter.Node) headPart {
		switch {
		case n.Type() == "decorator":
			return headDecorator
		case tsModifiers[n.Type()]:
			return headModifier
		}
		return headOther
	},
	adjust: func(x *extractor, c *candidate) bool {
		switch c.def.Type() {
		case "method_definition", "method_signature", "abstract_method_signature":
			// A member of a class body, not of an object literal or an
			// interface: the query leaves the parent to this check (see the
			// query's "Class members").
			if p := x.parent(c.def); p == nil || p.Type() != "class_body" {
				return false
			}
		}
		switch c.def.Type() {
		case "function_signature", "method_signature", "abstract_method_signature":
			if s := x.nextSibling(c.def); s != nil && s.Type() == ";" && !s.IsNamed() {
				c.last = s // in a class body the ";" is the body's: the compiler's range has it
			}
			if c.def.Type() == "method_signature" && c.name.Content(x.src) == "constructor" {
				c.kind = KindConstructor // declare class X { constructor(a: string); }
			}
			return c.def.Type() == "abstract_method_signature" || !tsIsOverload(x, c.def, x.src)
		case "function_declaration", "generator_function_declaration", "method_definition":
			if c.first = tsFirstOverload(x, c.def, x.src); c.first != nil {
				sig := c.first
				if sig.Type() == "export_statement" {
					sig = sig.ChildByFieldName("declaration")
				}
				if n := sig.ChildByFieldName("name"); n != nil {
					c.name = n // the name of the first declaration, as the language service's
				}
			}
		case "lexical_declaration", "variable_declaration":
			if !tsModuleLevel(x, c.def) {
				return false
			}
			if n := countNamed(c.def, "variable_declarator"); n > 1 {
				c.outer = x.parent(c.name) // the declarator
			}
		}
		return true
	},
	widen: func(x *extractor, n *sitter.Node) *sitter.Node {
		for {
			p := x.parent(n)
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
	leading: func(x *extractor, n *sitter.Node) *sitter.Node {
		if p := x.parent(n); p == nil || p.Type() != "class_body" {
			return n
		}
		start := n
		for s := x.prevSibling(n); s != nil; s = x.prevSibling(s) {
			if s.Type() == "decorator" {
				start = s
			} else if !isComment(s) {
				break
			}
		}
		return start
	},
	owner: func(x *extractor, def *sitter.Node) (*sitter.Node, bool) {
		if p := x.parent(def); p != nil && p.Type() == "class_body" {
			return x.parent(p), true
		}
		return nil, false
	},
}

// tsIsOverload reports whether sig (a function_signature or a
// method_signature in a class body) is an overload signature: a same-named
// implementation follows it, possibly after more same-named signatures.
func tsIsOverload(x *extractor, sig *sitter.Node, src []byte) bool {
	name := fieldText(sig, "name", src)
	n := sig
	if p := x.parent(n); p != nil && p.Type() == "export_statement" {
		n = p
	}
	for s := x.nextNamedSibling(n); s != nil; s = x.nextNamedSibling(s) {
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

// tsFirstOverload returns the first of the overload signatures that
// directly precede def, a function or method implementation, with the
// same name (an export_statement around a signature included), or nil
// when there are none. Comments and the implementation's decorators may
// stand between them.
func tsFirstOverload(x *extractor, def *sitter.Node, src []byte) *sitter.Node {
	name := fieldText(def, "name", src)
	n := def
	if p := x.parent(n); p != nil && p.Type() == "export_statement" {
		n = p
	}
	var first *sitter.Node
	for s := x.prevNamedSibling(n); s != nil; s = x.prevNamedSibling(s) {
		if isComment(s) || s.Type() == "decorator" {
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
func tsModuleLevel(x *extractor, decl *sitter.Node) bool {
	p := x.parent(decl)
	if p != nil && p.Type() == "export_statement" {
		p = x.parent(p)
	}
	if p == nil {
		return false
	}
	switch p.Type() {
	case "program":
		return true
	case "statement_block":
		g := x.parent(p)
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

// firstNamedNonComment returns n's first named child that is not a
// comment, or nil.
func firstNamedNonComment(n *sitter.Node) *sitter.Node {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); !isComment(c) {
			return c
		}
	}
	return nil
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

// headPart is how a node before a definition's keyword counts for
// Symbol.ModifiersByte and Symbol.KeywordByte.
type headPart int

const (
	headOther     headPart = iota // the definition proper begins here
	headDecorator                 // a decorator or annotation
	headModifier                  // a modifier keyword
	headGroup                     // a node holding decorators and modifiers (Java's modifiers)
)

// head returns c's ModifiersByte and KeywordByte: it walks the nodes from
// start (where the range starts) into c.outer and the definition, skipping
// comments, past the decorators and modifiers that the language's headPart
// names, down through the wrappers that contain the definition node
// (decorated_definition, export_statement, ambient_declaration, ...).
func (x *extractor) head(c *candidate, start *sitter.Node) (mod, kw uint32) {
	part := x.rules.head
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
		switch part(x, n) {
		case headDecorator:
			return false
		case headModifier:
			if mod == unset {
				mod = n.StartByte()
			}
			return false
		case headGroup:
			return visitChildren(n, visit)
		}
		if n.StartByte() <= c.def.StartByte() && c.def.EndByte() <= n.EndByte() && n.ChildCount() > 0 {
			if visitChildren(n, visit) {
				return true
			}
		}
		kw = n.StartByte()
		return true
	}
	found := false
	for s := start; s != nil && !found; s = x.nextSibling(s) {
		found = visit(s)
		if s.Equal(c.outer) {
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
