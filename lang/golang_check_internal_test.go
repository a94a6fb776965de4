package lang

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/symedit/symedit/internal/goroot"
)

// TestGoScanDecls checks the top-level layout go/scanner finds in a Go
// file go/parser accepts (Prior.Clean) against go/ast's, over a sample of
// Go's source tree: the same declarations, starting at the same offsets,
// imports the same, ending at the same offsets (the package clause too).
// A file go/parser refuses is still scanned (the word would be wrong):
// the layout is not used then, only that scanning does not panic. The
// layout goExtract gives (package symbols' File.Layout) is go/ast's too.
func TestGoScanDecls(t *testing.T) {
	step := 40
	if testing.Short() {
		step = 400
	}
	var clean int
	for path, src := range goroot.Sample(t, step) {
		tf, f, errs := goParse(src)
		scanned, ok := goScanDecls(src)
		if len(errs) > 0 {
			continue
		}
		clean++
		want, wok := goDeclsOf(tf, f)
		if !ok || !wok {
			t.Errorf("%s: no layout: scanned %v, parsed %v", path, ok, wok)
			continue
		}
		if scanned.pkgEnd != want.pkgEnd || len(scanned.decls) != len(want.decls) {
			t.Errorf("%s: package clause ends at %d (go/ast %d), %d declarations (go/ast %d)", path, scanned.pkgEnd, want.pkgEnd, len(scanned.decls), len(want.decls))
			continue
		}
		for i, d := range scanned.decls {
			w := want.decls[i]
			if d.start != w.start || d.imp != w.imp || d.end != w.end {
				t.Errorf("%s: declaration %d: scanned %+v, go/ast %+v", path, i, d, w)
				break
			}
		}
		// The extraction's layout, from its own go/parser parse, is
		// go/ast's too.
		_, layout, ok := goExtract(src)
		if !ok {
			t.Errorf("%s: goExtract does not call it clean", path)
			continue
		}
		if laid, ok := goDeclsFrom(layout, len(src)); !ok || !reflect.DeepEqual(laid, want) {
			t.Errorf("%s: the extraction's layout %v %+v, go/ast's %+v", path, ok, laid, want)
		}
	}
	if clean == 0 {
		t.Fatal("no file go/parser accepts in the sample")
	}
}

// TestGoDeclsFrom checks that a layout that fits the content is taken
// and one that does not (Prior.Layout from some other bytes) is refused.
func TestGoDeclsFrom(t *testing.T) {
	before := []byte("package p\n\nfunc a() {\n}\n\nfunc b() {\n}\n")
	_, layout, ok := goExtract(before)
	if !ok || layout == nil {
		t.Fatal("no layout")
	}
	if d, ok := goDeclsFrom(layout, len(before)); !ok || len(d.decls) != 2 {
		t.Fatalf("the fitting layout is refused: %v %+v", ok, d)
	}
	for _, l := range []*Layout{
		nil,
		{PackageEnd: 0},
		{PackageEnd: len(before) + 1},
		{PackageEnd: 9, Decls: []Decl{{Start: 11, End: 200}}},
		{PackageEnd: 9, Decls: []Decl{{Start: 24, End: 35}, {Start: 11, End: 23}}},
		{PackageEnd: 9, Decls: []Decl{{Start: 5, End: 23}}},
		{PackageEnd: 9, Decls: []Decl{{Start: 23, End: 11}}},
	} {
		if _, ok := goDeclsFrom(l, len(before)); ok {
			t.Errorf("layout %+v taken", l)
		}
	}
}

// TestGoRegions checks the regions goRegions finds for edits in several
// top-level declarations with untouched ones between: each run of edited
// declarations is its own region, and the text outside the regions is the
// same before and after the edits. (The guard's TestGuardGoRegions checks
// what the guard reports for the same edits.)
func TestGoRegions(t *testing.T) {
	const file = "package p\n\nimport \"os\"\n\nfunc a() {\n\tos.Exit(0)\n}\n\nfunc b() {\n}\n\n// c does nothing.\nfunc c() {\n}\n\nfunc d() {\n\tos.Exit(1)\n}\n\nvar v = 1\n"
	type sub struct{ old, new string }
	tests := []struct {
		name    string
		subs    []sub
		regions int // regions goRegions finds in the content before
	}{
		{"two functions apart", []sub{{"os.Exit(0)", "os.Exit(2)"}, {"os.Exit(1)", "os.Exit(3)"}}, 2},
		{"two neighbours merge", []sub{{"func b() {\n}", "func b() {\n\t_ = 1\n}"}, {"func c() {\n}", "func c() {\n\t_ = 2\n}"}}, 1},
		{"three, the last a variable", []sub{{"os.Exit(0)", "os.Exit(2)"}, {"func c() {\n}", "func c() {\n\t_ = 2\n}"}, {"var v = 1", "var v = 2"}}, 3},
		{"the second breaks", []sub{{"os.Exit(0)", "os.Exit(2)"}, {"os.Exit(1)\n}", "os.Exit(1)\n"}}, 2},
		{"the first breaks", []sub{{"os.Exit(0)", "os.Exit(0"}, {"var v = 1", "var v = 2"}}, 2},
		{"a comment opened in the first, closed in the last", []sub{{"os.Exit(0)\n}", "os.Exit(0)\n}\n/*"}, {"\nvar v = 1", "*/\nvar v = 1"}}, 2},
		{"a function left open in the first", []sub{{"os.Exit(0)\n}", "os.Exit(0)\n"}, {"os.Exit(1)", "os.Exit(3)"}}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := []byte(file)
			var after []byte
			var edits []Edit
			at := 0 // in before
			for _, s := range tt.subs {
				i := bytes.Index(before, []byte(s.old))
				if i < at {
					t.Fatal("no", s.old, "after the edit before")
				}
				// Trimmed of the bytes it leaves unchanged at its ends,
				// as the guard gives edits to Checker.CheckEdits.
				pre := commonPrefix(s.old, s.new)
				suf := commonSuffix(s.old[pre:], s.new[pre:])
				after = append(after, before[at:i]...)
				e := Edit{Start: i + pre, End: i + len(s.old) - suf, NewStart: len(after) + pre}
				e.NewEnd = e.NewStart + len(s.new) - pre - suf
				edits = append(edits, e)
				after = append(after, s.new...)
				at = i + len(s.old)
			}
			after = append(after, before[at:]...)
			tf, f, errs := goParse(before)
			d, ok := goDeclsOf(tf, f)
			if len(errs) > 0 || !ok {
				t.Fatal("the file does not parse:", errs)
			}
			spans, _ := goRegions(d, before, edits)
			if len(spans) != tt.regions {
				t.Errorf("%d regions %+v, want %d", len(spans), spans, tt.regions)
			}
			for i, sp := range spans {
				// Between regions, and after the last, the bytes are
				// the same before and after the edits.
				next, newNext := len(before), len(after)
				if i+1 < len(spans) {
					next, newNext = spans[i+1].start, spans[i+1].newStart
				}
				if string(before[sp.end:next]) != string(after[sp.newEnd:newNext]) || i == 0 && string(before[:sp.start]) != string(after[:sp.newStart]) {
					t.Errorf("region %d %+v: the text outside the regions changed", i, sp)
				}
			}
		})
	}
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func commonSuffix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}
