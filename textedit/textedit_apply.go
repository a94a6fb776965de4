package textedit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/internal/lines"
	"github.com/symedit/symedit/internal/probe"
	"github.com/symedit/symedit/match"
)

// This file: applying exact text edits (ApplyTextEdits) and the reports of
// their failures; textedit.go has the types and the parser.

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
// are shifted by each occurrence's indentation shift (match.ShiftIndent),
// written in the file's indentation style. The summary says the level and
// the offset of each edit.
//
// When no allowed level finds old_text but, as whole lines, the first
// looser level with any match finds exactly one place, the NO_MATCH
// *TextEditError says so in its message, in Hint and as an
// ALLOW_MATCH_LEVEL suggested fix naming the flag.
//
// An edit expected once whose old_text is not found (or is found once,
// inside the one occurrence of its new_text) and whose new_text occurs
// exactly once is already applied: it replaces nothing, and its summary
// says so (TextEditSummary.AlreadyApplied). Not for a new_text that is
// empty, inside old_text, adds no line or is too small to tell
// (match.AddsLines, match.Telling), nor when a place at least 0.9 alike
// old_text remains away from new_text.
func ApplyTextEditsLevel(text, eol string, edits []TextEdit, allowed match.Level) (TextEditResult, error) {
	return ApplyTextEditsContext(context.Background(), text, eol, edits, allowed)
}

// ApplyTextEditsContext is ApplyTextEditsLevel that stops when ctx is
// done: every search (of an edit's occurrences, and of the similar
// places a NO_MATCH error lists) asks ctx as it goes, and the error is
// then ctx's, so that a cancelled call stops its work instead of only
// its answer.
func ApplyTextEditsContext(ctx context.Context, text, eol string, edits []TextEdit, allowed match.Level) (TextEditResult, error) {
	if err := teCheckEdits(edits); err != nil {
		return TextEditResult{}, err
	}
	if eol == "" {
		eol = edit.DetectEOL([]byte(text))
	}
	if eol != edit.LF && eol != edit.CRLF && eol != edit.CR {
		return TextEditResult{}, fmt.Errorf("edit: ApplyTextEdits: line ending %q is not LF, CRLF or CR", eol)
	}
	e := newTextEngine(text, eol)
	e.ctx = ctx
	if len(edits) > 4 && len(e.orig) > 4096 {
		e.freq = new([256]int)
		for _, c := range e.orig {
			e.freq[c]++
		}
	}
	res := TextEditResult{Edits: make([]TextEditSummary, 0, len(edits))}
	for i, te := range edits {
		sum, err := e.apply(i+1, len(edits), te, allowed)
		if err != nil {
			return TextEditResult{}, err
		}
		res.Edits = append(res.Edits, sum)
		res.TotalReplacements += sum.OccurrencesReplaced
	}
	res.Text = e.output()
	res.Changes = e.changes()
	return res, nil
}

// apply applies te, edit k (1-based) of total, to e's current text, with
// allowed the loosest match level, and returns its summary; or the
// error that rejects the whole call (a *TextEditError, or e.ctx's error
// when it is done). It decides, in turn: the literal occurrences; when
// there are none, the whole-line ones (lineOccurrences); whether the
// edit is already applied; whether the count is the one expected
// (countError); and then replaces the occurrences.
func (e *textEngine) apply(k, total int, te TextEdit, allowed match.Level) (TextEditSummary, error) {
	old, repl := te.OldText, te.NewText
	if e.uniform {
		old, repl = teToLF(old), teToLF(repl)
	}
	want := max(te.Occurrences, 1)
	matches := e.find(old)
	if e.ctx.Err() != nil {
		return TextEditSummary{}, e.ctx.Err()
	}
	sum := TextEditSummary{Edit: k, OccurrencesReplaced: len(matches)}
	var lens []int
	var repls []string
	if len(matches) == 0 && allowed > match.Exact && teWholeLines(old) {
		lm := e.findLines(old, allowed)
		if e.ctx.Err() != nil {
			return TextEditSummary{}, e.ctx.Err()
		}
		if len(lm.ms) > 0 {
			var err error
			if matches, lens, repls, err = e.lineOccurrences(k, total, te, old, repl, want, lm); err != nil {
				return TextEditSummary{}, err
			}
			sum.OccurrencesReplaced, sum.Match = len(matches), lm.level
			if lm.level >= match.Indent {
				o := lm.ms[0].Shift
				sum.Shift = &o
			}
		}
	}
	if want == 1 && lens == nil {
		if at, ok := e.already(old, repl, matches); ok {
			sum.OccurrencesReplaced, sum.AlreadyApplied = 0, true
			o, _ := e.locate(at)
			sum.Lines = []int{e.origLine(o)}
			return sum, nil
		}
	}
	if len(matches) != want {
		return TextEditSummary{}, e.countError(k, total, te, old, want, matches, allowed)
	}
	if lens == nil {
		lens, repls = make([]int, len(matches)), make([]string, len(matches))
		for j := range matches {
			lens[j], repls[j] = len(old), repl
		}
	}
	origs := e.replace(k, matches, lens, repls)
	sum.Lines = make([]int, len(origs))
	for j, o := range origs {
		sum.Lines[j] = e.origLine(o)
	}
	return sum, nil
}

// lineOccurrences decides an edit (k of total) whose old_text (old, as
// searched) the literal search did not find but whose whole lines lm
// found at least once: a count other than want rejects the call, with
// the level in the message; otherwise it returns the occurrences'
// offsets in the current text, their lengths and each one's new text
// (repl, shifted at the indent and loose levels).
func (e *textEngine) lineOccurrences(k, total int, te TextEdit, old, repl string, want int, lm teLineMatches) (matches, lens []int, repls []string, err error) {
	if len(lm.ms) != want {
		err := e.failure(k, total, te, old, want, lm.offsets())
		err.Message = strings.TrimSuffix(err.Message, ".") + fmt.Sprintf(" (old_text matched as whole lines at level %s).", lm.level)
		return nil, nil, nil, err
	}
	matches, lens, repls, err = e.lineReplacements(lm, repl)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("edit %d of %d failed: %w", k, total, err)
	}
	return matches, lens, repls, nil
}

// countError is the error that rejects an edit (k of total) whose
// old_text (old, as searched) occurs len(matches) times instead of
// want: the *TextEditError, with a hint of a looser level than allowed
// for a whole-line old_text found nowhere; or e.ctx's error when it is
// done, since the search for similar places then stopped short.
func (e *textEngine) countError(k, total int, te TextEdit, old string, want int, matches []int, allowed match.Level) error {
	err := e.failure(k, total, te, old, want, matches)
	if len(matches) == 0 && teWholeLines(old) {
		e.addHint(err, old, allowed)
	}
	if e.ctx.Err() != nil {
		return e.ctx.Err()
	}
	return err
}

// changes returns the byte edits that turn the input text into output(),
// in offsets of the input text: one per stretch of the current text
// between two pieces of original text that the edits left in place
// (e.segs), replacing the original bytes between those pieces.
func (e *textEngine) changes() []edit.Edit {
	var out []edit.Edit
	origAt, curAt := 0, 0 // the end of the last original piece, in orig and cur
	gap := func(origEnd, curEnd int) {
		if origEnd > origAt || curEnd > curAt {
			out = append(out, edit.Edit{Start: e.textOffset(origAt), End: e.textOffset(origEnd), New: e.withEOL(e.cur[curAt:curEnd])})
		}
	}
	for i, s := range e.segs {
		if s.by != 0 {
			continue
		}
		gap(s.orig, s.cur)
		end := teSegEnd(e.segs, i, len(e.cur))
		origAt, curAt = s.orig+end-s.cur, end
	}
	gap(len(e.orig), len(e.cur))
	return out
}

// textOffset maps offset o of orig to the offset of the input text: the
// same but in a CRLF text matched on its LF copy, where every line break
// before o lost its CR.
func (e *textEngine) textOffset(o int) int {
	if !e.uniform || e.eol != edit.CRLF {
		return o
	}
	n := sort.SearchInts(e.starts, o+1) - 1 // the line breaks that start a line at or before o
	if o == len(e.orig) && o > 0 && e.orig[o-1] == '\n' {
		n++ // the final line break starts no line
	}
	return o + n
}

// withEOL returns b, a stretch of the current text, as output() writes
// it: with the text's line endings.
func (e *textEngine) withEOL(b []byte) string {
	if !e.uniform || e.eol == edit.LF {
		return string(b)
	}
	return strings.ReplaceAll(string(b), "\n", e.eol)
}

// alreadySimilar is the similarity to old_text (SimilarContent) of a
// place that, outside new_text's one occurrence, keeps an edit from being
// reported as already applied.
const alreadySimilar = 0.9

// already reports whether an edit of old to repl, expected once, whose
// old text occurs at matches (offsets of the current text), is already
// applied, and where its new text is: repl adds a line old lacks and
// says enough to be recognised by (match.AddsLines, match.Telling: never
// a deletion, a new text taken from the old one, or a lone "}"), it
// occurs exactly once, and old occurs nowhere (matches is empty, and no
// place outside repl's is at least alreadySimilar like it), or
// once, inside that occurrence of repl where repl holds it (an edit that
// keeps its anchor text and adds after it would otherwise add it again).
func (e *textEngine) already(old, repl string, matches []int) (int, bool) {
	if len(matches) > 1 || repl == "" || strings.Contains(old, repl) {
		return 0, false
	}
	if len(matches) == 1 && !strings.Contains(repl, old) {
		return 0, false
	}
	ol, nl := match.SplitLines(old), match.SplitLines(repl)
	if !match.AddsLines(ol, nl) || !match.Telling(nl) {
		return 0, false
	}
	found := e.find(repl)
	if len(found) != 1 {
		return 0, false
	}
	r := found[0]
	if len(matches) == 0 {
		// Text edits carry no context: a text much like old_text
		// elsewhere says old_text is mistyped (a case, a quote), not
		// replaced, even though new_text happens to occur once.
		o, _ := e.locate(r)
		first := e.origLine(o)
		last := first + strings.Count(strings.TrimSuffix(repl, "\n"), "\n")
		for _, s := range e.similar(old) {
			if s.SimilarityScore >= alreadySimilar && (s.EndLineNumber < first || last < s.LineNumber) {
				return 0, false
			}
		}
		return r, true
	}
	m := matches[0]
	if r <= m && m+len(old) <= r+len(repl) && strings.HasPrefix(repl[m-r:], old) {
		return r, true
	}
	return 0, false
}

// ApplyDocument applies edits to d.Text as
// ApplyTextEdits does, with d.EOL, and returns the new file content with
// d's byte order mark kept (ready for Diff and Commit), and the summary.
// The errors are ApplyTextEdits's.
func ApplyDocument(d *edit.Document, edits []TextEdit) ([]byte, TextEditResult, error) {
	content, res, _, err := ApplyDocumentContext(context.Background(), d, edits, match.Exact)
	return content, res, err
}

// ApplyDocumentContext is ApplyTextEditsContext on d's Text, with d.EOL:
// it returns the new file content with d's byte order mark kept, the
// summary, and the byte edits that turn d.Content into content
// (res.Changes moved past the byte order mark: 0-based byte offsets into
// d.Content, End exclusive, sorted, not overlapping; empty when nothing
// was replaced). The errors are ApplyTextEditsContext's.
func ApplyDocumentContext(ctx context.Context, d *edit.Document, edits []TextEdit, allowed match.Level) (content []byte, res TextEditResult, changes []edit.Edit, err error) {
	res, err = ApplyTextEditsContext(ctx, string(d.Text), d.EOL, edits, allowed)
	if err != nil {
		return nil, TextEditResult{}, nil, err
	}
	bom := len(d.Content) - len(d.Text)
	content = make([]byte, 0, bom+len(res.Text))
	content = append(append(content, d.Content[:bom]...), res.Text...)
	changes = make([]edit.Edit, len(res.Changes))
	for i, c := range res.Changes {
		changes[i] = edit.Edit{Start: c.Start + bom, End: c.End + bom, New: c.New}
	}
	return content, res, changes, nil
}

// uniformEOL reports whether every line ending of text is eol (LF, CRLF
// or CR); a text without line endings is uniform.
func uniformEOL(text, eol string) bool {
	switch eol {
	case edit.LF:
		return !strings.Contains(text, "\r")
	case edit.CRLF:
		n := strings.Count(text, "\r\n")
		return strings.Count(text, "\r") == n && strings.Count(text, "\n") == n
	case edit.CR:
		return !strings.Contains(text, "\n")
	}
	return false
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
	// ctx stops the searches (nil: never); see stopped.
	ctx   context.Context
	steps int // loop iterations since ctx was last asked
}

// stopped reports whether e's context is done. The searches call it at
// each step of their loops, so it asks the context only every ctxEvery
// calls, and once done it stays done.
func (e *textEngine) stopped() bool {
	if e.ctx == nil {
		return false
	}
	probe.SearchSteps.Add(1)
	if e.steps++; e.steps < ctxEvery {
		return false
	}
	e.steps = 0
	if e.ctx.Err() != nil {
		e.steps = ctxEvery // ask again at once next time
		return true
	}
	return false
}

func newTextEngine(text, eol string) *textEngine {
	e := &textEngine{eol: eol, sep: '\n', uniform: uniformEOL(text, eol)}
	switch {
	case !e.uniform:
		e.orig = []byte(text)
		if eol == edit.CR {
			e.sep = '\r'
		}
	case eol == edit.CRLF:
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
	case eol == edit.CR:
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
			if e.stopped() {
				return nil
			}
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
		if e.stopped() {
			return nil
		}
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
	if !e.uniform || e.eol == edit.LF {
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
	level, ms := match.SearchUntil(strs, lm.needle, max, e.stopped)
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
			shifted, rerr := match.ShiftIndent(strings.Split(r, "\n"), m.Shift)
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
	m, ok := match.FindHintUntil(strs, needle, max, e.stopped)
	if !ok {
		return
	}
	orig, by := e.locate(hay[m.Line].start)
	h := match.Hint{Line: e.origLine(orig), Level: m.Level, Shift: m.Shift}
	err.Hint = &h
	where := fmt.Sprintf("line %d", h.Line)
	if by > 0 {
		where += fmt.Sprintf(" (in text inserted by edit %d)", by)
	}
	err.Message += fmt.Sprintf(" As whole lines, it matches exactly one place at level %s, at %s.",
		match.Describe(h.Level, h.Shift), where)
	fix := SuggestedFix{Type: TextFixMatchLevel,
		Suggestion: fmt.Sprintf("Allow match level %s: old_text matches %s at level %s (new_text is shifted by the same indentation offset at indent and loose).", h.Level, where, match.Describe(h.Level, h.Shift)),
		Remedy:     h.Remedy()}
	err.Fixes = append([]SuggestedFix{fix}, err.Fixes...)
}

// failure builds the error for edit k (of total) whose old_text (as
// searched) occurs at matches instead of want times.
func (e *textEngine) failure(k, total int, te TextEdit, old string, want int, matches []int) *TextEditError {
	err := &TextEditError{Type: TextEditWrongCount, Edit: k, Total: total, Expected: want, Actual: len(matches)}
	err.SearchText, err.SearchTextOmitted = lines.Sent(old, MaxSentShown)
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
	col := m - l.start
	loc := MatchLocation{
		LineNumber:  e.origLine(orig),
		ColumnStart: col + 1,
		InsertedBy:  by,
	}
	// Only the window around the match is copied out of the text: a
	// listing of matches on a 10 MB line stays small.
	win, from := Window(e.view(l), col)
	loc.LineContent = string(win)
	if len(win) < l.end-l.start {
		loc.ContentColumn, loc.LineLength = from+1, l.end-l.start
	}
	last := m + n - 1
	lastStart := bytes.LastIndexByte(e.cur[:last], e.sep) + 1
	loc.ColumnEnd = m + n - lastStart + 1
	loc.EndLineNumber = loc.LineNumber + bytes.Count(e.cur[m:last], []byte{e.sep})
	if l.start > 0 {
		loc.ContextBefore = e.contextLine(e.lineAt(l.start-1), col)
	}
	if next := bytes.IndexByte(e.cur[l.start:], e.sep); next >= 0 && l.start+next+1 < len(e.cur) {
		loc.ContextAfter = e.contextLine(e.lineAt(l.start+next+1), col)
	}
	return loc
}

// view returns line l of the current text without copying it.
func (e *textEngine) view(l teLine) []byte { return e.cur[l.start:l.end] }

// contextLine returns line l for a MatchLocation's context: the whole line,
// or, over MaxWindow bytes, its Window at byte column col (0-based) with
// "..." where it is cut.
func (e *textEngine) contextLine(l teLine, col int) string {
	line := e.view(l)
	win, from := Window(line, col)
	out := string(win)
	if from > 0 {
		out = "..." + out
	}
	if from+len(win) < len(line) {
		out += "..."
	}
	return out
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
			if l.LineLength > 0 || len(l.LineContent) > 200 || !strings.Contains(l.LineContent, old) || strings.TrimSpace(l.LineContent) == strings.TrimSpace(old) {
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
		Suggestion: "Read the file again and copy old_text exactly as it is, character for character: matching is literal and case-sensitive, with no regular expressions."}
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
			fix := SuggestedFix{Type: TextFixEscapeSpecial,
				Suggestion: fmt.Sprintf("old_text is matched literally, character for character: it is not a regular expression, and its backslashes are not escapes. old_text %s occurs %d %s (first at line %d).",
					v.what, n, tePlural(n, "time", "times"), e.origLine(orig))}
			if len(text) <= 1000 { // as teExample: an example is a line or a few
				fix.Example = `"old_text": ` + teJSON(text)
			}
			return fix, true
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
