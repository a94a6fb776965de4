package lang

// PHP: tree-sitter's grammar, the symbol rules (namespace X; ranges over
// the statements after it) and the anatomy of a declaration's head.
// Tree-sitter is the guard's only judge: php -l is not always on the
// machine, and running it on every edit would be too slow.

import (
	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/php"
)

// phpDef is PHP's definition.
var phpDef = Definition{
	Name:       "php",
	Extensions: []string{".php"},
	Grammar:    php.GetLanguage,
	QueryFile:  "php.scm",
	Rules: Rules{
		Adjust: func(t *Tree, c *Candidate) bool {
			if c.Def.Type() == "namespace_definition" && c.Def.ChildByFieldName("body") == nil {
				c.Last = phpNamespaceEnd(t, c.Def)
			}
			return true
		},
		Head: func(t *Tree, n *sitter.Node) HeadPart {
			switch n.Type() {
			case "attribute_list":
				return HeadDecorator
			case "visibility_modifier", "static_modifier", "final_modifier", "abstract_modifier",
				"readonly_modifier", "var_modifier":
				return HeadModifier
			}
			return HeadOther
		},
	},
	Anatomy: Anatomy{
		// "#" begins a comment unless "[" follows (an attribute): a
		// comment line is one that begins "# " or "#\t" here.
		CommentPrefixes: []string{"//", "/*", "*", "# ", "#\t"},
		// The PHP manual's class member modifiers (visibility, static,
		// abstract, final, readonly). PHP's modifiers are keywords, but
		// a method may be named after one (function public() is valid
		// since PHP 7): "(" after the word makes it a name.
		ModifierWords:     []string{"public", "protected", "private", "static", "abstract", "final", "readonly"},
		NameAfterModifier: "(:=;,",
		Decorators:        true,
		DecoratorPrefix:   "#[",
	},
}

// phpNamespaceEnd returns the last statement of the namespace that ns, a
// namespace X; statement, begins: the last sibling after ns, comments
// aside, before the next namespace statement or the end of the file; nil
// when there is none (the range is then the statement itself).
func phpNamespaceEnd(t *Tree, ns *sitter.Node) *sitter.Node {
	var last *sitter.Node
	for s := t.NextSibling(ns); s != nil && s.Type() != "namespace_definition"; s = t.NextSibling(s) {
		if !IsComment(s) {
			last = s
		}
	}
	return last
}
