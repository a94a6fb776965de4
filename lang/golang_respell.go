package lang

// The syntax guard's cheapest Go check: edits that only respell
// identifiers, comments and string literals, found by scanning the edited
// lines, with no parse.

import (
	"bytes"
	"go/scanner"
	"go/token"
)

// goRespelled reports whether the edits (sorted, not overlapping, trimmed:
// Checker.CheckEdits's) of oldText, which make newText, change only the
// spelling of identifiers, comments and string literals, and the white
// space between tokens, each edit inside one line: then go/parser reports the same errors in newText as in
// oldText, at the same places moved by the edits (a message that quotes a
// respelled token quotes its new spelling), whatever those errors are.
//
// Why: go/parser (in goMode, without object resolution or declaration
// errors) decides from the kinds of the tokens go/scanner gives it, never
// from an identifier's name, a comment's text (a //go:build line is read
// but refuses nothing; a //line directive moves reported lines, not byte
// offsets) or a string literal's value (it leaves import paths to the
// type checker). So two files whose token streams differ only in the
// literal text of such tokens, and which go/scanner reads with the same
// errors, are parsed alike. goRespelled finds that out from the edited
// lines alone: each starts outside a block comment and a raw string (a
// pass over oldText up to it, goLineStartsInCode), where go/scanner starts
// a fresh token, so that scanning the line alone gives the tokens a scan
// of the whole file gives on it; the line before the edits and after them
// must then scan without error (no token runs past the line's end, where
// the rest of the file goes on scanning as before) into the same tokens,
// but for the literal text of identifiers, comments and strings.
//
// It reads oldText up to the last edited line once and each edited line
// twice: a fraction of go/parser's cost for the whole file.
func goRespelled(oldText, newText []byte, edits []Edit) bool {
	_, ok := goRespelledLines(oldText, newText, edits)
	return ok
}

// goRespelledLines is goRespelled, also returning the edited lines: for
// each, in order, its start and end (past its line ending) in oldText and
// in newText.
func goRespelledLines(oldText, newText []byte, edits []Edit) (spans [][4]int, ok bool) {
	if len(edits) == 0 {
		return nil, false
	}
	var (
		starts []int // the start of each edited line, in oldText
		shift  int   // newText's offsets less oldText's after the edits so far
	)
	for i := 0; i < len(edits); {
		e := edits[i]
		if e.Start < 0 || e.Start > len(oldText) {
			return nil, false
		}
		ls := bytes.LastIndexByte(oldText[:e.Start], '\n') + 1
		le := len(oldText) // the end of the line, past its line ending
		if k := bytes.IndexByte(oldText[e.Start:], '\n'); k >= 0 {
			le = e.Start + k + 1
		}
		// The edits on this line (all that are left when it is the last
		// one), and the change in length they make.
		lineShift := shift
		for first := true; i < len(edits) && (first || edits[i].Start < le || le == len(oldText)); first = false {
			x := edits[i]
			i++
			if x.Start < ls || x.End < x.Start || x.End > le || x.NewStart != x.Start+shift ||
				x.NewEnd < x.NewStart || x.NewEnd > len(newText) ||
				bytes.IndexByte(oldText[x.Start:x.End], '\n') >= 0 || bytes.IndexByte(newText[x.NewStart:x.NewEnd], '\n') >= 0 {
				return nil, false // an edit across a line ending, or not Checker.CheckEdits's
			}
			shift += (x.NewEnd - x.NewStart) - (x.End - x.Start)
		}
		starts = append(starts, ls)
		spans = append(spans, [4]int{ls, le, ls + lineShift, le + shift})
	}
	if shift != len(newText)-len(oldText) || !goLineStartsInCode(oldText, starts) {
		return nil, false
	}
	for _, s := range spans {
		if s[3] > len(newText) || !goSameTokens(oldText[s[0]:s[1]], newText[s[2]:s[3]]) {
			return nil, false
		}
	}
	return spans, true
}

// goLineStartsInCode reports whether each of starts (line starts of src,
// ascending) lies outside every block comment and raw string literal, the
// only Go tokens that run across a line ending, as go/scanner reads src.
// It follows go/scanner's rules for where comments and literals end: a
// line comment, an interpreted string and a rune literal end at the line
// ending (the literal with an error), a backslash in a literal takes the
// next character with it only when that is a backslash or the literal's
// quote (go/scanner reads other escapes' characters, none of which is a
// quote or a line ending), a block comment ends at the first "*/" after
// its "/*", a raw string at the next backquote; a comment or literal not
// closed runs to the end of src.
func goLineStartsInCode(src []byte, starts []int) bool {
	n := len(src)
	k := 0 // the next line start to check
	// inside reports whether a line start lies in (from, to): a token
	// that runs over it.
	inside := func(from, to int) bool {
		for k < len(starts) && starts[k] <= from {
			k++
		}
		return k < len(starts) && starts[k] < to
	}
	for i := 0; i < n && k < len(starts); {
		switch src[i] {
		case '/':
			if i+1 < n && src[i+1] == '/' {
				j := bytes.IndexByte(src[i:], '\n')
				if j < 0 {
					return true // no line starts after it
				}
				i += j
				continue
			}
			if i+1 < n && src[i+1] == '*' {
				end := n + 1 // not closed: the end of src is inside it
				if j := bytes.Index(src[i+2:], []byte("*/")); j >= 0 {
					end = i + 2 + j + 2
				}
				if inside(i, end) {
					return false
				}
				i = end
				continue
			}
			i++
		case '`':
			end := n + 1
			if j := bytes.IndexByte(src[i+1:], '`'); j >= 0 {
				end = i + 1 + j + 1
			}
			if inside(i, end) {
				return false
			}
			i = end
		case '"', '\'':
			q := src[i]
			j := i + 1
			for j < n && src[j] != '\n' {
				c := src[j]
				j++
				if c == q {
					break
				}
				if c == '\\' && j < n && (src[j] == '\\' || src[j] == q) {
					j++
				}
			}
			i = j
		default:
			i++
		}
	}
	return true
}

// goSameTokens reports whether go/scanner reads a and b, each a line of a
// Go file (up to and with its line ending, or to the end of the file)
// that starts outside every token, without error and into the same
// tokens but for the literal text of identifiers, comments and string
// literals, as go/parser's scanner reads them (comments included).
func goSameTokens(a, b []byte) bool {
	var sa, sb scanner.Scanner
	fset := token.NewFileSet()
	sa.Init(fset.AddFile("", -1, len(a)), a, nil, scanner.ScanComments)
	sb.Init(fset.AddFile("", -1, len(b)), b, nil, scanner.ScanComments)
	for {
		_, ta, la := sa.Scan()
		_, tb, lb := sb.Scan()
		if ta != tb || sa.ErrorCount > 0 || sb.ErrorCount > 0 {
			return false
		}
		if la != lb && ta != token.IDENT && ta != token.COMMENT && ta != token.STRING {
			return false
		}
		if ta == token.EOF {
			return true
		}
	}
}
