package app

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/symedit/symedit/match"
)

// Over MCP a refusal names the tool field to change, never a CLI flag
// (issue 11, section 7): `--match indent` means nothing to a model that
// calls the chunk tool, `"match": "indent"` does. The packages that find a
// looser match level (chunk, edit, reply) keep the hint typed (match.Hint:
// its Level, and Flag = Level.Flag()) and word their message with the
// flag; a command run as an MCP tool (--mcp-tool) writes its text and JSON
// through mcpWording, which puts each flag a refusal may name in the words
// of the MCP tools; a flag with no MCP field (--allow-hardlinks, --lang,
// ...) is replaced by what the tools do instead. The phrases are those
// the packages below write; TestMCPWording checks that none is stale.

// mcpPhrases returns the CLI phrases and their MCP wording, in the order
// strings.NewReplacer takes them (longer phrases first where one holds
// another).
func mcpPhrases() []string {
	var pairs []string
	for _, l := range match.Levels {
		field := `"match": "` + l.String() + `"`
		pairs = append(pairs,
			"rerun with "+l.Flag(), "call again with "+field,
			"Rerun with "+l.Flag(), "Call again with "+field,
			l.Flag(), field)
	}
	return append(pairs,
		"(symedit show -n prints numbered lines)", `(the show tool with "line_numbers": true prints numbered lines)`,
		"(--partial writes the files that pass)", `(set "partial": true to write the files that pass)`,
		"--partial", `"partial": true`,
		// Flags with no MCP field: the refusal says the tools do not do it.
		"(pass --allow-hardlinks to accept that)", "(the MCP tools do not edit such a file)",
		"(pass --allow-metadata-loss to write anyway)", "(the MCP tools do not write it)",
		"pass --allow-read-only to replace it anyway, and for another user's file --allow-metadata-loss too, as the new file belongs to this user",
		"the MCP tools do not replace it",
		" (or pass --lang NAME)", "",
		"confined to the working directory unless --root names another folder", "confined to the server's root",
	)
}

// mcpWording is a writer that rewords CLI flags for MCP as it writes. Each
// Write is reworded on its own: symedit writes every message and every
// JSON result with one Write, so a phrase is never split between two.
// With json set, the MCP wording is escaped as inside a JSON string.
type mcpWording struct {
	w io.Writer
	r *strings.Replacer
}

func newMCPWording(w io.Writer, inJSON bool) *mcpWording {
	pairs := mcpPhrases()
	if inJSON {
		for i := 1; i < len(pairs); i += 2 {
			b, _ := json.Marshal(pairs[i])
			pairs[i] = string(b[1 : len(b)-1])
		}
	}
	return &mcpWording{w: w, r: strings.NewReplacer(pairs...)}
}

// Write writes p reworded; it reports len(p) when the whole was written.
func (m *mcpWording) Write(p []byte) (int, error) {
	if _, err := io.WriteString(m.w, m.r.Replace(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
