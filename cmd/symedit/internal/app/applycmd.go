package app

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/reply"
)

func applyCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "apply",
		Usage: "apply the edit blocks of a model's reply, across files, as one transaction",
		Description: "REPLY (a file, or - or nothing for standard input) is free text with any number of blocks:\n" +
			"  path/to/file\n  <<<<<<< EDIT\n  leading anchor\n  -------\n  old lines\n  =======\n  new lines\n  -------\n  trailing anchor\n  >>>>>>>\n" +
			"or the SEARCH/REPLACE form (path, <<<<<<< SEARCH, old, =======, new, >>>>>>> REPLACE),\n" +
			"unified diffs (git diff, diff -u) and Codex apply_patch patches (*** Begin Patch), which may\n" +
			"also delete files (+++ /dev/null, *** Delete File) and move them (rename from/to, *** Move to).\n" +
			"Matching is exact but for line endings; --match sets the loosest level allowed (default exact):\n" +
			"trailing, indent (new lines shifted by the block's indentation offset) or loose. Each block's\n" +
			"level is reported (\"match\", absent: exact). Blocks for one file apply in order, each on the result of\n" +
			"the one before. Nothing is written unless every block of every file applies; --partial instead\n" +
			"writes each file whose blocks all apply. Shell commands in the reply are listed, never run.",
		ArgsUsage: "[REPLY|-]",
		Flags: append(writeFlags(), &cli.BoolFlag{Name: "partial", Usage: "write each file whose blocks all apply, and report the others"}, matchFlag(match.Exact),
			&cli.StringFlag{Name: "path", Usage: "the `FILE` of every block for which the reply names none (as Roo Code and Cline send them)"}),
		// The root defaults to the working directory (see Action).
		Action: func(c *cli.Context) error {
			// A reply is untrusted text: its paths stay inside the working
			// directory unless --root (or SYMEDIT_ROOT) names another
			// boundary (issue 11, section 2).
			if c.String("root") == "" {
				if err := c.Set("root", "."); err != nil {
					return err
				}
			}
			return e.withSession(0, 1, "[REPLY|-]", func(s *session, args []string) error {
				src := "-"
				if len(args) == 1 {
					src = args[0]
				}
				return s.apply(src)
			})(c)
		},
	}
}

// Block statuses.
const (
	statusApplied = "applied"
	statusFailed  = "failed"
	statusSkipped = "skipped"
)

// blockResult is one block's line of the result.
type blockResult struct {
	Index   int            `json:"index"` // 1-based, in reply order
	Path    string         `json:"path"`
	Format  reply.Format   `json:"format"`
	Status  string         `json:"status"`
	Reason  string         `json:"reason,omitempty"`
	Failure *reply.Failure `json:"failure,omitempty"`
	// Match is the level the block matched at (absent: exact, or not
	// applied), Offset its indentation offset at indent and loose.
	Match     match.Level   `json:"match,omitempty"`
	Offset    *match.Offset `json:"offset,omitempty"`
	ReplyLine int           `json:"reply_line"`
	reply.Preview
}

// fileResult is one file's line of the result.
type fileResult struct {
	Path   string `json:"path"`
	Status string `json:"status"` // applied (written or, in a dry run, would be), failed or skipped
	Reason string `json:"reason,omitempty"`
	Diff   string `json:"diff,omitempty"`
	Syntax any    `json:"syntax,omitempty"`
	// Written says whether the file holds its new content on disk when
	// apply returns (false in a dry run): for a deleted file, that it is
	// gone; for a moved one, that it is at MoveTo and gone from Path.
	Written bool `json:"written"`
	// Delete says the reply deletes the file, MoveTo where it moves it
	// (issue 14).
	Delete bool   `json:"delete,omitempty"`
	MoveTo string `json:"move_to,omitempty"`

	ch          *change
	out         outcome
	blocks      []int // indexes into the block results
	doc         *edit.Document
	readErr     error
	dest        *edit.Document // the Document of MoveTo, from ReadOrNew
	destErr     error
	conflict    string // why the reply's other files rule this file's move out
	writeFailed bool   // the commit of this file failed
}

// applyError is a reply that did not apply (wholly or, with --partial, in
// part): the results say which blocks failed and why.
type applyError struct{ msg string }

func (e *applyError) Error() string { return e.msg }

func (s *session) apply(src string) error {
	level, err := matchLevel(s.c)
	if err != nil {
		return err
	}
	raw, err := s.e.readInput(src)
	if err != nil {
		return s.e.fail(s.c, fmt.Errorf("reading the reply: %w", err), nil)
	}
	parsed := reply.ParseWith(string(raw), reply.Options{Path: s.c.String("path")})
	if n := len(parsed.Blocks) + len(parsed.Malformed); n > reply.MaxBlocks {
		return s.e.fail(s.c, &inputError{fmt.Errorf("the reply has %d edit blocks, more than the %d one reply may hold; nothing was read or written: split it into several replies", n, reply.MaxBlocks)}, nil)
	}
	if len(parsed.Blocks) == 0 && len(parsed.Malformed) == 0 {
		return s.e.fail(s.c, &applyError{msg: "the reply has no edit blocks (<<<<<<< EDIT or <<<<<<< SEARCH after a path line); nothing was written"}, nil)
	}
	var blocks []blockResult
	var files []*fileResult
	byPath := map[string]*fileResult{}
	for i, b := range parsed.Blocks {
		blocks = append(blocks, blockResult{Index: i + 1, Path: b.Path, Format: b.Format, ReplyLine: b.Line, Preview: b.Preview()})
		f := byPath[b.Path]
		if f == nil {
			f = &fileResult{Path: b.Path, Delete: b.Delete, MoveTo: b.MoveTo}
			byPath[b.Path] = f
			files = append(files, f)
		}
		f.blocks = append(f.blocks, i)
	}
	malformed := make([]map[string]any, len(parsed.Malformed))
	// Files a malformed block names, and the reply line of the first
	// malformed block that names none: --partial writes no such file
	// (issue 11, section 1), and nothing at all when one names none.
	malformedIn := map[string]int{}
	unnamed := 0
	for i, m := range parsed.Malformed {
		malformed[i] = map[string]any{"reply_line": m.Line, "path": m.Path, "format": m.Format, "reason": m.Reason}
		if len(m.Paths) > 0 {
			malformed[i]["paths"] = m.Paths
		}
		named := false
		for _, p := range append([]string{m.Path}, m.Paths...) {
			if p == "" {
				continue
			}
			named = true
			if _, ok := malformedIn[p]; !ok {
				malformedIn[p] = m.Line
			}
		}
		if !named && unnamed == 0 {
			unnamed = m.Line
		}
	}
	// Every path first: one outside the root refuses the whole reply
	// before anything else is read (issue 11, section 2); a move's new
	// name too (issue 14).
	for _, f := range files {
		f.doc, f.readErr = s.files.ReadOrNew(f.Path)
		if f.MoveTo != "" {
			f.dest, f.destErr = s.files.ReadOrNew(f.MoveTo)
		}
		for _, err := range []error{f.readErr, f.destErr} {
			if errors.Is(err, edit.ErrOutsideRoot) {
				b := blocks[f.blocks[0]]
				return s.e.fail(s.c, fmt.Errorf("block %d (reply line %d): %w; apply is confined to the working directory unless --root names another folder: the reply was refused and nothing was written",
					b.Index, b.ReplyLine, err), nil)
			}
		}
	}
	moveConflicts(files)
	// Validate every file: its blocks in order, then the syntax guard.
	for _, f := range files {
		s.applyFile(f, parsed.Blocks, blocks, level)
	}
	failed := len(parsed.Malformed) > 0
	for _, f := range files {
		failed = failed || f.Status == statusFailed
	}
	commit := !failed || s.c.Bool("partial") && unnamed == 0
	var toWrite []*fileResult
	for _, f := range files {
		if f.Status == statusFailed {
			continue
		}
		line, named := malformedIn[f.Path]
		switch {
		case !commit && unnamed > 0 && s.c.Bool("partial"):
			f.Status, f.Reason = statusSkipped, fmt.Sprintf("not written: the malformed block at reply line %d names no file, so --partial cannot tell which file's blocks are complete", unnamed)
		case !commit:
			f.Status, f.Reason = statusSkipped, "not written: another block failed or is malformed, and without --partial nothing is written"
		case named:
			f.Status, f.Reason = statusSkipped, fmt.Sprintf("not written: the malformed block at reply line %d is for this file", line)
		default:
			toWrite = append(toWrite, f)
			continue
		}
		for _, bi := range f.blocks {
			blocks[bi].Status, blocks[bi].Reason = statusSkipped, "valid, but not written: "+strings.TrimPrefix(f.Reason, "not written: ")
		}
	}
	if !s.dry && len(toWrite) > 0 {
		s.commitFiles(toWrite)
		for _, f := range toWrite {
			if f.Status != statusFailed {
				continue
			}
			failed = true
			for _, bi := range f.blocks {
				blocks[bi].Status, blocks[bi].Reason = statusSkipped, "valid, but "+f.Reason
			}
		}
	}
	result := map[string]any{"ok": !failed, "dry_run": s.dry, "files": files, "blocks": blocks,
		"malformed": malformed, "shell_suggestions": nonNilShell(parsed.Shell)}
	var err2 error
	if failed {
		err2 = &applyError{msg: s.applyFailure(files, blocks, len(parsed.Malformed))}
	}
	if s.json {
		if werr := s.e.writeJSON(result); werr != nil {
			return werr
		}
		if s.e.side != nil { // the readable text too, for the MCP tool
			text := *s
			text.e, text.json = s.e.sideEnv(), false
			text.printApply(files, blocks, parsed)
			if err2 != nil {
				printError(s.e.side, err2)
			}
		}
		if err2 != nil {
			return errSilent{err2}
		}
		return nil
	}
	s.printApply(files, blocks, parsed)
	return err2
}

// applyFile applies a file's blocks in order on its text, then runs the
// syntax guard; it sets the file's and its blocks' statuses. Blocks match
// at the levels up to level.
func (s *session) applyFile(f *fileResult, all []reply.Block, blocks []blockResult, level match.Level) {
	fail := func(reason string, from int) {
		f.Status, f.Reason = statusFailed, reason
		for k, bi := range f.blocks {
			switch {
			case k < from:
				blocks[bi].Status, blocks[bi].Reason = statusSkipped, "valid, but its file was not written: "+reason
			case k == from:
				blocks[bi].Status, blocks[bi].Reason = statusFailed, reason
			default:
				blocks[bi].Status, blocks[bi].Reason = statusSkipped, fmt.Sprintf("not tried: block %d of the same file failed", blocks[f.blocks[from]].Index)
			}
		}
	}
	doc, err := f.doc, f.readErr
	if err != nil {
		fail(err.Error(), 0)
		return
	}
	if s.expect != "" {
		if err := doc.CheckSHA256(s.expect); err != nil {
			fail(err.Error(), 0)
			return
		}
	}
	// A deletion or a move (issue 14): every block of the file says the
	// same, the file exists, and the new name does not.
	for k, bi := range f.blocks {
		if b := all[bi]; b.Delete != f.Delete || b.MoveTo != f.MoveTo {
			fail(fmt.Sprintf("%s: the reply both %s and edits it otherwise (block %d): apply does one of them per file", f.Path, fileOp(f), blocks[bi].Index), k)
			return
		}
	}
	if f.conflict != "" {
		fail(f.conflict, 0)
		return
	}
	if (f.Delete || f.MoveTo != "") && doc.IsNew() {
		fail(fmt.Sprintf("%s: no such file, so the reply cannot %s it; nothing was written", f.Path, map[bool]string{true: "delete", false: "move"}[f.Delete]), 0)
		return
	}
	if f.MoveTo != "" {
		switch {
		case f.destErr != nil:
			fail(fmt.Sprintf("cannot move %s to %s: %v", f.Path, f.MoveTo, f.destErr), 0)
			return
		case !f.dest.IsNew():
			fail(fmt.Sprintf("cannot move %s to %s: %s exists, and apply does not move a file onto another; nothing was written", f.Path, f.MoveTo, f.MoveTo), 0)
			return
		}
	}
	if doc.IsNew() && !all[f.blocks[0]].IsCreate() {
		fail(fmt.Sprintf("%s: no such file (a block that creates a file has empty anchors and old lines)", f.Path), 0)
		return
	}
	// The file's blocks in order, each on the result of the one before,
	// without a pass over the file per block (issue 12, item 13). A block
	// that only deletes or moves the file changes no lines.
	var mine []reply.Block
	var mineAt []int // indexes into f.blocks
	for k, bi := range f.blocks {
		if all[bi].FileOnly() {
			blocks[bi].Status = statusApplied
			continue
		}
		mine, mineAt = append(mine, all[bi]), append(mineAt, k)
	}
	text, ms, failedAt, failure := string(doc.Content), []match.Match(nil), -1, (*reply.Failure)(nil)
	if len(mine) > 0 {
		text, ms, failedAt, failure = reply.ApplyAll(mine, text, level)
		if failedAt >= 0 {
			failedAt = mineAt[failedAt]
		}
	}
	for k, m := range ms {
		bi := f.blocks[mineAt[k]]
		blocks[bi].Status = statusApplied
		blocks[bi].Match = m.Level
		if m.Level >= match.Indent {
			o := m.Offset
			blocks[bi].Offset = &o
		}
	}
	if failure != nil {
		blocks[f.blocks[failedAt]].Failure = failure
		fail(failure.Error(), failedAt)
		return
	}
	if f.Delete {
		// A diff's hunks must have removed every line; apply_patch's
		// Delete File has none and deletes the file as it is.
		if len(mine) > 0 && text != "" {
			fail(fmt.Sprintf("%s: the diff deletes the file (+++ /dev/null), but its removed lines are not the whole file: %d of its %d lines would remain; nothing was written",
				f.Path, lineCount(text), doc.LineCount()), len(f.blocks)-1)
			return
		}
		f.ch = &change{doc: doc, what: "delete"}
		if s.dry || s.diff {
			f.Diff = deleteDiff(doc)
		}
		f.Status = statusApplied
		return
	}
	lang := s.language(f.Path)
	if f.MoveTo != "" {
		lang = s.language(f.MoveTo)
	}
	ch := &change{doc: doc, lang: lang, content: []byte(text), what: fmt.Sprintf("%d block(s)", len(f.blocks))}
	out, err := s.check(ch)
	f.ch, f.out = ch, out
	if out.Syntax.Checked || out.Syntax.Skipped != "" {
		f.Syntax = syntaxJSON(out.Syntax)
	}
	f.Diff = out.Diff
	if f.MoveTo != "" && (s.dry || s.diff) {
		f.Diff = renameDiff(doc, f.dest, ch.content)
	}
	if err != nil {
		fail(err.Error(), len(f.blocks)-1)
		return
	}
	f.Status = statusApplied
}

// commitFiles writes the files: all as one transaction, or, with
// --partial, each on its own. Each file's Written says whether its new
// content is on disk afterwards (issue 12, item 4): a file that was not
// written, or was written and then restored, is failed with the reason.
func (s *session) commitFiles(files []*fileResult) {
	if s.c.Bool("partial") {
		for _, f := range files {
			if err := s.files.CommitChanges(f.changes()); err != nil {
				f.Status, f.Reason, f.writeFailed = statusFailed, "not written: "+err.Error(), true
				continue
			}
			f.Written = true
		}
		return
	}
	var changes []edit.Change
	var owner []int // the index in files of each change's file
	for i, f := range files {
		for _, c := range f.changes() {
			changes, owner = append(changes, c), append(owner, i)
		}
	}
	err := s.files.CommitChanges(changes)
	if err == nil {
		for _, f := range files {
			f.Written = true
		}
		return
	}
	var te *edit.TransactionError
	if !errors.As(err, &te) {
		for _, f := range files {
			f.Status, f.Reason, f.writeFailed = statusFailed, "not written: "+err.Error(), true
		}
		return
	}
	// The files before the failed one were written, then restored; a
	// file whose restoration failed keeps its new content.
	unrestored := map[string]error{}
	for _, rerr := range te.RestoreErrs {
		var fe *edit.FileError
		if errors.As(rerr, &fe) {
			unrestored[fe.Path] = rerr
		}
	}
	failedAt := owner[te.Failed]
	for i, f := range files {
		notRestored := unrestored[f.ch.doc.Path]
		if notRestored == nil && f.dest != nil {
			notRestored = unrestored[f.dest.Path]
		}
		switch {
		case i == failedAt:
			f.Status, f.Reason, f.writeFailed = statusFailed, "not written: "+te.Err.Error(), true
		case i > failedAt:
			f.Status, f.Reason = statusFailed, fmt.Sprintf("not written: the write of %s failed first, and without --partial nothing is written", te.Path)
		case notRestored != nil:
			f.Written = true
			f.Reason = fmt.Sprintf("written, and NOT restored after the write of %s failed: %v", te.Path, notRestored)
		default:
			f.Status, f.Reason = statusFailed, fmt.Sprintf("not written: restored as it was read after the write of %s failed", te.Path)
		}
	}
}

// changes is what committing the file does: its new content written, or
// the file deleted, or (a move) its new content written at MoveTo and
// the file deleted.
func (f *fileResult) changes() []edit.Change {
	switch {
	case f.Delete:
		return []edit.Change{{Doc: f.ch.doc, Delete: true}}
	case f.MoveTo != "":
		return []edit.Change{{Doc: f.dest, Content: f.ch.content}, {Doc: f.ch.doc, Delete: true}}
	}
	return []edit.Change{{Doc: f.ch.doc, Content: f.ch.content}}
}

// fileOp says what the reply does to the file as a whole.
func fileOp(f *fileResult) string {
	if f.Delete {
		return "deletes it"
	}
	return "moves it to " + f.MoveTo
}

// moveConflicts sets the conflict of each file the reply moves onto its
// own name, onto a file the reply also edits, or onto the same name as
// another move: apply cannot order those (issue 14).
func moveConflicts(files []*fileResult) {
	edited := map[string]string{}
	for _, f := range files {
		edited[filepath.Clean(f.Path)] = f.Path
	}
	target := map[string][]*fileResult{}
	for _, f := range files {
		if f.MoveTo == "" {
			continue
		}
		to := filepath.Clean(f.MoveTo)
		target[to] = append(target[to], f)
		if other, ok := edited[to]; ok {
			f.conflict = fmt.Sprintf("cannot move %s to %s: the reply also edits %s; nothing was written", f.Path, f.MoveTo, other)
		}
	}
	for to, fs := range target {
		if len(fs) < 2 {
			continue
		}
		for _, f := range fs {
			f.conflict = fmt.Sprintf("cannot move %s to %s: the reply moves %d files there; nothing was written", f.Path, to, len(fs))
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
func deleteDiff(doc *edit.Document) string {
	p := diffPath(doc)
	h := fmt.Sprintf("diff --git a/%s b/%s\ndeleted file mode %s\n", p, p, gitMode(doc.Mode))
	d := edit.Diff(p, doc.Content, nil)
	if d == "" {
		return h // an empty file: the header alone, as git prints it
	}
	_, rest, _ := strings.Cut(d, "\n")   // the --- line stays
	_, rest, _ = strings.Cut(rest, "\n") // the +++ line goes
	first, _, _ := strings.Cut(d, "\n")
	return h + first + "\n+++ /dev/null\n" + rest
}

// renameDiff is git diff's form of moving the file doc was read from to
// dest's name with content: "rename from" and "rename to", then the change, if
// any, from a/PATH to b/TO.
func renameDiff(doc, dest *edit.Document, content []byte) string {
	p, q := diffPath(doc), diffPath(dest)
	h := fmt.Sprintf("diff --git a/%s b/%s\nrename from %s\nrename to %s\n", p, q, p, q)
	d := edit.Diff(p, doc.Content, content)
	if d == "" {
		return h
	}
	first, rest, _ := strings.Cut(d, "\n")
	_, rest, _ = strings.Cut(rest, "\n")
	tab := ""
	if strings.ContainsAny(q, " \t") {
		tab = "\t"
	}
	return h + first + "\n+++ b/" + q + tab + "\n" + rest
}

func (s *session) applyFailure(files []*fileResult, blocks []blockResult, malformed int) string {
	nf := 0
	for _, b := range blocks {
		if b.Status == statusFailed {
			nf++
		}
	}
	var written []string
	for _, f := range files {
		if f.Written {
			written = append(written, f.Path)
		}
	}
	wf := 0
	for _, f := range files {
		if f.writeFailed {
			wf++
		}
	}
	var msg string
	if len(blocks) == 0 {
		msg = fmt.Sprintf("the reply's %d block(s) are all malformed (each is listed with its reply line) and none could be read", malformed)
	} else {
		var parts []string
		if nf > 0 {
			parts = append(parts, fmt.Sprintf("%d of %d block(s) failed", nf, len(blocks)))
		}
		if malformed > 0 {
			parts = append(parts, fmt.Sprintf("%d block(s) are malformed (each is listed with its reply line)", malformed))
		}
		if wf > 0 {
			parts = append(parts, fmt.Sprintf("the write of %d file(s) failed", wf))
		}
		msg = strings.Join(parts, " and ")
		if nf == 0 && wf == 0 {
			msg += fmt.Sprintf("; the other %d apply", len(blocks))
		}
	}
	switch {
	case s.dry:
		msg += "; dry run, nothing written"
	case len(written) > 0 && s.c.Bool("partial"):
		msg += fmt.Sprintf("; --partial wrote the %d file(s) whose blocks all applied: %s", len(written), strings.Join(written, ", "))
	case len(written) > 0:
		msg += fmt.Sprintf("; a write failed and %d file(s) written before it could not be restored, so they hold the new content: %s", len(written), strings.Join(written, ", "))
	default:
		msg += "; nothing was written"
	}
	return msg
}

// printApply prints the readable summary: a line per block, the
// malformed blocks, shell suggestions, then diffs (--dry-run or --diff).
func (s *session) printApply(files []*fileResult, blocks []blockResult, parsed reply.Result) {
	out := s.e.stdout
	for _, b := range blocks {
		fmt.Fprintf(out, "block %d (reply line %d) %s: %s", b.Index, b.ReplyLine, b.Path, b.Status)
		if b.Status == statusApplied && b.Match > match.Exact {
			o := match.Offset{}
			if b.Offset != nil {
				o = *b.Offset
			}
			fmt.Fprintf(out, " (matched at %s)", match.Describe(b.Match, o))
		}
		var parts []string
		if b.Anchor != "" {
			parts = append(parts, "anchor: "+b.Anchor)
		}
		if b.Old != "" {
			parts = append(parts, "old: "+b.Old)
		}
		if b.New != "" {
			parts = append(parts, "new: "+b.New)
		}
		if len(parts) > 0 {
			fmt.Fprintf(out, "  [%s]", strings.Join(parts, " | "))
		}
		fmt.Fprintln(out)
		if b.Reason != "" {
			fmt.Fprintf(out, "    %s\n", strings.ReplaceAll(b.Reason, "\n", "\n    "))
		}
	}
	for _, m := range parsed.Malformed {
		path := m.Path
		if path == "" {
			path = "(no path)"
		}
		fmt.Fprintf(out, "malformed block (reply line %d) %s: %s\n", m.Line, path, m.Reason)
	}
	for _, sh := range parsed.Shell {
		fmt.Fprintf(out, "shell suggestion (reply line %d, not run): %s\n", sh.Line, sh.Command)
	}
	for _, f := range files {
		switch {
		case f.Written && f.Reason != "":
			fmt.Fprintf(out, "file %s: %s\n", f.Path, f.Reason)
		case f.Written && f.Delete:
			fmt.Fprintf(out, "file %s: deleted\n", f.Path)
		case f.Written && f.MoveTo != "":
			fmt.Fprintf(out, "file %s: moved to %s\n", f.Path, f.MoveTo)
		case f.Written:
			fmt.Fprintf(out, "file %s: written\n", f.Path)
		case s.dry && f.Status == statusApplied && f.Delete:
			fmt.Fprintf(out, "file %s: not deleted (dry run)\n", f.Path)
		case s.dry && f.Status == statusApplied && f.MoveTo != "":
			fmt.Fprintf(out, "file %s: not moved to %s (dry run)\n", f.Path, f.MoveTo)
		case s.dry && f.Status == statusApplied:
			fmt.Fprintf(out, "file %s: not written (dry run)\n", f.Path)
		case f.Status == statusFailed && f.ch != nil && strings.HasPrefix(f.Reason, "not written: "):
			fmt.Fprintf(out, "file %s: %s\n", f.Path, f.Reason) // the write failed, or was undone
		default:
			fmt.Fprintf(out, "file %s: not written\n", f.Path)
		}
	}
	if s.dry || s.diff {
		for _, f := range files {
			fmt.Fprint(out, f.Diff)
		}
	}
	for _, f := range files {
		if f.Status == statusApplied && !f.out.Syntax.OK() {
			fmt.Fprintf(s.e.stderr, "warning: %s: the edit adds %d syntax error(s):\n%s", f.Path, len(f.out.Syntax.New), f.out.Syntax.Format(f.Path))
		}
	}
}

func nonNilShell(s []reply.ShellSuggestion) []reply.ShellSuggestion {
	if s == nil {
		return []reply.ShellSuggestion{}
	}
	return s
}
