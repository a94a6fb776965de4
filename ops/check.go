package ops

import (
	"context"
	"fmt"
	"strings"

	"github.com/symedit/symedit/guard"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/walk"
)

// CheckRequest reports every syntax error of the files a path names
// (`symedit check`, the MCP check tool), with the syntax guard's parse:
// tree-sitter ERROR and MISSING nodes, go/parser for Go, the indentation
// check for Python (guard.FindSyntaxProblems). It writes nothing.
type CheckRequest struct {
	// Path is a file, a folder (walked, skipping what git ignores) or a
	// doublestar pattern (package walk).
	Path string `json:"path" jsonschema:"A source file, a folder (walked, skipping what git ignores), or a doublestar glob (** matches any depth), relative to the server's root: src/app.py, src, 'pkg/**/*.go'."`
	// Paths are more paths of the same kinds, expanded after Path (the
	// CLI's further arguments). An empty Path is skipped.
	Paths []string `json:"-"`
	// Lang parses every file as this language (lang.Select) instead of
	// by extension.
	Lang string `json:"lang,omitempty" jsonschema:"Parse every file as this language instead of by its extension, as for a C++ header named .h (read as c unless cpp is given). Omitted: by extension."`
	WalkOptions
	// OnFile, when set, receives each file's result in path order, on the
	// calling goroutine, as soon as it and every file before it are done
	// (the files are checked concurrently, WalkOptions.Jobs at once); n is
	// the number of files. Files is then left empty. An error from OnFile
	// stops the run: Check returns it as the result's error.
	OnFile func(f *CheckFile, n int) error `json:"-"`
}

// paths returns Path and Paths, without an empty Path.
func (r CheckRequest) paths() []string { return joinPaths(r.Path, r.Paths) }

// joinPaths returns path followed by paths, without path when it is ""
// (a request's MCP field "path" and the CLI's further arguments).
func joinPaths(path string, paths []string) []string {
	if path == "" {
		return paths
	}
	return append([]string{path}, paths...)
}

// CheckResult is the result of a CheckRequest.
type CheckResult struct {
	// OK is false when a file has a syntax error, was not checked or could
	// not be read, or when the paths could not be expanded; Error says
	// why.
	OK bool `json:"ok" jsonschema:"False when a file has a syntax error, was not checked or could not be read, or when the paths could not be expanded; error says why."`
	// Summary is the line the CLI prints on standard error: "checked N
	// file(s): M syntax error(s) in K file(s)", with the files that could
	// not be checked, the Go notes and the files a walk skipped.
	Summary string `json:"summary,omitempty" jsonschema:"\"checked N file(s): M syntax error(s) in K file(s)\", with the files that could not be checked, the Go notes and the files a walk skipped; omitted when the paths could not be expanded."`
	// Error is the first file's read or parse failure (its code), else a
	// SYNTAX error counting the problems, else the expansion's failure
	// (USAGE for a malformed pattern, OUTSIDE_ROOT, ERROR for a pattern
	// that matches no file), or nil.
	Error *Error `json:"error,omitempty" jsonschema:"The first file's read or parse failure (its code), else a SYNTAX error counting the problems, else the expansion's failure (USAGE for a malformed pattern, OUTSIDE_ROOT, ERROR for a pattern that matches no file); omitted on success."`
	// Files are the files' results in path order (empty with OnFile).
	Files []CheckFile `json:"files" jsonschema:"Each file's result, in path order."`
	// Checked counts the files parsed; Problems the syntax errors, in
	// BadFiles files; Notes the tree-sitter-only notes in Go code above
	// go/parser's first error; Unchecked the files that could not be read or
	// checked.
	Checked   int `json:"checked" jsonschema:"How many files were parsed."`
	Problems  int `json:"problems" jsonschema:"How many syntax errors were found, in bad_files files."`
	BadFiles  int `json:"bad_files" jsonschema:"How many files have a syntax error."`
	Notes     int `json:"notes" jsonschema:"How many tree-sitter-only notes were found in Go files that go/parser refuses, above its first error (not errors)."`
	Unchecked int `json:"unchecked" jsonschema:"How many files could not be read or checked."`
	// Skipped counts the files a walk left out, by reason (walk.Result).
	Skipped map[string]int `json:"skipped,omitempty" jsonschema:"How many files a walk left out, by reason; omitted when none."`
	// Walked reports that a path was a folder or a pattern.
	Walked bool `json:"-"`
}

// CheckFile is one file's check: one line of `symedit check --json`.
type CheckFile struct {
	// Path is the file as the request or the walk named it.
	Path string `json:"path" jsonschema:"The file, as the request or the walk named it."`
	// Language is the grammar's name; "" when the file could not be read
	// or is in no supported language.
	Language string `json:"language,omitempty" jsonschema:"The grammar's name (python, go, ...); omitted when the file could not be read or is in no supported language."`
	// OK is false when the file has syntax errors, was not checked
	// (Skipped says why) or could not be read (Error says why).
	OK bool `json:"ok" jsonschema:"False when the file has syntax errors, was not checked (skipped says why) or could not be read (error says why)."`
	// Skipped says why the guard did not check the file ("too large:
	// ...").
	Skipped string `json:"skipped,omitempty" jsonschema:"Why the guard did not check the file (\"too large: ...\"); omitted when it did."`
	// Problems are the syntax errors, in order; [] when none.
	Problems []guard.SyntaxProblem `json:"problems" jsonschema:"The file's syntax errors, in order; [] when none."`
	// Notes are tree-sitter errors in a Go file that go/parser refuses,
	// above go/parser's first error, where go/parser accepted the code:
	// not errors, since go/parser is Go's own parser and the tree-sitter
	// grammar rejects some valid Go. A file go/parser accepts has none:
	// tree-sitter does not parse it.
	Notes []guard.SyntaxProblem `json:"notes,omitempty" jsonschema:"Tree-sitter errors in Go code above go/parser's first error, which go/parser accepted: not errors; omitted when none."`
	// Error is why the file could not be read or parsed, or nil.
	Error *Error `json:"error,omitempty" jsonschema:"Why the file could not be read or parsed; omitted when it was."`

	report guard.SyntaxReport
}

// Report returns the guard's report the file's result was made from.
func (f *CheckFile) Report() guard.SyntaxReport { return f.report }

// Check expands req's paths and checks every file, concurrently, in path
// order. The result is never nil. The error is nil or the result's
// *Error (see CheckResult.Error): a file with a syntax error, a file that
// could not be read (in no supported language, when named) or not be
// checked by the guard (too large) all make the result not OK.
func (w *Workspace) Check(ctx context.Context, req CheckRequest) (*CheckResult, error) {
	res := &CheckResult{Files: []CheckFile{}}
	fail := func(err error) error {
		res.OK, res.Error = false, AsError(err)
		return res.Error
	}
	found, err := w.expand(req.paths(), req.WalkOptions)
	if err != nil {
		return res, fail(err)
	}
	res.Walked, res.Skipped = found.Walked, found.Skipped
	var first error
	n := len(found.Files)
	err = forEachOrdered(n, req.jobs(), func(i int) *CheckFile {
		return w.checkOne(ctx, found.Files[i], req.Lang)
	}, func(i int, f *CheckFile) error {
		switch {
		case f.Error != nil:
			res.Unchecked++
			if first == nil {
				first = f.Error
			}
		case !f.report.Checked:
			res.Unchecked++ // not "checked" in the summary: the guard gave up on it
		default:
			res.Checked++
		}
		if k := len(f.Problems); k > 0 {
			res.Problems += k
			res.BadFiles++
		}
		res.Notes += len(f.Notes)
		if req.OnFile != nil {
			return req.OnFile(f, n)
		}
		res.Files = append(res.Files, *f)
		return nil
	})
	res.Summary = checkSummary(res, n, found)
	switch {
	case err != nil:
		return res, fail(err)
	case first != nil:
		return res, fail(first)
	case res.Problems > 0:
		return res, fail(&Error{Code: CodeSyntax, Message: fmt.Sprintf("%d syntax error(s) in %d file(s)", res.Problems, res.BadFiles)})
	case res.Unchecked > 0:
		res.OK = false // a file the guard could not check is not reported OK; not an error either
		return res, nil
	}
	res.OK = true
	return res, nil
}

// checkOne reads and checks one file. The file is read before its
// language is chosen, so that a path outside the root or one that does
// not exist says so, rather than naming its extension.
func (w *Workspace) checkOne(ctx context.Context, path, langName string) *CheckFile {
	f := &CheckFile{Path: path, Problems: []guard.SyntaxProblem{}}
	doc, err := w.view.Read(path) // check only reads: hard links are fine
	if err != nil {
		f.Error = AsError(err)
		return f
	}
	lang, err := lang.Select(path, langName)
	if err != nil {
		f.Error = AsError(err)
		return f
	}
	f.Language = lang.Name
	rep, err := guard.FindSyntaxProblems(ctx, lang, doc.Content, guard.GuardOptions{})
	if err != nil {
		f.Error = AsError(err)
		return f
	}
	f.report, f.Skipped, f.OK = rep, rep.Skipped, rep.Checked && len(rep.New) == 0
	if p := rep.New; p != nil {
		f.Problems = p
	}
	f.Notes = rep.Notes
	return f
}

// checkSummary is the summary line of a check of n files.
func checkSummary(res *CheckResult, n int, found walk.Result) string {
	sum := fmt.Sprintf("checked %d file(s): %d syntax error(s) in %d file(s)", n, res.Problems, res.BadFiles)
	if res.Unchecked > 0 { // not "checked 1 file(s)" for a path that does not exist or a parse that timed out
		sum = fmt.Sprintf("checked %d of %d file(s) (%d could not be checked): %d syntax error(s) in %d file(s)",
			n-res.Unchecked, n, res.Unchecked, res.Problems, res.BadFiles)
	}
	if res.Notes > 0 {
		sum += fmt.Sprintf("; %d tree-sitter-only note(s) in Go code above go/parser's first error, not errors (--json lists them)", res.Notes)
	}
	return sum + skippedSummary(found)
}

// skippedSummary is "; skipped: COUNT REASON, ..." for the files a walk
// skipped (the tail of walk.Result.Summary), or "".
func skippedSummary(found walk.Result) string {
	sum := found.Summary()
	if i := strings.Index(sum, "; skipped: "); i >= 0 {
		return sum[i:]
	}
	return ""
}
