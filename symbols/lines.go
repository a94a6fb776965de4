package symbols

import (
	"bytes"

	"github.com/symedit/symedit/internal/lines"
)

// lineIndex numbers the lines of a source file as symedit's edit layer
// (edit.Document) does, so that a symbol's lines and the lines a caller
// names agree with the lines symedit shows and edits: a file whose dominant
// line ending (internal/lines.DominantEnding) is a lone CR is split at every
// CR, any other file at every LF (a CR before the LF belongs to the
// ending). Positions are computed from byte offsets, never from the parser's
// rows, so that they follow this rule whatever the parser counted.
type lineIndex struct {
	src    []byte
	sep    byte         // '\n', or '\r' for a CR-only file
	starts lines.Starts // 0-based byte offset of each line's first byte
}

func newLineIndex(src []byte) *lineIndex {
	x := &lineIndex{src: src, sep: '\n', starts: lines.IndexStarts(src)}
	if len(x.starts) > 1 {
		// The byte before the second line is the separator IndexStarts
		// chose (by DominantEnding); a text without one has neither LF
		// nor CR, and either separator reads it alike. This spares a
		// second copy of src into a string.
		x.sep = src[x.starts[1]-1]
	}
	return x
}

// position returns the 1-based line and 1-based byte column of byte offset
// off (0-based; len(src) is the position just past the last byte).
func (x *lineIndex) position(off int) Position {
	line, col := x.starts.Position(off)
	return Position{Line: line, Column: col}
}

// offset returns the 0-based byte offset of pos (1-based line and byte
// column), position's inverse.
func (x *lineIndex) offset(pos Position) int {
	return x.starts[pos.Line-1] + pos.Column - 1
}

// count returns the number of lines: a final line ending does not start
// another line, an empty source has none.
func (x *lineIndex) count() int {
	n := len(x.starts)
	if len(x.src) == 0 || x.src[len(x.src)-1] == x.sep {
		n--
	}
	return n
}

// line returns the content of 1-based line n without its line ending, and
// whether the line exists.
func (x *lineIndex) line(n int) ([]byte, bool) {
	if n < 1 || n > x.count() {
		return nil, false
	}
	start, end := x.starts[n-1], len(x.src)
	if n < len(x.starts) {
		end = x.starts[n] - 1
	}
	l := x.src[start:end]
	if x.sep == '\n' {
		l = bytes.TrimSuffix(l, []byte{'\r'})
	}
	return l, true
}
