package reply

import (
	"testing"

	"github.com/symedit/symedit/edit"
)

// TestEditLogLostMapsNothing: edits that cannot be mapped back through the
// earlier ones (here out of the bounds of the text reached) leave the log
// lost, holding no edits, and it stays lost; the run then reports the one
// stretch where the texts differ (spanEdits) instead of a wrong edit.
func TestEditLogLostMapsNothing(t *testing.T) {
	l := editLog{size: 3}
	l.then([]edit.Edit{{Start: 0, End: 1, New: "x"}})
	l.then([]edit.Edit{{Start: 5, End: 9, New: "y"}})
	if !l.lost || l.edits != nil {
		t.Fatalf("after an edit out of bounds: lost %v, edits %v", l.lost, l.edits)
	}
	l.then([]edit.Edit{{Start: 0, End: 0, New: "z"}})
	if !l.lost || l.edits != nil {
		t.Fatalf("a lost log took more edits: %v", l.edits)
	}
	if got := spanEdits("abc", "xbc"); len(got) != 1 || got[0] != (edit.Edit{Start: 0, End: 1, New: "x"}) {
		t.Errorf("spanEdits = %v", got)
	}
}
