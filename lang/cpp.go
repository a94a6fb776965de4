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
	Extensions: []string{".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++"},
	Grammar:    cpp.GetLanguage,
	QueryFile:  "cpp.scm",
	Rules:      cFamilyRules(true),
	Anatomy:    cAnatomy,
}

// cppIsNamespace reports whether a namespace called name is defined in the
// file of n, at file scope or in another namespace (the names of
// namespace a::b { } count each): a function defined as name::f is then
// that namespace's function, not a method. The file's namespaces are
// collected once per Tree.
func cppIsNamespace(t *Tree, n *sitter.Node, name string) bool {
	if t.namespaces == nil {
		t.namespaces = map[string]bool{}
		root := n
		for p := t.Parent(root); p != nil; p = t.Parent(p) {
			root = p
		}
		var walk func(n *sitter.Node, depth int)
		walk = func(n *sitter.Node, depth int) {
			if depth > 64 {
				return
			}
			for i := 0; i < int(n.NamedChildCount()); i++ {
				k := n.NamedChild(i)
				switch k.Type() {
				case "namespace_definition":
					if nm := k.ChildByFieldName("name"); nm != nil {
						cppNamespaceNames(nm, t.src, t.namespaces)
					}
					if b := k.ChildByFieldName("body"); b != nil {
						walk(b, depth+1)
					}
				case "linkage_specification", "declaration_list", "preproc_if", "preproc_ifdef", "preproc_else",
					"preproc_elif", "preproc_elifdef", "ERROR":
					walk(k, depth+1)
				}
			}
		}
		walk(root, 0)
	}
	return t.namespaces[name]
}

// cppNamespaceNames adds the names of a namespace's name node (a or
// a::b::c) to names.
func cppNamespaceNames(n *sitter.Node, src []byte, names map[string]bool) {
	if n.Type() == "namespace_identifier" {
		names[n.Content(src)] = true
		return
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		cppNamespaceNames(n.NamedChild(i), src, names)
	}
}
