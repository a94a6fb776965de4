package guard_test

import (
	"context"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/guard"
	"github.com/symedit/symedit/lang"
)

// TestKeepAfter checks what the guard hands over of the content after an
// edit (GuardOptions.KeepAfter): for an edit it passes, a parse of that
// very text whose tree reads as a fresh parse's (the same S-expression);
// nothing for a refused edit (its tree had a new problem), nothing with
// the check off, and nothing for a Go edit go/parser accepts (tree-sitter
// did not run).
func TestKeepAfter(t *testing.T) {
	py, err := lang.Default().ByName("python")
	if err != nil {
		t.Fatal(err)
	}
	golang, err := lang.Default().ByName("go")
	if err != nil {
		t.Fatal(err)
	}
	src := string(guardFixture(t, "python/process.py"))
	at := strings.Index(src, "        self._check_closed()\n")
	if at < 0 {
		t.Fatal("fixture changed")
	}
	good := []edit.Edit{{Start: at, End: at, New: "        x = 1\n"}}
	bad := []edit.Edit{{Start: at, End: at, New: "        x = (\n"}}
	goSrc := "package p\n\nfunc f() int {\n\treturn 1\n}\n"
	goEdit := []edit.Edit{{Start: strings.Index(goSrc, "1\n"), End: strings.Index(goSrc, "1\n") + 1, New: "2"}}
	tests := []struct {
		name  string
		l     *lang.Language
		src   string
		edits []edit.Edit
		mode  guard.CheckMode
		kept  bool
	}{
		{"passed", py, src, good, guard.CheckStrict, true},
		{"refused", py, src, bad, guard.CheckStrict, false},
		{"check off", py, src, good, guard.CheckOff, false},
		{"go, go/parser accepts", golang, goSrc, goEdit, guard.CheckStrict, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			after, err := edit.Apply([]byte(tt.src), tt.edits)
			if err != nil {
				t.Fatal(err)
			}
			var got *lang.Parse
			calls := 0
			_, err = guard.CheckSyntax(context.Background(), tt.l, []byte(tt.src), after, tt.edits, guard.GuardOptions{Mode: tt.mode, KeepAfter: func(p *lang.Parse) { got = p; calls++ }})
			if err != nil {
				t.Fatal(err)
			}
			defer got.Close()
			if (got != nil) != tt.kept || calls > 1 {
				t.Fatalf("handed over %v (%d calls), want %v", got != nil, calls, tt.kept)
			}
			if got == nil {
				return
			}
			if !got.Of(tt.l, after) || got.Tree == nil {
				t.Fatalf("the parse handed over is not of the content after")
			}
			parser := sitter.NewParser()
			defer parser.Close()
			parser.SetLanguage(tt.l.Grammar())
			fresh, err := parser.ParseCtx(context.Background(), nil, tt.l.ParserInput(after))
			if err != nil {
				t.Fatal(err)
			}
			defer fresh.Close()
			if g, w := got.Tree.RootNode().String(), fresh.RootNode().String(); g != w {
				t.Errorf("the tree handed over differs from a fresh parse's")
			}
		})
	}
}
