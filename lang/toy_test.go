package lang_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/guard"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

// toyDef is a language defined outside package lang, in this file alone:
// Python's grammar under the name "toy" and the extension ".toy", a
// query of its own, one rule, a modifier word, a second checker that
// refuses the word BAD, and three blank lines around top-level
// definitions. Nothing else in the repository knows of it.
var toyDef = lang.Definition{
	Name:       "toy",
	Extensions: []string{".toy"},
	Grammar:    python.GetLanguage,
	Query: []byte(`
(class_definition name: (identifier) @name body: (block) @scope) @definition.class
(function_definition name: (identifier) @name) @definition.function
`),
	Rules: lang.Rules{
		// A function in a class is a method; a function named _x is no
		// symbol.
		KindIn: func(k, parent string) string {
			if k == "function" && parent == "class" {
				return "method"
			}
			return k
		},
		Adjust: func(t *lang.Tree, c *lang.Candidate) bool {
			return !bytes.HasPrefix(t.Src()[c.Name.StartByte():], []byte("_"))
		},
		Widen: func(t *lang.Tree, n *sitter.Node) *sitter.Node {
			if p := t.Parent(n); p != nil && p.Type() == "decorated_definition" {
				return p
			}
			return n
		},
	},
	Anatomy: lang.Anatomy{CommentPrefixes: []string{"#"}, ModifierWords: []string{"pub"}, Decorators: true},
	Checker: &lang.Checker{
		Kind: "toy/bad",
		Check: func(src []byte) []lang.Problem {
			var out []lang.Problem
			for i := 0; ; {
				j := bytes.Index(src[i:], []byte("BAD"))
				if j < 0 {
					return out
				}
				out = append(out, lang.Problem{Start: i + j, End: i + j + 3, Message: "BAD is not allowed"})
				i += j + 3
			}
		},
	},
	TopLevelBlankLines: 3,
}

// TestToyLanguage checks that a language is added by one definition: the
// toy language above, put in a registry with the built-in ones, is
// selected by its extension, its symbols come from symbols.Extract with
// its query and rules, the guard runs its checker besides tree-sitter,
// and its head anatomy and blank-line style are its own; the built-in
// registry does not know it.
func TestToyLanguage(t *testing.T) {
	ctx := context.Background()
	toy := lang.New(toyDef)
	reg, err := lang.NewRegistry(append(lang.Languages(), toy)...)
	if err != nil {
		t.Fatal(err)
	}
	if l, err := reg.ForPath("dir/a.TOY"); err != nil || l != toy {
		t.Fatalf("ForPath(a.TOY) = %v, %v", l, err)
	}
	if l, err := reg.ByName("toy"); err != nil || l != toy {
		t.Fatalf("ByName(toy) = %v, %v", l, err)
	}
	if _, err := reg.ForPath("a.cob"); err == nil || !bytes.Contains([]byte(err.Error()), []byte(".toy")) {
		t.Errorf("the registry's unknown-extension error does not list .toy: %v", err)
	}
	if _, err := lang.ForPath("a.toy"); !errors.Is(err, lang.ErrUnknownLanguage) {
		t.Errorf("the built-in registry knows .toy: %v", err)
	}

	src := []byte("class A:\n    @dec\n    def f(self):\n        pass\n\n    def _hidden(self):\n        pass\n\n\ndef g():\n    return 1\n")
	syms, err := symbols.Extract(ctx, src, toy)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range syms {
		got = append(got, s.NamePath+" "+string(s.Kind)+" "+string(src[s.StartByte:s.StartByte+4]))
	}
	want := []string{"A class clas", "A/f method @dec", "g function def "}
	if len(got) != len(want) {
		t.Fatalf("symbols %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("symbol %d: %q, want %q", i, got[i], want[i])
		}
	}

	// The guard: an edit that writes BAD is refused by the toy checker,
	// one that breaks the syntax by tree-sitter, a good one passes.
	check := func(old, new string) guard.SyntaxReport {
		t.Helper()
		i := bytes.Index(src, []byte(old))
		edits := []edit.Edit{{Start: i, End: i + len(old), New: new}}
		after, err := edit.Apply(src, edits)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := guard.CheckSyntax(ctx, toy, src, after, edits, guard.GuardOptions{})
		if err != nil || !rep.Checked {
			t.Fatalf("CheckSyntax: %v %+v", err, rep)
		}
		return rep
	}
	if rep := check("return 1", "return BAD"); len(rep.New) != 1 || rep.New[0].Kind != "toy/bad" || rep.Language != "toy" {
		t.Errorf("BAD not refused by the toy checker: %+v", rep)
	}
	if rep := check("return 1", "return (1"); len(rep.New) == 0 || rep.New[0].Kind == "toy/bad" {
		t.Errorf("a syntax error not refused by tree-sitter: %+v", rep)
	}
	if rep := check("return 1", "return 2"); !rep.OK() {
		t.Errorf("a good edit refused: %+v", rep)
	}
	if rep, err := guard.FindSyntaxProblems(ctx, toy, []byte("x = BAD\n"), guard.GuardOptions{}); err != nil || len(rep.New) != 1 || rep.New[0].Kind != "toy/bad" {
		t.Errorf("FindSyntaxProblems: %v %+v", err, rep)
	}

	if got := symbols.TextLead(toy, "# c\npub def f():\n"); got != symbols.LeadModifier {
		t.Errorf("TextLead of a pub definition = %v", got)
	}
	if got := symbols.TextLead(toy, "@dec\ndef f():\n"); got != symbols.LeadDecorator {
		t.Errorf("TextLead of a decorated definition = %v", got)
	}
	if toy.BlankLines(true) != 3 || toy.BlankLines(false) != 1 {
		t.Errorf("BlankLines = %d, %d", toy.BlankLines(true), toy.BlankLines(false))
	}
	if toy.SendsOverloads(false, "def f(): pass") || toy.OwnExtract() != nil {
		t.Error("the toy language has overloads or an own parser")
	}
}
