package textedit_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/symedit/symedit/diff"
	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/internal/testfile"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
	"github.com/symedit/symedit/textedit"
)

// symbolOp is one of the three whole-symbol operations.
type symbolOp func(*edit.Document, textedit.SymbolLines, string) (edit.Edit, textedit.Placement, error)

var symbolOps = map[string]symbolOp{
	"replace": textedit.ReplaceSymbol,
	"before":  textedit.InsertBeforeSymbol,
	"after":   textedit.InsertAfterSymbol,
}

// symDoc reads a fixture of ../testdata/src into a Document.
func symDoc(t *testing.T, fixture string) *edit.Document {
	t.Helper()
	doc, err := edit.NewDocument(filepath.Base(fixture), testfile.Read(t, filepath.Join("../testdata/src", fixture)))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// symApply applies e to doc, re-reads the result with NewDocument and
// checks that the lines before line first and after line last of the
// original are byte-identical in it (last+1 is where they resume), then
// returns the new document and the new lines in between.
func symApply(t *testing.T, doc *edit.Document, e edit.Edit, first, last int) (*edit.Document, []string) {
	t.Helper()
	content, err := edit.Apply(doc.Content, []edit.Edit{e})
	if err != nil {
		t.Fatalf("Apply(%+v): %v", e, err)
	}
	nd, err := edit.NewDocument(doc.Path, content)
	if err != nil {
		t.Fatalf("the result does not re-read: %v", err)
	}
	if nd.EOL != doc.EOL || nd.BOM != doc.BOM || nd.HasFinalNewline() != doc.HasFinalNewline() {
		t.Errorf("EOL %q BOM %v final newline %v; was %q %v %v", nd.EOL, nd.BOM, nd.HasFinalNewline(), doc.EOL, doc.BOM, doc.HasFinalNewline())
	}
	n, nn := doc.LineCount(), nd.LineCount()
	added := nn - n + (last - first + 1)
	if added < 0 {
		t.Fatalf("the result has %d lines, the original %d: lines %d-%d cannot have been replaced", nn, n, first, last)
	}
	// Whole lines with their endings, to compare bytes.
	raw := func(d *edit.Document) []string { return strings.SplitAfter(string(d.Text), d.EOL) }
	or, nr := raw(doc), raw(nd)
	if !reflect.DeepEqual(nr[:first-1], or[:first-1]) {
		t.Errorf("lines before %d changed", first)
	}
	if !reflect.DeepEqual(nr[first-1+added:], or[last:]) {
		t.Errorf("lines after %d changed", last)
	}
	return nd, nd.Lines(first, first+added-1)
}

// indentBy returns lines with prefix in front of every non-blank line.
func indentBy(prefix string, lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			out[i] = prefix + l
		}
	}
	return out
}

func dedentBy(n int, lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			out[i] = l[n:]
		}
	}
	return out
}

// processStart is BaseProcess.start of process.py (lines 116-132) with
// its docstring shortened, as a model would send it flush-left.
func processStart(t *testing.T, doc *edit.Document) []string {
	orig := doc.Lines(116, 132)
	if orig[0] != "    def start(self):" || orig[16] != "        _children.add(self)" {
		t.Fatalf("process.py lines 116-132 are not BaseProcess.start: %q", orig)
	}
	lines := append([]string{orig[0], "        '''Start child process.'''"}, orig[4:]...)
	return dedentBy(4, lines)
}

func TestReplaceSymbolPythonMethod(t *testing.T) {
	doc := symDoc(t, "python/process.py")
	s := textedit.SymbolLines{First: 116, Last: 132, BlankLines: 1}
	flush := processStart(t, doc)
	indented := indentBy("    ", flush)
	tests := []struct {
		name     string
		body     string
		want     []string
		reindent string
		added    string
	}{
		{"flush-left", strings.Join(flush, "\n") + "\n", indented, "indented by 4 spaces", "    "},
		{"flush-left without a final newline", strings.Join(flush, "\n"), indented, "indented by 4 spaces", "    "},
		{"flush-left with CRLF", strings.Join(flush, "\r\n") + "\r\n", indented, "indented by 4 spaces", "    "},
		{"already indented", strings.Join(indented, "\n") + "\n", indented, "written as sent", ""},
		{"indented by 2 of 4 spaces", strings.Join(indentBy("  ", flush), "\n"), indented, "indented by 2 spaces", "  "},
		{"indented deeper", strings.Join(indentBy("      ", flush), "\n"), indentBy("      ", flush), "written as sent", ""},
		{"inconsistent: a line left of the first", "    def start(self):\n  self._check_closed()\n        _children.add(self)\n",
			[]string{"    def start(self):", "  self._check_closed()", "        _children.add(self)"}, "written as sent", ""},
		{"inconsistent: the first line indented, the rest flush-left", "  def start(self):\nreturn 1\n",
			[]string{"  def start(self):", "return 1"}, "written as sent", ""},
		{"tab-indented: not a prefix of the spaces", "\tdef start(self):\n\t\tpass\n",
			[]string{"\tdef start(self):", "\t\tpass"}, "written as sent", ""},
		{"blank lines stay empty when shifted", "def start(self):\n    a = 1\n\n    \n\t\n    b = 2\n",
			[]string{"    def start(self):", "        a = 1", "", "", "", "        b = 2"}, "indented by 4 spaces", "    "},
		{"blank lines as sent when not shifted", "    def start(self):\n        a = 1\n  \n        b = 2\n",
			[]string{"    def start(self):", "        a = 1", "  ", "        b = 2"}, "written as sent", ""},
		{"leading blank line", "\ndef start(self):\n    pass\n",
			[]string{"", "    def start(self):", "        pass"}, "indented by 4 spaces", "    "},
		{"decorated", "@property\ndef start(self):\n    return 1\n",
			[]string{"    @property", "    def start(self):", "        return 1"}, "indented by 4 spaces", "    "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, re, err := textedit.ReplaceSymbol(doc, s, tt.body)
			if err != nil {
				t.Fatal(err)
			}
			if re.Added != tt.added || re.Reindent.String() != tt.reindent {
				t.Errorf("Reindent %+v %q, want Added %q, %q", re, re, tt.added, tt.reindent)
			}
			_, got := symApply(t, doc, e, s.First, s.Last)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("new lines\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestReplaceSymbolGoFunction(t *testing.T) {
	doc := symDoc(t, "go/slog_value.go")
	s := textedit.SymbolLines{First: 197, Last: 205, BlankLines: 1}
	if doc.Line(197) != "func countEmptyGroups(as []Attr) int {" || doc.Line(205) != "}" {
		t.Fatalf("slog_value.go lines 197-205 are not countEmptyGroups")
	}
	body := "func countEmptyGroups(as []Attr) (n int) {\n\tfor i := range as {\n\t\tif as[i].Value.isEmptyGroup() {\n\t\t\tn++\n\t\t}\n\t}\n\treturn n\n}\n"
	e, re, err := textedit.ReplaceSymbol(doc, s, body)
	if err != nil {
		t.Fatal(err)
	}
	if re != (textedit.Placement{Replaced: textedit.ReplacedWhole}) || re.Reindent.String() != "written as sent" {
		t.Errorf("Reindent %+v %q, want the zero value, written as sent", re, re)
	}
	nd, got := symApply(t, doc, e, s.First, s.Last)
	if want := edit.SplitText(body); !reflect.DeepEqual(got, want) {
		t.Errorf("new lines\n%q\nwant\n%q", got, want)
	}
	// The doc comment above is untouched and still directly above.
	if nd.Line(196) != "// countEmptyGroups returns the number of empty group values in its argument." || nd.Line(197) != "func countEmptyGroups(as []Attr) (n int) {" {
		t.Errorf("lines 196-197: %q", nd.Lines(196, 197))
	}
}

// TestReplaceSymbolIndent covers the indentation fitting on small files,
// with tabs, mixed indentation and CRLF.
func TestReplaceSymbolIndent(t *testing.T) {
	tests := []struct {
		name     string
		content  string
		s        textedit.SymbolLines
		body     string
		want     string
		reindent string
	}{
		{"tab-indented method", "type T struct{}\n\nvar m = map[string]func(){\n\t\"a\": func() {\n\t\tprintln(1)\n\t},\n}\n",
			textedit.SymbolLines{First: 4, Last: 6, BlankLines: 1}, "\"a\": func() {\n\tprintln(2)\n},\n",
			"type T struct{}\n\nvar m = map[string]func(){\n\t\"a\": func() {\n\t\tprintln(2)\n\t},\n}\n", "indented by 1 tab"},
		{"tab and spaces", "x:\n\t  def f():\n\t      pass\n",
			textedit.SymbolLines{First: 2, Last: 3, BlankLines: 1}, "def g():\n    return 1",
			"x:\n\t  def g():\n\t      return 1\n", "indented by 1 tab and 2 spaces"},
		{"one space", "a {\n b\n}\n", textedit.SymbolLines{First: 2, Last: 2, BlankLines: 1}, "c",
			"a {\n c\n}\n", "indented by 1 space"},
		{"CRLF file, body with LF", "class A:\r\n    def a(self):\r\n        pass\r\n\r\n    def b(self):\r\n        pass\r\n",
			textedit.SymbolLines{First: 2, Last: 3, BlankLines: 1}, "def a(self):\n    return 1\n",
			"class A:\r\n    def a(self):\r\n        return 1\r\n\r\n    def b(self):\r\n        pass\r\n", "indented by 4 spaces"},
		{"last symbol of a file without a final newline", "class A:\n    def a(self):\n        pass",
			textedit.SymbolLines{First: 2, Last: 3, BlankLines: 1}, "def a(self):\n    return 1\n",
			"class A:\n    def a(self):\n        return 1", "indented by 4 spaces"},
		{"top-level symbol, nothing to shift", "def f():\n    pass\n", textedit.SymbolLines{First: 1, Last: 2, BlankLines: 2},
			"def f():\n    return 2\n", "def f():\n    return 2\n", "written as sent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := edit.NewDocument("f", []byte(tt.content))
			if err != nil {
				t.Fatal(err)
			}
			e, re, err := textedit.ReplaceSymbol(doc, tt.s, tt.body)
			if err != nil {
				t.Fatal(err)
			}
			got, err := edit.Apply(doc.Content, []edit.Edit{e})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want || re.Reindent.String() != tt.reindent {
				t.Errorf("got %q, %q; want %q, %q", got, re, tt.want, tt.reindent)
			}
		})
	}
}

func TestReindentString(t *testing.T) {
	tests := []struct{ added, want string }{
		{"", "written as sent"},
		{" ", "indented by 1 space"},
		{"    ", "indented by 4 spaces"},
		{"\t", "indented by 1 tab"},
		{"\t\t", "indented by 2 tabs"},
		{"\t  ", "indented by 1 tab and 2 spaces"},
		{"\t\t ", "indented by 2 tabs and 1 space"},
	}
	for _, tt := range tests {
		if got := (textedit.Reindent{Added: tt.added}).String(); got != tt.want {
			t.Errorf("Reindent{%q}.String() = %q, want %q", tt.added, got, tt.want)
		}
	}
}

func TestSymbolOpsRefuseEmptyText(t *testing.T) {
	content := testfile.Read(t, "../testdata/src/python/process.py")
	doc, err := edit.NewDocument("process.py", content)
	if err != nil {
		t.Fatal(err)
	}
	s := textedit.SymbolLines{First: 116, Last: 132, BlankLines: 1}
	for name, op := range symbolOps {
		for _, text := range []string{"", " ", "\n", "\n\n", " \t\r\n  \n"} {
			e, re, err := op(doc, s, text)
			want := "the text to insert is empty"
			if name == "replace" {
				want = "the new body is empty; to delete the symbol use `symedit lines` with new_content \"\""
			}
			if err == nil || err.Error() != want {
				t.Errorf("%s(%q) = %v, want the error %q", name, text, err, want)
			}
			if e != (edit.Edit{}) || re != (textedit.Placement{}) {
				t.Errorf("%s(%q) returned %+v, %+v with the error", name, text, e, re)
			}
		}
	}
	if !bytes.Equal(doc.Content, content) {
		t.Errorf("the document's content was modified")
	}
}

// TestSymbolOpsOutOfRange passes SymbolLines outside the document (a
// symbol found in an older version of the file): an error, not a panic.
func TestSymbolOpsOutOfRange(t *testing.T) {
	doc, err := edit.NewDocument("f.py", []byte("def f():\n    pass\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"replace", "before", "after"} {
		cases := []textedit.SymbolLines{{First: 5, Last: 6, BlankLines: 1}, {First: 0, Last: 1, BlankLines: 1}}
		if name != "before" { // InsertBeforeSymbol does not use Last
			cases = append(cases, textedit.SymbolLines{First: 2, Last: 4, BlankLines: 1})
		}
		for _, s := range cases {
			t.Run(fmt.Sprintf("%s %d-%d", name, s.First, s.Last), func(t *testing.T) {
				var err error
				panicked := func() (p any) {
					defer func() { p = recover() }()
					_, _, err = symbolOps[name](doc, s, "x = 1")
					return nil
				}()
				if panicked != nil {
					t.Fatalf("BUG: Document.%s with SymbolLines %d-%d on a %d-line document panics (%v) instead of returning "+
						"an error: it calls d.Line(s.First) before any range check", map[string]string{"replace": "ReplaceSymbol",
						"before": "InsertBeforeSymbol", "after": "InsertAfterSymbol"}[name], s.First, s.Last, doc.LineCount(), panicked)
				}
				if err == nil {
					t.Errorf("no error")
				}
			})
		}
	}
}

// TestInsertSymbolBlankLines inserts around symbols of small files and
// checks the blank lines put before and after the text.
func TestInsertSymbolBlankLines(t *testing.T) {
	tests := []struct {
		name    string
		op      string
		content string
		s       textedit.SymbolLines
		text    string
		want    string
		bug     string // a known bug: skip when the result differs
	}{
		{"before: previous line is code", "before", "x = 1\ndef f():\n    pass\n", textedit.SymbolLines{First: 2, Last: 3, BlankLines: 2},
			"def g():\n    pass", "x = 1\n\n\ndef g():\n    pass\n\n\ndef f():\n    pass\n", ""},
		{"before: previous line is blank", "before", "x = 1\n\ndef f():\n    pass\n", textedit.SymbolLines{First: 3, Last: 4, BlankLines: 1},
			"def g():\n    pass", "x = 1\n\ndef g():\n    pass\n\ndef f():\n    pass\n", ""},
		{"before: first in its block", "before", "class A:\n    def f(self):\n        pass\n", textedit.SymbolLines{First: 2, Last: 3, BlankLines: 1},
			"def g(self):\n    pass", "class A:\n    def g(self):\n        pass\n\n    def f(self):\n        pass\n", ""},
		{"before: first in a braced block", "before", "class A {\n  f() {}\n}\n", textedit.SymbolLines{First: 2, Last: 2, BlankLines: 1},
			"g() {}", "class A {\n  g() {}\n\n  f() {}\n}\n", ""},
		{"before: first line of the file", "before", "func f() {}\n", textedit.SymbolLines{First: 1, Last: 1, BlankLines: 1},
			"func g() {}", "func g() {}\n\nfunc f() {}\n", ""},
		{"before: above a comment block at the top of the file", "before", "// f does it.\n// Really.\nfunc f() {}\n", textedit.SymbolLines{First: 3, Last: 3, BlankLines: 1},
			"func g() {}", "func g() {}\n\n// f does it.\n// Really.\nfunc f() {}\n", ""},
		{"before: above a Python comment and a decorator", "before", "x = 1\n\n\n# cached\n@cache\ndef f():\n    pass\n", textedit.SymbolLines{First: 5, Last: 7, BlankLines: 2},
			"def g():\n    pass", "x = 1\n\n\ndef g():\n    pass\n\n\n# cached\n@cache\ndef f():\n    pass\n", ""},
		{"before: previous line closes a sibling", "before", "class A {\n    void a() {\n    }\n    void b() {\n    }\n}\n", textedit.SymbolLines{First: 4, Last: 5, BlankLines: 1},
			"void c() {\n}", "class A {\n    void a() {\n    }\n\n    void c() {\n    }\n\n    void b() {\n    }\n}\n",
			"InsertBeforeSymbol puts no blank line between the closing \"}\" of the previous sibling and the text: separates() " +
				"treats a line starting with \"}\" as the opening of the enclosing block, but the doc says a blank line is " +
				"left out only after a blank line or the enclosing block's opening"},
		{"after: next line is blank", "after", "def f():\n    pass\n\ndef h():\n    pass\n", textedit.SymbolLines{First: 1, Last: 2, BlankLines: 1},
			"def g():\n    pass", "def f():\n    pass\n\ndef g():\n    pass\n\ndef h():\n    pass\n", ""},
		{"after: next line is code", "after", "func f() {\n}\nvar x = 1\n", textedit.SymbolLines{First: 1, Last: 2, BlankLines: 1},
			"func g() {\n}", "func f() {\n}\n\nfunc g() {\n}\n\nvar x = 1\n", ""},
		{"after: next line closes the block", "after", "class A {\n  f() {}\n}\n", textedit.SymbolLines{First: 2, Last: 2, BlankLines: 1},
			"g() {}", "class A {\n  f() {}\n\n  g() {}\n}\n", ""},
		{"after: last line of the file", "after", "def f():\n    pass\n", textedit.SymbolLines{First: 1, Last: 2, BlankLines: 2},
			"def g():\n    pass\n", "def f():\n    pass\n\n\ndef g():\n    pass\n", ""},
		{"after: last line without a final newline", "after", "def f():\n    pass", textedit.SymbolLines{First: 1, Last: 2, BlankLines: 2},
			"def g():\n    pass\n", "def f():\n    pass\n\n\ndef g():\n    pass", ""},
		{"after: next line opens a definition", "after", "class A {\n    void a() {\n    }\n    void b() {\n    }\n}\n", textedit.SymbolLines{First: 2, Last: 3, BlankLines: 1},
			"void c() {\n}", "class A {\n    void a() {\n    }\n\n    void c() {\n    }\n\n    void b() {\n    }\n}\n",
			"InsertAfterSymbol puts no blank line between the text and a next line that ends with \"{\" (a sibling's " +
				"signature): separates() takes any line ending with \"{\" or \":\" for a block boundary, but the doc says a " +
				"blank line is left out only before a blank line or the enclosing block's close"},
		{"after: next line is a Python def", "after", "class A:\n    def a(self):\n        pass\n    def b(self):\n        pass\n", textedit.SymbolLines{First: 2, Last: 3, BlankLines: 1},
			"def c(self):\n    pass", "class A:\n    def a(self):\n        pass\n\n    def c(self):\n        pass\n\n    def b(self):\n        pass\n",
			"InsertAfterSymbol puts no blank line before a next line ending with \":\" (the next method's def): separates() " +
				"takes it for a block boundary"},
		{"after: CRLF", "after", "class A {\r\n  f() {}\r\n  h() {}\r\n}\r\n", textedit.SymbolLines{First: 2, Last: 2, BlankLines: 1},
			"g() {}\n", "class A {\r\n  f() {}\r\n\r\n  g() {}\r\n\r\n  h() {}\r\n}\r\n", ""},
		{"before: CRLF", "before", "class A {\r\n  // f.\r\n  f() {}\r\n}\r\n", textedit.SymbolLines{First: 3, Last: 3, BlankLines: 1},
			"g() {}\n", "class A {\r\n  g() {}\r\n\r\n  // f.\r\n  f() {}\r\n}\r\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := edit.NewDocument("f", []byte(tt.content))
			if err != nil {
				t.Fatal(err)
			}
			e, _, err := symbolOps[tt.op](doc, tt.s, tt.text)
			if err != nil {
				t.Fatal(err)
			}
			got, err := edit.Apply(doc.Content, []edit.Edit{e})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want && tt.bug != "" {
				t.Fatalf("BUG: %s: %s(%q, lines %d-%d, %q) = %q, want %q", tt.bug, tt.op, tt.content, tt.s.First, tt.s.Last, tt.text, got, tt.want)
			}
			if string(got) != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestInsertBeforeSymbolGoDocComment(t *testing.T) {
	doc := symDoc(t, "go/slog_value.go")
	tests := []struct {
		name        string
		s           textedit.SymbolLines
		comment     []string // the comment block directly above the symbol
		blankBefore int      // the line before the comment block, blank
	}{
		{"one-line comment", textedit.SymbolLines{First: 197, Last: 205, BlankLines: 1},
			[]string{"// countEmptyGroups returns the number of empty group values in its argument."}, 195},
		{"two-line comment", textedit.SymbolLines{First: 180, Last: 194, BlankLines: 1},
			[]string{"// GroupValue returns a new [Value] for a list of Attrs.", "// The caller must not subsequently mutate the argument slice."}, 177},
	}
	text := "// hasGroups reports whether as holds a group.\nfunc hasGroups(as []Attr) bool {\n\treturn countEmptyGroups(as) > 0\n}\n"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at := tt.s.First - len(tt.comment)
			if got := doc.Lines(at, tt.s.First-1); !reflect.DeepEqual(got, tt.comment) || doc.Line(tt.blankBefore) != "" || tt.blankBefore != at-1 {
				t.Fatalf("fixture lines %d-%d: %q", at, tt.s.First-1, got)
			}
			e, re, err := textedit.InsertBeforeSymbol(doc, tt.s, text)
			if err != nil {
				t.Fatal(err)
			}
			if re.Reindent.String() != "written as sent" {
				t.Errorf("Reindent %q", re)
			}
			// Inserted at the comment's line: nothing replaced.
			nd, got := symApply(t, doc, e, at, at-1)
			want := append(edit.SplitText(text), "")
			if !reflect.DeepEqual(got, want) {
				t.Errorf("inserted lines\n%q\nwant\n%q", got, want)
			}
			// The comment is still directly above its function.
			shift := len(want)
			if c := nd.Lines(at+shift, tt.s.First-1+shift); !reflect.DeepEqual(c, tt.comment) || nd.Line(tt.s.First+shift) != doc.Line(tt.s.First) {
				t.Errorf("comment and function after the insertion: %q, %q", c, nd.Line(tt.s.First+shift))
			}
			if nd.Line(at-1) != "" {
				t.Errorf("line before the insertion: %q, want the blank line", nd.Line(at-1))
			}
		})
	}
}

// TestSymbolOpsCRLFRealFile runs the operations on slog_value.go converted
// to CRLF: the result is the LF result converted to CRLF.
func TestSymbolOpsCRLFRealFile(t *testing.T) {
	lf := testfile.Read(t, "../testdata/src/go/slog_value.go")
	crlf := bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))
	s := textedit.SymbolLines{First: 197, Last: 205, BlankLines: 1}
	text := "func one() int {\n\treturn 1\n}\n"
	for name, op := range symbolOps {
		t.Run(name, func(t *testing.T) {
			var results [2][]byte
			for i, content := range [][]byte{lf, crlf} {
				doc, err := edit.NewDocument("slog_value.go", content)
				if err != nil {
					t.Fatal(err)
				}
				e, _, err := op(doc, s, text)
				if err != nil {
					t.Fatal(err)
				}
				if results[i], err = edit.Apply(doc.Content, []edit.Edit{e}); err != nil {
					t.Fatal(err)
				}
			}
			if want := bytes.ReplaceAll(results[0], []byte("\n"), []byte("\r\n")); !bytes.Equal(results[1], want) {
				t.Errorf("CRLF result differs from the LF one converted:\n%s", diff.Diff("slog_value.go", want, results[1]))
			}
			if bytes.Count(results[1], []byte("\n")) != bytes.Count(results[1], []byte("\r\n")) {
				t.Errorf("the CRLF result holds a bare LF")
			}
		})
	}
}

// TestSymbolOpsGolden runs testdata/symbolops/*.txtar on real files. The
// archive's comment gives "file: <fixture>", "op: replace|before|after",
// "lines: <first> <last>" and "blank: <n>"; its "text" section is the
// text sent. The result section "want" holds the Reindent and the unified
// diff. go test -update rewrites it.
func TestSymbolOpsGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/symbolops/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			keys := map[string]string{}
			for _, line := range strings.Split(string(ar.Comment), "\n") {
				if k, v, ok := strings.Cut(line, ": "); ok && !strings.Contains(k, " ") {
					keys[k] = strings.TrimSpace(v)
				}
			}
			var s textedit.SymbolLines
			if _, err := fmt.Sscanf(keys["lines"], "%d %d", &s.First, &s.Last); err != nil {
				t.Fatalf("lines: %v", err)
			}
			if s.BlankLines, err = strconv.Atoi(keys["blank"]); err != nil {
				t.Fatalf("blank: %v", err)
			}
			op, ok := symbolOps[keys["op"]]
			if !ok {
				t.Fatalf("op %q", keys["op"])
			}
			doc := symDoc(t, keys["file"])
			e, re, err := op(doc, s, string(testfile.Section(t, ar, "text")))
			if err != nil {
				testfile.CheckGolden(t, file, ar, "error", err.Error()+"\n")
				return
			}
			first, last := s.First, s.Last
			if keys["op"] != "replace" {
				// Insertions replace nothing: the lines around the
				// insertion point must be untouched.
				first = doc.LineCount() + 1
				if off := e.Start - (len(doc.Content) - len(doc.Text)); off < len(doc.Text) {
					first = doc.LineAt(off)
				}
				last = first - 1
			}
			nd, _ := symApply(t, doc, e, first, last)
			testfile.CheckGolden(t, file, ar, "want", "reindent: "+re.Reindent.String()+"\n"+diff.Diff(doc.Path, doc.Content, nd.Content))
		})
	}
}

func ExampleReplaceSymbol() {
	doc, err := edit.NewDocument("shapes.py", []byte(`import functools

class Square:
    def __init__(self, side):
        self.side = side

    @functools.cache
    def area(self):
        return self.side * self.side
`))
	if err != nil {
		panic(err)
	}
	lang, _ := lang.ByName("python")
	syms, err := symbols.Extract(context.Background(), doc.Text, lang)
	if err != nil {
		panic(err)
	}
	i, err := symbols.Locate(syms, doc.Text, symbols.Location{Path: doc.Path, NamePath: "Square/area"})
	if err != nil {
		panic(err)
	}
	sym := syms[i]
	s := textedit.SymbolLines{
		First:      doc.LineAt(sym.StartByte),
		Last:       doc.LineAt(sym.EndByte - 1),
		BlankLines: 1,
		Head:       textedit.HeadOf(sym, lang),
	}
	// The model sends the method flush-left and without its decorator: the
	// decorator is kept and the text shifted to the method's indentation.
	e, pl, err := textedit.ReplaceSymbol(doc, s, "def area(self):\n    return self.side ** 2\n")
	if err != nil {
		panic(err)
	}
	content, err := edit.Apply(doc.Content, []edit.Edit{e})
	if err != nil {
		panic(err)
	}
	fmt.Print(string(content))
	fmt.Println(pl.Replaced)
	fmt.Println(pl)
	// Output:
	// import functools
	//
	// class Square:
	//     def __init__(self, side):
	//         self.side = side
	//
	//     @functools.cache
	//     def area(self):
	//         return self.side ** 2
	// from-keyword
	// kept "@functools.cache"; text indented by 4 spaces
}
