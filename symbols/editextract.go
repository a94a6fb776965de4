package symbols

import (
	"bytes"
	"context"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/symedit/symedit/internal/probe"
	"github.com/symedit/symedit/lang"
)

// ExtractEdit is ExtractFrom(ctx, p) for p, the parse of the content
// after an edit of beforeText, whose File before is (as ExtractFile,
// ExtractParse or ExtractEdit returned it for beforeText): the same File,
// symbol for symbol and field for field, in less time when it can read
// only the part of p's tree that the edit touched. It can when p has a
// tree-sitter tree and neither that tree nor before's has an ERROR or
// MISSING node, p.Lang's symbols are local to each top-level node
// (lang.Language.LocalSymbols), and no symbol spans the edited top-level
// nodes and others: it then extracts the root's children that the
// changed bytes touch (the bytes between the texts' common prefix and
// common suffix) and one more on each side, takes the other symbols from
// before with their bytes shifted by the change in length and their lines
// and columns counted again, and names them all again (the "[N]" of
// same-named symbols counts over the whole file). Otherwise it is
// ExtractFrom. Errors are ExtractFrom's. ExtractEdit borrows p: it
// neither modifies nor closes it.
//
// For a language whose own parser finds its symbols (Go), it can when
// that parser accepted beforeText (before came from it) and the
// language extracts after an edit (lang.Language.OwnExtractEdits): that
// parser then reads only the top-level declarations the changed bytes
// touched, and the definitions elsewhere are before's, shifted, before
// all are assembled and named as a full extraction does.
func ExtractEdit(ctx context.Context, before File, beforeText []byte, p *lang.Parse) (File, error) {
	return ExtractEdits(ctx, before, beforeText, p, nil)
}

// ExtractEdits is ExtractEdit when the caller knows the edits that made
// p.Text of beforeText: sorted, not overlapping, byte offsets into
// beforeText (Start, inclusive, End, exclusive) and into p.Text
// (NewStart, NewEnd) of the texts without a byte order mark. A language
// whose own parser finds its symbols (Go) then parses only the
// declarations each edit touched, not all those between the first edit
// and the last. Edits that do not turn beforeText into p.Text (the bytes
// between them differ, or they are out of order or of bounds) are
// ignored, as are nil edits: the changed bytes are then those between
// the texts' common prefix and common suffix, as in ExtractEdit. When
// p.Text has beforeText's bytes (an edit already applied) the result is
// before itself, with nothing parsed or queried. The result and errors
// are ExtractEdit's.
func ExtractEdits(ctx context.Context, before File, beforeText []byte, p *lang.Parse, edits []lang.Edit) (File, error) {
	if p != nil && bytes.Equal(beforeText, p.Text) {
		return before, nil
	}
	if f, ok, err := extractOwnEdited(ctx, before, beforeText, p, edits); ok || err != nil {
		return f, err
	}
	if f, ok, err := extractEdited(ctx, before, beforeText, p); ok || err != nil {
		return f, err
	}
	return ExtractFrom(ctx, p)
}

// ExtractOwnEdits is ExtractEdits' extraction by the language's own
// parser over the declarations the edits touched, alone: ok is false,
// and nothing is parsed beyond what found that out, when it does not
// apply (a language without its own extraction after an edit, a before
// that parser did not accept, an edit outside every declaration, a
// declaration that does not parse alone), where ExtractEdits would go on
// to parse the whole of p.Text. With ok, the File is ExtractEdits' and
// Clean: the language's own parser accepts p.Text. Its error is ctx's.
func ExtractOwnEdits(ctx context.Context, before File, beforeText []byte, p *lang.Parse, edits []lang.Edit) (f File, ok bool, err error) {
	return extractOwnEdited(ctx, before, beforeText, p, edits)
}

// extractOwnEdited is ExtractEdits' restricted extraction for a language
// whose own parser finds its symbols; ok is false when it does not
// apply.
func extractOwnEdited(ctx context.Context, before File, beforeText []byte, p *lang.Parse, edits []lang.Edit) (f File, ok bool, err error) {
	if p == nil || p.Lang == nil || !before.own || before.Layout == nil || len(p.Text) == 0 || len(beforeText) == 0 {
		return File{}, false, nil
	}
	extract := p.Lang.OwnExtractEdits()
	if extract == nil {
		return File{}, false, nil
	}
	if err := ctx.Err(); err != nil {
		return File{}, false, err
	}
	after := p.Text
	edits, ok = trimEdits(beforeText, after, edits)
	if !ok {
		a := commonPrefix(beforeText, after)
		s := commonSuffix(beforeText[a:], after[a:])
		edits = []lang.Edit{{Start: a, End: len(beforeText) - s, NewStart: a, NewEnd: len(after) - s}}
	}
	if len(edits) == 0 || edits[0].Start == edits[0].End && edits[0].NewStart == edits[0].NewEnd {
		return File{}, false, nil // no change: the caller extracts, as it would
	}
	defs, layout, parsed, ok := extract(beforeText, after, edits, before.defs, before.Layout)
	probe.CountOwnParsed(ctx, parsed)
	if !ok {
		return File{}, false, nil
	}
	if err := ctx.Err(); err != nil {
		return File{}, false, err
	}
	return ownDefsFile(after, p.Lang, defs, layout), true, nil
}

// extractEdited is ExtractEdit's restricted extraction; ok is false when
// it does not apply (then the caller extracts the whole file).
func extractEdited(ctx context.Context, before File, beforeText []byte, p *lang.Parse) (f File, ok bool, err error) {
	if p == nil || p.Lang == nil || p.Tree == nil || !p.Lang.LocalSymbols() || p.Lang.OwnExtract() != nil ||
		!before.treeClean || len(before.names) != len(before.Symbols) || len(p.Text) == 0 || len(beforeText) == 0 {
		return File{}, false, nil
	}
	if err := ctx.Err(); err != nil {
		return File{}, false, err
	}
	after := p.Text
	root := p.Tree.RootNode()
	if root.HasError() {
		return File{}, false, nil
	}

	// The changed bytes: [a, len(beforeText)-s) before, [a, len(after)-s)
	// after.
	a := commonPrefix(beforeText, after)
	s := commonSuffix(beforeText[a:], after[a:])
	if a == len(beforeText) && a == len(after) {
		return File{}, false, nil // no change: nothing to gain
	}
	delta := len(after) - len(beforeText)
	newEnd := len(after) - s

	// The root's children that touch the changed bytes, and one more on
	// each side: the region whose symbols are extracted again.
	kids := rootChildren(root)
	if len(kids) == 0 {
		return File{}, false, nil
	}
	lo, hi := uint32(max(a-1, 0)), uint32(newEnd+1)
	first, last := len(kids), -1
	for i, k := range kids {
		if k.end >= lo && k.start <= hi {
			if first == len(kids) {
				first = i
			}
			last = i
		}
	}
	if last < 0 { // the change lies between two children: the ones around it
		first = 0
		for first < len(kids) && kids[first].end < lo {
			first++
		}
		last = first - 1
	}
	first, last = max(first-1, 0), min(last+1, len(kids)-1)
	if first > last {
		return File{}, false, nil
	}
	// The region is [start, end) after, [start, end-delta) before; it
	// reaches the file's ends when its children are the first or last.
	start, end := int(kids[first].start), int(kids[last].end)
	if first == 0 {
		start = 0
	}
	if last == len(kids)-1 {
		end = len(after)
	}
	oldEnd := end - delta
	if start > a || end < newEnd || oldEnd < start {
		return File{}, false, nil
	}

	// before's symbols: those before the region, those in it (extracted
	// again), those after it. One across its edge ends the attempt.
	var pre, post int // pre: the count before; post: the index of the first after
	post = len(before.Symbols)
	for i, sym := range before.Symbols {
		switch {
		case sym.EndByte <= start:
			if i != pre {
				return File{}, false, nil // not in source order: never from Extract
			}
			pre++
		case sym.StartByte >= oldEnd:
			if post == len(before.Symbols) {
				post = i
			}
		case sym.StartByte >= start && sym.EndByte <= oldEnd:
			if post != len(before.Symbols) {
				return File{}, false, nil
			}
		default:
			return File{}, false, nil
		}
	}

	q, err := p.Lang.SymbolsQuery()
	if err != nil {
		return File{}, false, err
	}
	x := &extractor{src: after, rules: p.Lang.Rules(), lines: newLineIndex(after)}
	span := [2]sitter.Point{kids[first].node.StartPoint(), kids[last].node.EndPoint()}
	if err := x.query(ctx, q, root, &span); err != nil {
		return File{}, false, err
	}
	var cands []*candidate
	for _, c := range x.refine() {
		switch {
		case int(c.startByte) >= start && int(c.endByte) <= end:
			cands = append(cands, c)
		case int(c.endByte) <= start || int(c.startByte) >= end:
			// Outside the region, where before's symbols stand.
		default:
			return File{}, false, nil
		}
	}
	mid, midNames := x.assemble(cands)

	n := pre + len(mid) + len(before.Symbols) - post
	out := make([]Symbol, 0, n)
	names := make([]naming, 0, n)
	out = append(out, before.Symbols[:pre]...)
	names = append(names, before.names[:pre]...)
	for _, sym := range mid {
		if sym.Parent >= 0 {
			sym.Parent += pre
		}
		out = append(out, sym)
	}
	names = append(names, midNames...)
	oldLines := newLineIndex(beforeText)
	shift := len(out) - post // a symbol after the region: its index after less before
	for _, sym := range before.Symbols[post:] {
		if sym.Parent >= 0 {
			if sym.Parent < post {
				return File{}, false, nil // a parent before the region contains it: never, as it would cross the region
			}
			sym.Parent += shift
		}
		name := oldLines.offset(sym.Selection) + delta
		sym.StartByte += delta
		sym.EndByte += delta
		sym.ImplByte += delta
		sym.ModifiersByte += delta
		sym.KeywordByte += delta
		sym.Start = x.lines.position(sym.StartByte)
		sym.End = x.lines.position(sym.EndByte)
		sym.Selection = x.lines.position(name)
		out = append(out, sym)
	}
	names = append(names, before.names[post:]...)
	nameAll(out, names)
	return File{Symbols: out, Clean: p.Clean, Layout: p.Layout, names: names, treeClean: true}, true, nil
}

// trimEdits returns edits, which must turn before into after, each
// shrunk by the bytes it leaves unchanged at its ends, without those that
// change nothing; ok is false when edits is empty, or not sorted, not
// disjoint, out of bounds, or the bytes between them differ in before
// and after (the edits do not make after). It reads each text once.
func trimEdits(before, after []byte, edits []lang.Edit) (out []lang.Edit, ok bool) {
	if len(edits) == 0 {
		return nil, false
	}
	out = make([]lang.Edit, 0, len(edits))
	prev, prevNew := 0, 0
	for _, e := range edits {
		if e.Start < prev || e.End < e.Start || e.End > len(before) || e.NewStart < prevNew || e.NewEnd < e.NewStart ||
			e.NewEnd > len(after) || e.Start-prev != e.NewStart-prevNew || string(before[prev:e.Start]) != string(after[prevNew:e.NewStart]) {
			return nil, false
		}
		prev, prevNew = e.End, e.NewEnd
		o, n := before[e.Start:e.End], after[e.NewStart:e.NewEnd]
		a := commonPrefix(o, n)
		s := commonSuffix(o[a:], n[a:])
		e.Start, e.NewStart = e.Start+a, e.NewStart+a
		e.End, e.NewEnd = e.End-s, e.NewEnd-s
		if e.Start == e.End && e.NewStart == e.NewEnd {
			continue
		}
		out = append(out, e)
	}
	if len(before)-prev != len(after)-prevNew || string(before[prev:]) != string(after[prevNew:]) {
		return nil, false
	}
	return out, true
}

// kid is one child of a root node and its byte range.
type kid struct {
	node       *sitter.Node
	start, end uint32
}

// rootChildren returns root's children in order, walked once with a
// tree cursor (Child(i) would count from the first child at each call).
func rootChildren(root *sitter.Node) []kid {
	cur := sitter.NewTreeCursor(root)
	defer cur.Close()
	var out []kid
	if !cur.GoToFirstChild() {
		return nil
	}
	for {
		n := cur.CurrentNode()
		out = append(out, kid{node: n, start: n.StartByte(), end: n.EndByte()})
		if !cur.GoToNextSibling() {
			return out
		}
	}
}

// commonPrefix returns the length of the longest common prefix of a and
// b.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i+8 <= n && string(a[i:i+8]) == string(b[i:i+8]) {
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffix returns the length of the longest common suffix of a and
// b.
func commonSuffix(a, b []byte) int {
	i, j := len(a), len(b)
	for i >= 8 && j >= 8 && string(a[i-8:i]) == string(b[j-8:j]) {
		i, j = i-8, j-8
	}
	for i > 0 && j > 0 && a[i-1] == b[j-1] {
		i, j = i-1, j-1
	}
	return len(a) - i
}
