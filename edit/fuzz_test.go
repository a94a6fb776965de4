package edit_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/internal/testfile"
)

// FuzzReplaceLines replaces a random line range of random content. Either
// ReplaceLines refuses the range (and the content is untouched), or the
// result keeps the lines before and after the range byte for byte, and has
// the expected number of lines.
func FuzzReplaceLines(f *testing.F) {
	f.Add("one\ntwo\nthree\n", 2, 2, "TWO")
	f.Add("one\ntwo\nthree", 3, 3, "")
	f.Add("one\ntwo\nthree", 2, 3, "\x00")
	f.Add("a\r\nb\r\nc\r\n", 1, 0, "zero\x00half")
	f.Add("a\rb\rc\r", 4, 3, "d")
	f.Add("a\r\nb\nc\rd", 2, 4, "x\x00y\x00z")
	f.Add("\xEF\xBB\xBFbom\nfile", 1, 2, "")
	f.Add("", 1, 0, "new")
	f.Add("\n\n\n", 2, 1, "mid")
	f.Add("x", 0, 0, "bad")
	f.Add("a\nb\n", 3, 1, "bad")
	for _, path := range testfile.RealSources() {
		raw := testfile.Read(f, path)
		f.Add(string(raw[:min(len(raw), 2000)]), 10, 12, "replaced\x00\x00inserted")
	}
	f.Fuzz(func(t *testing.T, content string, first, last int, joined string) {
		doc, err := edit.NewDocument("f", []byte(content))
		if err != nil {
			return
		}
		// New lines hold no line endings (they would add lines), and must
		// keep the result valid text. NUL separates them.
		var lines []string
		if joined != "" {
			joined = strings.ToValidUTF8(strings.NewReplacer("\r", "", "\n", "").Replace(joined), "?")
			lines = strings.Split(joined, "\x00")
		}
		n := doc.LineCount()
		// Keep the range near the file, negative and past-the-end included.
		first, last = first%(n+4), last%(n+4)
		src := bytes.Clone(doc.Content)
		e, err := doc.ReplaceLines(first, last, lines)
		if !bytes.Equal(doc.Content, src) {
			t.Fatal("ReplaceLines modified the content")
		}
		valid := first >= 1 && last >= first-1 && last <= n
		if err != nil {
			if valid {
				t.Fatalf("ReplaceLines(%d, %d) on %d lines: %v", first, last, n, err)
			}
			return
		}
		if !valid {
			t.Fatalf("ReplaceLines(%d, %d) on %d lines accepted: %+v", first, last, n, e)
		}
		out, err := edit.Apply(doc.Content, []edit.Edit{e})
		if err != nil {
			t.Fatalf("Apply(%+v): %v", e, err)
		}
		if !bytes.Equal(doc.Content, src) {
			t.Fatal("Apply modified the content")
		}

		// Byte offsets in Content of each line's start, end (without its
		// ending) and next line's start.
		base := len(doc.Content) - len(doc.Text)
		starts, ends := make([]int, n+2), make([]int, n+2)
		pos := base
		for i := 1; i <= n; i++ {
			starts[i] = pos
			pos += len(doc.Line(i))
			ends[i] = pos
			rest := doc.Content[pos:]
			switch {
			case doc.EOL == edit.CR && bytes.HasPrefix(rest, []byte("\r")):
				pos++
			case doc.EOL != edit.CR && bytes.HasPrefix(rest, []byte("\r\n")):
				pos += 2
			case doc.EOL != edit.CR && bytes.HasPrefix(rest, []byte("\n")):
				pos++
			}
		}
		if pos != len(doc.Content) {
			t.Fatalf("lines cover %d of %d bytes", pos, len(doc.Content))
		}
		starts[n+1], ends[n+1] = pos, pos

		// The lines before the range are a prefix, the lines after it a
		// suffix. Deleting through an unterminated last line also drops
		// the ending of the line before.
		prefix := doc.Content[:starts[first]]
		deletesUnterminatedEnd := len(lines) == 0 && last == n && last >= first && first > 1 && !doc.HasFinalNewline()
		if deletesUnterminatedEnd {
			prefix = doc.Content[:ends[first-1]]
		}
		suffix := doc.Content[starts[last+1]:]
		if last < first {
			suffix = doc.Content[starts[first]:]
		}
		if !bytes.HasPrefix(out, prefix) || !bytes.HasSuffix(out, suffix) || len(out) < len(prefix)+len(suffix) {
			t.Fatalf("ReplaceLines(%d, %d, %q) on %q gave %q: lines outside the range changed", first, last, lines, content, out)
		}
		middle := string(out[len(prefix) : len(out)-len(suffix)])
		if len(lines) > 0 && !strings.Contains(middle, strings.Join(lines, doc.EOL)) {
			t.Fatalf("new lines %q not written with %q in %q", lines, doc.EOL, middle)
		}

		got, err := edit.NewDocument("f", out)
		if err != nil {
			t.Fatalf("result is not a document: %v", err)
		}
		if got.BOM != doc.BOM {
			t.Fatalf("BOM %v, want %v", got.BOM, doc.BOM)
		}
		if got.EOL != doc.EOL {
			// Deleting lines can change the dominant ending, and with it
			// where lines split; nothing more to count.
			return
		}
		want := n - (last - first + 1) + len(lines)
		if got.LineCount() != want {
			t.Fatalf("ReplaceLines(%d, %d, %q) on %q gave %q with %d lines, want %d", first, last, lines, content, out, got.LineCount(), want)
		}
		if len(lines) > 0 && first <= n+1 {
			for i, l := range lines {
				if i+first <= got.LineCount() && got.Line(first+i) != l {
					t.Fatalf("line %d = %q, want %q", first+i, got.Line(first+i), l)
				}
			}
		}
	})
}
