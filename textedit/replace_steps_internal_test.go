package textedit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/internal/probe"
	"github.com/symedit/symedit/match"
)

// oneLongLine is a document of one line holding n matches of "foo".
func oneLongLine(t testing.TB, n int) *edit.Document {
	d, err := edit.NewDocument("a.txt", []byte(strings.Repeat("foo bar ", n)+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// searchStepsOf returns the search steps (probe.SearchSteps) f takes.
func searchStepsOf(f func()) int64 {
	before := probe.SearchSteps.Load()
	f()
	return probe.SearchSteps.Load() - before
}

// TestReplaceLinearOnOneLongLine: replacing every match on one long line
// costs steps in proportion to the line (4x the input, about 4x the
// steps; a line-end scan per match made it 16x), and stopping one past
// an expected count costs the same allocations however long the line is
// (its steps are the one scan of the line for its end).
func TestReplaceLinearOnOneLongLine(t *testing.T) {
	sr, err := Compile(Search{Pattern: "foo", Replacement: "baz"})
	if err != nil {
		t.Fatal(err)
	}
	const n = 5000
	all := func(n int) int64 {
		d := oneLongLine(t, n)
		return searchStepsOf(func() {
			if _, k, _, _, err := sr.ReplaceDocumentLimit(context.Background(), d, 0); err != nil || k != n {
				t.Fatalf("%d replacements, %v; want %d", k, err, n)
			}
		})
	}
	if small, large := all(n), all(4*n); large > 5*small {
		t.Errorf("replace all: %d steps for %d matches, %d for %d: want at most 5x for 4x the input", small, n, large, 4*n)
	}
	limited := func(n int) (int64, float64) {
		d := oneLongLine(t, n)
		steps := searchStepsOf(func() {
			if _, _, ms, _, err := sr.ReplaceDocumentLimit(context.Background(), d, 2); err != nil || len(ms) != 2 {
				t.Fatalf("%d matches, %v; want the search stopped at 2", len(ms), err)
			}
		})
		// The fewest of several counts: the race detector empties the
		// regular expression's machine pool (a sync.Pool) at random,
		// which only ever adds allocations to a count, so the fewest is
		// the search's own.
		allocs := math.Inf(1)
		for range 5 {
			allocs = min(allocs, testing.AllocsPerRun(5, func() { _, _, _, _, _ = sr.ReplaceDocumentLimit(context.Background(), d, 2) }))
		}
		return steps, allocs
	}
	s1, a1 := limited(n)
	s4, a4 := limited(4 * n)
	// The steps count the bytes scanned for the line's end: the line
	// grows, the number of searches does not. A few allocations of slack
	// for what the fewest of the counts still leaves to chance.
	if s4 > 5*s1 || a4 > a1+8 {
		t.Errorf("stopped at 2 matches: %d steps and %.0f allocations for %d matches, %d and %.0f for %d: want about the same allocations", s1, a1, n, s4, a4, 4*n)
	}
	if a4 > 20 {
		t.Errorf("stopped at 2 matches: %.0f allocations, want a handful", a4)
	}
}

// TestSearchesStopWithContext: a replace on one long line, a regular
// expression with a look-behind assertion, the edit engine's search of
// many occurrences and its search for similar lines all stop soon after
// their context is cancelled (at most a few context checks' worth of
// steps), with the context's error.
func TestSearchesStopWithContext(t *testing.T) {
	long := oneLongLine(t, 200_000)
	lines := strings.Repeat("fob bar baz qux\n", 200_000)
	lit, _ := Compile(Search{Pattern: "foo", Replacement: "baz"})
	re, _ := Compile(Search{Pattern: `\bfoo`, Replacement: "baz", Regex: true})
	runs := map[string]func(ctx context.Context) error{
		"replace": func(ctx context.Context) error {
			_, _, _, _, err := lit.ReplaceDocumentLimit(ctx, long, 0)
			return err
		},
		"replace look-behind": func(ctx context.Context) error {
			_, _, _, _, err := re.ReplaceDocumentLimit(ctx, long, 0)
			return err
		},
		"edit occurrences": func(ctx context.Context) error {
			_, err := ApplyTextEditsContext(ctx, string(long.Text), edit.LF, []TextEdit{{OldText: "foo", NewText: "x", Occurrences: 1}}, match.Exact)
			return err
		},
		"edit as whole lines": func(ctx context.Context) error {
			// The search as whole lines, level by level up to loose, and
			// the hint's at the looser levels ask the context too.
			e := newTextEngine(lines, edit.LF)
			e.ctx = ctx
			if lm := e.findLines("fob bar baz qux\nnot there\n", match.Loose); len(lm.ms) != 0 {
				t.Errorf("matches %v", lm.ms)
			}
			e.addHint(&TextEditError{}, "fob bar baz qux\nnot there\n", match.Exact)
			return ctx.Err()
		},
		"edit similar": func(ctx context.Context) error {
			_, err := ApplyTextEditsContext(ctx, lines, edit.LF, []TextEdit{{OldText: "foo bar baz qux", NewText: "x"}}, match.Exact)
			return err
		},
	}
	for name, run := range runs {
		t.Run(name, func(t *testing.T) {
			ctx := &probe.StepsContext{Context: context.Background(), After: probe.SearchSteps.Load() + 5000}
			err := run(ctx)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("error %v, want the cancellation", err)
			}
			at := ctx.At()
			if at == 0 {
				t.Fatal("the context was never asked")
			}
			if steps := probe.SearchSteps.Load() - at; steps > 4*ctxEvery {
				t.Errorf("%d search steps after the cancellation, want at most %d", steps, 4*ctxEvery)
			}
		})
	}
}

// TestFindAllAsRegexp: the search one match at a time finds what
// FindAllSubmatchIndex finds, empty matches included.
func TestFindAllAsRegexp(t *testing.T) {
	texts := []string{"", "a", "abc abc", "aaa", "héllo wörld", "x\ny\n\nz", "ab\u00e9ab"}
	pats := []string{"a*", "b|", "[a-z]+", "(a)(b)?", "$", "(?m)$", "x*?", ".", "é", "(?s).*", "a|ab", "\\n"}
	for _, p := range pats {
		sr, err := Compile(Search{Pattern: p, Regex: true})
		if err != nil {
			t.Fatal(err)
		}
		if sr.lookBehind {
			t.Fatalf("%q: taken as looking behind", p)
		}
		for _, text := range texts {
			got, err := sr.findAll(context.Background(), []byte(text), 0)
			want := sr.re.FindAllSubmatchIndex([]byte(text), -1)
			if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%q in %q: %v, want %v", p, text, got, want)
			}
			for limit := 1; limit <= len(want); limit++ {
				got, _ := sr.findAll(context.Background(), []byte(text), limit)
				if fmt.Sprint(got) != fmt.Sprint(want[:limit]) {
					t.Errorf("%q in %q, limit %d: %v, want %v", p, text, limit, got, want[:limit])
				}
			}
		}
	}
	for _, p := range []string{"^a", "(?m)^a", `\bfoo`, `\B`, `a|\Ab`} {
		if sr, _ := Compile(Search{Pattern: p, Regex: true}); !sr.lookBehind {
			t.Errorf("%q: not taken as looking behind", p)
		}
	}
}

// BenchmarkReplaceOneLongLine replaces every "foo" of one line of n
// matches, and stops one past an expected count of 1, at two sizes: the
// ratio of the two sizes' ns/op is about 4 when the work is linear.
func BenchmarkReplaceOneLongLine(b *testing.B) {
	sr, err := Compile(Search{Pattern: "foo", Replacement: "baz"})
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{20_000, 80_000} {
		d := oneLongLine(b, n)
		for _, limit := range []int{0, 2} {
			b.Run(fmt.Sprintf("matches=%d/limit=%d", n, limit), func(b *testing.B) {
				for b.Loop() {
					if _, _, _, _, err := sr.ReplaceDocumentLimit(context.Background(), d, limit); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
