package ops_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/symedit/symedit/ops"
)

// Show returns a Go function's whole lines (Go's log/slog/value.go) and,
// with LineNumbers, a numbered listing; Text never has the numbers.
func TestShowGo(t *testing.T) {
	const rel = "go/slog_value.go"
	w, _, src := fixture(t, rel)
	for _, numbered := range []bool{false, true} {
		res, err := w.Show(context.Background(), ops.ShowRequest{Location: rel + "::countEmptyGroups", LineNumbers: numbered})
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(src), "\n")
		want := strings.Join(lines[196:205], "\n") + "\n" // lines 197-205
		if !res.OK || res.Path != rel || res.Language != "go" || res.FirstLine != 197 || res.LastLine != 205 || res.Text != want {
			t.Errorf("result %+v, want lines 197-205:\n%s", res, want)
		}
		if res.Symbol == nil || res.Symbol.NamePath != "countEmptyGroups" || res.Symbol.Kind != "function" {
			t.Errorf("symbol %+v", res.Symbol)
		}
		listing := res.Listing()
		if !numbered {
			if listing != want {
				t.Errorf("listing %q", listing)
			}
			continue
		}
		if !strings.HasPrefix(listing, "197  func countEmptyGroups(as []Attr) int {\n198  \tn := 0\n") ||
			!strings.HasSuffix(listing, "\n205  }\n") || strings.Count(listing, "\n") != 9 {
			t.Errorf("numbered listing:\n%s", listing)
		}
	}
}

// A Python function's lines start at its decorator (contextlib's
// contextmanager/helper), found by its line.
func TestShowPythonByLine(t *testing.T) {
	const rel = "python/contextlib_excerpt.py"
	w, _, _ := fixture(t, rel)
	res, err := w.Show(context.Background(), ops.ShowRequest{Location: rel + ":306:"})
	if err != nil {
		t.Fatal(err)
	}
	want := "    @wraps(func)\n    def helper(*args, **kwds):\n        return _GeneratorContextManager(func, args, kwds)\n"
	if res.Symbol.NamePath != "contextmanager/helper" || res.FirstLine != 305 || res.Text != want {
		t.Errorf("got %s lines %d-%d:\n%s", res.Symbol.NamePath, res.FirstLine, res.LastLine, res.Text)
	}
}

// A refusal has the same error shape as the writing operations'
// (ok false, path, error with code and nearest), and leaves the file as
// it was.
func TestShowRefusals(t *testing.T) {
	const rel = "python/process.py"
	for _, tc := range []struct {
		loc  string
		code ops.Code
	}{
		{rel + "::BaseProcess/stop", ops.CodeNoSymbol},
		{rel + "::join", ops.CodeAmbiguousSymbol},
		{rel, ops.CodeUsage},
		{"python/nosuch.py::f", ops.CodeError},
		{"../outside.py::f", ops.CodeOutsideRoot},
	} {
		t.Run(tc.loc, func(t *testing.T) {
			w, dir, src := fixture(t, rel)
			res, err := w.Show(context.Background(), ops.ShowRequest{Location: tc.loc})
			var oe *ops.Error
			if res == nil || !errors.As(err, &oe) || res.Error != oe || res.OK {
				t.Fatalf("result %+v, error %v", res, err)
			}
			if oe.Code != tc.code {
				t.Errorf("code %s, want %s: %v", oe.Code, tc.code, err)
			}
			js, _ := json.Marshal(res)
			if !strings.HasPrefix(string(js), `{"ok":false,"path":`) || strings.Contains(string(js), `"text"`) {
				t.Errorf("JSON %s", js)
			}
			if tc.code == ops.CodeNoSymbol && !strings.Contains(string(js), `"nearest":[{"name_path":"BaseProcess/start","kind":"method"`) {
				t.Errorf("JSON %s", js)
			}
			sameFile(t, dir, rel, src)
		})
	}
}

// Show reads a symbol: its 1-based first and last lines, and its text,
// numbered by Listing when the request asks for line numbers.
func ExampleWorkspace_Show() {
	dir, _ := os.MkdirTemp("", "symedit-example")
	defer os.RemoveAll(dir)
	src := "import os\n\n\nclass Greeter:\n    def greet(self, name):\n        return 'hello ' + name\n"
	os.WriteFile(filepath.Join(dir, "greet.py"), []byte(src), 0o644)

	w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer w.Close()

	res, err := w.Show(context.Background(), ops.ShowRequest{Location: "greet.py::greet", LineNumbers: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Symbol.NamePath, res.Symbol.Kind, res.FirstLine, res.LastLine)
	fmt.Print(res.Listing())
	// Output:
	// Greeter/greet method 5 6
	// 5      def greet(self, name):
	// 6          return 'hello ' + name
}

// TestShowVisible: the listing marks a tab, trailing spaces, a no-break
// space and a zero-width space, numbered or not, while Text stays the
// file's lines byte for byte (what an edit copies).
func TestShowVisible(t *testing.T) {
	dir := t.TempDir()
	src := "def f():\n\tx = 1  \n\ty = 'a\u00a0b\u200b'\n\treturn y\n"
	path := filepath.Join(dir, "v.py")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	res, err := w.Show(context.Background(), ops.ShowRequest{Location: path + "::f", Visible: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != src {
		t.Errorf("text %q, want the file's %q", res.Text, src)
	}
	if want := "def f():\n→x = 1··\n→y = 'a⍽b[U+200B]'\n→return y\n"; res.Listing() != want {
		t.Errorf("listing %q, want %q", res.Listing(), want)
	}
	res, err = w.Show(context.Background(), ops.ShowRequest{Location: path + "::f", Visible: true, LineNumbers: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := "1  def f():\n2  →x = 1··\n3  →y = 'a⍽b[U+200B]'\n4  →return y\n"; res.Listing() != want {
		t.Errorf("numbered listing %q, want %q", res.Listing(), want)
	}
}
