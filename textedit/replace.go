package textedit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/internal/probe"
	"github.com/symedit/symedit/match"
)

// Search is one search-and-replace over a file's text, as `symedit
// replace` and the MCP tool replace run it.
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
	// lookBehind: re asserts something about the text before a position
	// (looksBehind), so it cannot be resumed on a suffix of the text.
	lookBehind bool
	// piece is, for a literal pattern, its longest run without a line
	// break: every match in any line-ending style holds it, so a file
	// without it has no match (MayMatch). nil for a regular expression,
	// and when the pattern is only line breaks.
	piece []byte
	// pieceRE matches piece case-insensitively, for a literal IgnoreCase
	// pattern; nil otherwise.
	pieceRE *regexp.Regexp
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
	r := &Searcher{s: s, re: re, repl: []byte(repl), lookBehind: looksBehind(expr)}
	if !s.Regex {
		r.piece = []byte(longestLine(s.Pattern))
		if len(r.piece) == 0 {
			r.piece = nil
		} else if s.IgnoreCase {
			r.pieceRE = regexp.MustCompile("(?i)" + regexp.QuoteMeta(string(r.piece)))
		}
	}
	return r, nil
}

// longestLine returns the longest run of s between line breaks (\n or
// \r), the first of equal ones.
func longestLine(s string) string {
	best := ""
	for _, l := range strings.FieldsFunc(s, func(c rune) bool { return c == '\n' || c == '\r' }) {
		if len(l) > len(best) {
			best = l
		}
	}
	return best
}

// MayMatch reports whether the bytes of a file, as they are on disk
// (a UTF-8 byte order mark included, any line endings, not necessarily
// UTF-8), may hold a match of r in the Document made from them; false
// means that they hold none, so that a search of many files reads each
// one's bytes once and makes a Document (its encoding checks, its lines)
// only of the few that may match. A literal pattern is looked for by its
// longest run between line breaks (bytes.Index; a case-insensitive one
// by a regular expression of that run), which every match in any
// line-ending style holds; a regular expression is run on the bytes
// after a UTF-8 byte order mark, as on a Document's Text (line breaks in
// it are never rewritten to the file's style: see inStyleOf). The
// answer may be true for bytes a Document would refuse (not UTF-8): the
// caller then reads why.
func (r *Searcher) MayMatch(raw []byte) bool {
	switch {
	case r.pieceRE != nil:
		return r.pieceRE.Match(raw)
	case r.piece != nil:
		return bytes.Contains(raw, r.piece)
	case r.s.Regex:
		return r.re.Match(bytes.TrimPrefix(raw, []byte(edit.UTF8BOM)))
	}
	return true // a pattern of line breaks only: a line break is cheap to find later
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
	// listing of matches stays small however long the lines are.
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
// into the result: one per match replaced, in order, with byte offsets into
// text (Apply(text, edits) is the result). The syntax guard re-parses
// incrementally from them and DiffEdits builds the diff from them, in time
// proportional to the change, not to the file; an edit whose new text equals
// the match is kept (both skip it).
func (r *Searcher) ReplaceEdits(text string) (string, int, []Match, []edit.Edit) {
	return r.replace(text, true)
}

// ReplaceDocument is ReplaceEdits on d's Text, without copying it, so that a
// large file is held in memory once: content is d's new Content, its byte
// order mark kept, made in one allocation, and the edits' offsets are
// offsets into d.Content. Lines and columns are those of d's Text. When
// nothing matches, content is d.Content itself (not a copy), n is 0 and
// matches and edits are nil.
func (r *Searcher) ReplaceDocument(d *edit.Document) (content []byte, n int, matches []Match, edits []edit.Edit) {
	bom := d.Content[:len(d.Content)-len(d.Text)]
	content, n, matches, edits = r.replaceIn(d.Text, d.EOL, bom, true)
	if len(matches) == 0 {
		return d.Content, 0, nil, nil
	}
	return content, n, matches, edits
}

// replace is Replace, with the edits when withEdits.
func (r *Searcher) replace(text string, withEdits bool) (string, int, []Match, []edit.Edit) {
	b := []byte(text)
	out, n, matches, edits := r.replaceIn(b, edit.DetectEOL(b), nil, withEdits)
	if len(matches) == 0 {
		return text, 0, nil, nil
	}
	return string(out), n, matches, edits
}

// replaceIn is replaceUpTo with no limit and a context that is never
// done.
func (r *Searcher) replaceIn(text []byte, eol string, prefix []byte, withEdits bool) ([]byte, int, []Match, []edit.Edit) {
	out, n, matches, edits, _ := r.replaceUpTo(context.Background(), text, eol, prefix, withEdits, 0, -1)
	return out, n, matches, edits
}

// ReplaceDocumentLimit is ReplaceDocument that stops when ctx is done
// (the error is then ctx's, and nothing else is returned) and, when
// limit > 0, stops searching at the limit-th match: a caller that
// refuses more than limit-1 matches reads len(matches) == limit as "at
// least limit", and then gets d.Content, 0 replacements and no edits,
// since nothing past the limit was looked at. Only the first
// MaxMatchLocations matches have their Text (and ContentColumn and
// LineLength), the most a listing shows: a window per match would cost
// 200 bytes each, 260 MB for the 1.3 million matches of a 10 MB line. Its
// work is linear in the size of d and in the number of matches it keeps,
// however long the lines.
func (r *Searcher) ReplaceDocumentLimit(ctx context.Context, d *edit.Document, limit int) (content []byte, n int, matches []Match, edits []edit.Edit, err error) {
	bom := d.Content[:len(d.Content)-len(d.Text)]
	content, n, matches, edits, err = r.replaceUpTo(ctx, d.Text, d.EOL, bom, true, limit, MaxMatchLocations)
	if err != nil {
		return nil, 0, nil, nil, err
	}
	if len(matches) == 0 || limit > 0 && len(matches) >= limit {
		return d.Content, 0, matches, nil, nil
	}
	return content, n, matches, edits, nil
}

// ctxEvery is how many loop iterations run between two looks at the
// context: often enough to stop within about a millisecond, rarely
// enough to cost nothing.
const ctxEvery = 1024

// replaceUpTo is the search and replace of text, whose dominant line
// ending is eol: it returns prefix followed by the replaced text (nil
// when nothing matched), with the edits, when withEdits, in offsets of
// that concatenation. With limit > 0 it stops at the limit-th match and
// returns only the matches (no content, no edits). The first windows
// matches (all when windows < 0) get their line's window as Text. It asks
// ctx every ctxEvery matches and returns its error when done. text is
// only read.
func (r *Searcher) replaceUpTo(ctx context.Context, text []byte, eol string, prefix []byte, withEdits bool, limit, windows int) ([]byte, int, []Match, []edit.Edit, error) {
	r = r.inStyleOf(text, eol)
	locs, err := r.findAll(ctx, text, limit)
	if err != nil {
		return nil, 0, nil, nil, err
	}
	if len(locs) == 0 {
		return nil, 0, nil, nil, nil
	}
	matches, err := placeMatches(ctx, text, eol, locs, windows)
	if err != nil {
		return nil, 0, nil, nil, err
	}
	if limit > 0 && len(locs) >= limit {
		return nil, 0, matches, nil, nil
	}
	n := len(locs)
	if r.s.Count > 0 && r.s.Count < n {
		n = r.s.Count
	}
	repl, ends, err := r.expandAll(ctx, text, locs[:n])
	if err != nil {
		return nil, 0, nil, nil, err
	}
	out, edits := splice(text, prefix, locs[:n], repl, ends, withEdits)
	return out, n, matches, edits, nil
}

// inStyleOf returns the Searcher to run on text, whose dominant line
// ending is eol. In a file whose line endings are all CRLF (or all CR),
// the line breaks of a literal pattern and of the replacement are
// written in the file's style, as every other command writes them: it
// returns r recompiled so. Otherwise (and if the recompiled pattern
// would not compile) it returns r.
func (r *Searcher) inStyleOf(text []byte, eol string) *Searcher {
	if eol == edit.LF || !strings.ContainsAny(r.s.Pattern+r.s.Replacement, "\r\n") || !uniformEOL(string(text), eol) {
		return r
	}
	s := r.s
	s.Replacement = withEOL(s.Replacement, eol)
	if !s.Regex {
		s.Pattern = withEOL(s.Pattern, eol)
	}
	if r2, err := Compile(s); err == nil {
		return r2
	}
	return r
}

// placeMatches returns the Match of each of locs (submatch indexes into
// text, in order; at least one): its line, columns and, for the first
// windows of them (all when windows < 0), its line's window as Text.
// Lines are split at eol's separator, as Document (and
// lines.IndexStarts) split them. It asks ctx every ctxEvery matches and
// returns its error when done.
//
// The matches come in order: the line count runs on from one to the
// next, so that finding every match's line reads the text once, and
// builds no index of its lines. The end of the current line is found
// once per line, not once per match: on one long line with many
// matches, a scan per match would be quadratic.
func placeMatches(ctx context.Context, text []byte, eol string, locs [][]int, windows int) ([]Match, error) {
	sep := byte('\n')
	if eol == edit.CR {
		sep = '\r'
	}
	matches := make([]Match, len(locs))
	seps := []byte{sep}
	at, line, lineStart, lineEnd := 0, 1, 0, -1
	for i, l := range locs {
		if i%ctxEvery == ctxEvery-1 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		probe.SearchSteps.Add(1)
		if k := bytes.Count(text[at:l[0]], seps); k > 0 {
			line += k
			lineStart = at + bytes.LastIndexByte(text[at:l[0]], sep) + 1
			lineEnd = -1
		}
		at = l[0]
		endStart := lineStart // the start of the line the match ends on
		if j := bytes.LastIndexByte(text[l[0]:l[1]], sep); j >= 0 {
			endStart = l[0] + j + 1
		}
		if lineEnd < 0 {
			lineEnd = len(text)
			if j := bytes.IndexByte(text[lineStart:], sep); j >= 0 {
				lineEnd = lineStart + j
			}
			probe.SearchSteps.Add(int64(lineEnd - lineStart + 1)) // the bytes scanned
		}
		col := l[0] - lineStart + 1
		matches[i] = Match{Line: line, Column: col, EndColumn: l[1] - endStart + 1}
		if windows < 0 || i < windows {
			full := bytes.TrimRight(text[lineStart:lineEnd], "\r")
			win, from := Window(full, col-1)
			matches[i].Text = string(win)
			if len(win) < len(full) {
				matches[i].ContentColumn, matches[i].LineLength = from+1, len(full)
			}
		}
	}
	return matches, nil
}

// expandAll expands the replacement for each of locs (submatch indexes
// into text) into one buffer, repl, so that the result can be one
// allocation of its exact size: the i-th replacement ends at ends[i] in
// repl. It asks ctx every ctxEvery matches and returns its error when
// done.
func (r *Searcher) expandAll(ctx context.Context, text []byte, locs [][]int) (repl []byte, ends []int, err error) {
	ends = make([]int, len(locs))
	for i, l := range locs {
		if i%ctxEvery == ctxEvery-1 {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
		}
		repl = r.re.Expand(repl, r.repl, text, l)
		ends[i] = len(repl)
	}
	return repl, ends, nil
}

// splice returns prefix followed by text with each of locs (submatch
// indexes into text, in order) replaced by its replacement in repl (the
// i-th ends at ends[i], as expandAll makes them), in one allocation of
// its exact size; with withEdits also the byte edits that do it, in
// offsets of prefix followed by text, whose New share one string.
func splice(text, prefix []byte, locs [][]int, repl []byte, ends []int, withEdits bool) ([]byte, []edit.Edit) {
	size := len(prefix) + len(text) + len(repl)
	for _, l := range locs {
		size -= l[1] - l[0]
	}
	out := make([]byte, 0, size)
	out = append(out, prefix...)
	var all string // every replacement, one string that the edits' New share
	var edits []edit.Edit
	if withEdits {
		all = string(repl)
		edits = make([]edit.Edit, 0, len(locs))
	}
	last, from := 0, 0
	for i, l := range locs {
		out = append(out, text[last:l[0]]...)
		out = append(out, repl[from:ends[i]]...)
		if withEdits {
			edits = append(edits, edit.Edit{Start: len(prefix) + l[0], End: len(prefix) + l[1], New: all[from:ends[i]]})
		}
		last, from = l[1], ends[i]
	}
	out = append(out, text[last:]...)
	return out, edits
}

// findAll returns the submatch indexes of the matches in text, as
// FindAllSubmatchIndex(text, limit) does (every match when limit is 0),
// but, where it can, one match at a time, asking ctx between them, so
// that a cancelled call stops searching. A pattern with an assertion
// about what comes before a position (^, \A, \b, \B) would read the
// text's start at the place a search resumes: it is searched in one
// call (linear in the text, as every RE2 search), and ctx is asked only
// after it.
func (r *Searcher) findAll(ctx context.Context, text []byte, limit int) ([][]int, error) {
	if limit <= 0 {
		limit = -1
	}
	if r.lookBehind {
		locs := r.re.FindAllSubmatchIndex(text, limit)
		probe.SearchSteps.Add(int64(len(locs)))
		return locs, ctx.Err()
	}
	// FindAll's loop (regexp.allMatches) on text[pos:]: without a look
	// behind, a match found there is the one found at pos in text.
	var locs [][]int
	prevEnd := -1
	for pos := 0; pos <= len(text) && len(locs) != limit; {
		if len(locs)%ctxEvery == ctxEvery-1 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		probe.SearchSteps.Add(1)
		m := r.re.FindSubmatchIndex(text[pos:])
		if m == nil {
			break
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += pos
			}
		}
		accept := true
		if m[1] == pos {
			// An empty match: never right after the previous match, and
			// the next search starts one character on.
			accept = m[0] != prevEnd
			if _, width := utf8.DecodeRune(text[pos:]); width > 0 {
				pos += width
			} else {
				pos = len(text) + 1
			}
		} else {
			pos = m[1]
		}
		prevEnd = m[1]
		if accept {
			locs = append(locs, m)
		}
	}
	return locs, ctx.Err()
}

// looksBehind reports whether the regular expression re has an
// assertion about the text before a position: ^ (at the start of the
// text or of a line) or a word boundary (\b, \B). Unparsable: true.
func looksBehind(expr string) bool {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return true
	}
	var walk func(*syntax.Regexp) bool
	walk = func(re *syntax.Regexp) bool {
		switch re.Op {
		case syntax.OpBeginLine, syntax.OpBeginText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
			return true
		}
		for _, s := range re.Sub {
			if walk(s) {
				return true
			}
		}
		return false
	}
	return walk(re)
}

// SimilarTo returns the places of text most similar to search (at most 5,
// best first, each with similarity 0.5 or more), as a NO_MATCH error of
// ApplyTextEdits lists them: what `symedit replace` shows when a search
// finds nothing. eol is the text's dominant line ending. When ctx is done
// the search stops and returns nil.
func SimilarTo(ctx context.Context, text, eol, search string) []SimilarContent {
	if search == "" {
		return nil
	}
	_, err := ApplyTextEditsContext(ctx, text, eol, []TextEdit{{OldText: search, Occurrences: 1}}, match.Exact)
	var te *TextEditError
	if errors.As(err, &te) {
		return te.Similar
	}
	return nil
}
