package lang

// C#: tree-sitter's grammar, the symbol rules (a file-scoped namespace
// holds the declarations after it; operators, finalizers, indexers and
// explicit interface implementations are named as C# writes them) and
// the anatomy of a declaration's head. Tree-sitter is the guard's only
// judge: no C# compiler that could check one file fast is on the
// machine.

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/csharp"
)

// csharpDef is C#'s definition.
var csharpDef = Definition{
	Name:       "csharp",
	Extensions: []string{".cs"},
	Grammar:    csharp.GetLanguage,
	QueryFile:  "csharp.scm",
	Rules: Rules{
		Adjust: csharpAdjust,
		Head: func(t *Tree, n *sitter.Node) HeadPart {
			switch n.Type() {
			case "attribute_list":
				return HeadDecorator
			case "modifier":
				return HeadModifier
			}
			return HeadOther
		},
	},
	Anatomy: Anatomy{
		// The C# specification's class, struct, interface, enum,
		// delegate and member modifiers (15.2.2, 16.2.2, 15.6.1, ...)
		// that may begin a symbol, the contextual ones (partial, async,
		// required, file) included. ref is not one: tree-sitter's
		// grammar makes it part of a ref struct's keyword or of a
		// method's ref return type, so a sent "ref int F()" begins the
		// definition proper and keeps the modifiers before it.
		ModifierWords: []string{"public", "protected", "internal", "private", "static", "readonly", "sealed",
			"abstract", "virtual", "override", "extern", "unsafe", "new", "partial", "async",
			"required", "file"},
		// partial, async, required and file are contextual keywords, also
		// names: "async(x)", "file = 1", "file.Length".
		NameAfterModifier: "(:=;,.",
		Decorators:        true,
		DecoratorPrefix:   "[",
	},
}

// csharpAdjust names the symbols whose name is not one identifier and
// extends a file-scoped namespace over the declarations after it.
func csharpAdjust(t *Tree, c *Candidate) bool {
	switch c.Def.Type() {
	case "file_scoped_namespace_declaration":
		// namespace N; holds every declaration after it to the end of
		// the file; tree-sitter makes those its siblings.
		for s := t.NextSibling(c.Def); s != nil; s = t.NextSibling(s) {
			if !IsComment(s) {
				c.Last = s
			}
		}
	case "namespace_declaration":
		c.NameText = csharpOneLine(c.Name.Content(t.src))
	case "destructor_declaration":
		c.NameText = "~" + c.Name.Content(t.src)
	case "operator_declaration":
		op := c.Def.ChildByFieldName("operator")
		if op == nil {
			return false
		}
		c.NameText = "operator " + op.Content(t.src)
	case "conversion_operator_declaration":
		typ := c.Def.ChildByFieldName("type")
		if typ == nil {
			return false
		}
		dir := "implicit"
		if p := t.PrevSibling(c.Name); p != nil && p.Type() == "explicit" {
			dir = "explicit"
		}
		c.NameText = dir + " operator " + csharpOneLine(typ.Content(t.src))
	}
	// An explicit interface implementation (void IDisposable.Dispose())
	// is named with its interface, so that it is not a [2] of the
	// class's own Dispose; its name position stays the member's name,
	// as mcs locates it.
	for i := 0; i < int(c.Def.NamedChildCount()); i++ {
		if s := c.Def.NamedChild(i); s.Type() == "explicit_interface_specifier" {
			name := c.NameText
			if name == "" {
				name = c.Name.Content(t.src)
			}
			c.NameText = csharpOneLine(s.Content(t.src)) + name
			break
		}
	}
	return true
}

// csharpOneLine returns text, a name or a type as written, on one line:
// each run of white space one space, none next to punctuation
// (Dictionary<int, string> is Dictionary<int,string>, (int x, int y) is
// (int x,int y)), and each alias qualifier dropped (global::System.Int32
// is System.Int32), so that a name holds no "::", which ends the file
// part of a FILE::NAME_PATH location.
func csharpOneLine(text string) string {
	fields := strings.Fields(text)
	var sp strings.Builder
	for i, f := range fields {
		if i > 0 && !strings.ContainsAny(fields[i-1][len(fields[i-1])-1:]+f[:1], "<>,.()[]?*:") {
			sp.WriteByte(' ')
		}
		sp.WriteString(f)
	}
	text = sp.String()
	var b strings.Builder
	for {
		j := strings.Index(text, "::")
		if j < 0 {
			b.WriteString(text)
			return b.String()
		}
		k := j
		for k > 0 && rustIdentByte(text[k-1]) {
			k--
		}
		b.WriteString(text[:k])
		text = text[j+2:]
	}
}
