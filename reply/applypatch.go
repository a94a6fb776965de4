package reply

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Codex apply_patch's structural lines.
const (
	patchBegin  = "*** Begin Patch"
	patchEnd    = "*** End Patch"
	patchAdd    = "*** Add File:"
	patchDelete = "*** Delete File:"
	patchUpdate = "*** Update File:"
	patchMove   = "*** Move to:"
	patchEOF    = "*** End of File"
)

// isPatchStart reports whether the trimmed line t starts an apply_patch
// patch: its Begin line, or a file line without one before it.
func isPatchStart(t string) bool {
	return t == patchBegin || strings.HasPrefix(t, patchUpdate) || strings.HasPrefix(t, patchAdd) || strings.HasPrefix(t, patchDelete)
}

// patch reads a Codex apply_patch patch that starts at line i: to its
// "*** End Patch" line, or up to the next start marker or the end of the
// reply. An added file is a create block, a deleted file a Delete block,
// each hunk of an updated file a Block of FormatApplyPatch (with MoveTo
// for a moved file; a move without hunks is one FileOnly block); what
// apply cannot do is a Malformed. It
// returns the index of the first line after the patch. See the package
// documentation.
func (p *parser) patch(i int) int {
	j := i
	begun := strings.TrimSpace(p.lines[j]) == patchBegin
	if begun {
		j++
	}
	bad := func(line int, path, reason string) {
		m := Malformed{Line: line, Format: FormatApplyPatch, Path: path, Reason: reason}
		if path != "" {
			m.Paths = []string{path}
		}
		p.res.Malformed = append(p.res.Malformed, m)
	}
	for j < len(p.lines) {
		p.steps++
		l := p.lines[j]
		t := strings.TrimSpace(l)
		if t == patchEnd {
			return j + 1
		}
		if _, _, ok := startMarker(l); ok {
			bad(i+1, "", fmt.Sprintf("the apply_patch patch on line %d has no %q line before the block on line %d", i+1, patchEnd, j+1))
			return j
		}
		switch {
		case strings.HasPrefix(t, patchAdd):
			path := strings.TrimSpace(strings.TrimPrefix(t, patchAdd))
			b := Block{Format: FormatApplyPatch, Path: path, Line: j + 1, PathLine: j + 1}
			k := j + 1
			for ; k < len(p.lines) && strings.HasPrefix(p.lines[k], "+"); k++ {
				p.steps++
				b.NewLines = append(b.NewLines, p.lines[k][1:])
			}
			if path == "" {
				bad(j+1, "", fmt.Sprintf("line %d %q names no file", j+1, t))
			} else {
				p.res.Blocks = append(p.res.Blocks, b)
			}
			j = k
		case strings.HasPrefix(t, patchDelete):
			path := strings.TrimSpace(strings.TrimPrefix(t, patchDelete))
			if path == "" {
				bad(j+1, "", fmt.Sprintf("line %d %q names no file", j+1, t))
			} else {
				p.res.Blocks = append(p.res.Blocks, Block{Format: FormatApplyPatch, Path: path, Line: j + 1, PathLine: j + 1, Delete: true})
			}
			j++
		case strings.HasPrefix(t, patchUpdate):
			j = p.patchUpdate(j, strings.TrimSpace(strings.TrimPrefix(t, patchUpdate)), bad)
		case t == "":
			j++
		case !begun:
			return j // a patch without its Begin line ends at the first other line
		default:
			bad(i+1, "", fmt.Sprintf("line %d %q is not a line of an apply_patch patch (%s, %s, %s, %s, %s)",
				j+1, abbreviate(t, 60), patchAdd, patchDelete, patchUpdate, patchEnd, "hunk lines"))
			return p.skipTo(j, patchEnd)
		}
	}
	if begun {
		bad(i+1, "", fmt.Sprintf("the apply_patch patch on line %d has no %q line: the reply ends first", i+1, patchEnd))
	}
	return j
}

// isPatchMarker reports whether the trimmed line t is one of apply_patch's
// structural lines.
func isPatchMarker(t string) bool {
	return t == patchBegin || t == patchEnd || t == patchEOF || isPatchStart(t) || strings.HasPrefix(t, patchMove)
}

// paddedEnd reports whether line k is "*** End Patch" padded with spaces
// and no line of the patch follows it: the patch's end, as Codex reads its
// last line.
func (p *parser) paddedEnd(k int) bool {
	l := p.lines[k]
	return l != "" && l[0] == ' ' && strings.TrimSpace(l) == patchEnd && !p.patchContinues(k+1)
}

// patchContinues reports whether a line of a patch follows, at index k or
// after blank lines: a hunk line, an "@@" line or a "*** " line.
func (p *parser) patchContinues(k int) bool {
	for ; k < len(p.lines) && strings.TrimSpace(p.lines[k]) == ""; k++ {
		p.steps++
	}
	if k == len(p.lines) {
		return false
	}
	l := p.lines[k]
	return hunkLine(l) || strings.HasPrefix(l, "@@") || strings.HasPrefix(strings.TrimSpace(l), "*** ")
}

// skipTo returns the index after the next line at or after j whose
// trimmed form is end, or before the next start marker, or len(lines).
func (p *parser) skipTo(j int, end string) int {
	for ; j < len(p.lines); j++ {
		p.steps++
		if strings.TrimSpace(p.lines[j]) == end {
			return j + 1
		}
		if _, _, ok := startMarker(p.lines[j]); ok {
			return j
		}
	}
	return j
}

// patchUpdate reads the "*** Update File: path" section whose line is j:
// an optional "*** Move to:" line (every block gets its path as MoveTo),
// then hunks (none for a move), each opened by "@@" or
// "@@ context" lines (the first may omit it), of lines starting with a
// space, '-' or '+' (an empty line is an empty context line), the last
// maybe followed by "*** End of File". It returns the index after the
// section.
func (p *parser) patchUpdate(j int, path string, bad func(line int, path, reason string)) int {
	fileLine := j + 1
	j++
	ok := path != ""
	if !ok {
		bad(fileLine, "", fmt.Sprintf("line %d %q names no file", fileLine, patchUpdate))
	}
	moveTo := ""
	if j < len(p.lines) && strings.HasPrefix(strings.TrimSpace(p.lines[j]), patchMove) {
		moveTo = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(p.lines[j]), patchMove))
		if moveTo == "" {
			bad(j+1, path, fmt.Sprintf("line %d %q names no file", j+1, patchMove))
			ok = false
		}
		j++
	}
	var blocks []Block
	var hunkErrs []string
	hunks := 0
	for j < len(p.lines) {
		p.steps++
		t := strings.TrimSpace(p.lines[j])
		if strings.HasPrefix(t, "*** ") && t != patchEOF {
			break // the next file, or the end of the patch
		}
		if !strings.HasPrefix(p.lines[j], "@@") && !hunkLine(p.lines[j]) {
			break // a blank or other line ends the file's hunks
		}
		var b Block
		var errs []string
		b, j, errs = p.patchHunk(Block{Format: FormatApplyPatch, Path: path, Line: j + 1, PathLine: fileLine, MoveTo: moveTo}, j)
		hunkErrs = append(hunkErrs, errs...)
		hunks++
		blocks = append(blocks, b)
	}
	if len(hunkErrs) > 0 && path != "" {
		bad(fileLine, path, strings.Join(hunkErrs, "; "))
		ok = false
	}
	if hunks == 0 && ok && moveTo != "" {
		// A move without hunks: the file moves as it is.
		blocks = append(blocks, Block{Format: FormatApplyPatch, Path: path, Line: fileLine, PathLine: fileLine, MoveTo: moveTo})
	} else if hunks == 0 && ok {
		bad(fileLine, path, fmt.Sprintf("line %d updates %s with no hunk", fileLine, path))
		ok = false
	}
	if ok {
		p.res.Blocks = append(p.res.Blocks, blocks...)
	}
	return j
}

// Codex's commands that read a patch (apply_patch and its alias).
var patchCommands = map[string]bool{"apply_patch": true, "applypatch": true}

// patchHunk reads the hunk of an updated file that starts at line j
// into b: its "@@" lines (their text is its Scope), its lines, and a
// "*** End of File" after them (AtEnd). It returns the hunk, the index
// after it, and why it cannot be read: an empty hunk, a padded marker
// inside it, an insertion placed both by @@ lines and by the end of the
// file. A hunk that only adds lines is an Insert.
func (p *parser) patchHunk(b Block, j int) (Block, int, []string) {
	var errs []string
	for j < len(p.lines) && strings.HasPrefix(p.lines[j], "@@") {
		p.steps++
		if scope := strings.TrimSpace(strings.TrimPrefix(p.lines[j], "@@")); scope != "" {
			b.Scope = append(b.Scope, scope)
		}
		j++
	}
	start := j
	for ; j < len(p.lines); j++ {
		p.steps++
		l := p.lines[j]
		if l != "" && l[0] != ' ' && l[0] != '-' && l[0] != '+' {
			break
		}
		if t := strings.TrimSpace(l); l != "" && l[0] == ' ' && isPatchMarker(t) {
			// A marker padded with spaces, or a context line holding
			// a marker's text. Codex reads the patch's last line as
			// its end whatever its padding: so does a padded "***
			// End Patch" that no line of the patch follows. Any
			// other reading would be a guess.
			if p.paddedEnd(j) {
				break
			}
			errs = append(errs, fmt.Sprintf("line %d %q is a patch marker padded with spaces or a context line holding a marker's text, which cannot be told apart inside a hunk: write markers at column 1", j+1, abbreviate(l, 60)))
		}
		if l == "" && !p.patchLinesFollow(j) {
			break
		}
		kind, text := byte(' '), ""
		if l != "" {
			kind, text = l[0], l[1:]
		}
		if kind != '+' {
			b.OldLines = append(b.OldLines, text)
		}
		if kind != '-' {
			b.NewLines = append(b.NewLines, text)
		}
	}
	if j < len(p.lines) && strings.TrimSpace(p.lines[j]) == patchEOF {
		b.AtEnd = true
		j++
	}
	switch {
	case j == start:
		errs = append(errs, fmt.Sprintf("the hunk on line %d has no lines: a hunk is \"@@\" or \"@@ context line\", then lines starting with a space, '-' or '+'", b.Line))
	case len(b.OldLines) == 0 && b.AtEnd && len(b.Scope) > 0:
		errs = append(errs, fmt.Sprintf("the hunk on line %d only adds lines, and both its @@ line(s) and *** End of File say where, which disagree: give it one of them", b.Line))
	case len(b.OldLines) == 0:
		// Only added lines: Codex appends them to the file, or, with
		// @@ lines, inserts them right after those lines.
		b.Insert = true
	}
	return b, j, errs
}

// patchLinesFollow reports whether the empty line j of a hunk is an
// empty context line: hunk lines follow it and the blank lines after it,
// not the patch's padded end. Otherwise the hunk has ended.
func (p *parser) patchLinesFollow(j int) bool {
	k := j
	for k < len(p.lines) && p.lines[k] == "" {
		k++
	}
	return k < len(p.lines) && hunkLine(p.lines[k]) && !p.paddedEnd(k)
}

// shellWord is a word or an operator of a shell line, split as a POSIX
// shell splits it, nothing expanded.
type shellWord struct {
	text   string // the word with its quoting removed, or the operator
	raw    string // the word or operator as written
	op     bool   // an operator: && || ; | & << <<- < > ...
	expand string // the first expansion the shell would make in the word ($, `, ~, *, ?, [ or {), or ""
}

// shellOps are the shell's operators, longest first.
var shellOps = []string{"<<-", "<<<", "&&", "||", ";;", "<<", ">>", "<&", ">&", "<>", ">|", "&", "|", ";", "<", ">", "(", ")"}

// shellWords splits the line l into words and operators as a POSIX shell
// does: blanks separate words, single quotes keep every byte, double
// quotes keep every byte but a backslash before $ ` " or \, an unquoted
// backslash keeps the byte after it, and an unquoted '#' that starts a
// word starts a comment, which ends the line. Nothing is expanded; each
// word records the first expansion the shell would make in it. It
// returns a reason for a quote left open.
func shellWords(l string) ([]shellWord, string) {
	var out []shellWord
	i := 0
	for i < len(l) {
		c := l[i]
		if c == ' ' || c == '\t' {
			i++
			continue
		}
		if c == '#' {
			break
		}
		if op := shellOp(l[i:]); op != "" {
			out = append(out, shellWord{text: op, raw: op, op: true})
			i += len(op)
			continue
		}
		w, next, why := readShellWord(l, i)
		if why != "" {
			return nil, why
		}
		out = append(out, w)
		i = next
	}
	return out, ""
}

// shellOp is the shell operator s starts with, the longest one, or "".
func shellOp(s string) string {
	for _, o := range shellOps {
		if strings.HasPrefix(s, o) {
			return o
		}
	}
	return ""
}

// readShellWord reads the word of l that starts at byte start, up to a
// blank or an operator outside quotes, and returns it, the index after
// it, and a reason for a quote left open.
func readShellWord(l string, start int) (shellWord, int, string) {
	var w shellWord
	var text strings.Builder
	note := func(e string) { // the first expansion the shell would make
		if w.expand == "" {
			w.expand = e
		}
	}
	i := start
word:
	for i < len(l) {
		c := l[i]
		switch {
		case c == ' ' || c == '\t' || strings.IndexByte("&|;<>()", c) >= 0:
			break word
		case c == '\'':
			end := strings.IndexByte(l[i+1:], '\'')
			if end < 0 {
				return w, i, fmt.Sprintf("its single quote at byte %d is never closed", i+1)
			}
			text.WriteString(l[i+1 : i+1+end])
			i += end + 2
		case c == '"':
			next, ok := doubleQuoted(l, i+1, &text, note)
			if !ok {
				return w, next, fmt.Sprintf("its double quote at byte %d is never closed", start+1)
			}
			i = next
		case c == '\\':
			if i+1 < len(l) {
				text.WriteByte(l[i+1])
			}
			i += 2
		default:
			switch {
			case c == '$' || c == '`' || c == '*' || c == '?' || c == '[' || c == '{':
				note(string(c))
			case c == '~' && i == start:
				note("~")
			}
			text.WriteByte(c)
			i++
		}
	}
	w.text, w.raw = text.String(), l[start:min(i, len(l))]
	return w, i, ""
}

// doubleQuoted reads the inside of a double-quoted string of l from byte
// i, after its opening quote, into text: every byte but a backslash
// before $ ` " or \, with note told of the expansions ($, `) the shell
// would make. It returns the index after the closing quote, and false
// when there is none.
func doubleQuoted(l string, i int, text *strings.Builder, note func(string)) (int, bool) {
	for i < len(l) {
		d := l[i]
		if d == '"' {
			return i + 1, true
		}
		if d == '\\' && i+1 < len(l) && strings.IndexByte("$`\"\\", l[i+1]) >= 0 {
			text.WriteByte(l[i+1])
			i += 2
			continue
		}
		if d == '$' || d == '`' {
			note(string(d))
		}
		text.WriteByte(d)
		i++
	}
	return i, false
}

// rawWords is the words and operators as written, joined by spaces.
func rawWords(ws []shellWord) string {
	s := make([]string, len(ws))
	for i, w := range ws {
		s[i] = w.raw
	}
	return strings.Join(s, " ")
}

// heredoc is the shell line that feeds a patch to apply_patch, as Codex
// models write it: "apply_patch <<'EOF'" or "cd DIR && apply_patch
// <<'EOF'" (or "cd DIR; ..."), the patch's lines, then the line EOF.
type heredoc struct {
	line  int    // 0-based index of the shell line
	delim string // the word of the line that ends the heredoc
	dir   string // the folder a cd before apply_patch names, or ""
}

// readHeredoc reads line i when it holds a heredoc redirection ("<<"):
// isHeredoc is false when it holds none. The line may start with a "$ "
// prompt. A line that does more than Codex's two forms, or whose cd
// folder the shell would expand, has a reason it is refused, naming what
// it runs; nothing on it is ignored.
func (p *parser) readHeredoc(i int) (h heredoc, isHeredoc bool, reason string) {
	t := strings.TrimSpace(p.lines[i])
	if u, ok := strings.CutPrefix(t, "$ "); ok {
		t = strings.TrimSpace(u)
	}
	p.steps++
	n := i + 1
	ws, bad := shellWords(t)
	if bad != "" {
		if !strings.Contains(t, "<<") {
			return heredoc{}, false, ""
		}
		return heredoc{}, true, fmt.Sprintf("line %d %q cannot be read as a shell line: %s", n, abbreviate(t, 80), bad)
	}
	k := slices.IndexFunc(ws, func(w shellWord) bool { return w.op && (w.text == "<<" || w.text == "<<-") })
	if k < 0 {
		return heredoc{}, false, ""
	}
	h.line = i
	refuse := func(format string, args ...any) (heredoc, bool, string) {
		return heredoc{}, true, fmt.Sprintf("line %d %q ", n, abbreviate(t, 80)) + fmt.Sprintf(format, args...) +
			": symedit reads only \"apply_patch <<'EOF'\" and \"cd DIR && apply_patch <<'EOF'\" (or \"cd DIR; apply_patch <<'EOF'\") before a patch and runs no command, so the patch is not applied"
	}
	pre, after := ws[:k], ws[k+1:]
	switch {
	case ws[k].text == "<<-":
		return refuse("feeds the patch through \"<<-\", which strips the tabs that start its lines")
	case len(after) == 0 || after[0].op:
		return refuse("names no word that ends the heredoc")
	case len(after) > 1:
		return refuse("runs %q after the heredoc", rawWords(after[1:]))
	}
	h.delim = after[0].text
	// pre is [apply_patch] or [cd DIR sep apply_patch].
	np := len(pre)
	cut := np // the last command's first word
	for cut > 0 && !pre[cut-1].op {
		cut--
	}
	last := pre[cut:]
	switch {
	case np == 0:
		return refuse("feeds the heredoc to no command")
	case len(last) > 0 && patchCommands[last[0].text] && len(last) > 1:
		return refuse("runs apply_patch with the arguments %q", rawWords(last[1:]))
	case len(last) != 1 || !patchCommands[last[0].text]:
		return refuse("feeds the heredoc to %q, not to apply_patch", rawWords(pre))
	case np == 1:
		return h, true, ""
	}
	cmd, sep := pre[:np-2], pre[np-2]
	switch {
	case len(cmd) == 0:
		return refuse("runs %q before apply_patch", rawWords(pre[:np-1]))
	case cmd[0].text != "cd" || slices.ContainsFunc(cmd, func(w shellWord) bool { return w.op }):
		return refuse("runs %q before apply_patch", rawWords(cmd))
	case sep.text != "&&" && sep.text != ";":
		return refuse("joins cd and apply_patch with %q", sep.text)
	case len(cmd) == 1:
		return refuse("runs cd without a folder, which goes to the home folder")
	case len(cmd) > 2 || strings.HasPrefix(cmd[1].text, "-"):
		return refuse("runs %q, with options or more than one folder", rawWords(cmd))
	case cmd[1].expand != "":
		return refuse("runs cd to %s, which holds the shell expansion %q that symedit does not expand", cmd[1].raw, cmd[1].expand)
	case cmd[1].text == "":
		return refuse("runs cd to an empty folder name")
	}
	h.dir = cmd[1].text
	return h, true, ""
}

// cdLine reports whether line l is a shell cd to a folder: "cd" and one
// word, then nothing or an operator (a "$ " prompt allowed).
func cdLine(l string) bool {
	t := strings.TrimSpace(l)
	if u, ok := strings.CutPrefix(t, "$ "); ok {
		t = u
	}
	ws, bad := shellWords(t)
	return bad == "" && len(ws) >= 2 && ws[0].text == "cd" && !ws[1].op && (len(ws) == 2 || ws[2].op)
}

// inDir is the path p of a patch run in the folder dir (a cd before
// apply_patch): dir, cleaned as the shell's cd does, then p; p itself
// when it is absolute or dir is ".". The caller confines it to the root.
func inDir(dir, p string) string {
	if dir == "" || p == "" || path.IsAbs(p) {
		return p
	}
	d := path.Clean(dir)
	if d == "." {
		return p
	}
	return strings.TrimSuffix(d, "/") + "/" + p
}

// wrappedPatch reads the apply_patch patch that starts at line i (see
// patch) with the shell lines around it, looking no further back than
// floor: Codex's heredoc ("apply_patch <<'EOF'", maybe after "cd DIR &&"
// or "cd DIR;") on the line above it and the line ending the heredoc
// after it, and, in a code fence that holds the heredoc or is a shell's,
// the fence's other lines. A cd makes every path of the patch, move
// targets included, relative to its folder (the caller confines them to
// the root). Any other command, a cd on a line of its own and a heredoc
// left open make the patch one Malformed at its first line, naming the
// line, with every file it names in Paths, so that nothing the shell
// would have run is silently left out. It returns the index of the first
// line after the patch (and after the line ending its heredoc).
func (p *parser) wrappedPatch(i, floor int) int {
	nb, nm := len(p.res.Blocks), len(p.res.Malformed)
	lo := floor
	if p.fence.open && p.fence.at+1 > lo {
		lo = p.fence.at + 1
	}
	reason := ""
	var h heredoc
	wrapped := false
	top := i // the first line of the patch with its heredoc line
	if k := p.nonBlankAbove(i-1, lo); k >= lo {
		h, wrapped, reason = p.readHeredoc(k)
		if wrapped {
			top = k
		}
	}
	shell := wrapped || p.fence.open && p.fence.shell
	if reason == "" {
		reason = p.shellBefore(lo, top, shell)
	}
	next := p.patch(i)
	broken := slices.ContainsFunc(p.res.Malformed[nm:], func(m Malformed) bool { return m.Line == i+1 })
	if wrapped && reason == "" && !broken { // a broken patch says why itself
		next, reason = p.heredocEnd(next, h)
	}
	if shell && p.fence.open && reason == "" {
		reason = p.shellAfter(next)
	}
	if reason == "" {
		p.patchInDir(nb, nm, h.dir)
		return next
	}
	p.refusePatch(i, nb, nm, h.dir, reason)
	return next
}

// nonBlankAbove is the first line at or above k that is not blank, or
// lo-1 when none is, from lo on.
func (p *parser) nonBlankAbove(k, lo int) int {
	for ; k >= lo && strings.TrimSpace(p.lines[k]) == ""; k-- {
		p.steps++
	}
	return k
}

// shellBefore says why the lines before a patch whose first line (its
// heredoc line included) is top, from lo on, keep it from applying: in a
// fence, a cd on a line of its own, or, in a shell's fence (shell), any
// command; outside a fence, a cd on the line above. "" when none does.
func (p *parser) shellBefore(lo, top int, shell bool) string {
	const cdAlone = "line %d %q changes the folder on a line of its own before the patch: write \"cd DIR && apply_patch <<'EOF'\", so the folder is read with the patch; the patch is not applied"
	if !p.fence.open {
		if k := p.nonBlankAbove(top-1, lo); k >= lo && cdLine(p.lines[k]) {
			return fmt.Sprintf(cdAlone, k+1, abbreviate(strings.TrimSpace(p.lines[k]), 80))
		}
		return ""
	}
	// The fence's lines before the patch: in a shell's fence each is a
	// command run before it.
	for j := lo; j < top; j++ {
		p.steps++
		t := strings.TrimSpace(p.lines[j])
		switch {
		case t == "" || strings.HasPrefix(t, "#"):
		case cdLine(t):
			return fmt.Sprintf(cdAlone, j+1, abbreviate(t, 80))
		case shell:
			return fmt.Sprintf("line %d %q runs a command before the patch in the same shell script: symedit runs no command, so the patch is not applied", j+1, abbreviate(t, 80))
		}
	}
	return ""
}

// heredocEnd finds the line that ends heredoc h after the patch, whose
// next line is next: it returns the index after it, or, when the line
// after the patch (blank lines aside) is not h's delimiter, next and why
// the patch is not applied.
func (p *parser) heredocEnd(next int, h heredoc) (int, string) {
	k := next
	for ; k < len(p.lines) && strings.TrimSpace(p.lines[k]) == ""; k++ {
		p.steps++
	}
	switch {
	case k < len(p.lines) && strings.TrimRight(p.lines[k], " \t") == h.delim:
		return k + 1, ""
	case k < len(p.lines) && strings.HasPrefix(strings.TrimSpace(p.lines[k]), h.delim):
		return next, fmt.Sprintf("line %d %q is not the line %q that ends the heredoc of line %d: it runs more, so the patch is not applied", k+1, abbreviate(strings.TrimSpace(p.lines[k]), 80), h.delim, h.line+1)
	}
	return next, fmt.Sprintf("the heredoc of line %d has no line %q after the patch, so the shell would read on: the patch is not applied", h.line+1, h.delim)
}

// shellAfter says why a line of a shell's fence after the patch, from
// next up to the fence's closing line or the next patch or block, keeps
// the patch from applying: any command there; "" when there is none.
func (p *parser) shellAfter(next int) string {
	for k := next; k < len(p.lines); k++ {
		p.steps++
		l := p.lines[k]
		t := strings.TrimSpace(l)
		if c, w, info, ok := fenceLine(l); ok && c == p.fence.char && w >= p.fence.width && info == "" {
			return ""
		}
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if _, _, ok := startMarker(l); ok || isPatchStart(t) {
			return ""
		}
		if _, isH, _ := p.readHeredoc(k); isH {
			return ""
		}
		return fmt.Sprintf("line %d %q runs a command after the patch in the same shell script: symedit runs no command, so the patch is not applied", k+1, abbreviate(t, 80))
	}
	return ""
}

// patchInDir makes the paths of the patch's blocks (from index nb) and
// Malformeds (from nm), move targets included, relative to dir, the
// folder its cd names.
func (p *parser) patchInDir(nb, nm int, dir string) {
	for b := nb; b < len(p.res.Blocks); b++ {
		p.res.Blocks[b].Path = inDir(dir, p.res.Blocks[b].Path)
		p.res.Blocks[b].MoveTo = inDir(dir, p.res.Blocks[b].MoveTo)
	}
	for m := nm; m < len(p.res.Malformed); m++ {
		mm := &p.res.Malformed[m]
		mm.Path = inDir(dir, mm.Path)
		for x := range mm.Paths {
			mm.Paths[x] = inDir(dir, mm.Paths[x])
		}
	}
}

// refusePatch replaces the blocks of the patch at line i (from index nb)
// by one Malformed at its first line, for reason, naming every file of
// the patch in dir (the patch's own Malformed at that line merged in, its
// later ones kept).
func (p *parser) refusePatch(i, nb, nm int, dir, reason string) {
	var paths []string
	add := func(ps ...string) {
		for _, q := range ps {
			if q = inDir(dir, q); q != "" && !slices.Contains(paths, q) {
				paths = append(paths, q)
			}
		}
	}
	for _, b := range p.res.Blocks[nb:] {
		add(b.Path, b.MoveTo)
	}
	var later []Malformed // the patch's own, after its first line
	for _, m := range p.res.Malformed[nm:] {
		add(m.Path)
		add(m.Paths...)
		if m.Line == i+1 {
			reason += "; also " + m.Reason
			continue
		}
		m.Path = inDir(dir, m.Path)
		for x := range m.Paths {
			m.Paths[x] = inDir(dir, m.Paths[x])
		}
		later = append(later, m)
	}
	m := Malformed{Line: i + 1, Format: FormatApplyPatch, Reason: reason, Paths: paths}
	if len(paths) > 0 {
		m.Path = paths[0]
	}
	p.res.Blocks = p.res.Blocks[:nb]
	p.res.Malformed = append(append(p.res.Malformed[:nm], m), later...)
}
