package ops_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/symedit/symedit/ops"
	"github.com/symedit/symedit/symbols"
)

// fixture copies testdata/src/REL (CPython and Go excerpts, hand-written
// Java and TypeScript; see testdata/src/README.md) into a new temporary
// folder and opens a Workspace on it. It returns the workspace, the
// folder and the file's original content.
func fixture(t *testing.T, rel string) (*ops.Workspace, string, []byte) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "src", rel))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, dir, src
}

// sameFile fails the test unless the file rel under dir holds want, byte
// for byte.
func sameFile(t *testing.T, dir, rel string, want []byte) {
	t.Helper()
	got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s changed:\n%s", rel, got)
	}
}

// codeOf returns the code of an operation's error, failing the test when
// it is not the result's *ops.Error.
func codeOf(t *testing.T, err error, res *ops.Result) ops.Code {
	t.Helper()
	var oe *ops.Error
	if !errors.As(err, &oe) {
		t.Fatalf("error %v (%T) is not an *ops.Error", err, err)
	}
	if res.OK || res.Error != oe {
		t.Errorf("result ok=%v error=%v, want ok false and the returned error", res.OK, res.Error)
	}
	return oe.Code
}

// A method sent flush-left replaces BaseProcess/kill of CPython's
// multiprocessing/process.py, shifted to the method's indentation.
func TestReplaceBodyPython(t *testing.T) {
	const rel = "python/process.py"
	w, dir, src := fixture(t, rel)
	body := "def kill(self):\n    self._check_closed()\n    if self._popen is None:\n        return\n    self._popen.kill()\n"
	res, err := w.ReplaceBody(context.Background(), ops.SymbolTextRequest{Location: rel + "::BaseProcess/kill", Text: body})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || !res.Changed || !res.Written || res.Path != rel {
		t.Errorf("ok=%v changed=%v written=%v path=%q", res.OK, res.Changed, res.Written, res.Path)
	}
	if res.Reindent != "indented by 4 spaces" || res.Replaced != "whole" || res.Kept != "" {
		t.Errorf("reindent %q replaced %q kept %q", res.Reindent, res.Replaced, res.Kept)
	}
	if res.Symbol == nil || res.Symbol.NamePath != "BaseProcess/kill" || res.Symbol.Kind != symbols.KindMethod || res.Symbol.Start.Line != 141 {
		t.Errorf("symbol %+v", res.Symbol)
	}
	if want := "replaced BaseProcess/kill (method, lines 141-146); text indented by 4 spaces"; res.Summary != want {
		t.Errorf("summary %q, want %q", res.Summary, want)
	}
	old := "    def kill(self):\n        '''\n        Terminate process; sends SIGKILL signal or uses TerminateProcess()\n" +
		"        '''\n        self._check_closed()\n        self._popen.kill()\n"
	if strings.Count(string(src), old) != 1 {
		t.Fatal("the fixture's kill is not as expected")
	}
	want := strings.Replace(string(src), old,
		"    def kill(self):\n        self._check_closed()\n        if self._popen is None:\n            return\n        self._popen.kill()\n", 1)
	sameFile(t, dir, rel, []byte(want))
}

// A def sent without its decorator keeps @wraps(func) (contextlib's
// contextmanager/helper), and the result says so.
func TestReplaceBodyKeepsDecorator(t *testing.T) {
	const rel = "python/contextlib_excerpt.py"
	w, dir, src := fixture(t, rel)
	res, err := w.ReplaceBody(context.Background(), ops.SymbolTextRequest{
		Location:     rel + "::contextmanager/helper",
		Text:         "def helper(*args, **kwds):\n    return _GeneratorContextManager(func, args, dict(kwds))\n",
		WriteOptions: ops.WriteOptions{DryRun: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Replaced != "from-keyword" || res.Kept != "@wraps(func)" || res.Written || !res.DryRun {
		t.Errorf("replaced %q kept %q written %v dry_run %v", res.Replaced, res.Kept, res.Written, res.DryRun)
	}
	if !strings.Contains(res.Diff, "+        return _GeneratorContextManager(func, args, dict(kwds))\n") ||
		strings.Contains(res.Diff, "-    @wraps(func)") {
		t.Errorf("diff:\n%s", res.Diff)
	}
	sameFile(t, dir, rel, src)
}

// insert-before goes above countEmptyGroups' doc comment in Go's
// log/slog/value.go, with one blank line after the new function;
// insert-after below the function, with one blank line before it.
func TestInsertGo(t *testing.T) {
	const rel = "go/slog_value.go"
	fn := "func nonEmpty(as []Attr) int {\n\treturn len(as) - countEmptyGroups(as)\n}\n"
	for _, tc := range []struct {
		name string
		run  func(*ops.Workspace, context.Context, ops.SymbolTextRequest) (*ops.SymbolTextResult, error)
		old  string
		new  string
	}{
		{"before", (*ops.Workspace).InsertBefore,
			"}\n\n// countEmptyGroups returns",
			"}\n\n" + fn + "\n// countEmptyGroups returns"},
		{"after", (*ops.Workspace).InsertAfter,
			"\treturn n\n}\n",
			"\treturn n\n}\n\n" + fn},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, dir, src := fixture(t, rel)
			res, err := tc.run(w, context.Background(), ops.SymbolTextRequest{Location: rel + "::countEmptyGroups", Text: fn})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Written || res.Reindent != "written as sent" || res.Replaced != "" {
				t.Errorf("written %v reindent %q replaced %q", res.Written, res.Reindent, res.Replaced)
			}
			if res.Syntax == nil || !res.Syntax.Checked || res.Syntax.Language != "go" {
				t.Errorf("syntax %+v", res.Syntax)
			}
			if strings.Count(string(src), tc.old) != 1 {
				t.Fatalf("the fixture has %q %d times", tc.old, strings.Count(string(src), tc.old))
			}
			sameFile(t, dir, rel, []byte(strings.Replace(string(src), tc.old, tc.new, 1)))
		})
	}
}

// Refusals leave the file byte-identical: a name path that names no symbol
// (NO_SYMBOL, with the nearest symbols), an ambiguous one, an empty text
// (INVALID_INPUT), a body that breaks the syntax (SYNTAX; a dry run keeps
// its diff), a wrong expect_sha256 (CHANGED) and a malformed location
// (USAGE).
func TestSymbolTextRefusals(t *testing.T) {
	const rel = "python/process.py"
	body := "def kill(self):\n    self._popen.kill()\n"
	for _, tc := range []struct {
		name string
		run  func(*ops.Workspace, context.Context, ops.SymbolTextRequest) (*ops.SymbolTextResult, error)
		req  ops.SymbolTextRequest
		code ops.Code
	}{
		{"no symbol", (*ops.Workspace).ReplaceBody, ops.SymbolTextRequest{Location: rel + "::BaseProcess/stop", Text: body}, ops.CodeNoSymbol},
		{"ambiguous", (*ops.Workspace).InsertAfter, ops.SymbolTextRequest{Location: rel + "::join", Text: body}, ops.CodeAmbiguousSymbol},
		{"empty", (*ops.Workspace).ReplaceBody, ops.SymbolTextRequest{Location: rel + "::BaseProcess/kill", Text: "\n"}, ops.CodeInvalidInput},
		{"empty insert", (*ops.Workspace).InsertBefore, ops.SymbolTextRequest{Location: rel + "::BaseProcess/kill"}, ops.CodeInvalidInput},
		{"syntax", (*ops.Workspace).ReplaceBody, ops.SymbolTextRequest{Location: rel + "::BaseProcess/kill",
			Text: "def kill(self):\n    self._popen.kill(\n", WriteOptions: ops.WriteOptions{DryRun: true}}, ops.CodeSyntax},
		{"syntax written", (*ops.Workspace).InsertAfter, ops.SymbolTextRequest{Location: rel + "::BaseProcess/kill",
			Text: "def k(self):\nreturn 1\n"}, ops.CodeSyntax},
		{"changed", (*ops.Workspace).ReplaceBody, ops.SymbolTextRequest{Location: rel + "::BaseProcess/kill", Text: body,
			WriteOptions: ops.WriteOptions{ExpectSHA256: ops.SHA256(strings.Repeat("0", 64))}}, ops.CodeChanged},
		{"location", (*ops.Workspace).ReplaceBody, ops.SymbolTextRequest{Location: rel, Text: body}, ops.CodeUsage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, dir, src := fixture(t, rel)
			res, err := tc.run(w, context.Background(), tc.req)
			if res == nil {
				t.Fatal("nil result")
			}
			if code := codeOf(t, err, &res.Result); code != tc.code {
				t.Errorf("code %s, want %s: %v", code, tc.code, err)
			}
			if res.Written || res.Path != rel {
				t.Errorf("written %v path %q", res.Written, res.Path)
			}
			if tc.code == ops.CodeNoSymbol {
				near, ok := res.Error.Nearest.([]ops.Symbol)
				if !ok || len(near) == 0 || near[0].NamePath != "BaseProcess/start" {
					t.Errorf("nearest %#v", res.Error.Nearest)
				}
			}
			if tc.req.DryRun && !strings.Contains(res.Diff, "+        self._popen.kill(\n") {
				t.Errorf("a refused dry run has no diff: %q", res.Diff)
			}
			sameFile(t, dir, rel, src)
		})
	}
}

// A C# method sent without its attributes keeps [Test] and
// [Category("fast")]; sent without its modifiers too, it keeps public
// async as well; sent with its modifiers, it replaces them and keeps the
// attributes; sent with attributes, it replaces the whole. The result
// says what was kept, and the file is unchanged by a dry run.
func TestReplaceBodyCSharpKeepsAttributes(t *testing.T) {
	const rel = "csharp/modern.cs"
	w, dir, src := fixture(t, rel)
	body := "System.Threading.Tasks.Task RunsAsync()\n{\n    return System.Threading.Tasks.Task.CompletedTask;\n}\n"
	for _, tc := range []struct {
		text, replaced, kept string
	}{
		{"public async " + body, "from-modifiers", "[Test]\n[Category(\"fast\")]"},
		{"internal " + body, "from-modifiers", "[Test]\n[Category(\"fast\")]"},
		{body, "from-keyword", "[Test]\n[Category(\"fast\")]\npublic async"},
		{"[Test]\npublic " + body, "whole", ""},
	} {
		res, err := w.ReplaceBody(context.Background(), ops.SymbolTextRequest{
			Location:     rel + "::Shapes.Modern/Tests/RunsAsync",
			Text:         tc.text,
			WriteOptions: ops.WriteOptions{DryRun: true},
		})
		if err != nil {
			t.Fatal(err)
		}
		if res.Replaced != tc.replaced || res.Kept != tc.kept || res.Written || !res.DryRun {
			t.Errorf("%q: replaced %q kept %q written %v dry_run %v", tc.text, res.Replaced, res.Kept, res.Written, res.DryRun)
		}
		// Only a text with attributes replaces them: [Category] goes.
		if strings.Contains(res.Diff, "-    [Category(\"fast\")]") != (tc.replaced == "whole") {
			t.Errorf("%q: diff:\n%s", tc.text, res.Diff)
		}
	}
	sameFile(t, dir, rel, src)
}
