package match

import (
	"strings"
	"unicode"
)

// AddsLines reports whether an edit that replaces old by new adds a line:
// whether new is not a subsequence of old (lines compared with trailing
// white space trimmed, not necessarily adjacent). An edit that adds no
// line (a deletion, or new lines all taken from old in order) leaves a
// text that the edit's old side cannot be told apart from, once applied:
// what remains was there before. So such an edit is never reported as
// already applied; only an edit whose new side brings something the old
// side lacked leaves a trace to recognise.
func AddsLines(old, new []string) bool {
	i := 0
	for _, n := range new {
		n = trimRight(n)
		for i < len(old) && trimRight(old[i]) != n {
			i++
		}
		if i == len(old) {
			return true
		}
		i++
	}
	return false
}

// Within returns the 0-based offsets at which old occurs as adjacent lines
// inside new (lines compared with trailing white space trimmed), for an
// old shorter than new and not empty; else nil. An edit whose old side
// lies inside its new side (an insertion that keeps its anchor line) still
// finds its old side once applied, and would apply again where its first
// run left its new side: these offsets say where.
func Within(old, new []string) []int {
	if len(old) == 0 || len(old) >= len(new) {
		return nil
	}
	var out []int
	for p := 0; p+len(old) <= len(new); p++ {
		ok := true
		for i, o := range old {
			if trimRight(new[p+i]) != trimRight(o) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, p)
		}
	}
	return out
}

// SplitLines splits s into lines at "\n", one final line break dropped,
// each line without its "\r": the lines of a text edit's old or new text
// for AddsLines.
func SplitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		ls[i] = strings.TrimSuffix(l, "\r")
	}
	return ls
}

// Telling reports whether lines, an edit's applied form (its anchors or
// context around its new lines), say enough to recognise the edit by: at
// least two lines that are not blank, or one line with at least two words
// (runs of letters, digits and '_') and ten characters that are not white
// space. A lone "}", "pass", "return nil" or "x = 1" occurs by chance
// too often for its one occurrence to show that an edit was applied: a
// wrong old side with such a new side is refused as before.
func Telling(lines []string) bool {
	var nonBlank []string
	for _, l := range lines {
		if t := strings.TrimSpace(l); t != "" {
			nonBlank = append(nonBlank, t)
		}
	}
	switch len(nonBlank) {
	case 0:
		return false
	case 1:
	default:
		return true
	}
	l := nonBlank[0]
	words, inWord, chars := 0, false, 0
	for _, r := range l {
		w := r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
		if w && !inWord {
			words++
		}
		inWord = w
		if !unicode.IsSpace(r) {
			chars++
		}
	}
	return words >= 2 && chars >= 10
}
