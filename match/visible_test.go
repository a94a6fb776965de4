package match_test

import (
	"testing"

	"github.com/symedit/symedit/match"
)

// TestWhitespace: lines that differ only in white space or invisible
// characters are told apart in words (the reports of Claude Code users:
// a tab shown as spaces, a no-break space, a CR); lines whose text
// differs are not whitespace differences.
func TestWhitespace(t *testing.T) {
	for _, tt := range []struct {
		sent, file string
		want       string // "" : not a whitespace difference
	}{
		{"    x = 1", "\tx = 1", "the file's line is indented with 1 tab, the sent line with 4 spaces"},
		{"\t  return x", "\t\treturn x", "the file's line is indented with 2 tabs, the sent line with 1 tab and 2 spaces"},
		{"x = 1", "x = 1  ", "the file's line ends with 2 spaces"},
		{"x = 1 ", "x = 1", "the sent line ends with 1 space the file's line does not have"},
		{"x = 1", "x = 1\r", "the file's line ends with 1 carriage return (U+000D)"},
		{"a = b", "a =\u00a0b", "the file's line has a no-break space (U+00A0) at byte 3"},
		{"ab", "a\u200bb", "the file's line has a zero-width space (U+200B) at byte 1"},
		{"a\u2009b", "a b", "the sent line has an invisible character (U+2009) at byte 1"},
		{"a  b", "a b", `the white space between words differs (the file's line: "a b")`},
		{" ", "", "the file's line is empty, the sent line holds 1 space"},
		{"", "\t", "the file's line holds 1 tab, the sent line is empty"},
		{"x = 1", "x = 2", ""},
		{"x = 1", "x = 1", ""},
	} {
		got, ok := match.Whitespace(tt.sent, tt.file)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("Whitespace(%q, %q) = %q, %v; want %q", tt.sent, tt.file, got, ok, tt.want)
		}
	}
}

func TestVisible(t *testing.T) {
	for in, want := range map[string]string{
		"\tx = 1  ":   "→x = 1··",
		"a\u00a0b\r":  "a⍽b␍",
		"a\u200bb":    "a[U+200B]b",
		"plain text":  "plain text",
		"  lead only": "  lead only",
	} {
		if got := match.Visible(in); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIndentUnit(t *testing.T) {
	for _, tt := range []struct {
		lines []string
		want  string
	}{
		{[]string{"def f():", "    if x:", "        y()"}, "4 spaces"},
		{[]string{"func f() {", "\tx()", "}"}, "tabs"},
		{[]string{"a", "b"}, ""},
		{[]string{"f(", "  a,", "  b)"}, "2 spaces"},
	} {
		if got := match.IndentUnit(tt.lines); got != tt.want {
			t.Errorf("IndentUnit(%q) = %q, want %q", tt.lines, got, tt.want)
		}
	}
}
