package lang

// Rust: tree-sitter's grammar, the symbol rules (attributes start a range,
// an impl block is named after its trait and self type) and the anatomy
// of an item's head. Tree-sitter is the guard's only judge: rustc is too
// slow to run on every edit.

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/rust"
)

// The kinds the Rust query captures besides the shared ones.
const (
	kindImpl  = "impl"
	kindTrait = "trait"
)

// rustDef is Rust's definition.
var rustDef = Definition{
	Name:       "rust",
	Extensions: []string{".rs"},
	Grammar:    rust.GetLanguage,
	QueryFile:  "rust.scm",
	// The Rust reference (2.2, input format) ends lines at LF only; a lone
	// CR is not a line ending (rustc rejects it outside CRLF).
	LFOnly: true,
	Rules: Rules{
		Adjust: func(t *Tree, c *Candidate) bool {
			if c.Kind != kindImpl {
				return true
			}
			self := rustTypeName(c.Name, t.src)
			if self == "" {
				return false
			}
			c.NameText = "impl " + self
			if tr := c.Def.ChildByFieldName("trait"); tr != nil {
				c.NameText = "impl " + RustShortType(tr.Content(t.src)) + " for " + self
			}
			c.MemberName = self
			return true
		},
		Leading: func(t *Tree, n *sitter.Node) *sitter.Node {
			// Outer attributes precede the item as its siblings; a doc
			// comment above the first attribute is not part of the range
			// (as a Javadoc above a Java annotation), one between
			// attributes is, since the range runs from the first.
			lead := n
			for p := t.PrevSibling(n); p != nil; p = t.PrevSibling(p) {
				switch {
				case p.Type() == "attribute_item":
					lead = p
				case IsComment(p):
				default:
					return lead
				}
			}
			return lead
		},
		KindIn: func(k, parent string) string {
			if k == kindFunction && (parent == kindImpl || parent == kindTrait) {
				return kindMethod
			}
			return k
		},
		Head: func(t *Tree, n *sitter.Node) HeadPart {
			switch n.Type() {
			case "attribute_item":
				return HeadDecorator
			case "visibility_modifier", "function_modifiers":
				return HeadModifier
			case "unsafe", "default":
				// unsafe impl, unsafe trait; default fn (specialization).
				if !n.IsNamed() {
					return HeadModifier
				}
			}
			return HeadOther
		},
	},
	Anatomy: Anatomy{
		// Visibility and the function qualifiers of the Rust reference
		// (6.4 functions, 6.10 traits, 6.12 implementations). Rust's
		// modifiers are keywords, never names, so no byte after one makes
		// it a name but those that end a statement or a binding:
		// "pub(crate)" is a modifier.
		ModifierWords:     []string{"pub", "const", "async", "unsafe", "extern", "default"},
		NameAfterModifier: ":=;,",
		Decorators:        true,
		DecoratorPrefix:   "#[",
	},
}

// rustTypeName returns the name of an impl block's self type as a name
// path segment: a path type's last segment without its generic arguments
// (Stack for Stack<T>, File for std::fs::File), else the type's text as
// RustShortType writes it (&'a Point, [T], dyn Debug + Send); "" for a
// missing type (broken input).
func rustTypeName(n *sitter.Node, src []byte) string {
	for depth := 0; n != nil && depth < 32; depth++ {
		switch n.Type() {
		case "type_identifier", "primitive_type":
			return n.Content(src)
		case "generic_type":
			n = n.ChildByFieldName("type")
		case "scoped_type_identifier":
			n = n.ChildByFieldName("name")
		default:
			return RustShortType(n.Content(src))
		}
	}
	return ""
}

// RustShortType returns a Rust type or trait as written, text, made one
// line for a name: each run of white space one space, and each path
// shortened to its last segment (fmt::Display is Display,
// From<io::Error> is From<Error>), so that a name holds no "::", which
// ends the file part of a FILE::NAME_PATH location.
func RustShortType(text string) string {
	fields := strings.Fields(text)
	for i, f := range fields {
		var b strings.Builder
		for f != "" {
			j := strings.Index(f, "::")
			if j < 0 {
				b.WriteString(f)
				break
			}
			// Drop the path segment before "::": the identifier
			// characters that end f[:j] (a segment's generic arguments,
			// as in Vec<T>::Item, rare in a type, are kept).
			k := j
			for k > 0 && rustIdentByte(f[k-1]) {
				k--
			}
			b.WriteString(f[:k])
			f = f[j+2:]
		}
		fields[i] = b.String()
	}
	return strings.Join(fields, " ")
}

// rustIdentByte reports whether b may be in a Rust identifier (ASCII).
func rustIdentByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}
