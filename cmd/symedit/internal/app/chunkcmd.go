package app

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/ops"
)

// matchFlag is --match, the loosest match level a command allows, with the
// command's own default (trailing for chunk, exact for edit and apply).
// It is not in writeFlags: most writing commands match no text, and the
// defaults differ.
func matchFlag(def match.Level) cli.Flag {
	return &cli.StringFlag{Name: "match", Value: def.String(),
		Usage: "loosest match `LEVEL` allowed: exact, trailing (trailing white space ignored), indent (also one constant indentation shift; new lines are shifted the same) or loose (also inner white space, typographic quotes and dashes); the strictest level with any match wins, and several matches there are refused"}
}

// allowElisionFlag is the flag that writes an edit whose new side holds a
// placeholder line where its old side has code (ops's AllowElision).
func allowElisionFlag() cli.Flag {
	return &cli.BoolFlag{Name: "allow-elision",
		Usage: "write an edit whose new side holds a placeholder line such as `// ... existing code ...` where its old side has code (refused otherwise: ELIDED)"}
}

func chunkCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "chunk",
		Usage: "apply context-anchored diff chunks inside one symbol",
		Description: "CHUNKS (a file, or - for standard input) holds a JSON array of chunks, or {\"chunks\": [...]}:\n" +
			"  {\"context_before\": str|[str], \"old_lines\": [str], \"new_lines\": [str], \"context_after\": str|[str]}\n" +
			"Every chunk is validated against the symbol before anything is written; one that matches nowhere,\n" +
			"or in several places, is rejected with the nearest real lines (exit 1).\n" +
			"--match sets the loosest level allowed (default trailing); with indent or loose, new_lines\n" +
			"are shifted by the indentation offset the chunk matched with, and each chunk's level is reported.\n" +
			locationHelp + "Example (make demo runs it):\n" +
			"  symedit chunk --dry-run testdata/src/python/process.py::BaseProcess/start testdata/demo/chunks.json",
		ArgsUsage: "LOCATION CHUNKS",
		Flags:     append(writeFlags(), matchFlag(match.Trailing), allowElisionFlag(), symbolHashFlag()),
		Action: e.withWorkspace(2, 2, "LOCATION CHUNKS", func(c *cli.Context, w *ops.Workspace, args []string) error {
			return e.chunk(c, w, args[0], args[1])
		}),
	}
}

// chunk runs `symedit chunk`: LOCATION and CHUNKS (a file or "-") into an
// ops.ChunkRequest.
func (e *env) chunk(c *cli.Context, w *ops.Workspace, location, chunksArg string) error {
	req := ops.ChunkRequest{Location: location, Match: c.String("match"), AllowElision: c.Bool("allow-elision"), WriteOptions: writeOptions(c),
		ExpectSymbolSHA256: ops.SHA256(c.String("expect-symbol-sha256"))}
	res := &ops.ChunkResult{}
	res.Path, res.DryRun = location, req.DryRun
	raw, err := e.readInput(chunksArg)
	if err == nil {
		err = req.Chunks.UnmarshalJSON(raw)
	} else {
		err = fmt.Errorf("reading chunks: %w", err)
	}
	if err != nil {
		return e.printResult(c, res, &res.Result, res.Fail(err))
	}
	res, err = w.Chunk(c.Context, req)
	return e.printResult(c, res, &res.Result, err)
}
