package lang

// Java's listing input: most of a Java file's tokens are in method and
// constructor bodies, field initializers, parameter lists and imports,
// none of which holds a symbol unless a class is declared in it (a local
// class, interface, enum or record, or an anonymous class).
// javaListingInput blanks them, so that the listing's parse (and its
// query and walks, all proportional to the tree's nodes) reads `{   }`
// instead of a body. It finds them in one pass of a small lexer over the
// bytes, reading the text as tree-sitter's grammar tokenizes it, with a
// stack of bracket groups; wherever it is unsure it keeps the text, or
// blanks nothing.

import "bytes"

// javaMaxDepth bounds the nesting of brackets javaListingInput follows,
// so that its stack lives in a fixed array; deeper text is not blanked.
const javaMaxDepth = 200

// The kinds of bracket group javaListingInput follows.
const (
	jgFile  = iota + 1 // the file, outside every bracket
	jgParen            // ( ... )
	jgClass            // the body of a class, interface, record, annotation type or anonymous class, an enum constant's body, or an enum's body after its constants
	jgEnum             // an enum's body, up to the ";" that ends its constants
	jgBlock            // any other { ... }: a method's or constructor's body, a block, an initializer, a lambda's body, a switch's block, an array initializer
)

// The kinds of token javaListingInput tells apart. Keywords other than
// these are identifiers to it.
const (
	jtOther        = iota // a literal, a number, punctuation not below
	jtIdent               // an identifier, or a keyword not below
	jtRecord              // the identifier record, which declares a record when an identifier and "(" or "<" follow
	jtNew                 // new
	jtClass               // class
	jtInterface           // interface
	jtAtInterface         // @interface
	jtEnum                // enum
	jtThrows              // throws
	jtImport              // import
	jtPackage             // package
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
	// newAt reports a "new" directly in this group that no "(", "{", or
	// "[" outside its type's arguments (new T<int[]>), has followed yet;
	// angles counts the "<" of those arguments not yet closed.
	newAt  bool
	angles int
	// The current member of a class body or of the file (a declaration
	// directly in the group): member is the offset of its first token,
	// or -1 before it; first is that token's kind; shape is what came
	// first in it directly in the group: jtOther nothing yet, jtAssign an
	// "=" (a field's initializer, where "f(x) {" is no method's head),
	// jtOpenParen a "(" that is not an annotation's, or a "{" (a method,
	// a constructor, a record, a class, an initializer). A member ends
	// at a ";" directly in the group, and at the "}" of a body in it
	// unless it is a field (int[] a = {1}, b;).
	member   int
	first    int
	shape    int
	header   bool // a jgParen's: the parameters of a method or constructor
	control  bool // a jgParen's: the parenthesized part of if, for, while, switch, catch, synchronized or try
	creation bool // a jgParen's: the arguments of new T(...), which a class body may follow
}

// javaListingInput is Java's Definition.ListingInput: a copy of src in
// which text that can hold no symbol is blanked, or nil when no byte
// changes. Blanked text has every byte but '\n' and '\r' made a space, so
// that the copy has src's length and lines. It blanks, where no class
// may be declared in them:
//
//   - the interior, from the byte after its "{" to its "}" (exclusive),
//     of every "{ ... }" group that is not the body of a class,
//     interface, enum, record, annotation type, anonymous class or enum
//     constant: a method's or constructor's body, a block, an
//     initializer, a lambda's body, a switch's block, an array
//     initializer, each of which the grammar takes empty;
//   - the interior of a method's or constructor's parameter list;
//   - a field's declaration whole, through its ";": a member of a class
//     body in which neither a "(" other than an annotation's nor a "{"
//     comes before an "=" (no method, constructor, class or
//     initializer), which the class body does without;
//   - an import declaration whole, and a package declaration without
//     annotations, through its ";";
//   - every comment, which the grammar reads between any two tokens as
//     it reads white space.
//
// A class may be declared by a class, interface, enum or record
// declaration ("class" after "." is a class literal, Foo.class, and does
// not count), or by a "{" after ")" other than the body after a method's
// head or the block of if, for, while, switch, catch, synchronized or
// try: an anonymous class new T(...) { ... }, or text the lexer does not
// know. A method's head is IDENT ( ... ) first in a member of a class
// body, where the token before IDENT is not new, "." or record, then
// array dimensions (int f()[]) or a throws clause. What stays is every
// symbol's own text but its parameters and bodies, and every class body,
// so that the parse has each symbol's node where the whole text's parse
// has it: its range, name and nesting are the same.
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
	stack[0] = javaGroup{kind: jgFile, member: -1}
	var out []byte
	lastSym := -1 // the offset of the last token that may begin a class
	prev, prev2 := jtOther, jtOther
	var closed javaGroup // the parentheses that prev, a ")", closed
	// header is where a method's head stands after its parameters: 0
	// not in one, 1 after the ")" (or array dimensions), 2 in its throws
	// clause.
	header := 0
	// annot is where an annotation's name stands: 1 after its "@" or a
	// "." in it, 2 after an identifier in it.
	annot := 0
	i := 0
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		i = 3 // a byte order mark, which tree-sitter's lexer skips
	}
	for i < len(src) {
		c := src[i]
		start := i
		tok := jtOther
		switch {
		case c == ' ' || '\t' <= c && c <= '\r': // the grammar's white space: \t \n \v \f \r
			i++
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			// A comment, which the grammar reads as white space between
			// any two tokens (an extra): blanked, its node is not made.
			end := len(src)
			if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
				end = i + j
			}
			out = javaBlank(out, src, i, end)
			i = end
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := javaCommentEnd(src, i+2)
			if end < 0 {
				return nil
			}
			out = javaBlank(out, src, i, end)
			i = end
			continue
		case javaIdentStart(c):
			i++
			for i < len(src) && (javaIdentStart(src[i]) || '0' <= src[i] && src[i] <= '9') {
				i++
			}
			tok = javaWord(src[start:i])
			if i-start == 3 && tok == jtIdent && bytes.HasPrefix(src[start:], []byte("non-sealed")) {
				// One token to the grammar, even followed by a letter:
				// non-sealedclass is non-sealed class.
				i = start + len("non-sealed")
			}
		case c == '@' && bytes.HasPrefix(src[i+1:], []byte("interface")):
			// One token to the grammar, even followed by a letter:
			// @interfaceA declares A.
			i += len("@interface")
			tok = jtAtInterface
		case '0' <= c && c <= '9':
			if i = javaNumberEnd(src, i); i < 0 {
				return nil
			}
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
		if top.member < 0 && (top.kind == jgClass || top.kind == jgFile) && tok != jtSemi && tok != jtCloseBrace && tok != jtCloseParen {
			top.member, top.first = start, tok
		}
		wasHeader := header != 0
		switch {
		case header == 1 && (tok == jtOpenBracket || tok == jtCloseBracket):
		case header == 1 && tok == jtThrows:
			header = 2
		case header == 2 && (tok == jtIdent || tok == jtRecord || tok == jtDot || tok == jtComma || tok == jtAt):
		default:
			header = 0
		}
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
		case jtAtInterface:
			lastSym = start
			top.decl = jgClass
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
				top.newAt, top.angles = true, 0
			}
		case jtAssign:
			if top.shape == jtOther {
				top.shape = jtAssign
			}
		case jtSemi:
			switch {
			case top.kind == jgEnum:
				top.kind = jgClass
			case top.member < 0 || lastSym >= top.member:
			case top.kind == jgClass && top.shape != jtOpenParen,
				top.kind == jgFile && top.shape == jtOther && (top.first == jtImport || top.first == jtPackage):
				out = javaBlank(out, src, top.member, i)
			}
			top.newAt, top.member, top.shape = false, -1, jtOther
		case jtLt:
			if top.newAt {
				top.angles++
			}
		case jtGt:
			if top.newAt && top.angles > 0 {
				top.angles--
			}
		case jtOpenBracket:
			if top.angles == 0 {
				top.newAt = false // new int[n]
			}
		case jtOpenParen:
			if depth+1 == len(stack) {
				return nil
			}
			ident := prev == jtIdent || prev == jtRecord
			g := javaGroup{open: start, kind: jgParen, member: -1, control: prev == jtControl}
			if !annotArgs {
				// An annotation's arguments are neither a method's
				// parameters nor new's arguments: new @A(x) T(y).
				g.header = top.kind == jgClass && top.shape == jtOther && !top.newAt && ident &&
					prev2 != jtNew && prev2 != jtDot && prev2 != jtRecord
				g.creation = top.newAt && (ident || prev == jtGt)
				top.newAt = false
				if top.shape == jtOther {
					top.shape = jtOpenParen
				}
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
				if lastSym < closed.open {
					out = javaBlank(out, src, closed.open+1, start)
				}
			}
		case jtOpenBrace:
			if depth+1 == len(stack) {
				return nil
			}
			kind := int8(jgBlock)
			switch {
			case top.decl != 0:
				kind, top.decl = top.decl, 0
			case top.kind == jgEnum:
				kind = jgClass // an enum constant's body
			case wasHeader:
				// A method's or constructor's body.
			case prev == jtCloseParen && closed.control:
			case prev == jtCloseParen && closed.creation:
				kind = jgClass // an anonymous class
				lastSym = start
			case prev == jtCloseParen:
				lastSym = start // not known: may be an anonymous class
			}
			top.newAt = false
			if top.shape == jtOther {
				top.shape = jtOpenParen
			}
			depth++
			stack[depth] = javaGroup{open: start, kind: kind, member: -1}
		case jtCloseBrace:
			if top.kind == jgParen || top.kind == jgFile {
				return nil
			}
			if top.kind == jgBlock && lastSym < top.open {
				out = javaBlank(out, src, top.open+1, start)
			}
			depth--
			if p := &stack[depth]; p.shape != jtAssign {
				p.member, p.shape = -1, jtOther
			}
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
	if out == nil {
		k := from
		for k < to && (src[k] == ' ' || src[k] == '\n' || src[k] == '\r') {
			k++
		}
		if k == to {
			return out
		}
		out = make([]byte, len(src))
		copy(out, src)
		from = k
	}
	// Line by line, each line's text (a CR before its LF kept) filled
	// with spaces in chunks: a range is blanked again when the group
	// around it is, so this runs at memory speed.
	for from < to {
		end := to
		if j := bytes.IndexByte(out[from:to], '\n'); j >= 0 {
			end = from + j
		}
		line := out[from:end]
		if j := bytes.IndexByte(line, '\r'); j >= 0 {
			for k, b := range line {
				if b != '\r' {
					line[k] = ' '
				}
			}
		} else {
			for len(line) > 0 {
				line = line[copy(line, javaSpaces):]
			}
		}
		from = end + 1
	}
	return out
}

// javaSpaces is what javaBlank fills lines with.
const javaSpaces = "                                                                " +
	"                                                                "

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
	case "import":
		return jtImport
	case "package":
		return jtPackage
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
	if j := bytes.Index(src[i:], []byte("*/")); j >= 0 {
		return i + j + 2
	}
	return -1
}

// javaNumberEnd returns the offset after the number literal at i (a
// digit) as the grammar reads it: an integer (decimal, 0x hexadecimal,
// 0b binary, octal) or a floating-point number, with '_' between digits
// and a suffix (l, f, d), or -1 when a letter or a digit follows it,
// which the grammar reads as a token of its own (1class is 1 and class).
func javaNumberEnd(src []byte, i int) int {
	digits := func(i int, hex bool) int {
		for i < len(src) {
			c := src[i]
			if !('0' <= c && c <= '9' || c == '_' || hex && ('a' <= c|0x20 && c|0x20 <= 'f')) {
				break
			}
			i++
		}
		return i
	}
	exponent := func(i int, e byte) int {
		if i < len(src) && src[i]|0x20 == e {
			i++
			if i < len(src) && (src[i] == '+' || src[i] == '-') {
				i++
			}
			i = digits(i, false)
		}
		return i
	}
	hex := src[i] == '0' && i+1 < len(src) && src[i+1]|0x20 == 'x'
	switch {
	case hex:
		i = digits(i+2, true)
		if i < len(src) && src[i] == '.' {
			i = digits(i+1, true)
		}
		i = exponent(i, 'p')
	case src[i] == '0' && i+1 < len(src) && src[i+1]|0x20 == 'b':
		i = digits(i+2, false)
	default:
		i = digits(i, false)
		if i < len(src) && src[i] == '.' {
			i = digits(i+1, false)
		}
		i = exponent(i, 'e')
	}
	if i < len(src) {
		switch src[i] | 0x20 {
		case 'l', 'f', 'd':
			i++
		}
	}
	if i < len(src) && (javaIdentStart(src[i]) || '0' <= src[i] && src[i] <= '9') {
		return -1
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
