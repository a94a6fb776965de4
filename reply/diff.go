package reply

import (
	"fmt"
	"regexp"
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
	oldName, oldErr := diffName(p.lines[i], "--- ")
	newName, newErr := diffName(p.lines[i+1], "+++ ")
	ren := p.rename
	p.rename = nil
	gh := p.gitHead
	p.gitHead = nil
	git := strings.HasPrefix(oldName, "a/") && strings.HasPrefix(newName, "b/")
	if oldName != newName && oldName != "/dev/null" && newName != "/dev/null" {
		// a/x and b/x (git), old/x and new/x (diff -u of two folders):
		// the same file once the first folder is dropped, as patch -p1.
		_, o, ok1 := strings.Cut(oldName, "/")
		_, n, ok2 := strings.Cut(newName, "/")
		if ok1 && ok2 && (o == n || git) && o != "" && n != "" {
			oldName, newName = o, n
		}
	} else if oldName == "/dev/null" && strings.HasPrefix(newName, "b/") || newName == "/dev/null" && strings.HasPrefix(oldName, "a/") {
		// git names a created or deleted file b/x or a/x.
		oldName, newName = strings.TrimPrefix(oldName, "a/"), strings.TrimPrefix(newName, "b/")
	}
	path, pathLine := newName, i+2
	create := oldName == "/dev/null"
	deleting := newName == "/dev/null" && !create
	moveTo := ""
	var fileErr string
	switch {
	case ren != nil && (ren.from != oldName || ren.to != newName):
		fileErr = fmt.Sprintf("the rename lines on lines %d-%d move %s to %s, but the --- and +++ lines (%d-%d) name %s and %s", ren.line, ren.line+1, ren.from, ren.to, i+1, i+2, oldName, newName)
	case deleting:
		path, pathLine = oldName, i+1
	case !create && oldName != newName && (git || ren != nil):
		// git's rename: the file's hunks apply to oldName, and the
		// result is written as newName.
		path, pathLine, moveTo = oldName, i+1, newName
	case !create && oldName != newName:
		fileErr = fmt.Sprintf("the diff's --- and +++ lines (%d-%d) name different files, %s and %s, without git's a/ and b/ or rename lines that would make it a rename: apply cannot tell which one is meant", i+1, i+2, oldName, newName)
	}
	if gh != nil && (gh.at != i || gh.path != path) {
		gh = nil // not this diff's "diff --git" line
	}
	if gh != nil && gh.reason != "" && fileErr == "" {
		fileErr = gh.reason
	}
	switch {
	case oldErr != "":
		fileErr = fmt.Sprintf("line %d %q does not name a file: %s", i+1, abbreviate(p.lines[i], 60), oldErr)
	case newErr != "":
		fileErr = fmt.Sprintf("line %d %q does not name a file: %s", i+2, abbreviate(p.lines[i+1], 60), newErr)
	case fileErr == "" && path == "":
		fileErr = fmt.Sprintf("line %d %q does not name a file", i+2, abbreviate(p.lines[i+1], 60))
	}
	bad := func(line int, reason string) {
		p.res.Malformed = append(p.res.Malformed, Malformed{Line: line, Format: FormatUnifiedDiff, Path: path, Paths: []string{path}, Reason: reason})
	}
	j := i + 2
	hunks := 0
	for j < len(p.lines) && strings.HasPrefix(p.lines[j], "@@") {
		p.steps++
		b, next, err := p.hunk(j, deleting)
		hunks++
		switch {
		case fileErr != "":
		case err != "":
			bad(j+1, err)
		case deleting && len(b.New) > 0:
			bad(j+1, fmt.Sprintf("the hunk on line %d deletes %s (+++ /dev/null) but has context or added lines: a deletion removes every line", j+1, path))
		case create && (len(b.Old) > 0 || hunks > 1):
			bad(j+1, fmt.Sprintf("the hunk on line %d creates %s (--- /dev/null) but has context or removed lines, or follows another hunk", j+1, path))
		case !create && len(b.Old) == 0:
			bad(j+1, fmt.Sprintf("the hunk on line %d has no context and no removed lines, so nothing says where it goes (as diff -U0 writes): give it context lines", j+1))
		default:
			b.Path, b.PathLine, b.Delete, b.MoveTo = path, pathLine, deleting, moveTo
			if gh != nil && !deleting {
				b.Mode, b.OldMode = gh.mode, gh.oldMode
			}
			p.res.Blocks = append(p.res.Blocks, b)
		}
		j = next
	}
	if fileErr != "" {
		bad(i+1, fileErr)
	}
	return j
}

// hunk reads the hunk whose @@ line is line i. A numbered header's counts
// say how many lines follow (an empty line is an empty context line, as
// patch reads it); a header without numbers (@@ ... @@, as Aider writes)
// takes the lines that start with a space, '-' or '+', and empty lines
// between them. A "\ No newline at end of file" line marks the line before
// it (for a hunk that deletes its file, deleting, the last line may lack
// one on the old side only). It returns the hunk as a Block (Format, Old, New, Line and Hint set),
// the index after it, and a reason when it is malformed.
func (p *parser) hunk(i int, deleting bool) (Block, int, string) {
	b := Block{Format: FormatUnifiedDiff, Line: i + 1}
	oldLeft, newLeft, counted := 0, 0, false
	if m := hunkHeader.FindStringSubmatch(p.lines[i]); m != nil {
		counted = true
		oldLeft, newLeft = 1, 1
		if m[2] != "" {
			oldLeft, _ = strconv.Atoi(m[2])
		}
		if m[4] != "" {
			newLeft, _ = strconv.Atoi(m[4])
		}
		start, _ := strconv.Atoi(m[3])
		if newLeft == 0 {
			start++ // +l,0 names the line before
		}
		b.Hint = start
	}
	wantOld, wantNew := oldLeft, newLeft
	oldNoEOL, newNoEOL := false, false
	last := byte(0) // the kind of the line before: ' ', '-' or '+'
	j := i + 1
	for ; j < len(p.lines); j++ {
		p.steps++
		l := p.lines[j]
		if counted && oldLeft == 0 && newLeft == 0 && !strings.HasPrefix(l, "\\") {
			break
		}
		if !counted {
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
			switch last {
			case ' ':
				oldNoEOL, newNoEOL = true, true
			case '-':
				oldNoEOL = true
			case '+':
				newNoEOL = true
			default:
				return b, j + 1, fmt.Sprintf("line %d %q follows no line of the hunk on line %d", j+1, abbreviate(l, 40), i+1)
			}
			continue
		case hunkLine(l):
			kind, text = l[0], l[1:]
		default:
			if !counted {
				return p.endHunk(b, i, j, oldNoEOL, newNoEOL || deleting && oldNoEOL)
			}
			return b, j, fmt.Sprintf("the hunk on line %d ends at line %d %q with %d old and %d new lines still to come (its header says %d and %d)",
				i+1, j+1, abbreviate(l, 40), oldLeft, newLeft, wantOld, wantNew)
		}
		if counted && (kind != '+' && oldLeft == 0 || kind != '-' && newLeft == 0) {
			return b, j, fmt.Sprintf("the hunk on line %d has more lines than its header says (%d old, %d new): line %d is one too many", i+1, wantOld, wantNew, j+1)
		}
		if kind != '+' {
			b.Old = append(b.Old, text)
			oldLeft--
		}
		if kind != '-' {
			b.New = append(b.New, text)
			newLeft--
		}
		last = kind
	}
	if counted && (oldLeft > 0 || newLeft > 0) {
		return b, j, fmt.Sprintf("the reply ends inside the hunk on line %d, with %d old and %d new lines still to come", i+1, oldLeft, newLeft)
	}
	if counted && j < len(p.lines) && hunkLine(p.lines[j]) && !(strings.HasPrefix(p.lines[j], "--- ") && j+1 < len(p.lines) && strings.HasPrefix(p.lines[j+1], "+++ ")) {
		// Never prose: a hunk line after the counted ones.
		next := j
		for next < len(p.lines) && (hunkLine(p.lines[next]) || strings.HasPrefix(p.lines[next], "\\")) {
			next++
		}
		return b, next, fmt.Sprintf("the hunk on line %d has more lines than its header says (%d old, %d new): line %d %q is one too many",
			i+1, wantOld, wantNew, j+1, abbreviate(p.lines[j], 40))
	}
	return p.endHunk(b, i, j, oldNoEOL, newNoEOL || deleting && oldNoEOL)
}

// endHunk checks a hunk read up to line j: it may not change whether the
// file ends with a line ending, which a block cannot say.
func (p *parser) endHunk(b Block, i, j int, oldNoEOL, newNoEOL bool) (Block, int, string) {
	if oldNoEOL != newNoEOL {
		return b, j, fmt.Sprintf("the hunk on line %d adds or removes the file's final line ending (\\ No newline at end of file on one side only): apply does not do that yet", i+1)
	}
	if len(b.Old) == 0 && newNoEOL {
		return b, j, fmt.Sprintf("the hunk on line %d creates a file without a final line ending: apply does not do that yet", i+1)
	}
	return b, j, ""
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
