package edit

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Search is one search-and-replace over a file's text, as `symedit
// replace` runs it (seed 003's search_replace mode).
type Search struct {
	// Pattern is the text searched for: literal, or with Regex a Go RE2
	// regular expression.
	Pattern string
	// Replacement is written for each match. With Regex, $1 and ${name}
	// expand submatches, and \1 ... \9 are read as ${1} ... ${9} because
	// models write them; literal replacements are taken as they are.
	Replacement string
	// Regex selects regular-expression matching.
	Regex bool
	// IgnoreCase makes the match case-insensitive (literal or regex).
	IgnoreCase bool
	// Count caps the number of replacements (the first Count matches in
	// the file); 0 replaces every match.
	Count int
}

// ErrBadPattern is wrapped by Compile's errors: a regular expression that
// does not compile.
var ErrBadPattern = errors.New("invalid pattern")

// Searcher is a compiled Search, safe for concurrent use.
type Searcher struct {
	s    Search
	re   *regexp.Regexp
	repl []byte // the replacement as a template of re.Expand; only read
}

var backref = regexp.MustCompile(`\\([0-9])`)

// Compile checks s and compiles its pattern. The error wraps ErrBadPattern
// for an empty pattern, an invalid regular expression (with the parser's
// explanation) or a negative Count.
func Compile(s Search) (*Searcher, error) {
	if s.Pattern == "" {
		return nil, fmt.Errorf("%w: the search pattern is empty", ErrBadPattern)
	}
	if s.Count < 0 {
		return nil, fmt.Errorf("%w: --count must be 0 (all) or more, got %d", ErrBadPattern, s.Count)
	}
	expr := s.Pattern
	repl := s.Replacement
	if s.Regex {
		repl = backref.ReplaceAllString(repl, "$${$1}")
	} else {
		expr = regexp.QuoteMeta(expr)
		repl = strings.ReplaceAll(repl, "$", "$$")
	}
	if s.IgnoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadPattern, err)
	}
	return &Searcher{s: s, re: re, repl: []byte(repl)}, nil
}

// Match is one place a Searcher matched, in the text it searched.
type Match struct {
	// Line is the 1-based line of the match's first byte; Column its
	// 1-based byte column; EndColumn the exclusive byte column of its end
	// on its last line.
	Line      int `json:"line"`
	Column    int `json:"column"`
	EndColumn int `json:"end_column"`
	// Text is the match's first line, without its ending; a line over
	// MaxWindow bytes is cut to its Window around the match, so that a
	// listing of matches stays small however long the lines are (issue 12,
	// item 12).
	Text string `json:"line_content"`
	// ContentColumn, for a cut Text, is the 1-based byte column where Text
	// starts in the line, and LineLength the line's length in bytes; both
	// are 0 (left out) when Text is the whole line.
	ContentColumn int `json:"content_column,omitempty"`
	LineLength    int `json:"line_length,omitempty"`
}

// Display returns Text for a readable listing: with "..." where the line
// is cut.
func (m Match) Display() string {
	out := m.Text
	if m.ContentColumn > 1 {
		out = "..." + out
	}
	if m.LineLength > 0 && m.ContentColumn-1+len(m.Text) < m.LineLength {
		out += "..."
	}
	return out
}

// withEOL rewrites every line break of s (CRLF, LF or CR) as eol.
func withEOL(s, eol string) string { return strings.ReplaceAll(teToLF(s), "\n", eol) }

// Replace returns text with the matches replaced (the first Count of them
// when Count > 0), the number of replacements made, and every match found
// (all of them, also past Count), with line numbers of text; each Match
// holds at most a MaxWindow-byte window of its line. In a text
// whose line endings are all CRLF (or all CR), line breaks in a literal
// pattern and in the replacement are taken in the text's style. It does not
// check the count against any expectation: callers decide what zero or an
// unexpected number means.
func (r *Searcher) Replace(text string) (string, int, []Match) {
	out, n, matches, _ := r.replace(text, false)
	return out, n, matches
}

// ReplaceEdits is Replace that also returns the byte edits that turn text
// into the result: one per match replaced, in order, with byte offsets
// into text (Apply(text, edits) is the result). The syntax guard re-parses
// incrementally from them and DiffEdits builds the diff from them, in time
// proportional to the change (issue 15); an edit whose new text equals the
// match is kept (both skip it).
func (r *Searcher) ReplaceEdits(text string) (string, int, []Match, []Edit) {
	return r.replace(text, true)
}

// ReplaceDocument is ReplaceEdits on d's Text, without copying it
// (issue 15): content is d's new Content, its byte order mark kept, made
// in one allocation, and the edits' offsets are offsets into d.Content.
// Lines and columns are those of d's Text. When nothing matches, content is
// d.Content itself (not a copy), n is 0 and matches and edits are nil.
func (r *Searcher) ReplaceDocument(d *Document) (content []byte, n int, matches []Match, edits []Edit) {
	bom := d.Content[:len(d.Content)-len(d.Text)]
	content, n, matches, edits = r.replaceIn(d.Text, d.EOL, bom, true)
	if len(matches) == 0 {
		return d.Content, 0, nil, nil
	}
	return content, n, matches, edits
}

// replace is Replace, with the edits when withEdits.
func (r *Searcher) replace(text string, withEdits bool) (string, int, []Match, []Edit) {
	b := []byte(text)
	out, n, matches, edits := r.replaceIn(b, DetectEOL(b), nil, withEdits)
	if len(matches) == 0 {
		return text, 0, nil, nil
	}
	return string(out), n, matches, edits
}

// replaceIn is the search and replace of text, whose dominant line ending
// is eol: it returns prefix followed by the replaced text (nil when
// nothing matched), with the edits, when withEdits, in offsets of that
// concatenation. text is only read.
func (r *Searcher) replaceIn(text []byte, eol string, prefix []byte, withEdits bool) ([]byte, int, []Match, []Edit) {
	if eol != LF && strings.ContainsAny(r.s.Pattern+r.s.Replacement, "\r\n") && uniformEOL(string(text), eol) {
		// A file whose line endings are all CRLF (or all CR): the line
		// breaks of a literal pattern and of the replacement are written in
		// the file's style, as every other command writes them.
		s := r.s
		s.Replacement = withEOL(s.Replacement, eol)
		if !s.Regex {
			s.Pattern = withEOL(s.Pattern, eol)
		}
		if r2, err := Compile(s); err == nil {
			r = r2
		}
	}
	locs := r.re.FindAllSubmatchIndex(text, -1)
	if len(locs) == 0 {
		return nil, 0, nil, nil
	}
	sep := byte('\n') // lines as Document (and lines.IndexStarts) split them
	if eol == CR {
		sep = '\r'
	}
	matches := make([]Match, len(locs))
	// The matches come in order: the line count runs on from one to the
	// next, so that finding every match's line reads the text once, and
	// builds no index of its lines.
	seps := []byte{sep}
	at, line, lineStart := 0, 1, 0
	for i, l := range locs {
		if k := bytes.Count(text[at:l[0]], seps); k > 0 {
			line += k
			lineStart = at + bytes.LastIndexByte(text[at:l[0]], sep) + 1
		}
		at = l[0]
		endStart := lineStart // the start of the line the match ends on
		if j := bytes.LastIndexByte(text[l[0]:l[1]], sep); j >= 0 {
			endStart = l[0] + j + 1
		}
		lineEnd := len(text)
		if j := bytes.IndexByte(text[lineStart:], sep); j >= 0 {
			lineEnd = lineStart + j
		}
		full := bytes.TrimRight(text[lineStart:lineEnd], "\r")
		col := l[0] - lineStart + 1
		win, from := Window(full, col-1)
		matches[i] = Match{Line: line, Column: col, EndColumn: l[1] - endStart + 1, Text: string(win)}
		if len(win) < len(full) {
			matches[i].ContentColumn, matches[i].LineLength = from+1, len(full)
		}
	}
	n := len(locs)
	if r.s.Count > 0 && r.s.Count < n {
		n = r.s.Count
	}
	// Every replacement is expanded into one buffer first, so that the
	// result is one allocation of its exact size.
	var repl []byte
	ends := make([]int, n) // where each replacement ends in repl
	size := len(prefix) + len(text)
	for i, l := range locs[:n] {
		repl = r.re.Expand(repl, r.repl, text, l)
		ends[i] = len(repl)
		size -= l[1] - l[0]
	}
	out := make([]byte, 0, size+len(repl))
	out = append(out, prefix...)
	var all string // every replacement, one string that the edits' New share
	var edits []Edit
	if withEdits {
		all = string(repl)
		edits = make([]Edit, 0, n)
	}
	last, from := 0, 0
	for i, l := range locs[:n] {
		out = append(out, text[last:l[0]]...)
		out = append(out, repl[from:ends[i]]...)
		if withEdits {
			edits = append(edits, Edit{Start: len(prefix) + l[0], End: len(prefix) + l[1], New: all[from:ends[i]]})
		}
		last, from = l[1], ends[i]
	}
	out = append(out, text[last:]...)
	return out, n, matches, edits
}

// SimilarTo returns the places of text most similar to search (at most 5,
// best first, each with similarity 0.5 or more), as a NO_MATCH error of
// ApplyTextEdits lists them: what `symedit replace` shows when a search
// finds nothing. eol is the text's dominant line ending.
func SimilarTo(text, eol, search string) []SimilarContent {
	if search == "" {
		return nil
	}
	_, err := ApplyTextEdits(text, eol, []TextEdit{{OldText: search, Occurrences: 1}})
	var te *TextEditError
	if errors.As(err, &te) {
		return te.Similar
	}
	return nil
}
