package lang

// C: tree-sitter's grammar, the symbol rules that C and C++ share (a
// function is found by its declarator, wherever the declaration puts it;
// the range is the whole declaration, storage classes and attributes
// included), and the anatomy of a declaration's head. Tree-sitter is the
// guard's only judge: it cannot expand macros, so a file whose macros it
// cannot read has old errors, and only the errors an edit adds refuse it.

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/c"
)

// The kind the C++ query captures besides the shared ones (tree.go).
const kindDestructor = "destructor"

// cDef is C's definition. A .h file is read as C; --lang cpp reads a C++
// header with the C++ grammar.
var cDef = Definition{
	Name:       "c",
	Extensions: []string{".c", ".h"},
	Grammar:    c.GetLanguage,
	QueryFile:  "c.scm",
	Rules:      cFamilyRules(false),
	Anatomy:    cAnatomy,
	Rewrite:    cMask,
}

// cAnatomy is the head of a C or C++ declaration: storage classes and
// function specifiers are modifiers; attributes ([[...]], __attribute__,
// __declspec) and a template's template <...> are decorators, kept before
// the modifiers.
var cAnatomy = Anatomy{
	ModifierWords: []string{"static", "extern", "inline", "register", "thread_local", "_Thread_local", "__thread",
		"virtual", "explicit", "friend", "constexpr", "consteval", "constinit", "mutable", "_Noreturn", "noreturn",
		"__inline", "__inline__", "__forceinline"},
	// The modifiers are keywords, never names: only what ends a
	// declaration or a declarator makes one a name.
	NameAfterModifier: ":=;,",
	Decorators:        true,
	DecoratorPrefix:   "[[",
	DecoratorWords:    []string{"template", "__attribute__", "__declspec", "alignas", "_Alignas"},
}

// cModifierQualifiers are the type qualifiers of the C and C++ grammars
// that are function specifiers rather than part of the type.
var cModifierQualifiers = map[string]bool{
	"constexpr": true, "consteval": true, "constinit": true, "_Noreturn": true, "noreturn": true,
}

// cFamilyRules returns the symbol rules of C (cpp false) or C++.
func cFamilyRules(cpp bool) Rules {
	return Rules{
		Adjust: func(t *Tree, c *Candidate) bool {
			switch c.Kind {
			case kindFunction:
				return cAdjustFunction(t, c, cpp)
			case "type":
				return cAdjustType(t, c)
			case kindNamespace:
				return cAdjustNamespace(t, c)
			}
			return cAdjustTag(t, c)
		},
		Head: func(t *Tree, n *sitter.Node) HeadPart {
			switch n.Type() {
			case "attribute_specifier", "attribute_declaration", "ms_declspec_modifier", "template_parameter_list",
				"requires_clause", "alignas_qualifier":
				return HeadDecorator
			case "template":
				if !n.IsNamed() {
					return HeadDecorator
				}
			case "storage_class_specifier", "virtual", "explicit_function_specifier":
				return HeadModifier
			case "friend", "inline":
				// friend, and inline namespace's inline (a function's is a
				// storage class specifier).
				if !n.IsNamed() {
					return HeadModifier
				}
			case "type_qualifier":
				if cModifierQualifiers[n.Content(t.src)] {
					return HeadModifier
				}
			}
			return HeadOther
		},
	}
}

// cppMemberQualified reports whether a function's declarator has what
// only a member function may have after its parameters: const, volatile,
// & or &&.
func cppMemberQualified(d *sitter.Node) bool {
	if d.Type() != "function_declarator" {
		return true // a conversion function is always a member
	}
	for i := 0; i < int(d.NamedChildCount()); i++ {
		switch k := d.NamedChild(i); k.Type() {
		case "type_qualifier", "ref_qualifier":
			return true
		}
	}
	return false
}

// cDeclaratorWrappers are the declarators a function's declarator may sit
// in on its way up to its declaration: char *f(void) is a pointer
// declarator around f(void).
var cDeclaratorWrappers = map[string]bool{
	"pointer_declarator": true, "reference_declarator": true, "parenthesized_declarator": true,
	"attributed_declarator": true,
}

// cAdjustFunction makes a function, method, constructor or destructor of
// c, a function_declarator (or a C++ operator_cast) whose declarator is a
// name: it finds the declaration that declares it (a function definition,
// a declaration or a member declaration, whose declarator the function's
// is), drops it when that declaration is not at file, namespace or class
// scope (a prototype in a block, a parameter of function type, a friend
// declaration), and names it after its declarator's last name, the
// qualifiers before it its Qualifier (Widget::draw is Widget/draw).
func cAdjustFunction(t *Tree, c *Candidate, cpp bool) bool {
	// Up from the declarator to its declaration.
	n := c.Def
	var owner *sitter.Node
	for owner == nil {
		p := t.Parent(n)
		if p == nil {
			return false
		}
		switch typ := p.Type(); {
		case cDeclaratorWrappers[typ]:
		case cpp && typ == "init_declarator":
			// A deleted or defaulted function the grammar reads as a
			// variable's initializer (template <typename R> void
			// ReturnRef(R&&) = delete; X& X::operator=(const X&) =
			// default;, where a type comes before the declarator): a
			// function all the same; any other initializer makes a
			// variable.
			if d := p.ChildByFieldName("declarator"); d == nil || !d.Equal(n) || !cppDeletedOrDefaulted(p, t.src) {
				return false
			}
		case typ == "function_declarator" || typ == "qualified_identifier":
			// Only as its declarator (int (*getf(void))(int)) or its name
			// (Widget::operator bool), never as a parameter.
			field := "declarator"
			if typ == "qualified_identifier" {
				field = "name"
			}
			if d := p.ChildByFieldName(field); d == nil || !d.Equal(n) {
				return false
			}
		case typ == "function_definition" || typ == "declaration" || typ == "field_declaration":
			if !isDeclaratorOf(p, n) {
				return false
			}
			owner = p
			continue
		default:
			return false
		}
		n = p
	}
	outer, friend := cWrapped(t, owner)
	container := cContainer(t, outer)
	if container == nil || friend && owner.Type() != "function_definition" {
		return false // a block's prototype, a friend declaration
	}

	// The name: the declarator's, or the qualified name an operator_cast
	// ends (Widget::operator bool).
	full := c.Def
	if c.Def.Type() == "function_declarator" {
		full = c.Def.ChildByFieldName("declarator")
	} else {
		for p := t.Parent(full); p != nil && p.Type() == "qualified_identifier"; p = t.Parent(p) {
			full = p
		}
	}
	quals, last := cQualified(full, t.src)
	name := cFunctionName(last, t.src)
	if name == "" {
		return false
	}
	c.Name, c.NameText, c.Qualifier = last, name, strings.Join(quals, "/")
	c.Outer = outer
	c.Leaf = owner.Type() != "function_definition"

	// The kind: a class's member, or a qualified name's, is a method, a
	// constructor or a destructor.
	if !cpp || friend {
		return true
	}
	class := ""
	switch {
	case container.Type() == "field_declaration_list":
		if p := t.Parent(container); p != nil {
			class = cTagName(p.ChildByFieldName("name"), t.src)
		}
	case len(quals) > 0:
		class = quals[len(quals)-1]
		if last.Type() != "destructor_name" && name != class && !cppMemberQualified(c.Def) &&
			!cppScopeIsClass(t, c.Def, class) {
			return true // void ns::f() { }
		}
	default:
		return true
	}
	switch {
	case class == "":
		c.Kind = kindMethod
	case name == class:
		c.Kind = kindConstructor
	case last.Type() == "destructor_name":
		c.Kind = kindDestructor
	default:
		c.Kind = kindMethod
	}
	return true
}

// cppDeletedOrDefaulted reports whether the init_declarator d's value is
// delete or default: the grammar reads = delete as a delete expression
// whose operand is missing, = default as the name default.
func cppDeletedOrDefaulted(d *sitter.Node, src []byte) bool {
	v := d.ChildByFieldName("value")
	if v == nil {
		return false
	}
	switch v.Type() {
	case "delete_expression":
		return v.Content(src) == "delete"
	case "identifier":
		return v.Content(src) == "default"
	}
	return false
}

// isDeclaratorOf reports whether n is one of decl's declarators (a
// declaration may have several: int f(void), g(void);).
func isDeclaratorOf(decl, n *sitter.Node) bool {
	for i := 0; i < int(decl.ChildCount()); i++ {
		if decl.FieldNameForChild(i) == "declarator" && decl.Child(i).Equal(n) {
			return true
		}
	}
	return false
}

// cWrapped returns the node whose range is a declaration's: decl, or the
// template declarations (template <class T> ...) and the friend
// declaration around it; friend reports the latter.
func cWrapped(t *Tree, decl *sitter.Node) (outer *sitter.Node, friend bool) {
	outer = decl
	for {
		p := t.Parent(outer)
		if p == nil {
			return outer, friend
		}
		switch p.Type() {
		case "template_declaration":
		case "friend_declaration":
			friend = true
		default:
			return outer, friend
		}
		outer = p
	}
}

// cContainer returns the node whose scope holds outer, a declaration at
// file, namespace or class scope: the translation unit, a namespace's or
// an extern "C" block's declaration list, or a class body, looking
// through preprocessor conditionals, extern "C" and error nodes (an
// error at the root is the file's scope); nil for a declaration in a
// block or anywhere else.
func cContainer(t *Tree, outer *sitter.Node) *sitter.Node {
	for p := t.Parent(outer); p != nil; p = t.Parent(p) {
		switch p.Type() {
		case "translation_unit", "declaration_list", "field_declaration_list":
			return p
		case "ERROR":
			if t.Parent(p) == nil {
				return p // the root: a file tree-sitter could not read whole
			}
		case "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef",
			"linkage_specification":
		default:
			return nil
		}
	}
	return nil
}

// cQualified returns the scopes of a qualified name, outermost first, and
// its last part: ns::Widget::draw is [ns Widget] and draw; a template's
// arguments are left out (Stack<T>::push is [Stack] and push).
func cQualified(n *sitter.Node, src []byte) (quals []string, last *sitter.Node) {
	for depth := 0; n != nil && n.Type() == "qualified_identifier" && depth < 64; depth++ {
		if s := n.ChildByFieldName("scope"); s != nil {
			if q := cTagName(s, src); q != "" {
				quals = append(quals, q)
			}
		}
		n = n.ChildByFieldName("name")
	}
	return quals, n
}

// cTagName returns the name of a class, struct, union or enum, or of a
// qualifier, as a name path segment: a template's name without its
// arguments (Stack for Stack<int>), a qualified name's last part; "" for
// none.
func cTagName(n *sitter.Node, src []byte) string {
	if n == nil {
		return ""
	}
	switch n.Type() {
	case "template_type", "template_function":
		return fieldText(n, "name", src)
	case "qualified_identifier":
		_, last := cQualified(n, src)
		return cTagName(last, src)
	case "type_identifier", "namespace_identifier", "identifier", "field_identifier":
		return n.Content(src)
	}
	return ""
}

// cFunctionName returns a function's name from the last part of its
// declarator: an identifier, a destructor's ~Widget, an operator's
// operator== or operator new[] (as clang spells it), a conversion's
// operator bool, a specialization's name without its arguments; "" for
// anything else.
func cFunctionName(n *sitter.Node, src []byte) string {
	if n == nil {
		return ""
	}
	switch n.Type() {
	case "identifier", "field_identifier":
		return n.Content(src)
	case "destructor_name":
		return "~" + strings.Join(strings.Fields(strings.TrimPrefix(n.Content(src), "~")), "")
	case "template_function":
		return cFunctionName(n.ChildByFieldName("name"), src)
	case "operator_name":
		return cOperatorName(n.Content(src))
	case "operator_cast":
		// operator T(): the type between the keyword and the parameters.
		text := n.Content(src)
		// The parameters are in the declarator, under the reference or
		// pointer declarators of a type ending in & or * (operator
		// const Impl&() const is (operator const Impl (& (() const)))).
		d := n.ChildByFieldName("declarator")
		for depth := 0; d != nil && depth < 64; depth++ {
			if ps := d.ChildByFieldName("parameters"); ps != nil {
				text = string(src[n.StartByte():ps.StartByte()])
				break
			}
			if dd := d.ChildByFieldName("declarator"); dd != nil {
				d = dd
			} else {
				d = firstNamedNonComment(d)
			}
		}
		typ := CppShortType(strings.TrimSpace(strings.TrimPrefix(text, "operator")))
		if typ == "" {
			return ""
		}
		return "operator " + typ
	}
	return ""
}

// cOperatorName returns an operator function's name as clang spells it:
// "operator" and the operator without white space (operator==,
// operator(), operator""_km), one space before a word (operator new[],
// operator co_await).
func cOperatorName(text string) string {
	op := strings.Join(strings.Fields(strings.TrimPrefix(text, "operator")), "")
	if op != "" && cIdentByte(op[0]) {
		// new, delete, co_await: the word and then any brackets, joined.
		return "operator " + op
	}
	return "operator" + op
}

// CppShortType returns a C++ type as written, text, made one line for a
// name: each run of white space one space, and each qualified name
// shortened to its last part (std::string is string, ns::Vec<int> is
// Vec<int>), so that a name holds no "::", which ends the file part of a
// FILE::NAME_PATH location.
func CppShortType(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	var b strings.Builder
	for text != "" {
		j := strings.Index(text, "::")
		if j < 0 {
			b.WriteString(text)
			break
		}
		// Drop the scope before "::": the identifier characters (and a
		// template's arguments) that end text[:j].
		k := j
		if k > 0 && text[k-1] == '>' {
			depth := 0
			for k > 0 {
				k--
				if text[k] == '>' {
					depth++
				} else if text[k] == '<' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
		}
		for k > 0 && cIdentByte(text[k-1]) {
			k--
		}
		b.WriteString(text[:k])
		text = text[j+2:]
	}
	return strings.TrimSpace(b.String())
}

// cIdentByte reports whether b may be in a C identifier (ASCII).
func cIdentByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// cAdjustType makes a type of a typedef's declarator or a C++ alias
// declaration (using V = ...): named after the declarator's type name
// (typedef int (*cb)(int) is cb), ranging over the whole declaration
// (every name of typedef struct S S, *PS; ranges over all of it), and
// holding no members. Typedefs and aliases in a block are not symbols.
func cAdjustType(t *Tree, c *Candidate) bool {
	if c.Def.Type() == "type_definition" {
		n := c.Name
		for depth := 0; n != nil && n.Type() != "type_identifier" && depth < 64; depth++ {
			switch n.Type() {
			case "parenthesized_declarator", "reference_declarator":
				// Neither names its declarator a field (typedef T& reference;).
				n = firstNamedNonComment(n)
			default:
				n = n.ChildByFieldName("declarator")
			}
		}
		if n == nil {
			return false
		}
		c.Name = n
	}
	outer, _ := cWrapped(t, c.Def)
	if cContainer(t, outer) == nil {
		return false
	}
	c.Outer, c.Leaf = outer, true
	return true
}

// cAdjustNamespace names a namespace after its last name, the names
// before it its Qualifier (namespace a::b { } is a/b).
func cAdjustNamespace(t *Tree, c *Candidate) bool {
	var quals []string
	n := c.Name
	for depth := 0; n != nil && n.Type() == "nested_namespace_specifier" && depth < 64; depth++ {
		// a::b::c is (a (b c)): every named child but the last is a
		// scope; the last is the rest.
		k := int(n.NamedChildCount())
		if k == 0 {
			return false
		}
		for i := 0; i < k-1; i++ {
			if ch := n.NamedChild(i); ch.Type() == "namespace_identifier" {
				quals = append(quals, ch.Content(t.src))
			}
		}
		n = n.NamedChild(k - 1)
	}
	if n == nil || n.Type() != "namespace_identifier" {
		return false
	}
	c.Name, c.Qualifier = n, strings.Join(quals, "/")
	return true
}

// cAdjustTag completes a struct, union, enum or class definition: its
// name without template arguments (a specialization, template <> class
// Stack<int>, is Stack), its qualifiers (class Outer::Inner { } is
// Outer/Inner), its template declarations, and the ";" right after it
// (struct S { ... };) when nothing is declared with it.
func cAdjustTag(t *Tree, c *Candidate) bool {
	quals, last := cQualified(c.Name, t.src)
	name := cTagName(last, t.src)
	if name == "" {
		return false
	}
	c.Name, c.NameText, c.Qualifier = last, name, strings.Join(quals, "/")
	outer, _ := cWrapped(t, c.Def)
	if !outer.Equal(c.Def) {
		c.Outer = outer
	} else if s := t.NextSibling(c.Def); s != nil && s.Type() == ";" && !s.IsNamed() {
		c.Last = s
	}
	return true
}
