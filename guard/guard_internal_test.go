package guard

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
	"golang.org/x/tools/txtar"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/internal/goroot"
	"github.com/symedit/symedit/lang"
)

// guardFixtures are the real files the internal tests edit.
var guardFixtures = []string{
	"go/slog_value.go", "go/atomic_type.go", "python/process.py", "python/contextlib_excerpt.py",
	"java/Inventory.java", "typescript/scheduler.ts", "typescript/widget.tsx",
}

func guardReadFixture(t testing.TB, rel string) ([]byte, *lang.Language) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "src", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	lang, err := lang.ForPath(rel)
	if err != nil {
		t.Fatal(err)
	}
	return b, lang
}

// guardRandomEdits returns up to 4 non-overlapping random edits of src, each
// replacing up to 12 bytes with a piece of syntax, in random order.
func guardRandomEdits(r *rand.Rand, src []byte) []edit.Edit {
	pieces := []string{"", "(", ")", "{", "}", "\n", "x", "\"", "  ", ":", ";", "\n\tx := 1\n", "\n    pass\n", "/*", "'"}
	n := 1 + r.IntN(4)
	var out []edit.Edit
	for range n {
		s := r.IntN(len(src) + 1)
		e := min(s+r.IntN(13), len(src))
		ok := true
		for _, o := range out {
			if s < o.End && o.Start < e || s == o.Start || s == e && s > o.Start && s < o.End {
				ok = false
			}
		}
		if ok {
			out = append(out, edit.Edit{Start: s, End: e, New: pieces[r.IntN(len(pieces))]})
		}
	}
	return out
}

// guardBreakAt returns edits that replace the first occurrence of old
// after each of the given fractions of src with new.
func guardBreakAt(src []byte, old, new string, fractions ...float64) []edit.Edit {
	var out []edit.Edit
	for _, f := range fractions {
		from := int(float64(len(src)) * f)
		if i := bytes.Index(src[from:], []byte(old)); i >= 0 {
			if s := from + i; len(out) == 0 || out[len(out)-1].End <= s {
				out = append(out, edit.Edit{Start: s, End: s + len(old), New: new})
			}
		}
	}
	return out
}

// TestGuardIncrementalMatchesFull edits real files with one and several
// edits, clean and breaking, and checks that the incremental re-parse
// gives the same tree (as an S-expression) and the same problems as a full
// parse of the content after, and that CheckSyntax took the incremental
// path.
//
// It also makes random edits (1 to 4 at once, most of them breaking). For
// a content after that has syntax errors, tree-sitter does not promise that
// an incremental parse recovers exactly as a fresh parse does (about one
// random edit set in 250 gets other ERROR nodes, with the binding's
// EditInput or with exact points passed to ts_tree_edit alike), so for
// those the test requires only that both parses agree on whether the
// content after has errors, and on whether the edit is OK.
func TestGuardIncrementalMatchesFull(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 2))
	rounds := 12
	if testing.Short() {
		rounds = 3
	}
	differ, random := 0, 0
	for _, rel := range guardFixtures {
		before, lang := guardReadFixture(t, rel)
		exact := [][]edit.Edit{
			guardCommentLines(before, lang.Name, 5),
			{{Start: len(before) / 2, End: len(before)/2 + 200}},
			{{Start: 0, End: 0, New: "\n\n"}, {Start: len(before), End: len(before), New: "\n"}},
			guardBreakAt(before, "}", "", 0.3, 0.6),
			guardBreakAt(before, "(", "((", 0.2, 0.5, 0.8),
			guardBreakAt(before, "\n", "\n\n  x\n", 0.25, 0.5, 0.75),
			append(guardCommentLines(before[:len(before)/2], lang.Name, 3), guardBreakAt(before, ")", "", 0.7)...),
		}
		sets := exact
		for range rounds {
			sets = append(sets, guardRandomEdits(r, before))
		}
		for i, edits := range sets {
			after, err := edit.Apply(before, edits)
			if err != nil {
				t.Fatal(err)
			}
			oldText, newText, tedits := guardTextEdits(before, after, edits)
			name := fmt.Sprintf("%s edit set %d %+v", rel, i, edits)
			inc, err := guardTreeProblems(context.Background(), lang.Grammar(), oldText, newText, tedits, guardExactTreeEdit(), nil, false)
			if err != nil {
				t.Fatal(err)
			}
			full, err := guardTreeProblems(context.Background(), lang.Grammar(), oldText, newText, tedits, nil, nil, false)
			if err != nil {
				t.Fatal(err)
			}
			if len(tedits) > 0 && (!inc.incremental || full.incremental) {
				t.Errorf("%s: incremental %v, full %v", name, inc.incremental, full.incremental)
			}
			// tree-sitter's parses of Go too, where go/parser accepts.
			rep, err := CheckSyntax(context.Background(), lang, before, after, edits, GuardOptions{goTree: true})
			if err != nil {
				t.Fatal(err)
			}
			repFull, err := checkSyntax(context.Background(), lang, before, after, edits, GuardOptions{goTree: true}, true)
			if err != nil {
				t.Fatal(err)
			}
			if len(tedits) > 0 && (!rep.incremental || repFull.incremental) {
				t.Errorf("%s: CheckSyntax incremental = %v, with full = %v", name, rep.incremental, repFull.incremental)
			}
			rep.incremental, repFull.incremental = false, false
			rep.confirmed, repFull.confirmed = false, false
			same := reflect.DeepEqual(inc.before, full.before) && reflect.DeepEqual(inc.after, full.after) &&
				reflect.DeepEqual(rep, repFull)
			if same && i < len(exact) && guardSExpr(t, lang, oldText, newText, tedits, guardExactTreeEdit()) != guardSExpr(t, lang, oldText, newText, tedits, nil) {
				t.Errorf("%s: the trees differ", name)
			}
			switch {
			case same:
			case i < len(exact) || len(full.after) == 0:
				t.Errorf("%s:\nincremental %+v\nfull        %+v", name, rep, repFull)
			case len(inc.after) == 0 || rep.OK() != repFull.OK():
				t.Errorf("%s: incremental and full parses disagree on errors:\nincremental %+v\nfull        %+v", name, rep, repFull)
			default:
				differ++
			}
			if i >= len(exact) {
				random++
			}
		}
	}
	t.Logf("%d random edit sets, %d with other ERROR nodes in the incremental parse", random, differ)
}

// guardSExpr parses newText, incrementally from oldText's tree edited with
// edits by editor (in full when editor is nil), and returns the tree's
// S-expression.
func guardSExpr(t *testing.T, lang *lang.Language, oldText, newText []byte, edits []guardEdit, editor guardTreeEditor) string {
	t.Helper()
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(lang.Grammar())
	var old *sitter.Tree
	if editor != nil {
		var err error
		if old, err = p.ParseCtx(context.Background(), nil, oldText); err != nil {
			t.Fatal(err)
		}
		defer old.Close()
		guardEditTree(editor, old, oldText, newText, edits)
	}
	tree, err := p.ParseCtx(context.Background(), old, newText)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	return tree.RootNode().String()
}

// guardCommentLines returns n edits that insert a comment line.
func guardCommentLines(src []byte, lang string, n int) []edit.Edit {
	c := "// c\n"
	if lang == "python" {
		c = "# c\n"
	}
	var out []edit.Edit
	for i := 1; i <= n; i++ {
		at := len(src) * i / (n + 1)
		at += bytes.IndexByte(src[at:], '\n') + 1
		if len(out) == 0 || out[len(out)-1].Start != at {
			out = append(out, edit.Edit{Start: at, End: at, New: c})
		}
	}
	return out
}

func TestGuardMapper(t *testing.T) {
	// "0123456789" -> "01AB4567X9": [2, 4) replaced by "AB", [8, 9) by "X".
	m := newGuardMapper([]byte("0123456789"), []guardEdit{{2, 4, 2, 4}, {8, 9, 8, 9}})
	for _, c := range []struct{ s, e, bs, be int }{
		{0, 1, 0, 1}, // before both edits
		{1, 2, 1, 4}, // touching the first edit: its end maps to the edit's end
		{3, 3, 2, 4}, // inside it
		{5, 6, 5, 6}, // between
		{9, 9, 8, 9}, // touching the second
		{10, 10, 10, 10},
	} {
		if bs, be := m.toBefore(c.s, c.e); bs != c.bs || be != c.be {
			t.Errorf("toBefore(%d, %d) = %d, %d; want %d, %d", c.s, c.e, bs, be, c.bs, c.be)
		}
	}
	// "0123456789" -> "01XXX234589": 3 bytes inserted at 2, [6, 8) deleted.
	m = newGuardMapper([]byte("0123456789"), []guardEdit{{2, 2, 2, 5}, {6, 8, 9, 9}})
	for _, c := range []struct{ s, e, bs, be int }{
		{0, 1, 0, 1}, {6, 7, 3, 4}, {8, 9, 5, 8}, {10, 11, 9, 10},
	} {
		if bs, be := m.toBefore(c.s, c.e); bs != c.bs || be != c.be {
			t.Errorf("toBefore(%d, %d) = %d, %d; want %d, %d", c.s, c.e, bs, be, c.bs, c.be)
		}
	}
	if !m.touches(5, 5) || m.touches(6, 8) || !m.touches(8, 9) || m.touches(0, 1) {
		t.Error("touches is wrong")
	}
	if got := m.firstEditIn(0, 20); got != 2 {
		t.Errorf("firstEditIn(0, 20) = %d, want 2", got)
	}
	if got := m.firstEditIn(3, 20); got != 3 {
		t.Errorf("firstEditIn(3, 20) = %d, want 3 (starts inside an edit)", got)
	}

	// Each problem of before excuses one of after.
	m = newGuardMapper([]byte("x"), []guardEdit{{0, 0, 0, 1}})
	eof := []guardProblem{{start: 1, end: 1, kind: KindMissing}}
	got := m.unmatched([]guardProblem{{start: 2, end: 2, kind: KindMissing}, {start: 2, end: 2, kind: KindMissing}}, eof, false)
	if len(got) != 1 {
		t.Errorf("two MISSING at the end, one before: %d new, want 1", len(got))
	}
}

func TestGuardTextEdits(t *testing.T) {
	bom := "\uFEFF"
	for _, c := range []struct {
		before, after string
		edits         []edit.Edit
		want          []guardEdit
		oldText       string
	}{
		{"abcdef", "abXYef", []edit.Edit{{Start: 2, End: 4, New: "XY"}}, []guardEdit{{2, 4, 2, 4}}, "abcdef"},
		// Trimmed to what changes.
		{"abcdef", "abcXdef", []edit.Edit{{Start: 1, End: 4, New: "bcXd"}}, []guardEdit{{3, 3, 3, 4}}, "abcdef"},
		{"abcdef", "abcdef", []edit.Edit{{Start: 1, End: 4, New: "bcd"}}, nil, "abcdef"},
		// Shifted past the BOM.
		{bom + "abc", bom + "aXc", []edit.Edit{{Start: 4, End: 5, New: "X"}}, []guardEdit{{1, 2, 1, 2}}, "abc"},
		// No edits, an edit in the BOM, a BOM removed: one derived edit.
		{"abcdef", "abXdef", nil, []guardEdit{{2, 3, 2, 3}}, "abcdef"},
		{bom + "abc", "abc", []edit.Edit{{Start: 0, End: 3, New: ""}}, nil, "abc"},
		{bom + "abc", "Zabc", []edit.Edit{{Start: 0, End: 3, New: "Z"}}, []guardEdit{{0, 0, 0, 1}}, "abc"},
		// Several, sorted.
		{"abcdef", "XbcdeYZ", []edit.Edit{{Start: 5, End: 6, New: "YZ"}, {Start: 0, End: 1, New: "X"}}, []guardEdit{{0, 1, 0, 1}, {5, 6, 5, 7}}, "abcdef"},
	} {
		if _, err := edit.Apply([]byte(c.before), c.edits); err != nil {
			t.Fatal(err)
		}
		oldText, _, got := guardTextEdits([]byte(c.before), []byte(c.after), c.edits)
		if string(oldText) != c.oldText || len(got) != len(c.want) || len(got) > 0 && !reflect.DeepEqual(got, c.want) {
			t.Errorf("guardTextEdits(%q, %q, %v) = %q, %v; want %q, %v", c.before, c.after, c.edits, oldText, got, c.oldText, c.want)
		}
	}
}

// guardBenchFile returns about 500 KB of valid Go: net/http's server.go,
// then its declarations (without package clause and imports) three more
// times.
func guardBenchFile(b *testing.B) []byte {
	src, err := os.ReadFile(filepath.Join(goroot.Src(), "net", "http", "server.go"))
	if err != nil {
		b.Skip("no GOROOT source:", err)
	}
	i := bytes.Index(src, []byte("\nimport ("))
	j := bytes.Index(src[max(i, 0):], []byte("\n)\n"))
	if i < 0 || j < 0 {
		b.Skip("unexpected server.go")
	}
	decls := src[i+j+3:]
	out := append([]byte(nil), src...)
	for len(out) < 500_000 {
		out = append(out, decls...)
	}
	return out
}

// BenchmarkCheckSyntax checks one small edit in the middle of a ~500 KB Go
// file: as the guard does (go/parser decides, tree-sitter does not parse),
// and with tree-sitter's parses too, re-parsing the content after in full
// or incrementally.
func BenchmarkCheckSyntax(b *testing.B) {
	before := guardBenchFile(b)
	lang, _ := lang.ByName("go")
	at := bytes.Index(before[len(before)/2:], []byte("\n\treturn ")) + len(before)/2 + 1
	edits := []edit.Edit{{Start: at, End: at, New: "\t_ = 1\n"}}
	after, err := edit.Apply(before, edits)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name         string
		goTree, full bool
	}{{"go-parser", false, false}, {"tree-sitter-incremental", true, false}, {"tree-sitter-full", true, true}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(before)))
			for b.Loop() {
				rep, err := checkSyntax(context.Background(), lang, before, after, edits, GuardOptions{goTree: c.goTree}, c.full)
				if err != nil || !rep.Checked || !rep.OK() || rep.treeSkipped == c.goTree {
					b.Fatalf("%+v, %v", rep, err)
				}
			}
		})
	}
}

// guardInspectCase returns the edit of TestCheckSyntaxRealInsertionOfCommentLines.
func guardInspectCase(t *testing.T) (before, after []byte, edits []edit.Edit) {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", "guard", "inspect_signature.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	var newStr []byte
	for _, f := range ar.Files {
		switch f.Name {
		case "before.py":
			before = f.Data
		case "new_str.py":
			newStr = f.Data
		}
	}
	old := []byte("    def __str__(self):\n        return self.format()\n")
	i := bytes.Index(before, old)
	if i < 0 || len(newStr) == 0 {
		t.Fatal("bad fixture")
	}
	edits = []edit.Edit{{Start: i, End: i + len(old), New: string(newStr)}}
	after, err = edit.Apply(before, edits)
	if err != nil {
		t.Fatal(err)
	}
	return before, after, edits
}

// TestGuardExactPoints checks that the guard's tree edit gives tree-sitter
// exact points: after the real edit of guardInspectCase, the incremental
// re-parse gives the tree of a full parse, where the binding's Tree.Edit
// (new end point = old end point) gives ERROR nodes a full parse does not,
// and would refuse valid edits.
func TestGuardExactPoints(t *testing.T) {
	if guardExactTreeEdit() == nil {
		t.Fatal("the binding's tree no longer has the layout guardExactTreeEdit relies on")
	}
	before, after, edits := guardInspectCase(t)
	lang, _ := lang.ByName("python")
	oldText, newText, tedits := guardTextEdits(before, after, edits)
	full := guardSExpr(t, lang, oldText, newText, tedits, nil)
	if strings.Contains(full, "ERROR") {
		t.Fatal("the full parse has errors")
	}
	if inc := guardSExpr(t, lang, oldText, newText, tedits, guardExactTreeEdit()); inc != full {
		t.Errorf("incremental re-parse with exact points differs from the full parse")
	}
	// The binding's own Edit shows the failure this guards against.
	if inc := guardSExpr(t, lang, oldText, newText, tedits, (*sitter.Tree).Edit); !strings.Contains(inc, "ERROR") {
		t.Errorf("the binding's Tree.Edit no longer breaks this case: the test needs a new case")
	}
	// The points of a node after the edit are those of a full parse.
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(lang.Grammar())
	old, err := p.ParseCtx(context.Background(), nil, oldText)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	guardEditTree(guardExactTreeEdit(), old, oldText, newText, tedits)
	rows := newGuardRows(newText)
	if got, want := old.RootNode().EndPoint(), rows.point(len(newText)); got != want {
		t.Errorf("edited tree ends at %+v, want %+v", got, want)
	}
}

// TestGuardConfirmsWithFullParse checks that a new problem found by the
// incremental re-parse is confirmed by a full parse before the guard
// reports it: with the binding's faulty Tree.Edit as the tree editor, the
// incremental parse of guardInspectCase has ERROR nodes, and CheckSyntax
// still accepts the edit.
func TestGuardConfirmsWithFullParse(t *testing.T) {
	before, after, edits := guardInspectCase(t)
	lang, _ := lang.ByName("python")
	oldText, newText, tedits := guardTextEdits(before, after, edits)
	inc, err := guardTreeProblems(context.Background(), lang.Grammar(), oldText, newText, tedits, (*sitter.Tree).Edit, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(inc.after) == 0 {
		t.Fatal("the faulty incremental parse found no problem: the test needs a new case")
	}
	rep, err := CheckSyntax(context.Background(), lang, before, after, edits, GuardOptions{treeEdit: (*sitter.Tree).Edit})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Checked || !rep.OK() || !rep.confirmed || rep.After != 0 {
		t.Errorf("CheckSyntax = %+v, want checked, OK, confirmed by a full parse, no problem after", rep)
	}
	// A real new error is still reported after the confirmation.
	bad := append([]edit.Edit(nil), edits...)
	bad[0].New = strings.Replace(bad[0].New, "result = []", "result = [", 1)
	badAfter, err := edit.Apply(before, bad)
	if err != nil {
		t.Fatal(err)
	}
	rep, err = CheckSyntax(context.Background(), lang, before, badAfter, bad, GuardOptions{treeEdit: (*sitter.Tree).Edit})
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() || !rep.confirmed {
		t.Errorf("a broken edit: %+v, want refused after a full parse", rep)
	}
}

// guardRecordEdits returns an editor that records the edits it is given
// (and edits the tree with the exact editor).
func guardRecordEdits(rec *[]sitter.EditInput) guardTreeEditor {
	exact := guardExactTreeEdit()
	return func(tree *sitter.Tree, e sitter.EditInput) {
		*rec = append(*rec, e)
		exact(tree, e)
	}
}

// guardTreeDump returns every node of the tree of newText, parsed
// incrementally from oldText's tree edited with edits by editor (from
// scratch when editor is nil), with its byte range and points.
func guardTreeDump(t *testing.T, lang *lang.Language, oldText, newText []byte, edits []guardEdit, editor guardTreeEditor) string {
	t.Helper()
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(lang.Grammar())
	var old *sitter.Tree
	if editor != nil {
		var err error
		if old, err = p.ParseCtx(context.Background(), nil, oldText); err != nil {
			t.Fatal(err)
		}
		defer old.Close()
		guardEditTree(editor, old, oldText, newText, edits)
	}
	tree, err := p.ParseCtx(context.Background(), old, newText)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	var b strings.Builder
	cur := sitter.NewTreeCursor(tree.RootNode())
	defer cur.Close()
	for {
		n := cur.CurrentNode()
		fmt.Fprintf(&b, "%s [%d,%d) %v-%v\n", n.Type(), n.StartByte(), n.EndByte(), n.StartPoint(), n.EndPoint())
		if cur.GoToFirstChild() {
			continue
		}
		for !cur.GoToNextSibling() {
			if !cur.GoToParent() {
				return b.String()
			}
		}
	}
}

// TestGuardCRTreeEdits edits CR-only and CRLF files in the ways that change
// whether a CR is lone: an LF inserted after a CR, the
// LF of a CRLF deleted, a CRLF line inserted after a CR line. The parser
// reads a lone CR as LF (lang.Language.ParserInput), so such an edit
// changes the parser's byte before it, which the file's edit leaves as it
// is. The test checks that the edits given to the tree cover every byte
// of the parser's text that changed, with points counted in the parser's
// text, and that the incremental re-parse gives the tree, positions
// included, of a full parse.
func TestGuardCRTreeEdits(t *testing.T) {
	for _, rel := range guardFixtures {
		lf, lang := guardReadFixture(t, rel)
		if lang.Name == "go" {
			continue
		}
		cr := bytes.ReplaceAll(lf, []byte("\n"), []byte("\r"))
		crlf := bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))
		// after returns the offsets just after the line endings (of
		// length n) that follow the given fractions of text.
		after := func(text []byte, n int, fractions ...float64) []int {
			var out []int
			for _, f := range fractions {
				from := int(float64(len(text)) * f)
				if i := bytes.IndexByte(text[from:], '\r'); i >= 0 {
					out = append(out, from+i+n)
				}
			}
			return out
		}
		var insLF, delLF, insLine []edit.Edit
		for _, at := range after(cr, 1, 0.2, 0.5, 0.8, 1) {
			insLF = append(insLF, edit.Edit{Start: at, End: at, New: "\n"})
			insLine = append(insLine, edit.Edit{Start: at, End: at, New: "\n\r\n"})
		}
		for _, at := range after(crlf, 1, 0.2, 0.5, 0.8) {
			delLF = append(delLF, edit.Edit{Start: at, End: at + 1})
		}
		for i, c := range []struct {
			before []byte
			edits  []edit.Edit
		}{{cr, insLF}, {cr, insLine}, {crlf, delLF}, {cr, []edit.Edit{{Start: len(cr), End: len(cr), New: "\n"}}}} {
			name := fmt.Sprintf("%s case %d", rel, i)
			afterText, err := edit.Apply(c.before, c.edits)
			if err != nil {
				t.Fatal(err)
			}
			oldText, newText, tedits := guardTextEdits(c.before, afterText, c.edits)
			oldIn, newIn := lang.ParserInput(oldText), lang.ParserInput(newText)
			var rec []sitter.EditInput
			inc := guardTreeDump(t, lang, oldIn, newIn, tedits, guardRecordEdits(&rec))
			if full := guardTreeDump(t, lang, oldIn, newIn, tedits, nil); inc != full {
				t.Errorf("%s: the incremental tree differs from the full parse's", name)
			}
			// The edits, sorted, leave unchanged only bytes that are equal
			// in both parser texts.
			sort.Slice(rec, func(i, j int) bool { return rec[i].StartIndex < rec[j].StartIndex })
			oldRows, last, delta := newGuardRows(oldIn), 0, 0
			for _, e := range rec {
				s, oe, ne := int(e.StartIndex), int(e.OldEndIndex), int(e.NewEndIndex)
				if !bytes.Equal(oldIn[last:s], newIn[last+delta:s+delta]) {
					t.Errorf("%s: bytes [%d, %d) of the parser's text changed, and no edit given to the tree covers them", name, last, s)
				}
				if e.StartPoint != oldRows.point(s) || e.OldEndPoint != oldRows.point(oe) {
					t.Errorf("%s: edit %+v: points are not the parser text's", name, e)
				}
				last, delta = oe, delta+ne-oe
			}
			if !bytes.Equal(oldIn[last:], newIn[last+delta:]) {
				t.Errorf("%s: the parser's text changed after the last edit given to the tree", name)
			}
			rep, err := CheckSyntax(context.Background(), lang, c.before, afterText, c.edits, GuardOptions{})
			if err != nil || !rep.OK() || rep.Before != 0 || rep.After != 0 {
				t.Errorf("%s: %+v, %v, want a clean report", name, rep, err)
			}
		}
	}
}
