package lang

// Python's outline reader: the definitions of a file for a listing of
// many files, from its logical lines and their indentation, with no
// parse (Definition.Outline).

// pyOutline returns the classes and functions of src, ParserInput's
// Python text, as tree-sitter's extraction finds them: each def, async
// def and class statement, nested ones included, its range from its
// first decorator to the end of the last token of its body (trailing
// comments left out), its name, and where its def, async or class
// keyword starts (Def.Keyword). It reads src as CPython's tokenizer
// does: logical lines end at a line ending outside brackets, strings and
// backslash continuations; blank and comment-only lines do not count;
// a block is the logical lines indented deeper than its header.
//
// ok is false, so that the listing parses src with tree-sitter, wherever
// the two readings could part: a string or bracket left open or closed
// too often, indentation Python refuses (an unexpected indent, a header
// with no block, a dedent to no enclosing level), a space before a tab
// or a form feed in indentation (CPython and tree-sitter's scanner count
// columns differently there), a decorator followed by no definition, a
// definition with type parameters (def f[T]) or with no name or no
// header colon, a logical line that starts with a continuation or ends
// with one no token follows, a byte order mark, and an f-string whose
// closing quote lies inside a replacement field (Python 3.12's nested
// quotes, which only a tokenizer that knows them reads alike).
func pyOutline(src []byte) (defs []Def, ok bool) {
	type open struct{ indent, def int }
	var (
		levels    = []int{0} // the indentation of each open block
		opened    []open     // the definitions whose block is open
		decorated = -1       // where the pending decorators start
		block     bool       // the last logical line was a header
		prevEnd   int        // the end of the last logical line's last token
		n         = len(src)
	)
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		return nil, false // a byte order mark, which the grammar reads as it will
	}
	for i := 0; i < n; {
		col, j, ok := pyIndentOf(src, i)
		if !ok {
			return nil, false
		}
		if j == n || src[j] == '\n' || src[j] == '\r' || src[j] == '#' {
			i = nextLine(src, j) // a blank or comment-only line
			continue
		}
		if src[j] == '\\' {
			return nil, false // a logical line that starts with a continuation
		}
		top := levels[len(levels)-1]
		switch {
		case block:
			if col <= top {
				return nil, false // a header with no indented block
			}
			levels = append(levels, col)
		case col > top:
			return nil, false // an unexpected indent
		case col < top:
			for len(levels) > 1 && col < levels[len(levels)-1] {
				levels = levels[:len(levels)-1]
			}
			if col != levels[len(levels)-1] {
				return nil, false // a dedent to no enclosing level
			}
		}
		for len(opened) > 0 && opened[len(opened)-1].indent >= col {
			defs[opened[len(opened)-1].def].End = prevEnd
			opened = opened[:len(opened)-1]
		}
		line, ok := pyScanLine(src, j)
		if !ok {
			return nil, false
		}
		block = line.last == ':'
		kind, kw, name := pyDefHead(src, j, line.next)
		switch {
		case src[j] == '@':
			if decorated < 0 {
				decorated = j
			}
			block = false
		case kind == "":
			if decorated >= 0 {
				return nil, false // decorators with no definition
			}
		case name < 0:
			return nil, false
		default:
			nameEnd := pyIdentEnd(src, name)
			if k := pySkipSpace(src, nameEnd, line.next); k < n && src[k] == '[' {
				return nil, false // type parameters: newer than the grammar
			}
			d := Def{Kind: kind, Start: kw, Keyword: kw, Name: string(src[name:nameEnd]), NameStart: name}
			if decorated >= 0 {
				d.Start, decorated = decorated, -1
			}
			if line.colon < 0 {
				return nil, false
			}
			if line.colon+1 == line.end {
				// The header ends the logical line: its body is the
				// block below.
				opened = append(opened, open{indent: col, def: len(defs)})
			} else {
				d.End = line.end // def f(): return 1
			}
			defs = append(defs, d)
		}
		prevEnd = line.end
		i = line.next
	}
	if block || decorated >= 0 {
		return nil, false // a header or decorators at the end of the text
	}
	for _, o := range opened {
		defs[o.def].End = prevEnd
	}
	return defs, true
}

// pyIndentOf returns the indentation column of the line starting at i,
// counting a tab as the columns up to the next multiple of 8, and the
// offset of the line's first byte that is not indentation. ok is false
// for a space before a tab or a form feed, where CPython's tokenizer and
// tree-sitter's scanner count columns differently.
func pyIndentOf(src []byte, i int) (col, j int, ok bool) {
	spaces := false
	for j = i; j < len(src); j++ {
		switch src[j] {
		case ' ':
			col, spaces = col+1, true
		case '\t':
			if spaces {
				return 0, j, false
			}
			col = (col/8 + 1) * 8
		case '\f':
			return 0, j, false
		default:
			return col, j, true
		}
	}
	return col, j, true
}

// pyLine is what pyScanLine learns of one logical line.
type pyLine struct {
	next  int  // the offset of the next line
	end   int  // the end of the line's last token (comments and white space aside)
	last  byte // that token's last byte
	colon int  // the offset of the first ':' outside brackets, or -1
}

// pyScanLine scans the logical line whose first token starts at i. ok is
// false for a bracket closed with none open or of another kind, a string
// or bracket open at the end of the text, a backslash not before a line
// ending outside a string, a continuation that no token follows, and an f-string that pyString cannot read as
// CPython 3.11 and tree-sitter both do (see pyFString).
func pyScanLine(src []byte, i int) (l pyLine, ok bool) {
	n := len(src)
	l.colon = -1
	var stack []byte // the open brackets
	word := -1       // where the identifier or number being scanned starts
	// cont: a continuation with no token after it yet. tree-sitter ends
	// a statement followed by one (and a comment line) after the
	// continuation's line ending, CPython at its last token: the reader
	// declines such a line rather than pick one.
	cont := false
	for i < n {
		c := src[i]
		if cont && c != ' ' && c != '\t' && c != '\f' && c != '#' && c != '\n' && c != '\r' {
			cont = false
		}
		if c != '\'' && c != '"' && !pyIdentByte(c) {
			word = -1
		}
		switch c {
		case '\n', '\r':
			if len(stack) == 0 {
				l.next = nextLine(src, i)
				return l, !cont
			}
			i++
		case '#':
			for i < n && src[i] != '\n' && src[i] != '\r' {
				i++
			}
		case '\\':
			if i+1 < n && (src[i+1] == '\n' || src[i+1] == '\r') {
				i = nextLine(src, i+1) // a continuation line
				cont = true
				continue
			}
			return l, false
		case '\'', '"':
			f := word >= 0 && pyFPrefix(src[word:i])
			end, ok := pyFString(src, i, f)
			if !ok {
				return l, false
			}
			i, l.end, l.last, word = end, end, c, -1
		case '(', '[', '{':
			stack = append(stack, c)
			i++
			l.end, l.last = i, c
		case ')', ']', '}':
			if len(stack) == 0 || stack[len(stack)-1] != pyOpener(c) {
				return l, false
			}
			stack = stack[:len(stack)-1]
			i++
			l.end, l.last = i, c
		case ' ', '\t', '\f':
			i++
		case ':':
			if len(stack) == 0 && l.colon < 0 {
				l.colon = i
			}
			i++
			l.end, l.last = i, c
		default:
			if word < 0 && pyIdentByte(c) {
				word = i
			}
			i++
			l.end, l.last = i, c
		}
	}
	if len(stack) > 0 || cont {
		return l, false
	}
	l.next = n
	return l, true
}

// pyOpener returns the opening bracket of the closing bracket c.
func pyOpener(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

// pyFPrefix reports whether p, the identifier characters just before a
// quote, is a string prefix that makes an f-string (f, rf, Fr, ...).
func pyFPrefix(p []byte) bool {
	if len(p) == 0 || len(p) > 2 {
		return false
	}
	f := false
	for _, c := range p {
		switch c {
		case 'f', 'F':
			f = true
		case 'r', 'R':
		default:
			return false
		}
	}
	return f
}

// pyFString returns the offset after the string literal whose opening
// quote is at src[i], as pyString reads it, and ok true when the string
// is closed: a backslash escapes the next byte, a single-quoted string
// may not reach a line ending, a triple-quoted one must end before the
// text does. For an f-string (f) ok is also false when a replacement
// field is still open at the closing quote: a quote of the string's own
// kind inside {...}, which Python 3.12 reads as a nested string and
// earlier Pythons as the string's end.
func pyFString(src []byte, i int, f bool) (end int, ok bool) {
	q, n := src[i], len(src)
	closing := 1
	if i+2 < n && src[i+1] == q && src[i+2] == q {
		closing = 3
	}
	depth := 0
	for k := i + closing; k < n; k++ {
		switch c := src[k]; {
		case c == '\\':
			k++
			if k+1 < n && src[k] == '\r' && src[k+1] == '\n' {
				k++
			}
		case c == q && (closing == 1 || k+2 < n && src[k+1] == q && src[k+2] == q):
			return k + closing, depth == 0
		case (c == '\n' || c == '\r') && closing == 1:
			return k, false
		case f && c == '{':
			if depth == 0 && k+1 < n && src[k+1] == '{' {
				k++ // {{ is a literal brace
				continue
			}
			depth++
		case f && c == '}' && depth > 0:
			depth-- // outside a field, } is a literal brace (}})
		}
	}
	return n, false
}

// pyDefHead reads the logical line [j, next) as a definition's head: its
// kind ("function" or "class", "" when the line starts no definition),
// the offset of its def, async or class keyword, and the offset of its
// name (-1 when no identifier follows the keyword).
func pyDefHead(src []byte, j, next int) (kind string, kw, name int) {
	kw = j
	k := pyIdentEnd(src, j)
	switch string(src[j:k]) {
	case "class":
		kind = "class"
	case "def":
		kind = "function"
	case "async":
		m := pySkipSpace(src, k, next)
		if m == k || string(src[m:pyIdentEnd(src, m)]) != "def" {
			return "", kw, -1
		}
		kind, k = "function", pyIdentEnd(src, m)
	default:
		return "", kw, -1
	}
	m := pySkipSpace(src, k, next)
	if m == k || m >= next || pyIdentEnd(src, m) == m || src[m] >= '0' && src[m] <= '9' {
		return kind, kw, -1
	}
	return kind, kw, m
}

// pySkipSpace returns the offset of the first byte at or after i, before
// next, that is not a space or tab.
func pySkipSpace(src []byte, i, next int) int {
	for i < next && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i
}

// pyIdentEnd returns the offset after the identifier starting at i (i
// itself when none does): ASCII letters, digits and "_", and every
// byte of a multi-byte UTF-8 character, as Python's identifiers take
// letters beyond ASCII.
func pyIdentEnd(src []byte, i int) int {
	for i < len(src) && pyIdentByte(src[i]) {
		i++
	}
	return i
}

// pyIdentByte reports whether c can be part of an identifier.
func pyIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
