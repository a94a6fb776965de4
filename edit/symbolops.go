package edit

import (
	"fmt"
	"strings"
)

// SymbolLines is the part of a Document a whole-symbol operation works on:
// the symbol's whole lines, as `symedit show` prints them.
type SymbolLines struct {
	// First and Last are the symbol's first and last lines, 1-based and
	// inclusive. First is the line of its first decorator or annotation.
	First, Last int
	// BlankLines is how many blank lines the language's style puts between
	// this symbol and its neighbours: 2 around a top-level Python
	// definition (PEP 8), else 1.
	BlankLines int
}

// Reindent reports how a whole-symbol operation shifted the text it was
// given. The zero value means the text was written as sent.
type Reindent struct {
	// Added is the indentation put in front of every non-blank line, or ""
	// when the text was written as sent.
	Added string `json:"added,omitempty"`
}

// String describes the shift for messages: "indented by 4 spaces".
func (r Reindent) String() string {
	if r.Added == "" {
		return "written as sent"
	}
	return "indented by " + describeIndent(r.Added)
}

func describeIndent(s string) string {
	tabs, spaces := strings.Count(s, "\t"), strings.Count(s, " ")
	var parts []string
	if tabs > 0 {
		parts = append(parts, plural(tabs, "tab"))
	}
	if spaces > 0 {
		parts = append(parts, plural(spaces, "space"))
	}
	return strings.Join(parts, " and ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func indentOf(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

// fitIndent shifts text to indent when the text sits left of it: its first
// non-blank line is indented less than indent, by a prefix of indent, and
// no non-blank line is indented less than that first line. Otherwise the
// lines are returned as sent. Blank lines stay empty.
func fitIndent(text []string, indent string) ([]string, Reindent) {
	first := -1
	for i, l := range text {
		if strings.TrimSpace(l) != "" {
			first = i
			break
		}
	}
	if first < 0 {
		return text, Reindent{}
	}
	base := indentOf(text[first])
	if len(base) >= len(indent) || !strings.HasPrefix(indent, base) {
		return text, Reindent{}
	}
	for _, l := range text {
		if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, base) {
			return text, Reindent{}
		}
	}
	add := indent[len(base):]
	out := make([]string, len(text))
	for i, l := range text {
		if strings.TrimSpace(l) == "" {
			out[i] = ""
		} else {
			out[i] = add + l
		}
	}
	return out, Reindent{Added: add}
}

// ReplaceSymbol returns the Edit that replaces the symbol's whole lines
// (decorators and signature included) by body. When body sits left of the
// symbol's indentation (a method sent flush-left), it is shifted to that
// indentation and the Reindent says by how much; otherwise it is written as
// sent. An empty body is refused: deleting a symbol is not a body
// replacement.
func (d *Document) ReplaceSymbol(s SymbolLines, body string) (Edit, Reindent, error) {
	if err := d.checkLines(s); err != nil {
		return Edit{}, Reindent{}, err
	}
	if strings.TrimSpace(body) == "" {
		return Edit{}, Reindent{}, fmt.Errorf("the new body is empty; to delete the symbol use `symedit lines` with new_content \"\"")
	}
	lines, re := fitIndent(SplitText(body), indentOf(d.Line(s.First)))
	e, err := d.ReplaceLines(s.First, s.Last, lines)
	return e, re, err
}

// InsertBeforeSymbol returns the Edit that puts text on its own lines
// before the symbol and the comment block directly above it, at the
// symbol's indentation (shifted as ReplaceSymbol does), followed by
// s.BlankLines blank lines, and preceded by as many when the line before is
// neither blank nor the opening of the enclosing block.
func (d *Document) InsertBeforeSymbol(s SymbolLines, text string) (Edit, Reindent, error) {
	if err := d.checkLines(s); err != nil {
		return Edit{}, Reindent{}, err
	}
	if strings.TrimSpace(text) == "" {
		return Edit{}, Reindent{}, fmt.Errorf("the text to insert is empty")
	}
	lines, re := fitIndent(SplitText(text), indentOf(d.Line(s.First)))
	at := s.First
	for at > 1 && isComment(d.Line(at-1)) {
		at--
	}
	var out []string
	if at > 1 && !opensBlock(d.Line(at-1)) {
		out = append(out, make([]string, s.BlankLines)...)
	}
	out = append(out, lines...)
	out = append(out, make([]string, s.BlankLines)...)
	e, err := d.ReplaceLines(at, at-1, out)
	return e, re, err
}

// InsertAfterSymbol returns the Edit that puts text on its own lines after
// the symbol's last line, at its indentation (shifted as ReplaceSymbol
// does), preceded by s.BlankLines blank lines, and followed by as many when
// the next line is neither blank nor the close of the enclosing block.
func (d *Document) InsertAfterSymbol(s SymbolLines, text string) (Edit, Reindent, error) {
	if err := d.checkLines(s); err != nil {
		return Edit{}, Reindent{}, err
	}
	if strings.TrimSpace(text) == "" {
		return Edit{}, Reindent{}, fmt.Errorf("the text to insert is empty")
	}
	lines, re := fitIndent(SplitText(text), indentOf(d.Line(s.First)))
	out := append(make([]string, s.BlankLines), lines...)
	if s.Last < d.LineCount() && !closesBlock(d.Line(s.Last+1)) {
		out = append(out, make([]string, s.BlankLines)...)
	}
	e, err := d.ReplaceLines(s.Last+1, s.Last, out)
	return e, re, err
}

// isComment reports a line that is part of a comment block in the
// supported languages: //, #, /*, * and */ lines.
func isComment(line string) bool {
	t := strings.TrimSpace(line)
	for _, p := range []string{"//", "#", "/*", "*"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// opensBlock reports a line that needs no blank line between it and a
// definition inserted below it: a blank line, or the opening of the
// enclosing block ("class A {", "class A:").
func opensBlock(line string) bool {
	t := strings.TrimSpace(line)
	return t == "" || strings.HasSuffix(t, "{") || strings.HasSuffix(t, ":")
}

// closesBlock reports a line that needs no blank line between it and a
// definition inserted above it: a blank line, or the close of the
// enclosing block ("}", "})").
func closesBlock(line string) bool {
	t := strings.TrimSpace(line)
	return t == "" || strings.HasPrefix(t, "}") || strings.HasPrefix(t, ")")
}

// checkLines refuses a SymbolLines outside the document.
func (d *Document) checkLines(s SymbolLines) error {
	if s.First < 1 || s.Last < s.First || s.Last > d.LineCount() {
		return fmt.Errorf("%s: symbol lines %d-%d are outside the file's %d lines", d.Path, s.First, s.Last, d.LineCount())
	}
	return nil
}
