package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSymbolsOutputOrder: symbols writes standard output in blocks when
// it is not a terminal, yet a file's error on standard error still comes
// between the files before and after it when both streams go to one
// writer (as `2>&1` into a file), and every file is printed once.
func TestSymbolsOutputOrder(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.go", "c.go"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("package p\n\nfunc F() {}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// b.go cannot be read for editing: it is not UTF-8 text.
	if err := os.WriteFile(filepath.Join(dir, "b.go"), []byte("package p\n// caf\xe9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, json := range []bool{false, true} {
		args := []string{"symedit", "symbols", "--no-cache"}
		if json {
			args = append(args, "--json")
		}
		var both bytes.Buffer
		code := Main(append(args, dir), strings.NewReader(""), &both, &both)
		out := both.String()
		a, b, c := strings.Index(out, "a.go"), strings.Index(out, "symedit: "+filepath.Join(dir, "b.go")), strings.Index(out, "c.go")
		if code == ExitOK || a < 0 || b < 0 || c < 0 || !(a < b && b < c) {
			t.Errorf("json %v: exit %d; a.go at %d, b.go's error at %d, c.go at %d:\n%s", json, code, a, b, c, out)
		}
		if strings.Count(out, "a.go") != 1 || strings.Count(out, filepath.Join(dir, "c.go")) != 1 {
			t.Errorf("json %v: a file printed twice or not at all:\n%s", json, out)
		}
	}
}
