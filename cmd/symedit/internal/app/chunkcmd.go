package app

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/chunk"
	"github.com/symedit/symedit/edit"
)

func chunkCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "chunk",
		Usage: "apply context-anchored diff chunks inside one symbol",
		Description: "CHUNKS (a file, or - for standard input) holds a JSON array of chunks, or {\"chunks\": [...]}:\n" +
			"  {\"context_before\": str|[str], \"old_lines\": [str], \"new_lines\": [str], \"context_after\": str|[str]}\n" +
			"Every chunk is validated against the symbol before anything is written; one that matches nowhere,\n" +
			"or in several places, is rejected with the nearest real lines (exit 1).",
		ArgsUsage: "LOCATION CHUNKS",
		Flags: []cli.Flag{jsonFlag, langFlag,
			&cli.BoolFlag{Name: "dry-run", Usage: "write nothing; print the unified diff"},
			&cli.BoolFlag{Name: "diff", Usage: "also print the unified diff of what was written"}},
		Action: func(c *cli.Context) error {
			args, err := positional(c, 2, 2, "LOCATION CHUNKS")
			if err != nil {
				return err
			}
			return e.chunk(c, args[0], args[1])
		},
	}
}

func (e *env) chunk(c *cli.Context, location, chunksArg string) error {
	result := map[string]any{"path": location}
	raw, err := e.readInput(chunksArg)
	if err != nil {
		return e.fail(c, fmt.Errorf("reading chunks: %w", err), result)
	}
	chunks, err := chunk.Parse(raw)
	if err != nil {
		return e.fail(c, err, result)
	}
	t, err := locate(location, c.String("lang"))
	if err != nil {
		return e.fail(c, err, result)
	}
	result["path"] = t.doc.Path
	result["symbol"] = t.symbolJSON()
	res, err := chunk.Apply(chunk.Target{Lines: t.doc.Lines(t.first, t.last), FirstLine: t.first}, chunks)
	if err != nil {
		return e.fail(c, err, result)
	}
	ed, err := t.doc.ReplaceLines(t.first, t.last, res.Lines)
	if err != nil {
		return e.fail(c, err, result)
	}
	content, err := edit.Apply(t.doc.Content, []edit.Edit{ed})
	if err != nil {
		return e.fail(c, err, result)
	}
	diff := edit.Diff(t.doc.Path, t.doc.Content, content)
	dry := c.Bool("dry-run")
	if !dry {
		if err := edit.Commit(t.doc, content); err != nil {
			return e.fail(c, err, result)
		}
	}
	result["ok"] = true
	result["chunks_applied"] = len(res.Placements)
	result["placements"] = res.Placements
	result["dry_run"] = dry
	if dry || c.Bool("diff") {
		result["diff"] = diff
	}
	if c.Bool("json") {
		return e.writeJSON(result)
	}
	verb := "applied"
	if dry {
		verb = "would apply"
	}
	summary := fmt.Sprintf("%s: %s %d chunk(s) to %s (%s, lines %d-%d)", t.doc.Path, verb, len(chunks), t.sym.NamePath, t.sym.Kind, t.first, t.last)
	if dry {
		fmt.Fprintln(e.stderr, summary+"; dry run, nothing written")
		_, err = fmt.Fprint(e.stdout, diff)
		return err
	}
	fmt.Fprintln(e.stdout, summary)
	if c.Bool("diff") {
		_, err = fmt.Fprint(e.stdout, diff)
	}
	return err
}
