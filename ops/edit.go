package ops

import (
	"context"
	"fmt"
	"strings"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/textedit"
)

// TextEdit is one exact replacement of an EditRequest:
// every occurrence of OldText becomes NewText, provided OldText occurs
// exactly Occurrences times in the text the edit applies to (textedit.TextEdit).
type TextEdit struct {
	// OldText is the exact text to find: not empty, matched literally and
	// case-sensitively; it may span several lines.
	OldText string `json:"old_text" jsonschema:"The exact text to find (not a pattern; may span several lines, indentation included)."`
	// NewText replaces each occurrence; "" deletes.
	NewText string `json:"new_text" jsonschema:"The text written in its place; an empty string deletes old_text."`
	// Occurrences is the number of non-overlapping occurrences expected,
	// all of them replaced; 0 (omitted) means 1.
	Occurrences int `json:"occurrences,omitempty" jsonschema:"How many times old_text must occur; all of them are replaced. Omitted: 1. Another count is refused, listing every match."`
}

// TextEdits is an EditRequest's list of edits. As JSON it is what
// textedit.ParseTextEdits reads, strictly: an array of edit objects (or
// {"edits": [...]}), each with a string old_text (not empty), a string
// new_text and an optional positive integer occurrences; an unknown or
// repeated key, a value of the wrong type, an empty list or more than
// textedit.MaxTextEdits edits is an error (*textedit.TextEditInputError, code
// INVALID_INPUT).
type TextEdits []TextEdit

// UnmarshalJSON parses data with textedit.ParseTextEdits.
func (t *TextEdits) UnmarshalJSON(data []byte) error {
	list, err := textedit.ParseTextEdits(data)
	if err != nil {
		return err
	}
	out := make(TextEdits, len(list))
	for i, e := range list {
		out[i] = TextEdit{OldText: e.OldText, NewText: e.NewText, Occurrences: e.Occurrences}
	}
	*t = out
	return nil
}

// textEdits returns t as the edit layer's edits.
func (t TextEdits) textEdits() []textedit.TextEdit {
	out := make([]textedit.TextEdit, len(t))
	for i, e := range t {
		out[i] = textedit.TextEdit{OldText: e.OldText, NewText: e.NewText, Occurrences: e.Occurrences}
	}
	return out
}

// EditRequest replaces exact text in one file (`symedit edit`, the MCP
// edit tool, batch op "edit").
type EditRequest struct {
	// Path is the file, relative to the workspace's Dir (or absolute).
	Path string `json:"path"`
	// Edits apply in order, each on the result of the one before; all are
	// checked before anything is written.
	Edits TextEdits `json:"edits" jsonschema:"The edits, applied in order, each on the result of the one before; e.g. [{\"old_text\": \"n := 0\", \"new_text\": \"n := 1\"}]."`
	// Match is the loosest match level allowed (match.Parse: exact,
	// trailing, indent, loose); "" means exact. Looser than exact, an
	// old_text holding a line break that is not found literally is matched
	// as whole lines (textedit.ApplyTextEditsLevel).
	Match string `json:"match,omitempty"`
	// AllowElision writes an edit whose new_text holds a placeholder line
	// ("// ... existing code ...") where its old_text has code; without
	// it such an edit is refused (ELIDED).
	AllowElision bool `json:"allow_elision,omitempty" jsonschema:"true: write an edit whose new_text holds a placeholder line such as // ... existing code ... or # rest of the function unchanged where its old_text has code. Omitted or false: such an edit is refused (ELIDED), since the placeholder would delete that code."`
	WriteOptions
}

// EditResult is the result of an EditRequest.
type EditResult struct {
	Result
	// EditsApplied says, for each edit in order, how many occurrences it
	// replaced, their original 1-based lines and the level it matched at.
	EditsApplied []textedit.TextEditSummary `json:"edits_applied,omitempty" jsonschema:"For each edit, in order: how many occurrences it replaced, their original 1-based lines and the level it matched at; omitted when refused."`
	// TotalReplacements is the sum of the edits' occurrences replaced.
	TotalReplacements int `json:"total_replacements" jsonschema:"The sum of the edits' occurrences replaced."`
}

// Edit applies req's exact-text edits to its file: every edit is checked
// (its old_text found exactly occurrences times in the text as the edits
// before it left it) before anything is written, then the syntax guard
// runs and the file is committed atomically (unless req.DryRun), under
// the file's lock. The result is never nil. The error is nil or the
// result's *Error: NO_MATCH (with the most similar places in Nearest and
// SuggestedFixes, and a looser level in Hint), WRONG_COUNT (every match in
// Matches, their lines in Candidates), INVALID_INPUT (malformed edits),
// USAGE, SYNTAX, NOT_CHECKED, CHANGED, OUTSIDE_ROOT, ERROR (no such file,
// binary, ...), ...
func (w *Workspace) Edit(ctx context.Context, req EditRequest) (*EditResult, error) {
	ctx = withOp(ctx, "edit")
	res := &EditResult{}
	return res, w.writeFile(ctx, req.Path, req.WriteOptions, &res.Result,
		func() error { _, err := matchLevel(req.Match, match.Exact); return err },
		func(r resolved) (*edit.Document, error) { return w.readResolved(req.Path, r.res, req.WriteOptions) },
		func(doc *edit.Document) (*change, error) {
			return planEdit(ctx, doc, language(req.Path, req.Lang), req, res)
		})
}

// planEdit computes the change req's edits make to doc (in memory: the
// file as read, or as a batch's earlier operations left it) and fills
// res's own fields. lang is the guard's language, nil for none.
// The searches stop when ctx is done (the error is then cancelled's).
func planEdit(ctx context.Context, doc *edit.Document, lang *lang.Language, req EditRequest, res *EditResult) (*change, error) {
	level, err := matchLevel(req.Match, match.Exact)
	if err != nil {
		return nil, err
	}
	if !req.AllowElision {
		for i, e := range req.Edits {
			if err := elided("edit", i+1, "new_text", match.SplitLines(e.OldText), match.SplitLines(e.NewText)); err != nil {
				return nil, err
			}
		}
	}
	content, out, edits, err := textedit.ApplyDocumentContext(ctx, doc, req.Edits.textEdits(), level)
	if err != nil {
		if ctx.Err() != nil {
			return nil, cancelled(ctx)
		}
		return nil, err
	}
	ch := &change{doc: doc, lang: lang, content: content, edits: edits,
		what: fmt.Sprintf("applied %d edit(s), %d replacement(s)", len(req.Edits), out.TotalReplacements)}
	var already []string
	for _, sum := range out.Edits {
		if sum.AlreadyApplied {
			already = append(already, fmt.Sprintf("edit %d at line %d", sum.Edit, sum.Lines[0]))
		}
	}
	switch {
	case len(already) == len(req.Edits):
		// A retried request: say so, so that no one looks for a change.
		ch.what = fmt.Sprintf("already applied, nothing to write: %d edit(s) already in the file", len(already))
		res.AlreadyApplied = true
	case len(already) > 0:
		ch.what += "; already applied: " + strings.Join(already, ", ")
	}
	// An edit matched looser than exact is named in the summary (the JSON
	// always says, "match" being absent for exact).
	for _, sum := range out.Edits {
		if sum.Match > match.Exact {
			ch.what += fmt.Sprintf("; edit %d at line %d matched at %s", sum.Edit, sum.Lines[0], sum.Describe())
		}
	}
	res.EditsApplied, res.TotalReplacements = out.Edits, out.TotalReplacements
	return ch, nil
}

// checkPath refuses an empty path (USAGE): a request must name its file.
func checkPath(path string) error {
	if path == "" {
		return &UsageError{Msg: "path is empty: name the file to edit"}
	}
	return nil
}
