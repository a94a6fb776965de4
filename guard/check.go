package guard

// FindSyntaxProblems: the syntax guard's parse of one content, listing
// every problem (symedit check).

import (
	"bytes"
	"context"
	"fmt"
	"sort"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/lang"
)

// FindSyntaxProblems parses content, the full content of a file (a UTF-8
// byte order mark included), as lang with the syntax guard's machinery
// and reports every syntax problem it has: the problems CheckSyntax counts
// (tree-sitter ERROR and MISSING nodes, and the problems of the language's
// lang.Checker: go/parser errors for Go, indentation errors for Python;
// see [CheckSyntax]), in file order. As in the guard, the
// checkers read a lone CR as a line end except in Go, and lines in
// positions are counted as [Document] counts them.
//
// The report's New holds every problem (relative to an empty file, all
// are new), and Before is 0 and After is len(New). As in the guard, in a
// Go file go/parser decides: when it accepts the file, tree-sitter does
// not parse it (its problems could only be notes, and its parse costs ten
// times go/parser's), and when it refuses it, the tree-sitter problems
// that end on a line before go/parser's first error are not problems but
// Notes. As in the guard, at most
// the first 10 errors of go/parser or of the Python indentation check are
// listed, one per line, since go/parser cascades after its first error;
// every tree-sitter problem is listed.
//
// As CheckSyntax, it does not parse, and returns a report with Checked
// false and Skipped saying why and a nil error, when opt.Mode is CheckOff,
// lang is nil, content (without a byte order mark) is larger than
// opt.MaxSize (GuardMaxSize when zero), or the parse did not finish within
// opt.Timeout (GuardTimeout when zero) or before ctx was done; but in Go,
// where go/parser decides, a tree-sitter parse that does not finish within
// opt.Timeout leaves go/parser's errors as the report (Checked, without
// tree-sitter's notes), since go/parser's check is linear in the size. The error is
// non-nil only for a parser failure other than those. It keeps no state
// and is safe for concurrent use; each call uses its own parser.
func FindSyntaxProblems(ctx context.Context, lang *lang.Language, content []byte, opt GuardOptions) (SyntaxReport, error) {
	rep := SyntaxReport{}
	if lang != nil {
		rep.Language = lang.Name
	}
	if rep.skipUnchecked(opt, lang) {
		return rep, nil
	}
	opt = opt.withDefaults()
	text := bytes.TrimPrefix(content, []byte(edit.UTF8BOM))
	if rep.skipTooLarge(len(text), opt.MaxSize) {
		return rep, nil
	}
	ctx, cancel := context.WithTimeoutCause(ctx, opt.Timeout, errGuardTimeout)
	defer cancel()
	skip := func() (SyntaxReport, error) {
		rep.skip(stopReason(ctx, opt.Timeout))
		return rep, nil
	}
	// The checkers read the text as the language's parser does: a lone CR
	// as LF, except in Go, lest a CR-only file read as one line. Offsets
	// are unchanged.
	in := lang.ParserInput(text)
	// Where the language's own parser decides (go/parser in Go, whose
	// grammar tree-sitter's lags behind): when tree-sitter runs out of
	// time (the guard's own timeout, not the caller's cancellation), its
	// errors are the report, without tree-sitter's notes.
	checker := lang.Checker()
	check := guardCheckFunc(checker)
	decides := checker != nil && checker.Decides
	goTimedOut := func() bool { return decides && context.Cause(ctx) == errGuardTimeout }
	if ctx.Err() != nil {
		if goTimedOut() {
			return problemsReport(rep, text, in, nil, nil, check(in)), nil
		}
		return skip()
	}
	if decides {
		return ownFirst(ctx, rep, lang, text, in, check(in), goTimedOut, skip)
	}
	var extraDone chan []guardProblem
	if check != nil {
		extraDone = make(chan []guardProblem, 1)
		go func() { extraDone <- check(in) }()
	}
	ts, err := guardParseProblems(ctx, lang.Grammar(), in)
	var extra []guardProblem
	if extraDone != nil {
		extra = <-extraDone
	}
	if err != nil {
		if goTimedOut() {
			return problemsReport(rep, text, in, nil, nil, extra), nil
		}
		if ctx.Err() != nil {
			return skip()
		}
		return rep, fmt.Errorf("edit: syntax check: parsing %s: %w", lang.Name, err)
	}
	return problemsReport(rep, text, in, ts, nil, extra), nil
}

// ownFirst is FindSyntaxProblems where the language's own parser decides
// (go/parser in Go) and has found own in in: where it accepts the text,
// tree-sitter, whose problems could only be notes, does not run (as in
// CheckSyntax: a tree-sitter parse costs ten times go/parser's); where
// it refuses it, tree-sitter parses too, and its problems that end
// before the own parser's first error are notes. When tree-sitter runs
// out of the guard's time (goTimedOut), own alone is the report; when
// the caller's context stops it, the report is skip's.
func ownFirst(ctx context.Context, rep SyntaxReport, l *lang.Language, text, in []byte, own []guardProblem, goTimedOut func() bool, skip func() (SyntaxReport, error)) (SyntaxReport, error) {
	if len(own) == 0 {
		return problemsReport(rep, text, in, nil, nil, own), nil
	}
	ts, err := guardParseProblems(ctx, l.Grammar(), in)
	switch {
	case err != nil && goTimedOut():
		return problemsReport(rep, text, in, nil, nil, own), nil
	case err != nil && ctx.Err() != nil:
		return skip()
	case err != nil:
		return rep, fmt.Errorf("edit: syntax check: parsing %s: %w", l.Name, err)
	}
	ts, notes := guardOwnNotes(in, ts, own)
	return problemsReport(rep, text, in, ts, notes, own), nil
}

// problemsReport is FindSyntaxProblems' report of text (in, as the
// checkers read it) with the tree-sitter problems ts, the notes, and the
// second checker's problems extra (at most guardMaxExtra, one per line),
// in file order.
func problemsReport(rep SyntaxReport, text, in []byte, ts, notes, extra []guardProblem) SyntaxReport {
	rep.Checked = true
	all := append(ts, guardFirstPerLine(in, extra, guardMaxExtra)...)
	for i := range all {
		all[i].at = all[i].start
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].start != all[j].start {
			return all[i].start < all[j].start
		}
		return all[i].end < all[j].end
	})
	lines := newGuardLines(text)
	for _, p := range all {
		rep.New = append(rep.New, lines.problem(text, p))
	}
	rep.Notes = guardNotes(lines, text, notes)
	rep.After = len(rep.New)
	return rep
}
