package app

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/ops"
)

func linesCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "lines",
		Usage: "replace, insert or delete whole lines by 1-based number",
		Description: "LINE_EDITS (a file, or - for standard input) holds a JSON array, or {\"edits\": [...]}, of\n" +
			"  {\"start_line\": N, \"end_line\": M, \"new_content\": str}   (1-based, inclusive; \"\" deletes)\n" +
			"  {\"insert_after\": N, \"new_content\": str}                 (0 inserts at the top)\n" +
			"All line numbers refer to the file as it is; overlapping edits are refused.",
		ArgsUsage: "FILE LINE_EDITS",
		Flags:     writeFlags(),
		Action: e.withWorkspace(2, 2, "FILE LINE_EDITS", func(c *cli.Context, w *ops.Workspace, args []string) error {
			return e.lines(c, w, args[0], args[1])
		}),
	}
}

// lines runs `symedit lines`: FILE and LINE_EDITS (a file or "-") into an
// ops.LinesRequest.
func (e *env) lines(c *cli.Context, w *ops.Workspace, path, editsArg string) error {
	req := ops.LinesRequest{Path: path, WriteOptions: writeOptions(c)}
	res := &ops.LinesResult{}
	res.Path, res.DryRun = path, req.DryRun
	raw, err := e.readInput(editsArg)
	if err == nil {
		err = req.Edits.UnmarshalJSON(raw)
	} else {
		err = fmt.Errorf("reading line edits: %w", err)
	}
	if err != nil {
		return e.printResult(c, res, &res.Result, res.Fail(err))
	}
	res, err = w.Lines(c.Context, req)
	return e.printResult(c, res, &res.Result, err)
}

func writeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "write",
		Usage:     "write FILE's whole content from standard input (creating it and its folders if needed)",
		ArgsUsage: "FILE",
		Flags:     writeFlags(),
		Action: e.withWorkspace(1, 1, "FILE", func(c *cli.Context, w *ops.Workspace, args []string) error {
			return e.write(c, w, args[0])
		}),
	}
}

// write runs `symedit write`: FILE and standard input into an
// ops.WriteRequest.
func (e *env) write(c *cli.Context, w *ops.Workspace, path string) error {
	req := ops.WriteRequest{Path: path, WriteOptions: writeOptions(c)}
	content, err := e.readInput("-")
	if err != nil {
		res := &ops.WriteResult{}
		res.Path, res.DryRun = path, req.DryRun
		return e.printResult(c, res, &res.Result, res.Fail(fmt.Errorf("reading standard input: %w", err)))
	}
	req.Content = string(content)
	res, err := w.Write(c.Context, req)
	return e.printResult(c, res, &res.Result, err)
}
