package app

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/symedit/symedit/ops"
	"github.com/urfave/cli/v2"
)

// writeFlags are the flags every writing command takes: the modes of the
// shared edit layer (seed 003's strict / interactive / verify-only), the
// diff, JSON, confinement and the concurrency guards.
func writeFlags() []cli.Flag {
	return []cli.Flag{
		jsonFlag(), langFlag(),
		&cli.BoolFlag{Name: "dry-run", Usage: "write nothing; print the unified diff and the check results"},
		&cli.BoolFlag{Name: "diff", Usage: "also print the unified diff of what was written"},
		&cli.StringFlag{Name: "check", Value: "strict", Usage: "syntax guard `MODE`: strict (refuse an edit that adds syntax errors), warn (write and report them) or off"},
		&cli.StringFlag{Name: "root", EnvVars: []string{"SYMEDIT_ROOT"}, Usage: "confine every path to `DIR`; paths resolving outside it are refused"},
		&cli.BoolFlag{Name: "allow-hardlinks", Usage: "edit a file with several hard links (the write splits this name from the others)"},
		&cli.BoolFlag{Name: "allow-read-only", Usage: "replace a file this user may not write (the new file belongs to this user: another user's file also needs --allow-metadata-loss)"},
		&cli.BoolFlag{Name: "allow-metadata-loss", Usage: "write even if the new file cannot keep the owner, setuid/setgid/sticky bits or extended attributes (ACLs)"},
		hashFlag("expect-sha256", "refuse unless the file's content has this SHA-256 (`HEX`), as when it was read earlier"),
	}
}

// hashFlag is a flag taking a SHA-256. An empty hash would turn its check
// off: a caller that passes the flag believes the file is checked, so ""
// is a usage error.
func hashFlag(name, usage string) cli.Flag {
	return &cli.StringFlag{Name: name, Usage: usage,
		Action: func(_ *cli.Context, v string) error {
			if v == "" {
				return &ops.UsageError{Field: strings.ReplaceAll(name, "-", "_"), Msg: ops.EmptySHA256}
			}
			return nil
		}}
}

// symbolHashFlag is --expect-symbol-sha256, for the commands that name a
// symbol and write.
func symbolHashFlag() cli.Flag {
	return hashFlag("expect-symbol-sha256", "refuse unless the symbol's text has this SHA-256 (`HEX`, as show --json gives it), whatever else in the file changed")
}

// readFlags are the flags of commands that only read: JSON, language and
// confinement.
func readFlags() []cli.Flag {
	return []cli.Flag{jsonFlag(), langFlag(),
		&cli.StringFlag{Name: "root", EnvVars: []string{"SYMEDIT_ROOT"}, Usage: "confine every path to `DIR`"}}
}

// readText reads a BODY/TEXT argument: a file or "-" for standard input.
func (e *env) readText(arg string) (string, error) {
	b, err := e.readInput(arg)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return "", fmt.Errorf("reading %s: %w", arg, pe.Err)
		}
		return "", err
	}
	return string(b), nil
}
