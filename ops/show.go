package ops

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/symedit/symedit/match"
)

// ShowRequest reads one symbol's source lines (`symedit show`, the MCP
// show tool). It writes nothing.
type ShowRequest struct {
	// Location is the symbol: FILE:LINE:COL, FILE:LINE or FILE::NAME_PATH
	// (ParseLocation).
	Location string `json:"location"`
	// LineNumbers asks for the readable listing (ShowResult.Listing) with
	// each line prefixed by its 1-based file line number; Text never has
	// them.
	LineNumbers bool `json:"line_numbers,omitempty" jsonschema:"true: prefix each line of the text with its 1-based file line number (never copy these prefixes into an edit). Omitted or false: the lines as they are."`
	// Visible asks for the readable listing with white space and
	// invisible characters marked (match.Visible); Text never has marks.
	Visible bool `json:"visible,omitempty" jsonschema:"true: in the text content, mark tabs (→), trailing spaces (·), CRs (␍), no-break spaces (⍽) and other invisible characters ([U+200B]), to see why a line does not match (never copy the marks into an edit); structured text stays the file's. Omitted or false: no marks."`
	// Lang parses the file as this language (lang.Select) instead of
	// by extension.
	Lang string `json:"lang,omitempty" jsonschema:"Parse the file as this language instead of by its extension, as for a C++ header named .h (read as c unless cpp is given). Omitted: by extension."`
}

// ShowResult is the result of a ShowRequest. It is read-only, so it does
// not embed the writing envelope, but its ok, path and error are the
// envelope's, so every result has the same error shape.
type ShowResult struct {
	// OK is false when the symbol could not be shown; Error says why.
	OK bool `json:"ok" jsonschema:"False when the symbol could not be shown; error says why."`
	// Path is the file, as the request named it.
	Path string `json:"path,omitempty" jsonschema:"The file, as the request named it."`
	// Language is the grammar's name (python, go, ...).
	Language string `json:"language,omitempty" jsonschema:"The grammar's name (python, go, ...); omitted when none."`
	// Symbol is the symbol shown.
	Symbol *Symbol `json:"symbol,omitempty" jsonschema:"The symbol shown; omitted when none was found."`
	// FirstLine and LastLine are the symbol's whole lines: 1-based,
	// inclusive.
	FirstLine int `json:"first_line,omitempty" jsonschema:"The symbol's first line: 1-based, inclusive (its decorators and annotations included); omitted on failure."`
	LastLine  int `json:"last_line,omitempty" jsonschema:"The symbol's last line: 1-based, inclusive; omitted on failure."`
	// Text is the lines FirstLine to LastLine as they are in the file,
	// each ending in "\n" (line endings normalized, no byte order mark),
	// without line numbers: what chunk context and old_lines are copied
	// from.
	Text string `json:"text,omitempty" jsonschema:"The lines first_line to last_line as they are in the file, each ending in \"\\n\" (line endings normalized, no byte order mark), without line numbers: what chunk context and old_lines are copied from; omitted on failure."`
	// SHA256 is the file's SHA-256 as read and SymbolSHA256 that of Text,
	// both 64 lowercase hexadecimal digits: what a writing request's
	// ExpectSHA256 and a location's ExpectSymbolSHA256 take.
	SHA256       string `json:"sha256,omitempty" jsonschema:"The file's SHA-256 as read: send it as a writing call's expect_sha256 to refuse if the file changed since; omitted on failure."`
	SymbolSHA256 string `json:"symbol_sha256,omitempty" jsonschema:"The SHA-256 of text: send it as chunk's or replace_body's (insert_before's, insert_after's) expect_symbol_sha256 to refuse only if this symbol changed since, whatever else in the file did; omitted on failure."`
	// Error is why the symbol could not be shown, or nil.
	Error *Error `json:"error,omitempty" jsonschema:"Why the symbol could not be shown; omitted on success."`

	numbered, visible bool
}

// Fail records err in res (ok false, error set) and returns it as an
// *Error.
func (res *ShowResult) Fail(err error) error {
	e := AsError(err)
	res.OK, res.Error = false, e
	return e
}

// Listing returns the lines as a person reads them: Text, or, when the
// request asked for LineNumbers, each line prefixed by its 1-based file
// line number, right-aligned to the widest, and two spaces.
func (res *ShowResult) Listing() string {
	if !res.numbered && !res.visible {
		return res.Text
	}
	var b strings.Builder
	width := len(strconv.Itoa(res.LastLine))
	for i, l := range strings.Split(strings.TrimSuffix(res.Text, "\n"), "\n") {
		if res.visible {
			l = match.Visible(l)
		}
		if res.numbered {
			fmt.Fprintf(&b, "%*d  ", width, res.FirstLine+i)
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if res.Text == "" {
		return ""
	}
	return b.String()
}

// Show reads the symbol at req.Location and returns its whole lines. The
// result is never nil. The error is nil or the result's *Error:
// NO_SYMBOL, AMBIGUOUS_SYMBOL (with candidates and the nearest symbols),
// USAGE (a malformed location), OUTSIDE_ROOT, UNSUPPORTED_LANGUAGE, ERROR
// (no such file, unreadable or binary content).
func (w *Workspace) Show(ctx context.Context, req ShowRequest) (*ShowResult, error) {
	res := &ShowResult{Path: req.Location, numbered: req.LineNumbers, visible: req.Visible}
	loc, err := ParseLocation(req.Location)
	if err != nil {
		return res, res.Fail(err)
	}
	res.Path = loc.Path
	t, err := w.locate(ctx, loc, WriteOptions{Lang: req.Lang})
	if err != nil {
		return res, res.Fail(err)
	}
	return t.show(loc.Path, req), nil
}

// show returns the result of showing t, the symbol req located, in the
// file path names.
func (t *target) show(path string, req ShowRequest) *ShowResult {
	s := symbolOf(t.sym)
	res := &ShowResult{OK: true, Path: path, Language: t.lang.Name, Symbol: &s, numbered: req.LineNumbers, visible: req.Visible}
	res.FirstLine, res.LastLine = t.first, t.last
	res.Text = t.text()
	res.SHA256, res.SymbolSHA256 = t.doc.SHA256(), t.sha256()
	return res
}
