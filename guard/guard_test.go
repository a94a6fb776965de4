package guard_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/guard"
	"github.com/symedit/symedit/internal/goroot"
	"github.com/symedit/symedit/lang"
)

// guardFixture reads a file of testdata/src at the repository's root.
func guardFixture(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "src", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func guardLang(t testing.TB, name string) *lang.Language {
	t.Helper()
	l, err := lang.ByName(name)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// guardEdit returns the Edit that replaces the only occurrence of old in
// content by new.
func guardEdit(t testing.TB, content []byte, old, new string) edit.Edit {
	t.Helper()
	if n := bytes.Count(content, []byte(old)); n != 1 || old == "" {
		t.Fatalf("%q occurs %d times, want once", old, n)
	}
	i := bytes.Index(content, []byte(old))
	return edit.Edit{Start: i, End: i + len(old), New: new}
}

// guardApply applies edits to before and checks the result.
func guardApply(t testing.TB, lang *lang.Language, before []byte, edits ...edit.Edit) ([]byte, guard.SyntaxReport) {
	t.Helper()
	after, err := edit.Apply(before, edits)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := guard.CheckSyntax(context.Background(), lang, before, after, edits, guard.GuardOptions{})
	if err != nil {
		t.Fatalf("CheckSyntax: %v", err)
	}
	if !rep.Checked || rep.Skipped != "" {
		t.Fatalf("not checked: %q", rep.Skipped)
	}
	return after, rep
}

// guardLineOf returns the 1-based number of the only line of text that
// contains marker (that ends with it, if marker ends with "$"), and that
// line without its ending.
func guardLineOf(t testing.TB, text []byte, marker string) (int, string) {
	t.Helper()
	var found []int
	lines := strings.Split(string(text), "\n")
	for i, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		if m, ok := strings.CutSuffix(marker, "$"); ok && strings.HasSuffix(l, m) || !ok && strings.Contains(l, marker) {
			found = append(found, i)
		}
	}
	if len(found) != 1 {
		t.Fatalf("marker %q is on %d lines, want 1", marker, len(found))
	}
	return found[0] + 1, strings.TrimSuffix(lines[found[0]], "\r")
}

// guardAssertNew checks that rep's first new problem has kind and is on the
// line of after holding marker, with that line's text, and that every new
// problem's Text is the text of its line.
func guardAssertNew(t *testing.T, rep guard.SyntaxReport, after []byte, kind, marker string) {
	t.Helper()
	if rep.OK() || len(rep.New) == 0 {
		t.Fatalf("edit not caught: %+v", rep)
	}
	line, text := guardLineOf(t, after, marker)
	p := rep.New[0]
	if p.Kind != kind || p.Line != line || p.Text != text {
		t.Errorf("first new problem = %+v\nwant kind %s at line %d %q\nall: %v", p, kind, line, text, rep.New)
	}
	guardAssertTexts(t, rep, after)
}

// guardAssertTexts checks every new problem's position and Text against the
// lines of after (BOM removed, lines split at LF).
func guardAssertTexts(t *testing.T, rep guard.SyntaxReport, after []byte) {
	t.Helper()
	lines := strings.Split(string(bytes.TrimPrefix(after, []byte("\uFEFF"))), "\n")
	for _, p := range rep.New {
		if p.Line < 1 || p.Line > len(lines) || p.Column < 1 {
			t.Errorf("problem %+v out of the %d lines", p, len(lines))
			continue
		}
		want := strings.TrimSuffix(lines[p.Line-1], "\r")
		if p.Text != want || p.Column > len(lines[p.Line-1])+1 {
			t.Errorf("problem %+v: line %d is %q", p, p.Line, want)
		}
		if p.EndLine < p.Line || (p.EndLine == p.Line && p.EndColumn < p.Column) {
			t.Errorf("problem %+v ends before it starts", p)
		}
		if !strings.HasPrefix(p.Message, "tree-sitter: ") && !strings.HasPrefix(p.Message, p.Kind+": ") {
			t.Errorf("problem %+v: message does not name its checker", p)
		}
	}
}

// guardCase is one edit of a real file: old (unique in the file) replaced
// by new.
type guardCase struct {
	name, lang, file string
	old, new         string
	kind             string // the first new problem's kind; "" if the edit is clean
	at               string // marks the first new problem's line in the content after
}

var guardCases = []guardCase{
	// Clean edits.
	{name: "go clean", lang: "go", file: "go/slog_value.go",
		old: "\treturn Value{num: uint64(v), any: KindInt64}\n", new: "\tu := uint64(v)\n\treturn Value{num: u, any: KindInt64}\n"},
	{name: "go clean comment", lang: "go", file: "go/atomic_type.go",
		old: "func (x *Bool) Load() bool {", new: "// Load loads.\nfunc (x *Bool) Load() bool {"},
	{name: "python clean", lang: "python", file: "python/process.py",
		old: "        assert self._popen is None, 'cannot start a process twice'\n",
		new: "        if self._popen is not None:\n            raise RuntimeError('cannot start a process twice')\n"},
	{name: "python clean", lang: "python", file: "python/contextlib_excerpt.py",
		old: "class AbstractContextManager(abc.ABC):\n", new: "class AbstractContextManager(abc.ABC):\n    # guard\n"},
	{name: "java clean", lang: "java", file: "java/Inventory.java",
		old: "        this.clock = clock;\n", new: "        this.clock = Objects.requireNonNull(clock);\n"},
	{name: "typescript clean", lang: "typescript", file: "typescript/scheduler.ts",
		old: "  const raw = baseMs * 2 ** attempt;\n", new: "  const raw: number = baseMs * (2 ** attempt);\n"},
	{name: "tsx clean", lang: "tsx", file: "typescript/widget.tsx",
		old: "        <li key={i}>{render(item)}</li>\n", new: "        <li key={i} className=\"item\">\n          {render(item)}\n        </li>\n"},

	// Go.
	{name: "go unbalanced paren", lang: "go", file: "go/slog_value.go",
		old: "\treturn Value{num: uint64(v), any: KindInt64}\n", new: "\treturn Value{num: uint64(v, any: KindInt64}\n",
		kind: guard.KindError, at: "uint64(v, any"},
	{name: "go deleted closing brace", lang: "go", file: "go/slog_value.go",
		old: "\treturn Value{num: uint64(v), any: KindInt64}\n}\n", new: "\treturn Value{num: uint64(v), any: KindInt64}\n",
		kind: guard.KindGoParser, at: "func Uint64Value("},
	{name: "go top-level statement", lang: "go", file: "go/slog_value.go",
		old: "// Int64Value returns a [Value] for an int64.\n", new: "x := 1\n\n// Int64Value returns a [Value] for an int64.\n",
		kind: guard.KindGoParser, at: "x := 1"},
	{name: "go package clause removed", lang: "go", file: "go/atomic_type.go",
		old: "package atomic\n", new: "",
		kind: guard.KindGoParser, at: "import \"unsafe\""},

	// Python.
	{name: "python def without body", lang: "python", file: "python/process.py",
		old:  "    def _check_closed(self):\n        if self._closed:\n            raise ValueError(\"process object is closed\")\n",
		new:  "    def _check_closed(self):\n",
		kind: guard.KindPythonIndent, at: "def run(self):"},
	{name: "python unbalanced paren", lang: "python", file: "python/process.py",
		old: "        self._check_closed()\n        assert self._popen is None", new: "        self._check_closed(\n        assert self._popen is None",
		kind: guard.KindError, at: "self._check_closed($"},
	{name: "python unexpected indent", lang: "python", file: "python/process.py",
		old:  "        assert self._popen is None, 'cannot start a process twice'\n",
		new:  "          assert self._popen is None, 'cannot start a process twice'\n",
		kind: guard.KindPythonIndent, at: "'cannot start a process twice'"},
	{name: "python bad dedent", lang: "python", file: "python/process.py",
		old: "        _children.add(self)\n", new: "      _children.add(self)\n",
		kind: guard.KindPythonIndent, at: "_children.add(self)"},

	// Java.
	{name: "java deleted closing brace", lang: "java", file: "java/Inventory.java",
		old: "        this.policy = policy;\n    }\n", new: "        this.policy = policy;\n",
		kind: guard.KindMissing, at: "public String getName()"},
	{name: "java unbalanced paren", lang: "java", file: "java/Inventory.java",
		old: "this.name = Objects.requireNonNull(name);", new: "this.name = Objects.requireNonNull(name;",
		kind: guard.KindMissing, at: "requireNonNull(name;"},

	// TypeScript and TSX.
	{name: "typescript unbalanced paren", lang: "typescript", file: "typescript/scheduler.ts",
		old: "  return clamp(raw, baseMs, 30_000);\n", new: "  return clamp(raw, baseMs, 30_000;\n",
		kind: guard.KindMissing, at: "return clamp(raw"},
	{name: "typescript deleted brace", lang: "typescript", file: "typescript/scheduler.ts",
		old: "  if (ms < 1000) {\n    return `${ms}ms`;\n  }\n", new: "  if (ms < 1000) {\n    return `${ms}ms`;\n",
		kind: guard.KindError, at: "toFixed(1)}s`"},
	{name: "tsx broken element", lang: "tsx", file: "typescript/widget.tsx",
		old: "        <li key={i}>{render(item)}</li>\n", new: "        <li key={i}>{render(item)}</\n",
		kind: guard.KindMissing, at: "{render(item)}</$"},
}

// TestCheckSyntaxRealFiles edits real files: clean edits pass, breaking
// edits are caught at the right line, with the line's text.
func TestCheckSyntaxRealFiles(t *testing.T) {
	for _, c := range guardCases {
		t.Run(c.name, func(t *testing.T) {
			lang := guardLang(t, c.lang)
			before := guardFixture(t, c.file)
			after, rep := guardApply(t, lang, before, guardEdit(t, before, c.old, c.new))
			if rep.Language != c.lang || rep.Before != 0 {
				t.Errorf("report = %+v, want language %s and a clean original", rep, c.lang)
			}
			if c.kind == "" {
				if !rep.OK() || rep.After != 0 {
					t.Fatalf("clean edit refused: %+v", rep)
				}
				if rep.Format("f") != "" {
					t.Errorf("Format of a clean report = %q", rep.Format("f"))
				}
				return
			}
			t.Logf("%s", rep.Format(c.file))
			guardAssertNew(t, rep, after, c.kind, c.at)
			if !rep.Rejects(guard.CheckStrict) || !rep.Rejects("") || rep.Rejects(guard.CheckWarn) || rep.Rejects(guard.CheckOff) {
				t.Errorf("Rejects is wrong for %+v", rep)
			}
		})
	}
}

// guardBroken is a real file broken once (first: old -> new), then edited
// cleanly elsewhere (clean), and broken a second time elsewhere (second,
// whose first new problem has kind and is on the line marked by at).
type guardBroken struct {
	lang, file           string
	first, clean, second [2]string
	kind, at             string
}

var guardBrokenCases = []guardBroken{
	{lang: "go", file: "go/slog_value.go",
		first:  [2]string{"\treturn Value{num: uint64(v), any: KindInt64}\n", "\treturn Value{num: uint64(v, any: KindInt64}\n"},
		clean:  [2]string{"func (v Value) Kind() Kind {\n", "func (v Value) Kind() (k Kind) {\n"},
		second: [2]string{"// Kind returns v's Kind.\n", "k := 0\n// Kind returns v's Kind.\n"},
		kind:   guard.KindGoParser, at: "k := 0"},
	{lang: "go", file: "go/atomic_type.go",
		first:  [2]string{"func (x *Bool) Load() bool { return LoadUint32(&x.v) != 0 }", "func (x *Bool) Load() bool { return LoadUint32(&x.v != 0 }"},
		clean:  [2]string{"func (x *Int32) Load() int32 { return LoadInt32(&x.v) }", "func (x *Int32) Load() int32 {\n\treturn LoadInt32(&x.v)\n}"},
		second: [2]string{"func (x *Pointer[T]) Load() *T { return (*T)(LoadPointer(&x.v)) }", "func (x *Pointer[T]) Load() *T { return (*T)(LoadPointer(&x.v) }"},
		kind:   guard.KindMissing, at: "func (x *Pointer[T]) Load()"},
	{lang: "python", file: "python/process.py",
		first:  [2]string{"        self._check_closed()\n        assert self._popen is None", "        self._check_closed(\n        assert self._popen is None"},
		clean:  [2]string{"    def is_alive(self):\n        '''\n        Return whether", "    # Alive?\n    def is_alive(self):\n        '''\n        Return whether"},
		second: [2]string{"        if self._closed:\n            raise ValueError(\"process object is closed\")\n", "        if self._closed:\n"},
		kind:   guard.KindPythonIndent, at: "def run(self):"},
	{lang: "python", file: "python/contextlib_excerpt.py",
		first:  [2]string{"class AbstractContextManager(abc.ABC):", "class AbstractContextManager(abc.ABC:"},
		clean:  [2]string{"    @abc.abstractmethod\n    def __exit__(self, exc_type, exc_value, traceback):\n", "    @abc.abstractmethod\n    # Exit.\n    def __exit__(self, exc_type, exc_value, traceback):\n"},
		second: [2]string{"class ContextDecorator(object):", "class ContextDecorator(object)"},
		kind:   guard.KindError, at: "class ContextDecorator(object)"},
	{lang: "java", file: "java/Inventory.java",
		first:  [2]string{"this.name = Objects.requireNonNull(name);", "this.name = Objects.requireNonNull(name;"},
		clean:  [2]string{"        return name;\n", "        return this.name;\n"},
		second: [2]string{"    public Item add(Item item) {\n        if (item == null) {\n", "    public Item add(Item item) {\n        if (item == null {\n"},
		kind:   guard.KindMissing, at: "if (item == null {"},
	{lang: "typescript", file: "typescript/scheduler.ts",
		first:  [2]string{"  return clamp(raw, baseMs, 30_000);\n", "  return clamp(raw, baseMs, 30_000;\n"},
		clean:  [2]string{"  if (ms < 1000) {\n", "  if (ms < 1_000) {\n"},
		second: [2]string{"  if (err instanceof Error && err.name === \"AbortError\") {", "  if (err instanceof Error && err.name === \"AbortError\" {"},
		kind:   guard.KindMissing, at: "=== \"AbortError\" {"},
}

// TestCheckSyntaxBrokenFile edits files that already have a syntax error:
// a clean edit elsewhere passes, and a second error is caught, alone.
func TestCheckSyntaxBrokenFile(t *testing.T) {
	for _, c := range guardBrokenCases {
		t.Run(c.file, func(t *testing.T) {
			lang := guardLang(t, c.lang)
			orig := guardFixture(t, c.file)
			broken, rep := guardApply(t, lang, orig, guardEdit(t, orig, c.first[0], c.first[1]))
			if rep.OK() {
				t.Fatalf("first error not caught: %+v", rep)
			}
			firstLines := map[int]bool{}
			for _, p := range rep.New {
				firstLines[p.Line] = true
			}

			after, rep := guardApply(t, lang, broken, guardEdit(t, broken, c.clean[0], c.clean[1]))
			if !rep.OK() || rep.Before == 0 || rep.After == 0 {
				t.Errorf("clean edit of a broken file: %+v", rep)
			}
			guardAssertTexts(t, rep, after)

			after, rep = guardApply(t, lang, broken, guardEdit(t, broken, c.second[0], c.second[1]))
			t.Logf("%s", rep.Format(c.file))
			guardAssertNew(t, rep, after, c.kind, c.at)
			if rep.Before == 0 {
				t.Errorf("Before = 0 for a broken file")
			}
		})
	}
}

// TestCheckSyntaxSeveralEdits applies three line edits at once: positions
// of new problems are in the content after all of them.
func TestCheckSyntaxSeveralEdits(t *testing.T) {
	lang := guardLang(t, "go")
	before := guardFixture(t, "go/slog_value.go")
	doc, err := edit.NewDocument("slog_value.go", before)
	if err != nil {
		t.Fatal(err)
	}
	line := func(marker string) int {
		n, _ := guardLineOf(t, before, marker)
		return n
	}
	replace := func(first, last int, lines ...string) edit.Edit {
		e, err := doc.ReplaceLines(first, last, lines)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	top := replace(line("import ("), line("import (")-1, "// Edited.", "")
	int64v := line("func Int64Value(v int64) Value {")
	bottom := line("func (v Value) Any() any {")

	clean := []edit.Edit{top, replace(int64v+1, int64v+1, "\tu := uint64(v)", "\treturn Value{num: u, any: KindInt64}"), replace(bottom, bottom-1, "// Any.")}
	if _, rep := guardApply(t, lang, before, clean...); !rep.OK() || rep.After != 0 {
		t.Errorf("clean edits refused: %+v", rep)
	}

	broken := []edit.Edit{replace(bottom, bottom-1, "// Any."), top, replace(int64v+1, int64v+1, "\treturn Value{num: uint64(v), any: KindInt64")}
	after, rep := guardApply(t, lang, before, broken...)
	guardAssertNew(t, rep, after, guard.KindGoParser, "any: KindInt64$")
	if got, want := rep.New[0].Line, int64v+1+2; got != want {
		t.Errorf("problem on line %d, want %d (two lines inserted above)", got, want)
	}
}

// TestCheckSyntaxBOM: a UTF-8 byte order mark is not parsed, edits are in
// offsets that include it, columns exclude it.
func TestCheckSyntaxBOM(t *testing.T) {
	lang := guardLang(t, "go")
	before := []byte("\uFEFFpackage p\n\nfunc f() {}\n")
	doc, err := edit.NewDocument("p.go", before)
	if err != nil {
		t.Fatal(err)
	}
	e, err := doc.ReplaceLines(1, 1, []string{"package p p"})
	if err != nil {
		t.Fatal(err)
	}
	after, rep := guardApply(t, lang, before, e)
	if rep.Before != 0 || len(rep.New) == 0 {
		t.Fatalf("report = %+v", rep)
	}
	// tree-sitter's ERROR is reported where the edit inserted " p", column
	// 10 (13 if the BOM counted), go/parser's error at the second p.
	want := []string{"1:10: tree-sitter: syntax error in the edited text; line 1 does not parse", "1:11: go/parser: expected ';', found p"}
	if len(rep.New) != 2 || rep.New[0].String() != want[0] || rep.New[1].String() != want[1] || rep.New[1].Text != "package p p" {
		t.Errorf("problems = %q, want %q", rep.New, want)
	}
	guardAssertTexts(t, rep, after)

	e, _ = doc.ReplaceLines(3, 3, []string{"func f() { _ = 1 }"})
	if _, rep := guardApply(t, lang, before, e); !rep.OK() {
		t.Errorf("clean edit of a BOM file refused: %+v", rep)
	}
	// Edits that touch the BOM: removing it, or rewriting everything.
	for _, e := range []edit.Edit{{Start: 0, End: 3}, {Start: 0, End: len(before), New: "package p\n\nfunc f() {}\n"}} {
		if _, rep := guardApply(t, lang, before, e); !rep.OK() || rep.After != 0 {
			t.Errorf("edit %+v: %+v", e, rep)
		}
	}
	if _, rep := guardApply(t, lang, before, edit.Edit{Start: 0, End: 3, New: "x"}); rep.OK() {
		t.Errorf("BOM replaced by x not caught: %+v", rep)
	}
}

// TestCheckSyntaxLineEndings checks CRLF and CR-only files: lines are the
// Document's, Text has no line ending.
func TestCheckSyntaxLineEndings(t *testing.T) {
	lang := guardLang(t, "python")
	lf := guardFixture(t, "python/process.py")
	crlf := bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))
	doc, err := edit.NewDocument("process.py", crlf)
	if err != nil {
		t.Fatal(err)
	}
	if doc.EOL != edit.CRLF {
		t.Fatalf("EOL = %q", doc.EOL)
	}
	n, _ := guardLineOf(t, crlf, "def _check_closed(self):")
	e, err := doc.ReplaceLines(n+1, n+2, nil) // the def loses its body
	if err != nil {
		t.Fatal(err)
	}
	after, rep := guardApply(t, lang, crlf, e)
	guardAssertNew(t, rep, after, guard.KindPythonIndent, "def run(self):")
	if strings.ContainsAny(rep.New[0].Text, "\r\n") {
		t.Errorf("Text %q has a line ending", rep.New[0].Text)
	}
	e, _ = doc.ReplaceLines(n+1, n+1, []string{"        if self._closed is True:"})
	if _, rep := guardApply(t, lang, crlf, e); !rep.OK() {
		t.Errorf("clean CRLF edit refused: %+v", rep)
	}

	cr := []byte("def f():\r    x = 1\r    return x\r\rdef g():\r    return 2\r")
	doc, err = edit.NewDocument("cr.py", cr)
	if err != nil {
		t.Fatal(err)
	}
	e, _ = doc.ReplaceLines(3, 3, []string{"  return x"})
	_, rep = guardApply(t, lang, cr, e)
	if len(rep.New) != 1 || rep.New[0].String() != "3:3: python/indent: unindent does not match any outer indentation level" || rep.New[0].Text != "  return x" {
		t.Errorf("CR file: %+v", rep)
	}
}

// TestCheckSyntaxWholeFile passes no edits, as a whole-file write does.
func TestCheckSyntaxWholeFile(t *testing.T) {
	lang := guardLang(t, "java")
	before := guardFixture(t, "java/Inventory.java")
	for _, c := range []struct {
		old, new string
		ok       bool
	}{
		{"        this.clock = clock;\n", "        this.clock = clock; // set\n", true},
		{"        this.clock = clock;\n", "        this.clock = clock\n", false},
	} {
		after, err := edit.Apply(before, []edit.Edit{guardEdit(t, before, c.old, c.new)})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := guard.CheckSyntax(context.Background(), lang, before, after, nil, guard.GuardOptions{})
		if err != nil || !rep.Checked || rep.OK() != c.ok {
			t.Fatalf("%q: %+v, %v", c.new, rep, err)
		}
		if !c.ok {
			line, text := guardLineOf(t, after, "this.clock = clock")
			if p := rep.New[0]; p.Line != line || p.Text != text {
				t.Errorf("problem = %+v, want one on line %d", p, line)
			}
		}
	}
	// An unchanged content has no new problems, even a broken one.
	broken := []byte("class A { void f() { int x = ; } }\n")
	rep, err := guard.CheckSyntax(context.Background(), lang, broken, broken, nil, guard.GuardOptions{})
	if err != nil || !rep.OK() || !rep.Checked || rep.Before == 0 || rep.Before != rep.After {
		t.Errorf("unchanged broken file: %+v, %v", rep, err)
	}
}

// TestCheckSyntaxSkipped covers every reason not to check, and checks
// that strict mode refuses the contents the guard could not check (too
// large, timed out, canceled: strict mode writes only what was checked),
// with the reason typed,
// and that warn mode does not.
func TestCheckSyntaxSkipped(t *testing.T) {
	goLang := guardLang(t, "go")
	before := guardFixture(t, "go/atomic_type.go")
	e := guardEdit(t, before, "package atomic\n", "package atomic;;\n")
	after, _ := edit.Apply(before, []edit.Edit{e})
	expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	canceled, cancel2 := context.WithCancel(context.Background())
	cancel2()
	for _, c := range []struct {
		name    string
		ctx     context.Context
		lang    *lang.Language
		opt     guard.GuardOptions
		want    string
		code    guard.SkipCode
		refused bool // by strict mode
	}{
		{"off", context.Background(), goLang, guard.GuardOptions{Mode: guard.CheckOff}, "check off", guard.SkipCheckOff, false},
		{"no language", context.Background(), nil, guard.GuardOptions{}, "unsupported language", guard.SkipUnsupported, false},
		{"too large", context.Background(), goLang, guard.GuardOptions{MaxSize: 1000}, fmt.Sprintf("too large: %d bytes, over the guard's 1000-byte limit", len(after)), guard.SkipTooLarge, true},
		{"expired", expired, goLang, guard.GuardOptions{}, "timed out: context deadline exceeded", guard.SkipTimeout, true},
		{"canceled", canceled, goLang, guard.GuardOptions{}, "canceled: context canceled", guard.SkipCanceled, true},
		// In Python tree-sitter decides, so its timeout leaves the edit
		// unchecked; in Go go/parser decides (TestCheckSyntaxGoTimeout).
		{"1ns", context.Background(), guardLang(t, "python"), guard.GuardOptions{Timeout: time.Nanosecond}, "timed out after 1ns", guard.SkipTimeout, true},
	} {
		rep, err := guard.CheckSyntax(c.ctx, c.lang, before, after, []edit.Edit{e}, c.opt)
		if err != nil || rep.Checked || rep.Skipped != c.want || rep.SkipCode != c.code || !rep.OK() {
			t.Errorf("%s: %+v, %v; want Skipped %q, code %q", c.name, rep, err, c.want, c.code)
		}
		if got := rep.Format("a.go"); got != "a.go: syntax not checked: "+c.want+"\n" {
			t.Errorf("%s: Format = %q", c.name, got)
		}
		if rep.Rejects(guard.CheckStrict) != c.refused || rep.Rejects("") != c.refused || rep.Rejects(guard.CheckWarn) || rep.Rejects(guard.CheckOff) {
			t.Errorf("%s: Rejects strict %v, warn %v; want strict %v, warn false", c.name, rep.Rejects(guard.CheckStrict), rep.Rejects(guard.CheckWarn), c.refused)
		}
		nc := rep.NotChecked(guard.CheckStrict)
		var nce *guard.NotCheckedError
		switch {
		case !c.refused && nc != nil:
			t.Errorf("%s: NotChecked = %v, want nil", c.name, nc)
		case c.refused && (!errors.As(nc, &nce) || !errors.Is(nc, guard.ErrNotChecked) || nce.Code != c.code || nce.Reason != c.want):
			t.Errorf("%s: NotChecked = %#v, want code %q, reason %q", c.name, nc, c.code, c.want)
		}
		if rep.NotChecked(guard.CheckWarn) != nil {
			t.Errorf("%s: NotChecked in warn mode", c.name)
		}
	}
	// A timeout that expires during a parse: a big file, a short timeout.
	big := bytes.Repeat(guardFixture(t, "go/slog_value.go"), 40)
	rep, err := guard.CheckSyntax(context.Background(), goLang, big, append(big[:len(big):len(big)], '\n'), nil, guard.GuardOptions{Timeout: time.Millisecond})
	if err != nil || (rep.Checked == (rep.Skipped != "")) {
		t.Errorf("short timeout: %+v, %v", rep, err)
	}
	t.Logf("1ms on %d bytes: checked %v, %q", len(big), rep.Checked, rep.Skipped)
}

// TestCheckSyntaxBadEdits: edits that are not the change are errors.
func TestCheckSyntaxBadEdits(t *testing.T) {
	lang := guardLang(t, "python")
	before := []byte("x = 1\ny = 2\n")
	for _, c := range []struct {
		name  string
		after string
		edits []edit.Edit
		want  string
	}{
		{"out of bounds", "x = 1\ny = 2\n", []edit.Edit{{Start: 5, End: 50}}, "outside"},
		{"negative", "x = 1\ny = 2\n", []edit.Edit{{Start: -1, End: 0}}, "outside"},
		{"overlap", "x = 1\ny = 2\n", []edit.Edit{{Start: 0, End: 3}, {Start: 2, End: 4}}, "overlaps"},
		{"same insertion point", "ab" + string(before), []edit.Edit{{Start: 0, End: 0, New: "a"}, {Start: 0, End: 0, New: "b"}}, "overlaps"},
		{"wrong length", "x = 1\n", []edit.Edit{{Start: 0, End: 1, New: "z"}}, "do not turn"},
		{"wrong text", "x = 3\ny = 2\n", []edit.Edit{{Start: 4, End: 5, New: "2"}}, "do not turn"},
		{"wrong text elsewhere", "x = 2\ny = 3\n", []edit.Edit{{Start: 4, End: 5, New: "2"}}, "do not turn"},
	} {
		rep, err := guard.CheckSyntax(context.Background(), lang, before, []byte(c.after), c.edits, guard.GuardOptions{})
		if !errors.Is(err, edit.ErrBadEdit) || !strings.Contains(err.Error(), c.want) || rep.Checked {
			t.Errorf("%s: %+v, %v; want an ErrBadEdit saying %q", c.name, rep, err, c.want)
		}
	}
}

func TestGuardParseCheckMode(t *testing.T) {
	for in, want := range map[string]guard.CheckMode{"": guard.CheckStrict, "strict": guard.CheckStrict, "warn": guard.CheckWarn, "off": guard.CheckOff} {
		if got, err := guard.ParseCheckMode(in); got != want || err != nil {
			t.Errorf("ParseCheckMode(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := guard.ParseCheckMode("loose"); err == nil || !strings.Contains(err.Error(), "strict, warn or off") {
		t.Errorf("ParseCheckMode(loose) error = %v", err)
	}
}

// guardComment returns a comment line for lang.
func guardComment(lang string) string {
	if lang == "python" {
		return "# symedit guard"
	}
	return "// symedit guard"
}

// guardCommentEdits returns n edits, spread over content, that each
// insert a comment line indented like the line it precedes (never after a
// line that ends with a backslash, where Python allows no comment).
func guardCommentEdits(content []byte, lang string, n int) []edit.Edit {
	var out []edit.Edit
	off := 0
	lines := strings.SplitAfter(string(content), "\n")
	step := max(len(lines)/n, 1)
	for i, l := range lines {
		if i%step == step/2 && (i == 0 || !strings.HasSuffix(strings.TrimRight(lines[i-1], "\r\n"), "\\")) {
			indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
			out = append(out, edit.Edit{Start: off, End: off, New: indent + guardComment(lang) + "\n"})
		}
		off += len(l)
	}
	return out
}

// TestCheckSyntaxNoFalseAlarms inserts comment lines, one at a time and all
// at once, into real files: the fixtures and Go's own source.
func TestCheckSyntaxNoFalseAlarms(t *testing.T) {
	type file struct {
		lang, path string
		content    []byte
	}
	var files []file
	for _, f := range [][2]string{
		{"python", "python/process.py"}, {"python", "python/contextlib_excerpt.py"},
		{"go", "go/slog_value.go"}, {"go", "go/atomic_type.go"},
		{"java", "java/Inventory.java"}, {"typescript", "typescript/scheduler.ts"}, {"tsx", "typescript/widget.tsx"},
	} {
		files = append(files, file{f[0], f[1], guardFixture(t, f[1])})
	}
	dirs := []string{"strings", "bufio", "encoding/json", "go/parser"}
	if testing.Short() {
		dirs = nil
	}
	for _, dir := range dirs {
		paths, _ := filepath.Glob(filepath.Join(goroot.Src(), dir, "*.go"))
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err == nil && len(b) < 200_000 {
				files = append(files, file{"go", p, b})
			}
		}
	}
	if len(files) < 20 && !testing.Short() {
		t.Logf("only %d files (GOROOT %q)", len(files), goroot.Src())
	}
	checked := 0
	for _, f := range files {
		lang := guardLang(t, f.lang)
		n := 6
		if strings.HasPrefix(f.path, f.lang) || strings.HasPrefix(f.path, "typescript/") {
			n = 40 // the fixtures, more densely
		}
		edits := guardCommentEdits(f.content, f.lang, n)
		for _, e := range edits {
			_, rep := guardApply(t, lang, f.content, e)
			checked++
			if !rep.OK() {
				t.Errorf("%s: comment at offset %d: %v", f.path, e.Start, rep.New)
			}
		}
		if _, rep := guardApply(t, lang, f.content, edits...); !rep.OK() {
			t.Errorf("%s: all %d comments at once: %v", f.path, len(edits), rep.New)
		}
	}
	t.Logf("%d files, %d edits", len(files), checked)
}

// TestCheckSyntaxConcurrent runs checks of every language at once.
func TestCheckSyntaxConcurrent(t *testing.T) {
	done := make(chan error)
	n := 0
	for _, c := range guardCases {
		lang := guardLang(t, c.lang)
		before := guardFixture(t, c.file)
		e := guardEdit(t, before, c.old, c.new)
		after, _ := edit.Apply(before, []edit.Edit{e})
		for range 3 {
			n++
			go func() {
				rep, err := guard.CheckSyntax(context.Background(), lang, before, after, []edit.Edit{e}, guard.GuardOptions{})
				if err == nil && rep.OK() != (c.kind == "") {
					err = fmt.Errorf("%s: %+v", c.name, rep)
				}
				done <- err
			}()
		}
	}
	for range n {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// FuzzCheckSyntax replaces a random range of a random text: CheckSyntax
// never panics and never fails on valid edits, an edit that changes
// nothing adds no problem, and every problem's Text is its line.
func FuzzCheckSyntax(f *testing.F) {
	for i, path := range []string{"go/slog_value.go", "python/process.py", "java/Inventory.java", "typescript/scheduler.ts", "typescript/widget.tsx"} {
		b := guardFixture(f, path)
		b = b[len(b)/2:]
		b = b[:min(len(b), 800)]
		f.Add(uint8(i), string(b), uint(300), uint(310), "}")
		f.Add(uint8(i), string(b), uint(500), uint(500), "\n(")
	}
	f.Add(uint8(0), "package p\n\nfunc f() {\n}\n", uint(11), uint(11), "x := 1\n")
	f.Add(uint8(1), "def f():\n    return 1\n", uint(9), uint(13), "")
	f.Add(uint8(1), "\uFEFFif x:\r\n\tpass\r\n", uint(0), uint(2), "")
	f.Add(uint8(2), "class A {}", uint(9), uint(10), "")
	f.Add(uint8(3), "", uint(0), uint(0), "let x = (")
	f.Add(uint8(5), "a\rb\r", uint(1), uint(2), "\r\n")
	f.Add(uint8(1), "def f(a):\r    x = 1\r    return x\r\rdef g():\r    pass\r", uint(20), uint(25), "(\r")
	langs := lang.Languages()
	f.Fuzz(func(t *testing.T, li uint8, before string, start, end uint, repl string) {
		lang := langs[int(li)%len(langs)]
		s := int(min(start, uint(len(before))))
		e := int(min(max(end, uint(s)), uint(len(before))))
		edits := []edit.Edit{{Start: s, End: e, New: repl}}
		after, err := edit.Apply([]byte(before), edits)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := guard.CheckSyntax(context.Background(), lang, []byte(before), after, edits, guard.GuardOptions{})
		if err != nil {
			t.Fatalf("CheckSyntax: %v", err)
		}
		if !rep.Checked {
			t.Fatalf("not checked: %s", rep.Skipped)
		}
		if bytes.Equal(after, []byte(before)) && len(rep.New) > 0 {
			t.Fatalf("an edit that changes nothing added %v", rep.New)
		}
		doc, err := edit.NewDocument("f", after)
		for _, p := range rep.New {
			if p.Line < 1 || p.Column < 1 || p.EndLine < p.Line {
				t.Fatalf("bad position %+v", p)
			}
			if err == nil && p.Line <= doc.LineCount() && doc.Line(p.Line) != p.Text {
				t.Fatalf("problem %+v: line %d is %q", p, p.Line, doc.Line(p.Line))
			}
		}
		// Outside Go a lone CR ends a line: the same edit
		// of the file with every LF made a CR gets the same report.
		if lang.Name != "go" && !strings.Contains(before+repl, "\r") {
			cr := []edit.Edit{{Start: s, End: e, New: strings.ReplaceAll(repl, "\n", "\r")}}
			crBefore := guardToCR([]byte(before))
			crAfter, err := edit.Apply(crBefore, cr)
			if err != nil {
				t.Fatal(err)
			}
			crRep, err := guard.CheckSyntax(context.Background(), lang, crBefore, crAfter, cr, guard.GuardOptions{})
			if err != nil {
				t.Fatalf("CheckSyntax: %v", err)
			}
			if guardReportKey(crRep) != guardReportKey(rep) {
				t.Fatalf("CR-only:\n%s\nLF:\n%s", guardReportKey(crRep), guardReportKey(rep))
			}
		}
	})
}

func ExampleCheckSyntax() {
	lang, _ := lang.ByName("go")
	before := []byte("package p\n\nfunc f() int {\n\treturn 1\n}\n")
	i := bytes.Index(before, []byte("return 1"))
	edits := []edit.Edit{{Start: i, End: i + len("return 1"), New: "return (1"}}
	after, _ := edit.Apply(before, edits)
	rep, err := guard.CheckSyntax(context.Background(), lang, before, after, edits, guard.GuardOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(rep.OK(), rep.Rejects(guard.CheckStrict))
	fmt.Print(rep.Format("p.go"))
	// Output:
	// false true
	// p.go:4:11: tree-sitter: missing ")"
	//     4 | 	return (1
	// p.go:4:11: go/parser: expected ')', found newline
	//     4 | 	return (1
	// p.go: the edit changed line 4
}

// TestCheckSyntaxRealInsertionOfCommentLines replaces CPython 3.13's
// two-line Signature.__str__ with the 42-line one of CPython 3.12 (11
// comment lines among them), a real edit whose result is valid Python:
// the guard must accept it (the incremental re-parse with the binding's
// wrong new end point reported an ERROR node over the docstring below the
// edit).
func TestCheckSyntaxRealInsertionOfCommentLines(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "guard", "inspect_signature.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range ar.Files {
		files[f.Name] = f.Data
	}
	before, newStr := files["before.py"], string(files["new_str.py"])
	if len(before) == 0 || !strings.HasPrefix(newStr, "    def __str__(self):\n") {
		t.Fatalf("bad fixture: %d bytes before, new_str %.40q", len(before), newStr)
	}
	e := guardEdit(t, before, "    def __str__(self):\n        return self.format()\n", newStr)
	after, rep := guardApply(t, guardLang(t, "python"), before, e)
	if !rep.OK() || rep.Before != 0 || rep.After != 0 {
		t.Errorf("valid edit refused: %+v\n%s", rep, rep.Format("inspect.py"))
	}
	// The same bytes parsed on their own have no problem either.
	all, err := guard.FindSyntaxProblems(context.Background(), guardLang(t, "python"), after, guard.GuardOptions{})
	if err != nil || !all.Checked || len(all.New) != 0 {
		t.Errorf("full parse of the result: %+v, %v", all, err)
	}
}

// TestCheckSyntaxGoParserDecides edits a real Go file with code that
// go/parser accepts and tree-sitter's older Go grammar rejects: the edit
// is not refused, and tree-sitter does not run (its errors could only be
// notes, and are not worth a parse). In
// an edit that go/parser rejects, tree-sitter runs, and its errors on the
// lines above go/parser's first error are notes on the edited lines.
func TestCheckSyntaxGoParserDecides(t *testing.T) {
	before := guardFixture(t, "go/slog_value.go")
	lang := guardLang(t, "go")
	anchor := "func (v Value) str() string {\n"
	tests := []struct {
		name, insert, marker string
	}{
		{"generic type alias (Go 1.24)", "type set[T comparable] = map[T]struct{}\n\n", "type set[T comparable] = map[T]struct{}"},
		{"new of an expression (Go 1.26)", "func int64Ptr() *int64 {\n\treturn new(int64(0))\n}\n\n", "return new(int64(0))"},
		{"shadowed make", "func shadow() int {\n\tmake := func(n int) int { return n }\n\treturn make(3)\n}\n\n", "return make(3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, rep := guardApply(t, lang, before, guardEdit(t, before, anchor, tt.insert+anchor))
			if !rep.Checked || !rep.OK() || rep.Rejects(guard.CheckStrict) || len(rep.Notes) > 0 || rep.Before != 0 || rep.After != 0 {
				t.Fatalf("report %+v\n%s", rep, rep.Format("value.go"))
			}
			// A statement at top level below it: go/parser rejects the
			// edit; tree-sitter's error above go/parser's first is a note.
			after, rep := guardApply(t, lang, before, guardEdit(t, before, anchor, tt.insert+"x := 1\n\n"+anchor))
			if rep.OK() {
				t.Fatalf("an edit go/parser rejects was accepted: %+v", rep)
			}
			line, _ := guardLineOf(t, after, "x := 1")
			if p := rep.New[0]; p.Kind != guard.KindGoParser || p.Line != line {
				t.Errorf("first problem %+v, want go/parser's on line %d", p, line)
			}
			line, text := guardLineOf(t, after, tt.marker)
			if len(rep.Notes) == 0 || rep.Notes[0].Line != line || rep.Notes[0].Text != text {
				t.Fatalf("notes = %+v, want the first on line %d %q", rep.Notes, line, text)
			}
			if f := rep.Format("value.go"); !strings.Contains(f, fmt.Sprintf("value.go:%d:%d: note: tree-sitter: ", line, rep.Notes[0].Column)) {
				t.Errorf("Format does not show the note:\n%s", f)
			}
		})
	}
}

// guardInsertAtLine inserts s at the first non-blank byte of the 1-based
// line n of content.
func guardInsertAtLine(t *testing.T, content []byte, n int, s string) edit.Edit {
	t.Helper()
	lines := bytes.SplitAfter(content, []byte("\n"))
	if n < 1 || n > len(lines) {
		t.Fatalf("no line %d", n)
	}
	at := 0
	for _, l := range lines[:n-1] {
		at += len(l)
	}
	l := lines[n-1]
	at += len(l) - len(bytes.TrimLeft(l, " \t"))
	return edit.Edit{Start: at, End: at, New: s}
}

// TestCheckSyntaxNearestFirst checks that a refusal leads with the new
// problem nearest to the edited lines, then the others in file order, and
// names the edited lines, so that the caller sees first what its own edit
// broke.
func TestCheckSyntaxNearestFirst(t *testing.T) {
	t.Run("java", func(t *testing.T) {
		// A quote opened in a Javadoc line: tree-sitter's first new
		// problem in file order is a missing "}" two lines up.
		before := guardFixture(t, "java/Inventory.java")
		_, rep := guardApply(t, guardLang(t, "java"), before, guardInsertAtLine(t, before, 46, `"`))
		if len(rep.New) < 2 || rep.New[0].Line != 46 {
			t.Fatalf("first problem %v, want line 46; all: %v", rep.New[0], rep.New)
		}
		earlier := false
		for _, p := range rep.New[1:] {
			earlier = earlier || p.Line < 46
		}
		if !earlier {
			t.Errorf("no problem above the edit: the case no longer tests the order")
		}
		guardAssertRestInOrder(t, rep.New)
		if len(rep.Edited) != 1 || rep.Edited[0] != (guard.LineSpan{First: 46, Last: 46}) {
			t.Errorf("Edited = %v, want line 46", rep.Edited)
		}
		if f := rep.Format("Inventory.java"); !strings.HasPrefix(f, "Inventory.java:46:") || !strings.Contains(f, "\nInventory.java: the edit changed line 46\n") {
			t.Errorf("Format:\n%s", f)
		}
	})
	t.Run("go cascade", func(t *testing.T) {
		// One backquote in net/http's server.go opens a raw string that
		// runs to the next one: about 200 new problems.
		src := goroot.Src()
		if src == "" {
			t.Skip("no GOROOT source")
		}
		before, err := os.ReadFile(filepath.Join(src, "net", "http", "server.go"))
		if err != nil {
			t.Skip(err)
		}
		n, _ := guardLineOf(t, before, "// TLSNextProto key to use for unencrypted HTTP/2 connections.")
		_, rep := guardApply(t, guardLang(t, "go"), before, guardInsertAtLine(t, before, n, "`"))
		if len(rep.New) < 130 || rep.New[0].Line != n {
			t.Fatalf("%d new problems, first %v, want at least 130, first on line %d", len(rep.New), rep.New[0], n)
		}
		guardAssertRestInOrder(t, rep.New)
		if len(rep.Edited) != 1 || rep.Edited[0] != (guard.LineSpan{First: n, Last: n}) {
			t.Errorf("Edited = %v, want line %d", rep.Edited, n)
		}
	})
	t.Run("two edits", func(t *testing.T) {
		before := guardFixture(t, "python/process.py")
		e1 := guardEdit(t, before, "    def kill(self):", "    def kill(self:")
		n := 164                                                 // "        if self is _current_process:", in is_alive, below kill
		e2 := guardInsertAtLine(t, before, n, "x = 1\n        ") // a clean line
		after, rep := guardApply(t, guardLang(t, "python"), before, e1, e2)
		kill, _ := guardLineOf(t, after, "    def kill(self:")
		x, _ := guardLineOf(t, after, "        x = 1")
		if len(rep.Edited) != 2 || rep.Edited[0] != (guard.LineSpan{First: kill, Last: kill}) ||
			rep.Edited[1].First != x || rep.Edited[1].Last > x+1 {
			t.Errorf("Edited = %v, want line %d and lines from %d", rep.Edited, kill, x)
		}
		if len(rep.New) == 0 || rep.New[0].Line != kill {
			t.Errorf("New = %v, want the first on line %d", rep.New, kill)
		}
	})
}

// guardAssertRestInOrder checks that ps[1:] are in file order.
func guardAssertRestInOrder(t *testing.T, ps []guard.SyntaxProblem) {
	t.Helper()
	for i := 2; i < len(ps); i++ {
		if a, b := ps[i-1], ps[i]; b.Line < a.Line || b.Line == a.Line && b.Column < a.Column {
			t.Errorf("problems %d and %d out of order: %v, %v", i-1, i, a, b)
		}
	}
}

// guardToCR returns s with every LF replaced by a lone CR: a CR-only file.
func guardToCR(s []byte) []byte { return bytes.ReplaceAll(s, []byte("\n"), []byte("\r")) }

// guardReportKey is what a report says of its problems, without the
// unexported state: for comparing the report of a CR-only file with that of
// the same file with LF line endings.
func guardReportKey(rep guard.SyntaxReport) string {
	return fmt.Sprintf("checked %v skipped %q before %d after %d\nnew %+v\nedited %v\nnotes %+v",
		rep.Checked, rep.Skipped, rep.Before, rep.After, rep.New, rep.Edited, rep.Notes)
}

// TestCheckSyntaxCROnly checks the guard on files whose lines end with a
// lone CR: in Python, Java and TypeScript a lone CR ends
// a line, so each edit of guardCases and guardBrokenCases (Go excepted) made
// on the file converted to CR gets exactly the report of the same edit on
// the LF file: clean edits pass, broken ones are refused with the same
// problems at the same lines and columns (as Document counts lines: at CR)
// and the same line texts. With the raw text, tree-sitter read each of
// these files as one line.
func TestCheckSyntaxCROnly(t *testing.T) {
	type cr struct {
		name, lang, file string
		base             [][2]string // edits applied first (a broken file)
		old, new         string
	}
	var cases []cr
	for _, c := range guardCases {
		if c.lang != "go" {
			cases = append(cases, cr{c.name, c.lang, c.file, nil, c.old, c.new})
		}
	}
	for _, c := range guardBrokenCases {
		if c.lang != "go" {
			name := c.file + " broken"
			cases = append(cases,
				cr{name + ", clean edit", c.lang, c.file, [][2]string{c.first}, c.clean[0], c.clean[1]},
				cr{name + ", second error", c.lang, c.file, [][2]string{c.first}, c.second[0], c.second[1]})
		}
	}
	refused := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lang := guardLang(t, c.lang)
			lf := guardFixture(t, c.file)
			for _, b := range c.base {
				var err error
				if lf, err = edit.Apply(lf, []edit.Edit{guardEdit(t, lf, b[0], b[1])}); err != nil {
					t.Fatal(err)
				}
			}
			crText := guardToCR(lf)
			_, want := guardApply(t, lang, lf, guardEdit(t, lf, c.old, c.new))
			after, got := guardApply(t, lang, crText, guardEdit(t, crText, string(guardToCR([]byte(c.old))), string(guardToCR([]byte(c.new)))))
			if guardReportKey(got) != guardReportKey(want) {
				t.Errorf("CR-only file:\n%s\nLF file:\n%s", guardReportKey(got), guardReportKey(want))
			}
			doc, err := edit.NewDocument("f", after)
			if err != nil || doc.EOL != edit.CR {
				t.Fatalf("the content after is not a CR file: %v", err)
			}
			for _, p := range got.New {
				if p.Line > doc.LineCount()+1 || p.Line <= doc.LineCount() && doc.Line(p.Line) != p.Text {
					t.Errorf("problem %+v: Document line %d differs", p, p.Line)
				}
			}
			if !want.OK() {
				refused++
			}
		})
	}
	if refused < 8 {
		t.Errorf("only %d of the edits were refused: the cases no longer test refusals", refused)
	}
}

// TestCheckSyntaxCRLoneness checks edits that change whether a CR is lone
// without touching it: the edit inserts an LF after a CR-only file's CR
// (the CR becomes a CRLF's), or deletes a CRLF's LF (its CR becomes lone).
// Each is valid in Python, Java and TypeScript, where CR, LF and CRLF all
// end a line, and the guard accepts it; a broken edit next to it is
// refused at its line.
func TestCheckSyntaxCRLoneness(t *testing.T) {
	for _, c := range []struct{ lang, file, at, bad string }{
		{"python", "python/process.py", "        _children.add(self)\n", "        _children.add(self\n"},
		{"java", "java/Inventory.java", "        this.clock = clock;\n", "        this.clock = (clock;\n"},
		{"typescript", "typescript/scheduler.ts", "  const raw = baseMs * 2 ** attempt;\n", "  const raw = (baseMs * 2 ** attempt;\n"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			lang := guardLang(t, c.lang)
			lf := guardFixture(t, c.file)
			crText := guardToCR(lf)
			i := bytes.Index(lf, []byte(c.at))
			if i < 0 {
				t.Fatalf("%q not found", c.at)
			}
			end := i + len(c.at) // just after the line's CR
			// CR to CRLF: an LF inserted after the line's CR.
			if _, rep := guardApply(t, lang, crText, edit.Edit{Start: end, End: end, New: "\n"}); !rep.OK() {
				t.Errorf("LF inserted after a CR refused:\n%s", rep.Format(c.file))
			}
			// And a second line inserted with CRLF after it.
			if _, rep := guardApply(t, lang, crText, edit.Edit{Start: end, End: end, New: "\n" + strings.TrimSuffix(c.at, "\n") + "\r"}); !rep.OK() {
				t.Errorf("a line inserted after a CR, with LF first, refused:\n%s", rep.Format(c.file))
			}
			// CRLF to CR: the LF of a CRLF file's line deleted.
			crlf := bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))
			j := bytes.Index(crlf, []byte(strings.TrimSuffix(c.at, "\n")+"\r\n"))
			lfAt := j + len(c.at)
			if _, rep := guardApply(t, lang, crlf, edit.Edit{Start: lfAt, End: lfAt + 1}); !rep.OK() {
				t.Errorf("LF of a CRLF deleted, refused:\n%s", rep.Format(c.file))
			}
			// A broken line in a CR-only file is refused at its line.
			line, _ := guardLineOf(t, lf, strings.TrimSuffix(c.at, "\n"))
			after, rep := guardApply(t, lang, crText, edit.Edit{Start: i, End: end, New: string(guardToCR([]byte(c.bad)))})
			if rep.OK() {
				t.Fatalf("broken edit accepted")
			}
			doc, err := edit.NewDocument("f", after)
			if err != nil {
				t.Fatal(err)
			}
			if rep.New[0].Line != line || rep.New[0].Text != doc.Line(line) || len(rep.Edited) != 1 || rep.Edited[0] != (guard.LineSpan{First: line, Last: line}) {
				t.Errorf("broken edit at line %d reported as:\n%s", line, rep.Format(c.file))
			}
		})
	}
}

// TestCheckSyntaxGoCROnly checks that in Go, whose lines end at LF only
// (CR is white space), tree-sitter is given the text as it is, and
// go/parser decides: a CR-only Go file that go/parser accepts (statements
// separated by explicit semicolons) is never refused, and one it rejects
// is.
func TestCheckSyntaxGoCROnly(t *testing.T) {
	lang := guardLang(t, "go")
	before := []byte("package p;\rimport \"fmt\";\rfunc F(n int) int {\r\tx := n + 1;\r\treturn x;\r};\r")
	after, rep := guardApply(t, lang, before, guardEdit(t, before, "\tx := n + 1;\r", "\tx := n + 1;\r\tfmt.Println(x);\r"))
	if !rep.OK() {
		t.Errorf("valid CR-only Go edit refused:\n%s", rep.Format("f.go"))
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "f.go", after, 0); err != nil {
		t.Fatalf("go/parser rejects the test's content: %v", err)
	}
	_, rep = guardApply(t, lang, before, guardEdit(t, before, "\treturn x;\r", "\treturn x\r\ty := 2\r"))
	if rep.OK() || rep.New[0].Kind != guard.KindGoParser {
		t.Errorf("a CR-only Go edit go/parser rejects is accepted: %+v", rep)
	}
}

// TestCheckSyntaxCRSameIndentError checks the matching of python/indent
// errors, which excuses a new error by an old one with the same message on
// the same lines, in a CR-only file: the lines are those the indentation
// check reads (at CR), not the one LF line of the raw text. A file with a
// bad dedent gets two edits: one fixes it, the other makes the same error
// seven lines below; the new error is refused at its line.
func TestCheckSyntaxCRSameIndentError(t *testing.T) {
	lang := guardLang(t, "python")
	lf := guardFixture(t, "python/process.py")
	broken, err := edit.Apply(lf, []edit.Edit{guardEdit(t, lf, "        _children.add(self)\n", "      _children.add(self)\n")})
	if err != nil {
		t.Fatal(err)
	}
	line, _ := guardLineOf(t, lf, "self._popen.terminate()")
	for _, text := range [][]byte{broken, guardToCR(broken)} {
		eol := func(s string) string {
			if bytes.IndexByte(text, '\n') < 0 {
				return strings.ReplaceAll(s, "\n", "\r")
			}
			return s
		}
		after, rep := guardApply(t, lang, text,
			guardEdit(t, text, eol("      _children.add(self)\n"), eol("        _children.add(self)\n")),
			guardEdit(t, text, eol("        self._check_closed()\n        self._popen.terminate()\n"), eol("        self._check_closed()\n      self._popen.terminate()\n")))
		doc, err := edit.NewDocument("f", after)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Before != 1 || len(rep.New) != 1 || rep.New[0].Kind != guard.KindPythonIndent || rep.New[0].Line != line || rep.New[0].Text != doc.Line(line) {
			t.Errorf("EOL %q: %+v, want the new bad dedent at line %d", doc.EOL, rep, line)
		}
	}
}

// TestCheckSyntaxGoTimeout: in Go, where go/parser decides, an edit whose
// tree-sitter parse runs out of the guard's time (a timeout of 1 ns, out
// before any parse) is judged by go/parser alone, checked: a new error is
// refused with go/parser's message and line, an edit beside an old error
// passes, a valid edit passes; in Python the same timeout leaves the edit
// not checked, which strict mode refuses.
func TestCheckSyntaxGoTimeout(t *testing.T) {
	goLang := guardLang(t, "go")
	opt := guard.GuardOptions{Timeout: time.Nanosecond}
	clean := "package p\n\nfunc f() {\n\tx := 1\n\t_ = x\n}\n\nfunc g() int {\n\treturn 2\n}\n"
	broken := strings.Replace(clean, "\treturn 2\n", "\treturn 2 +\n", 1) // an old error in g
	tests := []struct {
		name, before, old, new string
		refused                bool
	}{
		{"a new error", clean, "x := 1", "x := ", true},
		{"beside an old error", broken, "x := 1", "x := 3", false},
		{"valid", clean, "x := 1", "x := 3", false},
	}
	for _, tt := range tests {
		before := []byte(tt.before)
		i := strings.Index(tt.before, tt.old)
		edits := []edit.Edit{{Start: i, End: i + len(tt.old), New: tt.new}}
		after, err := edit.Apply(before, edits)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := guard.CheckSyntax(context.Background(), goLang, before, after, edits, opt)
		if err != nil || !rep.Checked || rep.Skipped != "" {
			t.Fatalf("%s: %+v, %v; want checked", tt.name, rep, err)
		}
		if rep.Rejects(guard.CheckStrict) != tt.refused {
			t.Errorf("%s: refused %v, want %v: %+v", tt.name, rep.Rejects(guard.CheckStrict), tt.refused, rep)
		}
		lines := strings.Split(string(after), "\n")
		for _, p := range rep.New {
			if p.Kind != guard.KindGoParser || p.Line < 1 || p.Line > len(lines) || p.Text != lines[p.Line-1] {
				t.Errorf("%s: problem %+v, want go/parser's, with its real line", tt.name, p)
			}
		}
		if len(rep.Notes) != 0 {
			t.Errorf("%s: notes %+v, yet tree-sitter had no time to parse", tt.name, rep.Notes)
		}
	}
	py := []byte("def f():\n    return 1\n")
	edits := []edit.Edit{{Start: 20, End: 21, New: "2"}}
	after, _ := edit.Apply(py, edits)
	rep, err := guard.CheckSyntax(context.Background(), guardLang(t, "python"), py, after, edits, opt)
	if err != nil || rep.Checked || rep.SkipCode != guard.SkipTimeout || !rep.Rejects(guard.CheckStrict) {
		t.Errorf("python: %+v, %v; want not checked (timeout), refused in strict mode", rep, err)
	}
}

// guardWrappedC is C whose function's block a macro closes (END_F),
// inside an #ifndef around the whole file: tree-sitter, which does not
// expand macros, cannot close the function nor the #ifndef, and its error
// spans the file. (An #if whose branches each open the block is no such
// error: the parser's input keeps only the first branch.)
const guardWrappedC = `#ifndef WRAP
int ok(void) { return 1; }
#define END_F }
int f(int a) {
  return 0;
END_F
int after(void) { return 2; }
#else
#endif
`

// TestCheckSyntaxWholeFileError checks a C file whose one syntax error
// spans it whole (as go-sqlite3's sqlite3-binding.c): an edit that adds an
// error inside is refused, and one that adds none is accepted.
func TestCheckSyntaxWholeFileError(t *testing.T) {
	lang := guardLang(t, "c")
	before := []byte(guardWrappedC)
	after, rep := guardApply(t, lang, before, guardEdit(t, before, "return 2;", "return (2;"))
	guardAssertNew(t, rep, after, guard.KindMissing, "return (2;")
	_, rep = guardApply(t, lang, before, guardEdit(t, before, "return 2;", "return 2 + 1;"))
	if !rep.OK() || rep.Before == 0 {
		t.Errorf("clean edit of a file whose error spans it: %+v", rep)
	}
}
