package symbols_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

// This file compares symedit's symbols with the definitions a language's
// own parser reports through a helper script (rubydefs.rb, phpdefs.php in
// testdata/parsers), which prints them in one tab-separated format:
//
//	F <path> <status>        a file: "ok", or why the parser refused it
//	D <kind> <name path> <start line> <start col> <end line> <end col> <name line> <name col>
//	M <path> <detail...>     a mismatch inside the script's own sources
//
// Lines are 1-based, columns 1-based bytes, the end exclusive, the name
// path numbered "[2]", ... as symedit numbers same-named siblings.

// ownDef is one definition as either side reports it.
type ownDef struct {
	Kind     symbols.Kind
	NamePath string
	Start    symbols.Position
	End      symbols.Position
	Name     symbols.Position
}

func (d ownDef) String() string {
	return fmt.Sprintf("%s %s %d:%d-%d:%d name %d:%d", d.Kind, d.NamePath, d.Start.Line, d.Start.Column,
		d.End.Line, d.End.Column, d.Name.Line, d.Name.Column)
}

// ownFile is one file of a helper script's output.
type ownFile struct {
	Path   string
	Status string // "ok", or the parser's refusal
	Defs   []ownDef
	// Mismatches are the script's own "M" lines for the file.
	Mismatches []string
}

// parseOwnDefs reads a helper script's output.
func parseOwnDefs(t *testing.T, out []byte) []*ownFile {
	t.Helper()
	var files []*ownFile
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		switch {
		case f[0] == "F" && len(f) == 3:
			files = append(files, &ownFile{Path: f[1], Status: f[2]})
		case f[0] == "M" && len(files) > 0:
			last := files[len(files)-1]
			last.Mismatches = append(last.Mismatches, strings.Join(f[1:], " "))
		case f[0] == "D" && len(f) == 9 && len(files) > 0:
			var n [6]int
			for i := range n {
				v, err := strconv.Atoi(f[3+i])
				if err != nil {
					t.Fatalf("bad line %q", sc.Text())
				}
				n[i] = v
			}
			last := files[len(files)-1]
			last.Defs = append(last.Defs, ownDef{Kind: symbols.Kind(f[1]), NamePath: f[2],
				Start: symbols.Position{Line: n[0], Column: n[1]}, End: symbols.Position{Line: n[2], Column: n[3]},
				Name: symbols.Position{Line: n[4], Column: n[5]}})
		default:
			t.Fatalf("unexpected line %q", sc.Text())
		}
	}
	return files
}

// symeditDefs returns Extract's symbols of src as ownDefs.
func symeditDefs(t *testing.T, src []byte, l *lang.Language) []ownDef {
	t.Helper()
	syms, err := symbols.Extract(context.Background(), src, l)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]ownDef, len(syms))
	for i, s := range syms {
		out[i] = ownDef{Kind: s.Kind, NamePath: s.NamePath, Start: s.Start, End: s.End, Name: s.Selection}
	}
	return out
}

// ownComparison is what compareOwnDefs learned over a set of files.
type ownComparison struct {
	files, refused int
	defs           int // the definitions the parser reports
	found          int // of which symedit has one of the same kind and name path
	equal          int // of which every position is equal
	// missing, differ and extra describe the differences, a line each.
	missing, differ, extra []string
	// mismatches are the helper script's own mismatches.
	mismatches []string
	// gapFiles are the files the parser accepts and tree-sitter's
	// grammar does not (its error recovery may lose or misplace
	// definitions there); gapDiffs are their differences, which
	// missing, differ and extra do not hold.
	gapFiles, gapDiffs []string
}

// compareOwnDefs compares the helper's output, out, with symedit's
// symbols of each file it names, read as l.
func compareOwnDefs(t *testing.T, l *lang.Language, out []byte) ownComparison {
	t.Helper()
	var res ownComparison
	for _, f := range parseOwnDefs(t, out) {
		if f.Status != "ok" {
			res.refused++
			continue
		}
		res.files++
		for _, m := range f.Mismatches {
			res.mismatches = append(res.mismatches, f.Path+": "+m)
		}
		src, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		gap := treeSitterErrors(t, l, src)
		if gap {
			res.gapFiles = append(res.gapFiles, f.Path)
		}
		missing, differ, extra := &res.missing, &res.differ, &res.extra
		if gap {
			missing, differ, extra = &res.gapDiffs, &res.gapDiffs, &res.gapDiffs
		}
		got := map[string]ownDef{}
		for _, d := range symeditDefs(t, src, l) {
			got[string(d.Kind)+" "+d.NamePath] = d
		}
		for _, w := range f.Defs {
			res.defs++
			key := string(w.Kind) + " " + w.NamePath
			g, ok := got[key]
			if !ok {
				*missing = append(*missing, fmt.Sprintf("%s: the parser has %v, symedit does not", f.Path, w))
				continue
			}
			delete(got, key)
			res.found++
			if g != w {
				*differ = append(*differ, fmt.Sprintf("%s: the parser has %v, symedit %v", f.Path, w, g))
				continue
			}
			res.equal++
		}
		for _, g := range got {
			*extra = append(*extra, fmt.Sprintf("%s: symedit has %v, the parser does not", f.Path, g))
		}
	}
	sort.Strings(res.missing)
	sort.Strings(res.differ)
	sort.Strings(res.extra)
	sort.Strings(res.gapDiffs)
	return res
}

// treeSitterErrors reports whether tree-sitter's grammar for l finds a
// syntax error in src.
func treeSitterErrors(t *testing.T, l *lang.Language, src []byte) bool {
	t.Helper()
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(l.Grammar())
	tree, err := p.ParseCtx(context.Background(), nil, l.ParserInput(src))
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	return tree.RootNode().HasError()
}

// report logs res and fails t where it misses its bar: at least minFound
// of the parser's definitions found (1 for every one); outside the files
// where tree-sitter finds a syntax error, every found definition's
// positions equal and no definition that symedit has and the parser does
// not; no mismatch inside the helper. The differences in the files with
// a syntax error are logged.
func (res ownComparison) report(t *testing.T, name string, minFound float64) {
	t.Helper()
	const show = 60
	list := func(what string, lines []string) {
		for i, l := range lines {
			if i == show {
				t.Errorf("... and %d more %s", len(lines)-show, what)
				return
			}
			t.Error(l)
		}
	}
	t.Logf("%s: %d files (%d refused by the parser): %d definitions, %d found by symedit (%.2f%%), %d with every position equal; "+
		"%d files where tree-sitter finds a syntax error (%d differences there); %d differences elsewhere",
		name, res.files, res.refused, res.defs, res.found, 100*float64(res.found)/float64(max(res.defs, 1)), res.equal,
		len(res.gapFiles), len(res.gapDiffs), len(res.missing)+len(res.differ)+len(res.extra))
	for _, f := range res.gapFiles {
		t.Logf("grammar gap: tree-sitter finds a syntax error in %s", f)
	}
	for i, d := range res.gapDiffs {
		if i == show {
			t.Logf("... and %d more in those files", len(res.gapDiffs)-show)
			break
		}
		t.Log(d)
	}
	list("differences", res.differ)
	list("helper mismatches", res.mismatches)
	if res.defs == 0 {
		t.Errorf("%s: the parser reported no definitions", name)
		return
	}
	if float64(res.found) < minFound*float64(res.defs) {
		list("missing", res.missing)
		t.Errorf("%s: symedit finds %d of %d definitions (%.2f%%), below %.2f%%", name, res.found, res.defs,
			100*float64(res.found)/float64(res.defs), 100*minFound)
	} else {
		for i, m := range res.missing {
			if i == show {
				break
			}
			t.Log(m)
		}
	}
	list("extra symbols", res.extra)
}
