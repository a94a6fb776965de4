// Package lang holds everything symedit knows of each language it edits.
// A [Language] is one language's whole [Definition], as ast-grep's
// Language is: its name and file extensions, its tree-sitter grammar
// (bundled with github.com/smacker/go-tree-sitter) and embedded symbols
// query (queries/<name>.scm), the [Rules] that refine the query's matches
// into symbols (run by package symbols on a [Tree] view), the [Anatomy]
// of a definition's head (comment prefixes, modifier words, decorators),
// whether a text sent for a symbol begins with overloads, the [Checker]
// that supplements tree-sitter in the syntax guard (go/parser for Go,
// which decides; an indentation check for Python; a stray-keyword check
// for Ruby), the language's own
// parser's symbol extraction with the source's top-level [Layout] (Go),
// and its blank-line style. Each built-in language is one file: python.go,
// golang.go (with golang_check.go, go/parser's check of edited regions),
// java.go, typescript.go (TypeScript and TSX), javascript.go, rust.go,
// csharp.go, ruby.go, php.go, c.go and cpp.go (C and C++, which share
// c.go's rules); no other
// package switches on a language's name, so adding a language is one such
// file, its query, and its tests.
//
// [Language.ParserInput] gives the text as the language's parser should
// read it (a lone CR read as LF, except in Go); every tree-sitter parse of
// a file's text should go through it, so that a CR-only file is not one
// line.
//
// A [Parse] is what one parse of a source learnt (tree-sitter's tree, the
// own parser's verdict and layout): package symbols makes one while it
// locates symbols for an edit, and the syntax guard checks that edit from
// it instead of parsing the content before again. Whoever holds a Parse
// closes its tree.
//
// A [Registry] looks languages up by name and extension; [Default] is the
// built-in one (ForPath, ByName, Select, Languages and Names ask it), built
// once. A Language and a Registry are immutable. Each language's query is
// compiled at most once, on first use, and the compiled query is only read
// afterwards, so one [*sitter.Query] may serve many goroutines; parsers,
// trees and query cursors are never shared (see package symbols).
package lang
