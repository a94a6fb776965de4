package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/symedit/symedit/ops"
	"github.com/urfave/cli/v2"
)

// writeFlags are the flags every writing command takes: the modes of the
// shared edit layer (strict / interactive / verify-only), the
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
		&cli.BoolFlag{Name: "no-journal", EnvVars: []string{ops.EnvNoJournal}, Usage: "do not record the write in the journal (symedit undo cannot revert it)"},
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
// An argument that names no file is often the text itself, typed on the
// command line: the error says what the argument is.
func (e *env) readText(arg string) (string, error) {
	b, err := e.readInput(arg)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = fmt.Errorf("reading %s: %w", arg, pe.Err)
			if errors.Is(pe.Err, fs.ErrNotExist) {
				err = &ops.UsageError{Msg: fmt.Sprintf("TEXT %q names no file: TEXT is a file holding the text, or - to read it from standard input (as in: printf '%%s\\n' 'def f(): pass' | symedit insert-after LOCATION -)", abbreviate(arg, 40))}
			}
		}
		return "", err
	}
	return string(b), nil
}

// abbreviate returns s cut to n bytes and "..." when it is longer.
func abbreviate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// locationHelp is the help every command that names a symbol shows.
const locationHelp = "LOCATION names the symbol, in one of three forms:\n" +
	"  FILE::NAME_PATH   a name path joined with / (process.py::BaseProcess/start), or a unique suffix of one (process.py::start);\n" +
	"                    a second same-named sibling is name[2]\n" +
	"  FILE:LINE:COL     the innermost symbol at that 1-based line and 1-based byte column\n" +
	"  FILE:LINE         the same, at the line's first non-blank column\n"
