package edit

import (
	"errors"
	"fmt"
	"sort"
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
	sorted := append([]Edit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].Start != sorted[j].Start {
			return sorted[i].Start < sorted[j].Start
		}
		return sorted[i].End < sorted[j].End
	})
	size := len(src)
	for i, e := range sorted {
		if e.Start < 0 || e.Start > e.End || e.End > len(src) {
			return nil, fmt.Errorf("%w: [%d, %d) is outside the content's %d bytes", ErrBadEdit, e.Start, e.End, len(src))
		}
		if i > 0 {
			p := sorted[i-1]
			if e.Start < p.End || e.Start == p.Start {
				return nil, fmt.Errorf("%w: [%d, %d) overlaps [%d, %d)", ErrBadEdit, p.Start, p.End, e.Start, e.End)
			}
		}
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
