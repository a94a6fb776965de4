package ops

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/lang"
)

// LineEdit replaces or inserts whole lines of a LinesRequest
// (edit.LineEdit): StartLine to EndLine, 1-based and inclusive,
// become NewContent; or, with InsertAfter set, NewContent is inserted
// after that 1-based line (0: at the top).
type LineEdit struct {
	StartLine   int    `json:"start_line,omitempty" jsonschema:"The first line replaced, 1-based; give end_line with it, and not insert_after."`
	EndLine     int    `json:"end_line,omitempty" jsonschema:"The last line replaced, 1-based and inclusive (start_line for one line)."`
	InsertAfter *int   `json:"insert_after,omitempty" jsonschema:"Insert new_content after this 1-based line instead of replacing lines; 0 inserts at the top of the file."`
	NewContent  string `json:"new_content" jsonschema:"The new lines, separated by \\n (one final newline adds no empty line); an empty string deletes the lines."`
}

// LineEdits is a LinesRequest's list of line edits. As JSON it is what
// edit.ParseLineEdits reads, strictly: an array of line edits (or
// {"edits": [...]}), each with new_content and either start_line and
// end_line or insert_after; an unknown key, a value of the wrong type, a
// missing new_content, both or neither form, end_line before start_line,
// a line number below 1 or an empty list is an error (*edit.LineEditError,
// code INVALID_INPUT). A list built in Go is held to the same rules when
// the request runs.
type LineEdits []LineEdit

// UnmarshalJSON parses data with edit.ParseLineEdits.
func (l *LineEdits) UnmarshalJSON(data []byte) error {
	list, err := edit.ParseLineEdits(data)
	if err != nil {
		return err
	}
	out := make(LineEdits, len(list))
	for i, e := range list {
		out[i] = LineEdit{StartLine: e.StartLine, EndLine: e.EndLine, InsertAfter: e.InsertAfter, NewContent: e.NewContent}
	}
	*l = out
	return nil
}

// lineEdits checks l by edit.ParseLineEdits's rules (l may have been
// built in Go, not parsed) and returns it as the edit layer's edits.
func (l LineEdits) lineEdits() ([]edit.LineEdit, error) {
	if l == nil {
		l = LineEdits{} // "[]": the parser's "no edits"
	}
	data, err := json.Marshal(l)
	if err != nil {
		return nil, err
	}
	return edit.ParseLineEdits(data)
}

// LinesRequest replaces, inserts or deletes whole lines of one file by
// 1-based number (`symedit lines`, the MCP lines tool, batch op "lines").
type LinesRequest struct {
	// Path is the file, relative to the workspace's Dir (or absolute).
	Path string `json:"path"`
	// Edits all refer to the file as it is; they must not overlap.
	Edits LineEdits `json:"edits" jsonschema:"The line edits; every line number refers to the file as it is now, and edits must not overlap. E.g. [{\"start_line\": 10, \"end_line\": 12, \"new_content\": \"    return x\\n\"}, {\"insert_after\": 0, \"new_content\": \"# header\"}]."`
	WriteOptions
}

// LinesResult is the result of a LinesRequest.
type LinesResult struct {
	Result
	// EditsApplied counts the line edits applied.
	EditsApplied int `json:"edits_applied" jsonschema:"How many line edits were applied."`
}

// Lines applies req's line edits to its file: every line number refers to
// the file as it is, every edit is checked before anything is written,
// then the syntax guard runs and the file is committed atomically (unless
// req.DryRun), under the file's lock. Written lines get the file's line
// ending. The result is never nil. The error is nil or the result's
// *Error: LINE_RANGE (a line past the end, or two edits that overlap),
// INVALID_INPUT (malformed edits), USAGE, SYNTAX, NOT_CHECKED, CHANGED,
// OUTSIDE_ROOT, ERROR, ...
func (w *Workspace) Lines(ctx context.Context, req LinesRequest) (*LinesResult, error) {
	ctx = withOp(ctx, "lines")
	res := &LinesResult{}
	return res, w.writeFile(ctx, req.Path, req.WriteOptions, &res.Result,
		func() error { _, err := req.Edits.lineEdits(); return err },
		func(r resolved) (*edit.Document, error) { return w.readResolved(req.Path, r.res, req.WriteOptions) },
		func(doc *edit.Document) (*change, error) {
			return planLines(doc, language(req.Path, req.Lang), req, res)
		})
}

// planLines computes the change req's line edits make to doc (in memory:
// the file as read, or as a batch's earlier operations left it) and fills
// res's own fields. lang is the guard's language, nil for none.
func planLines(doc *edit.Document, lang *lang.Language, req LinesRequest, res *LinesResult) (*change, error) {
	les, err := req.Edits.lineEdits()
	if err != nil {
		return nil, err
	}
	eds, err := doc.ApplyLineEdits(les)
	if err != nil {
		return nil, err
	}
	content, err := edit.Apply(doc.Content, eds)
	if err != nil {
		return nil, err
	}
	res.EditsApplied = len(les)
	return &change{doc: doc, lang: lang, content: content, edits: eds,
		what: fmt.Sprintf("applied %d line edit(s)", len(les))}, nil
}
