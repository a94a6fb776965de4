package ops_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/ops"
	"github.com/symedit/symedit/textedit"
)

// textFixture copies testdata/src/REL into a new folder as NAME (its base
// name when "") and opens a workspace there (Root and Dir). It returns the
// workspace, the copy's absolute path and its content.
func textFixture(t *testing.T, rel, name string) (*ops.Workspace, string, []byte) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "src", rel))
	if err != nil {
		t.Fatal(err)
	}
	if name == "" {
		name = filepath.Base(rel)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, path, src
}

// textSameFile fails unless the file at path holds want, byte for byte.
func textSameFile(t *testing.T, path string, want []byte, what string) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: the file changed", what)
	}
}

// textRefused checks a refusal: err is the result's *Error with code, the
// result says not ok and not written.
func textRefused(t *testing.T, res *ops.Result, err error, code ops.Code, what string) *ops.Error {
	t.Helper()
	var oe *ops.Error
	if !errors.As(err, &oe) {
		t.Fatalf("%s: error %v (%T), want an *ops.Error %s", what, err, err, code)
	}
	if oe.Code != code {
		t.Errorf("%s: code %s, want %s: %v", what, oe.Code, code, err)
	}
	if res.OK || res.Written || res.Error != oe {
		t.Errorf("%s: result ok %v, written %v, error %p, want false, false, %p", what, res.OK, res.Written, res.Error, oe)
	}
	return oe
}

// textSHA is the SHA-256 of b in hexadecimal, as expect_sha256 takes it.
func textSHA(b []byte) ops.SHA256 {
	s := sha256.Sum256(b)
	return ops.SHA256(hex.EncodeToString(s[:]))
}

// TestEditSequential runs three edits on CPython's process.py where the
// third one's old_text exists only once the first two have run: the
// summaries give original line numbers, and the file is written.
func TestEditSequential(t *testing.T) {
	w, path, orig := textFixture(t, "python/process.py", "")
	var edits ops.TextEdits
	if err := json.Unmarshal([]byte(`{"edits": [
		{"old_text": "self._check_closed()", "new_text": "self._assert_open()", "occurrences": 8},
		{"old_text": "def _check_closed(self):", "new_text": "def _assert_open(self):"},
		{"old_text": "_assert_open(", "new_text": "_ensure_open(", "occurrences": 9}]}`), &edits); err != nil {
		t.Fatal(err)
	}
	res, err := w.Edit(context.Background(), ops.EditRequest{Path: "process.py", Edits: edits})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || !res.Changed || !res.Written || res.DryRun || res.Diff != "" || res.Error != nil {
		t.Errorf("result %+v", res.Result)
	}
	if res.TotalReplacements != 18 || len(res.EditsApplied) != 3 {
		t.Fatalf("%d replacements, %d summaries", res.TotalReplacements, len(res.EditsApplied))
	}
	if got, want := res.EditsApplied[1].Lines, []int{105}; !reflect.DeepEqual(got, want) {
		t.Errorf("edit 2 at lines %v, want %v", got, want)
	}
	if got, want := res.EditsApplied[2].Lines, []int{105, 120, 138, 145, 152, 163, 235, 245, 259}; !reflect.DeepEqual(got, want) {
		t.Errorf("edit 3 at lines %v, want %v", got, want)
	}
	if res.Summary != "applied 3 edit(s), 18 replacement(s)" {
		t.Errorf("summary %q", res.Summary)
	}
	want := strings.ReplaceAll(string(orig), "_check_closed(", "_ensure_open(")
	textSameFile(t, path, []byte(want), "after the edits")
	if res.Syntax == nil || !res.Syntax.Checked || res.Syntax.Language != "python" {
		t.Errorf("syntax %+v", res.Syntax)
	}
}

// TestEditDryRun: the diff, the summary and nothing written.
func TestEditDryRun(t *testing.T) {
	w, path, orig := textFixture(t, "go/atomic_type.go", "")
	res, err := w.Edit(context.Background(), ops.EditRequest{Path: "atomic_type.go",
		Edits:        ops.TextEdits{{OldText: "func b32(b bool) uint32 {", NewText: "func b32(b bool) uint32 { // 0 or 1"}},
		WriteOptions: ops.WriteOptions{DryRun: true}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || !res.Changed || res.Written || !res.DryRun {
		t.Errorf("result %+v", res.Result)
	}
	if !strings.HasPrefix(res.Diff, "--- a/atomic_type.go\n+++ b/atomic_type.go\n") ||
		!strings.Contains(res.Diff, "\n-func b32(b bool) uint32 {\n+func b32(b bool) uint32 { // 0 or 1\n") {
		t.Errorf("diff:\n%s", res.Diff)
	}
	textSameFile(t, path, orig, "dry run")
}

// TestEditLevel: a block sent dedented by four columns is refused at
// exact with the level that would take it, and applies at indent with
// new_text shifted.
func TestEditLevel(t *testing.T) {
	w, path, orig := textFixture(t, "python/process.py", "")
	edits := ops.TextEdits{{OldText: "    self._check_closed()\n    self._popen.kill()\n",
		NewText: "    self._check_closed()\n    self._popen.kill()\n    self._killed = True\n"}}
	res, err := w.Edit(context.Background(), ops.EditRequest{Path: "process.py", Edits: edits})
	oe := textRefused(t, &res.Result, err, ops.CodeNoMatch, "exact")
	if oe.Hint == nil || oe.Hint.Line != 145 || oe.Hint.Level != match.Indent {
		t.Errorf("hint %+v", oe.Hint)
	}
	if len(oe.SuggestedFixes) == 0 || oe.SuggestedFixes[0].Type != textedit.TextFixMatchLevel {
		t.Errorf("fixes %+v", oe.SuggestedFixes)
	}
	textSameFile(t, path, orig, "refused at exact")
	res, err = w.Edit(context.Background(), ops.EditRequest{Path: "process.py", Edits: edits, Match: "indent"})
	if err != nil {
		t.Fatal(err)
	}
	if s := res.EditsApplied[0]; s.Match != match.Indent || s.Shift == nil {
		t.Errorf("summary %+v", s)
	}
	if !strings.Contains(res.Summary, "edit 1 at line 145 matched at indent +4 spaces") {
		t.Errorf("summary %q", res.Summary)
	}
	got, _ := os.ReadFile(path)
	if !strings.Contains(string(got), "\n        self._popen.kill()\n        self._killed = True\n") {
		t.Error("new_text not written at the file's indentation")
	}
}

// TestEditRefusals: every refusal, in a real run and in a dry run, leaves
// the file byte-identical, with the code and the fields that explain it.
func TestEditRefusals(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		req   ops.EditRequest
		code  ops.Code
		check func(t *testing.T, e *ops.Error)
	}{
		{name: "no match", code: ops.CodeNoMatch,
			req: ops.EditRequest{Edits: ops.TextEdits{{OldText: "Assert self._popen is None", NewText: "x"}}},
			check: func(t *testing.T, e *ops.Error) {
				near, ok := e.Nearest.([]textedit.SimilarContent)
				if !ok || len(near) == 0 || near[0].LineNumber != 121 || near[0].Match != "assert self._popen is None" {
					t.Errorf("nearest %#v", e.Nearest)
				}
				if e.SearchText != "Assert self._popen is None" || e.ExpectedOccurrences != 1 || e.ActualOccurrences != 0 || e.Chunk != 1 {
					t.Errorf("fields %+v", e)
				}
				if e.Message != "edit 1 of 1 failed: old_text was not found in the text." {
					t.Errorf("message %q", e.Message)
				}
				if !strings.Contains(e.Error(), "Line 121 (similarity 0.96)") {
					t.Errorf("full text:\n%s", e.Error())
				}
				if len(e.SuggestedFixes) == 0 || e.SuggestedFixes[0].Type != textedit.TextFixUseExactText {
					t.Errorf("fixes %+v", e.SuggestedFixes)
				}
			}},
		{name: "wrong count", code: ops.CodeWrongCount,
			req: ops.EditRequest{Edits: ops.TextEdits{{OldText: "self._check_closed()", NewText: "x()"}}},
			check: func(t *testing.T, e *ops.Error) {
				lines := []int{120, 138, 145, 152, 163, 235, 245, 259}
				if !reflect.DeepEqual(e.Candidates, lines) || len(e.Matches) != 8 || e.ActualOccurrences != 8 || e.ExpectedOccurrences != 1 {
					t.Errorf("candidates %v, %d matches, %d of %d", e.Candidates, len(e.Matches), e.ActualOccurrences, e.ExpectedOccurrences)
				}
				if m := e.Matches[0]; m.LineNumber != 120 || m.ColumnStart != 9 || m.LineContent != "        self._check_closed()" {
					t.Errorf("first match %+v", m)
				}
				if len(e.SuggestedFixes) == 0 || e.SuggestedFixes[0].Type != textedit.TextFixAdjustCount {
					t.Errorf("fixes %+v", e.SuggestedFixes)
				}
			}},
		{name: "the second edit fails", code: ops.CodeWrongCount,
			req: ops.EditRequest{Edits: ops.TextEdits{
				{OldText: "def _check_closed(self):", NewText: "def _assert_open(self):"},
				{OldText: "self._check_closed()", NewText: "self._assert_open()"}}},
			check: func(t *testing.T, e *ops.Error) {
				if e.Chunk != 2 || !strings.HasPrefix(e.Message, "edit 2 of 2 failed") {
					t.Errorf("edit %d: %q", e.Chunk, e.Message)
				}
			}},
		{name: "no edits", code: ops.CodeInvalidInput, req: ops.EditRequest{}},
		{name: "empty old_text", code: ops.CodeInvalidInput, req: ops.EditRequest{Edits: ops.TextEdits{{NewText: "x"}}}},
		{name: "negative occurrences", code: ops.CodeInvalidInput,
			req: ops.EditRequest{Edits: ops.TextEdits{{OldText: "self", NewText: "me", Occurrences: -1}}}},
		{name: "unknown level", code: ops.CodeUsage,
			req: ops.EditRequest{Edits: ops.TextEdits{{OldText: "ORIGINAL_DIR = None", NewText: "x = 1"}}, Match: "fuzzy"}},
		{name: "unknown check mode", code: ops.CodeUsage,
			req: ops.EditRequest{Edits: ops.TextEdits{{OldText: "ORIGINAL_DIR = None", NewText: "x = 1"}}, WriteOptions: ops.WriteOptions{Check: "lax"}}},
		{name: "malformed sha256", code: ops.CodeUsage,
			req: ops.EditRequest{Edits: ops.TextEdits{{OldText: "ORIGINAL_DIR = None", NewText: "x = 1"}}, WriteOptions: ops.WriteOptions{ExpectSHA256: "abc"}}},
		{name: "other sha256", code: ops.CodeChanged,
			req: ops.EditRequest{Edits: ops.TextEdits{{OldText: "ORIGINAL_DIR = None", NewText: "x = 1"}}, WriteOptions: ops.WriteOptions{ExpectSHA256: textSHA([]byte("other"))}}},
		{name: "syntax error added", code: ops.CodeSyntax,
			req: ops.EditRequest{Edits: ops.TextEdits{{OldText: "    ORIGINAL_DIR = None\n", NewText: "    ORIGINAL_DIR = (None\n"}}},
			check: func(t *testing.T, e *ops.Error) {
				var se *ops.SyntaxError
				if !errors.As(e, &se) || len(se.Report.New) == 0 {
					t.Errorf("not a *SyntaxError with new problems: %v", e)
				}
			}},
		{name: "binary new text", code: ops.CodeError,
			req: ops.EditRequest{Edits: ops.TextEdits{{OldText: "ORIGINAL_DIR = None", NewText: "x = '\x00'"}}}},
		{name: "empty path", code: ops.CodeUsage,
			req: ops.EditRequest{Path: "-", Edits: ops.TextEdits{{OldText: "a", NewText: "b"}}}},
		{name: "no such file", code: ops.CodeError,
			req: ops.EditRequest{Path: "nosuch.py", Edits: ops.TextEdits{{OldText: "a", NewText: "b"}}}},
		{name: "outside the root", code: ops.CodeOutsideRoot,
			req: ops.EditRequest{Path: "../process.py", Edits: ops.TextEdits{{OldText: "ORIGINAL_DIR = None", NewText: "x = 1"}}}},
	} {
		for _, dry := range []bool{false, true} {
			name := tc.name
			if dry {
				name += " (dry run)"
			}
			t.Run(name, func(t *testing.T) {
				w, path, orig := textFixture(t, "python/process.py", "")
				// A copy outside the root, for "outside the root".
				if err := os.WriteFile(filepath.Join(filepath.Dir(filepath.Dir(path)), "process.py"), orig, 0o644); err != nil {
					t.Fatal(err)
				}
				req := tc.req
				switch req.Path {
				case "":
					req.Path = "process.py"
				case "-":
					req.Path = ""
				}
				req.DryRun = dry
				res, err := w.Edit(ctx, req)
				e := textRefused(t, &res.Result, err, tc.code, name)
				if res.DryRun != dry || res.Path != req.Path {
					t.Errorf("dry_run %v, path %q", res.DryRun, res.Path)
				}
				if tc.check != nil {
					tc.check(t, e)
				}
				textSameFile(t, path, orig, name)
				textSameFile(t, filepath.Join(filepath.Dir(filepath.Dir(path)), "process.py"), orig, name+", the file outside the root")
			})
		}
	}
}

// TestEditRefusedDryRunDiff: a dry run refused by the syntax guard keeps
// its diff (a dry run promises the diff and the check results).
func TestEditRefusedDryRunDiff(t *testing.T) {
	w, path, orig := textFixture(t, "go/atomic_type.go", "")
	res, err := w.Edit(context.Background(), ops.EditRequest{Path: "atomic_type.go",
		Edits:        ops.TextEdits{{OldText: "func b32(b bool) uint32 {", NewText: "func b32(b bool) uint32 {{"}},
		WriteOptions: ops.WriteOptions{DryRun: true}})
	textRefused(t, &res.Result, err, ops.CodeSyntax, "dry run")
	if !strings.Contains(res.Diff, "+func b32(b bool) uint32 {{\n") || res.Syntax == nil || res.Syntax.After <= res.Syntax.Before {
		t.Errorf("diff %q, syntax %+v", res.Diff, res.Syntax)
	}
	textSameFile(t, path, orig, "refused dry run")
	// With --check=warn it is written, and the result says what it added.
	res, err = w.Edit(context.Background(), ops.EditRequest{Path: "atomic_type.go",
		Edits:        ops.TextEdits{{OldText: "func b32(b bool) uint32 {", NewText: "func b32(b bool) uint32 {{"}},
		WriteOptions: ops.WriteOptions{Check: "warn"}})
	if err != nil || !res.Written || res.Syntax == nil || len(res.Syntax.New) == 0 {
		t.Errorf("warn: %v, %+v", err, res.Syntax)
	}
}

// TestTextEditsJSON: the edits unmarshal as textedit.ParseTextEdits reads
// them, strictly, and a result marshals as the envelope.
func TestTextEditsJSON(t *testing.T) {
	var req ops.EditRequest
	if err := json.Unmarshal([]byte(`{"path": "a.py", "edits": [{"old_text": "a", "new_text": "b"}, {"old_text": "c", "new_text": "", "occurrences": 2}], "dry_run": true}`), &req); err != nil {
		t.Fatal(err)
	}
	want := ops.EditRequest{Path: "a.py", Edits: ops.TextEdits{{OldText: "a", NewText: "b", Occurrences: 1}, {OldText: "c", Occurrences: 2}},
		WriteOptions: ops.WriteOptions{DryRun: true}}
	if !reflect.DeepEqual(req, want) {
		t.Errorf("got %+v, want %+v", req, want)
	}
	for _, bad := range []string{
		`[]`,
		`[{"old_text": "a"}]`,
		`[{"old_text": "", "new_text": "b"}]`,
		`[{"old_text": "a", "new_txt": "b"}]`,
		`[{"old_text": "a", "new_text": "b", "occurrences": 0}]`,
		`[{"old_text": "a", "new_text": "b", "occurrences": 1.5}]`,
		`[{"old_text": "a", "new_text": null}]`,
		`[{"old_text": "a", "old_text": "c", "new_text": "b"}]`,
		`{"edit": []}`,
	} {
		var edits ops.TextEdits
		err := json.Unmarshal([]byte(bad), &edits)
		var ie *textedit.TextEditInputError
		if !errors.As(err, &ie) || ops.CodeOf(err) != ops.CodeInvalidInput {
			t.Errorf("%s: error %v (%T), want a *textedit.TextEditInputError", bad, err, err)
		}
	}

	w, _, _ := textFixture(t, "python/process.py", "")
	res, err := w.Edit(context.Background(), ops.EditRequest{Path: "process.py", Edits: ops.TextEdits{{OldText: "self._check_closed()", NewText: "x()"}}})
	if err == nil {
		t.Fatal("not refused")
	}
	b, _ := json.Marshal(res)
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"ok", "path", "changed", "written", "dry_run", "error", "total_replacements"} {
		if _, ok := got[k]; !ok {
			t.Errorf("no %q in %s", k, b)
		}
	}
	e := got["error"].(map[string]any)
	for _, k := range []string{"code", "chunk", "message", "candidates", "matches", "search_text", "expected_occurrences", "actual_occurrences", "suggested_fixes"} {
		if _, ok := e[k]; !ok {
			t.Errorf("no error.%q in %s", k, b)
		}
	}
	if _, ok := got["isError"]; ok {
		t.Errorf("isError in the result, the shape before the envelope: %s", b)
	}
}

// TestEditConcurrentOneFile runs twelve edits of one file at once on one
// Workspace, each anchored on a different line of CPython's process.py
// (concurrent edit calls on one file with distinct anchors must each
// apply or be refused; none may be reported applied and then lost).
// Every call applies or is refused (CHANGED or LOCKED: another writer came
// first; NO_MATCH), every applied edit is in the final file, and, as the
// per-file lock serializes the calls inside the process, all of them
// apply.
func TestEditConcurrentOneFile(t *testing.T) {
	w, path, orig := textFixture(t, "python/process.py", "")
	anchors := []string{
		"        count = next(_process_counter)\n",
		"        self._identity = _current_process._identity + (count,)\n",
		"        self._config = _current_process._config.copy()\n",
		"        self._parent_pid = os.getpid()\n",
		"        self._parent_name = _current_process.name\n",
		"        self._target = target\n",
		"        self._args = tuple(args)\n",
		"        self._kwargs = dict(kwargs)\n",
		"        self._popen = self._Popen(self)\n",
		"        self._sentinel = self._popen.sentinel\n",
		"        res = self._popen.wait(timeout)\n",
		"        returncode = self._popen.poll()\n",
	}
	for _, a := range anchors {
		if n := strings.Count(string(orig), a); n != 1 {
			t.Fatalf("%q occurs %d times in the fixture, want once", a, n)
		}
	}
	marked := func(i int) string {
		return strings.TrimSuffix(anchors[i], "\n") + "  # edit " + string(rune('a'+i)) + "\n"
	}
	results := make([]*ops.EditResult, len(anchors))
	errs := make([]error, len(anchors))
	start := make(chan struct{})
	done := make(chan int)
	for i := range anchors {
		go func() {
			<-start
			results[i], errs[i] = w.Edit(context.Background(), ops.EditRequest{Path: "process.py",
				Edits: ops.TextEdits{{OldText: anchors[i], NewText: marked(i)}}})
			done <- i
		}()
	}
	close(start)
	for range anchors {
		<-done
	}
	final, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	applied := 0
	for i := range anchors {
		switch code := ops.CodeOf(errs[i]); {
		case errs[i] == nil:
			applied++
			if !results[i].OK || !results[i].Written {
				t.Errorf("edit %d: no error but result %+v", i, results[i].Result)
			}
			if !strings.Contains(string(final), marked(i)) {
				t.Errorf("edit %d was reported applied but is not in the file (lost)", i)
			}
		case code == ops.CodeChanged || code == ops.CodeLocked || code == ops.CodeNoMatch:
			if results[i].OK || results[i].Written {
				t.Errorf("edit %d: refused (%v) but result %+v", i, errs[i], results[i].Result)
			}
		default:
			t.Errorf("edit %d: %v", i, errs[i])
		}
	}
	if applied != len(anchors) {
		t.Errorf("%d of %d edits applied: the per-file lock should serialize them", applied, len(anchors))
	}
	// The final file is the original with exactly the applied edits.
	want := string(orig)
	for i := range anchors {
		if errs[i] == nil {
			want = strings.Replace(want, anchors[i], marked(i), 1)
		}
	}
	if string(final) != want {
		t.Error("the final file is not the original with the applied edits")
	}
}

// TestRefusalQuotesSentTextBounded: a refusal quotes what the caller sent
// (an edit's old_text, a replace's search text) by its first and last
// bytes, never whole: a megabyte sent is not a megabyte printed, in the
// text or in the JSON. The file is byte-identical.
func TestRefusalQuotesSentTextBounded(t *testing.T) {
	w, path, src := textFixture(t, "python/process.py", "")
	const limit = 8 << 10 // a few KB, whatever was sent
	long := strings.Repeat("x = 'not in the file'  # ", 1<<20/25)
	manyLines := strings.Repeat("    self._popen = None  # not in the file\n", 1<<20/42)
	twice := "        self._check_closed()\n" + strings.Repeat("        pass\n", 1<<20/13)
	for _, tt := range []struct {
		name string
		old  string
		occ  int
		code ops.Code
	}{
		{"one long line", long, 0, ops.CodeNoMatch},
		{"many lines", manyLines, 0, ops.CodeNoMatch},
		{"wrong count", "        self._check_closed()\n", 1, ops.CodeWrongCount},
		{"long, starting like the file", twice, 0, ops.CodeNoMatch},
	} {
		req := ops.EditRequest{Path: path, Edits: ops.TextEdits{{OldText: tt.old, NewText: "y = 1\n"}}}
		if tt.occ > 0 {
			req.Edits[0].Occurrences = tt.occ
		}
		res, err := w.Edit(context.Background(), req)
		oe := textRefused(t, &res.Result, err, tt.code, tt.name)
		js, jerr := json.Marshal(res)
		if jerr != nil {
			t.Fatal(jerr)
		}
		if n := len(err.Error()); n > limit {
			t.Errorf("%s: the refusal's text is %d bytes, over %d", tt.name, n, limit)
		}
		if len(js) > limit {
			t.Errorf("%s: the result's JSON is %d bytes, over %d", tt.name, len(js), limit)
		}
		if len(tt.old) > 4*textedit.MaxSentShown && (oe.SearchTextOmitted == 0 || !strings.HasPrefix(oe.SearchText, tt.old[:2*textedit.MaxSentShown]) ||
			!strings.HasSuffix(oe.SearchText, tt.old[len(tt.old)-textedit.MaxSentShown:]) ||
			!strings.Contains(oe.SearchText, fmt.Sprintf("[... %d bytes left out ...]", oe.SearchTextOmitted))) {
			t.Errorf("%s: search_text %.80q... (%d bytes), omitted %d", tt.name, oe.SearchText, len(oe.SearchText), oe.SearchTextOmitted)
		}
		textSameFile(t, path, src, tt.name)
	}

	// replace: the search text, in the message of NO_MATCH_TEXT and COUNT.
	for _, req := range []ops.ReplaceRequest{
		{Search: long, Replacement: "x", Paths: []string{path}},
		{Search: "self", Replacement: "this", Paths: []string{path}, Expect: replaceIntp(1)},
	} {
		res, err := w.Replace(context.Background(), req)
		if err == nil {
			t.Fatalf("replace %.20q: applied", req.Search)
		}
		js, _ := json.Marshal(res)
		if n := len(err.Error()); n > limit || len(js) > limit {
			t.Errorf("replace %.20q: text %d bytes, JSON %d bytes, over %d", req.Search, n, len(js), limit)
		}
		textSameFile(t, path, src, "replace")
	}
}

// TestReceiptChainsEdits: a writing result carries the file's SHA-256
// before and after and its new line count, equal to the file on disk, so
// the next edit's expect_sha256 is the last result's sha256_after: no
// read between edits. A dry run's receipt is the content it would write.
func TestReceiptChainsEdits(t *testing.T) {
	w, path, src := textFixture(t, "python/process.py", "")
	sum := func(b []byte) ops.SHA256 {
		s := sha256.Sum256(b)
		return ops.SHA256(hex.EncodeToString(s[:]))
	}
	edit1 := ops.EditRequest{Path: path, Edits: ops.TextEdits{{OldText: "import os\n", NewText: "import os\nimport zzz_receipt\n"}}}
	dry := edit1
	dry.DryRun = true
	res, err := w.Edit(context.Background(), dry)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(string(src), "import os\n", "import os\nimport zzz_receipt\n", 1)
	if ops.SHA256(res.SHA256Before) != sum(src) || ops.SHA256(res.SHA256After) != sum([]byte(want)) || res.Lines != strings.Count(want, "\n") {
		t.Errorf("dry run receipt %s -> %s, %d lines; want %s -> %s, %d", res.SHA256Before, res.SHA256After, res.Lines, sum(src), sum([]byte(want)), strings.Count(want, "\n"))
	}
	textSameFile(t, path, src, "dry run")
	res, err = w.Edit(context.Background(), edit1)
	if err != nil {
		t.Fatal(err)
	}
	disk, _ := os.ReadFile(path)
	if ops.SHA256(res.SHA256After) != sum(disk) || res.Lines != strings.Count(string(disk), "\n") {
		t.Errorf("receipt %s, %d lines; the file has %s, %d lines", res.SHA256After, res.Lines, sum(disk), strings.Count(string(disk), "\n"))
	}
	// The next edit, expecting the receipt's hash, applies; one expecting
	// the hash before the first edit is refused as CHANGED.
	next := ops.EditRequest{Path: path, Edits: ops.TextEdits{{OldText: "import zzz_receipt\n", NewText: "import zzz_receipt  # chained\n"}}}
	stale := next
	stale.ExpectSHA256 = ops.SHA256(res.SHA256Before)
	if _, err := w.Edit(context.Background(), stale); ops.CodeOf(err) != ops.CodeChanged {
		t.Errorf("expecting the old hash: %v, want CHANGED", err)
	}
	textSameFile(t, path, disk, "stale hash")
	next.ExpectSHA256 = ops.SHA256(res.SHA256After)
	if _, err := w.Edit(context.Background(), next); err != nil {
		t.Errorf("expecting the receipt's hash: %v", err)
	}
}

// TestSymbolLock: show gives the file's and the symbol's SHA-256; a chunk
// or replace_body expecting the symbol's hash applies after an edit
// elsewhere in the file (which breaks the file's hash) and is refused
// (CHANGED, the file byte-identical) once the symbol itself changed.
func TestSymbolLock(t *testing.T) {
	w, path, src := textFixture(t, "python/process.py", "")
	ctx := context.Background()
	loc := path + "::BaseProcess/start"
	shown, err := w.Show(ctx, ops.ShowRequest{Location: loc})
	if err != nil {
		t.Fatal(err)
	}
	fileSum, symSum := sha256.Sum256(src), sha256.Sum256([]byte(shown.Text))
	if shown.SHA256 != hex.EncodeToString(fileSum[:]) || shown.SymbolSHA256 != hex.EncodeToString(symSum[:]) {
		t.Fatalf("show: sha256 %s, symbol_sha256 %s", shown.SHA256, shown.SymbolSHA256)
	}
	lock := ops.SHA256(shown.SymbolSHA256)
	// Another function changes: the file's hash no longer holds, the
	// symbol's does.
	if _, err := w.Edit(ctx, ops.EditRequest{Path: path, Edits: ops.TextEdits{{OldText: "    def terminate(self):\n", NewText: "    def terminate(self):  # SIGTERM\n"}}}); err != nil {
		t.Fatal(err)
	}
	chunk := ops.Chunks{{ContextBefore: []string{"        self._check_closed()"}, OldLines: []string{"        assert self._popen is None, 'cannot start a process twice'"},
		NewLines: []string{"        assert self._popen is None, 'started twice'"}, ContextAfter: []string{"        assert self._parent_pid == os.getpid(), \\"}}}
	if _, err := w.Chunk(ctx, ops.ChunkRequest{Location: loc, Chunks: chunk, WriteOptions: ops.WriteOptions{ExpectSHA256: ops.SHA256(shown.SHA256)}}); ops.CodeOf(err) != ops.CodeChanged {
		t.Errorf("the file's old hash: %v, want CHANGED", err)
	}
	if _, err := w.Chunk(ctx, ops.ChunkRequest{Location: loc, Chunks: chunk, ExpectSymbolSHA256: lock}); err != nil {
		t.Fatalf("the symbol's hash after an edit elsewhere: %v", err)
	}
	// The symbol itself changed: both operations are refused.
	before, _ := os.ReadFile(path)
	again := ops.Chunks{{ContextBefore: []string{"        self._check_closed()"}, OldLines: []string{"        assert self._popen is None, 'started twice'"},
		NewLines: []string{"        assert self._popen is None, 'started again'"}, ContextAfter: []string{"        assert self._parent_pid == os.getpid(), \\"}}}
	if _, err := w.Chunk(ctx, ops.ChunkRequest{Location: loc, Chunks: again, ExpectSymbolSHA256: lock}); ops.CodeOf(err) != ops.CodeChanged || !strings.Contains(err.Error(), "the symbol BaseProcess/start") {
		t.Errorf("chunk on the changed symbol: %v, want CHANGED naming it", err)
	}
	if _, err := w.ReplaceBody(ctx, ops.SymbolTextRequest{Location: loc, Text: shown.Text, ExpectSymbolSHA256: lock}); ops.CodeOf(err) != ops.CodeChanged {
		t.Errorf("replace_body on the changed symbol: %v, want CHANGED", err)
	}
	textSameFile(t, path, before, "symbol lock refusals")
	if _, err := w.ReplaceBody(ctx, ops.SymbolTextRequest{Location: loc, Text: shown.Text, ExpectSymbolSHA256: "abc"}); ops.CodeOf(err) != ops.CodeUsage {
		t.Errorf("a malformed symbol hash: %v, want USAGE", err)
	}
	textSameFile(t, path, before, "malformed symbol hash")
}
