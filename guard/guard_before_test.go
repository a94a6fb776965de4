package guard

import (
	"bytes"
	"context"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/internal/probe"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

// TestGuardBefore checks GuardOptions.Before, the caller's parse of the
// content before: with a parse of exactly the text checked the report is
// the one without it, one tree-sitter parse fewer (the content after's,
// and a full one to confirm a new problem); a parse of other bytes (one
// byte changed), of the text with its byte order mark, or as another
// language is ignored, the guard parsing as without it; and Before's tree
// is left as it was (the guard edits a copy), still the tree of its text.
func TestGuardBefore(t *testing.T) {
	tests := []struct {
		name, lang, before, old, new string
		refused                      bool
	}{
		{"python, valid", "python", "def f():\n    return 1\n\n\ndef g():\n    return 2\n", "return 2", "return 3", false},
		{"python, breaking", "python", "def f():\n    return 1\n\n\ndef g():\n    return 2\n", "return 2", "return (2", true},
		{"python, byte order mark", "python", "\uFEFFdef f():\n    return 1\n", "return 1", "return 3", false},
		{"python, CR lines", "python", "def f():\r    return 1\r\r\rdef g():\r    return 2\r", "return 2", "return 3\r    x = 1", false},
		{"python, errors elsewhere", "python", "def f(:\n    return 1\n\n\ndef g():\n    return 2\n", "return 2", "return 3", false},
		{"java, breaking", "java", "class A {\n  void f() { }\n  void g() { }\n}\n", "void g() { }", "void g() { int y = ; }", true},
		{"typescript, valid", "typescript", "function f() {\n}\nfunction g() {\n}\n", "function g() {\n}", "function g() {\n  let x = 1;\n}", false},
		{"go, an error elsewhere", "go", "package p\n\nfunc f() {\n\nfunc g() {\n}\n", "func g() {\n}", "func g() {\n\tx := 1\n\t_ = x\n}", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := lang.ByName(tt.lang)
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
			text := bytes.TrimPrefix(before, []byte(edit.UTF8BOM))
			check := func(opt GuardOptions) (SyntaxReport, int64) {
				t.Helper()
				var n atomic.Int64
				rep, err := CheckSyntax(probe.WithParses(context.Background(), &n), l, before, after, edits, opt)
				if err != nil {
					t.Fatal(err)
				}
				return rep, n.Load()
			}
			want, parses := check(GuardOptions{})
			if want.Rejects(CheckStrict) != tt.refused {
				t.Fatalf("refused %v, want %v: %+v", want.Rejects(CheckStrict), tt.refused, want)
			}
			_, snap, err := symbols.ExtractParse(context.Background(), text, l)
			if err != nil {
				t.Fatal(err)
			}
			defer snap.Close()
			if snap.Tree == nil {
				t.Fatal("symbols kept no tree")
			}
			tree := snap.Tree.RootNode().String()
			got, n := check(GuardOptions{Before: snap})
			if !reflect.DeepEqual(got, want) || n != parses-1 {
				t.Errorf("with Before, %d parses (want %d) and the report\n%+v\nwant\n%+v", n, parses-1, got, want)
			}
			if s := snap.Tree.RootNode().String(); s != tree || snap.Tree.RootNode().EndByte() != uint32(len(text)) {
				t.Errorf("Before's tree changed:\n%s\nwas\n%s", s, tree)
			}
			// Parses that do not stand for the text checked.
			other := bytes.Clone(text)
			other[len(other)-1] = ' '
			py, err := lang.ByName("python")
			if err != nil {
				t.Fatal(err)
			}
			if l == py {
				py = lang.New(lang.Definition{Name: "python2", Grammar: py.Grammar, Query: []byte("(function_definition name: (identifier) @name) @definition.function")})
			}
			for _, bad := range []*lang.Parse{
				{Lang: l, Text: other, Tree: snap.Tree},
				{Lang: l, Text: before, Tree: snap.Tree},
				{Lang: py, Text: text, Tree: snap.Tree},
			} {
				if bytes.Equal(bad.Text, text) && bad.Lang == l {
					continue // a BOM-less fixture: before is text
				}
				got, n := check(GuardOptions{Before: bad})
				if !reflect.DeepEqual(got, want) || n != parses {
					t.Errorf("with a Before of other text or language (%s, %d bytes), %d parses (want %d) and the report\n%+v\nwant\n%+v", bad.Lang.Name, len(bad.Text), n, parses, got, want)
				}
			}
		})
	}
}

// TestGuardBeforeNoEdit checks that an edit that changes nothing, with
// Before's tree, parses nothing and reports before's problems as after's.
func TestGuardBeforeNoEdit(t *testing.T) {
	l, err := lang.ByName("python")
	if err != nil {
		t.Fatal(err)
	}
	before := []byte("def f(:\n    return 1\n")
	_, snap, err := symbols.ExtractParse(context.Background(), before, l)
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	var n atomic.Int64
	ctx := probe.WithParses(context.Background(), &n)
	want, err := CheckSyntax(ctx, l, before, before, nil, GuardOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := CheckSyntax(ctx, l, before, before, nil, GuardOptions{Before: snap})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) || n.Load() != 1 || got.Before == 0 {
		t.Errorf("%d parses in all, want 1 (the check without Before's); report\n%+v\nwant\n%+v", n.Load(), got, want)
	}
}
