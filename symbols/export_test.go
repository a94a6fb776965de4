package symbols

import (
	"context"

	"github.com/symedit/symedit/lang"
)

// ExtractTreeSitter is Extract's tree-sitter path, which Go source takes
// only when go/parser refuses it: the tests compare the two paths on Go
// source that go/parser accepts.
func ExtractTreeSitter(ctx context.Context, src []byte, lang *lang.Language) ([]Symbol, error) {
	f, _, err := extractTree(ctx, src, lang, lang.ParserInput(src), false)
	return f.Symbols, err
}

// TreeClean reports whether f's symbols came from a tree-sitter tree with
// no ERROR or MISSING node (File.treeClean).
func TreeClean(f File) bool { return f.treeClean }
