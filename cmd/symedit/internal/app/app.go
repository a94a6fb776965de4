package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/ops"
)

// env is what a command reads and writes besides files.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// literal is how many of the last arguments follow a "--", which
	// ends the flags: those may start with "-".
	literal int
	// words names a refusal's remedy: the CLI's flags, or an MCP tool's
	// fields.
	words words
}

// Main runs symedit with args (args[0] is the program name) and returns the
// exit code: ExitOK, ExitRejected or ExitError. It never calls os.Exit.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return run(&env{stdin: stdin, stdout: stdout, stderr: stderr}, args)
}

// commands returns symedit's commands, in the order help lists them.
func commands(e *env) []*cli.Command {
	return append([]*cli.Command{
		symbolsCommand(e),
		checkCommand(e),
		showCommand(e),
		chunkCommand(e),
		editCommand(e),
		linesCommand(e),
		replaceCommand(e),
		writeCommand(e),
		applyCommand(e),
		batchCommand(e),
		undoCommand(e),
		journalCommand(e),
		mcpCommand(e),
		versionCommand(e),
	}, symbolCommands(e)...)
}

// run is Main for an env.
func run(e *env, args []string) int {
	stdout, stderr := e.stdout, e.stderr
	if i := slices.Index(args, "--"); i >= 0 {
		e.literal = len(args) - i - 1
	}
	a := &cli.App{
		Name:      "symedit",
		Usage:     "edit code by symbol, precisely and safely",
		UsageText: "symedit [command] [flags] ARGS...  (flags go before the arguments)",
		Description: "Exit codes: 0 done; 1 rejected (no such symbol, ambiguous, a chunk failed a check), the file unchanged;\n" +
			"2 usage, input or I/O error.",
		Version:        version(),
		Writer:         stdout,
		ErrWriter:      stderr,
		ExitErrHandler: func(*cli.Context, error) {}, // Main decides exit codes
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return &ops.UsageError{Msg: err.Error()}
		},
		Commands: commands(e),
	}
	// An unknown command reaches urfave/cli's help machinery, which calls
	// CommandNotFound; it is a usage error (exit 2) naming the commands.
	var notFound string
	a.CommandNotFound = func(_ *cli.Context, name string) { notFound = name }
	for _, c := range a.Commands {
		c.OnUsageError = a.OnUsageError
	}
	err := a.Run(args)
	if err == nil && notFound != "" {
		err = unknownCommand(a, notFound)
	}
	if err == nil {
		return ExitOK
	}
	var silent errSilent
	if !errors.As(err, &silent) {
		e.printError(stderr, err)
	}
	return exitCode(err)
}

// positional returns the command's arguments after checking that there are
// between min and max of them (max < 0: no limit) and that no flag follows
// them: urfave/cli stops parsing flags at the first argument, so a flag
// there would otherwise be taken as an argument or silently ignored. After
// "--" every argument is taken as one, as with any Unix tool.
func (e *env) positional(c *cli.Context, min, max int, names string) ([]string, error) {
	args := c.Args().Slice()
	for i, a := range args {
		if len(args)-i <= e.literal {
			break // after "--": an argument, whatever it looks like
		}
		if len(a) > 1 && strings.HasPrefix(a, "-") {
			return nil, &ops.UsageError{Msg: fmt.Sprintf("%s: flag %s after the arguments; flags go before them: symedit %s [flags] %s",
				c.Command.Name, a, c.Command.Name, names)}
		}
	}
	if len(args) < min || (max >= 0 && len(args) > max) {
		return nil, &ops.UsageError{Msg: fmt.Sprintf("%s: want %s, got %d argument(s)", c.Command.Name, names, len(args))}
	}
	return args, nil
}

// readInput reads a path, or standard input for "-".
func (e *env) readInput(name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(e.stdin)
	}
	return os.ReadFile(name)
}

// writeJSON prints v as one line of JSON.
func (e *env) writeJSON(v any) error {
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// langFlag and jsonFlag return new flags on every call: urfave/cli writes
// to a flag when it parses one, so a flag value shared between commands
// (or between concurrent runs of Main) would be shared mutable state.
func langFlag() cli.Flag {
	// The names come from the registry, so that a language added there is
	// listed here too.
	return &cli.StringFlag{Name: "lang", Usage: "parse as `NAME` (" + strings.Join(lang.Default().Names(), ", ") + ") instead of by extension; a .h file is c unless --lang cpp"}
}

func jsonFlag() cli.Flag { return &cli.BoolFlag{Name: "json", Usage: "print machine-readable JSON"} }
