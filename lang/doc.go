// Package lang is symedit's language registry: a data table that maps a
// file extension (".py", ".go", ".java", ".ts", ...) to a [Language], which
// carries the tree-sitter grammar bundled with github.com/smacker/go-tree-sitter
// and the embedded symbols query (queries/<name>.scm) that package symbols runs.
// [Language.ParserInput] gives the text as the language's parser should read
// it (a lone CR read as LF, except in Go); every tree-sitter parse of a
// file's text should go through it, so that a CR-only file is not one line.
//
// The table is immutable. Each language's query is compiled at most once, on
// first use, and the compiled query is only read afterwards, so one
// [*sitter.Query] may serve many goroutines; parsers, trees and query cursors
// are never shared (see package symbols).
package lang
