package app

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/chunk"
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
		Flags:     writeFlags(),
		Action: e.withSession(2, 2, "LOCATION CHUNKS", func(s *session, args []string) error {
			return s.chunk(args[0], args[1])
		}),
	}
}

func (s *session) chunk(location, chunksArg string) error {
	result := map[string]any{"path": location}
	raw, err := s.e.readInput(chunksArg)
	if err != nil {
		return s.e.fail(s.c, fmt.Errorf("reading chunks: %w", err), result)
	}
	chunks, err := chunk.Parse(raw)
	if err != nil {
		return s.e.fail(s.c, err, result)
	}
	t, err := s.locate(location)
	if err != nil {
		return s.e.fail(s.c, err, result)
	}
	result["path"] = t.doc.Path
	result["symbol"] = t.symbolJSON()
	res, err := chunk.Apply(chunk.Target{Lines: t.doc.Lines(t.first, t.last), FirstLine: t.first}, chunks)
	if err != nil {
		return s.e.fail(s.c, err, result)
	}
	ch, err := t.replaceLines(res.Lines)
	if err != nil {
		return s.e.fail(s.c, err, result)
	}
	ch.what = fmt.Sprintf("applied %d chunk(s) to %s (%s, lines %d-%d)", len(chunks), t.sym.NamePath, t.sym.Kind, t.first, t.last)
	result["chunks_applied"] = len(res.Placements)
	result["placements"] = res.Placements
	return s.finish(ch, result)
}
