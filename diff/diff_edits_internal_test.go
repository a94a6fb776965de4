package diff

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/symedit/symedit/edit"
)

// TestDiffEditsWork counts the lines DiffEdits reads (no clock): the same
// for one edit in a file ten times longer, and linear in the number of
// edits when a file gets thousands of one-line edits, as replace of a
// common word gives (each range costs a look-up in a table of the longest
// stretches, not a scan of all of them).
func TestDiffEditsWork(t *testing.T) {
	build := func(lines int) *edit.Document {
		var b bytes.Buffer
		for i := range lines {
			fmt.Fprintf(&b, "\tline(%d)\n", i)
		}
		doc, err := edit.NewDocument("f.go", b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	lineStart := func(doc *edit.Document, n int) int { return doc.LineRanges()[n].Start }

	var reads []int
	for _, n := range []int{10_000, 100_000} {
		doc := build(n)
		at := lineStart(doc, n/2)
		res, err := diffEdits("f.go", doc, []edit.Edit{{Start: at, End: at, New: "\tinserted()\n"}})
		if err != nil || res.out == "" {
			t.Fatalf("%d lines: %q, %v", n, res.out, err)
		}
		reads = append(reads, res.reads)
	}
	if reads[0] != reads[1] {
		t.Errorf("one edit read %d lines of a 10,000-line file and %d of a 100,000-line one", reads[0], reads[1])
	}

	for _, m := range []int{500, 5000} {
		doc := build(10 * m)
		var edits []edit.Edit
		for k := range m {
			at := lineStart(doc, 10*k+5)
			edits = append(edits, edit.Edit{Start: at, End: at + 1, New: "  "})
		}
		res, err := diffEdits("f.go", doc, edits)
		if err != nil || res.out == "" {
			t.Fatalf("%d edits: %v", m, err)
		}
		// Each edit's hunk shows its line twice and 3 lines of context on
		// each side; finding the blocks reads a few lines around each.
		if res.reads > 40*m {
			t.Errorf("%d one-line edits read %d lines (more than 40 per edit)", m, res.reads)
		}
	}
}

// TestDiffEditsWorkRepeatedLine: a file of one repeated line, a copy of
// it inserted every 10 lines: every unchanged stretch could slide to the
// end of the file, and DiffEdits still reads a bounded number of lines per
// edit.
func TestDiffEditsWorkRepeatedLine(t *testing.T) {
	const m = 2000
	doc, err := edit.NewDocument("f", bytes.Repeat([]byte("}\n"), 10*m))
	if err != nil {
		t.Fatal(err)
	}
	var edits []edit.Edit
	for k := range m {
		at := doc.LineRanges()[10*k+5].Start
		edits = append(edits, edit.Edit{Start: at, End: at, New: "}\n"})
	}
	res, err := diffEdits("f", doc, edits)
	if err != nil || res.out == "" {
		t.Fatalf("%q, %v", res.out, err)
	}
	if res.reads > 400*m {
		t.Errorf("%d insertions read %d lines (more than 400 per edit)", m, res.reads)
	}
}
