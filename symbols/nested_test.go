package symbols_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/symedit/symedit/grammars"
	"github.com/symedit/symedit/internal/probe"
	"github.com/symedit/symedit/symbols"
)

// nestedTS is TypeScript whose symbols nest depth deep: functions in
// functions, or namespaces in namespaces.
func nestedTS(depth int, kind string) []byte {
	var b strings.Builder
	for i := range depth {
		fmt.Fprintf(&b, "%s n%d%s {\n", kind, i, map[string]string{"function": "()"}[kind])
	}
	b.WriteString(strings.Repeat("}\n", depth))
	return []byte(b.String())
}

// TestExtractNestedLinear: the parents and siblings of deeply nested
// definitions come from one walk of the tree (probe.TreeNodes), which
// grows with the input, never from tree-sitter's own parent lookup
// (probe.TreeClimbs), which descends from the root for each question and
// made 4 times the depth cost 12 to 16 times as much.
func TestExtractNestedLinear(t *testing.T) {
	lang, err := grammars.ByName("typescript")
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"function", "namespace"} {
		walk := func(depth int) int64 {
			nodes, climbs := probe.TreeNodes.Load(), probe.TreeClimbs.Load()
			syms, err := symbols.Extract(context.Background(), nestedTS(depth, kind), lang)
			if err != nil || len(syms) != depth || syms[depth-1].Parent != depth-2 {
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

// BenchmarkExtractNested extracts TypeScript functions nested 500 and
// 2,000 deep: the ratio of the two ns/op is about 4 when the extraction
// is linear (it was 12 to 16, from tree-sitter's parent lookups).
func BenchmarkExtractNested(b *testing.B) {
	lang, err := grammars.ByName("typescript")
	if err != nil {
		b.Fatal(err)
	}
	for _, depth := range []int{500, 2000} {
		src := nestedTS(depth, "function")
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) {
			for b.Loop() {
				if _, err := symbols.Extract(context.Background(), src, lang); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
