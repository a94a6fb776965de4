package reply

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/symedit/symedit/internal/lines"
	"github.com/symedit/symedit/internal/similar"
	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/remedy"
)

// Codes of Failure, as printed in JSON output.
const (
	// CodeLeadingNotFound: an EDIT block's leading anchor occurs nowhere.
	CodeLeadingNotFound = "LEADING_NOT_FOUND"
	// CodeOldMismatch: the leading anchor was found (or is empty, meaning
	// the start of the file), but the old lines do not follow it; or a
	// unified diff's hunk without context lines (Block.Pinned) does not
	// find its old lines where its line numbers say; or a hunk whose old
	// side ends without a line ending (Block.OldNoEOL) meets a text whose
	// last line has one.
	CodeOldMismatch = "OLD_MISMATCH"
	// CodeTrailingNotFound: the leading anchor and the old lines were
	// found, but the trailing anchor does not follow them, or (when it is
	// empty) they are not at the end of the file; or a unified diff's
	// hunk without context lines (Block.Pinned) is placed by its line
	// numbers somewhere other than the end of the file.
	CodeTrailingNotFound = "TRAILING_NOT_FOUND"
	// CodeAmbiguous: the block's lines occur at several places.
	CodeAmbiguous = "AMBIGUOUS"
	// CodeNotFound: a SEARCH/REPLACE block's old lines occur nowhere.
	CodeNotFound = "NOT_FOUND"
	// CodeFileExists: a block that creates a file was applied to a
	// non-empty text.
	CodeFileExists = "FILE_EXISTS"
	// CodeOverlap: a hunk of a diff or patch matched only on lines an
	// earlier hunk of the same file wrote (ApplyAll).
	CodeOverlap = "OVERLAP"
	// CodeFileOnly: a block that only deletes or moves its file
	// (Block.FileOnly) was given to Apply, which changes lines: the caller
	// acts on the file instead.
	CodeFileOnly = "FILE_ONLY"
	// CodeElided: the block's new lines hold a placeholder line ("//
	// ... existing code ...") where its old lines have code, so writing
	// it would delete that code. Package reply applies such a block as it
	// is; the callers that refuse it (package ops) set this code.
	CodeElided = "ELIDED"
)

// maxTies is the number of places, matching as many lines as the best so
// far, that are compared by the similarity of their next line.
const maxTies = 1000

// maxNearest is the number of Nearest lines a Failure carries at most.
const maxNearest = 3

// MaxShown is the most bytes of one line of the text that a Failure
// shows (in Message, Expected, Actual and Nearest): a longer line is cut
// to a window around its first difference from the block's line, "..."
// marking each cut, so that no message grows with the length of a file's
// lines.
const MaxShown = lines.Shown

// previewLen is the longest preview, in runes, before "..." is added.
const previewLen = 50

// Near is a line of the text that resembles a line the block expected. It
// has the shape of chunk.Near.
type Near struct {
	// Line is the 1-based line number in the text Apply was given.
	Line int `json:"line" jsonschema:"The 1-based line in the file."`
	// Text is the line as it is in the text, without its line ending.
	Text string `json:"text" jsonschema:"The line as it is in the file, without its line ending."`
	// Similarity is 0 (nothing alike) to 1 (identical): the ratio of
	// github.com/pmezard/go-difflib's SequenceMatcher over the two lines'
	// runes with surrounding white space trimmed, rounded to two decimals,
	// and at most 0.99 for lines that differ only in that white space.
	Similarity float64 `json:"similarity" jsonschema:"0 (nothing alike) to 1 (identical), rounded to two decimals; at most 0.99 for lines that differ only in surrounding white space."`
}

// Failure says why a block does not apply to a text. Nothing was applied.
// It carries what a model needs to fix the block in one retry.
type Failure struct {
	// Code is one of CodeLeadingNotFound, CodeOldMismatch,
	// CodeTrailingNotFound, CodeAmbiguous, CodeNotFound, CodeFileExists,
	// CodeOverlap, CodeFileOnly, CodeElided.
	Code string `json:"code" jsonschema:"Why the block did not apply: LEADING_NOT_FOUND (an EDIT block's leading anchor occurs nowhere), OLD_MISMATCH (the old lines do not follow the leading anchor), TRAILING_NOT_FOUND (the trailing anchor does not follow the old lines), AMBIGUOUS (the block's lines occur at several places), NOT_FOUND (a SEARCH/REPLACE block's or hunk's old lines occur nowhere), FILE_EXISTS (a block that creates a file names one that has content), OVERLAP (a hunk matched only on lines an earlier hunk of the same file wrote), FILE_ONLY (a block that only deletes or moves its file, applied as a change of lines) or ELIDED (the block's new lines hold a placeholder such as // ... existing code ... where its old lines have code)."`
	// Message explains the failure in one paragraph, without the Nearest
	// lines.
	Message string `json:"message" jsonschema:"The failure explained in one paragraph, without the nearest lines."`
	// Line is the 1-based text line where the block first disagreed with
	// the text (for TRAILING_NOT_FOUND with an empty trailing anchor, the
	// first line after the block's lines), or 0 when there is no such
	// line: the expected line occurs nowhere, or the text ended first.
	Line int `json:"line,omitempty" jsonschema:"The 1-based file line where the block first disagreed with the file; omitted when there is none (the expected line occurs nowhere, or the file ended first)."`
	// Expected is the block's line that did not match, and Actual the
	// text's line at Line (both without line endings). In JSON, expected
	// is left out when the failure has no expected line (AMBIGUOUS,
	// FILE_EXISTS, TRAILING_NOT_FOUND for an empty trailing anchor) and
	// actual when Line is 0; an empty line is written as "".
	Expected string `json:"expected,omitempty" jsonschema:"The block's line that did not match, without its line ending; omitted when the failure has none (AMBIGUOUS, FILE_EXISTS, an empty trailing anchor)."`
	Actual   string `json:"actual,omitempty" jsonschema:"The file's real line at line, without its line ending; omitted when line is."`
	// Candidates are 1-based text lines where the block's first line
	// matched: for AMBIGUOUS every place where the whole block matched;
	// for OLD_MISMATCH every place where the leading anchor matched; for
	// TRAILING_NOT_FOUND every place where leading anchor and old lines
	// matched.
	Candidates []int `json:"candidates,omitempty" jsonschema:"1-based file lines where the block's first line matched: every place the whole block matched (AMBIGUOUS), the leading anchor matched (OLD_MISMATCH), or leading anchor and old lines matched (TRAILING_NOT_FOUND); omitted when none."`
	// Nearest are the text's lines most similar to Expected, best first
	// (at most 3).
	Nearest []Near `json:"nearest,omitempty" jsonschema:"The file's lines most similar to expected, best first, at most 3; omitted when none."`
	// Hint, when the allowed match levels found the block nowhere, is the
	// one place where its lines (leading anchor, old lines, trailing
	// anchor) match at the first looser level with any match: its 1-based
	// Line (the block's first line), level and offset; Remedy sets the
	// match option that accepts it. Nil otherwise.
	Hint *match.Hint `json:"hint,omitempty" jsonschema:"When the allowed match levels found the block nowhere: the one place where its lines match at the first looser level with any match; omitted otherwise."`

	hasExpected bool // Expected is meaningful, even when ""
}

// MarshalJSON writes the Failure with the keys of its field tags; expected
// and actual are written, even when "", whenever they are meaningful.
func (f Failure) MarshalJSON() ([]byte, error) {
	out := struct {
		Code       string      `json:"code"`
		Message    string      `json:"message"`
		Line       int         `json:"line,omitempty"`
		Expected   *string     `json:"expected,omitempty"`
		Actual     *string     `json:"actual,omitempty"`
		Candidates []int       `json:"candidates,omitempty"`
		Nearest    []Near      `json:"nearest,omitempty"`
		Hint       *match.Hint `json:"hint,omitempty"`
	}{Code: f.Code, Message: f.Message, Line: f.Line, Candidates: f.Candidates, Nearest: f.Nearest, Hint: f.Hint}
	if f.hasExpected || f.Expected != "" {
		out.Expected = &f.Expected
	}
	if f.Line != 0 || f.Actual != "" {
		out.Actual = &f.Actual
	}
	return json.Marshal(out)
}

// Error returns Message followed by the nearest lines, one per line.
// Remedy returns the request change that accepts the block where Hint
// says, or nil without a Hint.
func (f *Failure) Remedy() remedy.Remedy {
	if f.Hint == nil {
		return nil
	}
	return f.Hint.Remedy()
}

func (f *Failure) Error() string {
	var b strings.Builder
	b.WriteString(f.Message)
	if len(f.Nearest) > 0 {
		b.WriteString("\nnearest lines in the file:")
		for _, n := range f.Nearest {
			fmt.Fprintf(&b, "\n  %5d: %s  (similarity %.2f)", n.Line, n.Text, n.Similarity)
		}
	}
	return b.String()
}

// IsCreate reports whether the block creates a file: an EDIT block whose
// leading anchor, old lines and trailing anchor are all empty, or a
// SEARCH/REPLACE block with an empty SEARCH section. For such a block a
// missing file is expected: the caller applies it to the empty text "",
// and Apply refuses it (CodeFileExists) on a non-empty text. A block that
// deletes or moves its file or changes its mode (Delete, MoveTo, OldMode)
// never creates one, and neither does an apply_patch hunk that only adds
// lines to a file (Insert).
func (b Block) IsCreate() bool {
	return !b.Delete && !b.Insert && !b.Pinned && b.MoveTo == "" && b.OldMode == "" && len(b.ContextBefore) == 0 && len(b.OldLines) == 0 && len(b.ContextAfter) == 0
}

// Preview is the start of each section of a block, for one-line summaries.
type Preview struct {
	// Anchor is the leading anchor's preview ("" when it is empty).
	Anchor string `json:"anchor_preview" jsonschema:"The leading anchor's first non-blank line, trimmed, cut to 50 characters with \"...\"; \"\" when it is empty."`
	// Old is the old lines' preview.
	Old string `json:"old_preview" jsonschema:"The old lines' first non-blank line, trimmed, cut to 50 characters with \"...\"; \"\" when none."`
	// New is the new lines' preview.
	New string `json:"new_preview" jsonschema:"The new lines' first non-blank line, trimmed, cut to 50 characters with \"...\"; \"\" when none."`
}

// Preview returns the block's previews: for each of the leading anchor, the
// old lines and the new lines, its first line that is not blank, with
// surrounding white space trimmed and, when longer than 50 runes, cut to
// 50 runes (then trailing white space) followed by "...";
// "" for a section with no such line.
func (b Block) Preview() Preview {
	return Preview{Anchor: preview(b.ContextBefore), Old: preview(b.OldLines), New: preview(b.NewLines)}
}

func preview(ls []string) string {
	for _, l := range ls {
		if t := strings.TrimSpace(l); t != "" {
			return abbreviate(t, previewLen)
		}
	}
	return ""
}

const utf8BOM = "\uFEFF"

// Apply applies the block to text, the whole content of one file, and
// returns the new content; or, when the block does not apply, text
// unchanged and a *Failure (see the Code constants). It is a pure function
// of the block and text.
//
// Lines are compared exactly, after line endings only; the lines written
// get text's dominant line ending (LF when text has none); a UTF-8 byte
// order mark, the final line ending or its absence, and every byte outside
// the replaced lines are kept, except that a text whose last line is empty
// always ends with a line ending (an unterminated empty last line cannot be
// told from a final line ending). Failure line numbers are 1-based lines of
// text. See the package documentation for the rules.
//
// A block already applied to text (its old lines not found, or found
// only inside its own new lines, and its new lines found with its anchors
// or context at exactly one place; see ApplyAllOutcomes) returns text
// unchanged and no Failure.
func (b Block) Apply(text string) (string, *Failure) {
	out, f := b.apply(text, match.Exact, false)
	return out, f.failure
}

// ApplyLevel is Apply with allowed as the loosest match level (package
// match; Apply is allowed = match.Exact, without the hint below), and
// returns where and at which level the block matched (Match.Line is the 1-based line of the block's
// first line, for an Insert block the 1-based line its first new line
// becomes; zero for a block that creates a file).
//
// The block's lines (leading anchor, old lines and trailing anchor, or the
// SEARCH lines) are matched as one sequence, at the first level from exact
// up to allowed with any match, with the block's positional rules (an
// empty leading anchor is the start of the file, an empty trailing anchor
// its end). One match applies; several at that level are AMBIGUOUS (a
// looser level never breaks the tie). At indent and loose the new lines
// are shifted by the matched indentation offset (match.ShiftIndent) and
// written in the file's indentation style. When the allowed levels find
// nothing, the Failure is Apply's (nearest lines), and its Hint and
// message name the one place the first looser level with any match
// finds, if it finds exactly one.
func (b Block) ApplyLevel(text string, allowed match.Level) (string, match.Match, *Failure) {
	out, f := b.apply(text, allowed, true)
	return out, f.m, f.failure
}

// applied is apply's outcome: the match, or the failure. already marks
// a block found already applied (see Block.already): m is where its new
// lines are, and the text is unchanged.
type applied struct {
	m       match.Match
	failure *Failure
	already bool
}

// apply is ApplyLevel; hint asks for the Failure's Hint. A block that is
// already in the text (its new side found where its anchors or context
// place it, see already and alreadyAt) applies without changing it.
func (b Block) apply(text string, allowed match.Level, hint bool) (string, applied) {
	out, a := b.applyOnce(text, allowed, hint)
	if a.failure != nil {
		if m, ok := b.already(text, allowed, a.failure); ok {
			return text, applied{m: m, already: true}
		}
		return out, a
	}
	if m, ok := b.alreadyAt(text, allowed, a.m); ok {
		return text, applied{m: m, already: true}
	}
	return out, a
}

// retryable reports whether b is a block whose applied form can be
// recognised: one that changes lines in place (not a file's creation,
// deletion or move, not a hunk placed by its line numbers alone, not an
// apply_patch hunk placed by its @@ lines alone, not Aider's elision,
// whose pieces are not one sequence of lines), and whose new side adds a
// line its old side lacked (match.AddsLines: never a deletion, nor new
// lines all taken from the old ones, which leave nothing to tell a
// retried block from a mismatched one), and whose applied form says
// enough to be recognised by (match.Telling: not a lone "}" or "pass").
func (b Block) retryable() bool {
	if b.IsCreate() || b.FileOnly() || b.Delete || b.Pinned || b.Insert {
		return false
	}
	for _, l := range b.OldLines {
		if elisionLine(l) {
			return false
		}
	}
	return match.AddsLines(b.OldLines, b.NewLines) && match.Telling(b.reversed().window())
}

// reversed returns b with its old and new lines swapped: the block that
// finds b's applied form, anchors, context, @@ lines and line-number hint
// kept.
func (b Block) reversed() Block {
	r := b
	r.OldLines, r.NewLines = b.NewLines, b.OldLines
	return r
}

// already reports whether b, which failed on text with f, is already
// applied there: b is retryable, f says its lines are not found (not
// AMBIGUOUS, FILE_EXISTS, OVERLAP, FILE_ONLY), its old lines occur
// nowhere in the text at any allowed level (context or not: an old side
// still present elsewhere says the text is not simply b's result; unless
// they lie inside its new lines, which keep them), and
// its applied form (anchors or context around its new lines) matches at
// exactly one place at the first allowed level with any match, with b's
// positional rules. The match is that place.
func (b Block) already(text string, allowed match.Level, f *Failure) (match.Match, bool) {
	switch f.Code {
	case CodeAmbiguous, CodeFileExists, CodeOverlap, CodeFileOnly:
		return match.Match{}, false
	}
	if !b.retryable() {
		return match.Match{}, false
	}
	if len(b.OldLines) > 0 && len(match.Within(b.OldLines, b.NewLines)) == 0 {
		// Old lines that the block removes must be gone; old lines it
		// keeps inside its new ones (an insertion between anchors) are
		// its own, wherever else they occur.
		body := strings.TrimPrefix(text, utf8BOM)
		t := splitText(body, lines.DominantEnding(body))
		if _, ms := match.Search(t.text, b.OldLines, allowed); len(ms) > 0 {
			return match.Match{}, false
		}
	}
	_, a := b.reversed().applyOnce(text, allowed, false)
	if a.failure != nil {
		return match.Match{}, false
	}
	return a.m, true
}

// alreadyAt reports whether b, which matched at m in text, matched inside
// its own applied form: its old lines lie inside its new lines (a
// SEARCH/REPLACE block or hunk that keeps its anchor line and adds lines
// after it), the applied form matches at exactly one place, and b's old
// lines matched where that place holds them. Applying b again would write
// its added lines a second time.
func (b Block) alreadyAt(text string, allowed match.Level, m match.Match) (match.Match, bool) {
	offs := match.Within(b.OldLines, b.NewLines)
	if len(offs) == 0 || !b.retryable() {
		return match.Match{}, false
	}
	_, a := b.reversed().applyOnce(text, allowed, false)
	if a.failure != nil {
		return match.Match{}, false
	}
	for _, o := range offs {
		if a.m.Line+o == m.Line {
			return a.m, true
		}
	}
	return match.Match{}, false
}

// applyOnce applies b to text, without asking whether b is already
// there: a file's creation on an empty text, a hunk without context at
// its line numbers, else the one exact match; failing that, Aider's
// elision for a SEARCH block, then the looser levels up to allowed, and
// with hint the place the first looser level beyond them finds.
func (b Block) applyOnce(text string, allowed match.Level, hint bool) (string, applied) {
	bom := ""
	body := text
	if strings.HasPrefix(body, utf8BOM) {
		bom, body = utf8BOM, body[len(utf8BOM):]
	}
	if b.FileOnly() {
		return text, applied{failure: &Failure{Code: CodeFileOnly,
			Message: "the block only deletes or moves its file and changes no lines: the caller deletes or moves the file"}}
	}
	if b.IsCreate() {
		return b.applyCreate(text, bom, body)
	}
	eol := lines.DominantEnding(body)
	t := splitText(body, eol)
	if f := b.checkNoEOL(t); f != nil {
		return text, applied{failure: f}
	}
	if b.Pinned {
		return b.applyPinned(bom, t, eol)
	}
	m := b.match(t)
	if m.failure == nil {
		return bom + b.finalEOL(t.replace(m.start, m.end, b.NewLines, eol), eol), applied{m: match.Match{Line: m.start - b.leadLen() + 1}}
	}
	if m.failure.Code == CodeNotFound && b.Format == FormatSearchReplace {
		// Aider's elision: "..." lines splitting the block into pieces.
		if out, line, why, ok := b.applyElided(body, eol); ok {
			return bom + out, applied{m: match.Match{Line: line}}
		} else if why != "" {
			m.failure.Message += "; read as Aider's elision, " + why
		}
	}
	if m.failure.Code == CodeAmbiguous || b.Insert {
		// A looser level never breaks a tie, and an insertion's @@
		// lines are compared trimmed at every level.
		return text, applied{failure: m.failure}
	}
	if out, a, ok := b.applyLooser(bom, t, eol, allowed); ok {
		if a.failure != nil {
			return text, a
		}
		return out, a
	}
	if hint {
		b.hintLooser(t, allowed, m.failure)
	}
	return text, applied{failure: m.failure}
}

// applyCreate applies a block that creates a file (IsCreate) to text,
// whose body without its byte order mark bom is body: only an empty text
// takes its new lines, with a final line ending unless a diff says the
// new file has none.
func (b Block) applyCreate(text, bom, body string) (string, applied) {
	if body != "" {
		n := len(splitText(body, lines.DominantEnding(body)).text)
		return text, applied{failure: &Failure{Code: CodeFileExists,
			Message: fmt.Sprintf("the block creates a file (%s), but the file exists and is not empty (%d lines)%s",
				createWhat(b), n, createFix(b))}}
	}
	if len(b.NewLines) == 0 {
		return text, applied{}
	}
	if b.NewNoEOL {
		return bom + strings.Join(b.NewLines, "\n"), applied{}
	}
	return bom + strings.Join(b.NewLines, "\n") + "\n", applied{}
}

// applyLooser applies b, which matched nowhere exactly, at the first
// level from trailing up to allowed that matches it anywhere: ok reports
// that one did. At one place (or the one of several its line numbers
// name) it returns the new text, the new lines shifted by the matched
// indentation at indent and loose; at several, or where the new lines
// cannot be shifted, the applied's Failure.
func (b Block) applyLooser(bom string, t lineText, eol string, allowed match.Level) (string, applied, bool) {
	for l := match.Trailing; l <= allowed; l++ {
		ms := b.find(t, l)
		if len(ms) == 0 {
			continue
		}
		if len(ms) > 1 && b.Hint > 0 {
			for _, x := range ms {
				if x.Line+1 == b.Hint {
					ms = []match.Match{x}
					break
				}
			}
		}
		if len(ms) > 1 {
			lines := make([]int, len(ms))
			for i, x := range ms {
				lines[i] = x.Line + 1
			}
			return "", applied{failure: &Failure{Code: CodeAmbiguous, Candidates: lines,
				Message: fmt.Sprintf("the block is ambiguous at match level %s: its lines occur at %d places (starting at lines %s); add lines that differ between the places",
					l, len(lines), joinInts(lines))}}, true
		}
		x := ms[0]
		repl := b.NewLines
		if l >= match.Indent {
			shifted, err := match.ShiftIndent(b.NewLines, x.Shift)
			if err != nil {
				return "", applied{failure: &Failure{Code: CodeOldMismatch, Line: x.Line + 1,
					Message: fmt.Sprintf("the block's lines match at line %d at level %s, but its new lines cannot be shifted: %v", x.Line+1, x.Describe(), err)}}, true
			}
			repl = shifted
		}
		start := x.Line + b.leadLen()
		x.Line++
		return bom + b.finalEOL(t.replace(start, start+len(b.OldLines), repl, eol), eol), applied{m: x}, true
	}
	return "", applied{}, false
}

// hintLooser adds to f, the failure of a block that matched at no level
// up to allowed, the one place the first looser level with any match
// finds, if it finds exactly one (Failure.Hint, and its message).
func (b Block) hintLooser(t lineText, allowed match.Level, f *Failure) {
	for l := allowed + 1; l <= match.Loose; l++ {
		ms := b.find(t, l)
		if len(ms) == 0 {
			continue
		}
		if len(ms) == 1 {
			h := match.Hint{Line: ms[0].Line + 1, Level: l, Shift: ms[0].Shift}
			f.Hint = &h
			f.Message += fmt.Sprintf("; at level %s the block's lines match exactly one place (starting at line %d)",
				match.Describe(l, h.Shift), h.Line)
		}
		return
	}
}

// elisionLine reports whether l is a line Aider reads as "the file's
// lines here are left out": "..." after optional indentation.
func elisionLine(l string) bool { return strings.TrimLeft(l, " \t") == "..." }

// applyElided applies a SEARCH/REPLACE block whose SEARCH lines occur
// nowhere as Aider's elision: when its SEARCH and REPLACE sections hold
// the same "..." lines (elisionLine), pairwise equal and in the same
// order, they split both into pieces, and each piece's SEARCH lines
// replace by its REPLACE lines, in order, each where its SEARCH lines
// occur exactly once in the text as the pieces before it left it, after
// the piece before (Aider requires one occurrence of each piece too, but
// not the order). It returns the new body, the 1-based line where the
// first piece matched, and ok; or, when the block holds "..." lines but
// its pieces do not apply so, why (ok false, why "" for a block without
// elision). A piece with REPLACE lines but no SEARCH lines, which Aider
// appends to the file, is refused: nothing says where it goes.
func (b Block) applyElided(body, eol string) (out string, line int, why string, ok bool) {
	split := func(ls []string) (pieces [][]string, dots []string) {
		cur := []string{}
		for _, l := range ls {
			if elisionLine(l) {
				pieces, dots, cur = append(pieces, cur), append(dots, l), []string{}
				continue
			}
			cur = append(cur, l)
		}
		return append(pieces, cur), dots
	}
	olds, oldDots := split(b.OldLines)
	news, newDots := split(b.NewLines)
	switch {
	case len(oldDots) == 0:
		return "", 0, "", false
	case !slices.Equal(oldDots, newDots):
		return "", 0, fmt.Sprintf("the SEARCH section has %d \"...\" lines and the REPLACE section %d, which must be the same lines", len(oldDots), len(newDots)), false
	}
	out, at := body, 0 // at: the first line after the last piece written
	for k := range olds {
		if len(olds[k]) == 0 && len(news[k]) == 0 {
			continue
		}
		if len(olds[k]) == 0 {
			return "", 0, fmt.Sprintf("piece %d has REPLACE lines but no SEARCH lines, so nothing says where they go", k+1), false
		}
		t := splitText(out, eol)
		m := Block{Format: FormatSearchReplace, OldLines: olds[k]}.match(t)
		switch {
		case m.failure != nil && m.failure.Code == CodeAmbiguous:
			return "", 0, fmt.Sprintf("piece %d's SEARCH lines occur at lines %s", k+1, joinInts(m.failure.Candidates)), false
		case m.failure != nil:
			return "", 0, fmt.Sprintf("piece %d's SEARCH lines do not occur (its line %q is not there)", k+1, lines.Excerpt(m.failure.Expected, "", MaxShown)), false
		case m.start < at:
			return "", 0, fmt.Sprintf("piece %d's SEARCH lines occur at line %d, above piece %d's", k+1, m.start+1, k), false
		}
		if line == 0 {
			line = m.start + 1
		}
		out = t.replace(m.start, m.end, news[k], eol)
		at = m.start + len(news[k])
	}
	return out, line, "", true
}

// applyPinned applies a hunk without context lines (Pinned) to t: at the
// place its line numbers say, only when that place ends at t's last line,
// and only when its old lines are there, exactly (line endings aside).
// Elsewhere git apply, without --unidiff-zero, moves a pure insertion to
// the end of the file while patch inserts it at its line: no reading of
// it is sure.
func (b Block) applyPinned(bom string, t lineText, eol string) (string, applied) {
	n, at := len(t.text), b.Hint-1 // at: 0-based first old line
	if at < 0 || at+len(b.OldLines) != n {
		where := fmt.Sprintf("its old lines at lines %d-%d", b.Hint, b.Hint+len(b.OldLines)-1)
		if len(b.OldLines) == 0 {
			where = fmt.Sprintf("its new lines after line %d", b.Hint-1)
		}
		f := &Failure{Code: CodeTrailingNotFound}
		if n > 0 {
			f.Line = min(max(b.Hint, 1), n)
			f.Actual = t.text[f.Line-1]
		}
		f.Message = fmt.Sprintf("the hunk on reply line %d has no context lines (as diff -U0 writes), so only its line numbers place it, and they put %s, which is not the end of the file (%d lines): apply places a hunk without context only at the end of the file (git apply needs --unidiff-zero for it, and it and patch put such a hunk at different places elsewhere); send the hunk with context lines (diff -U3)",
			b.Line, where, n)
		return t.src, applied{failure: f}
	}
	for k, l := range b.OldLines {
		if t.text[at+k] != l {
			return t.src, applied{failure: &Failure{Code: CodeOldMismatch, Line: at + k + 1, Expected: l, Actual: t.text[at+k],
				Message: fmt.Sprintf("the hunk on reply line %d has no context lines, so its line numbers place it: line %d of its old side is not line %d of the file", b.Line, k+1, at+k+1)}}
		}
	}
	return bom + b.finalEOL(t.replace(at, n, b.NewLines, eol), eol), applied{m: match.Match{Line: b.Hint}}
}

// checkNoEOL refuses a hunk whose old side ends without a line ending
// (OldNoEOL) on a text whose last line has one: the hunk was written
// against another file, and git apply refuses it too.
func (b Block) checkNoEOL(t lineText) *Failure {
	n := len(t.text)
	if !b.OldNoEOL || n == 0 || t.ends[n-1] == "" {
		return nil
	}
	return &Failure{Code: CodeOldMismatch, Line: n, Expected: b.OldLines[len(b.OldLines)-1], Actual: t.text[n-1],
		Message: fmt.Sprintf("the hunk says the file's last line has no line ending (\\ No newline at end of file after its old lines), but line %d, the last, has one", n)}
}

// finalEOL gives out, the text once the block's lines are replaced (with
// the original's final line ending or its absence kept), the final line
// ending a unified diff's hunk says: none when its new side ends without
// one (NewNoEOL), eol when only its old side did (OldNoEOL), as git apply
// and patch write it. An empty text stays empty.
func (b Block) finalEOL(out, eol string) string {
	switch {
	case b.NewNoEOL && strings.HasSuffix(out, "\n"):
		return strings.TrimSuffix(strings.TrimSuffix(out, "\n"), "\r")
	case b.NewNoEOL && eol == "\r":
		return strings.TrimSuffix(out, "\r")
	case !b.NewNoEOL && b.OldNoEOL && out != "" && !strings.HasSuffix(out, "\n") && !strings.HasSuffix(out, "\r"):
		return out + eol
	}
	return out
}

// anchored reports whether the block has EDIT semantics (anchors, and an
// empty anchor meaning the start or end of the file): every format but
// SEARCH/REPLACE and a unified diff's hunk.
func (b Block) anchored() bool {
	return b.Format != FormatSearchReplace && b.Format != FormatUnifiedDiff && b.Format != FormatApplyPatch
}

// byHint returns, of the 0-based places, the one that starts at b.Hint
// (1-based) when there is exactly one, else all of them.
func (b Block) byHint(places []int) []int {
	if b.Hint <= 0 {
		return places
	}
	for _, p := range places {
		if p+1 == b.Hint {
			return []int{p}
		}
	}
	return places
}

// leadLen is the number of leading anchor lines that match: none for a
// SEARCH/REPLACE block.
func (b Block) leadLen() int {
	if !b.anchored() {
		return 0
	}
	return len(b.ContextBefore)
}

// window returns the block's lines as matched: leading anchor, old lines
// and trailing anchor (the old lines alone for SEARCH/REPLACE).
func (b Block) window() []string {
	if !b.anchored() {
		return b.OldLines
	}
	w := make([]string, 0, len(b.ContextBefore)+len(b.OldLines)+len(b.ContextAfter))
	return append(append(append(w, b.ContextBefore...), b.OldLines...), b.ContextAfter...)
}

// find returns the places (0-based first lines) where the block's lines
// match t at level l exactly, with the positional rules of an EDIT
// block's empty anchors.
func (b Block) find(t lineText, l match.Level) []match.Match {
	if b.Insert {
		var out []match.Match
		for _, p := range b.insertPlaces(t.text) {
			out = append(out, match.Match{Line: p, Level: l})
		}
		return out
	}
	w := b.window()
	edit := b.anchored()
	var out []match.Match
	for _, x := range match.Find(t.text, w, l) {
		if edit && len(b.ContextBefore) == 0 && x.Line != 0 || edit && len(b.ContextAfter) == 0 && x.Line+len(w) != len(t.text) {
			continue
		}
		out = append(out, x)
	}
	if b.AtEnd || len(b.Scope) > 0 {
		places := make([]int, len(out))
		for i, x := range out {
			places[i] = x.Line
		}
		keep := map[int]bool{}
		for _, p := range b.narrow(t.text, places, len(w)) {
			keep[p] = true
		}
		kept := out[:0]
		for _, x := range out {
			if keep[x.Line] {
				kept = append(kept, x)
			}
		}
		out = kept
	}
	return out
}

// narrow keeps, of the 0-based places (ascending) where a window of w
// lines matches ls, those that an apply_patch hunk's AtEnd and Scope
// allow: ending at the last line, and being the first place after a chain
// of the Scope lines (see Block.Scope).
func (b Block) narrow(ls []string, places []int, w int) []int {
	if b.AtEnd {
		var end []int
		for _, p := range places {
			if p+w == len(ls) {
				end = append(end, p)
			}
		}
		places = end
	}
	if len(b.Scope) == 0 || len(places) == 0 {
		return places
	}
	var out []int
	for _, end := range b.scopeEnds(ls) {
		// The first place after the chain's last line.
		k := sort.SearchInts(places, end+1)
		if k < len(places) && (len(out) == 0 || out[len(out)-1] != places[k]) {
			out = append(out, places[k])
		}
	}
	return out
}

// scopeEnds returns, ascending and without repeats, the 0-based lines of
// ls where a chain of b.Scope ends: an occurrence of the first Scope line,
// then of each next one, each the first at or after the line after the one
// before; lines are compared with surrounding white space trimmed (see
// Block.Scope).
func (b Block) scopeEnds(ls []string) []int {
	n := len(ls)
	// next[i][x] is the first line at or after x that is Scope[i]
	// (trimmed), or n.
	next := make([][]int, len(b.Scope))
	for i, sc := range b.Scope {
		next[i] = make([]int, n+1)
		next[i][n] = n
		for x := n - 1; x >= 0; x-- {
			next[i][x] = next[i][x+1]
			if strings.TrimSpace(ls[x]) == sc {
				next[i][x] = x
			}
		}
	}
	var out []int
	for o := next[0][0]; o < n; o = next[0][o+1] {
		end := o
		for i := 1; i < len(b.Scope) && end < n; i++ {
			end = next[i][end+1]
		}
		if end < n && (len(out) == 0 || out[len(out)-1] != end) {
			out = append(out, end)
		}
	}
	return out
}

// insertPlaces returns, ascending, the 0-based lines of ls before which
// an Insert block's lines may go: right after each distinct end of a
// chain of its Scope lines (scopeEnds), or, without Scope, after the last
// line (len(ls)).
func (b Block) insertPlaces(ls []string) []int {
	if len(b.Scope) == 0 {
		return []int{len(ls)}
	}
	ends := b.scopeEnds(ls)
	for i := range ends {
		ends[i]++
	}
	return ends
}

// insertMatch places an Insert block in t: at its one place
// (insertPlaces), or it fails with NOT_FOUND (the Scope lines do not occur
// in order) or AMBIGUOUS (they lead to several places; Candidates are the
// 1-based lines of the last Scope line at each).
func (b Block) insertMatch(t lineText) matchResult {
	places := b.insertPlaces(t.text)
	switch {
	case len(places) == 1:
		return matchResult{start: places[0], end: places[0]}
	case len(places) == 0:
		// Which Scope line breaks the chain, for the nearest lines.
		missing, at := b.Scope[0], 0
		for _, sc := range b.Scope {
			found := false
			for ; at < len(t.text); at++ {
				if strings.TrimSpace(t.text[at]) == sc {
					found = true
					at++
					break
				}
			}
			if !found {
				missing = sc
				break
			}
		}
		f := &Failure{Code: CodeNotFound, Expected: missing, hasExpected: true, Nearest: nearest(t.text, missing, maxNearest)}
		for j := range f.Nearest {
			f.Nearest[j].Text = lines.Excerpt(f.Nearest[j].Text, missing, MaxShown)
		}
		f.Expected = lines.Excerpt(missing, "", MaxShown)
		f.Message = fmt.Sprintf("@@ line not found: the hunk only adds lines, right after its @@ line(s) %q, but the line %q does not occur in the file after the ones before it (lines are compared with surrounding white space trimmed)",
			b.Scope, f.Expected)
		return matchResult{failure: f}
	}
	// The 1-based line of the last @@ line is its 0-based successor.
	at := slices.Clone(places)
	return matchResult{failure: &Failure{Code: CodeAmbiguous, Candidates: at,
		Message: fmt.Sprintf("the block is ambiguous: the hunk only adds lines, right after its @@ line(s) %q, which occur at %d places (ending at lines %s); add an @@ line above them (such as the class line) or context lines that single one out",
			b.Scope, len(at), joinInts(at))}}
}

func createWhat(b Block) string {
	if b.Format == FormatApplyPatch {
		return "*** Add File"
	}
	if b.Format == FormatUnifiedDiff {
		return "--- /dev/null, a --- line dated 1970-01-01 or a hunk against an empty old file, @@ -0,0"
	}
	if !b.anchored() {
		return "its SEARCH section is empty"
	}
	return "its anchors and old lines are empty"
}

func createFix(b Block) string {
	if b.Format == FormatApplyPatch || b.Format == FormatUnifiedDiff {
		return "; to change it, send a hunk that updates it"
	}
	if !b.anchored() {
		return "; to change it, SEARCH for the lines to replace"
	}
	return "; to change it, give the anchors and old lines that say where"
}

// lineText is a text split into lines.
type lineText struct {
	src   string
	text  []string // the lines, without endings
	start []int    // byte offset of each line in src
	ends  []string // each line's ending: "", "\n", "\r\n" or "\r"
}

// splitText splits s as edit.Document does: at LF, a CR before it
// belonging to the ending; or, when eol is CR, at CR. A final line ending
// starts no line; "" has no lines.
func splitText(s, eol string) lineText {
	t := lineText{src: s}
	sep := byte('\n')
	if eol == "\r" {
		sep = '\r'
	}
	for at := 0; at < len(s); {
		i := strings.IndexByte(s[at:], sep)
		if i < 0 {
			t.add(at, s[at:], "")
			break
		}
		end := at + i
		if sep == '\n' && end > at && s[end-1] == '\r' {
			end--
		}
		t.add(at, s[at:end], s[end:at+i+1])
		at += i + 1
	}
	return t
}

func (t *lineText) add(start int, text, end string) {
	t.start = append(t.start, start)
	t.text = append(t.text, text)
	t.ends = append(t.ends, end)
}

// offset returns the byte offset of line i (0-based), len(src) past the
// end.
func (t lineText) offset(i int) int {
	if i >= len(t.start) {
		return len(t.src)
	}
	return t.start[i]
}

// replace returns src with lines [s, e) (0-based, e exclusive) replaced by
// repl, written with eol, as edit.Document.ReplaceLines does, except that
// an empty line is never left as the text's unterminated last line, where
// it would vanish (it would read as a final line ending): such a line gets
// an ending.
func (t lineText) replace(s, e int, repl []string, eol string) string {
	n := len(t.text)
	joined := strings.Join(repl, eol)
	emptyLast := len(repl) > 0 && repl[len(repl)-1] == ""
	from, to := t.offset(s), t.offset(e)
	var mid string
	switch {
	case e == s && len(repl) == 0: // nothing to do
		return t.src
	case e == s && s < n: // insert before line s
		mid = joined + eol
	case e == s: // append after the last line
		if n > 0 && t.ends[n-1] == "" {
			mid = eol + joined
			if emptyLast {
				mid += eol
			}
		} else {
			mid = joined + eol
		}
	case len(repl) == 0: // delete
		if t.ends[e-1] == "" && s > 0 && t.text[s-1] != "" {
			// Deleting through an unterminated last line: drop the
			// previous line's ending so the text still ends without one.
			from = t.start[s-1] + len(t.text[s-1])
		}
	default:
		mid = joined
		if t.ends[e-1] != "" || emptyLast {
			mid += eol
		}
	}
	var out strings.Builder
	out.Grow(from + len(mid) + len(t.src) - to)
	out.WriteString(t.src[:from])
	out.WriteString(mid)
	out.WriteString(t.src[to:])
	return out.String()
}

// matchResult is where a block applies: it replaces lines [start, end).
type matchResult struct {
	start, end int
	failure    *Failure
}

// match finds the one place where the block applies in t: the places
// its lines match (scan), narrowed by its @@ lines and *** End of File,
// then by its line numbers; several are AMBIGUOUS, and none is explained
// by the places that missed only the end of the file, or else by the
// place that matched the most lines (mismatch).
func (b Block) match(t lineText) matchResult {
	if b.Insert {
		return b.insertMatch(t)
	}
	edit := b.anchored()
	var lead, trail []string
	if edit {
		lead, trail = b.ContextBefore, b.ContextAfter
	}
	nl, no := len(lead), len(b.OldLines)
	window := make([]string, 0, nl+no+len(trail))
	window = append(append(append(window, lead...), b.OldLines...), trail...)
	sc := scan(t, window, nl, no, edit && nl == 0, edit && len(trail) == 0)
	matches := sc.matches
	if (b.AtEnd || len(b.Scope) > 0) && len(matches) > 0 {
		kept := b.narrow(t.text, matches, len(window))
		if len(kept) == 0 {
			return matchResult{failure: b.notInPlace(matches)}
		}
		matches = kept
	}
	if len(matches) > 1 {
		matches = b.byHint(matches)
	}
	switch {
	case len(matches) == 1:
		return matchResult{start: matches[0] + nl, end: matches[0] + nl + no}
	case len(matches) > 1:
		return matchResult{failure: b.ambiguous(matches)}
	case len(sc.notAtEnd) > 0:
		return matchResult{failure: trailingNotFound(t, sc.notAtEnd, len(window))}
	}
	return matchResult{failure: b.mismatch(t, window, sc.best, sc.bestK, sc.anchorHits, sc.oldHits)}
}

// scanned is what scan found of a block's window in a text: the 0-based
// places it matches whole; the 1-based places where it matches but is
// not at the end its empty trailing anchor asks for; the 1-based places
// where its leading anchor, and its leading anchor and old lines, match;
// and the place that matched the most lines (bestK of them).
type scanned struct {
	matches, notAtEnd, anchorHits, oldHits []int
	best, bestK                            int
}

// scan matches window (nl leading anchor lines, then no old lines, then
// the trailing anchor) at every place of t, or only at the first line
// when atStart, in one pass. Among the places that matched the most
// lines, best is the one whose next line is most like the block's
// (computed from the first tie, up to maxTies ties); the first such place
// at a tie.
func scan(t lineText, window []string, nl, no int, atStart, atEnd bool) scanned {
	var sc scanned
	n, w := len(t.text), len(window)
	bestSim, ties := -1.0, 0
	sc.best, sc.bestK = -1, -1
	last := n - 1
	if atStart {
		last = 0
	}
	for p := 0; p <= last; p++ {
		k := 0
		for k < w && p+k < n && t.text[p+k] == window[k] {
			k++
		}
		if nl > 0 && k >= nl {
			sc.anchorHits = append(sc.anchorHits, p+1)
		}
		if k >= nl+no && nl+no > 0 {
			sc.oldHits = append(sc.oldHits, p+1)
		}
		if k == w {
			if !atEnd || p+w == n {
				sc.matches = append(sc.matches, p)
				continue
			}
			sc.notAtEnd = append(sc.notAtEnd, p+1)
			continue // explained apart; not a partial match
		}
		switch {
		case k > sc.bestK:
			sc.best, sc.bestK, bestSim = p, k, -1
		case k == sc.bestK && k > 0 && ties < maxTies:
			ties++
			if bestSim < 0 {
				bestSim = nextSimilarity(t, window, sc.best, k)
			}
			if sim := nextSimilarity(t, window, p, k); sim > bestSim {
				sc.best, bestSim = p, sim
			}
		}
	}
	if sc.bestK < 0 { // an empty text
		sc.best, sc.bestK = 0, 0
	}
	return sc
}

// notInPlace is the refusal of a hunk whose lines match at the 0-based
// places matches, none of which its @@ lines or *** End of File allow.
func (b Block) notInPlace(matches []int) *Failure {
	lines := make([]int, len(matches))
	for i, p := range matches {
		lines[i] = p + 1
	}
	why := fmt.Sprintf("none of them is the first place after the @@ context line(s) %q", b.Scope)
	if b.AtEnd {
		why = "none of them ends at the file's last line, as *** End of File says"
		if len(b.Scope) > 0 {
			why = fmt.Sprintf("none of them both ends at the file's last line (*** End of File) and is the first place after the @@ context line(s) %q", b.Scope)
		}
	}
	return &Failure{Code: CodeNotFound, Candidates: lines,
		Message: fmt.Sprintf("hunk not in its place: its lines occur at %s %s, but %s", plural(len(lines), "line", "lines"), joinInts(lines), why)}
}

// ambiguous is the refusal of a block whose lines match at the 0-based
// places matches, with the way to single one out in its own format's
// terms.
func (b Block) ambiguous(matches []int) *Failure {
	lines := make([]int, len(matches))
	for i, p := range matches {
		lines[i] = p + 1
	}
	what, how := "its lines", "add anchor lines that differ between the places"
	switch b.Format {
	case FormatSearchReplace:
		what, how = "its SEARCH lines", "add lines before or after to the SEARCH and REPLACE sections that differ between the places"
	case FormatUnifiedDiff:
		what, how = "the hunk's context and removed lines", "add context lines that differ between the places, or give the hunk the line numbers of the one meant"
	case FormatApplyPatch:
		what, how = "the hunk's context and removed lines", "add context lines that differ between the places, or an @@ line (such as the def or class line above the hunk) that makes the place unique"
	}
	return &Failure{Code: CodeAmbiguous, Candidates: lines,
		Message: fmt.Sprintf("the block is ambiguous: %s occur at %d places (starting at lines %s); %s",
			what, len(lines), joinInts(lines), how)}
}

// trailingNotFound is the refusal of a block with an empty trailing
// anchor (the end of the file) whose w lines match only at the 1-based
// places notAtEnd, with lines after them.
func trailingNotFound(t lineText, notAtEnd []int, w int) *Failure {
	n := len(t.text)
	p := notAtEnd[0] - 1
	at := lineRange(p+1, p+w)
	if len(notAtEnd) > 1 {
		at = "the places starting at lines " + joinInts(notAtEnd)
	}
	actual := lines.Excerpt(t.text[p+w], "", MaxShown)
	return &Failure{Code: CodeTrailingNotFound, Line: p + w + 1, Actual: actual, Candidates: notAtEnd,
		Message: fmt.Sprintf("trailing anchor not found: it is empty, which means the end of the file (line %d), but the block's lines match at %s, and %s follow%s, starting with line %d %q; add trailing anchor lines",
			n, at, count(n-p-w, "line"), verbS(n-p-w), p+w+1, actual)}
}

// mismatch explains why no place matched, from the place p that matched
// the most lines of window, k of them (k < len(window)): which section
// the first line that differs is in (mismatchAt), what matched before it
// (matchedSoFar), and the text's line there or, past the text's end or
// with nothing matched, the text's lines nearest to it.
func (b Block) mismatch(t lineText, window []string, p, k int, anchorHits, oldHits []int) *Failure {
	edit := b.anchored()
	n := len(t.text)
	f := &Failure{Expected: window[k], hasExpected: true}
	head, section, i := b.mismatchAt(f, k, anchorHits, oldHits)
	where := b.matchedSoFar(p, k)
	// Lines are shown as windows around their first difference: from the
	// text's line at the mismatch, or else from the nearest line.
	f.Nearest = nearest(t.text, f.Expected, maxNearest)
	other := ""
	if len(f.Nearest) > 0 {
		other = f.Nearest[0].Text
	}
	exp := lines.Excerpt(f.Expected, other, MaxShown) // refined below once Actual is known
	switch at := p + k; {
	case where == "":
		f.Message = fmt.Sprintf("%s: line %d of %s, %q, occurs nowhere in the file", head, i, section, exp)
		if n == 0 {
			f.Message += " (the file is empty)"
		}
	case at >= n && n == 0:
		f.Message = fmt.Sprintf("%s: %s, but the file is empty where line %d of %s is %q", head, where, i, section, exp)
	case at >= n:
		f.Message = fmt.Sprintf("%s: %s, but the file ends at line %d where line %d of %s is %q", head, where, n, i, section, exp)
	default:
		f.Line, f.Actual = at+1, t.text[at]
		exp = lines.Excerpt(f.Expected, f.Actual, MaxShown)
		f.Message = fmt.Sprintf("%s: %s, but line %d is %q where line %d of %s is %q%s",
			head, where, at+1, lines.Excerpt(f.Actual, f.Expected, MaxShown), i, section, exp, whitespaceHint(f.Actual, f.Expected, match.IndentUnit(t.text)))
	}
	if len(f.Candidates) > 1 {
		f.Message += fmt.Sprintf(" (%d places match that far, at lines %s; this is the one most like the block)", len(f.Candidates), joinInts(f.Candidates))
	}
	if edit && len(b.ContextBefore) == 0 {
		// The model may have dropped the leading anchor: say where the
		// block's lines are.
		if at := occurrences(t.text, window, 5); len(at) > 0 {
			f.Message += fmt.Sprintf("; the block's lines occur at line %s: an empty leading anchor means the start of the file, so add leading anchor lines", joinInts(at))
		}
	}
	if f.Line == 0 && len(f.Nearest) > 0 {
		f.Message += whitespaceHint(f.Nearest[0].Text, f.Expected, match.IndentUnit(t.text))
	}
	for j := range f.Nearest {
		f.Nearest[j].Text = lines.Excerpt(f.Nearest[j].Text, f.Expected, MaxShown)
	}
	f.Expected, f.Actual = exp, lines.Excerpt(f.Actual, f.Expected, MaxShown)
	return f
}

// mismatchAt sets f's Code and Candidates by the section of the block
// that its window's line k (0-based) belongs to, and returns the
// message's head, the section's name and the line's 1-based number in
// it: a SEARCH section or hunk is one section; an EDIT block's old lines
// that differ name the places where its leading anchor matched, and its
// trailing anchor the places where its old lines did.
func (b Block) mismatchAt(f *Failure, k int, anchorHits, oldHits []int) (head, section string, i int) {
	nl, no := len(b.ContextBefore), len(b.OldLines)
	i = k + 1
	switch {
	case !b.anchored():
		f.Code, head, section = CodeNotFound, "SEARCH text not found", "the SEARCH section"
		if b.Format == FormatUnifiedDiff || b.Format == FormatApplyPatch {
			head, section = "hunk not found", "the hunk's old side (context and removed lines)"
		}
	case k < nl:
		f.Code, head, section = CodeLeadingNotFound, "leading anchor not found", "the leading anchor"
	case k < nl+no:
		f.Code, head, section, i = CodeOldMismatch, "old lines do not match", "the old lines", k-nl+1
		f.Candidates = anchorHits
	default:
		f.Code, head, section, i = CodeTrailingNotFound, "trailing anchor not found", "the trailing anchor", k-nl-no+1
		f.Candidates = oldHits
	}
	return head, section, i
}

// matchedSoFar says what of the block matched at 0-based line p before
// its window's line k, section by section ("the leading anchor matches
// at lines 3-4 and the old lines follow at lines 5-6"); "" when nothing
// did (and a SEARCH section has no empty anchor to speak of).
func (b Block) matchedSoFar(p, k int) string {
	edit := b.anchored()
	nl, no := 0, len(b.OldLines)
	if edit {
		nl = len(b.ContextBefore)
	}
	var parts []string
	switch {
	case !edit && k > 0:
		parts = append(parts, fmt.Sprintf("%s at %s", first(k, "its", "line", "matches", "match"), lineRange(p+1, p+k)))
	case !edit:
	case nl == 0:
		parts = append(parts, "the leading anchor is empty, which means the start of the file")
	case k >= nl:
		parts = append(parts, fmt.Sprintf("the leading anchor matches at %s", lineRange(p+1, p+nl)))
	case k > 0:
		parts = append(parts, fmt.Sprintf("%s at %s", first(k, "the leading anchor's", "line", "matches", "match"), lineRange(p+1, p+k)))
	}
	if edit && k > nl && no > 0 {
		if j := min(k-nl, no); j == no {
			parts = append(parts, fmt.Sprintf("the old lines follow at %s", lineRange(p+nl+1, p+nl+no)))
		} else {
			parts = append(parts, fmt.Sprintf("%s at %s", first(j, "the", "old line", "follows", "follow"), lineRange(p+nl+1, p+nl+j)))
		}
	}
	if edit && k > nl+no {
		parts = append(parts, fmt.Sprintf("%s at %s", first(k-nl-no, "the", "trailing anchor line", "follows", "follow"), lineRange(p+nl+no+1, p+k)))
	}
	return strings.Join(parts, " and ")
}

// nextSimilarity is the similarity of the text line after the k lines
// matched at p to the block's line k; 0 when the text ends first.
func nextSimilarity(t lineText, window []string, p, k int) float64 {
	if p+k >= len(t.text) {
		return 0
	}
	return similarity(t.text[p+k], window[k])
}

// similarity is Near.Similarity before rounding.
func similarity(a, b string) float64 {
	at, bt := strings.TrimSpace(a), strings.TrimSpace(b)
	if at == bt {
		if a == b {
			return 1
		}
		return 0.99
	}
	return difflib.NewMatcher(runeStrings(at), runeStrings(bt)).Ratio()
}

// occurrences returns the 1-based lines where window occurs in ls, at most
// limit of them.
func occurrences(ls, window []string, limit int) []int {
	var out []int
	for p := 0; p+len(window) <= len(ls) && len(out) < limit; p++ {
		k := 0
		for k < len(window) && ls[p+k] == window[k] {
			k++
		}
		if k == len(window) {
			out = append(out, p+1)
		}
	}
	return out
}

// first says "the first line follows" or "the first 3 lines follow".
func first(k int, owner, noun, verbOne, verbMany string) string {
	if k == 1 {
		return fmt.Sprintf("%s first %s %s", owner, noun, verbOne)
	}
	return fmt.Sprintf("%s first %d %ss %s", owner, k, noun, verbMany)
}

// count says "1 line" or "3 lines".
func count(k int, noun string) string {
	if k == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", k, noun)
}

// verbS is the verb ending that agrees with k subjects.
func verbS(k int) string {
	if k == 1 {
		return "s"
	}
	return ""
}

func lineRange(first, last int) string {
	if first == last {
		return "line " + strconv.Itoa(first)
	}
	return fmt.Sprintf("lines %d-%d", first, last)
}

// whitespaceHint explains, for a block's line expected that the file's
// line actual matches but for white space or invisible characters, each
// difference (match.Whitespace: a tab shown as spaces, a no-break space,
// a CR) and how the file indents (unit, match.IndentUnit); "" for lines
// that differ in more.
func whitespaceHint(actual, expected, unit string) string {
	why, ok := match.Whitespace(expected, actual)
	if !ok {
		return ""
	}
	if unit != "" {
		why += "; the file indents with " + unit
	}
	return " (they differ only in white space or invisible characters: " + why + "; lines must match exactly)"
}

// nearest returns up to k lines of ls most similar to want, best first
// (the first line at a tie).
func nearest(ls []string, want string, k int) []Near {
	var out []Near
	for _, n := range similar.Nearest(ls, want, k, true) {
		out = append(out, Near{Line: n.Index + 1, Text: ls[n.Index], Similarity: n.Similarity})
	}
	return out
}

func runeStrings(s string) []string {
	out := make([]string, 0, len(s))
	for _, r := range s {
		out = append(out, string(r))
	}
	return out
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

// plural is one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
