package app

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/guard"
	"github.com/symedit/symedit/ops"
)

func checkCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "check",
		Usage: "report every syntax error of files, folders and patterns, with the syntax guard's parse",
		Description: "Prints PATH:LINE:COL: CHECKER [KIND]: MESSAGE and the line's text for each problem the syntax\n" +
			"guard would count (tree-sitter ERROR and MISSING nodes, go/parser for Go, the indentation\n" +
			"check for Python); with --json one JSON object per file, in path order. In Go, go/parser decides:\n" +
			"a file it accepts is not parsed by tree-sitter; in one it refuses, tree-sitter errors above its\n" +
			"first error are notes, counted in the summary and listed by --json, not errors. Exit 1 if any file has a syntax error, 2 if a file could not be read or\n" +
			"parsed, else 0.",
		ArgsUsage: "FILE|DIR|PATTERN...",
		Flags:     append(readFlags(), walkFlags()...),
		Action: e.withWorkspace(1, -1, "FILE|DIR|PATTERN...", func(c *cli.Context, w *ops.Workspace, args []string) error {
			return e.check(c, w, args)
		}),
	}
}

// walkOptions returns the walk flags of c (--exclude, --no-ignore,
// --hidden, -j) as a request's options, refusing -j below 1.
func walkOptions(c *cli.Context) (ops.WalkOptions, error) {
	o := ops.WalkOptions{NoIgnore: c.Bool("no-ignore"), Hidden: c.Bool("hidden"), Jobs: c.Int("j")}
	if p, ok := c.Generic("exclude").(*patternList); ok && p != nil {
		o.Exclude = *p
	}
	if o.Jobs < 1 {
		return o, &ops.UsageError{Msg: fmt.Sprintf("-j %d: want 1 or more files at once", o.Jobs)}
	}
	return o, nil
}

// check runs `symedit check`: each file's problems (or, with --json, its
// ops.CheckFile as one JSON line) as soon as it and the files before it
// are checked, then the summary on standard error.
func (e *env) check(c *cli.Context, w *ops.Workspace, args []string) error {
	wo, err := walkOptions(c)
	if err != nil {
		return err
	}
	json := c.Bool("json")
	var bar progress
	var printErr error // printing failed: Main prints it
	req := ops.CheckRequest{Paths: args, Lang: c.String("lang"), WalkOptions: wo}
	req.OnFile = func(f *ops.CheckFile, n int) (err error) {
		defer func() { printErr = err }()
		if bar == (progress{}) {
			bar = e.progress(n, json)
		}
		defer bar.add()
		if f.Error != nil {
			bar.clear()
			e.printError(e.stderr, f.Error)
		}
		out := e.stdout
		if json {
			return e.writeJSON(f)
		}
		if f.Error != nil {
			return nil
		}
		rep := f.Report()
		var b strings.Builder
		for _, p := range rep.New {
			b.WriteString(problemLine(f.Path, p))
		}
		if _, err := fmt.Fprint(out, b.String()); err != nil {
			return err
		}
		if !rep.Checked {
			bar.clear()
			fmt.Fprint(e.stderr, "note: "+rep.Format(f.Path))
		}
		return nil
	}
	res, err := w.Check(c.Context, req)
	bar.done()
	if printErr != nil {
		return printErr
	}
	if res.Summary == "" { // the paths could not be expanded
		return err
	}
	fmt.Fprintf(e.stderr, "symedit: %s\n", res.Summary)
	if err != nil {
		return errSilent{err}
	}
	return nil
}

// problemLine renders a problem as "PATH:LINE:COL: CHECKER [KIND]: MESSAGE"
// and its line's text.
func problemLine(path string, p guard.SyntaxProblem) string {
	msg := p.Message
	if rest, ok := strings.CutPrefix(msg, "tree-sitter: "); ok {
		msg = "tree-sitter " + p.Kind + ": " + rest
	}
	return fmt.Sprintf("%s:%d:%d: %s\n    %d | %s\n", path, p.Line, p.Column, msg, p.Line, p.Text)
}
