// Package guard is symedit's syntax guard: it refuses an edit that adds
// syntax errors, counting only the errors the edit added, and lists every
// syntax problem of a file for symedit check.
//
// [CheckSyntax] parses a file before and after an edit and reports the
// syntax problems the edit added ([SyntaxReport].New, the one nearest the
// edited lines first); [FindSyntaxProblems] lists every problem of one
// content (symedit check). tree-sitter re-parses incrementally, with exact
// points given to ts_tree_edit, and a new problem it finds is confirmed
// by a full parse before it counts. For Go, go/parser runs first and
// decides: when it accepts the content after the edit, tree-sitter does
// not parse at all (go/parser is the authority, and several times
// faster); when it refuses, tree-sitter runs too, and
// its errors above go/parser's first are [SyntaxReport].Notes, never
// refusals (FindSyntaxProblems notes them everywhere). For Python an
// indentation check runs too. The parsers read a lone CR as a line end,
// except in Go ([lang.Language.ParserInput]), as the languages themselves
// do. In strict mode an edit the guard could not check (over
// [GuardMaxSize], a timeout) is refused ([SyntaxReport].NotChecked):
// unchecked is not the same as valid.
package guard
