package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInputNotDecodableRefused: chunks, edits, line edits and batch lines
// whose JSON would decode with U+FFFD in place of what was sent (invalid
// UTF-8, a \u escape of a lone surrogate) are refused as input errors
// (exit 2) naming the line and column, and the file is byte-identical.
func TestInputNotDecodableRefused(t *testing.T) {
	dir := t.TempDir()
	orig, err := os.ReadFile(filepath.Join(fixtureDir, "python/process.py"))
	if err != nil {
		t.Fatal(err)
	}
	py := filepath.Join(dir, "process.py")
	if err := os.WriteFile(py, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	loc := py + "::BaseProcess/start"
	for _, tt := range []struct {
		name  string
		args  []string
		input string
		want  string
	}{
		{"chunk, invalid UTF-8", []string{"chunk", loc, "-"},
			"[{\"context_before\": \"        self._check_closed()\", \"old_lines\": [], \"new_lines\": [\"        x = '\xe9'\"]}]", "line 1, column 98: byte 0xe9 is not valid UTF-8"},
		{"chunk, lone surrogate", []string{"chunk", loc, "-"},
			`[{"context_before": "        self._check_closed()", "old_lines": [], "new_lines": ["        x = '\udc00'"]}]`, "lone UTF-16 low surrogate"},
		{"edit, invalid UTF-8", []string{"edit", py, "-"},
			"[{\"old_text\": \"import os\", \"new_text\": \"import os  # \xff\"}]", "byte 0xff is not valid UTF-8"},
		{"edit, lone surrogate", []string{"edit", py, "-"},
			`{"edits": [{"old_text": "import os", "new_text": "import os  # \ud83d"}]}`, "lone UTF-16 high surrogate"},
		{"lines", []string{"lines", py, "-"},
			"[{\"insert_after\": 0, \"new_content\": \"# \xc3\"}]", "byte 0xc3 is not valid UTF-8"},
		{"batch", []string{"batch", "-"},
			`{"op": "edit", "path": "` + py + `", "edits": [{"old_text": "import os", "new_text": "import os  # \ud800x"}]}` + "\n", "lone UTF-16 high surrogate"},
	} {
		var out, errb bytes.Buffer
		code := Main(append([]string{"symedit"}, tt.args...), strings.NewReader(tt.input), &out, &errb)
		if code != ExitError || !strings.Contains(errb.String()+out.String(), tt.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and %q", tt.name, code, out.String(), errb.String(), tt.want)
		}
		if got, _ := os.ReadFile(py); !bytes.Equal(got, orig) {
			t.Fatalf("%s: the file changed", tt.name)
		}
	}
}

// TestEmptySymbolHashRefused: --expect-symbol-sha256 "" is a usage error,
// never "no check", on every command that takes it.
func TestEmptySymbolHashRefused(t *testing.T) {
	for _, args := range [][]string{
		{"chunk", "--expect-symbol-sha256", "", "x.py::f", "-"},
		{"replace-body", "--expect-symbol-sha256=", "x.py::f", "-"},
		{"insert-after", "--expect-symbol-sha256", "", "x.py::f", "-"},
	} {
		var out, errb bytes.Buffer
		code := Main(append([]string{"symedit"}, args...), strings.NewReader(""), &out, &errb)
		if code != ExitError || !strings.Contains(errb.String(), "--expect-symbol-sha256: empty") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}
