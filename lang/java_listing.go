package lang

// Java's listing input: most of a Java file's tokens are inside method and
// constructor bodies, and a body holds a symbol only when a class is
// declared in it (a local class, interface, enum or record, or an
// anonymous class). javaListingInput blanks the interior of every other
// method and constructor body, so that the listing's parse (and its query
// and walks, all proportional to the tree's nodes) reads `{   }` instead.
// The bodies are found by one pass of a small lexer over the bytes,
// reading the text as tree-sitter's grammar tokenizes it, with a stack of
// bracket groups; wherever it is unsure it keeps the body, or blanks
// nothing.

// javaMaxDepth bounds the nesting of brackets javaListingInput follows,
// so that its stack lives in a fixed array; deeper text is not blanked.
const javaMaxDepth = 200

// The kinds of bracket group javaListingInput follows.
const (
	jgFile   = iota + 1 // the file, outside every bracket
	jgParen             // ( ... )
	jgClass             // the body of a class, interface, record, annotation type or anonymous class, an enum constant's body, or an enum's body after its constants
	jgEnum              // an enum's body, up to the ";" that ends its constants
	jgMethod            // a method's or constructor's body
	jgOther             // any other { ... }: a block, an array initializer, an initializer, a lambda's body
)

// The kinds of token javaListingInput tells apart. Keywords other than
// these are identifiers to it.
const (
	jtOther        = iota // a literal, a number, punctuation not below
	jtIdent               // an identifier, or a keyword not below
	jtRecord              // the identifier record, which declares a record when an identifier and "(" or "<" follow
	jtNew                 // new
	jtClass               // class
	jtInterface           // interface (and so @interface)
	jtEnum                // enum
	jtThrows              // throws
	jtControl             // a keyword a parenthesized part and a block may follow: if, for, while, switch, catch, synchronized, try
	jtDot                 // .
	jtColons              // ::
	jtAt                  // @
	jtComma               // ,
	jtSemi                // ;
	jtAssign              // =, alone or in an operator
	jtGt                  // >
	jtLt                  // <
	jtOpenParen           // (
	jtCloseParen          // )
	jtOpenBrace           // {
	jtCloseBrace          // }
	jtOpenBracket         // [
	jtCloseBracket        // ]
)

// javaGroup is one open bracket group.
type javaGroup struct {
	open int  // the offset of its opening bracket
	kind int8 // jgFile, jgParen, ...
	// decl is the kind of body (jgClass or jgEnum) that the next "{"
	// directly in this group opens: a class, interface, enum, record or
	// annotation type was declared here and its body has not begun.
	decl int8
	// newAt reports a "new" directly in this group that no "(", "[" or
	// "{" has followed yet.
	newAt bool
	// assigned reports an "=" directly in this group since its current
	// member began (after its "{", a ";" or a "}" in it): in a class body,
	// a field's initializer, where "f(x) {" is no method's head.
	assigned bool
	// A jgParen's: header, the parameters of a method or constructor
	// (an identifier before it, directly in a class body, not in an
	// initializer); control, the parenthesized part of if, for, while,
	// switch, catch, synchronized or try; creation, the arguments of new
	// T(...), which a class body may follow.
	header, control, creation bool
}

// javaListingInput is Java's Definition.ListingInput: a copy of src in
// which the interior of each method and constructor body that declares
// no class is blanked, or nil when no byte changes. A body is blanked
// from the byte after its "{" to its "}" (exclusive), every byte but '\n'
// and '\r' made a space, so that the copy has src's length and lines.
//
// A body is a group "{ ... }" that follows a method's or constructor's
// head directly in a class, interface, record, annotation type or
// anonymous class body, or in an enum's body after its constants:
// IDENT ( ... ), then array dimensions (int f()[]) or a throws clause,
// where the token before IDENT is not new, "." or record, and no "="
// precedes it in the member. It declares a class when it holds a class,
// interface, enum or record declaration ("class" after "." is a class
// literal, Foo.class, and does not count), or a "{" after ")" other than
// the block of if, for, while, switch, catch, synchronized or try: an
// anonymous class new T(...) { ... }, or text the lexer does not know.
// Initializer blocks, lambdas, compact constructors, enum constants'
// bodies and every other block are left as they are.
//
// The lexer reads the text as tree-sitter's Java grammar does: comments,
// string literals with escapes, text blocks, character literals,
// numbers, identifiers (any byte of 0x80 or above is a letter). It
// returns nil where it is unsure of that reading: an unterminated
// comment or literal, a string that spans lines, an interpolation "\{"
// in a literal, a backslash outside one (a Unicode escape, which javac
// reads as the character it stands for), brackets that do not balance,
// or brackets nested deeper than javaMaxDepth. It allocates nothing but
// the copy it returns.
func javaListingInput(src []byte) []byte {
	var stack [javaMaxDepth]javaGroup
	depth := 0
	stack[0] = javaGroup{kind: jgFile}
	var out []byte
	lastSym := -1 // the offset of the last token that may begin a class
	prev, prev2 := jtOther, jtOther
	var closed javaGroup // the parentheses that prev, a ")", closed
	// header is where a method's head stands after its parameters: 0
	// not in one, 1 after the ")" (or array dimensions), 2 in its throws
	// clause.
	header := 0
	annot := 0
	for i := 0; i < len(src); {
		c := src[i]
		start := i
		tok := jtOther
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := javaCommentEnd(src, i+2)
			if end < 0 {
				return nil
			}
			i = end
			continue
		case javaIdentStart(c):
			i++
			for i < len(src) && (javaIdentStart(src[i]) || '0' <= src[i] && src[i] <= '9') {
				i++
			}
			tok = javaWord(src[start:i])
		case '0' <= c && c <= '9':
			i = javaNumberEnd(src, i)
		case c == '"':
			if i = javaStringEnd(src, i); i < 0 {
				return nil
			}
		case c == '\'':
			if i = javaCharEnd(src, i); i < 0 {
				return nil
			}
		case c == '\\':
			return nil
		case c == ':' && i+1 < len(src) && src[i+1] == ':':
			i += 2
			tok = jtColons
		default:
			i++
			tok = javaPunct(c)
		}

		top := &stack[depth]
		wasHeader := header != 0
		switch {
		case header == 1 && (tok == jtOpenBracket || tok == jtCloseBracket):
		case header == 1 && tok == jtThrows:
			header = 2
		case header == 2 && (tok == jtIdent || tok == jtRecord || tok == jtDot || tok == jtComma || tok == jtAt):
		default:
			header = 0
		}
		// annot is where an annotation's name stands: 1 after its "@"
		// or a "." in it, 2 after an identifier in it.
		annotArgs := annot == 2 && tok == jtOpenParen
		switch {
		case tok == jtAt || annot == 2 && tok == jtDot:
			annot = 1
		case annot == 1 && (tok == jtIdent || tok == jtRecord):
			annot = 2
		default:
			annot = 0
		}
		if (tok == jtOpenParen || tok == jtLt) && prev == jtIdent && prev2 == jtRecord {
			// record R( or record R<: a record's declaration.
			lastSym = start
			top.decl = jgClass
		}
		switch tok {
		case jtClass, jtInterface, jtEnum:
			if prev != jtDot {
				lastSym = start
				top.decl = jgClass
				if tok == jtEnum {
					top.decl = jgEnum
				}
			}
		case jtNew:
			if prev != jtColons { // not Foo::new
				top.newAt = true
			}
		case jtAssign:
			top.assigned = true
		case jtSemi:
			top.newAt, top.assigned = false, false
			if top.kind == jgEnum {
				top.kind = jgClass
			}
		case jtOpenBracket:
			top.newAt = false
		case jtOpenParen:
			if depth+1 == len(stack) {
				return nil
			}
			ident := prev == jtIdent || prev == jtRecord
			g := javaGroup{open: start, kind: jgParen, control: prev == jtControl}
			if !annotArgs {
				// An annotation's arguments are neither a method's
				// parameters nor new's arguments: new @A(x) T(y).
				g.header = top.kind == jgClass && !top.assigned && !top.newAt && ident &&
					prev2 != jtNew && prev2 != jtDot && prev2 != jtRecord
				g.creation = top.newAt && (ident || prev == jtGt)
				top.newAt = false
			}
			depth++
			stack[depth] = g
		case jtCloseParen:
			if top.kind != jgParen {
				return nil
			}
			closed = *top
			depth--
			if closed.header {
				header = 1
			}
		case jtOpenBrace:
			if depth+1 == len(stack) {
				return nil
			}
			kind := int8(jgOther)
			switch {
			case top.decl != 0:
				kind, top.decl = top.decl, 0
			case top.kind == jgEnum:
				kind = jgClass // an enum constant's body
			case wasHeader:
				kind = jgMethod
			case prev == jtCloseParen && closed.control:
			case prev == jtCloseParen && closed.creation:
				kind = jgClass // an anonymous class
				lastSym = start
			case prev == jtCloseParen:
				lastSym = start // not known: may be an anonymous class
			}
			top.newAt = false
			depth++
			stack[depth] = javaGroup{open: start, kind: kind}
		case jtCloseBrace:
			if top.kind == jgParen || top.kind == jgFile {
				return nil
			}
			if top.kind == jgMethod && lastSym < top.open {
				out = javaBlank(out, src, top.open+1, start)
			}
			depth--
			stack[depth].newAt, stack[depth].assigned = false, false
		}
		prev2, prev = prev, tok
	}
	if depth != 0 {
		return nil
	}
	return out
}

// javaBlank blanks src[from:to] in out, a copy of src that it makes on
// the first change, every byte but '\n' and '\r' a space, and returns
// out. A range of spaces and line endings changes nothing.
func javaBlank(out, src []byte, from, to int) []byte {
	k := from
	for k < to && (src[k] == ' ' || src[k] == '\n' || src[k] == '\r') {
		k++
	}
	if k == to {
		return out
	}
	if out == nil {
		out = make([]byte, len(src))
		copy(out, src)
	}
	for ; k < to; k++ {
		if b := out[k]; b != '\n' && b != '\r' {
			out[k] = ' '
		}
	}
	return out
}

// javaIdentStart reports whether c may begin a Java identifier as
// javaListingInput reads it: an ASCII letter, '_', '$', or any byte of a
// multi-byte UTF-8 character.
func javaIdentStart(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '$' || c >= 0x80
}

// javaWord returns the token kind of the identifier or keyword w.
func javaWord(w []byte) int {
	switch string(w) {
	case "record":
		return jtRecord
	case "new":
		return jtNew
	case "class":
		return jtClass
	case "interface":
		return jtInterface
	case "enum":
		return jtEnum
	case "throws":
		return jtThrows
	case "if", "for", "while", "switch", "catch", "synchronized", "try":
		return jtControl
	}
	return jtIdent
}

// javaPunct returns the token kind of the punctuation byte c.
func javaPunct(c byte) int {
	switch c {
	case '.':
		return jtDot
	case '@':
		return jtAt
	case ',':
		return jtComma
	case ';':
		return jtSemi
	case '=':
		return jtAssign
	case '>':
		return jtGt
	case '<':
		return jtLt
	case '(':
		return jtOpenParen
	case ')':
		return jtCloseParen
	case '{':
		return jtOpenBrace
	case '}':
		return jtCloseBrace
	case '[':
		return jtOpenBracket
	case ']':
		return jtCloseBracket
	}
	return jtOther
}

// javaCommentEnd returns the offset after the "*/" that closes the block
// comment whose text begins at i, or -1 when none does.
func javaCommentEnd(src []byte, i int) int {
	for ; i+1 < len(src); i++ {
		if src[i] == '*' && src[i+1] == '/' {
			return i + 2
		}
	}
	return -1
}

// javaNumberEnd returns the offset after the number literal at i (a
// digit): its letters, digits, '_' and '.', and a sign after an exponent's
// e or p. Where that takes an operator too (0x1e+1), no bracket or
// quote is taken, which is all javaListingInput needs of it.
func javaNumberEnd(src []byte, i int) int {
	for i++; i < len(src); i++ {
		c := src[i]
		if (c == '+' || c == '-') && (src[i-1] == 'e' || src[i-1] == 'E' || src[i-1] == 'p' || src[i-1] == 'P') {
			continue
		}
		if !javaIdentStart(c) && !('0' <= c && c <= '9') && c != '.' {
			break
		}
	}
	return i
}

// javaStringEnd returns the offset after the string literal or text block
// whose opening quote is at i, or -1 when it is not closed, when a string
// (not a text block) reaches a line's end, or when it holds "\{" (an
// interpolation, whose expression the grammar reads as code).
func javaStringEnd(src []byte, i int) int {
	block := i+2 < len(src) && src[i+1] == '"' && src[i+2] == '"'
	if block {
		i += 3
	} else {
		i++
	}
	for i < len(src) {
		switch src[i] {
		case '\\':
			if i+1 < len(src) && src[i+1] == '{' {
				return -1
			}
			i += 2
		case '"':
			if !block {
				return i + 1
			}
			if i+2 < len(src) && src[i+1] == '"' && src[i+2] == '"' {
				return i + 3
			}
			i++
		case '\n', '\r':
			if !block {
				return -1
			}
			i++
		default:
			i++
		}
	}
	return -1
}

// javaCharEnd returns the offset after the character literal whose
// opening quote is at i, or -1 when it is empty, not closed or reaches a
// line's end.
func javaCharEnd(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '\'':
			if j == i+1 {
				return -1
			}
			return j + 1
		case '\n', '\r':
			return -1
		}
	}
	return -1
}
