// Package lines holds the line rules the packages share: the one
// line-splitting rule of the chunk engine and the edit layer, so that a
// string sent by a model splits into the same lines whichever command
// reads it, and the first-line snippet a syntax problem quotes.
package lines

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Split splits s into lines at CRLF, LF or lone CR, dropping the endings.
// A single trailing line ending does not start an empty last line ("a\n"
// is ["a"]); "" is one empty line, [""]. It is Python's str.splitlines
// restricted to those three endings, except for "".
func Split(s string) []string {
	var out []string
	for {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i])
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		if s = s[i+1:]; s == "" {
			return out
		}
	}
}

// DominantEnding returns the dominant line ending of s, the one new lines
// are written with: "\r\n" if CRLF outnumbers both lone LF and lone CR, else
// "\n" if lone LF outnumbers lone CR, else "\r" if there is any, else "\n".
func DominantEnding(s string) string {
	crlf := strings.Count(s, "\r\n")
	return dominant(crlf, strings.Count(s, "\n")-crlf, strings.Count(s, "\r")-crlf)
}

// DominantEndingBytes is DominantEnding of the bytes b, without copying
// them into a string.
func DominantEndingBytes(b []byte) string {
	crlf := bytes.Count(b, []byte("\r\n"))
	return dominant(crlf, bytes.Count(b, []byte("\n"))-crlf, bytes.Count(b, []byte("\r"))-crlf)
}

// dominant is DominantEnding's rule over the counts of CRLF, lone LF and
// lone CR.
func dominant(crlf, lf, cr int) string {
	switch {
	case crlf > max(lf, cr):
		return "\r\n"
	case lf > cr:
		return "\n"
	case cr > 0:
		return "\r"
	}
	return "\n"
}

// Shown is how many bytes of one line a refusal quotes (Excerpt's n
// everywhere, and the unit of Sent): the same bound in every engine's
// messages, so that none grows with a file's or a caller's line length.
const Shown = 240

// Excerpt returns s, or for s over n bytes (n > 0) a window of at most n
// bytes of it, plus "..." at each end that was cut, around the first byte
// where s differs from other (s's start when other is "" or a prefix of
// s is all they share up to s's end), cut at UTF-8 boundaries. It bounds
// every line that a refusal quotes, so that no message grows with the
// length of a file's lines: the chunk engine's and the
// reply parser's refusals show lines through it.
func Excerpt(s, other string, n int) string {
	if len(s) <= n {
		return s
	}
	diff := 0
	for diff < len(s) && diff < len(other) && s[diff] == other[diff] {
		diff++
	}
	if other == "" || diff >= len(s) {
		diff = 0
	}
	start := max(0, diff-n/2)
	end := min(len(s), start+n)
	start = max(0, end-n)
	for start > 0 && !utf8.RuneStart(s[start]) {
		start++
	}
	for end < len(s) && !utf8.RuneStart(s[end]) {
		end--
	}
	out := s[start:end]
	if start > 0 {
		out = "..." + out
	}
	if end < len(s) {
		out += "..."
	}
	return out
}

// Sent returns s, text a caller sent (an old_text, a search pattern),
// bounded for a refusal that quotes it: s itself when it is at most 4n
// bytes, else its first 2n bytes and its last n bytes (cut at UTF-8
// boundaries) around a line "[... K bytes left out ...]", and K, the
// number of bytes left out (0 when none). So no refusal grows with what
// was sent, as Excerpt keeps it from growing with the file's lines.
func Sent(s string, n int) (string, int) {
	if len(s) <= 4*n {
		return s, 0
	}
	head, tail := 2*n, len(s)-n
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	left := tail - head
	return s[:head] + fmt.Sprintf("\n[... %d bytes left out ...]\n", left) + s[tail:], left
}

// Starts are the 0-based byte offsets at which the lines of a text start,
// the first always 0: symedit's line rule (edit.Document's), under which a
// text whose dominant ending (DominantEnding) is a lone CR is split at every
// CR, any other text at every LF (a CR before the LF belongs to the
// ending). A final line ending starts one more, empty, entry.
type Starts []int

// IndexStarts returns the Starts of text by that rule.
func IndexStarts[S ~string | ~[]byte](text S) Starts {
	// A []byte is counted in place: string(text) would copy it.
	b, isBytes := any(text).([]byte)
	ending := func() string {
		if isBytes {
			return DominantEndingBytes(b)
		}
		return DominantEnding(string(text))
	}
	sep := byte('\n')
	if ending() == "\r" {
		sep = '\r'
	}
	if isBytes {
		return starts(b, sep, bytes.Count, bytes.IndexByte)
	}
	return starts(string(text), sep, strings.Count, strings.IndexByte)
}

// starts is IndexStarts of text split at sep, with the package's Count and
// IndexByte for text's type: one allocation, of the exact size.
func starts[S string | []byte](text S, sep byte, count func(S, S) int, index func(S, byte) int) Starts {
	x := make(Starts, 1, count(text, S([]byte{sep}))+1)
	for at := 0; ; {
		i := index(text[at:], sep)
		if i < 0 {
			return x
		}
		at += i + 1
		x = append(x, at)
	}
}

// Position returns the 1-based line and 1-based byte column of byte offset
// off (0-based; the text's length is the position just past its last
// byte).
func (x Starts) Position(off int) (line, col int) {
	i := sort.SearchInts(x, off+1) - 1 // the last line starting at or before off
	return i + 1, off - x[i] + 1
}

// FirstLine returns the first line of b without white space at its ends,
// cut to at most max bytes (never inside a UTF-8 sequence); "..." marks a
// cut or more lines: the snippet of source a syntax problem quotes.
func FirstLine(b []byte, max int) string {
	s := strings.TrimSpace(string(b))
	cut := false
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s, cut = strings.TrimSpace(s[:i]), true
	}
	if len(s) > max {
		n := max
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s, cut = s[:n], true
	}
	if cut {
		s += "..."
	}
	return s
}
