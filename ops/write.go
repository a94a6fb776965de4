package ops

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

	"github.com/symedit/symedit/diff"
	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/files"
	"github.com/symedit/symedit/guard"
	"github.com/symedit/symedit/internal/lines"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

// parseTimeout bounds one tree-sitter parse.
const parseTimeout = 30 * time.Second

// change is a computed edit of one file, not yet written.
type change struct {
	doc     *edit.Document
	lang    *lang.Language
	content []byte      // the new content, BOM included
	edits   []edit.Edit // the byte edits of doc.Content that made it (one over the whole file for a write)
	what    string      // what the edit did, for the summary line
	// located: the parse of doc's text that located the edited symbol
	// (set only for a change made from a located target, whose doc is
	// the content parsed): its snap is the guard's parse of the content
	// before (guard.GuardOptions.Before), which then does not parse
	// doc's content again, and its symbols are the receipt's symbols
	// before; nil when there was none. Borrowed: the operation that made
	// the parse closes it after the check.
	located *parsed
}

// changed reports whether ch changes the file: new content, or a file
// that does not exist yet (write of empty content creates an empty
// file).
func (ch *change) changed() bool {
	return ch.doc.IsNew() || !bytes.Equal(ch.content, ch.doc.Content)
}

// outcome is what checking and committing a change produced.
type outcome struct {
	diff    string
	syntax  guard.SyntaxReport
	written bool
	// symbols is what the change does to the file's symbols, when the
	// guard checked it and passed it; else nil.
	symbols *SymbolChanges
}

// check runs the syntax guard on ch and, for a dry run or with o.Diff,
// builds its diff. New content the commit layer would refuse
// (edit.CheckContent: invalid UTF-8, NUL bytes, too large) is refused
// here, dry run or not; in strict mode an edit that adds syntax errors is
// a *SyntaxError, and one the guard could not check a *NotCheckedError.
func (w *Workspace) check(ctx context.Context, ch *change, o WriteOptions) (outcome, error) {
	var out outcome
	mode, err := o.mode()
	if err != nil {
		return out, err
	}
	ctx, cancel := context.WithTimeout(ctx, parseTimeout)
	defer cancel()
	opt := guard.GuardOptions{Mode: mode}
	var before symbols.File
	// known: before holds the symbols before, for the result's symbols
	// (never with o.NoSymbols, which leaves those out).
	var known bool
	if ch.located != nil && ch.located.snap != nil {
		opt.Before, before, known = ch.located.snap, ch.located.file, !o.NoSymbols
	}
	// The symbols before and after the change, for the result's receipt,
	// come from the guard's own parses: the content before is parsed
	// here (when the operation did not locate a symbol in it) and handed
	// to the guard as its parse of that content, and the guard hands back
	// its parse of the content after.
	var after *lang.Parse
	var newDoc *edit.Document   // ch.content as a document, for the receipt; nil when it is none
	var afterFile *symbols.File // the symbols after, when extracted before the check
	if ch.lang != nil && mode != guard.CheckOff && len(ch.content) <= guard.GuardMaxSize && len(ch.doc.Content) <= guard.GuardMaxSize {
		if !known && !o.NoSymbols {
			f, p, err := symbols.ExtractParse(ctx, ch.doc.Text, ch.lang)
			if err == nil {
				defer p.Close()
				before, known, opt.Before = f, true, p
			}
		}
		opt.KeepAfter = func(p *lang.Parse) { after = p }
		if known {
			newDoc, _ = edit.NewDocument(ch.doc.Path, ch.content)
		}
		if newDoc != nil && opt.Before.Clean {
			// Where the language's own parser finds the symbols (Go),
			// the receipt's symbols after come from that parser over
			// the declarations the edits touched, the very parse the
			// check would make: made first, it is the check's word that
			// the content after parses (guard.GuardOptions.After), one
			// parse for both.
			afterFile, opt.After = extractOwnAfter(ctx, ch, newDoc, before)
		}
	}
	rep, err := guard.CheckSyntax(ctx, ch.lang, ch.doc.Content, ch.content, ch.edits, opt)
	defer after.Close()
	if err != nil {
		return out, err
	}
	out.syntax = rep
	if known && newDoc != nil && rep.Checked && !rep.Rejects(mode) {
		out.symbols = symbolChanges(ctx, ch, newDoc, before, after, afterFile)
	}
	if o.DryRun || o.Diff {
		// A diff of a large file costs more than the edit: only when shown.
		out.diff = diff.DiffChange(diffPath(ch.doc, w.opt.Dir), ch.doc, ch.content, ch.edits)
	}
	if ch.changed() {
		// The commit layer's check, run here too so that a dry run
		// refuses what the real run would.
		if err := edit.CheckContent(ch.doc, ch.content); err != nil {
			return out, err
		}
	}
	var nce *guard.NotCheckedError
	if errors.As(rep.NotChecked(mode), &nce) {
		return out, &NotCheckedError{Path: ch.doc.Path, Err: nce}
	}
	if rep.Rejects(mode) {
		return out, &SyntaxError{Path: ch.doc.Path, Report: rep}
	}
	return out, nil
}

// extractOwnAfter returns the symbols of ch's content after (newDoc),
// extracted from before (the File of ch.doc.Text, which the language's
// own parser accepted) by that parser over the declarations ch's edits
// touched (symbols.ExtractOwnEdits), and the parse that says that parser
// accepts that content, for the syntax guard; nil, nil when that
// extraction does not apply or fails (the guard and the receipt then
// parse as they would without it).
func extractOwnAfter(ctx context.Context, ch *change, newDoc *edit.Document, before symbols.File) (*symbols.File, *lang.Parse) {
	p := &lang.Parse{Lang: ch.lang, Text: newDoc.Text}
	f, ok, err := symbols.ExtractOwnEdits(ctx, before, ch.doc.Text, p, textEdits(ch.doc, newDoc, ch.edits))
	if err != nil || !ok || !f.Clean {
		return nil, nil
	}
	p.Clean, p.Layout = true, f.Layout
	return &f, p
}

// commit writes a checked change unless this is a dry run. It stops
// waiting for the folder's lock when ctx is done.
func (w *Workspace) commit(ctx context.Context, ch *change, o WriteOptions, out *outcome) error {
	if o.DryRun || !ch.changed() {
		return nil
	}
	if _, err := w.commitEach(ctx, []*change{ch}); err != nil {
		return err
	}
	out.written = true
	return nil
}

// commitEach commits chs in order, each file on its own
// (files.Files.Commit, EachAlone; one change is a one-file commit, every
// step under its folder's lock): it stops at the first that fails, the
// ones before it staying written, and returns how many it wrote and the
// failed one's error (a *edit.FileError, or ctx's error when ctx was done
// before it was written). ctx also ends the wait for a folder's lock.
func (w *Workspace) commitEach(ctx context.Context, chs []*change) (written int, err error) {
	return w.files.Commit(ctx, fileChanges(chs), files.EachAlone)
}

// commitAtomic commits chs in order as one transaction
// (files.Files.Commit, AllOrNone): when one fails, the ones written
// before it are put back, and the error is a *files.TransactionError.
// ctx is asked before each file is written and ends the wait for a
// folder's lock; it never stops the putting back.
func (w *Workspace) commitAtomic(ctx context.Context, chs []*change) error {
	_, err := w.files.Commit(ctx, fileChanges(chs), files.AllOrNone)
	return err
}

// fileChanges returns the file layer's changes that commit chs: each
// one's content to the file its document was read from (created, for a
// new document).
func fileChanges(chs []*change) []files.Change {
	out := make([]files.Change, len(chs))
	for i, ch := range chs {
		out[i] = files.Change{Doc: ch.doc, Content: ch.content}
	}
	return out
}

// finish checks, previews and commits one change and fills res: path,
// dry_run, changed, written, diff, syntax, summary, ok; on refusal ok is
// false and error is set (a refused dry run keeps its diff: a dry run
// promises the diff and the check results). It returns res.Error, or nil.
func (w *Workspace) finish(ctx context.Context, ch *change, o WriteOptions, res *Result) error {
	res.Path, res.DryRun = ch.doc.Path, o.DryRun
	res.SHA256Before, res.SHA256After, res.Lines = ch.receipt()
	out, err := w.check(ctx, ch, o)
	if err == nil {
		err = cancelled(ctx)
	}
	if err == nil {
		err = w.commit(ctx, ch, o, &out)
	}
	res.Syntax, res.Symbols = syntaxOf(out.syntax), out.symbols
	if err != nil {
		if o.DryRun {
			res.Diff = out.diff
		}
		return res.Fail(err)
	}
	res.OK, res.Changed, res.Written, res.Diff = true, ch.changed(), out.written, out.diff
	res.Summary = ch.what
	if out.written {
		w.record(ctx, []written{{doc: ch.doc, content: ch.content}}, nil, res)
	}
	return nil
}

// writeFile runs a writing operation on the file at path, the file-level
// counterpart of writeSymbol: it checks the path and o, runs precheck (the
// request's own validation, done before any lock or read so that a
// malformed request costs nothing), holds the file's lock, reads the file
// with read, has plan compute the change and checks, previews and commits
// it (finish), filling res. The path is resolved once, for the lock and
// the read: read gets that resolution (see readResolved). It returns
// res.Error, or nil.
func (w *Workspace) writeFile(ctx context.Context, path string, o WriteOptions, res *Result, precheck func() error, read func(resolved) (*edit.Document, error), plan func(*edit.Document) (*change, error)) error {
	res.Path, res.DryRun = path, o.DryRun
	if err := checkPath(path); err != nil {
		return res.Fail(err)
	}
	if err := o.validate(); err != nil {
		return res.Fail(err)
	}
	if err := precheck(); err != nil {
		return res.Fail(err)
	}
	r, unlock, err := w.lockResolved(ctx, path)
	if err != nil {
		return res.Fail(err)
	}
	defer unlock()
	doc, err := read(r)
	if err != nil {
		return res.Fail(err)
	}
	ch, err := plan(doc)
	if err != nil {
		return res.Fail(err)
	}
	return w.finish(ctx, ch, o, res)
}

// receipt returns the file's SHA-256 as read ("" for a new file), that
// of ch's new content, and the new content's line count: the receipt
// fields of a result (Result.SHA256Before, SHA256After, Lines).
func (ch *change) receipt() (before, after string, n int) {
	if !ch.doc.IsNew() {
		before = ch.doc.SHA256()
	}
	sum := sha256.Sum256(ch.content)
	text := bytes.TrimPrefix(ch.content, []byte("\uFEFF"))
	starts := lines.IndexStarts(text)
	n = len(starts)
	if starts[n-1] == len(text) {
		n-- // a final line ending (or no text) starts no line
	}
	return before, hex.EncodeToString(sum[:]), n
}

// cancelled returns an error when ctx is done: checked just before a
// commit, so that a call cancelled (or past its time limit) while it was
// being checked writes nothing.
func cancelled(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("the call was stopped before anything was written: %w", err)
	}
	return nil
}

// Fail records err in res (ok false, error set) and returns it as an
// *Error.
func (res *Result) Fail(err error) error {
	e := AsError(err)
	res.OK, res.Error = false, e
	return e
}

// diffPath is the name a diff's headers give doc's file: the file
// actually edited, doc.RealPath() (every symbolic link, the final one
// included, and ".." resolved as the kernel resolves them, by the edit
// layer's resolver, never by cleaning text), relative to the real path of
// dir (the working directory when dir is "") when the file is below it,
// so that git apply and patch -p1 take the diff there; else the absolute path without its
// leading "/", for applying from the file system's root. A header never
// holds "../" (git apply refuses it) nor names a
// link (git apply and patch refuse to patch a symbolic link).
func diffPath(doc *edit.Document, dir string) string {
	abs := doc.RealPath()
	if abs == "" { // not read through files.Files: no resolution to trust
		return strings.TrimLeft(filepath.ToSlash(doc.Path), "/")
	}
	wd, err := dir, error(nil)
	if dir == "" {
		wd, err = os.Getwd()
	}
	if err == nil {
		if real, err := filepath.EvalSymlinks(wd); err == nil {
			wd = real
		}
		if rel, err := filepath.Rel(wd, abs); err == nil && filepath.IsLocal(rel) {
			return filepath.ToSlash(rel)
		}
	}
	return strings.TrimLeft(filepath.ToSlash(abs), "/")
}
