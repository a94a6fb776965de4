package app

import "github.com/symedit/symedit/match"

// Over MCP a refusal names the tool field to change, never a CLI flag
// (issue 11, section 7): `--match indent` means nothing to a model that
// calls the chunk tool, `"match": "indent"` does. The packages that find a
// looser match level (chunk, edit, reply) keep the hint typed (match.Hint:
// its Level, and Flag = Level.Flag()) and word their message with the
// flag; the MCP server puts each flag a refusal may name in the words of
// the MCP tools, in a call's text content and in every string of its
// structured content (toolServer.words, reword); a flag with no MCP field
// (--allow-hardlinks, --lang, ...) is replaced by what the tools do
// instead. The syntax guard's refusals are worded for MCP at the source
// (ops.Options.MCP). The phrases are those the packages below write;
// TestMCPWording checks that none is stale.

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
