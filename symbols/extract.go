package symbols

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/symedit/symedit/internal/probe"
	"github.com/symedit/symedit/lang"
)

// Extract parses src as lang and returns the file's symbols: a flat slice in
// source order (by StartByte; a symbol comes before the symbols nested in
// it), each with Parent set to the index of its innermost enclosing symbol
// or -1. Ranges follow the rules on [Symbol]: Start is inclusive, End and
// EndByte are exclusive; lines and columns are 1-based, columns count bytes,
// StartByte and EndByte are 0-based byte offsets into src.
//
// The kinds each language produces:
//
//   - python: class; function (module-level, nested in a function, async
//     too, also inside if/try blocks); method (a def whose parent symbol is
//     a class). A decorated
//     definition's range starts at its first decorator; trailing comments
//     that the grammar puts inside a block are not part of the range.
//   - go (parsed with go/parser, Go's own parser; with tree-sitter when
//     go/parser reports a syntax error, see the package documentation):
//     function; method (NamePath "Receiver/Method", the receiver type
//     without "*" or type parameters, Parent -1); struct, interface and type
//     (any other named type or alias) for every type spec go/ast sees:
//     package-level ones, and those declared in a function's or method's
//     body, nested under it ("UserTaskHandlerFunc/event", "S/M/event"; in a
//     function literal, under the enclosing function; in a package-level
//     var's function literal, top-level). A function's range is go/ast's:
//     from the func keyword (the doc comment is not included) to End(). A
//     lone type spec ranges over its whole declaration from the type
//     keyword; a spec inside type ( ... ) ranges over the spec only.
//     Variables, constants, fields and function literals are not symbols.
//   - java: class, interface, enum, record, annotation (@interface), method,
//     constructor (named after its class; compact record constructors too),
//     at any depth, including local classes in method bodies (nested under
//     the method); annotation type elements (String since() default "")
//     are methods of their annotation. An anonymous class body,
//     new T(...) { ... }, is a class ranging over the whole new expression,
//     named after T's simple name, "$" and the number javac gives it in its
//     binary name (Outer$3, JLS 13.1): its 1-based position among the
//     anonymous classes and enum constant bodies whose innermost enclosing
//     class is the same, in source order, a class's constructor arguments
//     before the class ("newInstance/PrivilegedAction$1/run"). It nests
//     under the innermost symbol containing it: the method, or the class
//     for a field initializer or an initializer block. An enum constant
//     with a body is a class named after the constant ("Op/PLUS/apply").
//     Their members are symbols as in any class. Annotations and modifiers
//     belong to the range, a Javadoc above does not. Lambdas, fields,
//     enum constants without a body and initializer blocks are not
//     symbols.
//   - typescript, tsx: class (also abstract; an anonymous export default
//     class is named "default"; const C = class {...} is class C), interface,
//     enum, type (type alias), namespace (namespace X, module X,
//     module "x", declare global named "global"), function (function declarations, generators, declare
//     function, nested function declarations, module-level const/let/var
//     f = arrow function or function expression, export default function
//     named "default"), method (methods, getters, setters, abstract method
//     signatures; a bodiless member's range ends after its ";", as the
//     compiler's), constructor. An export, export default or declare wrapper
//     and class decorators belong to the range; a method's range starts at
//     the first decorator preceding it. Overload signatures directly
//     followed by their implementation belong to the implementation's
//     symbol, as in the TypeScript language service's navigation tree: one
//     symbol whose range runs from the first signature (its export
//     included) to the end of the implementation, Selection on the first
//     signature's name, ImplByte where the implementation (with its
//     decorators) begins. Signatures without an implementation (declare
//     function, ambient classes) are symbols each, "f", "f[2]", ...
//     Interface members, enum members and fields are not symbols. A variable declaration with one
//     declarator ranges over the whole declaration (with export); with
//     several, each function declarator ranges over its declarator only.
//   - javascript: as typescript where the grammar has it: class, function,
//     method, constructor.
//
// Lines and columns follow the package's line rule (see the package
// documentation): a CR-only file's lines end at CR, and its Python, Java
// and TypeScript/JavaScript text is parsed with each lone CR read as LF.
//
// Extract parses with ctx, so a canceled or expired ctx stops a long parse
// and Extract returns ctx.Err() (go/parser is not stopped: ctx is checked
// before and after it, a parse of milliseconds). Other errors: lang is
// nil, or its symbols query does not compile. A file with syntax errors is not an error: Extract
// returns the symbols tree-sitter recovers (a Go file too: go/parser's
// refusal sends it to tree-sitter). A nil or empty src yields no
// symbols. Extract keeps no tree or node after it returns and is safe to
// call from many goroutines at once.
func Extract(ctx context.Context, src []byte, lang *lang.Language) ([]Symbol, error) {
	f, err := ExtractFile(ctx, src, lang)
	return f.Symbols, err
}

// File is what ExtractFile learns of a source file: its symbols, as
// Extract returns them, and whether the language's own parser accepted
// it.
type File struct {
	// Symbols are the file's symbols, as Extract returns them.
	Symbols []Symbol
	// Clean reports that the language's own parser, go/parser for Go,
	// parsed the source without error (issue 15: the syntax guard's
	// GuardOptions.BeforeClean need not parse it again). It is set only
	// for Go, whose symbols come from go/parser; false says nothing of
	// other languages, nor of an empty Go source, which go/parser
	// refuses (no package clause).
	Clean bool
	// Layout is the top-level layout of a Clean Go source, from the same
	// go/parser parse (issue 15: the syntax guard's
	// GuardOptions.BeforeLayout need not scan the source for it); nil
	// unless Clean.
	Layout *Layout
}

// Layout is the top-level layout of a Go source that go/parser accepted,
// as go/ast gives it. Offsets are byte offsets into the source.
type Layout struct {
	// PackageEnd is the offset just past the package clause's name.
	PackageEnd int
	// Decls are the top-level declarations, in source order (sorted, not
	// overlapping).
	Decls []Decl
}

// Decl is a top-level declaration of a Go source: the byte offsets of its
// first token (Start, inclusive) and of the end of its last token (End,
// exclusive), as go/ast's Pos and End; Import marks an import
// declaration.
type Decl struct {
	Start, End int
	Import     bool
}

// ExtractFile is Extract, also reporting in File.Clean whether go/parser
// accepted a Go source. Its errors are Extract's; on error the File is
// empty.
func ExtractFile(ctx context.Context, src []byte, lang *lang.Language) (File, error) {
	if lang == nil {
		return File{}, errors.New("symbols: Extract: nil language")
	}
	if err := ctx.Err(); err != nil {
		return File{}, err
	}
	if len(src) == 0 {
		return File{}, nil
	}
	if lang.Name == "go" {
		if syms, layout, ok := extractGo(src); ok {
			if err := ctx.Err(); err != nil {
				return File{}, err
			}
			return File{Symbols: syms, Clean: true, Layout: layout}, nil
		}
	}
	syms, err := extractTree(ctx, src, lang)
	if err != nil {
		return File{}, err
	}
	return File{Symbols: syms}, nil
}

// extractTree is Extract with tree-sitter: the query's matches refined by
// the language's rules. It serves every language, and Go source that
// go/parser refuses.
func extractTree(ctx context.Context, src []byte, lang *lang.Language) ([]Symbol, error) {
	rules, ok := languageRules[lang.Name]
	if !ok {
		return nil, fmt.Errorf("symbols: Extract: no symbol rules for language %q", lang.Name)
	}
	q, err := lang.SymbolsQuery()
	if err != nil {
		return nil, err
	}

	parser := sitter.NewParser()
	defer parser.Close()
	parser.SetLanguage(lang.Grammar())
	tree, err := parser.ParseCtx(ctx, nil, lang.ParserInput(src))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("symbols: parsing %s: %w", lang.Name, err)
	}
	defer tree.Close()

	cursor := sitter.NewQueryCursor()
	defer cursor.Close()
	cursor.Exec(q, tree.RootNode())

	x := &extractor{src: src, rules: rules, lines: newLineIndex(src)}
	for n := 0; ; n++ {
		if n%256 == 255 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		m, ok := cursor.NextMatch()
		if !ok {
			break
		}
		m = cursor.FilterPredicates(m, src)
		x.addMatch(q, m)
	}
	x.fam = x.family(tree.RootNode())
	return x.symbols(), nil
}

// candidate is one definition captured by the query, before filtering;
// or one that extractGo found in go/parser's tree, whose node fields are
// nil and whose range, name and prefix fields are set.
type candidate struct {
	def     *sitter.Node // the captured definition node
	name    *sitter.Node // its name node
	scope   *sitter.Node // the node whose body holds the symbol's members
	kind    Kind
	pattern uint16

	first *sitter.Node // the first overload signature before def (TypeScript), or nil
	last  *sitter.Node // a token after def that ends the range (a class member signature's ";"), or nil

	// Filled by extractor.symbols.
	outer     *sitter.Node // def widened by the language's wrappers
	startByte uint32
	endByte   uint32
	implByte  uint32 // see Symbol.ImplByte
	modByte   uint32 // see Symbol.ModifiersByte
	kwByte    uint32 // see Symbol.KeywordByte
	nameText  string
	nameByte  uint32 // where the name starts: Symbol.Selection
	prefix    string // name path prefix that does not come from Parent (Go receivers)
	hasPrefix bool
}

// nodeKey identifies a node within one tree.
type nodeKey struct {
	start, end uint32
	sym        sitter.Symbol
}

func keyOf(n *sitter.Node) nodeKey {
	return nodeKey{n.StartByte(), n.EndByte(), n.Symbol()}
}

// extractor accumulates one Extract call's candidates. It lives for the
// call only.
type extractor struct {
	src   []byte
	rules *langRules
	lines *lineIndex
	// ordinals caches javac's numbers of anonymous classes (javaOrdinal).
	ordinals map[nodeKey]int
	cands    []*candidate
	seen     map[[2]nodeKey]int // (def, name) -> index in cands
	// fam holds the parents and siblings of the nodes around the
	// candidates (see family); nil for go/parser's candidates.
	fam *family
}

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
	parent map[*sitter.Node]*sitter.Node   // the root's is nil
	kids   map[*sitter.Node][]*sitter.Node // every child, for each node descended into
	at     map[*sitter.Node]int            // a node's index in its parent's kids
}

// family walks root's tree, descending only into the nodes that hold the
// start of a candidate's definition, name or scope node: their
// ancestors are every node the rules ask the parent of, and their
// children every sibling the rules look at.
func (x *extractor) family(root *sitter.Node) *family {
	var starts []uint32
	for _, c := range x.cands {
		starts = append(starts, c.def.StartByte(), c.name.StartByte(), c.scope.StartByte())
	}
	slices.Sort(starts)
	holds := func(n *sitter.Node) bool {
		b, e := n.StartByte(), n.EndByte()
		i, _ := slices.BinarySearch(starts, b)
		return i < len(starts) && (starts[i] < e || starts[i] == b)
	}
	f := &family{parent: map[*sitter.Node]*sitter.Node{root: nil}, kids: map[*sitter.Node][]*sitter.Node{}, at: map[*sitter.Node]int{}}
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
			f.parent[k], f.at[k] = n, len(kids)
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

// parent is n.Parent(), from the family when it has n.
func (x *extractor) parent(n *sitter.Node) *sitter.Node {
	if x.fam != nil {
		if p, ok := x.fam.parent[n]; ok {
			return p
		}
	}
	probe.TreeClimbs.Add(1)
	return n.Parent()
}

// sibling returns the sibling of n step places on (-1: the one before),
// or with named the nearest named one that way; nil at either end. It
// answers from the family when it has n's parent's children, else it
// asks tree-sitter (other, one of n's sibling methods).
func (x *extractor) sibling(n *sitter.Node, step int, named bool, other func(*sitter.Node) *sitter.Node) *sitter.Node {
	if x.fam != nil {
		if p, ok := x.fam.parent[n]; ok {
			if p == nil {
				return nil // the root
			}
			kids := x.fam.kids[p]
			for i := x.fam.at[n] + step; i >= 0 && i < len(kids); i += step {
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

func (x *extractor) nextSibling(n *sitter.Node) *sitter.Node {
	return x.sibling(n, 1, false, (*sitter.Node).NextSibling)
}

func (x *extractor) prevSibling(n *sitter.Node) *sitter.Node {
	return x.sibling(n, -1, false, (*sitter.Node).PrevSibling)
}

func (x *extractor) nextNamedSibling(n *sitter.Node) *sitter.Node {
	return x.sibling(n, 1, true, (*sitter.Node).NextNamedSibling)
}

func (x *extractor) prevNamedSibling(n *sitter.Node) *sitter.Node {
	return x.sibling(n, -1, true, (*sitter.Node).PrevNamedSibling)
}

func (x *extractor) addMatch(q *sitter.Query, m *sitter.QueryMatch) {
	c := &candidate{pattern: m.PatternIndex}
	for _, qc := range m.Captures {
		name := q.CaptureNameForId(qc.Index)
		switch {
		case name == "name":
			c.name = qc.Node
		case name == "scope":
			c.scope = qc.Node
		case strings.HasPrefix(name, "definition."):
			c.def = qc.Node
			c.kind = Kind(strings.TrimPrefix(name, "definition."))
		}
	}
	if c.def == nil || c.name == nil {
		return // a pattern whose predicates failed, or without captures
	}
	if c.scope == nil {
		c.scope = c.def
	}
	if x.seen == nil {
		x.seen = map[[2]nodeKey]int{}
	}
	k := [2]nodeKey{keyOf(c.def), keyOf(c.name)}
	if i, dup := x.seen[k]; dup {
		if c.pattern < x.cands[i].pattern {
			x.cands[i] = c
		}
		return
	}
	x.seen[k] = len(x.cands)
	x.cands = append(x.cands, c)
}

// symbols turns the candidates into the result slice.
func (x *extractor) symbols() []Symbol {
	r := x.rules
	var cands []*candidate
	for _, c := range x.cands {
		if r.adjust != nil && !r.adjust(x, c) {
			continue
		}
		if c.outer == nil {
			c.outer = c.def
		}
		if r.widen != nil {
			c.outer = r.widen(x, c.outer)
		}
		impl := c.outer // where the definition itself starts: its decorators
		if r.leading != nil {
			impl = r.leading(x, c.outer)
		}
		start := impl
		if c.first != nil {
			start = c.first // its overload signatures belong to the range
		}
		var okStart, okEnd bool
		c.startByte, okStart = contentStart(start, x.src)
		c.endByte, okEnd = contentEnd(c.outer, x.src)
		if c.last != nil && c.last.StartByte() >= c.endByte {
			c.endByte = c.last.EndByte()
		}
		if !okStart || !okEnd || c.endByte <= c.startByte {
			// Nothing but comments (only in broken input): keep the
			// nodes' own range.
			c.startByte, c.endByte = start.StartByte(), c.outer.EndByte()
		}
		c.implByte = c.startByte
		if c.first != nil {
			if b, ok := contentStart(impl, x.src); ok && b > c.startByte && b < c.endByte {
				c.implByte = b
			}
		}
		c.modByte, c.kwByte = x.head(c, impl)
		if c.nameText == "" {
			c.nameText = c.name.Content(x.src)
		}
		if c.nameText == "" || c.endByte <= c.startByte {
			continue // a missing name or an empty range (broken input)
		}
		c.nameByte = c.name.StartByte()
		cands = append(cands, c)
	}
	return x.assemble(cands)
}

// assemble turns candidates whose ranges, name and name path prefix are
// known into the result slice: it orders them by range (an enclosing
// symbol before the symbols in it; equal ranges keep cands' order), drops
// members whose owner is not a symbol (langRules.owner), and gives each
// its Parent, NamePath ("[2]", "[3]", ... for same-named siblings), Kind
// (langRules.kindIn) and positions. Both Go paths (extractGo and
// extractTree) end here, so that they name and nest alike.
func (x *extractor) assemble(cands []*candidate) []Symbol {
	r := x.rules
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.startByte != b.startByte {
			return a.startByte < b.startByte
		}
		return a.endByte > b.endByte
	})

	// Drop members of bodies that are not symbols (TypeScript object
	// literals and class expressions that are not symbols; overloads were
	// dropped by adjust). Owners come
	// before their members in this order.
	if r.owner != nil {
		scopes := map[nodeKey]bool{}
		kept := cands[:0]
		for _, c := range cands {
			if o, member := r.owner(x, c.def); member && (o == nil || !scopes[keyOf(o)]) {
				continue
			}
			scopes[keyOf(c.scope)] = true
			kept = append(kept, c)
		}
		cands = kept
	}

	out := make([]Symbol, len(cands))
	var stack []int // indexes of the open enclosing symbols
	count := map[string]int{}
	for i, c := range cands {
		for len(stack) > 0 && !contains(cands[stack[len(stack)-1]], c) {
			stack = stack[:len(stack)-1]
		}
		parent := -1
		if len(stack) > 0 && !c.hasPrefix {
			parent = stack[len(stack)-1]
		}
		kind := c.kind
		if r.kindIn != nil && parent >= 0 {
			kind = r.kindIn(kind, out[parent].Kind)
		}
		prefix := c.prefix
		if parent >= 0 {
			prefix = out[parent].NamePath
		}
		base := c.nameText
		if prefix != "" {
			base = prefix + "/" + c.nameText
		}
		count[base]++
		namePath := base
		if n := count[base]; n > 1 {
			namePath += "[" + strconv.Itoa(n) + "]"
		}
		out[i] = Symbol{
			Name:          c.nameText,
			NamePath:      namePath,
			Kind:          kind,
			Start:         x.lines.position(int(c.startByte)),
			End:           x.lines.position(int(c.endByte)),
			Selection:     x.lines.position(int(c.nameByte)),
			StartByte:     int(c.startByte),
			EndByte:       int(c.endByte),
			ImplByte:      int(c.implByte),
			ModifiersByte: int(c.modByte),
			KeywordByte:   int(c.kwByte),
			Parent:        parent,
		}
		stack = append(stack, i)
	}
	return out
}

// contains reports whether outer's range contains inner's.
func contains(outer, inner *candidate) bool {
	return outer.startByte <= inner.startByte && inner.endByte <= outer.endByte
}

// isComment reports whether n is a comment node in any of the lang.
func isComment(n *sitter.Node) bool {
	t := n.Type()
	return t == "comment" || strings.HasSuffix(t, "_comment")
}

// skippable reports whether n cannot begin or end a symbol's range: a
// comment, a zero-width (missing) node, or an anonymous token made only of
// white space (tree-sitter-go's newline terminators).
func skippable(n *sitter.Node, src []byte) bool {
	if n.StartByte() >= n.EndByte() || isComment(n) {
		return true
	}
	if !n.IsNamed() && strings.TrimSpace(n.Content(src)) == "" {
		return true
	}
	return false
}

// contentEnd returns the end of n's last byte that is not in a trailing
// comment, searching along n's last children. ok is false when n has
// children and all of them are comments.
func contentEnd(n *sitter.Node, src []byte) (end uint32, ok bool) {
	for {
		var last *sitter.Node
		for i := int(n.ChildCount()) - 1; i >= 0; i-- {
			if c := n.Child(i); c != nil && !skippable(c, src) {
				last = c
				break
			}
		}
		if last == nil {
			return n.EndByte(), n.ChildCount() == 0
		}
		n = last
	}
}

// contentStart returns the start of n's first byte that is not in a
// leading comment, searching along n's first children. ok is false when n
// has children and all of them are comments.
func contentStart(n *sitter.Node, src []byte) (start uint32, ok bool) {
	for {
		var first *sitter.Node
		for i := 0; i < int(n.ChildCount()); i++ {
			if c := n.Child(i); c != nil && !skippable(c, src) {
				first = c
				break
			}
		}
		if first == nil {
			return n.StartByte(), n.ChildCount() == 0
		}
		n = first
	}
}
