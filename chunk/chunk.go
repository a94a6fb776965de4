package chunk

import (
	"strings"
	"unicode"

	"github.com/symedit/symedit/internal/lines"
	"github.com/symedit/symedit/match"
)

// Chunk is one context-anchored change, as a model sends it. Each string may
// hold several lines (see SplitLines); the engine splits them before
// matching. Empty ContextBefore / ContextAfter mean "no context": an empty
// ContextBefore adds no constraint, an empty ContextAfter means OldLines end
// at the symbol's last line (check 6). Empty OldLines is an insertion, empty
// NewLines a deletion.
type Chunk struct {
	ContextBefore []string `json:"context_before"`
	OldLines      []string `json:"old_lines"`
	NewLines      []string `json:"new_lines"`
	ContextAfter  []string `json:"context_after"`
}

// Target is the symbol a list of chunks edits.
type Target struct {
	// Lines are the symbol's whole lines, first to last, without line
	// endings.
	Lines []string
	// FirstLine is the 1-based file line number of Lines[0]; it only
	// numbers the lines in results and errors.
	FirstLine int
}

// Hunk is the span of the symbol where one chunk applied, as a unified
// diff's hunk gives it: Removed lines from Line (1-based, in the original
// file) were replaced by Added lines, matched at Level with Shift. It is
// where the chunk landed, not how its text was placed (textedit.Placement).
// JSON calls the list of them "placements".
type Hunk struct {
	// Chunk is the chunk's 1-based index in the input.
	Chunk int `json:"chunk" jsonschema:"The chunk's 1-based index in the request's chunks."`
	// Line is the 1-based file line of the first old line (for an
	// insertion: the line the new lines now start at, counted in the
	// original file).
	Line int `json:"line" jsonschema:"The 1-based file line of the chunk's first old line (for an insertion: the line the new lines start at), counted in the original file."`
	// Removed and Added count the lines the chunk replaced and wrote.
	Removed int `json:"removed" jsonschema:"How many lines the chunk replaced."`
	Added   int `json:"added" jsonschema:"How many lines the chunk wrote."`
	// Level is the level the chunk matched at (see package match): the
	// first level, from exact up to the allowed one, with any match.
	Level match.Level `json:"match" jsonschema:"The match level the chunk matched at: the first, from exact up to the allowed one, with any match."`
	// Shift is, for the indent and loose levels, the indentation shift
	// from the chunk's lines to the file's; new_lines were shifted by it.
	// It is the zero Shift (and absent from JSON) below indent.
	Shift match.Shift `json:"offset,omitzero" jsonschema:"The indentation shift from the chunk's lines to the file's, at the indent and loose levels (new_lines were shifted by it); else omitted."`
	// AlreadyApplied reports that the chunk was already in the symbol:
	// its old_lines occur nowhere (or only inside its own new lines) and
	// context_before, new_lines and context_after occur at exactly one
	// place, Line. The chunk wrote nothing (Removed and Added are 0).
	AlreadyApplied bool `json:"already_applied,omitempty" jsonschema:"True when the chunk was already in the symbol (its new lines found with its context at exactly one place, line, and its old lines nowhere else): it wrote nothing. Omitted otherwise."`
}

// Describe returns the level the chunk matched at and, for indent and
// loose, the offset: "trailing", "indent +8 spaces".
func (p Hunk) Describe() string { return match.Describe(p.Level, p.Shift) }

// Result is a successful application.
type Result struct {
	// Lines are the symbol's new lines, without line endings.
	Lines []string
	// Hunks lists where each chunk applied, in input order.
	Hunks []Hunk
	// Replacements are the chunks' own changes to the target's lines, in
	// file order, one per chunk that writes something (a chunk found
	// already applied writes nothing and has none): replacing each in
	// Target.Lines gives Lines. A caller turns them into byte edits of
	// the file, so that what it checks and shows is the spans the chunks
	// changed rather than the whole target.
	Replacements []LineReplacement
}

// LineReplacement is one chunk's change to the target's lines: Removed
// lines starting at file line Line (1-based, counted in the original
// file) are replaced by New, lines without line endings. Removed 0 is an
// insertion before line Line, which may be one past the target's last
// line (an insertion after it).
type LineReplacement struct {
	// Chunk is the chunk's 1-based index in the input.
	Chunk int
	// Line is the 1-based file line of the first replaced line, or of
	// the line the new lines go before when Removed is 0.
	Line int
	// Removed is how many lines, from Line on, are replaced.
	Removed int
	// New holds the lines written in their place, without line endings.
	New []string
}

// SplitLines splits s into lines at CRLF, LF or lone CR, dropping the
// line endings. A single trailing line ending does not start an empty last
// line ("a\n" is ["a"]); "" is one empty line. Multi-line chunk strings are
// split with it; edit.SplitText follows the same rule.
func SplitLines(s string) []string { return lines.Split(s) }

// lineEndingStyles reports which line-ending styles occur inside s:
// bit 1 CRLF, bit 2 LF, bit 4 lone CR.
func lineEndingStyles(s string) int {
	styles := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				styles |= 1
				i++
			} else {
				styles |= 4
			}
		case '\n':
			styles |= 2
		}
	}
	return styles
}

// trimRight removes trailing white space: the comparison of checks 1, 2 and
// context_before.
func trimRight(s string) string { return strings.TrimRightFunc(s, unicode.IsSpace) }

// split flattens a field's strings into lines. Parse has already turned
// the string "" (no context) into an empty field, so here every element is
// at least one line: [""] is one empty line.
func split(field []string) []string {
	var out []string
	for _, s := range field {
		out = append(out, SplitLines(s)...)
	}
	return out
}

// normalized is a chunk split into lines.
type normalized struct {
	before, old, new, after []string
}

func normalize(c Chunk) normalized {
	return normalized{
		before: split(c.ContextBefore),
		old:    split(c.OldLines),
		new:    split(c.NewLines),
		after:  split(c.ContextAfter),
	}
}
