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
// and collecting at 4 times the live heap rather than Go's default of
// twice cut the CPU time of a cold symbols run by about a quarter (see
// docs/performance.md) for a peak that stays far below the cost of the
// trees themselves, which live in C memory the collector does not count.
const gcPercent = 400

func main() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
	os.Exit(app.Main(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
