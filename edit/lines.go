package edit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/symedit/symedit/internal/jsontext"
	"github.com/symedit/symedit/internal/lines"
)

// LineEdit replaces or inserts whole lines, as `symedit lines` reads them
// (its line_edits JSON). Line numbers are 1-based and inclusive.
type LineEdit struct {
	// StartLine and EndLine are the first and last lines replaced,
	// inclusive. Both are 0 for an insertion.
	StartLine int `json:"start_line"`
	EndLine   int `json:"end_line"`
	// InsertAfter, when not nil, inserts NewContent after that line
	// without replacing anything (0 inserts at the top of the file).
	InsertAfter *int `json:"insert_after,omitempty"`
	// NewContent is the text written, split into lines at CRLF, LF or CR
	// (one trailing line ending adds no empty line); "" deletes the range.
	NewContent string `json:"new_content"`
}

// ErrLineRange is wrapped by the *LineEditError of ApplyLineEdits for a
// range outside the file or two edits that overlap.
var ErrLineRange = errors.New("bad line range")

// LineEditError is a rejected list of line edits: malformed input (exit 2
// in the CLI) or a range outside the file or overlapping another (a
// rejection). Edit and Other are 1-based indexes into the list.
type LineEditError struct {
	Edit  int    `json:"edit,omitempty"`
	Other int    `json:"other,omitempty"`
	Key   string `json:"key,omitempty"`
	// Lines is the file's line count, for out-of-range errors.
	Lines   int    `json:"lines,omitempty"`
	Message string `json:"message"`
	// Input reports malformed input rather than a rejected edit.
	Input bool `json:"-"`
}

func (e *LineEditError) Error() string { return e.Message }

// Unwrap returns ErrLineRange for rejected edits and nil for malformed
// input.
func (e *LineEditError) Unwrap() error {
	if e.Input {
		return nil
	}
	return ErrLineRange
}

// ParseLineEdits decodes a JSON array of line edits, or {"edits": [...]}.
// Each edit has new_content and either start_line and end_line, or
// insert_after. Text that would not decode as sent (invalid UTF-8, a \u
// escape of a lone surrogate), unknown keys, wrong types, a missing
// new_content, both or
// neither of the two forms, end_line < start_line, or an empty list are a
// *LineEditError with Input set, naming the edit (1-based) and key.
func ParseLineEdits(data []byte) ([]LineEdit, error) {
	raw, err := lineEditList(data)
	if err != nil {
		return nil, err
	}
	out := make([]LineEdit, len(raw))
	for i, r := range raw {
		if out[i], err = parseLineEdit(i+1, r); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// badLineEdits is the *LineEditError (Input set) for malformed line
// edits: edit i (1-based; 0 for the list as a whole), key ("" for none),
// and the message that format and args make.
func badLineEdits(i int, key, format string, args ...any) error {
	k := ""
	if key != "" {
		k = fmt.Sprintf("%q: ", key)
	}
	return &LineEditError{Edit: i, Key: key, Input: true, Message: "invalid line edits: " + editPrefix(i) + k + fmt.Sprintf(format, args...)}
}

// lineEditList returns the undecoded edits of data, a JSON array of
// them or {"edits": [...]} with nothing after it; the error (from
// badLineEdits) is for text that would not decode as sent, JSON of
// another shape, or an empty list.
func lineEditList(data []byte) ([]json.RawMessage, error) {
	data = bytes.TrimSpace(data)
	if err := jsontext.Check(data); err != nil {
		return nil, badLineEdits(0, "", "bad JSON: %v", err)
	}
	var raw []json.RawMessage
	if len(data) > 0 && data[0] == '{' {
		var top struct {
			Edits []json.RawMessage `json:"edits"`
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&top); err != nil {
			return nil, badLineEdits(0, "", "want a JSON array of edits or {\"edits\": [...]}: %v", jsontext.At(data, err))
		}
		if dec.More() {
			return nil, badLineEdits(0, "", "unexpected data after the {\"edits\": [...]} object")
		}
		raw = top.Edits
	} else if err := json.Unmarshal(data, &raw); err != nil {
		return nil, badLineEdits(0, "", "want a JSON array of edits or {\"edits\": [...]}: %v", jsontext.At(data, err))
	}
	if len(raw) == 0 {
		return nil, badLineEdits(0, "", "no edits: the list is empty")
	}
	return raw, nil
}

// parseLineEdit decodes r, edit n (1-based), and checks its keys (the
// first unknown one in sorted order is named), their types, that none
// is null, and that it has one of the two forms with a valid range.
func parseLineEdit(n int, r json.RawMessage) (LineEdit, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(r, &fields); err != nil || fields == nil {
		return LineEdit{}, badLineEdits(n, "", "want an object with start_line, end_line and new_content, or insert_after and new_content")
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch k {
		case "start_line", "end_line", "insert_after", "new_content":
		default:
			return LineEdit{}, badLineEdits(n, k, "unknown key: a line edit has start_line, end_line, insert_after and new_content")
		}
	}
	var le LineEdit
	if err := json.Unmarshal(r, &le); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return LineEdit{}, badLineEdits(n, te.Field, "want %s, got a JSON %s", wantType(te.Field), te.Value)
		}
		return LineEdit{}, badLineEdits(n, "", "%v", err)
	}
	if v, ok := fields["new_content"]; !ok {
		return LineEdit{}, badLineEdits(n, "new_content", "missing (use \"\" to delete the lines)")
	} else if string(bytes.TrimSpace(v)) == "null" {
		return LineEdit{}, badLineEdits(n, "new_content", "want a string, got null (use \"\" to delete the lines)")
	}
	for _, k := range []string{"start_line", "end_line", "insert_after"} {
		if v, ok := fields[k]; ok && string(bytes.TrimSpace(v)) == "null" {
			return LineEdit{}, badLineEdits(n, k, "want an integer, got null")
		}
	}
	if err := checkLineEditForm(n, le, fields); err != nil {
		return LineEdit{}, err
	}
	return le, nil
}

// checkLineEditForm returns the error for edit n (le, decoded from
// fields) that gives both insert_after and a range, or neither, a
// negative insert_after, a start_line below 1, or an end_line before its
// start_line; nil for a well-formed edit.
func checkLineEditForm(n int, le LineEdit, fields map[string]json.RawMessage) error {
	_, hasStart := fields["start_line"]
	_, hasEnd := fields["end_line"]
	switch {
	case le.InsertAfter != nil && (hasStart || hasEnd):
		return badLineEdits(n, "insert_after", "give either insert_after or start_line and end_line, not both")
	case le.InsertAfter != nil:
		if *le.InsertAfter < 0 {
			return badLineEdits(n, "insert_after", "must be 0 (the top of the file) or a 1-based line number")
		}
	case !hasStart || !hasEnd:
		return badLineEdits(n, "start_line", "give start_line and end_line (1-based, inclusive), or insert_after")
	case le.StartLine < 1:
		return badLineEdits(n, "start_line", "must be 1 or more (lines are 1-based), got %d", le.StartLine)
	case le.EndLine < le.StartLine:
		return badLineEdits(n, "end_line", "end_line %d is before start_line %d", le.EndLine, le.StartLine)
	}
	return nil
}

func editPrefix(i int) string {
	if i == 0 {
		return ""
	}
	return fmt.Sprintf("edit %d: ", i)
}

func wantType(field string) string {
	if field == "new_content" {
		return "a string"
	}
	return "an integer"
}

// span is a line edit's place: the half-open range of 0-based line
// indexes it replaces (empty for an insertion).
type span struct {
	i          int // 1-based edit index
	start, end int
}

// ApplyLineEdits turns line edits into byte edits on d.Content, checking
// every edit against the original line numbers first: a line past the end
// (the error gives the file's line count) or two edits that overlap (both
// named; an insertion at the boundary where a replaced range starts counts
// as overlapping, since the order would be a guess) is a *LineEditError
// wrapping ErrLineRange. Written lines get d.EOL, kept lines keep their
// bytes, and the file keeps its final newline (or its absence). The result
// is one byte edit covering the bytes that change.
func (d *Document) ApplyLineEdits(edits []LineEdit) ([]Edit, error) {
	n := d.LineCount()
	spans := make([]span, len(edits))
	for i, le := range edits {
		if le.InsertAfter != nil {
			if *le.InsertAfter > n {
				return nil, &LineEditError{Edit: i + 1, Lines: n, Message: fmt.Sprintf("edit %d: insert_after %d is past the end of %s, which has %d lines", i+1, *le.InsertAfter, d.Path, n)}
			}
			spans[i] = span{i + 1, *le.InsertAfter, *le.InsertAfter}
			continue
		}
		if le.EndLine > n {
			return nil, &LineEditError{Edit: i + 1, Lines: n, Message: fmt.Sprintf("edit %d: lines %d-%d are outside %s, which has %d lines", i+1, le.StartLine, le.EndLine, d.Path, n)}
		}
		spans[i] = span{i + 1, le.StartLine - 1, le.EndLine}
	}
	sorted := append([]span(nil), spans...)
	sort.SliceStable(sorted, func(a, b int) bool { return sorted[a].start < sorted[b].start })
	for k := 1; k < len(sorted); k++ {
		a, b := sorted[k-1], sorted[k]
		if b.start < a.end || b.start == a.start {
			if a.i > b.i {
				a, b = b, a
			}
			return nil, &LineEditError{Edit: b.i, Other: a.i, Message: fmt.Sprintf("edits %d and %d overlap: %s and %s", a.i, b.i, describeSpan(edits[a.i-1]), describeSpan(edits[b.i-1]))}
		}
	}
	return []Edit{d.rebuild(edits, sorted)}, nil
}

// rebuild applies line edits (already checked, sorted by start) to the
// document's lines and returns the one byte edit, from the first byte that
// differs to the last, that turns Content into the result. Lines it keeps
// keep their own endings; lines it writes get d.EOL; the last line of the
// result ends as the original last line did (with or without an ending).
func (d *Document) rebuild(edits []LineEdit, sorted []span) Edit {
	type out struct {
		text   string
		ending string
	}
	var res []out
	ls := d.LineRanges()
	keep := func(from, to int) {
		for k := from; k < to; k++ {
			l := ls[k]
			res = append(res, out{string(d.Text[l.Start:l.End]), string(d.Text[l.End:l.Next])})
		}
	}
	next := 0
	for _, sp := range sorted {
		keep(next, sp.start)
		if c := edits[sp.i-1].NewContent; c != "" {
			for _, l := range SplitText(c) {
				res = append(res, out{l, d.EOL})
			}
		}
		next = sp.end
	}
	keep(next, len(ls))
	if n := len(res); n > 0 {
		if len(ls) > 0 && !d.HasFinalNewline() && res[n-1].text != "" {
			// The file ended without a line ending (an empty last line
			// keeps one: without it, it would not be a line).
			res[n-1].ending = ""
		}
		for k := 0; k < n-1; k++ {
			if res[k].ending == "" {
				res[k].ending = d.EOL // a former last line that is last no more
			}
		}
	}
	var b strings.Builder
	for _, l := range res {
		b.WriteString(l.text)
		b.WriteString(l.ending)
	}
	return minimalEdit(d.Content, len(d.Content)-len(d.Text), b.String())
}

// minimalEdit returns the Edit that turns content into bom+text (bom is
// the length of content's byte order mark), covering only the bytes that
// differ.
func minimalEdit(content []byte, bom int, text string) Edit {
	old := content[bom:]
	p := 0
	for p < len(old) && p < len(text) && old[p] == text[p] {
		p++
	}
	q := 0
	for q < len(old)-p && q < len(text)-p && old[len(old)-1-q] == text[len(text)-1-q] {
		q++
	}
	return Edit{Start: bom + p, End: bom + len(old) - q, New: text[p : len(text)-q]}
}

func describeSpan(le LineEdit) string {
	if le.InsertAfter != nil {
		return fmt.Sprintf("an insertion after line %d", *le.InsertAfter)
	}
	return fmt.Sprintf("lines %d-%d", le.StartLine, le.EndLine)
}

// SplitText splits s into lines at CRLF, LF or lone CR, dropping the
// endings; a single trailing line ending adds no empty line ("a\n" is one
// line, "" is one empty line), as Python's str.splitlines. The chunk
// engine splits its strings by the same rule.
func SplitText(s string) []string { return lines.Split(s) }
