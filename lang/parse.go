package lang

// What one parse of a source tells a later step, so that the step does
// not parse the same bytes again.

import (
	"bytes"

	sitter "github.com/smacker/go-tree-sitter"
)

// Parse is a snapshot of what the parse made to locate symbols learnt of
// a source: tree-sitter's tree when tree-sitter parsed it, and the
// language's own parser's verdict and top-level layout when that parser
// ran (go/parser for Go). The syntax guard takes it as the content
// before an edit (guard.GuardOptions.Before) instead of parsing that
// content again: it re-parses the content after incrementally from a
// copy of Tree, and trusts Clean and Layout, but only when Lang and Text
// are the language and the very text it checks (Of); any other Parse is
// ignored, and the guard parses as without one.
//
// # Ownership
//
// A Parse owns Tree: whoever holds the Parse closes it (Close) when done,
// and the value must not be used after. A Parse is not safe for
// concurrent use: a tree-sitter tree belongs to one goroutine at a time,
// so a Parse stays with the goroutine that made it, or is handed over
// whole. Borrowers (the guard) read Tree and copy it to edit it; they
// never close or modify it. Symbol extraction for an index or for
// display keeps no Parse with a tree (package symbols' ExtractFile):
// only a writing operation, which checks the edit it makes, holds one,
// and only until its check is done.
type Parse struct {
	// Lang is the language the source was parsed as.
	Lang *Language
	// Text is the source that was parsed, as the caller gave it (a
	// document's text without a byte order mark), before ParserInput.
	// It is shared, not copied: callers must not modify it.
	Text []byte
	// Tree is tree-sitter's tree of Lang.ParserInput(Text), parsed with
	// Lang's grammar from scratch (or, as the syntax guard hands over the
	// content after an edit, re-parsed incrementally into a tree with no
	// error), or nil when tree-sitter did not parse it (the language's
	// own parser accepted it). The Parse owns it.
	Tree *sitter.Tree
	// Clean reports that the language's own parser accepted Text (only a
	// language with its own symbol extraction, Language.OwnExtract, sets
	// it: Go); false says nothing.
	Clean bool
	// Layout, with Clean, is Text's top-level layout from that same parse
	// (byte offsets into Text), or nil.
	Layout *Layout
}

// Of reports whether p is a parse of text as l: p is not nil, its
// language is l (the same *Language) and its Text has text's bytes. Only
// such a Parse may stand for parsing text (text without a byte order
// mark, before ParserInput). The comparison reads both texts: linear in
// the size, a fraction of a parse.
func (p *Parse) Of(l *Language, text []byte) bool {
	return p != nil && l != nil && p.Lang == l && len(p.Text) == len(text) && bytes.Equal(p.Text, text)
}

// Prior returns what p says of its text for Checker.CheckEdits: its
// Clean and Layout; the zero Prior for a nil p.
func (p *Parse) Prior() Prior {
	if p == nil {
		return Prior{}
	}
	return Prior{Clean: p.Clean, Layout: p.Layout}
}

// Close closes p's Tree, if any, and forgets it; p's other fields stay.
// It may be called more than once, and on a nil p.
func (p *Parse) Close() {
	if p == nil || p.Tree == nil {
		return
	}
	p.Tree.Close()
	p.Tree = nil
}
