package lang

// Go's listing: go/parser over the text with the interior of every
// top-level brace group that declares no type blanked, for a listing of
// many files (Definition.ListExtract).

import (
	"bytes"
	"go/parser"
	"go/token"
)

// goListingInput returns a copy of src, Go text, in which the interior of
// every top-level brace group (from the byte after its "{" to its "}",
// exclusive: a function's body, a struct's or interface's fields, a
// composite literal, a function literal's body) whose text does not
// hold the word "type" is blanked: every byte but '\n' made a space, so
// that offsets and lines stay and go/scanner inserts no semicolon there.
// Go's definitions are functions, methods and types, and a type declared
// inside a brace group has its keyword there; a blanked group parses as
// an empty block, struct, interface or literal, so go/parser finds every
// definition of a file it accepts at the same offsets, with the same
// name, receiver and kind (a receiver's type is read from src, not from
// the copy). It returns nil when it blanks nothing, and where it is unsure
// of go/scanner's reading: a block comment or raw string not closed,
// braces that do not balance. It reads comments and literals as
// goLineStartsInCode does.
func goListingInput(src []byte) []byte {
	n := len(src)
	var out []byte
	depth, open := 0, -1 // the brace depth; the "{" of the top-level group open
	for i := 0; i < n; {
		switch c := src[i]; c {
		case '/':
			switch {
			case i+1 < n && src[i+1] == '/':
				j := bytes.IndexByte(src[i:], '\n')
				if j < 0 {
					i = n
					continue
				}
				i += j
			case i+1 < n && src[i+1] == '*':
				j := bytes.Index(src[i+2:], []byte("*/"))
				if j < 0 {
					return nil // not closed
				}
				i += 2 + j + 2
			default:
				i++
			}
		case '`':
			j := bytes.IndexByte(src[i+1:], '`')
			if j < 0 {
				return nil // not closed
			}
			i += 1 + j + 1
		case '"', '\'':
			j := i + 1
			for j < n && src[j] != '\n' {
				b := src[j]
				j++
				if b == c {
					break
				}
				if b == '\\' && j < n && (src[j] == '\\' || src[j] == c) {
					j++
				}
			}
			i = j
		case '{':
			if depth == 0 {
				open = i
			}
			depth++
			i++
		case '}':
			depth--
			if depth < 0 {
				return nil // a brace too many
			}
			if depth == 0 && !bytes.Contains(src[open+1:i], []byte("type")) {
				out = goBlank(out, src, open+1, i)
			}
			i++
		default:
			i++
		}
	}
	if depth != 0 {
		return nil // a brace not closed
	}
	return out
}

// goBlank blanks src[from:to] in out, a copy of src that it makes on the
// first call (out nil), and returns out: every byte but '\n' made a
// space. A range with nothing but spaces and line endings is left, and
// no copy made for it.
func goBlank(out, src []byte, from, to int) []byte {
	if out == nil {
		k := from
		for k < to && (src[k] == ' ' || src[k] == '\n') {
			k++
		}
		if k == to {
			return nil
		}
		out = make([]byte, len(src))
		copy(out, src)
	}
	for from < to {
		end := to
		if j := bytes.IndexByte(out[from:to], '\n'); j >= 0 {
			end = from + j
		}
		line := out[from:end]
		for k := range line {
			line[k] = ' '
		}
		from = end + 1
	}
	return out
}

// goListExtract is Go's Definition.ListExtract: goExtract's definitions
// of src, read by go/parser from goListingInput's copy where it blanks
// something and go/parser accepts the copy, else goExtract(src)'s. On a
// source go/parser accepts the result is goExtract's, definition for
// definition; on one it refuses inside a blanked group, the copy may
// parse (a listing's symbols may then differ from the extraction's, as
// ListExtract allows). The layout is goExtract's but for the offsets of
// the blanked text, which hold no declaration.
func goListExtract(src []byte) (defs []Def, layout *Layout, ok bool) {
	blanked := goListingInput(src)
	if blanked == nil {
		return goExtract(src)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", blanked, parser.SkipObjectResolution)
	if err != nil {
		return goExtract(src)
	}
	base := fset.File(f.Package).Base()
	defs, layout = goDefs(f, src, func(p token.Pos) int { return int(p) - base })
	return defs, layout, true
}
