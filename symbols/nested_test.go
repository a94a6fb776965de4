package symbols_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/symedit/symedit/internal/probe"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

// nestedTS is TypeScript whose symbols nest depth deep: functions in
// functions, namespaces in namespaces, or (kind "class") classes in
// methods of classes, each class with its method (2*depth symbols).
func nestedTS(depth int, kind string) []byte {
	var b strings.Builder
	for i := range depth {
		if kind == "class" {
			fmt.Fprintf(&b, "class C%d {\nm%d() {\n", i, i)
			continue
		}
		fmt.Fprintf(&b, "%s n%d%s {\n", kind, i, map[string]string{"function": "()"}[kind])
	}
	closing := "}\n"
	if kind == "class" {
		closing = "}\n}\n"
	}
	b.WriteString(strings.Repeat(closing, depth))
	return []byte(b.String())
}

// TestExtractNestedLinear: the parents and siblings of deeply nested
// definitions come from one walk of the tree (probe.TreeNodes), which
// grows with the input, never from tree-sitter's own parent lookup
// (probe.TreeClimbs), which descends from the root for each question and
// made 4 times the depth cost 12 to 16 times as much.
func TestExtractNestedLinear(t *testing.T) {
	lang, err := lang.ByName("typescript")
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"function", "namespace", "class"} {
		walk := func(depth int) int64 {
			nodes, climbs := probe.TreeNodes.Load(), probe.TreeClimbs.Load()
			syms, err := symbols.Extract(context.Background(), nestedTS(depth, kind), lang)
			want := depth
			if kind == "class" {
				want = 2 * depth // each class and its method
			}
			if err != nil || len(syms) != want || syms[want-1].Parent != want-2 {
				t.Fatalf("%s nested %d deep: %d symbols, %v", kind, depth, len(syms), err)
			}
			if n := probe.TreeClimbs.Load() - climbs; n != 0 {
				t.Errorf("%s nested %d deep: %d parent or sibling lookups by tree-sitter, want none", kind, depth, n)
			}
			return probe.TreeNodes.Load() - nodes
		}
		if small, large := walk(250), walk(1000); large > 5*small {
			t.Errorf("%s: %d nodes walked 250 deep, %d 1000 deep: want at most 5x for 4x the input", kind, small, large)
		}
	}
}

// BenchmarkExtractNested extracts TypeScript functions, and classes with
// methods, nested 500 and 2,000 deep: the ratio of the two ns/op is about
// 4 when the extraction is linear (it was 12 to 16 for functions, from
// tree-sitter's parent lookups, and about 10 for classes, from query
// patterns on a class body, whose state lived through the whole body).
func BenchmarkExtractNested(b *testing.B) {
	lang, err := lang.ByName("typescript")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		kind  string
		depth int
	}{{"function", 500}, {"function", 2000}, {"class", 500}, {"class", 2000}} {
		src := nestedTS(c.depth, c.kind)
		b.Run(fmt.Sprintf("%s/depth=%d", c.kind, c.depth), func(b *testing.B) {
			for b.Loop() {
				if _, err := symbols.Extract(context.Background(), src, lang); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestMembersOnlyOfClassBodies: a method is a symbol in a class body
// only, not in an object literal or an interface, now that the query
// leaves the class body to the rules.
func TestMembersOnlyOfClassBodies(t *testing.T) {
	for _, name := range []string{"typescript", "javascript"} {
		lang, err := lang.ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		src := "const o = { m() { return 1; } };\nclass C {\n  constructor() {}\n  run() { return { n() {} }; }\n}\n"
		if name == "typescript" {
			src += "interface I { s(): void; }\nabstract class A { abstract t(): void; u(): void; u(x?: number) {} }\n"
		}
		syms, err := symbols.Extract(context.Background(), []byte(src), lang)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range syms {
			got = append(got, s.NamePath+" "+string(s.Kind))
		}
		want := "C class|C/constructor constructor|C/run method"
		if name == "typescript" {
			want += "|I interface|A class|A/t method|A/u method"
		}
		if strings.Join(got, "|") != want {
			t.Errorf("%s: %q, want %q", name, strings.Join(got, "|"), want)
		}
	}
}
