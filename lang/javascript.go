package lang

// JavaScript: TypeScript's rules and anatomy where the grammar has the
// same nodes (typescript.go), its own grammar and query; no overloads.

import "github.com/smacker/go-tree-sitter/javascript"

// javascriptDef is JavaScript's definition.
var javascriptDef = Definition{
	Name:       "javascript",
	Extensions: []string{".js", ".mjs", ".cjs", ".jsx"},
	Grammar:    javascript.GetLanguage,
	QueryFile:  "javascript.scm",
	Rules:      tsRules,
	Anatomy:    tsAnatomy,
}
