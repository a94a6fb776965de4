// Package jsontext checks that JSON text decodes without loss before
// encoding/json reads it. encoding/json replaces invalid UTF-8 and a \u
// escape of a lone UTF-16 surrogate with U+FFFD, silently: an edit decoded
// from such text would write characters its sender never sent. The JSON a
// model sends (chunks, edits, batch lines, MCP messages) is checked first
// and refused where it would not decode as sent.
package jsontext

import (
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// Error is JSON text that would not decode as sent: at Offset (a 0-based
// byte offset into the text; Line and Column are 1-based, the column in
// bytes), Msg says what is there.
type Error struct {
	Offset       int
	Line, Column int
	Msg          string
}

// Error returns "line L, column C: MSG".
func (e *Error) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// Check returns nil when data is valid UTF-8 with no \u escape of a lone
// surrogate (a high surrogate not followed by a \u escape of a low one, or
// a low one alone), else an *Error for the first place that is not. It
// checks the encoding only; whether data is JSON is the decoder's to say.
// It reads data once (linear in its length).
func Check(data []byte) error {
	for i := 0; i < len(data); {
		c := data[i]
		switch {
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && n <= 1 {
				return errorAt(data, i, fmt.Sprintf("byte 0x%02x is not valid UTF-8 (JSON text is UTF-8; send the character itself or a \\u escape)", c))
			}
			i += n
		case c == '\\' && i+1 < len(data):
			if data[i+1] != 'u' {
				i += 2 // an escape: the escaped byte is not one to look at
				continue
			}
			r, ok := hex4(data, i+2)
			if !ok || !utf16.IsSurrogate(r) {
				i += 2
				continue
			}
			if r < 0xdc00 { // a high surrogate: a low one must follow
				if i+7 < len(data) && data[i+6] == '\\' && data[i+7] == 'u' {
					if lo, ok := hex4(data, i+8); ok && lo >= 0xdc00 && lo <= 0xdfff {
						i += 12
						continue
					}
				}
				return errorAt(data, i, fmt.Sprintf("%s is a lone UTF-16 high surrogate: it must be followed by a \\u escape of a low surrogate (dc00-dfff)", data[i:i+6]))
			}
			return errorAt(data, i, fmt.Sprintf("%s is a lone UTF-16 low surrogate, with no high surrogate before it", data[i:i+6]))
		default:
			i++
		}
	}
	return nil
}

// hex4 returns the rune of the 4 hexadecimal digits at data[i:], if there
// are 4.
func hex4(data []byte, i int) (rune, bool) {
	if i+4 > len(data) {
		return 0, false
	}
	var r rune
	for _, c := range data[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// errorAt returns the *Error at byte offset off of data.
func errorAt(data []byte, off int, msg string) *Error {
	line, col := 1, 1
	for _, c := range data[:off] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &Error{Offset: off, Line: line, Column: col, Msg: msg}
}

// At returns err, an error of encoding/json decoding data, with the
// 1-based line and byte column of its offset in front ("line 3, column
// 17: invalid character '}' ..."), for a *json.SyntaxError or a
// *json.UnmarshalTypeError; any other error as it is. encoding/json says
// only the byte offset, and a caller fixing its JSON needs the place.
func At(data []byte, err error) error {
	var off int64
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	default:
		return err
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off > 0 && se != nil {
		off-- // a syntax error's offset is just past the byte that is wrong
	}
	e := errorAt(data, int(off), "")
	return fmt.Errorf("line %d, column %d: %w", e.Line, e.Column, err)
}
