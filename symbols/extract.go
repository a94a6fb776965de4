package symbols

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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
//   - rust: function (fn, at any depth; in an extern block too); method (a
//     fn, with or without a body, whose parent symbol is an impl or a
//     trait); struct, enum, union, trait; impl (an impl block, named
//     "impl Point" or "impl Display for Point", paths shortened to their
//     last segment and the self type without generic arguments; its
//     members' name paths carry the self type instead: "Point/fmt");
//     namespace (an inline mod; mod m; is not a symbol); type (type aliases
//     and associated types); macro (macro_rules!). The range starts at the
//     first outer attribute; a doc comment above it is not part of it.
//     Constants, statics, fields, enum variants and closures are not
//     symbols.
//   - csharp: namespace (block and file-scoped; a qualified name is one
//     segment, "Shapes.Geometry"; a file-scoped namespace ranges from its
//     line to the end of the file's last declaration, which nest in it);
//     class, struct, interface, enum, record (record class and record
//     struct too), delegate; method (finalizers too, named "~C");
//     constructor; property; indexer (named "this"); event (with add and
//     remove accessors); operator (named "operator +", "implicit operator
//     T"); function (a local function). An explicit interface
//     implementation is named with its interface ("IDisposable.Dispose").
//     Attributes and modifiers are in the range; a /// doc comment above
//     is not. Fields, constants, field-like events, enum members,
//     accessors and lambdas are not symbols.
//   - ruby: namespace (a module), class, each named after the last
//     constant of its path (class A::B is B); function (def, at any
//     depth); method (a def whose parent symbol is a class or a module).
//     def self.x, def obj.x and a def whose nearest enclosing class,
//     module or def is class << self are named "self.x" ("obj.x");
//     class << self is not a symbol. A range runs from the keyword to its
//     end; a def that is the one argument of private, protected, public,
//     module_function, private_class_method, public_class_method or
//     ruby2_keywords without parentheses ranges from that word, a
//     modifier. attr_accessor and its kin, define_method, constants and
//     blocks are not symbols.
//   - php: namespace (named by its full name, App\Models; namespace X { }
//     ranges over its braces, namespace X; to the end of its last
//     statement before the next namespace or the end of the file, so the
//     declarations after it nest under it), class, interface, trait,
//     enum, function (at any depth), method (in a class, an interface, a
//     trait, an enum; an anonymous class's, under the symbol around it).
//     Attributes (#[...]) and modifiers belong to the range, a doc comment
//     above does not. Class constants, properties, enum cases, closures,
//     anonymous classes and the global namespace (namespace { }) are not
//     symbols.
//   - c: function (definitions and prototypes, found by their declarator
//     wherever the declaration puts it, at file scope, in extern "C"
//     blocks and preprocessor conditionals); struct, union and enum with
//     a tag and a body, at any depth; type (each name a typedef
//     declares, ranging over the whole typedef, holding no members: a
//     struct defined in a typedef is its sibling). The range is the
//     whole declaration: storage classes, attributes, a prototype's ";",
//     and a struct's ";" when nothing is declared with it. Variables,
//     fields, enumerators, macros, forward declarations, and prototypes
//     and typedefs in a function body are not symbols.
//   - cpp: as c, and class, namespace (namespace a::b is b with the name
//     path a/b), type (using aliases too), method, constructor,
//     destructor and operators (operator==, operator bool), in their class
//     or defined outside it with their qualifier in the name path
//     (Widget::draw is Widget/draw, a method unless the qualifier is a
//     namespace; see lang/c.go); a template's range starts at template
//     <...>; a friend function defined in a class is a function nested in
//     it.
//
// Lines and columns follow the package's line rule (see the package
// documentation): a CR-only file's lines end at CR, and its Python, Java,
// TypeScript/JavaScript and PHP text is parsed with each lone CR read as
// LF.
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
	// parsed the source without error, so that the syntax guard need not
	// parse it again to know it (lang.Parse.Clean). It is set only for a
	// language whose symbols come from its own parser
	// (lang.Language.OwnExtract: Go); false says nothing of other
	// languages, nor of an empty Go source, which go/parser refuses (no
	// package clause).
	Clean bool
	// Layout is the top-level layout of a Clean Go source, from the same
	// go/parser parse, so that the syntax guard need not scan the source
	// for it (lang.Parse.Layout); nil unless Clean.
	Layout *lang.Layout

	// names are how each symbol was named, parallel to Symbols (nil when
	// no extraction filled them), so that ExtractEdit can number the
	// symbols it does not extract again.
	names []naming
	// defs are the definitions the language's own parser found, from
	// which Symbols were assembled (nil when they came from tree-sitter),
	// so that ExtractEdit can take those an edit did not touch.
	defs []lang.Def
	// own reports that defs are set: the language's own parser accepted
	// the source (a file without definitions has nil defs).
	own bool
	// treeClean reports that Symbols came from a tree-sitter tree with no
	// ERROR or MISSING node: a parse whose top-level definitions are each
	// parsed alike wherever the file's other text changes (ExtractEdit).
	treeClean bool
}

// ExtractFile is Extract, also reporting in File.Clean whether go/parser
// accepted a Go source. It keeps no tree: the tree-sitter tree it may
// parse is closed before it returns. Its errors are Extract's; on error
// the File is empty.
func ExtractFile(ctx context.Context, src []byte, lang *lang.Language) (File, error) {
	f, _, err := extractFile(ctx, src, lang, false)
	return f, err
}

// ListFile is ExtractFile for a listing of many files (the symbols
// command and its index): File.Symbols equal to ExtractFile's on every
// source whose parse has no error, read more cheaply where the language
// allows it. A language with an outline reader (lang.Language.Outline:
// Python) is read by it with no parse unless it declines the text; one
// whose own parser has a listing reading (lang.Language.OwnListExtract:
// Go's bodies that declare no type blanked before go/parser reads them)
// is read by it where that parser accepts the text; one that blanks what
// can hold no symbol (lang.Language.ListingInput: Java's method bodies,
// fields, imports and comments without a class in them) is parsed
// blanked and collapsed (lang.Language.Listing); any other is extracted
// as ExtractFile extracts it. On a source with a syntax error the listing
// may differ from ExtractFile's (an error in a blanked body is not seen;
// tree-sitter's recovery is not the outline's), which is why the
// operations that edit a symbol, and show, locate it with ExtractFile or
// ExtractParse, and refuse when its text is not the text the listing
// hashed. Only Symbols is set. Errors are ExtractFile's.
func ListFile(ctx context.Context, src []byte, l *lang.Language) (File, error) {
	if l == nil {
		return File{}, errors.New("symbols: ListFile: nil language")
	}
	if err := ctx.Err(); err != nil {
		return File{}, err
	}
	if len(src) == 0 {
		return File{}, nil
	}
	if outline := l.Outline(); outline != nil {
		if defs, ok := outline(l.ParserInput(src)); ok {
			syms, _ := assembleDefs(src, l, defs)
			return File{Symbols: syms}, nil
		}
	}
	if own := l.OwnListExtract(); own != nil {
		probe.CountOwnParsed(ctx, len(src))
		if defs, _, ok := own(src); ok {
			syms, _ := assembleDefs(src, l, defs)
			return File{Symbols: syms}, ctx.Err()
		}
	}
	lst := l.Listing(src)
	if !lst.Collapsed() {
		f, _, err := extractTree(ctx, src, l, lst.Text, false)
		return f, err
	}
	return listCollapsed(ctx, src, l, lst)
}

// listCollapsed is ListFile's extraction from a listing whose text is
// shorter than src (lang.Listing.Collapsed): the query and the rules run
// over the listing's tree and text, and the candidates' offsets are
// mapped back to src's before they are assembled, so that positions,
// ranges and everything after are src's. Errors are extractTree's.
func listCollapsed(ctx context.Context, src []byte, l *lang.Language, lst lang.Listing) (File, error) {
	q, err := l.SymbolsQuery()
	if err != nil {
		return File{}, err
	}
	parser := sitter.NewParser()
	defer parser.Close()
	parser.SetLanguage(l.Grammar())
	probe.CountParse(ctx)
	tree, err := parser.ParseCtx(ctx, nil, lst.Text)
	if err != nil {
		if ctx.Err() != nil {
			return File{}, ctx.Err()
		}
		return File{}, fmt.Errorf("symbols: parsing %s: %w", l.Name, err)
	}
	defer tree.Close()
	root := tree.RootNode()
	x := &extractor{src: lst.Text, rules: l.Rules()}
	probe.CountQuery(ctx)
	if err := x.query(ctx, q, root, nil); err != nil {
		return File{}, err
	}
	cands := x.refine()
	for _, c := range cands {
		c.startByte = uint32(lst.Start(int(c.startByte)))
		c.endByte = uint32(lst.End(int(c.endByte)))
		c.implByte = uint32(lst.Start(int(c.implByte)))
		c.modByte = uint32(lst.Start(int(c.modByte)))
		c.kwByte = uint32(lst.Start(int(c.kwByte)))
		c.nameByte = uint32(lst.Start(int(c.nameByte)))
	}
	x.src, x.lines = src, newLineIndex(src)
	syms, names := x.assemble(cands)
	return File{Symbols: syms, names: names, treeClean: !root.HasError()}, nil
}

// ExtractParse is ExtractFile that also returns what its parse learnt of
// src, for the syntax guard to check an edit of src without parsing src
// again (guard.GuardOptions.Before): a *lang.Parse whose Lang is lang,
// Text src, Tree the tree-sitter tree of lang.ParserInput(src) when
// tree-sitter parsed it (nil when the language's own parser accepted it,
// and for an empty src), and Clean and Layout File's.
//
// The caller owns the Parse and must Close it (once its check is done):
// it holds a tree-sitter tree, C memory of some tens of bytes per source
// byte, which belongs to the calling goroutine. A caller that does not
// check an edit (an index of symbols, a display) calls ExtractFile
// instead. Errors are Extract's; on error the File is empty and the
// Parse nil.
func ExtractParse(ctx context.Context, src []byte, lang *lang.Language) (File, *lang.Parse, error) {
	return extractFile(ctx, src, lang, true)
}

// ExtractFrom is ExtractFile for a source already parsed: p.Text's
// symbols, read from p.Tree with no parse when p has a tree (the syntax
// guard's parse of the content after an edit, guard.GuardOptions.
// KeepAfter; in Go, only where go/parser, which finds Go's symbols,
// refuses the text), else parsed as ExtractFile parses. The result is what
// ExtractFile(ctx, p.Text, p.Lang) returns, its Clean and Layout those of
// p when no parse was made. ExtractFrom borrows p: it neither modifies
// nor closes it. Errors are Extract's, and a nil p or p.Lang.
func ExtractFrom(ctx context.Context, p *lang.Parse) (File, error) {
	if p == nil || p.Lang == nil {
		return File{}, errors.New("symbols: ExtractFrom: no parse")
	}
	if p.Tree == nil || len(p.Text) == 0 {
		return ExtractFile(ctx, p.Text, p.Lang)
	}
	if err := ctx.Err(); err != nil {
		return File{}, err
	}
	// A language whose own parser finds its symbols (Go) reads them from
	// that parser wherever it accepts the text, tree or not; the tree
	// serves where it refuses, as in ExtractFile.
	if f, ok := ownFile(ctx, p.Text, p.Lang); ok {
		return f, nil
	}
	q, err := p.Lang.SymbolsQuery()
	if err != nil {
		return File{}, err
	}
	f, err := querySymbols(ctx, q, p.Text, p.Lang, p.Tree)
	if err != nil {
		return File{}, err
	}
	f.Clean, f.Layout = p.Clean, p.Layout
	return f, nil
}

// extractFile is ExtractFile, or with keep ExtractParse.
func extractFile(ctx context.Context, src []byte, l *lang.Language, keep bool) (File, *lang.Parse, error) {
	if l == nil {
		return File{}, nil, errors.New("symbols: Extract: nil language")
	}
	if err := ctx.Err(); err != nil {
		return File{}, nil, err
	}
	snapshot := func(f File, tree *sitter.Tree) *lang.Parse {
		if !keep {
			return nil
		}
		return &lang.Parse{Lang: l, Text: src, Tree: tree, Clean: f.Clean, Layout: f.Layout}
	}
	if len(src) == 0 {
		return File{}, snapshot(File{}, nil), nil
	}
	if f, ok := ownFile(ctx, src, l); ok {
		if err := ctx.Err(); err != nil {
			return File{}, nil, err
		}
		return f, snapshot(f, nil), nil
	}
	f, tree, err := extractTree(ctx, src, l, l.ParserInput(src), keep)
	if err != nil {
		return File{}, nil, err
	}
	return f, snapshot(f, tree), nil
}

// ownFile returns src's File from l's own parser (lang.Language.OwnExtract:
// go/parser for Go), and true, when l has one and it accepts src.
// It counts the bytes it hands to that parser (probe.CountOwnParsed).
func ownFile(ctx context.Context, src []byte, l *lang.Language) (File, bool) {
	own := l.OwnExtract()
	if own == nil {
		return File{}, false
	}
	probe.CountOwnParsed(ctx, len(src))
	defs, layout, ok := own(src)
	if !ok {
		return File{}, false
	}
	return ownDefsFile(src, l, defs, layout), true
}

// ownDefsFile returns the File of src whose own parser found defs and
// layout.
func ownDefsFile(src []byte, l *lang.Language, defs []lang.Def, layout *lang.Layout) File {
	syms, names := assembleDefs(src, l, defs)
	return File{Symbols: syms, Clean: true, Layout: layout, names: names, defs: defs, own: true}
}

// extractTree is Extract with tree-sitter: the query's matches refined by
// the language's rules (lang.Language.Rules). It serves every language,
// and source that the language's own parser refuses. input is the text
// tree-sitter parses, of src's length: l.ParserInput(src), or for a
// listing l.ListingInput(src); names and hashes are read from src. With keep it
// returns the tree, which the caller then owns and closes; without, it
// closes the tree and returns nil. On error no tree is returned.
func extractTree(ctx context.Context, src []byte, l *lang.Language, input []byte, keep bool) (f File, kept *sitter.Tree, err error) {
	q, err := l.SymbolsQuery()
	if err != nil {
		return File{}, nil, err
	}

	parser := sitter.NewParser()
	defer parser.Close()
	parser.SetLanguage(l.Grammar())
	probe.CountParse(ctx)
	tree, err := parser.ParseCtx(ctx, nil, input)
	if err != nil {
		if ctx.Err() != nil {
			return File{}, nil, ctx.Err()
		}
		return File{}, nil, fmt.Errorf("symbols: parsing %s: %w", l.Name, err)
	}
	defer func() {
		if keep && err == nil {
			kept = tree
			return
		}
		tree.Close()
	}()

	f, err = querySymbols(ctx, q, src, l, tree)
	return f, nil, err
}

// querySymbols runs l's symbols query q over tree, tree-sitter's tree of
// l.ParserInput(src), and refines its matches by l's rules: the half of
// Extract that follows the parse. It neither keeps nor closes tree. The
// File has Symbols, names and treeClean set.
func querySymbols(ctx context.Context, q *sitter.Query, src []byte, l *lang.Language, tree *sitter.Tree) (File, error) {
	root := tree.RootNode()
	x := &extractor{src: src, rules: l.Rules(), lines: newLineIndex(src)}
	probe.CountQuery(ctx)
	if err := x.query(ctx, q, root, nil); err != nil {
		return File{}, err
	}
	syms, names := x.assemble(x.refine())
	return File{Symbols: syms, names: names, treeClean: !root.HasError()}, nil
}

// query runs q over root's tree, or with span only over the nodes that
// intersect the rows and columns span gives (tree-sitter points: 0-based
// rows, byte columns; end exclusive), adding each match to x's
// candidates, and then indexes the tree around them for the rules
// (x.tree).
func (x *extractor) query(ctx context.Context, q *sitter.Query, root *sitter.Node, span *[2]sitter.Point) error {
	cursor := sitter.NewQueryCursor()
	defer cursor.Close()
	if span != nil {
		cursor.SetPointRange(span[0], span[1])
	}
	cursor.Exec(q, root)
	src := x.src
	for n := 0; ; n++ {
		if n%256 == 255 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		m, ok := cursor.NextMatch()
		if !ok {
			break
		}
		m = cursor.FilterPredicates(m, src)
		x.addMatch(q, m)
	}
	var starts []uint32
	for _, c := range x.cands {
		starts = append(starts, c.Def.StartByte(), c.Name.StartByte(), c.Scope.StartByte())
	}
	x.tree = lang.NewTree(src, root, starts)
	return nil
}

// candidate is one definition captured by the query, before filtering,
// as the language's rules see it (lang.Candidate) and with what Extract
// learns after them; or one that the language's own parser found
// (assembleDefs), whose node fields are nil and whose range, name and
// prefix fields are set.
type candidate struct {
	lang.Candidate
	pattern uint16

	// Filled by extractor.symbols.
	startByte uint32
	endByte   uint32
	implByte  uint32 // see Symbol.ImplByte
	modByte   uint32 // see Symbol.ModifiersByte
	kwByte    uint32 // see Symbol.KeywordByte
	nameByte  uint32 // where the name starts: Symbol.Selection
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
	rules lang.Rules
	lines *lineIndex
	cands []*candidate
	seen  map[[2]nodeKey]int // (def, name) -> index in cands
	// tree is the view of the parsed tree the rules get, its parents and
	// siblings indexed around the candidates; for the own parser's
	// candidates, one without a tree.
	tree *lang.Tree
}

func (x *extractor) addMatch(q *sitter.Query, m *sitter.QueryMatch) {
	c := &candidate{pattern: m.PatternIndex}
	for _, qc := range m.Captures {
		name := q.CaptureNameForId(qc.Index)
		switch {
		case name == "name":
			c.Name = qc.Node
		case name == "scope":
			c.Scope = qc.Node
		case strings.HasPrefix(name, "definition."):
			c.Def = qc.Node
			c.Kind = strings.TrimPrefix(name, "definition.")
		}
	}
	if c.Def == nil || c.Name == nil {
		return // a pattern whose predicates failed, or without captures
	}
	if c.Scope == nil {
		c.Scope = c.Def
	}
	if x.seen == nil {
		x.seen = map[[2]nodeKey]int{}
	}
	k := [2]nodeKey{keyOf(c.Def), keyOf(c.Name)}
	if i, dup := x.seen[k]; dup {
		if c.pattern < x.cands[i].pattern {
			x.cands[i] = c
		}
		return
	}
	x.seen[k] = len(x.cands)
	x.cands = append(x.cands, c)
}

// refine applies the language's rules to the candidates and returns
// those that are symbols, their ranges, heads and names set, for
// assemble.
func (x *extractor) refine() []*candidate {
	r := x.rules
	var cands []*candidate
	for _, c := range x.cands {
		if r.Adjust != nil && !r.Adjust(x.tree, &c.Candidate) {
			continue
		}
		if c.Outer == nil {
			c.Outer = c.Def
		}
		if r.Widen != nil {
			c.Outer = r.Widen(x.tree, c.Outer)
		}
		impl := c.Outer // where the definition itself starts: its decorators
		if r.Leading != nil {
			impl = r.Leading(x.tree, c.Outer)
		}
		start := impl
		if c.First != nil {
			start = c.First // its overload signatures belong to the range
		}
		var okStart, okEnd bool
		c.startByte, okStart = contentStart(start, x.src)
		c.endByte, okEnd = contentEnd(c.Outer, x.src)
		if c.Last != nil && c.Last.StartByte() >= c.endByte {
			c.endByte = c.Last.EndByte()
		}
		if !okStart || !okEnd || c.endByte <= c.startByte {
			// Nothing but comments (only in broken input): keep the
			// nodes' own range.
			c.startByte, c.endByte = start.StartByte(), c.Outer.EndByte()
		}
		c.implByte = c.startByte
		if c.First != nil {
			if b, ok := contentStart(impl, x.src); ok && b > c.startByte && b < c.endByte {
				c.implByte = b
			}
		}
		c.modByte, c.kwByte = x.head(c, impl)
		if c.NameText == "" {
			c.NameText = c.Name.Content(x.src)
		}
		if c.NameText == "" || c.endByte <= c.startByte {
			continue // a missing name or an empty range (broken input)
		}
		c.nameByte = c.Name.StartByte()
		cands = append(cands, c)
	}
	return cands
}

// assemble turns candidates whose ranges, name and name path prefix are
// known into the result slice: it orders them by range (an enclosing
// symbol before the symbols in it; equal ranges keep cands' order), drops
// members whose owner is not a symbol (lang.Rules.Owner), and gives each
// its Parent, NamePath ("[2]", "[3]", ... for same-named siblings), Kind
// (lang.Rules.KindIn) and positions. Both paths of a language with its
// own parser (assembleDefs and extractTree) end here, so that they name
// and nest alike. The namings, parallel to the symbols, are what nameAll
// named them from.
func (x *extractor) assemble(cands []*candidate) ([]Symbol, []naming) {
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
	if r.Owner != nil {
		scopes := map[nodeKey]bool{}
		kept := cands[:0]
		for _, c := range cands {
			if o, member := r.Owner(x.tree, c.Def); member && (o == nil || !scopes[keyOf(o)]) {
				continue
			}
			scopes[keyOf(c.Scope)] = true
			kept = append(kept, c)
		}
		cands = kept
	}

	out := make([]Symbol, len(cands))
	names := make([]naming, len(cands))
	var stack []int // indexes of the open enclosing symbols
	for i, c := range cands {
		for len(stack) > 0 && !contains(cands[stack[len(stack)-1]], c) {
			stack = stack[:len(stack)-1]
		}
		parent := -1
		if len(stack) > 0 && !c.HasPrefix {
			parent = stack[len(stack)-1]
		}
		kind := Kind(c.Kind)
		if r.KindIn != nil && parent >= 0 {
			kind = Kind(r.KindIn(c.Kind, string(out[parent].Kind)))
		}
		seg := c.NameText
		if c.Qualifier != "" {
			seg = c.Qualifier + "/" + seg
		}
		names[i] = naming{seg: seg, member: c.MemberName, prefix: c.Prefix}
		out[i] = Symbol{
			Name:          c.NameText,
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
		if !c.Leaf {
			stack = append(stack, i)
		}
	}
	nameAll(out, names)
	return out, names
}

// naming is what a symbol's NamePath is made of, besides its parent's
// (nameAll): kept in File so that ExtractEdit can name again the
// symbols it does not extract again, after the symbols an edit added or
// removed before them changed their "[N]".
type naming struct {
	seg    string // the symbol's own segments: its Qualifier, "/" and its name, or its name
	member string // lang.Candidate.MemberName: its members' segment when not its name path's
	prefix string // lang.Candidate.Prefix: the name path prefix of a symbol without a parent
}

// nameAll sets the NamePath of each of out, symbols in source order with
// their Parent set, from names (parallel to out): the parent's member
// path (else the naming's prefix), "/" and the symbol's segments, with
// "[N]" for the Nth symbol of the same path in the file from the second
// on.
func nameAll(out []Symbol, names []naming) {
	// memberPath[i] is the name path that out[i]'s members extend: its
	// own, or with its member segment as the last one (a Rust impl
	// block's self type).
	memberPath := make([]string, len(out))
	count := make(map[string]int, len(out))
	for i := range out {
		nm := names[i]
		prefix := nm.prefix
		if p := out[i].Parent; p >= 0 {
			prefix = memberPath[p]
		}
		base := nm.seg
		if prefix != "" {
			base = prefix + "/" + base
		}
		count[base]++
		namePath := base
		if n := count[base]; n > 1 {
			namePath += "[" + strconv.Itoa(n) + "]"
		}
		out[i].NamePath = namePath
		memberPath[i] = namePath
		if nm.member != "" {
			memberPath[i] = nm.member
			if prefix != "" {
				memberPath[i] = prefix + "/" + nm.member
			}
		}
	}
}

// contains reports whether outer's range contains inner's.
func contains(outer, inner *candidate) bool {
	return outer.startByte <= inner.startByte && inner.endByte <= outer.endByte
}

// skippable reports whether n cannot begin or end a symbol's range: a
// comment, a zero-width (missing) node, or an anonymous token made only of
// white space (tree-sitter-go's newline terminators).
func skippable(n *sitter.Node, src []byte) bool {
	start, end := n.StartByte(), n.EndByte()
	if start >= end {
		return true
	}
	// The white-space test reads src, no string made; IsComment, which
	// asks tree-sitter for the node's type as a new string, comes last.
	if !n.IsNamed() && len(bytes.TrimSpace(src[start:end])) == 0 {
		return true
	}
	return lang.IsComment(n)
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
