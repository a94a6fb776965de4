package edit

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Edit replaces the bytes [Start, End) of a file's content with New.
// Offsets are 0-based byte offsets, End exclusive; Start == End inserts.
type Edit struct {
	Start, End int
	New        string
}

// ErrBadEdit is wrapped by Apply's errors: an edit out of bounds, or two
// edits that overlap.
var ErrBadEdit = errors.New("bad edit")

// Apply returns src with edits applied. It checks every edit's bounds
// (0 <= Start <= End <= len(src)) and that no two edits overlap (two
// insertions at one offset count as overlapping, since their order would be
// a guess) before building anything; src is never modified. The error wraps
// ErrBadEdit.
func Apply(src []byte, edits []Edit) ([]byte, error) {
	sorted, err := sortEdits(len(src), edits)
	if err != nil {
		return nil, err
	}
	size := len(src)
	for _, e := range sorted {
		size += len(e.New) - (e.End - e.Start)
	}
	out := make([]byte, 0, size)
	last := 0
	for _, e := range sorted {
		out = append(out, src[last:e.Start]...)
		out = append(out, e.New...)
		last = e.End
	}
	return append(out, src[last:]...), nil
}

// sortEdits returns a sorted copy of edits of a content of size bytes,
// after Apply's checks: every edit inside the content, no two
// overlapping, no two insertions at one offset.
func sortEdits(size int, edits []Edit) ([]Edit, error) {
	sorted := append([]Edit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].Start != sorted[j].Start {
			return sorted[i].Start < sorted[j].Start
		}
		return sorted[i].End < sorted[j].End
	})
	for i, e := range sorted {
		if e.Start < 0 || e.Start > e.End || e.End > size {
			return nil, fmt.Errorf("%w: [%d, %d) is outside the content's %d bytes", ErrBadEdit, e.Start, e.End, size)
		}
		if i > 0 {
			p := sorted[i-1]
			if e.Start < p.End || e.Start == p.Start {
				return nil, fmt.Errorf("%w: [%d, %d) overlaps [%d, %d)", ErrBadEdit, p.Start, p.End, e.Start, e.End)
			}
		}
	}
	return sorted, nil
}

// Compose returns the byte edits that do what first and then second do
// in turn, as edits of the content first applies to, which is size bytes
// long: first's offsets are 0-based byte offsets of that content, and
// second's are offsets of the content first made (End exclusive, as
// Apply takes them). The result is sorted, and its edits neither overlap
// nor touch: Apply(src, result) is Apply(Apply(src, first), second). Each
// is one stretch of the content that first and second left nowhere
// unchanged, so that several operations on one content in memory end as
// edits of the content as read. Its work is proportional to the number of
// edits and the length of their new text, not to size. The error wraps
// ErrBadEdit, as Apply's: an edit out of bounds, or two that overlap.
func Compose(size int, first, second []Edit) ([]Edit, error) {
	a, err := sortEdits(size, first)
	if err != nil {
		return nil, err
	}
	pieces, mid := piecesOf(size, a)
	b, err := sortEdits(mid, second)
	if err != nil {
		return nil, err
	}
	return editsOf(size, applyToPieces(pieces, mid, b)), nil
}

// piecesOf returns the content that the sorted edits a make of a content
// of size bytes, as pieces (kept stretches of the original and new
// text), and its length in bytes.
func piecesOf(size int, a []Edit) (pieces []piece, mid int) {
	last := 0
	for _, e := range a {
		if e.Start > last {
			pieces = append(pieces, piece{start: last, end: e.Start, kept: true})
		}
		if e.New != "" {
			pieces = append(pieces, piece{text: e.New})
		}
		last = e.End
	}
	if size > last {
		pieces = append(pieces, piece{start: last, end: size, kept: true})
	}
	for _, p := range pieces {
		mid += p.len()
	}
	return pieces, mid
}

// applyToPieces returns the content that the sorted edits b make of the
// content pieces hold (mid bytes long, b's offsets are offsets of it),
// as pieces of the same kinds: the bytes b keeps are pieces of pieces,
// cut where an edit starts or ends inside one. It cuts the elements of
// pieces in place.
func applyToPieces(pieces []piece, mid int, b []Edit) []piece {
	var out []piece
	k, at := 0, 0            // pieces[k] starts at offset at of the content first made
	copyTo := func(to int) { // copy the pieces' bytes up to offset to
		for k < len(pieces) && at < to {
			p := pieces[k]
			n := p.len()
			if at+n <= to {
				out = append(out, p)
				at += n
				k++
				continue
			}
			head, tail := p.split(to - at)
			out = append(out, head)
			pieces[k], at = tail, to
		}
	}
	skipTo := func(to int) { // drop the pieces' bytes up to offset to
		for k < len(pieces) && at < to {
			p := pieces[k]
			n := p.len()
			if at+n <= to {
				at += n
				k++
				continue
			}
			_, tail := p.split(to - at)
			pieces[k], at = tail, to
		}
	}
	for _, e := range b {
		copyTo(e.Start)
		skipTo(e.End)
		if e.New != "" {
			out = append(out, piece{text: e.New})
		}
	}
	copyTo(mid)
	return out
}

// editsOf returns the edits of a content of size bytes that make the
// content out holds, sorted, neither overlapping nor touching: one for
// what lies between two kept stretches that do not continue each other
// (and before the first, after the last).
func editsOf(size int, out []piece) []Edit {
	var edits []Edit
	var text strings.Builder
	from, pending := 0, false
	for _, p := range out {
		if !p.kept {
			text.WriteString(p.text)
			pending = true
			continue
		}
		if p.start > from || pending {
			edits = append(edits, Edit{Start: from, End: p.start, New: text.String()})
		}
		text.Reset()
		from, pending = p.end, false
	}
	if size > from || pending {
		edits = append(edits, Edit{Start: from, End: size, New: text.String()})
	}
	return edits
}

// piece is a stretch of a content made by edits: the original bytes
// [start, end) when kept, else the new text text.
type piece struct {
	kept       bool
	start, end int
	text       string
}

func (p piece) len() int {
	if p.kept {
		return p.end - p.start
	}
	return len(p.text)
}

// split cuts p after its first n bytes (0 < n < p.len()).
func (p piece) split(n int) (piece, piece) {
	if p.kept {
		return piece{kept: true, start: p.start, end: p.start + n}, piece{kept: true, start: p.start + n, end: p.end}
	}
	return piece{text: p.text[:n]}, piece{text: p.text[n:]}
}
