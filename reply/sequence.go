package reply

import (
	"fmt"
	"strings"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/internal/lines"
	"github.com/symedit/symedit/match"
)

// MaxBlocks is the most edit blocks (well formed or not) one reply may
// hold; the caller refuses a longer reply as a whole.
// Ten thousand is far above what a model writes in one reply, and keeps
// the worst case of a reply bounded.
const MaxBlocks = 10_000

// ApplyAll applies blocks, in order, to text, each on the text the one
// before produced, as a loop over ApplyLevel would, and returns
// the final text and each block's Match. When a block does not apply it
// stops there: failed is its index in blocks (-1 when all applied), f its
// Failure, out the text before it, and matches the Matches of the blocks
// before it. Hunks of a unified diff or an apply_patch patch are held to
// more: when every block is one and there are several, each
// hunk must also hold in the original text at the level it matched (see
// origHunks): one place there (its line numbers choose if it has several;
// its @@ lines and *** End of File narrow them), no overlap with an
// earlier hunk's original lines, and the place it landed. Such a hunk
// fails with AMBIGUOUS or OVERLAP where a loop over ApplyLevel would have
// applied it.
//
// It does not rescan or copy the text per block, so many blocks on a
// large text do not cost their product: the
// text is split into lines once, kept in a balanced tree with an index
// from each line's content to where it occurs, and a block that matches
// exactly once at the exact level is found through the occurrences of its
// rarest line and spliced in, in time proportional to its lines and those
// occurrences, times the logarithm of the text's line count. A block that
// does not (one that fails, is ambiguous, matches only at a looser level
// or creates a file), and every block of a text whose dominant line
// ending is CR, is applied by ApplyLevel on the text made whole, at the
// cost of one pass over it.
func ApplyAll(blocks []Block, text string, allowed match.Level) (out string, matches []match.Match, failed int, f *Failure) {
	r, _ := applyAll(blocks, text, allowed)
	for _, o := range r.Outcomes {
		matches = append(matches, o.Match)
	}
	return r.Text, matches, r.Failed, r.Failure
}

// Outcome is how one block of ApplyAllOutcomes applied: where, and whether
// it was already applied.
type Outcome struct {
	// Match is where the block matched (for an already applied block:
	// where its new lines are), and at which level.
	Match match.Match
	// AlreadyApplied reports that the block's old lines were not found
	// (or were found only inside its own new lines) and its new lines
	// were, with its anchors or context, at exactly one place: the block
	// changed nothing. Only a block whose new side adds a line its old
	// side lacks is ever found so (not a deletion, not a file's creation,
	// deletion or move, not Aider's elision).
	AlreadyApplied bool
}

// ApplyAllOutcomes is ApplyAll, and says of each block applied whether it
// was already in the text (Outcome.AlreadyApplied) rather than where it
// matched alone. An already applied block leaves the text as it is, and
// the hunks' checks against the original text (see ApplyAll) skip it.
func ApplyAllOutcomes(blocks []Block, text string, allowed match.Level) (out string, outcomes []Outcome, failed int, f *Failure) {
	r, _ := applyAll(blocks, text, allowed)
	return r.Text, r.Outcomes, r.Failed, r.Failure
}

// ApplyAllResult is what ApplyAllEdits did to one file's text.
type ApplyAllResult struct {
	// Text is the text once the blocks before Failed applied (all of
	// them when Failed is -1).
	Text string
	// Edits are the byte edits of the text given that make Text:
	// 0-based byte offsets into it (a byte order mark included), End
	// exclusive, sorted, neither overlapping nor touching, each trimmed
	// of the bytes it leaves as they were, so that edit.Apply(text,
	// Edits) is Text. They are where the blocks landed, those that
	// applied to the result of earlier ones mapped back through them
	// (edit.Compose). Empty when the blocks changed nothing.
	Edits []edit.Edit
	// Outcomes are the applied blocks' Outcomes, in order.
	Outcomes []Outcome
	// Failed is the index in blocks of the block that did not apply, or
	// -1; Failure is its Failure.
	Failed  int
	Failure *Failure
}

// ApplyAllEdits is ApplyAllOutcomes, and also returns the byte edits of
// text that make the result, so that a caller can diff and check only
// what the blocks changed rather than compare whole texts. Finding them
// costs no pass over the text beyond ApplyAll's own: a block applied in
// the tree (see ApplyAll) keeps the original offsets of the lines it
// leaves, and a block applied to the text made whole is the span between
// the text's common start and end before and after it.
func ApplyAllEdits(blocks []Block, text string, allowed match.Level) ApplyAllResult {
	r, _ := applyAll(blocks, text, allowed)
	return r
}

// applyAll is ApplyAllEdits, and also returns the steps it took: the
// lines and tree nodes it looked at, for tests that show its growth
// without timing it.
func applyAll(blocks []Block, text string, allowed match.Level) (ApplyAllResult, int) {
	if len(blocks) == 1 { // nothing to gain from the tree
		out, a := blocks[0].apply(text, allowed, true)
		if a.failure != nil {
			return ApplyAllResult{Text: text, Failed: 0, Failure: a.failure}, len(text)
		}
		return ApplyAllResult{Text: out, Edits: spanEdits(text, out), Outcomes: []Outcome{{Match: a.m, AlreadyApplied: a.already}}, Failed: -1}, len(text)
	}
	r := &run{blocks: blocks, text: text, allowed: allowed, s: newSeq(text), log: editLog{size: len(text)}, orig: newOrigHunks(blocks, text)}
	for k := range blocks {
		// The fast path splices the block in place: the checks of the
		// hunks run before it does, so that a refused hunk leaves the
		// text as the blocks before it left it. A block whose old lines
		// lie inside its new ones takes the slow path, which asks
		// whether it is already applied before writing it again.
		done, fail := r.fast(k)
		if !done && fail == nil {
			fail = r.slow(k)
		}
		if fail != nil {
			return r.stop(k, fail)
		}
	}
	return r.stop(-1, nil)
}

// run is the state of applyAll over several blocks: the text as a tree,
// the blocks' outcomes so far, the lines the hunks wrote, the hunks'
// places in the original, and the edits of the original that the blocks
// applied to the text made whole have made.
type run struct {
	blocks   []Block
	text     string // the original
	allowed  match.Level
	s        *seq
	outcomes []Outcome
	spans    hunkSpans
	log      editLog
	orig     *origHunks
}

// fast applies blocks[k] in the tree when it matches exactly once at
// the exact level: done reports it did. When the hunks' checks refuse the
// place it found, fail is their Failure; otherwise, not done, the block
// takes the slow path.
func (r *run) fast(k int) (done bool, fail *Failure) {
	b := r.blocks[k]
	if len(match.Within(b.OldLines, b.NewLines)) > 0 {
		return false, nil
	}
	veto := func(b Block, p int) (int, bool) {
		if j, hit := r.spans.hit(b, p); hit {
			return j, true
		}
		if fail = r.orig.check(r.blocks, k, match.Match{Line: p + 1}); fail != nil {
			return 0, true
		}
		return 0, false
	}
	m, ok := r.s.fast(b, veto)
	if !ok {
		return false, fail
	}
	r.orig.accept()
	r.spans.update(r.blocks, k, m.Line-1+b.leadLen())
	r.outcomes = append(r.outcomes, Outcome{Match: m})
	return true, nil
}

// slow applies blocks[k] by Block.apply on the text made whole, and
// checks a hunk against the lines earlier hunks wrote and its place in
// the original; it returns the block's Failure, or nil. An applied block
// rebuilds the tree from the new text, the edits of the tree and of the
// block added to the log.
func (r *run) slow(k int) *Failure {
	b := r.blocks[k]
	cur, tree := r.s.textEdits()
	next, a := b.apply(cur, r.allowed, true)
	m, fail := a.m, a.failure
	r.s.steps += r.s.size() + 1
	if a.already {
		// Nothing written: no span of new lines, no place in the
		// original (the hunk's old lines are not there).
		r.outcomes = append(r.outcomes, Outcome{Match: m, AlreadyApplied: true})
		return nil
	}
	if fail == nil && !b.IsCreate() {
		if j, hit := r.spans.hit(b, m.Line-1); hit {
			fail = overlapFailure(r.blocks, j, k, m.Line)
		}
	}
	if fail == nil {
		fail = r.orig.check(r.blocks, k, m)
	}
	if fail != nil {
		return fail
	}
	r.orig.accept()
	if !b.IsCreate() {
		r.spans.update(r.blocks, k, m.Line-1+b.leadLen())
	}
	r.outcomes = append(r.outcomes, Outcome{Match: m})
	// The tree's text is made whole and read again: what it changed
	// and what this block changed become edits of the original.
	r.log.then(tree)
	r.log.then(spanEdits(cur, next))
	steps := r.s.steps
	r.s = newSeq(next)
	r.s.steps += steps
	return nil
}

// stop ends the run at block k (-1: none) with the text the blocks
// before it made, and its steps.
func (r *run) stop(k int, f *Failure) (ApplyAllResult, int) {
	cur, tree := r.s.textEdits()
	r.log.then(tree)
	edits := r.log.edits
	if r.log.lost {
		edits = spanEdits(r.text, cur)
	}
	return ApplyAllResult{Text: cur, Edits: trimEdits(r.text, edits), Outcomes: r.outcomes, Failed: k, Failure: f}, r.s.steps + r.orig.count()
}

// editLog is the byte edits of an original text of size bytes that made
// the text a sequence of blocks has reached so far.
type editLog struct {
	size  int
	edits []edit.Edit
	// lost reports that edits could not be mapped back (Compose
	// refused them, which the engine's own edits never make it do): the
	// result's edits are then the one stretch between the original's and
	// the result's common start and end, never a panic or a wrong edit.
	lost bool
}

// then adds edits of the text l reached, mapping them back through
// l's edits (edit.Compose), whose work grows with the edits, not with the
// text.
func (l *editLog) then(edits []edit.Edit) {
	if len(edits) == 0 || l.lost {
		return
	}
	if len(l.edits) == 0 {
		l.edits = edits
		return
	}
	c, err := edit.Compose(l.size, l.edits, edits)
	if err != nil {
		l.edits, l.lost = nil, true
		return
	}
	l.edits = c
}

// spanEdits is the byte edit of a that makes b: the stretch between their
// common start and their common end, or nothing when they are equal. For
// a block applied to a whole text that is where it landed, trimmed of the
// lines it kept (a block's anchors, SEARCH lines it writes back).
func spanEdits(a, b string) []edit.Edit {
	if a == b {
		return nil
	}
	p := commonPrefix(a, b)
	q := commonSuffix(a[p:], b[p:])
	return []edit.Edit{{Start: p, End: len(a) - q, New: b[p : len(b)-q]}}
}

// trimEdits returns edits of src, sorted and apart, each trimmed of the
// bytes at its ends that it leaves as they were, without the edits that
// change nothing; an edit the tree or Compose made can replace a line by
// itself (a SEARCH line written back, an ending put back as it was).
func trimEdits(src string, edits []edit.Edit) []edit.Edit {
	out := edits[:0:0]
	for _, e := range edits {
		old := src[e.Start:e.End]
		p := commonPrefix(old, e.New)
		q := commonSuffix(old[p:], e.New[p:])
		if e.Start+p == e.End-q && p == len(e.New)-q {
			continue
		}
		out = append(out, edit.Edit{Start: e.Start + p, End: e.End - q, New: e.New[p : len(e.New)-q]})
	}
	return out
}

// commonPrefix is the length in bytes of the longest common start of a
// and b.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffix is the length in bytes of the longest common end of a and
// b.
func commonSuffix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}

// origHunks places the hunks of a unified diff or an apply_patch patch in
// the original text as well, since a diff's or patch's hunks are all
// written against the original: they apply in order, and overlapping
// hunks are refused naming both. Applied in order, a hunk could match where an earlier
// hunk changed the text: on a sequence of lines the original never held,
// or at the one place left of several the original held, whatever its
// line numbers or @@ lines say. So each hunk must also occur in the
// original at the level it matched (at one place, or at the one its line
// numbers name, of the places its @@ lines and *** End of File allow),
// must not overlap the original lines of an earlier hunk, and must have
// landed where that place is once the hunks above it applied. It is nil
// (checks nothing) unless every block is such a hunk (none creating,
// deleting or moving a file without lines) and there are several.
type origHunks struct {
	orig   lineText         // the original, split into lines
	text   []string         // the original's lines, without their endings
	index  map[string][]int // 0-based lines of each line's content
	placed []origHunk       // the hunks accepted so far
	next   *origHunk        // the hunk check placed, until accept
	steps  int
}

type origHunk struct{ start, end, delta, block int } // 0-based original lines, end exclusive

func newOrigHunks(blocks []Block, text string) *origHunks {
	if len(blocks) < 2 {
		return nil
	}
	for _, b := range blocks {
		if !b.isHunk() || b.IsCreate() || b.FileOnly() {
			return nil
		}
	}
	body := strings.TrimPrefix(text, utf8BOM)
	t := splitText(body, lines.DominantEnding(body))
	o := &origHunks{orig: t, text: t.text, index: map[string][]int{}}
	for i, l := range o.text {
		o.index[l] = append(o.index[l], i)
	}
	o.steps = len(o.text)
	return o
}

// count is the steps o took (0 for nil).
func (o *origHunks) count() int {
	if o == nil {
		return 0
	}
	return o.steps
}

// places returns the 0-based original lines where hunk b's old side
// matches at level l: through the index of line contents at the exact
// level, by one pass over the original (Block.find, with the @@ lines and
// *** End of File) otherwise.
func (o *origHunks) places(b Block, l match.Level) []int {
	var cands []int
	if l != match.Exact || b.AtEnd || len(b.Scope) > 0 || b.Insert {
		o.steps += len(o.text) + 1
		for _, x := range b.find(o.orig, l) {
			cands = append(cands, x.Line)
		}
		return cands
	}
	// The rarest line of the hunk's old side narrows the places.
	best, bestAt := -1, 0
	for i, l := range b.OldLines {
		o.steps++
		if c := len(o.index[l]); best < 0 || c < best {
			best, bestAt = c, i
		}
	}
	for _, x := range o.index[b.OldLines[bestAt]] {
		o.steps++
		p := x - bestAt
		if p < 0 || p+len(b.OldLines) > len(o.text) {
			continue
		}
		ok := true
		for i, l := range b.OldLines {
			o.steps++
			if o.text[p+i] != l {
				ok = false
				break
			}
		}
		if ok {
			cands = append(cands, p)
		}
	}
	return cands
}

// check places hunk k, which matched at m in the text as applied so far,
// in the original, at m's level, and returns its Failure if it does not
// hold there. The place counts for the hunks after it once accept is
// called.
func (o *origHunks) check(blocks []Block, k int, m match.Match) *Failure {
	b := blocks[k]
	if o == nil {
		return nil
	}
	o.next = nil
	if len(b.OldLines) == 0 && !b.Insert {
		return nil
	}
	cands := o.places(b, m.Level)
	if len(cands) > 1 && b.Hint > 0 {
		for _, c := range cands {
			if o.shift(c)+1 == b.Hint {
				cands = []int{c}
				break
			}
		}
	}
	switch {
	case len(cands) == 0:
		return noOrigPlace(b, m)
	case len(cands) > 1:
		return ambiguousOrig(b, m, cands)
	}
	p := cands[0]
	if f := o.overlap(blocks, b, p); f != nil {
		return f
	}
	if at := o.shift(p); at != m.Line-1 {
		return &Failure{Code: CodeOverlap, Candidates: []int{p + 1},
			Message: fmt.Sprintf("the hunk's lines are at line %d of the original file, which is line %d once the hunks above it apply, but applied in order it matched at line %d, where earlier hunks changed the text", p+1, at+1, m.Line)}
	}
	o.next = &origHunk{start: p, end: p + len(b.OldLines), delta: len(b.NewLines) - len(b.OldLines), block: k}
	return nil
}

// shift is where 0-based original line p is once the hunks placed so far
// above it applied.
func (o *origHunks) shift(p int) int {
	for _, h := range o.placed {
		o.steps++
		if h.end <= p {
			p += h.delta
		}
	}
	return p
}

// hunkWords are the words a refusal of hunk b names its reply by ("diff"
// or "patch") and, when b matched at m only at a looser level, that
// level.
func hunkWords(b Block, m match.Match) (what, level string) {
	what = "diff"
	if b.Format == FormatApplyPatch {
		what = "patch"
	}
	if m.Level != match.Exact {
		level = " at match level " + m.Level.String()
	}
	return what, level
}

// noOrigPlace is the refusal of hunk b, which matched at m only as
// earlier hunks left the text: its lines (or, for an insertion, its @@
// lines) never occur so in the original.
func noOrigPlace(b Block, m match.Match) *Failure {
	what, level := hunkWords(b, m)
	if b.Insert {
		return &Failure{Code: CodeOverlap, Candidates: []int{m.Line},
			Message: fmt.Sprintf("the hunk only adds lines, right after its @@ line(s) %q, which lead to line %d only as earlier hunks of the patch left the text: they do not occur so in the original file; the hunks of one patch are written against the original file", b.Scope, m.Line-1)}
	}
	return &Failure{Code: CodeOverlap, Candidates: []int{m.Line},
		Message: fmt.Sprintf("the hunk's context and removed lines match%s at line %d only as earlier hunks of the %s left the text: they never occur together in the original file; the hunks of one %s are written against the original file", level, m.Line, what, what)}
}

// ambiguousOrig is the refusal of hunk b, which matched at m, but whose
// lines occur at the 0-based original lines cands, which nothing singles
// out: an earlier hunk's change does not choose among them.
func ambiguousOrig(b Block, m match.Match, cands []int) *Failure {
	what, level := hunkWords(b, m)
	lines := make([]int, len(cands))
	for i, c := range cands {
		lines[i] = c + 1
	}
	tell := "its line numbers point at none of them"
	if b.Format == FormatApplyPatch {
		tell = "no @@ line singles one out"
	}
	where := fmt.Sprintf("the hunk's context and removed lines occur%s at %d places in the original file (starting at lines %s), and %s", level, len(cands), joinInts(lines), tell)
	if b.Insert {
		for i := range lines {
			lines[i]-- // the @@ line's, as insertMatch gives them
		}
		where = fmt.Sprintf("the hunk only adds lines, right after its @@ line(s) %q, which occur at %d places in the original file (ending at lines %s)", b.Scope, len(cands), joinInts(lines))
	}
	return &Failure{Code: CodeAmbiguous, Candidates: lines,
		Message: fmt.Sprintf("the block is ambiguous: %s; the hunks of one %s are written against the original file, so an earlier hunk's change does not make one of them the place", where, what)}
}

// overlap refuses hunk b at 0-based original line p where it overlaps
// the original lines of a hunk placed before it, or inserts where an
// earlier insertion does; nil otherwise.
func (o *origHunks) overlap(blocks []Block, b Block, p int) *Failure {
	for _, h := range o.placed {
		o.steps++
		if b.Insert && len(b.Scope) > 0 && h.start == p && h.end == p {
			// Two insertions at one place: applied in order, the later
			// one's lines would go above the earlier one's.
			return &Failure{Code: CodeOverlap, Candidates: []int{p + 1},
				Message: fmt.Sprintf("the hunk inserts its lines at line %d of the original file, where the hunk on reply line %d inserts too; the hunks of one patch are written against the original file, so which lines come first cannot be told: make them one hunk",
					p+1, blocks[h.block].Line)}
		}
		if b.Insert && h.start < p && p < h.end {
			return &Failure{Code: CodeOverlap, Candidates: []int{p + 1},
				Message: fmt.Sprintf("the hunk overlaps the hunk on reply line %d: it inserts its lines before line %d of the original file, inside that hunk's lines %d-%d; the hunks of one patch are written against the original file and may not overlap",
					blocks[h.block].Line, p+1, h.start+1, h.end)}
		}
		if !b.Insert && p < h.end && h.start < p+len(b.OldLines) {
			return &Failure{Code: CodeOverlap, Candidates: []int{p + 1},
				Message: fmt.Sprintf("the hunk overlaps the hunk on reply line %d: in the original file this hunk's lines are %d-%d and that hunk's %d-%d; the hunks of one diff or patch are written against the original file and may not overlap",
					blocks[h.block].Line, p+1, p+len(b.OldLines), h.start+1, h.end)}
		}
	}
	return nil
}

// accept records the place the last check found, if any, for the hunks
// after it.
func (o *origHunks) accept() {
	if o == nil || o.next == nil {
		return
	}
	o.placed = append(o.placed, *o.next)
	o.next = nil
}

// isHunk reports whether b is a hunk of a unified diff or an apply_patch
// patch, whose hunks apply to the original file and never overlap.
func (b Block) isHunk() bool {
	return b.Format == FormatUnifiedDiff || b.Format == FormatApplyPatch
}

// hunkSpans are the lines the hunks applied so far wrote, in the current
// text's numbering, so that a later hunk that lands on them is refused:
// the hunks of a diff or a patch are written against the original file,
// so one that matches lines another hunk wrote overlaps it.
type hunkSpans struct{ spans []hunkSpan }

type hunkSpan struct{ start, end, block int } // 0-based lines, end exclusive

// hit reports whether hunk b, matched at 0-based line at, overlaps the
// lines a hunk before it wrote, and which hunk.
func (h *hunkSpans) hit(b Block, at int) (int, bool) {
	if !b.isHunk() {
		return 0, false
	}
	end := at + len(b.OldLines)
	for _, sp := range h.spans {
		if at < sp.end && sp.start < end {
			return sp.block, true
		}
	}
	return 0, false
}

// update records that blocks[k] replaced its old lines, which start at
// 0-based line at: the spans after them shift, and a hunk's new lines
// are a span.
func (h *hunkSpans) update(blocks []Block, k, at int) {
	b := blocks[k]
	end, delta := at+len(b.OldLines), len(b.NewLines)-len(b.OldLines)
	kept := h.spans[:0]
	for _, sp := range h.spans {
		switch {
		case sp.start >= end:
			sp.start += delta
			sp.end += delta
		case sp.end <= at:
		default:
			continue // replaced by a block that is not a hunk
		}
		kept = append(kept, sp)
	}
	h.spans = kept
	if b.isHunk() {
		h.spans = append(h.spans, hunkSpan{start: at, end: at + len(b.NewLines), block: k})
	}
}

// overlapFailure is hunk k's refusal: it matched, at 1-based line, on
// lines hunk j wrote.
func overlapFailure(blocks []Block, j, k, line int) *Failure {
	if blocks[k].Insert {
		return &Failure{Code: CodeOverlap, Candidates: []int{line},
			Message: fmt.Sprintf("the hunk overlaps the hunk on reply line %d: it inserts its lines at line %d, inside lines that hunk wrote; the hunks of one patch are written against the original file and may not overlap", blocks[j].Line, line)}
	}
	return &Failure{Code: CodeOverlap, Candidates: []int{line},
		Message: fmt.Sprintf("the hunk overlaps the hunk on reply line %d: its lines match at line %d only on lines that hunk wrote; the hunks of one diff or patch are written against the original file and may not overlap", blocks[j].Line, line)}
}

// node is one line of the text: its content and its ending ("", "\n",
// "\r\n" or "\r"), in a treap ordered by position (an implicit key).
type node struct {
	text, end string
	prio      uint64
	l, r, p   *node
	size      int
	dead      bool
	crs       int // lone CRs in text
	// off is the byte offset of text in the text the seq was made from
	// (a byte order mark included), -1 for a line a block wrote; oend is
	// the ending the line had there. They tell, once blocks have
	// spliced the tree, which stretches of that text are kept (see
	// seq.textEdits).
	off  int
	oend string
}

func size(n *node) int {
	if n == nil {
		return 0
	}
	return n.size
}

// fix recomputes n's size and its children's parent links.
func (n *node) fix() {
	n.size = 1 + size(n.l) + size(n.r)
	if n.l != nil {
		n.l.p = n
	}
	if n.r != nil {
		n.r.p = n
	}
}

// seq is a text as a treap of lines, with an index of its lines by
// content, for ApplyAll.
type seq struct {
	bom   string
	root  *node
	index map[string][]*node // every node ever made with that text; dead ones skipped
	rng   uint64
	crlf  int // line endings "\r\n", "\n" and lone CRs, for DominantEnding
	lf    int
	cr    int
	slow  bool // the text's lines are split at CR: only ApplyLevel
	whole string
	size0 int // the length in bytes of the text the seq was made from
	steps int
}

func newSeq(text string) *seq {
	s := &seq{rng: 0x9E3779B97F4A7C15}
	body := text
	if strings.HasPrefix(body, utf8BOM) {
		s.bom, body = utf8BOM, body[len(utf8BOM):]
	}
	eol := lines.DominantEnding(body)
	if eol == "\r" {
		s.slow, s.whole = true, text
		return s
	}
	t := splitText(body, eol)
	s.index = make(map[string][]*node, len(t.text))
	nodes := make([]*node, len(t.text))
	arena := make([]node, len(t.text)) // one allocation for the text's lines
	for i := range t.text {
		nodes[i] = s.initNode(&arena[i], t.text[i], t.ends[i])
		nodes[i].off, nodes[i].oend = len(s.bom)+t.start[i], t.ends[i]
	}
	s.size0 = len(text)
	s.root = s.build(nodes)
	s.steps += len(nodes)
	return s
}

func (s *seq) random() uint64 {
	// xorshift64*
	s.rng ^= s.rng >> 12
	s.rng ^= s.rng << 25
	s.rng ^= s.rng >> 27
	return s.rng * 2685821657736338717
}

// newNode makes a live node, counts its line ending and lone CRs, and
// indexes it.
func (s *seq) newNode(text, end string) *node {
	return s.initNode(new(node), text, end)
}

// initNode makes n a live node for text and end, as newNode.
func (s *seq) initNode(n *node, text, end string) *node {
	*n = node{text: text, end: end, prio: s.random(), size: 1, crs: strings.Count(text, "\r"), off: -1}
	s.count(n, 1)
	s.index[text] = append(s.index[text], n)
	return n
}

// count adds (d = 1) or removes (d = -1) n's line ending and lone CRs.
func (s *seq) count(n *node, d int) {
	switch n.end {
	case "\r\n":
		s.crlf += d
	case "\n":
		s.lf += d
	case "\r":
		s.cr += d
	}
	s.cr += d * n.crs
	// A CR that ends the text of an unterminated line is lone; one that
	// ends the text before an ending cannot occur (splitText gives it to
	// the ending).
}

// eol is the current text's dominant line ending, by DominantEnding's
// rule.
func (s *seq) eol() string {
	switch {
	case s.crlf > max(s.lf, s.cr):
		return "\r\n"
	case s.lf > s.cr:
		return "\n"
	case s.cr > 0:
		return "\r"
	}
	return "\n"
}

// build makes a treap of nodes, in order, in linear time (a Cartesian tree
// by the nodes' priorities).
func (s *seq) build(nodes []*node) *node {
	var stack []*node
	for _, x := range nodes {
		var last *node
		for len(stack) > 0 && stack[len(stack)-1].prio < x.prio {
			last = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
		}
		x.l = last
		if len(stack) > 0 {
			stack[len(stack)-1].r = x
		}
		stack = append(stack, x)
	}
	if len(stack) == 0 {
		return nil
	}
	// Sizes and parent links, children before parents.
	order := make([]*node, 0, len(nodes))
	work := []*node{stack[0]}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		order = append(order, n)
		if n.l != nil {
			work = append(work, n.l)
		}
		if n.r != nil {
			work = append(work, n.r)
		}
	}
	for i := len(order) - 1; i >= 0; i-- {
		order[i].fix()
	}
	stack[0].p = nil
	return stack[0]
}

func (s *seq) merge(a, b *node) *node {
	s.steps++
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	case a.prio > b.prio:
		a.r = s.merge(a.r, b)
		a.fix()
		return a
	}
	b.l = s.merge(a, b.l)
	b.fix()
	return b
}

// split returns the first k nodes of t and the rest.
func (s *seq) split(t *node, k int) (*node, *node) {
	s.steps++
	if t == nil {
		return nil, nil
	}
	if size(t.l) >= k {
		a, b := s.split(t.l, k)
		t.l = b
		t.fix()
		if a != nil {
			a.p = nil
		}
		return a, t
	}
	a, b := s.split(t.r, k-size(t.l)-1)
	t.r = a
	t.fix()
	if b != nil {
		b.p = nil
	}
	return t, b
}

func (s *seq) size() int {
	if s.slow {
		return len(s.whole)
	}
	return size(s.root)
}

// rank is n's 0-based position.
func (s *seq) rank(n *node) int {
	r := size(n.l)
	for ; n.p != nil; n = n.p {
		s.steps++
		if n.p.r == n {
			r += size(n.p.l) + 1
		}
	}
	return r
}

// at returns the node at 0-based position i.
func (s *seq) at(i int) *node {
	n := s.root
	for n != nil {
		s.steps++
		switch l := size(n.l); {
		case i < l:
			n = n.l
		case i == l:
			return n
		default:
			i -= l + 1
			n = n.r
		}
	}
	return nil
}

// next and prev are n's neighbours in order, or nil.
func (s *seq) next(n *node) *node {
	s.steps++
	if n.r != nil {
		for n = n.r; n.l != nil; n = n.l {
			s.steps++
		}
		return n
	}
	for n.p != nil && n.p.r == n {
		s.steps++
		n = n.p
	}
	return n.p
}

func (s *seq) prev(n *node) *node {
	s.steps++
	if n.l != nil {
		for n = n.l; n.r != nil; n = n.r {
			s.steps++
		}
		return n
	}
	for n.p != nil && n.p.l == n {
		s.steps++
		n = n.p
	}
	return n.p
}

// textEdits is the whole text, and the byte edits of the text the seq
// was made from that make it: the stretches between the lines (and line
// endings) that kept their original offsets, in one walk over the tree.
func (s *seq) textEdits() (string, []edit.Edit) {
	if s.slow {
		return s.whole, nil
	}
	var b strings.Builder
	b.WriteString(s.bom)
	var edits []edit.Edit
	kept := len(s.bom) // the end of the last kept stretch of the original
	at := -1           // where the pending edit's new text starts in b, or -1
	keep := func(from, to int) {
		if from == kept && at < 0 {
			kept = to
			return
		}
		if at < 0 {
			at = b.Len()
		}
		e := edit.Edit{Start: kept, End: from, New: b.String()[at:]}
		if k := len(edits) - 1; k >= 0 && edits[k].End == e.Start {
			// Only an empty kept stretch lay between: one edit, so
			// that the edits do not touch.
			e = edit.Edit{Start: edits[k].Start, End: e.End, New: edits[k].New + e.New}
			edits = edits[:k]
		}
		edits = append(edits, e)
		kept, at = to, -1
	}
	write := func(text string) {
		if at < 0 {
			at = b.Len()
		}
		b.WriteString(text)
	}
	var walk func(n *node)
	walk = func(n *node) {
		for n != nil {
			walk(n.l)
			if n.off < 0 {
				write(n.text)
				write(n.end)
			} else {
				keep(n.off, n.off+len(n.text))
				b.WriteString(n.text)
				if n.end == n.oend {
					keep(n.off+len(n.text), n.off+len(n.text)+len(n.end))
					b.WriteString(n.end)
				} else {
					write(n.end)
				}
			}
			n = n.r
		}
	}
	walk(s.root)
	if kept < s.size0 || at >= 0 {
		keep(s.size0, s.size0)
	}
	return b.String(), edits
}

// fast applies b when it matches exactly once at the exact level, as
// Block.apply would; ok is false, and nothing changed, for a block that
// needs the general path.
func (s *seq) fast(b Block, veto func(Block, int) (int, bool)) (match.Match, bool) {
	if s.slow || b.IsCreate() || b.Insert || s.eol() == "\r" || b.AtEnd || len(b.Scope) > 0 {
		return match.Match{}, false
	}
	for _, l := range b.NewLines {
		if strings.ContainsAny(l, "\r\n") {
			return match.Match{}, false
		}
	}
	window := b.window()
	edit := b.anchored()
	atStart := edit && len(b.ContextBefore) == 0
	atEnd := edit && len(b.ContextAfter) == 0
	if len(window) > size(s.root) {
		return match.Match{}, false
	}
	found := s.only(s.starts(window, atStart, atEnd), window, atStart, atEnd)
	if found == nil {
		return match.Match{}, false
	}
	p := s.rank(found)
	if _, hit := veto(b, p); hit {
		return match.Match{}, false // the general path refuses it
	}
	start := p + b.leadLen()
	if !s.replace(start, start+len(b.OldLines), b.NewLines) {
		return match.Match{}, false
	}
	return match.Match{Line: p + 1}, true
}

// starts returns the nodes where window could start: the first line
// when it is pinned to the start (atStart), the one that ends it at the
// last line when pinned to the end, else the live nodes holding its
// rarest line, each stepped back to where window would start.
func (s *seq) starts(window []string, atStart, atEnd bool) []*node {
	switch {
	case atStart:
		return []*node{s.at(0)}
	case atEnd:
		return []*node{s.at(size(s.root) - len(window))}
	}
	best, bestAt := -1, 0
	for i, l := range window {
		s.steps++
		if c := len(s.index[l]); best < 0 || c < best {
			best, bestAt = c, i
		}
	}
	var starts []*node
	for _, x := range s.index[window[bestAt]] {
		s.steps++
		if x.dead {
			continue
		}
		y := x
		for k := 0; k < bestAt && y != nil; k++ {
			y = s.prev(y)
		}
		if y != nil {
			starts = append(starts, y)
		}
	}
	return starts
}

// only returns the one of starts where window's lines follow, pinned to
// the text's start or end as atStart and atEnd say; nil when none or
// several do (the general path explains an ambiguous block).
func (s *seq) only(starts []*node, window []string, atStart, atEnd bool) *node {
	w := len(window)
	var found *node
	for _, st := range starts {
		y, k := st, 0
		for k < w && y != nil && y.text == window[k] {
			s.steps++
			k++
			if k < w {
				y = s.next(y)
			}
		}
		if k < w {
			continue
		}
		if atStart && s.prev(st) != nil || atEnd && s.next(y) != nil {
			continue
		}
		if found != nil {
			return nil
		}
		found = st
	}
	return found
}

// replace replaces lines [from, to) (0-based, to exclusive) by repl, as
// lineText.replace does; it returns false, having changed nothing, where
// the result would not split back into the same lines (an unterminated
// last line ending in CR that would get an LF).
func (s *seq) replace(from, to int, repl []string) bool {
	n := size(s.root)
	eol := s.eol()
	emptyLast := len(repl) > 0 && repl[len(repl)-1] == ""
	setEnd := func(x *node, end string) {
		s.count(x, -1)
		x.end = end
		s.count(x, 1)
	}
	ends := make([]string, len(repl))
	for i := range ends {
		ends[i] = eol
	}
	var last *node // the line before the replaced range, when it changes
	switch {
	case to == from && len(repl) == 0:
		return true
	case to == from && from < n: // insert before line from
	case to == from: // append after the last line
		if n > 0 {
			if l := s.at(n - 1); l.end == "" {
				if strings.HasSuffix(l.text, "\r") {
					return false
				}
				setEnd(l, eol)
				if !emptyLast {
					ends[len(ends)-1] = ""
				}
			}
		}
	case len(repl) == 0: // delete
		if s.at(to-1).end == "" && from > 0 {
			if prev := s.at(from - 1); prev.text != "" {
				last = prev
			}
		}
	default:
		if s.at(to-1).end == "" && !emptyLast {
			ends[len(ends)-1] = ""
		}
	}
	a, rest := s.split(s.root, from)
	mid, c := s.split(rest, to-from)
	s.kill(mid)
	added := make([]*node, len(repl))
	for i, l := range repl {
		added[i] = s.newNode(l, ends[i])
	}
	s.steps += len(added)
	s.root = s.merge(s.merge(a, s.build(added)), c)
	if s.root != nil {
		s.root.p = nil
	}
	if last != nil {
		setEnd(last, "")
	}
	return true
}

// kill marks the nodes of t dead and uncounts them.
func (s *seq) kill(t *node) {
	if t == nil {
		return
	}
	s.steps++
	t.dead = true
	s.count(t, -1)
	s.kill(t.l)
	s.kill(t.r)
}
