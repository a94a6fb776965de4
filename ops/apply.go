package ops

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/symedit/symedit/diff"
	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/files"
	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/remedy"
	"github.com/symedit/symedit/reply"
)

// ApplyRequest applies the edit blocks of a model's reply, across files,
// as one transaction (`symedit apply`, the MCP apply tool). The reply's
// formats (EDIT and SEARCH/REPLACE blocks, unified diffs, Codex
// apply_patch patches) and the rules that read them are package reply's.
type ApplyRequest struct {
	// Reply is the model's whole reply: free text holding any number of
	// blocks, prose and code fences around them allowed.
	Reply string `json:"reply" jsonschema:"Text holding edits, prose around them allowed, in any of these formats: an EDIT block (a line with the file's path relative to the root, then <<<<<<< EDIT, leading anchor lines (kept), -------, old lines (removed), =======, new lines (written), -------, trailing anchor lines (kept), >>>>>>>); a SEARCH/REPLACE block (the path, then <<<<<<< SEARCH, old lines, =======, new lines, >>>>>>> REPLACE; Cline's ------- SEARCH / +++++++ REPLACE too); a unified diff (git diff, diff -u: --- a/P, +++ b/P, @@ hunks), placed by its context lines, not its line numbers (a hunk with no context lines applies only at the end of the file, where its numbers say); a Codex apply_patch patch, alone or as apply_patch <<'EOF' ... EOF, after cd DIR && when its paths are relative to DIR (*** Begin Patch, *** Update File: P (optionally *** Move to: Q), *** Add File: P or *** Delete File: P, @@ hunks, *** End Patch); diffs and patches may also delete and rename files. Lines are matched exactly (line endings aside); empty anchors and old lines create a new file."`
	// Path is the file of every EDIT or SEARCH/REPLACE block for which
	// the reply names none (reply.Options.Path), or "".
	Path string `json:"path,omitempty" jsonschema:"The file every block without a path of its own edits (for a reply about one file that names none). Omitted: each block must name its file."`
	// Match is the loosest match level allowed (match.Parse: exact,
	// trailing, indent, loose); "" means exact.
	Match string `json:"match,omitempty"`
	// Partial writes each file whose blocks all apply, and reports the
	// others; without it nothing is written unless every block of every
	// file applies.
	Partial bool `json:"partial,omitempty" jsonschema:"true: write each file whose blocks all apply, and report the others. Omitted or false: write nothing unless every block of every file applies."`
	// AllowElision writes a block whose new lines hold a placeholder line
	// ("// ... existing code ...") where its old lines have code; without
	// it such a block fails (ELIDED). Aider's "..." lines, on both sides
	// of a SEARCH/REPLACE block, are not such a placeholder.
	AllowElision bool `json:"allow_elision,omitempty" jsonschema:"true: write a block whose new lines hold a placeholder line such as // ... existing code ... or # rest of the function unchanged where its old lines have code. Omitted or false: such a block fails (ELIDED), since the placeholder would delete that code; ... lines on both sides of a SEARCH/REPLACE block are Aider's elision, not a placeholder."`
	WriteOptions
}

// The statuses of an ApplyBlock and of an ApplyFile.
const (
	// ApplyApplied: the block applied; the file's blocks all applied and
	// it was written (or, in a dry run, would be).
	ApplyApplied = "applied"
	// ApplyFailed: the block or the file is why the reply (or, with
	// Partial, the file) was not written; Reason says why.
	ApplyFailed = "failed"
	// ApplySkipped: valid, or not tried, but not written because of
	// another block or file; Reason says which.
	ApplySkipped = "skipped"
)

// The operations an ApplyFile's Op names.
const (
	ApplyAdd    = "add"    // the reply creates the file
	ApplyUpdate = "update" // the reply edits the file in place
	ApplyDelete = "delete" // the reply deletes the file
	ApplyMove   = "move"   // the reply moves the file to MoveTo, edited or not
)

// ApplyResult is the result of an ApplyRequest. Its Result has no path:
// ok (every block of every file applied and was written, or in a dry run
// would be), changed and written (some file changed, was written),
// dry_run, summary, and error (code APPLY for a block that did not apply
// or a malformed block, with the message saying which; INVALID_INPUT,
// OUTSIDE_ROOT, ... for a reply refused as a whole). Files, Blocks,
// Malformed and Shell are never nil.
type ApplyResult struct {
	Result
	// Files are the files the reply edits, in the order the reply first
	// names them.
	Files []ApplyFile `json:"files" jsonschema:"The files the reply edits, in the order the reply first names them; each with its own ok, status, reason and error."`
	// Blocks are the well-formed blocks, in reply order.
	Blocks []ApplyBlock `json:"blocks" jsonschema:"The well-formed blocks, in reply order."`
	// Malformed are the blocks that could not be read; any of them
	// refuses the reply (with Partial, the files it names).
	Malformed []ApplyMalformed `json:"malformed" jsonschema:"The blocks that could not be read; any of them refuses the reply (with partial, the files it names)."`
	// Shell are the shell commands the reply suggests: listed, never run.
	Shell []reply.ShellSuggestion `json:"shell_suggestions" jsonschema:"The shell commands the reply suggests: listed, never run."`
}

// ApplyFile is one file of an ApplyResult. Its Result has the file's path
// as the reply names it, changed, written (the file holds its new content
// on disk when Apply returns: for a deleted file, that it is gone; for a
// moved one, that it is at MoveTo and gone from Path), dry_run, diff (git
// diff's form for a deletion or move), syntax, summary, and ok with the
// error when the file was not written: why it failed (APPLY with the
// failed block's line, expected, actual, candidates, nearest and hint;
// SYNTAX, CHANGED, ...) or was skipped (APPLY).
type ApplyFile struct {
	Result
	// Op is what the reply does to the file: ApplyAdd, ApplyUpdate,
	// ApplyDelete or ApplyMove.
	Op string `json:"op" jsonschema:"What the reply does to the file: add (creates it), update (edits it in place), delete or move (to move_to, edited or not)."`
	// MoveTo is where the reply moves the file (Op ApplyMove).
	MoveTo string `json:"move_to,omitempty" jsonschema:"Where the reply moves the file (op move); else omitted."`
	// Status is ApplyApplied, ApplyFailed or ApplySkipped.
	Status string `json:"status" jsonschema:"applied (the file's blocks all applied; written unless dry_run), failed (why the reply, or with partial the file, was not written; reason says why) or skipped (not written because of another block or file; reason says which)."`
	// Reason says why the file was not written, or, for a file written
	// and not restored after a later write failed, that.
	Reason string `json:"reason,omitempty" jsonschema:"Why the file was not written, or that it was written and not restored after a later write failed; omitted otherwise."`
	// Blocks are the 1-based indexes (ApplyBlock.Index) of the file's
	// blocks, in reply order.
	Blocks []int `json:"blocks" jsonschema:"The 1-based indexes (index in blocks) of the file's blocks, in reply order."`
}

// ApplyBlock is one well-formed block of an ApplyResult.
type ApplyBlock struct {
	// Index is the block's 1-based number, in reply order.
	Index  int          `json:"index" jsonschema:"The block's 1-based number, in reply order."`
	Path   string       `json:"path" jsonschema:"The file the block edits, as the reply names it."`
	Format reply.Format `json:"format" jsonschema:"The block's format: edit, search-replace, unified-diff or apply-patch."`
	// Status is ApplyApplied, ApplyFailed or ApplySkipped, and Reason why
	// it failed or was skipped.
	Status string `json:"status" jsonschema:"applied, failed (reason and failure say why) or skipped (valid, or not tried, but not written because of another block or file; reason says which)."`
	Reason string `json:"reason,omitempty" jsonschema:"Why the block failed or was skipped; omitted when applied."`
	// Failure says why the block did not apply, with the real lines.
	Failure *reply.Failure `json:"failure,omitempty" jsonschema:"Why the block did not apply, with the real lines; omitted otherwise."`
	// Match is the level the block matched at (absent: exact, or not
	// applied), Shift its indentation shift at indent and loose.
	Match match.Level  `json:"match,omitempty" jsonschema:"The match level the block applied at; omitted when exact or not applied."`
	Shift *match.Shift `json:"offset,omitempty" jsonschema:"The block's indentation shift, at the indent and loose levels; else omitted."`
	// AlreadyApplied reports that the block was already in the file (its
	// old lines found nowhere, or only inside its own new lines, and its
	// new lines, with its anchors or context, at exactly one place): it
	// applied without changing anything (Status ApplyApplied).
	AlreadyApplied bool `json:"already_applied,omitempty" jsonschema:"True when the block was already in the file (its new lines found with its anchors or context at exactly one place, its old lines nowhere else): it applied (status applied) and changed nothing. Omitted otherwise."`
	// ReplyLine is the 1-based reply line of the block's start marker.
	ReplyLine int `json:"reply_line" jsonschema:"The 1-based line of the reply where the block's start marker is."`
	reply.Preview
}

// ApplyMalformed is a block of the reply that could not be read
// (reply.Malformed): its 1-based reply line, the path it names if any,
// every file it concerns (Paths) and why it is malformed.
type ApplyMalformed struct {
	Format    reply.Format `json:"format" jsonschema:"The block's format: edit, search-replace, unified-diff or apply-patch."`
	Path      string       `json:"path" jsonschema:"The file the block names; \"\" when none."`
	Paths     []string     `json:"paths,omitempty" jsonschema:"Every file the block concerns; omitted when none."`
	Reason    string       `json:"reason" jsonschema:"What is wrong, naming the 1-based reply line of the offending line where there is one."`
	ReplyLine int          `json:"reply_line" jsonschema:"The 1-based line of the reply where the block starts."`
}

// applyFile is a file of the reply while Apply works on it.
type applyFile struct {
	out         ApplyFile
	blocks      []int // indexes into the reply's blocks
	del         bool
	ch          *change
	doc         *edit.Document
	readErr     error
	dest        *edit.Document // the Document of MoveTo, from ReadOrNew
	destErr     error
	conflict    string // why the reply's other files rule this file's move out
	nameErr     string // why a diff's two names for the file chose neither (applier.choose)
	writeFailed bool   // the commit of this file failed
	err         error  // why the file failed
	// oldMode and newMode are a git diff's mode change, or, with oldMode
	// "", the mode of a file it creates; exec is newMode as
	// the change to the file's execute permission.
	oldMode, newMode string
	exec             files.Exec
}

// Apply applies the blocks of req's reply (`symedit apply`): every path is
// confined to the root first (one outside refuses the whole reply before
// anything is read), each file's blocks apply in order, each on the result
// of the one before, then the syntax guard runs; nothing is written unless
// every block of every file applies (or, with Partial, each file whose
// blocks all apply is written on its own), and the files are committed
// as one transaction (files.Files.Commit, AllOrNone: deletions, moves and git's
// mode changes included, the files written before a failed write
// restored; a moved file is what an edit of it would write, its mode,
// owner and extended attributes kept, and a move or deletion is refused
// where an edit would be: NOT_WRITABLE, METADATA). The lock of
// every file the reply names is held from the read to the commit. The
// result is never nil; the error is nil or the result's *Error: APPLY
// (a block failed, a block is malformed, a write failed, no blocks),
// INVALID_INPUT (more than reply.MaxBlocks blocks), OUTSIDE_ROOT, USAGE.
func (w *Workspace) Apply(ctx context.Context, req ApplyRequest) (*ApplyResult, error) {
	ctx = withOp(ctx, "apply")
	res := &ApplyResult{Files: []ApplyFile{}, Blocks: []ApplyBlock{}, Malformed: []ApplyMalformed{}, Shell: []reply.ShellSuggestion{}}
	res.DryRun = req.DryRun
	level, err := matchLevel(req.Match, match.Exact)
	if err != nil {
		return res, res.Fail(err)
	}
	if err := req.WriteOptions.validate(); err != nil {
		return res, res.Fail(err)
	}
	parsed := reply.ParseWith(req.Reply, reply.Options{Path: req.Path})
	if n := len(parsed.Blocks) + len(parsed.Malformed); n > reply.MaxBlocks {
		return res, res.Fail(&InputError{fmt.Errorf("the reply has %d edit blocks, more than the %d one reply may hold; nothing was read or written: split it into several replies", n, reply.MaxBlocks)})
	}
	if len(parsed.Blocks) == 0 && len(parsed.Malformed) == 0 {
		return res, res.Fail(&ApplyError{Msg: "the reply has no edit blocks: none of a path line and <<<<<<< EDIT or <<<<<<< SEARCH, a unified diff (--- and +++ lines, then @@ hunks) or a Codex patch (*** Begin Patch, *** Update File:, *** Add File:, *** Delete File:); nothing was written"})
	}
	a := &applier{w: w, req: req, level: level, all: parsed.Blocks}
	var paths []string
	for _, b := range parsed.Blocks {
		paths = append(paths, b.Path)
		if b.MoveTo != "" {
			paths = append(paths, b.MoveTo)
		}
		paths = append(paths, b.PathChoices...)
	}
	unlock, err := w.lockAll(ctx, paths)
	if err != nil {
		return res, res.Fail(err)
	}
	defer unlock()
	if err := a.plan(ctx, parsed); err != nil {
		return res, res.Fail(err)
	}
	if err := cancelled(ctx); err != nil {
		return res, res.Fail(err)
	}
	a.commit(ctx)
	out, err := a.result(res, parsed)
	w.record(ctx, a.written(), nil, &res.Result)
	return out, err
}

// plan computes each file's change from the parsed reply, writing
// nothing: the files read, their blocks applied and the syntax guard run
// (applyFile), each file's status set. Its error refuses the whole reply
// before any block is applied.
func (a *applier) plan(ctx context.Context, parsed reply.Result) error {
	// A diff's two names for one file (diff -u x.orig x) resolve to the
	// one that exists before the blocks are grouped by file; a name
	// outside the root refuses the reply, as confine does.
	if err := a.choose(); err != nil {
		return err
	}
	a.group(parsed)
	a.read()
	// Every path first, a move's new name too: one outside the root
	// refuses the whole reply before any block is applied, so a reply that
	// reaches outside writes nothing at all.
	if err := a.confine(); err != nil {
		return err
	}
	moveConflicts(a.files)
	// Validate every file: its blocks in order, then the syntax guard.
	for _, f := range a.files {
		a.applyFile(ctx, f)
	}
	return nil
}

// written returns the files the commit wrote, for the journal: a move as
// its new name (made from the old) and the old name's deletion.
func (a *applier) written() []written {
	var out []written
	for _, f := range a.files {
		if !f.out.Written || f.ch == nil {
			continue
		}
		switch {
		case f.del:
			out = append(out, written{doc: f.ch.doc, del: true})
		case f.out.MoveTo != "":
			out = append(out, written{doc: f.dest, content: f.ch.content, exec: f.exec, movedFrom: f.ch.doc},
				written{doc: f.ch.doc, del: true})
		default:
			out = append(out, written{doc: f.ch.doc, content: f.ch.content, exec: f.exec})
		}
	}
	return out
}

// applier is one Apply call's state.
type applier struct {
	w      *Workspace
	req    ApplyRequest
	level  match.Level
	all    []reply.Block
	blocks []ApplyBlock
	files  []*applyFile
	// malformedIn are the files malformed blocks name, each with the
	// reply line of the first; unnamed is the reply line of the first
	// malformed block that names none: Partial writes no such file, whose
	// change the unread block may have been part of, and nothing at all
	// when one names none.
	malformedIn map[string]int
	unnamed     int
	malformed   int
	failed      bool
	// partialHelps: a file whose blocks all apply was not written because
	// others failed, so Partial would write it.
	partialHelps bool
	// nameErr says, for a block (index into all) whose diff names its
	// file twice (reply.Block.PathChoices), why neither name could be
	// chosen: both exist, or neither does.
	nameErr map[int]string
}

// remedy returns the request change that lets more of a failed reply
// apply: the looser match level of the first failed block with a hint
// (which may apply all of it), else Partial when it would write files that
// were not written; or nil.
func (a *applier) remedy() remedy.Remedy {
	for _, f := range a.files {
		if r := remedy.Of(f.err); r != nil && f.out.Status == ApplyFailed {
			return r
		}
	}
	if a.partialHelps && !a.req.DryRun {
		return remedy.Set(remedy.Partial, "true")
	}
	return nil
}

// choose sets the Path of each block whose diff names its file twice
// without git's a/ and b/ (reply.Block.PathChoices: diff -u x.orig x,
// diff -u x x.new) to the name that exists under the root, as GNU patch
// chooses among the names of a diff (its manual, "Multiple Patches":
// the names that exist first); when both exist (but are not one file)
// or neither does, the block keeps the +++ name and nameErr says why,
// naming both. Both names are confined like every path: one outside the
// root refuses the reply (OUTSIDE_ROOT), naming the block.
func (a *applier) choose() error {
	type found struct {
		exists bool
		real   string
	}
	for i := range a.all {
		b := &a.all[i]
		if len(b.PathChoices) != 2 {
			continue
		}
		var seen [2]found
		for k, name := range b.PathChoices {
			real, _, err := a.w.files.Stat(name)
			switch {
			case errors.Is(err, files.ErrOutsideRoot):
				return outsideRoot(i+1, b.Line, err)
			case errors.Is(err, fs.ErrNotExist):
			default:
				// There, even if not a file apply edits: reading it
				// says why.
				seen[k] = found{exists: true, real: real}
			}
		}
		old, new := b.PathChoices[0], b.PathChoices[1]
		why := fmt.Sprintf("the diff of the hunk at reply line %d names its file %s on its --- line and %s on its +++ line, without git's a/ and b/ (as diff -u %s %s writes), and GNU patch edits the one of them that exists", b.Line, old, new, old, new)
		switch {
		case seen[0].exists && seen[1].exists && seen[0].real != "" && seen[0].real == seen[1].real:
		case seen[0].exists && seen[1].exists:
			a.setNameErr(i, fmt.Sprintf("%s and %s both exist: %s, so which one to edit cannot be told; nothing was written", old, new, why))
		case seen[0].exists:
			b.Path = old
		case !seen[1].exists:
			a.setNameErr(i, fmt.Sprintf("neither %s nor %s exists: %s; nothing was written", old, new, why))
		}
	}
	return nil
}

func (a *applier) setNameErr(i int, reason string) {
	if a.nameErr == nil {
		a.nameErr = map[int]string{}
	}
	a.nameErr[i] = reason
}

// group makes the block results and groups the blocks by file.
func (a *applier) group(parsed reply.Result) {
	byPath := map[string]*applyFile{}
	for i, b := range parsed.Blocks {
		a.blocks = append(a.blocks, ApplyBlock{Index: i + 1, Path: b.Path, Format: b.Format, ReplyLine: b.Line, Preview: b.Preview()})
		f := byPath[b.Path]
		if f == nil {
			f = &applyFile{del: b.Delete}
			f.out.Path, f.out.MoveTo, f.out.DryRun = b.Path, b.MoveTo, a.req.DryRun
			byPath[b.Path] = f
			a.files = append(a.files, f)
		}
		f.blocks = append(f.blocks, i)
		f.out.Blocks = append(f.out.Blocks, i+1)
		if why, ok := a.nameErr[i]; ok && f.nameErr == "" {
			f.nameErr = why
		}
	}
	a.malformedIn = map[string]int{}
	a.malformed = len(parsed.Malformed)
	for _, m := range parsed.Malformed {
		named := false
		for _, p := range append([]string{m.Path}, m.Paths...) {
			if p == "" {
				continue
			}
			named = true
			if _, ok := a.malformedIn[p]; !ok {
				a.malformedIn[p] = m.Line
			}
		}
		if !named && a.unnamed == 0 {
			a.unnamed = m.Line
		}
	}
}

// confine refuses the reply when a path of it (a move's new name too)
// resolves outside the root: the error names the first such block.
func (a *applier) confine() error {
	for _, f := range a.files {
		for _, err := range []error{f.readErr, f.destErr} {
			if errors.Is(err, files.ErrOutsideRoot) {
				b := a.blocks[f.blocks[0]]
				return outsideRoot(b.Index, b.ReplyLine, err)
			}
		}
	}
	return nil
}

// outsideRoot is the refusal of a reply whose block (1-based index, at
// 1-based reply line) names a path outside the root (err): naming another
// root is what lets it through.
func outsideRoot(block, line int, err error) error {
	return &remedied{err: fmt.Errorf("block %d (reply line %d): %w; apply writes only inside its root (the working directory unless another is named): the reply was refused and nothing was written",
		block, line, err), remedy: remedy.Set(remedy.Root, "")}
}

// read reads every file (and a move's new name), under their locks.
func (a *applier) read() {
	for _, f := range a.files {
		f.doc, f.readErr = a.w.files.ReadOrNew(f.out.Path)
		if f.out.MoveTo != "" {
			f.dest, f.destErr = a.w.files.ReadOrNew(f.out.MoveTo)
		}
		switch {
		case f.del:
			f.out.Op = ApplyDelete
		case f.out.MoveTo != "":
			f.out.Op = ApplyMove
		case f.readErr == nil && f.doc.IsNew(), f.readErr != nil && a.all[f.blocks[0]].IsCreate():
			f.out.Op = ApplyAdd
		default:
			f.out.Op = ApplyUpdate
		}
	}
}

// fail marks f failed for reason at its block from (an index into
// f.blocks): the blocks before it were valid but are not written, the
// ones after it were not tried. err, when not nil, is the error the
// reason came from.
func (a *applier) fail(f *applyFile, reason string, from int, err error) {
	f.out.Status, f.out.Reason, f.err = ApplyFailed, reason, err
	f.out.Symbols = nil // refused: no symbol changes
	if f.err == nil {
		f.err = &ApplyError{Msg: reason}
	}
	for k, bi := range f.blocks {
		b := &a.blocks[bi]
		switch {
		case k < from:
			b.Status, b.Reason = ApplySkipped, "valid, but its file was not written: "+reason
		case k == from:
			b.Status, b.Reason = ApplyFailed, reason
		default:
			b.Status, b.Reason = ApplySkipped, fmt.Sprintf("not tried: block %d of the same file failed", a.blocks[f.blocks[from]].Index)
		}
	}
}

// applyFile applies a file's blocks in order on its text, then runs the
// syntax guard; it sets the file's and its blocks' statuses. The steps:
// what the blocks may do to the file (admit), the blocks that change
// lines (applyLines), then the deletion (deleteFile) or the new content
// checked (checkFile).
func (a *applier) applyFile(ctx context.Context, f *applyFile) {
	if !a.admit(f) {
		return
	}
	text, edits, mine, already, ok := a.applyLines(f)
	if !ok {
		return
	}
	if f.del {
		a.deleteFile(f, mine, text)
		return
	}
	a.checkFile(ctx, f, text, edits, already)
}

// admit checks that the file's blocks can apply to it at all, before
// any is tried: the file read (and its SHA-256 as the request expects),
// a deletion or move that every block of the file says alike, of a file
// that exists, to a name that does not, one mode change of a file that
// exists, and a block that creates a file that does not. It sets the
// file's execute permission from the diff's mode, and reports false,
// the file failed, when one of them does not hold.
func (a *applier) admit(f *applyFile) bool {
	if f.nameErr != "" {
		a.fail(f, f.nameErr, 0, nil)
		return false
	}
	doc, err := f.doc, f.readErr
	if err != nil {
		a.fail(f, err.Error(), 0, err)
		return false
	}
	if o := a.req.ExpectSHA256; o != "" {
		if err := doc.CheckSHA256(string(o)); err != nil {
			a.fail(f, err.Error(), 0, err)
			return false
		}
	}
	// A deletion or a move: every block of the file says the
	// same, the file exists, and the new name does not.
	for k, bi := range f.blocks {
		if b := a.all[bi]; b.Delete != f.del || b.MoveTo != f.out.MoveTo {
			a.fail(f, fmt.Sprintf("%s: the reply both %s and edits it otherwise (block %d): apply does one of them per file", f.out.Path, f.fileOp(), a.blocks[bi].Index), k, nil)
			return false
		}
	}
	if f.conflict != "" {
		a.fail(f, f.conflict, 0, nil)
		return false
	}
	if (f.del || f.out.MoveTo != "") && doc.IsNew() {
		a.fail(f, fmt.Sprintf("%s: no such file, so the reply cannot %s it; nothing was written", f.out.Path, map[bool]string{true: "delete", false: "move"}[f.del]), 0, nil)
		return false
	}
	if f.out.MoveTo != "" {
		switch {
		case f.destErr != nil:
			a.fail(f, fmt.Sprintf("cannot move %s to %s: %v", f.out.Path, f.out.MoveTo, f.destErr), 0, f.destErr)
			return false
		case !f.dest.IsNew():
			a.fail(f, fmt.Sprintf("cannot move %s to %s: %s exists, and apply does not move a file onto another; nothing was written", f.out.Path, f.out.MoveTo, f.out.MoveTo), 0, nil)
			return false
		}
	}
	// A git diff's mode change: one new mode per file, of a
	// file that exists.
	for k, bi := range f.blocks {
		b := a.all[bi]
		if b.OldMode == "" {
			continue
		}
		if f.newMode != "" && f.newMode != b.Mode {
			a.fail(f, fmt.Sprintf("%s: the reply changes the file's mode to both %s and %s (block %d): apply does one of them", f.out.Path, f.newMode, b.Mode, a.blocks[bi].Index), k, nil)
			return false
		}
		if doc.IsNew() {
			a.fail(f, fmt.Sprintf("%s: no such file, so the reply cannot change its mode; nothing was written", f.out.Path), k, nil)
			return false
		}
		f.oldMode, f.newMode = b.OldMode, b.Mode
	}
	if doc.IsNew() && !a.all[f.blocks[0]].IsCreate() {
		a.fail(f, fmt.Sprintf("%s: no such file (a block that creates a file has empty anchors and old lines)", f.out.Path), 0, nil)
		return false
	}
	if b := a.all[f.blocks[0]]; doc.IsNew() && b.Mode != "" {
		f.newMode = b.Mode // a git diff's new file: its mode
	}
	switch f.newMode {
	case reply.ModeExecutable:
		f.exec = files.ExecSet
	case reply.ModeFile:
		f.exec = files.ExecClear
	}
	return true
}

// applyLines applies the file's blocks that change lines, in order,
// each on the result of the one before (reply.ApplyAllEdits), and sets
// their statuses. It returns the new text, the byte edits of the file's
// content that made it (none, not nil, when no block changes lines), the
// blocks that change lines and how many blocks were already applied; ok
// is false, the file failed, when a block's new lines elide old ones or
// a block does not apply.
func (a *applier) applyLines(f *applyFile) (text string, edits []edit.Edit, mine []reply.Block, already int, ok bool) {
	doc := f.doc
	// The file's blocks in order, each on the result of the one before,
	// without a pass over the file per block, so the time grows with the
	// file and the blocks added, not with their product. A block
	// that only deletes or moves the file changes no lines.
	var mineAt []int // indexes into f.blocks
	for k, bi := range f.blocks {
		if a.all[bi].FileOnly() {
			a.blocks[bi].Status = ApplyApplied
			continue
		}
		mine, mineAt = append(mine, a.all[bi]), append(mineAt, k)
	}
	if !a.req.AllowElision {
		for k, b := range mine {
			bi := f.blocks[mineAt[k]]
			if e := elided("block", a.blocks[bi].Index, "new lines", b.OldLines, b.NewLines); e != nil {
				a.blocks[bi].Failure = &reply.Failure{Code: reply.CodeElided, Message: e.Error()}
				a.fail(f, e.Error(), mineAt[k], e)
				f.err = AsError(e)
				return "", nil, nil, 0, false
			}
		}
	}
	// edits are the byte edits of doc.Content the blocks made, for the
	// guard and the diff to look at what changed rather than compare the
	// whole contents; none (not nil) when no block changes lines.
	text, edits = string(doc.Content), []edit.Edit{}
	ms, failedAt, failure := []reply.Outcome(nil), -1, (*reply.Failure)(nil)
	if len(mine) > 0 {
		r := reply.ApplyAllEdits(mine, text, a.level)
		text, ms, failedAt, failure = r.Text, r.Outcomes, r.Failed, r.Failure
		if r.Edits != nil {
			edits = r.Edits
		}
		if failedAt >= 0 {
			failedAt = mineAt[failedAt]
		}
	}
	for k, oc := range ms {
		m := oc.Match
		b := &a.blocks[f.blocks[mineAt[k]]]
		b.Status, b.Match, b.AlreadyApplied = ApplyApplied, m.Level, oc.AlreadyApplied
		if m.Level >= match.Indent {
			o := m.Shift
			b.Shift = &o
		}
		if oc.AlreadyApplied {
			already++
		}
	}
	if failure != nil {
		a.blocks[f.blocks[failedAt]].Failure = failure
		a.fail(f, failure.Error(), failedAt, nil)
		f.err = failureError(failure)
		return "", nil, nil, 0, false
	}
	return text, edits, mine, already, true
}

// deleteFile makes the change that deletes the file, once its blocks
// that change lines (mine) left text: a diff's hunks must have removed
// every line, and a git diff without hunks deletes an empty file;
// apply_patch's Delete File has none and deletes the file as it is.
func (a *applier) deleteFile(f *applyFile, mine []reply.Block, text string) {
	doc, o := f.doc, a.req.WriteOptions
	hunkless := len(mine) == 0 && a.all[f.blocks[0]].Format == reply.FormatUnifiedDiff
	switch {
	case hunkless && text != "":
		a.fail(f, fmt.Sprintf("%s: the diff deletes the file as an empty file (deleted file mode and no hunks, as git writes the deletion of an empty file), but the file has %d lines; nothing was written",
			f.out.Path, doc.LineCount()), len(f.blocks)-1, nil)
		return
	case len(mine) > 0 && text != "":
		a.fail(f, fmt.Sprintf("%s: the diff deletes the file (+++ /dev/null, or a +++ line dated 1970-01-01), but its removed lines are not the whole file: %d of its %d lines would remain; nothing was written",
			f.out.Path, lineCount(text), doc.LineCount()), len(f.blocks)-1, nil)
		return
	}
	f.ch = &change{doc: doc, what: "delete"}
	if o.DryRun || o.Diff {
		f.out.Diff = deleteDiff(doc, a.w.opt.Dir)
	}
	f.out.Status, f.out.Summary = ApplyApplied, "deletes the file"
}

// checkFile makes the change that writes text, made by edits of the
// file's content (already blocks of it already applied), and runs the
// syntax guard on it and builds its diff (git's rename and mode forms for
// a move or a mode change); it sets the file's status and summary.
func (a *applier) checkFile(ctx context.Context, f *applyFile, text string, edits []edit.Edit, already int) {
	doc, o := f.doc, a.req.WriteOptions
	lang := language(f.out.Path, o.Lang)
	if f.out.MoveTo != "" {
		lang = language(f.out.MoveTo, o.Lang)
	}
	ch := &change{doc: doc, lang: lang, content: []byte(text), what: fmt.Sprintf("applied %d block(s)", len(f.blocks)-already)}
	if doc.IsNew() || f.out.MoveTo != "" {
		// A created file has no old text, and a moved one's diff is
		// renameDiff's of the whole contents: as for a write, one edit
		// replaces the whole file (the guard narrows it).
		edits = []edit.Edit{{Start: 0, End: len(doc.Content), New: text}}
	}
	ch.edits = edits
	switch {
	case already > 0 && already == len(f.blocks):
		// A retried reply: say so, so that no one looks for a change.
		ch.what = fmt.Sprintf("already applied, nothing to write: %d block(s) already in the file", already)
		f.out.AlreadyApplied = true
	case already > 0:
		ch.what += fmt.Sprintf(", %d already applied", already)
	}
	if f.out.MoveTo != "" {
		ch.what += ", moved to " + f.out.MoveTo
	}
	out, err := a.w.check(ctx, ch, o)
	f.ch = ch
	f.out.SHA256Before, f.out.SHA256After, f.out.Lines = ch.receipt()
	f.out.Syntax, f.out.Diff, f.out.Symbols = syntaxOf(out.syntax), out.diff, out.symbols
	if f.out.MoveTo != "" && (o.DryRun || o.Diff) {
		f.out.Diff = renameDiff(doc, f.dest, ch.content, a.w.opt.Dir, f.oldMode, f.newMode)
	}
	if f.newMode != "" && f.modeChanged() {
		if f.oldMode != "" {
			ch.what += fmt.Sprintf(", mode %s to %s", f.oldMode, f.newMode)
		}
		if (o.DryRun || o.Diff) && f.out.MoveTo == "" {
			f.out.Diff = modeDiff(doc, f.oldMode, f.newMode, ch.content, f.out.Diff, a.w.opt.Dir)
		}
	}
	if err != nil {
		a.fail(f, err.Error(), len(f.blocks)-1, err)
		return
	}
	f.out.Status, f.out.Summary = ApplyApplied, ch.what
}

// modeChanged reports whether committing the file changes its mode: a
// new file of mode 100755, or a mode change to a mode the file has not.
func (f *applyFile) modeChanged() bool {
	if f.doc.IsNew() {
		return f.exec == files.ExecSet || f.newMode != "" && f.oldMode == ""
	}
	return f.exec.Apply(f.doc.Mode.Perm()) != f.doc.Mode.Perm()
}

// modeDiff is git diff's form of a change of doc's mode from oldMode to
// newMode ("old mode", "new mode") followed by the content's diff d (git
// diff's headers without its "diff --git" line, or ""), or, for a file
// created with newMode (oldMode ""), of creating it with content
// (diff.NewFileDiff).
func modeDiff(doc *edit.Document, oldMode, newMode string, content []byte, d, dir string) string {
	p := diffPath(doc, dir)
	if oldMode == "" {
		return diff.NewFileDiff(p, content, newMode)
	}
	h := fmt.Sprintf("diff --git %s %s\n", diff.GitName("a/", p), diff.GitName("b/", p))
	return h + "old mode " + oldMode + "\nnew mode " + newMode + "\n" + d
}

// failureError is a block's failure as a file's error: code APPLY, with
// the failure's line, expected and actual lines, candidates, nearest
// lines and hint.
func failureError(f *reply.Failure) *Error {
	e := &Error{Code: CodeApply, Message: f.Message, Line: f.Line, Expected: f.Expected, Actual: f.Actual,
		Candidates: f.Candidates, Hint: f.Hint, Remedy: f.Remedy(), err: &ApplyError{Msg: f.Error(), remedy: f.Remedy()}}
	if len(f.Nearest) > 0 {
		e.Nearest = f.Nearest
	}
	return e
}

// commit writes the files that are to be written, unless this is a dry
// run: all as one transaction, or, with Partial, each on its own. It sets
// a.failed when a block failed, a block is malformed or a write failed.
func (a *applier) commit(ctx context.Context) {
	a.failed = a.malformed > 0
	for _, f := range a.files {
		a.failed = a.failed || f.out.Status == ApplyFailed
	}
	partial := a.req.Partial
	commit := !a.failed || partial && a.unnamed == 0
	var toWrite []*applyFile
	for _, f := range a.files {
		if f.out.Status == ApplyFailed {
			continue
		}
		line, named := a.malformedIn[f.out.Path]
		switch {
		case !commit && a.unnamed > 0 && partial:
			f.out.Status, f.out.Reason = ApplySkipped, fmt.Sprintf("not written: the malformed block at reply line %d names no file, so which file's blocks are complete cannot be told", a.unnamed)
		case !commit:
			f.out.Status, f.out.Reason = ApplySkipped, "not written: another block failed or is malformed, and nothing is written unless every file's blocks apply"
			a.partialHelps = true
		case named:
			f.out.Status, f.out.Reason = ApplySkipped, fmt.Sprintf("not written: the malformed block at reply line %d is for this file", line)
		case f.out.AlreadyApplied && f.ch != nil && !f.ch.changed() && !f.modeChanged():
			continue // every block already in the file: nothing to write
		default:
			toWrite = append(toWrite, f)
			continue
		}
		for _, bi := range f.blocks {
			a.blocks[bi].Status, a.blocks[bi].Reason = ApplySkipped, "valid, but not written: "+strings.TrimPrefix(f.out.Reason, "not written: ")
		}
	}
	if a.req.DryRun || len(toWrite) == 0 {
		return
	}
	a.commitFiles(ctx, toWrite)
	for _, f := range toWrite {
		if f.out.Status != ApplyFailed {
			continue
		}
		a.failed = true
		for _, bi := range f.blocks {
			a.blocks[bi].Status, a.blocks[bi].Reason = ApplySkipped, "valid, but "+f.out.Reason
		}
	}
}

// commitFiles writes the files: all as one transaction, or, with
// Partial, each on its own. Each file's Written says whether its new
// content is on disk afterwards: a file that was not
// written, or was written and then restored, is failed with the reason.
func (a *applier) commitFiles(ctx context.Context, fl []*applyFile) {
	writeFailed := func(f *applyFile, reason string, err error) {
		f.out.Status, f.out.Reason, f.writeFailed, f.err = ApplyFailed, reason, true, err
		f.out.Symbols = nil // not written: no symbol changed
	}
	if a.req.Partial {
		for _, f := range fl {
			if _, err := a.w.files.Commit(ctx, f.changes(), files.AllOrNone); err != nil {
				writeFailed(f, "not written: "+err.Error(), err)
				continue
			}
			f.out.Written = true
		}
		return
	}
	var changes []files.Change
	var owner []int // the index in fl of each change's file
	for i, f := range fl {
		for _, c := range f.changes() {
			changes, owner = append(changes, c), append(owner, i)
		}
	}
	_, err := a.w.files.Commit(ctx, changes, files.AllOrNone)
	if err == nil {
		for _, f := range fl {
			f.out.Written = true
		}
		return
	}
	var te *files.TransactionError
	if !errors.As(err, &te) {
		for _, f := range fl {
			writeFailed(f, "not written: "+err.Error(), err)
		}
		return
	}
	// Some files before the failed one may have been written, then
	// restored (te.Restored; the transaction writes nothing if the failure
	// comes while it prepares the files); a file whose restoration failed
	// keeps its new content.
	unrestored := map[string]error{}
	for _, rerr := range te.RestoreErrs {
		var fe *edit.FileError
		if errors.As(rerr, &fe) {
			unrestored[fe.Path] = rerr
		}
	}
	restored := map[string]bool{}
	for _, p := range te.Restored {
		restored[p] = true
	}
	failedAt := owner[te.Failed]
	for i, f := range fl {
		notRestored := unrestored[f.ch.doc.Path]
		if notRestored == nil && f.dest != nil {
			notRestored = unrestored[f.dest.Path]
		}
		switch {
		case i == failedAt:
			writeFailed(f, "not written: "+te.Err.Error(), te.Err)
		case i < failedAt && notRestored != nil:
			f.out.Written = true
			f.out.Reason = fmt.Sprintf("written, and NOT restored after the write of %s failed: %v", te.Path, notRestored)
		case i < failedAt && (restored[f.ch.doc.Path] || f.dest != nil && restored[f.dest.Path]):
			f.out.Status, f.out.Reason = ApplyFailed, fmt.Sprintf("not written: restored as it was read after the write of %s failed", te.Path)
			f.err = &ApplyError{Msg: f.out.Reason}
		default:
			f.out.Status, f.out.Reason = ApplyFailed, fmt.Sprintf("not written: the write of %s failed first, and nothing is written unless every file is", te.Path)
			f.err = &ApplyError{Msg: f.out.Reason}
		}
	}
}

// changes is what committing the file does: its new content written, or
// the file deleted, or (a move) its new content written at MoveTo and
// the file deleted.
func (f *applyFile) changes() []files.Change {
	switch {
	case f.del:
		return []files.Change{{Doc: f.ch.doc, Delete: true}}
	case f.out.MoveTo != "":
		// The new name is the file's (From): its mode, owner and extended
		// attributes, and the refusals an edit of it would meet.
		return []files.Change{{Doc: f.dest, Content: f.ch.content, Exec: f.exec, From: f.ch.doc}, {Doc: f.ch.doc, Delete: true}}
	}
	return []files.Change{{Doc: f.ch.doc, Content: f.ch.content, Exec: f.exec}}
}

// fileOp says what the reply does to the file as a whole.
func (f *applyFile) fileOp() string {
	if f.del {
		return "deletes it"
	}
	return "moves it to " + f.out.MoveTo
}

// result fills res from the applier's files and blocks and returns it
// with its error.
func (a *applier) result(res *ApplyResult, parsed reply.Result) (*ApplyResult, error) {
	res.Blocks = append(res.Blocks, a.blocks...)
	for _, m := range parsed.Malformed {
		res.Malformed = append(res.Malformed, ApplyMalformed{Format: m.Format, Path: m.Path, Paths: m.Paths, Reason: m.Reason, ReplyLine: m.Line})
	}
	res.Shell = append(res.Shell, parsed.Shell...)
	written := 0
	for _, f := range a.files {
		out := f.out
		out.Changed = f.ch != nil && (f.ch.changed() || f.modeChanged())
		switch {
		case out.Status == ApplyApplied:
			out.OK = true
		case f.err != nil:
			out.Fail(f.err)
		default:
			out.Fail(&ApplyError{Msg: out.Reason})
		}
		if out.Status != ApplyApplied {
			out.Summary = ""
		}
		res.Changed = res.Changed || out.Changed && out.Status == ApplyApplied
		if out.Written {
			written++
			res.Written = true
		}
		res.Files = append(res.Files, out)
	}
	if a.failed {
		ae := &ApplyError{Msg: a.failure(res), remedy: a.remedy()}
		// A reply refused only for placeholders says so in its code.
		elidedOnly := a.malformed == 0
		for _, f := range a.files {
			if f.out.Status == ApplyFailed && CodeOf(f.err) != CodeElided {
				elidedOnly = false
			}
		}
		if elidedOnly {
			ae.code = CodeElided
		}
		return res, res.Fail(ae)
	}
	res.OK = true
	res.Summary = fmt.Sprintf("applied %d block(s) to %d file(s)", len(a.blocks), len(a.files))
	already := 0
	for _, b := range a.blocks {
		if b.AlreadyApplied {
			already++
		}
	}
	switch {
	case already > 0 && already == len(a.blocks):
		res.AlreadyApplied = true
		res.Summary = fmt.Sprintf("already applied, nothing to write: %d block(s) already in %d file(s)", already, len(a.files))
	case already > 0:
		res.Summary += fmt.Sprintf(" (%d of them already applied, unchanged)", already)
	}
	if a.req.DryRun {
		res.Summary = fmt.Sprintf("dry run, nothing written: %d block(s) apply to %d file(s)", len(a.blocks), len(a.files))
	}
	return res, nil
}

// failure says which blocks failed and what was written.
func (a *applier) failure(res *ApplyResult) string {
	nf := 0
	for _, b := range res.Blocks {
		if b.Status == ApplyFailed {
			nf++
		}
	}
	var written []string
	wf := 0
	for _, f := range a.files {
		if f.out.Written {
			written = append(written, f.out.Path)
		}
		if f.writeFailed {
			wf++
		}
	}
	var msg string
	if len(res.Blocks) == 0 {
		msg = fmt.Sprintf("the reply's %d block(s) are all malformed (each is listed with its reply line) and none could be read", a.malformed)
	} else {
		var parts []string
		if nf > 0 {
			parts = append(parts, fmt.Sprintf("%d of %d block(s) failed", nf, len(res.Blocks)))
		}
		if a.malformed > 0 {
			parts = append(parts, fmt.Sprintf("%d block(s) are malformed (each is listed with its reply line)", a.malformed))
		}
		if wf > 0 {
			parts = append(parts, fmt.Sprintf("the write of %d file(s) failed", wf))
		}
		msg = strings.Join(parts, " and ")
		if nf == 0 && wf == 0 {
			msg += fmt.Sprintf("; the other %d apply", len(res.Blocks))
		}
	}
	switch {
	case a.req.DryRun:
		msg += "; dry run, nothing written"
	case len(written) > 0 && a.req.Partial:
		msg += fmt.Sprintf("; wrote the %d file(s) whose blocks all applied: %s", len(written), strings.Join(written, ", "))
	case len(written) > 0:
		msg += fmt.Sprintf("; a write failed and %d file(s) written before it could not be restored, so they hold the new content: %s", len(written), strings.Join(written, ", "))
	default:
		msg += "; nothing was written"
	}
	return msg
}

// moveConflicts sets the conflict of each file the reply moves onto its
// own name, onto a file the reply also edits, or onto the same name as
// another move: apply cannot order those.
func moveConflicts(all []*applyFile) {
	edited := map[string]string{}
	for _, f := range all {
		edited[filepath.Clean(f.out.Path)] = f.out.Path
	}
	target := map[string][]*applyFile{}
	for _, f := range all {
		if f.out.MoveTo == "" {
			continue
		}
		to := filepath.Clean(f.out.MoveTo)
		target[to] = append(target[to], f)
		if other, ok := edited[to]; ok {
			f.conflict = fmt.Sprintf("cannot move %s to %s: the reply also edits %s; nothing was written", f.out.Path, f.out.MoveTo, other)
		}
	}
	for to, fl := range target {
		if len(fl) < 2 {
			continue
		}
		for _, f := range fl {
			f.conflict = fmt.Sprintf("cannot move %s to %s: the reply moves %d files there; nothing was written", f.out.Path, to, len(fl))
		}
	}
}

// lineCount is the number of lines of text (a last line without a line
// ending counts).
func lineCount(text string) int {
	n := strings.Count(text, "\n")
	if text != "" && !strings.HasSuffix(text, "\n") {
		n++
	}
	return n
}

// gitMode is the mode git's headers give a regular file.
func gitMode(m fs.FileMode) string {
	if m&0o111 != 0 {
		return "100755"
	}
	return "100644"
}

// deleteDiff is git diff's form of deleting the file doc was read from:
// "deleted file mode", then every line removed against /dev/null.
func deleteDiff(doc *edit.Document, dir string) string {
	p := diffPath(doc, dir)
	h := fmt.Sprintf("diff --git %s %s\ndeleted file mode %s\n", diff.GitName("a/", p), diff.GitName("b/", p), gitMode(doc.Mode))
	d := diff.Diff(p, doc.Content, nil)
	if d == "" {
		return h // an empty file: the header alone, as git prints it
	}
	_, rest, _ := strings.Cut(d, "\n")   // the --- line stays
	_, rest, _ = strings.Cut(rest, "\n") // the +++ line goes
	first, _, _ := strings.Cut(d, "\n")
	return h + first + "\n+++ /dev/null\n" + rest
}

// renameDiff is git diff's form of moving the file doc was read from to
// dest's name with content: its mode change from oldMode to newMode if
// any ("old mode", "new mode"), "rename from" and "rename to", then the
// change, if any, from a/PATH to b/TO.
func renameDiff(doc, dest *edit.Document, content []byte, dir, oldMode, newMode string) string {
	p, q := diffPath(doc, dir), diffPath(dest, dir)
	h := fmt.Sprintf("diff --git %s %s\n", diff.GitName("a/", p), diff.GitName("b/", q))
	if oldMode != "" && newMode != oldMode {
		h += fmt.Sprintf("old mode %s\nnew mode %s\n", oldMode, newMode)
	}
	h += fmt.Sprintf("rename from %s\nrename to %s\n", diff.GitName("", p), diff.GitName("", q))
	d := diff.Diff(p, doc.Content, content)
	if d == "" {
		return h
	}
	first, rest, _ := strings.Cut(d, "\n")
	_, rest, _ = strings.Cut(rest, "\n")
	return h + first + "\n+++ " + diff.HeaderName("b/", q) + "\n" + rest
}
