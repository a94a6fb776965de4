package reply_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/reply"
)

// benchReply builds a reply of at least size bytes from the fixtures:
// prose, a shell suggestion now and then, and EDIT and SEARCH/REPLACE
// blocks of real code in fences, in turn.
func benchReply(tb testing.TB, size int) (string, int) {
	var b strings.Builder
	blocks := 0
	for b.Len() < size {
		for _, path := range fixtures {
			ls := strings.Split(readFixture(tb, path), "\n")
			for i := 0; i+8 < len(ls) && b.Len() < size; i += 8 {
				fmt.Fprintf(&b, "Change %d: tighten this part; then run `git rm build/%d.o`.\n\n", blocks, blocks)
				blk := reply.Block{Format: reply.FormatEdit, Path: strings.TrimPrefix(path, "../testdata/"),
					ContextBefore: ls[i : i+2], OldLines: ls[i+2 : i+5], NewLines: append(ls[i+2:i+4:i+4], "// edited"), ContextAfter: ls[i+5 : i+7]}
				if blocks%2 == 1 {
					blk = reply.Block{Format: reply.FormatSearchReplace, Path: blk.Path, OldLines: ls[i : i+7], NewLines: ls[i : i+6]}
				}
				b.WriteString("```\n" + blk.String() + "```\n\n")
				blocks++
			}
		}
	}
	return b.String(), blocks
}

// BenchmarkParse parses a 1 MB reply of about 4,000 blocks.
func BenchmarkParse(b *testing.B) {
	text, blocks := benchReply(b, 1<<20)
	res := reply.Parse(text)
	if len(res.Blocks) != blocks || len(res.Malformed) != 0 || len(res.Shell) != blocks {
		b.Fatalf("%d blocks, %d malformed, %d suggestions; want %d blocks", len(res.Blocks), len(res.Malformed), len(res.Shell), blocks)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		reply.Parse(text)
	}
}

// BenchmarkApply applies one block near the end of the 541-line
// log/slog/value.go, and one that fails there (the failure path computes
// the nearest lines).
func BenchmarkApply(b *testing.B) {
	text := readFixture(b, "../testdata/src/go/slog_value.go")
	ok := edit([]string{"func (v Value) Equal(w Value) bool {"}, []string{"\tk1 := v.Kind()"}, []string{"\tk1 := v.Kind() // edited"}, []string{"\tk2 := w.Kind()"})
	bad := edit([]string{"func (v Value) Equal(w Value) bool {"}, []string{"\tk1 := v.Kind() "}, nil, nil)
	b.Run("applied", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, f := ok.Apply(text); f != nil {
				b.Fatal(f)
			}
		}
	})
	b.Run("failed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, f := bad.Apply(text); f == nil {
				b.Fatal("applied")
			}
		}
	})
}

// BenchmarkParseAdversarial parses each of TestParseLinearTime's
// adversarial replies at 20,000 and 160,000 lines: the time per byte
// should not grow with the size.
func BenchmarkParseAdversarial(b *testing.B) {
	for _, n := range []int{20_000, 160_000} {
		for name, in := range adversarialReplies(n) {
			b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				for b.Loop() {
					reply.Parse(in)
				}
			})
		}
	}
}

// BenchmarkApplyAll applies 1,000 blocks, from the end of the file to its
// start, to a 100,000-line file with ApplyAll, and (loop) with ApplyLevel
// on each result in turn, as apply once did: a pass over the file per
// block.
func BenchmarkApplyAll(b *testing.B) {
	text, blocks := growthCase(100_000, 1_000)
	b.Run("ApplyAll", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, failed, f := reply.ApplyAll(blocks, text, match.Exact); failed >= 0 {
				b.Fatal(f)
			}
		}
	})
	b.Run("loop", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, failed, f := loop(blocks, text, match.Exact); failed >= 0 {
				b.Fatal(f)
			}
		}
	})
}
