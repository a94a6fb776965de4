package textedit_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/internal/testfile"
	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/textedit"
	"golang.org/x/tools/txtar"
)

// teSlogPath is the real Go file the text-edit tests rename identifiers in.
const teSlogPath = "../testdata/src/go/slog_value.go"

func teReadSlog(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile(teSlogPath)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// teApply applies edits and fails the test on an error.
func teApply(t *testing.T, text, eol string, edits ...textedit.TextEdit) textedit.TextEditResult {
	t.Helper()
	res, err := textedit.ApplyTextEdits(text, eol, edits)
	if err != nil {
		t.Fatalf("ApplyTextEdits: %v", err)
	}
	return res
}

// teReject applies edits, wants a *TextEditError, and checks that the
// rejected call returned no text.
func teReject(t *testing.T, text, eol string, edits ...textedit.TextEdit) *textedit.TextEditError {
	t.Helper()
	res, err := textedit.ApplyTextEdits(text, eol, edits)
	var te *textedit.TextEditError
	if !errors.As(err, &te) {
		t.Fatalf("ApplyTextEdits = %v, want a *TextEditError", err)
	}
	if !reflect.DeepEqual(res, textedit.TextEditResult{}) {
		t.Fatalf("rejected call returned a result: %+v", res)
	}
	return te
}

func TestParseTextEdits(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []textedit.TextEdit
	}{
		{"array, occurrences default 1", `[{"old_text": "a", "new_text": "b"}]`,
			[]textedit.TextEdit{{OldText: "a", NewText: "b", Occurrences: 1}}},
		{"object form", `{"edits": [{"old_text": "a", "new_text": "", "occurrences": 3}]}`,
			[]textedit.TextEdit{{OldText: "a", NewText: "", Occurrences: 3}}},
		{"several, keys in any order, white space around", "\n [ {\"new_text\": \"y\", \"occurrences\": 12, \"old_text\": \"x\"},\n{\"old_text\": \"line1\\nline2\", \"new_text\": \"\\t\\u00e9\\ud83d\\ude00\"} ] \n",
			[]textedit.TextEdit{{OldText: "x", NewText: "y", Occurrences: 12}, {OldText: "line1\nline2", NewText: "\té😀", Occurrences: 1}}},
		{"regex characters are plain text", `[{"old_text": "a.b*c(d)[e]$^\\", "new_text": "z"}]`,
			[]textedit.TextEdit{{OldText: `a.b*c(d)[e]$^\`, NewText: "z", Occurrences: 1}}},
		{"white space only old_text", `[{"old_text": " ", "new_text": ""}]`,
			[]textedit.TextEdit{{OldText: " ", NewText: "", Occurrences: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := textedit.ParseTextEdits([]byte(tt.input))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseTextEditsErrors(t *testing.T) {
	many := func(n int) string {
		return "[" + strings.Repeat(`{"old_text": "a", "new_text": "b"},`, n-1) + `{"old_text": "a", "new_text": "b"}]`
	}
	tests := []struct {
		name  string
		input string
		edit  int
		key   string
		msg   string // a substring of the message
	}{
		{"empty input", "  \n", 0, "", "empty input: want a JSON array of edits"},
		{"bad JSON", `[{"old_text": "a", "new_text": "b"}`, 0, "", "bad JSON: line 1, column 35: unexpected end of JSON input"},
		{"trailing data", `[] []`, 0, "", "bad JSON"},
		{"empty list", `[]`, 0, "", "no edits: the list is empty"},
		{"empty list in object", `{"edits": []}`, 0, "edits", "no edits"},
		{"null", `null`, 0, "", `want a JSON array of edits or {"edits": [...]}, got null`},
		{"string", `"old"`, 0, "", "got \"old\""},
		{"unknown top-level key", `{"edits": [], "path": "x"}`, 0, "path", "unknown top-level key"},
		{"repeated top-level key", `{"edits": [], "edits": []}`, 0, "edits", "repeated key"},
		{"missing edits", `{}`, 0, "", `missing "edits"`},
		{"edits not an array", `{"edits": {"old_text": "a"}}`, 0, "edits", "want a JSON array"},
		{"edit not an object", `[{"old_text": "a", "new_text": "b"}, "x"]`, 2, "", `want an object {"old_text"`},
		{"edit null", `[null]`, 1, "", "got null"},
		{"unknown key", `[{"old_text": "a", "new_text": "b", "regex": true}]`, 1, "regex", "unknown key: an edit has only old_text, new_text and occurrences"},
		{"unknown key with hint", `[{"old_string": "a", "new_text": "b"}]`, 1, "old_string", `did you mean "old_text"?`},
		{"camel case hint", `[{"old_text": "a", "newText": "b"}]`, 1, "newText", `did you mean "new_text"?`},
		{"count hint", `[{"old_text": "a", "new_text": "b", "count": 2}]`, 1, "count", `did you mean "occurrences"?`},
		{"repeated key", `[{"old_text": "a", "old_text": "b", "new_text": "c"}]`, 1, "old_text", "repeated key"},
		{"missing old_text", `[{"new_text": "b"}]`, 1, "old_text", "missing: every edit needs old_text and new_text"},
		{"missing new_text", `[{"old_text": "a", "new_text": "b"}, {"old_text": "a"}]`, 2, "new_text", "missing"},
		{"empty old_text", `[{"old_text": "", "new_text": "b"}]`, 1, "old_text", "old_text is empty: "},
		{"old_text a number", `[{"old_text": 1, "new_text": "b"}]`, 1, "old_text", "want a string, got 1"},
		{"old_text null", `[{"old_text": null, "new_text": "b"}]`, 1, "old_text", "want a string, got null"},
		{"old_text an array of lines", `[{"old_text": ["a"], "new_text": "b"}]`, 1, "old_text", `want a string, got ["a"]`},
		{"new_text null", `[{"old_text": "a", "new_text": null}]`, 1, "new_text", "want a string, got null"},
		{"occurrences zero", `[{"old_text": "a", "new_text": "b", "occurrences": 0}]`, 1, "occurrences", "want a positive integer (1 or more; 1 when absent), got 0"},
		{"occurrences negative", `[{"old_text": "a", "new_text": "b", "occurrences": -2}]`, 1, "occurrences", "got -2"},
		{"occurrences fraction", `[{"old_text": "a", "new_text": "b", "occurrences": 1.5}]`, 1, "occurrences", "got 1.5"},
		{"occurrences 1.0", `[{"old_text": "a", "new_text": "b", "occurrences": 1.0}]`, 1, "occurrences", "got 1.0"},
		{"occurrences exponent", `[{"old_text": "a", "new_text": "b", "occurrences": 1e2}]`, 1, "occurrences", "got 1e2"},
		{"occurrences string", `[{"old_text": "a", "new_text": "b", "occurrences": "2"}]`, 1, "occurrences", `got "2"`},
		{"occurrences null", `[{"old_text": "a", "new_text": "b", "occurrences": null}]`, 1, "occurrences", "got null"},
		{"occurrences too large", `[{"old_text": "a", "new_text": "b", "occurrences": 99999999999999999999}]`, 1, "occurrences", "got 99999999999999999999"},
		{"1001 edits", many(1001), 0, "", "1001 edits: at most 1000 per call"},
		{"1001 edits in object", `{"edits": ` + many(1001) + `}`, 0, "edits", "1001 edits"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := textedit.ParseTextEdits([]byte(tt.input))
			var ie *textedit.TextEditInputError
			if !errors.As(err, &ie) {
				t.Fatalf("ParseTextEdits = %+v, %v; want a *TextEditInputError", got, err)
			}
			if got != nil {
				t.Errorf("edits = %+v, want nil", got)
			}
			if ie.Edit != tt.edit || ie.Key != tt.key || !strings.Contains(ie.Msg, tt.msg) {
				t.Errorf("error = {Edit:%d Key:%q Msg:%q}, want edit %d, key %q, message containing %q", ie.Edit, ie.Key, ie.Msg, tt.edit, tt.key, tt.msg)
			}
			// The text names the edit and the key.
			msg := err.Error()
			if !strings.HasPrefix(msg, "invalid edits: ") ||
				tt.edit > 0 && !strings.Contains(msg, fmt.Sprintf("edit %d: ", tt.edit)) ||
				tt.key != "" && !strings.Contains(msg, `"`+tt.key+`": `) {
				t.Errorf("Error() = %q does not name edit %d and key %q", msg, tt.edit, tt.key)
			}
		})
	}
	if _, err := textedit.ParseTextEdits([]byte(many(1000))); err != nil {
		t.Errorf("1000 edits: %v", err)
	}
}

func TestApplyTextEdits(t *testing.T) {
	// summary is textedit.TextEditSummary without the match level and offset
	// (every edit here matches exactly).
	type summary struct {
		Edit, OccurrencesReplaced int
		Lines                     []int
	}
	tests := []struct {
		name  string
		text  string
		eol   string
		edits []textedit.TextEdit
		want  string
		sums  []summary // nil: not checked
	}{
		{"single edit, default occurrences", "Hello World", "",
			[]textedit.TextEdit{{OldText: "World", NewText: "Universe"}}, "Hello Universe",
			[]summary{{Edit: 1, OccurrencesReplaced: 1, Lines: []int{1}}}},
		{"explicit occurrences", "foo bar foo baz foo", edit.LF,
			[]textedit.TextEdit{{OldText: "foo", NewText: "qux", Occurrences: 3}}, "qux bar qux baz qux",
			[]summary{{Edit: 1, OccurrencesReplaced: 3, Lines: []int{1, 1, 1}}}},
		{"occurrences 1 explicitly", "a\nb\nc\n", edit.LF,
			[]textedit.TextEdit{{OldText: "b", NewText: "B", Occurrences: 1}}, "a\nB\nc\n",
			[]summary{{Edit: 1, OccurrencesReplaced: 1, Lines: []int{2}}}},
		{"sequential, counted on the current text", "const a = 1;\nconst b = 2;", edit.LF,
			[]textedit.TextEdit{
				{OldText: "const", NewText: "let", Occurrences: 2},
				{OldText: "let a", NewText: "let x"},
				{OldText: "= 1", NewText: "= 100"},
			}, "let x = 100;\nlet b = 2;",
			[]summary{{1, 2, []int{1, 2}}, {2, 1, []int{1}}, {3, 1, []int{1}}}},
		{"edit creates the text the next one targets", "alpha\nbeta\n", edit.LF,
			[]textedit.TextEdit{
				{OldText: "beta", NewText: "gamma gamma"},
				{OldText: "gamma", NewText: "delta", Occurrences: 2},
			}, "alpha\ndelta delta\n",
			[]summary{{1, 1, []int{2}}, {2, 2, []int{2, 2}}}},
		{"second edit modifies the first one's result", "x = old(1)\n", edit.LF,
			[]textedit.TextEdit{{OldText: "old(1)", NewText: "mid(1)"}, {OldText: "mid(1)", NewText: "new(2)"}}, "x = new(2)\n", nil},
		{"whitespace kept exactly", "function  foo() {\n\treturn  true;\n}", edit.LF,
			[]textedit.TextEdit{{OldText: "function  foo", NewText: "function bar"}}, "function bar() {\n\treturn  true;\n}", nil},
		{"regex characters are literal", "x := `a.b*c(d)[e]$^\\` + `aXbbbc(d)[e]`\n", edit.LF,
			[]textedit.TextEdit{{OldText: `a.b*c(d)[e]$^\`, NewText: "lit"}}, "x := `lit` + `aXbbbc(d)[e]`\n",
			[]summary{{1, 1, []int{1}}}},
		{"dot does not match any byte", "abc a.c", edit.LF,
			[]textedit.TextEdit{{OldText: "a.c", NewText: "X"}}, "abc X", nil},
		{"unicode and emoji", "naïve café ☕\nemoji: 😀😀 and 😀\n", edit.LF,
			[]textedit.TextEdit{{OldText: "😀", NewText: "🙂", Occurrences: 3}, {OldText: "café ☕", NewText: "thé 🍵"}},
			"naïve thé 🍵\nemoji: 🙂🙂 and 🙂\n",
			[]summary{{1, 3, []int{2, 2, 2}}, {2, 1, []int{1}}}},
		{"overlapping matches count like strings.Count", "aaaa", edit.LF,
			[]textedit.TextEdit{{OldText: "aaa", NewText: "b"}}, "ba", nil},
		{"overlapping matches, left to right", "aaaaaa", edit.LF,
			[]textedit.TextEdit{{OldText: "aa", NewText: "b", Occurrences: 3}}, "bbb", nil},
		{"occurrences across line boundaries", "end\nstart\nend\nstart\n", edit.LF,
			[]textedit.TextEdit{{OldText: "end\nstart", NewText: "end;start", Occurrences: 2}}, "end;start\nend;start\n",
			[]summary{{1, 2, []int{1, 3}}}},
		{"multi-line old_text", "def f():\n    a = 1\n    b = 2\n    return a\n", edit.LF,
			[]textedit.TextEdit{{OldText: "    a = 1\n    b = 2\n", NewText: "    a, b = 1, 2\n"}},
			"def f():\n    a, b = 1, 2\n    return a\n", []summary{{1, 1, []int{2}}}},
		{"edit at the start", "first\nsecond\n", edit.LF,
			[]textedit.TextEdit{{OldText: "first", NewText: "1st"}}, "1st\nsecond\n", nil},
		{"edit at the end, no final newline kept", "first\nsecond", edit.LF,
			[]textedit.TextEdit{{OldText: "second", NewText: "2nd"}}, "first\n2nd", []summary{{1, 1, []int{2}}}},
		{"final newline not added", "a\nb", edit.LF,
			[]textedit.TextEdit{{OldText: "a\nb", NewText: "x\ny"}}, "x\ny", nil},
		{"replace the whole content", "all of it\n", edit.LF,
			[]textedit.TextEdit{{OldText: "all of it\n", NewText: "new\n"}}, "new\n", nil},
		{"delete everything", "gone", edit.LF,
			[]textedit.TextEdit{{OldText: "gone", NewText: ""}}, "", nil},
		{"deletion", "keep drop keep", edit.LF,
			[]textedit.TextEdit{{OldText: " drop", NewText: ""}}, "keep keep", nil},
		{"null bytes", "a\x00b\x00c", edit.LF,
			[]textedit.TextEdit{{OldText: "\x00", NewText: "-", Occurrences: 2}}, "a-b-c", nil},
		{"empty new_text in a sequence that shifts lines", "1\n2\n3\n4\n5\n", edit.LF,
			[]textedit.TextEdit{{OldText: "2\n3\n", NewText: ""}, {OldText: "5", NewText: "five"}}, "1\n4\nfive\n",
			[]summary{{1, 1, []int{2}}, {2, 1, []int{5}}}},
		{"lines inserted before keep original numbers", "a\nb\nc\n", edit.LF,
			[]textedit.TextEdit{{OldText: "a\n", NewText: "a\nx\ny\nz\n"}, {OldText: "c", NewText: "C"}}, "a\nx\ny\nz\nb\nC\n",
			[]summary{{1, 1, []int{1}}, {2, 1, []int{3}}}},
		{"renaming a variable (seed)", "\n  const userId = getUserId();\n  console.log(userId);\n  if (userId) {\n    return userId.toString();\n  }\n", edit.LF,
			[]textedit.TextEdit{{OldText: "userId", NewText: "userIdentifier", Occurrences: 4}},
			"\n  const userIdentifier = getUserId();\n  console.log(userIdentifier);\n  if (userIdentifier) {\n    return userIdentifier.toString();\n  }\n",
			[]summary{{1, 4, []int{2, 3, 4, 5}}}},
		{"import paths (seed)", "import { foo } from './old-path';\nimport { bar } from './old-path';\nimport { baz } from './other-path';\n", edit.LF,
			[]textedit.TextEdit{{OldText: "'./old-path'", NewText: "'./new-path'", Occurrences: 2}},
			"import { foo } from './new-path';\nimport { bar } from './new-path';\nimport { baz } from './other-path';\n", nil},
		{"comments (seed)", "// TODO: implement this\nfunction feature1() {\n  // TODO: implement this\n}\n\n// TODO: implement this  \nfunction feature2() {\n  return null; // TODO: implement this\n}\n", edit.LF,
			[]textedit.TextEdit{{OldText: "// TODO: implement this", NewText: "// DONE: implemented", Occurrences: 4}},
			"// DONE: implemented\nfunction feature1() {\n  // DONE: implemented\n}\n\n// DONE: implemented  \nfunction feature2() {\n  return null; // DONE: implemented\n}\n",
			[]summary{{1, 4, []int{1, 3, 6, 8}}}},

		// Line endings.
		{"CRLF file, LF edit: matches and stays CRLF", "line1\r\nline2\r\nline3", edit.CRLF,
			[]textedit.TextEdit{{OldText: "line1\nline2", NewText: "one\ntwo\nthree"}}, "one\r\ntwo\r\nthree\r\nline3",
			[]summary{{1, 1, []int{1}}}},
		{"CRLF file, CRLF edit", "line1\r\nline2\r\nline3\r\n", edit.CRLF,
			[]textedit.TextEdit{{OldText: "line2\r\n", NewText: "2\r\n"}}, "line1\r\n2\r\nline3\r\n", []summary{{1, 1, []int{2}}}},
		{"CRLF file, eol detected", "a\r\nb\r\n", "",
			[]textedit.TextEdit{{OldText: "a\nb", NewText: "b\na"}}, "b\r\na\r\n", nil},
		{"CRLF file, lone CR in new_text becomes CRLF", "a\r\nb\r\n", edit.CRLF,
			[]textedit.TextEdit{{OldText: "a", NewText: "x\ry"}}, "x\r\ny\r\nb\r\n", nil},
		{"CR file, LF edit", "line1\rline2\rline3", edit.CR,
			[]textedit.TextEdit{{OldText: "line2\nline3", NewText: "two\nthree"}}, "line1\rtwo\rthree",
			[]summary{{1, 1, []int{2}}}},
		{"CR file, CRLF edit", "a\rb\rc\r", edit.CR,
			[]textedit.TextEdit{{OldText: "b\r\nc", NewText: "B\r\nC"}}, "a\rB\rC\r", []summary{{1, 1, []int{2}}}},
		{"LF file, CRLF edit", "line1\nline2\nline3", edit.LF,
			[]textedit.TextEdit{{OldText: "line1\r\nline2", NewText: "one\r\ntwo"}}, "one\ntwo\nline3", nil},
		{"mixed file matched byte for byte", "a\r\nb\nc\r\nd\n", edit.LF,
			[]textedit.TextEdit{{OldText: "a\r\nb\n", NewText: "A\r\nB\n"}, {OldText: "c\r\n", NewText: "C\n"}}, "A\r\nB\nC\nd\n",
			[]summary{{1, 1, []int{1}}, {2, 1, []int{3}}}},
		{"mixed file keeps a lone CR inside a line", "x\ry\nz\n", edit.LF,
			[]textedit.TextEdit{{OldText: "z", NewText: "Z"}}, "x\ry\nZ\n", []summary{{1, 1, []int{2}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := teApply(t, tt.text, tt.eol, tt.edits...)
			if res.Text != tt.want {
				t.Errorf("text = %q, want %q", res.Text, tt.want)
			}
			total := 0
			for i, s := range res.Edits {
				if s.Edit != i+1 || s.OccurrencesReplaced != max(tt.edits[i].Occurrences, 1) || len(s.Lines) != s.OccurrencesReplaced {
					t.Errorf("summary %d = %+v", i, s)
				}
				total += s.OccurrencesReplaced
			}
			if len(res.Edits) != len(tt.edits) || res.TotalReplacements != total {
				t.Errorf("%d summaries, total %d; want %d, %d", len(res.Edits), res.TotalReplacements, len(tt.edits), total)
			}
			got := make([]summary, len(res.Edits))
			for i, s := range res.Edits {
				if s.Match != match.Exact || s.Shift != nil {
					t.Errorf("edit %d matched at %s, want exact", s.Edit, s.Describe())
				}
				got[i] = summary{s.Edit, s.OccurrencesReplaced, s.Lines}
			}
			if tt.sums != nil && !reflect.DeepEqual(got, tt.sums) {
				t.Errorf("summaries = %+v, want %+v", got, tt.sums)
			}
		})
	}
}

// TestApplyTextEditsMixedNeedsExactEndings: in a file that mixes endings,
// an LF old_text does not match a CRLF line break, and the error explains.
func TestApplyTextEditsMixedNeedsExactEndings(t *testing.T) {
	text := "one\r\ntwo\nthree\r\n"
	te := teReject(t, text, edit.CRLF, textedit.TextEdit{OldText: "one\ntwo", NewText: "x"})
	if te.Type != textedit.TextEditNoMatch || te.SearchText != "one\ntwo" {
		t.Fatalf("error = %+v", te)
	}
	if len(te.Similar) == 0 || te.Similar[0].LineNumber != 1 || te.Similar[0].SimilarityScore != 1 ||
		!reflect.DeepEqual(te.Similar[0].Differences, []textedit.StringDiff{{Type: textedit.TextDiffWhitespace, Expected: "one\ntwo", Found: "one\r\ntwo"}}) {
		t.Errorf("similar = %+v", te.Similar)
	}
	if !teHasFix(te, textedit.TextFixCheckWhitespace, "The file mixes line endings (2 CRLF, 1 LF)") {
		t.Errorf("fixes = %+v", te.Fixes)
	}
	// With the file's own endings it applies.
	res := teApply(t, text, edit.CRLF, textedit.TextEdit{OldText: "one\r\ntwo\n", NewText: "1\r\n2\n"})
	if res.Text != "1\r\n2\nthree\r\n" {
		t.Errorf("text = %q", res.Text)
	}
}

func teHasFix(te *textedit.TextEditError, typ, substr string) bool {
	for _, f := range te.Fixes {
		if f.Type == typ && strings.Contains(f.Suggestion+" "+f.Example, substr) {
			return true
		}
	}
	return false
}

func teFixTypes(te *textedit.TextEditError) []string {
	var out []string
	for _, f := range te.Fixes {
		out = append(out, f.Type)
	}
	return out
}

// TestApplyTextEditsWrongCount: expected 3, found 5; every location is
// reported with its line, byte columns, content and context.
func TestApplyTextEditsWrongCount(t *testing.T) {
	text := strings.Join([]string{
		"function init() {", // 1
		"    console.log('Starting process');",
		"    const config = loadConfig();",
		"}",
		"function run(x) {", // 5
		"        console.log(x); console.log(x * 2);",
		"}",
		"",
		"console.log('done');", // 9
		"const ünï = '😀'; console.log(ünï)",
	}, "\n") + "\n"
	te := teReject(t, text, edit.LF,
		textedit.TextEdit{OldText: "init", NewText: "start"},
		textedit.TextEdit{OldText: "console.log", NewText: "logger.info", Occurrences: 3})
	if te.Type != textedit.TextEditWrongCount || te.Edit != 2 || te.Total != 2 || te.Expected != 3 || te.Actual != 5 {
		t.Fatalf("error = %+v", te)
	}
	if !errors.Is(te, textedit.ErrTextWrongCount) || errors.Is(te, textedit.ErrTextNoMatch) {
		t.Errorf("errors.Is does not match the sentinel")
	}
	want := []textedit.MatchLocation{
		{LineNumber: 2, EndLineNumber: 2, ColumnStart: 5, ColumnEnd: 16, LineContent: "    console.log('Starting process');",
			ContextBefore: "function start() {", ContextAfter: "    const config = loadConfig();"},
		{LineNumber: 6, EndLineNumber: 6, ColumnStart: 9, ColumnEnd: 20, LineContent: "        console.log(x); console.log(x * 2);",
			ContextBefore: "function run(x) {", ContextAfter: "}"},
		{LineNumber: 6, EndLineNumber: 6, ColumnStart: 25, ColumnEnd: 36, LineContent: "        console.log(x); console.log(x * 2);",
			ContextBefore: "function run(x) {", ContextAfter: "}"},
		{LineNumber: 9, EndLineNumber: 9, ColumnStart: 1, ColumnEnd: 12, LineContent: "console.log('done');",
			ContextBefore: "", ContextAfter: "const ünï = '😀'; console.log(ünï)"},
		// Byte columns: "const ünï = '😀'; " is 22 bytes (ü and ï 2 each, 😀 4).
		{LineNumber: 10, EndLineNumber: 10, ColumnStart: 23, ColumnEnd: 34, LineContent: "const ünï = '😀'; console.log(ünï)",
			ContextBefore: "console.log('done');", ContextAfter: ""},
	}
	if !reflect.DeepEqual(te.Locations, want) {
		t.Errorf("locations:\n got %+v\nwant %+v", te.Locations, want)
	}
	if te.Similar != nil {
		t.Errorf("similar = %+v, want none when more were found than expected", te.Similar)
	}
	if got := teFixTypes(te); !reflect.DeepEqual(got, []string{textedit.TextFixAdjustCount, textedit.TextFixUseExactText}) {
		t.Errorf("fix types = %v", got)
	}
	if te.Fixes[0].Example != `"occurrences": 5` || !strings.Contains(te.Fixes[0].Suggestion, "Set occurrences to 5") {
		t.Errorf("ADJUST_COUNT = %+v", te.Fixes[0])
	}
	// The example makes old_text unique: line 2's text occurs once.
	if te.Fixes[1].Example != `"old_text": "    console.log('Starting process');" (line 2, which occurs once)` {
		t.Errorf("USE_EXACT_TEXT example = %q", te.Fixes[1].Example)
	}
	msg := te.Error()
	for _, s := range []string{
		"edit 2 of 2 failed: expected 3 occurrences of old_text but found 5 (lines 2, 6, 6, 9, 10) as it reads after edit 1.",
		">>>console.log<<<",
		"  line 6, column 25:         console.log(x); console.log(x * 2);",
		"1. Set occurrences to 5 if you want to replace all 5 occurrences.",
	} {
		if !strings.Contains(msg, s) {
			t.Errorf("Error() lacks %q:\n%s", s, msg)
		}
	}
}

// TestApplyTextEditsFewerThanExpected: fewer occurrences than expected
// lists them and the places that differ slightly.
func TestApplyTextEditsFewerThanExpected(t *testing.T) {
	text := "a := compute(1)\nb := compute(2)\nc := Compute(3)\n"
	te := teReject(t, text, edit.LF, textedit.TextEdit{OldText: "compute(", NewText: "calc(", Occurrences: 3})
	if te.Type != textedit.TextEditWrongCount || te.Actual != 2 || len(te.Locations) != 2 {
		t.Fatalf("error = %+v", te)
	}
	if len(te.Similar) != 1 || te.Similar[0].LineNumber != 3 || te.Similar[0].Match != "Compute(" ||
		!reflect.DeepEqual(te.Similar[0].Differences, []textedit.StringDiff{{Type: textedit.TextDiffCase, Expected: "compute", Found: "Compute"}}) {
		t.Errorf("similar = %+v (want line 3 only: lines 1 and 2 hold occurrences)", te.Similar)
	}
	if te.Fixes[0].Type != textedit.TextFixAdjustCount || te.Fixes[0].Example != `"occurrences": 2` {
		t.Errorf("fixes = %+v", te.Fixes)
	}
}

// TestApplyTextEditsEarlierEditRemovedText: an edit removing the text the
// next one needs fails the next one as NO_MATCH, naming the earlier edit,
// with original line numbers.
func TestApplyTextEditsEarlierEditRemovedText(t *testing.T) {
	text := "header\n\nfunc old() {\n\treturn 1\n}\n"
	te := teReject(t, text, edit.LF,
		textedit.TextEdit{OldText: "header\n", NewText: "header\nline a\nline b\n"},
		textedit.TextEdit{OldText: "func old() {\n\treturn 1\n}", NewText: "func renamed() int {\n\treturn 10\n}"},
		textedit.TextEdit{OldText: "\treturn 1\n", NewText: "\treturn 2\n"})
	if te.Type != textedit.TextEditNoMatch || te.Edit != 3 || te.Total != 3 || te.Actual != 0 || te.Expected != 1 {
		t.Fatalf("error = %+v", te)
	}
	if !errors.Is(te, textedit.ErrTextNoMatch) || errors.Is(te, textedit.ErrTextWrongCount) {
		t.Error("not ErrTextNoMatch")
	}
	wantMsg := "edit 3 of 3 failed: old_text was not found in the text as it reads after edits 1-2. The original text had old_text at line 4, but edit 2, applied before this one, changed it: edits apply in order, each to the result of the ones before it."
	if te.Message != wantMsg {
		t.Errorf("message = %q\nwant      %q", te.Message, wantMsg)
	}
	if te.Fixes[0].Type != textedit.TextFixUseExactText || !strings.Contains(te.Fixes[0].Suggestion, "make this change part of edit 2") {
		t.Errorf("fixes = %+v", te.Fixes)
	}
	// The similar place is text inserted by edit 2, whose replacement
	// starts at original line 3. old_text ends with a line break, so the
	// window does too: "\treturn 1" and "\n" match, 2*10/(10+11) = 0.95.
	want := textedit.SimilarContent{LineNumber: 3, EndLineNumber: 3, Content: "\treturn 10", Match: "\treturn 10\n", SimilarityScore: 0.95,
		Differences: []textedit.StringDiff{{Type: textedit.TextDiffContent, Expected: "1\n", Found: "10\n"}}, InsertedBy: 2}
	if len(te.Similar) == 0 || !reflect.DeepEqual(te.Similar[0], want) {
		t.Fatalf("similar = %+v\nwant %+v", te.Similar, want)
	}
	if !strings.Contains(te.Error(), "Line 3 (similarity 0.95): \treturn 10\n  (in text inserted by edit 2)\n") {
		t.Errorf("Error() =\n%s", te.Error())
	}
}

// TestApplyTextEditsRemovedSecondOfTwo: edit 1 removes the text edit 2
// needs; edit 2 of 2 fails naming original line numbers.
func TestApplyTextEditsRemovedSecondOfTwo(t *testing.T) {
	text := "a\nb\nkeep = 1\nc\ntarget = 2\n"
	te := teReject(t, text, edit.LF,
		textedit.TextEdit{OldText: "a\nb\n", NewText: ""},
		textedit.TextEdit{OldText: "target = 3", NewText: "target = 4"})
	if te.Edit != 2 || te.Total != 2 || te.Type != textedit.TextEditNoMatch {
		t.Fatalf("error = %+v", te)
	}
	if !strings.HasPrefix(te.Error(), "edit 2 of 2 failed: old_text was not found in the text as it reads after edit 1.") {
		t.Errorf("Error() = %s", te.Error())
	}
	// Line 5 of the original text (line 3 of the current one).
	if len(te.Similar) == 0 || te.Similar[0].LineNumber != 5 || te.Similar[0].Content != "target = 2" || te.Similar[0].SimilarityScore != 0.9 {
		t.Fatalf("similar = %+v", te.Similar)
	}
	if !reflect.DeepEqual(te.Similar[0].Differences, []textedit.StringDiff{{Type: textedit.TextDiffContent, Expected: "3", Found: "2"}}) {
		t.Errorf("differences = %+v", te.Similar[0].Differences)
	}
	if strings.Contains(te.Message, "original text had") {
		t.Errorf("message blames an earlier edit: %s", te.Message)
	}
}

// TestApplyTextEditsInsertedBy: a match inside text inserted by an earlier
// edit reports the original line where that text was inserted.
func TestApplyTextEditsInsertedBy(t *testing.T) {
	text := "one\ntwo\nthree\nfour\n"
	te := teReject(t, text, edit.LF,
		textedit.TextEdit{OldText: "one\n", NewText: ""},                  // lines shift up
		textedit.TextEdit{OldText: "three", NewText: "three\nTODO\nTODO"}, // inserts at line 3
		textedit.TextEdit{OldText: "four", NewText: "four TODO"},          // inserts at line 4
		textedit.TextEdit{OldText: "TODO", NewText: "DONE", Occurrences: 1})
	if te.Edit != 4 || te.Actual != 3 {
		t.Fatalf("error = %+v", te)
	}
	got := [][3]int{}
	for _, l := range te.Locations {
		got = append(got, [3]int{l.LineNumber, l.ColumnStart, l.InsertedBy})
	}
	want := [][3]int{{3, 1, 2}, {3, 1, 2}, {4, 6, 3}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("locations (line, column, inserted_by) = %v, want %v", got, want)
	}
	if l := te.Locations[2]; l.LineContent != "four TODO" || l.ContextBefore != "TODO" || l.ContextAfter != "" {
		t.Errorf("location 3 = %+v", l)
	}
	if !strings.Contains(te.Error(), "  line 3, column 1: TODO  (in text inserted by edit 2)") {
		t.Errorf("Error() =\n%s", te.Error())
	}
	// A successful run reports the same lines in its summary.
	res := teApply(t, text, edit.LF,
		textedit.TextEdit{OldText: "one\n", NewText: ""},
		textedit.TextEdit{OldText: "three", NewText: "three\nTODO\nTODO"},
		textedit.TextEdit{OldText: "four", NewText: "four TODO"},
		textedit.TextEdit{OldText: "TODO", NewText: "DONE", Occurrences: 3})
	if res.Text != "two\nthree\nDONE\nDONE\nfour DONE\n" || !reflect.DeepEqual(res.Edits[3].Lines, []int{3, 3, 4}) {
		t.Errorf("result = %q %+v", res.Text, res.Edits)
	}
}

// TestApplyTextEditsSimilar: NO_MATCH reports the most similar place with
// what differs, by class, and fitting suggestions.
func TestApplyTextEditsSimilar(t *testing.T) {
	text := strings.Join([]string{
		"package main",
		"",
		"func main() {",
		"\tconst  limit = 10",
		"\tfmt.Println(\"hello, world\")",
		"\tresult := ComputeTotal(items)",
		"\treturn result",
		"}",
	}, "\n") + "\n"
	tests := []struct {
		name   string
		old    string
		line   int
		match  string
		score  float64
		diffs  []textedit.StringDiff
		fixes  []string
		detail string // a substring of some fix
	}{
		{"whitespace", "const limit = 10", 4, "const  limit = 10", 0.97,
			[]textedit.StringDiff{{Type: textedit.TextDiffWhitespace, Expected: "const limit", Found: "const  limit"}},
			[]string{textedit.TextFixUseExactText, textedit.TextFixCheckWhitespace}, "The file indents with tabs"},
		// "return result" matches: 2*13/(17+14) = 0.84.
		{"whitespace: spaces for a tab", "    return result", 7, "\treturn result", 0.84,
			[]textedit.StringDiff{{Type: textedit.TextDiffWhitespace, Expected: "    return", Found: "\treturn"}},
			[]string{textedit.TextFixUseExactText, textedit.TextFixCheckWhitespace}, "The file indents with tabs; old_text indents with spaces."},
		{"case", "result := computeTotal(items)", 6, "result := ComputeTotal(items)", 0.97,
			[]textedit.StringDiff{{Type: textedit.TextDiffCase, Expected: "computeTotal", Found: "ComputeTotal"}},
			[]string{textedit.TextFixUseExactText, textedit.TextFixUseExactText}, "Matching is case-sensitive: line 6"},
		{"punctuation", "fmt.Println('hello, world')", 5, "fmt.Println(\"hello, world\")", 0.93,
			[]textedit.StringDiff{{Type: textedit.TextDiffPunctuation, Expected: "('hello", Found: "(\"hello"}, {Type: textedit.TextDiffPunctuation, Expected: "world')", Found: "world\")"}},
			[]string{textedit.TextFixUseExactText, textedit.TextFixUseExactText}, "Quotes and punctuation must match exactly: line 5"},
		// "result := Compute" and "(items)" match: 2*24/(27+29) = 0.86.
		{"content", "result := ComputeSum(items)", 6, "result := ComputeTotal(items)", 0.86,
			[]textedit.StringDiff{{Type: textedit.TextDiffContent, Expected: "ComputeSum", Found: "ComputeTotal"}},
			[]string{textedit.TextFixUseExactText}, `"old_text": "result := ComputeTotal(items)" (line 6, similarity 0.86)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			te := teReject(t, text, edit.LF, textedit.TextEdit{OldText: tt.old, NewText: "x"})
			if te.Type != textedit.TextEditNoMatch || te.Edit != 1 || te.Total != 1 || te.SearchText != tt.old {
				t.Fatalf("error = %+v", te)
			}
			if len(te.Similar) == 0 {
				t.Fatalf("no similar content")
			}
			s := te.Similar[0]
			if s.LineNumber != tt.line || s.EndLineNumber != tt.line || s.Match != tt.match || s.SimilarityScore != tt.score {
				t.Errorf("similar[0] = line %d-%d match %q score %v; want line %d match %q score %v",
					s.LineNumber, s.EndLineNumber, s.Match, s.SimilarityScore, tt.line, tt.match, tt.score)
			}
			if !reflect.DeepEqual(s.Differences, tt.diffs) {
				t.Errorf("differences = %+v\nwant %+v", s.Differences, tt.diffs)
			}
			if got := teFixTypes(te); !reflect.DeepEqual(got, tt.fixes) {
				t.Errorf("fix types = %v, want %v", got, tt.fixes)
			}
			if !strings.Contains(te.Error(), tt.detail) {
				t.Errorf("no fix says %q:\n%s", tt.detail, te.Error())
			}
			for i := 1; i < len(te.Similar); i++ {
				if te.Similar[i].SimilarityScore > te.Similar[i-1].SimilarityScore {
					t.Errorf("similar content not sorted: %+v", te.Similar)
				}
			}
			if len(te.Similar) > 5 {
				t.Errorf("%d similar places, want at most 5", len(te.Similar))
			}
		})
	}
}

// TestApplyTextEditsSimilarMultiline: a multi-line old_text is compared
// with windows of as many lines.
func TestApplyTextEditsSimilarMultiline(t *testing.T) {
	text := teReadSlog(t)
	old := "func (v Value) Int64() int64 {\n\tif g, w := v.Kind(), KindInt64; g != w {\n\t\tpanic(fmt.Sprintf(\"Value kind is %s, not %s\", g, w))\n\t}\n\treturn int64(v.num)\n}"
	if !strings.Contains(text, old) {
		t.Fatal("fixture changed")
	}
	stale := strings.Replace(old, "\t\tpanic", "        panic", 1)
	te := teReject(t, text, edit.LF, textedit.TextEdit{OldText: stale, NewText: "x"})
	s := te.Similar[0]
	first := strings.Count(text[:strings.Index(text, old)], "\n") + 1
	if s.LineNumber != first || s.EndLineNumber != first+5 || s.Content != old || s.Match != old || s.SimilarityScore != 0.97 {
		t.Errorf("similar[0] = %+v, want lines %d-%d", s, first, first+5)
	}
	if !reflect.DeepEqual(s.Differences, []textedit.StringDiff{{Type: textedit.TextDiffWhitespace, Expected: "{\n        panic", Found: "{\n\t\tpanic"}}) {
		t.Errorf("differences = %+v", s.Differences)
	}
	// Windows overlapping a better one are left out.
	for _, o := range te.Similar[1:] {
		if o.LineNumber <= s.EndLineNumber && s.LineNumber <= o.EndLineNumber {
			t.Errorf("window %d-%d overlaps the best one", o.LineNumber, o.EndLineNumber)
		}
	}
	if !teHasFix(te, textedit.TextFixCheckWhitespace, "old_text spans 6 lines") || !teHasFix(te, textedit.TextFixCheckWhitespace, "The file indents with tabs; old_text indents with both tabs") {
		t.Errorf("fixes = %+v", te.Fixes)
	}
	if !strings.Contains(te.Error(), fmt.Sprintf("Lines %d-%d (similarity 0.97):\n  %5d: func (v Value) Int64() int64 {", first, first+5, first)) {
		t.Errorf("Error() =\n%s", te.Error())
	}
}

// TestApplyTextEditsSimilarCost: the similarity search stays fast and
// right on large or repetitive input: a long multi-line old_text (compared
// line by line), a 1 MB text on one line, identical lines, a 100,000-rune
// line of one letter.
func TestApplyTextEditsSimilarCost(t *testing.T) {
	src := teReadSlog(t)
	lines := strings.SplitAfter(src, "\n")
	spaces := strings.ReplaceAll(strings.Join(lines[40:160], ""), "\t", "    ")
	oneLine := strings.Repeat(strings.ReplaceAll(src, "\n", ";"), 18)
	tests := []struct {
		name, text, old string
		line, end       int
		score           float64
		match           string // "": not checked
		diff            textedit.StringDiff
	}{
		{"120 lines indented with spaces", src, spaces, 41, 160, 0.93, "",
			textedit.StringDiff{Type: textedit.TextDiffWhitespace, Expected: "    groupptr", Found: "\tgroupptr"}},
		{"120 lines with one typo", src, strings.Replace(strings.Join(lines[40:160], ""), "KindLogValuer", "KindLogValeur", 1), 41, 160, 1, "",
			textedit.StringDiff{Type: textedit.TextDiffContent, Expected: "KindLogValeur", Found: "KindLogValuer"}},
		{"1 MB on one line", oneLine, "v.Kind(), KindInt65; g != w", 1, 1, 0.96, "v.Kind(), KindInt64; g != w",
			textedit.StringDiff{Type: textedit.TextDiffContent, Expected: "KindInt65", Found: "KindInt64"}},
		{"10,000 identical lines", strings.Repeat(strings.Repeat("a", 100)+"\n", 10000), strings.Repeat("a", 60) + "b", 1, 1, 0.98, strings.Repeat("a", 61),
			// A difference inside a word shows at most 30 more of its runes.
			textedit.StringDiff{Type: textedit.TextDiffContent, Expected: strings.Repeat("a", 30) + "b", Found: strings.Repeat("a", 31)}},
		{"a 100,000-rune line", strings.Repeat("a", 100000) + "\n", strings.Repeat("a", 60) + "b", 1, 1, 0.98, strings.Repeat("a", 61),
			// A difference inside a word shows at most 30 more of its runes.
			textedit.StringDiff{Type: textedit.TextDiffContent, Expected: strings.Repeat("a", 30) + "b", Found: strings.Repeat("a", 31)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// How long these take is BenchmarkApplyTextEditNoMatch1MB's
			// business: no test asserts wall-clock time, which a busy
			// machine would make fail at random.
			te := teReject(t, tt.text, edit.LF, textedit.TextEdit{OldText: tt.old, NewText: "x"})
			if len(te.Similar) == 0 {
				t.Fatal("no similar content")
			}
			s := te.Similar[0]
			if s.LineNumber != tt.line || s.EndLineNumber != tt.end || s.SimilarityScore != tt.score || tt.match != "" && s.Match != tt.match {
				t.Errorf("similar[0] = lines %d-%d, score %v, match %.80q", s.LineNumber, s.EndLineNumber, s.SimilarityScore, s.Match)
			}
			if len(s.Differences) == 0 || s.Differences[0] != tt.diff {
				t.Errorf("differences = %+v", s.Differences)
			}
			if len(te.Error()) > 20000 {
				t.Errorf("Error() is %d bytes", len(te.Error()))
			}
		})
	}
}

// TestApplyTextEditsUnicodeSimilar: similarity counts runes, columns bytes.
func TestApplyTextEditsUnicodeSimilar(t *testing.T) {
	text := "título := \"añadir 😀 emoji\"\nother := 1\n"
	te := teReject(t, text, edit.LF, textedit.TextEdit{OldText: "título := \"anadir 😀 emoji\"", NewText: "x"})
	s := te.Similar[0]
	// 26 runes each, 25 matching: 2*25/52 = 0.96.
	if s.LineNumber != 1 || s.SimilarityScore != 0.96 || s.Match != "título := \"añadir 😀 emoji\"" {
		t.Errorf("similar[0] = %+v", s)
	}
	if !reflect.DeepEqual(s.Differences, []textedit.StringDiff{{Type: textedit.TextDiffContent, Expected: "anadir", Found: "añadir"}}) {
		t.Errorf("differences = %+v", s.Differences)
	}
	te = teReject(t, text, edit.LF, textedit.TextEdit{OldText: "😀", NewText: "x", Occurrences: 2})
	// "título := \"añadir " is 20 bytes: í and ñ take 2 each.
	if l := te.Locations[0]; l.ColumnStart != 21 || l.ColumnEnd != 25 {
		t.Errorf("location = %+v, want byte columns 21-25", l)
	}
}

// TestApplyTextEditsEscapes: regular-expression syntax and doubled escapes
// get an ESCAPE_SPECIAL suggestion with the text that does occur.
func TestApplyTextEditsEscapes(t *testing.T) {
	text := "if x.y(1) {\n\tprint(\"a\\tb\")\n}\n"
	tests := []struct {
		name, old, example, detail string
	}{
		{"regex escapes", `x\.y\(1\)`, `"old_text": "x.y(1)"`, "without the backslashes that escape regular-expression characters occurs 1 time (first at line 1)"},
		{"doubled string escape", `if x.y(1) {\n\tprint`, `"old_text": "if x.y(1) {\n\tprint"`, "escapes decoded occurs 1 time"},
		{"anchors", `^if x.y(1) {$`, `"old_text": "if x.y(1) {"`, "without the ^ and $ anchors"},
		{"regex syntax", `x.*\(1\)`, "", `".*" matches only itself`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			te := teReject(t, text, edit.LF, textedit.TextEdit{OldText: tt.old, NewText: "z"})
			f := te.Fixes[0]
			if f.Type != textedit.TextFixEscapeSpecial || f.Example != tt.example || !strings.Contains(f.Suggestion, tt.detail) {
				t.Errorf("first fix = %+v", f)
			}
		})
	}
	// Text with a backslash that does occur is matched literally.
	res := teApply(t, text, edit.LF, textedit.TextEdit{OldText: `"a\tb"`, NewText: `"a b"`})
	if res.Text != "if x.y(1) {\n\tprint(\"a b\")\n}\n" {
		t.Errorf("text = %q", res.Text)
	}
}

func TestApplyTextEditsNothingSimilar(t *testing.T) {
	te := teReject(t, "aaaa\nbbbb\n", edit.LF, textedit.TextEdit{OldText: "xyz", NewText: "q"})
	if te.Similar != nil || !strings.Contains(te.Error(), "Nothing in the text is similar to old_text") {
		t.Errorf("error = %+v\n%s", te, te.Error())
	}
	if got := teFixTypes(te); !reflect.DeepEqual(got, []string{textedit.TextFixUseExactText}) {
		t.Errorf("fixes = %v", got)
	}
	// An empty text has nothing to match.
	te = teReject(t, "", edit.LF, textedit.TextEdit{OldText: "x", NewText: "y"})
	if te.Type != textedit.TextEditNoMatch || te.Similar != nil {
		t.Errorf("error = %+v", te)
	}
}

func TestApplyTextEditsInputErrors(t *testing.T) {
	tests := []struct {
		name  string
		edits []textedit.TextEdit
		edit  int
		key   string
		msg   string
	}{
		{"no edits", nil, 0, "", "no edits: the list is empty"},
		{"empty old_text", []textedit.TextEdit{{OldText: "a", NewText: "b"}, {OldText: "", NewText: "x"}}, 2, "old_text", "old_text is empty: "},
		{"negative occurrences", []textedit.TextEdit{{OldText: "a", NewText: "b", Occurrences: -1}}, 1, "occurrences", "got -1"},
		{"1001 edits", make([]textedit.TextEdit, 1001), 0, "", "1001 edits: at most 1000 per call"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := textedit.ApplyTextEdits("a a", edit.LF, tt.edits)
			var ie *textedit.TextEditInputError
			if !errors.As(err, &ie) || ie.Edit != tt.edit || ie.Key != tt.key || !strings.Contains(ie.Msg, tt.msg) {
				t.Fatalf("err = %#v, want edit %d key %q message %q", err, tt.edit, tt.key, tt.msg)
			}
			if !reflect.DeepEqual(res, textedit.TextEditResult{}) {
				t.Errorf("result = %+v", res)
			}
		})
	}
	if _, err := textedit.ApplyTextEdits("a", "\n\r", []textedit.TextEdit{{OldText: "a", NewText: "b"}}); err == nil || !strings.Contains(err.Error(), `line ending "\n\r" is not LF, CRLF or CR`) {
		t.Errorf("bad eol: %v", err)
	}
	// Occurrences 0 means 1.
	if res := teApply(t, "a b", edit.LF, textedit.TextEdit{OldText: "a", NewText: "c", Occurrences: 0}); res.Text != "c b" {
		t.Errorf("text = %q", res.Text)
	}
}

// TestApplyTextEditsLimit: 1,000 edits are accepted, 1,001 refused.
func TestApplyTextEditsLimit(t *testing.T) {
	var b strings.Builder
	edits := make([]textedit.TextEdit, 0, 1001)
	for i := range 1001 {
		fmt.Fprintf(&b, "marker_%04d = %d\n", i, i)
		edits = append(edits, textedit.TextEdit{OldText: fmt.Sprintf("marker_%04d =", i), NewText: fmt.Sprintf("m%d =", i)})
	}
	text := b.String()
	res := teApply(t, text, edit.LF, edits[:1000]...)
	if res.TotalReplacements != 1000 || len(res.Edits) != 1000 || res.Edits[999].Lines[0] != 1000 {
		t.Errorf("total %d, %d summaries", res.TotalReplacements, len(res.Edits))
	}
	if !strings.HasPrefix(res.Text, "m0 = 0\nm1 = 1\n") || !strings.HasSuffix(res.Text, "m999 = 999\nmarker_1000 = 1000\n") {
		t.Errorf("text = %.40q...", res.Text)
	}
	_, err := textedit.ApplyTextEdits(text, edit.LF, edits)
	var ie *textedit.TextEditInputError
	if !errors.As(err, &ie) || !strings.Contains(ie.Msg, "at most 1000") {
		t.Errorf("1001 edits: %v", err)
	}
}

// TestApplyTextEditsLongLines: lines over 10,000 characters.
func TestApplyTextEditsLongLines(t *testing.T) {
	long := strings.Repeat("abcdefghij", 1500) // 15,000 bytes
	text := "short\n" + long + "NEEDLE" + long + "\n" + long + "needle\n"
	res := teApply(t, text, edit.LF, textedit.TextEdit{OldText: "NEEDLE", NewText: "pin"})
	if res.Text != "short\n"+long+"pin"+long+"\n"+long+"needle\n" || !reflect.DeepEqual(res.Edits[0].Lines, []int{2}) {
		t.Errorf("summary %+v", res.Edits)
	}
	te := teReject(t, text, edit.LF, textedit.TextEdit{OldText: "abcdefghij", NewText: "x", Occurrences: 2})
	if te.Actual != 4500 || len(te.Locations) != textedit.MaxMatchLocations || te.OmittedLocations != 4480 {
		t.Fatalf("actual %d, %d locations, %d omitted", te.Actual, len(te.Locations), te.OmittedLocations)
	}
	// The 20th match, on a line of 30,006 bytes: only a window around it.
	if l := te.Locations[19]; l.LineNumber != 2 || l.ColumnStart != 191 || l.ColumnEnd != 201 ||
		len(l.LineContent) > textedit.MaxWindow || l.LineLength != 30006 || l.ContentColumn < 1 ||
		l.LineContent[l.ColumnStart-l.ContentColumn:][:10] != "abcdefghij" {
		t.Errorf("location 20 = %+v", l)
	}
	msg := te.Error()
	if !strings.Contains(msg, "  ... and 4480 more\n") || len(msg) > 8000 {
		t.Errorf("Error() is %d bytes:\n%.2000s", len(msg), msg)
	}
	te = teReject(t, text, edit.LF, textedit.TextEdit{OldText: "NEEDLE!", NewText: "x"})
	// The match is widened by old_text's unmatched "!": 2*6/(7+7) = 0.86.
	if len(te.Similar) == 0 {
		t.Fatal("no similar content")
	}
	if s := te.Similar[0]; s.LineNumber != 2 || s.Match != "NEEDLEa" || s.SimilarityScore != 0.86 ||
		!reflect.DeepEqual(s.Differences, []textedit.StringDiff{{Type: textedit.TextDiffContent, Expected: "NEEDLE!", Found: "NEEDLEa"}}) {
		t.Errorf("similar[0] = line %d match %q score %v differences %v", s.LineNumber, s.Match, s.SimilarityScore, s.Differences)
	}
	if msg := te.Error(); len(msg) > 2000 || !strings.Contains(msg, "Line 2 (similarity 0.86): ...") {
		t.Errorf("Error() is %d bytes:\n%.2000s", len(msg), msg)
	}
}

// TestApplyTextEditsLargeText edits a text over 10 MB at its start and its
// end; every other byte is kept.
func TestApplyTextEditsLargeText(t *testing.T) {
	src := teReadSlog(t)
	text := "// start\n" + strings.Repeat(src, 11<<20/len(src)+1) + "// end"
	if len(text) <= 10<<20 {
		t.Fatal("text too small")
	}
	res := teApply(t, text, edit.LF,
		textedit.TextEdit{OldText: "// start\n", NewText: "// begin\n"},
		textedit.TextEdit{OldText: "\n// end", NewText: "\n// the end\n"})
	if res.Text != "// begin\n"+text[len("// start\n"):len(text)-len("// end")]+"// the end\n" {
		t.Error("result differs")
	}
	if n := strings.Count(text, "\n") + 1; !reflect.DeepEqual(res.Edits[1].Lines, []int{n - 1}) {
		t.Errorf("lines = %v, want [%d]", res.Edits[1].Lines, n-1)
	}
}

// TestApplyTextEditsRealFile renames identifiers in a real Go file: the
// result equals strings.ReplaceAll, and the CRLF version stays CRLF.
func TestApplyTextEditsRealFile(t *testing.T) {
	text := teReadSlog(t)
	for _, name := range []string{"KindGroup", "stringptr", "v.num", "Value"} {
		n := strings.Count(text, name)
		res := teApply(t, text, edit.LF, textedit.TextEdit{OldText: name, NewText: name + "Renamed", Occurrences: n})
		if res.Text != strings.ReplaceAll(text, name, name+"Renamed") || res.TotalReplacements != n {
			t.Errorf("%s: result differs from strings.ReplaceAll", name)
		}
		lines := strings.Split(text, "\n")
		var want []int
		for i, l := range lines {
			for range strings.Count(l, name) {
				want = append(want, i+1)
			}
		}
		if !reflect.DeepEqual(res.Edits[0].Lines, want) {
			t.Errorf("%s: lines = %v, want %v", name, res.Edits[0].Lines, want)
		}
		te := teReject(t, text, edit.LF, textedit.TextEdit{OldText: name, NewText: "x", Occurrences: n + 1})
		if te.Actual != n || len(te.Locations) != min(n, textedit.MaxMatchLocations) || te.OmittedLocations != n-len(te.Locations) {
			t.Errorf("%s: wrong count error %d/%d", name, te.Actual, len(te.Locations))
		}
		for i, l := range te.Locations {
			if l.LineNumber != want[i] || lines[l.LineNumber-1][l.ColumnStart-1:l.ColumnEnd-1] != name {
				t.Errorf("%s: location %+v", name, l)
				break
			}
		}
	}
	// The same file with CRLF endings, edited with LF multi-line text.
	crlf := strings.ReplaceAll(text, "\n", "\r\n")
	old := "func (v Value) isEmptyGroup() bool {\n\tif v.Kind() != KindGroup {"
	res := teApply(t, crlf, edit.CRLF, textedit.TextEdit{OldText: old, NewText: "func (v Value) isEmptyGroup() bool {\n\t// checked\n\tif v.Kind() != KindGroup {"})
	want := strings.Replace(crlf, strings.ReplaceAll(old, "\n", "\r\n"), "func (v Value) isEmptyGroup() bool {\r\n\t// checked\r\n\tif v.Kind() != KindGroup {", 1)
	if res.Text != want {
		t.Error("CRLF result differs")
	}
}

// TestApplyTextEditsRandomSequence applies 300 random edits to a real file
// and compares with a reference built from strings.Count and
// strings.ReplaceAll, edit after edit; the same edits on the CRLF version
// give the CRLF version of the result; a wrong count at edit 200 is
// reported as edit 200 with the reference's count.
func TestApplyTextEditsRandomSequence(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	ref := teReadSlog(t)
	orig := ref
	var edits []textedit.TextEdit
	var counts []int
	for len(edits) < 300 {
		var old string
		switch rng.IntN(4) {
		case 0: // something short and common
			old = []string{"e", "\t", " ", "v.", "(", "Kind", "\n\t"}[rng.IntN(7)]
		default:
			start := rng.IntN(len(ref))
			old = ref[start:min(len(ref), start+1+rng.IntN(40))]
		}
		if strings.ContainsRune(old, '\r') || !strings.Contains(ref, old) {
			continue
		}
		var repl string
		switch rng.IntN(4) {
		case 0:
			repl = ""
		case 1:
			repl = strings.ToUpper(old)
		case 2:
			repl = "<" + old + ">"
		default:
			repl = fmt.Sprintf("x%d\ny", len(edits))
		}
		c := strings.Count(ref, old)
		edits = append(edits, textedit.TextEdit{OldText: old, NewText: repl, Occurrences: c})
		counts = append(counts, c)
		ref = strings.ReplaceAll(ref, old, repl)
	}
	res := teApply(t, orig, edit.LF, edits...)
	if res.Text != ref {
		t.Fatalf("result differs from the reference")
	}
	for i, s := range res.Edits {
		if s.OccurrencesReplaced != counts[i] || len(s.Lines) != counts[i] {
			t.Fatalf("summary %d = %d replacements, want %d", i+1, s.OccurrencesReplaced, counts[i])
		}
		if !slices.IsSorted(s.Lines) || s.Lines[0] < 1 || s.Lines[len(s.Lines)-1] > strings.Count(orig, "\n") {
			t.Fatalf("summary %d lines %v", i+1, s.Lines)
		}
	}
	crlf := teApply(t, strings.ReplaceAll(orig, "\n", "\r\n"), edit.CRLF, edits...)
	if crlf.Text != strings.ReplaceAll(ref, "\n", "\r\n") {
		t.Errorf("CRLF result differs from the reference")
	}
	bad := slices.Clone(edits)
	bad[199].Occurrences = counts[199] + 1
	te := teReject(t, orig, edit.LF, bad...)
	if te.Edit != 200 || te.Total != 300 || te.Actual != counts[199] || te.Expected != counts[199]+1 {
		t.Errorf("error = edit %d of %d, %d found, %d expected", te.Edit, te.Total, te.Actual, te.Expected)
	}
}

// TestApplyTextEditsFindFallback: a pattern whose rarest byte is common in
// the text falls back to bytes.Index and still counts like strings.Count.
func TestApplyTextEditsFindFallback(t *testing.T) {
	text := strings.Repeat("ab", 5000) + "abb" + strings.Repeat("ba", 3000) + "abb"
	edits := []textedit.TextEdit{{OldText: "abb", NewText: "X0", Occurrences: 2}}
	for i := range 5 { // enough edits to use byte frequencies
		edits = append(edits, textedit.TextEdit{OldText: fmt.Sprintf("X%db", i), NewText: fmt.Sprintf("X%db", i+1), Occurrences: 1})
	}
	res := teApply(t, text, edit.LF, edits...)
	want := strings.Repeat("ab", 5000) + "X5b" + "a" + strings.Repeat("ba", 2999) + "X0"
	if res.Text != want {
		t.Errorf("text = ...%q, want ...%q", res.Text[len(res.Text)-20:], want[len(want)-20:])
	}
	c := strings.Count(text, "abab")
	te := teReject(t, text, edit.LF, textedit.TextEdit{OldText: "abab", NewText: "", Occurrences: c + 1},
		edits[1], edits[2], edits[3], edits[4], edits[5])
	if te.Edit != 1 || te.Actual != c {
		t.Errorf("abab: found %d, strings.Count says %d", te.Actual, c)
	}
}

// TestDocumentApplyTextEdits keeps the byte order mark.
func TestDocumentApplyTextEdits(t *testing.T) {
	doc, err := edit.NewDocument("a.txt", []byte("\xEF\xBB\xBFone\r\ntwo\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	content, res, err := textedit.ApplyDocument(doc, []textedit.TextEdit{{OldText: "one\ntwo", NewText: "1\n2\n3"}})
	if err != nil {
		t.Fatal(err)
	}
	if string(content) != "\xEF\xBB\xBF1\r\n2\r\n3\r\n" || res.TotalReplacements != 1 {
		t.Errorf("content = %q", content)
	}
	if _, _, err := textedit.ApplyDocument(doc, []textedit.TextEdit{{OldText: "three", NewText: "3"}}); !errors.Is(err, textedit.ErrTextNoMatch) {
		t.Errorf("err = %v", err)
	}
}

// TestTextEditErrorJSON checks the snake_case keys of the JSON output.
func TestTextEditErrorJSON(t *testing.T) {
	te := teReject(t, "x = 1\nx = 2\n", edit.LF, textedit.TextEdit{OldText: "x", NewText: "y"})
	b, err := json.Marshal(te)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"actual_occurrences", "edit", "expected_occurrences", "match_locations", "message", "search_text", "suggested_fixes", "total_edits", "type"}
	if !reflect.DeepEqual(keys, want) {
		t.Errorf("keys = %v, want %v", keys, want)
	}
	loc := m["match_locations"].([]any)[0].(map[string]any)
	if loc["line_number"] != 1.0 || loc["column_start"] != 1.0 || loc["column_end"] != 2.0 || loc["context_after"] != "x = 2" {
		t.Errorf("location = %v", loc)
	}
	res := teApply(t, "a a", edit.LF, textedit.TextEdit{OldText: "a", NewText: "b", Occurrences: 2})
	b, _ = json.Marshal(res)
	if string(b) != `{"edits_applied":[{"edit":1,"occurrences_replaced":2,"lines":[1,1]}],"total_replacements":2}` {
		t.Errorf("result JSON = %s", b)
	}
}

// TestTextEditGolden runs testdata/textedit/*.txtar: each holds "text" (the
// file's text), "edits.json" and the golden result: "want" (the new text)
// or "error" (Error() and the JSON of the error). The comment may set
// "eol: CRLF" to convert the text's LF endings first.
func TestTextEditGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/textedit/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var text, input string
			for _, f := range ar.Files {
				switch f.Name {
				case "text":
					text = string(f.Data)
				case "edits.json":
					input = string(f.Data)
				}
			}
			if strings.Contains(string(ar.Comment), "eol: CRLF") {
				text = strings.ReplaceAll(text, "\n", "\r\n")
			}
			name, got := "want", ""
			edits, err := textedit.ParseTextEdits([]byte(input))
			if err == nil {
				var res textedit.TextEditResult
				res, err = textedit.ApplyTextEdits(text, "", edits)
				got = res.Text
			}
			if err != nil {
				name = "error"
				js, _ := json.MarshalIndent(err, "", "  ")
				got = err.Error() + "\n\n" + string(js) + "\n"
			}
			if testfile.Update() {
				var kept []txtar.File
				for _, f := range ar.Files {
					if f.Name != "want" && f.Name != "error" {
						kept = append(kept, f)
					}
				}
				ar.Files = append(kept, txtar.File{Name: name, Data: []byte(got)})
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, f := range ar.Files {
				if f.Name == "want" || f.Name == "error" {
					if f.Name != name || string(f.Data) != got {
						t.Errorf("got %s:\n%s\nwant %s:\n%s", name, got, f.Name, f.Data)
					}
					return
				}
			}
			t.Fatal("no golden want or error section; run go test -update")
		})
	}
}

// FuzzApplyTextEdits checks two properties on any text: (1) replacing a
// substring of the text by itself, with occurrences = strings.Count, leaves
// the text identical (and the summary's lines are Document.LineAt's); (2) a
// rejected call returns an error and no text. It also checks (3) that on
// LF-only input a successful call equals a reference built from
// strings.Count and strings.ReplaceAll.
func FuzzApplyTextEdits(f *testing.F) {
	f.Add("Hello World", 6, 5, "World", "Universe", 1)
	f.Add("foo bar foo baz foo", 0, 3, "foo", "qux", 3)
	f.Add("a\r\nb\r\nc", 1, 3, "b\nc", "x", 1)
	f.Add("a\rb\rc\r", 2, 2, "b\r", "B\n", 1)
	f.Add("a\r\nb\nc\r", 0, 4, "\r\n", "", 2)
	f.Add("aaaa", 0, 3, "aaa", "b", 1)
	f.Add("😀 ünï 😀", 0, 4, "😀", "x", 2)
	f.Add("a.b*c(d)[e]$^\\", 1, 5, "a.b", "", 0)
	f.Add("\r\na\r\na\r\n", 1, 3, "\na\r", "", 1)
	f.Add("", 0, 0, "x", "y", 1)
	slog := teReadSlog(f)
	f.Add(slog[:3000], 100, 20, "Value", "Val", 40)
	f.Fuzz(func(t *testing.T, text string, start, n int, old, repl string, occ int) {
		eol := edit.DetectEOL([]byte(text))
		// (1) A substring replaced by itself.
		if len(text) > 0 {
			start = teAbs(start) % len(text)
			end := start + 1 + teAbs(n)%min(64, len(text)-start)
			// Do not split a CRLF: in a uniform CRLF text it is one line
			// ending, matched as a whole.
			if start > 0 && text[start-1] == '\r' && text[start] == '\n' {
				start--
			}
			if end < len(text) && text[end-1] == '\r' && text[end] == '\n' {
				end++
			}
			sub := text[start:end]
			c := strings.Count(text, sub)
			res, err := textedit.ApplyTextEdits(text, eol, []textedit.TextEdit{{OldText: sub, NewText: sub, Occurrences: c}})
			if err != nil {
				t.Fatalf("identity edit %q (x%d) on %q: %v", sub, c, text, err)
			}
			if res.Text != text || res.TotalReplacements != c {
				t.Fatalf("identity edit %q changed %q to %q", sub, text, res.Text)
			}
			// The summary's lines are the Document's lines.
			if doc, err := edit.NewDocument("f", []byte(text)); err == nil && !doc.BOM {
				for i, pos := 0, 0; i < c; i++ {
					at := pos + strings.Index(text[pos:], sub)
					if got, want := res.Edits[0].Lines[i], doc.LineAt(at); got != want {
						t.Fatalf("occurrence %d of %q in %q: line %d, Document says %d", i+1, sub, text, got, want)
					}
					pos = at + len(sub)
				}
			}
		}
		// (2) and (3): an arbitrary edit.
		edits := []textedit.TextEdit{{OldText: old, NewText: repl, Occurrences: occ % 8}}
		res, err := textedit.ApplyTextEdits(text, eol, edits)
		if err != nil {
			if !reflect.DeepEqual(res, textedit.TextEditResult{}) {
				t.Fatalf("rejected call returned %+v", res)
			}
			var te *textedit.TextEditError
			var ie *textedit.TextEditInputError
			if !errors.As(err, &te) && !errors.As(err, &ie) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if te != nil {
				_ = te.Error()
				if _, err := json.Marshal(te); err != nil {
					t.Fatal(err)
				}
			}
		}
		if !strings.ContainsRune(text+old+repl, '\r') && old != "" && occ%8 >= 0 {
			want := max(occ%8, 1)
			c := strings.Count(text, old)
			switch {
			case c == want && err != nil:
				t.Fatalf("edit %q x%d on %q: %v", old, want, text, err)
			case c != want && err == nil:
				t.Fatalf("edit %q x%d on %q accepted, found %d", old, want, text, c)
			case err == nil && res.Text != strings.ReplaceAll(text, old, repl):
				t.Fatalf("edit %q -> %q on %q gave %q", old, repl, text, res.Text)
			}
		}
	})
}

func teAbs(x int) int {
	if x < 0 {
		if x == -x { // math.MinInt
			return 0
		}
		return -x
	}
	return x
}

// teBenchText builds about size bytes of real Go code in markers blocks,
// each starting with a unique marker line.
func teBenchText(b *testing.B, size, markers int) string {
	src := teReadSlog(b)
	var sb strings.Builder
	sb.Grow(size + 64)
	block := size / markers
	for i := 0; sb.Len() < size; i++ {
		if i < markers {
			fmt.Fprintf(&sb, "// MARKER_%05d\n", i)
		}
		start := sb.Len()
		for sb.Len()-start < block-20 && sb.Len() < size {
			n := min(len(src), block-20-(sb.Len()-start))
			sb.WriteString(src[:n])
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// BenchmarkApplyTextEdits1000 applies 1,000 edits, each replacing a unique
// marker, to a 1 MB text of real code.
func BenchmarkApplyTextEdits1000(b *testing.B) {
	text := teBenchText(b, 1<<20, 1000)
	edits := make([]textedit.TextEdit, 1000)
	for i := range edits {
		edits[i] = textedit.TextEdit{OldText: fmt.Sprintf("// MARKER_%05d\n", i), NewText: fmt.Sprintf("// done %d\n// and more\n", i)}
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := textedit.ApplyTextEdits(text, edit.LF, edits); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApplyTextEdit10MB applies one edit to a 10 MB text.
func BenchmarkApplyTextEdit10MB(b *testing.B) {
	text := teBenchText(b, 10<<20, 1)
	edits := []textedit.TextEdit{{OldText: "// MARKER_00000\n", NewText: "// changed\n"}}
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := textedit.ApplyTextEdits(text, edit.LF, edits); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApplyTextEditNoMatch1MB measures the similarity search of a
// NO_MATCH error on a 1 MB text.
func BenchmarkApplyTextEditNoMatch1MB(b *testing.B) {
	text := teBenchText(b, 1<<20, 1)
	edits := []textedit.TextEdit{{OldText: "func (v Value) Int64() int64 {\n\tif g, w := v.Kind(), KindInt64; g != w {\n        panic", NewText: "x"}}
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := textedit.ApplyTextEdits(text, edit.LF, edits); err == nil {
			b.Fatal("accepted")
		}
	}
}

// TestApplyTextEditsBoundedListing: a WRONG_COUNT error on a 1 MB file of
// one line with 333,333 matches lists 20 of them, each with a window of the
// line, and its message and JSON stay a few KB (with the whole line per
// match they would grow with matches times line length, 1 GB of JSON for
// this file).
func TestApplyTextEditsBoundedListing(t *testing.T) {
	line := "x = \"" + strings.Repeat("ab ", 333333) + "\""
	text := "# one long line\n" + line + "\n" + line[:300] + "\n"
	te := teReject(t, text, edit.LF, textedit.TextEdit{OldText: "ab", NewText: "cd"})
	if te.Actual != strings.Count(text, "ab") || len(te.Locations) != textedit.MaxMatchLocations || te.OmittedLocations != te.Actual-textedit.MaxMatchLocations {
		t.Fatalf("actual %d, %d locations, %d omitted", te.Actual, len(te.Locations), te.OmittedLocations)
	}
	for _, l := range te.Locations {
		if len(l.LineContent) > textedit.MaxWindow || len(l.ContextBefore) > textedit.MaxWindow+6 || len(l.ContextAfter) > textedit.MaxWindow+6 {
			t.Fatalf("location %+v is not bounded", l)
		}
		if got := l.LineContent[l.ColumnStart-l.ContentColumn:][:2]; got != "ab" {
			t.Fatalf("the window of line %d column %d holds %q at the match", l.LineNumber, l.ColumnStart, got)
		}
	}
	js, err := json.Marshal(te)
	if err != nil {
		t.Fatal(err)
	}
	if msg := te.Error(); len(msg) > 8<<10 || len(js) > 16<<10 {
		t.Errorf("Error() is %d bytes and the JSON %d for a 1 MB line; want a few KB", len(msg), len(js))
	}
	if !strings.Contains(te.Error(), "line 2, column 6: x = \"ab ab") {
		t.Errorf("Error() does not show the first match:\n%.1000s", te.Error())
	}
	// NO_MATCH: the similar place on the long line is cut around its match.
	te = teReject(t, text, edit.LF, textedit.TextEdit{OldText: "ab ab abx ab", NewText: "cd"})
	if len(te.Similar) == 0 {
		t.Fatal("no similar content")
	}
	for _, sc := range te.Similar {
		if len(sc.Content) > 2*textedit.MaxWindow || !strings.Contains(sc.Content, sc.Match) {
			t.Errorf("similar content of %d bytes, match %q", len(sc.Content), sc.Match)
		}
	}
	if js, err = json.Marshal(te); err != nil || len(js) > 16<<10 || len(te.Error()) > 8<<10 {
		t.Errorf("NO_MATCH: Error() is %d bytes and the JSON %d for a 1 MB line; want a few KB", len(te.Error()), len(js))
	}
}

// TestWindow cuts long lines around a byte offset at rune boundaries.
func TestWindow(t *testing.T) {
	if w, from := textedit.Window("short line", 3); w != "short line" || from != 0 {
		t.Errorf("short line: %q at %d", w, from)
	}
	long := strings.Repeat("é", 1000) // 2,000 bytes, every rune 2 bytes
	for _, at := range []int{0, 1, 999, 1000, 1001, 1999, 2000, 5000} {
		w, from := textedit.Window(long, at)
		if len(w) > textedit.MaxWindow || len(w) < textedit.MaxWindow-4 || !utf8.ValidString(w) || long[from:from+len(w)] != w {
			t.Errorf("at %d: %d bytes from %d, valid %v", at, len(w), from, utf8.ValidString(w))
		}
		if a := min(at, len(long)-1); a < from || a > from+len(w) {
			t.Errorf("at %d: window %d-%d does not hold it", at, from, from+len(w))
		}
	}
	if w, from := textedit.Window([]byte(long), 1000); len(w) > textedit.MaxWindow || from == 0 {
		t.Errorf("bytes: %d bytes from %d", len(w), from)
	}
}
