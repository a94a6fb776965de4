package ops

import (
	"errors"
	"fmt"
	"strings"

	"github.com/symedit/symedit/chunk"
	"github.com/symedit/symedit/guard"
	"github.com/symedit/symedit/internal/elision"
	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/remedy"
	"github.com/symedit/symedit/symbols"
	"github.com/symedit/symedit/textedit"
)

// Error is a refused or failed operation as a value: the "error" object of
// every result, the same in the CLI's --json output, in batch's result
// lines and in the MCP tools' structured content. Message is the short
// message; Error() is the full text a person reads (for a chunk, with the
// real lines and the nearest ones). The other fields explain it where they
// apply. Unwrap returns the error it was made from, so errors.Is and
// errors.As reach the sentinels and types of the packages below
// (symbols.ErrNoMatch, *chunk.Error, edit.ErrChanged, ...).
type Error struct {
	// Code is the kind of refusal; Code.Exit gives its exit code.
	Code Code `json:"code" jsonschema:"The kind of refusal, a stable code: NO_MATCH, AMBIGUOUS, OVERLAP, NO_SYMBOL, AMBIGUOUS_SYMBOL, SYNTAX, NOT_CHECKED, CHANGED, LOCKED, LINE_RANGE, NO_MATCH_TEXT, COUNT, WRONG_COUNT, APPLY, ELIDED, INVALID_INPUT, OUTSIDE_ROOT, NOT_WRITABLE, METADATA, UNSUPPORTED_LANGUAGE, USAGE or ERROR."`
	// Chunk is the 1-based chunk (or edit, or block) the refusal is about
	// (for ELIDED: the edit whose new side holds the placeholder, named in
	// Message with its line).
	Chunk int `json:"chunk,omitempty" jsonschema:"The 1-based index of the chunk (or edit, or block) the refusal is about; omitted when none."`
	// Check is the chunk spec's check that failed (chunk.Check), such as
	// "old_lines".
	Check   string `json:"check,omitempty" jsonschema:"The chunk's check that failed, such as \"old_lines\" or \"context_after\"; omitted when none."`
	Message string `json:"message" jsonschema:"The short message: what was refused and why."`
	// Line is the 1-based file line the refusal is about.
	Line int `json:"line,omitempty" jsonschema:"The 1-based file line the refusal is about; omitted when none."`
	// Expected and Actual are the line the request expected and the real
	// line there.
	Expected string `json:"expected,omitempty" jsonschema:"The line the request expected at line; omitted when none."`
	Actual   string `json:"actual,omitempty" jsonschema:"The real line of the file at line; omitted when none."`
	// Candidates are the 1-based first lines of every place that matched
	// (ambiguous), of every symbol that fitted, or of the occurrences a
	// WRONG_COUNT edit found (original line numbers, as Matches).
	Candidates []int `json:"candidates,omitempty" jsonschema:"The 1-based first lines of every place that matched (AMBIGUOUS), of every symbol that fitted (AMBIGUOUS_SYMBOL), or of the occurrences a WRONG_COUNT edit found (original line numbers, as matches); omitted when none."`
	// Nearest are the most similar real lines ([]chunk.Near), symbols
	// ([]Symbol) or, for an edit's NO_MATCH, places
	// ([]textedit.SimilarContent: lines, similarity, what differs).
	Nearest any `json:"nearest,omitempty" jsonschema:"The most similar real lines (each with its 1-based line, text and similarity), symbols (each with name_path, kind, start and end) or, for an edit's NO_MATCH, places (lines, similarity, what differs); omitted when none."`
	// Hint is a looser match level that would accept the request (its
	// line, level and offset), or nil; Remedy says how to accept it.
	Hint *match.Hint `json:"hint,omitempty" jsonschema:"A looser match level that would accept the request: its line, level, offset; omitted when none. The remedy field says how to accept it."`
	// Remedy is the change to the request's options that lets it
	// proceed (remedy.Of of the error the Error was made from), or nil.
	// Each front end names the options its own way.
	Remedy remedy.Remedy `json:"remedy,omitempty" jsonschema:"The change to the request's options that lets it proceed: each option, by its field name, with the value to give it (as match set to indent); omitted when no option helps. Options a front end does not offer (allow_hardlinks, allow_read_only, allow_metadata_loss, root and check over MCP) cannot be sent to it."`
	// SuggestedFixes are an edit's suggested corrections (NO_MATCH,
	// WRONG_COUNT of the edit operation), most specific first.
	SuggestedFixes []textedit.SuggestedFix `json:"suggested_fixes,omitempty" jsonschema:"An edit's suggested corrections (NO_MATCH, WRONG_COUNT of the edit tool), most specific first; omitted when none."`
	// SearchText is the failing edit's old_text as it was searched for
	// (with LF line endings when the file's are uniform), and
	// ExpectedOccurrences and ActualOccurrences how many times it was to
	// occur and did, in the text as the edits before it left it (NO_MATCH
	// and WRONG_COUNT of the edit operation).
	SearchText string `json:"search_text,omitempty" jsonschema:"The failing edit's old_text as it was searched for (with LF line endings when the file's are uniform); for the edit tool's NO_MATCH and WRONG_COUNT, else omitted."`
	// SearchTextOmitted is how many bytes of a long old_text SearchText
	// leaves out (textedit.TextEditError.SearchText).
	SearchTextOmitted   int `json:"search_text_omitted,omitempty" jsonschema:"How many bytes of a long old_text search_text leaves out, where its line [... N bytes left out ...] stands; omitted when none."`
	ExpectedOccurrences int `json:"expected_occurrences,omitempty" jsonschema:"How many times old_text was to occur (the edit's occurrences), in the text as the edits before it left it; for the edit tool's NO_MATCH and WRONG_COUNT, else omitted."`
	ActualOccurrences   int `json:"actual_occurrences,omitempty" jsonschema:"How many times old_text occurred in that text; omitted when 0 (as for NO_MATCH)."`
	// Matches are the occurrences a WRONG_COUNT edit found, in text order,
	// at most textedit.MaxMatchLocations (their 1-based original lines are
	// Candidates): line, byte columns, the line and its neighbours.
	// OmittedMatches counts the occurrences beyond them.
	Matches        []textedit.MatchLocation `json:"matches,omitempty" jsonschema:"The occurrences a WRONG_COUNT edit found, in text order, at most 20 (their 1-based original lines are candidates): line, byte columns, the line and its neighbours; omitted otherwise."`
	OmittedMatches int                      `json:"omitted_matches,omitempty" jsonschema:"How many occurrences beyond matches were left out; omitted when none."`

	err error
}

// Error returns the full message of the error the Error was made from.
func (e *Error) Error() string {
	if e.err != nil {
		return e.err.Error()
	}
	return e.Message
}

// Unwrap returns the error the Error was made from.
func (e *Error) Unwrap() error { return e.err }

// AsError returns err as an *Error: err itself when it is one (or wraps
// one), else a new Error with err's code (CodeOf) and the fields err's type
// carries (*chunk.Error, *symbols.LocateError, *textedit.TextEditError). It
// returns nil for nil.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var oe *Error
	if errors.As(err, &oe) {
		return oe
	}
	e := &Error{Code: CodeOf(err), Message: err.Error(), Remedy: remedy.Of(err), err: err}
	var ce *chunk.Error
	var le *symbols.LocateError
	var te *textedit.TextEditError
	var ee *ElidedError
	switch {
	case errors.As(err, &ee):
		e.Chunk = ee.Index
	case errors.As(err, &ce):
		e.Chunk, e.Check, e.Message = ce.Chunk, string(ce.Check), ce.Message
		e.Line, e.Expected, e.Actual, e.Candidates = ce.Line, ce.Expected, ce.Actual, ce.Candidates
		if len(ce.Nearest) > 0 {
			e.Nearest = ce.Nearest
		}
		if ce.Hint != nil {
			e.Hint = ce.Hint
		}
	case errors.As(err, &le):
		var near []Symbol
		for _, s := range le.Candidates {
			e.Candidates = append(e.Candidates, s.Start.Line)
			near = append(near, symbolOf(s))
		}
		for _, s := range le.Nearest {
			near = append(near, symbolOf(s))
		}
		if len(near) > 0 {
			e.Nearest = near
		}
	case errors.As(err, &te):
		// The message is the one paragraph; the listings the full text
		// (Error) prints are fields.
		e.Chunk, e.Message = te.Edit, te.Message
		e.SearchText, e.SearchTextOmitted, e.ExpectedOccurrences, e.ActualOccurrences = te.SearchText, te.SearchTextOmitted, te.Expected, te.Actual
		e.Matches, e.OmittedMatches = te.Locations, te.OmittedLocations
		for _, l := range te.Locations {
			e.Candidates = append(e.Candidates, l.LineNumber)
		}
		if len(te.Similar) > 0 {
			e.Nearest = te.Similar
		}
		if te.Hint != nil {
			e.Hint = te.Hint
		}
		e.SuggestedFixes = te.Fixes
	}
	return e
}

// UsageError is a request that is malformed as a request (a location that
// does not parse, a mode that does not exist): code USAGE.
type UsageError struct {
	// Field is the request's JSON field the error is about ("match",
	// "expect_sha256"), or "" when it is about none: a front end may name
	// the field its own way (the CLI names its flag).
	Field string
	// Msg says what is wrong; with a Field, without the field's name.
	Msg string
}

// Error returns the message, after "FIELD: " when there is a Field.
func (e *UsageError) Error() string {
	if e.Field != "" {
		return e.Field + ": " + e.Msg
	}
	return e.Msg
}

// InputError marks an error in what the caller sent, such as text that
// cannot be placed: code INVALID_INPUT.
type InputError struct{ Err error }

// Error returns the marked error's message.
func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns the error it marks.
func (e *InputError) Unwrap() error { return e.Err }

// ReplaceError is a replace refused for its match count: no match at all
// (NO_MATCH_TEXT) or not the expected number (COUNT, when Count).
type ReplaceError struct {
	Msg     string
	Count   bool
	Similar []SimilarLine
}

// Error returns the message.
func (e *ReplaceError) Error() string { return e.Msg }

// SimilarLine is a line resembling a replace's search text: its file,
// 1-based line, text (cut around the match on long lines) and similarity
// in [0, 1].
type SimilarLine struct {
	Path       string  `json:"path"`
	Line       int     `json:"line"`
	Text       string  `json:"text"`
	Similarity float64 `json:"similarity"`
}

// ElidedError is an edit refused because its new side holds a
// placeholder line where its old side has code (package elision: "// ...
// existing code ...", "# rest of the function unchanged", a bare "..."):
// written as it is, the placeholder would replace that code. Code
// ELIDED; its Remedy sets allow_elision, which writes it anyway.
type ElidedError struct {
	// What names the edit: "chunk", "edit" or "block".
	What string
	// Index is the edit's 1-based index among the request's chunks,
	// edits or the reply's blocks.
	Index int
	// Side names the new side: "new_lines", "new_text", "new lines".
	Side string
	// Line is the placeholder's 1-based line within the new side.
	Line int
	// Text is the placeholder line as sent.
	Text string
}

// Error says which line of which edit is a placeholder, and that nothing
// was written.
func (e *ElidedError) Error() string {
	return fmt.Sprintf("%s %d elides code: line %d of its %s, %q, is a placeholder for code, and the lines it stands for are ones the edit replaces, so writing it would delete them; send the code itself; nothing was written",
		e.What, e.Index, e.Line, e.Side, e.Text)
}

// Remedy returns the request change that writes the placeholder anyway:
// allow_elision set to true.
func (e *ElidedError) Remedy() remedy.Remedy { return remedy.Set(remedy.AllowElision, "true") }

// elided returns the refusal of edit index (a what: "chunk", ...) whose
// new lines (its side) hold a placeholder for code of its old lines
// (elision.Find), or nil.
func elided(what string, index int, side string, old, new []string) *ElidedError {
	e, ok := elision.Find(old, new)
	if !ok {
		return nil
	}
	return &ElidedError{What: what, Index: index, Side: side, Line: e.Index + 1, Text: e.Text}
}

// ApplyError is a reply that was not applied: malformed, without edit
// blocks, or with a block that does not apply (code APPLY). Msg says which
// blocks and why.
type ApplyError struct {
	Msg string
	// code is the code of the refusal when every failed file failed for
	// the same reason that has a code of its own (ELIDED), else "":
	// APPLY.
	code Code
	// remedy is what lets the reply apply: a block's looser match level,
	// or the partial option when some files' blocks all apply; or nil.
	remedy remedy.Remedy
}

// Error returns the message.
func (e *ApplyError) Error() string { return e.Msg }

// Remedy returns the request change that lets the reply apply, or nil.
func (e *ApplyError) Remedy() remedy.Remedy { return e.remedy }

// SyntaxError is a change refused by the syntax guard in strict mode (code
// SYNTAX): the edit adds syntax errors the file did not have.
type SyntaxError struct {
	Path   string
	Report guard.SyntaxReport
}

// Error returns the refusal with the new problems, one per line.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s: the edit adds %d syntax error(s) the file did not have; nothing was written:\n%s",
		e.Path, len(e.Report.New), strings.TrimRight(e.Report.Format(e.Path), "\n"))
}

// Remedy returns the request change that writes the edit anyway, with a
// warning: the check option set to warn. Correcting the new text is the
// other way.
func (e *SyntaxError) Remedy() remedy.Remedy {
	return remedy.Set(remedy.Check, string(guard.CheckWarn))
}

// NotCheckedError is a change refused in strict mode because the syntax
// guard could not check it (too large, timed out): strict mode never
// writes unchecked content. Code NOT_CHECKED.
type NotCheckedError struct {
	Path string
	Err  *guard.NotCheckedError
}

// Error returns why the guard did not check the change.
func (e *NotCheckedError) Error() string {
	return fmt.Sprintf("%s: syntax not checked: %s; nothing was written (strict checking writes only checked content)", e.Path, e.Err.Reason)
}

// Remedy returns the request change that writes the content unchecked,
// with a note: the check option set to warn.
func (e *NotCheckedError) Remedy() remedy.Remedy {
	return remedy.Set(remedy.Check, string(guard.CheckWarn))
}

// Unwrap returns the guard's *guard.NotCheckedError.
func (e *NotCheckedError) Unwrap() error { return e.Err }

// remedied is an error with a remedy of the operation's own, for an error
// from below that carries none (a path outside the root, which naming
// another root lets through).
type remedied struct {
	err    error
	remedy remedy.Remedy
}

func (e *remedied) Error() string         { return e.err.Error() }
func (e *remedied) Unwrap() error         { return e.err }
func (e *remedied) Remedy() remedy.Remedy { return e.remedy }
