package lang

// The C and C++ parser input: tree-sitter reads C before the
// preprocessor, so a macro it cannot expand or a conditional whose
// branches each open a block costs it every declaration up to the end of
// the enclosing block (or of the file). cMask rewrites a copy of the
// text, of the same length and with every newline (and CR) where it was,
// so that every offset, line and column the tree reports is the file's
// own. In order:
//
//   - conditional groups (#if/#ifdef/#ifndef ... #elif/#else ... #endif)
//     whose branches change the depth of braces or parentheses (#if X\n
//     int f(a) {\n#else\n int f(a, b) {\n#endif, or #if X\n if( rc ){\n
//     #endif and the "}" in a later group): the first branch is kept
//     inline and the directives and the other branches are blanked, as
//     if the preprocessor took every first branch; so is a group that an
//     "else" follows (its branches end an if chain the else continues).
//     #if 0 blanks its first branch (often prose), #if 1 the others.
//   - the comments in a #define that spans lines, which end the
//     grammar's reading of the macro's body (the line continuations are
//     kept).
//   - a directive inside parentheses, brackets, an initializer or the
//     middle of a declaration (static const Mem m\n#if ...\n
//     __attribute__((aligned(8)))\n#endif\n = {...}), where the grammar
//     takes none: a group without #else is blanked whole (code added
//     under a condition), else its directives and branches after the
//     first; and so a group that begins between statements but whose
//     first branch ends in the middle of one (#ifndef X\n if( a )\n
//     #endif\n {, or }else before the #endif). A macro used on a line
//     of its own without a ";" (GTEST_DISABLE_MSC_WARNINGS_PUSH_(4251))
//     ends a statement here.
//   - an all-capital word in a declaration's head that the declaration
//     cannot hold as a type or a name (SQLITE_API int f(void), static
//     SQLITE_NOINLINE void g(void), class GTEST_API_ X {}): a macro that
//     expands to a storage class or an attribute, blanked; where it
//     begins the declaration on the declaration's line it is written as
//     the storage class "static" and blanks, so that the declaration's
//     range still begins where the macro does, as clang's does.
//   - the arguments of an all-capital macro's call that begins a
//     statement at file, namespace or class scope and that a ";" or a
//     body follows (GMOCK_DEFINE_DEFAULT_ACTION_FOR_RETURN_TYPE_(void, );,
//     ACTION_TEMPLATE(F, HAS_1_TEMPLATE_PARAMS(template <typename P>
//     class, Ptr), AND_0_VALUE_PARAMS()) {...}): types and keywords,
//     neither expressions nor parameters, blanked; the call stays.
//   - a macro after a function declarator's parameters (int Run()
//     GTEST_MUST_USE_RESULT_;, f() const GTEST_LOCK_EXCLUDED_(mu) {),
//     an attribute the grammar cannot read there, blanked with its
//     arguments.
//   - a macro's call that declares things on lines of its own, with no
//     ";" after it (GTEST_IMPL_CMP_HELPER_(GT, >) and then the next
//     declaration), blanked whole: the grammar would read it and what
//     follows as one declaration.
//   - a hexadecimal escape of one digit in a string or character
//     literal ("mm\x6", "\x0"), which the grammar's escapes (two digits
//     or more) do not take, losing the literal and what follows: its x
//     is written as 0, an octal escape of the same length.
//   - a macro's call whose arguments are statements
//     (SimulateIOError(return SQLITE_IOERR);, MUTEX_LOGIC( int x; )):
//     its arguments, or the whole call when no ";" follows, blanked.
//
// The text a user or a model reads, every edit and every name are the
// file's: only the parser (symbols' and the syntax guard's, which share
// their trees) reads the copy.

import "bytes"

// cTok is one token of C or C++ text: its kind and its bytes
// [start, end).
type cTok struct {
	kind       byte // 'w' word, 'p' punctuation, 's' string or char literal, 'n' number, '#' directive line
	start, end int
}

// cLex splits src into tokens, skipping white space and comments; a
// preprocessor directive (a line whose first non-blank is "#", with its
// continuation lines) is one token.
func cLex(src []byte) []cTok {
	var toks []cTok
	lineStart := true // only blanks since the last newline
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			lineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i = cCommentEnd(src, i)
			continue
		}
		start := i
		switch {
		case c == '#' && lineStart:
			i = cDirectiveEnd(src, i)
			toks = append(toks, cTok{'#', start, i})
			continue // lineStart stays: the directive ends at its newline
		case cIdentByte(c) && !('0' <= c && c <= '9'):
			for i < len(src) && cIdentByte(src[i]) {
				i++
			}
			if i < len(src) && (src[i] == '"' || src[i] == '\'') && cLiteralPrefix(src[start:i]) {
				i = cLiteralEnd(src, start, i)
				toks = append(toks, cTok{'s', start, i})
			} else {
				toks = append(toks, cTok{'w', start, i})
			}
		case '0' <= c && c <= '9' || c == '.' && i+1 < len(src) && '0' <= src[i+1] && src[i+1] <= '9':
			i++
			for i < len(src) {
				d := src[i]
				if (d == '+' || d == '-') && (src[i-1] == 'e' || src[i-1] == 'E' || src[i-1] == 'p' || src[i-1] == 'P') {
					i++
					continue
				}
				if !cIdentByte(d) && d != '.' && !(d == '\'' && i+1 < len(src) && cIdentByte(src[i+1])) {
					break
				}
				i++
			}
			toks = append(toks, cTok{'n', start, i})
		case c == '"' || c == '\'':
			i = cLiteralEnd(src, start, i)
			toks = append(toks, cTok{'s', start, i})
		case c == ':' && i+1 < len(src) && src[i+1] == ':':
			i += 2
			toks = append(toks, cTok{'p', start, i})
		default:
			i++
			toks = append(toks, cTok{'p', start, i})
		}
		lineStart = false
	}
	return toks
}

// cCommentEnd returns the offset after the /* */ comment at i (the end
// of src when it is not closed).
func cCommentEnd(src []byte, i int) int {
	if j := bytes.Index(src[i+2:], []byte("*/")); j >= 0 {
		return i + 2 + j + 2
	}
	return len(src)
}

// cDirectiveEnd returns the offset of the newline that ends the
// directive at i, past backslash continuations and comments that span
// lines, or the end of src.
func cDirectiveEnd(src []byte, i int) int {
	for i < len(src) {
		switch c := src[i]; {
		case c == '\n':
			return i
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			i += 2
		case c == '\\' && i+2 < len(src) && src[i+1] == '\r' && src[i+2] == '\n':
			i += 3
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i = cCommentEnd(src, i)
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		default:
			i++
		}
	}
	return i
}

// cLiteralPrefix reports whether p, the word before a quote, is a string
// or character literal's prefix (L, u, U, u8, each with an R for a raw
// string).
func cLiteralPrefix(p []byte) bool {
	switch string(p) {
	case "L", "u", "U", "u8", "R", "LR", "uR", "UR", "u8R":
		return true
	}
	return false
}

// cLiteralEnd returns the offset after the literal whose prefix begins
// at start and whose quote is at q: a raw string R"d( ... )d" ends at
// its delimiter, any other at its closing quote or at the end of the
// line (an unclosed literal, or an apostrophe in a comment-less #error).
func cLiteralEnd(src []byte, start, q int) int {
	quote := src[q]
	if quote == '"' && q > start && src[q-1] == 'R' {
		if open := bytes.IndexByte(src[q+1:], '('); open >= 0 && open <= 16 {
			delim := src[q+1 : q+1+open]
			closing := append(append([]byte(")"), delim...), '"')
			if j := bytes.Index(src[q+2+open:], closing); j >= 0 {
				return q + 2 + open + j + len(closing)
			}
			return len(src)
		}
	}
	for i := q + 1; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case quote:
			return i + 1
		case '\n':
			return i
		}
	}
	return len(src)
}

// cDirective returns the name of the directive token t (if, ifdef,
// else, endif, define, ...).
func cDirective(src []byte, t cTok) string {
	i, j := cDirectiveSpan(src, t)
	return string(src[i:j])
}

// cDirectiveSpan returns the offsets of the directive token t's name,
// after "#" and any blanks: [start, end).
func cDirectiveSpan(src []byte, t cTok) (start, end int) {
	i := t.start + 1
	for i < t.end && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	j := i
	for j < t.end && cIdentByte(src[j]) {
		j++
	}
	return i, j
}

// cBlank writes blanks over out[start:end], keeping newlines and CRs.
func cBlank(out []byte, start, end int) {
	for i := start; i < end; i++ {
		if out[i] != '\n' && out[i] != '\r' {
			out[i] = ' '
		}
	}
}

// cMask returns src as C's or C++'s tree-sitter grammar should read it
// (see the top of this file), or nil when nothing changes. It does not
// modify src.
func cMask(src []byte) []byte {
	var out []byte
	toks := cLex(src)
	if spans := cBranchSpans(src, toks); len(spans) > 0 {
		out = bytes.Clone(src)
		for _, s := range spans {
			cBlank(out, s[0], s[1])
		}
		toks = cLex(out)
	}
	text := src
	if out != nil {
		text = out
	}
	for _, t := range toks {
		if t.kind == '#' && bytes.IndexByte(text[t.start:t.end], '\n') >= 0 && cDirective(text, t) == "define" {
			// A macro's body is opaque to the grammar, whose reading
			// of one that spans lines ends at a comment in it: the
			// comments are blanked, the line continuations kept.
			for i := cDefineBody(text, t); i < t.end; i++ {
				switch {
				case text[i] == '"' || text[i] == '\'':
					i = cLiteralEnd(text, i, i) - 1
				case text[i] == '/' && i+1 < t.end && text[i+1] == '*':
					end := min(cCommentEnd(text, i), t.end)
					if out == nil {
						out = bytes.Clone(src)
						text = out
					}
					cBlank(out, i, end)
					i = end - 1
				}
			}
		}
	}
	for _, t := range toks {
		if t.kind != 's' {
			continue
		}
		for _, at := range cShortHexEscapes(text, t) {
			if out == nil {
				out = bytes.Clone(src)
				text = out
			}
			out[at] = '0'
		}
	}
	if spans := cExpressionDirectives(text, toks); len(spans) > 0 {
		if out == nil {
			out = bytes.Clone(src)
			text = out
		}
		for _, s := range spans {
			cBlank(out, s[0], s[1])
		}
		toks = cLex(out)
	}
	for _, m := range cMacroWords(text, toks) {
		if out == nil {
			out = bytes.Clone(src)
			text = out
		}
		cBlank(out, m.start, m.end)
		if m.write != "" && m.end-m.start >= len(m.write) {
			copy(out[m.start:], m.write)
		}
	}
	return out
}

// cBranch is one branch of a conditional group: the directive token
// that opens it and the token after its last.
type cBranch struct {
	dir, end int // token indexes
}

// cBranchSpans returns the byte spans [start, end) to blank: in each
// conditional group whose branches all change the depth of braces and
// of parentheses alike, and not by zero, the branches after the first,
// from the directive that opens the second to the #endif (left). Nested
// groups are decided first; a nested group's change is its first
// branch's when its others are blanked, else its branches' sum.
func cBranchSpans(src []byte, toks []cTok) [][2]int {
	var spans [][2]int
	// group returns the index of the token after the group whose first
	// directive is toks[i], and the braces' and parentheses' depth
	// changes the parser sees in it.
	var group func(i, depth int) (next, braces, parens int)
	// run reads tokens from i up to a directive that ends or divides the
	// enclosing group, returning that directive's index and the changes.
	run := func(i, depth int) (next, braces, parens int) {
		for i < len(toks) {
			t := toks[i]
			switch t.kind {
			case '#':
				switch cDirective(src, t) {
				case "if", "ifdef", "ifndef":
					if depth > 64 {
						i++
						continue
					}
					n, b, p := group(i, depth+1)
					braces += b
					parens += p
					i = n
					continue
				case "elif", "else", "elifdef", "elifndef", "endif":
					return i, braces, parens
				}
			case 'p':
				switch src[t.start] {
				case '{':
					braces++
				case '}':
					braces--
				case '(':
					parens++
				case ')':
					parens--
				}
			}
			i++
		}
		return i, braces, parens
	}
	group = func(i, depth int) (next, braces, parens int) {
		var branches []cBranch
		var changes [][2]int
		for {
			n, b, p := run(i+1, depth)
			branches = append(branches, cBranch{dir: i, end: n})
			changes = append(changes, [2]int{b, p})
			if n >= len(toks) {
				next = n
				break
			}
			if cDirective(src, toks[n]) == "endif" {
				next = n + 1
				break
			}
			i = n
		}
		closed := next <= len(toks) && next > 0 && cDirective(src, toks[next-1]) == "endif"
		// #if 0 ... is never taken, and #if 1 ... always is: the branch
		// that is not taken is blanked, whatever it holds (often prose).
		switch cIfConstant(src, toks[branches[0].dir]) {
		case "0":
			spans = append(spans, [2]int{toks[branches[0].dir].end, toks[branches[0].end].start})
			branches, changes = branches[1:], changes[1:]
			if len(branches) == 0 {
				return next, 0, 0
			}
		case "1":
			if len(branches) > 1 && closed {
				spans = append(spans, [2]int{toks[branches[1].dir].start, toks[next-1].start})
				return next, changes[0][0], changes[0][1]
			}
		}
		unbalanced := false
		for _, c := range changes {
			unbalanced = unbalanced || c != [2]int{}
		}
		// An "else" right after the group continues an if of its
		// branches (googletest's DefaultDeathTestFactory::Create:
		// #if ... if (a) {...}\n#else\n if (b) {...}\n#endif\n else {...}),
		// which the grammar, reading the group as a whole statement,
		// cannot see: the group is read inline, as an unbalanced one.
		if closed && next < len(toks) && toks[next].kind == 'w' && string(src[toks[next].start:toks[next].end]) == "else" {
			unbalanced = true
		}
		if unbalanced && closed {
			// The grammar reads a conditional's branches as whole
			// statements or declarations: one that opens a block
			// (#if X\n if( rc==0 ){\n#endif, and the } in another
			// group) is read as the preprocessor would with X
			// defined, the first branch inline, the rest blanked.
			spans = append(spans, [2]int{toks[branches[0].dir].start, toks[branches[0].dir].end})
			if len(branches) > 1 {
				spans = append(spans, [2]int{toks[branches[1].dir].start, toks[next-1].end})
			} else {
				spans = append(spans, [2]int{toks[next-1].start, toks[next-1].end})
			}
			return next, changes[0][0], changes[0][1]
		}
		for _, c := range changes {
			braces += c[0]
			parens += c[1]
		}
		return next, braces, parens
	}
	for i := 0; i < len(toks); {
		n, _, _ := run(i, 0)
		if n == i {
			n++ // a stray #else or #endif
		}
		i = n
	}
	return spans
}

// cMacro is a macro of a declaration's head to blank, [start, end);
// write, when not "", is a keyword written over its start: "static"
// where the declaration begins with the macro, to keep the
// declaration's start, "int" where the macro is the declaration's type
// (typedef GTEST_REMOVE_REFERENCE_AND_CONST_(T) RawT;).
type cMacro struct {
	start, end int
	write      string
}

// cLead returns "static" when lead, else "".
func cLead(lead bool) string {
	if lead {
		return "static"
	}
	return ""
}

// cTypeWords are the keywords that are, or begin, a type: a declaration
// that has one holds no type name.
var cTypeWords = map[string]bool{
	"void": true, "char": true, "short": true, "int": true, "long": true, "float": true, "double": true,
	"signed": true, "unsigned": true, "_Bool": true, "bool": true, "wchar_t": true, "char8_t": true,
	"char16_t": true, "char32_t": true, "__int128": true, "_Complex": true, "auto": true, "__int64": true,
	"__int32": true, "__int16": true, "__int8": true,
}

// cSpecifierWords are the keywords of a declaration's specifiers that
// are not a type.
var cSpecifierWords = map[string]bool{
	"static": true, "extern": true, "inline": true, "const": true, "volatile": true, "restrict": true,
	"register": true, "thread_local": true, "_Thread_local": true, "__thread": true, "virtual": true,
	"explicit": true, "friend": true, "constexpr": true, "consteval": true, "constinit": true,
	"mutable": true, "typedef": true, "typename": true, "_Noreturn": true, "noreturn": true,
	"__inline": true, "__inline__": true, "__forceinline": true, "__extension__": true, "_Atomic": true,
	"__restrict": true, "__restrict__": true, "__const": true, "__volatile__": true,
}

// cParenWords are the words whose parenthesized operand belongs to a
// declaration's head; decltype and typeof are a type.
var cParenWords = map[string]bool{
	"__attribute__": true, "__attribute": true, "__declspec": true, "alignas": true, "_Alignas": true,
	"decltype": true, "typeof": true, "__typeof__": true, "__typeof": true,
}

// cNotDeclarations are the words that begin something whose head is not
// a declaration's specifiers and declarator.
var cNotDeclarations = map[string]bool{
	"using": true, "namespace": true, "static_assert": true, "_Static_assert": true, "concept": true,
	"requires": true, "export": true, "module": true, "import": true, "asm": true, "__asm__": true,
	"public": true, "private": true, "protected": true, "return": true, "template": true,
	"if": true, "for": true, "while": true, "do": true, "switch": true, "case": true, "default": true,
	"goto": true, "break": true, "continue": true, "else": true, "sizeof": true, "new": true, "delete": true,
	"throw": true, "co_return": true, "co_await": true, "co_yield": true, "typeid": true, "alignof": true,
}

// cMacroName reports whether w looks like a macro's name: capital
// letters, digits and underscores, three bytes or more, beginning with a
// letter.
func cMacroName(w []byte) bool {
	if len(w) < 3 || w[0] < 'A' || w[0] > 'Z' {
		return false
	}
	for _, c := range w {
		if !('A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// cMacroWords returns the macro words to blank in the heads of the
// declarations at file, namespace, extern "C" and class scope of text
// (toks its tokens, directives included).
func cMacroWords(text []byte, all []cTok) []cMacro {
	// Directives are transparent to declarations.
	toks := make([]cTok, 0, len(all))
	for _, t := range all {
		if t.kind != '#' {
			toks = append(toks, t)
		}
	}
	is := func(i int, s string) bool {
		return i >= 0 && i < len(toks) && string(text[toks[i].start:toks[i].end]) == s
	}
	word := func(i int) string { return string(text[toks[i].start:toks[i].end]) }
	var out []cMacro
	decl := []bool{true} // the scopes' kinds, innermost last: true where declarations are
	stmt := 0            // the first token of the current statement
	for i := 0; i < len(toks); i++ {
		inDecl := decl[len(decl)-1]
		if i == stmt && inDecl && i+1 < len(toks) && toks[i].kind == 'w' && word(i+1) == "(" &&
			cMacroName(text[toks[i].start:toks[i].end]) {
			// A macro's call that declares things, at file, namespace or
			// class scope (GMOCK_DEFINE_DEFAULT_ACTION_FOR_RETURN_TYPE_(void, );),
			// or that heads a definition whose body follows it
			// (ACTION_TEMPLATE(ReturnSmartPointer,
			// HAS_1_TEMPLATE_PARAMS(template <typename Pointee> class, Pointer),
			// AND_1_VALUE_PARAMS(pointee)) {...}, TEST(Suite, Name) {...}):
			// its arguments (types, keywords, empty ones) are neither
			// expressions nor parameters, and the grammar, which reads a
			// declaration there, can lose the scope's end. They are
			// blanked; the call stays, and with a body after it reads as
			// a function named after the macro.
			if e := cCloseParen(text, toks, i+1); e > i+2 && e+1 < len(toks) && (word(e+1) == ";" || word(e+1) == "{") {
				out = append(out, cMacro{start: toks[i+1].end, end: toks[e].start})
			}
		}
		if i == stmt && inDecl {
			if e, ok := cOwnLineCall(text, toks, i); ok {
				// A macro's call on a line of its own, without a ";",
				// that declares things (GTEST_IMPL_CMP_HELPER_(GT, >)
				// before the next declaration): no part of what
				// follows, blanked whole; or an attribute's, whose
				// arguments are literals, before a declaration.
				m := cMacro{start: toks[i].start, end: toks[e].end}
				if cAttributeCall(text, toks, i, e) {
					// An attribute's macro (GTEST_ATTRIBUTE_PRINTF_(2, 3)
					// before static void ColoredPrintf(...)): the
					// declaration begins at it, as clang's range does.
					m.write = "static"
				}
				out = append(out, m)
				i = e
				stmt = e + 1
				continue
			}
		}
		if i == stmt {
			if m, end, ok := cStatementMacro(text, toks, i); ok {
				out = append(out, m)
				if end > i {
					// The call had no ";": the next statement follows it.
					i = end
					stmt = end + 1
					continue
				}
			} else {
				out = append(out, cHead(text, toks, i)...)
			}
		}
		t := toks[i]
		if t.kind != 'p' {
			continue
		}
		switch text[t.start] {
		case ')':
			if inDecl {
				if m, ok := cTrailingMacro(text, toks, stmt, i); ok {
					out = append(out, m)
				}
			}
		case '{':
			decl = append(decl, inDecl && cOpensScope(text, toks, stmt, i))
			stmt = i + 1
		case '}':
			if len(decl) > 1 {
				decl = decl[:len(decl)-1]
			}
			stmt = i + 1
		case ';':
			stmt = i + 1
		case ':':
			if is(i-1, "public") || is(i-1, "private") || is(i-1, "protected") {
				stmt = i + 1
			}
		}
	}
	return out
}

// cOpensScope reports whether the "{" at toks[brace] that ends a
// statement begun at toks[stmt] opens a scope of declarations: a
// namespace's, an extern "C" block's, or a struct's, union's or class's
// body (not an enum's, a function's or an initializer's).
func cOpensScope(text []byte, toks []cTok, stmt, brace int) bool {
	word := func(i int) string { return string(text[toks[i].start:toks[i].end]) }
	if brace > stmt && toks[brace-1].kind == 's' && brace-2 >= stmt && word(brace-2) == "extern" {
		return true
	}
	angle, paren := 0, 0
	tag := false
	for i := stmt; i < brace; i++ {
		w := word(i)
		switch w {
		case "<":
			angle++
		case ">":
			angle--
		case "(":
			paren++
		case ")":
			paren--
		case "=":
			if paren == 0 && angle <= 0 {
				return false
			}
		case "namespace":
			return true
		case "enum":
			if paren == 0 && angle <= 0 {
				return false
			}
		case "struct", "union", "class":
			if paren == 0 && angle <= 0 {
				tag = true
			}
		}
	}
	return tag && brace > stmt && word(brace-1) != ")"
}

// cHead returns the macro words to blank in the head of the declaration
// that begins at toks[i] (see cMask).
func cHead(text []byte, toks []cTok, i int) []cMacro {
	word := func(i int) string { return string(text[toks[i].start:toks[i].end]) }
	// skipGroup returns the index after the group that opens at toks[j]
	// with open and closes with close.
	skipGroup := func(j int, open, close string) int {
		depth := 0
		for ; j < len(toks); j++ {
			switch word(j) {
			case open:
				depth++
			case close:
				depth--
				if depth == 0 {
					return j + 1
				}
			case ";", "{", "}":
				return j // not a group after all
			}
		}
		return j
	}
	// item is a name of the head: a type's or the declarator's, one
	// token or a qualified or templated name.
	type item struct {
		first, last int // token indexes
		single      bool
	}
	var items []item
	var macros []cMacro
	hasType, declarator := false, false
	typeCall := -1 // the index in macros of a macro's call inside the head
	j := i
	for j+1 < len(toks) && word(j) == "template" && word(j+1) == "<" {
		j = skipGroup(j+1, "<", ">")
	}
	for j+1 < len(toks) && word(j) == "[" && word(j+1) == "[" {
		j = skipGroup(j, "[", "]")
	}
	start := j // the first token after template <...> and attributes
	for j < len(toks) {
		t := toks[j]
		w := word(j)
		if t.kind == 'p' {
			switch w {
			case "*", "&", "^":
				j++
				continue
			case "::":
				// A global qualifier: the name that follows.
			default:
				j = len(toks) // a terminator
				continue
			}
		} else if t.kind != 'w' {
			break
		}
		switch {
		case w == "operator":
			items = append(items, item{first: j, last: j})
			declarator = true
			j = len(toks)
			continue
		case cNotDeclarations[w] && j == start:
			return nil
		case cNotDeclarations[w]:
			j = len(toks)
			continue
		case cParenWords[w]:
			if w == "decltype" || w[0] == 't' || w[1] == '_' && w[2] == 't' {
				hasType = true
			}
			j++
			if j < len(toks) && word(j) == "(" {
				j = skipGroup(j, "(", ")")
			}
			declarator = false
			continue
		case cTypeWords[w]:
			hasType, declarator = true, false
			j++
			continue
		case cSpecifierWords[w]:
			j++
			continue
		case w == "struct" || w == "union" || w == "enum" || w == "class":
			hasType, declarator = true, false
			j++
			if w == "enum" && j < len(toks) && (word(j) == "class" || word(j) == "struct") {
				j++
			}
			// The words after the keyword: macros, then the tag's name,
			// when a body or a base clause follows them.
			k := j
			for k < len(toks) && toks[k].kind == 'w' && !cSpecifierWords[word(k)] && !cTypeWords[word(k)] {
				k++
			}
			// A specialization's name has its arguments after it
			// (class GTEST_API_ Matcher<const std::string&> {).
			after := k
			if k-j >= 2 && k < len(toks) && word(k) == "<" {
				after = skipGroup(k, "<", ">")
			}
			if k-j >= 2 && after < len(toks) && (word(after) == "{" || word(after) == ":" && word(after-1) != "final" ||
				word(after) == "final" || word(k-1) == "final") {
				name := k - 1
				if word(name) == "final" {
					name--
				}
				for m := j; m < name; m++ {
					if cMacroName(text[toks[m].start:toks[m].end]) {
						macros = append(macros, cMacro{start: toks[m].start, end: toks[m].end})
					}
				}
				j = k
			} else if j < len(toks) && toks[j].kind == 'w' {
				j++ // the tag's name
			}
			for j < len(toks) && word(j) == "<" {
				j = skipGroup(j, "<", ">")
			}
			continue
		}
		// A name, qualified and templated as may be.
		first := j
		single := true
		for {
			if word(j) == "::" {
				single = false
				j++
			}
			if j >= len(toks) || toks[j].kind != 'w' {
				break
			}
			j++
			if j < len(toks) && word(j) == "<" && !cMacroName(text[toks[j-1].start:toks[j-1].end]) {
				j = skipGroup(j, "<", ">")
				single = false
			}
			if j >= len(toks) || word(j) != "::" {
				break
			}
		}
		if j == first {
			break
		}
		// A macro's call before more of the head (an attribute macro).
		if single && j < len(toks) && word(j) == "(" && cMacroName(text[toks[first].start:toks[first].end]) {
			after := skipGroup(j, "(", ")")
			if _, trailing := cTrailingMacro(text, toks, i, after-1); first != i && trailing {
				// The declarator, with a macro after its parameters
				// (int RUN_ALL_TESTS() GTEST_MUST_USE_RESULT_;).
				after = j
			}
			if after < len(toks) && toks[after].kind == 'w' && after > j {
				// On a line of its own (GTEST_DISABLE_MSC_WARNINGS_PUSH_(4251)
				// before namespace testing {), the call is no part of
				// what follows: blanked, not written as a storage class.
				own := first == i && bytes.IndexByte(text[toks[after-1].end:toks[after].start], '\n') >= 0
				macros = append(macros, cMacro{start: toks[first].start, end: toks[after-1].end, write: cLead(first == i && !own)})
				if own || cNotDeclarations[word(after)] {
					return macros
				}
				if first != i {
					typeCall = len(macros) - 1
				}
				j = after
				continue
			}
		}
		items = append(items, item{first: first, last: j - 1, single: single})
		declarator = true
	}
	if typeCall >= 0 && !hasType && len(items) == 1 && declarator {
		// The macro's call is the declaration's only type.
		macros[typeCall].write = "int"
		return macros
	}
	want := 1
	if hasType {
		want = 0
	}
	if declarator {
		want++
	}
	extra := len(items) - want
	for n, it := range items {
		if extra <= 0 || declarator && n == len(items)-1 {
			break
		}
		if it.single && cMacroName(text[toks[it.first].start:toks[it.first].end]) {
			macros = append(macros, cMacro{start: toks[it.first].start, end: toks[it.first].end, write: cLead(it.first == i)})
			extra--
		}
	}
	return macros
}

// cIfConstant returns "0" or "1" when the directive t is #if 0 or #if 1
// (a comment after it aside), else "".
func cIfConstant(src []byte, t cTok) string {
	if cDirective(src, t) != "if" {
		return ""
	}
	rest := src[t.start:t.end]
	rest = rest[bytes.Index(rest, []byte("if"))+2:]
	toks := cLex(rest)
	if len(toks) == 1 && toks[0].kind == 'n' {
		if v := string(rest[toks[0].start:toks[0].end]); v == "0" || v == "1" {
			return v
		}
	}
	return ""
}

// cExpressionDirectives returns the byte spans [start, end) to blank
// where a directive sits inside parentheses, brackets or an
// initializer's braces, where the grammar takes none: each such
// directive, and of a conditional group that begins there the branches
// after the first.
func cExpressionDirectives(text []byte, toks []cTok) [][2]int {
	var spans [][2]int
	var stack []byte // '(' '[', 'i' an initializer's brace, 'b' any other brace
	last := -1       // the last token that is not a directive
	// inside reports whether a token now would be inside an expression:
	// in parentheses, brackets or an initializer, or in the middle of a
	// statement or a declaration.
	inside := func() bool {
		if len(stack) > 0 && stack[len(stack)-1] != 'b' {
			return true
		}
		if last < 0 || toks[last].kind != 'p' {
			return last >= 0 && !cMacroLine(text, toks, last)
		}
		switch text[toks[last].start] {
		case ';', '{', '}', ':':
			return false
		case ')':
			return !cMacroLine(text, toks, last)
		}
		return true
	}
	expr := func() bool { return len(stack) > 0 && stack[len(stack)-1] != 'b' }
	prev := func(int) string {
		if last < 0 {
			return ""
		}
		return string(text[toks[last].start:toks[last].end])
	}
	// cGroup is an open conditional group: whether it began in an
	// expression, its first directive's index, the last token before it
	// and whether its first branch is still being read.
	type cGroup struct {
		expr        bool
		dir, before int
		first       bool
	}
	var groups []cGroup
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind == '#' {
			d := cDirective(text, t)
			// A group that began between statements but whose first
			// branch ends in the middle of one (SQLite's sqlite3GetToken:
			// #ifndef X\n if( !sqlite3Isdigit(z[1]) )\n#endif\n {, or
			// }else\n#endif): the grammar, which reads a branch as whole
			// statements, loses the statement and the function. It is
			// read as one that begins in an expression.
			midway := false
			switch d {
			case "elif", "else", "elifdef", "elifndef", "endif":
				if n := len(groups); n > 0 && groups[n-1].first {
					g := &groups[n-1]
					g.first = false
					midway = !g.expr && last > g.before && inside()
				}
			}
			switch d {
			case "if", "ifdef", "ifndef":
				if inside() {
					// A group without #else is code added under a
					// condition: the text without it is the one to read.
					if j := cGroupNext(text, toks, i); j < len(toks) && cDirective(text, toks[j]) == "endif" {
						spans = append(spans, [2]int{t.start, toks[j].end})
						i = j
						continue
					}
				}
				groups = append(groups, cGroup{expr: inside(), dir: i, before: last, first: true})
			case "elif", "else", "elifdef", "elifndef":
				if n := len(groups); n > 0 && (groups[n-1].expr || midway) {
					// Skip to the group's #endif, blanking what is between.
					depth := 0
					j := i + 1
					for ; j < len(toks); j++ {
						if toks[j].kind != '#' {
							continue
						}
						switch cDirective(text, toks[j]) {
						case "if", "ifdef", "ifndef":
							depth++
						case "endif":
							depth--
						}
						if depth < 0 {
							break
						}
					}
					if j >= len(toks) {
						return spans // an unclosed group: leave it
					}
					spans = append(spans, [2]int{t.start, toks[j].end})
					if midway {
						// The first branch is read inline, its #if blanked.
						spans = append(spans, [2]int{toks[groups[n-1].dir].start, toks[groups[n-1].dir].end})
					}
					groups = groups[:n-1]
					i = j
					continue
				}
			case "endif":
				if n := len(groups); n > 0 {
					switch {
					case midway:
						// Without #else: the text without the group.
						spans = append(spans, [2]int{toks[groups[n-1].dir].start, t.end})
						last = groups[n-1].before
					case groups[n-1].expr:
						spans = append(spans, [2]int{t.start, t.end})
					}
					groups = groups[:n-1]
				}
				continue
			}
			if inside() {
				spans = append(spans, [2]int{t.start, t.end})
			}
			continue
		}
		before := prev(i)
		last = i
		if t.kind != 'p' {
			continue
		}
		switch c := text[t.start]; c {
		case '(', '[':
			stack = append(stack, c)
		case '{':
			k := byte('b')
			if before == "=" || expr() {
				k = 'i'
			}
			stack = append(stack, k)
		case ')', ']', '}':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	return spans
}

// cStatementWords are the keywords that begin a statement: a macro's
// argument that begins with one is a statement (SimulateIOError(return
// SQLITE_IOERR);).
var cStatementWords = map[string]bool{
	"return": true, "break": true, "continue": true, "goto": true, "if": true, "for": true, "while": true,
	"do": true, "switch": true,
}

// cStatementMacro reports whether the statement at toks[i] is a macro's
// call whose arguments are statements or declarations, which the grammar
// cannot read as arguments (MUTEX_LOGIC( sqlite3_mutex *p; ),
// SimulateIOError(return SQLITE_IOERR);), and returns what to blank:
// the arguments when a ";" ends the call (a call without arguments is
// left), else the whole call, and then end, the index of its ")";
// otherwise end is i.
func cStatementMacro(text []byte, toks []cTok, i int) (m cMacro, end int, ok bool) {
	if i+1 >= len(toks) || toks[i].kind != 'w' || text[toks[i+1].start] != '(' || toks[i+1].kind != 'p' {
		return cMacro{}, i, false
	}
	word := func(j int) string { return string(text[toks[j].start:toks[j].end]) }
	if w := word(i); cNotDeclarations[w] || cStatementWords[w] || cParenWords[w] || cSpecifierWords[w] || cTypeWords[w] {
		return cMacro{}, i, false
	}
	statement := i+2 < len(toks) && cStatementWords[word(i+2)]
	depth, braces := 0, 0
	for j := i + 1; j < len(toks); j++ {
		if toks[j].kind != 'p' {
			continue
		}
		switch text[toks[j].start] {
		case '(':
			depth++
		case ')':
			depth--
			if depth > 0 {
				continue
			}
			if !statement {
				return cMacro{}, i, false
			}
			if j+1 < len(toks) && word(j+1) == ";" {
				return cMacro{start: toks[i+1].end, end: toks[j].start}, i, true
			}
			return cMacro{start: toks[i].start, end: toks[j].end}, j, true
		case '{':
			braces++
		case '}':
			braces--
			if braces < 0 {
				return cMacro{}, i, false
			}
		case ';':
			if depth == 1 && braces == 0 {
				statement = true
			}
		}
	}
	return cMacro{}, i, false
}

// cGroupNext returns the index of the directive that ends the branch
// that the directive toks[i] opens (#elif, #else or #endif of the same
// group), or len(toks).
func cGroupNext(text []byte, toks []cTok, i int) int {
	depth := 0
	for j := i + 1; j < len(toks); j++ {
		if toks[j].kind != '#' {
			continue
		}
		switch cDirective(text, toks[j]) {
		case "if", "ifdef", "ifndef":
			depth++
		case "endif":
			if depth == 0 {
				return j
			}
			depth--
		case "elif", "else", "elifdef", "elifndef":
			if depth == 0 {
				return j
			}
		}
	}
	return len(toks)
}

// cDefineBody returns the offset where the body of the #define t
// begins: after its name and, for a function-like macro, its
// parameters.
func cDefineBody(text []byte, t cTok) int {
	_, i := cDirectiveSpan(text, t)
	for i < t.end && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	for i < t.end && cIdentByte(text[i]) {
		i++
	}
	if i < t.end && text[i] == '(' {
		if j := bytes.IndexByte(text[i:t.end], ')'); j >= 0 {
			i += j + 1
		}
	}
	return i
}

// cMacroLine reports whether toks[last] ends a macro's use on a line of
// its own, without a ";" (SQLITE_EXTENSION_INIT1,
// GTEST_DISABLE_MSC_WARNINGS_PUSH_(4251)): a capitalized word first on
// its line, alone or with its parenthesized arguments.
func cMacroLine(text []byte, toks []cTok, last int) bool {
	i := last
	if toks[i].kind == 'p' && text[toks[i].start] == ')' {
		depth := 0
		for ; i >= 0; i-- {
			if toks[i].kind != 'p' {
				continue
			}
			switch text[toks[i].start] {
			case ')':
				depth++
			case '(':
				depth--
			}
			if depth == 0 {
				break
			}
		}
		i--
	}
	if i < 0 || toks[i].kind != 'w' || !cMacroName(text[toks[i].start:toks[i].end]) {
		return false
	}
	for j := i - 1; j >= 0; j-- {
		if toks[j].kind == '#' {
			continue
		}
		return bytes.IndexByte(text[toks[j].end:toks[i].start], '\n') >= 0
	}
	return true
}

// cCloseParen returns the index of the ")" that closes the "(" at
// toks[open], or len(toks).
func cCloseParen(text []byte, toks []cTok, open int) int {
	depth := 0
	for j := open; j < len(toks); j++ {
		if toks[j].kind != 'p' {
			continue
		}
		switch text[toks[j].start] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(toks)
}

// cOwnLineCall reports whether the statement at toks[i] (directives
// left out) is a macro's call that stands on lines of its own with no
// ";" after it: a capitalized name first on its line, its parenthesized
// arguments, and the next token (a word or a "}") on a later line. It
// returns the index of the call's ")".
func cOwnLineCall(text []byte, toks []cTok, i int) (int, bool) {
	if i+1 >= len(toks) || toks[i].kind != 'w' || !cMacroName(text[toks[i].start:toks[i].end]) ||
		text[toks[i+1].start] != '(' || toks[i+1].kind != 'p' {
		return 0, false
	}
	if i > 0 && bytes.IndexByte(text[toks[i-1].end:toks[i].start], '\n') < 0 {
		return 0, false
	}
	e := cCloseParen(text, toks, i+1)
	if e+1 >= len(toks) {
		return 0, false
	}
	next := toks[e+1]
	if next.kind != 'w' && !(next.kind == 'p' && text[next.start] == '}') {
		return 0, false
	}
	return e, bytes.IndexByte(text[toks[e].end:next.start], '\n') >= 0
}

// cQualifierWords are the words that may follow a function
// declarator's parameters before a trailing macro.
var cQualifierWords = map[string]bool{
	"const": true, "volatile": true, "noexcept": true, "override": true, "final": true, "&": true, "&&": true,
}

// cTrailingMacro reports whether a macro follows the ")" at toks[close]
// that ends a function declarator's parameters, in the statement begun
// at toks[stmt] at declaration scope (int Run() GTEST_MUST_USE_RESULT_;,
// const TestSuite* current_test_suite() const GTEST_LOCK_EXCLUDED_(mutex_);),
// an attribute the grammar cannot read there, and returns it (with its
// arguments, and the macros after it) to blank.
func cTrailingMacro(text []byte, toks []cTok, stmt, close int) (cMacro, bool) {
	word := func(j int) string { return string(text[toks[j].start:toks[j].end]) }
	// The "(" that close closes, and the word before it.
	depth := 0
	open := close
	for ; open >= stmt; open-- {
		switch word(open) {
		case ")":
			depth++
		case "(":
			depth--
		}
		if depth == 0 {
			break
		}
	}
	if open <= stmt || toks[open-1].kind != 'w' && word(open-1) != ">" && word(open-1) != ")" {
		return cMacro{}, false
	}
	j := close + 1
	for j < len(toks) && cQualifierWords[word(j)] {
		j++
	}
	// One macro or more, each with its arguments as may be
	// (GTEST_NO_INLINE_ GTEST_NO_TAIL_CALL_;).
	end := -1
	for k := j; k < len(toks) && toks[k].kind == 'w' && cMacroName(text[toks[k].start:toks[k].end]); k = end + 1 {
		end = k
		if k+1 < len(toks) && word(k+1) == "(" {
			end = cCloseParen(text, toks, k+1)
			if end >= len(toks) {
				return cMacro{}, false
			}
		}
	}
	if end < 0 || end+1 >= len(toks) {
		return cMacro{}, false
	}
	switch word(end + 1) {
	case ";", "{", "=", "override", "final", "const", "noexcept", ":":
		return cMacro{start: toks[j].start, end: toks[end].end}, true
	}
	return cMacro{}, false
}

// cShortHexEscapes returns the offsets of the x of each hexadecimal
// escape of one digit (\x6, not \x6F) in the literal t, a raw string
// aside.
func cShortHexEscapes(text []byte, t cTok) []int {
	lit := text[t.start:t.end]
	q := bytes.IndexAny(lit, "\"'")
	if q < 0 || q > 0 && lit[q-1] == 'R' {
		return nil
	}
	hex := func(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
	var at []int
	for i := q + 1; i < len(lit); i++ {
		if lit[i] != '\\' {
			continue
		}
		if i+2 < len(lit) && lit[i+1] == 'x' && hex(lit[i+2]) && (i+3 >= len(lit) || !hex(lit[i+3])) {
			at = append(at, t.start+i+1)
		}
		i++ // the escaped byte
	}
	return at
}

// cAttributeCall reports whether the macro's call toks[i:e+1], on lines
// of its own, reads as an attribute of the declaration after it: its
// arguments are literals only (GTEST_ATTRIBUTE_PRINTF_(2, 3),
// GTEST_INTERNAL_DEPRECATED("...")), unlike a declaring macro's
// (GTEST_IMPL_CMP_HELPER_(GT, >)), and a declaration's specifiers or
// type follow on the next line (not namespace, template, a tag or
// another macro's call).
func cAttributeCall(text []byte, toks []cTok, i, e int) bool {
	if e == i+2 {
		return false // no arguments
	}
	for j := i + 2; j < e; j++ {
		if t := toks[j]; !(t.kind == 's' || t.kind == 'n' || t.kind == 'p' && text[t.start] == ',') {
			return false
		}
	}
	if e+1 >= len(toks) || toks[e+1].kind != 'w' ||
		len(bytes.TrimSpace(text[toks[e].end:toks[e+1].start])) > 0 || bytes.Count(text[toks[e].end:toks[e+1].start], []byte("\n")) > 1 {
		// An attribute is written on the line right above its
		// declaration; a call after a blank line or a comment is not
		// one (GTEST_DISABLE_MSC_WARNINGS_PUSH_(4180), then a comment).
		return false
	}
	w := string(text[toks[e+1].start:toks[e+1].end])
	switch {
	case cNotDeclarations[w], w == "struct", w == "class", w == "union", w == "enum", w == "typedef":
		return false
	case cMacroName([]byte(w)) && e+2 < len(toks) && text[toks[e+2].start] == '(':
		return false
	}
	return true
}
