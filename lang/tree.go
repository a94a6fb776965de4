package lang

// The view of a tree-sitter tree that a language's symbol rules get, and
// the rules themselves.

import (
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/symedit/symedit/internal/probe"
)

// Rules are the language-specific steps that package symbols applies to
// the definitions a language's query captures. Every field may be nil,
// meaning the step leaves the candidate as it is. The functions must not
// keep t, c or a node after they return.
type Rules struct {
	// Adjust may drop a candidate (return false) or set its Outer node,
	// Name and NameText, MemberName, Qualifier, Leaf, name path Prefix,
	// Kind, First or Last.
	Adjust func(t *Tree, c *Candidate) bool
	// Widen returns the node whose range is the symbol's: n (the
	// candidate's Outer, else its Def) or an enclosing wrapper
	// (decorators, export, declare, type declaration).
	Widen func(t *Tree, n *sitter.Node) *sitter.Node
	// Leading returns the node where the range starts, given the widened
	// node: the node itself or a decorator preceding it.
	Leading func(t *Tree, n *sitter.Node) *sitter.Node
	// Owner reports whether def is a member of a body (a class body ...)
	// and, if so, the node that owns the body. A member is kept only when
	// its owner is a symbol's scope.
	Owner func(t *Tree, def *sitter.Node) (owner *sitter.Node, member bool)
	// KindIn returns the kind of a symbol of kind k whose parent symbol has
	// kind parent (Python: a function in a class is a method). Kinds are
	// the names the query captures after "definition.".
	KindIn func(k, parent string) string
	// Head says how a node before a definition's keyword counts for a
	// symbol's ModifiersByte and KeywordByte; nil means the language has
	// no decorators or modifiers (both equal the start).
	Head func(t *Tree, n *sitter.Node) HeadPart
}

// HeadPart is how a node before a definition's keyword counts for a
// symbol's ModifiersByte and KeywordByte (Rules.Head).
type HeadPart int

// The HeadPart values.
const (
	HeadOther     HeadPart = iota // the definition proper begins here
	HeadDecorator                 // a decorator or annotation
	HeadModifier                  // a modifier keyword
	HeadGroup                     // a node holding decorators and modifiers (Java's modifiers)
)

// The kinds the built-in rules name, as the queries capture them
// (@definition.<kind>).
const (
	kindClass       = "class"
	kindFunction    = "function"
	kindMethod      = "method"
	kindConstructor = "constructor"
	kindNamespace   = "namespace"
)

// Candidate is one definition a language's query captured, as the rules
// see and adjust it (Rules.Adjust). Package symbols holds one per match
// and fills in the rest.
type Candidate struct {
	Def   *sitter.Node // the captured definition node (@definition.<kind>)
	Name  *sitter.Node // its name node (@name)
	Scope *sitter.Node // the node whose body holds the symbol's members (@scope, else Def)
	Kind  string       // the capture's kind ("class", "function", ...)

	First *sitter.Node // the first overload signature before Def (TypeScript), or nil
	Last  *sitter.Node // a token after Def that ends the range (a class member signature's ";"), or nil
	Outer *sitter.Node // Def widened, or nil for Def itself

	NameText string // the symbol's name when it is not Name's text (Java's Outer$3), or ""
	// MemberName is the segment that the name paths of the symbol's
	// members carry for it, when not its name: a Rust impl block is named
	// "impl Display for Point" and its methods are "Point/fmt"; "" for
	// the symbol's name path segment.
	MemberName string
	// Qualifier is the name path segments, "/"-joined, that the
	// symbol's own text qualifies its name with, between its parent's
	// name path and its name: C++'s void Widget::draw() defined outside
	// its class is "Widget/draw" ("Widget"), namespace a::b { } is
	// "a/b" ("a"); "" for none.
	Qualifier string
	// Leaf says that the symbol holds no members: a symbol inside its
	// range nests under the symbol's parent instead (C's typedef struct
	// S { ... } S_t; defines struct S beside the typedef, not in it).
	Leaf      bool
	Prefix    string // a name path prefix that does not come from the parent symbol (Go receivers)
	HasPrefix bool   // Prefix is set: the symbol has no parent symbol
}

// Tree is the view of one parsed source that the rules of one symbol
// extraction get: the source and the tree's parents and siblings, asked
// in constant time of the nodes NewTree indexed, and a memo that lives as
// long as the Tree. A Tree belongs to one extraction and one goroutine.
type Tree struct {
	src []byte
	fam *family
	// ordinals caches javac's numbers of anonymous classes (javaOrdinal).
	ordinals map[nodeKey]int
	// scopes caches the names of a C++ file's namespaces and classes
	// (cppScopeIsClass).
	scopes map[string]string
}

// NewTree returns the view of src's tree (root its root node, src the
// bytes it was parsed from, offsets unchanged), indexing the parents and
// siblings of the nodes that hold one of the byte offsets starts: the
// starts of the nodes whose parents and siblings the rules will ask (each
// candidate's Def, Name and Scope). With a nil root nothing is indexed
// and every question goes to tree-sitter.
func NewTree(src []byte, root *sitter.Node, starts []uint32) *Tree {
	t := &Tree{src: src}
	if root != nil {
		t.fam = newFamily(root, starts)
	}
	return t
}

// Src returns the source the tree was parsed from. Callers must not
// modify it.
func (t *Tree) Src() []byte { return t.src }

// family is the part of a tree that the language rules walk, with each
// node's parent and siblings at hand. Tree-sitter finds a node's parent
// (and so its siblings) by descending from the root: a cost in the depth
// of the node, paid for every candidate, which made a file of symbols
// nested 2,000 deep cost 16 times one nested 500 deep. One walk of a tree
// cursor over the nodes that contain a candidate's node (and their
// children) costs in proportion to what it visits, and answers each
// question after it in constant time. Nodes are keyed by their
// *sitter.Node, which go-tree-sitter makes one per node and tree.
type family struct {
	up   map[*sitter.Node]kin            // each node's parent and place in it; the root's parent is nil
	kids map[*sitter.Node][]*sitter.Node // every child, for each node descended into
}

// kin is a node's parent and its index among the parent's kids, in one
// map entry so that indexing a node costs one map assignment.
type kin struct {
	parent *sitter.Node
	at     int
}

// newFamily walks root's tree, descending only into the nodes that hold
// one of starts: their ancestors are every node the rules ask the parent
// of, and their children every sibling the rules look at.
func newFamily(root *sitter.Node, starts []uint32) *family {
	starts = slices.Clone(starts)
	slices.Sort(starts)
	holds := func(n *sitter.Node) bool {
		b, e := n.StartByte(), n.EndByte()
		i, _ := slices.BinarySearch(starts, b)
		return i < len(starts) && (starts[i] < e || starts[i] == b)
	}
	f := &family{up: map[*sitter.Node]kin{root: {}}, kids: map[*sitter.Node][]*sitter.Node{}}
	cur := sitter.NewTreeCursor(root)
	defer cur.Close()
	var visit func(n *sitter.Node)
	visit = func(n *sitter.Node) {
		probe.TreeNodes.Add(1)
		if !holds(n) || !cur.GoToFirstChild() {
			return
		}
		var kids []*sitter.Node
		for {
			k := cur.CurrentNode()
			f.up[k] = kin{parent: n, at: len(kids)}
			kids = append(kids, k)
			visit(k)
			if !cur.GoToNextSibling() {
				break
			}
		}
		cur.GoToParent()
		f.kids[n] = kids
	}
	visit(root)
	return f
}

// Parent returns n's parent (nil for the root), from the index when it
// has n, else from tree-sitter.
func (t *Tree) Parent(n *sitter.Node) *sitter.Node {
	if t.fam != nil {
		if k, ok := t.fam.up[n]; ok {
			return k.parent
		}
	}
	probe.TreeClimbs.Add(1)
	return n.Parent()
}

// sibling returns the sibling of n step places on (-1: the one before),
// or with named the nearest named one that way; nil at either end. It
// answers from the family when it has n's parent's children, else it
// asks tree-sitter (other, one of n's sibling methods).
func (t *Tree) sibling(n *sitter.Node, step int, named bool, other func(*sitter.Node) *sitter.Node) *sitter.Node {
	if t.fam != nil {
		if k, ok := t.fam.up[n]; ok {
			if k.parent == nil {
				return nil // the root
			}
			kids := t.fam.kids[k.parent]
			for i := k.at + step; i >= 0 && i < len(kids); i += step {
				if !named || kids[i].IsNamed() {
					return kids[i]
				}
			}
			return nil
		}
	}
	probe.TreeClimbs.Add(1)
	return other(n)
}

// NextSibling returns the node after n in its parent, or nil.
func (t *Tree) NextSibling(n *sitter.Node) *sitter.Node {
	return t.sibling(n, 1, false, (*sitter.Node).NextSibling)
}

// PrevSibling returns the node before n in its parent, or nil.
func (t *Tree) PrevSibling(n *sitter.Node) *sitter.Node {
	return t.sibling(n, -1, false, (*sitter.Node).PrevSibling)
}

// NextNamedSibling returns the first named node after n in its parent,
// or nil.
func (t *Tree) NextNamedSibling(n *sitter.Node) *sitter.Node {
	return t.sibling(n, 1, true, (*sitter.Node).NextNamedSibling)
}

// PrevNamedSibling returns the last named node before n in its parent,
// or nil.
func (t *Tree) PrevNamedSibling(n *sitter.Node) *sitter.Node {
	return t.sibling(n, -1, true, (*sitter.Node).PrevNamedSibling)
}

// nodeKey identifies a node within one tree.
type nodeKey struct {
	start, end uint32
	sym        sitter.Symbol
}

func keyOf(n *sitter.Node) nodeKey {
	return nodeKey{n.StartByte(), n.EndByte(), n.Symbol()}
}

// IsComment reports whether n is a comment node in the grammars symedit
// uses: its type is "comment" or ends with "_comment" (Java's
// line_comment and block_comment).
func IsComment(n *sitter.Node) bool {
	t := n.Type()
	return t == "comment" || strings.HasSuffix(t, "_comment")
}

// Helpers of the rules.

func firstNamedChild(n *sitter.Node) *sitter.Node {
	if n.NamedChildCount() == 0 {
		return nil
	}
	return n.NamedChild(0)
}

// firstNamedNonComment returns n's first named child that is not a
// comment, or nil.
func firstNamedNonComment(n *sitter.Node) *sitter.Node {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); !IsComment(c) {
			return c
		}
	}
	return nil
}

func fieldText(n *sitter.Node, field string, src []byte) string {
	if f := n.ChildByFieldName(field); f != nil {
		return f.Content(src)
	}
	return ""
}

func hasToken(n *sitter.Node, tok string) bool {
	for i := 0; i < int(n.ChildCount()); i++ {
		if c := n.Child(i); !c.IsNamed() && c.Type() == tok {
			return true
		}
	}
	return false
}

func countNamed(n *sitter.Node, typ string) int {
	k := 0
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if n.NamedChild(i).Type() == typ {
			k++
		}
	}
	return k
}
