package symbols

import (
	"context"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/symedit/symedit/internal/lines"
	"github.com/symedit/symedit/lang"
)

// Lead is what the text of a definition begins with, as replace-body reads
// the text a caller sends (issue 11, section 4): a decorator or annotation,
// a modifier, or the definition proper.
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

// modifierWords lists, by language name, the modifier keywords that may
// begin a definition (JLS 8.1.1, 8.3.1, 8.4.3, 9.1.1, 9.4; TypeScript's
// modifiers and export / export default / declare).
var modifierWords = map[string]map[string]bool{
	"java": set("public", "protected", "private", "static", "final", "abstract", "synchronized",
		"native", "strictfp", "transient", "volatile", "default", "sealed", "non-sealed"),
	"typescript": tsWords,
	"tsx":        tsWords,
	"javascript": tsWords,
}

var tsWords = set("export", "default", "declare", "public", "private", "protected", "static",
	"readonly", "abstract", "override", "async", "accessor")

func set(words ...string) map[string]bool {
	m := map[string]bool{}
	for _, w := range words {
		m[w] = true
	}
	return m
}

// TextLead reports what text, a definition a caller sends in place of a
// symbol of language lang, begins with, judged on its first line that is
// neither blank nor a comment (#, //, /*, *): an "@" that does not begin
// Java's "@interface" is a decorator or annotation; a modifier keyword of
// the language, not followed by an identifier character nor, after
// optional white space, by "(", ":", "=", ";" or "," (nor, in TypeScript
// and JavaScript, where a method may be named "static", by "<", "?" or
// "!") is a modifier; anything else is the definition. Python and Go have no
// modifiers. A nil lang or a text with no such line gives LeadDefinition.
func TextLead(lang *lang.Language, text string) Lead {
	if lang == nil {
		return LeadDefinition
	}
	for _, l := range lines.Split(text) {
		t := strings.TrimLeft(l, " \t\f\v")
		switch {
		case t == "":
			continue
		case lang.Name == "python" && strings.HasPrefix(t, "#"):
			continue
		case lang.Name != "python" && (strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*")):
			continue
		case strings.HasPrefix(t, "@"):
			if lang.Name == "java" && isWordAt(strings.TrimLeft(t[1:], " \t"), "interface") {
				return LeadDefinition
			}
			if lang.Name == "go" {
				return LeadDefinition
			}
			return LeadDecorator
		}
		word := t[:len(t)-len(strings.TrimLeft(t, "abcdefghijklmnopqrstuvwxyz"))]
		if word == "non" && strings.HasPrefix(t, "non-sealed") {
			word = "non-sealed"
		}
		if !modifierWords[lang.Name][word] {
			return LeadDefinition
		}
		rest := t[len(word):]
		if rest != "" && isIdentByte(rest[0]) {
			return LeadDefinition // "publicKey": a name
		}
		after := strings.TrimLeft(rest, " \t")
		notName := "(<:=?!;,"
		if lang.Name == "java" {
			notName = "(:=;," // Java's modifiers are keywords; "public <T> T f()" is a modifier
		}
		if after != "" && strings.ContainsAny(after[:1], notName) {
			return LeadDefinition // "static(", "static <T>(" in TypeScript, "default:": a name
		}
		return LeadModifier
	}
	return LeadDefinition
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
// them with the rest (issue 16). The text is parsed with the language's
// grammar, a method's inside a class body. Other languages, and text that
// does not parse to a definition first, give false.
func SendsOverloads(lang *lang.Language, kind Kind, text string) bool {
	if lang == nil || lang.Name != "typescript" && lang.Name != "tsx" {
		return false
	}
	src := text
	member := kind == KindMethod || kind == KindConstructor
	if member {
		src = "class _ {\n" + text + "\n}\n"
	}
	parser := sitter.NewParser()
	defer parser.Close()
	parser.SetLanguage(lang.Grammar())
	tree, err := parser.ParseCtx(context.Background(), nil, []byte(src))
	if err != nil {
		return false
	}
	defer tree.Close()
	n := firstDefinition(tree.RootNode())
	if member {
		if n == nil || n.Type() != "class_declaration" {
			return false
		}
		n = firstDefinition(n.ChildByFieldName("body"))
	}
	for n != nil && (n.Type() == "export_statement" || n.Type() == "ambient_declaration") {
		n = firstDefinition(n)
	}
	return n != nil && (n.Type() == "function_signature" || n.Type() == "method_signature")
}

// firstDefinition returns n's first named child that is not a comment or
// a decorator, or nil.
func firstDefinition(n *sitter.Node) *sitter.Node {
	if n == nil {
		return nil
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); !isComment(c) && c.Type() != "decorator" {
			return c
		}
	}
	return nil
}
