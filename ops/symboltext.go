package ops

import (
	"context"
	"fmt"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/textedit"
)

// SymbolTextRequest is the request of the three whole-symbol operations,
// which differ only in where the text goes: ReplaceBody (`symedit
// replace-body`, the MCP replace_body tool, batch op "replace-body"),
// InsertBefore and InsertAfter (insert-before, insert-after). One request
// type serves the three because they carry the same fields; the method
// called says which operation runs.
type SymbolTextRequest struct {
	// Location is the symbol: FILE:LINE:COL, FILE:LINE or FILE::NAME_PATH
	// (ParseLocation).
	Location string `json:"location"`
	// Text is the symbol's new text (ReplaceBody) or the code to insert
	// (InsertBefore, InsertAfter), indented as in the file; text sent
	// entirely left of the symbol's indentation is shifted to it
	// (textedit.Reindent says by how much).
	Text string `json:"text"`
	// ExpectSymbolSHA256 refuses (CHANGED) unless the symbol's text has
	// this SHA-256 (ShowResult.SymbolSHA256); "" checks nothing.
	ExpectSymbolSHA256 SHA256 `json:"expect_symbol_sha256,omitempty" jsonschema:"Refuse, writing nothing, unless the symbol's text has this SHA-256 (show's symbol_sha256, a listing's or receipt's sha256): a lock on this symbol alone."`
	WriteOptions
}

// SymbolTextResult is the result of ReplaceBody, InsertBefore and
// InsertAfter.
type SymbolTextResult struct {
	Result
	// Symbol is the symbol the operation was placed at, as it was.
	Symbol *Symbol `json:"symbol,omitempty" jsonschema:"The symbol the operation was placed at, as it was before the edit; omitted when it was not found."`
	// Reindent says how the text was shifted: "indented by 4 spaces" or
	// "written as sent" (textedit.Reindent's String); "" when refused before
	// the text was placed.
	Reindent string `json:"reindent,omitempty" jsonschema:"How the text was shifted: \"indented by 4 spaces\" or \"written as sent\"; omitted when refused before the text was placed."`
	// Replaced is which part of the symbol ReplaceBody replaced: "whole",
	// "from-implementation", "from-modifiers" or "from-keyword"
	// (textedit.Replaced; docs/editing.md, replace-body's table); "" for the
	// insertions.
	Replaced string `json:"replaced,omitempty" jsonschema:"Which part of the symbol replace_body replaced: \"whole\", \"from-implementation\", \"from-modifiers\" or \"from-keyword\"; omitted for insert_before and insert_after."`
	// Kept is the symbol's text ReplaceBody kept in front of the new text
	// (its decorators, annotations and modifiers, each line trimmed,
	// joined by "\n"), or "".
	Kept string `json:"kept,omitempty" jsonschema:"The symbol's text replace_body kept in front of the new text (its decorators, annotations and modifiers, each line trimmed, joined by \"\\n\"); omitted when none."`
	// Comment is the comment block directly above the symbol that
	// ReplaceBody replaced with the comment req.Text begins with (each
	// line trimmed, joined by "\n"), or "": a text that begins with no
	// comment keeps the one above.
	Comment string `json:"comment,omitempty" jsonschema:"The comment block directly above the symbol that replace_body replaced with the comment the text begins with (each line trimmed, joined by \"\\n\"); omitted when the text begins with no comment (the one above is kept) or there was none."`
}

// symbolTextOp is one of the three whole-symbol operations.
type symbolTextOp int

const (
	replaceBody symbolTextOp = iota
	insertBefore
	insertAfter
)

// verb is what the summary line says the operation did.
func (op symbolTextOp) verb() string {
	switch op {
	case insertBefore:
		return "inserted before"
	case insertAfter:
		return "inserted after"
	}
	return "replaced"
}

// apply computes the operation's byte edit of d (package textedit's
// ReplaceSymbol, InsertBeforeSymbol, InsertAfterSymbol).
func (op symbolTextOp) apply(d *edit.Document, s textedit.SymbolLines, text string) (edit.Edit, textedit.Placement, error) {
	switch op {
	case insertBefore:
		return textedit.InsertBeforeSymbol(d, s, text)
	case insertAfter:
		return textedit.InsertAfterSymbol(d, s, text)
	}
	return textedit.ReplaceSymbol(d, s, text)
}

// ReplaceBody replaces the symbol at req.Location with req.Text, keeping
// the decorators, annotations, modifiers and TypeScript overload
// signatures the text does not start with; a text that begins with a
// comment replaces the comment block directly above the symbol, one that
// does not keeps it (textedit.ReplaceSymbol;
// docs/editing.md, replace-body), then runs the syntax guard and commits atomically
// (unless req.DryRun). The result is never nil; it says what was replaced
// and kept and how the text was shifted. The error is nil or the result's
// *Error: NO_SYMBOL, AMBIGUOUS_SYMBOL (with candidates and the nearest
// symbols), INVALID_INPUT (an empty text), SYNTAX, NOT_CHECKED, CHANGED,
// USAGE, OUTSIDE_ROOT, UNSUPPORTED_LANGUAGE, ...
func (w *Workspace) ReplaceBody(ctx context.Context, req SymbolTextRequest) (*SymbolTextResult, error) {
	ctx = withOp(ctx, "replace-body")
	return w.symbolText(ctx, replaceBody, req)
}

// InsertBefore inserts req.Text on its own lines above the symbol at
// req.Location and the comments and decorators attached to it, keeping the
// language's blank lines between definitions (edit.Document.
// InsertBeforeSymbol). Result and errors as ReplaceBody's.
func (w *Workspace) InsertBefore(ctx context.Context, req SymbolTextRequest) (*SymbolTextResult, error) {
	ctx = withOp(ctx, "insert-before")
	return w.symbolText(ctx, insertBefore, req)
}

// InsertAfter inserts req.Text on its own lines below the symbol at
// req.Location, keeping the language's blank lines between definitions
// (edit.Document.InsertAfterSymbol). Result and errors as ReplaceBody's.
func (w *Workspace) InsertAfter(ctx context.Context, req SymbolTextRequest) (*SymbolTextResult, error) {
	ctx = withOp(ctx, "insert-after")
	return w.symbolText(ctx, insertAfter, req)
}

// symbolText runs one whole-symbol operation.
func (w *Workspace) symbolText(ctx context.Context, op symbolTextOp, req SymbolTextRequest) (*SymbolTextResult, error) {
	res := &SymbolTextResult{}
	return res, w.writeSymbol(ctx, req.Location, req.ExpectSymbolSHA256, req.WriteOptions, &res.Result,
		func(t *target) (*change, error) { return planSymbolText(t, op, req.Text, res) })
}

// planSymbolText computes the change op makes with text at the located
// symbol t (read from a file, or located in an in-memory document by
// locateIn) and fills res's own fields. A text the operation cannot place
// (empty) is an *InputError.
func planSymbolText(t *target, op symbolTextOp, text string, res *SymbolTextResult) (*change, error) {
	s := symbolOf(t.sym)
	res.Symbol = &s
	ed, pl, err := op.apply(t.doc, t.lines(), text)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	ch, err := t.changeWith(ed)
	if err != nil {
		return nil, err
	}
	ch.what = fmt.Sprintf("%s %s (%s, lines %d-%d); %s", op.verb(), t.sym.NamePath, t.sym.Kind, t.first, t.last, pl)
	res.Reindent, res.Replaced, res.Kept, res.Comment = pl.Reindent.String(), string(pl.Replaced), pl.Kept, pl.Comment
	return ch, nil
}
