package reply

import (
	"fmt"
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
				b.New = append(b.New, p.lines[k][1:])
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
		b := Block{Format: FormatApplyPatch, Path: path, Line: j + 1, PathLine: fileLine, MoveTo: moveTo}
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
				hunkErrs = append(hunkErrs, fmt.Sprintf("line %d %q is a patch marker padded with spaces or a context line holding a marker's text, which cannot be told apart inside a hunk: write markers at column 1", j+1, abbreviate(l, 60)))
			}
			if l == "" {
				// An empty context line, if hunk lines follow the blank
				// ones; else the hunk has ended.
				k := j
				for k < len(p.lines) && p.lines[k] == "" {
					k++
				}
				if k == len(p.lines) || !hunkLine(p.lines[k]) || p.paddedEnd(k) {
					break
				}
			}
			kind, text := byte(' '), ""
			if l != "" {
				kind, text = l[0], l[1:]
			}
			if kind != '+' {
				b.Old = append(b.Old, text)
			}
			if kind != '-' {
				b.New = append(b.New, text)
			}
		}
		if j < len(p.lines) && strings.TrimSpace(p.lines[j]) == patchEOF {
			b.AtEnd = true
			j++
		}
		hunks++
		var why string
		switch {
		case j == start:
			why = fmt.Sprintf("the hunk on line %d has no lines: a hunk is \"@@\" or \"@@ context line\", then lines starting with a space, '-' or '+'", b.Line)
		case len(b.Old) == 0 && b.AtEnd && len(b.Scope) > 0:
			why = fmt.Sprintf("the hunk on line %d only adds lines, and both its @@ line(s) and *** End of File say where, which disagree: give it one of them", b.Line)
		case len(b.Old) == 0:
			// Only added lines: Codex appends them to the file, or, with
			// @@ lines, inserts them right after those lines.
			b.Insert = true
		}
		if why != "" {
			hunkErrs = append(hunkErrs, why)
		}
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
