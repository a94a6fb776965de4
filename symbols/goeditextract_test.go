package symbols

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"sync/atomic"
	"testing"

	"github.com/symedit/symedit/internal/goroot"
	"github.com/symedit/symedit/internal/probe"
	"github.com/symedit/symedit/lang"
)

// goEditSources returns the real Go files the differential tests edit:
// the Go fixtures and, unless short, a sample of GOROOT's source tree
// (testdata included, so some do not parse: their edits must fall back).
func goEditSources(t testing.TB, short bool) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	paths, err := filepath.Glob("../testdata/src/go/*.go")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no Go fixtures: %v", err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = b
	}
	if !short {
		for p, b := range goroot.Sample(t, 150) {
			out[p] = b
		}
	}
	return out
}

// goFuncRange returns the byte range of the k-th (mod their count) line
// starting "func " in src and of the lines up to and including the next
// line that is "}" alone: a top-level function or method as gofmt lays it
// out; ok is false when src has none.
func goFuncRange(src []byte, k int) (start, end int, ok bool) {
	var starts []int
	if bytes.HasPrefix(src, []byte("func ")) {
		starts = append(starts, 0)
	}
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte("\nfunc "))
		if j < 0 {
			break
		}
		starts = append(starts, i+j+1)
		i += j + 1
	}
	if len(starts) == 0 {
		return 0, 0, false
	}
	start = starts[k%len(starts)]
	if e := bytes.Index(src[start:], []byte("\n}\n")); e >= 0 {
		return start, start + e + 3, true
	}
	if e := bytes.IndexByte(src[start:], '\n'); e >= 0 {
		return start, start + e + 1, true // a declaration without a body
	}
	return start, len(src), true
}

// splice returns src with [i, j) replaced by text.
func splice(src []byte, i, j int, text string) []byte {
	return append(append(append([]byte{}, src[:i]...), text...), src[j:]...)
}

// randomGoEdit returns src with one random edit of the kinds an agent
// makes to Go: a function deleted, duplicated (same-named ones after it
// are then "[2]") or renamed, a statement typed into a body, a method
// added, a field added to a struct type, a type declared in a body, or
// a line-level edit (randomEdit) that often breaks the file.
func randomGoEdit(r *rand.Rand, src []byte) []byte {
	k := r.IntN(1 << 20)
	switch r.IntN(8) {
	case 0: // delete a function
		if i, j, ok := goFuncRange(src, k); ok {
			return splice(src, i, j, "")
		}
	case 1: // duplicate a function, before itself or at the end
		if i, j, ok := goFuncRange(src, k); ok {
			if r.IntN(2) == 0 {
				return splice(src, i, i, string(src[i:j])+"\n")
			}
			return append(bytes.Clone(src), "\n"+string(src[i:j])...)
		}
	case 2: // rename a function
		if i, _, ok := goFuncRange(src, k); ok {
			line := src[i:]
			if p := bytes.IndexByte(line, '('); p >= 0 {
				if q := bytes.Index(line, []byte(") ")); p == 5 && q > 0 && q < bytes.IndexByte(line, '\n') {
					// A method: its name follows the receiver.
					return splice(src, i+q+2, i+q+2, fmt.Sprintf("Renamed%d", r.IntN(3)))
				}
				return splice(src, i+5, i+5, fmt.Sprintf("renamed%d_", r.IntN(3)))
			}
		}
	case 3: // type a statement after a body's first line
		if i, j, ok := goFuncRange(src, k); ok {
			if nl := bytes.IndexByte(src[i:j], '\n'); nl >= 0 && src[i+nl-1] == '{' {
				return splice(src, i+nl+1, i+nl+1, "\tvar x = 1\n\t_ = x\n")
			}
		}
	case 4: // add a method after a function
		if _, j, ok := goFuncRange(src, k); ok {
			return splice(src, j, j, "\nfunc (r *Added) Method() int { return 1 }\n")
		}
	case 5: // add a field to a struct type
		var at []int
		for i := 0; ; {
			j := bytes.Index(src[i:], []byte(" struct {\n"))
			if j < 0 {
				break
			}
			at = append(at, i+j+len(" struct {\n"))
			i += j + 1
		}
		if len(at) > 0 {
			i := at[k%len(at)]
			return splice(src, i, i, "\tAddedField int\n")
		}
	case 6: // declare a type in a body
		if i, j, ok := goFuncRange(src, k); ok {
			if nl := bytes.IndexByte(src[i:j], '\n'); nl >= 0 && src[i+nl-1] == '{' {
				return splice(src, i+nl+1, i+nl+1, "\ttype local struct{ n int }\n\t_ = local{}\n")
			}
		}
	}
	return randomEdit(r, src)
}

// checkGoEdit extracts after, an edit of before, in full and with
// extractOwnEdited, and fails unless they are equal field by field (the
// hidden ones included). It reports whether the restricted extraction
// ran.
func checkGoEdit(t *testing.T, l *lang.Language, before, after []byte) bool {
	t.Helper()
	ctx := context.Background()
	bf, err := ExtractFile(ctx, before, l)
	if err != nil {
		t.Fatal(err)
	}
	full, err := ExtractFile(ctx, after, l)
	if err != nil {
		t.Fatal(err)
	}
	got, ok, err := extractOwnEdited(ctx, bf, before, &lang.Parse{Lang: l, Text: after}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		return false
	}
	if !full.Clean {
		t.Fatal("the restricted extraction ran on a text go/parser refuses")
	}
	if !reflect.DeepEqual(got, full) {
		for i := range max(len(got.Symbols), len(full.Symbols)) {
			var g, w Symbol
			if i < len(got.Symbols) {
				g = got.Symbols[i]
			}
			if i < len(full.Symbols) {
				w = full.Symbols[i]
			}
			if g != w {
				t.Fatalf("symbol %d of %d (full %d): restricted\n%+v\nfull\n%+v", i, len(got.Symbols), len(full.Symbols), g, w)
			}
		}
		t.Fatalf("restricted extraction differs from the full one beyond the symbols:\n%+v\nfull\n%+v", got, full)
	}
	return true
}

// TestExtractEditGoMatchesFull edits real Go files at random and checks
// that the extraction that parses only the edited top-level declarations
// equals the whole file's, and that it ran on a good share of the edits
// (most of those that leave the file parsing).
func TestExtractEditGoMatchesFull(t *testing.T) {
	l, err := lang.ByName("go")
	if err != nil {
		t.Fatal(err)
	}
	edits := 12
	if testing.Short() {
		edits = 6
	}
	srcs := goEditSources(t, testing.Short())
	names := make([]string, 0, len(srcs))
	for name := range srcs {
		names = append(names, name)
	}
	sort.Strings(names)
	var restricted, clean, total int
	for _, name := range names {
		src := srcs[name]
		if len(src) == 0 {
			continue
		}
		r := rand.New(rand.NewPCG(2, uint64(len(src))))
		for range edits {
			after := randomGoEdit(r, src)
			total++
			if f, err := ExtractFile(context.Background(), after, l); err == nil && f.Clean {
				clean++
			}
			if checkGoEdit(t, l, src, after) {
				restricted++
			}
		}
	}
	t.Logf("%d files: restricted extraction on %d of %d edits (%d leave the file parsing)", len(names), restricted, total, clean)
	if restricted*2 < clean {
		t.Fatalf("the restricted extraction ran on %d of the %d edits that leave the file parsing", restricted, clean)
	}
}

// TestExtractEditGoRenumbers duplicates a method at the top of its
// receiver's methods: the later one becomes "[2]" in the restricted
// extraction as in the full one, and a field typed into a struct type
// changes that type's range only.
func TestExtractEditGoRenumbers(t *testing.T) {
	l, err := lang.ByName("go")
	if err != nil {
		t.Fatal(err)
	}
	src := goEditSources(t, true)["slog_value.go"]
	i, j, ok := goFuncRange(src, 5)
	if !ok {
		t.Fatal("no function in slog_value.go")
	}
	after := splice(src, i, i, string(src[i:j])+"\n")
	if !checkGoEdit(t, l, src, after) {
		t.Fatal("the restricted extraction did not run")
	}
	f, _ := ExtractFile(context.Background(), after, l)
	var dup bool
	for _, s := range f.Symbols {
		dup = dup || bytes.HasSuffix([]byte(s.NamePath), []byte("[2]"))
	}
	if !dup {
		t.Fatal("no [2] after a function was duplicated")
	}
}

// TestExtractEditGoFallsBack checks edits that the restricted extraction
// must leave to the full one: an import added, the package renamed, a
// syntax error typed into a body; each still extracts as in full through
// ExtractEdit.
func TestExtractEditGoFallsBack(t *testing.T) {
	l, err := lang.ByName("go")
	if err != nil {
		t.Fatal(err)
	}
	src := []byte("package a\n\nimport \"fmt\"\n\nfunc A() { fmt.Println() }\n\ntype T struct{}\n\nfunc (T) M() {}\n")
	ctx := context.Background()
	bf, err := ExtractFile(ctx, src, l)
	if err != nil || !bf.Clean {
		t.Fatalf("before: %v, clean %v", err, bf.Clean)
	}
	for name, after := range map[string][]byte{
		"import":             bytes.Replace(src, []byte("import \"fmt\"\n"), []byte("import (\n\t\"fmt\"\n\t\"os\"\n)\n"), 1),
		"package":            bytes.Replace(src, []byte("package a"), []byte("package b"), 1),
		"broken":             bytes.Replace(src, []byte("fmt.Println() }"), []byte("fmt.Println( }"), 1),
		"import in a region": bytes.Replace(src, []byte("type T struct{}\n"), []byte("import \"os\"\n\ntype T struct{}\n"), 1),
	} {
		t.Run(name, func(t *testing.T) {
			if _, ok, err := extractOwnEdited(ctx, bf, src, &lang.Parse{Lang: l, Text: after}, nil); ok || err != nil {
				t.Fatalf("the restricted extraction ran (%v, %v)", ok, err)
			}
			got, err := ExtractEdit(ctx, bf, src, &lang.Parse{Lang: l, Text: after})
			if err != nil {
				t.Fatal(err)
			}
			full, err := ExtractFile(ctx, after, l)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, full) {
				t.Fatalf("ExtractEdit differs from the full extraction:\n%+v\n%+v", got, full)
			}
		})
	}
}

// FuzzExtractEditGo replaces a byte range of a real Go file with the
// fuzzer's text and checks the restricted extraction against the full
// one.
func FuzzExtractEditGo(f *testing.F) {
	l, err := lang.ByName("go")
	if err != nil {
		f.Fatal(err)
	}
	src := goEditSources(f, true)["slog_value.go"]
	f.Add(uint32(2000), uint32(0), "func f() {}\n\n")
	f.Add(uint32(5000), uint32(40), "")
	f.Add(uint32(9000), uint32(3), "\ntype Value struct{ x int }\n")
	f.Add(uint32(3000), uint32(0), "\tvar y = 2\n")
	f.Fuzz(func(t *testing.T, at, n uint32, text string) {
		i := int(at) % (len(src) + 1)
		j := min(len(src), i+int(n%4096))
		checkGoEdit(t, l, src, splice(src, i, j, text))
	})
}

// TestExtractEditGoParsesTheEditOnly counts the bytes handed to
// go/parser (probe.WithOwnParsed) when one function's body is edited:
// the full extraction hands it the whole file, the restricted one only
// a package clause and that function's declaration with the blank lines
// and comments between it and its neighbours.
func TestExtractEditGoParsesTheEditOnly(t *testing.T) {
	l, err := lang.ByName("go")
	if err != nil {
		t.Fatal(err)
	}
	src := goEditSources(t, true)["slog_value.go"]
	ctx := context.Background()
	bf, err := ExtractFile(ctx, src, l)
	if err != nil || !bf.Clean {
		t.Fatalf("before: %v, clean %v", err, bf.Clean)
	}
	decls := bf.Layout.Decls
	k := len(decls) / 2
	for k < len(decls) && !bytes.HasPrefix(src[decls[k].Start:], []byte("func ")) {
		k++
	}
	if k == 0 || k >= len(decls)-1 {
		t.Fatal("no function in the middle of slog_value.go")
	}
	d := decls[k]
	nl := bytes.IndexByte(src[d.Start:d.End], '\n')
	if nl < 0 {
		t.Fatal("a one-line function")
	}
	const typed = "\tvar x = 1\n\t_ = x\n"
	after := splice(src, d.Start+nl+1, d.Start+nl+1, typed)

	var restricted, full atomic.Int64
	got, ok, err := extractOwnEdited(probe.WithOwnParsed(ctx, &restricted), bf, src, &lang.Parse{Lang: l, Text: after}, nil)
	if err != nil || !ok {
		t.Fatalf("restricted extraction: ran %v, %v", ok, err)
	}
	want, err := ExtractFile(probe.WithOwnParsed(ctx, &full), after, l)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("the restricted extraction differs from the full one (%v)", err)
	}
	// At most: "package p\n", and the bytes from the end of the
	// declaration before to the start of the one after, the typed ones
	// included.
	most := int64(len("package p\n") + decls[k+1].Start - decls[k-1].End + len(typed))
	t.Logf("go/parser read %d bytes of %d (bound %d)", restricted.Load(), full.Load(), most)
	if full.Load() != int64(len(after)) {
		t.Fatalf("the full extraction handed go/parser %d bytes, not the file's %d", full.Load(), len(after))
	}
	if n := restricted.Load(); n == 0 || n > most {
		t.Fatalf("the restricted extraction handed go/parser %d bytes, not between 1 and %d", n, most)
	}
}

// replaceEdits returns src with a random half of the occurrences of old
// replaced by repl, and the edits that did it (in offsets of src and of
// the result, as ExtractEdits takes them).
func replaceEdits(r *rand.Rand, src []byte, old, repl string) ([]byte, []lang.Edit) {
	var out []byte
	var edits []lang.Edit
	prev := 0
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte(old))
		if j < 0 {
			break
		}
		at := i + j
		i = at + len(old)
		if r.IntN(2) == 0 {
			continue
		}
		out = append(out, src[prev:at]...)
		edits = append(edits, lang.Edit{Start: at, End: at + len(old), NewStart: len(out), NewEnd: len(out) + len(repl)})
		out = append(out, repl...)
		prev = at + len(old)
	}
	return append(out, src[prev:]...), edits
}

// TestExtractEditsGoManyEdits replaces words all over real Go files, as
// a replace over a tree does, and checks that ExtractEdits, told the
// edits, equals the full extraction, that it hands go/parser fewer bytes
// than when it knows only the changed bytes' bounds on the files where
// the edits lie in several declarations apart, and that edits that do
// not make the text after are ignored.
func TestExtractEditsGoManyEdits(t *testing.T) {
	l, err := lang.ByName("go")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	srcs := goEditSources(t, testing.Short())
	names := make([]string, 0, len(srcs))
	for name := range srcs {
		names = append(names, name)
	}
	sort.Strings(names)
	var fewer, restricted, tried int
	for _, name := range names {
		src := srcs[name]
		bf, err := ExtractFile(ctx, src, l)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(3, uint64(len(src))))
		for _, w := range [][2]string{{"return ", "return  "}, {"err", "er2"}, {"nil", "(nil)"}, {"Value", "Valu"}, {"{\n", "{\n\t_ = 0\n"}} {
			after, edits := replaceEdits(r, src, w[0], w[1])
			if len(edits) < 2 {
				continue
			}
			tried++
			full, err := ExtractFile(ctx, after, l)
			if err != nil {
				t.Fatal(err)
			}
			p := &lang.Parse{Lang: l, Text: after}
			var withEdits, withBounds atomic.Int64
			got, ok, err := extractOwnEdited(probe.WithOwnParsed(ctx, &withEdits), bf, src, p, edits)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := extractOwnEdited(probe.WithOwnParsed(ctx, &withBounds), bf, src, p, nil); err != nil {
				t.Fatal(err)
			}
			if ok {
				restricted++
				if !reflect.DeepEqual(got, full) {
					t.Fatalf("%s, %q: the restricted extraction with %d edits differs from the full one", name, w[0], len(edits))
				}
				if withEdits.Load() < withBounds.Load() {
					fewer++
				}
			}
			// Edits one byte off: not the edits that made after.
			bad := append([]lang.Edit{}, edits...)
			bad[len(bad)-1].Start--
			bad[len(bad)-1].NewStart--
			bad[0].NewEnd++
			if got, err := ExtractEdits(ctx, bf, src, p, bad); err != nil || !reflect.DeepEqual(got, full) {
				t.Fatalf("%s, %q: ExtractEdits with wrong edits differs from the full extraction (%v)", name, w[0], err)
			}
		}
	}
	t.Logf("%d replacements: restricted on %d, fewer bytes parsed with the edits on %d", tried, restricted, fewer)
	if restricted*2 < tried || fewer == 0 {
		t.Fatalf("of %d replacements, %d restricted, %d parsed fewer bytes with the edits", tried, restricted, fewer)
	}
}
