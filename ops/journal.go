package ops

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/symedit/symedit/diff"
	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/files"
	"github.com/symedit/symedit/internal/journal"
	"github.com/symedit/symedit/internal/symcache"
)

// EnvNoJournal is the environment variable that turns the journal off
// when set to "1", as Options.NoJournal does.
const EnvNoJournal = "SYMEDIT_NO_JOURNAL"

// opKey is the context key of the name of the operation a write belongs
// to: the public methods set it, and finish reads it when it records the
// write, so the journal names the operation without every planner
// carrying it.
type opKey struct{}

// withOp returns ctx naming the operation op.
func withOp(ctx context.Context, op string) context.Context {
	return context.WithValue(ctx, opKey{}, op)
}

// opOf returns the operation ctx names, or "write".
func opOf(ctx context.Context) string {
	if op, ok := ctx.Value(opKey{}).(string); ok {
		return op
	}
	return "write"
}

// journalOn reports whether writes are recorded.
func (w *Workspace) journalOn() bool {
	return !w.opt.NoJournal && os.Getenv(EnvNoJournal) != "1"
}

// openJournal opens the journal of the workspace's root: Root when
// confined, else the real path of Dir (the working directory when "").
// It is opened on first use, once.
func (w *Workspace) openJournal() (*journal.Journal, error) {
	w.jonce.Do(func() {
		dir := w.opt.IndexDir
		if dir == "" {
			d, err := symcache.DefaultDir()
			if err != nil {
				w.jerr = fmt.Errorf("no cache folder for the journal: %w", err)
				return
			}
			dir = d
		}
		root := w.Root()
		if root == "" {
			root = w.opt.Dir
			if root == "" {
				wd, err := os.Getwd()
				if err != nil {
					w.jerr = err
					return
				}
				root = wd
			}
			if real, err := filepath.EvalSymlinks(root); err == nil {
				root = real
			}
			if abs, err := filepath.Abs(root); err == nil {
				root = abs
			}
		}
		w.journal, w.jerr = journal.Open(journal.Options{Dir: dir, Root: root,
			MaxEntries: w.opt.JournalMaxEntries, MaxBytes: w.opt.JournalMaxBytes})
	})
	return w.journal, w.jerr
}

// journalPath is the name the journal gives the file at real: relative to
// the journal's root, slash-separated, when below it; else real.
func journalPath(j *journal.Journal, real string) string {
	if rel, err := filepath.Rel(j.Root(), real); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return real
}

// fsPath is the path of a journal's file name p.
func fsPath(j *journal.Journal, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(j.Root(), filepath.FromSlash(p))
}

// written is one file a commit wrote, for the journal: its Document as
// read, and its new content (del: it was removed), with the change of
// its execute permission.
type written struct {
	doc     *edit.Document
	content []byte
	del     bool
	exec    files.Exec
	// movedFrom: the Document of the file this one is the new name of.
	movedFrom *edit.Document
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// record appends the journal entry of an operation that wrote files and
// sets res's OpID, or its JournalError when the journal could not be
// written (the edit stands: a journal never blocks one).
func (w *Workspace) record(ctx context.Context, done []written, undoes []string, res *Result) {
	if len(done) == 0 || !w.journalOn() {
		return
	}
	j, err := w.openJournal()
	if err != nil {
		res.JournalError = "not recorded, so it cannot be undone: " + err.Error()
		return
	}
	e := &journal.Entry{Op: opOf(ctx), Undoes: undoes}
	for _, f := range done {
		jf := journal.File{Path: journalPath(j, f.doc.RealPath())}
		if !f.doc.IsNew() {
			jf.SHA256Before, jf.Mode, jf.Before = f.doc.SHA256(), f.doc.Mode, f.doc.Content
		}
		if !f.del {
			jf.SHA256After = sha(f.content)
			if f.exec != files.ExecKeep {
				jf.ModeAfter = f.exec.Apply(f.doc.Mode)
			}
		}
		if f.movedFrom != nil {
			from := journalPath(j, f.movedFrom.RealPath())
			jf.MovedFrom = from
			for i := range e.Files {
				if e.Files[i].Path == from {
					e.Files[i].MovedTo = jf.Path
				}
			}
		}
		e.Files = append(e.Files, jf)
	}
	// A move's old name may come after its new one: link it either way.
	for i := range e.Files {
		if from := e.Files[i].MovedFrom; from != "" {
			for k := range e.Files {
				if e.Files[k].Path == from {
					e.Files[k].MovedTo = e.Files[i].Path
				}
			}
		}
	}
	if err := j.Append(e); err != nil {
		res.JournalError = "not recorded, so it cannot be undone: " + err.Error()
		return
	}
	res.OpID = e.ID
}

// UndoRequest is an undo: of the operation OpID, or of the last Last
// operations (newest first), or, with neither, of the last one.
type UndoRequest struct {
	// OpID names the operation to undo, as a writing result's op_id gave
	// it; "" means the last operation (or the last Last).
	OpID string `json:"op_id,omitempty" jsonschema:"The operation to undo, as a writing tool's result gave it in op_id. Omitted: the last operation (or the last 'last' ones)."`
	// Last undoes the last Last operations, newest first, as one
	// transaction; 0 means 1. It cannot be given with OpID.
	Last int `json:"last,omitempty" jsonschema:"Undo the last N operations (newest first) as one transaction; omitted means 1. Not with op_id."`
	// DryRun writes nothing; the result carries the diff undo would apply.
	DryRun bool `json:"dry_run,omitempty" jsonschema:"True: write nothing; the result shows the unified diff the undo would apply."`
}

// UndoFile is one file of an undo.
type UndoFile struct {
	// Path is the file's path relative to the journal's root
	// (absolute outside it).
	Path string `json:"path" jsonschema:"The file, relative to the root (absolute when outside it)."`
	// Action is what undo does to it: "restored" (its content before put
	// back), "recreated" (a file the operation deleted or moved),
	// "deleted" (a file the operation created), or "unchanged".
	Action string `json:"action" jsonschema:"What the undo does to the file: restored (its content before put back), recreated (a file the operation deleted or moved away), deleted (a file the operation created) or unchanged."`
	// State, in a refusal, is how the file differs from what the
	// operation left: "changed" (other content), "deleted" (gone),
	// "replaced" (something now where the operation removed a file, or
	// a file that cannot be read as text); "" when it is as left.
	State string `json:"state,omitempty" jsonschema:"How the file differs from what the operation left, which refuses the undo: changed (other content), deleted (gone) or replaced (a file where the operation removed one, or one that cannot be read as text); omitted when it is as the operation left it."`
}

// UndoResult is Undo's result. Result.OpID is the undo's own entry (undo
// it to redo).
type UndoResult struct {
	Result
	// Undone are the IDs of the operations reverted (or, for a dry run or
	// a refusal, that would be), newest first.
	Undone []string `json:"undone" jsonschema:"The op_ids of the operations reverted (for a dry run or a refusal: that would be), newest first."`
	// Files are the files the undo writes, creates or deletes. Never nil.
	Files []UndoFile `json:"files" jsonschema:"The files of the undone operations, each with what the undo does to it and, in a refusal, how it changed since."`
}

// undoPlan is one file's part of an undo.
type undoPlan struct {
	path  string        // the journal's name
	after string        // the SHA-256 the operations left ("" for none)
	to    *journal.File // the oldest record: its before state is the target
	doc   *edit.Document
	state string
}

// Undo reverts the operation req.OpID, or the last req.Last operations
// (newest first), from the journal of the workspace's root: every file
// gets its content before (a created file is deleted, a deleted or moved
// one recreated, with its permission bits), all in one transaction
// (files.Files.Commit, AllOrNone: all done or none), and only if each file
// still holds exactly what the operations left. Otherwise it is refused
// with CHANGED (UndoResult.Files says how each file differs) and writes
// nothing. The undo is itself recorded, so undoing it redoes. A file the
// undo recreates gets the permission bits it was recorded with (its owner
// and extended attributes are this user's and none: the journal does not
// keep them), or, put back from a name it was moved to, that file's
// metadata; a file it rewrites keeps its mode, with the recorded execute
// permission.
// *Error: CHANGED, INVALID_INPUT (no such operation, an empty journal),
// USAGE (op_id with last), LOCKED, NOT_WRITABLE, ERROR (the journal
// cannot be read).
func (w *Workspace) Undo(ctx context.Context, req UndoRequest) (*UndoResult, error) {
	res := &UndoResult{Undone: []string{}, Files: []UndoFile{}}
	res.DryRun = req.DryRun
	if req.OpID != "" && req.Last > 0 {
		return res, res.Fail(&UsageError{Field: "last", Msg: "give an operation id or a count of last operations, not both"})
	}
	if req.Last < 0 {
		return res, res.Fail(&UsageError{Field: "last", Msg: "a count of operations must be 1 or more"})
	}
	j, err := w.openJournal()
	if err != nil {
		return res, res.Fail(err)
	}
	entries, err := w.undoEntries(j, req)
	if err != nil {
		return res, res.Fail(err)
	}
	for _, e := range entries {
		res.Undone = append(res.Undone, e.ID)
	}
	byPath, order := planUndo(entries)
	paths := make([]string, len(order))
	for i, p := range order {
		paths[i] = fsPath(j, p.path)
	}
	unlock, err := w.lockAll(ctx, paths)
	if err != nil {
		return res, res.Fail(err)
	}
	defer unlock()
	if refusal := w.undoChanged(order, paths); refusal != nil {
		for _, p := range order {
			res.Files = append(res.Files, UndoFile{Path: p.path, Action: undoAction(p), State: p.state})
		}
		return res, res.Fail(refusal)
	}
	changes, recs, err := w.undoChanges(j, order, byPath)
	if err != nil {
		return res, res.Fail(err)
	}
	for _, p := range order {
		res.Files = append(res.Files, UndoFile{Path: p.path, Action: undoAction(p)})
	}
	res.OK = true
	res.Changed = len(changes) > 0
	res.Summary = fmt.Sprintf("undo %s: %d file(s)", strings.Join(res.Undone, ", "), len(changes))
	if req.DryRun {
		res.Diff = w.undoDiff(changes)
		return res, nil
	}
	return w.commitUndo(ctx, res, changes, recs)
}

// planUndo returns one plan per file the entries touched, by its journal
// name and in the order the entries first name it. entries are newest
// first: each file's expected state is what the newest operation left,
// its target what the oldest found.
func planUndo(entries []*journal.Entry) (byPath map[string]*undoPlan, order []*undoPlan) {
	byPath = map[string]*undoPlan{}
	for _, e := range entries {
		for i := range e.Files {
			f := &e.Files[i]
			p := byPath[f.Path]
			if p == nil {
				p = &undoPlan{path: f.Path, after: f.SHA256After}
				byPath[f.Path] = p
				order = append(order, p)
			}
			p.to = f
		}
	}
	return byPath, order
}

// undoChanged reads each planned file (at paths[i], order[i]'s) into its
// plan, with how it differs from what the operations left, and returns the
// CHANGED refusal naming every file that differs, or nil when none does:
// an undo over a later edit would lose it.
func (w *Workspace) undoChanged(order []*undoPlan, paths []string) *Error {
	var bad []string
	for i, p := range order {
		p.doc, p.state = w.undoState(paths[i], p.after)
		if p.state != "" {
			bad = append(bad, p.path+" ("+p.state+")")
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return &Error{Code: CodeChanged, Message: fmt.Sprintf("not undone: %d file(s) changed since the operation: %s; nothing was written", len(bad), strings.Join(bad, ", "))}
}

// undoDiff returns the unified diff of changes, a dry run's undo (a
// deletion as the file's content going away).
func (w *Workspace) undoDiff(changes []files.Change) string {
	var b strings.Builder
	for _, c := range changes {
		content := c.Content
		if c.Delete {
			content = nil
		}
		b.WriteString(diff.DiffChange(diffPath(c.Doc, w.opt.Dir), c.Doc, content, nil))
	}
	return b.String()
}

// commitUndo writes changes in one transaction (all or none), unless ctx
// is done first, and records the undo in the journal (recs, the files
// written, and res.Undone, the operations it undid), so that undoing it
// redoes.
func (w *Workspace) commitUndo(ctx context.Context, res *UndoResult, changes []files.Change, recs []written) (*UndoResult, error) {
	if err := cancelled(ctx); err != nil {
		return res, res.Fail(err)
	}
	if w.beforeUndoCommit != nil {
		w.beforeUndoCommit()
	}
	if len(changes) > 0 {
		if _, err := w.files.Commit(withOp(ctx, "undo"), changes, files.AllOrNone); err != nil {
			res.OK, res.Changed = false, false
			return res, res.Fail(err)
		}
		res.Written = true
	}
	w.record(withOp(ctx, "undo"), recs, res.Undone, &res.Result)
	return res, nil
}

// undoEntries returns the entries req names, newest first.
func (w *Workspace) undoEntries(j *journal.Journal, req UndoRequest) ([]*journal.Entry, error) {
	if req.OpID != "" {
		e, err := j.Get(req.OpID)
		if errors.Is(err, journal.ErrNotFound) {
			return nil, &Error{Code: CodeInvalidInput, Message: fmt.Sprintf("no operation %q in the journal of %s (the journal keeps the last operations only)", req.OpID, j.Root())}
		}
		if err != nil {
			return nil, err
		}
		return []*journal.Entry{e}, nil
	}
	all, _, err := j.List()
	if err != nil {
		return nil, err
	}
	n := max(req.Last, 1)
	if len(all) < n {
		return nil, &Error{Code: CodeInvalidInput, Message: fmt.Sprintf("the journal of %s holds %d operation(s), fewer than the %d to undo", j.Root(), len(all), n)}
	}
	out := slices.Clone(all[len(all)-n:])
	slices.Reverse(out)
	return out, nil
}

// undoState reads the file at path and says how it differs from the
// state after ("" for no file): "" when it is as expected, else
// "changed", "deleted" or "replaced". The Document is nil when the file
// cannot be read.
func (w *Workspace) undoState(path, after string) (*edit.Document, string) {
	doc, err := w.files.ReadOrNew(path)
	switch {
	case err != nil:
		return nil, "replaced"
	case after == "" && !doc.IsNew():
		return doc, "replaced"
	case after == "":
		return doc, ""
	case doc.IsNew():
		return doc, "deleted"
	case doc.SHA256() != after:
		return doc, "changed"
	}
	return doc, ""
}

// undoAction says what the undo does to p's file.
func undoAction(p *undoPlan) string {
	switch {
	case !p.to.Existed() && p.after != "":
		return "deleted"
	case !p.to.Existed():
		return "unchanged"
	case p.after == "":
		return "recreated"
	case p.doc != nil && bytes.Equal(p.doc.Content, p.to.Before) && p.doc.Mode == p.to.Mode:
		return "unchanged"
	}
	return "restored"
}

// undoChanges returns the transaction that puts every file of order back
// (writes and creations first, then deletions: a recreated file moved
// away is made from its new name, which is deleted after), and the
// journal's record of it.
func (w *Workspace) undoChanges(j *journal.Journal, order []*undoPlan, byPath map[string]*undoPlan) ([]files.Change, []written, error) {
	var changes, dels []files.Change
	var recs, delRecs []written
	for _, p := range order {
		to := p.to
		switch {
		case !to.Existed() && p.doc.IsNew():
			// Created, then removed again by a later operation undone too.
		case !to.Existed():
			dels = append(dels, files.Change{Doc: p.doc, Delete: true})
			delRecs = append(delRecs, written{doc: p.doc, del: true})
		default:
			exec := execTo(p.doc, to.Mode)
			if !p.doc.IsNew() && bytes.Equal(p.doc.Content, to.Before) && exec == files.ExecKeep {
				continue
			}
			c := files.Change{Doc: p.doc, Content: to.Before, Exec: exec}
			rec := written{doc: p.doc, content: to.Before, exec: exec}
			if p.doc.IsNew() {
				// Put back with the permission bits it had, not a new
				// file's.
				c.Mode, c.Exec = to.Mode.Perm(), files.ExecKeep
			}
			if p.doc.IsNew() && to.MovedTo != "" {
				// Made from its new name keeps its owner, mode and extended
				// attributes, when that name is deleted in this undo.
				if q := byPath[to.MovedTo]; q != nil && !q.to.Existed() && q.doc != nil && !q.doc.IsNew() {
					c.From, c.Exec, rec.movedFrom, rec.exec = q.doc, files.ExecKeep, q.doc, files.ExecKeep
				}
			}
			changes, recs = append(changes, c), append(recs, rec)
		}
	}
	return append(changes, dels...), append(recs, delRecs...), nil
}

// execTo is the change of doc's execute permission that gives it mode's:
// for a file to create, ExecSet when mode has any execute bit.
func execTo(doc *edit.Document, mode fs.FileMode) files.Exec {
	want := mode&0o111 != 0
	if doc.IsNew() {
		if want {
			return files.ExecSet
		}
		return files.ExecKeep
	}
	has := doc.Mode&0o111 != 0
	switch {
	case want && !has:
		return files.ExecSet
	case !want && has:
		return files.ExecClear
	}
	return files.ExecKeep
}

// JournalRequest asks for the journal's entries.
type JournalRequest struct {
	// Limit lists only the newest Limit entries; 0 lists all.
	Limit int `json:"limit,omitempty" jsonschema:"List only the newest N operations; omitted lists every one the journal keeps."`
}

// JournalResult is Journal's result.
type JournalResult struct {
	// OK is false when the journal could not be read; Error says why.
	OK bool `json:"ok" jsonschema:"False when the journal could not be read; error says why."`
	// Error is why the journal could not be read, or nil.
	Error *Error `json:"error,omitempty" jsonschema:"Why the journal could not be read; omitted on success."`
	// Root is the real path the journal is for; Dir the folder its
	// entries are in.
	Root string `json:"root" jsonschema:"The real path of the folder the journal is for: file paths are relative to it."`
	Dir  string `json:"dir" jsonschema:"The folder that holds the journal's entries."`
	// Entries are the operations, oldest first. Never nil.
	Entries []JournalEntry `json:"entries" jsonschema:"The recorded operations, oldest first."`
	// Problems are the entries that could not be read, skipped.
	Problems []string `json:"problems,omitempty" jsonschema:"Journal entries that could not be read and were skipped; omitted when none."`
}

// JournalEntry is one operation as Journal lists it.
type JournalEntry struct {
	// OpID is the entry's id, for Undo.
	OpID string `json:"op_id" jsonschema:"The operation's id: pass it to undo."`
	// Time is when it committed (RFC 3339, UTC, nanoseconds).
	Time string `json:"time" jsonschema:"When the operation wrote its files (RFC 3339, UTC)."`
	// Op is the operation's name (chunk, apply, undo, ...).
	Op string `json:"op" jsonschema:"The operation's name: chunk, edit, lines, write, replace, replace-body, insert-before, insert-after, apply, batch or undo."`
	// Undoes are the operations an undo reverted.
	Undoes []string `json:"undoes,omitempty" jsonschema:"For an undo: the op_ids it reverted; omitted otherwise."`
	// Undoable reports that every file still holds what the operation
	// left, so Undo of it would proceed.
	Undoable bool `json:"undoable" jsonschema:"True when every file still holds what the operation left, so undoing it would proceed."`
	// Files are the operation's files.
	Files []JournalFile `json:"files" jsonschema:"The files the operation wrote, created, deleted or moved."`
}

// JournalFile is one file of a JournalEntry.
type JournalFile struct {
	// Path is relative to JournalResult.Root (absolute outside it).
	Path string `json:"path" jsonschema:"The file, relative to root (absolute when outside it)."`
	// Action is what the operation did: "modified", "created",
	// "deleted"; MovedTo and MovedFrom name a move's other name.
	Action    string `json:"action" jsonschema:"What the operation did to the file: modified, created or deleted."`
	MovedTo   string `json:"moved_to,omitempty" jsonschema:"For a file the operation renamed: its new name; omitted otherwise."`
	MovedFrom string `json:"moved_from,omitempty" jsonschema:"For a file the operation made by a rename: its old name; omitted otherwise."`
	// State is how the file differs now from what the operation left
	// (UndoFile.State), "" when it does not.
	State string `json:"state,omitempty" jsonschema:"How the file differs now from what the operation left: changed, deleted or replaced; omitted when it is as left (the file can be undone)."`
}

// Journal lists the operations recorded for the workspace's root, oldest
// first, each with whether it can still be undone. An entry that cannot
// be read is listed in Problems and skipped.
// *Error: ERROR (no cache folder, an unreadable journal folder).
func (w *Workspace) Journal(ctx context.Context, req JournalRequest) (*JournalResult, error) {
	res := &JournalResult{Entries: []JournalEntry{}}
	j, err := w.openJournal()
	if err != nil {
		return res, res.Fail(err)
	}
	res.Root, res.Dir = j.Root(), j.Dir()
	all, bad, err := j.List()
	if err != nil {
		return res, res.Fail(err)
	}
	for _, b := range bad {
		res.Problems = append(res.Problems, b.Error())
	}
	if req.Limit > 0 && len(all) > req.Limit {
		all = all[len(all)-req.Limit:]
	}
	for _, e := range all {
		if err := ctx.Err(); err != nil {
			return res, res.Fail(cancelled(ctx))
		}
		je := JournalEntry{OpID: e.ID, Time: e.Time.UTC().Format(time.RFC3339Nano), Op: e.Op, Undoes: e.Undoes, Undoable: true, Files: []JournalFile{}}
		for _, f := range e.Files {
			jf := JournalFile{Path: f.Path, MovedTo: f.MovedTo, MovedFrom: f.MovedFrom, Action: "modified"}
			switch {
			case !f.Existed():
				jf.Action = "created"
			case !f.Exists():
				jf.Action = "deleted"
			}
			_, jf.State = w.undoState(fsPath(j, f.Path), f.SHA256After)
			je.Undoable = je.Undoable && jf.State == ""
			je.Files = append(je.Files, jf)
		}
		res.Entries = append(res.Entries, je)
	}
	res.OK = true
	return res, nil
}

// Fail records err in res (ok false, error set) and returns it as an
// *Error.
func (res *JournalResult) Fail(err error) error {
	e := AsError(err)
	res.OK, res.Error = false, e
	return e
}
