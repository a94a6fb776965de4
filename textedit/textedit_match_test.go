package textedit_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/symedit/symedit/internal/matchcases"
	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/remedy"
	"github.com/symedit/symedit/textedit"
)

// TestApplyTextEditsLevel: each imperfect copy applies exactly at its
// level, with new_text at the file's indentation, and is refused below it
// with the hint; a content change is refused at every level.
func TestApplyTextEditsLevel(t *testing.T) {
	for _, c := range matchcases.Cases(t, "..") {
		t.Run(c.Name, func(t *testing.T) {
			edits := []textedit.TextEdit{{OldText: strings.Join(c.Old, "\n") + "\n", NewText: strings.Join(c.New, "\n") + "\n"}}
			if c.Refused {
				_, err := textedit.ApplyTextEditsLevel(c.Text, "", edits, match.Loose)
				var te *textedit.TextEditError
				if !errors.As(err, &te) || te.Hint != nil {
					t.Fatalf("applied or hinted at level loose: %v", err)
				}
				if c.Ambiguous != (te.Type == textedit.TextEditWrongCount) {
					t.Errorf("type %s, ambiguous %v", te.Type, c.Ambiguous)
				}
				return
			}
			res, err := textedit.ApplyTextEditsLevel(c.Text, "", edits, c.Level)
			if err != nil {
				t.Fatalf("at %s: %v", c.Level, err)
			}
			if res.Text != c.Want {
				t.Errorf("at %s:\n%s\nwant:\n%s", c.Level, res.Text, c.Want)
			}
			if s := res.Edits[0]; s.Match != c.Level || s.Lines[0] != c.Line || (s.Shift != nil) != (c.Level >= match.Indent) {
				t.Errorf("summary %+v, want level %s at line %d", s, c.Level, c.Line)
			}
			for l := match.Exact; l < c.Level; l++ {
				_, err := textedit.ApplyTextEditsLevel(c.Text, "", edits, l)
				var te *textedit.TextEditError
				if !errors.As(err, &te) || te.Type != textedit.TextEditNoMatch {
					t.Fatalf("at %s: %v, want NO_MATCH", l, err)
				}
				if te.Hint == nil || te.Hint.Level != c.Level || te.Hint.Line != c.Line ||
					!strings.Contains(te.Message, "at level "+c.Level.String()) || te.Fixes[0].Type != textedit.TextFixMatchLevel ||
					!slices.Equal(te.Fixes[0].Remedy, remedy.Set(remedy.Match, c.Level.String())) ||
					!slices.Equal(remedy.Of(err), te.Fixes[0].Remedy) {
					t.Errorf("at %s: hint %+v, message %q, fixes %+v", l, te.Hint, te.Message, te.Fixes)
				}
			}
		})
	}
}

// TestApplyTextEditsLevelPartialLine: an old_text without a line break
// matches literally only, at every level.
func TestApplyTextEditsLevelPartialLine(t *testing.T) {
	_, err := textedit.ApplyTextEditsLevel("\tx := 1\n", "", []textedit.TextEdit{{OldText: "    x := 1", NewText: "x := 2"}}, match.Loose)
	var te *textedit.TextEditError
	if !errors.As(err, &te) || te.Type != textedit.TextEditNoMatch || te.Hint != nil {
		t.Fatalf("got %v", err)
	}
}

// TestNoMatchNamesInvisibleDifference: an old_text that differs from the
// file's line only by a tab shown as spaces, or by a no-break space, is
// refused with the difference in words (Claude Code users' reports of
// edits failing with no visible difference).
func TestNoMatchNamesInvisibleDifference(t *testing.T) {
	for _, tt := range []struct {
		text, old, want string
	}{
		{"func f() {\n\treturn 1\n}\n", "    return 1", "the file's line is indented with 1 tab, the sent line with 4 spaces"},
		{"x = 1\ny =\u00a0compute(x)\n", "y = compute(x)", "the file's line has a no-break space (U+00A0) at byte"},
	} {
		_, err := textedit.ApplyTextEdits(tt.text, "", []textedit.TextEdit{{OldText: tt.old, NewText: "z"}})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: %v, want %q", tt.old, err, tt.want)
		}
	}
}
