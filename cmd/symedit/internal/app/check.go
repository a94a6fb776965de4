package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/grammars"
)

func checkCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "check",
		Usage: "report every syntax error of files, folders and patterns, with the syntax guard's parse",
		Description: "Prints PATH:LINE:COL: CHECKER [KIND]: MESSAGE and the line's text for each problem the syntax\n" +
			"guard would count (tree-sitter ERROR and MISSING nodes, go/parser for Go, the indentation\n" +
			"check for Python); with --json one JSON object per file, in path order. In Go, go/parser decides:\n" +
			"tree-sitter errors in code go/parser accepts are notes, counted in the summary and listed by\n" +
			"--json, not errors. Exit 1 if any file has a syntax error, 2 if a file could not be read or\n" +
			"parsed, else 0.",
		ArgsUsage: "FILE|DIR|PATTERN...",
		Flags:     append(readFlags(), walkFlags()...),
		Action: func(c *cli.Context) error {
			args, err := e.positional(c, 1, -1, "FILE|DIR|PATTERN...")
			if err != nil {
				return err
			}
			s, err := e.newSession(c)
			if err != nil {
				return err
			}
			defer s.close()
			return s.checkFiles(args)
		},
	}
}

// checkResult is one file's check.
type checkResult struct {
	lang *grammars.Language
	rep  edit.SyntaxReport
	err  error
}

// checkJSON is one line of `check --json`.
type checkJSON struct {
	Path     string        `json:"path"`
	Language string        `json:"language"`
	OK       bool          `json:"ok"`
	Skipped  string        `json:"skipped,omitempty"`
	Problems []problemJSON `json:"problems"`
	// Notes are tree-sitter errors in Go code that go/parser accepts.
	Notes []problemJSON `json:"notes,omitempty"`
}

// problemJSON is one syntax problem of `check --json`.
type problemJSON struct {
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	Kind      string `json:"kind"`
	Message   string `json:"message"`
	Text      string `json:"text"`
}

// checkOne reads and checks one file.
// The file is read before its language is chosen, so that a path outside
// the root or one that does not exist says so (issue 11, section 7).
func (s *session) checkOne(path string) checkResult {
	doc, err := s.read(path)
	if err != nil {
		return checkResult{err: err}
	}
	lang, err := grammars.Select(path, s.c.String("lang"))
	if err != nil {
		return checkResult{err: err}
	}
	rep, err := edit.FindSyntaxProblems(context.Background(), lang, doc.Content, edit.GuardOptions{})
	return checkResult{lang: lang, rep: rep, err: err}
}

// problemLine renders a problem as "PATH:LINE:COL: CHECKER [KIND]: MESSAGE"
// and its line's text.
func problemLine(path string, p edit.SyntaxProblem) string {
	msg := p.Message
	if rest, ok := strings.CutPrefix(msg, "tree-sitter: "); ok {
		msg = "tree-sitter " + p.Kind + ": " + rest
	}
	return fmt.Sprintf("%s:%d:%d: %s\n    %d | %s\n", path, p.Line, p.Column, msg, p.Line, p.Text)
}

// checkFiles checks the files args name, in parallel, printing in path
// order.
func (s *session) checkFiles(args []string) error {
	e := s.e
	jobs, err := s.jobs()
	if err != nil {
		return err
	}
	w, err := s.expand(args)
	if err != nil {
		return err
	}
	var firstErr error
	problems, bad, notes, failed, skipped := 0, 0, 0, 0, 0
	bar := e.progress(len(w.Files), s.json)
	err = forEachOrdered(len(w.Files), jobs, func(i int) checkResult {
		return s.checkOne(w.Files[i])
	}, func(i int, r checkResult) error {
		defer bar.add()
		path := w.Files[i]
		if r.err != nil {
			bar.clear()
			fmt.Fprintf(e.stderr, "symedit: %v\n", r.err)
			if firstErr == nil {
				firstErr = r.err
			}
			failed++
			return nil
		}
		if n := len(r.rep.New); n > 0 {
			problems += n
			bad++
		}
		notes += len(r.rep.Notes)
		if !r.rep.Checked {
			skipped++ // not "checked" in the summary: the guard gave up on it
		}
		if s.json {
			js := checkJSON{Path: path, Language: r.lang.Name, OK: r.rep.Checked && len(r.rep.New) == 0,
				Skipped: r.rep.Skipped, Problems: []problemJSON{}}
			for _, p := range r.rep.New {
				js.Problems = append(js.Problems, problemJSON{p.Line, p.Column, p.EndLine, p.EndColumn, p.Kind, p.Message, p.Text})
			}
			for _, p := range r.rep.Notes {
				js.Notes = append(js.Notes, problemJSON{p.Line, p.Column, p.EndLine, p.EndColumn, p.Kind, p.Message, p.Text})
			}
			if err := e.writeJSON(js); err != nil {
				return err
			}
			if e.side == nil {
				return nil
			}
		}
		out := e.stdout
		if s.json {
			out = e.side // the readable text too
		}
		var b strings.Builder
		for _, p := range r.rep.New {
			b.WriteString(problemLine(path, p))
		}
		if _, err := fmt.Fprint(out, b.String()); err != nil {
			return err
		}
		if !r.rep.Checked {
			bar.clear()
			fmt.Fprint(e.stderr, "note: "+r.rep.Format(path))
		}
		return nil
	})
	bar.done()
	if err != nil {
		return err
	}
	sum := fmt.Sprintf("checked %d file(s): %d syntax error(s) in %d file(s)", len(w.Files), problems, bad)
	if failed+skipped > 0 { // not "checked 1 file(s)" for a path that does not exist or a parse that timed out
		sum = fmt.Sprintf("checked %d of %d file(s) (%d could not be checked): %d syntax error(s) in %d file(s)",
			len(w.Files)-failed-skipped, len(w.Files), failed+skipped, problems, bad)
	}
	if notes > 0 {
		sum += fmt.Sprintf("; %d tree-sitter-only note(s) in Go code that go/parser accepts, not errors (--json lists them)", notes)
	}
	s.summaryAlways(sum, w)
	switch {
	case firstErr != nil:
		return errSilent{firstErr}
	case problems > 0:
		return errSilent{&syntaxError{path: fmt.Sprintf("%d file(s)", bad)}}
	}
	return nil
}
