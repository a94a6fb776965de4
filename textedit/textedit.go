package textedit

// Exact text edits: the engine of `symedit edit FILE EDITS`. An edit names the exact text it replaces (old_text), its
// replacement (new_text) and how many times old_text must occur
// (occurrences, default 1). Edits apply in order, each to the result of the
// ones before it; every count is checked, and a failure returns an error
// value that shows a model what went wrong and how to fix it.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/internal/jsontext"
	"github.com/symedit/symedit/internal/lines"
	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/remedy"
)

// MaxTextEdits is the largest number of edits that ParseTextEdits and
// ApplyTextEdits accept in one call.
const MaxTextEdits = 1000

// MaxMatchLocations is the largest number of MatchLocations that a
// WRONG_COUNT TextEditError lists; TextEditError.OmittedLocations counts the
// rest, and Actual is the total, so that a pattern found a million times
// gives an error of a few KB that still says how many.
const MaxMatchLocations = 20

// MaxWindow is the most bytes of a line that a listing of matches shows
// around one match (MatchLocation.LineContent, Match.Text): a longer line
// is cut to a window of at most MaxWindow bytes around the match's first
// byte, at rune boundaries, so that the output of a failed edit or replace
// is bounded however long the file's lines are.
const MaxWindow = 200

// MaxSentShown bounds how much of the text a caller sent a refusal quotes
// (see TextEditError.SearchText): the same 240 bytes the chunk engine's
// and the reply parser's refusals show of a line.
const MaxSentShown = lines.Shown

// Window returns the part of line that a listing shows for a match whose
// first byte is at 0-based byte offset at in line: line itself when it is
// at most MaxWindow bytes long, else at most MaxWindow bytes around at
// (a quarter before it, the rest after), moved to rune boundaries, and the
// 0-based byte offset in line where the window starts. It never copies
// line: the window is a slice of it.
func Window[S ~string | ~[]byte](line S, at int) (S, int) {
	if len(line) <= MaxWindow {
		return line, 0
	}
	at = max(0, min(at, len(line)))
	start := max(0, min(at-MaxWindow/4, len(line)-MaxWindow))
	end := min(len(line), start+MaxWindow)
	for start > 0 && !utf8.RuneStart(line[start]) {
		start++ // forwards: the window stays within MaxWindow bytes
	}
	for end < len(line) && end > start && !utf8.RuneStart(line[end]) {
		end--
	}
	return line[start:end], start
}

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
	// match level than allowed; the fix's Remedy (the match option set to
	// that level) accepts it.
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
	LineNumber int `json:"line_number" jsonschema:"The 1-based line of the original file where the match starts, even when earlier edits added or removed lines; for a match inside text inserted by an earlier edit, the line where that edit's replacement starts (see inserted_by)."`
	// EndLineNumber is LineNumber plus the line breaks inside the match:
	// equal to LineNumber for a match within one line.
	EndLineNumber int `json:"end_line_number" jsonschema:"The 1-based original line where the match ends: line_number plus the line breaks inside the match."`
	// ColumnStart is the 1-based byte column of the match's first byte in
	// its line.
	ColumnStart int `json:"column_start" jsonschema:"The 1-based byte column of the match's first byte in its line."`
	// ColumnEnd is the 1-based byte column just past the match's last byte
	// (exclusive), on the match's last line. A line break counts as one
	// byte in a text with uniform line endings (they are matched as LF), so
	// a match that ends with one has ColumnEnd len(that line) + 2.
	ColumnEnd int `json:"column_end" jsonschema:"The 1-based byte column just past the match's last byte (exclusive), on its last line; a line break counts as one byte."`
	// LineContent is the line holding the match's first byte, without its
	// line ending; a line over MaxWindow bytes is cut to the Window around
	// the match (see ContentColumn and LineLength).
	LineContent string `json:"line_content" jsonschema:"The line holding the match's first byte, as the failing edit sees it (after the earlier edits), without its line ending; a line over 200 bytes is cut around the match (see content_column and line_length)."`
	// ContentColumn, for a cut LineContent, is the 1-based byte column of
	// the line where LineContent starts; 0 (left out) when LineContent is
	// the whole line.
	ContentColumn int `json:"content_column,omitempty" jsonschema:"For a cut line_content, the 1-based byte column of the line where line_content starts; omitted when line_content is the whole line."`
	// LineLength, for a cut LineContent, is the whole line's length in
	// bytes; 0 (left out) when LineContent is the whole line.
	LineLength int `json:"line_length,omitempty" jsonschema:"For a cut line_content, the whole line's length in bytes; omitted when line_content is the whole line."`
	// ContextBefore and ContextAfter are the lines before and after
	// LineContent ("" at the text's first or last line, or when that line
	// is empty); a line over MaxWindow bytes is cut to its Window at the
	// match's column, with "..." where it is cut.
	ContextBefore string `json:"context_before,omitempty" jsonschema:"The line before line_content, cut around the match's column with \"...\" when over 200 bytes; omitted at the text's first line or when that line is empty."`
	ContextAfter  string `json:"context_after,omitempty" jsonschema:"The line after line_content, cut around the match's column with \"...\" when over 200 bytes; omitted at the text's last line or when that line is empty."`
	// InsertedBy is the 1-based index of the earlier edit whose new_text
	// holds the match's first byte, or 0 when it is original text.
	InsertedBy int `json:"inserted_by,omitempty" jsonschema:"The 1-based index of the earlier edit whose new_text holds the match's first byte; omitted for original text."`
}

// display returns LineContent for a readable listing: at most about width
// bytes around the match, with "..." where the line is cut.
func (l MatchLocation) display(width int) string {
	at, from := l.ColumnStart-1, 0
	if l.ContentColumn > 0 {
		from = l.ContentColumn - 1
	}
	out := teClip(l.LineContent, at-from, width)
	if from > 0 && !strings.HasPrefix(out, "...") {
		out = "..." + out
	}
	if l.LineLength > from+len(l.LineContent) && !strings.HasSuffix(out, "...") {
		out += "..."
	}
	return out
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
	// edit sees them, without line endings; a line longer than MaxWindow
	// bytes beyond its part of Match is cut to that part and about
	// MaxWindow bytes around it, with "..." where it is cut, so that an
	// error stays small however long the file's lines are.
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
	// TextFixAdjustCount, TextFixEscapeSpecial or TextFixMatchLevel.
	Type string `json:"type" jsonschema:"The kind of fix: USE_EXACT_TEXT, CHECK_WHITESPACE, ADJUST_COUNT, ESCAPE_SPECIAL or ALLOW_MATCH_LEVEL."`
	// Suggestion says what to do, in a sentence or two.
	Suggestion string `json:"suggestion" jsonschema:"What to do, in a sentence or two."`
	// Example is a JSON fragment of a corrected edit, or "".
	Example string `json:"example,omitempty" jsonschema:"A JSON fragment of the corrected edit; omitted when none."`
	// Remedy is the request change the fix makes, for a fix that changes
	// an option rather than the edit (TextFixMatchLevel), or nil.
	Remedy remedy.Remedy `json:"remedy,omitempty" jsonschema:"The change to the request's options the fix makes (ALLOW_MATCH_LEVEL: match set to the level), each option with its value; omitted when the fix changes the edit itself."`
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
	// when the text's line endings are uniform (see ApplyTextEdits). An
	// old_text over 4*MaxSentShown bytes is quoted by its first
	// 2*MaxSentShown and last MaxSentShown bytes around a line "[... K
	// bytes left out ...]", so that no refusal grows with what was sent;
	// SearchTextOmitted is then K.
	SearchText        string `json:"search_text"`
	SearchTextOmitted int    `json:"search_text_omitted,omitempty"`
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
		for _, l := range e.Locations {
			fmt.Fprintf(&b, "  line %d, column %d: %s", l.LineNumber, l.ColumnStart, l.display(120))
			if l.InsertedBy > 0 {
				fmt.Fprintf(&b, "  (in text inserted by edit %d)", l.InsertedBy)
			}
			b.WriteByte('\n')
		}
		if e.OmittedLocations > 0 {
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

// Remedy returns the request change that accepts old_text where Hint
// says, or nil without a Hint.
func (e *TextEditError) Remedy() remedy.Remedy {
	if e.Hint == nil {
		return nil
	}
	return e.Hint.Remedy()
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
	// A tab shown as spaces, a no-break space, a CR: say which, for the
	// fragments of one line (Whitespace compares lines).
	if d.Type == TextDiffWhitespace && !strings.Contains(d.Expected+d.Found, "\n") {
		if why, ok := match.Whitespace(d.Expected, d.Found); ok && !strings.HasPrefix(why, "the white space between words") {
			what += " (" + why + ")"
		}
	}
	return fmt.Sprintf("%s: old_text has %s, the file has %s", what, strconv.Quote(d.Expected), strconv.Quote(d.Found))
}

// TextEditSummary says what one edit replaced.
type TextEditSummary struct {
	// Edit is the 1-based index of the edit.
	Edit int `json:"edit" jsonschema:"The 1-based index of the edit."`
	// OccurrencesReplaced is the number of occurrences replaced: the
	// edit's Occurrences.
	OccurrencesReplaced int `json:"occurrences_replaced" jsonschema:"How many occurrences the edit replaced: its occurrences."`
	// Lines are the original 1-based line numbers of the first line of
	// each replaced occurrence, in text order (for an occurrence inside
	// text inserted by an earlier edit: the line where that edit's
	// replacement starts).
	Lines []int `json:"lines" jsonschema:"The original 1-based line of each replaced occurrence's first line, in text order (inside text an earlier edit inserted: the line where that edit's replacement starts)."`
	// Match is the level old_text matched at; the JSON leaves it out for
	// match.Exact (the only level of a literal match), so an absent
	// "match" means exact.
	Match match.Level `json:"match,omitempty" jsonschema:"The level old_text matched at; omitted when exact."`
	// Shift is the indentation shift of the first occurrence, for the
	// levels indent and loose (new_text was shifted by it), else nil.
	Shift *match.Shift `json:"offset,omitempty" jsonschema:"The indentation shift of the first occurrence, at the indent and loose levels (new_text was shifted by it); else omitted."`
	// AlreadyApplied reports that the edit was already in the text:
	// new_text occurs exactly once and old_text nowhere (or only inside
	// that occurrence, where new_text holds it), so it replaced nothing;
	// OccurrencesReplaced is 0 and Lines holds new_text's line.
	AlreadyApplied bool `json:"already_applied,omitempty" jsonschema:"True when the edit was already in the file (new_text found exactly once, old_text nowhere, or only inside it): it replaced nothing, and lines holds new_text's line. Omitted otherwise."`
}

// Describe returns the level the edit matched at, with the offset for
// indent and loose: "exact", "indent +4 spaces".
func (s TextEditSummary) Describe() string {
	if s.Shift == nil {
		return s.Match.String()
	}
	return match.Describe(s.Match, *s.Shift)
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
	// Changes are the byte edits that turn the input text into Text, in
	// 0-based byte offsets of the input text (End exclusive), sorted and
	// not overlapping: edit.Apply(text, Changes) is Text. Each is one
	// stretch of the input that the edits replaced (edits that wrote into
	// one another's text, or replaced touching text, make one), so that a
	// caller checks and shows the places changed without comparing the
	// texts. Empty when nothing was replaced.
	Changes []edit.Edit `json:"-"`
}

// ParseTextEdits decodes an edit list: a JSON array of edit objects, or an
// object {"edits": [...]}. Each edit has a string "old_text" (required, not
// empty), a string "new_text" (required, "" deletes) and an optional
// "occurrences", a positive integer literal (1 when absent). The parsing is
// strict: the error is a *TextEditInputError, naming the edit (1-based) and
// the key, for malformed JSON (text that is not valid UTF-8 or holds a \u
// escape of a lone surrogate included), a non-object edit, an unknown or repeated
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
	if err := jsontext.Check(data); err != nil {
		return nil, &TextEditInputError{Msg: "bad JSON: " + err.Error()}
	}
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		return nil, &TextEditInputError{Msg: "bad JSON: " + jsontext.At(data, err).Error() + ": " + want}
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
