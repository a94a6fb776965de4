package guard

import (
	"bytes"
	"context"
	"go/scanner"
	"go/token"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/internal/goroot"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

// guardGoErrors returns go/parser's errors in src: the problems of Go's
// lang.Checker.
func guardGoErrors(src []byte) []lang.Problem {
	golang, err := lang.ByName("go")
	if err != nil {
		panic(err)
	}
	return golang.Checker().Check(src)
}

// TestGuardGoShortcut checks the Go shortcut: when go/parser
// accepts the content after the edit, tree-sitter does not parse at all,
// and the shortcut never accepts an edit the full check (tree-sitter's
// parses too) refuses. Over a sample of Go's source tree, each file gets a
// comment line (valid), edits that break it (a brace removed, a
// parenthesis doubled, a statement at top level) and random edits, and
// each of these is also undone by a whole write (an edit that fixes a
// file with errors): the
// refusal, and every new problem, is the same with and without the
// shortcut; where the shortcut is taken the full check has no new problem
// either (only notes); where it is not, the reports are equal.
func TestGuardGoShortcut(t *testing.T) {
	step := 80
	if testing.Short() {
		step = 800
	}
	files := goroot.Sample(t, step)
	golang, err := lang.ByName("go")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(15, 3))
	var skipped, region, tokens, respelledTree, refused, brokenBefore, wordRegion, wordAfter int
	// Boundary edits, two dozen at one boundary, in every fourth file.
	nfile := 0
	boundary := func(r *rand.Rand, src []byte) [][]edit.Edit {
		if nfile++; nfile%4 != 0 {
			return nil
		}
		return guardGoBoundaryEdits(r, src)
	}
	type change struct {
		before, after []byte
		edits         []edit.Edit // nil: a whole write
	}
	for path, content := range files {
		var cases []change
		for _, edits := range append([][]edit.Edit{
			guardCommentLines(content, "go", 2),
			guardBreakAt(content, "}", "", 0.5),
			guardBreakAt(content, "(", "((", 0.4),
			guardBreakAt(content, "\nfunc ", "\nx := 1\nfunc ", 0.3),
			guardRandomEdits(r, content),
			guardRandomEdits(r, content),
		}, boundary(r, content)...) {
			if len(edits) == 0 {
				continue
			}
			after, err := edit.Apply(content, edits)
			if err != nil {
				t.Fatal(err)
			}
			// The edit, and the whole write that undoes it (a file with
			// errors before, fixed).
			cases = append(cases, change{content, after, edits}, change{after, content, nil})
		}
		// Respellings (and near misses) in the file, and in the file
		// broken first, where go/parser's errors stay.
		for _, src := range [][]byte{content, guardApply(t, content, guardBreakAt(content, "}", "", 0.5))} {
			for range 2 {
				if edits := guardRespellEdits(r, src); len(edits) > 0 {
					cases = append(cases, change{src, guardApply(t, src, edits), edits})
				}
			}
		}
		for _, c := range cases {
			before, after, edits := c.before, c.after, c.edits
			fast, err := CheckSyntax(context.Background(), golang, before, after, edits, GuardOptions{})
			if err != nil {
				t.Fatal(err)
			}
			full, err := CheckSyntax(context.Background(), golang, before, after, edits, GuardOptions{goTree: true})
			if err != nil {
				t.Fatal(err)
			}
			if !fast.Checked || !full.Checked {
				t.Fatalf("%s %+v: not checked: %q, %q", path, edits, fast.Skipped, full.Skipped)
			}
			if len(guardGoErrors(before)) == 0 {
				// The caller's word that before is clean: the same report.
				word, err := CheckSyntax(context.Background(), golang, before, after, edits, GuardOptions{Before: guardClean(golang, before, nil)})
				if err != nil {
					t.Fatal(err)
				}
				if word.goRegion {
					wordRegion++
				}
				if word.Uncounted {
					t.Errorf("%s %+v: with the word that before is clean, the counts are not counts", path, edits)
				}
				// The word changes how the check got there: the regions
				// it parses, and whether its counts (0 and 0) are known.
				word.goRegion, word.goTokens, word.Uncounted = fast.goRegion, fast.goTokens, fast.Uncounted
				if !reflect.DeepEqual(word, fast) {
					t.Errorf("%s %+v: the word that before is clean changes the report:\nwith    %+v\nwithout %+v", path, edits, word, fast)
				}
				// And with the layout of symbols' own parse of before.
				sf, err := symbols.ExtractFile(context.Background(), before, golang)
				if err != nil || sf.Layout == nil {
					t.Fatalf("%s: go/parser accepts it, yet symbols gives no layout: %v", path, err)
				}
				laid, err := CheckSyntax(context.Background(), golang, before, after, edits, GuardOptions{Before: guardClean(golang, before, sf.Layout)})
				if err != nil {
					t.Fatal(err)
				}
				if laid.goRegion != word.goRegion && !laid.goRegion {
					t.Errorf("%s %+v: the scanned layout finds regions, symbols' does not", path, edits)
				}
				laid.goRegion, laid.goTokens, laid.Uncounted = fast.goRegion, fast.goTokens, fast.Uncounted
				if !reflect.DeepEqual(laid, fast) {
					t.Errorf("%s %+v: the word with its layout changes the report:\nwith    %+v\nwithout %+v", path, edits, laid, fast)
				}
				// And the word for after too, where symbols' extraction
				// of after from before's File (the receipt's) says
				// go/parser accepts it: never wrong, and the same report.
				_, _, gedits := guardTextEdits(before, after, edits)
				af, err := symbols.ExtractEdits(context.Background(), sf, before, &lang.Parse{Lang: golang, Text: after}, guardLangEdits(gedits))
				if err != nil {
					t.Fatal(err)
				}
				if af.Clean {
					if errs := guardGoErrors(after); len(errs) > 0 {
						t.Fatalf("%s %+v: the extraction says go/parser accepts after, which has %d errors", path, edits, len(errs))
					}
					said, err := CheckSyntax(context.Background(), golang, before, after, edits, GuardOptions{Before: guardClean(golang, before, sf.Layout), After: &lang.Parse{Lang: golang, Text: after, Clean: true}})
					if err != nil {
						t.Fatal(err)
					}
					wordAfter++
					said.goRegion, said.goTokens, said.Uncounted = fast.goRegion, fast.goTokens, fast.Uncounted
					if !reflect.DeepEqual(said, fast) {
						t.Errorf("%s %+v: the word for after changes the report:\nwith    %+v\nwithout %+v", path, edits, said, fast)
					}
				}
			}
			if fast.goTokens {
				// Respelled tokens in a file go/parser refuses: the full
				// check may find new tree-sitter problems, where its
				// recovery from the errors go/parser finds before and
				// after alike goes another way, but no new go/parser
				// error.
				for _, p := range full.New {
					if p.Kind == "go/parser" {
						t.Errorf("%s %+v: respelled, yet go/parser has a new error: %+v", path, edits, full)
					}
				}
				if len(full.New) > 0 {
					respelledTree++
				}
			} else if fast.Rejects(CheckStrict) != full.Rejects(CheckStrict) || !reflect.DeepEqual(fast.New, full.New) {
				t.Errorf("%s %+v:\nshortcut %+v\nfull     %+v", path, edits, fast, full)
				continue
			}
			if full.treeSkipped {
				t.Fatalf("%s: the full check skipped tree-sitter", path)
			}
			if fast.goRegion {
				region++
			}
			if fast.treeSkipped {
				skipped++
				if !fast.Uncounted && len(guardGoErrors(after)) > 0 || fast.After != 0 || len(fast.Notes) > 0 || fast.incremental {
					t.Errorf("%s %+v: shortcut taken for content go/parser refuses, or with tree-sitter's results: %+v", path, edits, fast)
				}
				if fast.goTokens {
					tokens++
				}
				nbefore := len(guardGoErrors(before))
				switch {
				case fast.Uncounted:
					// Respelled tokens: go/parser has as many errors after
					// as before, and the report counts neither.
					// as before, at the same places moved by the edits, and
					// the report counts neither.
					if !fast.goTokens || fast.Before != 0 || !guardSameErrors(before, after, edits) {
						t.Errorf("%s %+v: uncounted, yet go/parser's errors differ: before %v, after %v: %+v", path, edits, guardGoErrors(before), guardGoErrors(after), fast)
					}
				case fast.Before != nbefore:
					t.Errorf("%s: Before = %d, want go/parser's %d errors", path, fast.Before, nbefore)
				}
				if nbefore > 0 {
					brokenBefore++
				}
				continue
			}
			if !reflect.DeepEqual(fast, full) {
				t.Errorf("%s %+v: go/parser refuses, yet the reports differ:\nshortcut %+v\nfull     %+v", path, edits, fast, full)
			}
			if fast.Rejects(CheckStrict) {
				refused++
			}
		}
	}
	t.Logf("%d files: %d edits took the shortcut (%d of a file go/parser refused, %d with go/parser over the edited declarations only, %d so with the word that before is clean, %d with the word for after, %d with no parse, respellings, %d of which tree-sitter alone refuses), %d were refused", len(files), skipped, brokenBefore, region, wordRegion, wordAfter, tokens, respelledTree, refused)
	if skipped == 0 || refused == 0 || brokenBefore == 0 || region == 0 || region == skipped || wordRegion < region || wordAfter == 0 || tokens == 0 {
		t.Errorf("the sample does not exercise every path: %d shortcuts (%d of a file with errors, %d by region, %d respellings), %d refusals", skipped, brokenBefore, region, tokens, refused)
	}
}

// guardSameErrors reports whether go/parser finds as many errors in
// after as in before, those before the first of the edits (sorted, that
// made after of before) at the same offsets. (Past it, an error at a
// respelled token moves with the token's start, which may be anywhere in
// the edit: an empty file given white space has its errors at the end.)
func guardSameErrors(before, after []byte, edits []edit.Edit) bool {
	eb, ea := guardGoErrors(before), guardGoErrors(after)
	if len(eb) != len(ea) {
		return false
	}
	for i, p := range eb {
		if len(edits) > 0 && p.Start < edits[0].Start && ea[i].Start != p.Start {
			return false
		}
	}
	return true
}

// guardApply returns src after edits.
func guardApply(t *testing.T, src []byte, edits []edit.Edit) []byte {
	t.Helper()
	out, err := edit.Apply(src, edits)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// guardRespellEdits returns one to four edits of tokens of the Go file
// src, picked at random among the tokens go/scanner finds: most respell
// an identifier, a comment or a string literal (what the guard checks
// without a parse), the others come near (an identifier made a keyword or
// split in two, a string given a bad escape or its closing quote, a
// comment given a backquote, "*/" or a line ending).
func guardRespellEdits(r *rand.Rand, src []byte) []edit.Edit {
	type tok struct {
		off  int
		kind token.Token
		lit  string
	}
	var toks []tok
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(src))
	var sc scanner.Scanner
	sc.Init(f, src, nil, scanner.ScanComments)
	for {
		pos, kind, lit := sc.Scan()
		if kind == token.EOF {
			break
		}
		if (kind == token.IDENT || kind == token.COMMENT || kind == token.STRING) && len(lit) >= 2 {
			toks = append(toks, tok{f.Offset(pos), kind, lit})
		}
	}
	if len(toks) == 0 {
		return nil
	}
	var out []edit.Edit
	for _, i := range r.Perm(len(toks))[:min(len(toks), 1+r.IntN(4))] {
		x := toks[i]
		// Inside the token: past an identifier's first byte, just inside
		// a string's opening quote, past a comment's "//" or "/*".
		mid := x.off + 1 + r.IntN(len(x.lit)-1)
		switch x.kind {
		case token.STRING:
			mid = x.off + 1
		case token.COMMENT:
			mid = x.off + 2
		}
		var e edit.Edit
		switch near := r.IntN(6) == 0; {
		case x.kind == token.IDENT && !near:
			e = edit.Edit{Start: mid, End: mid, New: []string{"Q", "_9", "é"}[r.IntN(3)]}
		case x.kind == token.IDENT:
			e = edit.Edit{Start: x.off, End: x.off + len(x.lit), New: []string{"func", "x y", "x.y", "1x"}[r.IntN(4)]}
		case x.kind == token.STRING && !near:
			e = edit.Edit{Start: mid, End: mid, New: []string{"z", "Buffer"}[r.IntN(2)]}
		case x.kind == token.STRING:
			e = edit.Edit{Start: mid, End: mid, New: []string{`\q`, `"`, "`", "\n"}[r.IntN(4)]}
		case !near:
			e = edit.Edit{Start: mid, End: mid, New: []string{" word", "line x", "go:build x"}[r.IntN(3)]}
		default:
			e = edit.Edit{Start: mid, End: mid, New: []string{"`", "*/", "\n", "\x00"}[r.IntN(4)]}
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b edit.Edit) int { return a.Start - b.Start })
	for i := 1; i < len(out); i++ {
		if out[i].Start == out[i-1].Start {
			return out[:i] // one edit per place
		}
	}
	return out
}

// guardGoBoundaryEdits returns edits of a Go file at one boundary between
// two top-level declarations, picked at random, where the region go/parser
// checks alone begins or ends (lang's goRegionAt): the one or two line
// endings after a declaration's closing brace replaced by nothing, a
// declaration without its final line ending, braces, an import, a block
// comment, a raw string or a function header opened, a statement, a
// semicolon or a comment.
func guardGoBoundaryEdits(r *rand.Rand, src []byte) [][]edit.Edit {
	var starts []int
	for _, kw := range []string{"}\n\nfunc ", "}\n\ntype ", "}\n\nvar ", "}\n\n// ", "}\nfunc "} {
		for i := 0; ; {
			j := bytes.Index(src[i:], []byte(kw))
			if j < 0 {
				break
			}
			starts = append(starts, i+j+1)
			i += j + 1
		}
	}
	if len(starts) == 0 {
		return nil
	}
	at := starts[r.IntN(len(starts))]
	var out [][]edit.Edit
	for _, p := range []string{"", "\n\nvar y = 1", "\n}", "\n}\n}\n", "\nimport \"fmt\"\n", "\n/*\n", "\n`\n", "\nfunc f() {\n", "\nx := 1\n", ";", "// c"} {
		for n := 1; n <= 2 && at+n <= len(src); n++ {
			out = append(out, []edit.Edit{{Start: at, End: at + n, New: p}})
		}
	}
	return out
}

// TestGuardGoRegion checks the corner cases of the region go/parser
// checks alone (lang's goRegionAt), each an edit that makes the file invalid
// although the region, parsed alone, would be valid: the shortcut must
// refuse it as the full check does.
func TestGuardGoRegion(t *testing.T) {
	lang, err := lang.ByName("go")
	if err != nil {
		t.Fatal(err)
	}
	const file = "package p\n\nimport \"os\"\n\nfunc a() {\n\tos.Exit(0)\n}\n\nfunc b() {\n} /*\nfunc z() {}\n*/\n\nvar x = 1; func c() {\n\tvar y = x\n}\n\nfunc d() {\n}\n\n\n\nvar v = 1; var w = 2\n"
	tests := []struct {
		name, old, new string
		region         bool // the shortcut parses the region only (the edit is valid)
	}{
		{"valid, inside a function", "func a() {\n", "func a() {\n\t_ = 2\n", true},
		{"valid, a new function", "\nfunc d() {", "\nfunc e() {}\n\nfunc d() {", true},
		{"the line ending before the next declaration", "}\n\nfunc d", "}func d", false},
		{"the end of a block comment that a region would start in", "func z() {}\n*/\n", "func z() {}\n\n", false},
		{"a declaration without its line ending before the next", "\tvar y = x\n}\n\n", "\tvar y = x\n}\n\nvar y = 1", false},
		{"an import after a declaration", "\tos.Exit(0)\n}\n", "\tos.Exit(0)\n}\n\nimport \"fmt\"\n", false},
		{"a function opened, the next inside it", "\tos.Exit(0)\n}\n", "\tos.Exit(0)\n}\nfunc e() {\n", false},
		{"a declaration's end on the line of another's start", "\tvar y = x\n}", "\tvar y = x\n", false},
		{"a declaration on the line of the next's start", "var v = 1;", "var v =;", false},
		{"the package clause", "package p\n", "package p;;\n", false},
		{"a block comment opened", "\n\nfunc d() {\n}\n", "\n\n/*func d() {\n}\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := []byte(file)
			i := bytes.Index(before, []byte(tt.old))
			if i < 0 {
				t.Fatal("no", tt.old)
			}
			edits := []edit.Edit{{Start: i, End: i + len(tt.old), New: tt.new}}
			after, err := edit.Apply(before, edits)
			if err != nil {
				t.Fatal(err)
			}
			guardGoCheckRegion(t, lang, before, after, edits, tt.region, !tt.region)
		})
	}
}

// TestGuardBeforeCleanIgnored checks that GuardOptions.Before.Clean
// changes nothing outside Go, even when the word is wrong (the content
// before has errors): the full check runs and reports the errors before;
// and that in Go a wrong word that go/scanner catches (an unterminated
// raw string before) falls back to parsing the content before.
func TestGuardBeforeCleanIgnored(t *testing.T) {
	tests := []struct{ lang, before, old, new string }{
		{"python", "def f(:\n    return 1\n\n\ndef g():\n    return 2\n", "return 2", "return (2"},
		{"python", "def f(:\n    return 1\n\n\ndef g():\n    return 2\n", "return 2", "return 3"},
		{"java", "class A {\n  void f() { int x = ; }\n  void g() { }\n}\n", "void g() { }", "void g() { int y = 1; }"},
		{"typescript", "function f( {\n}\nfunction g() {\n}\n", "function g() {\n}", "function g() {\n  let x = ;\n}"},
		{"go", "package p\n\nvar s = `x\n\nfunc g() {\n}\n", "func g() {\n}", "func g() {\n\tx := 1\n}"},
	}
	for _, tt := range tests {
		lang, err := lang.ByName(tt.lang)
		if err != nil {
			t.Fatal(err)
		}
		before := []byte(tt.before)
		i := bytes.Index(before, []byte(tt.old))
		if i < 0 {
			t.Fatal("no", tt.old)
		}
		edits := []edit.Edit{{Start: i, End: i + len(tt.old), New: tt.new}}
		after, err := edit.Apply(before, edits)
		if err != nil {
			t.Fatal(err)
		}
		without, err := CheckSyntax(context.Background(), lang, before, after, edits, GuardOptions{})
		if err != nil {
			t.Fatal(err)
		}
		with, err := CheckSyntax(context.Background(), lang, before, after, edits, GuardOptions{Before: guardClean(lang, before, nil)})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(with, without) || !with.Checked || with.Before == 0 {
			t.Errorf("%s %q -> %q: the word that before is clean changes the report or the errors before are not counted:\nwith    %+v\nwithout %+v", tt.lang, tt.old, tt.new, with, without)
		}
	}
}

// TestGuardGoRegions checks edits in several top-level declarations with
// untouched ones between: each run of edited declarations is its own
// region, parsed alone (lang's TestGoRegions counts the regions of the
// same edits); the edit is accepted only when every region parses, and a
// refusal is the full check's.
func TestGuardGoRegions(t *testing.T) {
	lang, err := lang.ByName("go")
	if err != nil {
		t.Fatal(err)
	}
	const file = "package p\n\nimport \"os\"\n\nfunc a() {\n\tos.Exit(0)\n}\n\nfunc b() {\n}\n\n// c does nothing.\nfunc c() {\n}\n\nfunc d() {\n\tos.Exit(1)\n}\n\nvar v = 1\n"
	type sub struct{ old, new string }
	tests := []struct {
		name   string
		subs   []sub
		region bool // the shortcut parses the regions only (the edit is valid)
		valid  bool // go/parser accepts the content after
	}{
		{"two functions apart", []sub{{"os.Exit(0)", "os.Exit(2)"}, {"os.Exit(1)", "os.Exit(3)"}}, true, true},
		{"two neighbours merge", []sub{{"func b() {\n}", "func b() {\n\t_ = 1\n}"}, {"func c() {\n}", "func c() {\n\t_ = 2\n}"}}, true, true},
		{"three, the last a variable", []sub{{"os.Exit(0)", "os.Exit(2)"}, {"func c() {\n}", "func c() {\n\t_ = 2\n}"}, {"var v = 1", "var v = 2"}}, true, true},
		{"the second breaks", []sub{{"os.Exit(0)", "os.Exit(2)"}, {"os.Exit(1)\n}", "os.Exit(1)\n"}}, false, false},
		{"the first breaks", []sub{{"os.Exit(0)", "os.Exit(0"}, {"var v = 1", "var v = 2"}}, false, false},
		{"a comment opened in the first, closed in the last", []sub{{"os.Exit(0)\n}", "os.Exit(0)\n}\n/*"}, {"\nvar v = 1", "*/\nvar v = 1"}}, false, true},
		{"a function left open in the first", []sub{{"os.Exit(0)\n}", "os.Exit(0)\n"}, {"os.Exit(1)", "os.Exit(3)"}}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := []byte(file)
			var edits []edit.Edit
			for _, s := range tt.subs {
				i := bytes.Index(before, []byte(s.old))
				if i < 0 {
					t.Fatal("no", s.old)
				}
				edits = append(edits, edit.Edit{Start: i, End: i + len(s.old), New: s.new})
			}
			after, err := edit.Apply(before, edits)
			if err != nil {
				t.Fatal(err)
			}
			guardGoCheckRegion(t, lang, before, after, edits, tt.region, !tt.valid)
		})
	}
}

// TestGuardGoDeclsFrom checks that a layout that does not fit the content
// (GuardOptions.Before.Layout from some other bytes) is ignored, not
// trusted: the report is the one without it.
func TestGuardGoDeclsFrom(t *testing.T) {
	golang, err := lang.ByName("go")
	if err != nil {
		t.Fatal(err)
	}
	before := []byte("package p\n\nfunc a() {\n}\n\nfunc b() {\n}\n")
	sf, err := symbols.ExtractFile(context.Background(), before, golang)
	if err != nil || sf.Layout == nil {
		t.Fatal("no layout:", err)
	}
	bad := []*lang.Layout{
		nil,
		{PackageEnd: 0},
		{PackageEnd: len(before) + 1},
		{PackageEnd: 9, Decls: []lang.Decl{{Start: 11, End: 200}}},
		{PackageEnd: 9, Decls: []lang.Decl{{Start: 24, End: 35}, {Start: 11, End: 23}}},
		{PackageEnd: 9, Decls: []lang.Decl{{Start: 5, End: 23}}},
		{PackageEnd: 9, Decls: []lang.Decl{{Start: 23, End: 11}}},
	}
	i := bytes.Index(before, []byte("func b() {\n}"))
	edits := []edit.Edit{{Start: i, End: i + len("func b() {\n}"), New: "func b() {\n"}} // breaks the file
	after, err := edit.Apply(before, edits)
	if err != nil {
		t.Fatal(err)
	}
	want, err := CheckSyntax(context.Background(), golang, before, after, edits, GuardOptions{})
	if err != nil || !want.Rejects(CheckStrict) {
		t.Fatalf("the broken edit is not refused: %v %+v", err, want)
	}
	for _, l := range bad {
		got, err := CheckSyntax(context.Background(), golang, before, after, edits, GuardOptions{Before: guardClean(golang, before, l)})
		if err != nil {
			t.Fatal(err)
		}
		got.goRegion = want.goRegion
		if !reflect.DeepEqual(got, want) {
			t.Errorf("layout %+v changes the report:\nwith    %+v\nwithout %+v", l, got, want)
		}
	}
}

// FuzzGuardGoRegions fuzzes the Go guard's shortcut with several edits at
// once (one region per run of edited declarations): for
// up to three edits at fuzzed places of a real Go file, the shortcut
// refuses exactly when the full check (tree-sitter's parses too) does,
// with the same new problems, and the caller's word that the file before
// is clean, with or without the layout of symbols' own parse, changes
// nothing in the report.
func FuzzGuardGoRegions(f *testing.F) {
	var srcs [][]byte
	for _, name := range []string{"slog_value.go", "atomic_type.go"} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "src", "go", name))
		if err != nil {
			f.Fatal(err)
		}
		srcs = append(srcs, b)
	}
	f.Add(uint8(0), uint(1200), "\t_ = 1\n", uint(5000), "", uint(9000), "// x\n")
	f.Add(uint8(1), uint(800), "}", uint(2500), "{", uint(4000), "")
	f.Add(uint8(0), uint(300), "\nfunc g() {}\n", uint(301), "/*", uint(7000), "*/")
	f.Add(uint8(1), uint(100), "import \"os\"\n", uint(3000), "x", uint(3001), "y")
	lang, err := lang.ByName("go")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, which uint8, p1 uint, s1 string, p2 uint, s2 string, p3 uint, s3 string) {
		before := srcs[int(which)%len(srcs)]
		// Three edits in order, each replacing up to 3 bytes at its place,
		// not overlapping (a later one that would is dropped).
		var edits []edit.Edit
		next := 0
		for _, e := range []struct {
			at  uint
			new string
		}{{p1, s1}, {p2, s2}, {p3, s3}} {
			at := int(e.at % uint(len(before)+1))
			if at < next {
				continue
			}
			end := min(at+len(e.new)%4, len(before))
			edits = append(edits, edit.Edit{Start: at, End: end, New: e.new})
			next = end + 1
		}
		after, err := edit.Apply(before, edits)
		if err != nil {
			t.Fatal(err)
		}
		fast, err := CheckSyntax(context.Background(), lang, before, after, edits, GuardOptions{})
		if err != nil {
			t.Fatal(err)
		}
		full, err := CheckSyntax(context.Background(), lang, before, after, edits, GuardOptions{goTree: true})
		if err != nil {
			t.Fatal(err)
		}
		if !fast.Checked || !full.Checked {
			t.Skip("not checked:", fast.Skipped, full.Skipped)
		}
		if fast.Rejects(CheckStrict) != full.Rejects(CheckStrict) || !reflect.DeepEqual(fast.New, full.New) {
			t.Fatalf("edits %+v:\nshortcut %+v\nfull     %+v", edits, fast, full)
		}
		sf, err := symbols.ExtractFile(context.Background(), before, lang)
		if err != nil || !sf.Clean {
			t.Fatalf("the fixture does not parse: %v", err)
		}
		for _, opt := range []GuardOptions{{Before: guardClean(lang, before, nil)}, {Before: guardClean(lang, before, sf.Layout)}} {
			word, err := CheckSyntax(context.Background(), lang, before, after, edits, opt)
			if err != nil {
				t.Fatal(err)
			}
			word.goRegion = fast.goRegion
			if !reflect.DeepEqual(word, fast) {
				t.Fatalf("edits %+v, layout %v: the word changes the report:\nwith    %+v\nwithout %+v", edits, opt.Before.Layout != nil, word, fast)
			}
		}
	})
}

// guardGoCheckRegion checks one Go edit three ways: the shortcut takes the
// regions alone exactly when region, refuses exactly when refused, with
// the full check's new problems (tree-sitter's parses too), and the
// caller's word that before is clean (GuardOptions.Before) changes nothing.
func guardGoCheckRegion(t *testing.T, lang *lang.Language, before, after []byte, edits []edit.Edit, region, refused bool) {
	t.Helper()
	fast, err := CheckSyntax(context.Background(), lang, before, after, edits, GuardOptions{})
	if err != nil {
		t.Fatal(err)
	}
	full, err := CheckSyntax(context.Background(), lang, before, after, edits, GuardOptions{goTree: true})
	if err != nil {
		t.Fatal(err)
	}
	if fast.goRegion != region || fast.Rejects(CheckStrict) != refused || !reflect.DeepEqual(fast.New, full.New) {
		t.Errorf("region %v, refused %v; want region %v, refused %v\nshortcut %+v\nfull     %+v", fast.goRegion, fast.Rejects(CheckStrict), region, refused, fast, full)
	}
	word, err := CheckSyntax(context.Background(), lang, before, after, edits, GuardOptions{Before: guardClean(lang, before, nil)})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(word, fast) {
		t.Errorf("the word that before is clean changes the report:\nwith    %+v\nwithout %+v", word, fast)
	}
}

// guardClean returns the caller's word that before (its text, without a
// byte order mark) parses clean as l, with layout (nil for none): a
// GuardOptions.Before without a tree, as symbols gives for Go that
// go/parser accepts.
func guardClean(l *lang.Language, before []byte, layout *lang.Layout) *lang.Parse {
	return &lang.Parse{Lang: l, Text: bytes.TrimPrefix(before, []byte(edit.UTF8BOM)), Clean: true, Layout: layout}
}

// TestGuardAfterWordIgnored: the word for the content after
// (GuardOptions.After) is taken only with Before's word, and only for
// the very bytes checked: an edit that breaks a Go file is still refused
// when After is of other bytes, is not Clean, or comes without Before.
func TestGuardAfterWordIgnored(t *testing.T) {
	golang, err := lang.ByName("go")
	if err != nil {
		t.Fatal(err)
	}
	before := []byte("package p\n\nfunc f() int {\n\treturn 1\n}\n")
	edits := []edit.Edit{{Start: bytes.Index(before, []byte("return 1")), End: bytes.Index(before, []byte("return 1")) + len("return 1"), New: "return (1"}}
	after, err := edit.Apply(before, edits)
	if err != nil {
		t.Fatal(err)
	}
	other := append([]byte(nil), after...)
	other[len(other)-2] = ' '
	for name, opt := range map[string]GuardOptions{
		"after of other bytes": {Before: guardClean(golang, before, nil), After: &lang.Parse{Lang: golang, Text: other, Clean: true}},
		"after not clean":      {Before: guardClean(golang, before, nil), After: &lang.Parse{Lang: golang, Text: after}},
		"no word for before":   {After: &lang.Parse{Lang: golang, Text: after, Clean: true}},
	} {
		rep, err := CheckSyntax(context.Background(), golang, before, after, edits, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Rejects(CheckStrict) {
			t.Errorf("%s: the broken edit passed: %+v", name, rep)
		}
	}
	// With both words, the check takes them (which is why a caller sets
	// them only from a parse of those bytes).
	rep, err := CheckSyntax(context.Background(), golang, before, after, edits, GuardOptions{Before: guardClean(golang, before, nil), After: &lang.Parse{Lang: golang, Text: after, Clean: true}})
	if err != nil || rep.Rejects(CheckStrict) || !rep.Checked {
		t.Errorf("both words: %+v, %v; want checked and passed on the caller's word", rep, err)
	}
}
