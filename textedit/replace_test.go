package textedit_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/symedit/symedit/diff"
	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/internal/lines"
	"github.com/symedit/symedit/internal/testfile"
	"github.com/symedit/symedit/textedit"
)

func mustCompile(t testing.TB, s textedit.Search) *textedit.Searcher {
	t.Helper()
	r, err := textedit.Compile(s)
	if err != nil {
		t.Fatalf("Compile(%+v): %v", s, err)
	}
	return r
}

func TestSearchReplace(t *testing.T) {
	tests := []struct {
		name   string
		search textedit.Search
		text   string
		want   string
		n      int
		found  int // matches reported
	}{
		{"literal", textedit.Search{Pattern: "old_name", Replacement: "new_name"},
			"old_name = 1\nprint(old_name)\n", "new_name = 1\nprint(new_name)\n", 2, 2},
		{"literal regex metacharacters", textedit.Search{Pattern: "a.b(c)*[d]", Replacement: "X"},
			"a.b(c)*[d] axb(c)[d] a.b(c)*[d]", "X axb(c)[d] X", 2, 2},
		{"literal backslashes", textedit.Search{Pattern: `C:\dir\1`, Replacement: `D:\x\1`},
			`path = "C:\dir\1"`, `path = "D:\x\1"`, 1, 1},
		{"literal replacement with dollars kept literally", textedit.Search{Pattern: "price", Replacement: "$1 ${x} $$ $"},
			"price: price", "$1 ${x} $$ $: $1 ${x} $$ $", 2, 2},
		{"literal ignoring case", textedit.Search{Pattern: "Hello", Replacement: "bye", IgnoreCase: true},
			"HELLO hello HeLLo help", "bye bye bye help", 3, 3},
		{"literal is case-sensitive by default", textedit.Search{Pattern: "Hello", Replacement: "bye"},
			"HELLO hello Hello", "HELLO hello bye", 1, 1},
		{"literal ignoring case with metacharacters", textedit.Search{Pattern: "A.B", Replacement: "c", IgnoreCase: true},
			"a.b AXB A.b", "c AXB c", 2, 2},
		{"literal across lines", textedit.Search{Pattern: "}\n\nfunc", Replacement: "}\nfunc"},
			"func a() {\n}\n\nfunc b() {\n}\n", "func a() {\n}\nfunc b() {\n}\n", 1, 1},
		{"regex $1", textedit.Search{Pattern: `(\w+)@(\w+)`, Replacement: "$2 at $1", Regex: true},
			"ann@home bob@work", "home at ann work at bob", 2, 2},
		{"regex ${name}", textedit.Search{Pattern: `(?P<user>\w+)@(?P<host>\w+)`, Replacement: "${host}/${user}", Regex: true},
			"ann@home", "home/ann", 1, 1},
		{"regex ${name} with (?<name>)", textedit.Search{Pattern: `(?<key>\w+)=(?<val>\w+)`, Replacement: "${val}=${key}", Regex: true},
			"a=1, b=2", "1=a, 2=b", 2, 2},
		{"regex \\1 read as ${1}", textedit.Search{Pattern: `(\w+) (\w+)`, Replacement: `\2 \1`, Regex: true},
			"hello world", "world hello", 1, 1},
		{"regex \\1 followed by letters", textedit.Search{Pattern: `get_(\w+)\(`, Replacement: `\1_value(`, Regex: true},
			"get_name() + get_id()", "name_value() + id_value()", 2, 2},
		{"regex \\0 is the whole match", textedit.Search{Pattern: `\d+`, Replacement: `<\0>`, Regex: true},
			"a1 b22", "a<1> b<22>", 2, 2},
		{"regex \\10 is group 1 then 0", textedit.Search{Pattern: `(a)`, Replacement: `\10`, Regex: true},
			"xa", "xa0", 1, 1},
		{"regex $1x is the group named 1x, empty", textedit.Search{Pattern: `(a)`, Replacement: `$1x|${1}x`, Regex: true},
			"a", "|ax", 1, 1},
		{"regex $$ is a dollar", textedit.Search{Pattern: `(\d+)`, Replacement: `$$$1`, Regex: true},
			"cost 5", "cost $5", 1, 1},
		{"regex ignoring case", textedit.Search{Pattern: `err(or)?`, Replacement: "E", Regex: true, IgnoreCase: true},
			"Error ERR err ok", "E E E ok", 3, 3},
		{"regex case-sensitive by default", textedit.Search{Pattern: `err(or)?`, Replacement: "E", Regex: true},
			"Error ERR err ok", "Error ERR E ok", 1, 1},
		{"regex (?m)^ prefixes every line; Go matches after the final newline too", textedit.Search{Pattern: `(?m)^`, Replacement: "# ", Regex: true},
			"a\nb\n", "# a\n# b\n# ", 3, 3},
		{"regex (?m)^ on a file without a final newline", textedit.Search{Pattern: `(?m)^`, Replacement: "# ", Regex: true},
			"a\nb", "# a\n# b", 2, 2},
		{"count caps to the first N", textedit.Search{Pattern: "x", Replacement: "y", Count: 2},
			"x x x x x", "y y x x x", 2, 5},
		{"count 1 of a regex", textedit.Search{Pattern: `\d`, Replacement: "#", Regex: true, Count: 1},
			"a1\nb2\nc3\n", "a#\nb2\nc3\n", 1, 3},
		{"count above the matches replaces all", textedit.Search{Pattern: "x", Replacement: "y", Count: 10},
			"x x", "y y", 2, 2},
		{"count equal to the matches", textedit.Search{Pattern: "x", Replacement: "y", Count: 2},
			"x x", "y y", 2, 2},
		{"no match", textedit.Search{Pattern: "absent", Replacement: "y"},
			"nothing here\n", "nothing here\n", 0, 0},
		{"no regex match", textedit.Search{Pattern: `\d{3}`, Replacement: "y", Regex: true},
			"12 34\n", "12 34\n", 0, 0},
		{"empty text", textedit.Search{Pattern: "x", Replacement: "y"}, "", "", 0, 0},
		{"replacement equal to the match", textedit.Search{Pattern: "same", Replacement: "same"},
			"same same", "same same", 2, 2},
		{"deleting", textedit.Search{Pattern: " // TODO", Replacement: ""},
			"x := 1 // TODO\ny := 2 // TODO\n", "x := 1\ny := 2\n", 2, 2},
		{"unicode", textedit.Search{Pattern: "wörld", Replacement: "🌍"},
			"héllo wörld", "héllo 🌍", 1, 1},
		{"(?m)$ does not match before CRLF (RE2)", textedit.Search{Pattern: `(?m)foo$`, Replacement: "bar", Regex: true},
			"foo\r\nfoo\n", "foo\r\nbar\n", 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := mustCompile(t, tt.search)
			got, n, matches := r.Replace(tt.text)
			if got != tt.want || n != tt.n || len(matches) != tt.found {
				t.Errorf("Replace(%q) = %q, %d, %d matches; want %q, %d, %d", tt.text, got, n, len(matches), tt.want, tt.n, tt.found)
			}
			if tt.found == 0 && matches != nil {
				t.Errorf("matches = %v, want nil", matches)
			}
			// ReplaceEdits gives the same result, and its edits, one per
			// replacement, turn the text into it.
			got2, n2, matches2, edits := r.ReplaceEdits(tt.text)
			if got2 != got || n2 != n || !reflect.DeepEqual(matches2, matches) || len(edits) != n {
				t.Errorf("ReplaceEdits(%q) = %q, %d, %d matches, %d edits; want Replace's %q, %d, %d and %d edits", tt.text, got2, n2, len(matches2), len(edits), got, n, len(matches), n)
			}
			if applied, err := edit.Apply([]byte(tt.text), edits); err != nil || string(applied) != tt.want {
				t.Errorf("Apply(text, edits) = %q, %v; want %q", applied, err, tt.want)
			}
		})
	}
}

// TestSearchReplaceEditsCRLF: in a CRLF file the edits carry the line
// breaks of a literal pattern and replacement in the file's style, as the
// result does.
func TestSearchReplaceEditsCRLF(t *testing.T) {
	r := mustCompile(t, textedit.Search{Pattern: "}\n\nfunc", Replacement: "}\nfunc"})
	text := "func a() {\r\n}\r\n\r\nfunc b() {\r\n}\r\n"
	got, n, _, edits := r.ReplaceEdits(text)
	if want := "func a() {\r\n}\r\nfunc b() {\r\n}\r\n"; got != want || n != 1 {
		t.Fatalf("ReplaceEdits = %q, %d; want %q, 1", got, n, want)
	}
	if want := []edit.Edit{{Start: 12, End: 21, New: "}\r\nfunc"}}; !reflect.DeepEqual(edits, want) {
		t.Errorf("edits %+v, want %+v", edits, want)
	}
}

func TestSearchMatches(t *testing.T) {
	tests := []struct {
		name   string
		search textedit.Search
		text   string
		want   []textedit.Match
	}{
		{"positions are 1-based", textedit.Search{Pattern: "foo"},
			"foo bar\nbaz foo\n\nfoofoo", []textedit.Match{
				{Line: 1, Column: 1, EndColumn: 4, Text: "foo bar"},
				{Line: 2, Column: 5, EndColumn: 8, Text: "baz foo"},
				{Line: 4, Column: 1, EndColumn: 4, Text: "foofoo"},
				{Line: 4, Column: 4, EndColumn: 7, Text: "foofoo"},
			}},
		{"CRLF: line text without CR, columns in bytes", textedit.Search{Pattern: "foo"},
			"a\r\nfoo bar\r\nbaz foo\r\n", []textedit.Match{
				{Line: 2, Column: 1, EndColumn: 4, Text: "foo bar"},
				{Line: 3, Column: 5, EndColumn: 8, Text: "baz foo"},
			}},
		{"a match at the end of a CRLF line", textedit.Search{Pattern: `bar\r`, Regex: true},
			"foo bar\r\n", []textedit.Match{{Line: 1, Column: 5, EndColumn: 9, Text: "foo bar"}}},
		{"a match of several lines: end column on its last line", textedit.Search{Pattern: "b\nc\ndd", Regex: false},
			"ab\nc\nddd\n", []textedit.Match{{Line: 1, Column: 2, EndColumn: 3, Text: "ab"}}},
		{"unicode and emoji columns are byte columns", textedit.Search{Pattern: "wörld"},
			"héllo 👋 wörld\n", []textedit.Match{{Line: 1, Column: 13, EndColumn: 19, Text: "héllo 👋 wörld"}}},
		{"an emoji as the pattern", textedit.Search{Pattern: "👋"},
			"é👋\n👋", []textedit.Match{
				{Line: 1, Column: 3, EndColumn: 7, Text: "é👋"},
				{Line: 2, Column: 1, EndColumn: 5, Text: "👋"},
			}},
		{"every match, also past Count", textedit.Search{Pattern: "x", Count: 1},
			"x\nx\n", []textedit.Match{
				{Line: 1, Column: 1, EndColumn: 2, Text: "x"},
				{Line: 2, Column: 1, EndColumn: 2, Text: "x"},
			}},
		{"last line without a final newline", textedit.Search{Pattern: "end"},
			"a\nthe end", []textedit.Match{{Line: 2, Column: 5, EndColumn: 8, Text: "the end"}}},
		{"empty match after the final newline", textedit.Search{Pattern: `\z`, Regex: true},
			"a\n", []textedit.Match{{Line: 2, Column: 1, EndColumn: 1, Text: ""}}},
		{"tabs count one byte", textedit.Search{Pattern: "x"},
			"\t\tx", []textedit.Match{{Line: 1, Column: 3, EndColumn: 4, Text: "\t\tx"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, got := mustCompile(t, tt.search).Replace(tt.text)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("matches\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

// TestSearchMatchesCRFile searches a file whose lines end with a lone CR,
// which the package splits at CR (see doc.go): match positions should be
// in those lines, as Document.LineAt gives them.
func TestSearchMatchesCRFile(t *testing.T) {
	text := "a\rfoo\rb\r"
	doc, err := edit.NewDocument("cr.txt", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if doc.EOL != edit.CR || doc.LineAt(2) != 2 {
		t.Fatalf("document: EOL %q, LineAt(2) %d; want CR, 2", doc.EOL, doc.LineAt(2))
	}
	want := []textedit.Match{{Line: 2, Column: 1, EndColumn: 4, Text: "foo"}}
	_, n, got := mustCompile(t, textedit.Search{Pattern: "foo", Replacement: "x"}).Replace(text)
	if n != 1 {
		t.Fatalf("n = %d, want 1", n)
	}
	if !reflect.DeepEqual(got, want) {
		if len(got) == 1 && got[0].Line == 1 {
			t.Fatalf("BUG: Searcher.Replace numbers lines at LF only (newLineIndex), so in a CR-only file, which "+
				"Document splits at CR, every match is on line 1 and line_content is the whole file: Replace(%q) "+
				"matches %+v, want %+v", text, got, want)
		}
		t.Errorf("matches %+v, want %+v", got, want)
	}
}

func TestCompileRefuses(t *testing.T) {
	tests := []struct {
		name   string
		search textedit.Search
		msg    []string
	}{
		{"empty pattern", textedit.Search{Pattern: ""}, []string{"the search pattern is empty"}},
		{"empty regex", textedit.Search{Pattern: "", Regex: true}, []string{"empty"}},
		{"negative count", textedit.Search{Pattern: "x", Count: -1}, []string{"--count must be 0 (all) or more, got -1"}},
		{"unclosed group", textedit.Search{Pattern: "(", Regex: true}, []string{"missing closing ): `(`"}},
		{"unclosed class", textedit.Search{Pattern: "[a-", Regex: true}, []string{"missing closing ]: `[a-`"}},
		{"bad repetition", textedit.Search{Pattern: "*x", Regex: true}, []string{"missing argument to repetition operator: `*`"}},
		{"Perl back-reference", textedit.Search{Pattern: `(a)\1`, Regex: true}, []string{"invalid escape sequence: `\\1`"}},
		{"lookahead", textedit.Search{Pattern: `a(?=b)`, Regex: true}, []string{"invalid or unsupported Perl syntax: `(?=`"}},
		{"invalid regex ignoring case", textedit.Search{Pattern: "a)", Regex: true, IgnoreCase: true}, []string{"unexpected )"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := textedit.Compile(tt.search)
			if r != nil {
				t.Errorf("Compile returned a Searcher with the error")
			}
			if !errors.Is(err, textedit.ErrBadPattern) {
				t.Fatalf("Compile(%+v) = %v, want ErrBadPattern", tt.search, err)
			}
			if !strings.HasPrefix(err.Error(), "invalid pattern: ") {
				t.Errorf("message %q does not start with %q", err, "invalid pattern: ")
			}
			for _, m := range tt.msg {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("message %q lacks %q", err, m)
				}
			}
		})
	}
	// A pattern invalid as a regex is fine literally.
	for _, p := range []string{"(", "[a-", "*x", `(a)\1`, "a(?=b)"} {
		if _, err := textedit.Compile(textedit.Search{Pattern: p}); err != nil {
			t.Errorf("literal %q: %v", p, err)
		}
	}
}

// TestSearchRenameGoIdentifier renames identifiers of slog_value.go with
// \bName\b and compares with the lines changed by hand.
func TestSearchRenameGoIdentifier(t *testing.T) {
	src := string(testfile.Read(t, "../testdata/src/go/slog_value.go"))
	tests := []struct {
		pattern, repl string
		lines         map[int]string // line number -> the line after the rename
		matches       []textedit.Match
	}{
		{`\bcountEmptyGroups\b`, "countEmpty", map[int]string{
			184: "\tif n := countEmpty(as); n > 0 {",
			196: "// countEmpty returns the number of empty group values in its argument.",
			197: "func countEmpty(as []Attr) int {",
		}, []textedit.Match{
			{Line: 184, Column: 10, EndColumn: 26, Text: "\tif n := countEmptyGroups(as); n > 0 {"},
			{Line: 196, Column: 4, EndColumn: 20, Text: "// countEmptyGroups returns the number of empty group values in its argument."},
			{Line: 197, Column: 6, EndColumn: 22, Text: "func countEmptyGroups(as []Attr) int {"},
		}},
		{`\bisEmptyGroup\b`, "isEmpty", map[int]string{
			187: "\t\t\tif !a.Value.isEmpty() {",
			200: "\t\tif a.Value.isEmpty() {",
			446: "// isEmpty reports whether v is a group that has no attributes.",
			447: "func (v Value) isEmpty() bool {",
		}, []textedit.Match{
			{Line: 187, Column: 16, EndColumn: 28, Text: "\t\t\tif !a.Value.isEmptyGroup() {"},
			{Line: 200, Column: 14, EndColumn: 26, Text: "\t\tif a.Value.isEmptyGroup() {"},
			{Line: 446, Column: 4, EndColumn: 16, Text: "// isEmptyGroup reports whether v is a group that has no attributes."},
			{Line: 447, Column: 16, EndColumn: 28, Text: "func (v Value) isEmptyGroup() bool {"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			got, n, matches := mustCompile(t, textedit.Search{Pattern: tt.pattern, Replacement: tt.repl, Regex: true}).Replace(src)
			lines := strings.Split(src, "\n")
			for num, l := range tt.lines {
				lines[num-1] = l
			}
			if want := strings.Join(lines, "\n"); got != want {
				t.Errorf("result differs from the hand rename:\n%s", diff.Diff("slog_value.go", []byte(want), []byte(got)))
			}
			if n != len(tt.lines) {
				t.Errorf("n = %d, want %d", n, len(tt.lines))
			}
			if !reflect.DeepEqual(matches, tt.matches) {
				t.Errorf("matches\n%+v\nwant\n%+v", matches, tt.matches)
			}
		})
	}
}

// TestSearcherConcurrent runs one Searcher from several goroutines (go
// test -race checks the claim that it is safe for concurrent use).
func TestSearcherConcurrent(t *testing.T) {
	r := mustCompile(t, textedit.Search{Pattern: `(\w+)_(\w+)`, Replacement: `\2_\1`, Regex: true, Count: 2})
	var wg sync.WaitGroup
	results := make([]string, 8)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			text := fmt.Sprintf("a_%d b_%d c_%d", i, i, i)
			got, n, m := r.Replace(text)
			results[i] = fmt.Sprintf("%s %d %d", got, n, len(m))
		}()
	}
	wg.Wait()
	for i, got := range results {
		if want := fmt.Sprintf("%d_a %d_b c_%d 2 3", i, i, i); got != want {
			t.Errorf("goroutine %d: %q, want %q", i, got, want)
		}
	}
}

// replaceCase is the search of a testdata/replace archive.
type replaceCase struct {
	Pattern     string `json:"pattern"`
	Replacement string `json:"replacement"`
	Regex       bool   `json:"regex"`
	IgnoreCase  bool   `json:"ignore_case"`
	Count       int    `json:"count"`
}

// TestSearchReplaceGolden runs testdata/replace/*.txtar: each archive
// names a fixture of ../testdata/src ("file: ..." in its comment) and
// holds "search.json"; the result section is "want" (the count, every
// match as line:column-end_column and the line, then the unified diff) or
// "error". go test -update rewrites the results.
func TestSearchReplaceGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/replace/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var fixture string
			for _, line := range strings.Split(string(ar.Comment), "\n") {
				if v, ok := strings.CutPrefix(line, "file: "); ok {
					fixture = strings.TrimSpace(v)
				}
			}
			src := testfile.Read(t, filepath.Join("../testdata/src", fixture))
			var c replaceCase
			if err := json.Unmarshal(testfile.Section(t, ar, "search.json"), &c); err != nil {
				t.Fatal(err)
			}
			r, err := textedit.Compile(textedit.Search(c))
			if err != nil {
				testfile.CheckGolden(t, file, ar, "error", err.Error()+"\n")
				return
			}
			got, n, matches := r.Replace(string(src))
			var b strings.Builder
			fmt.Fprintf(&b, "replaced: %d of %d\n", n, len(matches))
			for _, m := range matches {
				fmt.Fprintf(&b, "%d:%d-%d: %s\n", m.Line, m.Column, m.EndColumn, m.Text)
			}
			b.WriteString(diff.Diff(filepath.Base(fixture), src, []byte(got)))
			testfile.CheckGolden(t, file, ar, "want", b.String())
		})
	}
}

func ExampleCompile() {
	// \1 in a regex replacement is read as ${1}.
	r, err := textedit.Compile(textedit.Search{Pattern: `print (\w+)`, Replacement: `print(\1)`, Regex: true})
	if err != nil {
		panic(err)
	}
	text, n, matches := r.Replace("print x\nif y:\n    print y\n")
	fmt.Print(text)
	fmt.Println(n, "replaced")
	for _, m := range matches {
		fmt.Printf("%d:%d-%d %q\n", m.Line, m.Column, m.EndColumn, m.Text)
	}

	_, err = textedit.Compile(textedit.Search{Pattern: "(", Regex: true})
	fmt.Println(err)
	// Output:
	// print(x)
	// if y:
	//     print(y)
	// 2 replaced
	// 1:1-8 "print x"
	// 3:5-12 "    print y"
	// invalid pattern: error parsing regexp: missing closing ): `(`
}

func ExampleSearcher_Replace() {
	// A literal search: the dot and the dollar are plain characters, and
	// Count replaces the first match only.
	r, err := textedit.Compile(textedit.Search{Pattern: "cost.usd", Replacement: "$cost", Count: 1})
	if err != nil {
		panic(err)
	}
	text, n, matches := r.Replace("cost.usd = 1\ncostXusd = 2\ntotal = cost.usd\n")
	fmt.Print(text)
	fmt.Println(n, "of", len(matches))
	// Output:
	// $cost = 1
	// costXusd = 2
	// total = cost.usd
	// 1 of 2
}

// TestReplaceMatchWindow: on a 300 KB line every Match holds a window of at
// most MaxWindow bytes around it (with the whole line per match, a replace
// --expect refusal would print 843 MB for this line).
func TestReplaceMatchWindow(t *testing.T) {
	line := strings.Repeat("value := compute(x) + ", 300<<10/22)
	_, n, matches := mustCompile(t, textedit.Search{Pattern: "compute", Replacement: "c"}).Replace("package p\n" + line + "\n")
	if n != strings.Count(line, "compute") || len(matches) != n {
		t.Fatalf("%d replacements, %d matches", n, len(matches))
	}
	total := 0
	for _, m := range matches {
		total += len(m.Text)
		if len(m.Text) > textedit.MaxWindow || m.LineLength != len(line) || m.ContentColumn < 1 ||
			!strings.HasPrefix(m.Text[m.Column-m.ContentColumn:], "compute") {
			t.Fatalf("match %+v", m)
		}
	}
	if d := matches[len(matches)/2].Display(); !strings.HasPrefix(d, "...") || !strings.HasSuffix(d, "...") {
		t.Errorf("Display() = %q, want ... on both sides", d)
	}
	if total > n*textedit.MaxWindow {
		t.Errorf("the matches hold %d bytes of text", total)
	}
}

// TestReplaceDocument: ReplaceDocument gives what ReplaceEdits gives on
// the document's Text, with the byte order mark kept in front of the
// content and the edits' offsets moved past it, for LF, CRLF and CR files,
// with and without a BOM; when nothing matches the content is the
// document's own.
func TestReplaceDocument(t *testing.T) {
	for _, c := range []struct {
		name   string
		search textedit.Search
		text   string
	}{
		{"LF", textedit.Search{Pattern: "foo", Replacement: "quux"}, "foo bar\nbaz foo\n"},
		{"CRLF across lines", textedit.Search{Pattern: "}\n\nfunc", Replacement: "}\nfunc"}, "func a() {\r\n}\r\n\r\nfunc b() {\r\n}\r\n"},
		{"CR", textedit.Search{Pattern: "foo", Replacement: "x"}, "a\rfoo\rb foo\r"},
		{"regex with groups, Count", textedit.Search{Pattern: `(\w+)@(\w+)`, Replacement: "$2.$1", Regex: true, Count: 2}, "a@b\nc@d e@f\ng@h"},
		{"nothing matches", textedit.Search{Pattern: "zzz", Replacement: "y"}, "foo\n"},
		{"empty matches", textedit.Search{Pattern: `x*`, Replacement: "-", Regex: true}, "ab\nx\n"},
	} {
		for _, bom := range []string{"", "\xEF\xBB\xBF"} {
			t.Run(fmt.Sprintf("%s/bom=%v", c.name, bom != ""), func(t *testing.T) {
				r := mustCompile(t, c.search)
				doc, err := edit.NewDocument("f.txt", []byte(bom+c.text))
				if err != nil {
					t.Fatal(err)
				}
				wantText, wantN, wantMatches, wantEdits := r.ReplaceEdits(c.text)
				content, n, matches, edits := r.ReplaceDocument(doc)
				if string(content) != bom+wantText || n != wantN {
					t.Errorf("content %q, %d replacements; want %q, %d", content, n, bom+wantText, wantN)
				}
				if !reflect.DeepEqual(matches, wantMatches) {
					t.Errorf("matches %+v, want %+v", matches, wantMatches)
				}
				for i := range wantEdits {
					wantEdits[i].Start += len(bom)
					wantEdits[i].End += len(bom)
				}
				if !reflect.DeepEqual(edits, wantEdits) {
					t.Errorf("edits %+v, want %+v", edits, wantEdits)
				}
				if got, err := edit.Apply(doc.Content, edits); err != nil || string(got) != string(content) {
					t.Errorf("Apply(content, edits) = %q, %v; want the content %q", got, err, content)
				}
				if len(wantMatches) == 0 && (len(content) == 0 || &content[0] != &doc.Content[0]) {
					t.Errorf("no match: the content is a copy, want the document's own")
				}
			})
		}
	}
}

// TestSearchPositionsAgainstLineStarts: on texts of every mix of LF, CRLF
// and lone CR line endings, each match's line, columns and line text are
// those that lines.IndexStarts numbers (the rule of Document), for a
// match within a line, across lines, at a line's end and empty at the
// text's end.
func TestSearchPositionsAgainstLineStarts(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 15))
	pieces := []string{"ab", "a", "b", "\n", "\r\n", "\r", "é", "\r\r\n", "xab"}
	for i := range 2000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		text := b.String()
		pattern := []string{`ab`, `b\r?\n?a`, `\r`, `\z`, `a(?s:.)`}[i%5]
		_, _, got := mustCompile(t, textedit.Search{Pattern: pattern, Regex: true}).Replace(text)
		x := lines.IndexStarts(text)
		re := regexp.MustCompile(pattern)
		var want []textedit.Match
		for _, l := range re.FindAllStringIndex(text, -1) {
			line, col := x.Position(l[0])
			_, endCol := x.Position(l[1])
			end := len(text)
			if line < len(x) {
				end = x[line] - 1
			}
			want = append(want, textedit.Match{Line: line, Column: col, EndColumn: endCol, Text: strings.TrimRight(text[x[line-1]:end], "\r")})
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q in %q: matches\n%+v\nwant\n%+v", pattern, text, got, want)
		}
	}
}
