package symbols_test

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

// This file checks symedit's Rust symbols against rustc's own parser:
// RUSTC_BOOTSTRAP=1 rustc -Zunpretty=ast-tree prints the crate's AST
// before macro expansion (so outline modules, mod m;, stay unloaded and
// macro invocations stay calls) with every item's span, attributes and
// name. Each item that symedit calls a symbol (fn, struct, enum, union,
// trait, impl, inline mod, type alias, associated type, macro_rules!) is
// compared field by field: kind, name path, the range (from the first
// outer attribute that is not a doc comment, else from the item's span,
// to the span's end) and where the item proper begins (rustc's span
// start: the visibility, a qualifier or the keyword; symedit's
// ModifiersByte).

// rustcTool returns rustc, skipping the test when it is absent.
func rustcTool(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("rustc"); err == nil {
		return p
	}
	if home, err := os.UserHomeDir(); err == nil {
		if p := filepath.Join(home, ".cargo", "bin", "rustc"); fileExists(p) {
			return p
		}
	}
	t.Skip("rustc not found")
	return ""
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// rustItem is one symbol as either side reports it: columns are 1-based
// and count characters, as rustc's spans do; End is exclusive.
type rustItem struct {
	Kind      symbols.Kind
	NamePath  string
	StartLine int
	StartCol  int
	EndLine   int
	EndCol    int
	// ItemLine and ItemCol are where the item proper begins, after its
	// attributes: rustc's span start, symedit's ModifiersByte.
	ItemLine int
	ItemCol  int
	// NameLine and NameCol are where the name begins: rustc's identifier
	// after the item's keyword (an impl's self type's span start),
	// symedit's Selection.
	NameLine int
	NameCol  int
}

func (r rustItem) String() string {
	return fmt.Sprintf("%s %s %d:%d-%d:%d item %d:%d name %d:%d", r.Kind, r.NamePath, r.StartLine, r.StartCol, r.EndLine, r.EndCol, r.ItemLine, r.ItemCol, r.NameLine, r.NameCol)
}

// debugNode is one value of rustc's pretty Debug output ({:#?}): head is
// its line without the opening bracket or the trailing comma ("Item",
// "kind: Fn", "span: f.rs:1:1: 2:2 (#0)"); a leaf has no kids.
type debugNode struct {
	head string
	kids []*debugNode
}

// parseDebug reads rustc's pretty Debug output into a tree: {:#?} puts
// each opening bracket at the end of its line and each closing one on a
// line of its own.
func parseDebug(out []byte) *debugNode {
	root := &debugNode{}
	stack := []*debugNode{root}
	for _, line := range strings.Split(string(out), "\n") {
		t := strings.TrimSuffix(strings.TrimSpace(line), ",")
		top := stack[len(stack)-1]
		switch {
		case t == "":
		case t == "}" || t == ")" || t == "]":
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case strings.HasSuffix(t, "{") || strings.HasSuffix(t, "(") || strings.HasSuffix(t, "["):
			n := &debugNode{head: strings.TrimSpace(t[:len(t)-1])}
			top.kids = append(top.kids, n)
			stack = append(stack, n)
		default:
			top.kids = append(top.kids, &debugNode{head: t})
		}
	}
	return root
}

// child returns n's first kid whose head is head, or nil.
func (n *debugNode) child(head string) *debugNode {
	for _, k := range n.kids {
		if k.head == head {
			return k
		}
	}
	return nil
}

// field returns the text after "name: " of n's first leaf kid with that
// field, or "".
func (n *debugNode) field(name string) string {
	for _, k := range n.kids {
		if k.kids == nil && strings.HasPrefix(k.head, name+": ") {
			return strings.TrimPrefix(k.head, name+": ")
		}
	}
	return ""
}

// find returns the first node under n (n included, depth first) whose head
// is head, or nil.
func (n *debugNode) find(head string) *debugNode {
	if n.head == head {
		return n
	}
	for _, k := range n.kids {
		if f := k.find(head); f != nil {
			return f
		}
	}
	return nil
}

// rustSpanRE matches a span's text: "f.rs:4:1: 4:35 (#0)".
var rustSpanRE = regexp.MustCompile(`:(\d+):(\d+): (\d+):(\d+) \(#\d+\)$`)

// rustSpan is a span: 1-based lines and character columns, the end
// exclusive.
type rustSpan struct{ l1, c1, l2, c2 int }

func parseSpan(s string) (rustSpan, bool) {
	m := rustSpanRE.FindStringSubmatch(s)
	if m == nil {
		return rustSpan{}, false
	}
	var v [4]int
	for i := range v {
		v[i], _ = strconv.Atoi(m[i+1])
	}
	return rustSpan{v[0], v[1], v[2], v[3]}, true
}

// before reports whether a starts before b.
func (a rustSpan) before(b rustSpan) bool { return a.l1 < b.l1 || a.l1 == b.l1 && a.c1 < b.c1 }

// rustIdent returns the identifier of an ident's Debug text ("Point#0"),
// raw identifiers keeping their r#.
func rustIdent(s string) string {
	if i := strings.LastIndexByte(s, '#'); i > 0 {
		return s[:i]
	}
	return s
}

// rustSource is a file's text with the byte offset of each line's start,
// to turn rustc's spans (1-based lines, character columns) into byte
// offsets.
type rustSource struct {
	src        []byte
	lineStarts []int
}

func newRustSource(src []byte) rustSource {
	starts := []int{0}
	for i, b := range src {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return rustSource{src: src, lineStarts: starts}
}

// offset returns the byte offset of 1-based line l, character column c,
// or -1 when l is not a line of the file.
func (r rustSource) offset(l, c int) int {
	if l < 1 || l > len(r.lineStarts) {
		return -1
	}
	n := r.lineStarts[l-1]
	for i := 1; i < c && n < len(r.src) && r.src[n] != '\n'; i++ {
		_, sz := utf8.DecodeRune(r.src[n:])
		n += sz
	}
	return n
}

// pos returns the 1-based line and character column of byte offset off.
func (r rustSource) pos(off int) (line, col int) {
	line = sort.SearchInts(r.lineStarts, off+1)
	return line, utf8.RuneCount(r.src[r.lineStarts[line-1]:off]) + 1
}

// text returns the source text of span s, or "".
func (r rustSource) text(s rustSpan) string {
	a, b := r.offset(s.l1, s.c1), r.offset(s.l2, s.c2)
	if a < 0 || b < a {
		return ""
	}
	return string(r.src[a:b])
}

// rustItemKeywords are the tokens that precede the name of an item of
// each of rustc's item kinds: the name is the identifier right after them
// (only white space and comments between), which rustc's Debug output of
// an identifier does not locate.
var rustItemKeywords = map[string][]string{
	"Fn": {"fn"}, "Struct": {"struct"}, "Enum": {"enum"}, "Union": {"union"}, "Trait": {"trait"},
	"TyAlias": {"type"}, "Type": {"type"}, "Mod": {"mod"}, "MacroDef": {"macro_rules", "!"},
}

// namePos returns the 1-based line and character column of ident, the
// name of the item whose span is span and whose name follows the tokens
// kw: the first place, from the span's start, where kw and then ident
// follow each other, only white space and comments between (a
// qualifier, a visibility or an ABI string comes before the keyword; the
// item's own keyword is the first one after them). ok is false when
// there is none.
func (r rustSource) namePos(span rustSpan, kw []string, ident string) (line, col int, ok bool) {
	from, end := r.offset(span.l1, span.c1), r.offset(span.l2, span.c2)
	if from < 0 || end < from {
		return 0, 0, false
	}
	text := r.src[:end]
	word := func(i int) bool { return i < 0 || i >= len(text) || !rustIdentChar(text[i]) }
	skip := func(i int) int {
		for i < len(text) {
			switch {
			case text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r':
				i++
			case bytes.HasPrefix(text[i:], []byte("//")):
				j := bytes.IndexByte(text[i:], '\n')
				if j < 0 {
					return len(text)
				}
				i += j
			case bytes.HasPrefix(text[i:], []byte("/*")):
				j := bytes.Index(text[i+2:], []byte("*/"))
				if j < 0 {
					return len(text)
				}
				i += j + 4
			default:
				return i
			}
		}
		return i
	}
	// token reports the end of tok at i, or -1.
	token := func(i int, tok string) int {
		if !bytes.HasPrefix(text[i:], []byte(tok)) || rustIdentChar(tok[0]) && (!word(i-1) || !word(i+len(tok))) {
			return -1
		}
		return i + len(tok)
	}
	for i := from; i < len(text); i++ {
		j := token(i, kw[0])
		for _, k := range kw[1:] {
			if j < 0 {
				break
			}
			j = token(skip(j), k)
		}
		if j < 0 {
			continue
		}
		if n := token(skip(j), ident); n >= 0 {
			line, col = r.pos(n - len(ident))
			return line, col, true
		}
	}
	return 0, 0, false
}

// rustIdentChar reports whether b may be in a Rust identifier (ASCII, or
// a byte of a multi-byte character).
func rustIdentChar(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || b >= 0x80
}

// rustcItems returns the symbols that rustc's AST of src (out, its
// -Zunpretty=ast-tree) holds, in symedit's order, with the same naming
// rules applied to rustc's names and spans, and the macro items that are
// not macro_rules! (decl_macro's macro m() {}, which tree-sitter's grammar
// does not know).
func rustcItems(src, out []byte) (items []rustItem, declMacros int) {
	rs := newRustSource(src)
	count := map[string]int{}
	type scope struct{ path string } // the name path the members extend
	var walk func(n *debugNode, parent scope, parentKind symbols.Kind)
	walk = func(n *debugNode, parent scope, parentKind symbols.Kind) {
		if n.head != "Item" {
			for _, k := range n.kids {
				walk(k, parent, parentKind)
			}
			return
		}
		span, ok := parseSpan(n.field("span"))
		kindNode := (*debugNode)(nil)
		for _, k := range n.kids {
			if strings.HasPrefix(k.head, "kind: ") && k.kids != nil {
				kindNode = k
				break
			}
		}
		if !ok || kindNode == nil {
			for _, k := range n.kids {
				walk(k, parent, parentKind)
			}
			return
		}
		var kind symbols.Kind
		var name, member string
		var nameAt rustSpan // an impl's: its self type's span
		astKind := strings.TrimPrefix(kindNode.head, "kind: ")
		switch astKind {
		case "Fn":
			kind = symbols.KindFunction
			if parentKind == symbols.KindImpl || parentKind == symbols.KindTrait {
				kind = symbols.KindMethod
			}
			if fn := kindNode.child("Fn"); fn != nil {
				name = rustIdent(fn.field("ident"))
			}
		case "Struct", "Enum", "Union":
			kind = map[string]symbols.Kind{"Struct": symbols.KindStruct, "Enum": symbols.KindEnum, "Union": symbols.KindUnion}[strings.TrimPrefix(kindNode.head, "kind: ")]
			if len(kindNode.kids) > 0 {
				name = rustIdent(kindNode.kids[0].head)
			}
		case "Trait":
			kind = symbols.KindTrait
			if tr := kindNode.child("Trait"); tr != nil {
				name = rustIdent(tr.field("ident"))
			}
		case "TyAlias", "Type":
			kind = symbols.KindType
			if ta := kindNode.child("TyAlias"); ta != nil {
				name = rustIdent(ta.field("ident"))
			}
		case "MacroDef":
			if len(kindNode.kids) > 1 && kindNode.kids[1].field("macro_rules") == "true" {
				kind, name = symbols.KindMacro, rustIdent(kindNode.kids[0].head)
			} else {
				declMacros++
			}
		case "Mod":
			if kindNode.child("Loaded") != nil && len(kindNode.kids) > 1 {
				kind, name = symbols.KindNamespace, rustIdent(kindNode.kids[1].head)
			}
		case "Impl":
			kind = symbols.KindImpl
			impl := kindNode.child("Impl")
			self := impl.child("self_ty: Ty")
			if self == nil {
				break
			}
			selfSpan, _ := parseSpan(self.field("span"))
			nameAt = selfSpan
			member = lang.RustShortType(rs.text(selfSpan))
			if p := self.child("kind: Path"); p != nil {
				// A path type: its last segment, without generic arguments.
				if segs := p.child("Path").child("segments:"); segs != nil && len(segs.kids) > 0 {
					member = rustIdent(segs.kids[len(segs.kids)-1].field("ident"))
				}
			}
			name = "impl " + member
			if tr := impl.child("of_trait: Some"); tr != nil {
				if path := tr.find("path: Path"); path != nil {
					ps, _ := parseSpan(path.field("span"))
					name = "impl " + lang.RustShortType(rs.text(ps)) + " for " + member
				}
			}
		}
		if kind == "" || name == "" {
			for _, k := range n.kids {
				walk(k, parent, parentKind)
			}
			return
		}
		start := span
		if attrs := n.child("attrs:"); attrs != nil {
			for _, a := range attrs.kids {
				as, ok := parseSpan(a.field("span"))
				if ok && a.field("style") == "Outer" && a.child("kind: Normal") != nil && as.before(start) {
					start = as
				}
			}
		}
		base := name
		if parent.path != "" {
			base = parent.path + "/" + name
		}
		// rustc's AST lists items in source order, an item before the
		// items in it: symedit's order, in which it numbers same-named
		// siblings.
		count[base]++
		namePath := base
		if c := count[base]; c > 1 {
			namePath += "[" + strconv.Itoa(c) + "]"
		}
		it := rustItem{Kind: kind, NamePath: namePath, StartLine: start.l1, StartCol: start.c1,
			EndLine: span.l2, EndCol: span.c2, ItemLine: span.l1, ItemCol: span.c1}
		if kind == symbols.KindImpl {
			it.NameLine, it.NameCol = nameAt.l1, nameAt.c1
		} else {
			// Not found (a name a macro writes): 0:0, which no symbol has,
			// so that the item is reported.
			it.NameLine, it.NameCol, _ = rs.namePos(span, rustItemKeywords[astKind], name)
		}
		items = append(items, it)
		inner := scope{namePath}
		if member != "" {
			inner.path = member
			if parent.path != "" {
				inner.path = parent.path + "/" + member
			}
		}
		for _, k := range n.kids {
			if k != n.child("attrs:") {
				walk(k, inner, kind)
			}
		}
	}
	walk(parseDebug(out), scope{}, "")
	return items, declMacros
}

// charPos returns the 1-based line and character column of byte offset
// off of src.
func charPos(src []byte, off int) (line, col int) {
	ls := bytes.LastIndexByte(src[:off], '\n') + 1
	return bytes.Count(src[:off], []byte("\n")) + 1, utf8.RuneCount(src[ls:off]) + 1
}

// symeditRustItems returns Extract's Rust symbols of src as rustItems.
func symeditRustItems(t *testing.T, src []byte) []rustItem {
	t.Helper()
	rs, err := lang.ByName("rust")
	if err != nil {
		t.Fatal(err)
	}
	syms, err := symbols.Extract(context.Background(), src, rs)
	if err != nil {
		t.Fatal(err)
	}
	rsrc := newRustSource(src)
	var out []rustItem
	for _, s := range syms {
		r := rustItem{Kind: s.Kind, NamePath: s.NamePath}
		r.StartLine, r.StartCol = rsrc.pos(s.StartByte)
		r.EndLine, r.EndCol = rsrc.pos(s.EndByte)
		r.ItemLine, r.ItemCol = rsrc.pos(s.ModifiersByte)
		r.NameLine, r.NameCol = rsrc.pos(selectionByte(src, s))
		out = append(out, r)
	}
	return out
}

// rustcAST runs rustc -Zunpretty=ast-tree on file, parsed as a library
// of the given edition ("2015", "2018", "2021", "2024": the keywords
// differ, async, dyn, try and gen among them); ok is false when rustc
// reports an error (a syntax error, or syntax this rustc no longer
// knows): then its AST is recovered and not a reference. rustc only
// parses: a file that is one module of a crate stands alone, and neither
// the crate's dependencies nor its other modules are read.
func rustcAST(rustc, edition, file string) (out []byte, ok bool, err error) {
	cmd := exec.Command(rustc, "--edition", edition, "--crate-type", "lib", "-Zunpretty=ast-tree", file)
	cmd.Env = append(os.Environ(), "RUSTC_BOOTSTRAP=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err = cmd.Output()
	if err != nil || bytes.Contains(stderr.Bytes(), []byte("error")) {
		if len(out) == 0 && stderr.Len() == 0 {
			return nil, false, err
		}
		return out, false, nil
	}
	return out, true, nil
}

// rustComparison is what compareRust learned over a set of files.
type rustComparison struct {
	files, skipped, items, declMacros int
	// refused are the files rustc reports an error in (skipped counts
	// them): not compared.
	refused []string
	// found counts rustc's items that symedit has too (the same kind and
	// name position); equal those of them whose name path, range and
	// item start agree as well.
	found, equal int
	// diffs are the differences in files that tree-sitter parses without
	// an error: symedit's rules are wrong there.
	diffs []string
	// gapFiles are the files rustc accepts and tree-sitter's grammar does
	// not (syntax newer than the grammar: const trait, unsafe extern
	// blocks, ...), where its error recovery may lose items; gapDiffs
	// counts their differences, gapItems, gapFound and gapEqual their
	// share of items, found and equal.
	gapFiles                     []string
	gapDiffs                     int
	gapItems, gapFound, gapEqual int
}

// add adds o's counts and lists to r's.
func (r *rustComparison) add(o rustComparison) {
	r.files += o.files
	r.skipped += o.skipped
	r.refused = append(r.refused, o.refused...)
	r.items += o.items
	r.declMacros += o.declMacros
	r.found += o.found
	r.equal += o.equal
	r.diffs = append(r.diffs, o.diffs...)
	r.gapFiles = append(r.gapFiles, o.gapFiles...)
	r.gapDiffs += o.gapDiffs
	r.gapItems += o.gapItems
	r.gapFound += o.gapFound
	r.gapEqual += o.gapEqual
}

// compareRust compares symedit's and rustc's items of each file, read as
// the given edition, in parallel, and returns the totals and every
// difference.
func compareRust(t *testing.T, rustc, edition string, files []string) rustComparison {
	t.Helper()
	var mu sync.Mutex
	var res rustComparison
	work := make(chan string)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range work {
				src, err := os.ReadFile(f)
				if err != nil {
					t.Error(err)
					continue
				}
				out, ok, err := rustcAST(rustc, edition, f)
				if err != nil {
					t.Errorf("%s: rustc: %v", f, err)
					continue
				}
				if !ok {
					mu.Lock()
					res.skipped++
					res.refused = append(res.refused, f)
					mu.Unlock()
					continue
				}
				want, decl := rustcItems(src, out)
				got := symeditRustItems(t, src)
				d := diffRustItems(f, got, want)
				gap := treeSitterRefuses(t, src)
				mu.Lock()
				res.files++
				res.items += len(want)
				res.found += d.found
				res.equal += d.equal
				res.declMacros += decl
				if gap {
					res.gapFiles = append(res.gapFiles, f)
					res.gapDiffs += len(d.lines)
					res.gapItems += len(want)
					res.gapFound += d.found
					res.gapEqual += d.equal
				} else {
					res.diffs = append(res.diffs, d.lines...)
				}
				mu.Unlock()
			}
		}()
	}
	for _, f := range files {
		work <- f
	}
	close(work)
	wg.Wait()
	sort.Strings(res.diffs)
	sort.Strings(res.gapFiles)
	sort.Strings(res.refused)
	return res
}

// treeSitterRefuses reports whether tree-sitter's Rust grammar finds a
// syntax error in src.
func treeSitterRefuses(t *testing.T, src []byte) bool {
	t.Helper()
	rs, err := lang.ByName("rust")
	if err != nil {
		t.Fatal(err)
	}
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(rs.Grammar())
	tree, err := p.ParseCtx(context.Background(), nil, rs.ParserInput(src))
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	return tree.RootNode().HasError()
}

// rustDiff is the comparison of one file: how many of rustc's items
// symedit finds and how many of those are equal, and each difference.
type rustDiff struct {
	found, equal int
	lines        []string
}

// diffRustItems pairs rustc's items with symedit's by kind and name
// position: a pair is found, and equal when the name path, the range and
// the item start agree too. rustc's items without a pair, symedit's
// without one and the pairs that differ are listed.
func diffRustItems(file string, got, want []rustItem) rustDiff {
	type key struct {
		kind      symbols.Kind
		line, col int
	}
	byName := map[key][]int{}
	for i, g := range got {
		k := key{g.Kind, g.NameLine, g.NameCol}
		byName[k] = append(byName[k], i)
	}
	used := make([]bool, len(got))
	var d rustDiff
	for _, w := range want {
		match := -1
		for _, i := range byName[key{w.Kind, w.NameLine, w.NameCol}] {
			if !used[i] && (match < 0 || got[i] == w) {
				match = i
			}
		}
		if match < 0 {
			d.lines = append(d.lines, fmt.Sprintf("%s: rustc has %v, symedit does not", file, w))
			continue
		}
		used[match] = true
		d.found++
		if got[match] == w {
			d.equal++
			continue
		}
		d.lines = append(d.lines, fmt.Sprintf("%s: rustc has %v, symedit %v", file, w, got[match]))
	}
	for i, g := range got {
		if !used[i] {
			d.lines = append(d.lines, fmt.Sprintf("%s: symedit has %v, rustc does not", file, g))
		}
	}
	return d
}

// TestRustMatchesRustc compares the Rust fixtures under testdata/src/rust with
// rustc's AST: every item agrees, and tree-sitter's grammar parses every
// fixture (a fixture where it finds a syntax error that rustc does not is
// logged; its differences are errors all the same).
func TestRustMatchesRustc(t *testing.T) {
	rustc := rustcTool(t)
	files, err := filepath.Glob(filepath.Join(repoTestdata, "src", "rust", "*.rs"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Rust fixtures (%v)", err)
	}
	res := compareRust(t, rustc, "2024", files)
	for _, d := range res.diffs {
		t.Error(d)
	}
	if res.skipped > 0 || res.gapDiffs > 0 {
		t.Errorf("rustc refused %d of the fixtures; %d differences in %v, where tree-sitter finds a syntax error", res.skipped, res.gapDiffs, res.gapFiles)
	}
	for _, f := range res.gapFiles {
		t.Logf("grammar gap: tree-sitter finds a syntax error in %s (every item agrees nonetheless)", f)
	}
	t.Logf("%d files, %d of %d items found, %d equal", res.files, res.found, res.items, res.equal)
}

// TestRustcItemNames checks the comparison's own reading of rustc: the
// name positions it derives from rustc's spans (rustc prints an
// identifier without its span) where a qualifier, an ABI string, a
// comment or a line break comes between the item's start and its name,
// for a raw identifier and for a keyword-like name (fnord, which starts
// with fn). Positions are written by hand: 1-based lines, character
// columns.
func TestRustcItemNames(t *testing.T) {
	rustc := rustcTool(t)
	src := []byte(`pub(crate) const unsafe extern "C" fn /* fn x */ r#match() {}
macro_rules! // m
    m { () => {} }
struct fnord; enum
E { A }
impl<T> From<T> for Vec<T> { type Item = T; }
mod m2 { pub union U { a: u8 } }
trait Tr { fn f(); }
`)
	file := filepath.Join(t.TempDir(), "names.rs")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	out, ok, err := rustcAST(rustc, "2021", file)
	if err != nil || !ok {
		t.Fatalf("rustc refuses the test's source: %v\n%s", err, out)
	}
	items, _ := rustcItems(src, out)
	want := []string{
		"function r#match 1:1-1:62 item 1:1 name 1:50",
		"macro m 2:1-3:19 item 2:1 name 3:5",
		"struct fnord 4:1-4:14 item 4:1 name 4:8",
		"enum E 4:15-5:8 item 4:15 name 5:1",
		"impl impl From<T> for Vec 6:1-6:46 item 6:1 name 6:21",
		"type Vec/Item 6:30-6:44 item 6:30 name 6:35",
		"namespace m2 7:1-7:33 item 7:1 name 7:5",
		"union m2/U 7:10-7:31 item 7:10 name 7:20",
		"trait Tr 8:1-8:21 item 8:1 name 8:7",
		"method Tr/f 8:12-8:19 item 8:12 name 8:15",
	}
	var got []string
	for _, it := range items {
		got = append(got, it.String())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rustc's items read as\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// symedit agrees on every one of them.
	d := diffRustItems(file, symeditRustItems(t, src), items)
	for _, l := range d.lines {
		t.Error(l)
	}
}

// rustDocSrcRE matches the source listing of a rustdoc source page: the
// code, with a line number link before each line.
var (
	rustDocCodeRE = regexp.MustCompile(`(?s)<pre class="rust"><code>(.*?)</code></pre>`)
	rustDocLineRE = regexp.MustCompile(`<a href=#\d+ id=\d+ data-nosnippet>\d+</a>`)
	rustDocTagRE  = regexp.MustCompile(`<[^>]*>`)
)

// rustLibrarySources returns the Rust standard library's sources on this
// machine, written under dir when they must be extracted: the rust-src
// component's library/ if it is installed, else the source pages of the
// toolchain's rustdoc documentation (share/doc/rust/html/src/{core,
// alloc, std, ...}/*.rs.html), whose listings are the sources verbatim.
func rustLibrarySources(t *testing.T, rustc, dir string) []string {
	t.Helper()
	out, err := exec.Command(rustc, "--print", "sysroot").Output()
	if err != nil {
		t.Skipf("rustc --print sysroot: %v", err)
	}
	sysroot := strings.TrimSpace(string(out))
	var files []string
	if lib := filepath.Join(sysroot, "lib", "rustlib", "src", "rust", "library"); fileExists(lib) {
		_ = filepath.WalkDir(lib, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".rs") {
				files = append(files, p)
			}
			return nil
		})
		return files
	}
	docs := filepath.Join(sysroot, "share", "doc", "rust", "html", "src")
	_ = filepath.WalkDir(docs, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".rs.html") {
			return nil
		}
		page, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		m := rustDocCodeRE.FindSubmatch(page)
		if m == nil {
			return nil
		}
		code := rustDocLineRE.ReplaceAll(m[1], nil)
		code = rustDocTagRE.ReplaceAll(code, nil)
		rel, _ := filepath.Rel(docs, p)
		dst := filepath.Join(dir, strings.TrimSuffix(rel, ".html"))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, []byte(html.UnescapeString(string(code))), 0o644); err != nil {
			return err
		}
		files = append(files, dst)
		return nil
	})
	if len(files) == 0 {
		t.Skip("neither the rust-src component nor rustdoc's source pages are installed")
	}
	return files
}

// TestRustMatchesRustcWholeTree compares every item of the Rust standard
// library's sources (core, alloc, std, ...: 797 files, 50,000 items) and
// of the stable crates `make deps-rust` extracts from Debian's archive
// (serde, regex, syn, tokio, ...) with rustc's AST. It runs rustc once
// per file, minutes in all, so only `make test-parsers` runs it
// (SYMEDIT_PARSER_TREES=1); TestRustMatchesRustcSample runs every 40th
// file. Files rustc itself refuses are counted, not compared. A file in
// which tree-sitter's grammar finds a syntax error that rustc does not
// (syntax newer than the grammar, which the standard library uses) is a
// grammar gap, logged with its number of differences; a difference in
// any other file is an error. decl_macro items (macro m() {}), which the
// grammar does not know, are counted apart.
func TestRustMatchesRustcWholeTree(t *testing.T) {
	longTrees(t)
	checkRustTrees(t, 1)
}

// TestRustMatchesRustcSample is TestRustMatchesRustcWholeTree over every
// 40th file of the standard library and of the crates; -short skips it.
func TestRustMatchesRustcSample(t *testing.T) {
	if testing.Short() {
		t.Skip("runs rustc on a sample of the standard library and of real crates: long")
	}
	checkRustTrees(t, 40)
}

// checkRustTrees compares every step-th file of the standard library and
// of each crate with rustc's AST.
func checkRustTrees(t *testing.T, step int) {
	rustc := rustcTool(t)
	t.Run("std", func(t *testing.T) { checkRustLibrary(t, rustc, step) })
	t.Run("crates", func(t *testing.T) { checkRustCrates(t, rustc, step) })
}

// everyStep returns every step-th of files, the first included.
func everyStep(files []string, step int) []string {
	var out []string
	for i := 0; i < len(files); i += step {
		out = append(out, files[i])
	}
	return out
}

// checkRustLibrary compares every step-th file of the standard library
// with rustc's AST.
func checkRustLibrary(t *testing.T, rustc string, step int) {
	all := rustLibrarySources(t, rustc, t.TempDir())
	sort.Strings(all)
	res := compareRust(t, rustc, "2024", everyStep(all, step))
	reportRust(t, "the standard library", res)
}

// reportRust fails t with res's differences outside grammar-gap files
// (the first hundred of them listed) and logs the grammar-gap files and
// the totals of corpus.
func reportRust(t *testing.T, corpus string, res rustComparison) {
	t.Helper()
	const show = 100
	for i, d := range res.diffs {
		if i == show {
			t.Errorf("... and %d more", len(res.diffs)-show)
			break
		}
		t.Error(d)
	}
	for _, f := range res.refused {
		t.Logf("not compared: rustc finds an error in %s", f)
	}
	for _, f := range res.gapFiles {
		t.Logf("grammar gap: tree-sitter finds a syntax error in %s", f)
	}
	t.Logf("%s: %d files compared (%d refused by rustc): %d rustc items, %d found (%.2f%%), %d of them equal; %d files with a grammar gap (%d items, %d found, %d equal, %d differences there); %d differences elsewhere; %d decl_macro items not compared",
		corpus, res.files, res.skipped, res.items, res.found, 100*float64(res.found)/float64(max(res.items, 1)), res.equal,
		len(res.gapFiles), res.gapItems, res.gapFound, res.gapEqual, res.gapDiffs, len(res.diffs), res.declMacros)
}

// rustCrate is one crate's sources as Debian ships them.
type rustCrate struct {
	name    string // the registry folder: "serde-1.0.152"
	edition string // its Cargo.toml's edition, "2015" without one
	files   []string
}

// rustCratesDir is where `make deps-rust` extracts Debian's librust-*-dev
// packages; each crate's sources are under usr/share/cargo/registry.
// SYMEDIT_RUST_CRATES names another folder of crates (one folder per
// crate, with its Cargo.toml) instead.
const rustCratesDir = "../.cache/rust-crates/usr/share/cargo/registry"

// rustEditionRE matches the edition line of a Cargo.toml.
var rustEditionRE = regexp.MustCompile(`(?m)^edition\s*=\s*"(\d+)"`)

// rustCrates returns the crates under rustCratesDir (or
// $SYMEDIT_RUST_CRATES), each with its .rs files in order, skipping the
// test when there are none.
func rustCrates(t *testing.T) []rustCrate {
	t.Helper()
	dir := rustCratesDir
	if d := os.Getenv("SYMEDIT_RUST_CRATES"); d != "" {
		dir = d
	}
	dirs, _ := filepath.Glob(filepath.Join(dir, "*", "Cargo.toml"))
	var crates []rustCrate
	for _, toml := range dirs {
		text, err := os.ReadFile(toml)
		if err != nil {
			t.Fatal(err)
		}
		c := rustCrate{name: filepath.Base(filepath.Dir(toml)), edition: "2015"}
		if m := rustEditionRE.FindSubmatch(text); m != nil {
			c.edition = string(m[1])
		}
		_ = filepath.WalkDir(filepath.Dir(toml), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".rs") {
				c.files = append(c.files, p)
			}
			return nil
		})
		sort.Strings(c.files)
		crates = append(crates, c)
	}
	if len(crates) == 0 {
		t.Skip("no Rust crates: make deps-rust extracts them from Debian's archive into .cache/rust-crates")
	}
	return crates
}

// rustCratesFloor is the share of rustc's items in the crates that
// symedit must find: what it finds, every one (the whole corpus's and
// every 40th file's; in the grammar-gap files too, where the error is in
// a macro's tokens or an expression and the items around it survive), so
// that a change that loses items fails.
const rustCratesFloor = 1.0

// checkRustCrates compares every step-th file of each crate with rustc's
// AST, each read as its crate's edition, logs each crate's figures and
// the corpus's, and fails when symedit finds fewer of rustc's items than
// rustCratesFloor or when an item found outside a grammar-gap file is not
// equal.
func checkRustCrates(t *testing.T, rustc string, step int) {
	var total rustComparison
	for _, c := range rustCrates(t) {
		res := compareRust(t, rustc, c.edition, everyStep(c.files, step))
		t.Logf("%s (edition %s): %d files (%d refused by rustc), %d items, %d found, %d equal, %d differences outside %d grammar-gap files",
			c.name, c.edition, res.files, res.skipped, res.items, res.found, res.equal, len(res.diffs), len(res.gapFiles))
		total.add(res)
	}
	sort.Strings(total.diffs)
	reportRust(t, "the crates", total)
	if float64(total.found) < rustCratesFloor*float64(total.items) {
		t.Errorf("symedit finds %d of rustc's %d items in the crates: under the %.2f%% it found before", total.found, total.items, 100*rustCratesFloor)
	}
	// Every item found outside a grammar gap has rustc's range, item
	// start and name position: a wrong range is worse than a missed item.
	if out, eq := total.found-total.gapFound, total.equal-total.gapEqual; eq < out {
		t.Errorf("%d of the %d items found outside grammar-gap files differ from rustc's", out-eq, out)
	}
}
