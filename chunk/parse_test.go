package chunk_test

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/symedit/symedit/chunk"
)

// sameChunks compares chunk lists, a nil field equal to an empty one.
func sameChunks(a, b []chunk.Chunk) bool {
	return slices.EqualFunc(a, b, func(x, y chunk.Chunk) bool {
		return slices.Equal(x.ContextBefore, y.ContextBefore) && slices.Equal(x.OldLines, y.OldLines) &&
			slices.Equal(x.NewLines, y.NewLines) && slices.Equal(x.ContextAfter, y.ContextAfter)
	})
}

func TestParse(t *testing.T) {
	one := chunk.Chunk{ContextBefore: []string{"a"}, OldLines: []string{"b"}, NewLines: []string{"c", "c2"}, ContextAfter: []string{"d", "e"}}
	const oneJSON = `{"context_before": "a", "old_lines": ["b"], "new_lines": ["c", "c2"], "context_after": ["d", "e"]}`
	tests := []struct {
		name  string
		input string
		want  []chunk.Chunk
	}{
		{"array", "[" + oneJSON + "]", []chunk.Chunk{one}},
		{"object", `{"chunks": [` + oneJSON + `]}`, []chunk.Chunk{one}},
		{"white space around", "\n\t [" + oneJSON + "]\n\n", []chunk.Chunk{one}},
		{"two chunks", "[" + oneJSON + "," + `{"old_lines": [], "new_lines": ["x"], "context_after": "y"}` + "]",
			[]chunk.Chunk{one, {NewLines: []string{"x"}, ContextAfter: []string{"y"}}}},
		{"keys in any order", `[{"new_lines": ["c", "c2"], "context_after": ["d", "e"], "old_lines": ["b"], "context_before": ["a"]}]`, []chunk.Chunk{one}},
		{"missing context", `[{"old_lines": ["b"], "new_lines": ["c"]}]`, []chunk.Chunk{{OldLines: []string{"b"}, NewLines: []string{"c"}}}},
		{"null context", `[{"context_before": null, "old_lines": ["b"], "new_lines": ["c"], "context_after": null}]`, []chunk.Chunk{{OldLines: []string{"b"}, NewLines: []string{"c"}}}},
		{"empty string context", `[{"context_before": "", "old_lines": ["b"], "new_lines": ["c"], "context_after": ""}]`, []chunk.Chunk{{OldLines: []string{"b"}, NewLines: []string{"c"}}}},
		{"empty array context", `[{"context_before": [], "old_lines": ["b"], "new_lines": ["c"], "context_after": []}]`, []chunk.Chunk{{OldLines: []string{"b"}, NewLines: []string{"c"}}}},
		{"empty line in a context array", `[{"context_before": ["a", ""], "old_lines": ["b"], "new_lines": ["c"], "context_after": [""]}]`,
			[]chunk.Chunk{{ContextBefore: []string{"a", ""}, OldLines: []string{"b"}, NewLines: []string{"c"}, ContextAfter: []string{""}}}},
		{"multi-line strings kept whole", `[{"context_before": "a\r\nb", "old_lines": ["c\nd\n"], "new_lines": ["e"]}]`,
			[]chunk.Chunk{{ContextBefore: []string{"a\r\nb"}, OldLines: []string{"c\nd\n"}, NewLines: []string{"e"}}}},
		{"insertion", `[{"context_before": "a", "old_lines": [], "new_lines": ["x"]}]`, []chunk.Chunk{{ContextBefore: []string{"a"}, NewLines: []string{"x"}}}},
		{"deletion", `[{"old_lines": ["x"], "new_lines": [], "context_after": "b"}]`, []chunk.Chunk{{OldLines: []string{"x"}, ContextAfter: []string{"b"}}}},
		{"empty lines", `[{"old_lines": [""], "new_lines": ["", ""]}]`, []chunk.Chunk{{OldLines: []string{""}, NewLines: []string{"", ""}}}},
		{"unicode and escapes", `[{"old_lines": ["\tx = \"é\" \u2603"], "new_lines": ["y"]}]`, []chunk.Chunk{{OldLines: []string{"\tx = \"é\" ☃"}, NewLines: []string{"y"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := chunk.Parse([]byte(tt.input))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if !sameChunks(got, tt.want) {
				t.Errorf("Parse = %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	const ok = `{"old_lines": ["a"], "new_lines": ["b"]}`
	tests := []struct {
		name  string
		input string
		chunk int
		key   string
		msg   string // substring of the message
	}{
		{"empty input", "", 0, "", "empty input"},
		{"blank input", " \n\t", 0, "", "empty input"},
		{"bad json", `[{"old_lines": [}]`, 0, "", "bad JSON"},
		{"truncated json", `[` + ok, 0, "", "bad JSON"},
		{"trailing garbage", `[` + ok + `] x`, 0, "", "bad JSON"},
		{"bad json object", `{"chunks": [` + ok + `}`, 0, "", "bad JSON"},
		{"not a list", `"chunks"`, 0, "", "bad JSON"},
		{"number", `42`, 0, "", "bad JSON"},
		{"empty list", `[]`, 0, "", "no chunks"},
		{"empty chunks", `{"chunks": []}`, 0, "", "no chunks"},
		{"null chunks", `{"chunks": null}`, 0, "", "no chunks"},
		{"missing chunks", `{}`, 0, "", `missing "chunks"`},
		{"chunks not a list", `{"chunks": {"old_lines": []}}`, 0, "chunks", "want an array of chunk objects"},
		{"unknown top-level key", `{"chunks": [` + ok + `], "dry_run": true}`, 0, "dry_run", "unknown top-level key"},
		{"misspelled chunks", `{"chunk": [` + ok + `]}`, 0, "chunk", "unknown top-level key"},
		{"chunk not an object", `[` + ok + `, 3]`, 2, "", "want an object"},
		{"null chunk", `[null]`, 1, "", "want an object"},
		{"array chunk", `[["a"]]`, 1, "", "want an object"},
		{"unknown key", `[` + ok + `, {"old_lines": [], "new_lines": ["x"], "context": "a"}]`, 2, "context", "unknown key"},
		{"unknown keys, first in order", `[{"zeta": 1, "old_lines": ["a"], "new_lines": [], "alpha": 2}]`, 1, "alpha", "unknown key"},
		{"key case matters", `[{"OLD_LINES": ["a"], "new_lines": ["b"]}]`, 1, "OLD_LINES", "unknown key"},
		{"old_lines as string", `[{"old_lines": "a", "new_lines": ["b"]}]`, 1, "old_lines", "want an array of strings"},
		{"new_lines as string", `[` + ok + `,` + ok + `, {"old_lines": ["a"], "new_lines": "b"}]`, 3, "new_lines", "want an array of strings"},
		{"old_lines null", `[{"old_lines": null, "new_lines": ["b"]}]`, 1, "old_lines", "want an array of strings"},
		{"new_lines of numbers", `[{"old_lines": ["a"], "new_lines": [1, 2]}]`, 1, "new_lines", "want an array of strings"},
		{"old_lines object", `[{"old_lines": {"a": 1}, "new_lines": ["b"]}]`, 1, "old_lines", "want an array of strings"},
		{"context as number", `[{"context_before": 7, "old_lines": ["a"], "new_lines": ["b"]}]`, 1, "context_before", "want a string or an array of strings"},
		{"context as bool", `[{"old_lines": ["a"], "new_lines": ["b"], "context_after": true}]`, 1, "context_after", "want a string or an array of strings"},
		{"context array of numbers", `[{"old_lines": ["a"], "new_lines": ["b"], "context_after": [1]}]`, 1, "context_after", "want a string or an array of strings"},
		{"context array with null", `[{"context_before": ["a", null, 3], "old_lines": ["a"], "new_lines": ["b"]}]`, 1, "context_before", "want a string or an array of strings"},
		{"missing old_lines", `[{"context_before": "a", "new_lines": ["b"]}]`, 1, "old_lines", "missing"},
		{"missing new_lines", `[` + ok + `, {"old_lines": ["a"]}]`, 2, "new_lines", "missing"},
		{"missing both", `[{}]`, 1, "old_lines", "missing"},
		{"changes nothing", `[{"context_before": "a", "old_lines": [], "new_lines": []}]`, 1, "old_lines", "changes nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := chunk.Parse([]byte(tt.input))
			if err == nil {
				t.Fatalf("Parse = %q, want an error", got)
			}
			if got != nil {
				t.Errorf("Parse returned chunks %q with its error", got)
			}
			var ie *chunk.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("err = %v (%T), want *chunk.InputError", err, err)
			}
			if ie.Chunk != tt.chunk || ie.Key != tt.key {
				t.Errorf("InputError{Chunk: %d, Key: %q}, want {Chunk: %d, Key: %q}: %v", ie.Chunk, ie.Key, tt.chunk, tt.key, err)
			}
			if !strings.Contains(ie.Msg, tt.msg) {
				t.Errorf("Msg %q lacks %q", ie.Msg, tt.msg)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "invalid chunks: ") {
				t.Errorf("Error() = %q, want the prefix %q", msg, "invalid chunks: ")
			}
			if tt.chunk > 0 && !strings.Contains(msg, "chunk "+string(rune('0'+tt.chunk))+": ") {
				t.Errorf("Error() = %q does not name chunk %d", msg, tt.chunk)
			}
			if tt.key != "" && !strings.Contains(msg, `"`+tt.key+`": `) {
				t.Errorf("Error() = %q does not name key %q", msg, tt.key)
			}
		})
	}
}

func TestParseAbbreviatesLongValues(t *testing.T) {
	long := strings.Repeat("x", 500)
	_, err := chunk.Parse([]byte(`[{"old_lines": "` + long + `", "new_lines": []}]`))
	var ie *chunk.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("err = %v", err)
	}
	if len(ie.Msg) > 200 || !strings.Contains(ie.Msg, "...") {
		t.Errorf("Msg is %d bytes, want the value abbreviated: %q", len(ie.Msg), ie.Msg)
	}
}

// TestParseDemo parses the demo's chunk list and applies it to the method
// it was written for.
func TestParseDemo(t *testing.T) {
	data, err := os.ReadFile("../testdata/demo/chunks.json")
	if err != nil {
		t.Fatal(err)
	}
	chunks, err := chunk.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(chunks) != 2 {
		t.Fatalf("%d chunks, want 2", len(chunks))
	}
	tg := startMethod(t)
	res := applyOK(t, tg, chunks)
	want := slices.Concat(
		tg.Lines[:121-116],
		[]string{"        if self._popen is not None:", "            raise RuntimeError('cannot start a process twice')"},
		tg.Lines[122-116:132-116],
		[]string{"        util.debug('started process %s', self.name)"},
		tg.Lines[132-116:],
	)
	if !slices.Equal(res.Lines, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(res.Lines, "\n"), strings.Join(want, "\n"))
	}
	wantHunks := []chunk.Hunk{{Chunk: 1, Line: 121, Removed: 1, Added: 2}, {Chunk: 2, Line: 132, Removed: 0, Added: 1}}
	if !slices.Equal(res.Hunks, wantHunks) {
		t.Errorf("Hunks = %+v, want %+v", res.Hunks, wantHunks)
	}
}

// TestParseNullElement: old_lines and new_lines are "arrays of strings";
// a null element is not a string and must not silently become an empty
// line (nor in a context array).
func TestParseNullElement(t *testing.T) {
	tests := []struct {
		input string
		key   string
	}{
		{`[{"old_lines": ["a"], "new_lines": [null]}]`, "new_lines"},
		{`[{"old_lines": [null, "a"], "new_lines": ["b"]}]`, "old_lines"},
		{`[{"context_before": ["a", null], "old_lines": ["a"], "new_lines": ["b"]}]`, "context_before"},
	}
	for _, tt := range tests {
		got, err := chunk.Parse([]byte(tt.input))
		if err == nil {
			t.Fatalf("Parse accepts a null array element as an empty line: %s gives %q, want an *InputError for %q", tt.input, got, tt.key)
		}
		var ie *chunk.InputError
		if !errors.As(err, &ie) || ie.Chunk != 1 || ie.Key != tt.key {
			t.Errorf("Parse(%s) = %v, want an *InputError for chunk 1, key %q", tt.input, err, tt.key)
		}
	}
}
