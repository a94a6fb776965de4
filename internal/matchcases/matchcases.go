// Package matchcases holds imperfect copies of real code for the tests of
// the match levels: the edit and reply tests share them. It is
// test data in Go form and is imported only by tests.
package matchcases

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/symedit/symedit/match"
)

// fixtures are the real files the cases are cut from.
var fixtures = []string{
	"testdata/src/go/slog_value.go",
	"testdata/src/python/process.py",
	"testdata/src/java/Inventory.java",
	"testdata/src/typescript/scheduler.ts",
}

// Case is an imperfect copy of a block of a file: old lines as a model
// sent them, new lines as sent, and the file expected once applied.
type Case struct {
	Name      string
	Text      string   // the file
	Old, New  []string // as sent
	Want      string   // the file after the edit ("" for refusals)
	Level     match.Level
	Line      int  // 1-based line of the block
	Refused   bool // refused at every level
	Ambiguous bool // refused because it matches twice at its level
}

// pick returns the first 1-based line of a block of n non-blank,
// indented, ASCII lines of lines, unique at level loose, that holds a
// quote when quote is set.
func pick(t testing.TB, lines []string, n int, quote bool) int {
	for p := 10; p+n <= len(lines); p++ {
		block := lines[p : p+n]
		ok := true
		for _, l := range block {
			if strings.TrimSpace(l) == "" || !strings.HasPrefix(l, "    ") && l[0] != '\t' || len(l) < 6 || !ascii(l) || strings.HasSuffix(l, " ") {
				ok = false
				break
			}
		}
		if !ok || quote && !strings.ContainsAny(block[0], `"'`) {
			continue
		}
		if len(match.Find(lines, block, match.Loose)) == 1 {
			return p + 1
		}
	}
	t.Fatalf("no block of %d lines", n)
	return 0
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// shift moves each non-blank line's indentation by d columns (a tab
// counting tw), written with tabs when tabs is set.
func shift(lines []string, d, tw int, tabs bool) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		rest := strings.TrimLeft(l, " \t")
		w := 0
		for _, c := range l[:len(l)-len(rest)] {
			if c == '\t' {
				w += tw
			} else {
				w++
			}
		}
		w += d
		lead := strings.Repeat(" ", w)
		if tabs {
			lead = strings.Repeat("\t", w/tw) + strings.Repeat(" ", w%tw)
		}
		out[i] = lead + rest
	}
	return out
}

func mapLines(lines []string, f func(string) string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = f(l)
	}
	return out
}

// Cases builds the table from the fixtures under repo, the path of the
// repository's top folder from the calling test ("..", say).
func Cases(t testing.TB, repo string) []Case {
	var cases []Case
	for _, path := range fixtures {
		b, err := os.ReadFile(filepath.Join(repo, path))
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		tabs := strings.HasSuffix(path, ".go")
		name := path[strings.LastIndexByte(path, '/')+1:]
		replace := func(text string, p int, block, repl []string) string {
			ls := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
			out := append(append(append([]string{}, ls[:p-1]...), repl...), ls[p-1+len(block):]...)
			return strings.Join(out, "\n") + "\n"
		}
		add := func(what string, p int, block []string, old, new []string, l match.Level) {
			// new is the block with its first line changed, as the
			// model sends it; the file gets it at the file's indentation.
			written := append([]string{block[0] + " /* changed */"}, block[1:]...)
			cases = append(cases, Case{Name: name + " " + what, Text: text, Old: old, New: new,
				Want: replace(text, p, block, written), Level: l, Line: p})
		}
		p := pick(t, lines, 3, false)
		block := lines[p-1 : p+2]
		changed := append([]string{block[0] + " /* changed */"}, block[1:]...)
		if tabs {
			add("dedented by one tab", p, block, shift(block, -4, 4, true), shift(changed, -4, 4, true), match.Indent)
			add("spaces for tabs", p, block, shift(block, 0, 4, false), shift(changed, 0, 4, false), match.Indent)
			add("indented by 2", p, block, shift(block, 2, 4, true), shift(changed, 2, 4, true), match.Indent)
		} else {
			add("dedented by 4", p, block, shift(block, -4, 4, false), shift(changed, -4, 4, false), match.Indent)
			add("tabs for spaces", p, block, shift(block, 0, 4, true), shift(changed, 0, 4, true), match.Indent)
			add("indented by 2", p, block, shift(block, 2, 4, false), shift(changed, 2, 4, false), match.Indent)
		}
		add("trailing blanks", p, block, mapLines(block, func(s string) string { return s + " \t " }), changed, match.Trailing)
		add("mixed: dedented with trailing blanks", p, block,
			mapLines(shift(block, -2, 4, tabs), func(s string) string { return s + "  " }), shift(changed, -2, 4, tabs), match.Indent)
		crlf := strings.ReplaceAll(text, "\n", "\r\n")
		cases = append(cases, Case{Name: name + " CRLF file, LF text", Text: crlf, Old: block, New: changed,
			Want: strings.ReplaceAll(replace(text, p, block, changed), "\n", "\r\n"), Level: match.Exact, Line: p})
		q := pick(t, lines, 2, true)
		qb := lines[q-1 : q+1]
		smart := mapLines(qb, func(s string) string {
			s = strings.Replace(s, `"`, "\u201C", 1)
			return strings.Replace(s, `'`, "\u2019", 1)
		})
		add("smart quotes", q, qb, smart, append([]string{qb[0] + " /* changed */"}, qb[1:]...), match.Loose)
		// Refused at every level.
		one := append([]string{}, block...)
		i := strings.IndexFunc(one[1], func(r rune) bool { return r >= 'a' && r <= 'y' })
		one[1] = one[1][:i] + string(one[1][i]+1) + one[1][i+1:]
		cases = append(cases, Case{Name: name + " one changed character", Text: text, Old: one, New: changed, Refused: true, Line: p},
			Case{Name: name + " a missing line", Text: text, Old: []string{block[0], block[2]}, New: changed, Refused: true, Line: p})
		twice := text + strings.Join(shift(block, 4, 4, tabs), "\n") + "\n"
		cases = append(cases, Case{Name: name + " twice at different indentation", Text: twice,
			Old: shift(block, 2, 4, tabs), New: changed, Refused: true, Ambiguous: true, Line: p})
	}
	return cases
}
