package lang

// What a language adds to the syntax guard, and what its own parser
// tells of a source.

// Checker is a language's syntax check that supplements tree-sitter's in
// the syntax guard: go/parser for Go, whose verdict decides, and an
// indentation check for Python, which finds what tree-sitter's grammar
// accepts. A Checker is read-only and safe for concurrent use.
type Checker struct {
	// Kind names the checker in the guard's reports (SyntaxProblem.Kind):
	// "go/parser", "python/indent".
	Kind string
	// Check returns the problems in src (as ParserInput gives it), in
	// source order: points or ranges in byte offsets of src. It is linear
	// in the size of src (the guard does not bound it by its timeout).
	Check func(src []byte) []Problem
	// CheckEdits, when not nil, is Check of oldText and newText, the
	// contents before and after edits (sorted, not overlapping, each
	// trimmed of the bytes it leaves unchanged), that may check less than
	// both whole: it returns the problems of each (before is the same as
	// Check(oldText) when after is not empty) and how much it read
	// (CheckScope): with CheckedRegions and CheckedTokens, before and
	// after are nil. prior is what the caller knows of oldText. Go's
	// checks only the lines the edits touched when they respell
	// identifiers, comments or string literals, else only the top-level
	// declarations the edits touched when oldText parses.
	CheckEdits func(oldText, newText []byte, edits []Edit, prior Prior) (before, after []Problem, scope CheckScope)
	// Decides says that the checker is the language's own parser and its
	// verdict decides: a tree-sitter problem on a line before the
	// checker's first error is only a note, tree-sitter is not run when
	// the checker accepts the content after an edit, and when tree-sitter
	// runs out of the guard's time the checker's problems alone are the
	// report (Go: tree-sitter's Go grammar is older than the language).
	Decides bool
	// Cascades says that the checker does not recover from some errors,
	// so its problems after the first problem of the content before an
	// edit are all taken as old (go/parser after a missing parenthesis:
	// the rest of the file stays inside the call, and any edit there
	// changes its errors).
	Cascades bool
}

// CheckScope says how much of the contents before and after edits
// Checker.CheckEdits read.
type CheckScope int

// The CheckScope values.
const (
	// CheckedWhole: both contents were checked whole (or as much of
	// oldText as finding its problems took), and the problems returned are
	// theirs.
	CheckedWhole CheckScope = iota
	// CheckedRegions: oldText has no problem (it was checked whole, or
	// Prior.Clean said so), and only the regions of newText the edits
	// touched were checked, without a problem: newText has none either.
	CheckedRegions
	// CheckedTokens: neither content was checked, only the lines the
	// edits touched were read, and the edits change nothing the checker's
	// verdict depends on (in Go, the spelling of identifiers, comments
	// and string literals, and white space within a line): newText has oldText's problems, at the same
	// places moved by the edits, however many there are (none, when
	// Prior.Clean).
	CheckedTokens
)

// Problem is one problem a Checker found: the byte range [Start, End) of
// the text it checked (Start == End for a point), and a message without
// the checker's name.
type Problem struct {
	Start, End int
	Message    string
}

// Edit is one edit as Checker.CheckEdits gets it: the bytes [Start, End)
// of the content before became [NewStart, NewEnd) of the content after,
// byte offsets, exclusive ends.
type Edit struct {
	Start, End       int
	NewStart, NewEnd int
}

// Prior is what the caller of Checker.CheckEdits knows of the content
// before the edits.
type Prior struct {
	// Clean is the caller's word that the language's own parser accepts
	// the content before (package symbols' File.Clean for the same
	// bytes).
	Clean bool
	// Layout, with Clean, is the content's top-level layout from that
	// same parse (package symbols' File.Layout), or nil.
	Layout *Layout
}

// Layout is the top-level layout of a source that the language's own
// parser accepted (go/parser for Go), as its syntax tree gives it.
// Offsets are byte offsets into the source.
type Layout struct {
	// PackageEnd is the offset just past the package clause's name.
	PackageEnd int
	// Decls are the top-level declarations, in source order (sorted, not
	// overlapping).
	Decls []Decl
}

// Decl is a top-level declaration of a source: the byte offsets of its
// first token (Start, inclusive) and of the end of its last token (End,
// exclusive), as go/ast's Pos and End; Import marks an import
// declaration.
type Decl struct {
	Start, End int
	Import     bool
}

// Def is one definition that a language's own parser found
// (Definition.Extract), or its outline reader (Definition.Outline): its kind as the query would capture it
// ("function", "method", "struct", ...), its range [Start, End) in byte
// offsets, its name and the offset where the name starts, and, for a
// symbol whose name path does not come from an enclosing symbol (a Go
// method's receiver), Prefix with HasPrefix.
type Def struct {
	Kind       string
	Start, End int
	Name       string
	NameStart  int
	Prefix     string
	HasPrefix  bool
	// Keyword is the 0-based byte offset where the definition proper
	// begins after its decorators (Python's def, async def or class);
	// a value not past Start means Start.
	Keyword int
}
