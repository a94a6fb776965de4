package ops

import (
	"github.com/symedit/symedit/guard"
	"github.com/symedit/symedit/symbols"
)

// Result is the envelope every writing operation's result starts with
// (each result type embeds it, so its fields are at the top level of the
// JSON object). The CLI's --json output, batch's result lines and the MCP
// tools' structured content are these values marshalled.
type Result struct {
	// OK is false when the operation was refused or failed; Error says why.
	OK bool `json:"ok" jsonschema:"False when the operation was refused or failed; error says why. In a file of a replace or apply result: false when that file was refused or not written."`
	// Path is the file, as the request named it (after a location's
	// "::NAME_PATH" or ":LINE:COL" is taken off), for single-file
	// operations.
	Path string `json:"path,omitempty" jsonschema:"The file, as the request (in apply's files: the reply) named it (a location's \"::NAME_PATH\" or \":LINE:COL\" taken off); omitted when the operation names no single file (replace and apply name each file in files)."`
	// Changed reports that the new content differs from the file (or that
	// the file is new).
	Changed bool `json:"changed" jsonschema:"True when the new content differs from the file, or the file is new."`
	// Written reports that the file was written.
	Written bool `json:"written" jsonschema:"True when the file was written to disk (for replace and apply at the top level: any file); false for a dry run and a refusal."`
	// DryRun echoes the request's dry_run.
	DryRun bool `json:"dry_run" jsonschema:"Echoes the request's dry_run: when true nothing was written."`
	// Diff is the unified diff of the change (git apply and patch -p1 take
	// it from the working directory; see diff.Diff); set for a dry run,
	// for a refused dry run, and with WriteOptions.Diff.
	Diff string `json:"diff,omitempty" jsonschema:"The change as a unified diff (git apply and patch -p1 accept it); set for a dry run, a refused one included; else omitted."`
	// Syntax is the syntax guard's report, when it ran or said why not.
	Syntax *Syntax `json:"syntax,omitempty" jsonschema:"The syntax guard's report on the new content; omitted when the guard neither checked nor said why not."`
	// SHA256Before is the file's SHA-256 as read (64 lowercase hexadecimal
	// digits; "" for a file that did not exist), and SHA256After that of
	// the content written (or, for a dry run, that would be): what the next
	// request's ExpectSHA256 takes, so a caller chains edits without
	// reading the file again. Lines is the new content's line count
	// (edit.Document's rule: a final line ending starts no line). All three
	// are set when the change was computed, refused or not, and left out
	// otherwise.
	SHA256Before string `json:"sha256_before,omitempty" jsonschema:"The file's SHA-256 as it was read (64 hexadecimal digits); omitted for a new file or when nothing was read."`
	SHA256After  string `json:"sha256_after,omitempty" jsonschema:"The SHA-256 of the new content (written, or for a dry run the content that would be): send it as the next call's expect_sha256 to chain edits without reading the file again; omitted when no change was computed."`
	Lines        int    `json:"lines,omitempty" jsonschema:"How many lines the new content has; omitted when no change was computed."`
	// Symbols is what the write did to the file's symbols (added,
	// changed, removed), when the file is in a supported language and
	// the syntax guard checked and passed the new content (the symbols
	// come from its parses; empty, not nil, when no symbol changed); nil
	// otherwise: check off, a file too large to check, a refusal.
	Symbols *SymbolChanges `json:"symbols,omitempty" jsonschema:"What the edit did to the file's symbols: added, changed (with their new ranges and the SHA-256 of their new text, for the next call's expect_symbol_sha256) and removed; {} when the edit changed no symbol; omitted when the file is in no supported language, the syntax guard did not check it (check off, too large) or the edit was refused."`
	// AlreadyApplied reports that every chunk, edit or block of the
	// request (in a file of an apply result: of that file) was already in
	// the file: its old side found nowhere and its new side, with its
	// context, at exactly one place. Nothing was written; OK is true.
	// Each chunk, edit or block says so itself too.
	AlreadyApplied bool `json:"already_applied,omitempty" jsonschema:"True when every chunk, edit or block of the request (in a file of apply's files: of that file) was already in the file (its old side found nowhere, its new side with its context at exactly one place): nothing was written, and ok is true. Each placement, edit or block says so too. Omitted otherwise."`
	// Summary says in one line what the operation did or would do, as the
	// CLI prints it.
	Summary string `json:"summary,omitempty" jsonschema:"One line saying what the operation did or would do, as the CLI prints it."`
	// OpID is the journal's id of the write (Workspace.Undo takes it);
	// "" when nothing was written or the journal is off.
	OpID string `json:"op_id,omitempty" jsonschema:"The id of this write in the journal: pass it to the undo tool to revert the whole operation. Omitted when nothing was written or the journal is off."`
	// JournalError says why a write that was made could not be recorded
	// in the journal (the write stands; it cannot be undone).
	JournalError string `json:"journal_error,omitempty" jsonschema:"Why the write, which was made, could not be recorded in the journal (it cannot be undone); omitted otherwise."`
	// Error is why the operation was refused or failed, or nil.
	Error *Error `json:"error,omitempty" jsonschema:"Why the operation was refused or failed; omitted on success. A refusal leaves the files unchanged: correct the request from error's fields (actual, nearest, candidates, hint, suggested_fixes) and call again."`
}

// Syntax is the syntax guard's report (guard.SyntaxReport) as results show
// it.
type Syntax struct {
	// Checked reports that both contents were parsed; else Skipped says
	// why not ("check off", "unsupported language", "too large: ...").
	Checked bool   `json:"checked" jsonschema:"True when the guard parsed the content both before and after the edit; else skipped says why not."`
	Skipped string `json:"skipped,omitempty" jsonschema:"Why the guard did not check: \"check off\", \"unsupported language\", \"too large: ...\"; omitted when checked."`
	// Language is the grammar's name.
	Language string `json:"language,omitempty" jsonschema:"The grammar's name (python, go, ...); omitted when none."`
	// Before and After count the problems before and after the edit.
	Before int `json:"before" jsonschema:"How many syntax problems the file had before the edit."`
	After  int `json:"after" jsonschema:"How many syntax problems the new content has."`
	// Uncounted reports that Before and After are not counts
	// (guard.SyntaxReport.Uncounted).
	Uncounted bool `json:"uncounted,omitempty" jsonschema:"True when the guard proved the edit adds and removes no syntax problem without parsing the file (every edit only renames identifiers or changes comments or string literals on its line): before and after are then 0 and not counts. Omitted otherwise."`
	// New are the problems the edit added, the nearest to the edit first.
	New []guard.SyntaxProblem `json:"new,omitempty" jsonschema:"The problems the edit added, the nearest to the edit first; omitted when none."`
	// Notes are problems that do not refuse (tree-sitter-only errors in
	// Go, where go/parser decides).
	Notes []guard.SyntaxProblem `json:"notes,omitempty" jsonschema:"Problems that do not refuse the edit (tree-sitter-only errors in Go code, where go/parser decides); omitted when none."`

	report guard.SyntaxReport
}

// Report returns the guard's report the Syntax was made from.
func (s *Syntax) Report() guard.SyntaxReport { return s.report }

// syntaxOf returns r as results show it, or nil when the guard neither
// checked nor said why not.
func syntaxOf(r guard.SyntaxReport) *Syntax {
	if !r.Checked && r.Skipped == "" {
		return nil
	}
	s := &Syntax{Checked: r.Checked, Skipped: r.Skipped, Language: r.Language, Before: r.Before, After: r.After, Uncounted: r.Uncounted, report: r}
	s.New, s.Notes = r.New, r.Notes
	return s
}

// Symbol is a symbol as results show it: its name path, kind and 1-based
// start and end positions (the end exclusive, as symbols.Symbol's).
type Symbol struct {
	NamePath string           `json:"name_path" jsonschema:"The symbol's name path: the names of the enclosing symbols and its own joined by \"/\" (\"Server/Serve\"), as a location's ::NAME_PATH takes it."`
	Kind     symbols.Kind     `json:"kind" jsonschema:"The symbol's kind: class, interface, enum, record, annotation, struct, type, function, method, constructor, namespace, trait, impl, union, macro, property, indexer, event, operator or delegate."`
	Start    symbols.Position `json:"start" jsonschema:"Where the symbol starts (inclusive): 1-based line and byte column, decorators and annotations included."`
	End      symbols.Position `json:"end" jsonschema:"Where the symbol ends (exclusive): 1-based line and byte column of the byte just past it."`
}

func symbolOf(s symbols.Symbol) Symbol {
	return Symbol{NamePath: s.NamePath, Kind: s.Kind, Start: s.Start, End: s.End}
}
