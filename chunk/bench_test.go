package chunk_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/symedit/symedit/chunk"
)

// BenchmarkApply applies 20 chunks to a 500-line symbol: the body of
// log/slog's Value.Equal (testdata/src/go/slog_value.go, lines 423-443)
// repeated, each line with a unique trailing comment so that one line of
// context on each side makes a chunk unique.
func BenchmarkApply(b *testing.B) {
	body := fileLines(b, "../testdata/src/go/slog_value.go", 423, 443)
	if body[0] != "\tk1 := v.Kind()" {
		b.Fatalf("fixture changed: line 423 is %q", body[0])
	}
	lines := make([]string, 500)
	for i := range lines {
		lines[i] = fmt.Sprintf("%s // %d", body[i%len(body)], i)
	}
	tg := chunk.Target{Lines: lines, FirstLine: 1000}
	var chunks []chunk.Chunk
	for k := range 20 {
		i := 12 + k*24 // lines 12, 36, ..., 468
		c := chunk.Chunk{
			ContextBefore: []string{lines[i-1]},
			OldLines:      []string{lines[i]},
			NewLines:      []string{lines[i] + " (edited)", "\t// added"},
			ContextAfter:  []string{lines[i+1]},
		}
		switch k % 4 {
		case 1: // insertion
			c.OldLines, c.NewLines, c.ContextAfter = nil, []string{"\t// inserted"}, []string{lines[i]}
		case 2: // deletion of two lines
			c.OldLines, c.NewLines, c.ContextAfter = []string{lines[i], lines[i+1]}, nil, []string{lines[i+2]}
		}
		chunks = append(chunks, c)
	}
	res, err := chunk.Apply(tg, chunks)
	if err != nil {
		b.Fatal(err)
	}
	if want := 500 + 10*1 + 5*1 - 5*2; len(res.Lines) != want || len(res.Hunks) != 20 {
		b.Fatalf("%d lines and %d hunks, want %d and 20", len(res.Lines), len(res.Hunks), want)
	}
	orig := slices.Clone(lines)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := chunk.Apply(tg, chunks); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if !slices.Equal(tg.Lines, orig) {
		b.Fatal("Apply modified Target.Lines")
	}
}
