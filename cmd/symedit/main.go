// Command symedit edits source code by symbol, precisely and safely, for
// coding agents and shell scripts. See package
// github.com/symedit/symedit/cmd/symedit/internal/app for its usage and
// exit codes, or run symedit --help.
package main

import (
	"os"

	"github.com/symedit/symedit/cmd/symedit/internal/app"
)

func main() {
	os.Exit(app.Main(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
