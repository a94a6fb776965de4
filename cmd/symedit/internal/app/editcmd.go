package app

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/ops"
)

func editCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "edit",
		Usage: "exact old_text/new_text replacements with expected occurrence counts",
		Description: "EDITS (a file, or - for standard input) holds a JSON array, or {\"edits\": [...]}, of\n" +
			"  {\"old_text\": str, \"new_text\": str, \"occurrences\": N (default 1)}\n" +
			"Edits apply in order, each on the result of the one before; every edit is checked before\n" +
			"anything is written. A count that differs is refused with every match (WRONG_COUNT); text\n" +
			"not found is refused with the most similar places (NO_MATCH). Line numbers refer to the\n" +
			"file as it was. With --json the result is the envelope every writing command prints\n" +
			"(ok, path, changed, written, dry_run, diff, syntax, summary, error) plus edits_applied\n" +
			"and total_replacements.\n" +
			"--match sets the loosest level allowed (default exact): at trailing, indent or loose an old_text\n" +
			"holding a line break that is not found literally is matched as whole lines, new_text is shifted\n" +
			"by the indentation offset, and each edit's level (\"match\", absent: exact) is reported.",
		ArgsUsage: "FILE EDITS",
		Flags:     append(writeFlags(), matchFlag(match.Exact), allowElisionFlag()),
		Action: e.withWorkspace(2, 2, "FILE EDITS", func(c *cli.Context, w *ops.Workspace, args []string) error {
			return e.edit(c, w, args[0], args[1])
		}),
	}
}

// edit runs `symedit edit`: FILE and EDITS (a file or "-") into an
// ops.EditRequest. Its --json output is the envelope every writing
// command prints; {isError, content, metadata}, MCP's own shape, is the
// MCP edit tool's result.
func (e *env) edit(c *cli.Context, w *ops.Workspace, path, editsArg string) error {
	req := ops.EditRequest{Path: path, Match: c.String("match"), AllowElision: c.Bool("allow-elision"), WriteOptions: writeOptions(c)}
	res := &ops.EditResult{}
	res.Path, res.DryRun = path, req.DryRun
	raw, err := e.readInput(editsArg)
	if err == nil {
		err = req.Edits.UnmarshalJSON(raw)
	} else {
		err = fmt.Errorf("reading edits: %w", err)
	}
	if err != nil {
		return e.printResult(c, res, &res.Result, res.Fail(err))
	}
	res, err = w.Edit(c.Context, req)
	return e.printResult(c, res, &res.Result, err)
}
