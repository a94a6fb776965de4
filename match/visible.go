package match

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A line that matches nowhere but differs from the file's nearest line only
// in white space or in characters that print as nothing (a tab shown as
// spaces, a no-break space, a zero-width space, a CR) looks identical to a
// person and to a model reading the refusal. Whitespace names each such
// difference and Visible marks them, so the caller can see what to send.

// invisible names a rune that prints as blank or as nothing, or returns
// "" for any other rune (the ASCII space included: it is the one blank
// every line is expected to hold).
func invisible(r rune) string {
	switch r {
	case '\t':
		return "tab"
	case '\r':
		return "carriage return (U+000D)"
	case '\u00a0':
		return "no-break space (U+00A0)"
	case '\u200b':
		return "zero-width space (U+200B)"
	case '\u200c':
		return "zero-width non-joiner (U+200C)"
	case '\u200d':
		return "zero-width joiner (U+200D)"
	case '\u2060':
		return "word joiner (U+2060)"
	case '\ufeff':
		return "zero-width no-break space (U+FEFF)"
	}
	if r != ' ' && (unicode.IsSpace(r) || unicode.Is(unicode.Cf, r)) {
		return fmt.Sprintf("invisible character (U+%04X)", r)
	}
	return ""
}

// Visible returns s with each character Whitespace names marked: a tab as
// "→", a space at the end of the line as "·", a carriage return as "␍",
// a no-break space as "⍽", and any other invisible character as its code
// point in brackets ("[U+200B]"). Other text is unchanged. It is for a
// person or a model to look at, never to copy into an edit.
func Visible(s string) string {
	end := len(strings.TrimRight(s, " "))
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == ' ' && i >= end:
			b.WriteString("·")
		case r == '\t':
			b.WriteString("→")
		case r == '\r':
			b.WriteString("␍")
		case r == '\u00a0':
			b.WriteString("⍽")
		case invisible(r) != "":
			fmt.Fprintf(&b, "[U+%04X]", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// blank reports whether r is white space or prints as nothing.
func blank(r rune) bool { return r == ' ' || invisible(r) != "" }

// Whitespace compares a line a caller sent with the file's line it was
// meant to be: when they differ only in white space and invisible
// characters, it returns each difference in words (the indentation of
// each as tabs and spaces, invisible characters with their byte offsets,
// trailing white space), and true; else "" and false. Byte offsets are
// 0-based, into the line named.
func Whitespace(sent, file string) (string, bool) {
	if sent == file {
		return "", false
	}
	strip := func(s string) string {
		return strings.Map(func(r rune) rune {
			if blank(r) {
				return -1
			}
			return r
		}, s)
	}
	if strip(sent) != strip(file) {
		return "", false
	}
	if strip(file) == "" { // both blank
		holds := func(s string) string {
			if s == "" {
				return "is empty"
			}
			return "holds " + describeRun(s)
		}
		return fmt.Sprintf("the file's line %s, the sent line %s", holds(file), holds(sent)), true
	}
	var diffs []string
	sentLead, fileLead := lead(sent), lead(file)
	if sentLead != fileLead {
		diffs = append(diffs, fmt.Sprintf("the file's line is indented with %s, the sent line with %s", describeRun(fileLead), describeRun(sentLead)))
	}
	sentTrail, fileTrail := trail(sent), trail(file)
	if sentTrail != fileTrail {
		switch {
		case fileTrail == "":
			diffs = append(diffs, fmt.Sprintf("the sent line ends with %s the file's line does not have", describeRun(sentTrail)))
		case sentTrail == "":
			diffs = append(diffs, fmt.Sprintf("the file's line ends with %s", describeRun(fileTrail)))
		default:
			diffs = append(diffs, fmt.Sprintf("the file's line ends with %s, the sent line with %s", describeRun(fileTrail), describeRun(sentTrail)))
		}
	}
	inner := func(who, s string) {
		body := s[len(lead(s)) : len(s)-len(trail(s))]
		for i, r := range body {
			if name := invisible(r); name != "" && r != '\t' {
				article := "a"
				if strings.ContainsRune("aeiou", rune(name[0])) {
					article = "an"
				}
				diffs = append(diffs, fmt.Sprintf("the %s line has %s %s at byte %d", who, article, name, len(lead(s))+i))
			}
		}
	}
	inner("file's", file)
	inner("sent", sent)
	if len(diffs) == 0 {
		// Inner runs of spaces and tabs that differ.
		diffs = append(diffs, fmt.Sprintf("the white space between words differs (the file's line: %q)", Visible(file)))
	}
	return strings.Join(diffs, "; "), true
}

// lead and trail return s's leading and trailing runs of blank runes.
func lead(s string) string {
	for i, r := range s {
		if !blank(r) {
			return s[:i]
		}
	}
	return s
}

func trail(s string) string {
	i := len(s)
	for i > 0 {
		r, n := utf8.DecodeLastRuneInString(s[:i])
		if !blank(r) {
			break
		}
		i -= n
	}
	if i == 0 {
		return "" // a blank line: its white space is its lead
	}
	return s[i:]
}

// describeRun names a run of blank runes by count and kind, in order:
// "1 tab and 2 spaces", "4 spaces", "nothing".
func describeRun(s string) string {
	if s == "" {
		return "nothing"
	}
	var parts []string
	var cur string
	n := 0
	flush := func() {
		if n == 0 {
			return
		}
		name := cur
		if n > 1 { // "2 tabs", "2 no-break spaces (U+00A0)"
			if i := strings.Index(name, " ("); i >= 0 {
				name = name[:i] + "s" + name[i:]
			} else {
				name += "s"
			}
		}
		parts = append(parts, fmt.Sprintf("%d %s", n, name))
	}
	for _, r := range s {
		name := invisible(r)
		if r == ' ' {
			name = "space"
		}
		if name != cur {
			flush()
			cur, n = name, 0
		}
		n++
	}
	flush()
	return strings.Join(parts, " and ")
}

// IndentUnit names how lines (a file's) indent: "tabs", "4 spaces", or ""
// when no line is indented.
func IndentUnit(lines []string) string {
	if !hasIndented(lines) {
		return ""
	}
	if indentsWithTabs(lines) {
		return "tabs"
	}
	u, _ := spaceUnit(lines)
	return fmt.Sprintf("%d spaces", u)
}
