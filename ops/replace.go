package ops

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/files"
	"github.com/symedit/symedit/internal/lines"
	"github.com/symedit/symedit/internal/probe"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/remedy"
	"github.com/symedit/symedit/textedit"
	"github.com/symedit/symedit/walk"
)

// ReplaceRequest searches and replaces in one or more files (`symedit
// replace`, the MCP replace tool): literal text by default, a Go RE2
// regular expression with Regex. Every file is read, searched and checked
// (the syntax guard) before any is written.
type ReplaceRequest struct {
	// Search is the text searched for: literal, or with Regex a Go RE2
	// regular expression (textedit.Search). An empty Search, an invalid
	// expression or a negative Count is a *UsageError.
	Search string `json:"search" jsonschema:"The text to find: literal, or a Go RE2 regular expression when regex is true."`
	// Replacement is written for each match; with Regex, $1 and ${name}
	// expand submatches (\1 is read as $1).
	Replacement string `json:"replacement" jsonschema:"The text written for each match; with regex, $1 or ${name} insert submatches."`
	// Paths are files, folders (walked, skipping what git ignores) or
	// doublestar patterns (package walk, WalkOptions). A file named twice
	// (directly or through a link) is a *UsageError: each name would be
	// edited from the same original.
	Paths []string `json:"paths" jsonschema:"The files to edit, relative to the server's root; each at most once."`
	// Regex makes Search a Go RE2 regular expression.
	Regex bool `json:"regex,omitempty" jsonschema:"true: search is a Go RE2 regular expression. Omitted or false: literal text."`
	// IgnoreCase matches case-insensitively.
	IgnoreCase bool `json:"ignore_case,omitempty" jsonschema:"true: match case-insensitively."`
	// Count replaces at most the first Count matches in each file; 0
	// replaces them all.
	Count int `json:"count,omitempty" jsonschema:"Replace at most the first N matches in each file. Omitted or 0: all matches."`
	// Expect, when set, refuses the run (COUNT) unless there are exactly
	// that many matches over all files; negative is a *UsageError. Nil:
	// any number of matches but at least one (else NO_MATCH_TEXT).
	Expect *int `json:"expect,omitempty" jsonschema:"Refuse, writing nothing, unless there are exactly this many matches over all files. Omitted: any number of matches but at least one."`
	// Partial writes the files that pass every check even when others are
	// refused; without it nothing is written unless every file passes.
	Partial bool `json:"partial,omitempty" jsonschema:"true: write the files that pass every check even when others are refused (each file's result says which). Omitted or false: write nothing unless every file passes."`
	WalkOptions
	// WriteOptions apply to every file: ExpectSHA256, when set, is checked
	// against each file.
	WriteOptions
	// OnFile, when set, is called on the calling goroutine once per
	// file, as it is done (the files are worked on concurrently,
	// WalkOptions.Jobs at once): first, in path order, the walked files
	// a first look at their bytes settles (no match, skipped), then, in
	// path order, the files searched and checked; n is the number of
	// files. For a progress bar: the results come when every file is
	// done.
	OnFile func(path string, n int) `json:"-"`
}

// The statuses of a ReplaceFile.
const (
	// ReplaceReplaced: the file passed every check; written unless this
	// is a dry run.
	ReplaceReplaced = "replaced"
	// ReplaceNoMatch: a file named in Paths (not found by a walk) has no
	// match; it is left alone.
	ReplaceNoMatch = "no_match"
	// ReplaceRefused: the file failed (unreadable, the syntax guard, a
	// failed write); its Error says why.
	ReplaceRefused = "refused"
	// ReplaceNotWritten: the file passed but was not written because the
	// run was refused as a whole (another file refused without Partial,
	// or Expect not met: the result's Error says why), or because the
	// write of a file before it failed (its Error says which).
	ReplaceNotWritten = "not_written"
)

// ReplaceResult is the result of a ReplaceRequest. Its Result has no path
// and no diff (each file has its own): ok (every file passed and, unless
// a dry run, was written), changed (a file that passed changes), written
// (a file was written), dry_run, summary ("N match(es) in K of M
// file(s)", with the files a walk skipped) and error: NO_MATCH_TEXT (no
// match in any file; nearest holds the most similar lines,
// []SimilarLine), COUNT (Expect not met; the message lists the matches),
// or, when files were refused, the code of the worst file's error (an
// error, exit 2, over a rejection, exit 1) with a message counting them;
// USAGE, UNSUPPORTED_LANGUAGE (an unknown WriteOptions.Lang), OUTSIDE_ROOT, ...
// for a request refused before any file is read.
type ReplaceResult struct {
	Result
	// Files are the files with matches (and every file named in Paths,
	// and every file that could not be read), in path order: as gofmt -l
	// lists every file. Never nil.
	Files []ReplaceFile `json:"files" jsonschema:"The files with matches, every file named in paths and every file that could not be read, in path order; each with its own ok, status, counts and error."`
	// TotalMatches and TotalReplacements add up the files' counts.
	TotalMatches      int `json:"total_matches" jsonschema:"The sum of the files' matches."`
	TotalReplacements int `json:"total_replacements" jsonschema:"The sum of the files' replacements."`
	// MoreMatches: a file's counting stopped one past Expect
	// (ReplaceFile.MoreMatches), so TotalMatches is a lower bound.
	MoreMatches bool `json:"more_matches,omitempty" jsonschema:"true: a file's counting stopped one past the expected count, so total_matches is a lower bound. Omitted otherwise."`
	// Refused counts the files with status ReplaceRefused, FilesWritten
	// the files written.
	Refused      int `json:"refused" jsonschema:"How many files have status refused."`
	FilesWritten int `json:"files_written" jsonschema:"How many files were written."`
	// Searched counts the files read and searched (a walk's files
	// without a match included).
	Searched int `json:"searched" jsonschema:"How many files were read and searched (a walk's files without a match included)."`
	// Skipped counts the files a walk left out, by reason (walk.Result),
	// the files that are not UTF-8 text and hold no match (skipNotUTF8):
	// searched as raw bytes and left alone, and the walked files that
	// could not be read (skipUnreadable): neither refuses the run.
	Skipped map[string]int `json:"skipped,omitempty" jsonschema:"How many files were left out, by reason: those a walk skipped, those that are not UTF-8 text and hold no match, and walked files that could not be read; omitted when none."`
	// SkippedFiles lists, in path order, the walked files counted in
	// Skipped as not UTF-8 (no match) or unreadable, with the reason of
	// each: left alone, not refused. A file named in Paths is in Files
	// instead (an unreadable one refused).
	SkippedFiles []SkippedFile `json:"skipped_files,omitempty" jsonschema:"The walked files left alone because they are not UTF-8 text and hold no match, or could not be read, in path order, each with its reason; omitted when none."`
	// Walked reports that a path was a folder or a pattern.
	Walked bool `json:"-"`
}

// ReplaceFile is one file of a ReplaceResult. Its Result has the file's
// path, changed (the replacements change its content), written, dry_run,
// diff (for a dry run, refused files' included; with WriteOptions.Diff,
// for a file written), syntax, summary ("replaced N of M match(es)"), and
// ok: true for ReplaceReplaced and ReplaceNoMatch, false otherwise; error
// is why a ReplaceRefused file was refused, or why a ReplaceNotWritten
// file was not written after a write failed (else nil: the result's
// error says why the run was refused).
type ReplaceFile struct {
	Result
	// Status is ReplaceReplaced, ReplaceNoMatch, ReplaceRefused or
	// ReplaceNotWritten.
	Status string `json:"status" jsonschema:"The file's outcome: replaced (passed every check; written unless dry_run), no_match (a named file with no match; left alone), refused (failed: unreadable, the syntax guard, a failed write; error says why) or not_written (passed, but the run was refused as a whole, or an earlier file's write failed)."`
	// Matches counts every match in the file; Replacements the matches
	// replaced (Count caps them).
	Matches      int `json:"matches" jsonschema:"How many matches the file has."`
	Replacements int `json:"replacements" jsonschema:"How many of the matches were replaced (count caps them)."`
	// MoreMatches: with Expect, counting stopped at Matches, one more
	// than expected; the file has at least that many (the run is refused,
	// and the rest of the file was not searched).
	MoreMatches bool `json:"more_matches,omitempty" jsonschema:"true: counting stopped one past the expected count; the file has at least matches matches. Omitted otherwise."`
}

// skipNotUTF8 is the reason, in ReplaceResult.Skipped, for a file that is
// not UTF-8 text (symedit edits none) and holds no match: a replace over
// a large tree goes on past the Latin-1 test files such trees have, as
// sed and ripgrep do, instead of refusing the run for files it would not
// change anyway.
const skipNotUTF8 = "not UTF-8 (no match)"

// maxSimilarLines is the most similar lines a NO_MATCH_TEXT refusal
// lists, over all its files.
const maxSimilarLines = 10

// replaceFile is a file while Replace works on it.
type replaceFile struct {
	out     ReplaceFile
	ch      *change
	matches []textedit.Match
	checked outcome
	readErr bool  // err is the read's: the file was not searched
	err     error // why the file was refused or not written
	// skip is why the file was searched as raw bytes and left alone
	// (skipNotUTF8), or "".
	skip string
}

// Replace runs req (`symedit replace`): it expands the paths, takes the
// lock of every file (in the order of their keys, so that concurrent
// calls never deadlock), then reads, searches, replaces in memory and runs
// the syntax guard on each file with a match, on WalkOptions.Jobs
// goroutines (a file without a match is never parsed). Nothing is written
// unless every file passes and the match count is right (Expect, at least
// one match); with Partial the files that pass are written anyway. Each
// file is written atomically, in path order; when a write fails, the
// files before it stay written and the files after it are not written.
// The result is never nil. The error is nil or the result's *Error (see
// ReplaceResult).
func (w *Workspace) Replace(ctx context.Context, req ReplaceRequest) (*ReplaceResult, error) {
	ctx = withOp(ctx, "replace")
	res := &ReplaceResult{Files: []ReplaceFile{}}
	res.DryRun = req.DryRun
	sr, err := compileReplace(req)
	if err != nil {
		return res, res.Fail(err)
	}
	found, err := w.expandRead(req.Paths, req.WalkOptions, true)
	if err != nil {
		return res, res.Fail(err)
	}
	sniff := uncheckedSet(found)
	res.Walked, res.Skipped = found.Walked, found.Skipped
	walked := len(found.Files) // the binary and too large ones still among them
	onFile := func(path string) {
		if req.OnFile != nil {
			req.OnFile(path, walked)
		}
	}
	search := w.scanWalked(ctx, req, sr, &found, sniff, res, onFile)
	total := len(found.Files)
	rs, unlock, err := w.lockReplace(ctx, search)
	if err != nil {
		return res, res.Fail(err)
	}
	defer unlock()

	files, withMatches := w.searchReplace(ctx, req, sr, &found, sniff, search, rs, res, onFile)
	sortSkippedFiles(res)
	res.Summary = fmt.Sprintf("%s in %d of %d file(s)", matchCount(res.TotalMatches, res.MoreMatches), withMatches, total) + skippedSummary(found)

	refusal, stopped := countRefusal(ctx, req, found, files, res)
	countRefused := refusal != nil // the run as a whole: nothing is written
	for _, f := range files {
		if f.out.Status == ReplaceRefused {
			res.Refused++
		}
	}
	if !countRefused {
		refusal = w.writeReplace(ctx, req, files, res)
	}
	if countRefused || refusal != nil && !req.Partial {
		markNotWritten(files, stopped)
	}
	for _, f := range files {
		res.Files = append(res.Files, f.result(req.WriteOptions))
		out := &res.Files[len(res.Files)-1]
		if out.Written {
			res.FilesWritten++
			res.Written = true
		}
		res.Changed = res.Changed || out.Changed && out.Status == ReplaceReplaced
	}
	if refusal != nil {
		return res, res.Fail(refusal)
	}
	res.OK = true
	return res, nil
}

// compileReplace checks req's fields before any file is touched, in the
// order their refusals take precedence (the search, Expect, the write
// options, Lang, the paths), and returns its compiled search.
func compileReplace(req ReplaceRequest) (*textedit.Searcher, error) {
	sr, err := textedit.Compile(textedit.Search{Pattern: req.Search, Replacement: req.Replacement, Regex: req.Regex,
		IgnoreCase: req.IgnoreCase, Count: req.Count})
	if err != nil {
		return nil, &UsageError{Msg: err.Error()}
	}
	if req.Expect != nil && *req.Expect < 0 {
		return nil, &UsageError{Field: "expect", Msg: fmt.Sprintf("%d: want 0 or more matches", *req.Expect)}
	}
	if err := req.WriteOptions.validate(); err != nil {
		return nil, err
	}
	if req.Lang != "" {
		// Else every file would be in no supported language: written
		// without the guard.
		if _, err := lang.ByName(req.Lang); err != nil {
			return nil, err
		}
	}
	if len(req.Paths) == 0 {
		return nil, &UsageError{Msg: "no paths: name the files, folders or patterns to replace in"}
	}
	return sr, nil
}

// lockReplace resolves each of paths once, for its lock and for its read,
// refuses two paths of one file (distinct), and takes the locks of all;
// the caller calls unlock when it is done.
func (w *Workspace) lockReplace(ctx context.Context, paths []string) (rs []resolved, unlock func(), err error) {
	rs = make([]resolved, len(paths))
	keys := make([]string, len(paths))
	for i, p := range paths {
		rs[i] = w.resolve(p)
		keys[i] = rs[i].key
	}
	if err := distinct(paths, keys); err != nil {
		return nil, nil, err
	}
	unlock, err = w.lockKeys(ctx, keys)
	if err != nil {
		return nil, nil, err
	}
	return rs, unlock, nil
}

// searchReplace reads, searches and checks every file of paths, the files
// of found left after their first look (scanWalked; rs[i] is paths[i]'s
// resolution), adds up the counts in res and in found's Skipped, and
// returns the files the result lists, in path order, with the number of
// files with a match: a walk lists only the files with a match or an
// error. A file that cannot be read is refused, and the others still
// get their lines. With Expect, a file's search stops one match past it:
// that is already a refusal, and counting on would cost time for nothing
// (on a 10 MB line, for hundreds of thousands of matches).
func (w *Workspace) searchReplace(ctx context.Context, req ReplaceRequest, sr *textedit.Searcher, found *walk.Result, sniff map[string]bool, paths []string, rs []resolved, res *ReplaceResult, onFile func(string)) (files []*replaceFile, withMatches int) {
	limit := 0
	if req.Expect != nil {
		limit = *req.Expect + 1
	}
	_ = forEachOrdered(len(paths), req.jobs(), func(i int) *replaceFile {
		return w.replaceOne(ctx, paths[i], rs[i].res, sr, req, limit)
	}, func(i int, f *replaceFile) error {
		onFile(f.out.Path)
		res.TotalMatches += f.out.Matches
		res.TotalReplacements += f.out.Replacements
		res.MoreMatches = res.MoreMatches || f.out.MoreMatches
		if !f.readErr {
			res.Searched++
		}
		if f.skip != "" {
			addSkip(found, res, f.skip)
			if sniff[paths[i]] {
				res.SkippedFiles = append(res.SkippedFiles, SkippedFile{Path: f.out.Path, Reason: f.skip})
			}
		}
		if f.out.Matches > 0 {
			withMatches++
		} else if found.Walked && f.err == nil {
			return nil // a walk lists only the files with matches
		}
		files = append(files, f)
		return nil
	})
	return files, withMatches
}

// countRefusal returns the refusal of the run as a whole, under which
// nothing is written, when there is one: the context stopped (stopped
// says so), or, when every file was read, a match count that is not
// Expect, or no match at all.
func countRefusal(ctx context.Context, req ReplaceRequest, found walk.Result, files []*replaceFile, res *ReplaceResult) (refusal *Error, stopped error) {
	stopped = cancelled(ctx)
	switch {
	case stopped != nil:
		// Stopped while searching or checking: the counts are partial.
		refusal = AsError(stopped)
	case !slices.ContainsFunc(files, func(f *replaceFile) bool { return f.readErr }):
		// The counts over all files mean something only when every file
		// was read; else the unreadable files are the refusal.
		where := strings.Join(found.Files, ", ")
		if found.Walked {
			where = fmt.Sprintf("the %d file(s) of %s", len(found.Files), strings.Join(req.Paths, " "))
		}
		switch {
		case req.Expect != nil && res.MoreMatches:
			refusal = AsError(&ReplaceError{Count: true, Msg: fmt.Sprintf("expected %d match(es) of %s, found more than %d; nothing was written%s",
				*req.Expect, quoteSent(req.Search), *req.Expect, matchList(files, 0))})
		case req.Expect != nil && res.TotalMatches != *req.Expect:
			refusal = AsError(&ReplaceError{Count: true, Msg: fmt.Sprintf("expected %d match(es) of %s, found %d; nothing was written%s",
				*req.Expect, quoteSent(req.Search), res.TotalMatches, matchList(files, res.TotalMatches))})
		case res.TotalMatches == 0:
			refusal = noMatchError(ctx, req.Search, where, files)
			if stopped = cancelled(ctx); stopped != nil {
				// Stopped while looking for similar lines: the refusal
				// would miss them.
				refusal = AsError(stopped)
			}
		}
	}
	return refusal, stopped
}

// writeReplace writes the files that passed, once the counts have: all
// of them, unless a file was refused (res.Refused) and req is not
// Partial, when none. It records what it wrote for undo, and returns the
// run's refusal, if any: the refused files, a failed write (counted in
// res.Refused), or the context stopped before a write.
func (w *Workspace) writeReplace(ctx context.Context, req ReplaceRequest, files []*replaceFile, res *ReplaceResult) *Error {
	var refusal *Error
	if res.Refused > 0 {
		refusal = w.refusal(req, files, res.Refused)
	}
	if refusal == nil || req.Partial {
		failed, stopped := w.commitReplace(ctx, req, files)
		var recs []written
		for _, f := range files {
			if f.checked.written {
				recs = append(recs, written{doc: f.ch.doc, content: f.ch.content})
			}
		}
		w.record(ctx, recs, nil, &res.Result)
		switch {
		case stopped != nil:
			refusal = AsError(stopped)
		case failed:
			res.Refused++
			refusal = w.refusal(req, files, res.Refused)
		}
	}
	return refusal
}

// markNotWritten reports each file that passed but was not written as
// not written, with stopped as its error when the context stopped the
// run before any write (countRefusal).
func markNotWritten(files []*replaceFile, stopped error) {
	for _, f := range files {
		if f.out.Status == ReplaceReplaced && !f.checked.written {
			f.out.Status = ReplaceNotWritten
			if stopped != nil {
				f.err = stopped
			}
		}
	}
}

// replaceOne reads (from its resolution r, when not nil), searches and
// (when anything matched) checks one file. With limit > 0 the search
// stops at the limit-th match, and such a file is not checked: the run
// is refused.
func (w *Workspace) replaceOne(ctx context.Context, path string, r *files.Resolution, sr *textedit.Searcher, req ReplaceRequest, limit int) *replaceFile {
	f := &replaceFile{}
	f.out.Path = path
	if err := ctx.Err(); err != nil {
		f.out.Status, f.err, f.readErr = ReplaceRefused, err, true
		return f
	}
	doc, err := w.readResolved(path, r, req.WriteOptions)
	probe.CountRead(ctx)
	if err != nil {
		if errors.Is(err, edit.ErrEncoding) {
			// Not UTF-8 text: skipped when its bytes hold no match, else
			// refused with the matches its bytes hold, so that the
			// summary, the total and an expected count see them.
			n := w.rawMatches(ctx, path, sr)
			if n == 0 {
				f.out.Status, f.skip = ReplaceNoMatch, skipNotUTF8
				return f
			}
			if n > 0 {
				// Searched, as bytes: its count counts, an expected
				// count included.
				f.out.Status, f.err, f.out.Matches = ReplaceRefused, err, n
				return f
			}
		}
		f.out.Status, f.err, f.readErr = ReplaceRefused, err, true
		return f
	}
	ch, n, matches, err := planReplace(ctx, doc, language(path, req.Lang), sr, limit)
	if err != nil {
		f.out.Status, f.err = ReplaceRefused, cancelled(ctx)
		return f
	}
	f.ch, f.matches = ch, matches
	f.out.Path, f.out.Matches, f.out.Replacements = doc.Path, len(matches), n
	if len(matches) == 0 {
		f.out.Status = ReplaceNoMatch
		return f // nothing to check: the file is never parsed
	}
	f.out.Status = ReplaceReplaced
	if limit > 0 && len(matches) >= limit {
		f.out.MoreMatches = true
		ch.what = matchCount(len(matches), true)
		return f // refused for its count: not worth a parse
	}
	if f.checked, f.err = w.check(ctx, ch, req.WriteOptions); f.err != nil {
		f.out.Status = ReplaceRefused
	}
	return f
}

// rawMatches returns how many matches sr finds in the bytes of the file
// path names, read through the file layer (confined, as every read) as
// they are: the search of a file that is not UTF-8 text (each byte that
// is not UTF-8 reads as U+FFFD, which no literal search text holds). It
// is -1 when that cannot be told: a file that cannot be read, and a
// UTF-16 or UTF-32 file (whose text a byte search cannot see), so that
// the read's error stays the refusal.
func (w *Workspace) rawMatches(ctx context.Context, path string, sr *textedit.Searcher) int {
	raw, err := w.files.ReadBytes(path)
	probe.CountRead(ctx)
	if err != nil || edit.WideBOM(raw) != "" {
		return -1
	}
	_, _, matches := sr.Replace(string(raw))
	return len(matches)
}

// planReplace computes the change sr makes to doc: its matches replaced
// in memory (the first Count of them with Count), with one byte edit per
// replacement, so that the syntax guard re-parses only around them and
// the diff is built from them. It returns the change, whose
// content is doc's when nothing matched, the number of replacements and
// every match, with 1-based lines of doc. With limit > 0 the search stops
// at the limit-th match (textedit.Searcher.ReplaceDocumentLimit: nothing is
// then replaced). The error is ctx's, when it is done first.
func planReplace(ctx context.Context, doc *edit.Document, lang *lang.Language, sr *textedit.Searcher, limit int) (*change, int, []textedit.Match, error) {
	content, n, matches, edits, err := sr.ReplaceDocumentLimit(ctx, doc, limit)
	if err != nil {
		return nil, 0, nil, err
	}
	return &change{doc: doc, lang: lang, content: content, edits: edits,
		what: fmt.Sprintf("replaced %d of %d match(es)", n, len(matches))}, n, matches, nil
}

// matchCount says how many matches there are: "N match(es)", or, when
// counting stopped there (more), "at least N match(es)".
func matchCount(n int, more bool) string {
	if more {
		return fmt.Sprintf("at least %d match(es)", n)
	}
	return fmt.Sprintf("%d match(es)", n)
}

// distinct refuses (USAGE) a file named twice, directly or through a
// link (two paths with one lock key; keys[i] is paths[i]'s): each name
// would be edited from the same original, and the second write would find
// the file changed by the first.
func distinct(paths, keys []string) error {
	seen := make(map[string]string, len(paths))
	for i, p := range paths {
		key := keys[i]
		if prev, ok := seen[key]; ok {
			return &UsageError{Msg: fmt.Sprintf("%s and %s are the same file; name each file once", prev, p)}
		}
		seen[key] = p
	}
	return nil
}

// commitReplace writes the files that passed, in order, unless this is a
// dry run (files.Files.Commit, EachAlone: each file on its own, prepared several
// at once, each folder synced once). When a write fails, that file is
// refused and the files after it are not written (the files before it
// stay written: each file is reported as it is on disk); it reports
// whether a write failed. When ctx is done before a file is written (a
// call cancelled, or past its time limit, while it was being checked),
// that file and the ones after it are not written, and stopped says so.
func (w *Workspace) commitReplace(ctx context.Context, req ReplaceRequest, files []*replaceFile) (failed bool, stopped error) {
	if req.DryRun {
		return false, nil
	}
	var (
		todo []*replaceFile
		chs  []*change
	)
	for _, f := range files {
		if f.out.Status == ReplaceReplaced && f.ch.changed() {
			todo, chs = append(todo, f), append(chs, f.ch)
		}
	}
	written, err := w.commitEach(ctx, chs)
	for _, f := range todo[:written] {
		f.checked.written = true
	}
	if err == nil {
		return false, nil
	}
	at := slices.Index(files, todo[written])
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		stopped = cancelled(ctx)
		if written > 0 {
			stopped = fmt.Errorf("the call was stopped after %d file(s) were written; the others were not: %w", written, ctx.Err())
		}
		for _, g := range files[at:] {
			if g.out.Status == ReplaceReplaced {
				g.out.Status, g.err = ReplaceNotWritten, stopped
			}
		}
		return false, stopped
	}
	f := files[at]
	f.out.Status, f.err = ReplaceRefused, err
	for _, g := range files[at+1:] {
		if g.out.Status == ReplaceReplaced {
			g.out.Status, g.err = ReplaceNotWritten, fmt.Errorf("not written: writing %s failed first", f.out.Path)
		}
	}
	return true, nil
}

// refusal is the error of a run that refused files: it says how many and
// what was written, and has the code of the worst file's error (an error,
// exit 2, over a rejection, exit 1; the first of the worst class).
func (w *Workspace) refusal(req ReplaceRequest, files []*replaceFile, refused int) *Error {
	var worst error
	written, passed := 0, 0
	for _, f := range files {
		if f.out.Status == ReplaceRefused && (worst == nil || CodeOf(f.err).Exit() > CodeOf(worst).Exit()) {
			worst = f.err
		}
		if f.checked.written || f.out.Status == ReplaceReplaced && req.Partial {
			written++
		}
		if f.out.Status == ReplaceReplaced {
			passed++
		}
	}
	msg := fmt.Sprintf("refused %d of %d file(s)", refused, len(files))
	r := &replaceRefusal{worst: worst}
	switch {
	case req.DryRun:
		msg += "; dry run, nothing was written"
	case req.Partial:
		msg += fmt.Sprintf("; wrote the %d file(s) that passed", written)
	default:
		msg += fmt.Sprintf("; nothing was written (%d file(s) passed)", passed)
		if passed > 0 {
			r.remedy = remedy.Set(remedy.Partial, "true")
		}
	}
	r.msg = msg
	return &Error{Code: CodeOf(worst), Message: msg, Remedy: remedy.Of(r), err: r}
}

// replaceRefusal is a run that refused files; it wraps the worst file's
// error, so that errors.Is and errors.As reach it.
type replaceRefusal struct {
	msg   string
	worst error
	// remedy is the partial option when files passed and none was
	// written; else nil, and the worst file's remedy is the run's.
	remedy remedy.Remedy
}

func (e *replaceRefusal) Error() string         { return e.msg }
func (e *replaceRefusal) Unwrap() error         { return e.worst }
func (e *replaceRefusal) Remedy() remedy.Remedy { return e.remedy }

// result returns the file's entry in the result.
func (f *replaceFile) result(o WriteOptions) ReplaceFile {
	out := f.out
	out.DryRun = o.DryRun
	out.Syntax = syntaxOf(f.checked.syntax)
	if out.Status == ReplaceReplaced {
		// Only a file that passed has symbol changes to report.
		out.Symbols = f.checked.symbols
	}
	out.Written = f.checked.written
	out.Changed = f.ch != nil && f.ch.changed()
	if f.ch != nil {
		out.SHA256Before, out.SHA256After, out.Lines = f.ch.receipt()
	}
	if o.DryRun || o.Diff && out.Written {
		out.Diff = f.checked.diff
	}
	switch out.Status {
	case ReplaceReplaced, ReplaceNoMatch:
		out.OK = true
		if f.ch != nil {
			out.Summary = f.ch.what
		} else {
			out.Summary = f.skip // searched as raw bytes: no change to describe
		}
	case ReplaceRefused:
		out.Fail(f.err)
	case ReplaceNotWritten:
		out.Summary = fmt.Sprintf("%s, not written", matchCount(out.Matches, out.MoreMatches))
		if f.err != nil {
			out.Fail(f.err)
			out.Summary = fmt.Sprintf("%s, %s", matchCount(out.Matches, out.MoreMatches), f.err)
		}
	}
	return out
}

// noMatchError is the refusal of a replace that found nothing, with the
// lines most similar to the search text over the files listed, best
// first, in its message and as its Nearest ([]SimilarLine). The search
// text is quoted as quoteSent cuts it. The search for similar lines
// stops when ctx is done (the refusal then lists none).
func noMatchError(ctx context.Context, search, where string, files []*replaceFile) *Error {
	re := &ReplaceError{Msg: fmt.Sprintf("no match for %s in %s; nothing was written", quoteSent(search), where)}
	for _, f := range files {
		if f.ch == nil {
			continue
		}
		// SimilarTo's content is already cut around the match on long lines.
		for _, n := range textedit.SimilarTo(ctx, string(f.ch.doc.Text), f.ch.doc.EOL, search) {
			re.Similar = append(re.Similar, SimilarLine{f.ch.doc.Path, n.LineNumber, n.Content, n.SimilarityScore})
		}
	}
	slices.SortStableFunc(re.Similar, func(a, b SimilarLine) int { return cmp.Compare(b.Similarity, a.Similarity) })
	if len(re.Similar) > maxSimilarLines {
		re.Similar = re.Similar[:maxSimilarLines]
	}
	if len(re.Similar) > 0 {
		var b strings.Builder
		b.WriteString("\nsimilar lines:")
		for _, l := range re.Similar {
			fmt.Fprintf(&b, "\n  %s:%d: %s  (similarity %.2f)", l.Path, l.Line, l.Text, l.Similarity)
		}
		re.Msg += b.String()
	}
	e := AsError(re)
	if len(re.Similar) > 0 {
		e.Nearest = re.Similar
	}
	return e
}

// matchList renders the matches for a count error, file by file in order:
// at most textedit.MaxMatchLocations of them, each with a window of its line,
// then how many more there are, so that the refusal stays small however
// many matches there are, unless total is 0 (not known: counting stopped
// early).
func matchList(files []*replaceFile, total int) string {
	var b strings.Builder
	listed := 0
	for _, f := range files {
		if len(f.matches) == 0 && f.out.Matches > 0 && listed < textedit.MaxMatchLocations {
			// Counted in its bytes (not UTF-8 text): no line to show.
			fmt.Fprintf(&b, "\n  %s: %s in bytes that are not UTF-8 text", f.out.Path, matchCount(f.out.Matches, false))
			listed += f.out.Matches
			continue
		}
		for _, m := range f.matches {
			if listed == textedit.MaxMatchLocations {
				break
			}
			fmt.Fprintf(&b, "\n  %s:%d:%d: %s", f.out.Path, m.Line, m.Column, m.Display())
			listed++
		}
	}
	if listed == 0 {
		return ""
	}
	if total > 0 && listed < total {
		fmt.Fprintf(&b, "\n  ... and %d more", total-listed)
	}
	return ":" + b.String()
}

// quoteSent quotes the search text a caller sent, bounded as an edit's
// old_text is (lines.Sent): a refusal never grows with the pattern.
func quoteSent(search string) string {
	s, _ := lines.Sent(search, textedit.MaxSentShown)
	return strconv.Quote(s)
}
