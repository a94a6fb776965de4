package app

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/guard"
	"github.com/symedit/symedit/ops"
)

// workspace opens the ops.Workspace for c's flags (--root and the
// --allow-* permissions). The caller closes it.
func (e *env) workspace(c *cli.Context) (*ops.Workspace, error) {
	return ops.Open(ops.Options{Root: c.String("root"), AllowHardlinks: c.Bool("allow-hardlinks"),
		AllowReadOnly: c.Bool("allow-read-only"), AllowMetadataLoss: c.Bool("allow-metadata-loss"),
		NoJournal: c.Bool("no-journal")})
}

// writeOptions returns the write flags of c as an operation's options.
func writeOptions(c *cli.Context) ops.WriteOptions {
	return ops.WriteOptions{DryRun: c.Bool("dry-run"), Diff: c.Bool("diff"), Check: c.String("check"),
		ExpectSHA256: ops.SHA256(c.String("expect-sha256")), Lang: c.String("lang")}
}

// withWorkspace returns a command's action: it checks the arguments
// (between min and max of them, named names in messages; see positional),
// opens the workspace for the command's flags and runs run with both.
func (e *env) withWorkspace(min, max int, names string, run func(c *cli.Context, w *ops.Workspace, args []string) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		args, err := e.positional(c, min, max, names)
		if err != nil {
			return err
		}
		w, err := e.workspace(c)
		if err != nil {
			return err
		}
		defer w.Close()
		return run(c, w, args)
	}
}

// printResult prints a writing operation's result and returns the error
// that decides the exit code. full is the operation's whole result (res is
// its envelope) and err what the operation returned. With --json, full is
// printed as one line of JSON; else a summary line, the diff (--dry-run or
// --diff) and the syntax report, or, for a refusal, the diff of a dry run
// (Main prints the error itself).
func (e *env) printResult(c *cli.Context, full any, res *ops.Result, err error) error {
	if res.JournalError != "" && !c.Bool("json") {
		fmt.Fprintf(e.stderr, "warning: the write was made but %s\n", res.JournalError)
	}
	if c.Bool("json") {
		if werr := e.writeJSON(full); werr != nil {
			return werr
		}
		if err != nil {
			return errSilent{err}
		}
		return nil
	}
	return e.printText(c, res, err)
}

// printText prints res as text; for a refusal it prints a dry run's diff
// and returns err for Main to print.
func (e *env) printText(c *cli.Context, res *ops.Result, err error) error {
	if err != nil {
		if res.DryRun {
			fmt.Fprint(e.stdout, res.Diff)
		}
		return err
	}
	switch {
	case res.AlreadyApplied:
		fmt.Fprintf(e.stdout, "%s: %s\n", res.Path, res.Summary)
	case !res.Changed:
		fmt.Fprintf(e.stdout, "%s: unchanged (the new content is the same as the old), nothing written\n", res.Path)
	case res.DryRun:
		fmt.Fprintf(e.stderr, "%s: dry run, nothing written: %s\n", res.Path, res.Summary)
		fmt.Fprint(e.stderr, removedLine(res.Path, res.Symbols))
		fmt.Fprint(e.stdout, res.Diff)
	case c.Bool("diff"):
		// Standard output is the patch alone: > x.patch, git apply.
		fmt.Fprintf(e.stderr, "%s: %s\n", res.Path, res.Summary)
		fmt.Fprint(e.stderr, removedLine(res.Path, res.Symbols))
		fmt.Fprint(e.stdout, res.Diff)
	default:
		fmt.Fprintf(e.stdout, "%s: %s\n", res.Path, res.Summary)
		fmt.Fprint(e.stdout, removedLine(res.Path, res.Symbols))
	}
	if res.Syntax == nil {
		return nil
	}
	rep := res.Syntax.Report()
	switch {
	case !rep.OK():
		fmt.Fprintf(e.stderr, "warning: the edit adds %d syntax error(s):\n%s", len(rep.New), rep.Format(res.Path))
	case rep.Skipped != "" && rep.SkipCode != guard.SkipCheckOff:
		fmt.Fprint(e.stderr, "note: "+rep.Format(res.Path))
	case len(rep.Notes) > 0:
		fmt.Fprint(e.stderr, rep.Format(res.Path)) // tree-sitter-only errors in Go
	}
	return nil
}

// removedLine returns the line that names the symbols a write removed
// ("PATH: removed 2 symbol(s): parse_args (function), main (function)";
// past ten, "... and N more"),
// so that a person sees what an edit took away before trusting it; ""
// when it removed none.
func removedLine(path string, c *ops.SymbolChanges) string {
	if c == nil || len(c.Removed) == 0 {
		return ""
	}
	const most = 10 // a file emptied names its first symbols, not all
	var names []string
	for _, s := range c.Removed[:min(len(c.Removed), most)] {
		names = append(names, fmt.Sprintf("%s (%s)", s.NamePath, s.Kind))
	}
	more := ""
	if n := len(c.Removed) - most; n > 0 {
		more = fmt.Sprintf(" and %d more", n)
	}
	return fmt.Sprintf("%s: removed %d symbol(s): %s%s\n", path, len(c.Removed), strings.Join(names, ", "), more)
}
