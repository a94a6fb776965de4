package edit_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/symedit/symedit/diff"
	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/files"
	"github.com/symedit/symedit/internal/testfile"
)

// after returns a pointer to n, for LineEdit.InsertAfter.
func after(n int) *int { return &n }

func TestParseLineEditsAccepts(t *testing.T) {
	tests := []struct {
		name, in string
		want     []edit.LineEdit
	}{
		{"array", `[{"start_line": 2, "end_line": 3, "new_content": "x\ny\n"}]`,
			[]edit.LineEdit{{StartLine: 2, EndLine: 3, NewContent: "x\ny\n"}}},
		{"object", `{"edits": [{"start_line": 1, "end_line": 1, "new_content": ""}]}`,
			[]edit.LineEdit{{StartLine: 1, EndLine: 1}}},
		{"surrounding white space", " \n\t[{\"insert_after\": 0, \"new_content\": \"top\"}]\n\n",
			[]edit.LineEdit{{InsertAfter: after(0), NewContent: "top"}}},
		{"several, kept in order", `[
			{"insert_after": 7, "new_content": "a"},
			{"start_line": 5, "end_line": 5, "new_content": "b"},
			{"new_content": "c", "end_line": 2, "start_line": 1}
		]`, []edit.LineEdit{
			{InsertAfter: after(7), NewContent: "a"},
			{StartLine: 5, EndLine: 5, NewContent: "b"},
			{StartLine: 1, EndLine: 2, NewContent: "c"},
		}},
		{"unicode and escapes kept", `[{"start_line": 1, "end_line": 1, "new_content": "\tx = \"é👋\"\r\n"}]`,
			[]edit.LineEdit{{StartLine: 1, EndLine: 1, NewContent: "\tx = \"é👋\"\r\n"}}},
		{"large line numbers are for ApplyLineEdits to judge", `[{"start_line": 900, "end_line": 1000, "new_content": "z"}]`,
			[]edit.LineEdit{{StartLine: 900, EndLine: 1000, NewContent: "z"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := edit.ParseLineEdits([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseLineEdits = %s, want %s", showEdits(got), showEdits(tt.want))
			}
		})
	}
}

func showEdits(es []edit.LineEdit) string {
	var parts []string
	for _, e := range es {
		if e.InsertAfter != nil {
			parts = append(parts, fmt.Sprintf("{after %d: %q}", *e.InsertAfter, e.NewContent))
		} else {
			parts = append(parts, fmt.Sprintf("{%d-%d: %q}", e.StartLine, e.EndLine, e.NewContent))
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func TestParseLineEditsRefuses(t *testing.T) {
	ok := `{"start_line": 1, "end_line": 1, "new_content": "x"}`
	tests := []struct {
		name string
		in   string
		edit int
		key  string
		msg  string // in the message
	}{
		{"unknown key", `[{"start_line": 1, "end_line": 1, "new_content": "x", "line": 3}]`, 1, "line", "unknown key"},
		{"unknown key in the second edit", `[` + ok + `, {"insert_after": 1, "new_content": "x", "content": "y"}]`, 2, "content", "edit 2: \"content\": unknown key"},
		{"key in another case", `[{"Start_Line": 1, "end_line": 1, "new_content": "x"}]`, 1, "Start_Line", "unknown key"},
		{"unknown top-level key", `{"edits": [` + ok + `], "extra": 1}`, 0, "", `unknown field "extra"`},
		{"start_line a string", `[{"start_line": "1", "end_line": 1, "new_content": "x"}]`, 1, "start_line", "want an integer, got a JSON string"},
		{"end_line a fraction", `[{"start_line": 1, "end_line": 1.5, "new_content": "x"}]`, 1, "end_line", "want an integer, got a JSON number"},
		{"start_line 2.0", `[{"start_line": 2.0, "end_line": 2, "new_content": "x"}]`, 1, "start_line", "want an integer, got a JSON number 2.0"},
		{"insert_after a bool", `[{"insert_after": true, "new_content": "x"}]`, 1, "insert_after", "want an integer, got a JSON bool"},
		{"new_content a number", `[{"start_line": 1, "end_line": 1, "new_content": 5}]`, 1, "new_content", "want a string, got a JSON number"},
		{"new_content a list of lines", `[{"start_line": 1, "end_line": 1, "new_content": ["a", "b"]}]`, 1, "new_content", "want a string, got a JSON array"},
		{"missing new_content", `[{"start_line": 1, "end_line": 2}]`, 1, "new_content", `use "" to delete`},
		{"missing new_content in the third edit", `[` + ok + `,` + ok + `, {"insert_after": 3}]`, 3, "new_content", "edit 3: \"new_content\": missing"},
		{"both insert_after and start_line", `[{"insert_after": 1, "start_line": 2, "end_line": 2, "new_content": "x"}]`, 1, "insert_after", "not both"},
		{"insert_after and end_line", `[{"insert_after": 1, "end_line": 2, "new_content": "x"}]`, 1, "insert_after", "not both"},
		{"neither form", `[{"new_content": "x"}]`, 1, "start_line", "or insert_after"},
		{"start_line without end_line", `[{"start_line": 3, "new_content": "x"}]`, 1, "start_line", "give start_line and end_line"},
		{"end_line without start_line", `[{"end_line": 3, "new_content": "x"}]`, 1, "start_line", "give start_line and end_line"},
		{"start_line 0", `[{"start_line": 0, "end_line": 1, "new_content": "x"}]`, 1, "start_line", "must be 1 or more (lines are 1-based), got 0"},
		{"start_line negative", `[{"start_line": -2, "end_line": 1, "new_content": "x"}]`, 1, "start_line", "got -2"},
		{"end_line before start_line", `[{"start_line": 5, "end_line": 4, "new_content": "x"}]`, 1, "end_line", "end_line 4 is before start_line 5"},
		{"negative insert_after", `[{"insert_after": -1, "new_content": "x"}]`, 1, "insert_after", "must be 0 (the top of the file) or a 1-based line number"},
		{"empty array", `[]`, 0, "", "no edits: the list is empty"},
		{"empty edits", `{"edits": []}`, 0, "", "no edits"},
		{"object without edits", `{}`, 0, "", "no edits"},
		{"null", `null`, 0, "", "no edits"},
		{"empty input", ``, 0, "", "want a JSON array of edits"},
		{"not JSON", `start_line=1`, 0, "", "want a JSON array of edits"},
		{"a single edit object", ok, 0, "", `unknown field "start_line"`},
		{"a string", `"1-2: x"`, 0, "", "want a JSON array of edits"},
		{"an edit that is a number", `[1]`, 1, "", "want an object"},
		{"an edit that is null", `[` + ok + `, null]`, 2, "", "edit 2: want an object"},
		{"edits not a list", `{"edits": {"start_line": 1}}`, 0, "", "want a JSON array of edits"},
		{"truncated", `[{"start_line": 1, "end_line": 1, "new_content": "x"}`, 0, "", "want a JSON array of edits"},
		{"trailing data after the array", `[` + ok + `] [` + ok + `]`, 0, "", "want a JSON array of edits"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := edit.ParseLineEdits([]byte(tt.in))
			if got != nil {
				t.Errorf("ParseLineEdits returned edits %s with the error", showEdits(got))
			}
			var le *edit.LineEditError
			if !errors.As(err, &le) {
				t.Fatalf("ParseLineEdits(%s) = %v (%T), want a *LineEditError", tt.in, err, err)
			}
			if !le.Input || le.Edit != tt.edit || le.Key != tt.key {
				t.Errorf("Input %v, Edit %d, Key %q; want true, %d, %q", le.Input, le.Edit, le.Key, tt.edit, tt.key)
			}
			if errors.Is(err, edit.ErrLineRange) {
				t.Errorf("malformed input wraps ErrLineRange: %v", err)
			}
			if !strings.HasPrefix(err.Error(), "invalid line edits: ") || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("message %q, want it to start with \"invalid line edits: \" and contain %q", err, tt.msg)
			}
			if le.Lines != 0 || le.Other != 0 {
				t.Errorf("Lines %d, Other %d set for malformed input", le.Lines, le.Other)
			}
		})
	}
}

// TestParseLineEditsLooseInput holds inputs that ParseLineEdits should
// refuse by its contract (a wrong type, data past the list) but accepted
// when this test was written.
func TestParseLineEditsLooseInput(t *testing.T) {
	ok := `{"start_line": 1, "end_line": 1, "new_content": "x"}`
	tests := []struct {
		name, in, key, bug string
	}{
		{"new_content null", `[{"start_line": 2, "end_line": 3, "new_content": null}]`, "new_content",
			`new_content null is decoded as "" and accepted, so the edit silently deletes lines 2-3; ` +
				`want the type error "want a string, got a JSON null"`},
		{"start_line null", `[{"start_line": null, "end_line": 3, "new_content": "x"}]`, "start_line", ""},
		{"trailing data after the object", `{"edits": [` + ok + `]} {"edits": [` + ok + `]}`, "",
			`the {"edits": [...]} form is read with json.Decoder.Decode, which stops after the first value: ` +
				`data after it is ignored, while the array form refuses it`},
		{"trailing garbage after the object", `{"edits": [` + ok + `]} garbage`, "",
			`data after the {"edits": [...]} object is ignored (json.Decoder.Decode reads one value)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := edit.ParseLineEdits([]byte(tt.in))
			if err == nil && tt.bug != "" {
				t.Fatalf("BUG: ParseLineEdits(%s) = %s, nil: %s", tt.in, showEdits(got), tt.bug)
			}
			var le *edit.LineEditError
			if !errors.As(err, &le) || !le.Input || le.Key != tt.key {
				t.Fatalf("ParseLineEdits(%s) = %s, %v; want an input error for key %q", tt.in, showEdits(got), err, tt.key)
			}
		})
	}
}

func TestApplyLineEdits(t *testing.T) {
	const five = "one\ntwo\nthree\nfour\nfive\n"
	tests := []struct {
		name    string
		content string
		edits   []edit.LineEdit
		want    string
	}{
		{"single line", five, []edit.LineEdit{{StartLine: 2, EndLine: 2, NewContent: "TWO"}},
			"one\nTWO\nthree\nfour\nfive\n"},
		{"range by one line", five, []edit.LineEdit{{StartLine: 2, EndLine: 4, NewContent: "middle"}},
			"one\nmiddle\nfive\n"},
		{"range by more lines", five, []edit.LineEdit{{StartLine: 4, EndLine: 5, NewContent: "a\nb\nc"}},
			"one\ntwo\nthree\na\nb\nc\n"},
		{"several edits against the original numbering", five, []edit.LineEdit{
			{StartLine: 1, EndLine: 1, NewContent: "ONE\nONE-B"},
			{StartLine: 3, EndLine: 3, NewContent: ""},
			{StartLine: 5, EndLine: 5, NewContent: "FIVE"},
		}, "ONE\nONE-B\ntwo\nfour\nFIVE\n"},
		{"several edits in reverse order", five, []edit.LineEdit{
			{StartLine: 5, EndLine: 5, NewContent: "FIVE"},
			{InsertAfter: after(2), NewContent: "after two"},
			{StartLine: 1, EndLine: 1, NewContent: "ONE\nONE-B"},
		}, "ONE\nONE-B\ntwo\nafter two\nthree\nfour\nFIVE\n"},
		{"adjacent ranges", five, []edit.LineEdit{
			{StartLine: 1, EndLine: 2, NewContent: "A"},
			{StartLine: 3, EndLine: 4, NewContent: "B"},
		}, "A\nB\nfive\n"},
		{"insert_after 0 puts lines at the top", five, []edit.LineEdit{{InsertAfter: after(0), NewContent: "# header\n"}},
			"# header\none\ntwo\nthree\nfour\nfive\n"},
		{"insert_after a middle line", five, []edit.LineEdit{{InsertAfter: after(3), NewContent: "3.5"}},
			"one\ntwo\nthree\n3.5\nfour\nfive\n"},
		{"insert_after the last line", five, []edit.LineEdit{{InsertAfter: after(5), NewContent: "six\nseven"}},
			"one\ntwo\nthree\nfour\nfive\nsix\nseven\n"},
		{"insert_after the last line without a final newline", "one\ntwo", []edit.LineEdit{{InsertAfter: after(2), NewContent: "three\n"}},
			"one\ntwo\nthree"},
		{"insert_after 0 in an empty file", "", []edit.LineEdit{{InsertAfter: after(0), NewContent: "first"}},
			"first\n"},
		{"insert_after 0 in a file without a final newline", "only", []edit.LineEdit{{InsertAfter: after(0), NewContent: "top"}},
			"top\nonly"},
		{"delete one line", five, []edit.LineEdit{{StartLine: 3, EndLine: 3, NewContent: ""}},
			"one\ntwo\nfour\nfive\n"},
		{"delete the first lines", five, []edit.LineEdit{{StartLine: 1, EndLine: 2, NewContent: ""}},
			"three\nfour\nfive\n"},
		{"delete everything", five, []edit.LineEdit{{StartLine: 1, EndLine: 5, NewContent: ""}}, ""},
		{"delete the last line without a final newline", "one\ntwo\nthree", []edit.LineEdit{{StartLine: 3, EndLine: 3, NewContent: ""}},
			"one\ntwo"},
		{"delete the only line without a final newline", "only", []edit.LineEdit{{StartLine: 1, EndLine: 1, NewContent: ""}}, ""},
		{"new_content with a trailing newline adds no empty line", five, []edit.LineEdit{{StartLine: 2, EndLine: 2, NewContent: "TWO\n"}},
			"one\nTWO\nthree\nfour\nfive\n"},
		{"new_content with two trailing newlines adds one empty line", five, []edit.LineEdit{{StartLine: 2, EndLine: 2, NewContent: "TWO\n\n"}},
			"one\nTWO\n\nthree\nfour\nfive\n"},
		{"new_content of one newline is one empty line", five, []edit.LineEdit{{StartLine: 2, EndLine: 3, NewContent: "\n"}},
			"one\n\nfour\nfive\n"},
		{"replace the last line without a final newline", "one\ntwo", []edit.LineEdit{{StartLine: 2, EndLine: 2, NewContent: "TWO\nTHREE\n"}},
			"one\nTWO\nTHREE"},
		{"CRLF file gets CRLF lines", "a\r\nb\r\nc\r\n", []edit.LineEdit{
			{StartLine: 2, EndLine: 2, NewContent: "x\ny\n"},
			{InsertAfter: after(3), NewContent: "d"},
		}, "a\r\nx\r\ny\r\nc\r\nd\r\n"},
		{"LF file: CRLF and CR in new_content become LF", five, []edit.LineEdit{{StartLine: 1, EndLine: 1, NewContent: "x\r\ny\rz"}},
			"x\ny\nz\ntwo\nthree\nfour\nfive\n"},
		{"CR file gets CR lines", "a\rb\rc\r", []edit.LineEdit{{StartLine: 2, EndLine: 2, NewContent: "x\ny"}},
			"a\rx\ry\rc\r"},
		{"mixed endings: untouched lines keep theirs, written ones get the dominant", "a\r\nb\nc\nd\r\ne\r\n", []edit.LineEdit{
			{StartLine: 2, EndLine: 2, NewContent: "B"},
			{InsertAfter: after(3), NewContent: "C2"},
		}, "a\r\nB\r\nc\nC2\r\nd\r\ne\r\n"},
		{"BOM kept before an insertion at the top", "\xEF\xBB\xBFa\nb\n", []edit.LineEdit{{InsertAfter: after(0), NewContent: "top"}},
			"\xEF\xBB\xBFtop\na\nb\n"},
		{"insertion right after a replaced range", five, []edit.LineEdit{
			{StartLine: 2, EndLine: 3, NewContent: "TWO-THREE"},
			{InsertAfter: after(3), NewContent: "inserted"},
		}, "one\nTWO-THREE\ninserted\nfour\nfive\n"},
		{"insertion right after a deleted range", five, []edit.LineEdit{
			{InsertAfter: after(3), NewContent: "inserted"},
			{StartLine: 2, EndLine: 3, NewContent: ""},
		}, "one\ninserted\nfour\nfive\n"},
		{"insertion after a deleted unterminated last line", "a\nb", []edit.LineEdit{
			{StartLine: 2, EndLine: 2, NewContent: ""},
			{InsertAfter: after(2), NewContent: "c"},
		}, "a\nc"},
		{"empty insertion changes nothing", five, []edit.LineEdit{{InsertAfter: after(2), NewContent: ""}}, five},
		{"same content changes nothing", five, []edit.LineEdit{{StartLine: 1, EndLine: 5, NewContent: five}}, five},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := edit.NewDocument("f.txt", []byte(tt.content))
			if err != nil {
				t.Fatal(err)
			}
			src := bytes.Clone(doc.Content)
			edits, err := doc.ApplyLineEdits(tt.edits)
			if err != nil {
				t.Fatalf("ApplyLineEdits: %v", err)
			}
			if len(edits) != 1 {
				t.Errorf("%d byte edits for %d line edits, want the one edit that covers the changed bytes", len(edits), len(tt.edits))
			}
			got, err := edit.Apply(doc.Content, edits)
			if err != nil {
				t.Fatalf("Apply(%+v): %v", edits, err)
			}
			if string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if !bytes.Equal(doc.Content, src) {
				t.Errorf("the document's content was modified")
			}
			if _, err := edit.NewDocument("f.txt", got); err != nil {
				t.Errorf("the result does not re-read: %v", err)
			}
		})
	}
}

// TestApplyLineEditsUnterminatedEnd deletes the last line of a file
// without a final newline together with another edit next to it.
// ApplyLineEdits accepts each list, so Apply must succeed and give the
// file the edits describe, still without a final newline.
func TestApplyLineEditsUnterminatedEnd(t *testing.T) {
	tests := []struct {
		name    string
		content string
		edits   []edit.LineEdit
		want    string
	}{
		{"replace the line before", "a\nb\nc", []edit.LineEdit{
			{StartLine: 2, EndLine: 2, NewContent: "B"},
			{StartLine: 3, EndLine: 3, NewContent: ""},
		}, "a\nB"},
		{"delete the line before too", "a\nb", []edit.LineEdit{
			{StartLine: 1, EndLine: 1, NewContent: ""},
			{StartLine: 2, EndLine: 2, NewContent: ""},
		}, ""},
		{"replace a range before", "a\nb\nc\nd", []edit.LineEdit{
			{StartLine: 4, EndLine: 4, NewContent: ""},
			{StartLine: 2, EndLine: 3, NewContent: "BC"},
		}, "a\nBC"},
		{"insert above an empty line before the deletion", "a\n\nb", []edit.LineEdit{
			{StartLine: 3, EndLine: 3, NewContent: ""},
			{InsertAfter: after(1), NewContent: "x"},
		}, "a\nx\n\n"}, // the empty line stays, so it keeps its ending
		{"delete every line and insert after the last", "a\nb", []edit.LineEdit{
			{StartLine: 1, EndLine: 2, NewContent: ""},
			{InsertAfter: after(2), NewContent: "x"},
		}, "x"},
		{"delete the only line and insert after it", "a", []edit.LineEdit{
			{StartLine: 1, EndLine: 1, NewContent: ""},
			{InsertAfter: after(1), NewContent: "x\ny"},
		}, "x\ny"},
		{"delete the last line and insert after it", "a\nb", []edit.LineEdit{
			{StartLine: 2, EndLine: 2, NewContent: ""},
			{InsertAfter: after(2), NewContent: "x"},
		}, "a\nx"},
		{"mixed endings: delete the last line and insert after it", "a\r\nb\r\nc\nd", []edit.LineEdit{
			{StartLine: 4, EndLine: 4, NewContent: ""},
			{InsertAfter: after(4), NewContent: "x"},
		}, "a\r\nb\r\nc\nx"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := edit.NewDocument("f.txt", []byte(tt.content))
			if err != nil {
				t.Fatal(err)
			}
			edits, err := doc.ApplyLineEdits(tt.edits)
			if err != nil {
				t.Fatalf("ApplyLineEdits: %v", err)
			}
			got, err := edit.Apply(doc.Content, edits)
			if err != nil {
				t.Fatalf("Apply(%+v): %v", edits, err)
			}
			if string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestApplyLineEditsRejects(t *testing.T) {
	const five = "one\ntwo\nthree\nfour\nfive\n"
	tests := []struct {
		name        string
		content     string
		edits       []edit.LineEdit
		edit, other int
		lines       int
		msg         []string
	}{
		{"end past the end", five, []edit.LineEdit{{StartLine: 5, EndLine: 6, NewContent: "x"}},
			1, 0, 5, []string{"edit 1: lines 5-6 are outside f.txt, which has 5 lines"}},
		{"start past the end", five, []edit.LineEdit{{StartLine: 9, EndLine: 9, NewContent: "x"}},
			1, 0, 5, []string{"lines 9-9", "5 lines"}},
		{"second edit past the end", "a\nb", []edit.LineEdit{
			{StartLine: 1, EndLine: 1, NewContent: "x"},
			{StartLine: 3, EndLine: 3, NewContent: "y"},
		}, 2, 0, 2, []string{"edit 2:", "which has 2 lines"}},
		{"insert_after past the end", five, []edit.LineEdit{{InsertAfter: after(6), NewContent: "x"}},
			1, 0, 5, []string{"edit 1: insert_after 6 is past the end of f.txt, which has 5 lines"}},
		{"any line of an empty file", "", []edit.LineEdit{{StartLine: 1, EndLine: 1, NewContent: "x"}},
			1, 0, 0, []string{"which has 0 lines"}},
		{"overlapping ranges", five, []edit.LineEdit{
			{StartLine: 1, EndLine: 3, NewContent: "x"},
			{StartLine: 3, EndLine: 4, NewContent: "y"},
		}, 2, 1, 0, []string{"edits 1 and 2 overlap: lines 1-3 and lines 3-4"}},
		{"overlapping ranges given in reverse", five, []edit.LineEdit{
			{StartLine: 3, EndLine: 4, NewContent: "y"},
			{StartLine: 1, EndLine: 3, NewContent: "x"},
		}, 2, 1, 0, []string{"edits 1 and 2 overlap: lines 3-4 and lines 1-3"}},
		{"the same line twice", five, []edit.LineEdit{
			{StartLine: 2, EndLine: 2, NewContent: "x"},
			{StartLine: 4, EndLine: 4, NewContent: "z"},
			{StartLine: 2, EndLine: 2, NewContent: "y"},
		}, 3, 1, 0, []string{"edits 1 and 3 overlap"}},
		{"a range inside another", five, []edit.LineEdit{
			{StartLine: 1, EndLine: 5, NewContent: "x"},
			{StartLine: 2, EndLine: 3, NewContent: "y"},
		}, 2, 1, 0, []string{"lines 1-5 and lines 2-3"}},
		{"insertion inside a replaced range", five, []edit.LineEdit{
			{StartLine: 2, EndLine: 4, NewContent: "x"},
			{InsertAfter: after(3), NewContent: "y"},
		}, 2, 1, 0, []string{"edits 1 and 2 overlap: lines 2-4 and an insertion after line 3"}},
		{"insertion where a replaced range starts", five, []edit.LineEdit{
			{InsertAfter: after(1), NewContent: "y"},
			{StartLine: 2, EndLine: 4, NewContent: "x"},
		}, 2, 1, 0, []string{"an insertion after line 1 and lines 2-4"}},
		{"two insertions after the same line", five, []edit.LineEdit{
			{InsertAfter: after(2), NewContent: "a"},
			{InsertAfter: after(2), NewContent: "b"},
		}, 2, 1, 0, []string{"edits 1 and 2 overlap: an insertion after line 2 and an insertion after line 2"}},
		{"two insertions at the top", five, []edit.LineEdit{
			{InsertAfter: after(0), NewContent: "a"},
			{InsertAfter: after(0), NewContent: "b"},
		}, 2, 1, 0, []string{"an insertion after line 0 and an insertion after line 0"}},
		{"out of range wins over overlap", five, []edit.LineEdit{
			{StartLine: 1, EndLine: 2, NewContent: "x"},
			{StartLine: 2, EndLine: 2, NewContent: "y"},
			{StartLine: 7, EndLine: 7, NewContent: "z"},
		}, 3, 0, 5, []string{"edit 3: lines 7-7"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := edit.NewDocument("f.txt", []byte(tt.content))
			if err != nil {
				t.Fatal(err)
			}
			src := bytes.Clone(doc.Content)
			edits, err := doc.ApplyLineEdits(tt.edits)
			if edits != nil {
				t.Errorf("byte edits %+v returned with the error", edits)
			}
			var le *edit.LineEditError
			if !errors.As(err, &le) {
				t.Fatalf("ApplyLineEdits = %v (%T), want a *LineEditError", err, err)
			}
			if !errors.Is(err, edit.ErrLineRange) || le.Input {
				t.Errorf("err %v: ErrLineRange %v, Input %v; want true, false", err, errors.Is(err, edit.ErrLineRange), le.Input)
			}
			if le.Edit != tt.edit || le.Other != tt.other || le.Lines != tt.lines {
				t.Errorf("Edit %d, Other %d, Lines %d; want %d, %d, %d", le.Edit, le.Other, le.Lines, tt.edit, tt.other, tt.lines)
			}
			for _, m := range tt.msg {
				if !strings.Contains(le.Message, m) {
					t.Errorf("message %q lacks %q", le.Message, m)
				}
			}
			if le.Error() != le.Message {
				t.Errorf("Error() %q differs from Message %q", le.Error(), le.Message)
			}
			if !bytes.Equal(doc.Content, src) {
				t.Errorf("the document's content was modified")
			}
		})
	}
}

// TestLineEditsGolden runs testdata/lines/*.txtar on real files: each
// archive names a fixture of ../testdata/src in its comment ("file: ..."),
// holds the input ("edits.json") and the expected result: "want" (the
// change, as a unified diff against the fixture) or "error" (the message,
// with the temporary path replaced by the file's name). The file is
// written to disk, edited and committed; a rejected list leaves it
// byte-identical. go test -update rewrites the results.
func TestLineEditsGolden(t *testing.T) {
	goldens, err := filepath.Glob("testdata/lines/*.txtar")
	if err != nil || len(goldens) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, file := range goldens {
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
			orig := testfile.Read(t, filepath.Join("../testdata/src", fixture))
			dir := t.TempDir()
			name := filepath.Base(fixture)
			path := filepath.Join(dir, name)
			testfile.WriteMode(t, path, orig, 0o644)
			doc, err := files.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			les, err := edit.ParseLineEdits(testfile.Section(t, ar, "edits.json"))
			var edits []edit.Edit
			if err == nil {
				edits, err = doc.ApplyLineEdits(les)
			}
			section, got := "want", ""
			if err != nil {
				section, got = "error", strings.ReplaceAll(err.Error(), path, name)+"\n"
				testfile.Same(t, path, orig)
				testfile.NoTemps(t, dir)
			} else {
				content, err := edit.Apply(doc.Content, edits)
				if err != nil {
					t.Fatal(err)
				}
				fl, err := files.Open(files.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := fl.Commit(context.Background(), []files.Change{{Doc: doc, Content: content}}, files.EachAlone); err != nil {
					t.Fatal(err)
				}
				testfile.Same(t, path, content)
				testfile.NoTemps(t, dir)
				reread, err := files.Read(path)
				if err != nil {
					t.Fatalf("the result does not re-read: %v", err)
				}
				if reread.EOL != doc.EOL || reread.HasFinalNewline() != doc.HasFinalNewline() {
					t.Errorf("EOL %q, final newline %v; was %q, %v", reread.EOL, reread.HasFinalNewline(), doc.EOL, doc.HasFinalNewline())
				}
				got = diff.Diff(name, orig, content)
			}
			testfile.CheckGolden(t, file, ar, section, got)
		})
	}
}

// lineEditsForFuzz turns ops into a JSON list of line edits near a file of
// n lines: each 3 bytes make one edit, of a kind chosen by the first byte
// (most valid, some malformed), with texts taken from texts.
func lineEditsForFuzz(ops []byte, n int, texts []string) string {
	var parts []string
	for i := 0; i+2 < len(ops) && len(parts) < 6; i += 3 {
		kind, a, b := ops[i]%8, int(ops[i+1])%(n+3), int(ops[i+2])%5
		text := texts[len(parts)%len(texts)]
		qb, _ := json.Marshal(text)
		q := string(qb)
		switch kind {
		case 0, 1, 2:
			parts = append(parts, fmt.Sprintf(`{"start_line": %d, "end_line": %d, "new_content": %s}`, a, a+b, q))
		case 3, 4:
			parts = append(parts, fmt.Sprintf(`{"insert_after": %d, "new_content": %s}`, a, q))
		case 5:
			parts = append(parts, fmt.Sprintf(`{"start_line": %d, "end_line": %d, "new_content": ""}`, a, a+b))
		case 6:
			parts = append(parts, fmt.Sprintf(`{"start_line": %d, "end_line": %d, "new_content": %s}`, a, a-b, q))
		case 7:
			parts = append(parts, fmt.Sprintf(`{"insert_after": %d, "new_content": %s}`, a-b, q))
		}
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// fuzzLine is a line of the reference model: text and ending.
type fuzzLine struct{ text, end string }

// modelLines splits doc's text into lines and their endings, by the rule
// of doc.go, independently of the package.
func modelLines(doc *edit.Document) []fuzzLine {
	text := doc.Text
	var orig []fuzzLine
	for off := 0; off < len(text); {
		sep := byte('\n') // a CR file is split at CR only
		if doc.EOL == edit.CR {
			sep = '\r'
		}
		i := off
		for i < len(text) && text[i] != sep {
			i++
		}
		if i == len(text) {
			orig = append(orig, fuzzLine{string(text[off:]), ""})
			break
		}
		l := fuzzLine{string(text[off:i]), string(text[i])}
		if sep == '\n' && i > off && text[i-1] == '\r' {
			l = fuzzLine{string(text[off : i-1]), "\r\n"}
		}
		orig = append(orig, l)
		off = i + 1
	}
	if len(orig) != doc.LineCount() {
		panic("model split differs from LineCount")
	}
	return orig
}

// modelLineEdits computes, independently of the package, what the line
// edits must produce, or ok false if they must be refused.
func modelLineEdits(doc *edit.Document, les []edit.LineEdit) (want []byte, ok bool) {
	n := doc.LineCount()
	orig := modelLines(doc)
	// Validity: in range, and no overlap (an insertion where a range
	// starts, or inside it, overlaps; two insertions at one place too).
	ins := map[int]edit.LineEdit{}
	repl := map[int]edit.LineEdit{} // by start line
	covered := make([]bool, n+2)
	for _, le := range les {
		if le.InsertAfter != nil {
			if *le.InsertAfter > n {
				return nil, false
			}
			continue
		}
		if le.EndLine > n {
			return nil, false
		}
	}
	for _, le := range les {
		if le.InsertAfter == nil {
			for l := le.StartLine; l <= le.EndLine; l++ {
				if covered[l] {
					return nil, false
				}
				covered[l] = true
			}
			repl[le.StartLine] = le
		}
	}
	for _, le := range les {
		if le.InsertAfter != nil {
			p := *le.InsertAfter
			// Inside a replaced range or where one starts: line p+1 is
			// replaced.
			if _, dup := ins[p]; dup || covered[p+1] {
				return nil, false
			}
			ins[p] = le
		}
	}
	var out []fuzzLine
	split := func(s string) []fuzzLine {
		if s == "" {
			return nil
		}
		var ls []fuzzLine
		for _, t := range edit.SplitText(s) {
			ls = append(ls, fuzzLine{t, doc.EOL})
		}
		return ls
	}
	for p := 0; p <= n; {
		if le, ok := ins[p]; ok {
			out = append(out, split(le.NewContent)...)
		}
		if p == n {
			break
		}
		if le, ok := repl[p+1]; ok {
			nl := split(le.NewContent)
			if len(nl) > 0 && orig[le.EndLine-1].end == "" {
				nl[len(nl)-1].end = ""
			}
			out = append(out, nl...)
			p = le.EndLine
			continue
		}
		out = append(out, orig[p])
		p++
	}
	// A line followed by another has an ending; the file ends without one
	// if it did.
	for i := range out {
		if i < len(out)-1 && out[i].end == "" {
			out[i].end = doc.EOL
		}
	}
	// The file ends without a line ending if it did, unless its last line
	// is empty: an empty last line exists only with an ending after it.
	if len(out) > 0 {
		last := &out[len(out)-1]
		switch {
		case last.text == "" && last.end == "":
			last.end = doc.EOL
		case n > 0 && orig[n-1].end == "" && last.text != "":
			last.end = ""
		}
	}
	var b bytes.Buffer
	b.Write(doc.Content[:len(doc.Content)-len(doc.Text)])
	for _, l := range out {
		b.WriteString(l.text + l.end)
	}
	return b.Bytes(), true
}

// FuzzLineEdits parses a random list of line edits for random content and
// applies it. Either the list is refused (malformed input by
// ParseLineEdits; a bad range by ApplyLineEdits, with ErrLineRange, the
// content untouched and no edits), or edit.Apply succeeds and gives what
// an independent model of the edits gives: lines outside the edited
// ranges keep their bytes, written lines get the file's line ending.
func FuzzLineEdits(f *testing.F) {
	f.Add("one\ntwo\nthree\n", []byte{0, 2, 0}, "TWO")
	f.Add("one\ntwo\nthree", []byte{3, 3, 0, 5, 1, 0}, "four\x00")
	f.Add("a\r\nb\r\nc\r\n", []byte{0, 1, 1, 3, 0, 0, 4, 3, 0}, "x\ny\x00top\x00end\n")
	f.Add("a\rb\rc\r", []byte{5, 2, 0, 3, 3, 0}, "d")
	f.Add("a\r\nb\nc\rd", []byte{0, 2, 2}, "x\ny")
	f.Add("\xEF\xBB\xBFbom\nfile", []byte{3, 0, 0, 0, 1, 0}, "first")
	f.Add("", []byte{3, 0, 0}, "new")
	f.Add("\n\n\n", []byte{6, 2, 1, 7, 0, 1}, "mid")
	f.Add("a\nb\nc", []byte{0, 2, 0, 5, 3, 0}, "B")
	f.Add("a\nb\nc\n", []byte{0, 1, 1, 3, 1, 0, 3, 3, 0}, "x\x00y\x00z")
	f.Add("a\r\nb\r\nc\nd", []byte{5, 4, 0, 3, 4, 0}, "x")
	f.Add("\n\n0", []byte{5, 2, 1, 3, 0, 0}, "0")
	for _, path := range testfile.RealSources() {
		raw := testfile.Read(f, path)
		f.Add(string(raw[:min(len(raw), 1500)]), []byte{0, 10, 2, 3, 20, 0, 5, 4, 1}, "replaced\nlines\x00inserted\x00")
	}
	f.Fuzz(func(t *testing.T, content string, ops []byte, joined string) {
		doc, err := edit.NewDocument("f", []byte(content))
		if err != nil {
			return
		}
		n := doc.LineCount()
		texts := strings.Split(joined, "\x00")
		input := lineEditsForFuzz(ops, n, texts)
		les, err := edit.ParseLineEdits([]byte(input))
		if err != nil {
			var le *edit.LineEditError
			if !errors.As(err, &le) || !le.Input || errors.Is(err, edit.ErrLineRange) {
				t.Fatalf("ParseLineEdits(%s) = %v, want an input error", input, err)
			}
			return
		}
		src := bytes.Clone(doc.Content)
		edits, err := doc.ApplyLineEdits(les)
		if !bytes.Equal(doc.Content, src) {
			t.Fatal("ApplyLineEdits modified the content")
		}
		want, valid := modelLineEdits(doc, les)
		if err != nil {
			var le *edit.LineEditError
			if !errors.As(err, &le) || le.Input || !errors.Is(err, edit.ErrLineRange) || edits != nil {
				t.Fatalf("ApplyLineEdits(%s) = %v, %v; want a *LineEditError wrapping ErrLineRange and no edits", input, edits, err)
			}
			if valid {
				t.Fatalf("ApplyLineEdits(%s) on %q refused: %v; the model accepts it, giving %q", input, content, err, want)
			}
			return
		}
		if !valid {
			t.Fatalf("ApplyLineEdits(%s) on %q accepted, the model refuses it", input, content)
		}
		got, err := edit.Apply(doc.Content, edits)
		if err != nil {
			t.Fatalf("Apply of ApplyLineEdits(%s) on %q: %v (edits %+v)", input, content, err, edits)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("ApplyLineEdits(%s) on %q gives\n%q\nthe model gives\n%q", input, content, got, want)
		}
	})
}

func ExampleParseLineEdits() {
	doc, err := edit.NewDocument("greet.py", []byte("def greet(name):\n    print('hello', name)\n    return None\n"))
	if err != nil {
		panic(err)
	}
	les, err := edit.ParseLineEdits([]byte(`[
		{"start_line": 2, "end_line": 2, "new_content": "    print(f'hello, {name}!')"},
		{"insert_after": 0, "new_content": "# Greetings.\n"},
		{"start_line": 3, "end_line": 3, "new_content": ""}
	]`))
	if err != nil {
		panic(err)
	}
	edits, err := doc.ApplyLineEdits(les)
	if err != nil {
		panic(err)
	}
	content, err := edit.Apply(doc.Content, edits)
	if err != nil {
		panic(err)
	}
	fmt.Print(string(content))

	// An edit past the end is refused with the file's line count.
	_, err = doc.ApplyLineEdits([]edit.LineEdit{{StartLine: 3, EndLine: 4, NewContent: "x"}})
	fmt.Println(err, errors.Is(err, edit.ErrLineRange))
	// Output:
	// # Greetings.
	// def greet(name):
	//     print(f'hello, {name}!')
	// edit 1: lines 3-4 are outside greet.py, which has 3 lines true
}
