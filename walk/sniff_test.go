package walk_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/symedit/symedit/walk"
)

// With DeferContentChecks the walk keeps a binary file and leaves its
// check to the caller (Result.Unchecked marks the walked files, not the
// named ones), and Sniff, on the bytes the caller read, makes the check
// the walk makes itself otherwise.
func TestDeferredChecksLeaveSniffToCaller(t *testing.T) {
	dir := t.TempDir()
	bin := "package b\n\x00"
	for name, content := range map[string]string{"a.go": "package a\n", "b.go": bin, "named.go": "package n\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "c.go"), []byte("package c\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	named := filepath.Join(dir, "named.go")

	r, err := walk.Expand([]string{sub, named, dir + "/*.go"}, walk.Options{DeferContentChecks: true})
	if err != nil {
		t.Fatal(err)
	}
	b := filepath.Join(dir, "b.go")
	unchecked := map[string]bool{}
	for i, f := range r.Files {
		unchecked[f] = r.Unchecked[i]
	}
	if !slices.Contains(r.Files, b) || r.Skipped[walk.SkipBinary] != 0 || !unchecked[b] || !unchecked[filepath.Join(sub, "c.go")] || unchecked[named] {
		t.Errorf("deferred: files %v, skipped %v, unchecked %v: want b.go kept for the caller to sniff", r.Files, r.Skipped, unchecked)
	}
	if content, _ := os.ReadFile(b); walk.Sniff(content, int64(len(content)), 0) != walk.SkipBinary {
		t.Errorf("Sniff of b.go: want %q", walk.SkipBinary)
	}

	r, err = walk.Expand([]string{sub, named, dir + "/*.go"}, walk.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(r.Files, b) || r.Skipped[walk.SkipBinary] != 1 || r.Unchecked != nil {
		t.Errorf("not deferred: files %v, skipped %v, unchecked %v: want b.go skipped as binary", r.Files, r.Skipped, r.Unchecked)
	}

	for _, tc := range []struct {
		head          string
		size, maxSize int64
		want          string
	}{
		{"package a\n", 10, 0, ""},
		{"a\x00", 2, 0, walk.SkipBinary},
		{"", 101, 100, walk.SkipTooLarge},
		{string(make([]byte, 8000)) + "x", 8001, 0, walk.SkipBinary},
	} {
		if got := walk.Sniff([]byte(tc.head), tc.size, tc.maxSize); got != tc.want {
			t.Errorf("Sniff(%.10q, %d, %d) = %q, want %q", tc.head, tc.size, tc.maxSize, got, tc.want)
		}
	}
	// A NUL past the first 8,000 bytes is not a binary file's mark.
	late := append(slices.Repeat([]byte("x"), 8000), 0)
	if got := walk.Sniff(late, int64(len(late)), 0); got != "" {
		t.Errorf("Sniff with a NUL at byte 8,000 = %q, want kept", got)
	}
}
