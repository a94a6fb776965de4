package ops_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/ops"
	"github.com/symedit/symedit/symbols"
)

// wholeLinesSHA256 is the SHA-256 of sym's whole lines in src, each
// ending in "\n": the text show prints and symbol_sha256 hashes, computed
// here from the file on disk, independently of ops.
func wholeLinesSHA256(t *testing.T, path string, src []byte, sym symbols.Symbol) string {
	t.Helper()
	doc, err := edit.NewDocument(path, src)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(doc.Lines(sym.Start.Line, doc.LineAt(max(sym.StartByte, sym.EndByte-1))), "\n") + "\n"
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// freshSymbols reads path's symbols from the file on disk, as a new
// symbols run would, by name path.
func freshSymbols(t *testing.T, path string) ([]byte, map[string]symbols.Symbol) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	l, err := lang.Default().ForPath(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := edit.NewDocument(path, src)
	if err != nil {
		t.Fatal(err)
	}
	syms, err := symbols.Extract(context.Background(), doc.Text, l)
	if err != nil {
		t.Fatal(err)
	}
	m := make(map[string]symbols.Symbol, len(syms))
	for _, s := range syms {
		m[s.NamePath] = s
	}
	return src, m
}

// TestReceiptSymbolsMatchFreshRead edits real files symbol by symbol (a
// blank line after each chosen symbol's first line, which changes its
// text and moves every symbol below it) and checks each result's receipt
// against a fresh read of the file on disk: the file's SHA-256 and line
// count; every added or changed symbol's range and SHA-256 equal to the
// fresh read's; the edited symbol listed as changed; every symbol not
// listed with the same text as before (moved, not changed); nothing
// removed. The guard hands its tree of the content after to the receipt,
// so this is also the check that the incremental tree reads as a fresh
// parse does.
func TestReceiptSymbolsMatchFreshRead(t *testing.T) {
	for _, fixture := range []string{
		"../testdata/src/python/process.py",
		"../testdata/src/go/slog_value.go",
		"../testdata/src/java/Inventory.java",
		"../testdata/src/typescript/scheduler.ts",
		"../testdata/src/rust/shapes.rs",
	} {
		t.Run(filepath.Base(fixture), func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Base(fixture)
			path := filepath.Join(dir, name)
			src, err := os.ReadFile(fixture)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, src, 0o644); err != nil {
				t.Fatal(err)
			}
			w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			_, first := freshSymbols(t, path)
			var multi []string
			for np, s := range first {
				if s.End.Line > s.Start.Line+1 {
					multi = append(multi, np)
				}
			}
			if len(multi) < 3 {
				t.Fatalf("%d multi-line symbols in %s", len(multi), name)
			}
			edited := 0
			for i, np := range multi {
				if i%max(1, len(multi)/6) != 0 {
					continue
				}
				before, syms := freshSymbols(t, path)
				sym := syms[np]
				after := sym.Start.Line
				res, err := w.Lines(context.Background(), ops.LinesRequest{Path: name, Edits: ops.LineEdits{{InsertAfter: &after, NewContent: "\n"}}})
				if err != nil {
					t.Fatalf("blank line after line %d (%s): %v", after, np, err)
				}
				edited++
				now, fresh := freshSymbols(t, path)
				if !res.Changed || len(now) <= len(before) {
					t.Fatalf("%s: the blank line was not written", np)
				}
				sum := sha256.Sum256(now)
				if res.SHA256After != hex.EncodeToString(sum[:]) {
					t.Errorf("%s: sha256_after %s, the file's is %x", np, res.SHA256After, sum)
				}
				if res.Symbols == nil {
					t.Fatalf("%s: no symbols in the receipt", np)
				}
				listed := map[string]bool{}
				for _, r := range append(append([]ops.SymbolReceipt(nil), res.Symbols.Added...), res.Symbols.Changed...) {
					listed[r.NamePath] = true
					f, ok := fresh[r.NamePath]
					if !ok {
						t.Errorf("%s: receipt lists %s, a fresh read has no such symbol", np, r.NamePath)
						continue
					}
					if f.Kind != r.Kind || f.Start != r.Start || f.End != r.End {
						t.Errorf("%s: receipt %s %s %v-%v, fresh read %s %v-%v", np, r.NamePath, r.Kind, r.Start, r.End, f.Kind, f.Start, f.End)
					}
					if want := wholeLinesSHA256(t, path, now, f); r.SHA256 != want {
						t.Errorf("%s: receipt's sha256 of %s is %s, the file's text has %s", np, r.NamePath, r.SHA256, want)
					}
				}
				if len(res.Symbols.Added) != 0 || len(res.Symbols.Removed) != 0 {
					t.Errorf("%s: a blank line added %v and removed %v", np, res.Symbols.Added, res.Symbols.Removed)
				}
				if !listed[np] {
					t.Errorf("%s: the edited symbol is not listed as changed: %+v", np, res.Symbols.Changed)
				}
				for fnp, f := range fresh {
					old, ok := syms[fnp]
					if !ok || listed[fnp] {
						continue
					}
					if wholeLinesSHA256(t, path, now, f) != wholeLinesSHA256(t, path, before, old) {
						t.Errorf("%s: %s changed but is not listed", np, fnp)
					}
				}
				if i == 0 {
					// The receipt's hash is the one show gives and
					// expect_symbol_sha256 takes.
					show, err := w.Show(context.Background(), ops.ShowRequest{Location: name + "::" + np})
					if err != nil {
						t.Fatal(err)
					}
					for _, r := range res.Symbols.Changed {
						if r.NamePath == np && r.SHA256 != show.SymbolSHA256 {
							t.Errorf("%s: receipt sha256 %s, show's symbol_sha256 %s", np, r.SHA256, show.SymbolSHA256)
						}
					}
				}
			}
			if edited < 3 {
				t.Fatalf("only %d edits made", edited)
			}
		})
	}
}

// TestReceiptRemovedSymbols writes a Python file without two of its
// functions: the receipt lists both as removed, with the ranges they had,
// and the one added function as added; the text a write prints names the
// removed ones (the CLI's scripts show that line).
func TestReceiptRemovedSymbols(t *testing.T) {
	dir := t.TempDir()
	src := "import sys\n\n\ndef parse_args(argv):\n    return argv[1:]\n\n\ndef main():\n    print(parse_args(sys.argv))\n\n\ndef helper():\n    return 1\n"
	if err := os.WriteFile(filepath.Join(dir, "cli.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	res, err := w.Write(context.Background(), ops.WriteRequest{Path: "cli.py", Content: "import sys\n\n\ndef helper():\n    return 1\n\n\ndef run():\n    return 0\n"})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Symbols
	if c == nil || len(c.Removed) != 2 || c.Removed[0].NamePath != "parse_args" || c.Removed[1].NamePath != "main" {
		t.Fatalf("removed: %+v", c)
	}
	if c.Removed[0].Start.Line != 4 || c.Removed[1].Start.Line != 8 {
		t.Errorf("removed ranges are not the old ones: %+v", c.Removed)
	}
	if len(c.Added) != 1 || c.Added[0].NamePath != "run" || c.Added[0].Start.Line != 8 {
		t.Errorf("added: %+v", c.Added)
	}
	if len(c.Changed) != 0 {
		t.Errorf("helper moved, not changed, yet: %+v", c.Changed)
	}
}

// TestSymbolsListsHashes checks the hashes a symbols listing gives,
// from a fresh parse and from the index: the file's is the SHA-256 of
// the file on disk, and each symbol's is show's symbol_sha256 for it,
// which a chunk's expect_symbol_sha256 then accepts.
func TestSymbolsListsHashes(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../testdata/src/rust/shapes.rs")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "shapes.rs"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := ops.Open(ops.Options{Root: dir, Dir: dir, IndexDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	sum := sha256.Sum256(src)
	// The first runs parse the file (until its change time is older than
	// the index's racily-clean margin, its entry is not stored); the
	// loop ends at the first run the index serves, so that both paths
	// are checked.
	for i, hit := 0, false; !hit; i++ {
		if i == 200 {
			t.Fatal("the index never served the file")
		}
		time.Sleep(10 * time.Millisecond) // not a time assertion: waits for the margin to pass
		res, err := w.Symbols(context.Background(), ops.SymbolsRequest{Path: "shapes.rs"})
		if err != nil {
			t.Fatal(err)
		}
		hit = res.Index.Hits == 1
		run := map[bool]string{false: "parsed", true: "from the index"}[hit]
		f := res.Files[0]
		if f.SHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("%s: file sha256 %s, want %x", run, f.SHA256, sum)
		}
		if len(f.Symbols) < 10 {
			t.Fatalf("%s: %d symbols", run, len(f.Symbols))
		}
		for _, s := range f.Symbols {
			show, err := w.Show(context.Background(), ops.ShowRequest{Location: "shapes.rs::" + s.NamePath})
			if err != nil {
				t.Fatal(err)
			}
			if s.SHA256 != show.SymbolSHA256 {
				t.Errorf("%s: %s: listed sha256 %s, show's %s", run, s.NamePath, s.SHA256, show.SymbolSHA256)
			}
		}
	}
}
