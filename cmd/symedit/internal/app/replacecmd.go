package app

import (
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/ops"
)

func replaceCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "replace",
		Usage: "search and replace in files: literal by default, --regex for Go RE2 patterns",
		Description: "With --regex, $1 and ${name} in REPLACEMENT expand submatches (\\1 is read as $1).\n" +
			"No match in any file is a rejection (exit 1) that shows similar lines. Every file is checked\n" +
			"before any is written, and each gets its line: replaced N, or refused with the reason (the\n" +
			"syntax guard's errors, an unreadable file). By default nothing is written unless every file\n" +
			"passes; --partial writes the files that pass (and still exits 1 or 2 if one was refused).\n" +
			"Each file is written atomically. FILE may be a folder or a quoted doublestar pattern, walked\n" +
			"as for symbols: then only the files with matches are listed.",
		ArgsUsage: "SEARCH REPLACEMENT FILE|DIR|PATTERN...",
		Flags: append(append(writeFlags(),
			&cli.BoolFlag{Name: "regex", Usage: "SEARCH is a Go RE2 regular expression"},
			&cli.BoolFlag{Name: "i", Usage: "match case-insensitively"},
			&cli.IntFlag{Name: "count", Usage: "replace at most the first `N` matches in each file (0: all)"},
			&cli.IntFlag{Name: "expect", Value: -1, Usage: "refuse unless there are exactly `N` matches over all files"},
			&cli.BoolFlag{Name: "partial", Usage: "write the files that pass, even when others are refused"},
		), walkFlags()...),
		Action: e.withWorkspace(3, -1, "SEARCH REPLACEMENT FILE...", func(c *cli.Context, w *ops.Workspace, args []string) error {
			return e.replace(c, w, args[0], args[1], args[2:])
		}),
	}
}

// replace runs `symedit replace`: SEARCH, REPLACEMENT, the FILE
// arguments and the flags into an ops.ReplaceRequest.
func (e *env) replace(c *cli.Context, w *ops.Workspace, search, replacement string, paths []string) error {
	req := ops.ReplaceRequest{Search: search, Replacement: replacement, Paths: paths, Regex: c.Bool("regex"),
		IgnoreCase: c.Bool("i"), Count: c.Int("count"), Partial: c.Bool("partial"), WriteOptions: writeOptions(c)}
	if n := c.Int("expect"); n >= 0 {
		req.Expect = &n
	}
	// The text output names no symbol: the receipt's symbols would cost
	// a parse of each changed file for nothing.
	req.NoSymbols = !c.Bool("json")
	res := &ops.ReplaceResult{Files: []ops.ReplaceFile{}}
	res.DryRun = req.DryRun
	wo, err := walkOptions(c)
	if err != nil {
		return e.printReplace(c, res, res.Fail(err))
	}
	req.WalkOptions = wo
	var bar progress
	started := false // asked once: when standard error is no terminal, the bar stays empty
	req.OnFile = func(_ string, n int) {
		if !started {
			bar, started = e.progress(n, c.Bool("json")), true
		}
		bar.add()
	}
	res, err = w.Replace(c.Context, req)
	bar.done()
	return e.printReplace(c, res, err)
}

// printReplace prints the result of a replace and returns err for the
// exit code: with --json the ops.ReplaceResult as one line of JSON; else
// one line per file (see printReplaceFile; all on standard error for a
// dry run and with --diff, whose standard output is the patch alone), a
// line on standard error per walked file skipped (not UTF-8 without a
// match, or unreadable: "PATH: skipped: REASON"), the diffs with --dry-run
// or --diff, and err for Main to print. After a walk the summary goes to
// standard error.
func (e *env) printReplace(c *cli.Context, res *ops.ReplaceResult, err error) error {
	summary := func() {
		if res.Walked {
			fmt.Fprintf(e.stderr, "symedit: %s\n", res.Summary)
		}
	}
	if c.Bool("json") {
		if werr := e.writeJSON(res); werr != nil {
			return werr
		}
		summary()
		if err != nil {
			return errSilent{err}
		}
		return nil
	}
	out := e.stdout
	if res.DryRun || c.Bool("diff") {
		out = e.stderr // standard output is the patch alone
	}
	var diffs strings.Builder
	for _, f := range res.Files {
		e.printReplaceFile(out, f)
		diffs.WriteString(f.Diff)
	}
	for _, f := range res.SkippedFiles {
		// Left alone, not refused: on standard error, as grep reports
		// the files it could not read and goes on.
		fmt.Fprintf(e.stderr, "%s: skipped: %s\n", f.Path, f.Reason)
	}
	fmt.Fprint(e.stdout, diffs.String())
	summary()
	return err
}

// printReplaceFile prints one file's line of a replace: what was replaced
// or why it was not written on out; why it was refused, with the remedy
// that would let it through, on standard error; and the guard's warnings
// on standard error.
func (e *env) printReplaceFile(out io.Writer, f ops.ReplaceFile) {
	stderr := e.stderr
	switch f.Status {
	case ops.ReplaceReplaced, ops.ReplaceNoMatch, ops.ReplaceNotWritten:
		fmt.Fprintf(out, "%s: %s\n", f.Path, f.Summary)
	case ops.ReplaceRefused:
		msg := strings.TrimPrefix(f.Error.Error(), f.Path+": ")
		fmt.Fprintf(stderr, "%s: refused: %s\n", f.Path, strings.TrimRight(msg, "\n"))
		if r := e.words.text(f.Error.Remedy); r != "" {
			fmt.Fprintf(stderr, "%s: %s\n", f.Path, r)
		}
	}
	if f.Status == ops.ReplaceReplaced && f.Syntax != nil {
		if rep := f.Syntax.Report(); !rep.OK() {
			fmt.Fprintf(stderr, "warning: the edit adds %d syntax error(s):\n%s", len(rep.New), rep.Format(f.Path))
		}
	}
}
