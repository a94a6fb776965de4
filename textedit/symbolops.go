package textedit

import (
	"fmt"
	"strings"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
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
	// Head locates the symbol's decorators, annotations and modifiers, so
	// that ReplaceSymbol keeps those the new text does not start with. The
	// zero value (Lang nil) replaces the whole lines.
	Head Head
}

// Head is a symbol's byte range and where its decorators, annotations and
// modifiers end, as symbols.Symbol gives them: HeadOf fills it.
type Head struct {
	// Lang is the symbol's language; it says which words are modifiers
	// (symbols.TextLead).
	Lang *lang.Language
	// Kind is the symbol's kind (SendsOverloads parses a method's text in
	// a class body).
	Kind symbols.Kind
	// StartByte, ImplByte, ModifiersByte, KeywordByte and EndByte are
	// symbols.Symbol's: 0-based byte offsets into the Document's Text of
	// the symbol's start, of the implementation after its overload
	// signatures, of its first modifier after the leading decorators or
	// annotations, of the definition proper, and of the symbol's exclusive
	// end.
	StartByte, ImplByte, ModifiersByte, KeywordByte, EndByte int
}

// HeadOf returns the Head of sym, a symbol of language lang extracted from
// the Document's Text.
func HeadOf(sym symbols.Symbol, lang *lang.Language) Head {
	return Head{Lang: lang, Kind: sym.Kind, StartByte: sym.StartByte, ImplByte: sym.ImplByte,
		ModifiersByte: sym.ModifiersByte, KeywordByte: sym.KeywordByte, EndByte: sym.EndByte}
}

// Replaced says which part of a symbol ReplaceSymbol replaced, so that a
// caller sees what of the old head was kept: "whole",
// "from-implementation", "from-modifiers" or "from-keyword".
type Replaced string

// The Replaced values.
const (
	// ReplacedWhole: the symbol's whole lines, decorators, annotations and
	// modifiers included: the new text begins with a decorator or
	// annotation, or the symbol has nothing before its keyword that the
	// text would drop.
	ReplacedWhole Replaced = "whole"
	// ReplacedFromImplementation: the text begins with a decorator, or
	// the implementation has none, and sends no overload signatures; the
	// symbol's overload signatures (TypeScript) were kept.
	ReplacedFromImplementation Replaced = "from-implementation"
	// ReplacedFromModifiers: the text begins with a modifier; the
	// symbol's leading decorators or annotations (and overload
	// signatures) were kept.
	ReplacedFromModifiers Replaced = "from-modifiers"
	// ReplacedFromKeyword: the text begins with the definition proper; the
	// symbol's decorators, annotations and modifiers (and overload
	// signatures) were kept.
	ReplacedFromKeyword Replaced = "from-keyword"
)

// Placement reports how a whole-symbol operation placed the text it was
// given: how it was shifted (Reindent) and, for ReplaceSymbol, which part
// of the symbol it replaced and what it kept.
type Placement struct {
	Reindent
	// Replaced is which part of the symbol ReplaceSymbol replaced; "" for
	// the insertions.
	Replaced Replaced `json:"replaced,omitempty"`
	// Kept is the symbol's text that ReplaceSymbol kept in front of the new
	// text: its decorators, annotations and modifiers, each line without
	// its indentation and trailing white space, joined by "\n"
	// ("@functools.cache\n@staticmethod"); "" when nothing was kept.
	Kept string `json:"kept,omitempty"`
	// Comment is the comment block directly above the symbol that
	// ReplaceSymbol replaced with the comment the new text begins with,
	// each line trimmed as in Kept; "" when the text begins with no
	// comment, or when there was none above (the text's comment then goes
	// above the symbol's first line).
	Comment string `json:"comment,omitempty"`
}

// String describes the placement for messages: "kept @functools.cache;
// text indented by 4 spaces".
func (p Placement) String() string {
	var b strings.Builder
	if p.Comment != "" {
		fmt.Fprintf(&b, "replaced the comment above %q; ", p.Comment)
	}
	if p.Kept != "" {
		fmt.Fprintf(&b, "kept %q; ", p.Kept)
	}
	return b.String() + "text " + p.Reindent.String()
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

// ReplaceSymbol returns the Edit that replaces the symbol by body, keeping
// what body does not send, so that a body sent without its decorators
// does not drop them: when body begins with a decorator or annotation
// (symbols.TextLead), the whole symbol is replaced; when it begins with a
// modifier, the symbol's leading decorators or annotations are kept and
// the rest replaced; when it begins with the definition proper, its
// decorators, annotations and modifiers are all kept. A TypeScript
// symbol's overload signatures are kept unless body begins with one
// (symbols.SendsOverloads), which replaces the whole symbol. The
// Placement says which. Text on the line where the replacement starts,
// before it (kept decorators, modifiers, or code before a symbol that
// starts mid-line, as "return run(new Runnable() {"),
// stays in front of body's first non-blank line; code after the symbol on
// its last line ("});") follows body's last non-blank line (a trailing
// comment there is replaced with the line); each is written once, when
// body's first or last non-blank line already begins or ends with it
// (the whole lines a model read and sends back). With a zero s.Head, or one
// outside s's lines, the whole lines First to Last are replaced.
//
// A symbol's range does not hold the comment above it, so a body that
// begins with a comment (the symbol's doc comment, as a model sends the
// whole definition it read) replaces a comment block rather than adding a
// second copy: the block that ends the kept head (a comment between a
// kept decorator and the definition), else the block directly above the
// symbol, above any decorators kept; with neither, the comment goes where
// the body does. Placement.Comment gives the block replaced. A body that
// begins with no comment keeps both.
//
// When body sits left of the symbol's indentation (a method sent
// flush-left), it is shifted to that indentation and the Reindent says by
// how much; otherwise it is written as sent. An empty body is refused:
// deleting a symbol is not a body replacement.
func ReplaceSymbol(d *edit.Document, s SymbolLines, body string) (edit.Edit, Placement, error) {
	if err := checkLines(d, s); err != nil {
		return edit.Edit{}, Placement{}, err
	}
	if strings.TrimSpace(body) == "" {
		return edit.Edit{}, Placement{}, fmt.Errorf("the new body is empty; to delete the symbol use `symedit lines` with new_content \"\"")
	}
	lines, re := fitIndent(edit.SplitText(body), indentOf(d.Line(s.First)))
	comments := commentPrefixes(s.Head.Lang)
	sentComment, lines := leadingComment(lines, comments)
	if len(lines) == 0 {
		return edit.Edit{}, Placement{}, fmt.Errorf("the new body is only a comment; send the definition too")
	}
	e, pl, err := replaceSymbolLines(d, s, body, lines, re)
	if err != nil || sentComment == nil {
		return e, pl, err
	}
	// The comment the body begins with replaces a comment block: the one
	// directly above the line where the rest of the body goes, when the
	// kept head ends with one (a comment between a decorator and the
	// definition), else the one directly above the symbol. One edit from
	// the block's first line holds the body's comment, the kept lines
	// between the block and e, and e's text. With neither block the
	// comment goes directly above the rest of the body.
	ls := d.LineRanges()
	base := len(d.Content) - len(d.Text)
	k := d.LineAt(e.Start - base)
	above, below := commentAbove(d, k, s.First, comments), k
	if above == k {
		if a := commentAbove(d, s.First, 1, comments); a < s.First {
			above, below = a, s.First
		}
	}
	var old []string
	for _, l := range d.Lines(above, below-1) {
		old = append(old, strings.TrimSpace(l))
	}
	pl.Comment = strings.Join(old, "\n")
	kept := string(d.Text[ls[below-1].Start : e.Start-base])
	return edit.Edit{Start: base + ls[above-1].Start, End: e.End, New: strings.Join(sentComment, d.EOL) + d.EOL + kept + e.New}, pl, nil
}

// replaceSymbolLines is ReplaceSymbol for lines, body's lines after its
// leading comment, fitted to the symbol's indentation by re.
func replaceSymbolLines(d *edit.Document, s SymbolLines, body string, lines []string, re Reindent) (edit.Edit, Placement, error) {
	pl := Placement{Reindent: re, Replaced: ReplacedWhole}
	h := s.Head
	first, last := d.LineRanges()[s.First-1], d.LineRanges()[s.Last-1]
	if h.Lang == nil || h.StartByte < first.Start || h.EndByte > last.End || h.StartByte >= h.EndByte ||
		h.ImplByte < h.StartByte || h.ModifiersByte < h.ImplByte || h.KeywordByte < h.ModifiersByte || h.KeywordByte >= h.EndByte {
		e, err := d.ReplaceLines(s.First, s.Last, lines) // no head, or one outside the lines
		return e, pl, err
	}
	from := h.StartByte
	// Judged once: TextLead reads body as the parser would (for C and
	// C++ through the whole masking pass).
	lead := symbols.TextLead(h.Lang, body)
	switch {
	case h.ImplByte > h.StartByte && symbols.SendsOverloads(h.Lang, h.Kind, body):
		// The text sends overload signatures: it replaces the whole symbol.
	case lead == symbols.LeadModifier:
		from, pl.Replaced = h.ModifiersByte, ReplacedFromModifiers
	case lead == symbols.LeadDefinition:
		from, pl.Replaced = h.KeywordByte, ReplacedFromKeyword
	case h.ImplByte > h.StartByte:
		from, pl.Replaced = h.ImplByte, ReplacedFromImplementation // keep the overloads
	}
	var kept []string
	for _, l := range edit.SplitText(string(d.Text[h.StartByte:from])) {
		if l = strings.TrimSpace(l); l != "" {
			kept = append(kept, l)
		}
	}
	if len(kept) == 0 {
		pl.Replaced = ReplacedWhole // nothing before from to keep
	}
	pl.Kept = strings.Join(kept, "\n")

	// Keep the lines before from's line and the bytes of its line before
	// from: body's first non-blank line follows them.
	// A body that already begins with those bytes (show prints whole
	// lines, and a model sends back what it read) gets them once.
	k := d.LineAt(from)
	if prefix := string(d.Text[d.LineRanges()[k-1].Start:from]); strings.TrimSpace(prefix) != "" {
		for strings.TrimSpace(lines[0]) == "" {
			lines = lines[1:]
		}
		first := strings.TrimLeft(lines[0], " \t")
		lines[0] = prefix + strings.TrimPrefix(first, strings.TrimLeft(prefix, " \t"))
	}
	// Keep the code after the symbol on its last line ("});" after an
	// anonymous class): it follows body's last non-blank line, unless
	// that line already ends with it (whole lines sent back). A comment
	// there is replaced with the line, as before.
	if suffix := string(d.Text[h.EndByte:last.End]); strings.TrimSpace(suffix) != "" && !isComment(suffix) {
		i := len(lines) - 1
		for strings.TrimSpace(lines[i]) == "" {
			i--
		}
		end := strings.TrimRight(lines[i], " \t")
		end = strings.TrimSuffix(end, strings.TrimRight(suffix, " \t"))
		lines = append(lines[:i:i], strings.TrimRight(end, " \t")+suffix)
	}
	e, err := d.ReplaceLines(k, s.Last, lines)
	return e, pl, err
}

// InsertBeforeSymbol returns the Edit that puts text on its own lines
// before the symbol and the comment block directly above it, at the
// symbol's indentation (shifted as ReplaceSymbol does), followed by
// s.BlankLines blank lines, and preceded by as many when the line before is
// neither blank nor the opening of the enclosing block.
func InsertBeforeSymbol(d *edit.Document, s SymbolLines, text string) (edit.Edit, Placement, error) {
	if err := checkLines(d, s); err != nil {
		return edit.Edit{}, Placement{}, err
	}
	if strings.TrimSpace(text) == "" {
		return edit.Edit{}, Placement{}, fmt.Errorf("the text to insert is empty")
	}
	lines, re := fitIndent(edit.SplitText(text), indentOf(d.Line(s.First)))
	at := commentAbove(d, s.First, 1, commentPrefixes(s.Head.Lang))
	var out []string
	if at > 1 && !opensBlock(d.Line(at-1)) {
		out = append(out, make([]string, s.BlankLines)...)
	}
	out = append(out, lines...)
	out = append(out, make([]string, s.BlankLines)...)
	e, err := d.ReplaceLines(at, at-1, out)
	return e, Placement{Reindent: re}, err
}

// InsertAfterSymbol returns the Edit that puts text on its own lines after
// the symbol's last line, at its indentation (shifted as ReplaceSymbol
// does), preceded by s.BlankLines blank lines, and followed by as many when
// the next line is neither blank nor the close of the enclosing block.
func InsertAfterSymbol(d *edit.Document, s SymbolLines, text string) (edit.Edit, Placement, error) {
	if err := checkLines(d, s); err != nil {
		return edit.Edit{}, Placement{}, err
	}
	if strings.TrimSpace(text) == "" {
		return edit.Edit{}, Placement{}, fmt.Errorf("the text to insert is empty")
	}
	lines, re := fitIndent(edit.SplitText(text), indentOf(d.Line(s.First)))
	out := append(make([]string, s.BlankLines), lines...)
	if s.Last < d.LineCount() && !closesBlock(d.Line(s.Last+1)) {
		out = append(out, make([]string, s.BlankLines)...)
	}
	e, err := d.ReplaceLines(s.Last+1, s.Last, out)
	return e, Placement{Reindent: re}, err
}

// isComment reports a line that is part of a comment block in the
// supported languages: //, #, /*, * and */ lines.
func isComment(line string) bool {
	return hasPrefix(strings.TrimSpace(line), anyComment)
}

// anyComment are the comment line prefixes of the supported languages
// together, for a caller that does not know the language.
var anyComment = []string{"//", "#", "/*", "*"}

// commentPrefixes returns the comment line prefixes of l (its
// lang.Anatomy's), or anyComment when l is nil.
func commentPrefixes(l *lang.Language) []string {
	if l == nil {
		return anyComment
	}
	return l.Anatomy().Comments()
}

func hasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// commentAbove returns the first line (1-based) of the comment block
// directly above line first, not above line floor: the run of comment
// lines (a line that begins, after its indentation, with one of prefixes,
// or a whole block comment from its "/*" line to its "*/" line) with no
// blank line between them and first; first itself when the line above is
// not part of a comment.
func commentAbove(d *edit.Document, first, floor int, prefixes []string) int {
	at := first
	for at > floor {
		t := strings.TrimSpace(d.Line(at - 1))
		if strings.HasSuffix(t, "*/") && !strings.HasPrefix(t, "/*") {
			// The last line of a block comment whose inner lines need not
			// begin with "*": take it whole, or not at all.
			open := at - 1
			for open >= floor && !strings.Contains(d.Line(open), "/*") {
				open--
			}
			if open < floor {
				break
			}
			at = open
			continue
		}
		if t == "" || !hasPrefix(t, prefixes) {
			break
		}
		at--
	}
	return at
}

// leadingComment splits lines, a text sent for a symbol, into the comment
// it begins with (its first lines up to the first that is neither blank
// nor a comment line by prefixes, a block comment's inner lines included)
// and the rest. The comment is nil when those first lines hold no
// comment.
func leadingComment(lines, prefixes []string) (comment, rest []string) {
	inBlock, seen := false, false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case inBlock:
			inBlock = !strings.Contains(t, "*/")
		case t == "":
		case strings.HasPrefix(t, "/*") && hasPrefix(t, prefixes):
			seen, inBlock = true, !strings.Contains(t[2:], "*/")
		case hasPrefix(t, prefixes):
			seen = true
		default:
			if !seen {
				return nil, lines
			}
			comment = lines[:i]
			for strings.TrimSpace(comment[0]) == "" {
				comment = comment[1:]
			}
			return comment, lines[i:]
		}
	}
	if !seen {
		return nil, lines
	}
	return lines, nil
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
func checkLines(d *edit.Document, s SymbolLines) error {
	if s.First < 1 || s.Last < s.First || s.Last > d.LineCount() {
		return fmt.Errorf("%s: symbol lines %d-%d are outside the file's %d lines", d.Path, s.First, s.Last, d.LineCount())
	}
	return nil
}
