package similar

import (
	"reflect"
	"testing"
)

func TestNearest(t *testing.T) {
	lines := []string{"    self._check_closed()", "", "    x = 1", "  self._check_closed()  ", "def f():"}
	got := Nearest(lines, "self._check_close()", 2, false)
	want := []Line{{0, 0.97}, {3, 0.97}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Nearest = %v, want %v", got, want)
	}
	// With exactOnly1, equal-after-trimming is 0.99, byte-equal is 1.
	got = Nearest(lines, "self._check_closed()", 3, true)
	want = []Line{{0, 0.99}, {3, 0.99}, {4, 0.21}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Nearest(exactOnly1) = %v, want %v", got, want)
	}
	if got := Nearest(lines, "zzz", 3, false); got != nil {
		t.Errorf("nothing alike: %v", got)
	}
}
