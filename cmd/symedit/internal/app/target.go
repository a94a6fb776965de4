package app

import (
	"context"
	"time"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/grammars"
	"github.com/symedit/symedit/ops"
	"github.com/symedit/symedit/symbols"
)

// parseTimeout bounds one tree-sitter parse.
const parseTimeout = 30 * time.Second

// parsed is a file read for editing with its symbols.
type parsed struct {
	doc     *edit.Document
	lang    *grammars.Language
	symbols []symbols.Symbol
}

// parse extracts doc's symbols.
func parse(doc *edit.Document, lang *grammars.Language) (*parsed, error) {
	ctx, cancel := context.WithTimeout(context.Background(), parseTimeout)
	defer cancel()
	syms, err := symbols.Extract(ctx, doc.Text, lang)
	if err != nil {
		return nil, err
	}
	return &parsed{doc: doc, lang: lang, symbols: syms}, nil
}

// target is a located symbol and its whole lines.
type target struct {
	*parsed
	sym         symbols.Symbol
	first, last int // 1-based file lines, inclusive
}

// locateIn finds the symbol at location in an in-memory document (batch
// operations, which see the result of the operations before them).
func locateIn(doc *edit.Document, lang *grammars.Language, location string) (*target, error) {
	loc, err := parseLocation(location)
	if err != nil {
		return nil, err
	}
	p, err := parse(doc, lang)
	if err != nil {
		return nil, err
	}
	return p.find(loc)
}

// parseLocation parses a LOCATION argument. One colon after FILE:LINE or
// FILE:LINE:COL, as compilers print locations ("a.go:50:2: undefined:
// x" copied up to the message), is dropped (issue 11, section 7).
func parseLocation(arg string) (symbols.Location, error) {
	if n := len(arg); n > 1 && arg[n-1] == ':' && arg[n-2] >= '0' && arg[n-2] <= '9' {
		arg = arg[:n-1]
	}
	loc, err := symbols.ParseLocation(arg)
	if err != nil {
		return loc, &ops.UsageError{Msg: err.Error()}
	}
	return loc, nil
}

// find returns the symbol at loc and its whole lines.
func (p *parsed) find(loc symbols.Location) (*target, error) {
	i, err := symbols.Locate(p.symbols, p.doc.Text, loc)
	if err != nil {
		return nil, err
	}
	sym := p.symbols[i]
	first := p.doc.LineAt(sym.StartByte)
	last := p.doc.LineAt(max(sym.StartByte, sym.EndByte-1))
	return &target{parsed: p, sym: sym, first: first, last: last}, nil
}

// lines returns the target's line span for whole-symbol operations, with
// the blank lines its language's style puts around it.
func (t *target) lines() edit.SymbolLines {
	blank := 1
	if t.lang.Name == "python" && t.sym.Parent < 0 {
		blank = 2 // PEP 8: two blank lines around top-level definitions
	}
	return edit.SymbolLines{First: t.first, Last: t.last, BlankLines: blank, Head: edit.HeadOf(t.sym, t.lang)}
}
