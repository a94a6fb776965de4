package edit_test

import (
	"bytes"
	"errors"
	"math/rand"
	"strings"
	"testing"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/internal/testfile"
)

// replace reads content, replaces lines first..last and applies the edit.
func replace(t *testing.T, content string, first, last int, lines []string) string {
	t.Helper()
	doc, err := edit.NewDocument("f", []byte(content))
	if err != nil {
		t.Fatal(err)
	}
	e, err := doc.ReplaceLines(first, last, lines)
	if err != nil {
		t.Fatalf("ReplaceLines(%d, %d): %v", first, last, err)
	}
	src := bytes.Clone(doc.Content)
	out, err := edit.Apply(doc.Content, []edit.Edit{e})
	if err != nil {
		t.Fatalf("Apply(%+v): %v", e, err)
	}
	if !bytes.Equal(doc.Content, src) {
		t.Fatal("Apply modified src")
	}
	return string(out)
}

func TestReplaceLines(t *testing.T) {
	const lf = "one\ntwo\nthree\nfour\n"
	const lfNoEOL = "one\ntwo\nthree\nfour"
	const crlf = "one\r\ntwo\r\nthree\r\nfour\r\n"
	const cr = "one\rtwo\rthree\rfour\r"
	const bom = "\xEF\xBB\xBF"
	tests := []struct {
		name        string
		content     string
		first, last int
		lines       []string
		want        string
	}{
		{"replace middle", lf, 2, 3, []string{"TWO", "THREE", "extra"}, "one\nTWO\nTHREE\nextra\nfour\n"},
		{"replace middle by fewer", lf, 2, 3, []string{"2+3"}, "one\n2+3\nfour\n"},
		{"replace first", lf, 1, 1, []string{"ONE"}, "ONE\ntwo\nthree\nfour\n"},
		{"replace last", lf, 4, 4, []string{"FOUR"}, "one\ntwo\nthree\nFOUR\n"},
		{"replace last no final newline", lfNoEOL, 4, 4, []string{"FOUR", "FIVE"}, "one\ntwo\nthree\nFOUR\nFIVE"},
		{"replace all", lf, 1, 4, []string{"x"}, "x\n"},
		{"replace all no final newline", lfNoEOL, 1, 4, []string{"x"}, "x"},
		{"replace with an empty line", lf, 2, 2, []string{""}, "one\n\nthree\nfour\n"},
		{"delete middle", lf, 2, 3, nil, "one\nfour\n"},
		{"delete first", lf, 1, 1, nil, "two\nthree\nfour\n"},
		{"delete last", lf, 4, 4, nil, "one\ntwo\nthree\n"},
		{"delete all", lf, 1, 4, nil, ""},
		{"delete last no final newline", lfNoEOL, 4, 4, nil, "one\ntwo\nthree"},
		{"delete last two no final newline", lfNoEOL, 3, 4, nil, "one\ntwo"},
		{"delete all no final newline", lfNoEOL, 1, 4, nil, ""},
		{"delete last no final newline crlf", "a\r\nb\r\nc", 3, 3, nil, "a\r\nb"},
		{"delete empty slice", lf, 2, 2, []string{}, "one\nthree\nfour\n"},
		{"insert before line 1", lf, 1, 0, []string{"zero", "half"}, "zero\nhalf\none\ntwo\nthree\nfour\n"},
		{"insert before line 3", lf, 3, 2, []string{"2.5"}, "one\ntwo\n2.5\nthree\nfour\n"},
		{"insert nothing", lf, 3, 2, nil, lf},
		{"append", lf, 5, 4, []string{"five", "six"}, "one\ntwo\nthree\nfour\nfive\nsix\n"},
		{"append no final newline", lfNoEOL, 5, 4, []string{"five", "six"}, "one\ntwo\nthree\nfour\nfive\nsix"},
		{"append to empty file", "", 1, 0, []string{"first"}, "first\n"},
		{"append to empty file nothing", "", 1, 0, nil, ""},
		{"insert into single newline", "\n", 1, 0, []string{"x"}, "x\n\n"},
		{"crlf replace", crlf, 2, 3, []string{"TWO", "THREE", "3.5"}, "one\r\nTWO\r\nTHREE\r\n3.5\r\nfour\r\n"},
		{"crlf insert", crlf, 2, 1, []string{"1.5"}, "one\r\n1.5\r\ntwo\r\nthree\r\nfour\r\n"},
		{"crlf append", crlf, 5, 4, []string{"five"}, crlf + "five\r\n"},
		{"crlf append no final newline", "one\r\ntwo", 3, 2, []string{"three"}, "one\r\ntwo\r\nthree"},
		{"crlf delete", crlf, 1, 2, nil, "three\r\nfour\r\n"},
		{"cr replace", cr, 2, 2, []string{"TWO", "2.5"}, "one\rTWO\r2.5\rthree\rfour\r"},
		{"cr append", cr, 5, 4, []string{"five"}, cr + "five\r"},
		// Untouched lines keep their bytes, whatever their ending; written
		// lines get the dominant one.
		{"crlf file with an lf line", "a\r\nb\nc\r\nd\r\n", 3, 3, []string{"C1", "C2"}, "a\r\nb\nC1\r\nC2\r\nd\r\n"},
		{"crlf file with a lone cr", "a\r\nb\rx\r\nc\r\nd\r\n", 3, 3, []string{"C"}, "a\r\nb\rx\r\nC\r\nd\r\n"},
		// Replacing the LF line of a CRLF file writes its lines, ending
		// included, in the dominant style.
		{"replace the lf line in a crlf file", "a\r\nb\nc\r\nd\r\n", 2, 2, []string{"B1", "B2"}, "a\r\nB1\r\nB2\r\nc\r\nd\r\n"},
		{"trailing white space written as given", lf, 1, 1, []string{"one  \t"}, "one  \t\ntwo\nthree\nfour\n"},
		{"bom replace first", bom + lf, 1, 1, []string{"ONE"}, bom + "ONE\ntwo\nthree\nfour\n"},
		{"bom insert before line 1", bom + lf, 1, 0, []string{"zero"}, bom + "zero\n" + lf},
		{"bom delete first", bom + lf, 1, 1, nil, bom + "two\nthree\nfour\n"},
		{"bom delete all", bom + lf, 1, 4, nil, bom},
		{"bom append", bom + lfNoEOL, 5, 4, []string{"five"}, bom + lfNoEOL + "\nfive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := replace(t, tt.content, tt.first, tt.last, tt.lines)
			if got != tt.want {
				t.Errorf("ReplaceLines(%d, %d, %q) on %q\n got %q\nwant %q", tt.first, tt.last, tt.lines, tt.content, got, tt.want)
			}
			// The result is a valid document with the expected lines.
			doc, err := edit.NewDocument("f", []byte(got))
			if err != nil {
				t.Fatal(err)
			}
			orig, _ := edit.NewDocument("f", []byte(tt.content))
			if doc.BOM != orig.BOM {
				t.Errorf("BOM = %v, want %v", doc.BOM, orig.BOM)
			}
		})
	}
}

func TestReplaceLinesEditOffsets(t *testing.T) {
	// Edit offsets are in Content, BOM included.
	doc, err := edit.NewDocument("f", []byte("\xEF\xBB\xBFab\ncd\n"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := doc.ReplaceLines(2, 2, []string{"X"})
	if err != nil {
		t.Fatal(err)
	}
	if want := (edit.Edit{Start: 6, End: 9, New: "X\n"}); got != want {
		t.Errorf("ReplaceLines(2, 2) = %+v, want %+v", got, want)
	}
}

func TestReplaceLinesOutOfRange(t *testing.T) {
	tests := []struct {
		content     string
		first, last int
	}{
		{"a\nb\n", 0, 1},
		{"a\nb\n", -1, 0},
		{"a\nb\n", 1, 3},
		{"a\nb\n", 3, 3},
		{"a\nb\n", 4, 3},
		{"a\nb\n", 2, 0},
		{"a\nb\n", 3, 1},
		{"", 1, 1},
		{"", 2, 1},
		{"", 0, 0},
	}
	for _, tt := range tests {
		doc, err := edit.NewDocument("src/f.go", []byte(tt.content))
		if err != nil {
			t.Fatal(err)
		}
		e, err := doc.ReplaceLines(tt.first, tt.last, []string{"x"})
		if err == nil {
			t.Errorf("ReplaceLines(%d, %d) on %q = %+v, want an error", tt.first, tt.last, tt.content, e)
			continue
		}
		if !strings.Contains(err.Error(), "src/f.go") || !strings.Contains(err.Error(), "outside") {
			t.Errorf("error %q should name the file and say the range is outside it", err)
		}
	}
}

func TestApply(t *testing.T) {
	const src = "0123456789"
	tests := []struct {
		name  string
		edits []edit.Edit
		want  string
	}{
		{"none", nil, src},
		{"replace", []edit.Edit{{Start: 2, End: 4, New: "ab"}}, "01ab456789"},
		{"delete", []edit.Edit{{Start: 0, End: 10}}, ""},
		{"insert at start", []edit.Edit{{Start: 0, End: 0, New: ">"}}, ">0123456789"},
		{"insert at end", []edit.Edit{{Start: 10, End: 10, New: "<"}}, "0123456789<"},
		{"unsorted", []edit.Edit{{Start: 8, End: 9, New: "E"}, {Start: 1, End: 2, New: "B"}, {Start: 4, End: 6, New: "CD"}}, "0B23CD67E9"},
		{"adjacent", []edit.Edit{{Start: 3, End: 5, New: "y"}, {Start: 0, End: 3, New: "x"}}, "xy56789"},
		{"insertion right after a replacement", []edit.Edit{{Start: 5, End: 5, New: "+"}, {Start: 2, End: 5, New: "r"}}, "01r+56789"},
		{"growing and shrinking", []edit.Edit{{Start: 0, End: 5, New: ""}, {Start: 5, End: 6, New: "five!"}}, "five!6789"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := []byte(src)
			edits := append([]edit.Edit(nil), tt.edits...)
			got, err := edit.Apply(in, tt.edits)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if string(in) != src {
				t.Errorf("src modified to %q", in)
			}
			for i := range edits {
				if edits[i] != tt.edits[i] {
					t.Errorf("the edits slice was reordered")
					break
				}
			}
		})
	}
}

func TestApplyErrors(t *testing.T) {
	const src = "0123456789"
	tests := []struct {
		name  string
		edits []edit.Edit
		msg   string
	}{
		{"negative start", []edit.Edit{{Start: -1, End: 2}}, "outside"},
		{"end past content", []edit.Edit{{Start: 5, End: 11}}, "outside"},
		{"start past content", []edit.Edit{{Start: 11, End: 11}}, "outside"},
		{"start after end", []edit.Edit{{Start: 5, End: 4}}, "outside"},
		{"overlap", []edit.Edit{{Start: 2, End: 6, New: "a"}, {Start: 5, End: 8, New: "b"}}, "overlaps"},
		{"overlap unsorted", []edit.Edit{{Start: 5, End: 8, New: "b"}, {Start: 2, End: 6, New: "a"}}, "overlaps"},
		{"contained", []edit.Edit{{Start: 1, End: 9}, {Start: 3, End: 4}}, "overlaps"},
		{"same range", []edit.Edit{{Start: 3, End: 4, New: "a"}, {Start: 3, End: 4, New: "b"}}, "overlaps"},
		{"two insertions at one offset", []edit.Edit{{Start: 3, End: 3, New: "a"}, {Start: 3, End: 3, New: "b"}}, "overlaps"},
		{"insertion inside a replacement", []edit.Edit{{Start: 2, End: 6}, {Start: 4, End: 4, New: "x"}}, "overlaps"},
		{"insertion at a replacement's start", []edit.Edit{{Start: 2, End: 6}, {Start: 2, End: 2, New: "x"}}, "overlaps"},
		{"bad edit among good ones", []edit.Edit{{Start: 0, End: 1}, {Start: 20, End: 21}}, "outside"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := []byte(src)
			got, err := edit.Apply(in, tt.edits)
			if !errors.Is(err, edit.ErrBadEdit) {
				t.Fatalf("Apply = %q, %v; want an error wrapping ErrBadEdit", got, err)
			}
			if got != nil {
				t.Errorf("Apply returned %q with its error", got)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not say %q", err, tt.msg)
			}
			if string(in) != src {
				t.Errorf("src modified to %q", in)
			}
		})
	}
}

// TestReplaceLinesRealFile edits a real CPython file at several places with
// one ReplaceLines per place, applied together.
func TestReplaceLinesRealFile(t *testing.T) {
	raw := testfile.Read(t, "../testdata/src/python/process.py")
	doc, err := edit.NewDocument("process.py", raw)
	if err != nil {
		t.Fatal(err)
	}
	n := doc.LineCount()
	type op struct {
		first, last int
		lines       []string
	}
	ops := []op{
		{1, 0, []string{"# edited by symedit's tests"}},
		{20, 20, []string{doc.Line(20) + "  # replaced"}},
		{100, 104, nil},
		{200, 199, []string{"", "# inserted before line 200", ""}},
		{n, n, []string{doc.Line(n), "# appended after the last line"}},
	}
	var edits []edit.Edit
	want := []string{}
	next := 1
	for _, o := range ops {
		e, err := doc.ReplaceLines(o.first, o.last, o.lines)
		if err != nil {
			t.Fatal(err)
		}
		edits = append(edits, e)
		want = append(want, doc.Lines(next, o.first-1)...)
		want = append(want, o.lines...)
		next = o.last + 1
	}
	want = append(want, doc.Lines(next, n)...)
	// Apply sorts: pass the edits reversed.
	for i, j := 0, len(edits)-1; i < j; i, j = i+1, j-1 {
		edits[i], edits[j] = edits[j], edits[i]
	}
	out, err := edit.Apply(doc.Content, edits)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(out); got != strings.Join(want, "\n")+"\n" {
		t.Errorf("edited file differs from the expected lines")
	}
	if !bytes.Equal(doc.Content, raw) {
		t.Error("Apply modified the document's content")
	}
}

// Compose's edits of the original content give what applying the first
// edits and then the second gives, for random edits of random contents,
// and are sorted, apart and within the original.
func TestComposeRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	randomEdits := func(src []byte) []edit.Edit {
		var out []edit.Edit
		at := 0
		for at <= len(src) && rng.Intn(4) > 0 {
			s := at + rng.Intn(len(src)-at+1)
			e := s + rng.Intn(min(4, len(src)-s)+1)
			nw := []string{"", "x", "yz", "\n", "ab"}[rng.Intn(5)]
			if s == e && nw == "" {
				nw = "i"
			}
			out = append(out, edit.Edit{Start: s, End: e, New: nw})
			at = e + 1
		}
		rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		return out
	}
	for i := 0; i < 5000; i++ {
		src := []byte("abcdefghij"[:rng.Intn(11)])
		first := randomEdits(src)
		mid, err := edit.Apply(src, first)
		if err != nil {
			t.Fatal(err)
		}
		second := randomEdits(mid)
		want, err := edit.Apply(mid, second)
		if err != nil {
			t.Fatal(err)
		}
		got, err := edit.Compose(len(src), first, second)
		if err != nil {
			t.Fatalf("%q, %+v then %+v: %v", src, first, second, err)
		}
		for k := 1; k < len(got); k++ {
			if got[k].Start <= got[k-1].End {
				t.Fatalf("%q, %+v then %+v: edits not apart: %+v", src, first, second, got)
			}
		}
		if out, err := edit.Apply(src, got); err != nil || string(out) != string(want) {
			t.Fatalf("%q, %+v then %+v: composed %+v give %q (%v), want %q", src, first, second, got, out, err, want)
		}
	}
	if _, err := edit.Compose(3, []edit.Edit{{Start: 2, End: 5}}, nil); !errors.Is(err, edit.ErrBadEdit) {
		t.Errorf("an edit out of bounds: %v, want ErrBadEdit", err)
	}
	if _, err := edit.Compose(3, nil, []edit.Edit{{Start: 0, End: 2}, {Start: 1, End: 3}}); !errors.Is(err, edit.ErrBadEdit) {
		t.Errorf("overlapping second edits: %v, want ErrBadEdit", err)
	}
}
