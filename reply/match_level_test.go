package reply_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/symedit/symedit/internal/matchcases"
	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/remedy"
	"github.com/symedit/symedit/reply"
)

// TestApplyLevel: each imperfect copy, as a SEARCH/REPLACE block and as an
// EDIT block (first line the leading anchor, last line the trailing
// anchor), applies exactly at its level with the new lines at the file's
// indentation, and is refused below it with the hint; a content change is
// refused at every level.
func TestApplyLevel(t *testing.T) {
	for _, c := range matchcases.Cases(t, "..") {
		n := len(c.Old)
		blocks := map[string]reply.Block{
			"search/replace": {Format: reply.FormatSearchReplace, OldLines: c.Old, NewLines: c.New},
		}
		if n >= 3 && len(c.New) == n {
			blocks["edit"] = reply.Block{Format: reply.FormatEdit, ContextBefore: c.Old[:1], OldLines: c.Old[1 : n-1], ContextAfter: c.Old[n-1:],
				NewLines: c.New[1 : n-1]}
		}
		for kind, b := range blocks {
			t.Run(c.Name+" "+kind, func(t *testing.T) {
				if c.Refused && kind == "edit" && strings.HasSuffix(c.Name, " one changed character") {
					// The EDIT block keeps the first and last lines as
					// anchors, and its new middle line is the file's own:
					// its old line is nowhere, its applied form at one
					// place, so it is already applied and changes nothing.
					out, _, f := b.ApplyLevel(c.Text, match.Loose)
					if f != nil || out != c.Text {
						t.Fatalf("not reported as already applied: %v", f)
					}
					return
				}
				if c.Refused {
					out, _, f := b.ApplyLevel(c.Text, match.Loose)
					if f == nil || f.Hint != nil || out != c.Text {
						t.Fatalf("applied or hinted at level loose: %v", f)
					}
					if c.Ambiguous != (f.Code == reply.CodeAmbiguous) {
						t.Errorf("code %s, ambiguous %v", f.Code, c.Ambiguous)
					}
					return
				}
				want := c.Want
				if kind == "edit" {
					// The anchors are kept as they are: the new first line
					// is not written.
					want = c.Text
				}
				out, m, f := b.ApplyLevel(c.Text, c.Level)
				if f != nil {
					t.Fatalf("at %s: %v", c.Level, f)
				}
				if kind != "edit" && out != want {
					t.Errorf("at %s:\n%s\nwant:\n%s", c.Level, out, want)
				}
				if kind == "edit" && out != c.Text {
					t.Errorf("at %s: the anchors and unchanged old lines changed the file", c.Level)
				}
				if m.Level != c.Level || m.Line != c.Line {
					t.Errorf("match %+v, want level %s at line %d", m, c.Level, c.Line)
				}
				for l := match.Exact; l < c.Level; l++ {
					out, _, f := b.ApplyLevel(c.Text, l)
					if f == nil || out != c.Text {
						t.Fatalf("at %s: applied", l)
					}
					if f.Hint == nil || f.Hint.Level != c.Level || f.Hint.Line != c.Line ||
						!slices.Equal(f.Remedy(), remedy.Set(remedy.Match, c.Level.String())) || !strings.Contains(f.Error(), "at level "+c.Level.String()) {
						t.Errorf("at %s: hint %+v, message %q", l, f.Hint, f.Message)
					}
				}
			})
		}
	}
}
