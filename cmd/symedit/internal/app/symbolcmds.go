package app

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/ops"
)

// symbolOp is one of the whole-symbol commands: its name, usage and the
// ops.Workspace method that runs it.
type symbolOp struct {
	name, usage string
	run         func(w *ops.Workspace, ctx context.Context, req ops.SymbolTextRequest) (*ops.SymbolTextResult, error)
}

var symbolOps = []symbolOp{
	{"replace-body", "replace a symbol's text with BODY, keeping the decorators, annotations, modifiers and overloads BODY does not start with",
		(*ops.Workspace).ReplaceBody},
	{"insert-before", "insert TEXT on its own lines before a symbol (and the comments above it)",
		(*ops.Workspace).InsertBefore},
	{"insert-after", "insert TEXT on its own lines after a symbol",
		(*ops.Workspace).InsertAfter},
}

func symbolCommands(e *env) []*cli.Command {
	var out []*cli.Command
	for _, op := range symbolOps {
		out = append(out, &cli.Command{
			Name:  op.name,
			Usage: op.usage,
			Description: locationHelp + "BODY/TEXT is a file, or - for standard input. Text sent left of the symbol's indentation\n" +
				"(a method sent flush-left) is shifted to it, and the result says so; other text is written as sent.",
			ArgsUsage: "LOCATION TEXT",
			Flags:     append(writeFlags(), symbolHashFlag()),
			Action: e.withWorkspace(2, 2, "LOCATION TEXT", func(c *cli.Context, w *ops.Workspace, args []string) error {
				return e.symbolOp(c, w, op, args[0], args[1])
			}),
		})
	}
	return out
}

// symbolOp runs a whole-symbol command: LOCATION and TEXT (a file or "-")
// into an ops.SymbolTextRequest.
func (e *env) symbolOp(c *cli.Context, w *ops.Workspace, op symbolOp, location, textArg string) error {
	req := ops.SymbolTextRequest{Location: location, WriteOptions: writeOptions(c), ExpectSymbolSHA256: ops.SHA256(c.String("expect-symbol-sha256"))}
	text, err := e.readText(textArg)
	if err != nil {
		res := &ops.SymbolTextResult{}
		res.Path, res.DryRun = location, req.DryRun
		return e.printResult(c, res, &res.Result, res.Fail(err))
	}
	req.Text = text
	res, err := op.run(w, c.Context, req)
	return e.printResult(c, res, &res.Result, err)
}
