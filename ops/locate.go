package ops

import (
	"context"
	"fmt"
	"strings"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/files"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
	"github.com/symedit/symedit/textedit"
)

// parsed is a file read for editing with its symbols.
type parsed struct {
	doc     *edit.Document
	lang    *lang.Language
	symbols []symbols.Symbol
	// file is the extraction symbols came from (symbols is its
	// Symbols), for the receipt to extract only what an edit of doc
	// touched (symbols.ExtractEdit); set with snap.
	file symbols.File
	// snap is what the parse of doc.Text learnt for the syntax guard
	// (symbols.ExtractParse), which then need not parse doc's content
	// again (guard.GuardOptions.Before); nil for a parse made without
	// keep (the symbol index, show). It holds a tree-sitter tree: the
	// operation that made the parse owns it and closes it (close) once
	// its check is done, on the goroutine that made it.
	snap *lang.Parse
}

// close closes the parse's tree, if any (lang.Parse.Close); a nil p is
// allowed, and so is a second call.
func (p *parsed) close() {
	if p != nil {
		p.snap.Close()
	}
}

// parseFile reads path and extracts its symbols; o.Lang overrides the
// extension. The file is read before its language is chosen, so that a
// path outside the root (OUTSIDE_ROOT) or one that does not exist says so
// rather than naming its extension.
//
// It serves show (symbols lists with listFile): a file with several hard
// links is read, since reading it splits nothing. The parse keeps no tree
// (see parse).
func (w *Workspace) parseFile(ctx context.Context, path string, o WriteOptions) (*parsed, error) {
	doc, err := w.view.Read(path)
	return parseRead(ctx, path, doc, err, o.Lang, false)
}

// listFile is parseFile for a listing of many files (the symbols
// command and its index): doc's symbols from symbols.ListFile, which
// reads a Python file with no parse and parses Java's method bodies
// blanked, equal to parse's on every source that parses without error.
// No tree outlives the call. The file is read through dirs, relative to
// its folder resolved once (files.DirStat.Read), as Files.Read reads it.
// Its errors are parseFile's.
func listFile(ctx context.Context, dirs *files.DirStat, path, langName string) (*parsed, error) {
	doc, err := dirs.Read(path)
	if err != nil {
		return nil, err
	}
	l, err := lang.Select(path, langName)
	if err != nil {
		return nil, err
	}
	return list(ctx, doc, l)
}

// list is parse without keep for a listing (listFile).
func list(ctx context.Context, doc *edit.Document, lang *lang.Language) (*parsed, error) {
	ctx, cancel := context.WithTimeout(ctx, parseTimeout)
	defer cancel()
	f, err := symbols.ListFile(ctx, doc.Text, lang)
	if err != nil {
		return nil, err
	}
	return &parsed{doc: doc, lang: lang, symbols: f.Symbols}, nil
}

// parseResolved is parseFile for a writing operation: it reads the file r
// resolved path to, when r is not nil (readResolved: the path is not
// resolved again), and keeps the parse for the guard (see parse): the
// caller closes it (parsed.close).
func (w *Workspace) parseResolved(ctx context.Context, path string, r *files.Resolution, o WriteOptions) (*parsed, error) {
	doc, err := w.readResolved(path, r, o)
	return parseRead(ctx, path, doc, err, o.Lang, true)
}

// parseRead parses doc, read from path, in the language named langName
// or else path's (parse, with keep). readErr is the read's error, which
// comes first: a path outside the root or a missing file says so rather
// than naming its extension.
func parseRead(ctx context.Context, path string, doc *edit.Document, readErr error, langName string, keep bool) (*parsed, error) {
	if readErr != nil {
		return nil, readErr
	}
	l, err := lang.Select(path, langName)
	if err != nil {
		return nil, err
	}
	return parse(ctx, doc, l, keep)
}

// parse extracts doc's symbols. With keep (an operation that will check
// an edit of doc) the parse is kept in the result's snap, its tree-sitter
// tree included, for the syntax guard to reuse; the caller owns it and
// closes it (parsed.close). Without keep (the symbol index, show) no tree
// outlives the call.
func parse(ctx context.Context, doc *edit.Document, lang *lang.Language, keep bool) (*parsed, error) {
	ctx, cancel := context.WithTimeout(ctx, parseTimeout)
	defer cancel()
	if !keep {
		f, err := symbols.ExtractFile(ctx, doc.Text, lang)
		if err != nil {
			return nil, err
		}
		return &parsed{doc: doc, lang: lang, symbols: f.Symbols}, nil
	}
	f, snap, err := symbols.ExtractParse(ctx, doc.Text, lang)
	if err != nil {
		return nil, err
	}
	return &parsed{doc: doc, lang: lang, symbols: f.Symbols, file: f, snap: snap}, nil
}

// target is a located symbol and its whole lines.
type target struct {
	*parsed
	sym         symbols.Symbol
	first, last int // 1-based file lines, inclusive
}

// writeSymbol runs a writing operation on the symbol at location: it
// checks the request (the location, o, the expected symbol hash), holds
// the file's lock, locates the symbol, refuses (CHANGED) when its text no
// longer has symSum, has plan compute the change and checks, previews and
// commits it (finish), filling res. It returns res.Error, or nil. The
// parse that located the symbol is the guard's parse of the content
// before (change.located); writeSymbol owns it and closes it on return.
func (w *Workspace) writeSymbol(ctx context.Context, location string, symSum SHA256, o WriteOptions, res *Result, plan func(*target) (*change, error)) error {
	res.Path, res.DryRun = location, o.DryRun
	loc, err := ParseLocation(location)
	if err != nil {
		return res.Fail(err)
	}
	res.Path = loc.Path
	if err := o.validate(); err != nil {
		return res.Fail(err)
	}
	if err := symSum.validate("expect_symbol_sha256"); err != nil {
		return res.Fail(err)
	}
	r, unlock, err := w.lockResolved(ctx, loc.Path)
	if err != nil {
		return res.Fail(err)
	}
	defer unlock()
	t, err := w.locateResolved(ctx, loc, r.res, o)
	if err == nil {
		defer t.close()
		err = t.checkSymbol(symSum)
	}
	if err != nil {
		return res.Fail(err)
	}
	ch, err := plan(t)
	if err != nil {
		return res.Fail(err)
	}
	return w.finish(ctx, ch, o, res)
}

// text returns the symbol's whole lines as show prints them: each line
// ending in "\n", line endings normalized.
func (t *target) text() string {
	return strings.Join(t.doc.Lines(t.first, t.last), "\n") + "\n"
}

// sha256 returns the SHA-256 of the symbol's text (text), in 64 lowercase
// hexadecimal digits: show's symbol_sha256, which expect_symbol_sha256
// takes.
func (t *target) sha256() string { return symbolSHA256(t.doc, t.sym) }

// checkSymbol refuses (CHANGED, edit.ErrChanged) when want is not "" and
// the symbol's text no longer has that SHA-256: a lock on one symbol,
// which edits elsewhere in the file do not break.
func (t *target) checkSymbol(want SHA256) error {
	if want == "" {
		return nil
	}
	if got := t.sha256(); !strings.EqualFold(got, string(want)) {
		return &edit.FileError{Path: t.doc.Path, Err: edit.ErrChanged, Reason: fmt.Sprintf(
			"the symbol %s (lines %d-%d) has the SHA-256 %s, not the expected %s: it changed since it was read; nothing was written",
			t.sym.NamePath, t.first, t.last, got, strings.ToLower(string(want)))}
	}
	return nil
}

// ParseLocation parses a location: FILE:LINE:COL, FILE:LINE or
// FILE::NAME_PATH (symbols.ParseLocation). One colon after FILE:LINE or
// FILE:LINE:COL, as compilers print locations ("a.go:50:2: undefined: x"
// copied up to the message), is dropped, so a location pasted from a
// compiler's message works. The error
// is a *UsageError.
func ParseLocation(arg string) (symbols.Location, error) {
	if n := len(arg); n > 1 && arg[n-1] == ':' && arg[n-2] >= '0' && arg[n-2] <= '9' {
		arg = arg[:n-1]
	}
	loc, err := symbols.ParseLocation(arg)
	if err != nil {
		return loc, &UsageError{Msg: err.Error()}
	}
	return loc, nil
}

// locate reads a location's file and finds the symbol, for show: as
// parseFile, it reads a file with several hard links, and keeps no tree.
func (w *Workspace) locate(ctx context.Context, loc symbols.Location, o WriteOptions) (*target, error) {
	p, err := w.parseFile(ctx, loc.Path, o)
	if err != nil {
		return nil, err
	}
	return p.find(loc)
}

// locateResolved is locate for a writing operation: it reads the file r
// resolved loc.Path to, when r is not nil (writeSymbol: the path resolved
// once, for the lock and the read), and keeps the target's parse for the
// guard: the caller closes it (target.close); on error nothing is kept.
func (w *Workspace) locateResolved(ctx context.Context, loc symbols.Location, r *files.Resolution, o WriteOptions) (*target, error) {
	p, err := w.parseResolved(ctx, loc.Path, r, o)
	if err != nil {
		return nil, err
	}
	return p.findKept(loc)
}

// findKept is find for a parse kept for the guard: the target owns p, and
// p is closed when loc is not there.
func (p *parsed) findKept(loc symbols.Location) (*target, error) {
	t, err := p.find(loc)
	if err != nil {
		p.close()
		return nil, err
	}
	return t, nil
}

// locateIn finds the symbol at location in an in-memory document (batch
// operations, which see the result of the operations before them). The
// target's parse is kept for the guard: the caller closes it
// (target.close); on error nothing is kept.
func locateIn(ctx context.Context, doc *edit.Document, lang *lang.Language, location string) (*target, error) {
	loc, err := ParseLocation(location)
	if err != nil {
		return nil, err
	}
	p, err := parse(ctx, doc, lang, true)
	if err != nil {
		return nil, err
	}
	return p.findKept(loc)
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
func (t *target) lines() textedit.SymbolLines {
	blank := t.lang.BlankLines(t.sym.Parent < 0)
	return textedit.SymbolLines{First: t.first, Last: t.last, BlankLines: blank, Head: textedit.HeadOf(t.sym, t.lang)}
}

// replaceLines makes the change that replaces the target's lines.
func (t *target) replaceLines(lines []string) (*change, error) {
	ed, err := t.doc.ReplaceLines(t.first, t.last, lines)
	if err != nil {
		return nil, err
	}
	return t.changeWith(ed)
}

// changeWith makes the change that applies one byte edit to the target's
// file; its doc is the content that was parsed, so it carries the
// target's parse for the guard (borrowed: the target's owner closes it).
func (t *target) changeWith(ed edit.Edit) (*change, error) {
	content, err := edit.Apply(t.doc.Content, []edit.Edit{ed})
	if err != nil {
		return nil, err
	}
	return &change{doc: t.doc, lang: t.lang, content: content, edits: []edit.Edit{ed}, located: t.parsed}, nil
}
