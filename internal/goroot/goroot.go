// Package goroot finds the Go installation whose source tree the tests
// read as real input: `go env GOROOT`, not runtime.GOROOT (deprecated: it
// is the root the binary was built with, meaningless once copied).
package goroot

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Src returns $(go env GOROOT)/src, or "" if the go command is not on the
// PATH or fails. The answer is computed once per process.
var Src = sync.OnceValue(func() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	root := strings.TrimSpace(string(out))
	if root == "" {
		return ""
	}
	return filepath.Join(root, "src")
})

// Sample returns every step-th .go file of Src's tree (testdata included:
// some of those files do not parse) that is under 300 KB, by path, in
// walk order; it skips tb when the tree cannot be walked or yields none.
func Sample(tb testing.TB, step int) map[string][]byte {
	tb.Helper()
	files := map[string][]byte{}
	i := 0
	err := filepath.WalkDir(Src(), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		if i++; i%step != 0 {
			return nil
		}
		b, err := os.ReadFile(path)
		if err == nil && len(b) < 300_000 {
			files[path] = b
		}
		return nil
	})
	if err != nil || len(files) == 0 {
		tb.Skip("no GOROOT source:", err)
	}
	return files
}
