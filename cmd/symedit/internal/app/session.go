package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/grammars"
	"github.com/symedit/symedit/ops"
)

// writeFlags are the flags every writing command takes: the modes of the
// shared edit layer (seed 003's strict / interactive / verify-only), the
// diff, JSON, confinement and the concurrency guards.
func writeFlags() []cli.Flag {
	return []cli.Flag{
		jsonFlag(), langFlag(),
		&cli.BoolFlag{Name: "dry-run", Usage: "write nothing; print the unified diff and the check results"},
		&cli.BoolFlag{Name: "diff", Usage: "also print the unified diff of what was written"},
		&cli.StringFlag{Name: "check", Value: "strict", Usage: "syntax guard `MODE`: strict (refuse an edit that adds syntax errors), warn (write and report them) or off"},
		&cli.StringFlag{Name: "root", EnvVars: []string{"SYMEDIT_ROOT"}, Usage: "confine every path to `DIR`; paths resolving outside it are refused"},
		&cli.BoolFlag{Name: "allow-hardlinks", Usage: "edit a file with several hard links (the write splits this name from the others)"},
		&cli.BoolFlag{Name: "allow-read-only", Usage: "replace a file this user may not write (the new file belongs to this user: another user's file also needs --allow-metadata-loss)"},
		&cli.BoolFlag{Name: "allow-metadata-loss", Usage: "write even if the new file cannot keep the owner, setuid/setgid/sticky bits or extended attributes (ACLs)"},
		&cli.StringFlag{Name: "expect-sha256", Usage: "refuse unless the file's content has this SHA-256 (`HEX`), as when it was read earlier"},
	}
}

// readFlags are the flags of commands that only read: JSON, language and
// confinement.
func readFlags() []cli.Flag {
	return []cli.Flag{jsonFlag(), langFlag(),
		&cli.StringFlag{Name: "root", EnvVars: []string{"SYMEDIT_ROOT"}, Usage: "confine every path to `DIR`"}}
}

// parseTimeout bounds one tree-sitter parse.
const parseTimeout = 30 * time.Second

// session is one command's access to files and its writing options.
type session struct {
	e      *env
	c      *cli.Context
	files  *edit.Files
	mode   edit.CheckMode
	dry    bool
	diff   bool
	json   bool
	expect string
}

// newSession opens the files for c's flags. The caller closes it.
func (e *env) newSession(c *cli.Context) (*session, error) {
	s := &session{e: e, c: c, dry: c.Bool("dry-run"), diff: c.Bool("diff"), json: c.Bool("json"),
		expect: c.String("expect-sha256")}
	var err error
	if s.mode, err = edit.ParseCheckMode(c.String("check")); err != nil {
		return nil, &ops.UsageError{Msg: err.Error()}
	}
	if s.expect != "" {
		if b, err := hex.DecodeString(s.expect); err != nil || len(b) != sha256.Size {
			return nil, &ops.UsageError{Msg: fmt.Sprintf("--expect-sha256 %q is not a SHA-256: want 64 hexadecimal digits (as sha256sum prints)", s.expect)}
		}
	}
	if s.files, err = edit.Open(edit.Options{Root: c.String("root"), AllowHardlinks: c.Bool("allow-hardlinks"),
		AllowReadOnly: c.Bool("allow-read-only"), AllowMetadataLoss: c.Bool("allow-metadata-loss")}); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *session) close() { s.files.Close() }

// withSession returns a command's action: it checks the arguments (between
// min and max of them, named names in messages; see positional), opens a
// session for the command's flags and runs run with both.
func (e *env) withSession(min, max int, names string, run func(s *session, args []string) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		args, err := e.positional(c, min, max, names)
		if err != nil {
			return err
		}
		s, err := e.newSession(c)
		if err != nil {
			return err
		}
		defer s.close()
		return run(s, args)
	}
}

// read reads path for editing and applies --expect-sha256.
func (s *session) read(path string) (*edit.Document, error) {
	doc, err := s.files.Read(path)
	if err != nil {
		return nil, err
	}
	if s.expect != "" {
		if err := doc.CheckSHA256(s.expect); err != nil {
			return nil, err
		}
	}
	return doc, nil
}

// language returns the language for path (or --lang), or nil when the
// file is in no supported language: the guard then skips it.
func (s *session) language(path string) *grammars.Language {
	l, err := grammars.Select(path, s.c.String("lang"))
	if err != nil {
		return nil
	}
	return l
}

// change is a computed edit of one file, not yet written.
type change struct {
	doc     *edit.Document
	lang    *grammars.Language
	content []byte      // the new content, BOM included
	edits   []edit.Edit // the byte edits that made it, or nil for a whole write
	what    string      // what the edit did, for the summary line
}

// outcome is what finishing a change produced.
type outcome struct {
	Diff    string
	Syntax  edit.SyntaxReport
	Written bool
}

// syntaxError is a change refused by the syntax guard in strict mode.
type syntaxError struct {
	path   string
	report edit.SyntaxReport
	mcp    bool // over MCP, which has no field that writes anyway: no flag named
}

func (e *syntaxError) Error() string {
	proceed := "use --check=warn to write anyway"
	if e.mcp {
		proceed = "correct the new text so that it parses and call again"
	}
	return fmt.Sprintf("%s: the edit adds %d syntax error(s) the file did not have; nothing was written (%s):\n%s",
		e.path, len(e.report.New), proceed, strings.TrimRight(e.report.Format(e.path), "\n"))
}

// notCheckedError is a change refused in strict mode because the syntax
// guard could not check it (too large, timed out): strict mode never
// writes unchecked content (issue 12, item 9).
type notCheckedError struct {
	path string
	err  *edit.NotCheckedError
	mcp  bool // over MCP, which has no field that writes anyway: no flag named
}

func (e *notCheckedError) Error() string {
	proceed := "strict mode writes only checked content; use --check=warn to write it with a note, or --check=off"
	if e.mcp {
		proceed = "the MCP tools write only content the syntax guard checked"
	}
	return fmt.Sprintf("%s: syntax not checked: %s; nothing was written (%s)", e.path, e.err.Reason, proceed)
}

// Unwrap returns the guard's *edit.NotCheckedError.
func (e *notCheckedError) Unwrap() error { return e.err }

// check runs the syntax guard on ch and, with --dry-run or --diff, builds
// its diff; new content the commit layer would refuse (edit.CheckContent:
// invalid UTF-8, NUL bytes, too large) is refused here, dry run or not; in
// strict mode an edit that adds syntax errors is a
// *syntaxError, and one the guard could not check a *notCheckedError.
func (s *session) check(ch *change) (outcome, error) {
	var out outcome
	ctx, cancel := context.WithTimeout(context.Background(), parseTimeout)
	defer cancel()
	rep, err := edit.CheckSyntax(ctx, ch.lang, ch.doc.Content, ch.content, ch.edits, edit.GuardOptions{Mode: s.mode})
	if err != nil {
		return out, err
	}
	out.Syntax = rep
	if s.dry || s.diff {
		// A diff of a large file costs more than the edit: only when shown.
		out.Diff = edit.Diff(diffPath(ch.doc), ch.doc.Content, ch.content)
	}
	if ch.changed() {
		// The commit layer's check, run here too so that a dry run
		// refuses what the real run would (issue 12, item 10).
		if err := edit.CheckContent(ch.doc, ch.content); err != nil {
			return out, err
		}
	}
	var nce *edit.NotCheckedError
	if errors.As(rep.NotChecked(s.mode), &nce) {
		return out, &notCheckedError{path: ch.doc.Path, err: nce, mcp: s.e.mcp}
	}
	if rep.Rejects(s.mode) {
		return out, &syntaxError{path: ch.doc.Path, report: rep, mcp: s.e.mcp}
	}
	return out, nil
}

// diffPath is the name a diff's headers give doc's file: the file
// actually edited, doc.RealPath() (every symbolic link, the final one
// included, and ".." resolved as the kernel resolves them, by the edit
// layer's resolver, never by cleaning text), relative to the working
// directory's real path when the file is below it, so that git apply and
// patch -p1 take the diff there; else the absolute path without its
// leading "/", for applying from the file system's root. A header never
// holds "../" (git apply refuses it; issue 11, section 2) nor names a
// link (git apply and patch refuse to patch a symbolic link).
func diffPath(doc *edit.Document) string {
	abs := doc.RealPath()
	if abs == "" { // not read through edit.Files: no resolution to trust
		return strings.TrimLeft(filepath.ToSlash(doc.Path), "/")
	}
	if wd, err := os.Getwd(); err == nil {
		if real, err := filepath.EvalSymlinks(wd); err == nil {
			wd = real
		}
		if rel, err := filepath.Rel(wd, abs); err == nil && filepath.IsLocal(rel) {
			return filepath.ToSlash(rel)
		}
	}
	return strings.TrimLeft(filepath.ToSlash(abs), "/")
}

// sideEnv is an env whose standard output and error are e's side channel.
func (e *env) sideEnv() *env { return &env{stdout: e.side, stderr: e.side} }

// changed reports whether ch changes the file: new content, or a file
// that does not exist yet (write of empty content creates an empty file,
// issue 11, section 7).
func (ch *change) changed() bool {
	return ch.doc.IsNew() || !bytes.Equal(ch.content, ch.doc.Content)
}

// commit writes a checked change unless this is a dry run.
func (s *session) commit(ch *change, out *outcome) error {
	if s.dry || !ch.changed() {
		return nil
	}
	if err := s.files.Commit(ch.doc, ch.content); err != nil {
		return err
	}
	out.Written = true
	return nil
}

// syntaxJSON is the "syntax" object of JSON results.
func syntaxJSON(r edit.SyntaxReport) map[string]any {
	m := map[string]any{"checked": r.Checked, "before": r.Before, "after": r.After}
	if r.Skipped != "" {
		m["skipped"] = r.Skipped
	}
	if r.Language != "" {
		m["language"] = r.Language
	}
	var probs []map[string]any
	for _, p := range r.New {
		probs = append(probs, map[string]any{"line": p.Line, "column": p.Column, "kind": p.Kind, "message": p.Message, "text": p.Text})
	}
	if len(probs) > 0 {
		m["new"] = probs
	}
	var notes []map[string]any
	for _, p := range r.Notes {
		notes = append(notes, map[string]any{"line": p.Line, "column": p.Column, "kind": p.Kind, "message": p.Message, "text": p.Text})
	}
	if len(notes) > 0 {
		m["notes"] = notes
	}
	return m
}

// readText reads a BODY/TEXT argument: a file or "-" for standard input.
func (e *env) readText(arg string) (string, error) {
	b, err := e.readInput(arg)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return "", fmt.Errorf("reading %s: %w", arg, pe.Err)
		}
		return "", err
	}
	return string(b), nil
}
