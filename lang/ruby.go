package lang

// Ruby: tree-sitter's grammar, the symbol rules (singleton methods named
// "self.x", a class or module named by a path after its last constant,
// private def x a modifier), the two corrections of what the grammar
// misreads (def !=, a stray keyword) and the anatomy of a def's head. The
// guard judges with tree-sitter and the stray-keyword check: ruby itself
// is not always on the machine, and a process per edit would be too slow.

import (
	"bytes"
	"context"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/ruby"
)

// rubyDef is Ruby's definition.
var rubyDef = Definition{
	Name:       "ruby",
	Extensions: []string{".rb"},
	Grammar:    ruby.GetLanguage,
	QueryFile:  "ruby.scm",
	// Ruby ends a line at LF only: its parser reads a lone CR as white
	// space ("encountered \r in middle of line, treated as a mere
	// space").
	LFOnly:  true,
	Rewrite: rubyRewrite,
	Rules: Rules{
		Adjust: func(t *Tree, c *Candidate) bool {
			switch c.Def.Type() {
			case "singleton_method":
				obj := c.Def.ChildByFieldName("object")
				if obj == nil {
					return false
				}
				c.NameText = rubyReceiver(rubyUnparen(obj).Content(t.src)) + "." + c.Name.Content(t.src)
			case "method":
				if sc := rubySingletonClass(t, c.Def); sc != nil {
					v := sc.ChildByFieldName("value")
					if v == nil {
						return false
					}
					c.NameText = rubyReceiver(rubyUnparen(v).Content(t.src)) + "." + c.Name.Content(t.src)
				}
			}
			return true
		},
		Widen: func(t *Tree, n *sitter.Node) *sitter.Node {
			if call := rubyModifierCall(t, n); call != nil {
				return call
			}
			return n
		},
		Head: func(t *Tree, n *sitter.Node) HeadPart {
			if n.Type() == "identifier" {
				if p := t.Parent(n); p != nil && p.Type() == "call" && rubyModifiers[n.Content(t.src)] {
					return HeadModifier
				}
			}
			return HeadOther
		},
		KindIn: func(k, parent string) string {
			if k == kindFunction && (parent == kindClass || parent == kindNamespace) {
				return kindMethod
			}
			return k
		},
	},
	// Tree-sitter's grammar reads a keyword where no rule takes it (an
	// extra end) as an identifier, without an error.
	Checker: &Checker{Kind: "ruby/keywords", Check: rubyStrayKeywords},
	Anatomy: Anatomy{
		// Ruby's comments are "#" lines and =begin ... =end blocks; it
		// has no decorators.
		CommentPrefixes: []string{"#", "=begin", "=end"},
		ModifierWords:   rubyModifierWords,
		// A modifier is a method call whose argument is the def: a
		// name when "(", "=", "." or the like follows it.
		NameAfterModifier: "(:=;,.",
	},
}

// rubyModifierWords are the methods of Module (and Kernel's
// ruby2_keywords) that take a method's name, and so the def that returns
// it, and change the method's visibility or calling convention: private
// def x ... end. symedit reads them as a def's modifiers, as Java's
// modifiers, when one is called without parentheses on the def alone.
var rubyModifierWords = []string{"private", "protected", "public", "module_function",
	"private_class_method", "public_class_method", "ruby2_keywords"}

// rubyModifiers is rubyModifierWords as a set.
var rubyModifiers = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range rubyModifierWords {
		m[w] = true
	}
	return m
}()

// rubyModifierCall returns the call that makes modifiers of its method's
// name for def, a def or def recv.x node (private def x ... end), or nil:
// a call of one of rubyModifierWords without a receiver and without
// parentheses whose one argument is def. The def's range starts at the
// call, as RubyVM::AbstractSyntaxTree's FCALL node around its DEFN does.
func rubyModifierCall(t *Tree, def *sitter.Node) *sitter.Node {
	args := t.Parent(def)
	if args == nil || args.Type() != "argument_list" || args.NamedChildCount() != 1 || args.ChildCount() != 1 {
		return nil
	}
	call := t.Parent(args)
	if call == nil || call.Type() != "call" || call.ChildByFieldName("receiver") != nil {
		return nil
	}
	m := call.ChildByFieldName("method")
	if m == nil || m.Type() != "identifier" || !rubyModifiers[m.Content(t.src)] {
		return nil
	}
	return call
}

// rubySingletonClass returns the singleton class (class << self) that is
// the nearest enclosing class, module or def of def, or nil: a def in it
// defines a singleton method, as def self.x does.
func rubySingletonClass(t *Tree, def *sitter.Node) *sitter.Node {
	for p := t.Parent(def); p != nil; p = t.Parent(p) {
		switch p.Type() {
		case "singleton_class":
			return p
		case "class", "module", "method", "singleton_method":
			return nil
		}
	}
	return nil
}

// rubyUnparen returns the statement inside n when n is a parenthesized
// one, def (obj = Object.new).x, as Ruby's own parser ranges the
// receiver; n otherwise.
func rubyUnparen(n *sitter.Node) *sitter.Node {
	if n.Type() == "parenthesized_statements" && n.NamedChildCount() == 1 {
		return n.NamedChild(0)
	}
	return n
}

// rubyReceiver returns the receiver of a singleton method as its name's
// prefix: the receiver's text (self, Foo, obj) with each run of white
// space removed, and "::" written "." so that a name holds no "::", which
// ends the file part of a FILE::NAME_PATH location (def A::B.x is
// "A.B.x").
func rubyReceiver(text string) string {
	return strings.ReplaceAll(strings.Join(strings.Fields(text), ""), "::", ".")
}

// rubyRewrite returns src with the name of each def of the != operator
// (def !=(o), def self.!=(o)) read as ==, or nil when there is none:
// tree-sitter's grammar reads def !=(o) as the endless def ! = (o),
// without an error, and the rest of the class after it as wrong; ==
// is an operator name it reads right, of the same length. Rewriting one
// inside a string or a comment changes nothing the grammar sees.
func rubyRewrite(src []byte) []byte {
	var out []byte
	for i := bytes.Index(src, []byte("!=")); i >= 0; {
		if rubyDefNameAt(src, i) {
			if out == nil {
				out = bytes.Clone(src)
			}
			out[i] = '='
		}
		j := bytes.Index(src[i+2:], []byte("!="))
		if j < 0 {
			break
		}
		i += 2 + j
	}
	return out
}

// rubyDefNameAt reports whether the name of a def begins at src[i]: the
// keyword def, blanks, and optionally a receiver and "." (self., obj.)
// come before it.
func rubyDefNameAt(src []byte, i int) bool {
	j := i
	if j > 0 && src[j-1] == '.' {
		j--
		for j > 0 && rustIdentByte(src[j-1]) {
			j--
		}
	}
	k := j
	for k > 0 && (src[k-1] == ' ' || src[k-1] == '\t') {
		k--
	}
	return k < j && k >= 3 && string(src[k-3:k]) == "def" && (k == 3 || !rustIdentByte(src[k-4]))
}

// rubyReserved are Ruby's reserved words (doc/keywords.rdoc) that
// tree-sitter's grammar reads as an identifier where no rule takes the
// keyword: an end too many, an else without an if.
var rubyReserved = map[string]bool{
	"BEGIN": true, "END": true, "alias": true, "and": true, "begin": true, "break": true, "case": true,
	"class": true, "def": true, "do": true, "else": true, "elsif": true, "end": true, "ensure": true,
	"for": true, "if": true, "in": true, "module": true, "next": true, "not": true, "or": true,
	"redo": true, "rescue": true, "retry": true, "return": true, "then": true, "undef": true,
	"unless": true, "until": true, "when": true, "while": true,
}

// rubyStrayKeywords returns a problem at each reserved word that
// tree-sitter's Ruby grammar reads as an identifier where Ruby takes it
// for the keyword, which Ruby refuses: the grammar reads an extra end,
// or an else without its if, as a local variable or a method call,
// without an error. A reserved word is a name after a "." or "&."
// (range.end), as a def's name (def end), in alias and undef, and in a
// symbol or a hash key, none of which is an identifier node where this
// looks.
func rubyStrayKeywords(src []byte) []Problem {
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(ruby.GetLanguage())
	tree, err := p.ParseCtx(context.Background(), nil, src)
	if err != nil {
		return nil
	}
	defer tree.Close()
	var out []Problem
	cur := sitter.NewTreeCursor(tree.RootNode())
	defer cur.Close()
	for {
		n := cur.CurrentNode()
		if n.Type() == "identifier" && rubyReserved[n.Content(src)] && !rubyNameSlot(n) {
			out = append(out, Problem{Start: int(n.StartByte()), End: int(n.EndByte()),
				Message: "unexpected keyword " + n.Content(src)})
		}
		if cur.GoToFirstChild() {
			continue
		}
		for !cur.GoToNextSibling() {
			if !cur.GoToParent() {
				return out
			}
		}
	}
}

// rubyNameSlot reports whether identifier n is where Ruby reads a
// reserved word as a name: a method called with a receiver (x.end,
// x&.end), a def's name, a keyword parameter (def f(do: nil)), an
// alias's or undef's operand.
func rubyNameSlot(n *sitter.Node) bool {
	p := n.Parent()
	if p == nil {
		return false
	}
	switch p.Type() {
	case "call":
		return p.ChildByFieldName("receiver") != nil
	case "method", "singleton_method", "alias", "undef", "keyword_parameter":
		return true
	}
	return false
}
