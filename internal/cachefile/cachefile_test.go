package cachefile_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/symedit/symedit/internal/cachefile"
)

// TestWriteAtomic: the file holds the data with mode 0600 in folders made
// 0700; a write that cannot be renamed into place (a folder there) leaves
// no temporary file and the folder as it was.
func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a", "b", "entry")
	if err := cachefile.WriteAtomic(path, ".tmp-", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "x" {
		t.Fatalf("read %q, %v", b, err)
	}
	for p, want := range map[string]os.FileMode{path: 0o600, filepath.Dir(path): 0o700 | os.ModeDir} {
		if fi, err := os.Stat(p); err != nil || fi.Mode() != want {
			t.Errorf("%s: mode %v, %v; want %v", p, fi.Mode(), err, want)
		}
	}
	blocked := filepath.Join(dir, "a", "b", "sub")
	if err := os.Mkdir(blocked, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(blocked, "keep"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := cachefile.WriteAtomic(blocked, ".tmp-", []byte("y")); err == nil {
		t.Fatal("renamed over a folder that is not empty")
	}
	left, _ := filepath.Glob(filepath.Join(dir, "a", "b", ".tmp-*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
