package textedit

import (
	"bytes"
	"iter"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pmezard/go-difflib/difflib"
)

// This file: the search for places similar to an old_text that a
// NO_MATCH error lists.

// Similarity search.
//
// Every line (or window of N lines for an old_text of N lines) is a
// candidate. An upper bound of its similarity comes from the rune multiset
// intersection I of old_text and the candidate (the similarity 2M/(L+F) of
// old_text, L runes, with a fragment of F >= M runes is at most
// 2I/(L+I)); it is maintained over a sliding window in one pass. The exact
// ratio is then computed in decreasing order of the bound until the bound
// falls below the fifth best found, or the budget runs out (simMaxEvals
// comparisons, or simMaxCost estimated matcher steps: so that a huge or
// repetitive text costs a fraction of a second; past the budget the result
// is the best of the candidates with the highest bounds). Equal candidates
// are compared once, and a window overlapping a place already found to be
// at least as similar as the window's bound is not compared.
//
// A candidate line much longer than old_text is compared only around the
// stretch whose runes overlap old_text's most. An old_text of several
// lines and over largeWant runes is compared line by line with the
// window's lines (the first and last by fragment, the others whole), which
// keeps the cost linear.

const (
	simMaxEvals = 3000    // exact comparisons at most
	simMaxCost  = 5000000 // estimated SequenceMatcher steps at most
	largeWant   = 2000    // runes of a multi-line old_text compared line by line
)

type teHist struct {
	ascii [128]int32
	other map[rune]int32
}

func (h *teHist) get(r rune) int32 {
	if r < 128 {
		return h.ascii[r]
	}
	return h.other[r]
}

func (h *teHist) add(r rune, d int32) {
	if r < 128 {
		h.ascii[r] += d
		return
	}
	if h.other == nil {
		h.other = map[rune]int32{}
	}
	h.other[r] += d
}

type teCand struct {
	line  int     // first line index
	bound float64 // upper bound of the similarity
	size  int     // runes in the window
	sim   float64
}

// teComparer compares candidate texts with want.
type teComparer struct {
	want  []rune
	hist  teHist
	m     *difflib.SequenceMatcher // second sequence: want
	large bool                     // compare line by line
	lines [][]rune                 // want's lines (large)
	lineM []*difflib.SequenceMatcher
	cost  int // estimated matcher steps so far
}

func newTeComparer(want []rune, k int) *teComparer {
	c := &teComparer{want: want, m: difflib.NewMatcher(nil, teRuneStrings(want))}
	for _, r := range want {
		c.hist.add(r, 1)
	}
	if k > 1 && len(want) > largeWant {
		c.large = true
		for _, l := range strings.Split(strings.TrimSuffix(string(want), "\n"), "\n") {
			rs := []rune(l)
			c.lines = append(c.lines, rs)
			c.lineM = append(c.lineM, difflib.NewMatcher(nil, teRuneStrings(rs)))
		}
	}
	return c
}

// compare returns the similarity of the candidate text (a window's lines
// joined by "\n") to want, and the part of text that lines up with want
// as pieces: one for a whole-text comparison, one per line for a
// line-by-line one.
func (c *teComparer) compare(text string) (sim float64, pieces [][]rune) {
	runes := []rune(text)
	if !c.large {
		sim, fs, fe := c.fragment(c.m, runes, c.want, &c.hist)
		return sim, [][]rune{runes[fs:fe]}
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	matched, size := 0, 0
	for i, l := range lines {
		a, b := []rune(l), c.lines[i]
		frag := a
		switch {
		case string(a) == string(b):
			matched += len(b)
		case i == 0 || i == len(lines)-1: // old_text may start or end mid-line
			var h teHist
			for _, r := range b {
				h.add(r, 1)
			}
			s, fs, fe := c.fragment(c.lineM[i], a, b, &h)
			frag = a[fs:fe]
			matched += int(math.Round(s * float64(len(b)+len(frag)) / 2))
		default:
			c.lineM[i].SetSeq1(teRuneStrings(a))
			for _, m := range c.lineM[i].GetMatchingBlocks() {
				matched += m.Size
			}
			c.cost += 4 * (len(a) + len(b))
		}
		size += len(frag)
		pieces = append(pieces, frag)
	}
	return 2 * float64(matched) / float64(len(c.want)-strings.Count(string(c.want), "\n")+size), pieces
}

// fragment returns teBestFragment's result for candidate a and want b (h:
// b's runes), comparing a long candidate only around the stretch of len(b)
// runes that overlaps b's runes most.
func (c *teComparer) fragment(m *difflib.SequenceMatcher, a, b []rune, h *teHist) (sim float64, fs, fe int) {
	off := 0
	if lb := len(b); len(a) > 4*lb+256 {
		var win teHist
		inter, best, at := 0, -1, 0
		for i, r := range a {
			if win.get(r) < h.get(r) {
				inter++
			}
			win.add(r, 1)
			if i >= lb {
				old := a[i-lb]
				win.add(old, -1)
				if win.get(old) < h.get(old) {
					inter--
				}
			}
			if inter > best {
				best, at = inter, max(0, i-lb+1)
			}
		}
		c.cost += 2 * len(a)
		off = max(0, at-lb/2-16)
		a = a[off:min(len(a), at+lb+lb/2+16)]
	}
	steps := 0
	for _, r := range a {
		steps += int(h.get(r))
	}
	c.cost += 3 * (steps + len(a) + len(b))
	sim, fs, fe = teBestFragment(m, teRuneStrings(a), len(b))
	return sim, off + fs, off + fe
}

// differences lists what differs between the pieces of a candidate and
// want, at most 5.
func (c *teComparer) differences(pieces [][]rune) []StringDiff {
	if !c.large {
		return teDifferences(pieces[0], c.want)
	}
	var out []StringDiff
	for i, p := range pieces {
		if string(p) != string(c.lines[i]) {
			out = append(out, teDifferences(p, c.lines[i])...)
		}
		if len(out) >= 5 {
			return out[:5]
		}
	}
	return out
}

// similar returns the places of the current text most similar to old (as
// searched), best first.
func (e *textEngine) similar(old string) []SimilarContent {
	// An old_text that ends with a line break is compared with windows
	// that end with theirs.
	want := teToLF(old)
	if strings.TrimSpace(want) == "" {
		return nil
	}
	wantRunes := []rune(want)
	s := &teSimSearch{
		e:   e,
		old: old,
		nl:  strings.HasSuffix(want, "\n"),
		k:   strings.Count(strings.TrimSuffix(want, "\n"), "\n") + 1,
	}
	s.lines = e.lines()
	if len(s.lines) < s.k {
		return nil
	}
	cands := e.bounds(s.lines, wantRunes, s.k, s.nl)
	s.cmp = newTeComparer(wantRunes, s.k)
	var out []SimilarContent
	for _, c := range s.pick(cands) {
		out = append(out, s.content(c))
	}
	return out
}

// teSimSearch is one search for the places similar to an old_text: the
// windows of k lines of the current text it compares with old_text.
type teSimSearch struct {
	e     *textEngine
	old   string   // old_text as searched
	nl    bool     // old_text ends with a line break
	k     int      // old_text's lines: the lines in a window
	lines []teLine // the current text's lines
	cmp   *teComparer
}

// window returns the text of the window of k lines from line i, with
// its last line's break when old_text ends with one.
func (s *teSimSearch) window(i int) string {
	w := s.e.window(s.lines, i, s.k)
	if s.nl && s.lines[i+s.k-1].next > s.lines[i+s.k-1].end {
		w += "\n"
	}
	return w
}

// pick compares candidates (as bounds orders them) with old_text, in
// turn, and returns the best maxSimilar of at least similarFloor, best
// first (tePickSimilar). It stops at the search's budget (simMaxEvals
// comparisons, simMaxCost matcher steps), when the context is done, or
// once no candidate left can beat the places picked. It skips a window
// that overlaps a place at least as similar as the window can be,
// compares equal windows once, and leaves out a window that holds an
// occurrence of old_text (the error is then WRONG_COUNT, not a place
// that is only similar).
func (s *teSimSearch) pick(cands []teCand) []teCand {
	k := s.k
	seen := map[string]float64{}
	var done, picked []teCand
	for i, c := range cands {
		if i >= simMaxEvals || s.cmp.cost >= simMaxCost || s.e.stopped() {
			break
		}
		if len(picked) == maxSimilar && c.bound < picked[maxSimilar-1].sim {
			break
		}
		if slices.ContainsFunc(picked, func(p teCand) bool {
			return p.sim >= c.bound && c.line < p.line+k && p.line < c.line+k
		}) {
			continue // it overlaps a place at least as similar as it can be
		}
		text := s.window(c.line)
		var ok bool
		if c.sim, ok = seen[text]; !ok {
			c.sim, _ = s.cmp.compare(text)
			seen[text] = c.sim
		}
		if c.sim < similarFloor-0.005 {
			continue
		}
		// Leave out places that hold an occurrence (WRONG_COUNT).
		if bytes.Contains(s.e.cur[s.lines[c.line].start:s.lines[c.line+k-1].next], []byte(s.old)) {
			continue
		}
		done = append(done, c)
		if n := len(picked); n < maxSimilar || c.sim > picked[n-1].sim || c.sim == picked[n-1].sim && c.line < picked[n-1].line {
			picked = tePickSimilar(done, k)
		}
	}
	return picked
}

// content returns the report of a picked place c: its original lines,
// its content (long lines clipped around the match), the part that lines
// up with old_text, the rounded similarity and what differs. A place
// equal to old_text but for line endings (in a text that mixes them)
// says so as one whitespace difference.
func (s *teSimSearch) content(c teCand) SimilarContent {
	e, lines, k := s.e, s.lines, s.k
	_, pieces := s.cmp.compare(s.window(c.line))
	match := make([]string, len(pieces))
	for i, p := range pieces {
		match[i] = string(p)
	}
	orig, by := e.locate(lines[c.line].start)
	sc := SimilarContent{
		LineNumber:      e.origLine(orig),
		Content:         clipLines(e.window(lines, c.line, k), match),
		Match:           strings.Join(match, "\n"),
		SimilarityScore: math.Round(c.sim*100) / 100,
		Differences:     s.cmp.differences(pieces),
		InsertedBy:      by,
	}
	if s.cmp.large && s.nl {
		sc.Match += "\n"
	}
	sc.EndLineNumber = sc.LineNumber + k - 1
	if len(sc.Differences) == 0 && !e.uniform { // equal but for line endings
		raw := e.cur[lines[c.line].start:lines[c.line+k-1].end]
		sc.Differences = []StringDiff{{Type: TextDiffWhitespace, Expected: s.old, Found: string(raw)}}
	}
	return sc
}

// clipLines bounds a similar place's content, so that an error stays small
// however long the file's lines are: each line over MaxWindow bytes beyond
// its piece of the match (pieces[i], the part of line i that lines up with
// old_text) is cut to the piece and about MaxWindow bytes around it, at rune
// boundaries, with "..." where it is cut.
func clipLines(content string, pieces []string) string {
	lines := strings.Split(content, "\n")
	for i, l := range lines {
		piece := ""
		if i < len(pieces) {
			piece = strings.TrimSuffix(pieces[i], "\n")
		}
		if len(l) <= MaxWindow+len(piece) {
			continue
		}
		at := max(0, strings.Index(l, piece))
		start, end := max(0, at-MaxWindow/4), min(len(l), at+len(piece)+MaxWindow*3/4)
		for start > 0 && !utf8.RuneStart(l[start]) {
			start--
		}
		for end < len(l) && !utf8.RuneStart(l[end]) {
			end++
		}
		cut := l[start:end]
		if start > 0 {
			cut = "..." + cut
		}
		if end < len(l) {
			cut += "..."
		}
		lines[i] = cut
	}
	return strings.Join(lines, "\n")
}

// bounds returns the candidate windows of k lines whose similarity bound
// reaches similarFloor, the likeliest first (teRank orders them and keeps
// about the simMaxEvals best). The bound of each window comes from the
// rune multiset intersection with want, kept over a window that slides
// one line at a time. It returns nil when the context is done.
func (e *textEngine) bounds(lines []teLine, want []rune, k int, nl bool) []teCand {
	lo := len(want)
	var wantHist, win teHist
	for _, r := range want {
		wantHist.add(r, 1)
	}
	inter, size := 0, 0
	addRune := func(r rune, d int32) {
		if d > 0 && win.get(r) < wantHist.get(r) {
			inter++
		}
		win.add(r, d)
		if d < 0 && win.get(r) < wantHist.get(r) {
			inter--
		}
		size += int(d)
	}
	addLine := func(i int, d int32) {
		b := e.cur[lines[i].start:lines[i].end]
		for j := 0; j < len(b); {
			r, n := rune(b[j]), 1
			if r >= utf8.RuneSelf {
				r, n = utf8.DecodeRune(b[j:])
			}
			addRune(r, d)
			j += n
		}
	}
	var cands []teCand
	var buckets [1001]int // candidates by bound, in thousandths
	for i := 0; i+k <= len(lines); i++ {
		if e.stopped() {
			return nil
		}
		if i == 0 {
			if nl { // counted in every window: an upper bound
				addRune('\n', 1)
			}
			for j := 0; j < k; j++ {
				if j > 0 {
					addRune('\n', 1)
				}
				addLine(j, 1)
			}
		} else { // slide: the newlines inside the window stay k-1
			addLine(i-1, -1)
			addLine(i+k-1, 1)
		}
		if inter == 0 || k == 1 && len(bytes.TrimSpace(e.cur[lines[i].start:lines[i].end])) == 0 {
			continue
		}
		bound := 2 * float64(inter) / float64(lo+inter)
		if bound < similarFloor-0.005 {
			continue
		}
		cands = append(cands, teCand{line: i, bound: bound, size: size})
		buckets[int(bound*1000)]++
	}
	return teRank(cands, &buckets, lo)
}

// teRank returns cands, windows whose bounds buckets counts in
// thousandths, the likeliest first: by bound, then by closeness of size
// to lo (want's runes), then by line. Past simMaxEvals candidates it
// keeps only those of the highest thousandths that hold about
// simMaxEvals, so that a huge text sorts few.
func teRank(cands []teCand, buckets *[1001]int, lo int) []teCand {
	if len(cands) > simMaxEvals {
		floor, n := 1000, 0
		for floor > 0 && n+buckets[floor] < simMaxEvals {
			n += buckets[floor]
			floor--
		}
		cands = slices.DeleteFunc(cands, func(c teCand) bool { return int(c.bound*1000) < floor })
	}
	slices.SortFunc(cands, func(a, b teCand) int {
		switch {
		case a.bound > b.bound:
			return -1
		case a.bound < b.bound:
			return 1
		}
		if d := teAbs(a.size-lo) - teAbs(b.size-lo); d != 0 {
			return d
		}
		return a.line - b.line
	})
	return cands
}

func teAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// tePickSimilar returns the best non-overlapping candidates of done, best
// first, at most maxSimilar.
func tePickSimilar(done []teCand, k int) []teCand {
	sorted := slices.Clone(done)
	slices.SortStableFunc(sorted, func(a, b teCand) int {
		if a.sim != b.sim {
			if a.sim > b.sim {
				return -1
			}
			return 1
		}
		return a.line - b.line
	})
	var out []teCand
	for _, c := range sorted {
		overlaps := false
		for _, p := range out {
			if c.line < p.line+k && p.line < c.line+k {
				overlaps = true
				break
			}
		}
		if !overlaps {
			out = append(out, c)
			if len(out) == maxSimilar {
				break
			}
		}
	}
	return out
}

// window returns lines i to i+k-1 of the current text joined by "\n".
func (e *textEngine) window(lines []teLine, i, k int) string {
	var b strings.Builder
	for j := i; j < i+k; j++ {
		if j > i {
			b.WriteByte('\n')
		}
		b.Write(e.cur[lines[j].start:lines[j].end])
	}
	return b.String()
}

// teFragment returns the similarity of want (lb runes) to the fragment of a
// candidate (la runes) that lines up with it, and the fragment's bounds:
// from the first matching block to the last, widened by the runes of want
// before its first and after its last matching block. Blocks at either end
// are dropped while that raises the similarity, so that a stray one-rune
// match far from the rest does not stretch the fragment.
func teFragment(blocks []difflib.Match, la, lb int) (sim float64, fs, fe int) {
	blocks = blocks[:len(blocks)-1] // the last block is a dummy
	if len(blocks) == 0 {
		return 0, 0, 0
	}
	ratio := func(lo, hi int) (float64, int, int) {
		matched := 0
		for _, b := range blocks[lo : hi+1] {
			matched += b.Size
		}
		first, last := blocks[lo], blocks[hi]
		fs := max(0, first.A-first.B)
		fe := min(la, last.A+last.Size+lb-(last.B+last.Size))
		return 2 * float64(matched) / float64(lb+fe-fs), fs, fe
	}
	lo, hi := 0, len(blocks)-1
	sim, fs, fe = ratio(lo, hi)
	for lo < hi {
		if s, s1, e1 := ratio(lo+1, hi); s > sim {
			lo, sim, fs, fe = lo+1, s, s1, e1
		} else if s, s1, e1 := ratio(lo, hi-1); s > sim {
			hi, sim, fs, fe = hi-1, s, s1, e1
		} else {
			break
		}
	}
	return sim, fs, fe
}

// teBestFragment returns the fragment of a (a candidate, as rune strings)
// most similar to the matcher's second sequence (lb runes), as teFragment
// does, with its similarity. The matcher pairs the longest common run
// first, which may sit away from the place that resembles want best (a
// "Kind" earlier on the line than "KindUint64"), so the search is
// repeated in a window around the places where the largest matching
// blocks put want's start, and the best fragment wins.
func teBestFragment(m *difflib.SequenceMatcher, a []string, lb int) (sim float64, fs, fe int) {
	m.SetSeq1(a)
	blocks := m.GetMatchingBlocks()
	sim, fs, fe = teFragment(blocks, len(a), lb)
	if sim == 0 || sim == 1 {
		return sim, fs, fe
	}
	blocks = slices.Clone(blocks[:len(blocks)-1])
	slices.SortStableFunc(blocks, func(x, y difflib.Match) int { return y.Size - x.Size })
	slack := lb/4 + 2
	var tried []int
	for _, b := range blocks {
		if len(tried) == 4 {
			break
		}
		at := b.A - b.B
		if slices.Contains(tried, at) {
			continue
		}
		tried = append(tried, at)
		ws, we := max(0, at-slack), min(len(a), at+lb+slack)
		if ws == 0 && we == len(a) {
			continue
		}
		m.SetSeq1(a[ws:we])
		if s, f, e := teFragment(m.GetMatchingBlocks(), we-ws, lb); s > sim {
			sim, fs, fe = s, ws+f, ws+e
		}
	}
	return sim, fs, fe
}

var teASCII = func() (t [128]string) {
	for i := range t {
		t[i] = string(rune(i))
	}
	return t
}()

func teRuneStrings(rs []rune) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		if r < 128 {
			out[i] = teASCII[r]
		} else {
			out[i] = string(r)
		}
	}
	return out
}

// teDifferences lists what differs between the found fragment and want, at
// most 5 differences.
func teDifferences(found, want []rune) []StringDiff {
	m := difflib.NewMatcher(teRuneStrings(found), teRuneStrings(want))
	type region struct{ i1, i2, j1, j2 int }
	var regs []region
	for _, op := range m.GetOpCodes() {
		if op.Tag == 'e' {
			continue
		}
		if n := len(regs); n > 0 {
			r := &regs[n-1]
			gap := found[r.i2:op.I1]
			if len(gap) < 3 || len(gap) <= 20 && teAllWord(gap) {
				r.i2, r.j2 = op.I2, op.J2
				continue
			}
		}
		regs = append(regs, region{op.I1, op.I2, op.J1, op.J2})
	}
	var out []StringDiff
	prevI := 0
	for n, r := range regs {
		if len(out) >= 5 {
			out = out[:5]
			break
		}
		nextI := len(found)
		if n+1 < len(regs) {
			nextI = regs[n+1].i1
		}
		exp, got := string(want[r.j1:r.j2]), string(found[r.i1:r.i2])
		// A difference inside a word shows the whole word; one between
		// words shows the neighbouring words.
		// A pure insertion or deletion shows its neighbours.
		edge := func(i, j int) bool {
			return r.i1 < r.i2 && r.j1 < r.j2 && (teIsWord(found[i]) || teIsWord(want[j]))
		}
		left := teExpand(slices.Backward(found[prevI:r.i1]), edge(r.i1, r.j1))
		right := teExpand(slices.All(found[r.i2:nextI]), edge(r.i2-1, r.j2-1))
		for _, typ := range teClassify(exp, got) {
			out = append(out, StringDiff{
				Type:     typ,
				Expected: string(want[r.j1-left : r.j2+right]),
				Found:    string(found[r.i1-left : r.i2+right]),
			})
		}
		prevI = r.i2
	}
	return out
}

func teIsWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

func teAllWord(rs []rune) bool {
	for _, r := range rs {
		if !teIsWord(r) {
			return false
		}
	}
	return true
}

// teExpand returns how many runes of the context next to a difference
// (ctx, from the difference outwards) to show with it, at most 30: the
// rest of the word when the difference ends inside a word (inWord), else
// the white space and the word next to it, or one other rune.
func teExpand(ctx iter.Seq2[int, rune], inWord bool) int {
	n, words := 0, 0
	for _, r := range ctx {
		if n == 30 {
			break
		}
		switch {
		case teIsWord(r):
			words++
		case inWord || words > 0:
			return n
		case unicode.IsSpace(r):
		default:
			return n + 1
		}
		n++
	}
	return n
}

// teClassify names the difference between two fragments: the first of
// whitespace, case and punctuation whose normalisation makes them equal;
// else the smallest combination that does (several names); else content.
func teClassify(want, found string) []string {
	norms := []struct {
		typ  string
		norm func(string) string
	}{
		{TextDiffWhitespace, func(s string) string { return teStrip(s, unicode.IsSpace) }},
		{TextDiffCase, strings.ToLower},
		{TextDiffPunctuation, func(s string) string { return teStrip(s, teIsPunct) }},
	}
	for _, n := range norms {
		if n.norm(want) == n.norm(found) || n.typ == TextDiffCase && strings.EqualFold(want, found) {
			return []string{n.typ}
		}
	}
	for _, set := range [][]int{{0, 1}, {0, 2}, {1, 2}, {0, 1, 2}} {
		w, f := want, found
		var types []string
		for _, i := range set {
			w, f = norms[i].norm(w), norms[i].norm(f)
			types = append(types, norms[i].typ)
		}
		if w == f {
			return types
		}
	}
	return []string{TextDiffContent}
}

func teIsPunct(r rune) bool { return unicode.IsPunct(r) || r == '`' }

func teStrip(s string, drop func(rune) bool) string {
	return strings.Map(func(r rune) rune {
		if drop(r) {
			return -1
		}
		return r
	}, s)
}
