package app

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/ops"
)

// version is what `symedit version`, `symedit --version` and the MCP
// server's serverInfo report: the module version of
// the build ("(devel)" for a build from a source tree) and, when the build
// recorded them, the VCS revision, its time and whether the tree had
// uncommitted changes, from runtime/debug's build info:
// "v1.2.0 (revision 0123abcd..., 2026-11-24T20:00:00Z, modified)".
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown (no build information)"
	}
	return versionOf(bi)
}

// versionOf formats bi as version does.
func versionOf(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, at string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return v + " (no VCS revision recorded)"
	}
	parts := []string{"revision " + rev}
	if at != "" {
		parts = append(parts, at)
	}
	if modified {
		parts = append(parts, "modified")
	}
	return fmt.Sprintf("%s (%s)", v, strings.Join(parts, ", "))
}

func versionCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "version",
		Usage:     "print symedit's module version and VCS revision (as --version)",
		ArgsUsage: " ",
		Action: func(c *cli.Context) error {
			if _, err := e.positional(c, 0, 0, "no arguments"); err != nil {
				return err
			}
			_, err := fmt.Fprintf(e.stdout, "symedit %s\n", version())
			return err
		},
	}
}

// unknownCommand is the usage error for a command symedit does not have:
// it names the commands it has, so a mistyped name shows the right one.
func unknownCommand(a *cli.App, name string) error {
	var names []string
	for _, c := range a.Commands {
		if !c.Hidden {
			names = append(names, c.Name)
		}
	}
	return &ops.UsageError{Msg: fmt.Sprintf("unknown command %q; the commands are: %s", name, strings.Join(names, ", "))}
}
