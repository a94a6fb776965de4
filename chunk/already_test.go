package chunk

import (
	"errors"
	"strings"
	"testing"
)

// TestAlreadyAppliedOverlap: a chunk found already applied takes the
// place of its new lines; a chunk that would change those lines too
// overlaps it and the list is refused, since which one stands cannot be
// told.
func TestAlreadyAppliedOverlap(t *testing.T) {
	lines := strings.Split("def f(a, b):\n    x = a + 2\n    y = b * 2\n    return x + y", "\n")
	tg := Target{Lines: lines, FirstLine: 10}
	already := Chunk{ContextBefore: []string{"def f(a, b):"}, OldLines: []string{"    x = a + 1"}, NewLines: []string{"    x = a + 2"},
		ContextAfter: []string{"    y = b * 2"}}
	res, err := Apply(tg, []Chunk{already})
	if err != nil || !res.Hunks[0].AlreadyApplied || res.Hunks[0].Line != 11 || strings.Join(res.Lines, "\n") != strings.Join(lines, "\n") {
		t.Fatalf("already applied: %v %+v", err, res)
	}
	over := Chunk{ContextBefore: []string{"def f(a, b):"}, OldLines: []string{"    x = a + 2", "    y = b * 2"}, NewLines: []string{"    x, y = a + 2, b * 2"},
		ContextAfter: []string{"    return x + y"}}
	_, err = Apply(tg, []Chunk{already, over})
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != CodeOverlap {
		t.Errorf("overlap: %v", err)
	}
	// Apart, the two kinds go together: the one writes, the other is
	// reported.
	ret := Chunk{ContextBefore: []string{"    y = b * 2"}, OldLines: []string{"    return x + y"}, NewLines: []string{"    return x - y"}}
	res, err = Apply(tg, []Chunk{already, ret})
	if err != nil || !res.Hunks[0].AlreadyApplied || res.Hunks[1].AlreadyApplied || res.Lines[3] != "    return x - y" {
		t.Errorf("apart: %v %+v", err, res)
	}
}
