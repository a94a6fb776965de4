// Package goroot finds the Go installation whose source tree the tests
// read as real input: `go env GOROOT`, not runtime.GOROOT (deprecated: it
// is the root the binary was built with, meaningless once copied).
package goroot

import (
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
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
