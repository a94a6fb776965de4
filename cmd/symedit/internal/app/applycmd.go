package app

import (
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/ops"
	"github.com/symedit/symedit/reply"
)

func applyCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "apply",
		Usage: "apply the edit blocks of a model's reply, across files, as one transaction",
		Description: "REPLY (a file, or - or nothing for standard input) is free text with any number of blocks:\n" +
			"  path/to/file\n  <<<<<<< EDIT\n  leading anchor\n  -------\n  old lines\n  =======\n  new lines\n  -------\n  trailing anchor\n  >>>>>>>\n" +
			"or the SEARCH/REPLACE form (path, <<<<<<< SEARCH, old, =======, new, >>>>>>> REPLACE),\n" +
			"unified diffs (git diff, diff -u) and Codex apply_patch patches (*** Begin Patch), which may\n" +
			"also delete files (+++ /dev/null, *** Delete File) and move them (rename from/to, *** Move to).\n" +
			"Matching is exact but for line endings; --match sets the loosest level allowed (default exact):\n" +
			"trailing, indent (new lines shifted by the block's indentation offset) or loose. Each block's\n" +
			"level is reported (\"match\", absent: exact). Blocks for one file apply in order, each on the result of\n" +
			"the one before. Nothing is written unless every block of every file applies; --partial instead\n" +
			"writes each file whose blocks all apply. Shell commands in the reply are listed, never run.",
		ArgsUsage: "[REPLY|-]",
		Flags: append(writeFlags(), &cli.BoolFlag{Name: "partial", Usage: "write each file whose blocks all apply, and report the others"}, matchFlag(match.Exact), allowElisionFlag(),
			&cli.StringFlag{Name: "path", Usage: "the `FILE` of every block for which the reply names none (as Roo Code and Cline send them)"}),
		// The root defaults to the working directory (see Action).
		Action: func(c *cli.Context) error {
			// A reply is untrusted text: its paths stay inside the working
			// directory unless --root (or SYMEDIT_ROOT) names another
			// boundary.
			if c.String("root") == "" {
				if err := c.Set("root", "."); err != nil {
					return err
				}
			}
			return e.withWorkspace(0, 1, "[REPLY|-]", func(c *cli.Context, w *ops.Workspace, args []string) error {
				src := "-"
				if len(args) == 1 {
					src = args[0]
				}
				return e.apply(c, w, src)
			})(c)
		},
	}
}

// Block statuses, as batch reports its operations too.
const (
	statusApplied = ops.ApplyApplied
	statusFailed  = ops.ApplyFailed
	statusSkipped = ops.ApplySkipped
)

// apply runs `symedit apply`: the reply (a file or "-") and the flags into
// an ops.ApplyRequest.
func (e *env) apply(c *cli.Context, w *ops.Workspace, src string) error {
	req := ops.ApplyRequest{Path: c.String("path"), Match: c.String("match"), Partial: c.Bool("partial"), AllowElision: c.Bool("allow-elision"), WriteOptions: writeOptions(c)}
	raw, err := e.readInput(src)
	if err != nil {
		res := &ops.ApplyResult{Files: []ops.ApplyFile{}, Blocks: []ops.ApplyBlock{}, Malformed: []ops.ApplyMalformed{}, Shell: []reply.ShellSuggestion{}}
		res.DryRun = req.DryRun
		return e.printApply(c, res, res.Fail(fmt.Errorf("reading the reply: %w", err)))
	}
	req.Reply = string(raw)
	res, err := w.Apply(c.Context, req)
	return e.printApply(c, res, err)
}

// printApply prints an apply result and returns the error that decides
// the exit code: with --json the result as one line of JSON; else the
// text (applyText), and Main prints the error.
func (e *env) printApply(c *cli.Context, res *ops.ApplyResult, err error) error {
	if !c.Bool("json") {
		e.applyText(c, res)
		return err
	}
	if werr := e.writeJSON(res); werr != nil {
		return werr
	}
	if err != nil {
		return errSilent{err}
	}
	return nil
}

// applyText prints the readable summary: a line per block, the malformed
// blocks, shell suggestions, a line per file, then the diffs (--dry-run or
// --diff) and the syntax warnings.
func (e *env) applyText(c *cli.Context, res *ops.ApplyResult) {
	out := e.stdout
	if res.DryRun || c.Bool("diff") {
		out = e.stderr // standard output is the patch alone: > x.patch, git apply
	}
	for _, b := range res.Blocks {
		printApplyBlock(out, b)
	}
	for _, m := range res.Malformed {
		path := m.Path
		if path == "" {
			path = "(no path)"
		}
		fmt.Fprintf(out, "malformed block (reply line %d) %s: %s\n", m.ReplyLine, path, m.Reason)
	}
	for _, sh := range res.Shell {
		fmt.Fprintf(out, "shell suggestion (reply line %d, not run): %s\n", sh.Line, sh.Command)
	}
	dry := res.DryRun
	for _, f := range res.Files {
		printApplyFile(out, f, dry)
		if f.Status == statusApplied {
			fmt.Fprint(out, removedLine("file "+f.Path, f.Symbols))
		}
	}
	if dry || c.Bool("diff") {
		for _, f := range res.Files {
			fmt.Fprint(e.stdout, f.Diff)
		}
	}
	for _, f := range res.Files {
		if f.Status != statusApplied || f.Syntax == nil {
			continue
		}
		if rep := f.Syntax.Report(); !rep.OK() {
			fmt.Fprintf(e.stderr, "warning: %s: the edit adds %d syntax error(s):\n%s", f.Path, len(rep.New), rep.Format(f.Path))
		}
	}
}

// printApplyBlock prints block b's line to out: its index, reply line,
// path and status; whether it was already applied; the level it matched
// at when looser than exact; its anchor, old and new text when it has
// them; then its reason, indented, on lines of its own.
func printApplyBlock(out io.Writer, b ops.ApplyBlock) {
	fmt.Fprintf(out, "block %d (reply line %d) %s: %s", b.Index, b.ReplyLine, b.Path, b.Status)
	if b.AlreadyApplied {
		fmt.Fprint(out, " (already applied, unchanged)")
	}
	if b.Status == statusApplied && b.Match > match.Exact {
		o := match.Shift{}
		if b.Shift != nil {
			o = *b.Shift
		}
		fmt.Fprintf(out, " (matched at %s)", match.Describe(b.Match, o))
	}
	var parts []string
	if b.Anchor != "" {
		parts = append(parts, "anchor: "+b.Anchor)
	}
	if b.Old != "" {
		parts = append(parts, "old: "+b.Old)
	}
	if b.New != "" {
		parts = append(parts, "new: "+b.New)
	}
	if len(parts) > 0 {
		fmt.Fprintf(out, "  [%s]", strings.Join(parts, " | "))
	}
	fmt.Fprintln(out)
	if b.Reason != "" {
		fmt.Fprintf(out, "    %s\n", strings.ReplaceAll(b.Reason, "\n", "\n    "))
	}
}

// printApplyFile prints file f's line to out: what happened to it, the
// first case that holds, from written (deleted, moved) through already
// applied and a dry run's not written to not written. One switch, read
// whole as the table of those outcomes.
func printApplyFile(out io.Writer, f ops.ApplyFile, dry bool) {
	switch {
	case f.Written && f.Reason != "":
		fmt.Fprintf(out, "file %s: %s\n", f.Path, f.Reason)
	case f.Written && f.Op == ops.ApplyDelete:
		fmt.Fprintf(out, "file %s: deleted\n", f.Path)
	case f.Written && f.Op == ops.ApplyMove:
		fmt.Fprintf(out, "file %s: moved to %s\n", f.Path, f.MoveTo)
	case f.Written:
		fmt.Fprintf(out, "file %s: written\n", f.Path)
	case f.AlreadyApplied:
		fmt.Fprintf(out, "file %s: already applied, nothing written\n", f.Path)
	case dry && f.Status == statusApplied && f.Op == ops.ApplyDelete:
		fmt.Fprintf(out, "file %s: not deleted (dry run)\n", f.Path)
	case dry && f.Status == statusApplied && f.Op == ops.ApplyMove:
		fmt.Fprintf(out, "file %s: not moved to %s (dry run)\n", f.Path, f.MoveTo)
	case dry && f.Status == statusApplied:
		fmt.Fprintf(out, "file %s: not written (dry run)\n", f.Path)
	case f.Status == statusFailed && strings.HasPrefix(f.Reason, "not written: "):
		fmt.Fprintf(out, "file %s: %s\n", f.Path, f.Reason) // the write failed, or was undone
	default:
		fmt.Fprintf(out, "file %s: not written\n", f.Path)
	}
}
