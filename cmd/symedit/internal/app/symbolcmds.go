package app

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/edit"
)

// replaceLines makes the change that replaces the target's lines.
func (t *target) replaceLines(lines []string) (*change, error) {
	ed, err := t.doc.ReplaceLines(t.first, t.last, lines)
	if err != nil {
		return nil, err
	}
	return t.changeWith(ed)
}

// changeWith makes the change that applies one byte edit to the target's
// file.
func (t *target) changeWith(ed edit.Edit) (*change, error) {
	content, err := edit.Apply(t.doc.Content, []edit.Edit{ed})
	if err != nil {
		return nil, err
	}
	return &change{doc: t.doc, lang: t.lang, content: content, edits: []edit.Edit{ed}}, nil
}

// symbolOp is one of the whole-symbol commands.
type symbolOp struct {
	name, usage, verb string
	apply             func(d *edit.Document, s edit.SymbolLines, text string) (edit.Edit, edit.Placement, error)
}

var symbolOps = []symbolOp{
	{"replace-body", "replace a symbol's text with BODY, keeping the decorators, annotations, modifiers and overloads BODY does not start with", "replaced",
		(*edit.Document).ReplaceSymbol},
	{"insert-before", "insert TEXT on its own lines before a symbol (and the comments above it)", "inserted before",
		(*edit.Document).InsertBeforeSymbol},
	{"insert-after", "insert TEXT on its own lines after a symbol", "inserted after",
		(*edit.Document).InsertAfterSymbol},
}

func symbolCommands(e *env) []*cli.Command {
	var out []*cli.Command
	for _, op := range symbolOps {
		out = append(out, &cli.Command{
			Name:  op.name,
			Usage: op.usage,
			Description: "BODY/TEXT is a file, or - for standard input. Text sent left of the symbol's indentation\n" +
				"(a method sent flush-left) is shifted to it, and the result says so; other text is written as sent.",
			ArgsUsage: "LOCATION TEXT",
			Flags:     writeFlags(),
			Action: e.withSession(2, 2, "LOCATION TEXT", func(s *session, args []string) error {
				return s.symbolOp(op, args[0], args[1])
			}),
		})
	}
	return out
}

func (s *session) symbolOp(op symbolOp, location, textArg string) error {
	result := map[string]any{"path": location}
	text, err := s.e.readText(textArg)
	if err != nil {
		return s.e.fail(s.c, err, result)
	}
	t, err := s.locate(location)
	if err != nil {
		return s.e.fail(s.c, err, result)
	}
	result["symbol"] = t.symbolJSON()
	ed, pl, err := op.apply(t.doc, t.lines(), text)
	if err != nil {
		return s.e.fail(s.c, &inputError{err}, result)
	}
	ch, err := t.changeWith(ed)
	if err != nil {
		return s.e.fail(s.c, err, result)
	}
	ch.what = fmt.Sprintf("%s %s (%s, lines %d-%d); %s", op.verb, t.sym.NamePath, t.sym.Kind, t.first, t.last, pl)
	result["reindent"] = pl.Reindent.String()
	if pl.Replaced != "" {
		result["replaced"] = pl.Replaced
	}
	if pl.Kept != "" {
		result["kept"] = pl.Kept
	}
	return s.finish(ch, result)
}

// inputError marks an error in what the caller sent (exit 2).
type inputError struct{ err error }

func (e *inputError) Error() string { return e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }
