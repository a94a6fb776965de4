package match

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"github.com/symedit/symedit/remedy"
)

// Level is how much a needle line may differ from a haystack line and still
// match. Levels are ordered from strict (Exact) to loose (Loose).
type Level int

// The levels, from strict to loose; see the package documentation.
const (
	Exact Level = iota
	Trailing
	Indent
	Loose
)

// Levels lists every level, from strict to loose.
var Levels = []Level{Exact, Trailing, Indent, Loose}

var levelNames = [...]string{"exact", "trailing", "indent", "loose"}

// String returns the level's name: "exact", "trailing", "indent" or
// "loose".
func (l Level) String() string {
	if l < Exact || l > Loose {
		return fmt.Sprintf("Level(%d)", int(l))
	}
	return levelNames[l]
}

// MarshalText returns the level's name, so that JSON carries "indent".
func (l Level) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// Parse returns the level named s ("exact", "trailing", "indent" or
// "loose", case-insensitive, surrounding white space ignored).
func Parse(s string) (Level, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for i, n := range levelNames {
		if n == t {
			return Level(i), nil
		}
	}
	return 0, fmt.Errorf("unknown match level %q: want exact, trailing, indent or loose", s)
}

// Shift is the constant indentation shift of an Indent or Loose match:
// the haystack's lines are indented Columns columns more than the
// needle's (negative: less), a tab counting TabWidth columns. It is not a
// byte or line offset; its JSON is an object (columns, tab_width, tabs,
// needle_tabs, text) whose key in every result is "offset".
type Shift struct {
	// Columns is the shift in columns (a tab is TabWidth columns).
	Columns int `json:"columns"`
	// TabWidth is the columns a tab counts for (see TabWidth).
	TabWidth int `json:"tab_width"`
	// Tabs is true when the haystack indents with tabs; ShiftIndent then
	// writes tabs.
	Tabs bool `json:"tabs"`
	// NeedleTabs is true when the needle indents with tabs (equal to Tabs
	// when the needle has no indented line).
	NeedleTabs bool `json:"needle_tabs"`
}

// Identity reports whether the shift changes nothing: no shift and the
// same indentation character on both sides.
func (o Shift) Identity() bool { return o.Columns == 0 && o.Tabs == o.NeedleTabs }

// String describes the shift: "+4 spaces", "-1 tab", "+0, tabs for
// spaces" (the needle has tabs where the file has spaces).
func (o Shift) String() string {
	n, unit := o.Columns, "space"
	if o.Tabs && o.TabWidth > 0 && o.Columns%o.TabWidth == 0 {
		n, unit = o.Columns/o.TabWidth, "tab"
	}
	if n != 1 && n != -1 {
		unit += "s"
	}
	s := fmt.Sprintf("%+d %s", n, unit)
	if n == 0 {
		s = "+0"
	}
	switch {
	case o.NeedleTabs && !o.Tabs:
		s += ", tabs for spaces"
	case !o.NeedleTabs && o.Tabs:
		s += ", spaces for tabs"
	}
	return s
}

// MarshalJSON writes the shift's fields and its description as "text".
func (o Shift) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Columns    int    `json:"columns"`
		TabWidth   int    `json:"tab_width"`
		Tabs       bool   `json:"tabs"`
		NeedleTabs bool   `json:"needle_tabs"`
		Text       string `json:"text"`
	}{o.Columns, o.TabWidth, o.Tabs, o.NeedleTabs, o.String()})
}

// Match is one place a needle occurs in a haystack.
type Match struct {
	// Line is the 0-based index in the haystack of the needle's first line.
	Line int `json:"line"`
	// Level is the level the needle matched at.
	Level Level `json:"level"`
	// Shift is the indentation shift from the needle's lines to the
	// haystack's, in columns (the zero Shift below Indent). Its JSON key
	// keeps the name "offset" that clients already read.
	Shift Shift `json:"offset"`
}

// Describe returns the level and, for Indent and Loose, the shift:
// "trailing", "indent +4 spaces".
func (m Match) Describe() string { return Describe(m.Level, m.Shift) }

// Describe returns "exact", "trailing", or for Indent and Loose the level
// followed by the shift: "indent +4 spaces".
func Describe(l Level, o Shift) string {
	if l < Indent {
		return l.String()
	}
	return l.String() + " " + o.String()
}

// Find returns every place the needle occurs in the haystack at level l
// exactly (not at a stricter level too: Find at Indent also returns the
// places where the needle matches exactly, with a zero shift). An empty
// needle occurs nowhere.
func Find(haystack, needle []string, l Level) []Match {
	return find(haystack, needle, l, nil)
}

// find is Find that asks stop (when not nil) before each haystack
// position and returns nil once it says true: a search of a large text
// that its caller no longer wants ends there.
func find(haystack, needle []string, l Level, stop func() bool) []Match {
	if len(needle) == 0 || len(needle) > len(haystack) {
		return nil
	}
	c := NewComparer(haystack, needle, l)
	var out []Match
	for p := 0; p+len(needle) <= len(haystack); p++ {
		if stop != nil && stop() {
			return nil
		}
		var s State
		ok := true
		for i := range needle {
			if !c.Line(p+i, i, &s) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, Match{Line: p, Level: l, Shift: c.Shift(s)})
		}
	}
	return out
}

// Search tries the levels from Exact up to max and returns the matches of
// the first level with any, and that level. One match is the answer;
// several are an ambiguity at that level (a looser level never breaks the
// tie). With no match at any allowed level it returns max and nil.
func Search(haystack, needle []string, max Level) (Level, []Match) {
	return SearchUntil(haystack, needle, max, nil)
}

// SearchUntil is Search that asks stop (when not nil) before each
// haystack position of each level; once stop says true it returns max and
// nil, as for no match. The caller, which set stop (a cancelled call, say),
// tells the two apart.
func SearchUntil(haystack, needle []string, max Level, stop func() bool) (Level, []Match) {
	for l := Exact; l <= max; l++ {
		if ms := find(haystack, needle, l, stop); len(ms) > 0 {
			return l, ms
		}
	}
	return max, nil
}

// Hint is a looser level that would accept a rejected needle: the one
// place where it matches at that level.
type Hint struct {
	// Line is the 1-based file line where the needle would start to
	// match.
	Line int `json:"line" jsonschema:"The 1-based file line where the rejected lines would match at level."`
	// Level is the first level looser than the allowed one with a match.
	Level Level `json:"level" jsonschema:"The first match level looser than the allowed one with a match there: trailing, indent or loose."`
	// Shift is the indentation shift at that level from the needle's
	// lines to the haystack's, in columns. Its JSON key keeps the name
	// "offset" that clients already read.
	Shift Shift `json:"offset" jsonschema:"The indentation shift at that level, from the sent lines to the file's."`
}

// Remedy returns the request change that accepts the hinted match: the
// match option set to Level.
func (h Hint) Remedy() remedy.Remedy { return remedy.Set(remedy.Match, h.Level.String()) }

// FindHint looks, for a needle the levels up to allowed did not find, at
// the looser levels in order: when the first of them with any match has
// exactly one, it returns that match (its Line a 0-based haystack index,
// which the caller turns into the 1-based file line of its Hint). Several
// matches at that level (or none anywhere) give none.
func FindHint(haystack, needle []string, allowed Level) (Match, bool) {
	return FindHintUntil(haystack, needle, allowed, nil)
}

// FindHintUntil is FindHint that asks stop (when not nil) before each
// haystack position; once stop says true it returns no hint.
func FindHintUntil(haystack, needle []string, allowed Level, stop func() bool) (Match, bool) {
	for l := allowed + 1; l <= Loose; l++ {
		ms := find(haystack, needle, l, stop)
		if len(ms) == 0 {
			continue
		}
		if len(ms) > 1 {
			return Match{}, false
		}
		return ms[0], true
	}
	return Match{}, false
}

// State carries the indentation shift across the lines of one candidate
// position for Comparer.Line. Its zero value starts a candidate.
type State struct {
	set     bool
	columns int
}

// Comparer compares needle lines with haystack lines at one level, one
// line at a time, so that callers with their own positional rules (chunk's
// checks) share the matcher's line equality. Build one with NewComparer.
type Comparer struct {
	level      Level
	tabWidth   int
	hayTabs    bool
	needleTabs bool
	hay        []prepared
	needle     []prepared
}

// prepared is a line split for comparison.
type prepared struct {
	raw     string
	trimmed string // trailing white space trimmed
	lead    string // leading white space of trimmed
	content string // trimmed without lead; for Loose, folded
}

// NewComparer prepares haystack and needle for comparison at level l.
func NewComparer(haystack, needle []string, l Level) *Comparer {
	c := &Comparer{level: l, hay: prepare(haystack, l), needle: prepare(needle, l)}
	c.tabWidth = TabWidth(haystack, needle)
	c.hayTabs = indentsWithTabs(haystack)
	c.needleTabs = c.hayTabs
	if hasIndented(needle) {
		c.needleTabs = indentsWithTabs(needle)
	}
	return c
}

func prepare(lines []string, l Level) []prepared {
	out := make([]prepared, len(lines))
	for i, s := range lines {
		p := prepared{raw: s}
		if l >= Trailing {
			p.trimmed = trimRight(s)
		}
		if l >= Indent {
			t := p.trimmed
			if l == Loose {
				t = trimRight(foldRunes(t))
			}
			rest := strings.TrimLeft(t, " \t")
			p.lead, p.content = t[:len(t)-len(rest)], rest
			if l == Loose {
				p.content = foldSpaces(rest)
			}
		}
		out[i] = p
	}
	return out
}

// Level returns the level c compares at.
func (c *Comparer) Level() Level { return c.level }

// Line reports whether haystack line h matches needle line n at c's level,
// given (and updating) the shift of the candidate's earlier lines in s.
func (c *Comparer) Line(h, n int, s *State) bool {
	hp, np := &c.hay[h], &c.needle[n]
	switch c.level {
	case Exact:
		return hp.raw == np.raw
	case Trailing:
		return hp.trimmed == np.trimmed
	}
	if hp.content != np.content {
		return false
	}
	if np.content == "" {
		return true // blank matches blank, whatever its indentation
	}
	d := width(hp.lead, c.tabWidth) - width(np.lead, c.tabWidth)
	if !s.set {
		s.set, s.columns = true, d
		return true
	}
	return s.columns == d
}

// Shift returns the indentation shift a candidate's state stands for
// (the zero Shift below Indent).
func (c *Comparer) Shift(s State) Shift {
	if c.level < Indent {
		return Shift{}
	}
	return Shift{Columns: s.columns, TabWidth: c.tabWidth, Tabs: c.hayTabs, NeedleTabs: c.needleTabs}
}

// ContentEqual reports whether haystack line h and needle line n are equal
// byte for byte once their indentation is removed: the stricter test
// callers apply to lines they delete.
func (c *Comparer) ContentEqual(h, n int) bool {
	return strings.TrimLeft(c.hay[h].raw, " \t") == strings.TrimLeft(c.needle[n].raw, " \t")
}

// ShiftIndent shifts the indentation of lines (without line endings) by
// o: each non-blank line's indentation is measured in columns (a tab is
// o.TabWidth columns), shifted by o.Columns and written in the haystack's
// style (tabs, then spaces for a remainder, when o.Tabs; else spaces).
// Blank lines are kept as they are. An identity shift returns a copy of
// lines. It fails, naming the 1-based line, when a line is indented less
// than a negative shift removes.
func ShiftIndent(lines []string, o Shift) ([]string, error) {
	out := make([]string, len(lines))
	copy(out, lines)
	if o.Identity() {
		return out, nil
	}
	tw := o.TabWidth
	if tw <= 0 {
		tw = 4
	}
	for i, s := range lines {
		if strings.TrimSpace(s) == "" {
			continue
		}
		rest := strings.TrimLeft(s, " \t")
		w := width(s[:len(s)-len(rest)], tw) + o.Columns
		if w < 0 {
			return nil, fmt.Errorf("line %d (%q) is indented less than the %s shift removes", i+1, s, o)
		}
		var b strings.Builder
		if o.Tabs {
			b.WriteString(strings.Repeat("\t", w/tw))
			w %= tw
		}
		b.WriteString(strings.Repeat(" ", w))
		b.WriteString(rest)
		out[i] = b.String()
	}
	return out, nil
}

// TabWidth returns the columns a tab counts for when comparing haystack
// and needle indentation: the indent unit of the haystack when any of its
// lines is indented with spaces only, else of the needle when any of its
// lines is, else 4. A side's unit is the most frequent increase of
// indentation by 2, 3, 4 or 8 columns between consecutive non-blank
// space-indented lines (ties to the smaller; 4 when there is none); other
// increases, such as continuation lines aligned under an opening
// parenthesis, do not count.
func TabWidth(haystack, needle []string) int {
	if u, ok := spaceUnit(haystack); ok {
		return u
	}
	if u, ok := spaceUnit(needle); ok {
		return u
	}
	return 4
}

// spaceUnit returns lines' indent unit and whether any line is indented
// with spaces only.
func spaceUnit(lines []string) (int, bool) {
	counts := map[int]int{}
	found := false
	prev := -1
	for _, s := range lines {
		if strings.TrimSpace(s) == "" {
			continue
		}
		rest := strings.TrimLeft(s, " \t")
		lead := s[:len(s)-len(rest)]
		if strings.Contains(lead, "\t") {
			prev = -1
			continue
		}
		if lead != "" {
			found = true
		}
		if d := len(lead) - prev; prev >= 0 && (d == 2 || d == 3 || d == 4 || d == 8) {
			counts[d]++
		}
		prev = len(lead)
	}
	if !found {
		return 0, false
	}
	best, n := 4, 0
	for d, k := range counts {
		if k > n || k == n && d < best {
			best, n = d, k
		}
	}
	return best, true
}

// hasIndented reports whether a non-blank line of lines is indented.
func hasIndented(lines []string) bool {
	for _, s := range lines {
		if strings.TrimSpace(s) != "" && (s[0] == ' ' || s[0] == '\t') {
			return true
		}
	}
	return false
}

// indentsWithTabs reports whether more indented non-blank lines of lines
// start with a tab than with a space.
func indentsWithTabs(lines []string) bool {
	tabs, spaces := 0, 0
	for _, s := range lines {
		if strings.TrimSpace(s) == "" {
			continue
		}
		switch s[0] {
		case '\t':
			tabs++
		case ' ':
			spaces++
		}
	}
	return tabs > spaces
}

// width is the indentation lead's width in columns, a tab counting tw.
func width(lead string, tw int) int {
	w := 0
	for i := 0; i < len(lead); i++ {
		if lead[i] == '\t' {
			w += tw
		} else {
			w++
		}
	}
	return w
}

func trimRight(s string) string { return strings.TrimRightFunc(s, unicode.IsSpace) }

// foldRunes maps typographic quotes, dashes and non-breaking spaces to
// their ASCII forms (Loose only).
func foldRunes(s string) string {
	if isASCII(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case '\u2018', '\u2019', '\u201A', '\u201B', '\u2032': // ‘ ’ ‚ ‛ ′
			return '\''
		case '\u201C', '\u201D', '\u201E', '\u201F', '\u2033': // “ ” „ ‟ ″
			return '"'
		case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212': // ‐ ‑ ‒ – — ― −
			return '-'
		case '\u00A0', '\u2007', '\u202F', '\u2009', '\u200A', '\u3000': // non-breaking and thin spaces
			return ' '
		}
		return r
	}, s)
}

// foldSpaces turns every run of white space into one space (Loose only).
func foldSpaces(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
