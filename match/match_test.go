package match_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/symedit/symedit/internal/lines"
	"github.com/symedit/symedit/match"
)

// fixture returns a file under testdata/src split into lines.
func fixture(t testing.TB, path string) []string {
	t.Helper()
	b, err := os.ReadFile("../testdata/src/" + path)
	if err != nil {
		t.Fatal(err)
	}
	return lines.Split(string(b))
}

// perturbation turns a copied block into an imperfect copy.
type perturbation func([]string) []string

func mapLines(f func(int, string) string) perturbation {
	return func(ls []string) []string {
		out := make([]string, len(ls))
		for i, l := range ls {
			out[i] = f(i, l)
		}
		return out
	}
}

func lead(l string) (string, string) {
	rest := strings.TrimLeft(l, " \t")
	return l[:len(l)-len(rest)], rest
}

func dedent(n int) perturbation {
	return mapLines(func(_ int, l string) string {
		ld, rest := lead(l)
		if rest == "" {
			return l
		}
		return ld[n:] + rest
	})
}

func indent(s string) perturbation {
	return mapLines(func(_ int, l string) string {
		if strings.TrimSpace(l) == "" {
			return l
		}
		return s + l
	})
}

func tabsFor(w int) perturbation {
	return mapLines(func(_ int, l string) string {
		ld, rest := lead(l)
		return strings.Repeat("\t", len(ld)/w) + strings.Repeat(" ", len(ld)%w) + rest
	})
}

func spacesFor(w int) perturbation {
	return mapLines(func(_ int, l string) string {
		ld, rest := lead(l)
		return strings.ReplaceAll(ld, "\t", strings.Repeat(" ", w)) + rest
	})
}

func trailing(s string) perturbation {
	return mapLines(func(_ int, l string) string { return l + s })
}

// smart turns the quotes of line i into typographic ones.
func smart(i int) perturbation {
	return mapLines(func(j int, l string) string {
		if j != i {
			return l
		}
		var b strings.Builder
		open := map[rune]bool{}
		for _, r := range l {
			switch r {
			case '"':
				b.WriteString(map[bool]string{false: "\u201c", true: "\u201d"}[open[r]])
				open[r] = !open[r]
			case '\'':
				b.WriteString(map[bool]string{false: "\u2018", true: "\u2019"}[open[r]])
				open[r] = !open[r]
			default:
				b.WriteRune(r)
			}
		}
		return b.String()
	})
}

// changeChar changes one character of line i.
func changeChar(i int) perturbation {
	return mapLines(func(j int, l string) string {
		if j != i {
			return l
		}
		k := strings.IndexFunc(l, func(r rune) bool { return r >= 'a' && r <= 'z' })
		return l[:k] + strings.ToUpper(l[k:k+1]) + l[k+1:]
	})
}

func dropLine(i int) perturbation {
	return func(ls []string) []string { return slices.Delete(slices.Clone(ls), i, i+1) }
}

func chain(ps ...perturbation) perturbation {
	return func(ls []string) []string {
		for _, p := range ps {
			ls = p(ls)
		}
		return ls
	}
}

// block is a unique passage of real code: lines from..to (1-based) of file.
type block struct {
	file     string
	from, to int
}

var (
	goStruct   = block{"go/atomic_type.go", 49, 55}     // tabs
	pyStart    = block{"python/process.py", 120, 125}   // 4 spaces, quotes
	javaFormat = block{"java/Inventory.java", 184, 186} // nested method, 4 spaces
	tsIface    = block{"typescript/scheduler.ts", 50, 56}
)

func TestLevels(t *testing.T) {
	cases := []struct {
		name   string
		b      block
		p      perturbation
		crlf   bool
		level  match.Level
		offset string // Offset.String() for indent and loose
	}{
		{"go exact", goStruct, chain(), false, match.Exact, ""},
		{"go CRLF file, LF copy", goStruct, chain(), true, match.Exact, ""},
		{"python trailing blanks", pyStart, trailing("  "), false, match.Trailing, ""},
		{"java trailing tab", javaFormat, trailing("\t"), false, match.Trailing, ""},
		{"python dedented by 4", pyStart, dedent(4), false, match.Indent, "+4 spaces"},
		{"java flush-left", javaFormat, dedent(12), false, match.Indent, "+12 spaces"},
		{"java indented by 2", javaFormat, indent("  "), false, match.Indent, "-2 spaces"},
		{"ts indented by 2", tsIface, indent("  "), false, match.Indent, "-2 spaces"},
		{"python tabs for spaces", pyStart, tabsFor(4), false, match.Indent, "+0, tabs for spaces"},
		{"ts tabs for spaces", tsIface, tabsFor(2), false, match.Indent, "+0, tabs for spaces"},
		{"go spaces for tabs", goStruct, spacesFor(4), false, match.Indent, "+0, spaces for tabs"},
		{"go flush-left", goStruct, dedent(1), false, match.Indent, "+1 tab"},
		{"go extra tab", goStruct, indent("\t"), false, match.Indent, "-1 tab"},
		{"go CRLF, spaces, trailing", goStruct, chain(spacesFor(4), trailing(" ")), true, match.Indent, "+0, spaces for tabs"},
		{"python smart quotes", pyStart, smart(1), false, match.Loose, "+0"},
		{"java smart quotes", javaFormat, smart(1), false, match.Loose, "+0"},
		{"mixed: dedent, smart quotes, trailing", pyStart, chain(dedent(8), smart(1), trailing(" ")), false, match.Loose, "+8 spaces"},
		{"java inner spaces", javaFormat, mapLines(func(_ int, l string) string { return strings.Replace(l, ", ", ",   ", 2) }), false, match.Loose, "+0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hay := fixture(t, c.b.file)
			if c.crlf {
				b, _ := os.ReadFile("../testdata/src/" + c.b.file)
				hay = lines.Split(strings.ReplaceAll(string(b), "\n", "\r\n"))
			}
			orig := hay[c.b.from-1 : c.b.to]
			needle := c.p(slices.Clone(orig))
			before := slices.Clone(hay)
			l, ms := match.Search(hay, needle, match.Loose)
			if l != c.level || len(ms) != 1 || ms[0].Line != c.b.from-1 {
				t.Fatalf("Search(loose) = %v, %+v; want %v at index %d", l, ms, c.level, c.b.from-1)
			}
			if c.level >= match.Indent {
				if got := ms[0].Shift.String(); got != c.offset {
					t.Errorf("offset = %q, want %q", got, c.offset)
				}
				// Shifting the copy back gives the file's lines, when only
				// indentation was perturbed.
				if c.level == match.Indent && !strings.Contains(c.name, "trailing") {
					back, err := match.ShiftIndent(needle, ms[0].Shift)
					if err != nil || !slices.Equal(back, orig) {
						t.Errorf("ShiftIndent = %q, %v; want %q", back, err, orig)
					}
				}
			}
			// Exactly at its level: allowed there, it applies.
			if l, ms := match.Search(hay, needle, c.level); l != c.level || len(ms) != 1 {
				t.Errorf("Search(%v) = %v, %d matches", c.level, l, len(ms))
			}
			if c.level > match.Exact {
				below := c.level - 1
				if _, ms := match.Search(hay, needle, below); ms != nil {
					t.Errorf("Search(%v) found %+v, want nothing", below, ms)
				}
				h, ok := match.FindHint(hay, needle, below)
				if !ok || h.Line != c.b.from-1 || h.Level != c.level {
					t.Errorf("FindHint(%v) = %+v, %v", below, h, ok)
				}
			}
			if !slices.Equal(hay, before) {
				t.Error("the haystack changed")
			}
		})
	}
}

func TestRejectedAtEveryLevel(t *testing.T) {
	cases := []struct {
		name string
		b    block
		p    perturbation
	}{
		{"one changed character", pyStart, changeChar(2)},
		{"one changed character, dedented", javaFormat, chain(dedent(12), changeChar(1))},
		{"a missing line", goStruct, dropLine(3)},
		{"a missing line, smart quotes", pyStart, chain(dropLine(2), smart(1))},
		{"a deleted dash", tsIface, mapLines(func(_ int, l string) string { return strings.Replace(l, "between 0", "between0", 1) })},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hay := fixture(t, c.b.file)
			needle := c.p(slices.Clone(hay[c.b.from-1 : c.b.to]))
			for _, l := range match.Levels {
				if ms := match.Find(hay, needle, l); ms != nil {
					t.Errorf("Find(%v) = %+v, want nothing", l, ms)
				}
			}
			if h, ok := match.FindHint(hay, needle, match.Exact); ok {
				t.Errorf("FindHint = %+v", h)
			}
		})
	}
}

// TestAmbiguousIndentation: a block that occurs twice with different
// indentation, copied at a third, is ambiguous at indent and no looser
// level breaks the tie.
func TestAmbiguousIndentation(t *testing.T) {
	src := fixture(t, "java/Inventory.java")[184:186] // the body of format() and its brace
	flush := dedent(12)(slices.Clone(src))
	var hay []string
	hay = append(hay, "class A {")
	hay = append(hay, indent("    ")(flush)...)
	hay = append(hay, "}", "class B {")
	hay = append(hay, indent("        ")(flush)...)
	hay = append(hay, "}")
	l, ms := match.Search(hay, flush, match.Loose)
	if l != match.Indent || len(ms) != 2 {
		t.Fatalf("Search = %v, %+v; want 2 matches at indent", l, ms)
	}
	if _, ok := match.FindHint(hay, flush, match.Trailing); ok {
		t.Error("FindHint gave a hint for an ambiguous block")
	}
}

func TestParse(t *testing.T) {
	for _, l := range match.Levels {
		got, err := match.Parse(" " + strings.ToUpper(l.String()) + " ")
		if err != nil || got != l {
			t.Errorf("Parse(%v) = %v, %v", l, got, err)
		}
	}
	if _, err := match.Parse("fuzzy"); err == nil {
		t.Error("Parse(fuzzy) succeeded")
	}
	if b, _ := match.Indent.MarshalText(); string(b) != "indent" {
		t.Errorf("MarshalText = %s", b)
	}
}

func TestShiftIndent(t *testing.T) {
	got, err := match.ShiftIndent([]string{"if x {", "\treturn 1", "", "}"}, match.Shift{Columns: 8, TabWidth: 4, Tabs: true, NeedleTabs: true})
	if want := []string{"\t\tif x {", "\t\t\treturn 1", "", "\t\t}"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("ShiftIndent = %q, %v; want %q", got, err, want)
	}
	got, err = match.ShiftIndent([]string{"\tx = 1", "\t\ty"}, match.Shift{Columns: 0, TabWidth: 4, NeedleTabs: true})
	if want := []string{"    x = 1", "        y"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("ShiftIndent = %q, %v; want %q", got, err, want)
	}
	if _, err := match.ShiftIndent([]string{"    a", "b"}, match.Shift{Columns: -4, TabWidth: 4}); err == nil {
		t.Error("ShiftIndent past column 0 succeeded")
	}
}

func TestTabWidth(t *testing.T) {
	if w := match.TabWidth(fixture(t, "typescript/scheduler.ts"), nil); w != 2 {
		t.Errorf("TabWidth(scheduler.ts) = %d, want 2", w)
	}
	if w := match.TabWidth(fixture(t, "python/process.py"), nil); w != 4 {
		t.Errorf("TabWidth(process.py) = %d, want 4", w)
	}
	if w := match.TabWidth(fixture(t, "go/atomic_type.go"), []string{"if x {", "  y", "}"}); w != 2 {
		t.Errorf("TabWidth(go, 2-space needle) = %d, want 2", w)
	}
}

// TestSearchUntilStops: a search whose stop says true finds nothing and
// asks stop no more than once per haystack position and level; a stop that
// never says true changes nothing.
func TestSearchUntilStops(t *testing.T) {
	hay := strings.Split(strings.Repeat("a\n", 1000)+"b", "\n")
	needle := []string{"a", "b"}
	asked := 0
	stop := func() bool { asked++; return asked > 10 }
	if l, ms := match.SearchUntil(hay, needle, match.Loose, stop); ms != nil || l != match.Loose {
		t.Errorf("stopped search found %v at %s", ms, l)
	}
	if asked > 11+3 { // one more ask per remaining level, each stopping at once
		t.Errorf("stop asked %d times after saying true at 11", asked)
	}
	if _, ms := match.SearchUntil(hay, needle, match.Exact, func() bool { return false }); len(ms) != 1 || ms[0].Line != 999 {
		t.Errorf("unstopped search: %v", ms)
	}
	if _, ok := match.FindHintUntil(hay, []string{" a", "b"}, match.Exact, func() bool { return true }); ok {
		t.Error("a stopped hint search gave a hint")
	}
	if m, ok := match.FindHintUntil(hay, []string{"a ", "b"}, match.Exact, nil); !ok || m.Line != 999 || m.Level != match.Trailing {
		t.Errorf("hint %+v %v", m, ok)
	}
}
