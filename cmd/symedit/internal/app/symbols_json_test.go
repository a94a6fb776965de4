package app

import (
	"bytes"
	"context"
	stdjson "encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/symedit/symedit/internal/goroot"
	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/ops"
	"github.com/symedit/symedit/remedy"
	"github.com/symedit/symedit/symbols"
)

// stdRender is what encoding/json's Encoder writes for f with HTML
// escaping off: what renderJSON must write byte for byte.
func stdRender(t testing.TB, f *ops.SymbolsFile) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := stdjson.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(f); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestRenderJSONMatchesEncodingJSON: every file's symbols line, over the
// repository's fixtures and real trees of Go's own source, is byte for
// byte what encoding/json writes.
func TestRenderJSONMatchesEncodingJSON(t *testing.T) {
	roots := []string{"../../../../testdata/src"}
	src := goroot.Src()
	if src == "" {
		t.Fatal("no Go source tree: the go command is not on the PATH")
	}
	for _, d := range []string{"net/http", "go/types", "encoding/json", "unicode"} {
		roots = append(roots, filepath.Join(src, d))
	}
	if testing.Short() {
		roots = roots[:2]
	}
	w, err := ops.Open(ops.Options{Root: "/"})
	if err != nil {
		t.Fatal(err)
	}
	files, symbolsSeen := 0, 0
	for _, root := range roots {
		if _, err := os.Stat(root); err != nil {
			t.Fatalf("%s: %v", root, err)
		}
		_, err := w.Symbols(context.Background(), ops.SymbolsRequest{Path: root, NoCache: true,
			OnFile: func(f *ops.SymbolsFile, _ int) error {
				files++
				symbolsSeen += len(f.Symbols)
				if got, want := renderJSON(f), stdRender(t, f); !bytes.Equal(got, want) {
					t.Errorf("%s:\n got %s\nwant %s", f.Path, got, want)
				}
				return nil
			}})
		if err != nil {
			t.Fatalf("%s: %v", root, err)
		}
	}
	if files < 20 || symbolsSeen < 500 {
		t.Fatalf("compared %d files, %d symbols: too few to show anything", files, symbolsSeen)
	}
}

// TestRenderJSONStrings: the strings a file's line carries (its path,
// the symbols' names, an error's message and the values it may hold) are
// escaped as encoding/json escapes them: invalid UTF-8 as U+FFFD, control
// characters, U+2028 and U+2029, quotes and backslashes; < > & kept as
// they are; floats formatted alike.
func TestRenderJSONStrings(t *testing.T) {
	for _, s := range []string{"", "plain", "a\xffb", "caf\xe9", "\xed\xa0\x80", "\u2028\u2029", "<a href=\"x\">&amp;</a>",
		"\x00\x01\x1f\x7f", "\t\n\r\b\f", `quote " backslash \ slash /`, "é漢字🙂", "\xf0\x9f\x99", "trailing\\"} {
		f := &ops.SymbolsFile{Path: s, Language: "go", SHA256: s, Symbols: []ops.ListedSymbol{{
			Symbol: symbols.Symbol{Name: s, NamePath: s + "/" + s, Kind: symbols.Kind(s), Parent: -1,
				Start: symbols.Position{Line: 1, Column: 1}, End: symbols.Position{Line: 2, Column: 3}},
			SHA256: s}}}
		for _, e := range []*ops.Error{nil,
			{Code: ops.CodeError, Message: s, Line: 3, Expected: s, Actual: s, Candidates: []int{1, 2},
				Nearest: []ops.SimilarLine{{Path: s, Line: 1, Text: s, Similarity: 0.1}, {Path: s, Line: 2, Text: s, Similarity: 1.0 / 3}, {Similarity: 1e-7}, {Similarity: 1e21}},
				Hint:    &match.Hint{Line: 4}, Remedy: remedy.Set(remedy.Option("match"), s)}} {
			f.Error = e
			if got, want := renderJSON(f), stdRender(t, f); !bytes.Equal(got, want) {
				t.Errorf("%q:\n got %s\nwant %s", s, got, want)
			}
		}
	}
}

// FuzzRenderJSON: for any path and symbol name, renderJSON writes what
// encoding/json writes.
func FuzzRenderJSON(f *testing.F) {
	f.Add("a/b.go", "F", "func")
	f.Add("caf\xe9.py", "\u2028", "<&>")
	f.Fuzz(func(t *testing.T, path, name, kind string) {
		sf := &ops.SymbolsFile{Path: path, Language: kind, Symbols: []ops.ListedSymbol{{
			Symbol: symbols.Symbol{Name: name, NamePath: path + name, Kind: symbols.Kind(kind), Parent: -1}, SHA256: name}}}
		if got, want := renderJSON(sf), stdRender(t, sf); !bytes.Equal(got, want) {
			t.Errorf("got %s\nwant %s", got, want)
		}
	})
}
