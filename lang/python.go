package lang

// Python: tree-sitter's grammar, the symbol rules, and the indentation
// check that finds what the grammar accepts.

import (
	"fmt"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/symedit/symedit/internal/lines"
)

// pythonDef is Python's definition.
var pythonDef = Definition{
	Name:       "python",
	Extensions: []string{".py", ".pyi"},
	Grammar:    python.GetLanguage,
	QueryFile:  "python.scm",
	Rules: Rules{
		Head: func(t *Tree, n *sitter.Node) HeadPart {
			if n.Type() == "decorator" {
				return HeadDecorator
			}
			return HeadOther // async def is the definition's keyword, as Python's AsyncFunctionDef
		},
		Widen: func(t *Tree, n *sitter.Node) *sitter.Node {
			if p := t.Parent(n); p != nil && p.Type() == "decorated_definition" {
				return p
			}
			return n
		},
		KindIn: func(k, parent string) string {
			if k == kindFunction && parent == kindClass {
				return kindMethod
			}
			return k
		},
	},
	Anatomy: Anatomy{
		CommentPrefixes: []string{"#"},
		Decorators:      true, // Python has no modifiers
	},
	Checker: &Checker{Kind: "python/indent", Check: pyIndent},
	// A listing reads definitions from the logical lines, with no parse.
	Outline: pyOutline,
	// The grammar's scanner state stays wrong after an error, so a
	// comment line added below an error can make tree-sitter report an
	// error a line away.
	TreeErrorsCascade: true,
	// PEP 8: two blank lines around top-level definitions.
	TopLevelBlankLines: 2,
	// A decorator belongs to its decorated_definition; nothing else
	// reaches past a top-level statement.
	LocalSymbols: true,
}

// pyMaxSnippet is the most bytes of a block header an indentation error
// quotes.
const pyMaxSnippet = 40

// pyIndent returns the indentation errors that Python's tokenizer and
// parser report and tree-sitter's Python grammar accepts: a block header
// (a logical line ending with ":") not followed by an indented block,
// an unexpected indent, a dedent to a column that no enclosing block
// has, and tabs and spaces mixed inconsistently. It follows CPython's
// tokenizer: logical lines end at a line ending (LF, CRLF or CR) outside
// brackets, strings and backslash continuations; blank and comment-only
// lines do not count; a tab advances the column to the next multiple of 8
// (and counts 1 for the consistency check), a form feed resets it. After an
// error it recovers as if the line's indentation were valid, so one
// mis-indented block gives one error. Each error is a point at the first
// non-blank byte of the offending line, or at the end of the text.
func pyIndent(src []byte) []Problem {
	var out []Problem
	report := func(off int, msg string) {
		out = append(out, Problem{Start: off, End: off, Message: msg})
	}
	cols, alts := []int{0}, []int{0}
	header := "" // the text of a block header waiting for its block
	n := len(src)
	for i := 0; i < n; {
		col, alt, j := 0, 0, i
	indent:
		for ; j < n; j++ {
			switch src[j] {
			case ' ':
				col, alt = col+1, alt+1
			case '\t':
				col, alt = (col/8+1)*8, alt+1
			case '\f':
				col, alt = 0, 0
			default:
				break indent
			}
		}
		if j == n || src[j] == '\n' || src[j] == '\r' || src[j] == '#' {
			i = nextLine(src, j) // a blank or comment-only line
			continue
		}
		top, altTop := cols[len(cols)-1], alts[len(alts)-1]
		if header != "" && col <= top {
			report(j, fmt.Sprintf("expected an indented block after %q", header))
		}
		switch {
		case col > top:
			if header == "" {
				report(j, "unexpected indent")
			} else if alt <= altTop {
				report(j, "inconsistent use of tabs and spaces in indentation")
			}
			cols, alts = append(cols, col), append(alts, alt)
		case col == top:
			if alt != altTop {
				report(j, "inconsistent use of tabs and spaces in indentation")
			}
		default: // col < top: dedent
			for len(cols) > 1 && col < cols[len(cols)-1] {
				cols, alts = cols[:len(cols)-1], alts[:len(alts)-1]
			}
			if top, altTop = cols[len(cols)-1], alts[len(alts)-1]; col != top {
				report(j, "unindent does not match any outer indentation level")
				cols, alts = append(cols, col), append(alts, alt)
			} else if alt != altTop {
				report(j, "inconsistent use of tabs and spaces in indentation")
			}
		}
		var last byte // the logical line's last significant byte
		i, last = pyLogicalLine(src, j)
		header = ""
		if last == ':' {
			header = lines.FirstLine(src[j:i], pyMaxSnippet)
		}
	}
	if header != "" {
		report(n, fmt.Sprintf("expected an indented block after %q", header))
	}
	return out
}

// pyLogicalLine scans the Python logical line starting at offset i and
// returns the offset of the next line and the last byte of the logical line
// outside strings, comments and white space (a quote for a string).
func pyLogicalLine(src []byte, i int) (next int, last byte) {
	n, depth := len(src), 0
	for i < n {
		c := src[i]
		switch c {
		case '\n', '\r':
			if depth == 0 {
				return nextLine(src, i), last
			}
			i++
		case '#':
			for i < n && src[i] != '\n' && src[i] != '\r' {
				i++
			}
		case '\\':
			i++
			if i < n && (src[i] == '\n' || src[i] == '\r') {
				i = nextLine(src, i) // a continuation line
			} else {
				last = c
			}
		case '\'', '"':
			i, last = pyString(src, i), c
		case '(', '[', '{':
			depth++
			i, last = i+1, c
		case ')', ']', '}':
			depth = max(depth-1, 0)
			i, last = i+1, c
		case ' ', '\t', '\f':
			i++
		default:
			i, last = i+1, c
		}
	}
	return n, last
}

// pyString returns the offset after the string literal whose opening
// quote is at src[i]. A backslash escapes the next byte (also in raw
// strings, as for the tokenizer); a single-quoted string ends, unterminated,
// at a line ending; a triple-quoted one, at the end of the text.
func pyString(src []byte, i int) int {
	q, n := src[i], len(src)
	if i+2 < n && src[i+1] == q && src[i+2] == q {
		for i += 3; i < n; i++ {
			switch {
			case src[i] == '\\':
				i++
			case src[i] == q && i+2 < n && src[i+1] == q && src[i+2] == q:
				return i + 3
			}
		}
		return n
	}
	for i++; i < n; i++ {
		switch src[i] {
		case '\\':
			if i+2 < n && src[i+1] == '\r' && src[i+2] == '\n' {
				i++
			}
			i++
		case q:
			return i + 1
		case '\n', '\r':
			return i
		}
	}
	return n
}

// nextLine returns the offset after the line ending at or after i.
func nextLine(src []byte, i int) int {
	for ; i < len(src); i++ {
		switch src[i] {
		case '\n':
			return i + 1
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				return i + 2
			}
			return i + 1
		}
	}
	return i
}
