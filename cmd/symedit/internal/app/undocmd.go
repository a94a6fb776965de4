package app

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/ops"
)

// journalFlags are the flags of undo and journal: the journal is the
// root's, so --root picks it as it confines the files.
func journalFlags() []cli.Flag {
	return []cli.Flag{jsonFlag(),
		&cli.StringFlag{Name: "root", EnvVars: []string{"SYMEDIT_ROOT"}, Usage: "the root whose journal to use, and to which every file is confined (default: the working directory's journal, unconfined)"}}
}

func undoCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "undo",
		Usage: "revert the last writing operation (or OP_ID, or the last N) as one transaction",
		Description: "Every file the operation wrote, created, deleted or moved gets its content before,\n" +
			"all files or none, and only if each still holds what the operation wrote; else the undo\n" +
			"is refused (CHANGED, exit 1) naming each file that changed since, and nothing is written.\n" +
			"An undo is journaled too: undo twice redoes. OP_ID is a result's op_id or one that\n" +
			"symedit journal lists.",
		ArgsUsage: "[OP_ID]",
		Flags: append(journalFlags(),
			&cli.BoolFlag{Name: "dry-run", Usage: "write nothing; print the unified diff the undo would apply"},
			&cli.IntFlag{Name: "last", Usage: "undo the last `N` operations, newest first, as one transaction"},
			&cli.BoolFlag{Name: "no-journal", EnvVars: []string{ops.EnvNoJournal}, Usage: "do not record the undo in the journal (it cannot be redone)"}),
		Action: e.withWorkspace(0, 1, "[OP_ID]", func(c *cli.Context, w *ops.Workspace, args []string) error {
			req := ops.UndoRequest{DryRun: c.Bool("dry-run"), Last: c.Int("last")}
			if len(args) == 1 {
				req.OpID = args[0]
			}
			res, err := w.Undo(c.Context, req)
			if c.Bool("json") {
				return e.printResult(c, res, &res.Result, err)
			}
			return e.printUndo(res, err)
		}),
	}
}

// printUndo prints an undo's result as text: a line per file, or the
// diff of a dry run; for a refusal, each file and how it changed, and err
// for Main to print.
func (e *env) printUndo(res *ops.UndoResult, err error) error {
	if err != nil {
		for _, f := range res.Files {
			if f.State != "" {
				fmt.Fprintf(e.stderr, "%s: %s since the operation\n", f.Path, f.State)
			}
		}
		return err
	}
	if res.DryRun {
		fmt.Fprintf(e.stderr, "dry run, nothing written: %s\n", res.Summary)
		fmt.Fprint(e.stdout, res.Diff)
		return nil
	}
	fmt.Fprintf(e.stdout, "undid %s\n", strings.Join(res.Undone, ", "))
	for _, f := range res.Files {
		fmt.Fprintf(e.stdout, "%s: %s\n", f.Path, f.Action)
	}
	if res.JournalError != "" {
		fmt.Fprintf(e.stderr, "warning: the undo was %s\n", res.JournalError)
	}
	return nil
}

func journalCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "journal",
		Usage: "list the recorded writing operations, oldest first, and whether each can be undone",
		Description: "Each line: the operation's id (for symedit undo), its time, its name, whether it can\n" +
			"still be undone (every file as the operation left it), and its files.",
		ArgsUsage: " ",
		Flags:     journalFlags(),
		Action: e.withWorkspace(0, 0, "no arguments", func(c *cli.Context, w *ops.Workspace, _ []string) error {
			res, err := w.Journal(c.Context, ops.JournalRequest{})
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return e.writeJSON(res)
			}
			e.printJournal(res)
			return nil
		}),
	}
}

// printJournal prints the journal as text: its unreadable entries as
// warnings, then a line per operation.
func (e *env) printJournal(res *ops.JournalResult) {
	for _, p := range res.Problems {
		fmt.Fprintf(e.stderr, "warning: %s\n", p)
	}
	if len(res.Entries) == 0 {
		fmt.Fprintf(e.stdout, "no operation recorded for %s\n", res.Root)
	}
	for _, en := range res.Entries {
		can := "undoable"
		if !en.Undoable {
			can = "changed since"
		}
		var files []string
		for _, f := range en.Files {
			s := f.Path + " (" + f.Action
			if f.State != "" {
				s += ", " + f.State + " since"
			}
			files = append(files, s+")")
		}
		fmt.Fprintf(e.stdout, "%s  %s  %s  %s  %s\n", en.OpID, en.Time, en.Op, can, strings.Join(files, ", "))
	}
}
