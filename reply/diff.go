package reply

import (
	"fmt"
	pathpkg "path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// hunkHeader is a numbered hunk header: @@ -l[,s] +l[,s] @@ and any text.
var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// diff reads the unified diff for one file whose --- header is line i
// (followed by its +++ header and an @@ line): each hunk becomes a Block
// of FormatUnifiedDiff, or a Malformed. It returns the index of the first
// line after the file's last hunk. See the package documentation.
func (p *parser) diff(i int) int {
	f := p.diffFile(i)
	j := i + 2
	hunks, emptyOld := 0, 0
	for j < len(p.lines) && strings.HasPrefix(p.lines[j], "@@") {
		p.steps++
		b, next, sh, err := p.hunk(j)
		hunks++
		if err != "" && f.err == "" {
			f.bad(p, j+1, err)
		} else if f.err == "" {
			p.diffHunk(&f, b, sh, j, hunks, &emptyOld)
		}
		j = next
	}
	if f.err != "" {
		f.bad(p, i+1, f.err)
	}
	return j
}

// diffFile is what a unified diff's --- and +++ lines say of its file,
// with the rename and "diff --git" lines before them: the path its hunks
// apply to and the reply line that names it, whether the diff creates or
// deletes the file (and which line says so), the name it moves the file
// to, the two names of an edited copy (PathChoices), git's modes, and err,
// why none of its hunks can be read as blocks.
type diffFile struct {
	path                 string
	pathLine             int
	create, deleting     bool
	createWhy, deleteWhy string
	moveTo               string
	choices              []string
	gh                   *gitHead
	err                  string
}

// bad records a Malformed of the diff's file at 1-based reply line line.
func (f *diffFile) bad(p *parser, line int, reason string) {
	paths := []string{f.path}
	if f.choices != nil {
		paths = f.choices
	}
	p.res.Malformed = append(p.res.Malformed, Malformed{Line: line, Format: FormatUnifiedDiff, Path: f.path, Paths: paths, Reason: reason})
}

// diffFile reads the --- and +++ lines at line i (their names without
// git's a/ and b/, diff -N's epoch dates as /dev/null) and the rename
// and "diff --git" lines the parser met before them, and says what the
// diff does to which file (fileRole).
func (p *parser) diffFile(i int) diffFile {
	oldName, oldStamp, oldErr := diffName(p.lines[i], "--- ")
	newName, newStamp, newErr := diffName(p.lines[i+1], "+++ ")
	ren := p.rename
	p.rename = nil
	gh := p.gitHead
	p.gitHead = nil
	git := strings.HasPrefix(oldName, "a/") && strings.HasPrefix(newName, "b/")
	oldName, newName = dropDiffFolders(oldName, newName, git)
	// diff -N dates a missing file at the Unix epoch: GNU patch reads it
	// as /dev/null.
	oldGone, newGone := epochStamp(oldStamp), epochStamp(newStamp)
	f := diffFile{path: newName, pathLine: i + 2, createWhy: "--- /dev/null", deleteWhy: "+++ /dev/null"}
	f.create = oldName == "/dev/null" || oldGone
	f.deleting = (newName == "/dev/null" || newGone) && !f.create
	if oldGone {
		f.createWhy = "the --- line's 1970-01-01 timestamp, diff -N's mark of a missing file"
	}
	if newGone {
		f.deleteWhy = "the +++ line's 1970-01-01 timestamp, diff -N's mark of a missing file"
	}
	f.fileRole(i, oldName, newName, oldGone, newGone, git, ren)
	if gh != nil && (gh.at != i || gh.path != f.path) {
		gh = nil // not this diff's "diff --git" line
	}
	f.gh = gh
	if gh != nil && gh.reason != "" && f.err == "" {
		f.err = gh.reason
	}
	switch {
	case oldErr != "":
		f.err = fmt.Sprintf("line %d %q does not name a file: %s", i+1, abbreviate(p.lines[i], 60), oldErr)
	case newErr != "":
		f.err = fmt.Sprintf("line %d %q does not name a file: %s", i+2, abbreviate(p.lines[i+1], 60), newErr)
	case f.err == "" && (f.path == "" || slices.Contains(f.choices, "")):
		f.err = fmt.Sprintf("line %d %q does not name a file", i+2, abbreviate(p.lines[i+1], 60))
	}
	return f
}

// dropDiffFolders returns the --- and +++ names of one file without the
// first folder that tells the two sides apart: a/x and b/x (git), old/x
// and new/x (diff -u of two folders) are the same file once it is
// dropped, as patch -p1 reads them; git names a created or deleted file
// b/x or a/x beside /dev/null.
func dropDiffFolders(oldName, newName string, git bool) (string, string) {
	if oldName != newName && oldName != "/dev/null" && newName != "/dev/null" {
		_, o, ok1 := strings.Cut(oldName, "/")
		_, n, ok2 := strings.Cut(newName, "/")
		if ok1 && ok2 && (o == n || git) && o != "" && n != "" {
			return o, n
		}
	} else if oldName == "/dev/null" && strings.HasPrefix(newName, "b/") || newName == "/dev/null" && strings.HasPrefix(oldName, "a/") {
		return strings.TrimPrefix(oldName, "a/"), strings.TrimPrefix(newName, "b/")
	}
	return oldName, newName
}

// fileRole decides, from the diff's two names at line i (their epoch
// dates oldGone and newGone, git's a/ and b/, and the rename lines ren
// before them), which file the hunks apply to and what becomes of it:
// the deleted file is the old name, a git rename applies to the old name
// and moves it to the new, two names of an edited copy are the caller's
// choice; and which names cannot be read at all.
func (f *diffFile) fileRole(i int, oldName, newName string, oldGone, newGone, git bool, ren *renameLines) {
	switch {
	case f.create && (newName == "/dev/null" || newGone):
		f.err = fmt.Sprintf("the diff's --- and +++ lines (%d-%d) both say the file does not exist (/dev/null or the 1970-01-01 timestamp)", i+1, i+2)
	case oldGone && oldName != newName && oldName != "/dev/null" && newName != "/dev/null":
		// diff -N x.py x.py.new: GNU patch names the new file by the
		// directories it has to create, which the text cannot tell.
		f.choices = []string{oldName, newName} // for the Malformed's paths
		f.err = fmt.Sprintf("the diff's --- and +++ lines (%d-%d) name different files, %s and %s, and its --- line is dated 1970-01-01 (diff -N's mark of a missing file): which name the file it creates gets cannot be told; name it alike on both lines, or write --- /dev/null", i+1, i+2, oldName, newName)
	case ren != nil && (ren.from != oldName || ren.to != newName):
		f.err = fmt.Sprintf("the rename lines on lines %d-%d move %s to %s, but the --- and +++ lines (%d-%d) name %s and %s", ren.line, ren.line+1, ren.from, ren.to, i+1, i+2, oldName, newName)
	case f.deleting && newGone && newName != "/dev/null" && pathpkg.Clean(oldName) != pathpkg.Clean(newName):
		// diff -N x.py x.py.new: the file deleted is the name that
		// exists, as for an edit below.
		f.path, f.pathLine, f.choices = oldName, i+1, []string{oldName, newName}
	case f.deleting:
		f.path, f.pathLine = oldName, i+1
	case !f.create && oldName != newName && (git || ren != nil):
		// git's rename: the file's hunks apply to oldName, and the
		// result is written as newName.
		f.path, f.pathLine, f.moveTo = oldName, i+1, newName
	case !f.create && oldName != newName && pathpkg.Clean(oldName) == pathpkg.Clean(newName):
		// "./x" and "x": one file.
	case !f.create && oldName != newName:
		// diff -u x.orig x, diff -u x x.new: two names for the file
		// edited; GNU patch patches the one that exists, and so does the
		// caller (PathChoices).
		f.choices = []string{oldName, newName}
	}
}

// diffHunk makes hunk b of file f, read whole at line j, the file's
// hunks-th, a Block, or a Malformed where it does not fit the file: a
// deletion's hunk with lines that remain, a creation's with old lines or
// after another, any hunk after one against an empty old file. A hunk
// without context lines is placed by its line numbers, at the end of the
// file only; one against an empty old file (@@ -0,0) creates it.
// emptyOld is the 1-based reply line of the hunk that said the old file
// is empty, if any.
func (p *parser) diffHunk(f *diffFile, b Block, sh hunkShape, j, hunks int, emptyOld *int) {
	// A numbered hunk without context lines (diff -U0): only its
	// line numbers place it.
	zero := sh.numbered && sh.context == 0 && !f.create && !f.deleting
	switch {
	case f.deleting && len(b.NewLines) > 0:
		f.bad(p, j+1, fmt.Sprintf("the hunk on line %d deletes %s (%s) but has context or added lines: a deletion removes every line", j+1, f.path, f.deleteWhy))
	case f.create && (len(b.OldLines) > 0 || hunks > 1):
		f.bad(p, j+1, fmt.Sprintf("the hunk on line %d creates %s (%s) but has context or removed lines, or follows another hunk", j+1, f.path, f.createWhy))
	case *emptyOld > 0:
		f.bad(p, j+1, fmt.Sprintf("the hunk on line %d follows the hunk on line %d, which says the old file is empty (@@ -0,0): there is nothing for it to apply to", j+1, *emptyOld))
	case zero && sh.oldStart == 0 && len(b.OldLines) == 0 && hunks == 1 && f.moveTo == "":
		// Against an empty old file (@@ -0,0 +1,N @@, as diff
		// -u writes a new file without /dev/null): a create
		// block, which applies to a missing or empty file only,
		// as git apply and patch apply it.
		*emptyOld = j + 1
		b.Hint = 0
		fallthrough
	case zero:
		// Placed where its numbers say only at the end of the
		// file (Apply checks), where they cannot point at the
		// wrong line.
		if *emptyOld == 0 {
			b.Pinned, b.AtEnd = true, true
		}
		fallthrough
	case f.create || len(b.OldLines) > 0:
		b.Path, b.PathLine, b.Delete, b.MoveTo, b.PathChoices = f.path, f.pathLine, f.deleting, f.moveTo, f.choices
		if f.gh != nil && !f.deleting {
			b.Mode, b.OldMode = f.gh.mode, f.gh.oldMode
		}
		p.res.Blocks = append(p.res.Blocks, b)
	default:
		f.bad(p, j+1, fmt.Sprintf("the hunk on line %d has no line numbers, no context and no removed lines, so nothing says where it goes: give it context lines", j+1))
	}
}

// hunkShape is what a hunk's header and lines say beyond its Block:
// whether its header has line numbers, its old side's first line (-l,
// 1-based, 0 for an empty old side at the start of the file) and its
// number of context lines.
type hunkShape struct {
	numbered bool
	oldStart int
	context  int
}

// hunk reads the hunk whose @@ line is line i. A numbered header's counts
// say how many lines follow (an empty line is an empty context line, as
// patch reads it); a header without numbers (@@ ... @@, as Aider writes)
// takes the lines that start with a space, '-' or '+', and empty lines
// between them. A "\ No newline at end of file" line marks the line
// before it as the last of its side (old for a removed line, new for an
// added one, both for a context line), without a line ending: no line of
// that side may follow it, and it may not be empty. It returns the hunk
// as a Block (Format, OldLines, NewLines, Line, Hint, OldNoEOL, NewNoEOL
// and AtEnd set), the index after it, and a reason when it is malformed.
func (p *parser) hunk(i int) (Block, int, hunkShape, string) {
	h := newHunkRead(p.lines[i], i)
	j := i + 1
	for ; j < len(p.lines); j++ {
		p.steps++
		l := p.lines[j]
		if h.counted && h.oldLeft == 0 && h.newLeft == 0 && !strings.HasPrefix(l, "\\") {
			break
		}
		if !h.counted {
			if strings.HasPrefix(l, "--- ") && j+1 < len(p.lines) && strings.HasPrefix(p.lines[j+1], "+++ ") {
				break
			}
			if l == "" && !(j+1 < len(p.lines) && hunkLine(p.lines[j+1])) {
				break
			}
		}
		kind := byte(' ')
		text := ""
		switch {
		case l == "":
		case strings.HasPrefix(l, "\\"):
			if why := h.mark(l, j); why != "" {
				return h.b, j + 1, h.sh, why
			}
			continue
		case hunkLine(l):
			kind, text = l[0], l[1:]
		default:
			if !h.counted {
				b, j := p.endHunk(h.b, j, h.oldNoEOL, h.newNoEOL)
				return b, j, h.sh, ""
			}
			return h.b, j, h.sh, fmt.Sprintf("the hunk on line %d ends at line %d %q with %d old and %d new lines still to come (its header says %d and %d)",
				i+1, j+1, abbreviate(l, 40), h.oldLeft, h.newLeft, h.wantOld, h.wantNew)
		}
		if why := h.add(kind, text, l, j); why != "" {
			return h.b, j, h.sh, why
		}
	}
	if h.counted && (h.oldLeft > 0 || h.newLeft > 0) {
		return h.b, j, h.sh, fmt.Sprintf("the reply ends inside the hunk on line %d, with %d old and %d new lines still to come", i+1, h.oldLeft, h.newLeft)
	}
	if h.counted && j < len(p.lines) && hunkLine(p.lines[j]) && !(strings.HasPrefix(p.lines[j], "--- ") && j+1 < len(p.lines) && strings.HasPrefix(p.lines[j+1], "+++ ")) {
		// Never prose: a hunk line after the counted ones.
		next := j
		for next < len(p.lines) && (hunkLine(p.lines[next]) || strings.HasPrefix(p.lines[next], "\\")) {
			next++
		}
		return h.b, next, h.sh, fmt.Sprintf("the hunk on line %d has more lines than its header says (%d old, %d new): line %d %q is one too many",
			i+1, h.wantOld, h.wantNew, j+1, abbreviate(p.lines[j], 40))
	}
	b, j := p.endHunk(h.b, j, h.oldNoEOL, h.newNoEOL)
	return b, j, h.sh, ""
}

// hunkRead is a hunk being read: its Block and shape so far, the old and
// new lines its header's counts leave to come (counted: it has numbers;
// wantOld and wantNew the counts), whether a "\ No newline at end of
// file" ended either side, and the kind (' ', '-', '+'; 0 after such a
// mark) and text of the line before.
type hunkRead struct {
	b                  Block
	sh                 hunkShape
	at                 int // the 0-based reply line of its @@ line
	counted            bool
	oldLeft, newLeft   int
	wantOld, wantNew   int
	oldNoEOL, newNoEOL bool
	last               byte
	lastText           string
}

// newHunkRead starts reading the hunk whose @@ line, header, is reply
// line i (0-based): a numbered header sets the counts and the Hint, the
// 1-based new line it starts at (+l,0 names the line before).
func newHunkRead(header string, i int) *hunkRead {
	h := &hunkRead{b: Block{Format: FormatUnifiedDiff, Line: i + 1}, at: i}
	if m := hunkHeader.FindStringSubmatch(header); m != nil {
		h.counted, h.sh.numbered = true, true
		h.sh.oldStart, _ = strconv.Atoi(m[1])
		h.oldLeft, h.newLeft = 1, 1
		if m[2] != "" {
			h.oldLeft, _ = strconv.Atoi(m[2])
		}
		if m[4] != "" {
			h.newLeft, _ = strconv.Atoi(m[4])
		}
		start, _ := strconv.Atoi(m[3])
		if h.newLeft == 0 {
			start++ // +l,0 names the line before
		}
		h.b.Hint = start
	}
	h.wantOld, h.wantNew = h.oldLeft, h.newLeft
	return h
}

// mark reads l, reply line j, a "\ No newline at end of file" (in any
// language: diff and git translate it), which marks the line before it
// as the last of its side; it returns why it is malformed, or "".
func (h *hunkRead) mark(l string, j int) string {
	switch h.last {
	case ' ':
		h.oldNoEOL, h.newNoEOL = true, true
	case '-':
		h.oldNoEOL = true
	case '+':
		h.newNoEOL = true
	default:
		return fmt.Sprintf("line %d %q follows no line of the hunk on line %d", j+1, abbreviate(l, 40), h.at+1)
	}
	if h.lastText == "" {
		return fmt.Sprintf("line %d %q marks an empty line as the file's last line without a line ending, which is no line at all (hunk on line %d)", j+1, abbreviate(l, 40), h.at+1)
	}
	h.last = 0
	return ""
}

// add adds reply line j, l, a line of kind ' ', '-' or '+' with text, to
// the hunk's sides; it returns why it is malformed, or "": a line after
// its side's last line, or one more than the header counts.
func (h *hunkRead) add(kind byte, text, l string, j int) string {
	if kind != '+' && h.oldNoEOL || kind != '-' && h.newNoEOL {
		// Only the file's last line can lack a line ending.
		side := "old"
		if kind != '-' && h.newNoEOL {
			side = "new"
		}
		return fmt.Sprintf("line %d %q follows the line \"\\ No newline at end of file\" marks as the last of the hunk's %s side (hunk on line %d): only the file's last line can lack a line ending",
			j+1, abbreviate(l, 40), side, h.at+1)
	}
	if h.counted && (kind != '+' && h.oldLeft == 0 || kind != '-' && h.newLeft == 0) {
		return fmt.Sprintf("the hunk on line %d has more lines than its header says (%d old, %d new): line %d is one too many", h.at+1, h.wantOld, h.wantNew, j+1)
	}
	if kind == ' ' {
		h.sh.context++
	}
	if kind != '+' {
		h.b.OldLines = append(h.b.OldLines, text)
		h.oldLeft--
	}
	if kind != '-' {
		h.b.NewLines = append(h.b.NewLines, text)
		h.newLeft--
	}
	h.last, h.lastText = kind, text
	return ""
}

// endHunk finishes a hunk read up to line j: a "\ No newline at end of
// file" on either side (oldNoEOL, newNoEOL) pins the hunk to the end of
// the file (AtEnd), since only a file's last line can lack a line ending,
// and says whether the file ends with one before and after the hunk.
func (p *parser) endHunk(b Block, j int, oldNoEOL, newNoEOL bool) (Block, int) {
	b.OldNoEOL, b.NewNoEOL = oldNoEOL, newNoEOL
	b.AtEnd = oldNoEOL || newNoEOL
	return b, j
}

// hunkLine reports whether l is a hunk's context, removed or added line:
// it starts with a space, '-' or '+'.
func hunkLine(l string) bool { return l != "" && (l[0] == ' ' || l[0] == '-' || l[0] == '+') }

// renameFile reads git's "rename from P" and "rename to Q" lines at line
// i. When the diff's --- and +++ lines follow (after git's index, mode and
// similarity lines), they must name P and Q and the diff is read next;
// otherwise the rename is a pure one, a FileOnly block of
// FormatUnifiedDiff with MoveTo. It returns the index of the next line to
// read.
func (p *parser) renameFile(i int) int {
	from, fromOK := renameName(p.lines[i], "rename from ")
	to, toOK := renameName(p.lines[i+1], "rename to ")
	k := i + 2
	var oldMode, newMode string
	for k < len(p.lines) && (strings.HasPrefix(p.lines[k], "index ") || strings.HasPrefix(p.lines[k], "old mode ") ||
		strings.HasPrefix(p.lines[k], "new mode ") || strings.HasPrefix(p.lines[k], "similarity index ") ||
		strings.HasPrefix(p.lines[k], "dissimilarity index ")) {
		p.steps++
		if m, ok := strings.CutPrefix(p.lines[k], "old mode "); ok {
			oldMode = strings.TrimSpace(m)
		}
		if m, ok := strings.CutPrefix(p.lines[k], "new mode "); ok {
			newMode = strings.TrimSpace(m)
		}
		k++
	}
	// git writes a renamed file's mode lines before its rename lines,
	// with its "diff --git" line (hunklessGitDiff).
	if gh := p.gitHead; gh != nil && gh.at < 0 {
		p.gitHead = nil
		if oldMode == "" && newMode == "" {
			oldMode, newMode = gh.oldMode, gh.mode
		}
	}
	regular := func(m string) bool { return m == ModeFile || m == ModeExecutable }
	reason := ""
	if (oldMode != "" || newMode != "") && !(regular(oldMode) && regular(newMode)) {
		reason = fmt.Sprintf("the rename on lines %d-%d changes the type of %s (mode %s to %s: a symbolic link or a submodule), which apply does not do", i+1, i+2, from, oldMode, newMode)
	}
	if oldMode == newMode {
		oldMode, newMode = "", ""
	}
	if from == "" || to == "" || !fromOK || !toOK {
		p.res.Malformed = append(p.res.Malformed, Malformed{Line: i + 1, Format: FormatUnifiedDiff, Path: from,
			Reason: fmt.Sprintf("lines %d-%d do not name the renamed file and its new name", i+1, i+2)})
		return k
	}
	if k+2 < len(p.lines) && strings.HasPrefix(p.lines[k], "--- ") && strings.HasPrefix(p.lines[k+1], "+++ ") && strings.HasPrefix(p.lines[k+2], "@@") {
		p.rename = &renameLines{from: from, to: to, line: i + 1}
		if newMode != "" || reason != "" {
			p.gitHead = &gitHead{at: k, path: from, mode: newMode, oldMode: oldMode, reason: reason}
		}
		return k
	}
	if reason != "" {
		p.res.Malformed = append(p.res.Malformed, Malformed{Line: i + 1, Format: FormatUnifiedDiff, Path: from, Paths: []string{from, to}, Reason: reason})
		return k
	}
	p.res.Blocks = append(p.res.Blocks, Block{Format: FormatUnifiedDiff, Path: from, MoveTo: to, Line: i + 1, PathLine: i + 1, Mode: newMode, OldMode: oldMode})
	return k
}

// renameName is the name on git's "rename from" or "rename to" line l:
// C-quoted (unquoteGit) with nothing after it, or the rest of the line
// trimmed of surrounding white space.
func renameName(l, prefix string) (string, bool) {
	s := strings.TrimSpace(strings.TrimPrefix(l, prefix))
	name, rest, ok := gitName(s)
	return name, ok && rest == ""
}
