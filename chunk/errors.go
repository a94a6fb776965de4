package chunk

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/symedit/symedit/internal/lines"
	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/remedy"
)

// Check names one rule a chunk must satisfy. The numbered ones are the seven
// checks of the chunk spec; CheckContextBefore is its candidate search;
// CheckUnique and CheckOverlap are symedit's own, so that a chunk never
// lands at a guessed place or on lines another chunk changes.
type Check string

// The checks, in the order the engine runs them at a candidate position.
const (
	CheckLineEndings   Check = "line_endings"   // check 7: one line-ending style per chunk
	CheckInsertion     Check = "insertion"      // check 3: an insertion needs context
	CheckContextBefore Check = "context_before" // candidate search: context_before must occur
	CheckBoundary      Check = "boundary"       // check 5: the chunk lies inside the symbol
	CheckOldLines      Check = "old_lines"      // check 2: old_lines match the file
	CheckDeletion      Check = "deletion"       // check 4: a deletion matches byte for byte
	CheckContextAfter  Check = "context_after"  // check 1: context_after follows old_lines
	CheckEndOfSymbol   Check = "end_of_symbol"  // check 6: empty context_after means the symbol's end
	CheckUnique        Check = "unique"         // exactly one candidate passes
	CheckOverlap       Check = "overlap"        // no two chunks change the same lines
)

// Number returns the check's number in the chunk spec (1 to 7), or 0 for
// the checks the spec does not number.
func (c Check) Number() int {
	switch c {
	case CheckContextAfter:
		return 1
	case CheckOldLines:
		return 2
	case CheckInsertion:
		return 3
	case CheckDeletion:
		return 4
	case CheckBoundary:
		return 5
	case CheckEndOfSymbol:
		return 6
	case CheckLineEndings:
		return 7
	}
	return 0
}

// String returns "check N (name)" for numbered checks, else the name.
func (c Check) String() string {
	if n := c.Number(); n > 0 {
		return "check " + strconv.Itoa(n) + " (" + string(c) + ")"
	}
	return string(c)
}

// Codes of Error, as printed in JSON output.
const (
	CodeNoMatch   = "NO_MATCH"
	CodeAmbiguous = "AMBIGUOUS"
	CodeOverlap   = "OVERLAP"
)

// Sentinel errors: an *Error wraps exactly one of them, by its Code, so
// callers can test with errors.Is.
var (
	ErrNoMatch   = errors.New("chunk does not match")
	ErrAmbiguous = errors.New("chunk matches more than one place")
	ErrOverlap   = errors.New("chunks overlap")
)

// Near is a line of the symbol that resembles a line the chunk expected.
type Near struct {
	// Line is the 1-based file line number.
	Line int `json:"line"`
	// Text is the line as it is in the file, without its line ending.
	Text string `json:"text"`
	// Similarity is 0 (nothing alike) to 1 (equal after trimming white
	// space), the ratio of github.com/pmezard/go-difflib's SequenceMatcher
	// over the lines' runes, rounded to two decimals.
	Similarity float64 `json:"similarity"`
}

// Error is a rejected chunk list. Nothing was applied. It carries what a
// model needs to correct its call in one retry: which chunk, which check,
// the real line where the chunk went wrong and the symbol's lines closest to
// what it expected.
type Error struct {
	// Code is CodeNoMatch, CodeAmbiguous or CodeOverlap.
	Code string `json:"code"`
	// Chunk is the 1-based index of the rejected chunk.
	Chunk int `json:"chunk"`
	// Other is, for CodeOverlap, the 1-based index of the other chunk.
	Other int `json:"other,omitempty"`
	// Check is the first check that failed.
	Check Check `json:"check"`
	// Message is a one-paragraph explanation, without the Nearest lines.
	Message string `json:"message"`
	// Line is the 1-based file line where the chunk first disagreed with
	// the file, or 0.
	Line int `json:"line,omitempty"`
	// Expected is the chunk's line at that point, and Actual the file's
	// (without line endings). A line over MaxShown bytes, here, in
	// Nearest and in Message, is cut to a window of MaxShown bytes around
	// its first difference from the other, "..." marking each cut, so that
	// no message grows with line length.
	Expected string `json:"expected,omitempty"`
	Actual   string `json:"actual,omitempty"`
	// Candidates are the 1-based file lines of every passing position
	// (CodeAmbiguous) or of the positions where context_before matched but
	// a later check failed (CodeNoMatch).
	Candidates []int `json:"candidates,omitempty"`
	// Nearest are the symbol's lines most similar to Expected, best first.
	Nearest []Near `json:"nearest,omitempty"`
	// Level is, for CodeAmbiguous at the indent or loose level, that
	// level's name; empty when the candidates passed at exact or trailing.
	Level string `json:"level,omitempty"`
	// Hint is, for CodeNoMatch, set when the chunk matches no place at the
	// allowed levels but exactly one at the first looser level with any
	// match: Hint.Line is that place's 1-based file line (where old_lines,
	// or the insertion point, would start), and Remedy sets the match
	// option that accepts it.
	Hint *match.Hint `json:"hint,omitempty"`
}

// Remedy returns the request change that accepts the chunk where Hint
// says, or nil without a Hint.
func (e *Error) Remedy() remedy.Remedy {
	if e.Hint == nil {
		return nil
	}
	return e.Hint.Remedy()
}

// Error returns Message followed by the nearest lines, one per line.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Message)
	if len(e.Nearest) > 0 {
		b.WriteString("\nnearest lines in the symbol:")
		for _, n := range e.Nearest {
			fmt.Fprintf(&b, "\n  %5d: %s  (similarity %.2f)", n.Line, n.Text, n.Similarity)
		}
	}
	return b.String()
}

// Unwrap returns ErrNoMatch, ErrAmbiguous or ErrOverlap, by Code.
func (e *Error) Unwrap() error {
	switch e.Code {
	case CodeAmbiguous:
		return ErrAmbiguous
	case CodeOverlap:
		return ErrOverlap
	}
	return ErrNoMatch
}

// InputError is a malformed chunk list: bad JSON, an unknown key, a value of
// the wrong type, a missing required key, or no chunks at all. It is an
// input error, not a rejected edit.
type InputError struct {
	// Chunk is the 1-based index of the offending chunk, or 0 when the
	// problem is with the input as a whole.
	Chunk int `json:"chunk,omitempty"`
	// Key is the offending key, or "".
	Key string `json:"key,omitempty"`
	// Msg says what is wrong and what was expected.
	Msg string `json:"message"`
}

func (e *InputError) Error() string {
	var b strings.Builder
	b.WriteString("invalid chunks: ")
	if e.Chunk > 0 {
		fmt.Fprintf(&b, "chunk %d: ", e.Chunk)
	}
	if e.Key != "" {
		fmt.Fprintf(&b, "%q: ", e.Key)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// MaxShown is the most bytes of one line an Error shows (Expected,
// Actual, Nearest texts and the lines quoted in Message), so that a
// rejection on a file with megabyte-long lines stays small.
const MaxShown = lines.Shown

// shown returns s, or for s over MaxShown bytes a window of it around its
// first difference from other, as lines.Excerpt cuts it.
func shown(s, other string) string { return lines.Excerpt(s, other, MaxShown) }
