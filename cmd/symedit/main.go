// Command symedit edits source code by symbol, precisely and safely, for
// coding agents and shell scripts. See package
// github.com/symedit/symedit/cmd/symedit/internal/app for its usage and
// exit codes, or run symedit --help.
package main

import (
	"os"
	"runtime/debug"

	"github.com/symedit/symedit/cmd/symedit/internal/app"
)

// gcPercent is the garbage collector's target that symedit sets when the
// environment sets none (GOGC): a run allocates many short-lived values
// per file (tree-sitter nodes, matches, symbols) over a small live heap,
// and collecting when the heap has grown by 400% of the live heap
// rather than Go's default 100% cut the CPU time (user + system) of a
// cold symbols run by 8-22% in paired runs (docs/performance.md), for a
// higher peak resident set (130 MB to 180-200 MB over GOROOT/src, the
// Python stdlib and java.base).
const gcPercent = 400

func main() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
	os.Exit(app.Main(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
