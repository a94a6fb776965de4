package reply_test

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/symedit/symedit/reply"
)

// noCopyText is lines 239-250 of testdata/src/go/atomic_type.go (Go's
// sync/atomic), without a final newline.
const noCopyText = "// noCopy may be added to structs which must not be copied\n" +
	"// after the first use.\n" +
	"//\n" +
	"// See https://golang.org/issues/8005#issuecomment-190753527\n" +
	"// for details.\n" +
	"//\n" +
	"// Note that it must not be embedded, due to the Lock and Unlock methods.\n" +
	"type noCopy struct{}\n" +
	"\n" +
	"// Lock is a no-op used by -copylocks checker from `go vet`.\n" +
	"func (*noCopy) Lock()   {}\n" +
	"func (*noCopy) Unlock() {}"

func edit(leading, old, new, trailing []string) reply.Block {
	return reply.Block{Format: reply.FormatEdit, Path: "a.go", ContextBefore: leading, OldLines: old, NewLines: new, ContextAfter: trailing}
}

func sr(old, new []string) reply.Block {
	return reply.Block{Format: reply.FormatSearchReplace, Path: "a.go", OldLines: old, NewLines: new}
}

func l(s ...string) []string { return s }

func mustApply(t *testing.T, b reply.Block, text string) string {
	t.Helper()
	out, f := b.Apply(text)
	if f != nil {
		t.Fatalf("Apply failed: %v", f)
	}
	return out
}

// TestApplyOperations covers modifying, inserting, appending and deleting
// lines, at the start, the end and over the whole text, for both formats,
// byte for byte, on a text with and without a final newline.
func TestApplyOperations(t *testing.T) {
	lines := strings.Split(noCopyText, "\n")
	last := len(lines) - 1
	for _, c := range []struct {
		name  string
		block reply.Block
		want  []string // the new lines
	}{
		{"edit modify", edit(l(lines[7]), l(lines[8]), l("", "// Lock and Unlock are no-ops."), l(lines[9])),
			slices.Concat(lines[:8], l("", "// Lock and Unlock are no-ops."), lines[9:])},
		{"edit insert", edit(l(lines[2]), nil, l("// Issue:"), l(lines[3])),
			slices.Concat(lines[:3], l("// Issue:"), lines[3:])},
		{"edit delete", edit(l(lines[2]), lines[3:6], nil, l(lines[6])),
			slices.Concat(lines[:3], lines[6:])},
		{"edit insert at start", edit(nil, nil, l("package atomic", ""), l(lines[0])),
			slices.Concat(l("package atomic", ""), lines)},
		{"edit modify first line", edit(nil, l(lines[0]), l("// noCopy may be embedded"), l(lines[1])),
			slices.Concat(l("// noCopy may be embedded"), lines[1:])},
		{"edit append", edit(l(lines[last]), nil, l("", "type align64 struct{}"), nil),
			slices.Concat(lines, l("", "type align64 struct{}"))},
		{"edit modify last line", edit(l(lines[last-1]), l(lines[last]), l("func (*noCopy) Unlock() { /* no-op */ }"), nil),
			slices.Concat(lines[:last], l("func (*noCopy) Unlock() { /* no-op */ }"))},
		{"edit delete last lines", edit(l(lines[last-2]), lines[last-1:], nil, nil),
			lines[:last-1]},
		{"edit replace whole text", edit(nil, lines, l("// gone"), nil), l("// gone")},
		{"edit delete whole text", edit(nil, lines, nil, nil), nil},
		{"edit no change", edit(l(lines[7]), l(lines[8]), l(lines[8]), l(lines[9])), lines},
		{"search-replace modify", sr(l(lines[10]), l("func (*noCopy) Lock() {}")),
			slices.Concat(lines[:10], l("func (*noCopy) Lock() {}"), lines[11:])},
		{"search-replace delete", sr(lines[3:6], nil), slices.Concat(lines[:3], lines[6:])},
		{"search-replace append", sr(l(lines[last]), l(lines[last], "", "type align64 struct{}")),
			slices.Concat(lines, l("", "type align64 struct{}"))},
		{"search-replace insert at start", sr(l(lines[0]), l("package atomic", "", lines[0])),
			slices.Concat(l("package atomic", ""), lines)},
		{"search-replace delete last line", sr(l(lines[last]), nil), lines[:last]},
	} {
		for _, final := range []string{"", "\n"} {
			text := noCopyText + final
			out := mustApply(t, c.block, text)
			want := strings.Join(c.want, "\n")
			if len(c.want) > 0 {
				want += final
			}
			if out != want {
				t.Errorf("%s, final %q:\ngot  %q\nwant %q", c.name, final, out, want)
			}
		}
	}
}

func TestApplyCreate(t *testing.T) {
	for _, b := range []reply.Block{edit(nil, nil, l("package a", "", "var x = 1"), nil), sr(nil, l("package a", "", "var x = 1"))} {
		if !b.IsCreate() {
			t.Errorf("%s: IsCreate false", b.Format)
		}
		if out := mustApply(t, b, ""); out != "package a\n\nvar x = 1\n" {
			t.Errorf("%s: create gave %q", b.Format, out)
		}
		if out := mustApply(t, b, "\uFEFF"); out != "\uFEFFpackage a\n\nvar x = 1\n" {
			t.Errorf("%s: create on a BOM gave %q", b.Format, out)
		}
		for _, text := range []string{noCopyText, "\n", " "} {
			out, f := b.Apply(text)
			if f == nil || f.Code != reply.CodeFileExists || out != text {
				t.Errorf("%s: create on %q: %q, %v; want FILE_EXISTS", b.Format, text, out, f)
			}
		}
	}
	// A text of only a byte order mark has no lines:
	// other blocks find nothing in it, as in an empty text.
	for _, b := range []reply.Block{sr(l("x"), l("y")), edit(nil, l("\uFEFF"), l("y"), nil)} {
		out, f := b.Apply("\uFEFF")
		if f == nil || out != "\uFEFF" || !strings.Contains(f.Message, "file is empty") {
			t.Errorf("%s on a BOM: %q, %v; want a failure on an empty file", b.Format, out, f)
		}
	}
	if out := mustApply(t, edit(nil, nil, nil, nil), ""); out != "" {
		t.Errorf("empty create gave %q", out)
	}
	for _, b := range []reply.Block{edit(l("x"), nil, l("y"), nil), edit(nil, l("x"), nil, nil), edit(nil, nil, l("y"), l("x")), sr(l("x"), nil)} {
		if b.IsCreate() {
			t.Errorf("IsCreate true for %+v", b)
		}
	}
}

// TestApplyLineEndings: only line endings are normalised; lines written
// get the text's dominant ending; the BOM and the final ending are kept.
func TestApplyLineEndings(t *testing.T) {
	crlf := strings.ReplaceAll(noCopyText, "\n", "\r\n") + "\r\n"
	b := edit(l("type noCopy struct{}"), l(""), l("", "// Lock and Unlock are no-ops."), l("// Lock is a no-op used by -copylocks checker from `go vet`."))
	want := strings.Replace(crlf, "struct{}\r\n\r\n", "struct{}\r\n\r\n// Lock and Unlock are no-ops.\r\n", 1)
	if out := mustApply(t, b, crlf); out != want {
		t.Errorf("CRLF:\ngot  %q\nwant %q", out, want)
	}
	cr := strings.ReplaceAll(noCopyText, "\n", "\r")
	if out := mustApply(t, b, cr); out != strings.ReplaceAll(strings.TrimSuffix(want, "\r\n"), "\r\n", "\r") {
		t.Errorf("CR: got %q", out)
	}
	if out := mustApply(t, b, "\uFEFF"+crlf); out != "\uFEFF"+want {
		t.Errorf("BOM: got %q", out)
	}
	// A mixed file: the dominant ending (LF here) is written, the other
	// lines keep theirs.
	mixed := "a\r\nb\nc\nd\n"
	if out := mustApply(t, sr(l("b"), l("B", "B2")), mixed); out != "a\r\nB\nB2\nc\nd\n" {
		t.Errorf("mixed: got %q", out)
	}
	if out := mustApply(t, sr(l("a"), l("A", "A2")), mixed); out != "A\nA2\nb\nc\nd\n" {
		t.Errorf("mixed, first line: got %q", out)
	}
	// A lone CR inside an LF file is part of its line, as edit.Document
	// reads it.
	if _, f := sr(l("a"), l("b")).Apply("a\rx\nb\n"); f == nil || f.Code != reply.CodeNotFound {
		t.Errorf("lone CR: %v", f)
	}
	if out := mustApply(t, sr(l("a\rx"), l("b")), "a\rx\nb\n"); out != "b\nb\n" {
		t.Errorf("lone CR: got %q", out)
	}
}

// TestApplyExact: a trailing-space or indentation difference is a
// mismatch, for both formats, with a hint.
func TestApplyExact(t *testing.T) {
	for _, c := range []struct {
		block reply.Block
		code  string
		line  int
		hint  string
	}{
		{edit(l("type noCopy struct{} "), nil, l("x"), nil), reply.CodeLeadingNotFound, 0, "the sent line ends with 1 space the file's line does not have"},
		{edit(l("type noCopy struct{}"), l(" "), l("x"), nil), reply.CodeOldMismatch, 9, "the file's line is empty, the sent line holds 1 space"},
		{edit(l("type noCopy struct{}"), l(""), l("x"), l("    // Lock is a no-op used by -copylocks checker from `go vet`.")), reply.CodeTrailingNotFound, 10,
			"the file's line is indented with nothing, the sent line with 4 spaces"},
		{sr(l("func (*noCopy) Lock() {}"), l("x")), reply.CodeNotFound, 0, "the white space between words differs"},
		{sr(l("// Note that it must not be embedded, due to the Lock and Unlock methods.", "type noCopy struct{}\t"), l("x")), reply.CodeNotFound, 8, "the sent line ends with 1 tab the file's line does not have"},
	} {
		out, f := c.block.Apply(noCopyText)
		if f == nil || f.Code != c.code || f.Line != c.line || !strings.Contains(f.Message, c.hint) || out != noCopyText {
			t.Errorf("%+v: got %q, %+v; want %s at line %d with hint %q", c.block, out, f, c.code, c.line, c.hint)
		}
	}
}

// TestApplyFailures checks every failure code's fields.
func TestApplyFailures(t *testing.T) {
	src, err := os.ReadFile("../testdata/src/python/process.py")
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	for _, c := range []struct {
		name       string
		block      reply.Block
		want       reply.Failure // Message and Nearest checked apart
		nearest    int           // Nearest[0].Line, or 0 for none
		inMessage  string
		withinText bool // Line and Actual agree with the text
	}{
		{"leading nowhere", edit(l("        self._check_close()"), nil, l("x"), nil),
			reply.Failure{Code: reply.CodeLeadingNotFound, Expected: "        self._check_close()"}, 120, "occurs nowhere", false},
		{"leading partly", edit(l("    def start(self):", "        '''", "        Start the child process"), nil, l("x"), nil),
			reply.Failure{Code: reply.CodeLeadingNotFound, Line: 118, Expected: "        Start the child process", Actual: "        Start child process"}, 118, "first 2 lines match at lines 116-117", true},
		{"old mismatch", edit(l("        _cleanup()"), l("        self._popen = self._Popen(self)", "        self._sentinel = None"), nil, nil),
			reply.Failure{Code: reply.CodeOldMismatch, Line: 128, Expected: "        self._sentinel = None", Actual: "        self._sentinel = self._popen.sentinel", Candidates: []int{126}}, 379, "first old line follows at line 127", true},
		{"old mismatch at start", edit(nil, l("import os"), l("import io"), nil),
			reply.Failure{Code: reply.CodeOldMismatch, Line: 1, Expected: "import os", Actual: "# symedit test fixture: EXCERPT of real CPython standard-library code."}, 23, "occur at line 23", true},
		{"trailing", edit(l("        _cleanup()"), l("        self._popen = self._Popen(self)"), l("        pass"), l("        self._sentinel = None")),
			reply.Failure{Code: reply.CodeTrailingNotFound, Line: 128, Expected: "        self._sentinel = None", Actual: "        self._sentinel = self._popen.sentinel", Candidates: []int{126}}, 379, "old lines follow at line 127", true},
		{"trailing empty, not at end", edit(l("import os"), nil, l("import io"), nil),
			reply.Failure{Code: reply.CodeTrailingNotFound, Line: 24, Actual: "import sys", Candidates: []int{23}}, 0, "end of the file (line 445)", true},
		{"ambiguous", edit(l("        '''"), nil, l("        pass"), l("        self._check_closed()")),
			reply.Failure{Code: reply.CodeAmbiguous, Candidates: []int{119, 137, 144, 151, 162, 234, 244, 258}}, 0, "8 places", false},
		{"ambiguous search", sr(l("        self._check_closed()"), l("        pass")),
			reply.Failure{Code: reply.CodeAmbiguous, Candidates: []int{120, 138, 145, 152, 163, 235, 245, 259}}, 0, "8 places", false},
		{"not found", sr(l("import os", "import signal"), l("import os")),
			reply.Failure{Code: reply.CodeNotFound, Line: 24, Expected: "import signal", Actual: "import sys"}, 25, "first line matches at line 23", true},
		{"file exists", sr(nil, l("x")), reply.Failure{Code: reply.CodeFileExists}, 0, "445 lines", false},
		{"file ends first", edit(l("_dangling = WeakSet()"), l(""), nil, nil),
			reply.Failure{Code: reply.CodeOldMismatch, Candidates: []int{445}}, 0, "the file ends at line 445", false},
	} {
		out, f := c.block.Apply(text)
		if f == nil {
			t.Errorf("%s: applied", c.name)
			continue
		}
		if out != text {
			t.Errorf("%s: the text changed", c.name)
		}
		got := reply.Failure{Code: f.Code, Line: f.Line, Expected: f.Expected, Actual: f.Actual, Candidates: f.Candidates}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %+v\nwant %+v\n%v", c.name, got, c.want, f)
		}
		if c.nearest != 0 && (len(f.Nearest) == 0 || f.Nearest[0].Line != c.nearest) {
			t.Errorf("%s: nearest %+v, want line %d first", c.name, f.Nearest, c.nearest)
		}
		if !strings.Contains(f.Message, c.inMessage) || !strings.HasPrefix(f.Error(), f.Message) {
			t.Errorf("%s: message %q lacks %q", c.name, f.Message, c.inMessage)
		}
		if c.withinText {
			if got := strings.Split(text, "\n")[f.Line-1]; got != f.Actual {
				t.Errorf("%s: line %d is %q, Actual %q", c.name, f.Line, got, f.Actual)
			}
		}
		for _, n := range f.Nearest {
			if strings.Split(text, "\n")[n.Line-1] != n.Text || n.Similarity <= 0 || n.Similarity > 1 {
				t.Errorf("%s: bad nearest %+v", c.name, n)
			}
		}
	}
}

// TestApplyFileEnds: the text ends before the block's lines do.
func TestApplyFileEnds(t *testing.T) {
	_, f := edit(l("func (*noCopy) Unlock() {}"), l("", "// more"), nil, nil).Apply(noCopyText + "\n")
	if f == nil || f.Code != reply.CodeOldMismatch || f.Line != 0 || f.Expected != "" || !strings.Contains(f.Message, "the file ends at line 12") {
		t.Fatalf("got %+v", f)
	}
	_, f = edit(l("x"), nil, l("y"), nil).Apply("")
	if f == nil || f.Code != reply.CodeLeadingNotFound || !strings.Contains(f.Message, "the file is empty") {
		t.Fatalf("empty text: got %+v", f)
	}
	_, f = edit(nil, l("x"), l("y"), nil).Apply("")
	if f == nil || f.Code != reply.CodeOldMismatch || !strings.Contains(f.Message, "the file is empty") {
		t.Fatalf("empty text: got %+v", f)
	}
}

// TestApplyOverlapping: overlapping occurrences are several places.
func TestApplyOverlapping(t *testing.T) {
	_, f := sr(l("}", "}"), l("}")).Apply("\t}\n}\n}\n}\n")
	if f == nil || f.Code != reply.CodeAmbiguous || !reflect.DeepEqual(f.Candidates, []int{2, 3}) {
		t.Fatalf("got %+v", f)
	}
}

// TestApplyTieBreak: when several places match equally far, the failure
// is explained at the place whose next line is most like the block's.
func TestApplyTieBreak(t *testing.T) {
	text := "\tif err != nil {\n\t\treturn nil\n\t}\n\tif err != nil {\n\t\treturn err\n\t}\n"
	_, f := sr(l("\tif err != nil {", "\t\treturn err2"), nil).Apply(text)
	if f == nil || f.Line != 5 || f.Actual != "\t\treturn err" {
		t.Fatalf("got %+v", f)
	}
}

func TestApplyIsPure(t *testing.T) {
	b := edit(l("type noCopy struct{}"), l(""), l("", "// x"), nil)
	orig := edit(l("type noCopy struct{}"), l(""), l("", "// x"), nil)
	a1, f1 := b.Apply(noCopyText)
	a2, f2 := b.Apply(noCopyText)
	if a1 != a2 || !reflect.DeepEqual(f1, f2) || !reflect.DeepEqual(b, orig) {
		t.Fatal("Apply is not pure")
	}
}

func TestFailureJSON(t *testing.T) {
	// A blank expected line and a blank actual line are written as "".
	_, f := edit(l("type noCopy struct{}"), l("// x"), nil, l("")).Apply(noCopyText)
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m["code"] != reply.CodeOldMismatch || m["actual"] != "" || m["expected"] != "// x" || m["line"] != 9.0 {
		t.Errorf("got %s", b)
	}
	_, f = edit(l("type noCopy struct{}"), l(""), nil, l("// y")).Apply(noCopyText)
	b, _ = json.Marshal(f)
	if !strings.Contains(string(b), `"expected":"// y","actual":"// Lock is`) {
		t.Errorf("got %s", b)
	}
	_, f = sr(l("//"), nil).Apply(noCopyText)
	b, _ = json.Marshal(f)
	if strings.Contains(string(b), "expected") || strings.Contains(string(b), "actual") || !strings.Contains(string(b), `"candidates":[3,6]`) {
		t.Errorf("ambiguous: got %s", b)
	}
}

func TestPreview(t *testing.T) {
	long := strings.Repeat("é", 60)
	b := edit(l("", "   ", "\tfunc (x *Bool) Load() bool {"), nil, l("", long), nil)
	want := reply.Preview{Anchor: "func (x *Bool) Load() bool {", Old: "", New: strings.Repeat("é", 50) + "..."}
	if got := b.Preview(); got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	j, _ := json.Marshal(b.Preview())
	if !strings.Contains(string(j), `"anchor_preview":"func (x *Bool) Load() bool {","old_preview":"","new_preview":"`) {
		t.Errorf("JSON %s", j)
	}
}

// TestApplyEmptyLastLine: an empty line never ends up as the text's
// unterminated last line, where it would vanish (found by FuzzApply;
// edit.Document.ReplaceLines loses the line in these three cases).
func TestApplyEmptyLastLine(t *testing.T) {
	for _, c := range []struct {
		block      reply.Block
		text, want string
	}{
		{edit(l(""), l("}"), nil, nil), "\treturn nil\n\n}", "\treturn nil\n\n"},
		{sr(l("}"), l("}", "")), "\treturn nil\n}", "\treturn nil\n}\n\n"},
		{edit(l("}"), nil, l("", "func f() {}", ""), nil), "}", "}\n\nfunc f() {}\n\n"},
		{edit(l("}"), nil, l("", "func f() {}"), nil), "}", "}\n\nfunc f() {}"},
		{edit(l("\treturn nil"), l("", "}"), nil, nil), "\treturn nil\n\n}", "\treturn nil"},
	} {
		if out := mustApply(t, c.block, c.text); out != c.want {
			t.Errorf("%+v on %q: got %q, want %q", c.block, c.text, out, c.want)
		}
	}
}
