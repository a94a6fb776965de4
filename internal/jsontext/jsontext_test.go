package jsontext_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/symedit/symedit/internal/jsontext"
)

func TestCheck(t *testing.T) {
	for _, tt := range []struct {
		in         string
		line, col  int // 0: valid
		msgContain string
	}{
		{`{"a": "plain"}`, 0, 0, ""},
		{`{"a": "caf\u00e9 ‘q’ 😀"}`, 0, 0, ""},
		{`{"a": "\ud83d\ude00"}`, 0, 0, ""}, // a surrogate pair: one character
		{`{"a": "\\ud800"}`, 0, 0, ""},      // an escaped backslash, then text
		{`{"a": "\u00zz"}`, 0, 0, ""},       // not an escape the decoder takes: its error
		{"{\"a\": \"x\xffy\"}", 1, 9, "0xff is not valid UTF-8"},
		{"[\n  {\"a\": \"\xc3\"}\n]", 2, 10, "0xc3 is not valid UTF-8"},
		{`{"a": "\ud800"}`, 1, 8, "lone UTF-16 high surrogate"},
		{`{"a": "\ud800\u0041"}`, 1, 8, "lone UTF-16 high surrogate"},
		{`{"a": "x\udc00"}`, 1, 9, "lone UTF-16 low surrogate"},
		{`{"a": "\uD800`, 1, 8, "lone UTF-16 high surrogate"},
	} {
		err := jsontext.Check([]byte(tt.in))
		if tt.line == 0 {
			if err != nil {
				t.Errorf("%q: %v, want nil", tt.in, err)
			}
			continue
		}
		var e *jsontext.Error
		if !errors.As(err, &e) || e.Line != tt.line || e.Column != tt.col || !strings.Contains(e.Msg, tt.msgContain) {
			t.Errorf("%q: %v (%+v), want line %d column %d %q", tt.in, err, e, tt.line, tt.col, tt.msgContain)
		}
	}
}

// FuzzCheck: whatever Check accepts, encoding/json decodes without
// putting a U+FFFD the text did not hold (as the character or \ufffd).
func FuzzCheck(f *testing.F) {
	for _, s := range []string{`"x"`, `"\ud800"`, "\"\xff\"", `"\ud83d\ude00"`, `"\\\ud800"`, `"\ufffd"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var v string
		if json.Unmarshal([]byte(s), &v) != nil || jsontext.Check([]byte(s)) != nil {
			return
		}
		if strings.ContainsRune(v, '\ufffd') && !strings.ContainsRune(s, '\ufffd') && !strings.Contains(strings.ToLower(s), `\ufffd`) {
			t.Errorf("Check accepted %q, which decodes to %q with a U+FFFD it did not hold", s, v)
		}
	})
}

// TestAt: a decoding error gets the line and byte column of the byte that
// is wrong; other errors are left as they are.
func TestAt(t *testing.T) {
	data := []byte("[\n  {\"a\": 1,}\n]")
	var v any
	err := jsontext.At(data, json.Unmarshal(data, &v))
	if err == nil || !strings.HasPrefix(err.Error(), "line 2, column 11: invalid character '}'") {
		t.Errorf("syntax error: %v", err)
	}
	var n struct{ A int }
	data = []byte("{\n\"A\": \"x\"}")
	err = jsontext.At(data, json.Unmarshal(data, &n))
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || !strings.HasPrefix(err.Error(), "line 2, column") {
		t.Errorf("type error: %v", err)
	}
	if other := errors.New("x"); jsontext.At(data, other) != other {
		t.Errorf("another error was changed")
	}
}
