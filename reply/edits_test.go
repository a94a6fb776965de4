package reply_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	symdiff "github.com/symedit/symedit/diff"
	symedit "github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/reply"
)

// checkEdits checks ApplyAllEdits's edits against its text: applied to
// the text given they make exactly Text, and they are sorted, apart (not
// touching) and trimmed (no edit keeps a byte at either end, none changes
// nothing). It returns the result.
func checkEdits(t *testing.T, blocks []reply.Block, text string, level match.Level) reply.ApplyAllResult {
	t.Helper()
	r := reply.ApplyAllEdits(blocks, text, level)
	got, err := symedit.Apply([]byte(text), r.Edits)
	if err != nil {
		t.Fatalf("the edits of %d blocks do not apply to %q: %v\nedits %+v", len(blocks), text, err, r.Edits)
	}
	if string(got) != r.Text {
		t.Fatalf("the edits of %d blocks make\n%q\nthe engine made\n%q\nfrom %q; edits %+v\nblocks %+v", len(blocks), got, r.Text, text, r.Edits, blocks)
	}
	for i, e := range r.Edits {
		if i > 0 && e.Start <= r.Edits[i-1].End {
			t.Fatalf("edits %+v and %+v touch or are out of order", r.Edits[i-1], e)
		}
		old := text[e.Start:e.End]
		if old == e.New || old != "" && e.New != "" && (old[0] == e.New[0] || old[len(old)-1] == e.New[len(e.New)-1]) {
			t.Fatalf("edit %+v of %q keeps bytes at an end", e, old)
		}
	}
	return r
}

// randomChange changes k random stretches of text's lines, apart from
// each other by at least gap lines: each is deleted, replaced by new lines
// or lines taken from elsewhere in the text, or gets new lines inserted.
// The text keeps its final line ending.
func randomChange(r *rand.Rand, text string, k, gap int) string {
	ls := strings.SplitAfter(text, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	var out []string
	at := 0
	for i := range k {
		start := at + gap + r.IntN(max(1, len(ls)/k))
		if start >= len(ls) {
			break
		}
		end := min(start+r.IntN(4), len(ls)-1)
		out = append(out, ls[at:start]...)
		for j := range r.IntN(4) {
			if r.IntN(4) == 0 {
				out = append(out, ls[r.IntN(len(ls)-1)])
				continue
			}
			out = append(out, fmt.Sprintf("\tnew %d.%d\n", i, j))
		}
		at = end
	}
	return strings.Join(append(out, ls[at:]...), "")
}

// asApplyPatch rewrites a unified diff of one file as a Codex apply_patch
// patch: its hunks' @@ lines without line numbers, which place them by
// their context lines alone.
func asApplyPatch(unified, path string) string {
	var b strings.Builder
	b.WriteString("*** Begin Patch\n*** Update File: " + path + "\n")
	for _, l := range strings.SplitAfter(unified, "\n") {
		switch {
		case strings.HasPrefix(l, "--- "), strings.HasPrefix(l, "+++ "), l == "":
		case strings.HasPrefix(l, "@@"):
			b.WriteString("@@\n")
		default:
			b.WriteString(l)
		}
	}
	b.WriteString("*** End Patch\n")
	return b.String()
}

// TestApplyAllEditsRemakeText checks, for unified diffs and apply_patch
// patches, that the edits ApplyAllEdits returns, applied to the original
// text, give exactly the text it returns: on the real fixtures, LF and
// CRLF, for diffs of random changes (several hunks each) and the same
// hunks as patches. EDIT and SEARCH/REPLACE blocks are checked so by
// checkSame, on random blocks cut from the fixtures and from texts with
// every kind of line ending (TestApplyAllSameAsLoop), and on any text
// (FuzzApplyAll); the golden replies of every format by TestGolden.
func TestApplyAllEditsRemakeText(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	applied := map[reply.Format]int{}
	rounds := 40
	if testing.Short() {
		rounds = 12
	}
	for _, path := range fixtures {
		orig := readFixture(t, path)
		for range rounds {
			changed := randomChange(r, orig, 1+r.IntN(6), 1+r.IntN(8))
			unified := symdiff.Diff("f", []byte(orig), []byte(changed))
			for _, replyText := range []string{unified, asApplyPatch(unified, "f")} {
				res := reply.Parse(replyText)
				if len(res.Blocks) == 0 {
					continue
				}
				for _, text := range []string{orig, strings.ReplaceAll(orig, "\n", "\r\n")} {
					out := checkEdits(t, res.Blocks, text, match.Exact)
					if out.Failed >= 0 {
						continue
					}
					if strings.ReplaceAll(out.Text, "\r\n", "\n") != changed {
						t.Fatalf("%s: the %s applied gives another text than the one it was made from", path, res.Blocks[0].Format)
					}
					// The diff of the edits is the diff of the
					// whole texts, as ops shows it.
					doc, err := symedit.NewDocument("f", []byte(text))
					if err != nil {
						t.Fatal(err)
					}
					if d, err := symdiff.DiffEdits("f", doc, out.Edits); err != nil || d != symdiff.Diff("f", []byte(text), []byte(out.Text)) {
						t.Errorf("%s: the diff of the edits differs from the diff of the texts (%v):\n%s", path, err, d)
					}
					applied[res.Blocks[0].Format]++
				}
			}
		}
	}
	// Every format must have applied often, not only failed.
	for _, f := range []reply.Format{reply.FormatUnifiedDiff, reply.FormatApplyPatch} {
		t.Logf("%d %s replies applied", applied[f], f)
		if applied[f] < rounds*len(fixtures)/2 {
			t.Errorf("only %d %s replies or blocks applied", applied[f], f)
		}
	}
}

// TestApplyAllEditsAtBlocks checks that the edits are where the blocks
// landed, one per block, trimmed of the lines a block writes back: two
// SEARCH/REPLACE blocks far apart give two edits, a block applied by the
// tree and a block applied to the whole text (a looser match) give their
// own spans, and blocks already applied give none.
func TestApplyAllEditsAtBlocks(t *testing.T) {
	text := "a\nb\nc\nd\ne\nf\ng\n"
	blocks := []reply.Block{
		{Format: reply.FormatSearchReplace, Path: "f", OldLines: []string{"a", "b"}, NewLines: []string{"a", "B"}},
		{Format: reply.FormatSearchReplace, Path: "f", OldLines: []string{"f"}, NewLines: []string{"F", "F2"}},
	}
	r := checkEdits(t, blocks, text, match.Exact)
	want := []symedit.Edit{{Start: 2, End: 3, New: "B"}, {Start: 10, End: 11, New: "F\nF2"}}
	if fmt.Sprint(r.Edits) != fmt.Sprint(want) {
		t.Errorf("edits %+v, want %+v", r.Edits, want)
	}
	// The second block matches only with its indentation ignored, so
	// it is applied to the text made whole, after the first spliced in
	// the tree.
	loose := append(blocks[:1:1], reply.Block{Format: reply.FormatSearchReplace, Path: "f", OldLines: []string{"  e"}, NewLines: []string{"  E"}})
	r = checkEdits(t, loose, text, match.Loose)
	want = []symedit.Edit{{Start: 2, End: 3, New: "B"}, {Start: 8, End: 9, New: "E"}}
	if r.Failed >= 0 || fmt.Sprint(r.Edits) != fmt.Sprint(want) {
		t.Errorf("edits %+v (failed %d: %v), want %+v", r.Edits, r.Failed, r.Failure, want)
	}
	// Applied again, both are already there.
	r = checkEdits(t, blocks, reply.ApplyAllEdits(blocks, text, match.Exact).Text, match.Exact)
	if len(r.Edits) != 0 || r.Failed >= 0 {
		t.Errorf("blocks already applied gave edits %+v (failed %d)", r.Edits, r.Failed)
	}
}
