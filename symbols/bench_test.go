package symbols_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path"
	"regexp"
	"testing"

	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

// BenchmarkExtract extracts each fixture; b.SetBytes reports source bytes
// per second.
func BenchmarkExtract(b *testing.B) {
	for _, f := range fixtures(b) {
		b.Run(path.Base(f.Rel), func(b *testing.B) {
			b.SetBytes(int64(len(f.Src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := symbols.Extract(context.Background(), f.Src, f.Lang); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

var pyDefOrClass = regexp.MustCompile(`(?m)^(\s*(?:async\s+)?(?:def|class)\s+)(\w+)`)

// bigPython repeats the Python fixture contextlib_excerpt.py, renaming every
// def and class per copy, until it has at least minLines lines.
func bigPython(b *testing.B, minLines int) []byte {
	b.Helper()
	var seed []byte
	for _, f := range fixtures(b) {
		if path.Base(f.Rel) == "contextlib_excerpt.py" {
			seed = f.Src
		}
	}
	if seed == nil {
		b.Skip("fixture contextlib_excerpt.py missing")
	}
	var out bytes.Buffer
	for k := 0; bytes.Count(out.Bytes(), []byte{'\n'}) < minLines; k++ {
		out.Write(pyDefOrClass.ReplaceAll(seed, []byte(fmt.Sprintf("${1}${2}_%d", k))))
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// BenchmarkLocate resolves positions and name paths in a ~5,000-line file.
func BenchmarkLocate(b *testing.B) {
	src := bigPython(b, 5000)
	syms := extract(b, "python", string(src))
	lines := bytes.Count(src, []byte{'\n'})
	last := syms[len(syms)-1]
	b.Logf("%d lines, %d symbols", lines, len(syms))
	cases := []struct {
		name string
		loc  symbols.Location
	}{
		{"position/early", symbols.Location{Path: "big.py", Line: syms[len(syms)/10].Start.Line + 1, Column: 1}},
		{"position/middle", symbols.Location{Path: "big.py", Line: lines / 2}},
		{"position/end", symbols.Location{Path: "big.py", Line: last.Start.Line + 1, Column: 9}},
		{"name/exact", symbols.Location{Path: "big.py", NamePath: last.NamePath}},
		{"name/suffix", symbols.Location{Path: "big.py", NamePath: last.Name}},
		{"name/missing", symbols.Location{Path: "big.py", NamePath: "no_such_symbol"}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = symbols.Locate(syms, src, c.loc)
			}
		})
	}
}

// BenchmarkExtractTree extracts every non-test .go file of
// $GOROOT/src/net/http: "extract" with Extract (go/parser), "tree-sitter"
// with the tree-sitter path that Go source takes when go/parser refuses it
// (the extractor before Go moved to go/parser), side by side in one run.
func BenchmarkExtractTree(b *testing.B) {
	files := goFiles(b, gorootSrc(b, "net/http"))
	goLang := language(b, "go")
	var srcs [][]byte
	var total int64
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
		total += int64(len(src))
	}
	for _, path := range []struct {
		name    string
		extract func(context.Context, []byte, *lang.Language) ([]symbols.Symbol, error)
	}{{"extract", symbols.Extract}, {"tree-sitter", symbols.ExtractTreeSitter}} {
		b.Run(path.name, func(b *testing.B) {
			b.SetBytes(total)
			b.ReportAllocs()
			for b.Loop() {
				for _, src := range srcs {
					if _, err := path.extract(context.Background(), src, goLang); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
