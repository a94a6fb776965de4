package diff

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
	"github.com/symedit/symedit/edit"
)

// DiffEdits returns the unified diff from doc.Content to doc.Content with
// edits applied (byte offsets into Content, BOM included, as Apply takes
// them), for the file at path, in Diff's format: same headers, 3 lines of
// context, hunks merged when their contexts touch, "\ No newline at end of
// file", lines keeping their own endings. Equal contents give "". An edit
// out of bounds or two overlapping edits give an error wrapping ErrBadEdit,
// as Apply does.
//
// It builds the hunks from the edits themselves, in time proportional to the change, not to the file: each edit
// widens to the whole lines it touches (edits sharing a line make one
// range), the lines its old and new text share at the range's start and
// end are trimmed off, and the old and new lines are then matched as Diff's
// matcher (go-difflib's SequenceMatcher without its "popular line"
// heuristic) matches them, taking the longest run of equal lines first: the
// unchanged stretches between the ranges stand for the runs they are, so
// only the changed lines and the lines near them are compared (a few
// hundred lines or fewer go to the matcher whole). The result is Diff's
// output byte for byte (TestDiffEditsMatchesDiff), except where a file
// repeats a run of lines longer than the unchanged stretches around a
// change, where Diff's matcher could pair lines across distant places:
// both diffs then apply (git apply, patch -p1) and give the same file.
// Files over 20,000 lines, where Diff turns the heuristic on, and changes
// spread over thousands of lines with short stretches between them (where
// DiffEdits takes the longest stretch without comparing every line, so as
// to stay linear), may also get hunks that differ from Diff's.
func DiffEdits(path string, doc *edit.Document, edits []edit.Edit) (string, error) {
	d, err := diffEdits(path, doc, edits)
	return d.out, err
}

// editDiffResult is DiffEdits's diff and the number of lines it read.
type editDiffResult struct {
	out   string
	reads int
}

func diffEdits(path string, doc *edit.Document, edits []edit.Edit) (res editDiffResult, err error) {
	src := doc.Content
	sorted, err := sortedEdits(src, edits)
	if err != nil {
		return res, err
	}
	x := newDiffIndex(doc)
	defer func() { res.reads = x.reads }()
	d := &editDiff{x: x}
	d.regions(src, sorted)
	if len(d.regs) == 0 {
		return res, nil
	}
	d.stretches()
	blocks := d.match(0, d.na, 0, d.nb, nil)
	groups := groupOpCodes(opCodes(mergeBlocks(blocks, d.na, d.nb)), diffContext)
	if len(groups) == 0 {
		// The ranges' changes cancel out (an insertion of the lines that
		// another edit deletes just after): equal contents.
		return res, nil
	}
	var out strings.Builder
	writeDiffHeader(&out, path)
	for _, g := range groups {
		writeHunk(&out, g, 0, x.line, d.newLine)
	}
	res.out = out.String()
	return res, nil
}

// sortedEdits returns edits sorted by offset after Apply's checks: every
// edit inside src, no two overlapping, no two insertions at one offset.
func sortedEdits(src []byte, edits []edit.Edit) ([]edit.Edit, error) {
	sorted := append([]edit.Edit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].Start != sorted[j].Start {
			return sorted[i].Start < sorted[j].Start
		}
		return sorted[i].End < sorted[j].End
	})
	for i, e := range sorted {
		if e.Start < 0 || e.Start > e.End || e.End > len(src) {
			return nil, fmt.Errorf("%w: [%d, %d) is outside the content's %d bytes", edit.ErrBadEdit, e.Start, e.End, len(src))
		}
		if i > 0 {
			p := sorted[i-1]
			if e.Start < p.End || e.Start == p.Start {
				return nil, fmt.Errorf("%w: [%d, %d) overlaps [%d, %d)", edit.ErrBadEdit, p.Start, p.End, e.Start, e.End)
			}
		}
	}
	return sorted, nil
}

// diffIndex gives the lines of a document's content as Diff splits them
// (at "\n", endings kept, the BOM part of the first line), by 0-based
// index, from the document's own line index where it splits the same way,
// so that a line's offset costs a binary search, not a scan of the file.
type diffIndex struct {
	src        []byte
	doc        []edit.LineRange // the document's lines; nil: starts holds the line starts
	base       int              // len(src) - len(doc.Text): the BOM's bytes
	starts     []int            // when doc is nil: each line's start offset
	n          int              // the number of lines
	terminated bool             // the last line ends with "\n" (or there is none)
	reads      int              // lines read by line: the work done, for tests
}

func newDiffIndex(doc *edit.Document) *diffIndex {
	src := doc.Content
	x := &diffIndex{src: src, terminated: len(src) == 0 || src[len(src)-1] == '\n'}
	if doc.EOL != edit.CR {
		if ls := doc.LineRanges(); len(ls) > 0 || len(src) == 0 {
			// The document split its text at "\n" too.
			x.doc, x.base, x.n = ls, len(src)-len(doc.Text), len(ls)
			return x
		}
	}
	// A CR document (lines split at "\r") or a BOM alone: split here.
	for i := 0; i < len(src); {
		x.starts = append(x.starts, i)
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
	}
	x.n = len(x.starts)
	return x
}

// start returns the offset in src of line i's first byte, for 0 <= i <= n;
// start(n) is len(src).
func (x *diffIndex) start(i int) int {
	switch {
	case i == 0:
		return 0
	case i >= x.n:
		return len(x.src)
	case x.doc != nil:
		return x.base + x.doc[i].Start
	}
	return x.starts[i]
}

// lineOf returns the index of the line holding offset off (0 <= off <=
// len(src)); the end of the content belongs to the last line when that
// line has no ending, else to the line after the last, n.
func (x *diffIndex) lineOf(off int) int {
	if off >= len(x.src) {
		if x.terminated {
			return x.n
		}
		return x.n - 1
	}
	// The last line whose start is at or before off.
	return sort.Search(x.n, func(i int) bool { return x.start(i) > off }) - 1
}

// line returns line i with its ending; an unterminated last line carries
// the no-newline marker, as diffLines gives it.
func (x *diffIndex) line(i int) string {
	x.reads++
	s := string(x.src[x.start(i):x.start(i+1)])
	if i == x.n-1 && !x.terminated {
		s += noNewline
	}
	return s
}

// diffRegion is one changed range: old lines [as, ae) became new lines
// [bs, be), which are lines (0-based indexes, exclusive ends).
type diffRegion struct {
	as, ae, bs, be int
	lines          []string
}

// diffStretch is a run of unchanged lines between two regions: old lines
// [a, aEnd) are new lines [a+shift, aEnd+shift).
type diffStretch struct {
	a, aEnd, shift int
}

// editDiff matches the old and new lines of a content and its edits.
type editDiff struct {
	x      *diffIndex
	regs   []diffRegion
	str    []diffStretch
	na, nb int // old and new line counts

	ext     []difflib.Match // each stretch's block, extended along its diagonal
	extMax  sparseMax       // the longest of ext over a run of stretches
	regsMax sparseMax       // the longest region (old or new side) over a run
}

// regions turns the sorted edits into changed line ranges, with the lines
// both sides share at each range's start and end trimmed off.
func (d *editDiff) regions(src []byte, sorted []edit.Edit) {
	x := d.x
	shift := 0
	for k := 0; k < len(sorted); {
		e := sorted[k]
		first := x.lineOf(e.Start)
		var text strings.Builder
		text.Write(src[x.start(first):e.Start])
		text.WriteString(e.New)
		cur := e.End
		k++
		end := d.endLine(cur, &text)
		for k < len(sorted) && (x.lineOf(sorted[k].Start) < end || end == x.n && !endsLine(&text, src[cur:])) {
			// The next edit starts on a line of this range, or the range
			// ends the file without a line ending: one range.
			text.Write(src[cur:sorted[k].Start])
			text.WriteString(sorted[k].New)
			cur = sorted[k].End
			k++
			end = d.endLine(cur, &text)
		}
		text.Write(src[cur:x.start(end)])
		s := text.String()
		var lines []string
		if s != "" {
			lines = strings.SplitAfter(s, "\n")
			if lines[len(lines)-1] == "" {
				lines = lines[:len(lines)-1]
			} else { // only at the end of the file
				lines[len(lines)-1] += noNewline
			}
		}
		r := diffRegion{as: first, ae: end, bs: first + shift, lines: lines}
		r.be = r.bs + len(lines)
		shift += len(lines) - (end - first)
		for r.as < r.ae && r.bs < r.be && x.line(r.as) == r.lines[0] {
			r.as, r.bs, r.lines = r.as+1, r.bs+1, r.lines[1:]
		}
		for r.as < r.ae && r.bs < r.be && x.line(r.ae-1) == r.lines[len(r.lines)-1] {
			r.ae, r.be, r.lines = r.ae-1, r.be-1, r.lines[:len(r.lines)-1]
		}
		if r.as < r.ae || r.bs < r.be {
			d.regs = append(d.regs, r)
		}
	}
	d.na = x.n
	d.nb = x.n + shift
}

// endLine returns the exclusive end line of a range whose last edit ends
// at offset cur and whose new text so far is text: the line at cur when
// cur starts a line and text is empty or ends a line, else the line after
// it (the rest of cur's line joins the range).
func (d *editDiff) endLine(cur int, text *strings.Builder) int {
	x := d.x
	l := x.lineOf(cur)
	s := text.String()
	if cur == x.start(l) && (s == "" || s[len(s)-1] == '\n') {
		return l
	}
	return min(l+1, x.n)
}

// endsLine reports whether text followed by rest is empty or ends with
// "\n".
func endsLine(text *strings.Builder, rest []byte) bool {
	if len(rest) > 0 {
		return rest[len(rest)-1] == '\n'
	}
	s := text.String()
	return s == "" || s[len(s)-1] == '\n'
}

// stretches records the unchanged runs of lines between the regions.
func (d *editDiff) stretches() {
	a, shift := 0, 0
	for _, r := range d.regs {
		if r.as > a {
			d.str = append(d.str, diffStretch{a, r.as, shift})
		}
		a, shift = r.ae, r.be-r.ae
	}
	if d.na > a {
		d.str = append(d.str, diffStretch{a, d.na, shift})
	}
	sizes := make([]int, len(d.str))
	for k, st := range d.str {
		// A block slides at most maxSlide lines past its stretch, or
		// across the next region and stretch if further (only runs of a
		// repeated line slide further), so that extending every stretch
		// reads a bounded number of lines per stretch.
		lo, hi := max(0, st.a-maxSlide), min(d.na, st.aEnd+maxSlide)
		if k > 0 {
			lo = min(lo, d.str[k-1].a)
		}
		if k+1 < len(d.str) {
			hi = max(hi, d.str[k+1].aEnd)
		}
		i0, i1 := st.a, st.aEnd
		for i0 > lo && i0+st.shift > 0 && d.x.line(i0-1) == d.newLine(i0-1+st.shift) {
			i0--
		}
		for i1 < hi && i1+st.shift < d.nb && d.x.line(i1) == d.newLine(i1+st.shift) {
			i1++
		}
		d.ext = append(d.ext, difflib.Match{A: i0, B: i0 + st.shift, Size: i1 - i0})
		sizes[k] = i1 - i0
	}
	d.extMax = newSparseMax(sizes)
	regSizes := make([]int, len(d.regs))
	for k, r := range d.regs {
		regSizes[k] = max(r.ae-r.as, r.be-r.bs)
	}
	d.regsMax = newSparseMax(regSizes)
}

// sparseMax answers "which is the first largest of vals[lo:hi]" in
// constant time, from a table of the answers for runs of 2^k values.
type sparseMax struct {
	vals []int
	idx  [][]int // idx[k][i]: the first largest of vals[i : i+2^k]
}

func newSparseMax(vals []int) sparseMax {
	t := sparseMax{vals: vals}
	level := make([]int, len(vals))
	for i := range level {
		level[i] = i
	}
	t.idx = append(t.idx, level)
	for w := 1; 2*w <= len(vals); w *= 2 {
		prev := t.idx[len(t.idx)-1]
		next := make([]int, len(vals)-2*w+1)
		for i := range next {
			next[i] = t.better(prev[i], prev[i+w])
		}
		t.idx = append(t.idx, next)
	}
	return t
}

// better returns the index of the larger value, the first on a tie.
func (t sparseMax) better(i, j int) int {
	if t.vals[j] > t.vals[i] || t.vals[j] == t.vals[i] && j < i {
		return j
	}
	return i
}

// argmax returns the index of the first largest of vals[lo:hi], or -1
// for an empty run.
func (t sparseMax) argmax(lo, hi int) int {
	if lo >= hi {
		return -1
	}
	k, w := 0, 1
	for 2*w <= hi-lo {
		k, w = k+1, 2*w
	}
	return t.better(t.idx[k][lo], t.idx[k][hi-w])
}

// newLine returns new line j (0-based) with its ending.
func (d *editDiff) newLine(j int) string {
	k := sort.Search(len(d.regs), func(k int) bool { return d.regs[k].be > j })
	if k < len(d.regs) && d.regs[k].bs <= j {
		return d.regs[k].lines[j-d.regs[k].bs]
	}
	if k < len(d.regs) {
		return d.x.line(j - (d.regs[k].bs - d.regs[k].as))
	}
	return d.x.line(j - (d.nb - d.na))
}

// maxSlide is the number of lines an unchanged stretch's block is
// extended by past the stretch along its diagonal, when the neighbouring
// stretches are shorter.
const maxSlide = 64

// smallDiff is the number of old and new lines, together, up to which
// DiffEdits leaves the matching to difflib's matcher: it costs little
// there, and gives Diff's output even where lines repeat.
const smallDiff = 200

// largeDiff is the number of old and new lines, together, above which
// DiffEdits takes the longest unchanged stretch even when it cannot prove
// that no block inside the changes is longer: difflib's matcher costs
// more than linear time, and a change that large (thousands of one-line
// replacements) gets a valid diff either way.
const largeDiff = 4000

// match appends to out the matching blocks of old lines [alo, ahi) and new
// lines [blo, bhi), found as difflib's get_matching_blocks finds them:
// the longest block (the earliest in the old lines, then in the new, among
// equals), then the same on each side of it. The candidates are the
// unchanged stretches, each extended along its diagonal as far as lines
// are equal; when a changed region is at least as long as the best of
// them (a block inside the changes could be longer), or the bounds hold
// few lines, difflib's matcher runs on the bounds instead, which are then
// small (below largeDiff lines).
func (d *editDiff) match(alo, ahi, blo, bhi int, out []difflib.Match) []difflib.Match {
	size := ahi - alo + bhi - blo
	if size <= smallDiff {
		return d.matchDifflib(alo, ahi, blo, bhi, out)
	}
	best, sure := d.longest(alo, ahi, blo, bhi)
	if best.Size == 0 || !sure && size <= largeDiff {
		return d.matchDifflib(alo, ahi, blo, bhi, out)
	}
	i, j, k := best.A, best.B, best.Size
	if alo < i && blo < j {
		out = d.match(alo, i, blo, j, out)
	}
	out = append(out, best)
	if i+k < ahi && j+k < bhi {
		out = d.match(i+k, ahi, j+k, bhi, out)
	}
	return out
}

// clip returns stretch k's extended block cut to the bounds (Size 0 when
// nothing of it is inside).
func (d *editDiff) clip(k, alo, ahi, blo, bhi int) difflib.Match {
	e := d.ext[k]
	shift := e.B - e.A
	i0 := max(e.A, alo, blo-shift)
	i1 := min(e.A+e.Size, ahi, bhi-shift)
	if i0 >= i1 {
		return difflib.Match{}
	}
	return difflib.Match{A: i0, B: i0 + shift, Size: i1 - i0}
}

// longer reports whether block m beats best as difflib's matcher ranks
// them: longer, or as long and earlier in the old lines, then the new.
func longer(m, best difflib.Match) bool {
	return m.Size > best.Size || m.Size == best.Size && m.Size > 0 && (m.A < best.A || m.A == best.A && m.B < best.B)
}

// longest returns the longest block among the stretches' extended blocks
// within the bounds, and whether it is surely the longest block of all:
// longer than every changed region the bounds touch. Only the stretches
// at the bounds' two ends can be cut by them; the longest of the others
// comes from a table, so a call costs O(log) of the number of stretches
// plus the lines near the bounds.
func (d *editDiff) longest(alo, ahi, blo, bhi int) (difflib.Match, bool) {
	var best difflib.Match
	k0 := sort.Search(len(d.str), func(k int) bool { return d.str[k].aEnd > alo })
	k1 := sort.Search(len(d.str), func(k int) bool { return d.str[k].a >= ahi })
	consider := func(k int) {
		if m := d.clip(k, alo, ahi, blo, bhi); longer(m, best) {
			best = m
		}
	}
	if k0 < k1 {
		consider(k0)
		consider(k1 - 1)
	}
	if c := d.extMax.argmax(k0+1, k1-1); c >= 0 {
		if m := d.clip(c, alo, ahi, blo, bhi); m.Size == d.ext[c].Size {
			if longer(m, best) {
				best = m
			}
		} else {
			// The bounds cut an inner stretch's block (a slide past a
			// neighbour): look at each.
			for k := k0 + 1; k < k1-1; k++ {
				consider(k)
			}
		}
	}
	if best.Size == 0 {
		return best, false
	}
	r0 := sort.Search(len(d.regs), func(k int) bool { return d.regs[k].ae > alo || d.regs[k].be > blo })
	r1 := sort.Search(len(d.regs), func(k int) bool { return d.regs[k].as >= ahi && d.regs[k].bs >= bhi })
	if r := d.regsMax.argmax(r0, r1); r >= 0 && d.regsMax.vals[r] >= best.Size {
		return best, false
	}
	return best, true
}

// matchDifflib appends the matching blocks that difflib's matcher finds
// between old lines [alo, ahi) and new lines [blo, bhi).
func (d *editDiff) matchDifflib(alo, ahi, blo, bhi int, out []difflib.Match) []difflib.Match {
	a := make([]string, 0, ahi-alo)
	for i := alo; i < ahi; i++ {
		a = append(a, d.x.line(i))
	}
	b := make([]string, 0, bhi-blo)
	for j := blo; j < bhi; j++ {
		b = append(b, d.newLine(j))
	}
	for _, m := range difflib.NewMatcherWithJunk(a, b, len(a) > autoJunkAbove || len(b) > autoJunkAbove, nil).GetMatchingBlocks() {
		if m.Size > 0 {
			out = append(out, difflib.Match{A: alo + m.A, B: blo + m.B, Size: m.Size})
		}
	}
	return out
}

// mergeBlocks joins adjacent matching blocks and appends the sentinel
// (na, nb, 0), as difflib's GetMatchingBlocks does.
func mergeBlocks(blocks []difflib.Match, na, nb int) []difflib.Match {
	var out []difflib.Match
	for _, b := range blocks {
		if n := len(out); n > 0 && out[n-1].A+out[n-1].Size == b.A && out[n-1].B+out[n-1].Size == b.B {
			out[n-1].Size += b.Size
			continue
		}
		out = append(out, b)
	}
	return append(out, difflib.Match{A: na, B: nb})
}

// opCodes turns matching blocks into opcodes, as difflib's GetOpCodes.
func opCodes(blocks []difflib.Match) []difflib.OpCode {
	var codes []difflib.OpCode
	i, j := 0, 0
	for _, m := range blocks {
		var tag byte
		switch {
		case i < m.A && j < m.B:
			tag = 'r'
		case i < m.A:
			tag = 'd'
		case j < m.B:
			tag = 'i'
		}
		if tag != 0 {
			codes = append(codes, difflib.OpCode{Tag: tag, I1: i, I2: m.A, J1: j, J2: m.B})
		}
		i, j = m.A+m.Size, m.B+m.Size
		if m.Size > 0 {
			codes = append(codes, difflib.OpCode{Tag: 'e', I1: m.A, I2: i, J1: m.B, J2: j})
		}
	}
	return codes
}

// groupOpCodes groups opcodes into hunks with n lines of context, as
// difflib's GetGroupedOpCodes: equal runs longer than 2n split hunks.
func groupOpCodes(codes []difflib.OpCode, n int) [][]difflib.OpCode {
	if len(codes) == 0 {
		return nil
	}
	if c := &codes[0]; c.Tag == 'e' {
		c.I1, c.J1 = max(c.I1, c.I2-n), max(c.J1, c.J2-n)
	}
	if c := &codes[len(codes)-1]; c.Tag == 'e' {
		c.I2, c.J2 = min(c.I2, c.I1+n), min(c.J2, c.J1+n)
	}
	var groups [][]difflib.OpCode
	var group []difflib.OpCode
	for _, c := range codes {
		if c.Tag == 'e' && c.I2-c.I1 > 2*n {
			group = append(group, difflib.OpCode{Tag: 'e', I1: c.I1, I2: min(c.I2, c.I1+n), J1: c.J1, J2: min(c.J2, c.J1+n)})
			groups = append(groups, group)
			group = nil
			c.I1, c.J1 = max(c.I1, c.I2-n), max(c.J1, c.J2-n)
		}
		group = append(group, c)
	}
	if len(group) > 0 && !(len(group) == 1 && group[0].Tag == 'e') {
		groups = append(groups, group)
	}
	return groups
}

// DiffChange returns the unified diff of a change of doc's file to
// content for the file at path, in Diff's format, built from edits, the
// byte edits that turn doc.Content into content, by DiffEdits. Every
// engine that edits a file in place hands over its edits (chunk, the
// exact-text and line edits, replace, batch, and apply's reply engine).
// Diff, which compares the contents, makes it only where the edits say
// nothing about where the change is: nil edits (a recorded content put
// back, as undo does, which is the one caller without edits), or one edit
// replacing the whole content (a write, or a file apply moves): DiffEdits
// would narrow that edit to the lines that changed, but over a changed
// region of thousands of lines it takes shortcuts that Diff's matcher
// does not, and a write's diff has always been Diff's. Edits DiffEdits
// refuses (out of bounds, overlapping: a caller's bug, which the syntax
// guard refuses first) fall back to Diff too. For a file that does not
// exist yet (doc.IsNew) it is NewFileDiff's git form of creating it,
// with mode 100644 ("--- /dev/null"; a diff from an empty "a/PATH" would
// not say the file is new).
func DiffChange(path string, doc *edit.Document, content []byte, edits []edit.Edit) string {
	if doc.IsNew() {
		return NewFileDiff(path, content, "100644")
	}
	whole := len(edits) == 1 && edits[0].Start == 0 && edits[0].End == len(doc.Content)
	if edits != nil && !whole {
		if d, err := DiffEdits(path, doc, edits); err == nil {
			return d
		}
	}
	return Diff(path, doc.Content, content)
}
