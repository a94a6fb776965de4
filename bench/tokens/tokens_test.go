package main

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

// TestDeriveRealFunctions runs every edit kind on two real functions of the
// repository's fixtures, one Go and one Python: each edit's minimal chunks
// must reproduce the edited function (derive fails otherwise) and cost fewer
// tokens than the whole new body.
func TestDeriveRealFunctions(t *testing.T) {
	cases := []struct{ path, name, lang string }{
		{"../../testdata/src/go/slog_value.go", "Equal", "go"},
		{"../../testdata/src/python/process.py", "start", "python"},
	}
	for _, c := range cases {
		src, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		gl, err := lang.ByName(c.lang)
		if err != nil {
			t.Fatal(err)
		}
		syms, err := symbols.Extract(context.Background(), src, gl)
		if err != nil {
			t.Fatal(err)
		}
		k := slices.IndexFunc(syms, func(s symbols.Symbol) bool { return s.Name == c.name })
		if k < 0 {
			t.Fatalf("%s: no symbol %s", c.path, c.name)
		}
		first, last := syms[k].Start.Line, syms[k].LastLine()
		lines := strings.Split(string(src), "\n")[first-1 : last]
		f := &function{path: c.path, name: c.name, lang: c.lang, first: first, lines: slices.Clone(lines)}
		r := rand.New(rand.NewPCG(1, 2))
		n := 0
		for _, k := range editKinds {
			new, ok := k.apply(f, r)
			if !ok {
				continue
			}
			tx, err := derive(f, new)
			if err != nil {
				t.Fatalf("%s %s: %v", c.name, k.name, err)
			}
			if len(tx.chunks) >= len(tx.body) {
				t.Errorf("%s %s: chunk payload (%d bytes) not smaller than the body (%d)", c.name, k.name, len(tx.chunks), len(tx.body))
			}
			n++
		}
		if n < 3 {
			t.Errorf("%s: only %d edit kinds applied", c.name, n)
		}
	}
}
