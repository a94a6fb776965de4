package diff_test

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/symedit/symedit/diff"
	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/internal/goroot"
	"github.com/symedit/symedit/internal/testfile"
)

// randomEdits returns n random non-overlapping edits of src, of the kinds
// operations make: whole lines replaced (some new lines equal to old
// ones, as a chunk rewriting a symbol's lines gives), lines inserted
// (blank lines and copies of nearby lines included), lines deleted, and
// byte ranges inside lines replaced by text with or without line endings.
func randomEdits(rng *rand.Rand, src []byte, n int) []edit.Edit {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' && i+1 < len(src) {
			starts = append(starts, i+1)
		}
	}
	lineAt := func(k int) string {
		k = max(0, min(k, len(starts)-1))
		end := len(src)
		if k+1 < len(starts) {
			end = starts[k+1]
		}
		return string(src[starts[k]:end])
	}
	var edits []edit.Edit
	used := func(s, e int) bool {
		for _, o := range edits {
			if s < o.End && o.Start < e || s == o.Start || (s == e && s == o.End) || (o.Start == o.End && s <= o.Start && o.Start < e) {
				return true
			}
		}
		return false
	}
	for tries := 0; len(edits) < n && tries < 100*n; tries++ {
		k := rng.IntN(len(starts))
		span := rng.IntN(8)
		first := starts[k]
		last := len(src)
		if k+span < len(starts) {
			last = starts[k+span]
		}
		var e edit.Edit
		switch rng.IntN(7) {
		case 0: // replace lines, keeping some of them
			var b strings.Builder
			for i := k; i < k+span; i++ {
				switch rng.IntN(3) {
				case 0:
					b.WriteString(lineAt(i))
				case 1:
					b.WriteString("\tchanged(" + strconv.Itoa(i) + ")\n")
				}
			}
			e = edit.Edit{Start: first, End: last, New: b.String()}
		case 1: // insert a blank line or a copy of a nearby line
			l := "\n"
			if rng.IntN(2) == 0 {
				l = lineAt(k + rng.IntN(5) - 2)
				if !strings.HasSuffix(l, "\n") {
					l += "\n"
				}
			}
			e = edit.Edit{Start: first, End: first, New: l}
		case 2: // delete lines
			e = edit.Edit{Start: first, End: last}
		case 3: // a byte range inside a line
			l := lineAt(k)
			a := rng.IntN(len(l) + 1)
			b := a + rng.IntN(len(l)-a+1)
			e = edit.Edit{Start: first + a, End: first + b, New: "x"}
		case 4: // a byte range across lines, new text with line endings
			a := first + rng.IntN(last-first+1)
			e = edit.Edit{Start: a, End: a + rng.IntN(last-a+1), New: "one\ntwo"}
		case 5: // duplicate the lines
			e = edit.Edit{Start: last, End: last, New: string(src[first:last])}
		case 6: // at the end of the file
			e = edit.Edit{Start: len(src) - rng.IntN(min(len(src), 20)+1), End: len(src), New: []string{"", "end", "end\n", "\n"}[rng.IntN(4)]}
		}
		if e.Start > e.End || used(e.Start, e.End) {
			continue
		}
		edits = append(edits, e)
	}
	return edits
}

// diffSources returns the real files DiffEdits is checked on: the
// fixtures under testdata/src and eight files of GOROOT/src.
func diffSources(t *testing.T) map[string][]byte {
	files := map[string][]byte{}
	for _, p := range append(testfile.RealSources(), "../testdata/src/typescript/scheduler.ts", "../testdata/src/python/contextlib_excerpt.py", "../testdata/src/go/atomic_type.go") {
		files[p] = testfile.Read(t, p)
	}
	root := goroot.Src()
	if root == "" {
		t.Log("no GOROOT source: the fixtures only")
		return files
	}
	for _, p := range []string{"net/http/server.go", "go/parser/parser.go", "fmt/print.go", "sort/sort.go", "strings/strings.go", "encoding/json/decode.go", "runtime/proc.go", "text/template/exec.go"} {
		b, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		files[p] = b
	}
	return files
}

// TestDiffEditsMatchesDiff applies random edits (randomEdits) to real
// files, as they are and with CRLF endings, a BOM, no final newline, and
// checks that DiffEdits gives Diff's output of the old and new contents
// byte for byte.
func TestDiffEditsMatchesDiff(t *testing.T) {
	rounds := 8
	if testing.Short() || raceOn {
		rounds = 1 // Diff (difflib over whole files) is the slow part
	}
	rng := rand.New(rand.NewPCG(1, 2))
	files := diffSources(t)
	total := 0
	for _, name := range slices.Sorted(maps.Keys(files)) {
		src := files[name]
		for _, variant := range []string{"", "crlf", "bom", "noeol"} {
			content := src
			switch variant {
			case "crlf":
				content = bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n"))
			case "bom":
				content = append([]byte("\xEF\xBB\xBF"), src...)
			case "noeol":
				content = bytes.TrimRight(src, "\n")
			}
			doc, err := edit.NewDocument(name, content)
			if err != nil {
				t.Fatal(err)
			}
			for round := range rounds {
				edits := randomEdits(rng, content, 1+rng.IntN(6))
				newContent, err := edit.Apply(content, edits)
				if err != nil {
					t.Fatalf("%s: Apply: %v", name, err)
				}
				want := diff.Diff(name, content, newContent)
				got, err := diff.DiffEdits(name, doc, edits)
				if err != nil {
					t.Fatalf("%s: DiffEdits: %v", name, err)
				}
				total++
				if got != want {
					t.Errorf("%s (%s) round %d, edits %+v:\nDiffEdits:\n%s\nDiff:\n%s", name, variant, round, edits, got, want)
				}
			}
		}
	}
	t.Logf("%d random edits of real files", total)
}

// applyUnified applies a unified diff (one file, as Diff writes it) to old
// strictly: each hunk at the lines its header names, every context and
// removed line equal to the old line there, the header's counts equal to
// the hunk's lines, hunks in order and apart (contexts that touch make one
// hunk), at most diffContext lines of context at a hunk's ends. It returns
// the new content.
func applyUnified(old []byte, diff string) ([]byte, error) {
	const marker = "\\ No newline at end of file\n"
	var a []string
	if len(old) > 0 {
		a = strings.SplitAfter(string(old), "\n")
		if a[len(a)-1] == "" {
			a = a[:len(a)-1]
		}
	}
	lines := strings.SplitAfter(diff, "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "--- a/") || !strings.HasPrefix(lines[1], "+++ b/") || lines[len(lines)-1] != "" {
		return nil, fmt.Errorf("bad headers or unterminated diff: %q", diff)
	}
	lines = lines[2 : len(lines)-1]
	var out strings.Builder
	next := 0 // the next old line to copy, 0-based
	for k := 0; k < len(lines); {
		var oldStart, oldLen, newStart, newLen int
		h := lines[k]
		if _, err := fmt.Sscanf(h, "@@ -%d,%d +%d,%d @@\n", &oldStart, &oldLen, &newStart, &newLen); err != nil {
			// The short forms: a length of 1 is left out.
			oldLen, newLen = 1, 1
			var n int
			if n, _ = fmt.Sscanf(h, "@@ -%d +%d,%d @@\n", &oldStart, &newStart, &newLen); n != 3 {
				if n, _ = fmt.Sscanf(h, "@@ -%d,%d +%d @@\n", &oldStart, &oldLen, &newStart); n != 3 {
					if n, _ = fmt.Sscanf(h, "@@ -%d +%d @@\n", &oldStart, &newStart); n != 2 {
						return nil, fmt.Errorf("bad hunk header %q", h)
					}
				}
			}
		}
		if oldLen > 0 {
			oldStart-- // 0-based; an empty range names the line before it
		}
		if oldStart < next || (k > 0 && oldStart == next) || oldStart > len(a) {
			return nil, fmt.Errorf("hunk %q out of order or overlapping (next old line %d)", h, next+1)
		}
		for ; next < oldStart; next++ {
			out.WriteString(a[next])
		}
		k++
		var tags []byte
		gotOld, gotNew := 0, 0
		for ; k < len(lines) && !strings.HasPrefix(lines[k], "@@ "); k++ {
			l := lines[k]
			if l == "" || l == "\n" || !strings.ContainsRune(" -+", rune(l[0])) {
				return nil, fmt.Errorf("bad hunk line %q", l)
			}
			body := l[1:]
			if k+1 < len(lines) && lines[k+1] == marker {
				body = strings.TrimSuffix(body, "\n")
				k++
			}
			tags = append(tags, l[0])
			if l[0] != '+' {
				if next >= len(a) || a[next] != body {
					return nil, fmt.Errorf("hunk %q: line %d is %q, not %q", h, next+1, lineOr(a, next), body)
				}
				next++
				gotOld++
			}
			if l[0] != '-' {
				out.WriteString(body)
				gotNew++
			}
		}
		if gotOld != oldLen || gotNew != newLen {
			return nil, fmt.Errorf("hunk %q has %d old and %d new lines", h, gotOld, gotNew)
		}
		lead := len(tags) - len(bytes.TrimLeft(tags, " "))
		trail := len(tags) - len(bytes.TrimRight(tags, " "))
		if lead == len(tags) || lead > 3 || trail > 3 {
			return nil, fmt.Errorf("hunk %q: %d leading and %d trailing context lines of %d", h, lead, trail, len(tags))
		}
	}
	for ; next < len(a); next++ {
		out.WriteString(a[next])
	}
	return []byte(out.String()), nil
}

func lineOr(a []string, i int) string {
	if i < len(a) {
		return a[i]
	}
	return "(end of file)"
}

// FuzzDiffEdits: for any content and two edits, DiffEdits refuses what
// Apply refuses (ErrBadEdit), gives "" exactly when the content does not
// change, and otherwise a diff that applyUnified applies strictly to the
// old content to give Apply's result byte for byte. With wrap, the fuzzed
// content and its edits sit between 150 real lines before and after, so
// that DiffEdits matches by its unchanged stretches rather than by
// difflib's matcher alone.
func FuzzDiffEdits(f *testing.F) {
	f.Add("a\nb\nc\n", 2, 3, "B", 4, 5, "C\n", true)
	f.Add("a\nb\nc", 5, 5, "end", 3, 4, "", false)
	f.Add("a\r\nb\r\nc\r\n", 0, 0, "x\r\n", 9, 9, "y", true)
	f.Add("a\rb\rc\r", 2, 3, "B", 0, 6, "", false)
	f.Add("\xEF\xBB\xBFa\nb\n", 0, 3, "", 4, 5, "", false)
	f.Add("", 0, 0, "new\nfile", 0, 0, "", false)
	f.Add("x\nx\nx\nx\n", 2, 2, "x\n", 6, 6, "x\nx\n", true)
	f.Add("}\n\n}\n\n}\n", 2, 2, "\n}\n", 5, 5, "", true)
	for _, path := range testfile.RealSources() {
		raw := testfile.Read(f, path)
		raw = raw[:min(len(raw), 3000)]
		f.Add(string(raw), 100, 180, "replaced\n", 2000, 2001, "\n\n", false)
	}
	real := strings.SplitAfter(string(testfile.Read(f, "../testdata/src/python/process.py")), "\n")
	pre, post := strings.Join(real[:150], ""), strings.Join(real[150:300], "")
	f.Fuzz(func(t *testing.T, content string, s1, e1 int, n1 string, s2, e2 int, n2 string, wrap bool) {
		// Keep the offsets near the fuzzed content, some out of bounds.
		m := len(content) + 3
		off := func(n int) int { return n%m - 1 }
		if wrap {
			fuzzed := content
			content = pre + content + post
			off = func(n int) int {
				switch o := n%m - 1; {
				case o < 0:
					return o
				case o > len(fuzzed):
					return len(content) + 1
				default:
					return len(pre) + o
				}
			}
		}
		doc, err := edit.NewDocument("f", []byte(content))
		if err != nil {
			return
		}
		edits := []edit.Edit{{Start: off(s1), End: off(e1), New: n1}, {Start: off(s2), End: off(e2), New: n2}}
		want, applyErr := edit.Apply(doc.Content, edits)
		d, err := diff.DiffEdits("f", doc, edits)
		if applyErr != nil {
			if !errors.Is(err, edit.ErrBadEdit) {
				t.Fatalf("Apply refuses %+v (%v); DiffEdits gives %q, %v", edits, applyErr, d, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("DiffEdits(%+v): %v", edits, err)
		}
		if (d == "") != bytes.Equal(want, doc.Content) {
			t.Fatalf("DiffEdits(%+v) = %q for new content %q", edits, d, want)
		}
		if d == "" {
			return
		}
		got, err := applyUnified(doc.Content, d)
		if err != nil {
			t.Fatalf("DiffEdits(%+v) on %q: %v\n%s", edits, content, err, d)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("DiffEdits(%+v) on %q applies to %q, want %q\n%s", edits, content, got, want, d)
		}
	})
}

// TestDiffEditsCases: on Diff's golden cases (TestDiffApplies), DiffEdits
// gives Diff's output both from one edit of the whole content (the range
// then is every line, and only the trimming of shared lines and the
// matching make the hunks minimal) and from the smallest byte edit (the
// bytes between the common prefix and suffix).
func TestDiffEditsCases(t *testing.T) {
	for _, c := range append(syntheticDiffCases(), realDiffCases(t)...) {
		t.Run(c.name, func(t *testing.T) {
			doc, err := edit.NewDocument(c.path, []byte(c.old))
			if err != nil {
				t.Fatal(err)
			}
			want := diff.Diff(c.path, []byte(c.old), []byte(c.new))
			p := 0
			for p < len(c.old) && p < len(c.new) && c.old[p] == c.new[p] {
				p++
			}
			s := 0
			for s < len(c.old)-p && s < len(c.new)-p && c.old[len(c.old)-1-s] == c.new[len(c.new)-1-s] {
				s++
			}
			for _, e := range []edit.Edit{
				{Start: 0, End: len(c.old), New: c.new},
				{Start: p, End: len(c.old) - s, New: c.new[p : len(c.new)-s]},
			} {
				got, err := diff.DiffEdits(c.path, doc, []edit.Edit{e})
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("DiffEdits with %+v:\n%s\nDiff:\n%s", e, got, want)
				}
			}
		})
	}
}

// TestDiffEditsEqual: edits that change nothing, or whose changes cancel
// out (lines inserted that the next edit deletes just after), give "", as
// Diff does for equal contents.
func TestDiffEditsEqual(t *testing.T) {
	doc, err := edit.NewDocument("f", []byte("a\nb\nb\nc\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, edits := range [][]edit.Edit{
		nil,
		{{Start: 2, End: 3, New: "b"}},
		{{Start: 0, End: 0}, {Start: 8, End: 8}},
		// Insert "b\n" before line 2, delete line 3: the same lines.
		{{Start: 2, End: 2, New: "b\n"}, {Start: 4, End: 6}},
	} {
		if d, err := diff.DiffEdits("f", doc, edits); d != "" || err != nil {
			t.Errorf("DiffEdits(%+v) = %q, %v; want \"\"", edits, d, err)
		}
	}
}

// TestDiffEditsBadEdits: DiffEdits refuses what Apply refuses, with an
// error wrapping ErrBadEdit.
func TestDiffEditsBadEdits(t *testing.T) {
	doc, err := edit.NewDocument("f", []byte("a\nb\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, edits := range [][]edit.Edit{
		{{Start: -1, End: 0}},
		{{Start: 2, End: 5}},
		{{Start: 2, End: 1}},
		{{Start: 0, End: 2, New: "x"}, {Start: 1, End: 3}},
		{{Start: 1, End: 1, New: "x"}, {Start: 1, End: 1, New: "y"}},
	} {
		if _, applyErr := edit.Apply(doc.Content, edits); applyErr == nil {
			t.Fatalf("Apply accepts %+v", edits)
		}
		if d, err := diff.DiffEdits("f", doc, edits); !errors.Is(err, edit.ErrBadEdit) || d != "" {
			t.Errorf("DiffEdits(%+v) = %q, %v; want an ErrBadEdit", edits, d, err)
		}
	}
}

// TestDiffEditsLineIndex: documents whose own lines are not Diff's ("\n"
// ended) lines: a CR file (one line for Diff), a BOM alone, an empty file.
func TestDiffEditsLineIndex(t *testing.T) {
	for _, c := range []struct {
		old   string
		edits []edit.Edit
	}{
		{"a\rb\rc\r", []edit.Edit{{Start: 2, End: 3, New: "B"}}},
		{"a\rb\n\rc\r", []edit.Edit{{Start: 5, End: 6, New: "C\n"}}},
		{"\xEF\xBB\xBF", []edit.Edit{{Start: 3, End: 3, New: "x\n"}}},
		{"\xEF\xBB\xBF", []edit.Edit{{Start: 0, End: 3}}},
		{"", []edit.Edit{{Start: 0, End: 0, New: "x"}}},
	} {
		doc, err := edit.NewDocument("f", []byte(c.old))
		if err != nil {
			t.Fatal(err)
		}
		newContent, err := edit.Apply(doc.Content, c.edits)
		if err != nil {
			t.Fatal(err)
		}
		want := diff.Diff("f", doc.Content, newContent)
		if got, err := diff.DiffEdits("f", doc, c.edits); got != want || err != nil {
			t.Errorf("DiffEdits(%q, %+v) = %q, %v; want %q", c.old, c.edits, got, err, want)
		}
	}
}

// BenchmarkDiffEdits: one line changed in the middle of real Go source
// repeated to 100 KB, 1 MB and 10 MB: DiffEdits's time stays flat as the
// file grows (it touches the changed lines and their neighbours, and
// finds offsets by binary search), where Diff's grows with the file.
func BenchmarkDiffEdits(b *testing.B) {
	unit := testfile.Read(b, "../testdata/src/go/slog_value.go")
	for _, size := range []int{100 << 10, 1 << 20, 10 << 20} {
		var content []byte
		for len(content) < size {
			content = append(content, unit...)
		}
		doc, err := edit.NewDocument("big.go", content)
		if err != nil {
			b.Fatal(err)
		}
		mid := bytes.IndexByte(content[len(content)/2:], '\n') + len(content)/2 + 1
		end := mid + bytes.IndexByte(content[mid:], '\n')
		edits := []edit.Edit{{Start: mid, End: end, New: "\t// changed"}}
		name := fmt.Sprintf("%dKB", size>>10)
		b.Run("DiffEdits/"+name, func(b *testing.B) {
			for b.Loop() {
				if d, _ := diff.DiffEdits("big.go", doc, edits); d == "" {
					b.Fatal("empty diff")
				}
			}
		})
		if size > 1<<20 {
			continue // Diff takes seconds there
		}
		newContent, err := edit.Apply(content, edits)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("Diff/"+name, func(b *testing.B) {
			for b.Loop() {
				if diff.Diff("big.go", content, newContent) == "" {
					b.Fatal("empty diff")
				}
			}
		})
	}
}

// TestDiffChange: DiffChange diffs by the edits when it has them, and by
// the contents for a whole write (nil edits) or edits it cannot use.
func TestDiffChange(t *testing.T) {
	doc, err := edit.NewDocument("f", []byte("a\nb\nc\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
	for _, edits := range [][]edit.Edit{
		{{Start: 2, End: 3, New: "B"}},
		nil,
		{{Start: 2, End: 9, New: "B"}}, // out of bounds: the contents decide
	} {
		if got := diff.DiffChange("f", doc, []byte("a\nB\nc\n"), edits); got != want {
			t.Errorf("DiffChange with %+v = %q, want %q", edits, got, want)
		}
	}
}

// TestDiffChangeWholeWrite: a write of a whole content is one edit over
// the whole file, [0, len(old)) -> new, and its diff is Diff's byte for
// byte, for random edits of real files (as they are and with CRLF
// endings, a BOM, no final newline), for contents that share little (two
// different files), and for a write that empties the file or fills an
// empty one. DiffEdits, given that edit, narrows it to the lines that
// changed and gives the same diff for all but changed regions of
// thousands of lines, where it takes shortcuts (net/http/server.go here):
// which is why DiffChange leaves a whole write to Diff.
func TestDiffChangeWholeWrite(t *testing.T) {
	rounds := 2
	if testing.Short() || raceOn {
		rounds = 1
	}
	rng := rand.New(rand.NewPCG(3, 4))
	files := diffSources(t)
	names := slices.Sorted(maps.Keys(files))
	check := func(name string, old, new []byte) {
		t.Helper()
		doc, err := edit.NewDocument(name, old)
		if err != nil {
			t.Fatal(err)
		}
		whole := []edit.Edit{{Start: 0, End: len(old), New: string(new)}}
		got := diff.DiffChange(name, doc, new, whole)
		if want := diff.Diff(name, old, new); got != want {
			t.Errorf("%s: whole write:\nDiffChange:\n%s\nDiff:\n%s", name, got, want)
		}
		if len(old)+len(new) < 20000 {
			if d, err := diff.DiffEdits(name, doc, whole); err != nil || d != got {
				t.Errorf("%s: whole write: DiffEdits (%v):\n%s\nDiff:\n%s", name, err, d, got)
			}
		}
	}
	for i, name := range names {
		src := files[name]
		if (testing.Short() || raceOn) && len(src) > 64<<10 {
			continue // Diff over a large file is the slow part
		}
		for _, variant := range []string{"", "crlf", "bom", "noeol"} {
			content := src
			switch variant {
			case "crlf":
				content = bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n"))
			case "bom":
				content = append([]byte("\xEF\xBB\xBF"), src...)
			case "noeol":
				content = bytes.TrimRight(src, "\n")
			}
			for range rounds {
				newContent, err := edit.Apply(content, randomEdits(rng, content, 1+rng.IntN(6)))
				if err != nil {
					t.Fatal(err)
				}
				check(name, content, newContent)
			}
		}
		if !testing.Short() {
			check(name, src, files[names[(i+1)%len(names)]])
		}
		check(name, src, nil)
		check(name, nil, src)
	}
}
