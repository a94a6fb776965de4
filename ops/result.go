package ops

import (
	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/symbols"
)

// Result is the envelope every writing operation's result starts with
// (each result type embeds it, so its fields are at the top level of the
// JSON object). The CLI's --json output, batch's result lines and the MCP
// tools' structured content are these values marshalled.
type Result struct {
	// OK is false when the operation was refused or failed; Error says why.
	OK bool `json:"ok"`
	// Path is the file, as the request named it (after a location's
	// "::NAME_PATH" or ":LINE:COL" is taken off), for single-file
	// operations.
	Path string `json:"path,omitempty"`
	// Changed reports that the new content differs from the file (or that
	// the file is new).
	Changed bool `json:"changed"`
	// Written reports that the file was written.
	Written bool `json:"written"`
	// DryRun echoes the request's dry_run.
	DryRun bool `json:"dry_run"`
	// Diff is the unified diff of the change (git apply and patch -p1 take
	// it from the working directory; see edit.Diff); set for a dry run,
	// for a refused dry run, and with WriteOptions.Diff.
	Diff string `json:"diff,omitempty"`
	// Syntax is the syntax guard's report, when it ran or said why not.
	Syntax *Syntax `json:"syntax,omitempty"`
	// Summary says in one line what the operation did or would do, as the
	// CLI prints it.
	Summary string `json:"summary,omitempty"`
	// Error is why the operation was refused or failed, or nil.
	Error *Error `json:"error,omitempty"`
}

// Syntax is the syntax guard's report (edit.SyntaxReport) as results show
// it.
type Syntax struct {
	// Checked reports that both contents were parsed; else Skipped says
	// why not ("check off", "unsupported language", "too large: ...").
	Checked bool   `json:"checked"`
	Skipped string `json:"skipped,omitempty"`
	// Language is the grammar's name.
	Language string `json:"language,omitempty"`
	// Before and After count the problems before and after the edit.
	Before int `json:"before"`
	After  int `json:"after"`
	// New are the problems the edit added, the nearest to the edit first.
	New []Problem `json:"new,omitempty"`
	// Notes are problems that do not refuse (tree-sitter-only errors in
	// Go, where go/parser decides).
	Notes []Problem `json:"notes,omitempty"`

	report edit.SyntaxReport
}

// Report returns the guard's report the Syntax was made from.
func (s *Syntax) Report() edit.SyntaxReport { return s.report }

// Problem is one syntax problem: 1-based line, 1-based byte column, kind
// (edit.KindError, ...), message and the line's text (cut on long lines).
type Problem struct {
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Text    string `json:"text"`
}

// syntaxOf returns r as results show it, or nil when the guard neither
// checked nor said why not.
func syntaxOf(r edit.SyntaxReport) *Syntax {
	if !r.Checked && r.Skipped == "" {
		return nil
	}
	s := &Syntax{Checked: r.Checked, Skipped: r.Skipped, Language: r.Language, Before: r.Before, After: r.After, report: r}
	for _, p := range r.New {
		s.New = append(s.New, Problem{p.Line, p.Column, p.Kind, p.Message, p.Text})
	}
	for _, p := range r.Notes {
		s.Notes = append(s.Notes, Problem{p.Line, p.Column, p.Kind, p.Message, p.Text})
	}
	return s
}

// Symbol is a symbol as results show it: its name path, kind and 1-based
// start and end positions (the end exclusive, as symbols.Symbol's).
type Symbol struct {
	NamePath string           `json:"name_path"`
	Kind     symbols.Kind     `json:"kind"`
	Start    symbols.Position `json:"start"`
	End      symbols.Position `json:"end"`
}

func symbolOf(s symbols.Symbol) Symbol {
	return Symbol{NamePath: s.NamePath, Kind: s.Kind, Start: s.Start, End: s.End}
}
