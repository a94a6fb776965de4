package reply

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/symedit/symedit/internal/lines"
)

// Format is the kind of an edit block, as printed in JSON output.
type Format string

// The two block formats.
const (
	// FormatEdit is symedit's anchored block: <<<<<<< EDIT, leading
	// anchor, -------, old lines, =======, new lines, -------, trailing
	// anchor, >>>>>>>.
	FormatEdit Format = "edit"
	// FormatSearchReplace is the SEARCH/REPLACE block: <<<<<<< SEARCH, old
	// lines, =======, new lines, >>>>>>> REPLACE.
	FormatSearchReplace Format = "search-replace"
	// FormatApplyPatch is a file added, or a hunk of a file updated, by a
	// Codex apply_patch patch (*** Begin Patch), read as a
	// SEARCH/REPLACE block.
	FormatApplyPatch Format = "apply-patch"
	// FormatUnifiedDiff is a hunk of a unified diff (--- and +++ headers,
	// @@ hunks), read as a SEARCH/REPLACE block.
	FormatUnifiedDiff Format = "unified-diff"
)

// Block is one well-formed edit block of a reply. Its lines carry no line
// endings. A SEARCH/REPLACE block has only OldLines and NewLines;
// ContextBefore and ContextAfter are nil. An empty section is nil.
type Block struct {
	// Format is FormatEdit, FormatSearchReplace, FormatUnifiedDiff or
	// FormatApplyPatch (a hunk: OldLines is its old side, context and
	// removed lines; NewLines its new side, context and added lines; it
	// applies as a SEARCH/REPLACE block); Apply and String read any other
	// value as FormatEdit.
	Format Format `json:"format"`
	// Path is the file the block edits, as the model wrote it with the
	// decoration stripped (see the package documentation), or, for a
	// patch run after "cd DIR &&", DIR (cleaned as cd cleans it) joined
	// with it. It is not otherwise cleaned, nor checked against any root:
	// that is the caller's job.
	Path string `json:"path"`
	// ContextBefore is the leading anchor (JSON "leading"): lines kept,
	// just before OldLines. Empty means the start of the file.
	ContextBefore []string `json:"leading,omitempty"`
	// OldLines are the lines replaced (the SEARCH section; JSON "old").
	// Empty inserts.
	OldLines []string `json:"old,omitempty"`
	// NewLines are the lines written instead of OldLines (the REPLACE
	// section; JSON "new"). Empty deletes.
	NewLines []string `json:"new,omitempty"`
	// ContextAfter is the trailing anchor (JSON "trailing"): lines kept,
	// just after OldLines. Empty means the end of the file.
	ContextAfter []string `json:"trailing,omitempty"`
	// Line is the 1-based reply line of the block's <<<<<<< marker (for a
	// unified diff's hunk, of its @@ line).
	Line int `json:"line"`
	// PathLine is the 1-based reply line the path was read from (for a
	// hunk, the +++ line; for a block that takes the path of the block
	// before it, that block's path line), or 0 when the path is
	// Options.Path.
	PathLine int `json:"path_line"`
	// Hint, when not 0, is the 1-based line where the block's lines are
	// said to start in the text it applies to (a hunk's +l: its place after
	// the hunks before it). It only chooses between identical candidates,
	// when exactly one starts there; it never places a block that does not
	// match, since a model's line numbers are often stale.
	Hint int `json:"hint_line,omitempty"`
	// Scope are an apply_patch hunk's "@@ context" lines, outermost first:
	// the block applies only at a place that is the first match after an
	// occurrence of them, in that order, each the first after the one
	// before (lines compared with surrounding white space trimmed). Among
	// several matches, only those places count.
	Scope []string `json:"scope,omitempty"`
	// Pinned, for a unified diff's hunk with line numbers and no context
	// lines (diff -U0 writes such hunks; git apply reads them only with
	// --unidiff-zero), says that nothing but its numbers places it: it
	// applies only where Hint puts it (its old lines at 1-based lines
	// Hint to Hint+len(OldLines)-1 inclusive, or, with no old lines, its new
	// lines after line Hint-1) and only when that place ends at the
	// text's last line, where the numbers cannot point at the wrong
	// line; elsewhere Apply refuses it (TRAILING_NOT_FOUND), and old
	// lines that are not there are OLD_MISMATCH. AtEnd is set too.
	Pinned bool `json:"pinned,omitempty"`
	// AtEnd, for an apply_patch hunk followed by "*** End of File" or a
	// unified diff's hunk with "\ No newline at end of file", says the
	// block's lines must end at the text's last line.
	AtEnd bool `json:"at_end,omitempty"`
	// Insert marks an apply_patch update hunk that only adds lines (no
	// context and no removed lines: OldLines is empty, NewLines its added
	// lines). It inserts NewLines right after the last line of the one
	// chain of Scope lines in the text (see Scope; one such place, else
	// AMBIGUOUS, or NOT_FOUND for none), or, without Scope, after the
	// text's last line, as Codex's patches do. It never creates a file (IsCreate).
	Insert bool `json:"insert,omitempty"`
	// OldNoEOL and NewNoEOL, for a unified diff's hunk, say that its old
	// side, and its new side, end with the file's last line and that line
	// has no line ending ("\ No newline at end of file" after it), as git
	// and diff -u write it. Apply refuses a hunk with OldNoEOL on a text
	// whose last line has a line ending; the result ends without a line
	// ending when NewNoEOL is set, and with one (the text's dominant
	// ending) when only OldNoEOL is, as git apply and patch write it.
	// Either sets AtEnd.
	OldNoEOL bool `json:"old_no_eol,omitempty"`
	NewNoEOL bool `json:"new_no_eol,omitempty"`
	// Delete says the block deletes the file Path: an
	// apply_patch "*** Delete File:" (no lines; FileOnly), or a hunk of a
	// unified diff whose +++ name is /dev/null (OldLines its removed lines,
	// NewLines empty). The caller deletes the file only if it exists and, for a
	// diff, its hunks applied in order leave the empty text.
	Delete bool `json:"delete,omitempty"`
	// MoveTo, when not "", is the path the file Path moves to, with the
	// block's change: an apply_patch "*** Move to:", a unified
	// diff's "rename from"/"rename to" lines or git's "--- a/P" and
	// "+++ b/Q" with P and Q different. Every block of the file carries it;
	// a pure rename is one FileOnly block. Like Path, it is in DIR after
	// a "cd DIR &&", is not checked against any root, and the caller
	// refuses a MoveTo that exists.
	MoveTo string `json:"move_to,omitempty"`
	// Mode, when not "", is the git mode (ModeFile or ModeExecutable) the
	// extended headers of a git diff give the file: the mode of
	// a file it creates ("new file mode"), or, with OldMode, the new mode
	// of a mode change ("old mode", "new mode"). Every hunk of the diff
	// carries them; a change git writes without hunks is one block without
	// lines (a create block, or a FileOnly block for a mode change).
	Mode    string `json:"mode,omitempty"`
	OldMode string `json:"old_mode,omitempty"`
	// PathChoices, when not nil, are the two names the --- and +++ lines
	// of a unified diff give the one file it edits when they differ
	// without git's a/ and b/ or rename lines ("diff -u x.py.orig x.py",
	// "diff -u x.py x.py.new"), the --- name first; Path is the +++ name.
	// As GNU patch does, the caller edits (in place, under that name) the
	// one of the two that exists, and refuses the block when both or
	// neither exist. Like Path, they are not checked against any root.
	PathChoices []string `json:"path_choices,omitempty"`
}

// FileOnly reports whether the block deletes, moves or changes the mode of
// its file and changes no lines ("*** Delete File:", a move without hunks,
// git's pure rename, git's deletion of an empty file or mode change): the
// caller acts on the file and does not Apply the block, which Apply
// refuses (CodeFileOnly).
func (b Block) FileOnly() bool {
	return (b.Delete || b.MoveTo != "" || b.OldMode != "") && len(b.ContextBefore) == 0 && len(b.OldLines) == 0 && len(b.NewLines) == 0 && len(b.ContextAfter) == 0
}

// Malformed is a block Parse could not read; it is reported and never
// applied.
type Malformed struct {
	// Line is the 1-based reply line of the block's start marker, or of
	// the line that looks like a marker (a near-miss start marker, a
	// separator or end marker outside a block, a patch's or diff's first
	// line).
	Line int `json:"line"`
	// Format is the kind of block the marker started.
	Format Format `json:"format"`
	// Path is the block's path, or "" when the path line is missing or
	// cannot be told (a separator or end marker outside a block).
	Path string `json:"path,omitempty"`
	// Paths are the files a patch or diff in a format Parse does not read
	// names (FormatApplyPatch, FormatUnifiedDiff), in reply order; Path is
	// the first. Nil for other formats.
	Paths []string `json:"paths,omitempty"`
	// Reason says what is wrong, naming the 1-based reply line of the
	// offending line where there is one.
	Reason string `json:"reason"`
}

// ShellSuggestion is a shell command the reply suggests (git rm, git mv, rm,
// rmdir, mv, cp, touch, mkdir). It is never run.
type ShellSuggestion struct {
	// Line is the 1-based reply line the command is on.
	Line int `json:"line" jsonschema:"The 1-based reply line the command is on."`
	// Command is the command as written, without a "$ " prompt or
	// surrounding white space.
	Command string `json:"command" jsonschema:"The command as written, without a \"$ \" prompt or surrounding white space."`
}

// Result is everything Parse found in a reply, each list in reply order.
type Result struct {
	// Blocks are the well-formed blocks, to apply in this order.
	Blocks []Block `json:"blocks"`
	// Malformed are the blocks that cannot be read.
	Malformed []Malformed `json:"malformed"`
	// Shell are the shell commands the reply suggests.
	Shell []ShellSuggestion `json:"shell_suggestions"`
}

// Structural lines.
const (
	startEdit   = "<<<<<<< EDIT"
	startSearch = "<<<<<<< SEARCH"
	dashSep     = "-------"
	equalSep    = "======="
	endPrefix   = ">>>>>>>"
	// maxPathLen is the longest path line, in bytes, Parse accepts.
	maxPathLen = 200
)

// Parse reads every edit block, malformed block and shell suggestion of a
// model's reply. It never fails: a block it cannot read is a Malformed, and
// a reply without blocks gives a Result with no Blocks and no Malformed.
// It runs in time linear in len(reply). See the package documentation for
// the rules.
func Parse(reply string) Result {
	res, _ := parse(reply, Options{})
	return res
}

// Options are ParseWith's options.
type Options struct {
	// Path, when not "", is the file of every EDIT or SEARCH/REPLACE block
	// for which the reply names none (apply --path; Roo Code and Cline
	// send single-file replies without paths).
	Path string
}

// ParseWith is Parse with options.
func ParseWith(reply string, opt Options) Result {
	res, _ := parse(reply, opt)
	return res
}

// parse is ParseWith, and also returns the parser's step count: the
// number of times any of its loops looked at a line or at a run of
// backticks. Tests use it to show that Parse's work grows linearly with
// the reply, without timing it.
func parse(reply string, opt Options) (Result, int) {
	p := &parser{lines: lines.Split(reply), opt: opt}
	p.run()
	return p.res, p.steps
}

type parser struct {
	opt      Options
	prevPath string // the path of the block before, while only blank or fence lines follow it
	prevLine int    // its 1-based path line
	lines    []string
	res      Result
	fence    fence
	conflict bool // in a quoted git conflict, after "<<<<<<< NAME"
	steps    int  // lines and backtick runs looked at, for parse
	rename   *renameLines
	gitHead  *gitHead
}

// gitHead is what a "diff --git" line's extended headers say about the
// diff whose --- line follows them: the file's new mode, and
// its old one for a mode change, or why its hunks cannot apply.
type gitHead struct {
	at            int    // 0-based index of the --- line, or -1 for a rename's
	path          string // the file the "diff --git" line names
	mode, oldMode string
	reason        string
}

// renameLines are git's "rename from P" and "rename to Q" lines just
// before a diff's --- and +++ lines, which must name P and Q.
type renameLines struct {
	from, to string
	line     int // 1-based reply line of "rename from"
}

// fence is the code fence a prose line is in.
type fence struct {
	open  bool
	char  byte // '`' or '~'
	width int
	shell bool // the fence's language is a shell
	at    int  // 0-based index of its opening line
}

// token classifies a line inside a block.
type token int

const (
	tokText token = iota
	tokDash
	tokEqual
	tokEnd   // an end marker: >>>>>>> and what follows, or +++++++ REPLACE
	tokStart // a start marker (startMarker)
	tokNear  // a line shaped like a marker that is none of this block's
)

// Marker runs: the standard length, and the lengths Aider and Cline accept,
// so replies written for those tools parse too.
const (
	stdRun = 7
	minRun = 5
	maxRun = 9
)

// shape is a line's marker shape: optional indentation, a run of one of
// the characters < > - + =, then (after optional white space) the rest of
// the line: its first word, an optional '>' right after that word, and
// any further text. Trailing white space is ignored.
type shape struct {
	indent bool
	char   byte
	run    int
	space  bool   // white space between the run and the word
	word   string // the first word, without a trailing '>'
	gt     bool   // the word ends with '>'
	extra  bool   // text after the first word
}

// lineShape returns l's marker shape; ok is false when l does not start
// (after indentation) with a run of three or more of < > - + =.
func lineShape(l string) (sh shape, ok bool) {
	t := strings.TrimRight(l, " \t")
	u := strings.TrimLeft(t, " \t")
	if len(u) < 3 || strings.IndexByte("<>-+=", u[0]) < 0 {
		return shape{}, false
	}
	sh.indent, sh.char = len(u) < len(t), u[0]
	for sh.run < len(u) && u[sh.run] == sh.char {
		sh.run++
	}
	if sh.run < 3 {
		return shape{}, false
	}
	rest := u[sh.run:]
	r := strings.TrimLeft(rest, " \t")
	sh.space = len(r) < len(rest) && r != ""
	word, more, _ := strings.Cut(r, " ")
	word, more2, _ := strings.Cut(word, "\t")
	sh.extra = strings.TrimSpace(more+more2) != ""
	if w, ok := strings.CutSuffix(word, ">"); ok && w != "" {
		word, sh.gt = w, true
	}
	sh.word = word
	return sh, true
}

// blockWord reports whether w names a block part: SEARCH, REPLACE or EDIT,
// in any case.
func blockWord(w string) bool {
	return strings.EqualFold(w, "SEARCH") || strings.EqualFold(w, "REPLACE") || strings.EqualFold(w, "EDIT")
}

// markerLike reports whether a line of shape sh looks like a block marker:
// a run of 5 or more of < > - + followed by SEARCH, REPLACE or EDIT in any
// case (with or without white space between), or a run of 3 or 4 followed
// by one of those words in capitals. After a - or + run, or a run shorter
// than 5, the word (and an optional '>') must end the line, so that
// "--- edit history ---" and ">>> search" are prose.
func markerLike(sh shape) bool {
	if sh.char == '=' || !blockWord(sh.word) {
		return false
	}
	if sh.run < minRun && (sh.extra || strings.ToUpper(sh.word) != sh.word) {
		return false
	}
	return sh.char == '<' || sh.char == '>' || !sh.extra
}

// isRun reports whether t is exactly n copies of c.
func isRun(t string, c byte, n int) bool {
	if len(t) != n {
		return false
	}
	for i := 0; i < n; i++ {
		if t[i] != c {
			return false
		}
	}
	return true
}

// classify classifies line l inside a block whose start marker's run is
// run characters long: separators of 7 characters or of the start's run
// length, end markers (a line starting with 7 or more '>', a '>' run of
// the start's length, or a '+' run of 5 to 9 and REPLACE), start markers,
// and other marker-like lines at column 1 (tokNear). Indented lines are
// content, whatever they look like.
func classify(l string, run int) token {
	t := strings.TrimRight(l, " \t")
	switch {
	case isRun(t, '-', stdRun) || isRun(t, '-', run):
		return tokDash
	case isRun(t, '=', stdRun) || isRun(t, '=', run):
		return tokEqual
	case strings.HasPrefix(t, endPrefix):
		return tokEnd
	}
	if _, _, ok := startMarker(l); ok {
		return tokStart
	}
	sh, ok := lineShape(l)
	switch {
	case !ok:
		return tokText
	case !sh.indent && sh.char == '>' && sh.run == run && (sh.word == "" || sh.space):
		return tokEnd
	case !sh.indent && sh.char == '>' && sh.run >= minRun && sh.space && blockWord(sh.word) && !sh.extra:
		// A run of another length before the word (">>>>> REPLACE>"),
		// as Aider and Cline accept: the word says it ends a block.
		return tokEnd
	case !sh.indent && sh.char == '+' && sh.run >= minRun && sh.run <= maxRun && sh.space && sh.word == "REPLACE" && !sh.extra:
		return tokEnd
	case !sh.indent && markerLike(sh):
		return tokNear
	}
	return tokText
}

// startMarker reports whether l starts a block, which kind, and the length
// of its marker run: at column 1, 5 to 9 '<' then white space then EDIT or
// SEARCH, or (Cline's form) 5 to 9 '-' then white space then SEARCH; a '>'
// may follow the word, and trailing white space is allowed.
func startMarker(l string) (Format, int, bool) {
	sh, ok := lineShape(l)
	if !ok || sh.indent || !sh.space || sh.extra || sh.run < minRun || sh.run > maxRun {
		return "", 0, false
	}
	switch {
	case sh.char == '<' && sh.word == "EDIT":
		return FormatEdit, sh.run, true
	case (sh.char == '<' || sh.char == '-') && sh.word == "SEARCH":
		return FormatSearchReplace, sh.run, true
	}
	return "", 0, false
}

// endVariant returns what follows the run of an end-marker line, without
// a trailing '>'.
func endVariant(l string) string {
	t := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), ">+"))
	if w, ok := strings.CutSuffix(t, ">"); ok && w != "" {
		t = w
	}
	return t
}

// wordFormat is the block kind a marker word names.
func wordFormat(w string) Format {
	if strings.EqualFold(w, "EDIT") {
		return FormatEdit
	}
	return FormatSearchReplace
}

func (p *parser) run() {
	floor := 0 // the path lookback never goes below this index
	for i := 0; i < len(p.lines); {
		p.steps++
		l := p.lines[i]
		if f, run, ok := startMarker(l); ok {
			p.conflict = false
			i, floor = p.block(i, f, run, floor)
			if floor != i {
				p.prevPath = "" // a block cut short: its path is not passed on
			}
			continue
		}
		if next, ok := p.stray(i, floor); ok {
			// What was skipped may end at the next block's start marker:
			// that block's path line may be among the skipped lines.
			floor, p.prevPath = next, ""
			if next < len(p.lines) && classify(p.lines[next], stdRun) == tokStart {
				floor = i + 1
			}
			i = next
			continue
		}
		p.prose(i)
		i++
	}
}

// stray handles line i outside a block when it is a marker that is not a
// block's start: an indented or near-miss start marker, a separator or end
// marker outside a block, or the start of a format Parse does not read
// (Codex apply_patch, a unified diff). It records a Malformed and returns
// the index of the first line after what it skipped. A git conflict (from
// "<<<<<<< NAME" to ">>>>>>> NAME") is prose.
func (p *parser) stray(i, floor int) (next int, ok bool) {
	t := strings.TrimSpace(p.lines[i])
	if p.conflict {
		switch {
		case strings.HasPrefix(t, endPrefix) && !blockWord(endVariant(t)):
			p.conflict = false
			return 0, false
		case t == equalSep || strings.HasPrefix(t, "|||||||"):
			return 0, false
		}
	}
	if next, ok := p.diffStart(i, floor); ok {
		return next, true
	}
	return p.strayMarker(i, floor)
}

// strayAt records m as a Malformed at line i and returns next, the index
// after what stray skipped.
func (p *parser) strayAt(i int, m Malformed, next int) (int, bool) {
	m.Line = i + 1
	p.res.Malformed = append(p.res.Malformed, m)
	return next, true
}

// diffStart reads line i when it starts a diff or a patch: an apply_patch
// patch with its shell lines, a unified diff's --- and +++ lines, git's
// rename lines or a "diff --git" line without hunks; a hunk header
// without the lines that name its file, or indented, is a Malformed. It
// returns the index after what it read, and false when line i starts
// none of them.
func (p *parser) diffStart(i, floor int) (int, bool) {
	l := p.lines[i]
	t := strings.TrimSpace(l)
	switch {
	case isPatchStart(t):
		return p.wrappedPatch(i, floor), true
	case strings.HasPrefix(l, "--- ") && i+2 < len(p.lines) && strings.HasPrefix(p.lines[i+1], "+++ ") && strings.HasPrefix(p.lines[i+2], "@@"):
		return p.diff(i), true
	case strings.HasPrefix(l, "rename from ") && i+1 < len(p.lines) && strings.HasPrefix(p.lines[i+1], "rename to "):
		return p.renameFile(i), true
	}
	if strings.HasPrefix(l, "diff --git ") {
		if next, b, reason, ok := p.hunklessGitDiff(i); ok {
			if reason == "" {
				p.res.Blocks = append(p.res.Blocks, b)
				return next, true
			}
			m := Malformed{Format: FormatUnifiedDiff, Path: b.Path, Reason: reason}
			if b.Path != "" {
				m.Paths = []string{b.Path}
			}
			return p.strayAt(i, m, next)
		}
	}
	if hunkHeader.MatchString(l) {
		_, next, _, _ := p.hunk(i)
		return p.strayAt(i, Malformed{Format: FormatUnifiedDiff,
			Reason: fmt.Sprintf("line %d %q is a unified diff's hunk header without the --- and +++ lines that name its file, so the hunk is not applied", i+1, abbreviate(t, 60))}, max(next, i+1))
	}
	if u := strings.TrimLeft(l, " \t"); u != l && hunkHeader.MatchString(u) {
		// An indented diff (in a Markdown list) is not read: say so.
		next := i + 1
		for next < len(p.lines) && hunkLine(strings.TrimLeft(p.lines[next], " \t")) {
			next++
		}
		return p.strayAt(i, Malformed{Format: FormatUnifiedDiff,
			Reason: fmt.Sprintf("line %d %q is an indented hunk header: a unified diff must start at column 1 (one indented in a Markdown list is not read), so the hunk is not applied", i+1, abbreviate(t, 60))}, next)
	}
	return 0, false
}

// strayMarker reads line i when it is shaped like a block marker but
// starts no block: a git conflict's "<<<<<<< HEAD" (prose, and so is the
// conflict up to its end), an indented or near-miss start marker (the
// block up to its end marker is skipped), an end marker or a separator
// outside a block. It returns the index after what it skipped, and false
// for prose.
func (p *parser) strayMarker(i, floor int) (int, bool) {
	l := p.lines[i]
	t := strings.TrimSpace(l)
	n := i + 1
	sh, isShape := lineShape(l)
	if !isShape {
		return 0, false
	}
	if !sh.indent && sh.char == '<' && sh.run == stdRun && sh.space && !blockWord(sh.word) {
		p.conflict = true // "<<<<<<< HEAD": a git conflict, quoted
		return 0, false
	}
	tt := strings.TrimRight(l, " \t")
	switch {
	case markerLike(sh) && (sh.char == '<' || sh.char == '-') && !strings.EqualFold(sh.word, "REPLACE"):
		f := wordFormat(sh.word)
		path, _, _ := p.findPath(i, floor)
		reason := fmt.Sprintf("line %d %q looks like a block's start marker but is not one: a start marker is %d to %d '<' (or Cline's '-'), a space, then SEARCH or EDIT in capitals, at column 1, as in %q; the block up to its end marker is not applied",
			n, abbreviate(t, 60), minRun, maxRun, startSearch)
		if _, _, ok := startMarker(strings.TrimLeft(l, " \t")); ok {
			reason = fmt.Sprintf("marker %q on line %d is indented: block markers must start at column 1 (a block indented in a Markdown list is not read); the block up to its end marker is not applied", t, n)
		}
		return p.strayAt(i, Malformed{Format: f, Path: path, Reason: reason}, p.skip(i+1, sh.indent))
	case markerLike(sh) || !sh.indent && sh.char == '>' && sh.run >= minRun && (sh.word == "" || sh.space):
		return p.strayAt(i, Malformed{Format: wordFormat(sh.word),
			Reason: fmt.Sprintf("line %d %q is an end marker outside any block: the block's start marker is missing or not recognised, so the block is not applied", n, abbreviate(t, 60))}, i+1)
	case !sh.indent && tt == equalSep && !p.setext(i):
		return p.strayAt(i, Malformed{Format: FormatSearchReplace,
			Reason: fmt.Sprintf("line %d %q is a separator outside any block: the block's start marker is missing or not recognised, so the block is not applied", n, equalSep)}, p.skip(i+1, false))
	}
	return 0, false
}

// gitExtendedHeaders are the lines git writes between "diff --git" and
// the "---" line (git-diff(1), "generating patches with -p").
var gitExtendedHeaders = []string{"old mode ", "new mode ", "deleted file mode ", "new file mode ",
	"copy from ", "copy to ", "rename from ", "rename to ", "similarity index ", "dissimilarity index ", "index "}

// Git's modes of a regular file (git-diff(1)): a Block's Mode and
// OldMode.
const (
	ModeFile       = "100644"
	ModeExecutable = "100755"
)

// hunklessGitDiff reads the change a "diff --git" line i heads when it
// has no "---" line after its extended headers and no rename: git writes
// no hunks for an empty file created or deleted, a mode change or a binary
// file. The first three, for one regular file named alike on
// both sides, are a Block of FormatUnifiedDiff with no lines: a create
// block with Mode for "new file mode" (an empty file), a Delete block for
// "deleted file mode" (the caller deletes the file only when it is
// empty), a FileOnly block with OldMode and Mode for "old mode" and "new
// mode". Anything else (a binary file, a copy, a symbolic link or a
// submodule, names that differ) is a reason the change is malformed. Such
// a header is never prose, so a change it stands for is never silently
// dropped. It reports ok false when
// line i heads a diff with hunks or a rename, which are read elsewhere;
// next is the line after its headers (and after a "Binary files ...
// differ" line).
func (p *parser) hunklessGitDiff(i int) (next int, b Block, reason string, ok bool) {
	j, heads, rename := p.gitHeaders(i)
	if rename {
		// The mode lines go with the rename (renameFile).
		if m, ok := heads["new mode "]; ok {
			p.gitHead = &gitHead{at: -1, mode: m, oldMode: heads["old mode "]}
		} else if m, ok := heads["old mode "]; ok {
			p.gitHead = &gitHead{at: -1, oldMode: m}
		}
		return 0, Block{}, "", false
	}
	path, named := gitDiffPath(p.lines[i])
	if j < len(p.lines) && strings.HasPrefix(p.lines[j], "--- ") {
		// A diff with hunks: its mode lines go with its hunks.
		if gh := hunkedGitHead(i, j, path, heads); named && (gh.mode != "" || gh.reason != "") {
			p.gitHead = gh
		}
		return 0, Block{}, "", false
	}
	binary := j < len(p.lines) && (strings.HasPrefix(p.lines[j], "Binary files ") || p.lines[j] == "GIT binary patch")
	if binary {
		j++
	}
	n := i + 1
	head := fmt.Sprintf("line %d %q starts a git diff with no hunks", n, abbreviate(strings.TrimSpace(p.lines[i]), 60))
	b = Block{Format: FormatUnifiedDiff, Path: path, Line: n, PathLine: n}
	delete(heads, "index ")
	newFile, isNew := heads["new file mode "]
	deleted, isDeleted := heads["deleted file mode "]
	oldMode, hasOld := heads["old mode "]
	newMode, hasNew := heads["new mode "]
	switch {
	case binary:
		return j, b, head + " of a binary file: symedit edits text only, so this change is not applied", true
	case !named:
		return j, b, head + " whose a/ and b/ names are not one file (names that differ, or a quoted name git would not write): this change is not applied", true
	case len(heads) == 1 && isNew && regularMode(newFile):
		b.Mode = newFile
		return j, b, "", true
	case len(heads) == 1 && isDeleted && regularMode(deleted):
		b.Delete = true
		return j, b, "", true
	case len(heads) == 2 && hasOld && hasNew && regularMode(oldMode) && regularMode(newMode) && oldMode != newMode:
		b.OldMode, b.Mode = oldMode, newMode
		return j, b, "", true
	}
	return j, b, head + " that is not an empty file created or deleted or a mode change between " + ModeFile + " and " + ModeExecutable +
		" (a copy, a symbolic link or a submodule): symedit applies only those, hunks, renames and deletions, so this change is not applied", true
}

// regularMode reports whether m is git's mode of a regular file, plain
// or executable (not a symbolic link or a submodule).
func regularMode(m string) bool { return m == ModeFile || m == ModeExecutable }

// gitHeaders reads the extended headers after the "diff --git" line i:
// it returns the index after them, each header's value by its prefix
// ("duplicate" naming a header given twice), and whether they rename the
// file.
func (p *parser) gitHeaders(i int) (j int, heads map[string]string, rename bool) {
	heads = map[string]string{}
	for j = i + 1; j < len(p.lines); j++ {
		l := p.lines[j]
		k := slices.IndexFunc(gitExtendedHeaders, func(h string) bool { return strings.HasPrefix(l, h) })
		if k < 0 {
			break
		}
		p.steps++
		h := gitExtendedHeaders[k]
		rename = rename || h == "rename from "
		if _, dup := heads[h]; dup {
			heads["duplicate"] = h
		}
		heads[h] = strings.TrimSpace(l[len(h):])
	}
	return j, heads, rename
}

// hunkedGitHead is what the extended headers heads of the "diff --git"
// line i say of the diff with hunks whose --- line is line j, of the file
// path: the new file's mode, or a mode change between regular files' modes;
// a symbolic link or a submodule created, or a change of a file's type,
// is a reason its hunks are refused.
func hunkedGitHead(i, j int, path string, heads map[string]string) *gitHead {
	gh := &gitHead{at: j, path: path}
	newFile, isNew := heads["new file mode "]
	oldMode, hasOld := heads["old mode "]
	newMode, hasNew := heads["new mode "]
	switch {
	case isNew && regularMode(newFile):
		gh.mode = newFile
	case isNew:
		gh.reason = fmt.Sprintf("line %d: the diff creates %s with mode %s (a symbolic link or a submodule), which apply does not do", i+1, path, newFile)
	case hasOld && hasNew && regularMode(oldMode) && regularMode(newMode):
		if oldMode != newMode {
			gh.oldMode, gh.mode = oldMode, newMode
		}
	case hasOld || hasNew:
		gh.reason = fmt.Sprintf("lines %d-%d: the diff changes the type of %s (mode %s to %s: a symbolic link or a submodule), which apply does not do", i+2, j, path, oldMode, newMode)
	}
	return gh
}

// setext reports whether line i, "=======", underlines a Markdown setext
// heading: outside a code fence, after a line that is not blank, and
// before a blank line or the end of the reply.
func (p *parser) setext(i int) bool {
	return !p.fence.open && i > 0 && strings.TrimSpace(p.lines[i-1]) != "" &&
		(i+1 == len(p.lines) || strings.TrimSpace(p.lines[i+1]) == "")
}

// block reads the block whose start marker is line i (0-based). It returns
// the index of the first line after the block and the floor for the next
// block's path lookback: that same index, except for a block cut short by
// the next start marker, whose last lines may be that block's path line.
// Each line is text of the current section or a marker, which editStep or
// searchStep reads by the block's format; a structural error skips the
// rest of the block (endBlock), so that its lines are not read as prose.
func (p *parser) block(i int, f Format, run, floor int) (next, nextFloor int) {
	path, pathLine, pathErr := p.findPath(i, floor)
	var sec [4][]string // leading, old, new, trailing (SEARCH: old, new)
	state := 1          // index into sec
	if f == FormatEdit {
		state = 0
	}
	next, nextFloor = -1, -1 // -1 until the block ends
	err := ""
	first := i + 1 // the first line of the block's sections
	hint := 0
	alt, alts := -1, []int(nil) // a separator of another length, and all such lines
	if f == FormatSearchReplace {
		hint, first, err = p.startLine(i + 1)
		alt, alts = p.altSeparator(first, run)
	}
scan:
	for j := first; j < len(p.lines) && err == ""; j++ {
		p.steps++
		l := p.lines[j]
		tok := classify(l, run)
		if j == alt {
			tok = tokEqual
		}
		n := j + 1 // 1-based line, for messages
		switch tok {
		case tokText:
			sec[state] = append(sec[state], unescapeLine(l, run, j == i+1 && f == FormatSearchReplace))
			continue
		case tokStart:
			err = fmt.Sprintf("unterminated block: another block starts at line %d before this one's >>>>>>>", n)
			next, nextFloor = j, i+1
			break scan
		case tokNear:
			err = fmt.Sprintf("line %d %q looks like a block marker but is not one of this block's: the block is not read (a start marker is %q, an end marker %q or %q)", n, abbreviate(strings.TrimSpace(l), 60), startSearch, ">>>>>>> REPLACE", endPrefix)
		}
		st, why := stepError, ""
		if err == "" {
			if f == FormatEdit {
				st, why = editStep(state, tok, l, n)
			} else {
				st, why = searchStep(state, tok, l, n, alts)
			}
			err = why
		}
		switch st {
		case stepNext:
			state++
			continue
		case stepKeep:
			sec[state] = append(sec[state], l)
			continue
		case stepClose:
			next = j + 1
			break scan
		}
		// A structural error: skip the rest of the block, to its end
		// marker or the next start marker, so its lines are not prose.
		if err == "" {
			err = fmt.Sprintf("unexpected line %d %q", n, strings.TrimSpace(l))
		}
		if tok == tokEnd {
			next = j + 1
			break scan
		}
		next, nextFloor = p.skipBlock(j+1, j+1)
		break scan
	}
	if err != "" && next < 0 { // refused before the scan
		next, nextFloor = p.skipBlock(first, i+1)
	}
	if nextFloor < 0 {
		nextFloor = next
	}
	if next < 0 {
		next, nextFloor, err = len(p.lines), len(p.lines), "unterminated block: the reply ends before its >>>>>>>"
	}
	p.endBlock(Block{Format: f, Path: path, Line: i + 1, PathLine: pathLine, Hint: hint}, sec, pathErr, err)
	return next, nextFloor
}

// skipBlock skips the rest of a refused block from line from, to its end
// marker or the next start marker, and returns the index after it and,
// when a start marker cut it short, floor for the next block's path
// lookback (-1 otherwise).
func (p *parser) skipBlock(from, floor int) (next, nextFloor int) {
	next = p.skip(from, false)
	if next < len(p.lines) && classify(p.lines[next], stdRun) == tokStart {
		return next, floor
	}
	return next, -1
}

// unescapeLine is a block's text line l as written to its section:
// backslashes before a structural line (or before Roo Code's hint as a
// SEARCH section's first line, firstSearch) lose one, so that files
// holding such lines can be edited ("\\=======" is "=======").
func unescapeLine(l string, run int, firstSearch bool) string {
	if t := strings.TrimLeft(l, "\\"); len(t) < len(l) && (classify(t, run) != tokText || firstSearch && hintLine(t)) {
		return l[1:]
	}
	return l
}

// endBlock records the block read, b with its sections sec, or, when
// it has a path error or a structural error, a Malformed giving both.
func (p *parser) endBlock(b Block, sec [4][]string, pathErr, err string) {
	if pathErr != "" {
		if err != "" {
			err = pathErr + "; also " + err
		} else {
			err = pathErr
		}
	}
	p.prevPath, p.prevLine = "", 0
	if err != "" {
		p.res.Malformed = append(p.res.Malformed, Malformed{Line: b.Line, Format: b.Format, Path: b.Path, Reason: err})
		return
	}
	p.prevPath, p.prevLine = b.Path, b.PathLine
	if b.Format == FormatEdit {
		b.ContextBefore, b.OldLines, b.NewLines, b.ContextAfter = sec[0], sec[1], sec[2], sec[3]
	} else {
		b.OldLines, b.NewLines = sec[1], sec[2]
	}
	p.res.Blocks = append(p.res.Blocks, b)
}

// blockStep is what a marker line does to a block being read.
type blockStep int

const (
	stepError blockStep = iota // a structural error (its reason, or "unexpected line")
	stepNext                   // the next section starts
	stepKeep                   // the line is text of the current section
	stepClose                  // the block ends here (with an error when its end marker is another format's)
)

// editStep reads marker tok, line l (1-based n), of an EDIT block in
// section state (0 leading anchor, 1 old lines, 2 new lines, 3 trailing
// anchor): the sections are separated by -------, =======, ------- in that
// order and end with >>>>>>>; any other order is an error naming what is
// missing or misplaced. It is the EDIT format's transition table, read
// whole.
func editStep(state int, tok token, l string, n int) (blockStep, string) {
	switch {
	case state == 0 && tok == tokDash, state == 1 && tok == tokEqual, state == 2 && tok == tokDash:
		return stepNext, ""
	case state == 3 && tok == tokEnd:
		if v := endVariant(l); v != "" && v != "EDIT" && v != "END" {
			return stepClose, fmt.Sprintf("line %d %q does not close an EDIT block: want >>>>>>>", n, strings.TrimSpace(l))
		}
		return stepClose, ""
	case tok == tokEnd && state == 0:
		return stepError, fmt.Sprintf("missing -------: the block ends at line %d before its first ------- (an EDIT block is: leading anchor, -------, old lines, =======, new lines, -------, trailing anchor)", n)
	case tok == tokEnd && state == 1:
		return stepError, fmt.Sprintf("missing =======: the block ends at line %d before the ======= that separates old and new lines", n)
	case tok == tokEnd && state == 2:
		return stepError, fmt.Sprintf("EDIT block with only one -------: the block ends at line %d without the ------- that starts the trailing anchor (write it even when the trailing anchor is empty)", n)
	case tok == tokEqual && state == 0:
		return stepError, fmt.Sprintf("separators in the wrong order: line %d is ======= but the block's first ------- has not come yet (an EDIT block is: leading anchor, -------, old lines, =======, new lines, -------, trailing anchor)", n)
	case tok == tokDash && state == 1:
		return stepError, fmt.Sprintf("separators in the wrong order: line %d is a second ------- before the ======= that separates old and new lines", n)
	case tok == tokEqual && state == 2:
		return stepError, fmt.Sprintf("separators in the wrong order: line %d is a second =======", n)
	case tok == tokDash && state == 3:
		return stepError, fmt.Sprintf("separators in the wrong order: line %d is a third -------", n)
	case tok == tokEqual && state == 3:
		return stepError, fmt.Sprintf("separators in the wrong order: line %d is ======= after the trailing anchor's -------", n)
	}
	return stepError, ""
}

// searchStep reads marker tok, line l (1-based n), of a SEARCH/REPLACE
// block in section state (1 SEARCH, 2 REPLACE): ======= separates them,
// >>>>>>> REPLACE ends the block, and a ------- is text in either. alts
// are the lines holding runs of '=' of other lengths, named when the
// separator is missing.
func searchStep(state int, tok token, l string, n int, alts []int) (blockStep, string) {
	switch {
	case state == 1 && tok == tokDash, state == 2 && tok == tokDash:
		return stepKeep, ""
	case state == 1 && tok == tokEqual:
		return stepNext, ""
	case state == 2 && tok == tokEnd:
		if v := endVariant(l); v != "" && v != "REPLACE" {
			return stepClose, fmt.Sprintf("line %d %q does not close a SEARCH/REPLACE block: want >>>>>>> REPLACE", n, strings.TrimSpace(l))
		}
		return stepClose, ""
	case state == 1 && tok == tokEnd:
		err := fmt.Sprintf("missing =======: the block ends at line %d before the ======= that separates SEARCH and REPLACE lines", n)
		if len(alts) > 1 {
			err += fmt.Sprintf(" (lines %s are runs of '=' of other lengths, and which one separates them cannot be told)", joinInts(alts))
		}
		return stepError, err
	case state == 2 && tok == tokEqual:
		return stepError, fmt.Sprintf("separators in the wrong order: line %d is a second =======", n)
	}
	return stepError, ""
}

// altSeparator looks at the SEARCH/REPLACE block whose sections start at
// line j, up to its end marker or the next start marker: when no line is
// a separator of the standard length or of the start marker's run, and
// exactly one line is a run of 5 to 9 '=' (Cline's and Aider's
// separators of other lengths), that line is the separator; its index is
// returned, else -1. It also returns the 1-based lines of every such run,
// to explain a block that has several.
func (p *parser) altSeparator(j, run int) (int, []int) {
	var at []int
	for ; j < len(p.lines); j++ {
		p.steps++
		l := p.lines[j]
		switch classify(l, run) {
		case tokEqual:
			return -1, nil
		case tokEnd, tokStart:
			j = len(p.lines)
			continue
		}
		t := strings.TrimRight(l, " \t")
		if len(t) >= minRun && len(t) <= maxRun && isRun(t, '=', len(t)) {
			at = append(at, j+1)
		}
	}
	if len(at) == 1 {
		return at[0] - 1, at
	}
	return -1, at
}

// startLine reads Roo Code's hint at the start of a SEARCH section, line
// j: ":start_line:N", an optional ":end_line:M", then "-------". It
// returns N (0 without the hint), the index of the section's first line,
// and a reason when the hint is malformed.
func (p *parser) startLine(j int) (hint, first int, err string) {
	if j >= len(p.lines) || !hintLine(p.lines[j]) {
		return 0, j, ""
	}
	rest := strings.TrimPrefix(strings.TrimSpace(p.lines[j]), ":start_line:")
	n, _ := strconv.Atoi(strings.TrimSpace(rest))
	k := j + 1
	if k < len(p.lines) && strings.HasPrefix(strings.TrimSpace(p.lines[k]), ":end_line:") {
		k++
	}
	if k >= len(p.lines) || strings.TrimRight(p.lines[k], " \t") != dashSep {
		return 0, j, fmt.Sprintf("line %d: Roo Code's :start_line: hint must be followed by a ------- line (write \\%s for a SEARCH line that holds this text)", j+1, strings.TrimSpace(p.lines[j]))
	}
	if n < 1 {
		return 0, j, fmt.Sprintf("line %d: the start line must be a line number from 1", j+1)
	}
	return n, k + 1, ""
}

// hintLine reports whether l is Roo Code's ":start_line:N".
func hintLine(l string) bool {
	rest, ok := strings.CutPrefix(strings.TrimSpace(l), ":start_line:")
	rest = strings.TrimSpace(rest)
	return ok && rest != "" && strings.Trim(rest, "0123456789") == ""
}

// skip returns the index just after the next end marker at or after j, or
// of the next start marker, or len(lines). With indented, the lines are
// read with their indentation removed (the block of an indented start
// marker).
func (p *parser) skip(j int, indented bool) int {
	for ; j < len(p.lines); j++ {
		p.steps++
		l := p.lines[j]
		if indented {
			l = strings.TrimLeft(l, " \t")
		}
		switch classify(l, stdRun) {
		case tokEnd:
			return j + 1
		case tokStart:
			return j
		}
	}
	return j
}

// findPath finds the path line of the block whose marker is line i,
// looking no further back than floor. It returns the path and its 1-based
// line, or a reason why there is none. The path is, in order: a path on
// the block's fence line (fenceInfo), which a path line above must agree
// with; the line above the block (or its fence); the previous block's,
// when only blank and fence lines lie between (reusesPath); the
// caller's Options.Path.
func (p *parser) findPath(i, floor int) (path string, line int, reason string) {
	j := p.skipBlankAbove(i-1, floor)
	fi := fenceInfo{}
	if j >= floor {
		if _, _, info, ok := fenceLine(p.lines[j]); ok {
			fi = p.fenceInfo(info, j, floor)
			j = fi.above
		}
	}
	if fi.spaced != "" {
		// "```python src/my file.py": the path may be "src/my file.py"
		// or "file.py" after some attribute; only a path line above that
		// names the same text tells.
		if j >= floor {
			if pth, ok := cleanPath(p.lines[j]); ok && pth == fi.spaced {
				return pth, j + 1, ""
			}
		}
		return "", 0, fmt.Sprintf("path line missing: the fence on line %d names %q, which holds white space, so where its path starts cannot be told: put a path with spaces in quotes on the fence (```python \"src/my file.py\") or in backticks on the line above", fi.at, abbreviate(fi.spaced, 60))
	}
	reuse := floor > 0 && p.prevPath != "" && fi.path == "" && p.reusesPath(i, floor)
	var own string
	switch {
	case j >= floor:
		if pth, ok := cleanPath(p.lines[j]); ok {
			if fi.path != "" && pth != fi.path {
				return "", 0, fmt.Sprintf("two paths: line %d names %s and the fence on line %d names %s", j+1, pth, fi.at, fi.path)
			}
			return pth, j + 1, ""
		}
		if reuse {
			return p.prevPath, p.prevLine, ""
		}
		own = fmt.Sprintf("path line missing: line %d %q does not look like a file path", j+1, abbreviate(strings.TrimSpace(p.lines[j]), 60))
		if spacedPath(p.lines[j]) {
			own += " (a path with spaces goes in backticks or quotes: `src/my file.py`)"
		}
	case reuse:
		return p.prevPath, p.prevLine, ""
	case floor > 0:
		own = "path line missing: the block follows the previous block without its own path line"
	default:
		own = "path line missing: no line before the marker names the file"
	}
	switch {
	case fi.path != "":
		return fi.path, fi.at, ""
	case p.opt.Path != "":
		return p.opt.Path, 0, ""
	}
	return "", 0, own
}

// skipBlankAbove is the first line at or above j, from floor on, that is
// not blank, or floor-1.
func (p *parser) skipBlankAbove(j, floor int) int {
	for j >= floor && strings.TrimSpace(p.lines[j]) == "" {
		p.steps++
		j--
	}
	return j
}

// fenceInfo is what a block's fence line says of its path: a path
// (path), or text after the language that holds white space (spaced),
// which only a path line above can read; the fence's 1-based line (at);
// and the line to look for a path line at (above).
type fenceInfo struct {
	path, spaced string
	at, above    int
}

// fenceInfo reads the info string info of the block's fence line j: a
// path after the language ("```python src/x.py"), one with spaces in
// quotes ("```python "src/my file.py""), or one in place of the language
// ("```src/x.py": a language holds no "/" or "."). Above it, a path in a
// fence of its own ("```python", "x.py", "```"), as DeepSeek Coder V2
// writes it and Aider's find_filename reads it, is the path line.
func (p *parser) fenceInfo(info string, j, floor int) fenceInfo {
	var fi fenceInfo
	f := strings.Fields(info)
	switch {
	case len(f) >= 2:
		rest := strings.TrimSpace(info[len(f[0]):])
		if fp, ok := cleanPath(rest); ok && strings.ContainsAny(fp, "/.") {
			fi.path = fp
		} else if len(f) > 2 && strings.ContainsAny(f[len(f)-1], "/.") {
			fi.spaced = rest
		}
		fi.at = j + 1
	case len(f) == 1 && strings.ContainsAny(f[0], "/."):
		if fp, ok := cleanPath(f[0]); ok {
			fi.path, fi.at = fp, j+1
		}
	}
	j = p.skipBlankAbove(j-1, floor)
	if fi.path == "" && fi.spaced == "" && j-2 >= floor {
		_, _, closing, isClose := fenceLine(p.lines[j])
		_, _, _, isOpen := fenceLine(p.lines[j-2])
		if _, isPath := cleanPath(p.lines[j-1]); isClose && closing == "" && isOpen && isPath {
			j--
		}
	}
	fi.above = j
	return fi
}

// reusesPath reports whether only blank lines, fence lines without a
// path and "..." (which elides the file's lines between two blocks, as
// Aider's tests write it) lie between floor and the block's marker line
// i: then the previous block's path is this block's too (Aider's rule).
func (p *parser) reusesPath(i, floor int) bool {
	for k := floor; k < i; k++ {
		p.steps++
		_, _, info, fence := fenceLine(p.lines[k])
		t := strings.TrimSpace(p.lines[k])
		if !(t == "" || t == "..." || fence && !strings.ContainsAny(info, "/.")) {
			return false
		}
	}
	return true
}

// cleanPath strips the decoration models put around a path and reports
// whether what remains looks like a path rather than prose.
func cleanPath(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if len(s) > maxPathLen+20 { // decoration included; checked again below
		return "", false
	}
	colon, quoted := false, false
	for {
		prev := s
		s = strings.TrimSpace(s)
		if t, ok := strings.CutSuffix(s, ":"); ok {
			s, colon = t, true
		}
		// A heading ("# x.py"), or the '#' run DeepSeek Coder V2 glues
		// to a name ("#x.py"), which Aider strips too.
		if h := strings.TrimLeft(s, "#"); len(s)-len(h) <= 6 && h != s && (strings.HasPrefix(h, " ") || strings.HasPrefix(h, "\t") || startsName(strings.TrimLeft(h, "*`"))) {
			s = h
		}
		for _, b := range []string{"- ", "* ", "+ "} {
			s = strings.TrimPrefix(s, b)
		}
		// A label, maybe in bold itself: "File: ", "**File:** ".
		t := strings.TrimLeft(s, "*")
		stars := len(s) - len(t)
		for _, label := range []string{"file:", "filename:", "path:"} {
			if len(t) > len(label) && strings.EqualFold(t[:len(label)], label) {
				rest := t[len(label):]
				if stars > 0 && strings.HasPrefix(rest, s[:stars]) {
					s = rest[stars:] // the bold closes after the label
				} else {
					s = s[:stars] + rest
				}
				break
			}
		}
		for _, w := range []string{"**", "*", "`", "'", `"`} {
			if len(s) >= 2*len(w) && strings.HasPrefix(s, w) && strings.HasSuffix(s, w) {
				s = s[len(w) : len(s)-len(w)]
				quoted = w != "**" && w != "*"
			}
		}
		if s == prev {
			break
		}
	}
	// Backticks and stars left on one side only (DeepSeek Coder V2's
	// "**x.py", "`x.py"), stripped as Aider strips them; a name so
	// unbalanced is never one with spaces.
	if t := strings.Trim(s, "`*"); t != s && startsName(t) {
		s, quoted = strings.TrimRight(t, ":"), false
		colon = colon || len(s) < len(t)
	}
	// Spaces only inside backticks or quotes, and not at either end: a
	// bare line with spaces is as likely prose ("Update the file x.py")
	// as a path.
	spaced := quoted && strings.ContainsAny(s, "/.") && strings.TrimSpace(s) == s &&
		strings.IndexFunc(s, func(r rune) bool { return r != ' ' && unicode.IsSpace(r) }) < 0
	switch {
	case s == "", len(s) > maxPathLen, strings.HasSuffix(s, "."),
		!spaced && strings.IndexFunc(s, unicode.IsSpace) >= 0,
		strings.ContainsAny(s, "`*<>|\""),
		strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0,
		colon && !strings.ContainsAny(s, "/."):
		return "", false
	}
	return s, true
}

// startsName reports whether s starts as a file name may: with a letter,
// a digit, '.', '_' or '/'.
func startsName(s string) bool {
	return s != "" && (unicode.IsLetter(rune(s[0])) || unicode.IsDigit(rune(s[0])) || strings.IndexByte("._/", s[0]) >= 0 || s[0] >= 0x80)
}

// spacedPath reports whether the line l would be a path but for the
// spaces in it (bare "src/my file.py"), so that the refusal can say how
// to write one.
func spacedPath(l string) bool {
	t := strings.TrimSpace(l)
	_, ok := cleanPath(strings.ReplaceAll(t, " ", "_"))
	return ok && strings.Contains(t, " ") && strings.ContainsAny(t, "/.") && !strings.HasSuffix(t, ":")
}

// fenceLine reports whether l opens or closes a Markdown code fence: up to
// three spaces, then three or more backticks or tildes. It returns the
// fence character, its width and the info string.
func fenceLine(l string) (char byte, width int, info string, ok bool) {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return 0, 0, "", false
	}
	char = t[0]
	for width < len(t) && t[width] == char {
		width++
	}
	if width < 3 {
		return 0, 0, "", false
	}
	info = strings.TrimSpace(t[width:])
	if char == '`' && strings.Contains(info, "`") {
		return 0, 0, "", false
	}
	return char, width, info, true
}

var shellLanguages = map[string]bool{"sh": true, "bash": true, "shell": true, "zsh": true, "console": true}

// prose handles line i outside any block: code fences and shell
// suggestions.
func (p *parser) prose(i int) {
	l := p.lines[i]
	if char, width, info, ok := fenceLine(l); ok {
		switch {
		case !p.fence.open:
			lang, _, _ := strings.Cut(info, " ")
			p.fence = fence{open: true, char: char, width: width, shell: shellLanguages[strings.ToLower(lang)], at: i}
			return
		case char == p.fence.char && width >= p.fence.width && info == "":
			p.fence = fence{}
			return
		}
	}
	switch {
	case p.fence.open && p.fence.shell:
		if c, ok := shellCommand(l); ok {
			p.res.Shell = append(p.res.Shell, ShellSuggestion{Line: i + 1, Command: c})
		}
	case !p.fence.open:
		for _, span := range codeSpans(l, &p.steps) {
			if c, ok := shellCommand(span); ok {
				p.res.Shell = append(p.res.Shell, ShellSuggestion{Line: i + 1, Command: c})
			}
		}
	}
}

// codeSpans returns the contents of the inline code spans of a line: a run
// of n backticks up to the next run of exactly n. It runs in linear time:
// each run length has a queue of its runs, and a queue is only read
// forward. It adds to *steps the runs it looked at.
func codeSpans(l string, steps *int) []string {
	if strings.IndexByte(l, '`') < 0 {
		return nil
	}
	type run struct{ start, n int }
	var runs []run
	byLen := map[int][]int{} // run length -> indexes into runs, in order
	for i := 0; i < len(l); {
		if l[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(l) && l[j] == '`' {
			j++
		}
		*steps++
		byLen[j-i] = append(byLen[j-i], len(runs))
		runs = append(runs, run{i, j - i})
		i = j
	}
	var out []string
	read := map[int]int{} // run length -> position in its queue
	for r := 0; r < len(runs); {
		n := runs[r].n
		q, k := byLen[n], read[n]
		*steps++
		for k < len(q) && q[k] <= r {
			*steps++
			k++
		}
		read[n] = k
		if k == len(q) {
			r++ // no closing run: the backticks are literal
			continue
		}
		closing := q[k]
		out = append(out, l[runs[r].start+n:runs[closing].start])
		r = closing + 1
	}
	return out
}

// shellCommand reports whether s, a code span or a line of a shell fence,
// is one of the file commands symedit lists.
func shellCommand(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if t, ok := strings.CutPrefix(s, "$ "); ok {
		s = strings.TrimSpace(t)
	}
	f := strings.Fields(s)
	switch {
	case len(f) >= 3 && f[0] == "git" && (f[1] == "rm" || f[1] == "mv"):
	case len(f) >= 2 && (f[0] == "rm" || f[0] == "rmdir" || f[0] == "mv" || f[0] == "cp" || f[0] == "touch" || f[0] == "mkdir"):
	default:
		return "", false
	}
	return s, true
}

// abbreviate cuts s to n runes, then white space, and adds "...".
func abbreviate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimRight(string(r[:n]), " \t") + "..."
}

// String formats the block as Parse reads it: the path line, the start
// marker, the sections and separators, and the end marker (">>>>>>>" for an
// EDIT block, ">>>>>>> REPLACE" for a SEARCH/REPLACE block or a hunk, which
// is written as a SEARCH/REPLACE block), each line ending in LF; an Insert
// block, which no SEARCH/REPLACE block can say, as an apply_patch patch. Parse(b.String()) gives b back (but for Line and PathLine)
// when Path is a path by Parse's rules and no line of the block is a
// structural line (a separator, a start marker, a line starting with
// >>>>>>>, or a line at column 1 that looks like a marker; "-------" is
// fine in a SEARCH/REPLACE block) or holds a CR or LF.
func (b Block) String() string {
	var s strings.Builder
	w := func(ls ...string) {
		for _, l := range ls {
			s.WriteString(l)
			s.WriteByte('\n')
		}
	}
	// esc writes section lines, a backslash before each that Parse would
	// read as structural (or that starts with a backslash before one).
	esc := func(ls ...string) {
		for _, l := range ls {
			if t := strings.TrimLeft(l, "\\"); classify(t, stdRun) != tokText {
				s.WriteByte('\\')
			}
			s.WriteString(l)
			s.WriteByte('\n')
		}
	}
	if b.Insert {
		// No SEARCH/REPLACE block says "insert after these lines": the
		// apply_patch hunk it came from does.
		w(patchBegin, patchUpdate+" "+b.Path)
		if b.MoveTo != "" {
			w(patchMove + " " + b.MoveTo)
		}
		if len(b.Scope) == 0 {
			w("@@")
		}
		for _, sc := range b.Scope {
			w("@@ " + sc)
		}
		for _, l := range b.NewLines {
			w("+" + l)
		}
		w(patchEnd)
		return s.String()
	}
	if strings.Contains(b.Path, " ") {
		w("`" + b.Path + "`") // a path with spaces is read only in backticks
	} else {
		w(b.Path)
	}
	if !b.anchored() {
		w(startSearch)
		if len(b.OldLines) > 0 && hintLine(strings.TrimLeft(b.OldLines[0], "\\")) {
			s.WriteByte('\\') // not Roo Code's hint: the line itself
		}
		esc(b.OldLines...)
		w(equalSep)
		esc(b.NewLines...)
		w(">>>>>>> REPLACE")
		return s.String()
	}
	w(startEdit)
	esc(b.ContextBefore...)
	w(dashSep)
	esc(b.OldLines...)
	w(equalSep)
	esc(b.NewLines...)
	w(dashSep)
	esc(b.ContextAfter...)
	w(endPrefix)
	return s.String()
}
