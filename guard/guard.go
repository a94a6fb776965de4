package guard

// The syntax guard: parse a file before and after an edit and report the
// syntax problems the edit added.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/internal/lines"
	"github.com/symedit/symedit/internal/probe"
	"github.com/symedit/symedit/lang"
)

// GuardTimeout is how long one CheckSyntax call may spend parsing (10
// seconds) when GuardOptions.Timeout is zero.
const GuardTimeout = 10 * time.Second

// GuardMaxSize is the largest content, in bytes without a byte order mark,
// that CheckSyntax parses (16 MiB) when GuardOptions.MaxSize is zero: five
// times the largest file of Go's source tree (cmd/compile's opGen.go, 3
// MB), so that real source files are checked, not skipped. A tree
// costs about 19 bytes of C memory per source byte on that file (57 MB,
// measured as the process's peak resident size), up to about 75 for dense
// code, and the guard holds up to two trees at once: from about 600 MB to
// 2.4 GB at the limit. Larger contents are not checked: the report says so
// (SkipTooLarge), and strict mode refuses to write them.
const GuardMaxSize = 16 << 20

// SkipCode says, in a word a program can test, why a SyntaxReport was not
// checked.
type SkipCode string

// The reasons for not checking.
const (
	// SkipCheckOff: the mode was CheckOff.
	SkipCheckOff SkipCode = "check_off"
	// SkipUnsupported: the file is in no supported language.
	SkipUnsupported SkipCode = "unsupported_language"
	// SkipTooLarge: a content is over the size limit (GuardMaxSize).
	SkipTooLarge SkipCode = "too_large"
	// SkipTimeout: a parse did not finish within the time limit.
	SkipTimeout SkipCode = "timeout"
	// SkipCanceled: the caller's context was canceled during the check.
	SkipCanceled SkipCode = "canceled"
)

// ErrNotChecked is wrapped by a *NotCheckedError.
var ErrNotChecked = errors.New("syntax not checked")

// NotCheckedError is the refusal of strict mode for content the guard
// could not check: writing it would write unchecked
// content. Code says why in a word (SkipTooLarge, SkipTimeout or
// SkipCanceled) and Reason in words (SyntaxReport.Skipped). A front end
// adds how to proceed in its own terms: the CLI's --check=warn, an MCP
// tool's field.
type NotCheckedError struct {
	Code   SkipCode `json:"code"`
	Reason string   `json:"reason"`
}

func (e *NotCheckedError) Error() string {
	return "syntax not checked: " + e.Reason + "; strict mode writes only checked content"
}

// Unwrap returns ErrNotChecked.
func (e *NotCheckedError) Unwrap() error { return ErrNotChecked }

// CheckMode is what a writing command does with a SyntaxReport, as its
// --check flag names it. The zero value "" means CheckStrict.
type CheckMode string

// The check modes.
const (
	// CheckStrict refuses an edit that adds syntax problems (the default),
	// and an edit the guard could not check (too large, timed out).
	CheckStrict CheckMode = "strict"
	// CheckWarn writes the edit and reports the problems it added, or
	// that it was not checked.
	CheckWarn CheckMode = "warn"
	// CheckOff does not parse at all.
	CheckOff CheckMode = "off"
)

// ParseCheckMode returns the CheckMode named s ("strict", "warn" or "off";
// "" is strict). Any other name is an error that lists the valid ones.
func ParseCheckMode(s string) (CheckMode, error) {
	switch m := CheckMode(s); m {
	case "", CheckStrict:
		return CheckStrict, nil
	case CheckWarn, CheckOff:
		return m, nil
	}
	return "", fmt.Errorf("unknown check mode %q: use strict, warn or off", s)
}

// Problem kinds, as SyntaxProblem.Kind reports them.
const (
	// KindError is a tree-sitter ERROR node: text the grammar could not
	// parse.
	KindError = "ERROR"
	// KindMissing is a tree-sitter MISSING node: a token the parser
	// inserted to recover (a closing brace, a parenthesis ...).
	KindMissing = "MISSING"
	// KindGoParser is an error of the standard library's go/parser (Go
	// files only), which catches what tree-sitter's error recovery accepts,
	// such as a statement at top level or a missing package clause.
	KindGoParser = "go/parser"
	// KindPythonIndent is an indentation error in Python (python files
	// only) that tree-sitter's Python grammar accepts: a block header
	// without an indented block (a def without body), an unexpected
	// indent, a dedent to no enclosing level, tabs and spaces mixed
	// inconsistently. The guard finds these itself, as CPython's tokenizer
	// does.
	KindPythonIndent = "python/indent"
	// KindRubyKeywords is a Ruby reserved word that tree-sitter's Ruby
	// grammar reads as a name where Ruby refuses the keyword (ruby files
	// only): an end too many, an else without an if.
	KindRubyKeywords = "ruby/keywords"
)

// SyntaxProblem is one syntax problem in the content after an edit.
// Positions are 1-based; columns count bytes from the start of the line and
// exclude a UTF-8 byte order mark. Lines are counted as [Document] counts
// them (at LF, or at CR in a file whose dominant line ending is CR).
type SyntaxProblem struct {
	// Line and Column are where the problem starts; for an ERROR node that
	// starts before the edited text and runs into it, where the first edit
	// inside it starts (the cause), its Message then giving the lines the
	// node covers.
	Line   int `json:"line" jsonschema:"The 1-based line where the problem starts."`
	Column int `json:"column" jsonschema:"The 1-based byte column where the problem starts (a tab or a multi-byte character counts as its bytes)."`
	// EndLine and EndColumn are where it ends, exclusively. A MISSING node,
	// a go/parser error and a python/indent error are points: the end is
	// the start.
	EndLine   int `json:"end_line" jsonschema:"The 1-based line of the problem's exclusive end (the start, for a point)."`
	EndColumn int `json:"end_column" jsonschema:"The 1-based byte column of the problem's exclusive end: the byte just past it (the start, for a point)."`
	// Kind is KindError, KindMissing, or the Kind of the language's
	// lang.Checker: KindGoParser, KindPythonIndent or KindRubyKeywords
	// for the built-in languages.
	Kind string `json:"kind" jsonschema:"The problem's kind: ERROR (text the grammar could not parse), MISSING (a token the parser inserted to recover, such as a closing brace), go/parser (Go's own parser), python/indent (a Python indentation error) or ruby/keywords (a Ruby keyword where none may be, such as an end too many)."`
	// Message says what is wrong, prefixed by the checker that found it:
	// `tree-sitter: syntax error at "x := )"`, `tree-sitter: missing "}"`,
	// `go/parser: expected declaration, found x`,
	// `python/indent: expected an indented block after "def f():"`.
	Message string `json:"message" jsonschema:"What is wrong, prefixed by the checker that found it (tree-sitter:, go/parser:, python/indent:, ruby/keywords:)."`
	// Text is the whole line at Line, without its line ending ("" for the
	// empty line after a final line ending).
	Text string `json:"text" jsonschema:"The whole line where the problem starts, as in the file, without its line ending."`
}

// LineSpan is a range of 1-based lines, First to Last inclusive.
type LineSpan struct {
	First, Last int
}

// String returns "FIRST-LAST", or "FIRST" for one line.
func (s LineSpan) String() string {
	if s.First == s.Last {
		return strconv.Itoa(s.First)
	}
	return fmt.Sprintf("%d-%d", s.First, s.Last)
}

// distance returns how many lines [first, last] lies from s: 0 when they
// overlap.
func (s LineSpan) distance(first, last int) int {
	switch {
	case last < s.First:
		return s.First - last
	case first > s.Last:
		return first - s.Last
	}
	return 0
}

// NoteSuffix ends the Message of a SyntaxReport's note.
const NoteSuffix = " (go/parser accepts this code: not refused)"

// String returns "LINE:COLUMN: MESSAGE".
func (p SyntaxProblem) String() string {
	return fmt.Sprintf("%d:%d: %s", p.Line, p.Column, p.Message)
}

// SyntaxReport is the result of CheckSyntax.
type SyntaxReport struct {
	// Language is the name of the grammar used ("" when there was none).
	Language string
	// Checked reports that both contents were parsed. When it is false,
	// Skipped says why and New is empty.
	Checked bool
	// Skipped says why the contents were not checked: "check off",
	// "unsupported language", "too large: ...", "timed out after ..." or
	// "canceled: ...". It is "" when Checked.
	Skipped string
	// SkipCode is Skipped's reason as a word: SkipCheckOff,
	// SkipUnsupported, SkipTooLarge, SkipTimeout or SkipCanceled ("" when
	// Checked).
	SkipCode SkipCode
	// Before and After count the problems found in the contents before and
	// after the edit: tree-sitter ERROR and MISSING nodes, plus go/parser
	// errors (Go) or python/indent errors (Python). In a Go file whose
	// content after the edit go/parser accepts, tree-sitter does not run:
	// Before counts go/parser's errors only, and After is 0.
	Before, After int
	// Uncounted reports that Before and After (both 0) are not counts:
	// the check proved that the edit adds no problem and removes none
	// without parsing either content (in Go, every edit only respells
	// identifiers, comments or string literals on its line, which
	// go/parser's verdict does not depend on), so the content after has
	// exactly the problems of the content before, however many that is.
	Uncounted bool
	// New holds the problems the edit added. The first is the one nearest
	// to the edited lines (Edited; the first in file order among equally
	// near ones), so that an edit that sets off a cascade of errors is
	// reported at the line it touched, not where the cascade ends; the others
	// follow in file order (by reported position in the content after the
	// edit). It lists every new tree-sitter problem, but at most the first
	// 10 new go/parser or python/indent errors, one per line: after its
	// first error go/parser reports a cascade.
	New []SyntaxProblem
	// Edited holds the lines of the content after the edit that the edits
	// wrote or where they deleted text, merged and in order; it is set
	// when New or Notes is not empty.
	Edited []LineSpan
	// Notes holds the problems that do not refuse the edit, in file order:
	// in a Go file that go/parser refuses after the edit, the new
	// tree-sitter problems that end on a line before go/parser's first
	// error. go/parser is Go's own parser and decides; tree-sitter's Go
	// grammar is older than the language and rejects valid Go, such as a
	// generic type alias. When go/parser accepts the whole content,
	// tree-sitter does not parse it and there are no notes: they would
	// cost a tree-sitter parse, ten times go/parser's, to say something
	// about a parser symedit does not use for that file.
	// A note's Message ends with NoteSuffix.
	Notes []SyntaxProblem

	incremental bool // after was parsed incrementally from before's tree
	treeSkipped bool // Go that go/parser accepts: tree-sitter did not parse
	goRegion    bool // go/parser parsed the region the edits touched, not the whole content after
	goTokens    bool // go/parser parsed nothing: the edits respell tokens (lang.CheckedTokens)
	confirmed   bool // the incremental parse found new problems: after was parsed again in full
}

// OK reports that the report holds no new problem. A report that was not
// checked is OK, but strict mode still refuses it when the guard could not
// check (see NotChecked).
func (r SyntaxReport) OK() bool { return len(r.New) == 0 }

// Rejects reports whether a command in mode must refuse the edit: mode is
// CheckStrict (or "") and the edit added problems, or the guard could not
// check the contents (NotChecked is not nil).
func (r SyntaxReport) Rejects(mode CheckMode) bool {
	return (mode == "" || mode == CheckStrict) && len(r.New) > 0 || r.NotChecked(mode) != nil
}

// NotChecked returns the *NotCheckedError that strict mode (mode
// CheckStrict or "") refuses with when the guard could not check the
// contents: too large (SkipTooLarge), timed out (SkipTimeout) or canceled
// (SkipCanceled): strict mode never writes unchecked content. It is nil in the other modes, for a
// checked report, and for a file in no supported language, which has no
// syntax to check.
func (r SyntaxReport) NotChecked(mode CheckMode) error {
	if mode != "" && mode != CheckStrict || r.Checked {
		return nil
	}
	switch r.SkipCode {
	case SkipTooLarge, SkipTimeout, SkipCanceled:
		return &NotCheckedError{Code: r.SkipCode, Reason: r.Skipped}
	}
	return nil
}

// guardMaxFormatted is how many problems Format lists.
const guardMaxFormatted = 20

// Format renders the report for a person or an agent: one
// "PATH:LINE:COLUMN: MESSAGE" line per new problem followed by the line's
// text, indented; at most 20 problems, then a count of the rest, then
// "PATH: the edit changed lines SPAN, ..." (Edited; "line N" for one
// line); then the notes the same way, as "PATH:LINE:COLUMN: note: MESSAGE", at most 20. A
// report that was not checked gives "PATH: syntax not checked: REASON". A
// checked report without new problems and notes gives "".
func (r SyntaxReport) Format(path string) string {
	var b strings.Builder
	if !r.Checked {
		if r.Skipped != "" {
			fmt.Fprintf(&b, "%s: syntax not checked: %s\n", path, r.Skipped)
		}
		return b.String()
	}
	for i, p := range r.New {
		if i == guardMaxFormatted {
			fmt.Fprintf(&b, "... and %d more new syntax problems\n", len(r.New)-guardMaxFormatted)
			break
		}
		fmt.Fprintf(&b, "%s:%s\n    %d | %s\n", path, p, p.Line, p.Text)
	}
	if len(r.New) > 0 && len(r.Edited) > 0 {
		spans := make([]string, len(r.Edited))
		for i, s := range r.Edited {
			spans[i] = s.String()
		}
		word := "lines"
		if len(r.Edited) == 1 && r.Edited[0].First == r.Edited[0].Last {
			word = "line"
		}
		fmt.Fprintf(&b, "%s: the edit changed %s %s\n", path, word, strings.Join(spans, ", "))
	}
	for i, p := range r.Notes {
		if i == guardMaxFormatted {
			fmt.Fprintf(&b, "... and %d more notes\n", len(r.Notes)-guardMaxFormatted)
			break
		}
		fmt.Fprintf(&b, "%s:%d:%d: note: %s\n    %d | %s\n", path, p.Line, p.Column, p.Message, p.Line, p.Text)
	}
	return b.String()
}

// GuardOptions tunes CheckSyntax. The zero value is the default.
type GuardOptions struct {
	// Mode CheckOff skips the check; "", CheckStrict and CheckWarn check
	// (what to do with the report is the caller's decision).
	Mode CheckMode
	// Timeout bounds the parsing of one call (both tree-sitter parses
	// together, under a context deadline); zero or less means
	// GuardTimeout.
	Timeout time.Duration
	// MaxSize is the largest content, in bytes without a byte order mark,
	// that is checked; zero or less means GuardMaxSize.
	MaxSize int
	// Before, when not nil, is the parse the caller made of the content
	// before (without its byte order mark) to locate what it edits
	// (symbols.ExtractParse), which the check uses instead of parsing that
	// content again: its Tree is the before-tree (a copy of it is edited
	// and re-parsed incrementally into the after-tree, so a check that
	// finds no new problem costs one tree-sitter parse, not two), and in
	// Go its Clean spares the go/parser parse of the content before and
	// its Layout the go/scanner pass that finds the declarations the
	// edits touch (see CheckSyntax). It is used only when it is a parse
	// of exactly the text checked (lang.Parse.Of: the same *lang.Language,
	// the same bytes once the byte order mark is stripped); any other is
	// ignored and the check parses as without it. A Layout that does not
	// fit the text (offsets out of order or out of bounds) is ignored too.
	// When the shortcut Clean allows cannot decide (no region, or the
	// region has errors), the check parses the content before itself, so
	// the report is the same. A wrong Clean or a Tree that is not of
	// Before.Text can let through an edit that adds errors: set them only
	// from a parse of those very bytes.
	//
	// CheckSyntax borrows Before: it never modifies or closes it (it
	// edits a copy of Tree, made in constant time, and closes the copy),
	// and uses it on the calling goroutine only. The caller closes it
	// after CheckSyntax returns (lang.Parse.Close).
	Before *lang.Parse
	// After, when not nil, is what the caller learnt of the content
	// after (without its byte order mark) from its own parse of it: in a
	// language whose own parser decides (go/parser in Go), when After is
	// a parse of exactly the text checked (lang.Parse.Of) and Clean, and
	// Before is too, the check takes the caller's word that the
	// language's own parser accepts the content after, as it takes
	// Before's for the content before, and ends there: the report is the
	// one the check makes when it parses and finds no error (Checked, no
	// problem, Before and After 0), and nothing is parsed. symbols'
	// ExtractEdits, given Before's File, parses the declarations an edit
	// touched with go/parser as the check would, and its File's Clean
	// says whether they parsed: the receipt of a write and the check then
	// share that parse. Any other After is ignored, and so are its other
	// fields. As with Before, a wrong Clean can let through an edit that
	// adds errors: set it only from a parse of those very bytes.
	After *lang.Parse
	// KeepAfter, when not nil, receives the check's parse of the content
	// after the edit, so that the caller can read that content's symbols
	// without parsing it again (symbols.ExtractFrom): a *lang.Parse whose
	// Lang is the language checked, Text the content after without its
	// byte order mark, and Tree tree-sitter's tree of
	// Lang.ParserInput(Text). The receiver owns it and must Close it. It
	// is called at most once, on the calling goroutine before CheckSyntax
	// returns, and only when the check finished and parsed that content
	// with tree-sitter, from scratch or incrementally without finding any
	// problem in it (a tree from an incremental parse that found one may
	// differ from a fresh parse's); not when the check was skipped, when
	// go/parser alone decided (a Go edit it accepts: tree-sitter did not
	// run), nor when a new problem made the check parse again.
	KeepAfter func(after *lang.Parse)

	// goTree, when set, runs tree-sitter on Go even when go/parser
	// accepts the content after the edit (the full check, for tests).
	goTree bool
	// treeEdit, when set, edits before's tree for the incremental re-parse
	// instead of guardExactTreeEdit (tests use the binding's Tree.Edit).
	treeEdit guardTreeEditor
}

// withDefaults fills in GuardTimeout and GuardMaxSize where o leaves them
// zero or less.
func (o GuardOptions) withDefaults() GuardOptions {
	if o.Timeout <= 0 {
		o.Timeout = GuardTimeout
	}
	if o.MaxSize <= 0 {
		o.MaxSize = GuardMaxSize
	}
	return o
}

// stopReason says why ctx stopped a check: the guard's own timeout (of
// length timeout), the caller's deadline, or a cancellation.
func stopReason(ctx context.Context, timeout time.Duration) (SkipCode, string) {
	switch {
	case context.Cause(ctx) == errGuardTimeout:
		return SkipTimeout, fmt.Sprintf("timed out after %v", timeout)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return SkipTimeout, "timed out: " + ctx.Err().Error()
	}
	return SkipCanceled, "canceled: " + ctx.Err().Error()
}

// skip sets the report's Skipped and SkipCode.
func (r *SyntaxReport) skip(code SkipCode, reason string) {
	r.SkipCode, r.Skipped = code, reason
}

// skipUnchecked reports that nothing is checked at all (the check is off,
// or lang is nil: a file in no supported language), with r's reason set.
func (r *SyntaxReport) skipUnchecked(opt GuardOptions, lang *lang.Language) bool {
	switch {
	case opt.Mode == CheckOff:
		r.skip(SkipCheckOff, "check off")
		return true
	case lang == nil:
		r.skip(SkipUnsupported, "unsupported language")
		return true
	}
	return false
}

// skipTooLarge reports that a content of n bytes is over the guard's limit
// of max bytes, with r's reason set.
func (r *SyntaxReport) skipTooLarge(n, max int) bool {
	if n <= max {
		return false
	}
	r.skip(SkipTooLarge, fmt.Sprintf("too large: %d bytes, over the guard's %d-byte limit", n, max))
	return true
}

// errGuardTimeout is the cause of the guard's own timeout.
var errGuardTimeout = errors.New("syntax guard timeout")

// CheckSyntax parses before and after, the full contents of a file (a UTF-8
// byte order mark included) before and after an edit, as lang, and reports
// the syntax problems that after has and before did not have. edits are the
// byte edits that turn before into after, in offsets of before, as Apply
// takes them. When edits is empty (a whole-file write), or an edit touches
// a byte order mark, or only one content has one, CheckSyntax uses instead
// the one edit between the common prefix and suffix of the two texts. Each
// edit is first trimmed of the bytes it leaves unchanged at its ends.
//
// # Problems
//
// A problem is a tree-sitter ERROR or MISSING node (the walk does not look
// inside an ERROR node); and a problem of the language's second checker
// (lang.Language.Checker): for Go, an error of the
// standard library's go/parser (parser.AllErrors), since tree-sitter's
// recovery accepts some invalid Go (a top-level `x := 1`, a missing package
// clause); for Python, also an indentation error found as CPython's
// tokenizer finds it (see KindPythonIndent), since tree-sitter's Python
// grammar accepts a def without body and most bad indentation.
//
// # Which problems are new
//
// Positions move with an edit, so each problem of after is mapped back to
// a range of before: an end of it that lies in unchanged text maps to the
// same byte of before; an end that lies in, or touches, an edit's new text
// maps to that edit's start (for the problem's start) or end (for its end),
// so a problem touching an edit covers the whole text it replaced. A
// problem is old when before has a problem found by the same checker
// (tree-sitter, go/parser or python/indent) whose range overlaps the
// mapped range, ends included, each problem of before excusing at most one
// of after. For go/parser and python/indent, whose errors are points
// that move within a line and cascade, the old problem must have the same
// message, on one of the lines the mapped range covers. Below the first
// error of before, two checkers are unreliable, and so: for Python, a
// tree-sitter problem that does not touch the edited text and lies after
// the first tree-sitter problem of before is old (the Python grammar's
// scanner state stays wrong after an error, so a comment line added below
// an error can make tree-sitter report an error a line away); for Go, every
// go/parser error after the first go/parser error of before is old
// (go/parser does not recover from a missing parenthesis: the rest of the
// file stays inside the call, and any edit there changes its errors;
// tree-sitter still checks that part). Every other problem is new.
//
// In a Go file, go/parser, the language's own parser, decides: a new
// tree-sitter problem whose last byte lies on a line before go/parser's
// first error in after goes to Notes, not New, since tree-sitter's Go
// grammar is older than the language (lang.Checker.Decides). So when
// go/parser accepts after, no tree-sitter problem could refuse the edit,
// and tree-sitter does not parse at all: go/parser runs first,
// and when it accepts after the report has no New and no Notes, Before is
// go/parser's count of errors in before and After is 0. When every edit
// only respells identifiers, comments or string literals within its line
// (the edited lines, scanned alone, give the same tokens but for those
// tokens' text: lang.CheckedTokens), go/parser, which never reads that
// text to decide, would find the same errors after as before, and
// nothing is parsed: the report has no New and no Notes, and Before and
// After are 0 and, unless GuardOptions.Before says before is clean,
// Uncounted. That holds in a file go/parser refuses too, where tree-sitter
// might report a respelled line anew: its recovery from the errors
// go/parser finds before and after alike, not the edit, would decide it.
// Otherwise, when go/parser
// accepts before, after is checked by parsing only the top-level
// declarations the edits touched, each run of edited declarations on its
// own (the lines from the end of the declaration before the run to the
// start of the declaration after it, after a package clause; before's
// layout comes from GuardOptions.Before's Layout when given, else from a
// go/scanner pass when Before is Clean, else from go/parser's parse of
// before): go/parser parses top-level
// declarations one after the other, each from the start of a line at top
// level, and checks nothing across them but that imports come first, so
// when those declarations parse, and hold no import, and end with a line
// ending, the whole content parses. An edit of the package clause or the
// imports, one on the line where a declaration ends or starts beside
// another, or one go/parser refuses there, is checked by parsing the
// whole content after (lang.Checker.CheckEdits).
//
// When tree-sitter does not finish within the timeout in a Go file whose
// content after go/parser refuses, go/parser's new errors alone are the
// report (checked, without tree-sitter's notes), since go/parser decides
// and has run; in the other languages the content is not checked.
//
// So an edit to a file that has errors elsewhere passes if it adds none,
// and an edit that breaks something is caught even in a file with other
// errors, unless its error merges with an old one (an ERROR node that grows
// over the edit). A known false alarm: tree-sitter's Python grammar
// rejects a comment in column 0 between a decorator and an indented def.
//
// # Line endings
//
// Every checker reads the contents as the language's parser does
// ([lang.Language.ParserInput]): in Python, Java and TypeScript a lone
// CR ends a line, and is read as LF, byte offsets unchanged; Go ends lines
// at LF only, and its text is read as it is; a CR-only file is not one
// line. The tree
// edits, their points and the rows that the go/parser and python/indent
// matching count are those of that text; positions in problems count
// lines as [Document] does.
//
// # Costs
//
// A Go edit that respells tokens costs a pass over before up to its last
// edited line and a scan of each edited line, before and after. Another
// Go edit that go/parser accepts costs one go/parser parse of before (none
// when GuardOptions.Before says it is clean) and one of the declarations
// the edits touched (of the whole of after when before has errors or there
// are no such declarations), and no tree-sitter parse (go/parser is not
// bound by the timeout: it is linear in the size, and a fraction of
// tree-sitter's time). Otherwise before is parsed with tree-sitter (or,
// when GuardOptions.Before has its tree, a copy of that tree is taken
// instead: no parse) and after is re-parsed incrementally from before's
// tree, edited with each byte edit (last first) with exact byte offsets
// and row/column points. When that parse finds a new tree-sitter problem,
// after is parsed again from scratch and only the full parse's problems
// count: an incremental parse is never trusted to refuse an edit. So a
// check costs two tree-sitter parses, one with Before's tree, and one
// more when it finds a new problem. The tree-sitter parses run under a
// context that expires after GuardOptions.Timeout; the trees the check
// makes are closed before CheckSyntax returns and never leave the
// calling goroutine, at most two exist at once (the Python indentation
// check runs meanwhile on a second goroutine, without trees).
// CheckSyntax keeps no state between calls and is safe for concurrent
// use (each call with its own Before, if any).
//
// # Not checked, and errors
//
// CheckSyntax does not parse, and returns a report with Checked false,
// Skipped and SkipCode saying why and a nil error, when: opt.Mode is
// CheckOff; lang is nil (a file in no supported language); either content
// (without a byte order mark) is over the size limit; or a parse did not
// finish because the timeout expired or ctx was canceled or expired. In
// strict mode the last two are refusals (Rejects, NotChecked): strict
// mode never writes content the guard could not check.
//
// The error is non-nil only for bad input: an edit out of the bounds of
// before, two overlapping edits (two insertions at one offset overlap), or
// edits that do not turn before into after (each wrapping ErrBadEdit); or
// a parser failure other than the timeout.
func CheckSyntax(ctx context.Context, lang *lang.Language, before, after []byte, edits []edit.Edit, opt GuardOptions) (SyntaxReport, error) {
	return checkSyntax(ctx, lang, before, after, edits, opt, false)
}

// checkSyntax is CheckSyntax; full re-parses after from scratch instead of
// incrementally (for tests and benchmarks). It settles what needs no parse
// (bad edits, check off, no language, too large, out of time already) and
// hands the rest to a syntaxCheck, in that order.
func checkSyntax(ctx context.Context, lang *lang.Language, before, after []byte, edits []edit.Edit, opt GuardOptions, full bool) (SyntaxReport, error) {
	rep := SyntaxReport{}
	if lang != nil {
		rep.Language = lang.Name
	}
	if len(edits) > 0 {
		if err := guardCheckEdits(before, after, edits); err != nil {
			return rep, err
		}
	}
	if rep.skipUnchecked(opt, lang) {
		return rep, nil
	}
	opt = opt.withDefaults()

	oldText, newText, tedits := guardTextEdits(before, after, edits)
	if rep.skipTooLarge(max(len(oldText), len(newText)), opt.MaxSize) {
		return rep, nil
	}

	ctx, cancel := context.WithTimeoutCause(ctx, opt.Timeout, errGuardTimeout)
	defer cancel()
	c := &syntaxCheck{ctx: ctx, lang: lang, opt: opt, newText: newText, tedits: tedits, rep: rep}
	// The language's second checker (go/parser in Go), and whether it is
	// the language's own parser, whose verdict decides.
	c.checker = lang.Checker()
	c.decides = c.checker != nil && c.checker.Decides
	if ctx.Err() != nil && !c.goDecides() {
		return c.skip()
	}

	// Every checker reads the texts as the language's parser does: a lone
	// CR as LF, except in Go, lest a CR-only file read as one line.
	// Offsets are unchanged.
	c.oldIn, c.newIn = lang.ParserInput(oldText), lang.ParserInput(newText)
	// The caller's parse of the content before stands for the guard's
	// only when it parsed these very bytes as this language.
	c.prior = opt.Before
	if !c.prior.Of(lang, oldText) {
		c.prior = nil
	}
	return c.run(full)
}

// syntaxCheck is one check of checkSyntax past the cases that need no
// parse: what every step reads (the context with the guard's timeout, the
// texts as the parsers read them, the trimmed edits, the language's second
// checker) and the report the steps fill in. run takes the steps, the
// methods after it, in the order they appear.
type syntaxCheck struct {
	ctx  context.Context // the caller's, bounded by the guard's timeout
	lang *lang.Language  // the language both texts are parsed as
	opt  GuardOptions    // the caller's, with defaults filled in
	// checker is the language's second checker (go/parser in Go), nil
	// when it has none; decides says that it is the language's own
	// parser, whose verdict decides.
	checker *lang.Checker
	decides bool
	// newText is the content after, without a byte order mark; oldIn and
	// newIn are the texts before and after as the language's parser
	// reads them (lang.Language.ParserInput), at the same offsets.
	newText      []byte
	oldIn, newIn []byte
	tedits       []guardEdit
	// prior is GuardOptions.Before when it parsed oldText as lang, else
	// nil.
	prior *lang.Parse
	// rep is the report so far: what a step that ends the check returns.
	rep SyntaxReport
}

// goDecides reports that the guard's own time ran out where the language's
// own parser, linear in the size and not bound by the timeout, decides
// alone (Go's go/parser).
func (c *syntaxCheck) goDecides() bool {
	return c.decides && !c.opt.goTree && context.Cause(c.ctx) == errGuardTimeout
}

// skip returns the report so far, skipped for the reason c's context
// stopped.
func (c *syntaxCheck) skip() (SyntaxReport, error) {
	c.rep.skip(stopReason(c.ctx, c.opt.Timeout))
	return c.rep, nil
}

// parseFailed returns what a tree-sitter parse that failed with err makes
// of the check: skipped when c's context stopped it, else the error.
func (c *syntaxCheck) parseFailed(err error) (SyntaxReport, error) {
	if c.ctx.Err() != nil {
		return c.skip()
	}
	return c.rep, fmt.Errorf("edit: syntax guard: parsing %s: %w", c.lang.Name, err)
}

// run is the check proper: the language's own parser first where it
// decides (its acceptance ends the check), tree-sitter's parses of both
// texts (the second checker meanwhile, where it does not decide), the
// problems of after that are new, and the report of them.
func (c *syntaxCheck) run(full bool) (SyntaxReport, error) {
	extra, extraDone, decided := c.startExtra()
	if decided {
		return c.rep, nil
	}
	res, err := c.parseTrees(full)
	kept := res.afterTree
	res.afterTree = nil
	defer func() { c.handOver(kept, res) }()
	if extraDone != nil {
		extra = <-extraDone // bounded: the checkers are linear in the size
	}
	if err != nil && c.goDecides() {
		// go/parser decides in Go and has run:
		// when tree-sitter runs out of the guard's time, go/parser's
		// errors alone are the report, without tree-sitter's notes.
		res, err = guardTreeResult{}, nil
	}
	if err != nil {
		return c.parseFailed(err)
	}
	c.rep.Checked = true
	c.rep.incremental = res.incremental

	if len(c.tedits) == 0 { // nothing changed: nothing is new
		c.rep.Before, c.rep.After = len(res.after)+len(extra.after), len(res.after)+len(extra.after)
		return c.rep, nil
	}
	m := newGuardMapper(c.oldIn, c.tedits)
	fresh := c.treeFresh(m, res, res.after)
	if len(fresh) > 0 && res.incremental {
		if res, fresh, err = c.confirm(m, res); err != nil {
			return c.parseFailed(err)
		}
	}
	c.rep.Before, c.rep.After = len(res.before)+len(extra.before), len(res.after)+len(extra.after)
	fresh, notes := c.newAndNotes(m, fresh, extra)
	if len(fresh) == 0 && len(notes) == 0 {
		return c.rep, nil
	}
	c.describe(m, fresh, notes)
	return c.rep, nil
}

// handOver gives tree, the tree-sitter tree of the content after
// (guardTreeProblems with keep; nil when there is none), to
// GuardOptions.KeepAfter when it may stand for a parse of that content
// from scratch: the check finished, and the tree was parsed from scratch
// or, parsed incrementally, has no problem (an incremental parse is
// trusted only where it found nothing wrong, as for refusing). Otherwise
// it closes tree. res is the check's final tree result.
func (c *syntaxCheck) handOver(tree *sitter.Tree, res guardTreeResult) {
	if tree == nil {
		return
	}
	if c.opt.KeepAfter != nil && c.rep.Checked && !c.rep.confirmed && (!res.incremental || len(res.after) == 0) {
		c.opt.KeepAfter(&lang.Parse{Lang: c.lang, Text: c.newText, Tree: tree})
		return
	}
	tree.Close()
}

// startExtra starts the language's second checker. Where the language's
// own parser decides (go/parser in Go, whose grammar tree-sitter's lags
// behind), it costs a fraction of a tree-sitter parse: it runs first (on
// the content after, only over the declarations the edits touched when it
// can: guardOwnCheck), and when it accepts the content after the edit,
// tree-sitter does not run at all, since none of its problems could refuse
// the edit (they would all be notes): decided then says the report is
// complete. Otherwise a second checker runs on its own goroutine, with no
// tree, and sends its result on extraDone (nil without such a checker).
func (c *syntaxCheck) startExtra() (extra guardExtraResult, extraDone chan guardExtraResult, decided bool) {
	if c.decides && !c.opt.goTree && c.prior.Prior().Clean && c.opt.After.Of(c.lang, c.newText) && c.opt.After.Clean {
		// The caller's word for both contents (GuardOptions.After).
		c.rep.Checked, c.rep.treeSkipped = true, true
		return extra, nil, true
	}
	if c.decides && !c.opt.goTree {
		var scope lang.CheckScope
		extra, scope = guardOwnCheck(c.checker, c.oldIn, c.newIn, c.tedits, c.prior.Prior())
		c.rep.goRegion = scope == lang.CheckedRegions
		c.rep.goTokens = scope == lang.CheckedTokens
		if scope != lang.CheckedWhole || len(extra.after) == 0 {
			c.rep.Checked, c.rep.treeSkipped = true, true
			c.rep.Before = len(extra.before)
			// Respelled tokens leave the problems as they were, a number
			// only a parse would tell, unless the caller's word says it
			// is none.
			c.rep.Uncounted = c.rep.goTokens && !c.prior.Prior().Clean
			return extra, nil, true
		}
	} else if check := guardCheckFunc(c.checker); check != nil {
		extraDone = make(chan guardExtraResult, 1)
		oldIn, newIn, changed := c.oldIn, c.newIn, len(c.tedits) > 0
		go func() { extraDone <- guardRunExtra(check, oldIn, newIn, changed) }()
	}
	return extra, extraDone, false
}

// parseTrees parses both texts with tree-sitter: after incrementally from
// before's tree (the caller's, when prior has one), or from scratch when
// full. It parses nothing when the guard is out of time already and
// go/parser decides alone.
func (c *syntaxCheck) parseTrees(full bool) (guardTreeResult, error) {
	editor := c.opt.treeEdit
	if editor == nil {
		editor = guardExactTreeEdit()
	}
	if full {
		editor = nil
	}
	if c.goDecides() { // out of time already: go/parser alone, in run
		return guardTreeResult{}, nil
	}
	var beforeTree *sitter.Tree
	if c.prior != nil {
		beforeTree = c.prior.Tree
	}
	return guardTreeProblems(c.ctx, c.lang.Grammar(), c.oldIn, c.newIn, c.tedits, editor, beforeTree, c.opt.KeepAfter != nil)
}

// treeFresh returns the problems of after, tree-sitter's problems of the
// content after, that match none of res.before's; in a language whose
// tree errors cascade, only those that lie before res.before's first
// problem or touch the edited text (guardMapper.excuseTail), since below
// its first error the parser's state can be wrong.
func (c *syntaxCheck) treeFresh(m *guardMapper, res guardTreeResult, after []guardProblem) []guardProblem {
	fresh := m.unmatched(after, res.before, false)
	if c.lang.TreeErrorsCascade() {
		fresh = m.excuseTail(fresh, res.before, true)
	}
	return fresh
}

// confirm re-parses the content after from scratch when an incremental
// parse found new problems, and returns res with the full parse's
// problems and the new ones among them: an incremental re-parse can
// report errors a full parse does not (guard_tsedit.go), so the guard
// never refuses on one alone. When the full parse runs out of time where
// go/parser decides, tree-sitter's problems are dropped and go/parser's
// errors alone are the report; any other failure is err.
func (c *syntaxCheck) confirm(m *guardMapper, res guardTreeResult) (guardTreeResult, []guardProblem, error) {
	after, err := guardParseProblems(c.ctx, c.lang.Grammar(), c.newIn)
	switch {
	case err != nil && c.goDecides():
		return guardTreeResult{}, nil, nil
	case err != nil:
		return res, nil, err
	}
	res.after = after
	c.rep.confirmed = true
	return res, c.treeFresh(m, res, res.after), nil
}

// newAndNotes returns the problems that are new (fresh, tree-sitter's,
// then the second checker's, the first of a line and at most
// guardMaxExtra of them) and the notes: where the second checker
// decides, the tree-sitter problems in the part it parsed without error
// are notes, not problems (guardOwnNotes).
func (c *syntaxCheck) newAndNotes(m *guardMapper, fresh []guardProblem, extra guardExtraResult) (problems, notes []guardProblem) {
	extraFresh := m.unmatched(extra.after, extra.before, true)
	if c.checker != nil && c.checker.Cascades {
		extraFresh = m.excuseTail(extraFresh, extra.before, false)
	}
	if c.decides {
		fresh, notes = guardOwnNotes(c.newIn, fresh, extra.after)
	}
	fresh = append(fresh, guardFirstPerLine(c.newIn, extraFresh, guardMaxExtra)...)
	return fresh, notes
}

// describe fills in the report's New, Notes and Edited: the new problems
// ordered by where they start (an error by where the first edit within
// it starts, the edit that caused it), the notes, and the lines the edits
// touched; then the first problem nearest an edit moves to the front
// (guardNearestFirst).
func (c *syntaxCheck) describe(m *guardMapper, fresh, notes []guardProblem) {
	for i, p := range fresh {
		fresh[i].at = p.start
		if p.kind == KindError {
			fresh[i].at = m.firstEditIn(p.start, p.end)
		}
	}
	sort.SliceStable(fresh, func(i, j int) bool {
		if fresh[i].at != fresh[j].at {
			return fresh[i].at < fresh[j].at
		}
		return fresh[i].end < fresh[j].end
	})
	lines := newGuardLines(c.newText)
	for _, p := range fresh {
		c.rep.New = append(c.rep.New, lines.problem(c.newText, p))
	}
	c.rep.Notes = guardNotes(lines, c.newText, notes)
	c.rep.Edited = lines.edited(c.newText, c.tedits)
	guardNearestFirst(c.rep.New, c.rep.Edited)
}

// edited returns the lines of text (the content after edits) that edits
// wrote or deleted at, merged and in order.
func (x *guardLines) edited(text []byte, edits []guardEdit) []LineSpan {
	var out []LineSpan
	for _, e := range edits {
		first, _, _ := x.position(text, e.newStart)
		last, _, _ := x.position(text, max(e.newEnd-1, e.newStart))
		if n := len(out); n > 0 && first <= out[n-1].Last+1 {
			out[n-1].Last = max(out[n-1].Last, last)
			continue
		}
		out = append(out, LineSpan{first, last})
	}
	return out
}

// guardNearestFirst moves the first of ps (in file order) whose lines lie
// nearest to one of edited to the front, keeping the others in order.
func guardNearestFirst(ps []SyntaxProblem, edited []LineSpan) {
	if len(ps) < 2 || len(edited) == 0 {
		return
	}
	best, bestDist := 0, -1
	for i, p := range ps {
		d := -1
		for _, s := range edited {
			if x := s.distance(p.Line, max(p.EndLine, p.Line)); d < 0 || x < d {
				d = x
			}
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = i, d
		}
	}
	lead := ps[best]
	copy(ps[1:best+1], ps[:best])
	ps[0] = lead
}

// guardCheckEdits checks that edits are in bounds, do not overlap and turn
// before into after, without building anything.
func guardCheckEdits(before, after []byte, edits []edit.Edit) error {
	sorted := guardSortEdits(edits)
	size := len(before)
	for i, e := range sorted {
		if e.Start < 0 || e.Start > e.End || e.End > len(before) {
			return fmt.Errorf("%w: [%d, %d) is outside the content's %d bytes", edit.ErrBadEdit, e.Start, e.End, len(before))
		}
		if i > 0 {
			p := sorted[i-1]
			if e.Start < p.End || e.Start == p.Start {
				return fmt.Errorf("%w: [%d, %d) overlaps [%d, %d)", edit.ErrBadEdit, p.Start, p.End, e.Start, e.End)
			}
		}
		size += len(e.New) - (e.End - e.Start)
	}
	mismatch := fmt.Errorf("%w: the edits do not turn the content before into the content after", edit.ErrBadEdit)
	if size != len(after) {
		return mismatch
	}
	last, at := 0, 0
	for _, e := range sorted {
		n := e.Start - last
		if !bytes.Equal(before[last:e.Start], after[at:at+n]) {
			return mismatch
		}
		at += n
		if string(after[at:at+len(e.New)]) != e.New {
			return mismatch
		}
		at += len(e.New)
		last = e.End
	}
	if !bytes.Equal(before[last:], after[at:]) {
		return mismatch
	}
	return nil
}

func guardSortEdits(edits []edit.Edit) []edit.Edit {
	sorted := append([]edit.Edit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].Start != sorted[j].Start {
			return sorted[i].Start < sorted[j].Start
		}
		return sorted[i].End < sorted[j].End
	})
	return sorted
}

// guardEdit is an edit in the texts the parsers see (byte order marks
// removed): before's bytes [start, end) became after's [newStart, newEnd).
type guardEdit struct {
	start, end       int
	newStart, newEnd int
}

// guardTextEdits strips a byte order mark from before and after and returns
// edits (checked by guardCheckEdits) in their offsets, sorted, each trimmed of
// the bytes it leaves unchanged at its ends, without no-op edits. When
// edits is empty, or touches a byte order mark, or only one content has
// one, the edits are replaced by the one edit between the common prefix and
// the common suffix of the two texts.
func guardTextEdits(before, after []byte, edits []edit.Edit) (oldText, newText []byte, out []guardEdit) {
	bomOld, bomNew := bytes.HasPrefix(before, []byte(edit.UTF8BOM)), bytes.HasPrefix(after, []byte(edit.UTF8BOM))
	oldText, newText = before, after
	shift := 0
	if bomOld {
		oldText, shift = before[len(edit.UTF8BOM):], len(edit.UTF8BOM)
	}
	if bomNew {
		newText = after[len(edit.UTF8BOM):]
	}
	usable := len(edits) > 0 && bomOld == bomNew
	sorted := guardSortEdits(edits)
	for _, e := range sorted {
		if e.Start < shift {
			usable = false
		}
	}
	if !usable {
		return oldText, newText, guardTrim(oldText, newText, []guardEdit{{0, len(oldText), 0, len(newText)}})
	}
	delta := 0
	for _, e := range sorted {
		s := e.Start - shift
		out = append(out, guardEdit{s, e.End - shift, s + delta, s + delta + len(e.New)})
		delta += len(e.New) - (e.End - e.Start)
	}
	return oldText, newText, guardTrim(oldText, newText, out)
}

// guardTrim shrinks each edit by the bytes its old and new text share at their
// ends and drops the edits that change nothing.
func guardTrim(oldText, newText []byte, edits []guardEdit) []guardEdit {
	out := edits[:0]
	for _, e := range edits {
		o, n := oldText[e.start:e.end], newText[e.newStart:e.newEnd]
		p := 0
		for p < len(o) && p < len(n) && o[p] == n[p] {
			p++
		}
		q := 0
		for q < len(o)-p && q < len(n)-p && o[len(o)-1-q] == n[len(n)-1-q] {
			q++
		}
		e.start, e.newStart = e.start+p, e.newStart+p
		e.end, e.newEnd = e.end-q, e.newEnd-q
		if e.start == e.end && e.newStart == e.newEnd {
			continue
		}
		out = append(out, e)
	}
	return out
}

// guardProblem is a syntax problem found by a parser, in byte offsets of the
// text it parsed (end exclusive; end == start for a point).
type guardProblem struct {
	start, end int
	kind       string // KindError, KindMissing, KindGoParser or KindPythonIndent
	msg        string // without the parser's name
	at         int    // where to report it (set for new problems only)
}

// guardTreeResult is what guardTreeProblems found.
type guardTreeResult struct {
	before, after []guardProblem
	incremental   bool
	// afterTree is the tree of the content after, kept open for the
	// caller (guardTreeProblems with keep), which then owns it; else nil.
	afterTree *sitter.Tree
}

// guardTreeProblems parses oldText, collects its problems, edits the tree with
// edits (by editor) and re-parses newText incrementally from it (from
// scratch if editor is nil), and collects the new tree's problems. With no
// edits it parses newText only and returns its problems as both before and
// after. oldText and newText are the texts as the parser reads them
// (lang.Language.ParserInput); edits are in their offsets, which are
// those of the file's texts. When beforeTree is not nil it is the tree of
// oldText, parsed from scratch with grammar (GuardOptions.Before's, once
// checked to be of oldText): oldText is not parsed; a copy of beforeTree
// is collected and edited instead, and beforeTree itself is neither
// modified nor closed. The trees it makes (that copy included) are closed
// when it returns, except, with keep and no error, the tree of newText,
// which it returns in afterTree for the caller to close.
func guardTreeProblems(ctx context.Context, grammar *sitter.Language, oldText, newText []byte, edits []guardEdit, editor guardTreeEditor, beforeTree *sitter.Tree, keep bool) (res guardTreeResult, err error) {
	// The tree of after: closed on return unless it is handed over.
	var newTree *sitter.Tree
	defer func() {
		if keep && err == nil && newTree != nil {
			res.afterTree = newTree
		} else if newTree != nil {
			newTree.Close()
		}
	}()
	parser := sitter.NewParser()
	defer parser.Close()
	parser.SetLanguage(grammar)
	if len(edits) == 0 {
		// The texts are the same: before's problems are after's.
		if beforeTree != nil {
			newTree = beforeTree.Copy()
		} else {
			probe.CountParse(ctx)
			if newTree, err = parser.ParseCtx(ctx, nil, newText); err != nil {
				return guardTreeResult{}, err
			}
		}
		ps, err := guardCollect(ctx, newTree, newText)
		return guardTreeResult{before: ps, after: ps}, err
	}

	var oldTree *sitter.Tree
	if beforeTree != nil {
		// A copy shares beforeTree's nodes until it is edited, which
		// copies the nodes the edits touch: beforeTree stays the caller's,
		// unchanged.
		oldTree = beforeTree.Copy()
	} else {
		probe.CountParse(ctx)
		if oldTree, err = parser.ParseCtx(ctx, nil, oldText); err != nil {
			return guardTreeResult{}, err
		}
	}
	defer oldTree.Close() // Close is idempotent
	if res.before, err = guardCollect(ctx, oldTree, oldText); err != nil {
		return res, err
	}

	var base *sitter.Tree
	if editor != nil {
		guardEditTree(editor, oldTree, oldText, newText, edits)
		base, res.incremental = oldTree, true
	} else {
		oldTree.Close()
	}
	probe.CountParse(ctx)
	newTree, err = parser.ParseCtx(ctx, base, newText)
	oldTree.Close()
	if err != nil {
		return res, err
	}
	res.after, err = guardCollect(ctx, newTree, newText)
	return res, err
}

// guardParseProblems parses text from scratch and returns its problems;
// the tree is closed when it returns.
func guardParseProblems(ctx context.Context, grammar *sitter.Language, text []byte) ([]guardProblem, error) {
	parser := sitter.NewParser()
	defer parser.Close()
	parser.SetLanguage(grammar)
	probe.CountParse(ctx)
	tree, err := parser.ParseCtx(ctx, nil, text)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	return guardCollect(ctx, tree, text)
}

// guardEditTree applies edits to tree with editor, last first, so that each
// edit's offsets (in oldText) are still valid when it is applied. Every
// edit gets its byte offsets and its points (0-based row, byte column, as
// tree-sitter counts them at LF): the start and old end from oldText, the
// new end from the start and the inserted text.
//
// oldText and newText are the texts the parser reads
// (lang.Language.ParserInput). There a lone CR is LF, so a byte just
// before an edit can differ between them although the file's byte did not
// change: a CR that an edit's new text turns into the CR of a CRLF, or a
// CRLF's CR whose LF the edit deletes. Such an edit starts one byte
// earlier, so that the tree is told of every byte that changed.
func guardEditTree(editor guardTreeEditor, tree *sitter.Tree, oldText, newText []byte, edits []guardEdit) {
	rows := newGuardRows(oldText)
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		prevEnd := 0 // the bytes from here to e.start are unchanged
		if i > 0 {
			prevEnd = edits[i-1].end
		}
		if e.start > prevEnd && oldText[e.start-1] != newText[e.newStart-1] {
			e.start, e.newStart = e.start-1, e.newStart-1
		}
		start := rows.point(e.start)
		newEnd := start
		ins := newText[e.newStart:e.newEnd]
		if nl := bytes.Count(ins, []byte{'\n'}); nl > 0 {
			newEnd = sitter.Point{Row: start.Row + uint32(nl), Column: uint32(len(ins) - 1 - bytes.LastIndexByte(ins, '\n'))}
		} else {
			newEnd.Column += uint32(len(ins))
		}
		editor(tree, sitter.EditInput{
			StartIndex:  uint32(e.start),
			OldEndIndex: uint32(e.end),
			NewEndIndex: uint32(e.start + len(ins)),
			StartPoint:  start,
			OldEndPoint: rows.point(e.end),
			NewEndPoint: newEnd,
		})
	}
}

// guardCollect returns the ERROR and MISSING nodes of tree in document order,
// descending only into nodes that contain an error and never into an
// ERROR node but one that spans the whole file.
func guardCollect(ctx context.Context, tree *sitter.Tree, text []byte) ([]guardProblem, error) {
	root := tree.RootNode()
	if !root.HasError() {
		return nil, nil
	}
	cur := sitter.NewTreeCursor(root)
	defer cur.Close()
	var out []guardProblem
	for n := 0; ; n++ {
		if n%1024 == 1023 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		node := cur.CurrentNode()
		switch {
		case node.IsMissing():
			s := int(node.StartByte())
			msg := "missing " + node.Type()
			if !node.IsNamed() {
				msg = fmt.Sprintf("missing %q", node.Type())
			}
			out = append(out, guardProblem{start: s, end: s, kind: KindMissing, msg: msg})
		case node.IsError():
			s, e := int(node.StartByte()), int(node.EndByte())
			out = append(out, guardProblem{start: s, end: e, kind: KindError, msg: guardErrorMessage(text[s:e])})
			// An error that spans the whole file (a C file wrapped in an
			// #ifndef whose #endif tree-sitter lost track of) holds
			// problems that count too, or no edit could add one.
			if node.StartByte() == root.StartByte() && node.EndByte() == root.EndByte() && cur.GoToFirstChild() {
				continue
			}
		case node.HasError() && cur.GoToFirstChild():
			continue
		}
		for !cur.GoToNextSibling() {
			if !cur.GoToParent() {
				return out, nil
			}
		}
	}
}

// guardMaxSnippet is the most bytes of an ERROR node's text a message quotes.
const guardMaxSnippet = 40

// guardErrorMessage describes an ERROR node whose text is b.
func guardErrorMessage(b []byte) string {
	s := lines.FirstLine(b, guardMaxSnippet)
	if s == "" {
		return "syntax error"
	}
	return fmt.Sprintf("syntax error at %q", s)
}

// guardCheckFunc returns the function that runs checker, the checker
// that supplements tree-sitter in a language (lang.Language.Checker), with
// its problems as guardProblems of its kind; nil for a nil checker.
func guardCheckFunc(checker *lang.Checker) func([]byte) []guardProblem {
	if checker == nil {
		return nil
	}
	return func(src []byte) []guardProblem { return guardProblems(checker.Kind, checker.Check(src)) }
}

// guardProblems returns ps, a checker's problems, as guardProblems of
// kind.
func guardProblems(kind string, ps []lang.Problem) []guardProblem {
	if len(ps) == 0 {
		return nil
	}
	out := make([]guardProblem, len(ps))
	for i, p := range ps {
		out[i] = guardProblem{start: p.Start, end: p.End, kind: kind, msg: p.Message}
	}
	return out
}

// guardOwnCheck runs checker, the language's own parser, which decides
// (lang.Checker.Decides), on oldText and newText, the texts before and
// after edits (sorted and trimmed as guardTextEdits returns them): with
// its CheckEdits when it has one, told prior, what the caller's parse
// (GuardOptions.Before) says of oldText, else whole. scope is how much
// CheckEdits read (lang.CheckScope), lang.CheckedWhole without it.
func guardOwnCheck(checker *lang.Checker, oldText, newText []byte, edits []guardEdit, prior lang.Prior) (r guardExtraResult, scope lang.CheckScope) {
	if checker.CheckEdits == nil {
		return guardRunExtra(guardCheckFunc(checker), oldText, newText, len(edits) > 0), lang.CheckedWhole
	}
	before, after, scope := checker.CheckEdits(oldText, newText, guardLangEdits(edits), prior)
	return guardExtraResult{before: guardProblems(checker.Kind, before), after: guardProblems(checker.Kind, after)}, scope
}

// guardLangEdits returns edits as the language's checkers and symbols'
// extraction take them (lang.Edit: the same offsets, before and after).
func guardLangEdits(edits []guardEdit) []lang.Edit {
	out := make([]lang.Edit, len(edits))
	for i, e := range edits {
		out[i] = lang.Edit{Start: e.start, End: e.end, NewStart: e.newStart, NewEnd: e.newEnd}
	}
	return out
}

// guardExtraResult is what a second checker found.
type guardExtraResult struct {
	before, after []guardProblem
}

// guardMaxExtra is the most new problems of a second checker a report
// lists: go/parser's recovery cascades (a missing parenthesis can give a
// hundred errors), so, as go/parser does without parser.AllErrors, only the
// first error of a line and the first 10 lines count.
const guardMaxExtra = 10

// guardFirstPerLine returns the first problem of each line of text (LF
// lines: text is the one the checkers read, lang.Language.ParserInput),
// at most max of them; ps are sorted by position.
func guardFirstPerLine(text []byte, ps []guardProblem, max int) []guardProblem {
	var out []guardProblem
	line, at, last := 0, 0, -1
	for _, p := range ps {
		if len(out) == max {
			break
		}
		if p.start > at {
			line += bytes.Count(text[at:p.start], []byte{'\n'})
			at = p.start
		}
		if line != last {
			out, last = append(out, p), line
		}
	}
	return out
}

// guardRunExtra runs check on newText and, if both, on oldText (else before
// is after).
func guardRunExtra(check func([]byte) []guardProblem, oldText, newText []byte, both bool) guardExtraResult {
	r := guardExtraResult{after: check(newText)}
	if both {
		r.before = check(oldText)
	} else {
		r.before = r.after
	}
	return r
}

// guardOwnNotes splits the tree-sitter problems ts of a text into those
// that stay problems and notes, in a language whose own parser decides
// (lang.Checker.Decides, go/parser in Go): a problem whose last byte lies
// on a line before the line of that parser's first error in text (goErrs,
// all of its errors) is a note, since the language's own parser parsed
// that part without error; every problem is a note when goErrs is empty.
// Both results keep ts's order.
func guardOwnNotes(text []byte, ts, goErrs []guardProblem) (problems, notes []guardProblem) {
	if len(ts) == 0 {
		return ts, nil
	}
	limit := len(text) + 1 // no go/parser error: every problem is a note
	if len(goErrs) > 0 {
		first := goErrs[0].start
		for _, e := range goErrs {
			first = min(first, e.start)
		}
		limit = bytes.LastIndexByte(text[:first], '\n') + 1 // the start of its line
	}
	for _, p := range ts {
		if last := max(p.start, p.end-1); last < limit {
			notes = append(notes, p)
		} else {
			problems = append(problems, p)
		}
	}
	return problems, notes
}

// guardNotes returns notes (in offsets of text, sorted) as SyntaxProblems
// whose Message ends with NoteSuffix.
func guardNotes(lines *guardLines, text []byte, notes []guardProblem) []SyntaxProblem {
	var out []SyntaxProblem
	for _, p := range notes {
		p.at = p.start
		sp := lines.problem(text, p)
		sp.Message += NoteSuffix
		out = append(out, sp)
	}
	return out
}

// guardMapper maps ranges of the text after the edits back to the text before.
type guardMapper struct {
	edits []guardEdit
	rows  *guardRows // before's lines, for go/parser errors; built on demand
	old   []byte
}

func newGuardMapper(oldText []byte, edits []guardEdit) *guardMapper {
	return &guardMapper{edits: edits, old: oldText}
}

// toBefore maps after's range [s, e] to before's, as CheckSyntax documents.
func (m *guardMapper) toBefore(s, e int) (int, int) {
	return m.mapOffset(s, true), m.mapOffset(e, false)
}

// mapOffset maps after's offset a to before: inside or at the ends of an
// edit's new text it maps to the edit's start (start true) or end,
// elsewhere to the same unchanged byte.
func (m *guardMapper) mapOffset(a int, start bool) int {
	// The first edit whose new text ends at or after a.
	i := sort.Search(len(m.edits), func(i int) bool { return m.edits[i].newEnd >= a })
	if i < len(m.edits) && m.edits[i].newStart <= a {
		if start {
			return m.edits[i].start
		}
		return m.edits[i].end
	}
	if i == 0 {
		return a // before every edit
	}
	p := m.edits[i-1] // the last edit wholly before a
	return p.end + (a - p.newEnd)
}

// touches reports whether after's range [s, e] touches an edit's new text
// (ends included).
func (m *guardMapper) touches(s, e int) bool {
	i := sort.Search(len(m.edits), func(i int) bool { return m.edits[i].newEnd >= s })
	return i < len(m.edits) && m.edits[i].newStart <= e
}

// excuseTail returns the problems of ps (in after) that lie before the
// first problem of before (mapped to before) or, if touching, touch the
// edited text: below its first error a parser's state can be wrong, and an
// edit that is fine in itself changes the errors it reports there.
// tree-sitter's Python grammar keeps a wrong scanner state after an error
// (a comment line added below it can give an error a line away: touching
// is set); go/parser does not recover at all from some errors (after a
// missing parenthesis the rest of the file is inside the call, and any
// edit there changes its errors: touching is not set).
func (m *guardMapper) excuseTail(ps, before []guardProblem, touching bool) []guardProblem {
	if len(ps) == 0 || len(before) == 0 {
		return ps
	}
	first := before[0].start
	for _, q := range before {
		first = min(first, q.start)
	}
	var out []guardProblem
	for _, p := range ps {
		if s, _ := m.toBefore(p.start, p.end); s < first || touching && m.touches(p.start, p.end) {
			out = append(out, p)
		}
	}
	return out
}

// firstEditIn returns where the first edit that overlaps after's range
// [s, e] (ends included) starts in after, if it starts after s; else s.
func (m *guardMapper) firstEditIn(s, e int) int {
	i := sort.Search(len(m.edits), func(i int) bool { return m.edits[i].newEnd >= s })
	if i < len(m.edits) && m.edits[i].newStart <= e && m.edits[i].newStart > s {
		return m.edits[i].newStart
	}
	return s
}

// unmatched returns the problems of after that no problem of before
// excuses, each problem of before excusing at most one. Problems are
// excused by overlap (ends included) with the mapped range; with
// lineWide, by a problem with the same message on one of the lines the
// mapped range covers.
func (m *guardMapper) unmatched(after, before []guardProblem, lineWide bool) []guardProblem {
	if len(after) == 0 {
		return nil
	}
	old := append([]guardProblem(nil), before...)
	sort.SliceStable(old, func(i, j int) bool { return old[i].start < old[j].start })
	// reach[i] is the largest end among old[:i+1], so that the first old
	// problem that can overlap a range starting at s is found by binary
	// search even if old problems nest.
	reach := make([]int, len(old))
	for i, p := range old {
		reach[i] = p.end
		if i > 0 {
			reach[i] = max(reach[i], reach[i-1])
		}
	}
	used := make([]bool, len(old))
	var out []guardProblem
	for _, p := range after {
		s, e := m.toBefore(p.start, p.end)
		if lineWide {
			if m.rows == nil {
				m.rows = newGuardRows(m.old)
			}
			s, e = m.rows.lineStart(s), m.rows.lineEnd(e)
		}
		excused := false
		for i := sort.Search(len(reach), func(i int) bool { return reach[i] >= s }); i < len(old) && old[i].start <= e; i++ {
			if used[i] || old[i].end < s || (lineWide && old[i].msg != p.msg) {
				continue
			}
			used[i], excused = true, true
			break
		}
		if !excused {
			out = append(out, p)
		}
	}
	return out
}

// guardRows locates offsets by LF-separated rows, as tree-sitter and
// go/scanner count them in the text they read (lang.Language.ParserInput).
type guardRows struct {
	starts []int // offset of each row's first byte
	size   int
}

func newGuardRows(text []byte) *guardRows {
	x := &guardRows{starts: []int{0}, size: len(text)}
	for i, c := range text {
		if c == '\n' {
			x.starts = append(x.starts, i+1)
		}
	}
	return x
}

// row returns the 0-based row of offset off.
func (x *guardRows) row(off int) int {
	return sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off }) - 1
}

func (x *guardRows) point(off int) sitter.Point {
	r := x.row(off)
	return sitter.Point{Row: uint32(r), Column: uint32(off - x.starts[r])}
}

// lineStart returns the offset of the start of off's row.
func (x *guardRows) lineStart(off int) int { return x.starts[x.row(off)] }

// lineEnd returns the offset of the end of off's row (its LF, or the end of
// the text).
func (x *guardRows) lineEnd(off int) int {
	if r := x.row(off); r+1 < len(x.starts) {
		return x.starts[r+1] - 1
	}
	return x.size
}

// guardLines locates offsets by the lines of a Document.
type guardLines struct {
	lines []edit.LineRange
}

func newGuardLines(text []byte) *guardLines {
	return &guardLines{lines: edit.LineRangesOf(text)}
}

// position returns the 1-based line and byte column of off and the line's
// text. An offset after a final line ending is on the empty line after it;
// an offset in a line ending is past the line's last byte.
func (x *guardLines) position(text []byte, off int) (lineNo, col int, lineText string) {
	i := sort.Search(len(x.lines), func(i int) bool { return x.lines[i].Next > off })
	if i == len(x.lines) {
		start := 0
		if i > 0 {
			start = x.lines[i-1].Next
		}
		if i > 0 && x.lines[i-1].Next == x.lines[i-1].End { // no final line ending
			l := x.lines[i-1]
			return i, off - l.Start + 1, string(text[l.Start:l.End])
		}
		return i + 1, off - start + 1, ""
	}
	l := x.lines[i]
	return i + 1, off - l.Start + 1, string(text[l.Start:l.End])
}

// problem returns p as a SyntaxProblem, reported at p.at. An ERROR node
// reported after its start (in the edited text) says which lines it
// covers.
func (x *guardLines) problem(text []byte, p guardProblem) SyntaxProblem {
	line, col, lineText := x.position(text, p.at)
	endLine, endCol, _ := x.position(text, p.end)
	prefix := "tree-sitter: "
	if p.kind != KindError && p.kind != KindMissing {
		prefix = p.kind + ": "
	}
	msg := p.msg
	if p.at != p.start {
		first, _, _ := x.position(text, p.start)
		if first == endLine {
			msg = fmt.Sprintf("syntax error in the edited text; line %d does not parse", first)
		} else {
			msg = fmt.Sprintf("syntax error in the edited text; lines %d-%d do not parse", first, endLine)
		}
	}
	return SyntaxProblem{
		Line: line, Column: col, EndLine: endLine, EndColumn: endCol,
		Kind: p.kind, Message: prefix + msg, Text: lineText,
	}
}
