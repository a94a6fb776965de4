package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// flagsPy is a function whose source holds every word a front end names
// options with: each CLI flag a remedy names, the match levels, the
// phrases "rerun with" and "call again with", and the tool fields in
// quotes. These are the words an MCP server that rewrote messages would
// rewrite in the file's own text too.
const flagsPy = `import argparse


def configure(parser):
    """Add the options: --match indent, --partial, rerun with --match loose."""
    parser.add_argument("--partial", action="store_true")
    parser.add_argument("--match", choices=["exact", "trailing", "indent", "loose"])
    parser.add_argument("--check", help="use --check=warn to write anyway")
    parser.add_argument("--allow-hardlinks", help="(pass --allow-hardlinks to accept that)")
    parser.add_argument("--allow-metadata-loss", help="(pass --allow-metadata-loss to write anyway)")
    parser.add_argument("--allow-read-only", help="pass --allow-read-only to replace it anyway")
    parser.add_argument("--lang", help="unsupported extension (or pass --lang NAME)")
    parser.add_argument("--root", help="confined to the working directory unless --root names another folder")
    hint = 'rerun with --match indent to accept it; Rerun with --match trailing'
    note = "(symedit show -n prints numbered lines) (--partial writes the files that pass)"
    fields = '"match": "indent" and "partial": true, call again with "match": "loose"'
    return parser, hint, note, fields
`

// verbatim checks what MCP results quote of one file: every line a diff
// shows as context or removed, and every line a refusal shows as the
// file's, is one of the file's lines byte for byte.
type verbatim struct {
	t     *testing.T
	lines map[string]bool
}

func newVerbatim(t *testing.T, text string) *verbatim {
	v := &verbatim{t: t, lines: map[string]bool{}}
	for _, l := range strings.Split(text, "\n") {
		v.lines[l] = true
	}
	return v
}

// line checks that s, quoted as the file's line, is one.
func (v *verbatim) line(what, s string) {
	v.t.Helper()
	if !v.lines[s] {
		v.t.Errorf("%s: %q is not a line of the file", what, s)
	}
}

// diff checks a unified diff's context and removed lines, and that the
// tool's text content holds the diff as the structured content does.
func (v *verbatim) diff(what string, c toolCall) {
	v.t.Helper()
	d, _ := get(c.data, "diff").(string)
	if d == "" {
		v.t.Fatalf("%s: no diff in %v", what, c.data)
	}
	for _, l := range strings.Split(strings.TrimSuffix(d, "\n"), "\n") {
		if strings.HasPrefix(l, "---") || strings.HasPrefix(l, "+++") || strings.HasPrefix(l, "@@") || strings.HasPrefix(l, "diff ") || strings.HasPrefix(l, "+") {
			continue
		}
		v.line(what+" diff", l[1:])
	}
	if !strings.Contains(c.text, d) {
		v.t.Errorf("%s: the text content does not hold the diff byte for byte:\n%s\nwant it to hold:\n%s", what, c.text, d)
	}
}

// nearest checks a refusal's nearest lines (each {line, text, ...}): each
// is a line of the file, and the text content shows it.
func (v *verbatim) nearest(what string, c toolCall, near any) {
	v.t.Helper()
	list, _ := near.([]any)
	if len(list) == 0 {
		v.t.Fatalf("%s: no nearest lines in %v", what, c.data)
	}
	for _, n := range list {
		text, _ := get(n, "text").(string)
		v.line(what+" nearest", text)
		if !strings.Contains(c.text, text) {
			v.t.Errorf("%s: the text content lacks the nearest line %q:\n%s", what, text, c.text)
		}
	}
}

// TestMCPSourceVerbatim: source text holding every word the front ends
// name options with comes back from every MCP tool that returns it (show,
// symbols, the dry-run diffs of chunk, edit and replace_body, the real
// and nearest lines of refusals) byte for byte, in the text content and
// in the structured content.
func TestMCPSourceVerbatim(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "flags.py")
	if err := os.WriteFile(path, []byte(flagsPy), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := serveInProcess(t, dir, time.Hour, nil, nil)
	v := newVerbatim(t, flagsPy)
	loc := path + "::configure"
	body := flagsPy[strings.Index(flagsPy, "def configure"):]

	c := callTool(t, cs, "show", map[string]any{"location": loc})
	if get(c.data, "text") != body || c.text != body {
		t.Errorf("show: structured text %q, text content %q, want the file's lines %q", get(c.data, "text"), c.text, body)
	}
	c = callTool(t, cs, "show", map[string]any{"location": loc, "line_numbers": true})
	for i, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		if n := fmt.Sprintf("%d", i+4); !strings.Contains(c.text, n) || !strings.Contains(c.text, l+"\n") {
			t.Errorf("show -n: line %s %q missing from %q", n, l, c.text)
		}
	}
	c = callTool(t, cs, "symbols", map[string]any{"path": path})
	if get(c.data, "files", 0, "symbols", 0, "name_path") != "configure" || !strings.Contains(c.text, "configure") {
		t.Errorf("symbols: %v\n%s", c.data, c.text)
	}

	c = callTool(t, cs, "chunk", map[string]any{"location": loc, "dry_run": true, "chunks": []any{map[string]any{
		"context_before": `    fields = '"match": "indent" and "partial": true, call again with "match": "loose"'`,
		"old_lines":      []any{"    return parser, hint, note, fields"},
		"new_lines":      []any{"    return parser"},
	}}})
	v.diff("chunk", c)
	c = callTool(t, cs, "edit", map[string]any{"path": path, "dry_run": true, "edits": []any{map[string]any{
		"old_text": `"--lang", help="unsupported extension (or pass --lang NAME)"`,
		"new_text": `"--language", help="a language name"`,
	}}})
	v.diff("edit", c)
	c = callTool(t, cs, "replace_body", map[string]any{"location": loc, "dry_run": true,
		"text": strings.Replace(body, "    return parser, hint, note, fields\n", "    return parser\n", 1)})
	v.diff("replace_body", c)

	// Refusals: the file's real line where the chunk disagreed, and the
	// nearest lines.
	c = callTool(t, cs, "chunk", map[string]any{"location": loc, "chunks": []any{map[string]any{
		"context_before": `    hint = 'rerun with --match indent to accept it'`,
		"old_lines":      []any{`    note = "(symedit show -n prints numbered lines)"`},
		"new_lines":      []any{`    note = ""`},
	}}})
	if !c.isError {
		t.Fatalf("chunk refusal: applied: %s", c.text)
	}
	v.nearest("chunk refusal", c, get(c.data, "error", "nearest"))
	c = callTool(t, cs, "edit", map[string]any{"path": path, "edits": []any{map[string]any{
		"old_text": `    parser.add_argument("--partial", action="store_false")` + "\n",
		"new_text": "",
	}}})
	if !c.isError {
		t.Fatalf("edit refusal: applied: %s", c.text)
	}
	places, _ := get(c.data, "error", "nearest").([]any)
	if len(places) == 0 {
		t.Fatalf("edit refusal: no similar places in %v", c.data)
	}
	for _, place := range places {
		content, _ := get(place, "content").(string)
		for _, l := range strings.Split(content, "\n") {
			v.line("edit refusal", l)
			if !strings.Contains(c.text, l) {
				t.Errorf("edit refusal: the text content lacks %q:\n%s", l, c.text)
			}
		}
	}
	c = callTool(t, cs, "apply", map[string]any{"reply": path + "\n<<<<<<< SEARCH\n" +
		`    parser.add_argument("--root", help="confined to the server's root")` + "\n=======\n    pass\n>>>>>>> REPLACE\n"})
	if !c.isError {
		t.Fatalf("apply refusal: applied: %s", c.text)
	}
	v.nearest("apply refusal", c, get(c.data, "blocks", 0, "failure", "nearest"))

	got, err := os.ReadFile(path)
	if err != nil || string(got) != flagsPy {
		t.Errorf("the file changed: %v\n%s", err, got)
	}
}

// FuzzMCPSourceVerbatim: any line of source text (in a comment, so that
// the file parses whatever it holds) comes back from show, a chunk dry
// run's diff and a refused chunk's nearest lines byte for byte, in the
// text content and in the structured content.
func FuzzMCPSourceVerbatim(f *testing.F) {
	for _, s := range []string{
		`--partial --match indent "partial": true`,
		`rerun with --match loose to accept it`,
		`(pass --allow-hardlinks to accept that) (or pass --lang NAME)`,
		"tab\there, nbsp\u00a0here, ‘quotes’ — dash",
		"",
	} {
		f.Add(s)
	}
	dir := f.TempDir()
	path := filepath.Join(dir, "f.py")
	cs := serveInProcess(f, dir, time.Hour, nil, nil)
	f.Fuzz(func(t *testing.T, s string) {
		s = strings.Map(func(r rune) rune {
			if r == '\n' || r == '\r' || r == 0 || r == '\v' || r == '\f' || r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xFEFF {
				return ' ' // one line, as the comment it is put in
			}
			return r
		}, strings.ToValidUTF8(s, "?"))
		comment := "    # " + s
		src := "def f():\n" + comment + "\n    return 1\n"
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		c := callTool(t, cs, "show", map[string]any{"location": path + "::f"})
		if get(c.data, "text") != src || c.text != src {
			t.Fatalf("show: %q / %q, want %q", get(c.data, "text"), c.text, src)
		}
		v := newVerbatim(t, src)
		c = callTool(t, cs, "chunk", map[string]any{"location": path + "::f", "dry_run": true, "chunks": []any{map[string]any{
			"context_before": comment, "old_lines": []any{"    return 1"}, "new_lines": []any{"    return 2"}}}})
		v.diff("chunk", c)
		c = callTool(t, cs, "chunk", map[string]any{"location": path + "::f", "chunks": []any{map[string]any{
			"context_before": comment, "old_lines": []any{"    return 3"}, "new_lines": []any{"    return 2"}}}})
		if !c.isError {
			t.Fatalf("a chunk for a line not in the file applied: %s", c.text)
		}
		if actual, ok := get(c.data, "error", "actual").(string); ok {
			v.line("actual", actual)
			if !strings.Contains(c.text, actual) {
				t.Errorf("the text content lacks the actual line %q:\n%s", actual, c.text)
			}
		}
	})
}

// TestMCPEmptyExpectSHA256: an edit tool call with "expect_sha256": "" is
// refused before anything is read, never run unchecked; the file is
// byte-identical.
func TestMCPEmptyExpectSHA256(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "flags.py")
	if err := os.WriteFile(path, []byte(flagsPy), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := serveInProcess(t, dir, time.Hour, nil, nil)
	for _, tool := range []string{"edit", "write"} {
		args := map[string]any{"path": path, "expect_sha256": ""}
		if tool == "edit" {
			args["edits"] = []any{map[string]any{"old_text": "import argparse", "new_text": "import sys"}}
		} else {
			args["content"] = "x = 1\n"
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
		if err == nil && !res.IsError {
			t.Errorf("%s: accepted: %s", tool, resultText(res))
		}
		if err == nil && !strings.Contains(resultText(res), "expect_sha256") {
			t.Errorf("%s: the refusal does not name the field: %s", tool, resultText(res))
		}
		if got, _ := os.ReadFile(path); string(got) != flagsPy {
			t.Errorf("%s: the file changed:\n%s", tool, got)
		}
	}
}
