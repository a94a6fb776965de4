package chunk

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/symedit/symedit/internal/jsontext"
	"sort"
)

// Parse decodes a chunk list: a JSON array of chunk objects, or an object
// {"chunks": [...]}. context_before and context_after may be a string or an
// array of strings; a missing key, null, "" and [] all mean no context.
// old_lines and new_lines are required arrays of strings ([] for an
// insertion or a deletion). Any string may hold several lines.
//
// The error is an *InputError naming the chunk (1-based) and key for
// malformed JSON (text that is not valid UTF-8 or holds a \u escape of a
// lone surrogate included: encoding/json would read U+FFFD in its place), an unknown key, a value of the wrong type, a missing
// old_lines or new_lines, a chunk that changes nothing (both empty), or an
// empty list.
func Parse(data []byte) ([]Chunk, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, &InputError{Msg: "empty input: want a JSON array of chunks or {\"chunks\": [...]}"}
	}
	if err := jsontext.Check(data); err != nil {
		return nil, &InputError{Msg: "bad JSON: " + err.Error()}
	}
	var raw []json.RawMessage
	if data[0] == '{' {
		var top map[string]json.RawMessage
		if err := json.Unmarshal(data, &top); err != nil {
			return nil, &InputError{Msg: "bad JSON: " + jsontext.At(data, err).Error()}
		}
		for k := range top {
			if k != "chunks" {
				return nil, &InputError{Key: k, Msg: "unknown top-level key: want {\"chunks\": [...]}"}
			}
		}
		list, ok := top["chunks"]
		if !ok {
			return nil, &InputError{Msg: "missing \"chunks\": want {\"chunks\": [...]}"}
		}
		if err := json.Unmarshal(list, &raw); err != nil {
			return nil, &InputError{Key: "chunks", Msg: "want an array of chunk objects: " + err.Error()}
		}
	} else if err := json.Unmarshal(data, &raw); err != nil {
		return nil, &InputError{Msg: "bad JSON: " + jsontext.At(data, err).Error() + ": want a JSON array of chunks or {\"chunks\": [...]}"}
	}
	if len(raw) == 0 {
		return nil, &InputError{Msg: "no chunks: the list is empty"}
	}
	chunks := make([]Chunk, len(raw))
	for i, r := range raw {
		c, err := parseOne(r)
		if err != nil {
			err.Chunk = i + 1
			return nil, err
		}
		chunks[i] = c
	}
	return chunks, nil
}

var keys = []string{"context_before", "old_lines", "new_lines", "context_after"}

func parseOne(r json.RawMessage) (Chunk, *InputError) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(r, &obj); err != nil || obj == nil {
		return Chunk{}, &InputError{Msg: fmt.Sprintf("want an object with keys %v, got %s", keys, abbreviate(r))}
	}
	var unknown []string
	for k := range obj {
		switch k {
		case "context_before", "old_lines", "new_lines", "context_after":
		default:
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return Chunk{}, &InputError{Key: unknown[0], Msg: fmt.Sprintf("unknown key: a chunk has only %v", keys)}
	}
	var c Chunk
	var err *InputError
	if c.ContextBefore, err = context(obj, "context_before"); err != nil {
		return c, err
	}
	if c.ContextAfter, err = context(obj, "context_after"); err != nil {
		return c, err
	}
	if c.OldLines, err = lineList(obj, "old_lines"); err != nil {
		return c, err
	}
	if c.NewLines, err = lineList(obj, "new_lines"); err != nil {
		return c, err
	}
	if len(c.OldLines) == 0 && len(c.NewLines) == 0 {
		return c, &InputError{Key: "old_lines", Msg: "old_lines and new_lines are both empty: the chunk changes nothing"}
	}
	return c, nil
}

// context decodes a context field: absent, null, a string or an array of
// strings.
func context(obj map[string]json.RawMessage, key string) ([]string, *InputError) {
	v, ok := obj[key]
	if !ok || string(v) == "null" {
		return nil, nil
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		if s == "" {
			return nil, nil
		}
		return []string{s}, nil
	}
	list, ok := stringArray(v)
	if !ok {
		return nil, &InputError{Key: key, Msg: "want a string or an array of strings, got " + abbreviate(v)}
	}
	return list, nil
}

// lineList decodes old_lines or new_lines: a required array of strings.
func lineList(obj map[string]json.RawMessage, key string) ([]string, *InputError) {
	v, ok := obj[key]
	if !ok {
		return nil, &InputError{Key: key, Msg: "missing: every chunk needs old_lines and new_lines ([] for none)"}
	}
	list, ok := stringArray(v)
	if !ok {
		return nil, &InputError{Key: key, Msg: "want an array of strings (one per line), got " + abbreviate(v)}
	}
	return list, nil
}

// stringArray decodes a JSON array whose elements are all strings; null,
// as the array or as an element, is refused (encoding/json would read a
// null element as "", which would write an empty line).
func stringArray(v json.RawMessage) ([]string, bool) {
	var elems []*string
	if err := json.Unmarshal(v, &elems); err != nil || elems == nil {
		return nil, false
	}
	list := make([]string, len(elems))
	for i, e := range elems {
		if e == nil {
			return nil, false
		}
		list[i] = *e
	}
	return list, true
}

func abbreviate(b []byte) string {
	const max = 60
	s := string(bytes.TrimSpace(b))
	if len(s) > max {
		s = s[:max] + "..."
	}
	return s
}
