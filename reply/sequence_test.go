package reply_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/reply"
)

// loop applies blocks as a caller without ApplyAll would: ApplyLevel on
// each result in turn. ApplyAll must give exactly the same.
func loop(blocks []reply.Block, text string, level match.Level) (string, []match.Match, int, *reply.Failure) {
	var ms []match.Match
	for k, b := range blocks {
		next, m, f := b.ApplyLevel(text, level)
		if f != nil {
			return text, ms, k, f
		}
		ms = append(ms, m)
		text = next
	}
	return text, ms, -1, nil
}

func checkSame(t *testing.T, blocks []reply.Block, text string, level match.Level) (applied int) {
	t.Helper()
	checkEdits(t, blocks, text, level)
	out, ms, failed, f := reply.ApplyAll(blocks, text, level)
	wout, wms, wfailed, wf := loop(blocks, text, level)
	if out != wout || failed != wfailed || !reflect.DeepEqual(ms, wms) || !reflect.DeepEqual(f, wf) {
		t.Fatalf("ApplyAll differs from ApplyLevel in a loop on %q with %d blocks:\ngot  %q, %v, failed %d, %v\nwant %q, %v, failed %d, %v\nblocks %+v",
			text, len(blocks), out, ms, failed, f, wout, wms, wfailed, wf, blocks)
	}
	return len(ms)
}

// splitLines splits text into lines as the fuzz reference does, without
// endings (at LF, a CR before it dropped).
func splitLines(text string) []string {
	text = strings.TrimPrefix(text, "\uFEFF")
	if text == "" {
		return nil
	}
	ls := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i := range ls {
		ls[i] = strings.TrimSuffix(ls[i], "\r")
	}
	return ls
}

// randomBlocks makes k blocks that edit text in turn: each is cut from the
// text the blocks before it produce (so that most apply), with sections
// of random lengths, in both formats; some are changed to fail or to be
// ambiguous.
func randomBlocks(r *rand.Rand, text string, k int) []reply.Block {
	var out []reply.Block
	cur := text
	for i := range k {
		ls := splitLines(cur)
		n := len(ls)
		// Anchors of 1 to 3 lines (empty only at the start or end of
		// the file, which they mean), 0 to 3 old lines.
		a := r.IntN(n + 1)
		b := min(a+1+r.IntN(3), n)
		c := min(b+r.IntN(4), n)
		d := min(c+1+r.IntN(2), n)
		if r.IntN(8) == 0 {
			a = 0
		}
		var nw []string
		for j := range r.IntN(4) {
			nw = append(nw, fmt.Sprintf("new %d.%d", i, j))
		}
		if r.IntN(5) == 0 {
			nw = append(nw, "")
		}
		if r.IntN(6) == 0 && b > a {
			nw = append(nw, ls[a]) // a line that occurs elsewhere too
		}
		var blk reply.Block
		if r.IntN(2) == 0 {
			blk = reply.Block{Format: reply.FormatEdit, Path: "f", ContextBefore: ls[a:b], OldLines: ls[b:c], NewLines: nw, ContextAfter: ls[c:d]}
		} else {
			if c == a && a < n {
				c = a + 1 // an empty SEARCH would create a file
			}
			blk = reply.Block{Format: reply.FormatSearchReplace, Path: "f", OldLines: ls[a:c], NewLines: nw}
		}
		if r.IntN(25) == 0 && len(blk.OldLines) > 0 {
			blk.OldLines = append(append([]string{}, blk.OldLines...), "not in the text")
		}
		out = append(out, blk)
		if next, _, f := blk.ApplyLevel(cur, match.Exact); f == nil {
			cur = next
		}
	}
	return out
}

// TestApplyAllSameAsLoop checks ApplyAll against ApplyLevel in a loop on
// real files and on the texts whose line endings need care: no final line
// ending, CRLF, mixed endings whose dominant one changes, lone CRs inside
// lines and at the end, a byte order mark, CR-only, empty.
func TestApplyAllSameAsLoop(t *testing.T) {
	texts := []string{"", "\uFEFF", "a", "a\nb", "a\n\nb", "a\nb\n", "x\n}\n}\n}\n", "a\r\nb\r\nc\r\n", "a\r\nb\nc\r\nd\ne\n",
		"a\rb\nc\n", "a\nb\r", "\uFEFFa\r\nb\r\n", "a\rb\rc\r", "a\rb\rc", "a\r\nb\r\nc\nd\ne\nf\n"}
	for _, path := range fixtures {
		texts = append(texts, readFixture(t, path))
		texts = append(texts, strings.ReplaceAll(readFixture(t, path), "\n", "\r\n"))
	}
	r := rand.New(rand.NewPCG(1, 2))
	applied, all := 0, 0
	for _, text := range texts {
		for range 20 {
			for _, level := range []match.Level{match.Exact, match.Loose} {
				blocks := randomBlocks(r, text, 1+r.IntN(12))
				applied += checkSame(t, blocks, text, level)
				all += len(blocks)
			}
		}
	}
	// The cases must apply blocks, not only fail.
	if applied < all/3 {
		t.Errorf("only %d of %d blocks applied", applied, all)
	}
}

// FuzzApplyAll checks ApplyAll against ApplyLevel in a loop on any text,
// with blocks cut from it.
func FuzzApplyAll(f *testing.F) {
	f.Add("a\nb\nc\n", uint64(1), uint8(5))
	f.Add("a\r\nb\nc\r\n\r\n", uint64(2), uint8(8))
	f.Add("\uFEFFx\ny\rz", uint64(3), uint8(3))
	f.Add("}\n}\n}\n\n}\n", uint64(4), uint8(9))
	for i, path := range fixtures {
		f.Add(readFixture(f, path)[:1500], uint64(10+i), uint8(12))
	}
	f.Fuzz(func(t *testing.T, text string, seed uint64, k uint8) {
		r := rand.New(rand.NewPCG(seed, uint64(k)))
		checkSame(t, randomBlocks(r, text, 1+int(k%16)), text, match.Exact)
	})
}

// growthCase is k SEARCH/REPLACE blocks, in reply order from the end of
// the file to its start (the worst order for a careless splice), each
// changing one distinct line of an n-line file.
func growthCase(n, k int) (string, []reply.Block) {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "\tx%d := compute(%d) // line\n", i, i)
	}
	var blocks []reply.Block
	for j := range k {
		i := (k - 1 - j) * (n / k)
		line := fmt.Sprintf("\tx%d := compute(%d) // line", i, i)
		blocks = append(blocks, reply.Block{Format: reply.FormatSearchReplace, Path: "f", OldLines: []string{line}, NewLines: []string{line + " edited", ""}})
	}
	return b.String(), blocks
}

// TestApplyAllGrowth shows that applying many blocks does not rescan or
// copy the file per block, by counting steps: 8 times
// the lines and 8 times the blocks take at most 12 times the steps (the
// tree adds a logarithm; a pass per block would take 64 times), and the
// steps stay within 30 per line of the file and per block times the
// logarithm of the file's lines. BenchmarkApplyAll measures the time.
func TestApplyAllGrowth(t *testing.T) {
	const n, k = 20_000, 100
	steps := func(n, k int) int {
		text, blocks := growthCase(n, k)
		out, _, failed, f, st := reply.ApplyAllSteps(blocks, text, match.Exact)
		if failed >= 0 || strings.Count(out, " edited\n\n") != k {
			t.Fatalf("%d blocks on %d lines: failed %d: %v", k, n, failed, f)
		}
		return st
	}
	small, large := steps(n, k), steps(8*n, 8*k)
	if small > 30*(n+k*15) {
		t.Errorf("%d steps for %d blocks on %d lines", small, k, n)
	}
	if g := float64(large) / float64(small); g > 12 {
		t.Errorf("%d steps for %d blocks on %d lines, %d for 8 times both: growth %.1f", small, k, n, large, g)
	}
}
