package lang

import (
	"slices"
	"strings"
)

// Anatomy is how the text of a definition may begin in a language, as
// replace-body reads the text a caller sends (package symbols' TextLead):
// which lines are comments, which words are modifiers, and what begins a
// decorator ("@", Rust's "#["). The zero value is a language with "//" and "/*"
// comments, no modifiers and no decorators.
type Anatomy struct {
	// CommentPrefixes are the prefixes of a line (after its indentation)
	// that is a comment or inside one: "#" in Python; nil means "//",
	// "/*" and "*" (a block comment's continuation lines).
	CommentPrefixes []string
	// ModifierWords are the modifier keywords that may begin a
	// definition (Java's public, static, ...; TypeScript's export,
	// declare, async, ...), lower-case words ("non-sealed" too).
	ModifierWords []string
	// NameAfterModifier lists the bytes which, after a modifier word and
	// optional white space, make the word a name rather than a modifier
	// ("static(", "default:"); "" means "(<:=?!;," (TypeScript, where a
	// method may be named "static"). Java's is "(:=;,", since its
	// modifiers are keywords and "public <T> T f()" is a modifier.
	NameAfterModifier string
	// Decorators says that a line beginning with "@" is a decorator or an
	// annotation (Python, Java, TypeScript); without it such a line
	// begins the definition (Go).
	Decorators bool
	// DecoratorPrefix is what begins a decorator line when Decorators is
	// set: Rust's attributes begin with "#["; "" means "@".
	DecoratorPrefix string
	// DecoratorWords are words that begin a decorator line too when
	// "<" or "(" follows them (white space between allowed): C++'s
	// template <class T>, GCC's __attribute__((...)).
	DecoratorWords []string
	// DefinitionAfterAt lists the words that, right after "@" (white
	// space between allowed), make it the definition's own keyword rather
	// than a decorator: Java's "@interface".
	DefinitionAfterAt []string
}

// defaultCommentPrefixes are Anatomy.CommentPrefixes when it is nil.
var defaultCommentPrefixes = []string{"//", "/*", "*"}

// clone returns a copy of a whose slices are its own.
func (a Anatomy) clone() Anatomy {
	a.CommentPrefixes = slices.Clone(a.CommentPrefixes)
	a.ModifierWords = slices.Clone(a.ModifierWords)
	a.DefinitionAfterAt = slices.Clone(a.DefinitionAfterAt)
	a.DecoratorWords = slices.Clone(a.DecoratorWords)
	return a
}

// Comments returns the comment line prefixes: CommentPrefixes, or "//",
// "/*" and "*" when it is nil. Callers must not modify the slice.
func (a Anatomy) Comments() []string {
	if a.CommentPrefixes == nil {
		return defaultCommentPrefixes
	}
	return a.CommentPrefixes
}

// IsModifier reports whether word is one of ModifierWords.
func (a Anatomy) IsModifier(word string) bool { return slices.Contains(a.ModifierWords, word) }

// NameFollowers returns NameAfterModifier, or "(<:=?!;," when it is "".
func (a Anatomy) NameFollowers() string {
	if a.NameAfterModifier == "" {
		return "(<:=?!;,"
	}
	return a.NameAfterModifier
}

// DecoratorStart returns DecoratorPrefix, or "@" when it is "".
func (a Anatomy) DecoratorStart() string {
	if a.DecoratorPrefix == "" {
		return "@"
	}
	return a.DecoratorPrefix
}

// IsDecoratorWord reports whether line, a line's text after its
// indentation, begins with one of DecoratorWords followed by "<" or "(".
func (a Anatomy) IsDecoratorWord(line string) bool {
	for _, w := range a.DecoratorWords {
		if !strings.HasPrefix(line, w) {
			continue
		}
		rest := strings.TrimLeft(line[len(w):], " \t")
		if rest != "" && (rest[0] == '<' || rest[0] == '(') {
			return true
		}
	}
	return false
}
