package chunk_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/symedit/symedit/chunk"
)

// TestErrorBoundedOnLongLines: a rejection on a
// symbol with a megabyte-long line shows a window of at most
// chunk.MaxShown bytes of each line, around the first difference, in
// Message, Expected, Actual and Nearest, so its text and its JSON stay
// small instead of repeating the line.
func TestErrorBoundedOnLongLines(t *testing.T) {
	long := "    x = [" + strings.Repeat("1, ", 350_000) + "1]"
	wrong := long[:500_000] + "9" + long[500_001:] // one byte differs, far in
	target := chunk.Target{FirstLine: 1, Lines: []string{"def f():", long, "    return x"}}
	for _, tt := range []struct {
		name  string
		chunk chunk.Chunk
	}{
		{"context_before", chunk.Chunk{ContextBefore: []string{wrong}, OldLines: []string{"    return x"}, NewLines: []string{"    return y"}}},
		{"old_lines", chunk.Chunk{ContextBefore: []string{"def f():"}, OldLines: []string{wrong}, NewLines: []string{"    x = []"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := chunk.Apply(target, []chunk.Chunk{tt.chunk})
			var ce *chunk.Error
			if !errors.As(err, &ce) || ce.Code != chunk.CodeNoMatch {
				t.Fatalf("Apply = %v, want a NO_MATCH *chunk.Error", err)
			}
			js, jerr := json.Marshal(ce)
			if jerr != nil {
				t.Fatal(jerr)
			}
			if n := len(err.Error()); n > 8*chunk.MaxShown {
				t.Errorf("Error() is %d bytes, want at most %d", n, 8*chunk.MaxShown)
			}
			if n := len(js); n > 10*chunk.MaxShown {
				t.Errorf("JSON is %d bytes, want at most %d", n, 10*chunk.MaxShown)
			}
			for _, s := range []string{ce.Expected, ce.Actual} {
				if len(s) > chunk.MaxShown+6 {
					t.Errorf("a field of %d bytes: %.80q...", len(s), s)
				}
			}
			if len(ce.Nearest) == 0 || ce.Nearest[0].Line != 2 || len(ce.Nearest[0].Text) > chunk.MaxShown+6 {
				t.Errorf("nearest %+v, want line 2 cut to a window", ce.Nearest)
			}
			if tt.name == "old_lines" && (!strings.Contains(ce.Expected, "9") || !strings.HasPrefix(ce.Expected, "...")) {
				t.Errorf("Expected %q is not the window around the differing byte", ce.Expected)
			}
		})
	}
	// A short line is shown whole.
	_, err := chunk.Apply(target, []chunk.Chunk{{ContextBefore: []string{"def g():"}, OldLines: []string{"    return x"}, NewLines: []string{"    return y"}}})
	var ce *chunk.Error
	if !errors.As(err, &ce) || ce.Expected != "def g():" {
		t.Errorf("short line: %v (Expected %q)", err, ce.Expected)
	}
}
