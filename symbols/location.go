package symbols

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Location is a place in a file as a caller writes it on the command line:
// either a position (Line, and optionally Column) or a name path.
type Location struct {
	// Path is the file's path as given.
	Path string
	// Line is the 1-based line number, or 0 when the location is a name
	// path.
	Line int
	// Column is the 1-based byte column, or 0 when none was given (0 means
	// the line's first non-blank column).
	Column int
	// NamePath is the symbol's name path or a suffix of it ("method",
	// "Class/method", "add[2]"), or "" when the location is a position.
	NamePath string
}

// String returns the location in the form ParseLocation reads:
// FILE::NAME_PATH, FILE:LINE:COL or FILE:LINE.
func (l Location) String() string {
	switch {
	case l.NamePath != "":
		return l.Path + "::" + l.NamePath
	case l.Column > 0:
		return fmt.Sprintf("%s:%d:%d", l.Path, l.Line, l.Column)
	default:
		return fmt.Sprintf("%s:%d", l.Path, l.Line)
	}
}

// locationForms is the error text that tells which forms ParseLocation
// reads.
const locationForms = "expected FILE:LINE, FILE:LINE:COL (1-based line, 1-based byte column) or FILE::NAME_PATH"

// ParseLocation parses a location in one of the forms
//
//	FILE:LINE:COL   1-based line and 1-based byte column (COL 0 means the
//	                line's first non-blank column)
//	FILE:LINE       the line's first non-blank column
//	FILE::NAME_PATH a symbol's name path or a suffix of it ("Class/method")
//
// The numeric suffixes are taken from the right, so a FILE that itself
// contains ':' (C:\src\a.py:12) still parses. The error, for an empty FILE
// or NAME_PATH, a missing, non-numeric or out-of-range LINE (0 or negative)
// or COL (negative), says which forms are expected.
func ParseLocation(s string) (Location, error) {
	s = strings.TrimSpace(s)
	bad := func(why string) (Location, error) {
		return Location{}, fmt.Errorf("invalid location %q: %s; %s", s, why, locationForms)
	}
	if s == "" {
		return bad("empty")
	}
	if i := strings.LastIndex(s, "::"); i >= 0 {
		path, np := s[:i], strings.TrimSpace(s[i+2:])
		if path == "" {
			return bad("no file before \"::\"")
		}
		if np == "" {
			return bad("empty name path after \"::\"")
		}
		return Location{Path: path, NamePath: np}, nil
	}
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return bad("no line number")
	}
	last := s[i+1:]
	rest := s[:i]
	if last == "" {
		return bad("nothing after the last ':'")
	}
	if !isInteger(last) {
		return bad(fmt.Sprintf("%q is not a line number", last))
	}
	// FILE:LINE:COL when the part before the last ':' ends in ":N".
	if j := strings.LastIndexByte(rest, ':'); j >= 0 {
		mid := rest[j+1:]
		switch {
		case isInteger(mid):
			line, err := parseNumber(mid, "line", 1)
			if err != nil {
				return bad(err.Error())
			}
			col, err := parseNumber(last, "column", 0)
			if err != nil {
				return bad(err.Error())
			}
			if rest[:j] == "" {
				return bad("no file before the line number")
			}
			return Location{Path: rest[:j], Line: line, Column: col}, nil
		case mid != "" && !strings.ContainsAny(mid, `/\.`):
			return bad(fmt.Sprintf("%q is not a line number", mid))
		}
	}
	line, err := parseNumber(last, "line", 1)
	if err != nil {
		return bad(err.Error())
	}
	if rest == "" {
		return bad("no file before the line number")
	}
	return Location{Path: rest, Line: line}, nil
}

// isInteger reports whether s is an optionally signed run of ASCII digits.
func isInteger(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func parseNumber(s, what string, min int) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%s %q is out of range", what, s)
	}
	if n < min {
		return 0, fmt.Errorf("%s %d must be at least %d", what, n, min)
	}
	return n, nil
}

// ErrNoMatch is wrapped by a *LocateError when no symbol is at a location:
// the position is outside every symbol or outside the file, or no symbol
// has the name path.
var ErrNoMatch = errors.New("no matching symbol")

// ErrAmbiguous is wrapped by a *LocateError when a name path suffix matches
// several symbols.
var ErrAmbiguous = errors.New("ambiguous name path")

// maxNearest is the most symbols a LocateError lists as Nearest.
const maxNearest = 5

// LocateError reports why Locate found no single symbol. Its Error text
// names the location and lists the candidates or nearest symbols as
// "name_path (kind) line:col-line:col" (1-based lines, 1-based byte columns,
// exclusive end) so that the caller can correct the location in one retry.
// It wraps ErrAmbiguous or ErrNoMatch.
type LocateError struct {
	// Loc is the location that was looked up.
	Loc Location
	// Reason is the first sentence of the message: what was looked up and
	// why it did not resolve.
	Reason string
	// Candidates are the symbols an ambiguous name path matches, in source
	// order.
	Candidates []Symbol
	// Nearest are up to 5 symbols near the location: the closest by line
	// distance for a position, the most similar names for a name path.
	Nearest []Symbol
	// OutOfRange is true when the position is outside the file (the line
	// is past its end) or outside its line (the column is past the line's
	// end).
	OutOfRange bool
	// Lines is the file's number of lines.
	Lines int
	// Err is ErrNoMatch or ErrAmbiguous.
	Err error
}

// Error returns Reason followed by "; candidates: ..." or "; nearest: ..."
// listing symbols as "name_path (kind) line:col-line:col".
func (e *LocateError) Error() string {
	var b strings.Builder
	b.WriteString(e.Reason)
	if len(e.Candidates) > 0 {
		b.WriteString("; candidates: ")
		writeSymbols(&b, e.Candidates)
	}
	if len(e.Nearest) > 0 {
		b.WriteString("; nearest: ")
		writeSymbols(&b, e.Nearest)
	}
	return b.String()
}

// Unwrap returns ErrNoMatch or ErrAmbiguous.
func (e *LocateError) Unwrap() error { return e.Err }

func writeSymbols(b *strings.Builder, syms []Symbol) {
	for i, s := range syms {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(b, "%s (%s) %d:%d-%d:%d", s.NamePath, s.Kind, s.Start.Line, s.Start.Column, s.End.Line, s.End.Column)
	}
}

// Locate returns the index in syms of the symbol at loc. syms is the slice
// Extract returned for src (only the positions, names and name paths are
// read, so a slice decoded from JSON works too); src is the file's content,
// used to count lines and find indentation.
//
// For a position (loc.NamePath empty) the result is the innermost symbol
// whose range contains it. Column 0, or a column inside the line's leading
// indentation, stands for the line's first non-blank column, so FILE:45:1
// on an indented method's def line selects the method, not its class. A
// column one past the line's last byte (not counting the line ending)
// stands for the last byte; a column further right is an error.
//
// For a name path the result is the symbol whose NamePath is exactly
// loc.NamePath; else the only symbol whose NamePath ends with it on a
// segment boundary, where a segment without a "[n]" suffix also matches
// its suffixed siblings ("add" matches "A/add" and "A/add[2]", which is then
// ambiguous). As a last resort "." and "(*T)" spellings (List.Len, (*List).Len)
// are read as "/" name paths.
//
// The error is a *LocateError: wrapping ErrAmbiguous when several symbols
// match a name path (Candidates lists them); wrapping ErrNoMatch when no
// symbol contains the position, the line is past the end of the file or the
// column past the end of the line (OutOfRange), or no symbol matches the
// name path; Nearest then lists up to 5 nearby symbols.
func Locate(syms []Symbol, src []byte, loc Location) (int, error) {
	if loc.NamePath != "" {
		return locateName(syms, src, loc)
	}
	return locatePosition(syms, src, loc)
}

// lineCount returns the number of lines in src as edit.Document counts
// them: a final line without a line ending counts, an empty src has none,
// a CR-only file's lines end at CR.
func lineCount(src []byte) int { return newLineIndex(src).count() }

func locatePosition(syms []Symbol, src []byte, loc Location) (int, error) {
	fail := func(reason string, outOfRange bool, line int) (int, error) {
		return -1, &LocateError{
			Loc: loc, Reason: reason, OutOfRange: outOfRange, Lines: lineCount(src),
			Nearest: nearestByLine(syms, line), Err: ErrNoMatch,
		}
	}
	if loc.Line < 1 {
		return fail(fmt.Sprintf("invalid line %d in %s: lines are 1-based", loc.Line, loc.Path), true, 1)
	}
	if loc.Column < 0 {
		return fail(fmt.Sprintf("invalid column %d in %s: columns are 1-based", loc.Column, loc.Path), true, loc.Line)
	}
	lines := newLineIndex(src)
	text, ok := lines.line(loc.Line)
	if !ok {
		n := lines.count()
		return fail(fmt.Sprintf("line %d is past the end of %s (the file has %d lines)", loc.Line, loc.Path, n), true, n)
	}
	indent := len(text) - len(bytes.TrimLeft(text, " \t\f\v"))
	col := loc.Column
	switch {
	case col > len(text)+1:
		return fail(fmt.Sprintf("column %d is past the end of line %d of %s (the line has %d bytes; columns are 1-based byte offsets)",
			col, loc.Line, loc.Path, len(text)), true, loc.Line)
	case col <= indent+1 && indent < len(text):
		col = indent + 1 // column 0 or inside the indentation
	case col == 0:
		col = 1 // a blank line
	case col == len(text)+1:
		col = len(text) // just past the line's end: its last byte
	}
	pos := Position{Line: loc.Line, Column: col}
	best := -1
	for i, s := range syms {
		if !before(pos, s.Start) && before(pos, s.End) {
			if best < 0 || !before(s.Start, syms[best].Start) {
				best = i
			}
		}
	}
	if best >= 0 {
		return best, nil
	}
	why := "between symbols"
	switch {
	case len(syms) == 0:
		why = "the file has no symbols"
	case indent == len(text):
		why = fmt.Sprintf("line %d is blank and outside every symbol", loc.Line)
	case before(pos, syms[0].Start):
		why = fmt.Sprintf("line %d is before the first symbol", loc.Line)
	case allBefore(syms, pos):
		why = fmt.Sprintf("line %d is after the last symbol", loc.Line)
	default:
		why = fmt.Sprintf("line %d is between symbols", loc.Line)
	}
	return fail(fmt.Sprintf("no symbol contains line %d col %d of %s (%s)", loc.Line, col, loc.Path, why), false, loc.Line)
}

// before reports whether position a comes before b.
func before(a, b Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
}

func allBefore(syms []Symbol, pos Position) bool {
	for _, s := range syms {
		if before(pos, s.End) {
			return false
		}
	}
	return true
}

// nearestByLine returns up to maxNearest symbols closest to line, by the
// distance from line to the symbol's lines, then in source order.
func nearestByLine(syms []Symbol, line int) []Symbol {
	type scored struct {
		i, d int
	}
	var ss []scored
	for i, s := range syms {
		d := 0
		switch {
		case line < s.Start.Line:
			d = s.Start.Line - line
		case line > s.LastLine():
			d = line - s.LastLine()
		}
		ss = append(ss, scored{i, d})
	}
	sort.SliceStable(ss, func(a, b int) bool { return ss[a].d < ss[b].d })
	var out []Symbol
	for k := 0; k < len(ss) && k < maxNearest; k++ {
		out = append(out, syms[ss[k].i])
	}
	sort.SliceStable(out, func(a, b int) bool { return before(out[a].Start, out[b].Start) })
	return out
}

func locateName(syms []Symbol, src []byte, loc Location) (int, error) {
	// The query is taken as written, slashes included: an operator's
	// name holds one (C++'s operator/, Ruby's def /, name path "V//"), so
	// trimming every trailing "/" would turn "V//" into "V", a different
	// symbol. Only when the query as written selects nothing are a
	// leading "/" (an absolute spelling) and one trailing "/" ("Foo/baz/")
	// dropped, never the last of two ("V//" stays an operator).
	q := strings.TrimSpace(loc.NamePath)
	if q == "" {
		return -1, &LocateError{Loc: loc, Reason: fmt.Sprintf("empty name path for %s", loc.Path), Lines: lineCount(src), Err: ErrNoMatch}
	}
	matches := matchName(syms, q)
	if t := trimSlashes(q); len(matches) == 0 && t != q && t != "" {
		q, matches = t, matchName(syms, t)
	}
	if len(matches) == 0 {
		if alt := dottedToSlashes(q); alt != q {
			matches = matchName(syms, alt)
		}
	}
	switch len(matches) {
	case 1:
		return matches[0], nil
	case 0:
		reason := fmt.Sprintf("no symbol in %s has name path %q", loc.Path, loc.NamePath)
		if len(syms) == 0 {
			reason = fmt.Sprintf("no symbol in %s has name path %q (the file has no symbols)", loc.Path, loc.NamePath)
		}
		return -1, &LocateError{Loc: loc, Reason: reason, Lines: lineCount(src), Nearest: nearestByName(syms, q), Err: ErrNoMatch}
	}
	cands := make([]Symbol, len(matches))
	for k, i := range matches {
		cands[k] = syms[i]
	}
	return -1, &LocateError{
		Loc:        loc,
		Reason:     fmt.Sprintf("name path %q matches %d symbols in %s; pass one of their full name paths", loc.NamePath, len(matches), loc.Path),
		Candidates: cands,
		Lines:      lineCount(src),
		Err:        ErrAmbiguous,
	}
}

// trimSlashes drops q's leading slashes and one trailing slash, unless
// q ends in "//".
func trimSlashes(q string) string {
	q = strings.TrimLeft(q, "/")
	if strings.HasSuffix(q, "/") && !strings.HasSuffix(q, "//") {
		q = q[:len(q)-1]
	}
	return q
}

// matchName returns the indexes of the symbols q selects: the exact name
// path if there is one, else the suffix matches.
func matchName(syms []Symbol, q string) []int {
	for i, s := range syms {
		if s.NamePath == q {
			return []int{i}
		}
	}
	var out []int
	for i, s := range syms {
		if suffixMatches(s.NamePath, q) {
			out = append(out, i)
		}
	}
	return out
}

// suffixMatches reports whether the segments of q match the last segments
// of name path np (see segmentMatches).
func suffixMatches(np, q string) bool {
	for {
		qi, pi := strings.LastIndexByte(q, '/'), strings.LastIndexByte(np, '/')
		if !segmentMatches(q[qi+1:], np[pi+1:]) {
			return false
		}
		if qi < 0 {
			return true
		}
		if pi < 0 {
			return false
		}
		q, np = q[:qi], np[:pi]
	}
}

// segmentMatches reports whether query segment q matches name path segment
// p: equal, or q has no "[n]" suffix and p is q with one.
func segmentMatches(q, p string) bool {
	if q == p {
		return true
	}
	if strings.HasSuffix(q, "]") || !strings.HasPrefix(p, q+"[") || !strings.HasSuffix(p, "]") {
		return false
	}
	return isInteger(p[len(q)+1 : len(p)-1])
}

// dottedToSlashes rewrites Class.method and Go's (*T).M / (T).M spellings
// as name paths.
func dottedToSlashes(q string) string {
	q = strings.NewReplacer("(*", "", "(", "", ")", "").Replace(q)
	return strings.ReplaceAll(q, ".", "/")
}

// nearestByName returns up to maxNearest symbols whose name paths are most
// similar to q.
func nearestByName(syms []Symbol, q string) []Symbol {
	lq := strings.ToLower(q)
	lastQ := lq[strings.LastIndexByte(lq, '/')+1:]
	type scored struct{ i, d int }
	var ss []scored
	var rows [2][]int
	for i, s := range syms {
		np := strings.ToLower(s.NamePath)
		name := np[strings.LastIndexByte(np, '/')+1:]
		d := min(editDistance(lastQ, name, &rows), editDistance(lq, np, &rows))
		if strings.Contains(np, lastQ) || strings.Contains(lastQ, name) {
			d = min(d, 1+abs(len(name)-len(lastQ))/4)
		}
		ss = append(ss, scored{i, d})
	}
	sort.SliceStable(ss, func(a, b int) bool { return ss[a].d < ss[b].d })
	var out []Symbol
	for k := 0; k < len(ss) && k < maxNearest; k++ {
		out = append(out, syms[ss[k].i])
	}
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// editDistance is the Levenshtein distance between a and b, in bytes
// (each cut to 64 bytes). rows is scratch space reused between calls.
func editDistance(a, b string, rows *[2][]int) int {
	if len(a) > 64 {
		a = a[:64]
	}
	if len(b) > 64 {
		b = b[:64]
	}
	if cap(rows[0]) < len(b)+1 {
		rows[0], rows[1] = make([]int, 65), make([]int, 65)
	}
	prev, cur := rows[0][:len(b)+1], rows[1][:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
