package app

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/match"
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
			"file as it was. With --json the result has seed 002's shape: isError, content, metadata.\n" +
			"--match sets the loosest level allowed (default exact): at trailing, indent or loose an old_text\n" +
			"holding a line break that is not found literally is matched as whole lines, new_text is shifted\n" +
			"by the indentation offset, and each edit's level (\"match\", absent: exact) is reported.",
		ArgsUsage: "FILE EDITS",
		Flags:     append(writeFlags(), matchFlag(match.Exact)),
		Action: e.withSession(2, 2, "FILE EDITS", func(s *session, args []string) error {
			return s.edit(args[0], args[1])
		}),
	}
}

// edit runs `symedit edit`. Its JSON follows seed 002's FileEditResult:
// {"isError", "content": [{"type": "text", "text"}], "metadata": {"path",
// "diff", "edits_applied", "total_replacements", "dry_run",
// "validation_error", "suggested_fixes", "syntax"}}.
func (s *session) edit(path, editsArg string) error {
	meta := map[string]any{"path": path}
	if s.json {
		s.diff = true // seed 002's result always carries the diff
	}
	fail := func(err error) error {
		if !s.json {
			return err
		}
		var te *edit.TextEditError
		if errors.As(err, &te) {
			meta["validation_error"] = te
			meta["suggested_fixes"] = te.Fixes
		} else {
			ve := toJSONError(err)
			meta["validation_error"] = map[string]any{"type": seedErrorType(err, ve.Code), "code": ve.Code, "message": ve.Message}
		}
		if werr := s.e.writeJSON(map[string]any{"isError": true, "content": textContent(err.Error()), "metadata": meta}); werr != nil {
			return werr
		}
		if s.e.side != nil {
			printError(s.e.side, err)
		}
		return errSilent{err}
	}
	level, err := matchLevel(s.c)
	if err != nil {
		return err
	}
	raw, err := s.e.readInput(editsArg)
	if err != nil {
		return fail(fmt.Errorf("reading edits: %w", err))
	}
	edits, err := edit.ParseTextEdits(raw)
	if err != nil {
		return fail(err)
	}
	doc, err := s.read(path)
	if err != nil {
		return fail(err)
	}
	res, err := edit.ApplyTextEditsLevel(string(doc.Text), doc.EOL, edits, level)
	if err != nil {
		var te *edit.TextEditError
		if errors.As(err, &te) && te.Hint != nil {
			meta["hint"] = te.Hint
		}
		return fail(err)
	}
	content := append(append([]byte{}, doc.Content[:len(doc.Content)-len(doc.Text)]...), res.Text...)
	ch := &change{doc: doc, lang: s.language(path), content: content,
		what: fmt.Sprintf("applied %d edit(s), %d replacement(s)", len(edits), res.TotalReplacements)}
	// An edit matched looser than exact is named in the summary (the JSON
	// always says, "match" being absent for exact).
	for _, sum := range res.Edits {
		if sum.Match > match.Exact {
			ch.what += fmt.Sprintf("; edit %d at line %d matched at %s", sum.Edit, sum.Lines[0], sum.Describe())
		}
	}
	out, err := s.check(ch)
	if err == nil {
		err = s.commit(ch, &out)
	}
	if out.Syntax.Checked || out.Syntax.Skipped != "" {
		meta["syntax"] = syntaxJSON(out.Syntax)
	}
	if err != nil {
		if s.dry && out.Diff != "" {
			meta["diff"] = out.Diff
			if !s.json {
				fmt.Fprint(s.e.stdout, out.Diff)
			} else if s.e.side != nil {
				fmt.Fprint(s.e.side, out.Diff)
			}
		}
		return fail(err)
	}
	if !s.json {
		return s.report(ch, out, map[string]any{})
	}
	meta["edits_applied"] = res.Edits
	meta["total_replacements"] = res.TotalReplacements
	meta["dry_run"] = s.dry
	meta["written"] = out.Written
	if s.dry || s.diff {
		meta["diff"] = out.Diff
	}
	if s.dry {
		meta["would_modify"] = !bytes.Equal(ch.content, doc.Content)
	}
	summary := ch.what
	if s.dry {
		summary = "dry run: would have " + summary + "; nothing written"
	}
	if err := s.e.writeJSON(map[string]any{"isError": false, "content": textContent(doc.Path + ": " + summary), "metadata": meta}); err != nil || s.e.side == nil {
		return err
	}
	// The side channel gets what the command prints without --json
	// (which forced s.diff above).
	text := *s
	text.e, text.json, text.diff = s.e.sideEnv(), false, s.c.Bool("diff")
	return text.report(ch, out, map[string]any{})
}

func textContent(text string) []map[string]string {
	return []map[string]string{{"type": "text", "text": text}}
}

// seedErrorType is seed 002's ValidationError.type for errors other than
// NO_MATCH and WRONG_COUNT: FILE_NOT_FOUND, BINARY_FILE and
// PERMISSION_DENIED where they apply, else symedit's own code.
func seedErrorType(err error, code string) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "FILE_NOT_FOUND"
	case errors.Is(err, edit.ErrBinary):
		return "BINARY_FILE"
	case errors.Is(err, fs.ErrPermission):
		return "PERMISSION_DENIED"
	}
	return code
}
