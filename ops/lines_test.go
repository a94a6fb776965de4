package ops_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/ops"
)

// textIntp returns a pointer to n (a line edit's insert_after).
func textIntp(n int) *int { return &n }

// TestLines replaces, inserts and deletes lines of Go's sync/atomic
// type.go at once, every number referring to the file as it was.
func TestLines(t *testing.T) {
	w, path, orig := textFixture(t, "go/atomic_type.go", "")
	lines := strings.SplitAfter(string(orig), "\n")
	var req ops.LinesRequest
	if err := json.Unmarshal([]byte(`{"path": "atomic_type.go", "edits": [
		{"start_line": 10, "end_line": 12, "new_content": "// replaced\n"},
		{"insert_after": 0, "new_content": "// top"},
		{"start_line": 20, "end_line": 20, "new_content": ""}]}`), &req); err != nil {
		t.Fatal(err)
	}
	res, err := w.Lines(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || !res.Changed || !res.Written || res.EditsApplied != 3 || res.Summary != "applied 3 line edit(s)" {
		t.Errorf("result %+v", res)
	}
	var want strings.Builder
	want.WriteString("// top\n")
	for i, l := range lines {
		switch n := i + 1; {
		case n == 10:
			want.WriteString("// replaced\n")
		case n == 11, n == 12, n == 20:
		default:
			want.WriteString(l)
		}
	}
	textSameFile(t, path, []byte(want.String()), "after the line edits")
}

// TestLinesDryRun: the diff and nothing written.
func TestLinesDryRun(t *testing.T) {
	w, path, orig := textFixture(t, "go/atomic_type.go", "")
	res, err := w.Lines(context.Background(), ops.LinesRequest{Path: "atomic_type.go",
		Edits: ops.LineEdits{{InsertAfter: textIntp(0), NewContent: "// top"}}, WriteOptions: ops.WriteOptions{DryRun: true}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || res.Written || !res.DryRun || !strings.Contains(res.Diff, "@@ -1,3 +1,4 @@\n+// top\n") {
		t.Errorf("result %+v", res.Result)
	}
	textSameFile(t, path, orig, "dry run")
}

// TestLinesRefusals: every refusal, in a real run and in a dry run,
// leaves the file byte-identical. Line edits built in Go are held to the
// parser's rules.
func TestLinesRefusals(t *testing.T) {
	for _, tc := range []struct {
		name  string
		req   ops.LinesRequest
		code  ops.Code
		check func(t *testing.T, e *ops.Error)
	}{
		{name: "past the end", code: ops.CodeLineRange,
			req: ops.LinesRequest{Edits: ops.LineEdits{{StartLine: 1, EndLine: 1, NewContent: "x"}, {StartLine: 250, EndLine: 256, NewContent: ""}}},
			check: func(t *testing.T, e *ops.Error) {
				if e.Message != "edit 2: lines 250-256 are outside atomic_type.go, which has 255 lines" {
					t.Errorf("message %q", e.Message)
				}
			}},
		{name: "insert past the end", code: ops.CodeLineRange,
			req: ops.LinesRequest{Edits: ops.LineEdits{{InsertAfter: textIntp(256), NewContent: "x"}}}},
		{name: "overlap", code: ops.CodeLineRange,
			req: ops.LinesRequest{Edits: ops.LineEdits{{StartLine: 10, EndLine: 12, NewContent: "a"}, {StartLine: 12, EndLine: 14, NewContent: "b"}}},
			check: func(t *testing.T, e *ops.Error) {
				if e.Message != "edits 1 and 2 overlap: lines 10-12 and lines 12-14" {
					t.Errorf("message %q", e.Message)
				}
			}},
		{name: "no edits", code: ops.CodeInvalidInput, req: ops.LinesRequest{}},
		{name: "line 0", code: ops.CodeInvalidInput,
			req: ops.LinesRequest{Edits: ops.LineEdits{{StartLine: 0, EndLine: 3, NewContent: "x"}}}},
		{name: "end before start", code: ops.CodeInvalidInput,
			req: ops.LinesRequest{Edits: ops.LineEdits{{StartLine: 12, EndLine: 10, NewContent: "x"}}},
			check: func(t *testing.T, e *ops.Error) {
				if !strings.Contains(e.Message, `"end_line": end_line 10 is before start_line 12`) {
					t.Errorf("message %q", e.Message)
				}
			}},
		{name: "both forms", code: ops.CodeInvalidInput,
			req: ops.LinesRequest{Edits: ops.LineEdits{{StartLine: 1, EndLine: 1, InsertAfter: textIntp(1), NewContent: "x"}}}},
		{name: "negative insert_after", code: ops.CodeInvalidInput,
			req: ops.LinesRequest{Edits: ops.LineEdits{{InsertAfter: textIntp(-1), NewContent: "x"}}}},
		{name: "syntax error added", code: ops.CodeSyntax,
			req: ops.LinesRequest{Edits: ops.LineEdits{{InsertAfter: textIntp(0), NewContent: "func {"}}}},
		{name: "binary content", code: ops.CodeError,
			req: ops.LinesRequest{Edits: ops.LineEdits{{InsertAfter: textIntp(0), NewContent: "// \x00"}}}},
		{name: "other sha256", code: ops.CodeChanged,
			req: ops.LinesRequest{Edits: ops.LineEdits{{InsertAfter: textIntp(0), NewContent: "// x"}}, WriteOptions: ops.WriteOptions{ExpectSHA256: textSHA(nil)}}},
		{name: "no such file", code: ops.CodeError,
			req: ops.LinesRequest{Path: "nosuch.go", Edits: ops.LineEdits{{InsertAfter: textIntp(0), NewContent: "// x"}}}},
		{name: "outside the root", code: ops.CodeOutsideRoot,
			req: ops.LinesRequest{Path: "/etc/passwd", Edits: ops.LineEdits{{InsertAfter: textIntp(0), NewContent: "# x"}}}},
	} {
		for _, dry := range []bool{false, true} {
			name := tc.name
			if dry {
				name += " (dry run)"
			}
			t.Run(name, func(t *testing.T) {
				w, path, orig := textFixture(t, "go/atomic_type.go", "")
				req := tc.req
				if req.Path == "" {
					req.Path = "atomic_type.go"
				}
				req.DryRun = dry
				res, err := w.Lines(context.Background(), req)
				e := textRefused(t, &res.Result, err, tc.code, name)
				if tc.check != nil {
					tc.check(t, e)
				}
				textSameFile(t, path, orig, name)
			})
		}
	}
}

// TestLineEditsJSON: the line edits unmarshal as edit.ParseLineEdits
// reads them, strictly.
func TestLineEditsJSON(t *testing.T) {
	var req ops.LinesRequest
	if err := json.Unmarshal([]byte(`{"path": "a.go", "edits": {"edits": [{"start_line": 2, "end_line": 3, "new_content": "x"}, {"insert_after": 0, "new_content": ""}]}}`), &req); err != nil {
		t.Fatal(err)
	}
	want := ops.LineEdits{{StartLine: 2, EndLine: 3, NewContent: "x"}, {InsertAfter: textIntp(0)}}
	if !reflect.DeepEqual(req.Edits, want) {
		t.Errorf("got %+v, want %+v", req.Edits, want)
	}
	for _, bad := range []string{
		`[]`,
		`[{"start_line": 1, "end_line": 1}]`,
		`[{"start_line": 1, "end_line": 1, "new_contnt": "x"}]`,
		`[{"start_line": "1", "end_line": 1, "new_content": "x"}]`,
		`[{"start_line": 0, "end_line": 1, "new_content": "x"}]`,
		`[{"start_line": 1, "new_content": "x"}]`,
		`[{"insert_after": null, "new_content": "x"}]`,
		`[{"insert_after": 1, "start_line": 1, "end_line": 1, "new_content": "x"}]`,
	} {
		var edits ops.LineEdits
		err := json.Unmarshal([]byte(bad), &edits)
		var le *edit.LineEditError
		if !errors.As(err, &le) || !le.Input || ops.CodeOf(err) != ops.CodeInvalidInput {
			t.Errorf("%s: error %v (%T), want an input *edit.LineEditError", bad, err, err)
		}
	}
	// A result marshals as the envelope with its own field.
	w, _, _ := textFixture(t, "go/atomic_type.go", "")
	res, _ := w.Lines(context.Background(), ops.LinesRequest{Path: "atomic_type.go",
		Edits: ops.LineEdits{{InsertAfter: textIntp(0), NewContent: "// x"}}, WriteOptions: ops.WriteOptions{DryRun: true}})
	b, _ := json.Marshal(res)
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got["ok"] != true || got["edits_applied"] != 1.0 || got["dry_run"] != true || got["path"] != "atomic_type.go" || got["diff"] == nil {
		t.Errorf("%s", b)
	}
	if _, err := os.Stat("atomic_type.go"); err == nil {
		t.Error("a relative path was taken from the working directory, not the workspace's Dir")
	}
}
