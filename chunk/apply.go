package chunk

import (
	"fmt"
	"sort"
	"strings"

	"github.com/symedit/symedit/internal/similar"
	"github.com/symedit/symedit/match"
)

// Apply validates every chunk against t's original lines and, only if all
// pass and no two overlap, applies them all at once. It never modifies
// t.Lines.
//
// The error is an *Error (wrapping ErrNoMatch, ErrAmbiguous or ErrOverlap)
// for a chunk that fails a check, matches several places, or overlaps
// another; or an *InputError for an empty chunk list or a chunk that changes
// nothing. See the package documentation for the checks.
//
// Apply matches at the levels exact and trailing, as ApplyLevel with
// match.Trailing.
func Apply(t Target, chunks []Chunk) (Result, error) {
	return ApplyLevel(t, chunks, match.Trailing)
}

// ApplyLevel is Apply with max as the loosest match level allowed: each
// chunk is positioned at the first level, from match.Exact up to max, at
// which any candidate passes every check (several passing candidates at
// that level are ambiguous; a looser level never breaks the tie). At
// match.Indent and match.Loose the chunk's new_lines are shifted by the
// matched indentation offset before they are written. A chunk that
// matches nowhere up to max, but at exactly one place at the first looser
// level with any match, is rejected with Error.Hint set.
//
// A chunk already in the symbol (its old_lines found nowhere, or only
// inside its own new_lines where they were written, and context_before,
// new_lines and context_after at exactly one place) is placed there with
// Hunk.AlreadyApplied and writes the symbol's own lines back; it
// overlaps any other chunk that changes those lines. A chunk that adds
// no line (a deletion, new_lines taken from old_lines) or whose applied
// form is too small to tell (match.Telling) is never found so.
func ApplyLevel(t Target, chunks []Chunk, max match.Level) (Result, error) {
	if len(chunks) == 0 {
		return Result{}, &InputError{Msg: "no chunks: the list is empty"}
	}
	trimmed := make([]string, len(t.Lines))
	for i, l := range t.Lines {
		trimmed[i] = trimRight(l)
	}
	spans := make([]span, len(chunks))
	for i, c := range chunks {
		s, err := locate(t, trimmed, c, i+1, max)
		if err != nil {
			return Result{}, err
		}
		spans[i] = s
	}
	order := make([]int, len(spans))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return spans[order[a]].start < spans[order[b]].start })
	for k := 1; k < len(order); k++ {
		a, b := spans[order[k-1]], spans[order[k]]
		if b.start < a.end || b.start == a.start {
			return Result{}, overlapError(t, a, b)
		}
	}
	out := make([]string, 0, len(t.Lines))
	next := 0
	for _, i := range order {
		s := spans[i]
		out = append(out, t.Lines[next:s.start]...)
		out = append(out, s.new...)
		next = s.end
	}
	out = append(out, t.Lines[next:]...)
	var reps []LineReplacement
	for _, i := range order {
		if s := spans[i]; !s.already {
			reps = append(reps, LineReplacement{Chunk: s.chunk, Line: t.FirstLine + s.start, Removed: s.end - s.start, New: s.new})
		}
	}
	hunks := make([]Hunk, len(spans))
	for i, s := range spans {
		hunks[i] = Hunk{Chunk: s.chunk, Line: t.FirstLine + s.start, Removed: s.end - s.start, Added: len(s.new),
			Level: s.level, Shift: s.shift}
		if s.already {
			hunks[i].Removed, hunks[i].Added, hunks[i].AlreadyApplied = 0, 0, true
		}
	}
	return Result{Lines: out, Hunks: hunks, Replacements: reps}, nil
}

// span is where one chunk applies: it replaces Lines[start:end] by new.
type span struct {
	chunk      int // 1-based
	start, end int // 0-based indexes into Target.Lines, end exclusive
	new        []string
	level      match.Level
	shift      match.Shift
	// already marks a chunk found already applied: start and end are
	// where its new lines are, and new is those lines as the file has
	// them, so the span writes nothing new.
	already bool
}

func overlapError(t Target, a, b span) *Error {
	first, second := a, b
	if first.chunk > second.chunk {
		first, second = second, first
	}
	describe := func(s span) string {
		if s.end == s.start {
			return fmt.Sprintf("chunk %d inserts before line %d", s.chunk, t.FirstLine+s.start)
		}
		return fmt.Sprintf("chunk %d changes lines %d-%d", s.chunk, t.FirstLine+s.start, t.FirstLine+s.end-1)
	}
	return &Error{
		Code: CodeOverlap, Chunk: second.chunk, Other: first.chunk, Check: CheckOverlap,
		Line: t.FirstLine + b.start,
		Message: fmt.Sprintf("chunks %d and %d overlap: %s and %s; merge them into one chunk",
			first.chunk, second.chunk, describe(first), describe(second)),
	}
}

// attempt records how far one candidate position got before a check failed.
type attempt struct {
	pos      int   // candidate start of old_lines (0-based)
	matched  int   // lines of the window matched before the failure
	check    Check // the check that failed
	line     int   // 0-based index of the offending symbol line, or -1
	expected string
	reason   string
	shift    match.Shift // the indentation shift of a passing candidate
}

// locate finds the single position where chunk c (1-based index n) applies,
// at the first level up to max with any passing candidate: one passing
// candidate is the place (placed), none is a NO_MATCH error unless the
// chunk is already applied (notFound), several are an AMBIGUOUS error
// (ambiguous).
func locate(t Target, trimmed []string, c Chunk, n int, max match.Level) (span, error) {
	k, err := checkChunk(c, n)
	if err != nil {
		return span{}, err
	}
	window := make([]string, 0, len(k.before)+len(k.old)+len(k.after))
	window = append(append(append(window, k.before...), k.old...), k.after...)
	for i, w := range window {
		window[i] = trimRight(w)
	}
	raw := make([]string, 0, len(window))
	raw = append(append(append(raw, k.before...), k.old...), k.after...)

	var passing []attempt
	var s search
	level := match.Exact
	for ; level <= max; level++ {
		s = candidates(t, trimmed, k, window, raw, level)
		if passing = s.passing; len(passing) > 0 {
			break
		}
	}
	switch len(passing) {
	case 1:
		return placed(t, trimmed, k, n, max, passing[0], level)
	case 0:
		return notFound(t, trimmed, k, n, max, s, window, raw)
	}
	return span{}, ambiguous(t, len(k.old), n, passing, level)
}

// checkChunk returns chunk c (1-based index n) normalized, or the error
// that refuses it before any search: strings that mix line-ending
// styles, old_lines and new_lines both empty (it changes nothing), or an
// insertion (empty old_lines) with no context to say where it goes.
func checkChunk(c Chunk, n int) (normalized, error) {
	styles := 0
	for _, field := range [][]string{c.ContextBefore, c.OldLines, c.NewLines, c.ContextAfter} {
		for _, s := range field {
			styles |= lineEndingStyles(s)
		}
	}
	if styles&(styles-1) != 0 {
		return normalized{}, &Error{Code: CodeNoMatch, Chunk: n, Check: CheckLineEndings,
			Message: fmt.Sprintf("chunk %d failed %s: its strings mix line-ending styles (%s); send one line per array element, or use one style",
				n, CheckLineEndings, styleNames(styles))}
	}
	k := normalize(c)
	if len(k.old) == 0 && len(k.new) == 0 {
		return normalized{}, &InputError{Chunk: n, Key: "old_lines", Msg: "old_lines and new_lines are both empty: the chunk changes nothing"}
	}
	if len(k.old) == 0 && len(k.before) == 0 && len(k.after) == 0 {
		return normalized{}, &Error{Code: CodeNoMatch, Chunk: n, Check: CheckInsertion,
			Message: fmt.Sprintf("chunk %d failed %s: an insertion (empty old_lines) needs context_before or context_after to say where the new lines go", n, CheckInsertion)}
	}
	return k, nil
}

// placed is the span of chunk k (1-based index n) at a, its one passing
// candidate at level: the chunk's applied form when it is already there
// (alreadyAt), else old_lines replaced by new_lines, shifted at the
// indent and loose levels by a's indentation shift. The error is an
// *InputError for new_lines that the shift cannot move.
func placed(t Target, trimmed []string, k normalized, n int, max match.Level, a attempt, level match.Level) (span, error) {
	if sp, ok := alreadyAt(t, trimmed, k, n, max, a.pos); ok {
		return sp, nil
	}
	sp := span{chunk: n, start: a.pos, end: a.pos + len(k.old), new: k.new, level: level}
	if level >= match.Indent {
		sp.shift = a.shift
		shifted, err := match.ShiftIndent(k.new, a.shift)
		if err != nil {
			return span{}, &InputError{Chunk: n, Key: "new_lines", Msg: fmt.Sprintf(
				"old_lines matched at file line %d at level %s, but new_lines %v", t.FirstLine+a.pos, match.Describe(level, a.shift), err)}
		}
		sp.new = shifted
	}
	return sp, nil
}

// notFound decides chunk k (1-based index n), which no level up to max
// places (s is the last level's search): the span of its applied form
// when it is already applied (alreadyApplied), else the NO_MATCH error.
// When the first looser level with any passing candidate has exactly
// one, the error says so, in its message and as its Hint.
func notFound(t Target, trimmed []string, k normalized, n int, max match.Level, s search, window, raw []string) (span, error) {
	if sp, ok := alreadyApplied(t, trimmed, k, n, max); ok {
		return sp, nil
	}
	e := noMatch(t, trimmed, k, n, s.best, s.contextHits)
	for l := max + 1; l <= match.Loose; l++ {
		ls := candidates(t, trimmed, k, window, raw, l)
		if len(ls.passing) == 0 {
			continue
		}
		if len(ls.passing) == 1 {
			a := ls.passing[0]
			e.Hint = &match.Hint{Line: t.FirstLine + a.pos, Level: l, Shift: a.shift}
			what := "old_lines would start"
			if len(k.old) == 0 {
				what = "the insertion point would be"
			}
			e.Message += fmt.Sprintf("; at level %s it matches exactly one place (%s at file line %d)",
				match.Describe(l, a.shift), what, e.Hint.Line)
		}
		break
	}
	return span{}, e
}

// ambiguous is the AMBIGUOUS error of chunk n (no: its old_lines' count),
// whose candidates passing (two or more) all pass at level: it lists
// their file lines.
func ambiguous(t Target, no, n int, passing []attempt, level match.Level) *Error {
	lines := make([]int, len(passing))
	for i, p := range passing {
		lines[i] = t.FirstLine + p.pos
	}
	what := "old_lines start"
	if no == 0 {
		what = "the insertion point is"
	}
	at, name := "", ""
	if level >= match.Indent {
		name = level.String()
		at = " at level " + name
	}
	return &Error{Code: CodeAmbiguous, Chunk: n, Check: CheckUnique, Candidates: lines, Level: name,
		Message: fmt.Sprintf("chunk %d is ambiguous%s: it matches %d places (%s at file lines %s); add context_before or context_after lines that differ between them",
			n, at, len(passing), what, joinInts(lines))}
}

// reversed locates chunk k's applied form: context_before, new_lines,
// context_after, with the chunk's checks at the first level up to max
// with any passing candidate (old_lines and new_lines swap roles, so a
// chunk whose old_lines are empty meets the deletion check's byte-for-byte
// rule). It returns the one passing candidate and its level, or false for
// none or several.
func reversed(t Target, trimmed []string, k normalized, max match.Level) (attempt, match.Level, bool) {
	r := normalized{before: k.before, old: k.new, new: k.old, after: k.after}
	raw := make([]string, 0, len(r.before)+len(r.old)+len(r.after))
	raw = append(append(append(raw, r.before...), r.old...), r.after...)
	window := make([]string, len(raw))
	for i, w := range raw {
		window[i] = trimRight(w)
	}
	for l := match.Exact; l <= max; l++ {
		if s := candidates(t, trimmed, r, window, raw, l); len(s.passing) > 0 {
			return s.passing[0], l, len(s.passing) == 1
		}
	}
	return attempt{}, 0, false
}

// alreadyApplied reports whether chunk k (1-based n), which matches
// nowhere, is already in the symbol: its new_lines add a line
// (match.AddsLines: never a deletion, nor new lines taken from old_lines),
// its applied form says enough to be recognised by (match.Telling: not a
// lone "}" or "pass"),
// its applied form occurs at exactly one place with its context, at the
// chunk's levels, and its old_lines occur nowhere at all, context or not
// (an old side still present elsewhere says the file is not simply the
// chunk's result), unless they lie inside its new_lines, which keep them.
// The span then writes the file's own lines back.
func alreadyApplied(t Target, trimmed []string, k normalized, n int, max match.Level) (span, bool) {
	if !match.AddsLines(k.old, k.new) || !telling(k) {
		return span{}, false
	}
	if len(k.old) > 0 && len(match.Within(k.old, k.new)) == 0 && len(match.Find(t.Lines, k.old, max)) > 0 {
		return span{}, false
	}
	a, level, ok := reversed(t, trimmed, k, max)
	if !ok {
		return span{}, false
	}
	return alreadySpan(t, n, a.pos, len(k.new), level, a.shift), true
}

// alreadyAt reports whether chunk k (1-based n), whose old_lines matched
// at exactly one place, pos, lies inside its own applied form: its
// old_lines are part of its new_lines (an insertion that keeps its anchor
// line), the applied form occurs at exactly one place, and old_lines
// matched where that place holds them. Applying it again would write its
// new lines a second time.
func alreadyAt(t Target, trimmed []string, k normalized, n int, max match.Level, pos int) (span, bool) {
	offs := match.Within(k.old, k.new)
	if len(k.old) == 0 && len(k.new) > 0 {
		// An insertion placed by context_before alone (or context_after
		// alone) finds its insertion point again just before (or after)
		// the lines it wrote, if it ran before.
		offs = []int{0, len(k.new)}
	}
	if len(offs) == 0 || !telling(k) {
		return span{}, false
	}
	a, level, ok := reversed(t, trimmed, k, max)
	if !ok {
		return span{}, false
	}
	for _, o := range offs {
		if a.pos+o == pos {
			return alreadySpan(t, n, a.pos, len(k.new), level, a.shift), true
		}
	}
	return span{}, false
}

// telling reports whether chunk k's applied form, context_before,
// new_lines and context_after, says enough to be recognised by.
func telling(k normalized) bool {
	w := make([]string, 0, len(k.before)+len(k.new)+len(k.after))
	return match.Telling(append(append(append(w, k.before...), k.new...), k.after...))
}

func alreadySpan(t Target, n, pos, nn int, level match.Level, shift match.Shift) span {
	sp := span{chunk: n, start: pos, end: pos + nn, level: level, already: true}
	if level >= match.Indent {
		sp.shift = shift
	}
	sp.new = append([]string(nil), t.Lines[pos:pos+nn]...)
	return sp
}

// search is the outcome of trying every candidate position at one level.
type search struct {
	passing     []attempt
	contextHits []int
	best        attempt
}

// candidates tries every position for chunk k at level l. window holds the
// chunk's lines trimmed, raw the same lines as sent.
func candidates(t Target, trimmed []string, k normalized, window, raw []string, l match.Level) search {
	var cmp *match.Comparer
	if l != match.Trailing {
		cmp = match.NewComparer(t.Lines, raw, l)
	}
	nb := len(k.before)
	s := search{best: attempt{matched: -1}}
	for p := 0; p <= len(t.Lines); p++ {
		a := try(t, trimmed, k, window, p, cmp)
		if a.check == "" {
			s.passing = append(s.passing, a)
			continue
		}
		if nb > 0 && a.matched >= nb {
			s.contextHits = append(s.contextHits, t.FirstLine+p)
		}
		// The candidate that matched the most lines explains the failure
		// best; at a tie, a mismatch inside the symbol beats running off
		// its edge.
		if a.matched > s.best.matched || a.matched == s.best.matched && s.best.check == CheckBoundary && a.check != CheckBoundary {
			s.best = a
		}
	}
	return s
}

// try runs the positional checks for a candidate where old_lines start at p.
// cmp compares lines at the search's level, or is nil for match.Trailing,
// which compares trimmed lines with window.
func try(t Target, trimmed []string, k normalized, window []string, p int, cmp *match.Comparer) attempt {
	var st match.State
	nb, no, na := len(k.before), len(k.old), len(k.after)
	total := len(trimmed)
	from := p - nb
	a := attempt{pos: p, line: -1}
	for i, w := range window {
		if i == nb+no && !deletionExact(t, k, p, &a, cmp) {
			return a // check 4 runs as soon as old_lines have matched
		}
		at := from + i
		section := CheckOldLines
		switch {
		case i < nb:
			section = CheckContextBefore
		case i >= nb+no:
			section = CheckContextAfter
		}
		if at < 0 || at >= total {
			a.check, a.expected = CheckBoundary, w
			if at < 0 {
				a.reason = fmt.Sprintf("%s line %d would lie before the symbol's first line", string(section), i+1-sectionStart(section, nb, no))
			} else {
				a.reason = fmt.Sprintf("%s line %d would lie after the symbol's last line (%d)", string(section), i+1-sectionStart(section, nb, no), t.FirstLine+total-1)
			}
			return a
		}
		if cmp == nil && trimmed[at] != w || cmp != nil && !cmp.Line(at, i, &st) {
			a.check, a.line, a.expected = section, at, w
			return a
		}
		a.matched++
	}
	if na == 0 && !deletionExact(t, k, p, &a, cmp) {
		return a
	}
	if na == 0 && p+no != total {
		a.check, a.line = CheckEndOfSymbol, p+no
		a.reason = fmt.Sprintf("context_after is empty, which means old_lines end at the symbol's last line (%d), but %d more line(s) follow",
			t.FirstLine+total-1, total-p-no)
		return a
	}
	ok := attempt{pos: p}
	if cmp != nil {
		ok.shift = cmp.Shift(st)
	}
	return ok
}

// deletionExact runs check 4 at position p, once old_lines have matched
// after trimming: a deletion's old_lines must equal the lines byte for
// byte (at the indent and loose levels: byte for byte once the indentation
// is removed, so a deletion never relies on trimming or folding). On
// failure it fills a and returns false.
func deletionExact(t Target, k normalized, p int, a *attempt, cmp *match.Comparer) bool {
	if len(k.new) != 0 {
		return true
	}
	nb := len(k.before)
	for i, o := range k.old {
		var same bool
		if cmp != nil && cmp.Level() >= match.Indent {
			same = cmp.ContentEqual(p+i, nb+i)
		} else {
			same = t.Lines[p+i] == o
		}
		if !same {
			a.check, a.line, a.expected = CheckDeletion, p+i, o
			a.reason = "a deletion (empty new_lines) must match old_lines byte for byte, trailing white space included"
			return false
		}
	}
	return true
}

func sectionStart(c Check, nb, no int) int {
	switch c {
	case CheckOldLines:
		return nb
	case CheckContextAfter:
		return nb + no
	}
	return 0
}

// noMatch builds the rejection for a chunk no candidate passed, from the
// candidate that matched the most lines of the chunk.
func noMatch(t Target, trimmed []string, k normalized, n int, best attempt, hits []int) *Error {
	e := &Error{Code: CodeNoMatch, Chunk: n, Check: best.check, Candidates: hits}
	span := fmt.Sprintf("lines %d-%d", t.FirstLine, t.FirstLine+len(t.Lines)-1)
	if best.line >= 0 {
		e.Line = t.FirstLine + best.line
		e.Actual = t.Lines[best.line]
	}
	e.Expected = best.expected
	switch best.check {
	case CheckContextBefore:
		// context_before occurs nowhere: name the first of its lines that is
		// not in the symbol at all, else say the lines are not consecutive.
		missing := -1
		for i, w := range k.before {
			if !contains(trimmed, trimRight(w)) {
				missing = i
				break
			}
		}
		if missing >= 0 {
			e.Expected, e.Line, e.Actual = k.before[missing], 0, ""
			e.Message = fmt.Sprintf("chunk %d failed %s: context_before line %d %q is not in the symbol (%s)",
				n, CheckContextBefore, missing+1, shown(k.before[missing], ""), span)
		} else {
			e.Message = fmt.Sprintf("chunk %d failed %s: every context_before line occurs in the symbol (%s), but not consecutively in this order; closest: file line %d is %q where the chunk expects %q",
				n, CheckContextBefore, span, e.Line, shown(e.Actual, e.Expected), shown(e.Expected, e.Actual))
		}
	case CheckOldLines, CheckContextAfter:
		where := "where the chunk matches best"
		if len(k.before) > 0 && best.matched >= len(k.before) {
			where = fmt.Sprintf("after context_before (matched at lines %d-%d)", t.FirstLine+best.pos-len(k.before), t.FirstLine+best.pos-1)
		}
		e.Message = fmt.Sprintf("chunk %d failed %s: %s, file line %d is %q but the chunk expects %q",
			n, best.check, where, e.Line, shown(e.Actual, e.Expected), shown(e.Expected, e.Actual))
	case CheckDeletion:
		e.Message = fmt.Sprintf("chunk %d failed %s: %s; file line %d is %q, old_lines has %q",
			n, best.check, best.reason, e.Line, shown(e.Actual, e.Expected), shown(e.Expected, e.Actual))
	case CheckEndOfSymbol:
		e.Message = fmt.Sprintf("chunk %d failed %s: %s; the next is line %d %q; give context_after",
			n, best.check, best.reason, e.Line, shown(e.Actual, ""))
		e.Expected = ""
	case CheckBoundary:
		e.Message = fmt.Sprintf("chunk %d failed %s: %s; the symbol spans %s", n, best.check, best.reason, span)
	default:
		e.Message = fmt.Sprintf("chunk %d failed %s", n, best.check)
	}
	if e.Expected != "" {
		e.Nearest = nearest(t, e.Expected, 3)
	}
	// Lines that look the same may differ in white space or invisible
	// characters (a tab shown as spaces, a no-break space): say how.
	real := e.Actual
	if e.Line == 0 && len(e.Nearest) > 0 {
		real = e.Nearest[0].Text
	}
	if why, ok := match.Whitespace(e.Expected, real); ok && e.Expected != "" {
		if unit := match.IndentUnit(t.Lines); unit != "" {
			why += "; the file indents with " + unit
		}
		e.Message += " (they differ only in white space or invisible characters: " + why + ")"
	}
	for i := range e.Nearest {
		e.Nearest[i].Text = shown(e.Nearest[i].Text, e.Expected)
	}
	e.Expected, e.Actual = shown(e.Expected, e.Actual), shown(e.Actual, e.Expected)
	return e
}

func contains(lines []string, s string) bool {
	for _, l := range lines {
		if l == s {
			return true
		}
	}
	return false
}

// nearest returns up to k lines of t most similar to want, best first.
func nearest(t Target, want string, k int) []Near {
	var out []Near
	for _, n := range similar.Nearest(t.Lines, want, k, false) {
		out = append(out, Near{Line: t.FirstLine + n.Index, Text: t.Lines[n.Index], Similarity: n.Similarity})
	}
	return out
}

func styleNames(styles int) string {
	var names []string
	if styles&1 != 0 {
		names = append(names, "CRLF")
	}
	if styles&2 != 0 {
		names = append(names, "LF")
	}
	if styles&4 != 0 {
		names = append(names, "CR")
	}
	return strings.Join(names, " and ")
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}
