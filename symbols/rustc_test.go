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
}

func (r rustItem) String() string {
	return fmt.Sprintf("%s %s %d:%d-%d:%d item %d:%d", r.Kind, r.NamePath, r.StartLine, r.StartCol, r.EndLine, r.EndCol, r.ItemLine, r.ItemCol)
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

// spanText returns the source text of span s of src, or "".
func spanText(src []byte, s rustSpan) string {
	lines := bytes.SplitAfter(src, []byte("\n"))
	off := func(l, c int) int {
		if l < 1 || l > len(lines) {
			return -1
		}
		n := 0
		for _, b := range lines[:l-1] {
			n += len(b)
		}
		line := lines[l-1]
		for i := 1; i < c && len(line) > 0; i++ {
			_, sz := utf8.DecodeRune(line)
			n += sz
			line = line[sz:]
		}
		return n
	}
	a, b := off(s.l1, s.c1), off(s.l2, s.c2)
	if a < 0 || b < a {
		return ""
	}
	return string(src[a:b])
}

// rustcItems returns the symbols that rustc's AST of src (out, its
// -Zunpretty=ast-tree) holds, in symedit's order, with the same naming
// rules applied to rustc's names and spans, and the macro items that are
// not macro_rules! (decl_macro's macro m() {}, which tree-sitter's grammar
// does not know).
func rustcItems(src, out []byte) (items []rustItem, declMacros int) {
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
		switch strings.TrimPrefix(kindNode.head, "kind: ") {
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
			member = lang.RustShortType(spanText(src, selfSpan))
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
					name = "impl " + lang.RustShortType(spanText(src, ps)) + " for " + member
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
		items = append(items, rustItem{Kind: kind, NamePath: namePath, StartLine: start.l1, StartCol: start.c1,
			EndLine: span.l2, EndCol: span.c2, ItemLine: span.l1, ItemCol: span.c1})
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
	var out []rustItem
	for _, s := range syms {
		r := rustItem{Kind: s.Kind, NamePath: s.NamePath}
		r.StartLine, r.StartCol = charPos(src, s.StartByte)
		r.EndLine, r.EndCol = charPos(src, s.EndByte)
		r.ItemLine, r.ItemCol = charPos(src, s.ModifiersByte)
		out = append(out, r)
	}
	return out
}

// rustcAST runs rustc -Zunpretty=ast-tree on file; ok is false when rustc
// reports an error (a syntax error, or syntax this rustc no longer
// knows): then its AST is recovered and not a reference.
func rustcAST(rustc, file string) (out []byte, ok bool, err error) {
	cmd := exec.Command(rustc, "--edition", "2024", "-Zunpretty=ast-tree", file)
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
	files, skipped, items, agree, declMacros int
	// diffs are the differences in files that tree-sitter parses without
	// an error: symedit's rules are wrong there.
	diffs []string
	// gapFiles are the files rustc accepts and tree-sitter's grammar does
	// not (syntax newer than the grammar: const trait, unsafe extern
	// blocks, ...), where its error recovery may lose items; gapDiffs
	// counts their differences.
	gapFiles []string
	gapDiffs int
}

// compareRust compares symedit's and rustc's items of each file, in
// parallel, and returns the totals and up to a few differences per file.
func compareRust(t *testing.T, rustc string, files []string) rustComparison {
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
				out, ok, err := rustcAST(rustc, f)
				if err != nil {
					t.Errorf("%s: rustc: %v", f, err)
					continue
				}
				if !ok {
					mu.Lock()
					res.skipped++
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
				res.agree += len(want) - len(d.missing)
				res.declMacros += decl
				if gap {
					res.gapFiles = append(res.gapFiles, f)
					res.gapDiffs += len(d.missing) + len(d.extra)
				} else {
					res.diffs = append(append(res.diffs, d.missing...), d.extra...)
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

// rustDiff is what one side has and the other lacks.
type rustDiff struct{ missing, extra []string }

// diffRustItems lists rustc's items that symedit lacks (missing) and
// symedit's that rustc lacks (extra).
func diffRustItems(file string, got, want []rustItem) rustDiff {
	g, w := map[rustItem]bool{}, map[rustItem]bool{}
	for _, x := range got {
		g[x] = true
	}
	var d rustDiff
	for _, x := range want {
		w[x] = true
		if !g[x] {
			d.missing = append(d.missing, fmt.Sprintf("%s: rustc has %v, symedit does not", file, x))
		}
	}
	for _, x := range got {
		if !w[x] {
			d.extra = append(d.extra, fmt.Sprintf("%s: symedit has %v, rustc does not", file, x))
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
	res := compareRust(t, rustc, files)
	for _, d := range res.diffs {
		t.Error(d)
	}
	if res.skipped > 0 || res.gapDiffs > 0 {
		t.Errorf("rustc refused %d of the fixtures; %d differences in %v, where tree-sitter finds a syntax error", res.skipped, res.gapDiffs, res.gapFiles)
	}
	for _, f := range res.gapFiles {
		t.Logf("grammar gap: tree-sitter finds a syntax error in %s (every item agrees nonetheless)", f)
	}
	t.Logf("%d files, %d of %d items agree", res.files, res.agree, res.items)
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
// library's sources (core, alloc, std, ...: 797 files, 50,000 items) with
// rustc's AST. It runs rustc once per file, minutes in all, so only `make
// test-parsers` runs it (SYMEDIT_PARSER_TREES=1); TestRustMatchesRustcSample
// runs every 40th file. Files rustc itself refuses are counted, not
// compared. A file in which tree-sitter's grammar finds a syntax error
// that rustc does not (syntax newer than the grammar) is a grammar gap,
// logged with its number of differences; a difference in any other file
// is an error. decl_macro items (macro m() {}), which the grammar does not
// know, are counted apart.
func TestRustMatchesRustcWholeTree(t *testing.T) {
	longTrees(t)
	checkRustLibrary(t, 1)
}

// TestRustMatchesRustcSample is TestRustMatchesRustcWholeTree over every
// 40th file of the standard library; -short skips it.
func TestRustMatchesRustcSample(t *testing.T) {
	if testing.Short() {
		t.Skip("runs rustc on a sample of the standard library: long")
	}
	checkRustLibrary(t, 40)
}

// checkRustLibrary compares every step-th file of the standard library
// with rustc's AST.
func checkRustLibrary(t *testing.T, step int) {
	rustc := rustcTool(t)
	all := rustLibrarySources(t, rustc, t.TempDir())
	sort.Strings(all)
	var files []string
	for i := 0; i < len(all); i += step {
		files = append(files, all[i])
	}
	res := compareRust(t, rustc, files)
	const show = 100
	for i, d := range res.diffs {
		if i == show {
			t.Errorf("... and %d more", len(res.diffs)-show)
			break
		}
		t.Error(d)
	}
	for _, f := range res.gapFiles {
		t.Logf("grammar gap: tree-sitter finds a syntax error in %s", f)
	}
	t.Logf("%d files compared (%d refused by rustc): %d of %d rustc items agree; %d files with a grammar gap (%d differences there); %d differences elsewhere; %d decl_macro items not compared",
		res.files, res.skipped, res.agree, res.items, len(res.gapFiles), res.gapDiffs, len(res.diffs), res.declMacros)
}
