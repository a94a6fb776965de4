package app

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/chunk"
	"github.com/symedit/symedit/match"
)

// matchFlag is --match, the loosest match level a command allows, with the
// command's own default (trailing for chunk, exact for edit and apply).
// It is not in writeFlags: most writing commands match no text, and the
// defaults differ.
func matchFlag(def match.Level) cli.Flag {
	return &cli.StringFlag{Name: "match", Value: def.String(),
		Usage: "loosest match `LEVEL` allowed: exact, trailing (trailing white space ignored), indent (also one constant indentation shift; new lines are shifted the same) or loose (also inner white space, typographic quotes and dashes); the strictest level with any match wins, and several matches there are refused"}
}

// matchLevel returns the --match level of c.
func matchLevel(c *cli.Context) (match.Level, error) {
	l, err := match.Parse(c.String("match"))
	if err != nil {
		return 0, &usageError{msg: "--match: " + err.Error()}
	}
	return l, nil
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
			"are shifted by the indentation offset the chunk matched with, and each chunk's level is reported.",
		ArgsUsage: "LOCATION CHUNKS",
		Flags:     append(writeFlags(), matchFlag(match.Trailing)),
		Action: e.withSession(2, 2, "LOCATION CHUNKS", func(s *session, args []string) error {
			return s.chunk(args[0], args[1])
		}),
	}
}

func (s *session) chunk(location, chunksArg string) error {
	result := map[string]any{"path": location}
	level, err := matchLevel(s.c)
	if err != nil {
		return err
	}
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
	res, err := chunk.ApplyLevel(chunk.Target{Lines: t.doc.Lines(t.first, t.last), FirstLine: t.first}, chunks, level)
	if err != nil {
		// A looser level that would accept the chunk: its line, level,
		// offset and flag, next to the error object.
		var ce *chunk.Error
		if errors.As(err, &ce) && ce.Hint != nil {
			result["hint"] = ce.Hint
		}
		return s.e.fail(s.c, err, result)
	}
	ch, err := t.replaceLines(res.Lines)
	if err != nil {
		return s.e.fail(s.c, err, result)
	}
	ch.what = fmt.Sprintf("applied %d chunk(s) to %s (%s, lines %d-%d)", len(chunks), t.sym.NamePath, t.sym.Kind, t.first, t.last)
	// The levels exact and trailing are chunk's contract; a chunk placed
	// at a looser level is named in the summary (the JSON always says).
	var looser []string
	for _, p := range res.Placements {
		if p.Level >= match.Indent {
			looser = append(looser, fmt.Sprintf("chunk %d at line %d matched at %s", p.Chunk, p.Line, p.Describe()))
		}
	}
	if len(looser) > 0 {
		ch.what += "; " + strings.Join(looser, "; ")
	}
	result["chunks_applied"] = len(res.Placements)
	result["placements"] = res.Placements
	return s.finish(ch, result)
}
