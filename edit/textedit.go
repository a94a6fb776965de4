package edit

// Exact text edits: the engine of `symedit edit FILE EDITS` (issue 4, seed
// 002). An edit names the exact text it replaces (old_text), its
// replacement (new_text) and how many times old_text must occur
// (occurrences, default 1). Edits apply in order, each to the result of the
// ones before it; every count is checked, and a failure returns an error
// value that shows a model what went wrong and how to fix it.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/symedit/symedit/match"
)

// MaxTextEdits is the largest number of edits that ParseTextEdits and
// ApplyTextEdits accept in one call.
const MaxTextEdits = 1000

// MaxMatchLocations is the largest number of MatchLocations that a
// WRONG_COUNT TextEditError lists; TextEditError.OmittedLocations counts the
// rest. TextEditError.Error prints at most the first 50.
const MaxMatchLocations = 1000

// maxSimilar is the largest number of SimilarContent entries in an error.
const maxSimilar = 5

// similarFloor is the lowest similarity that SimilarContent reports.
const similarFloor = 0.5

// Types of TextEditError, as printed in its "type" JSON field.
const (
	// TextEditNoMatch: old_text occurs nowhere in the text the edit
	// applies to.
	TextEditNoMatch = "NO_MATCH"
	// TextEditWrongCount: old_text occurs, but not Occurrences times.
	TextEditWrongCount = "WRONG_COUNT"
)

// Sentinel errors: a *TextEditError unwraps to exactly one of them, by its
// Type, so that callers can test with errors.Is.
var (
	// ErrTextNoMatch is wrapped by a TextEditNoMatch *TextEditError.
	ErrTextNoMatch = errors.New("old_text not found")
	// ErrTextWrongCount is wrapped by a TextEditWrongCount *TextEditError.
	ErrTextWrongCount = errors.New("old_text found a different number of times than expected")
)

// Kinds of StringDiff, as printed in its "type" JSON field. They are tried
// in this order on the differing fragments: the first whose normalisation
// makes them equal names the difference; else the smallest combination of
// the first three that does gives one StringDiff per kind, with the same
// fragments (`"Cannot` against `'cannot`: case and punctuation); else
// content.
const (
	// TextDiffWhitespace: equal once all white space is removed.
	TextDiffWhitespace = "whitespace"
	// TextDiffCase: equal under Unicode case folding (strings.EqualFold).
	TextDiffCase = "case"
	// TextDiffPunctuation: equal once punctuation and quotes are removed.
	TextDiffPunctuation = "punctuation"
	// TextDiffContent: anything else.
	TextDiffContent = "content"
)

// Types of SuggestedFix, as printed in its "type" JSON field.
const (
	// TextFixUseExactText: copy old_text from the file as it is, or add
	// context to it.
	TextFixUseExactText = "USE_EXACT_TEXT"
	// TextFixCheckWhitespace: indentation, tabs against spaces, line
	// breaks, line endings.
	TextFixCheckWhitespace = "CHECK_WHITESPACE"
	// TextFixAdjustCount: set occurrences to the number found.
	TextFixAdjustCount = "ADJUST_COUNT"
	// TextFixEscapeSpecial: old_text is literal; drop regular-expression
	// syntax or doubled escapes.
	TextFixEscapeSpecial = "ESCAPE_SPECIAL"
	// TextFixMatchLevel: old_text matches exactly one place at a looser
	// match level than allowed; the flag (--match LEVEL) accepts it.
	TextFixMatchLevel = "ALLOW_MATCH_LEVEL"
)

// TextEdit is one exact replacement: every occurrence of OldText in the
// text it applies to becomes NewText, provided OldText occurs exactly
// Occurrences times.
type TextEdit struct {
	// OldText is the exact text to find: not empty, matched literally (no
	// regular expressions, no escapes), case-sensitively.
	OldText string `json:"old_text"`
	// NewText replaces each occurrence; "" deletes.
	NewText string `json:"new_text"`
	// Occurrences is the number of non-overlapping occurrences expected
	// (counted left to right, like strings.Count). ParseTextEdits sets it
	// to 1 when the key is absent; ApplyTextEdits reads 0 as 1 and refuses
	// a negative value.
	Occurrences int `json:"occurrences"`
}

// TextEditInputError is a malformed edit list: bad JSON, an unknown or
// repeated key, a value of the wrong type, a missing old_text or new_text,
// an empty old_text, an occurrences that is not a positive integer, an
// empty list, or more than MaxTextEdits edits. It is an input error (exit 2
// in the CLI), not a rejected edit.
type TextEditInputError struct {
	// Edit is the 1-based index of the offending edit, or 0 when the
	// problem is with the input as a whole.
	Edit int `json:"edit,omitempty"`
	// Key is the offending key, or "".
	Key string `json:"key,omitempty"`
	// Msg says what is wrong and what was expected.
	Msg string `json:"message"`
}

// Error returns `invalid edits: edit N: "key": message`, leaving out the
// edit and the key when they are not set.
func (e *TextEditInputError) Error() string {
	var b strings.Builder
	b.WriteString("invalid edits: ")
	if e.Edit > 0 {
		fmt.Fprintf(&b, "edit %d: ", e.Edit)
	}
	if e.Key != "" {
		fmt.Fprintf(&b, "%q: ", e.Key)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// MatchLocation is one occurrence of old_text, in a WRONG_COUNT error.
//
// LineNumber and EndLineNumber are 1-based lines of the ORIGINAL text (the
// text given to ApplyTextEdits), even when earlier edits have added or
// removed lines. LineContent, the contexts and the columns describe the line
// as the failing edit sees it, after the earlier edits; where no earlier
// edit touched the line, that is the original line.
type MatchLocation struct {
	// LineNumber is the original 1-based line where the match starts. A
	// match that starts inside text inserted by an earlier edit gets the
	// original line where that edit's replacement starts (see InsertedBy).
	LineNumber int `json:"line_number"`
	// EndLineNumber is LineNumber plus the line breaks inside the match:
	// equal to LineNumber for a match within one line.
	EndLineNumber int `json:"end_line_number"`
	// ColumnStart is the 1-based byte column of the match's first byte in
	// LineContent.
	ColumnStart int `json:"column_start"`
	// ColumnEnd is the 1-based byte column just past the match's last byte
	// (exclusive), on the match's last line. A line break counts as one
	// byte in a text with uniform line endings (they are matched as LF), so
	// a match that ends with one has ColumnEnd len(that line) + 2.
	ColumnEnd int `json:"column_end"`
	// LineContent is the full line holding the match's first byte, without
	// its line ending.
	LineContent string `json:"line_content"`
	// ContextBefore and ContextAfter are the lines before and after
	// LineContent ("" at the text's first or last line, or when that line
	// is empty).
	ContextBefore string `json:"context_before,omitempty"`
	ContextAfter  string `json:"context_after,omitempty"`
	// InsertedBy is the 1-based index of the earlier edit whose new_text
	// holds the match's first byte, or 0 when it is original text.
	InsertedBy int `json:"inserted_by,omitempty"`
}

// StringDiff is one difference between old_text and the similar text found
// in the file.
type StringDiff struct {
	// Type is TextDiffWhitespace, TextDiffCase, TextDiffPunctuation or
	// TextDiffContent.
	Type string `json:"type"`
	// Expected is the fragment of old_text around the difference, Found the
	// text in the file at the same place, both widened for readability: to
	// the whole word when the difference is inside one, else to the
	// neighbouring word or punctuation mark (at most 30 runes each side).
	Expected string `json:"expected"`
	Found    string `json:"found"`
}

// SimilarContent is a place in the text that resembles old_text, in a
// NO_MATCH error (or a WRONG_COUNT error that found fewer occurrences than
// expected). A single-line old_text is compared with each line; an old_text
// of N lines with each window of N consecutive lines.
type SimilarContent struct {
	// LineNumber is the original 1-based line of the place's first line
	// (see MatchLocation for lines after earlier edits).
	LineNumber int `json:"line_number"`
	// EndLineNumber is its last line: LineNumber + N - 1.
	EndLineNumber int `json:"end_line_number"`
	// Content is the line, or the N lines joined by "\n", as the failing
	// edit sees them, without line endings.
	Content string `json:"content"`
	// Match is the part of Content that lines up with old_text: what
	// old_text would have to be to match here. It ends with a line break
	// when old_text does.
	Match string `json:"match"`
	// SimilarityScore is 0 to 1: the ratio of github.com/pmezard/go-difflib's
	// SequenceMatcher between old_text and Match, over runes (2*M/T, M
	// matching runes, T runes in both), rounded to two decimals. For an
	// old_text of several lines and over 2,000 runes, M and T are summed
	// over the pairs of lines (old_text's line i against the place's line
	// i), which keeps the search linear.
	SimilarityScore float64 `json:"similarity_score"`
	// Differences lists what differs, in order, at most 5.
	Differences []StringDiff `json:"differences"`
	// InsertedBy is the 1-based index of the earlier edit whose new_text
	// holds the place's first byte, or 0.
	InsertedBy int `json:"inserted_by,omitempty"`
}

// SuggestedFix is one way to correct the failing edit.
type SuggestedFix struct {
	// Type is TextFixUseExactText, TextFixCheckWhitespace,
	// TextFixAdjustCount or TextFixEscapeSpecial.
	Type string `json:"type"`
	// Suggestion says what to do, in a sentence or two.
	Suggestion string `json:"suggestion"`
	// Example is a JSON fragment of a corrected edit, or "".
	Example string `json:"example,omitempty"`
}

// TextEditError is a rejected edit list: one edit's old_text occurs a
// different number of times than expected in the text it applies to (the
// original text after the edits before it). Nothing was applied. Its fields
// feed both the CLI's text (Error) and its JSON.
type TextEditError struct {
	// Type is TextEditNoMatch (no occurrence) or TextEditWrongCount.
	Type string `json:"type"`
	// Edit is the 1-based index of the failing edit (the seed's 0-based
	// edit_index plus one). The edits after it were not checked: they
	// would apply to a text that will never exist.
	Edit int `json:"edit"`
	// Total is the number of edits requested.
	Total int `json:"total_edits"`
	// Message is a one-paragraph explanation, without the listings.
	Message string `json:"message"`
	// SearchText is old_text as it was searched for: with LF line endings
	// when the text's line endings are uniform (see ApplyTextEdits).
	SearchText string `json:"search_text"`
	// Expected is the edit's occurrences, Actual the number found.
	Expected int `json:"expected_occurrences"`
	Actual   int `json:"actual_occurrences"`
	// Locations lists every occurrence (WRONG_COUNT), at most
	// MaxMatchLocations, in text order.
	Locations []MatchLocation `json:"match_locations,omitempty"`
	// OmittedLocations is the number of occurrences beyond
	// MaxMatchLocations.
	OmittedLocations int `json:"omitted_locations,omitempty"`
	// Similar lists the places most similar to old_text, best first, at
	// most 5, each with similarity at least 0.5 (NO_MATCH, or WRONG_COUNT
	// with fewer occurrences than expected; places that hold an occurrence
	// are left out).
	Similar []SimilarContent `json:"similar_content,omitempty"`
	// Hint, for a NO_MATCH error, is the one place where old_text, as
	// whole lines, matches at the first looser level than allowed with any
	// match (see ApplyTextEditsLevel), or nil. Its Line is an original
	// 1-based line number.
	Hint *match.Hint `json:"hint,omitempty"`
	// Fixes are the suggested corrections, most specific first.
	Fixes []SuggestedFix `json:"suggested_fixes"`
}

// Error renders the error for a model: "edit I of N failed", the searched
// text between >>> and <<< markers, the occurrences or the similar places
// with their line numbers and what differs, and numbered suggestions.
func (e *TextEditError) Error() string {
	var b strings.Builder
	b.WriteString(e.Message)
	b.WriteString("\n\nSearched for (between the >>> and <<< markers):\n>>>")
	b.WriteString(e.SearchText)
	b.WriteString("<<<\n")
	if len(e.Locations) > 0 {
		fmt.Fprintf(&b, "\nFound %d %s at (original line numbers, byte columns):\n", e.Actual, tePlural(e.Actual, "occurrence", "occurrences"))
		const shown = 50
		for i, l := range e.Locations {
			if i == shown {
				fmt.Fprintf(&b, "  ... and %d more\n", e.Actual-shown)
				break
			}
			fmt.Fprintf(&b, "  line %d, column %d: %s", l.LineNumber, l.ColumnStart, teClip(l.LineContent, l.ColumnStart-1, 120))
			if l.InsertedBy > 0 {
				fmt.Fprintf(&b, "  (in text inserted by edit %d)", l.InsertedBy)
			}
			b.WriteByte('\n')
		}
		if e.OmittedLocations > 0 && len(e.Locations) <= shown {
			fmt.Fprintf(&b, "  ... and %d more\n", e.OmittedLocations)
		}
	}
	if len(e.Similar) > 0 {
		b.WriteString("\nThe text has similar content (original line numbers):\n")
		for _, s := range e.Similar {
			if s.EndLineNumber > s.LineNumber {
				fmt.Fprintf(&b, "\nLines %d-%d (similarity %.2f):\n", s.LineNumber, s.EndLineNumber, s.SimilarityScore)
				lines := strings.Split(s.Content, "\n")
				for i, l := range lines {
					if len(lines) > 12 && i == 5 {
						fmt.Fprintf(&b, "  ... (%d more lines)\n", len(lines)-10)
					}
					if len(lines) <= 12 || i < 5 || i >= len(lines)-5 {
						fmt.Fprintf(&b, "  %5d: %s\n", s.LineNumber+i, teClip(l, 0, 160))
					}
				}
			} else {
				at := max(0, strings.Index(s.Content, s.Match))
				fmt.Fprintf(&b, "\nLine %d (similarity %.2f): %s\n", s.LineNumber, s.SimilarityScore, teClip(s.Content, at, 160))
			}
			if s.InsertedBy > 0 {
				fmt.Fprintf(&b, "  (in text inserted by edit %d)\n", s.InsertedBy)
			}
			for _, d := range s.Differences {
				fmt.Fprintf(&b, "  Difference (%s): %s\n", d.Type, teDescribeDiff(d))
			}
		}
	} else if e.Type == TextEditNoMatch {
		b.WriteString("\nNothing in the text is similar to old_text (no place with similarity 0.5 or more).\n")
	}
	if len(e.Fixes) > 0 {
		b.WriteString("\nSuggestions:\n")
		for i, f := range e.Fixes {
			fmt.Fprintf(&b, "%d. %s\n", i+1, f.Suggestion)
			if f.Example != "" {
				fmt.Fprintf(&b, "   Example: %s\n", f.Example)
			}
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// Unwrap returns ErrTextNoMatch or ErrTextWrongCount, by Type.
func (e *TextEditError) Unwrap() error {
	if e.Type == TextEditWrongCount {
		return ErrTextWrongCount
	}
	return ErrTextNoMatch
}

func teDescribeDiff(d StringDiff) string {
	what := map[string]string{
		TextDiffWhitespace:  "white space differs",
		TextDiffCase:        "letter case differs",
		TextDiffPunctuation: "punctuation or quotes differ",
		TextDiffContent:     "the text differs",
	}[d.Type]
	return fmt.Sprintf("%s: old_text has %s, the file has %s", what, strconv.Quote(d.Expected), strconv.Quote(d.Found))
}

// TextEditSummary says what one edit replaced.
type TextEditSummary struct {
	// Edit is the 1-based index of the edit.
	Edit int `json:"edit"`
	// OccurrencesReplaced is the number of occurrences replaced: the
	// edit's Occurrences.
	OccurrencesReplaced int `json:"occurrences_replaced"`
	// Lines are the original 1-based line numbers of the first line of
	// each replaced occurrence, in text order (for an occurrence inside
	// text inserted by an earlier edit: the line where that edit's
	// replacement starts).
	Lines []int `json:"lines"`
	// Match is the level old_text matched at; the JSON leaves it out for
	// match.Exact (the only level of a literal match), so an absent
	// "match" means exact.
	Match match.Level `json:"match,omitempty"`
	// Offset is the indentation offset of the first occurrence, for the
	// levels indent and loose (new_text was shifted by it), else nil.
	Offset *match.Offset `json:"offset,omitempty"`
}

// Describe returns the level the edit matched at, with the offset for
// indent and loose: "exact", "indent +4 spaces".
func (s TextEditSummary) Describe() string {
	if s.Offset == nil {
		return s.Match.String()
	}
	return match.Describe(s.Match, *s.Offset)
}

// TextEditResult is the outcome of ApplyTextEdits.
type TextEditResult struct {
	// Text is the new text, with the same line endings as the input where
	// it was not edited. It is not part of the JSON: the CLI prints a diff.
	Text string `json:"-"`
	// Edits summarises each edit, in order.
	Edits []TextEditSummary `json:"edits_applied"`
	// TotalReplacements is the sum of the edits' OccurrencesReplaced.
	TotalReplacements int `json:"total_replacements"`
}

// ParseTextEdits decodes an edit list: a JSON array of edit objects, or an
// object {"edits": [...]}. Each edit has a string "old_text" (required, not
// empty), a string "new_text" (required, "" deletes) and an optional
// "occurrences", a positive integer literal (1 when absent). The parsing is
// strict: the error is a *TextEditInputError, naming the edit (1-based) and
// the key, for malformed JSON, a non-object edit, an unknown or repeated
// key, a value of the wrong type (null included), a missing or empty
// old_text, a missing new_text, an occurrences that is 0, negative,
// fractional or not a number, an empty list, and more than MaxTextEdits
// edits.
func ParseTextEdits(data []byte) ([]TextEdit, error) {
	const want = `want a JSON array of edits or {"edits": [...]}`
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, &TextEditInputError{Msg: "empty input: " + want}
	}
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		return nil, &TextEditInputError{Msg: "bad JSON: " + err.Error() + ": " + want}
	}
	list := json.RawMessage(data)
	key := ""
	if data[0] == '{' {
		fields, _ := teObjectFields(data)
		list = nil
		for _, f := range fields {
			if f.key != "edits" {
				return nil, &TextEditInputError{Key: f.key, Msg: "unknown top-level key: " + want}
			}
			if list != nil {
				return nil, &TextEditInputError{Key: f.key, Msg: "repeated key: give the list once"}
			}
			list = f.val
		}
		if list == nil {
			return nil, &TextEditInputError{Msg: `missing "edits": ` + want}
		}
		key = "edits"
	}
	var raw []json.RawMessage
	if list[0] != '[' || json.Unmarshal(list, &raw) != nil {
		return nil, &TextEditInputError{Key: key, Msg: want + ", got " + teAbbrev(list)}
	}
	switch {
	case len(raw) == 0:
		return nil, &TextEditInputError{Key: key, Msg: "no edits: the list is empty"}
	case len(raw) > MaxTextEdits:
		return nil, &TextEditInputError{Key: key, Msg: fmt.Sprintf("%d edits: at most %d per call; split them into several calls", len(raw), MaxTextEdits)}
	}
	edits := make([]TextEdit, len(raw))
	for i, r := range raw {
		te, err := teParseOne(r)
		if err != nil {
			err.Edit = i + 1
			return nil, err
		}
		edits[i] = te
	}
	return edits, nil
}

type teField struct {
	key string
	val json.RawMessage
}

// teObjectFields returns the keys and values of a valid JSON object in
// order, repeats included; ok is false if data is not an object.
func teObjectFields(data []byte) (fields []teField, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		fields = append(fields, teField{key: tok.(string), val: v})
	}
	return fields, true
}

const teKeys = "old_text, new_text and occurrences"

func teParseOne(r json.RawMessage) (TextEdit, *TextEditInputError) {
	fields, ok := teObjectFields(r)
	if !ok {
		return TextEdit{}, &TextEditInputError{Msg: `want an object {"old_text": "...", "new_text": "...", "occurrences": N}, got ` + teAbbrev(r)}
	}
	te := TextEdit{Occurrences: 1}
	seen := map[string]bool{}
	for _, f := range fields {
		if seen[f.key] {
			return te, &TextEditInputError{Key: f.key, Msg: "repeated key: give each key once"}
		}
		seen[f.key] = true
		switch f.key {
		case "old_text", "new_text":
			var s string
			if len(f.val) == 0 || f.val[0] != '"' || json.Unmarshal(f.val, &s) != nil {
				return te, &TextEditInputError{Key: f.key, Msg: "want a string, got " + teAbbrev(f.val)}
			}
			if f.key == "new_text" {
				te.NewText = s
				continue
			}
			if s == "" {
				return te, &TextEditInputError{Key: f.key, Msg: "old_text is empty: an edit must name the exact text it replaces; to insert, put the neighbouring text in both old_text and new_text"}
			}
			te.OldText = s
		case "occurrences":
			n, ok := tePositiveInt(f.val)
			if !ok {
				return te, &TextEditInputError{Key: f.key, Msg: "want a positive integer (1 or more; 1 when absent), got " + teAbbrev(f.val)}
			}
			te.Occurrences = n
		default:
			msg := "unknown key: an edit has only " + teKeys
			if hint := teKeyHint(f.key); hint != "" {
				msg += "; did you mean " + strconv.Quote(hint) + "?"
			}
			return te, &TextEditInputError{Key: f.key, Msg: msg}
		}
	}
	for _, k := range []string{"old_text", "new_text"} {
		if !seen[k] {
			return te, &TextEditInputError{Key: k, Msg: `missing: every edit needs old_text and new_text (new_text "" deletes)`}
		}
	}
	return te, nil
}

// tePositiveInt accepts a JSON integer literal of 1 or more that fits an
// int: no sign, fraction, exponent or quotes.
func tePositiveInt(v json.RawMessage) (int, bool) {
	s := string(v)
	if s == "" || s[0] < '1' || s[0] > '9' {
		return 0, false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// teKeyHint names the key that an unknown key probably meant, or "".
func teKeyHint(k string) string {
	n := strings.ToLower(strings.NewReplacer("_", "", "-", "", " ", "").Replace(k))
	switch n {
	case "oldtext", "oldstring", "oldstr", "old", "search", "searchtext", "find", "from", "before", "original", "target":
		return "old_text"
	case "newtext", "newstring", "newstr", "new", "replace", "replacement", "replacewith", "to", "after", "text":
		return "new_text"
	case "occurrence", "count", "expectedoccurrences", "expectedreplacements", "replacements", "replaceall", "times", "n", "expected":
		return "occurrences"
	}
	return ""
}

func teAbbrev(b []byte) string {
	const max = 60
	s := string(bytes.TrimSpace(b))
	if len(s) > max {
		i := max
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		s = s[:i] + "..."
	}
	return s
}

// teCheckEdits validates edits built in Go rather than by ParseTextEdits.
func teCheckEdits(edits []TextEdit) error {
	switch {
	case len(edits) == 0:
		return &TextEditInputError{Msg: "no edits: the list is empty"}
	case len(edits) > MaxTextEdits:
		return &TextEditInputError{Msg: fmt.Sprintf("%d edits: at most %d per call; split them into several calls", len(edits), MaxTextEdits)}
	}
	for i, e := range edits {
		if e.OldText == "" {
			return &TextEditInputError{Edit: i + 1, Key: "old_text", Msg: "old_text is empty: an edit must name the exact text it replaces; to insert, put the neighbouring text in both old_text and new_text"}
		}
		if e.Occurrences < 0 {
			return &TextEditInputError{Edit: i + 1, Key: "occurrences", Msg: fmt.Sprintf("want a positive integer (1 or more; 0 means 1), got %d", e.Occurrences)}
		}
	}
	return nil
}

// ApplyTextEdits applies edits to text, in order, each to the result of the
// ones before it, and returns the new text with a summary. It is pure: it
// reads and writes no file (the caller commits), and text is a file's text
// without its byte order mark (Document.Text).
//
// Each edit's old_text is matched literally (no regular expressions, no
// escapes, case-sensitive) and counted as strings.Count counts:
// non-overlapping occurrences from left to right ("aaa" occurs once in
// "aaaa"). If the count differs from Occurrences (0 meaning 1), the call is
// rejected with a *TextEditError (wrapping ErrTextNoMatch when there is no
// occurrence, else ErrTextWrongCount) that names the first failing edit; on
// success every occurrence is replaced by new_text. All edits are checked
// before anything is returned, and a rejected call returns a zero
// TextEditResult.
//
// eol is the text's dominant line ending (LF, CRLF or CR, as Document.EOL
// gives it; "" detects it with DetectEOL). When every line ending in text is
// eol (a uniform text), matching happens on a copy with LF endings,
// old_text and new_text have their CRLF and lone CR endings turned into LF,
// and the result gets eol back: a CRLF file edited with LF old_text and
// new_text matches and stays CRLF, and every byte outside the replaced
// occurrences is kept. When text mixes line endings, old_text and new_text
// are matched and written byte for byte as given, so old_text must carry
// the file's exact ending at each line break it spans.
//
// Line numbers in the summary and in errors are 1-based lines of text
// (counted as Document counts them), even for an edit that applies after
// others have added or removed lines.
//
// The errors are a *TextEditInputError for an empty list, more than
// MaxTextEdits edits, an empty old_text or a negative Occurrences; a
// *TextEditError for a rejected edit; and a plain error for an eol that is
// not LF, CRLF, CR or "".
//
// Each edit costs one search of the current text (for a call of more than
// four edits, a scan for the pattern's rarest byte) and, when it applies,
// one copy of it: O(edits × len(text)) time, about 70 ms for 1,000 edits
// on 1 MB (BenchmarkApplyTextEdits1000), and memory for a few copies of
// the text. Line numbers come from one index of the original text's line
// starts, and map back through the list of replacements applied. The
// search for similar places that a NO_MATCH error reports has a fixed
// budget (see similar).
func ApplyTextEdits(text, eol string, edits []TextEdit) (TextEditResult, error) {
	return ApplyTextEditsLevel(text, eol, edits, match.Exact)
}

// ApplyTextEditsLevel is ApplyTextEdits with allowed as the loosest match
// level (package match; ApplyTextEdits is allowed = match.Exact).
//
// Each edit's old_text is first matched literally, as ApplyTextEdits does:
// that is the level exact, and it is the only level for an old_text
// without a line break (which may be part of a line; end it with a line
// break to match one whole line at a looser level). When the literal
// search finds nothing, old_text holds a line break and allowed is looser
// than exact, old_text is matched as a sequence of whole lines
// (match.Search from trailing up to allowed): split at its line breaks, one
// final line break dropped; a line-break-terminated old_text replaces the
// matched lines with their line endings, one without replaces them up to
// the last line's ending. Occurrences (non-overlapping, top to bottom) are
// counted at the first level with any match, and a looser level never
// breaks a count at a stricter one. At indent and loose, new_text's lines
// are shifted by each occurrence's indentation offset (match.Reindent),
// written in the file's indentation style. The summary says the level and
// the offset of each edit.
//
// When no allowed level finds old_text but, as whole lines, the first
// looser level with any match finds exactly one place, the NO_MATCH
// *TextEditError says so in its message, in Hint and as an
// ALLOW_MATCH_LEVEL suggested fix naming the flag.
func ApplyTextEditsLevel(text, eol string, edits []TextEdit, allowed match.Level) (TextEditResult, error) {
	if err := teCheckEdits(edits); err != nil {
		return TextEditResult{}, err
	}
	if eol == "" {
		eol = DetectEOL([]byte(text))
	}
	if eol != LF && eol != CRLF && eol != CR {
		return TextEditResult{}, fmt.Errorf("edit: ApplyTextEdits: line ending %q is not LF, CRLF or CR", eol)
	}
	e := newTextEngine(text, eol)
	if len(edits) > 4 && len(e.orig) > 4096 {
		e.freq = new([256]int)
		for _, c := range e.orig {
			e.freq[c]++
		}
	}
	res := TextEditResult{Edits: make([]TextEditSummary, 0, len(edits))}
	for i, te := range edits {
		old, repl := te.OldText, te.NewText
		if e.uniform {
			old, repl = teToLF(old), teToLF(repl)
		}
		want := max(te.Occurrences, 1)
		matches := e.find(old)
		sum := TextEditSummary{Edit: i + 1, OccurrencesReplaced: len(matches)}
		var lens []int
		var repls []string
		if len(matches) == 0 && allowed > match.Exact && teWholeLines(old) {
			lm := e.findLines(old, allowed)
			if len(lm.ms) > 0 {
				if len(lm.ms) != want {
					err := e.failure(i+1, len(edits), te, old, want, lm.offsets())
					err.Message = strings.TrimSuffix(err.Message, ".") + fmt.Sprintf(" (old_text matched as whole lines at level %s).", lm.level)
					return TextEditResult{}, err
				}
				var err error
				matches, lens, repls, err = e.lineReplacements(lm, repl)
				if err != nil {
					return TextEditResult{}, fmt.Errorf("edit %d of %d failed: %w", i+1, len(edits), err)
				}
				sum.OccurrencesReplaced, sum.Match = len(matches), lm.level
				if lm.level >= match.Indent {
					o := lm.ms[0].Offset
					sum.Offset = &o
				}
			}
		}
		if len(matches) != want {
			err := e.failure(i+1, len(edits), te, old, want, matches)
			if len(matches) == 0 && teWholeLines(old) {
				e.addHint(err, old, allowed)
			}
			return TextEditResult{}, err
		}
		if lens == nil {
			lens, repls = make([]int, len(matches)), make([]string, len(matches))
			for j := range matches {
				lens[j], repls[j] = len(old), repl
			}
		}
		origs := e.replace(i+1, matches, lens, repls)
		sum.Lines = make([]int, len(origs))
		for j, o := range origs {
			sum.Lines[j] = e.origLine(o)
		}
		res.Edits = append(res.Edits, sum)
		res.TotalReplacements += len(matches)
	}
	res.Text = e.output()
	return res, nil
}

// ApplyTextEdits applies edits to d.Text as the package-level
// ApplyTextEdits does, with d.EOL, and returns the new file content with
// d's byte order mark kept (ready for Diff and Commit), and the summary.
// The errors are ApplyTextEdits's.
func (d *Document) ApplyTextEdits(edits []TextEdit) ([]byte, TextEditResult, error) {
	res, err := ApplyTextEdits(string(d.Text), d.EOL, edits)
	if err != nil {
		return nil, TextEditResult{}, err
	}
	out := make([]byte, 0, len(d.Content)-len(d.Text)+len(res.Text))
	out = append(out, d.Content[:len(d.Content)-len(d.Text)]...)
	return append(out, res.Text...), res, nil
}

// teToLF turns CRLF and lone CR line endings into LF.
func teToLF(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// teSegment is a stretch of the current text, from cur to the next
// segment's cur. by == 0: original text starting at original offset orig.
// by > 0: new_text written by edit by, in place of original text starting
// at orig.
type teSegment struct {
	cur, orig, by int
}

// teRemoval is a stretch of original text [start, end) that edit by
// replaced.
type teRemoval struct {
	start, end, by int
}

type textEngine struct {
	eol     string
	uniform bool   // matching on an LF copy
	sep     byte   // the line separator in orig and cur: '\n', or '\r' for a mixed CR text
	orig    []byte // the original text (LF copy when uniform); never modified
	starts  []int  // offsets of orig's line starts
	cur     []byte // the current text
	bufs    [2][]byte
	segs    []teSegment // the current text's segments, in order
	segBufs [2][]teSegment
	removed []teRemoval
	freq    *[256]int // byte frequencies of orig, or nil (see find)
}

func newTextEngine(text, eol string) *textEngine {
	e := &textEngine{eol: eol, sep: '\n'}
	switch eol {
	case LF:
		e.uniform = !strings.Contains(text, "\r")
	case CRLF:
		n := strings.Count(text, "\r\n")
		e.uniform = strings.Count(text, "\r") == n && strings.Count(text, "\n") == n
	case CR:
		e.uniform = !strings.Contains(text, "\n")
	}
	switch {
	case !e.uniform:
		e.orig = []byte(text)
		if eol == CR {
			e.sep = '\r'
		}
	case eol == CRLF:
		e.orig = make([]byte, 0, len(text))
		for i := 0; i < len(text); {
			j := strings.IndexByte(text[i:], '\r')
			if j < 0 {
				e.orig = append(e.orig, text[i:]...)
				break
			}
			e.orig = append(e.orig, text[i:i+j]...)
			i += j + 1
		}
	case eol == CR:
		e.orig = []byte(text)
		for i, c := range e.orig {
			if c == '\r' {
				e.orig[i] = '\n'
			}
		}
	default:
		e.orig = []byte(text)
	}
	e.cur = e.orig
	e.starts = append(e.starts, 0)
	for i := 0; ; {
		j := bytes.IndexByte(e.orig[i:], e.sep)
		if j < 0 || i+j+1 == len(e.orig) {
			break
		}
		i += j + 1
		e.starts = append(e.starts, i)
	}
	if len(e.orig) > 0 {
		e.segs = []teSegment{{cur: 0, orig: 0, by: 0}}
	}
	return e
}

// find returns the offsets of old's non-overlapping occurrences in cur,
// from left to right as strings.Count counts them.
//
// With byte frequencies (set for calls with several edits), it scans for
// the pattern's rarest byte with bytes.IndexByte and checks each candidate:
// much faster than bytes.Index on source code, where a pattern's first
// byte is often common (a space, a tab, '/'). Too many failed candidates
// fall back to bytes.Index.
func (e *textEngine) find(old string) []int {
	var out []int
	pat := []byte(old)
	cur := e.cur
	pos := 0
	if e.freq != nil && len(pat) > 1 {
		r := 0
		for i := range pat {
			if e.freq[pat[i]] < e.freq[pat[r]] {
				r = i
			}
		}
		last := len(cur) - len(pat) // the last possible start
		for fails, scanned := 0, 0; pos <= last; {
			j := bytes.IndexByte(cur[pos+r:last+r+1], pat[r])
			if j < 0 {
				return out
			}
			start := pos + j
			scanned += j + 1
			if bytes.Equal(cur[start:start+len(pat)], pat) {
				out = append(out, start)
				pos = start + len(pat)
				continue
			}
			pos = start + 1
			if fails++; fails > 16+scanned/32 {
				break // the byte is not rare here: let bytes.Index go on
			}
		}
	}
	for pos <= len(cur)-len(pat) {
		i := bytes.Index(cur[pos:], pat)
		if i < 0 {
			break
		}
		out = append(out, pos+i)
		pos += i + len(pat)
	}
	return out
}

// segEnd returns the end of segment i of segs in a text of length n.
func teSegEnd(segs []teSegment, i, n int) int {
	if i+1 < len(segs) {
		return segs[i+1].cur
	}
	return n
}

// locate maps offset x of the current text (x < len(cur)) to an original
// offset and the edit that inserted the byte there (0: original text).
func (e *textEngine) locate(x int) (orig, by int) {
	i := sort.Search(len(e.segs), func(i int) bool { return e.segs[i].cur > x }) - 1
	if i < 0 {
		return 0, 0
	}
	s := e.segs[i]
	if s.by == 0 {
		return s.orig + x - s.cur, 0
	}
	return s.orig, s.by
}

// origLine returns the 1-based line of original offset o.
func (e *textEngine) origLine(o int) int {
	return sort.SearchInts(e.starts, o+1)
}

// replace replaces the occurrences at matches (occurrence i is lens[i]
// bytes long) by repls[i], as edit k, and returns the original offsets of
// the occurrences.
func (e *textEngine) replace(k int, matches, lens []int, repls []string) []int {
	cur, segs := e.cur, e.segs
	slot := k % 2
	next := e.bufs[slot][:0]
	need := len(cur)
	for i := range matches {
		need += len(repls[i]) - lens[i]
	}
	if cap(next) < need {
		next = make([]byte, 0, need+need/16+64) // room for edits that grow it
	}
	out := e.segBufs[slot][:0]
	add := func(s teSegment) {
		if n := len(out); n > 0 {
			// Merge with the previous segment when it continues it.
			if p := out[n-1]; p.by == s.by && (s.by == 0 && p.orig+(s.cur-p.cur) == s.orig || s.by > 0 && p.orig == s.orig) {
				return
			}
		}
		out = append(out, s)
	}
	si, delta, pos := 0, 0, 0
	copyRange := func(a, b int) {
		for a < b {
			for teSegEnd(segs, si, len(cur)) <= a {
				si++
			}
			s := segs[si]
			piece := teSegment{cur: a + delta, orig: s.orig, by: s.by}
			if s.by == 0 {
				piece.orig += a - s.cur
			}
			add(piece)
			a = min(b, teSegEnd(segs, si, len(cur)))
		}
	}
	origs := make([]int, len(matches))
	for i, m := range matches {
		oldLen, repl := lens[i], repls[i]
		next = append(next, cur[pos:m]...)
		copyRange(pos, m)
		for teSegEnd(segs, si, len(cur)) <= m {
			si++
		}
		s := segs[si]
		orig := s.orig
		if s.by == 0 {
			orig += m - s.cur
		}
		origs[i] = orig
		for j := si; j < len(segs) && segs[j].cur < m+oldLen; j++ {
			if sj := segs[j]; sj.by == 0 {
				a, b := max(m, sj.cur), min(m+oldLen, teSegEnd(segs, j, len(cur)))
				e.removed = append(e.removed, teRemoval{start: sj.orig + a - sj.cur, end: sj.orig + b - sj.cur, by: k})
			}
		}
		if repl != "" {
			add(teSegment{cur: m + delta, orig: orig, by: k})
			next = append(next, repl...)
		}
		delta += len(repl) - oldLen
		pos = m + oldLen
	}
	next = append(next, cur[pos:]...)
	copyRange(pos, len(cur))
	e.bufs[slot], e.segBufs[slot] = next, out
	e.cur, e.segs = next, out
	return origs
}

// output returns the current text with the text's line endings.
func (e *textEngine) output() string {
	if !e.uniform || e.eol == LF {
		return string(e.cur)
	}
	var b strings.Builder
	b.Grow(len(e.cur) + bytes.Count(e.cur, []byte{'\n'})*(len(e.eol)-1))
	for rest := e.cur; ; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			b.Write(rest)
			break
		}
		b.Write(rest[:i])
		b.WriteString(e.eol)
		rest = rest[i+1:]
	}
	return b.String()
}

// teLine is a line of the current text: content [start, end), without the
// line ending; the next line starts at next.
type teLine struct{ start, end, next int }

// lineAt returns the line of the current text holding offset x.
func (e *textEngine) lineAt(x int) teLine {
	start := bytes.LastIndexByte(e.cur[:x], e.sep) + 1
	end, next := len(e.cur), len(e.cur)
	if i := bytes.IndexByte(e.cur[x:], e.sep); i >= 0 {
		end, next = x+i, x+i+1
	}
	return e.trimCR(teLine{start, end, next})
}

func (e *textEngine) trimCR(l teLine) teLine {
	if e.sep == '\n' && l.end > l.start && e.cur[l.end-1] == '\r' {
		l.end--
	}
	return l
}

// lines splits the current text into lines as Document does.
func (e *textEngine) lines() []teLine {
	var out []teLine
	for start := 0; start < len(e.cur); {
		i := bytes.IndexByte(e.cur[start:], e.sep)
		if i < 0 {
			out = append(out, e.trimCR(teLine{start, len(e.cur), len(e.cur)}))
			break
		}
		out = append(out, e.trimCR(teLine{start, start + i, start + i + 1}))
		start += i + 1
	}
	return out
}

func (e *textEngine) str(l teLine) string { return string(e.cur[l.start:l.end]) }

// teLineMatches is old_text matched as whole lines of the current text.
type teLineMatches struct {
	level  match.Level
	needle []string      // old_text's lines, one final line break dropped
	nl     bool          // old_text ended with a line break
	hay    []teLine      // the current text's lines
	ms     []match.Match // non-overlapping, top to bottom
}

// offsets returns the byte offsets of the matches' first lines.
func (lm teLineMatches) offsets() []int {
	out := make([]int, len(lm.ms))
	for i, m := range lm.ms {
		out[i] = lm.hay[m.Line].start
	}
	return out
}

// teWholeLines reports whether old_text is matched as whole lines at the
// levels looser than exact: whether it holds a line break.
func teWholeLines(old string) bool { return strings.ContainsAny(old, "\n\r") }

// teNeedle splits old_text into lines for matching: at LF, CRLF or CR,
// one final line break dropped (nl reports it).
func teNeedle(old string) (lines []string, nl bool) {
	old = teToLF(old)
	if strings.HasSuffix(old, "\n") {
		old, nl = old[:len(old)-1], true
	}
	return strings.Split(old, "\n"), nl
}

// hayLines returns the current text's lines and their strings.
func (e *textEngine) hayLines() ([]teLine, []string) {
	hay := e.lines()
	strs := make([]string, len(hay))
	for i, l := range hay {
		strs[i] = e.str(l)
	}
	return hay, strs
}

// findLines matches old as whole lines at the levels up to max (see
// ApplyTextEditsLevel), keeping non-overlapping matches top to bottom.
func (e *textEngine) findLines(old string, max match.Level) teLineMatches {
	lm := teLineMatches{}
	lm.needle, lm.nl = teNeedle(old)
	var strs []string
	lm.hay, strs = e.hayLines()
	level, ms := match.Search(strs, lm.needle, max)
	lm.level = level
	next := 0
	for _, m := range ms {
		if m.Line >= next {
			lm.ms = append(lm.ms, m)
			next = m.Line + len(lm.needle)
		}
	}
	return lm
}

// lineReplacements returns, for each line match, its byte offset, its
// length and new_text shifted by its indentation offset.
func (e *textEngine) lineReplacements(lm teLineMatches, repl string) (offs, lens []int, repls []string, err error) {
	for _, m := range lm.ms {
		first, last := lm.hay[m.Line], lm.hay[m.Line+len(lm.needle)-1]
		end := last.end
		r := repl
		if lm.nl {
			end = last.next
			if last.next == last.end { // the file's last line, without a line break
				r = strings.TrimSuffix(r, "\n")
			}
		}
		if lm.level >= match.Indent {
			shifted, rerr := match.Reindent(strings.Split(r, "\n"), m.Offset)
			if rerr != nil {
				orig, _ := e.locate(first.start)
				return nil, nil, nil, fmt.Errorf("old_text matched at line %d at level %s, but new_text %w", e.origLine(orig), m.Describe(), rerr)
			}
			r = strings.Join(shifted, "\n")
		}
		offs, lens, repls = append(offs, first.start), append(lens, end-first.start), append(repls, r)
	}
	return offs, lens, repls, nil
}

// addHint adds to a NO_MATCH error the one place where old, as whole
// lines, matches at the first level looser than max with any match.
func (e *textEngine) addHint(err *TextEditError, old string, max match.Level) {
	needle, _ := teNeedle(old)
	hay, strs := e.hayLines()
	h, ok := match.FindHint(strs, needle, max)
	if !ok {
		return
	}
	orig, by := e.locate(hay[h.Line].start)
	h.Line = e.origLine(orig)
	err.Hint = &h
	where := fmt.Sprintf("line %d", h.Line)
	if by > 0 {
		where += fmt.Sprintf(" (in text inserted by edit %d)", by)
	}
	err.Message += fmt.Sprintf(" As whole lines, it matches exactly one place at level %s, at %s: rerun with %s to accept it.",
		match.Describe(h.Level, h.Offset), where, h.Flag)
	fix := SuggestedFix{Type: TextFixMatchLevel,
		Suggestion: fmt.Sprintf("Rerun with %s: old_text matches %s at level %s (new_text is shifted by the same indentation offset at indent and loose).", h.Flag, where, match.Describe(h.Level, h.Offset)),
		Example:    h.Flag}
	err.Fixes = append([]SuggestedFix{fix}, err.Fixes...)
}

// failure builds the error for edit k (of total) whose old_text (as
// searched) occurs at matches instead of want times.
func (e *textEngine) failure(k, total int, te TextEdit, old string, want int, matches []int) *TextEditError {
	err := &TextEditError{Type: TextEditWrongCount, Edit: k, Total: total, SearchText: old, Expected: want, Actual: len(matches)}
	if len(matches) == 0 {
		err.Type = TextEditNoMatch
	}
	after := ""
	switch {
	case k == 2:
		after = " as it reads after edit 1"
	case k > 2:
		after = fmt.Sprintf(" as it reads after edits 1-%d", k-1)
	}
	for i, m := range matches {
		if i == MaxMatchLocations {
			err.OmittedLocations = len(matches) - i
			break
		}
		err.Locations = append(err.Locations, e.location(m, len(old)))
	}
	if len(matches) < want {
		err.Similar = e.similar(old)
	}
	var fixes []SuggestedFix
	if len(matches) == 0 {
		err.Message = fmt.Sprintf("edit %d of %d failed: old_text was not found in the text%s.", k, total, after)
	} else {
		lines := make([]string, 0, min(len(err.Locations), 10))
		for _, l := range err.Locations[:min(len(err.Locations), 10)] {
			lines = append(lines, strconv.Itoa(l.LineNumber))
		}
		if len(matches) > 10 {
			lines = append(lines, "...")
		}
		err.Message = fmt.Sprintf("edit %d of %d failed: expected %d %s of old_text but found %d (%s %s)%s.",
			k, total, want, tePlural(want, "occurrence", "occurrences"), len(matches),
			tePlural(len(matches), "line", "lines"), strings.Join(lines, ", "), after)
	}
	// Did earlier edits change occurrences that the original text had?
	if k > 1 {
		if changed, by, at := e.changedByEarlier(old); changed > 0 {
			err.Message += fmt.Sprintf(" The original text had old_text at line %d, but edit %d, applied before this one, changed it", e.origLine(at), by)
			if changed > 1 {
				err.Message += fmt.Sprintf(" (the earlier edits changed %d of its occurrences in the original text)", changed)
			}
			err.Message += ": edits apply in order, each to the result of the ones before it."
			fixes = append(fixes, SuggestedFix{Type: TextFixUseExactText,
				Suggestion: fmt.Sprintf("Write old_text as the text reads after the edits before this one, or make this change part of edit %d, which already changes that text.", by)})
		}
	}
	if len(matches) == 0 {
		fixes = append(fixes, e.noMatchFixes(te, old, err.Similar)...)
	} else {
		fixes = append(fixes, e.countFixes(err, old, want)...)
	}
	err.Fixes = fixes
	return err
}

// changedByEarlier counts the original occurrences of old that earlier
// edits changed (replaced a byte of), and names the first: its original
// offset and the earliest edit that changed it.
func (e *textEngine) changedByEarlier(old string) (changed, by, at int) {
	if len(e.removed) == 0 {
		return 0, 0, 0
	}
	removed := slices.Clone(e.removed)
	slices.SortFunc(removed, func(a, b teRemoval) int { return a.start - b.start })
	// reach[i] is the largest end among removed[:i+1].
	reach := make([]int, len(removed))
	for i, r := range removed {
		reach[i] = r.end
		if i > 0 {
			reach[i] = max(reach[i], reach[i-1])
		}
	}
	p := []byte(old)
	for pos := 0; pos <= len(e.orig)-len(p); {
		i := bytes.Index(e.orig[pos:], p)
		if i < 0 {
			break
		}
		start, end := pos+i, pos+i+len(p)
		pos = end
		// Does a removal that starts before end reach past start?
		j := sort.Search(len(removed), func(j int) bool { return removed[j].start >= end }) - 1
		if j < 0 || reach[j] <= start {
			continue
		}
		changed++
		if changed == 1 {
			at, by = start, 0
			for _, r := range removed[:j+1] {
				if r.end > start && (by == 0 || r.by < by) {
					by = r.by
				}
			}
		}
	}
	return changed, by, at
}

func tePlural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// teCount returns the number of non-overlapping occurrences of pat in b
// and the offset of the first (-1 if none).
func teCount(b []byte, pat string) (n, first int) {
	first = -1
	p := []byte(pat)
	for pos := 0; pos <= len(b)-len(p); {
		i := bytes.Index(b[pos:], p)
		if i < 0 {
			break
		}
		if first < 0 {
			first = pos + i
		}
		n++
		pos += i + len(p)
	}
	return n, first
}

// location describes the occurrence of n bytes at offset m of cur.
func (e *textEngine) location(m, n int) MatchLocation {
	l := e.lineAt(m)
	orig, by := e.locate(m)
	loc := MatchLocation{
		LineNumber:  e.origLine(orig),
		ColumnStart: m - l.start + 1,
		LineContent: e.str(l),
		InsertedBy:  by,
	}
	last := m + n - 1
	lastStart := bytes.LastIndexByte(e.cur[:last], e.sep) + 1
	loc.ColumnEnd = m + n - lastStart + 1
	loc.EndLineNumber = loc.LineNumber + bytes.Count(e.cur[m:last], []byte{e.sep})
	if l.start > 0 {
		loc.ContextBefore = e.str(e.lineAt(l.start - 1))
	}
	if next := bytes.IndexByte(e.cur[l.start:], e.sep); next >= 0 && l.start+next+1 < len(e.cur) {
		loc.ContextAfter = e.str(e.lineAt(l.start + next + 1))
	}
	return loc
}

// countFixes suggests corrections for a WRONG_COUNT error.
func (e *textEngine) countFixes(err *TextEditError, old string, want int) []SuggestedFix {
	n := err.Actual
	var fixes []SuggestedFix
	if n > want {
		fixes = append(fixes, SuggestedFix{Type: TextFixAdjustCount,
			Suggestion: fmt.Sprintf("Set occurrences to %d if you want to replace all %d occurrences.", n, n),
			Example:    fmt.Sprintf(`"occurrences": %d`, n)})
		fix := SuggestedFix{Type: TextFixUseExactText,
			Suggestion: fmt.Sprintf("To replace only %d of them, add neighbouring text (such as the rest of the line) to old_text and new_text so that old_text matches only the %s you mean, or split the edit into one edit per place, each with text unique to that place.",
				want, tePlural(want, "one", fmt.Sprint(want)))}
		tries := 0
		for _, l := range err.Locations {
			if len(l.LineContent) > 200 || !strings.Contains(l.LineContent, old) || strings.TrimSpace(l.LineContent) == strings.TrimSpace(old) {
				continue
			}
			if tries++; tries > 20 {
				break
			}
			if c, _ := teCount(e.cur, l.LineContent); c == 1 {
				fix.Example = fmt.Sprintf(`"old_text": %s (line %d, which occurs once)`, teJSON(l.LineContent), l.LineNumber)
				break
			}
		}
		fixes = append(fixes, fix)
		return fixes
	}
	fixes = append(fixes, SuggestedFix{Type: TextFixAdjustCount,
		Suggestion: fmt.Sprintf("Set occurrences to %d if the %d found %s all you mean to change.", n, n, tePlural(n, "is", "are")),
		Example:    fmt.Sprintf(`"occurrences": %d`, n)})
	if len(err.Similar) > 0 {
		fixes = append(fixes, SuggestedFix{Type: TextFixUseExactText,
			Suggestion: "The other places you expect may be written differently (see the similar content): change them with separate edits whose old_text copies their exact text.",
			Example:    teExample(err.Similar[0], false)})
	}
	return fixes
}

// noMatchFixes suggests corrections for a NO_MATCH error.
func (e *textEngine) noMatchFixes(te TextEdit, old string, similar []SimilarContent) []SuggestedFix {
	var fixes []SuggestedFix
	if f, ok := e.escapeFix(old); ok {
		fixes = append(fixes, f)
	}
	exact := SuggestedFix{Type: TextFixUseExactText,
		Suggestion: "Read the file (symedit show -n prints numbered lines) and copy old_text exactly as it is, character for character: matching is literal and case-sensitive, with no regular expressions."}
	if len(similar) > 0 {
		exact.Example = teExample(similar[0], true)
	}
	fixes = append(fixes, exact)
	kinds := map[string]*SimilarContent{}
	for i := range similar {
		for _, d := range similar[i].Differences {
			if kinds[d.Type] == nil {
				kinds[d.Type] = &similar[i]
			}
		}
	}
	multi := strings.Contains(strings.TrimSuffix(old, "\n"), "\n")
	if s := kinds[TextDiffWhitespace]; s != nil || multi || !e.uniform && strings.ContainsAny(te.OldText, "\r\n") {
		var parts []string
		if s != nil {
			only := " only"
			for _, d := range s.Differences {
				if d.Type != TextDiffWhitespace {
					only = ""
				}
			}
			parts = append(parts, fmt.Sprintf("Check white space: %s from old_text%s in white space.", teWhere(s, "differs", "differ"), only))
		} else {
			parts = append(parts, "Check white space.")
		}
		fileIndent, oldIndent := teIndent(e.orig, e.sep), teIndent([]byte(teToLF(old)), '\n')
		if fileIndent != "" {
			p := "The file indents with " + fileIndent
			if oldIndent != "" && oldIndent != fileIndent {
				p += "; old_text indents with " + oldIndent
			}
			parts = append(parts, p+".")
		}
		if multi {
			parts = append(parts, fmt.Sprintf("old_text spans %d lines: include every line break, and each line's indentation exactly.", strings.Count(strings.TrimSuffix(old, "\n"), "\n")+1))
		}
		if !e.uniform {
			parts = append(parts, fmt.Sprintf("The file mixes line endings (%s), so old_text is matched byte for byte, line endings included: write each line break as the file has it there.", teEndings(e.orig)))
		}
		f := SuggestedFix{Type: TextFixCheckWhitespace, Suggestion: strings.Join(parts, " ")}
		if s != nil {
			f.Example = teExample(*s, false)
		}
		fixes = append(fixes, f)
	}
	if s := kinds[TextDiffCase]; s != nil {
		fixes = append(fixes, SuggestedFix{Type: TextFixUseExactText,
			Suggestion: fmt.Sprintf("Matching is case-sensitive: %s from old_text in letter case.", teWhere(s, "differs", "differ")),
			Example:    teExample(*s, false)})
	}
	if s := kinds[TextDiffPunctuation]; s != nil {
		fixes = append(fixes, SuggestedFix{Type: TextFixUseExactText,
			Suggestion: fmt.Sprintf("Quotes and punctuation must match exactly: %s from old_text in punctuation or quotes.", teWhere(s, "differs", "differ")),
			Example:    teExample(*s, false)})
	}
	return fixes
}

// teExample suggests the text of a similar place as old_text, naming its
// lines (and similarity); "" when it is over 1,000 bytes, too long to
// repeat (it is in the similar content).
func teExample(s SimilarContent, score bool) string {
	if len(s.Match) > 1000 {
		return ""
	}
	where := fmt.Sprintf("line %d", s.LineNumber)
	if s.EndLineNumber > s.LineNumber {
		where = fmt.Sprintf("lines %d-%d", s.LineNumber, s.EndLineNumber)
	}
	if score {
		where += fmt.Sprintf(", similarity %.2f", s.SimilarityScore)
	}
	return fmt.Sprintf(`"old_text": %s (%s)`, teJSON(s.Match), where)
}

// teWhere names a similar place's lines, with a verb agreeing with them:
// "line 4 differs", "lines 4-6 differ".
func teWhere(s *SimilarContent, one, many string) string {
	if s.EndLineNumber > s.LineNumber {
		return fmt.Sprintf("lines %d-%d %s", s.LineNumber, s.EndLineNumber, many)
	}
	return fmt.Sprintf("line %d %s", s.LineNumber, one)
}

// escapeFix suggests dropping regular-expression syntax or doubled escapes
// from old_text: with an example when a version without them occurs in the
// text, else when old_text holds regular-expression syntax.
func (e *textEngine) escapeFix(old string) (SuggestedFix, bool) {
	variants := []struct{ text, what string }{
		{teRegexUnescape.Replace(old), "without the backslashes that escape regular-expression characters"},
		{teStringUnescape.Replace(old), `with its \n, \t and \" escapes decoded`},
		{strings.TrimSuffix(strings.TrimPrefix(old, "^"), "$"), "without the ^ and $ anchors"},
	}
	for _, v := range variants {
		text := v.text
		if e.uniform {
			text = teToLF(text)
		}
		if text == old || text == "" {
			continue
		}
		if n, at := teCount(e.cur, text); n > 0 {
			orig, _ := e.locate(at)
			return SuggestedFix{Type: TextFixEscapeSpecial,
				Suggestion: fmt.Sprintf("old_text is matched literally, character for character: it is not a regular expression, and its backslashes are not escapes. old_text %s occurs %d %s (first at line %d).",
					v.what, n, tePlural(n, "time", "times"), e.origLine(orig)),
				Example: `"old_text": ` + teJSON(text)}, true
		}
	}
	for _, syn := range []string{".*", ".+", `\s`, `\d`, `\w`, `\b`, "[^", "(?", `\(`, `\.`, `\[`} {
		if strings.Contains(old, syn) {
			return SuggestedFix{Type: TextFixEscapeSpecial,
				Suggestion: fmt.Sprintf("old_text is matched literally, not as a regular expression: %s matches only itself. Write the exact text instead of a pattern.", strconv.Quote(syn))}, true
		}
	}
	return SuggestedFix{}, false
}

// teRegexUnescape removes the backslash before regular-expression
// metacharacters.
var teRegexUnescape = strings.NewReplacer(
	`\\`, `\`, `\.`, `.`, `\*`, `*`, `\+`, `+`, `\?`, `?`, `\(`, `(`, `\)`, `)`,
	`\[`, `[`, `\]`, `]`, `\{`, `{`, `\}`, `}`, `\|`, `|`, `\^`, `^`, `\$`, `$`, `\/`, `/`)

// teStringUnescape decodes the escapes of a doubly escaped string.
var teStringUnescape = strings.NewReplacer(
	`\n`, "\n", `\t`, "\t", `\r`, "\r", `\"`, `"`, `\'`, `'`, `\\`, `\`)

// teIndent describes how text indents: "tabs", "spaces", or both, or "".
func teIndent(text []byte, sep byte) string {
	tabs, spaces := 0, 0
	for _, l := range bytes.Split(text, []byte{sep}) {
		if len(l) == 0 || len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		switch l[0] {
		case '\t':
			tabs++
		case ' ':
			spaces++
		}
	}
	switch {
	case tabs > 0 && spaces > 0:
		return fmt.Sprintf("both tabs (%d %s) and spaces (%d %s)", tabs, tePlural(tabs, "line", "lines"), spaces, tePlural(spaces, "line", "lines"))
	case tabs > 0:
		return "tabs"
	case spaces > 0:
		return "spaces"
	}
	return ""
}

// teEndings counts the line endings of a mixed text.
func teEndings(text []byte) string {
	crlf := bytes.Count(text, []byte("\r\n"))
	lf := bytes.Count(text, []byte("\n")) - crlf
	cr := bytes.Count(text, []byte("\r")) - crlf
	var parts []string
	for _, p := range []struct {
		name string
		n    int
	}{{"CRLF", crlf}, {"LF", lf}, {"CR", cr}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.name))
		}
	}
	return strings.Join(parts, ", ")
}

// teJSON quotes s as a JSON string, without escaping HTML characters.
func teJSON(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// teClip shortens a long line for display around byte offset at, keeping
// about width bytes, with "..." where it cut.
func teClip(s string, at, width int) string {
	if len(s) <= width+width/2 {
		return s
	}
	start := max(0, min(at-width/4, len(s)-width))
	end := min(len(s), start+width)
	for start > 0 && !utf8.RuneStart(s[start]) {
		start--
	}
	for end < len(s) && !utf8.RuneStart(s[end]) {
		end++
	}
	out := s[start:end]
	if start > 0 {
		out = "..." + out
	}
	if end < len(s) {
		out += "..."
	}
	return out
}

// Similarity search.
//
// Every line (or window of N lines for an old_text of N lines) is a
// candidate. An upper bound of its similarity comes from the rune multiset
// intersection I of old_text and the candidate (the similarity 2M/(L+F) of
// old_text, L runes, with a fragment of F >= M runes is at most
// 2I/(L+I)); it is maintained over a sliding window in one pass. The exact
// ratio is then computed in decreasing order of the bound until the bound
// falls below the fifth best found, or the budget runs out (simMaxEvals
// comparisons, or simMaxCost estimated matcher steps: so that a huge or
// repetitive text costs a fraction of a second; past the budget the result
// is the best of the candidates with the highest bounds). Equal candidates
// are compared once, and a window overlapping a place already found to be
// at least as similar as the window's bound is not compared.
//
// A candidate line much longer than old_text is compared only around the
// stretch whose runes overlap old_text's most. An old_text of several
// lines and over largeWant runes is compared line by line with the
// window's lines (the first and last by fragment, the others whole), which
// keeps the cost linear.

const (
	simMaxEvals = 3000    // exact comparisons at most
	simMaxCost  = 5000000 // estimated SequenceMatcher steps at most
	largeWant   = 2000    // runes of a multi-line old_text compared line by line
)

type teHist struct {
	ascii [128]int32
	other map[rune]int32
}

func (h *teHist) get(r rune) int32 {
	if r < 128 {
		return h.ascii[r]
	}
	return h.other[r]
}

func (h *teHist) add(r rune, d int32) {
	if r < 128 {
		h.ascii[r] += d
		return
	}
	if h.other == nil {
		h.other = map[rune]int32{}
	}
	h.other[r] += d
}

type teCand struct {
	line  int     // first line index
	bound float64 // upper bound of the similarity
	size  int     // runes in the window
	sim   float64
}

// teComparer compares candidate texts with want.
type teComparer struct {
	want  []rune
	hist  teHist
	m     *difflib.SequenceMatcher // second sequence: want
	large bool                     // compare line by line
	lines [][]rune                 // want's lines (large)
	lineM []*difflib.SequenceMatcher
	cost  int // estimated matcher steps so far
}

func newTeComparer(want []rune, k int) *teComparer {
	c := &teComparer{want: want, m: difflib.NewMatcher(nil, teRuneStrings(want))}
	for _, r := range want {
		c.hist.add(r, 1)
	}
	if k > 1 && len(want) > largeWant {
		c.large = true
		for _, l := range strings.Split(strings.TrimSuffix(string(want), "\n"), "\n") {
			rs := []rune(l)
			c.lines = append(c.lines, rs)
			c.lineM = append(c.lineM, difflib.NewMatcher(nil, teRuneStrings(rs)))
		}
	}
	return c
}

// compare returns the similarity of the candidate text (a window's lines
// joined by "\n") to want, and the part of text that lines up with want
// as pieces: one for a whole-text comparison, one per line for a
// line-by-line one.
func (c *teComparer) compare(text string) (sim float64, pieces [][]rune) {
	runes := []rune(text)
	if !c.large {
		sim, fs, fe := c.fragment(c.m, runes, c.want, &c.hist)
		return sim, [][]rune{runes[fs:fe]}
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	matched, size := 0, 0
	for i, l := range lines {
		a, b := []rune(l), c.lines[i]
		frag := a
		switch {
		case string(a) == string(b):
			matched += len(b)
		case i == 0 || i == len(lines)-1: // old_text may start or end mid-line
			var h teHist
			for _, r := range b {
				h.add(r, 1)
			}
			s, fs, fe := c.fragment(c.lineM[i], a, b, &h)
			frag = a[fs:fe]
			matched += int(math.Round(s * float64(len(b)+len(frag)) / 2))
		default:
			c.lineM[i].SetSeq1(teRuneStrings(a))
			for _, m := range c.lineM[i].GetMatchingBlocks() {
				matched += m.Size
			}
			c.cost += 4 * (len(a) + len(b))
		}
		size += len(frag)
		pieces = append(pieces, frag)
	}
	return 2 * float64(matched) / float64(len(c.want)-strings.Count(string(c.want), "\n")+size), pieces
}

// fragment returns teBestFragment's result for candidate a and want b (h:
// b's runes), comparing a long candidate only around the stretch of len(b)
// runes that overlaps b's runes most.
func (c *teComparer) fragment(m *difflib.SequenceMatcher, a, b []rune, h *teHist) (sim float64, fs, fe int) {
	off := 0
	if lb := len(b); len(a) > 4*lb+256 {
		var win teHist
		inter, best, at := 0, -1, 0
		for i, r := range a {
			if win.get(r) < h.get(r) {
				inter++
			}
			win.add(r, 1)
			if i >= lb {
				old := a[i-lb]
				win.add(old, -1)
				if win.get(old) < h.get(old) {
					inter--
				}
			}
			if inter > best {
				best, at = inter, max(0, i-lb+1)
			}
		}
		c.cost += 2 * len(a)
		off = max(0, at-lb/2-16)
		a = a[off:min(len(a), at+lb+lb/2+16)]
	}
	steps := 0
	for _, r := range a {
		steps += int(h.get(r))
	}
	c.cost += 3 * (steps + len(a) + len(b))
	sim, fs, fe = teBestFragment(m, teRuneStrings(a), len(b))
	return sim, off + fs, off + fe
}

// differences lists what differs between the pieces of a candidate and
// want, at most 5.
func (c *teComparer) differences(pieces [][]rune) []StringDiff {
	if !c.large {
		return teDifferences(pieces[0], c.want)
	}
	var out []StringDiff
	for i, p := range pieces {
		if string(p) != string(c.lines[i]) {
			out = append(out, teDifferences(p, c.lines[i])...)
		}
		if len(out) >= 5 {
			return out[:5]
		}
	}
	return out
}

// similar returns the places of the current text most similar to old (as
// searched), best first.
func (e *textEngine) similar(old string) []SimilarContent {
	// An old_text that ends with a line break is compared with windows
	// that end with theirs.
	want := teToLF(old)
	if strings.TrimSpace(want) == "" {
		return nil
	}
	nl := strings.HasSuffix(want, "\n")
	wantRunes := []rune(want)
	k := strings.Count(strings.TrimSuffix(want, "\n"), "\n") + 1
	lines := e.lines()
	if len(lines) < k {
		return nil
	}
	window := func(i int) string {
		w := e.window(lines, i, k)
		if nl && lines[i+k-1].next > lines[i+k-1].end {
			w += "\n"
		}
		return w
	}
	cands := e.bounds(lines, wantRunes, k, nl)
	cmp := newTeComparer(wantRunes, k)
	seen := map[string]float64{}
	var done, picked []teCand
	for i, c := range cands {
		if i >= simMaxEvals || cmp.cost >= simMaxCost {
			break
		}
		if len(picked) == maxSimilar && c.bound < picked[maxSimilar-1].sim {
			break
		}
		if slices.ContainsFunc(picked, func(p teCand) bool {
			return p.sim >= c.bound && c.line < p.line+k && p.line < c.line+k
		}) {
			continue // it overlaps a place at least as similar as it can be
		}
		text := window(c.line)
		var ok bool
		if c.sim, ok = seen[text]; !ok {
			c.sim, _ = cmp.compare(text)
			seen[text] = c.sim
		}
		if c.sim < similarFloor-0.005 {
			continue
		}
		// Leave out places that hold an occurrence (WRONG_COUNT).
		if bytes.Contains(e.cur[lines[c.line].start:lines[c.line+k-1].next], []byte(old)) {
			continue
		}
		done = append(done, c)
		if n := len(picked); n < maxSimilar || c.sim > picked[n-1].sim || c.sim == picked[n-1].sim && c.line < picked[n-1].line {
			picked = tePickSimilar(done, k)
		}
	}
	var out []SimilarContent
	for _, c := range picked {
		_, pieces := cmp.compare(window(c.line))
		match := make([]string, len(pieces))
		for i, p := range pieces {
			match[i] = string(p)
		}
		orig, by := e.locate(lines[c.line].start)
		sc := SimilarContent{
			LineNumber:      e.origLine(orig),
			Content:         e.window(lines, c.line, k),
			Match:           strings.Join(match, "\n"),
			SimilarityScore: math.Round(c.sim*100) / 100,
			Differences:     cmp.differences(pieces),
			InsertedBy:      by,
		}
		if cmp.large && nl {
			sc.Match += "\n"
		}
		sc.EndLineNumber = sc.LineNumber + k - 1
		if len(sc.Differences) == 0 && !e.uniform { // equal but for line endings
			raw := e.cur[lines[c.line].start:lines[c.line+k-1].end]
			sc.Differences = []StringDiff{{Type: TextDiffWhitespace, Expected: old, Found: string(raw)}}
		}
		out = append(out, sc)
	}
	return out
}

// bounds returns the candidate windows of k lines whose similarity bound
// reaches similarFloor, the likeliest first: by bound, then by closeness
// of size to want's, then by line. It keeps only about the simMaxEvals
// best, so that a huge text sorts few.
func (e *textEngine) bounds(lines []teLine, want []rune, k int, nl bool) []teCand {
	lo := len(want)
	var wantHist, win teHist
	for _, r := range want {
		wantHist.add(r, 1)
	}
	inter, size := 0, 0
	addRune := func(r rune, d int32) {
		if d > 0 && win.get(r) < wantHist.get(r) {
			inter++
		}
		win.add(r, d)
		if d < 0 && win.get(r) < wantHist.get(r) {
			inter--
		}
		size += int(d)
	}
	addLine := func(i int, d int32) {
		b := e.cur[lines[i].start:lines[i].end]
		for j := 0; j < len(b); {
			r, n := rune(b[j]), 1
			if r >= utf8.RuneSelf {
				r, n = utf8.DecodeRune(b[j:])
			}
			addRune(r, d)
			j += n
		}
	}
	var cands []teCand
	var buckets [1001]int // candidates by bound, in thousandths
	for i := 0; i+k <= len(lines); i++ {
		if i == 0 {
			if nl { // counted in every window: an upper bound
				addRune('\n', 1)
			}
			for j := 0; j < k; j++ {
				if j > 0 {
					addRune('\n', 1)
				}
				addLine(j, 1)
			}
		} else { // slide: the newlines inside the window stay k-1
			addLine(i-1, -1)
			addLine(i+k-1, 1)
		}
		if inter == 0 || k == 1 && len(bytes.TrimSpace(e.cur[lines[i].start:lines[i].end])) == 0 {
			continue
		}
		bound := 2 * float64(inter) / float64(lo+inter)
		if bound < similarFloor-0.005 {
			continue
		}
		cands = append(cands, teCand{line: i, bound: bound, size: size})
		buckets[int(bound*1000)]++
	}
	if len(cands) > simMaxEvals {
		floor, n := 1000, 0
		for floor > 0 && n+buckets[floor] < simMaxEvals {
			n += buckets[floor]
			floor--
		}
		cands = slices.DeleteFunc(cands, func(c teCand) bool { return int(c.bound*1000) < floor })
	}
	slices.SortFunc(cands, func(a, b teCand) int {
		switch {
		case a.bound > b.bound:
			return -1
		case a.bound < b.bound:
			return 1
		}
		if d := teAbs(a.size-lo) - teAbs(b.size-lo); d != 0 {
			return d
		}
		return a.line - b.line
	})
	return cands
}

func teAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// tePickSimilar returns the best non-overlapping candidates of done, best
// first, at most maxSimilar.
func tePickSimilar(done []teCand, k int) []teCand {
	sorted := slices.Clone(done)
	slices.SortStableFunc(sorted, func(a, b teCand) int {
		if a.sim != b.sim {
			if a.sim > b.sim {
				return -1
			}
			return 1
		}
		return a.line - b.line
	})
	var out []teCand
	for _, c := range sorted {
		overlaps := false
		for _, p := range out {
			if c.line < p.line+k && p.line < c.line+k {
				overlaps = true
				break
			}
		}
		if !overlaps {
			out = append(out, c)
			if len(out) == maxSimilar {
				break
			}
		}
	}
	return out
}

// window returns lines i to i+k-1 of the current text joined by "\n".
func (e *textEngine) window(lines []teLine, i, k int) string {
	var b strings.Builder
	for j := i; j < i+k; j++ {
		if j > i {
			b.WriteByte('\n')
		}
		b.Write(e.cur[lines[j].start:lines[j].end])
	}
	return b.String()
}

// teFragment returns the similarity of want (lb runes) to the fragment of a
// candidate (la runes) that lines up with it, and the fragment's bounds:
// from the first matching block to the last, widened by the runes of want
// before its first and after its last matching block. Blocks at either end
// are dropped while that raises the similarity, so that a stray one-rune
// match far from the rest does not stretch the fragment.
func teFragment(blocks []difflib.Match, la, lb int) (sim float64, fs, fe int) {
	blocks = blocks[:len(blocks)-1] // the last block is a dummy
	if len(blocks) == 0 {
		return 0, 0, 0
	}
	ratio := func(lo, hi int) (float64, int, int) {
		matched := 0
		for _, b := range blocks[lo : hi+1] {
			matched += b.Size
		}
		first, last := blocks[lo], blocks[hi]
		fs := max(0, first.A-first.B)
		fe := min(la, last.A+last.Size+lb-(last.B+last.Size))
		return 2 * float64(matched) / float64(lb+fe-fs), fs, fe
	}
	lo, hi := 0, len(blocks)-1
	sim, fs, fe = ratio(lo, hi)
	for lo < hi {
		if s, s1, e1 := ratio(lo+1, hi); s > sim {
			lo, sim, fs, fe = lo+1, s, s1, e1
		} else if s, s1, e1 := ratio(lo, hi-1); s > sim {
			hi, sim, fs, fe = hi-1, s, s1, e1
		} else {
			break
		}
	}
	return sim, fs, fe
}

// teBestFragment returns the fragment of a (a candidate, as rune strings)
// most similar to the matcher's second sequence (lb runes), as teFragment
// does, with its similarity. The matcher pairs the longest common run
// first, which may sit away from the place that resembles want best (a
// "Kind" earlier on the line than "KindUint64"), so the search is
// repeated in a window around the places where the largest matching
// blocks put want's start, and the best fragment wins.
func teBestFragment(m *difflib.SequenceMatcher, a []string, lb int) (sim float64, fs, fe int) {
	m.SetSeq1(a)
	blocks := m.GetMatchingBlocks()
	sim, fs, fe = teFragment(blocks, len(a), lb)
	if sim == 0 || sim == 1 {
		return sim, fs, fe
	}
	blocks = slices.Clone(blocks[:len(blocks)-1])
	slices.SortStableFunc(blocks, func(x, y difflib.Match) int { return y.Size - x.Size })
	slack := lb/4 + 2
	var tried []int
	for _, b := range blocks {
		if len(tried) == 4 {
			break
		}
		at := b.A - b.B
		if slices.Contains(tried, at) {
			continue
		}
		tried = append(tried, at)
		ws, we := max(0, at-slack), min(len(a), at+lb+slack)
		if ws == 0 && we == len(a) {
			continue
		}
		m.SetSeq1(a[ws:we])
		if s, f, e := teFragment(m.GetMatchingBlocks(), we-ws, lb); s > sim {
			sim, fs, fe = s, ws+f, ws+e
		}
	}
	return sim, fs, fe
}

var teASCII = func() (t [128]string) {
	for i := range t {
		t[i] = string(rune(i))
	}
	return t
}()

func teRuneStrings(rs []rune) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		if r < 128 {
			out[i] = teASCII[r]
		} else {
			out[i] = string(r)
		}
	}
	return out
}

// teDifferences lists what differs between the found fragment and want, at
// most 5 differences.
func teDifferences(found, want []rune) []StringDiff {
	m := difflib.NewMatcher(teRuneStrings(found), teRuneStrings(want))
	type region struct{ i1, i2, j1, j2 int }
	var regs []region
	for _, op := range m.GetOpCodes() {
		if op.Tag == 'e' {
			continue
		}
		if n := len(regs); n > 0 {
			r := &regs[n-1]
			gap := found[r.i2:op.I1]
			if len(gap) < 3 || len(gap) <= 20 && teAllWord(gap) {
				r.i2, r.j2 = op.I2, op.J2
				continue
			}
		}
		regs = append(regs, region{op.I1, op.I2, op.J1, op.J2})
	}
	var out []StringDiff
	prevI := 0
	for n, r := range regs {
		if len(out) >= 5 {
			out = out[:5]
			break
		}
		nextI := len(found)
		if n+1 < len(regs) {
			nextI = regs[n+1].i1
		}
		exp, got := string(want[r.j1:r.j2]), string(found[r.i1:r.i2])
		// A difference inside a word shows the whole word; one between
		// words shows the neighbouring words.
		// A pure insertion or deletion shows its neighbours.
		edge := func(i, j int) bool {
			return r.i1 < r.i2 && r.j1 < r.j2 && (teIsWord(found[i]) || teIsWord(want[j]))
		}
		left := teExpand(slices.Backward(found[prevI:r.i1]), edge(r.i1, r.j1))
		right := teExpand(slices.All(found[r.i2:nextI]), edge(r.i2-1, r.j2-1))
		for _, typ := range teClassify(exp, got) {
			out = append(out, StringDiff{
				Type:     typ,
				Expected: string(want[r.j1-left : r.j2+right]),
				Found:    string(found[r.i1-left : r.i2+right]),
			})
		}
		prevI = r.i2
	}
	return out
}

func teIsWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

func teAllWord(rs []rune) bool {
	for _, r := range rs {
		if !teIsWord(r) {
			return false
		}
	}
	return true
}

// teExpand returns how many runes of the context next to a difference
// (ctx, from the difference outwards) to show with it, at most 30: the
// rest of the word when the difference ends inside a word (inWord), else
// the white space and the word next to it, or one other rune.
func teExpand(ctx iter.Seq2[int, rune], inWord bool) int {
	n, words := 0, 0
	for _, r := range ctx {
		if n == 30 {
			break
		}
		switch {
		case teIsWord(r):
			words++
		case inWord || words > 0:
			return n
		case unicode.IsSpace(r):
		default:
			return n + 1
		}
		n++
	}
	return n
}

// teClassify names the difference between two fragments: the first of
// whitespace, case and punctuation whose normalisation makes them equal;
// else the smallest combination that does (several names); else content.
func teClassify(want, found string) []string {
	norms := []struct {
		typ  string
		norm func(string) string
	}{
		{TextDiffWhitespace, func(s string) string { return teStrip(s, unicode.IsSpace) }},
		{TextDiffCase, strings.ToLower},
		{TextDiffPunctuation, func(s string) string { return teStrip(s, teIsPunct) }},
	}
	for _, n := range norms {
		if n.norm(want) == n.norm(found) || n.typ == TextDiffCase && strings.EqualFold(want, found) {
			return []string{n.typ}
		}
	}
	for _, set := range [][]int{{0, 1}, {0, 2}, {1, 2}, {0, 1, 2}} {
		w, f := want, found
		var types []string
		for _, i := range set {
			w, f = norms[i].norm(w), norms[i].norm(f)
			types = append(types, norms[i].typ)
		}
		if w == f {
			return types
		}
	}
	return []string{TextDiffContent}
}

func teIsPunct(r rune) bool { return unicode.IsPunct(r) || r == '`' }

func teStrip(s string, drop func(rune) bool) string {
	return strings.Map(func(r rune) rune {
		if drop(r) {
			return -1
		}
		return r
	}, s)
}
