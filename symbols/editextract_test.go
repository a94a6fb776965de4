package symbols

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/symedit/symedit/internal/probe"
	"github.com/symedit/symedit/lang"
)

// editSources returns the real files the differential tests edit: the
// Python fixtures, and process.py three times over, whose classes and
// methods are then numbered "[2]" and "[3]".
func editSources(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	paths, err := filepath.Glob("../testdata/src/python/*.py")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no Python fixtures: %v", err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = b
		if filepath.Base(p) == "process.py" {
			out["process3.py"] = bytes.Repeat(b, 3)
		}
	}
	return out
}

// randomEdit returns src with one random line-level edit: lines deleted,
// lines copied elsewhere (a definition duplicated, which renumbers the
// same-named ones after it), a line's name changed, or text typed into
// a line.
func randomEdit(r *rand.Rand, src []byte) []byte {
	lines := bytes.SplitAfter(src, []byte("\n"))
	n := len(lines)
	i := r.IntN(n)
	j := min(n, i+1+r.IntN(30))
	var out [][]byte
	switch r.IntN(4) {
	case 0: // delete lines i..j
		out = append(append(out, lines[:i]...), lines[j:]...)
	case 1: // copy lines i..j before line k
		k := r.IntN(n + 1)
		out = append(out, lines[:k]...)
		out = append(out, lines[i:j]...)
		out = append(out, lines[k:]...)
	case 2: // rename: the first "def x" or "class x" from line i on gets another name
		out = lines
		for ; i < n; i++ {
			l := lines[i]
			for _, kw := range []string{"def ", "class "} {
				if k := bytes.Index(l, []byte(kw)); k >= 0 {
					nl := bytes.Clone(l)
					nl = append(nl[:k+len(kw)], append([]byte(fmt.Sprintf("renamed%d_", r.IntN(3))), l[k+len(kw):]...)...)
					out = append(append(append([][]byte{}, lines[:i]...), nl), lines[i+1:]...)
					return bytes.Join(out, nil)
				}
			}
		}
	default: // type a statement at the end of line i
		l := bytes.TrimRight(lines[i], "\r\n")
		nl := append(bytes.Clone(l), []byte("; x = 1")...)
		nl = append(nl, lines[i][len(l):]...)
		out = append(append(append(out, lines[:i]...), nl), lines[i+1:]...)
	}
	return bytes.Join(out, nil)
}

// checkEdit extracts after, an edit of before, both ways and fails unless
// ExtractEdit gives what a full extraction gives, field by field (the
// namings included). It reports whether the restricted extraction ran.
func checkEdit(t *testing.T, l *lang.Language, before, after []byte) bool {
	t.Helper()
	ctx := context.Background()
	bf, bp, err := ExtractParse(ctx, before, l)
	if err != nil {
		t.Fatal(err)
	}
	bp.Close()
	_, ap, err := ExtractParse(ctx, after, l)
	if err != nil {
		t.Fatal(err)
	}
	defer ap.Close()
	full, err := ExtractFrom(ctx, ap)
	if err != nil {
		t.Fatal(err)
	}
	got, ok, err := extractEdited(ctx, bf, before, ap)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		return false
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
		t.Fatalf("restricted extraction differs from the full one beyond the symbols: %+v", got)
	}
	return true
}

// TestExtractEditMatchesFull edits real Python files at random and
// checks that the extraction restricted to the edited top-level
// definitions equals the whole file's, and that it ran on most edits
// (those that leave the file without syntax errors).
func TestExtractEditMatchesFull(t *testing.T) {
	l, err := lang.ByName("python")
	if err != nil {
		t.Fatal(err)
	}
	edits := 60
	if testing.Short() {
		edits = 20
	}
	for name, src := range editSources(t) {
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(len(src))))
			restricted := 0
			for range edits {
				after := randomEdit(r, src)
				if checkEdit(t, l, src, after) {
					restricted++
				}
			}
			t.Logf("restricted extraction on %d of %d edits", restricted, edits)
			if restricted < edits/5 {
				t.Fatalf("the restricted extraction ran on %d of %d edits", restricted, edits)
			}
		})
	}
}

// TestExtractEditRenumbers adds a class named as later ones at the top of
// a file: every later same-named class and its methods get the next
// "[N]", which the restricted extraction must give too.
func TestExtractEditRenumbers(t *testing.T) {
	l, err := lang.ByName("python")
	if err != nil {
		t.Fatal(err)
	}
	src := editSources(t)["process3.py"]
	i := bytes.Index(src, []byte("\nclass BaseProcess"))
	if i < 0 {
		t.Fatal("no BaseProcess in process.py")
	}
	after := append(append(bytes.Clone(src[:i+1]), "class BaseProcess:\n    def start(self):\n        pass\n\n\n"...), src[i+1:]...)
	if !checkEdit(t, l, src, after) {
		t.Fatal("the restricted extraction did not run")
	}
	f, _ := ExtractFile(context.Background(), after, l)
	found := false
	for _, s := range f.Symbols {
		found = found || s.NamePath == "BaseProcess[4]/start"
	}
	if !found {
		t.Fatal("no BaseProcess[4]/start after a fourth BaseProcess was added")
	}
}

// FuzzExtractEdit replaces a byte range of a real file with the fuzzer's
// text and checks the restricted extraction against the full one.
func FuzzExtractEdit(f *testing.F) {
	l, err := lang.ByName("python")
	if err != nil {
		f.Fatal(err)
	}
	src := editSources(f)["process3.py"]
	f.Add(uint32(100), uint32(0), "def f():\n    pass\n")
	f.Add(uint32(5000), uint32(40), "")
	f.Add(uint32(20000), uint32(3), "\nclass BaseProcess:\n    pass\n")
	f.Fuzz(func(t *testing.T, at, n uint32, text string) {
		i := int(at) % (len(src) + 1)
		j := min(len(src), i+int(n%4096))
		after := append(append(bytes.Clone(src[:i]), text...), src[j:]...)
		checkEdit(t, l, src, after)
	})
}

// TestExtractEditVisitsTheEditOnly counts the tree nodes an extraction
// indexes (probe.TreeNodes) for one edit near the top of process.py
// repeated 3 and 9 times: the full extraction's count grows with the
// file, the restricted one's only by the root's added children (one
// visit each): below them it visits as many nodes in both files, a small
// part of what the full extraction visits.
func TestExtractEditVisitsTheEditOnly(t *testing.T) {
	l, err := lang.ByName("python")
	if err != nil {
		t.Fatal(err)
	}
	one := editSources(t)["process.py"]
	ctx := context.Background()
	type counts struct{ restricted, full, kids int64 }
	measure := func(times int) counts {
		src := bytes.Repeat(one, times)
		i := bytes.Index(src, []byte("    def start(self):"))
		after := append(append(bytes.Clone(src[:i]), "    def started(self):\n        return True\n\n"...), src[i:]...)
		bf, bp, err := ExtractParse(ctx, src, l)
		if err != nil {
			t.Fatal(err)
		}
		bp.Close()
		_, ap, err := ExtractParse(ctx, after, l)
		if err != nil {
			t.Fatal(err)
		}
		defer ap.Close()
		var c counts
		n0 := probe.TreeNodes.Load()
		if _, ok, err := extractEdited(ctx, bf, src, ap); err != nil || !ok {
			t.Fatalf("restricted extraction: ran %v, %v", ok, err)
		}
		n1 := probe.TreeNodes.Load()
		if _, err := ExtractFrom(ctx, ap); err != nil {
			t.Fatal(err)
		}
		n2 := probe.TreeNodes.Load()
		c.restricted, c.full = n1-n0, n2-n1
		c.kids = int64(len(rootChildren(ap.Tree.RootNode())))
		return c
	}
	small, big := measure(3), measure(9)
	t.Logf("x3: %+v; x9: %+v", small, big)
	if big.full < 2*small.full {
		t.Fatalf("the full extraction's count did not grow with the file: %d, %d", small.full, big.full)
	}
	if grew := big.restricted - small.restricted; grew > big.kids-small.kids {
		t.Fatalf("the restricted count grew by %d, more than the %d root children added", grew, big.kids-small.kids)
	}
	if below := big.restricted - big.kids; below != small.restricted-small.kids || below*3 > small.full {
		t.Fatalf("the restricted extraction visited %d nodes below the root's children in the larger file, %d in the smaller (full: %d)",
			below, small.restricted-small.kids, small.full)
	}
}
