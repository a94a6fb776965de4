package lines

import (
	"slices"
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
