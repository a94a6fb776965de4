package symbols

import (
	"strings"

	"github.com/symedit/symedit/internal/lines"
	"github.com/symedit/symedit/lang"
)

// Lead is what the text of a definition begins with, as replace-body reads
// the text a caller sends, to keep the part of the old head that the new
// text does not start with: a decorator or annotation, a modifier, or the
// definition proper.
type Lead int

// The Lead values.
const (
	// LeadDefinition: the text begins with the definition proper (def,
	// class, func, function, a Java method's return type, a TypeScript
	// method's name): what Symbol.KeywordByte points at.
	LeadDefinition Lead = iota
	// LeadModifier: the text begins with a modifier keyword (Java public,
	// static, ...; TypeScript export, declare, public, static, async, ...):
	// what Symbol.ModifiersByte points at.
	LeadModifier
	// LeadDecorator: the text begins with a decorator (Python, TypeScript)
	// or an annotation (Java): what Symbol.StartByte points at.
	LeadDecorator
)

// String returns "definition", "modifier" or "decorator".
func (l Lead) String() string {
	switch l {
	case LeadModifier:
		return "modifier"
	case LeadDecorator:
		return "decorator"
	}
	return "definition"
}

// TextLead reports what text, a definition a caller sends in place of a
// symbol of language lang, begins with, judged on its first line that is
// neither blank nor a comment (#, //, /*, *): an "@" (Rust: "#["; C#:
// "["; C and C++: "[[") that does not begin Java's "@interface" is a
// decorator, annotation or attribute, and so is one of the language's
// decorator words before "<" or "(" (C++'s template <...>,
// __attribute__((...))); a modifier keyword of
// the language, not followed by an identifier character nor, after
// optional white space, by "(", ":", "=", ";" or "," (nor, in TypeScript
// and JavaScript, where a method may be named "static", by "<", "?" or
// "!") is a modifier; anything else is the definition. Python and Go have no
// modifiers; Go no decorators. The comment prefixes, modifier words and
// the rest are the language's lang.Anatomy. The text is judged as the
// language's parser reads it (lang.Language.ParserInput), as the
// symbol's own head was: a C or C++ macro that the parser's input writes
// as "static" (SQLITE_PRIVATE, GTEST_API_) is a modifier in the text as
// in the symbol, so a text that begins with it is not given it a second
// time. A nil lang or a text with no such line gives LeadDefinition.
func TextLead(lang *lang.Language, text string) Lead {
	if lang == nil {
		return LeadDefinition
	}
	a := lang.Anatomy()
	text = string(lang.ParserInput([]byte(text)))
	for _, l := range lines.Split(text) {
		t := strings.TrimLeft(l, " \t\f\v")
		if t == "" || hasAnyPrefix(t, a.Comments()) {
			continue
		}
		if a.Decorators && a.IsDecoratorWord(t) {
			return LeadDecorator // C++'s template <class T>, __attribute__((...))
		}
		if a.Decorators && strings.HasPrefix(t, a.DecoratorStart()) {
			after := strings.TrimLeft(t[len(a.DecoratorStart()):], " \t")
			for _, w := range a.DefinitionAfterAt {
				if isWordAt(after, w) {
					return LeadDefinition // Java's @interface
				}
			}
			return LeadDecorator
		}
		// A modifier word is letters, digits and "_" (Ruby's
		// module_function and ruby2_keywords, C's _Noreturn and __inline).
		word := t[:len(t)-len(strings.TrimLeft(t, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"))]
		if word == "non" && strings.HasPrefix(t, "non-sealed") {
			word = "non-sealed"
		}
		if !a.IsModifier(word) {
			return LeadDefinition
		}
		rest := t[len(word):]
		if rest != "" && isIdentByte(rest[0]) {
			return LeadDefinition // "publicKey": a name
		}
		after := strings.TrimLeft(rest, " \t")
		if after != "" && strings.ContainsAny(after[:1], a.NameFollowers()) {
			return LeadDefinition // "static(", "static <T>(" in TypeScript, "default:": a name
		}
		return LeadModifier
	}
	return LeadDefinition
}

// hasAnyPrefix reports whether s begins with one of prefixes.
func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// isWordAt reports whether s begins with the identifier word.
func isWordAt(s, word string) bool {
	if !strings.HasPrefix(s, word) {
		return false
	}
	rest := s[len(word):]
	return rest == "" || !isIdentByte(rest[0])
}

func isIdentByte(b byte) bool {
	return b == '_' || b == '$' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// SendsOverloads reports whether text, a definition a caller sends in
// place of a TypeScript or TSX symbol of the given kind, begins with an
// overload signature ("function f(a: string): void;", or for a method or
// constructor "f(a: string): void;"), comments, decorators and export
// aside: then the caller sends the overloads and replace-body replaces
// them with the rest, rather than keeping the old overloads above a new
// first one. The text is parsed with the language's grammar, a method's
// inside a class body (lang.Language.SendsOverloads). Languages without
// overloads, and text that does not parse to a definition first, give
// false.
func SendsOverloads(lang *lang.Language, kind Kind, text string) bool {
	if lang == nil {
		return false
	}
	return lang.SendsOverloads(kind == KindMethod || kind == KindConstructor, text)
}
