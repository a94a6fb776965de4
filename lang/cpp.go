package lang

// C++: tree-sitter's grammar and the C rules (c.go), with classes,
// namespaces, methods defined in and out of their class, constructors,
// destructors, operators and templates.

import (
	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/cpp"
)

// cppDef is C++'s definition. A .h file is C's (c.go) unless --lang cpp
// says otherwise.
var cppDef = Definition{
	Name:       "cpp",
	Extensions: []string{".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"},
	Grammar:    cpp.GetLanguage,
	QueryFile:  "cpp.scm",
	Rules:      cFamilyRules(true),
	Anatomy:    cAnatomy,
	Rewrite:    cMask,
}

// cppScopeIsClass reports whether the scope a function is defined in,
// the last qualifier of its name (Widget in void Widget::draw()), is a
// class rather than a namespace: the scope a class or a namespace of the
// same file (at file or namespace scope, or in a class) names, else a
// name that begins with a lower-case letter is a namespace's (detail,
// std, testing::internal) and any other a class's. n is a node of the
// file; the file's classes and namespaces are collected once per Tree.
func cppScopeIsClass(t *Tree, n *sitter.Node, scope string) bool {
	if t.scopes == nil {
		t.scopes = map[string]string{}
		root := n
		for p := t.Parent(root); p != nil; p = t.Parent(p) {
			root = p
		}
		cppCollectScopes(root, t.src, t.scopes, 0)
	}
	switch t.scopes[scope] {
	case kindClass:
		return true
	case kindNamespace:
		return false
	}
	return scope != "" && !('a' <= scope[0] && scope[0] <= 'z')
}

// cppCollectScopes adds the names of the namespaces and classes declared
// in n (at any depth of namespaces, classes, templates, extern "C" blocks
// and preprocessor conditionals) to scopes, as kindNamespace or
// kindClass; a name that is both is a class.
func cppCollectScopes(n *sitter.Node, src []byte, scopes map[string]string, depth int) {
	if depth > 64 {
		return
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		k := n.NamedChild(i)
		switch k.Type() {
		case "namespace_definition":
			if nm := k.ChildByFieldName("name"); nm != nil {
				cppNamespaceNames(nm, src, scopes)
			}
			if b := k.ChildByFieldName("body"); b != nil {
				cppCollectScopes(b, src, scopes, depth+1)
			}
		case "class_specifier", "struct_specifier", "union_specifier":
			if name := cTagName(k.ChildByFieldName("name"), src); name != "" {
				scopes[name] = kindClass
			}
			if b := k.ChildByFieldName("body"); b != nil {
				cppCollectScopes(b, src, scopes, depth+1)
			}
		case "linkage_specification", "declaration_list", "field_declaration_list", "template_declaration",
			"declaration", "field_declaration", "type_definition", "preproc_if", "preproc_ifdef", "preproc_else",
			"preproc_elif", "preproc_elifdef", "ERROR":
			cppCollectScopes(k, src, scopes, depth+1)
		}
	}
}

// cppNamespaceNames adds the names of a namespace's name node (a or
// a::b::c) to scopes as namespaces, unless a class has the name.
func cppNamespaceNames(n *sitter.Node, src []byte, scopes map[string]string) {
	if n.Type() == "namespace_identifier" {
		if name := n.Content(src); scopes[name] == "" {
			scopes[name] = kindNamespace
		}
		return
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		cppNamespaceNames(n.NamedChild(i), src, scopes)
	}
}
