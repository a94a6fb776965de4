package lines

import (
	"slices"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", []string{""}},
		{"a", []string{"a"}},
		{"a\n", []string{"a"}},
		{"\n", []string{""}},
		{"a\n\n", []string{"a", ""}},
		{"a\r\nb\rc\nd", []string{"a", "b", "c", "d"}},
		{"a\r", []string{"a"}},
		{"a\r\r\n", []string{"a", ""}},
		{"\r\n\r\n", []string{"", ""}},
	} {
		if got := Split(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("Split(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestIndexStarts: lines start after each LF, or after each CR in a text
// whose dominant ending is a lone CR, as edit.Document counts them.
func TestIndexStarts(t *testing.T) {
	for _, c := range []struct {
		text   string
		starts []int
		off    int
		line   int
		col    int
	}{
		{"", []int{0}, 0, 1, 1},
		{"a\nbc\n", []int{0, 2, 5}, 3, 2, 2},
		{"a\r\nbc\r\n", []int{0, 3, 7}, 4, 2, 2},
		{"a\rbc\rd", []int{0, 2, 5}, 5, 3, 1},
		{"a\rb\nc\n", []int{0, 4, 6}, 2, 1, 3}, // LF dominant: a lone CR is inside a line
	} {
		x := IndexStarts(c.text)
		if !slices.Equal([]int(x), c.starts) {
			t.Errorf("IndexStarts(%q) = %v, want %v", c.text, x, c.starts)
		}
		if l, col := x.Position(c.off); l != c.line || col != c.col {
			t.Errorf("%q: Position(%d) = %d:%d, want %d:%d", c.text, c.off, l, col, c.line, c.col)
		}
		if y := IndexStarts([]byte(c.text)); !slices.Equal(y, x) {
			t.Errorf("IndexStarts of the bytes of %q = %v, want %v", c.text, y, x)
		}
	}
}

// TestDominantEnding: DominantEnding's rule, the same for a string and its
// bytes.
func TestDominantEnding(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"", "\n"},
		{"abc", "\n"},
		{"a\nb\n", "\n"},
		{"a\r\nb\r\n", "\r\n"},
		{"a\rb\r", "\r"},
		{"a\r\nb\nc\n", "\n"},     // two lone LF against one CRLF
		{"a\r\nb\r\nc\n", "\r\n"}, // CRLF outnumbers both
		{"a\rb\n", "\r"},          // a tie of lone LF and lone CR: CR
		{"a\rb\rc\n", "\r"},
		{"\r\n\r", "\r"}, // one CRLF, one lone CR, no lone LF: CR
	} {
		if got := DominantEnding(c.text); got != c.want {
			t.Errorf("DominantEnding(%q) = %q, want %q", c.text, got, c.want)
		}
		if got := DominantEndingBytes([]byte(c.text)); got != c.want {
			t.Errorf("DominantEndingBytes(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestIndexStartsCounts: the starts of a long text are one allocation of
// the exact size, for a string and for bytes alike.
func TestIndexStartsCounts(t *testing.T) {
	text := strings.Repeat("line\r\n", 1000) + "last"
	for _, x := range []Starts{IndexStarts(text), IndexStarts([]byte(text))} {
		if len(x) != 1001 || cap(x) != 1001 || x[1000] != 6000 {
			t.Errorf("IndexStarts: %d starts (capacity %d), the last %d; want 1001 (capacity 1001), the last 6000", len(x), cap(x), x[len(x)-1])
		}
	}
	b := []byte(text)
	if n := testing.AllocsPerRun(10, func() { IndexStarts(b) }); n > 1 {
		t.Errorf("IndexStarts of bytes: %v allocations, want 1", n)
	}
}
