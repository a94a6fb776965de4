package textedit_test

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/textedit"
)

// TextEditResult.Changes are byte edits of the input text that give the
// result's Text, whatever the line endings (matched on an LF copy for a
// uniform CRLF or CR text), for chains of edits that write into one
// another's text, delete, insert next to each other and match at looser
// levels.
func TestApplyTextEditsChanges(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	pieces := []string{"a", "b", "ab", "  x", "\tyy", "", "}", "func f() {"}
	for _, eol := range []string{"\n", "\r\n", "\r", "mixed"} {
		applied := 0
		for i := 0; i < 400; i++ {
			var b strings.Builder
			n := rng.Intn(8)
			for j := 0; j < n; j++ {
				b.WriteString(pieces[rng.Intn(len(pieces))])
				switch {
				case eol != "mixed":
					b.WriteString(eol)
				default:
					b.WriteString([]string{"\n", "\r\n", "\r"}[rng.Intn(3)])
				}
			}
			if rng.Intn(3) == 0 {
				b.WriteString(pieces[rng.Intn(len(pieces))]) // no final line ending
			}
			text := b.String()
			cur := strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
			var edits []textedit.TextEdit
			for k := rng.Intn(4) + 1; k > 0 && len(cur) > 0; k-- {
				s := rng.Intn(len(cur))
				e := s + 1 + rng.Intn(min(6, len(cur)-s))
				old := cur[s:e]
				repl := []string{"", "Z", "Z\nZ", old + "\nq", "\n", pieces[rng.Intn(len(pieces))]}[rng.Intn(6)]
				c := strings.Count(cur, old)
				edits = append(edits, textedit.TextEdit{OldText: old, NewText: repl, Occurrences: c})
				cur = strings.ReplaceAll(cur, old, repl)
			}
			if len(edits) == 0 {
				continue
			}
			level := []match.Level{match.Exact, match.Loose}[rng.Intn(2)]
			res, err := textedit.ApplyTextEditsLevel(text, "", edits, level)
			if err != nil {
				continue // a count the sketch above got wrong, or an edit already applied
			}
			applied++
			got, err := edit.Apply([]byte(text), res.Changes)
			if err != nil || string(got) != res.Text {
				t.Fatalf("text %q, edits %+v: the changes %+v give %q (%v), the result is %q", text, edits, res.Changes, got, err, res.Text)
			}
			for k := 1; k < len(res.Changes); k++ {
				if res.Changes[k].Start < res.Changes[k-1].End {
					t.Fatalf("text %q: changes not sorted: %+v", text, res.Changes)
				}
			}
		}
		if applied < 100 {
			t.Errorf("line endings %q: only %d of 400 cases applied", eol, applied)
		}
	}
}

// ApplyDocumentContext's edits are offsets of the file's content, its
// byte order mark included.
func TestApplyDocumentContextEdits(t *testing.T) {
	doc, err := edit.NewDocument("a.txt", []byte("\uFEFFone\r\ntwo\r\nthree\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	content, _, changes, err := textedit.ApplyDocumentContext(t.Context(), doc, []textedit.TextEdit{{OldText: "two\nthree", NewText: "2\n3"}}, match.Exact)
	if err != nil {
		t.Fatal(err)
	}
	want := []edit.Edit{{Start: 3 + 5, End: 3 + 15, New: "2\r\n3"}}
	if len(changes) != 1 || changes[0] != want[0] {
		t.Fatalf("changes %+v, want %+v", changes, want)
	}
	if got, err := edit.Apply(doc.Content, changes); err != nil || string(got) != string(content) {
		t.Fatalf("the changes give %q (%v), the content is %q", got, err, content)
	}
}
