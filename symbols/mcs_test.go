package symbols_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

// This file checks symedit's C# symbols against Mono's C# parser: the
// parser of mcs, Mono's C# compiler, as its library Mono.CSharp.dll
// exposes it, driven by testdata/parsers/McsSymbols.cs. No compiler that
// prints C# syntax trees (Roslyn) can be installed here; mcs is Debian's
// (`make test-csharp` fetches it into .cache/csharp). It knows C# up to
// about version 7: no records, file-scoped namespaces, local functions or
// init accessors, so the fixtures that use those are checked against
// hand-written manifests only. Debian builds Mono.CSharp.dll without its
// locations bag, so mcs's tree holds no position for a modifier or for
// a type's closing brace; mcs's tokenizer, which skips comments, string
// contents and what conditional compilation leaves out as the compiler
// does, gives every token's position, and the C# grammar's shape of a
// declaration gives its range from them (csTokenRange). Compared, on
// every declaration mcs's parser finds:
//   - the kind and the name path, with symedit's naming rules applied to
//     mcs's names (mcs's indexer Item is this, its finalizer Finalize is
//     ~C, its operator names are C#'s);
//   - the name position: mcs's Location of the declaration (for a
//     qualified namespace name, of its first identifier);
//   - the range, start and end, as mcs's tokens delimit it (where mcs
//     holds the column: up to 255);
//   - the end of every member with a block body (method, constructor,
//     finalizer, operator): just after the block's closing brace;
//   - the start of every declaration with attributes: the line of its
//     first attribute, which the range starts before.
// Field-like events (event EventHandler E;), which mcs declares and
// symedit does not (they are fields), are counted apart.

// mcsRoot returns the folder into which `make test-csharp` extracted
// Mono's Debian packages (SYMEDIT_MCS_ROOT, else .cache/csharp/root at
// the repository's root), skipping the test when mcs is not there.
func mcsRoot(t *testing.T) string {
	t.Helper()
	root := os.Getenv("SYMEDIT_MCS_ROOT")
	if root == "" {
		root = filepath.Join("..", ".cache", "csharp", "root")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	if !fileExists(filepath.Join(abs, "usr", "lib", "mono", "4.5", "mcs.exe")) {
		t.Skip("mcs not found: make test-csharp fetches it from Debian's packages into .cache/csharp")
	}
	return abs
}

// monoCmd returns the command that runs the CLI program exe with args
// under the Mono runtime extracted at root.
func monoCmd(root, exe string, args ...string) *exec.Cmd {
	lib := filepath.Join(root, "usr", "lib")
	cmd := exec.Command(filepath.Join(root, "usr", "bin", "mono-sgen"),
		append([]string{"--config", filepath.Join(root, "etc", "mono", "config"), exe}, args...)...)
	cmd.Env = append(os.Environ(), "LD_LIBRARY_PATH="+lib, "MONO_PATH="+filepath.Join(lib, "mono", "4.5"))
	return cmd
}

// mcsSymbolsTool compiles McsSymbols.cs with mcs into a temporary folder
// and returns the program's path.
func mcsSymbolsTool(t *testing.T, root string) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "McsSymbols.exe")
	src, err := filepath.Abs(filepath.Join("testdata", "parsers", "McsSymbols.cs"))
	if err != nil {
		t.Fatal(err)
	}
	mcs := filepath.Join(root, "usr", "lib", "mono", "4.5", "mcs.exe")
	if out, err := monoCmd(root, mcs, "-r:Mono.CSharp.dll", "-out:"+exe, src).CombinedOutput(); err != nil {
		t.Fatalf("compiling McsSymbols.cs: %v\n%s", err, out)
	}
	return exe
}

// mcsDecl is one declaration as McsSymbols prints it.
type mcsDecl struct {
	id, parent int
	kind, name string
	line, col  int // mcs's Location: 1-based line and character column
	attrs      [][2]int
	open       [2]int // the body's start ("{" or "=>"), {0, 0} without one
	close      [2]int // the body's end: a block's "}"
}

// mcsFile is McsSymbols's report of one file.
type mcsFile struct {
	path   string
	errors int
	decls  []*mcsDecl
	toks   []csTok
}

// csTok is one token as mcs's tokenizer reads it: its 1-based line and
// character column and its text ({ } [ ] ( ) ; = => :, an identifier, or
// x for any other).
type csTok struct {
	line, col int
	text      string
}

// runMcsSymbols runs the tool on files and returns its reports.
func runMcsSymbols(t *testing.T, root, exe string, files []string) []*mcsFile {
	t.Helper()
	out, err := monoCmd(root, exe, files...).Output()
	if err != nil {
		t.Fatalf("McsSymbols: %v", err)
	}
	var res []*mcsFile
	var cur *mcsFile
	var d *mcsDecl
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		atoi := func(i int) int {
			n, _ := strconv.Atoi(f[i])
			return n
		}
		switch {
		case f[0] == "F" && len(f) == 3:
			cur = &mcsFile{path: f[1], errors: atoi(2)}
			res = append(res, cur)
		case f[0] == "D" && len(f) >= 7 && cur != nil:
			d = &mcsDecl{id: atoi(1), parent: atoi(2), kind: f[3], line: atoi(4), col: atoi(5), name: strings.Join(f[6:], " ")}
			cur.decls = append(cur.decls, d)
		case f[0] == "T" && len(f) == 4 && cur != nil:
			cur.toks = append(cur.toks, csTok{atoi(1), atoi(2), f[3]})
		case f[0] == "L" && len(f) == 4 && d != nil:
			p := [2]int{atoi(2), atoi(3)}
			switch f[1] {
			case "attr":
				d.attrs = append(d.attrs, p)
			case "open":
				d.open = p
			case "close":
				d.close = p
			}
		}
	}
	return res
}

// csItem is one C# symbol as either side reports it, for comparison:
// 1-based lines and character columns; zero where the side (mcs) does
// not know.
type csItem struct {
	Kind     symbols.Kind
	NamePath string
	NameLine int
	NameCol  int
}

func (c csItem) String() string {
	return fmt.Sprintf("%s %s name %d:%d", c.Kind, c.NamePath, c.NameLine, c.NameCol)
}

// csCheck is what mcs says of a declaration besides its csItem: where
// its range ends (a block body's closing brace, exclusive) and on which
// line its first attribute is; zero where mcs does not know.
type csCheck struct {
	endLine, endCol int
	attrLine        int
	// rng is the declaration's range as mcs's tokens give it (see
	// csTokenRange): start line and column, end line and column
	// (exclusive); ok is false where the name's token was not found.
	rng [4]int
	ok  bool
}

// mcsItems returns the symbols that mcs's declarations in src stand
// for, with symedit's naming rules, and the number of field-like events.
func mcsItems(src []byte, f *mcsFile) (items []csItem, checks map[csItem]csCheck, eventFields int) {
	byID := map[int]*mcsDecl{}
	kids := map[int][]*mcsDecl{}
	for _, d := range f.decls {
		byID[d.id] = d
		kids[d.parent] = append(kids[d.parent], d)
	}
	checks = map[csItem]csCheck{}
	lines := bytes.SplitAfter(src, []byte("\n"))
	charAt := func(p [2]int) byte {
		if p[0] < 1 || p[0] > len(lines) {
			return 0
		}
		l := []rune(string(lines[p[0]-1]))
		if p[1] < 1 || p[1] > len(l) {
			return 0
		}
		return byte(l[p[1]-1])
	}
	var walk func(parent int, prefix string)
	walk = func(parent int, prefix string) {
		ds := kids[parent]
		// mcs lists a type's nested types before its other members;
		// symedit numbers same-named siblings in source order.
		sort.SliceStable(ds, func(i, j int) bool {
			a, b := ds[i], ds[j]
			return a.line < b.line || a.line == b.line && a.col < b.col
		})
		count := map[string]int{}
		for _, d := range ds {
			if d.kind == "eventfield" {
				eventFields++
				continue
			}
			kind, name := symbols.Kind(d.kind), d.name
			switch d.kind {
			case "destructor":
				kind, name = symbols.KindMethod, "~"+byID[d.parent].name
			case "indexer":
				name = strings.Replace(name, "Item", "this", 1)
			case "operator":
				name = strings.ReplaceAll(name, " ", "")
				name = strings.Replace(strings.Replace(name, "operator", " operator ", 1), "  ", " ", 1)
				name = strings.TrimSpace(name)
			}
			base := name
			if prefix != "" {
				base = prefix + "/" + name
			}
			count[base]++
			path := base
			if n := count[base]; n > 1 {
				path += "[" + strconv.Itoa(n) + "]"
			}
			it := csItem{Kind: kind, NamePath: path, NameLine: d.line, NameCol: d.col}
			items = append(items, it)
			var c csCheck
			if d.close != [2]int{} && charAt(d.open) == '{' && charAt(d.close) == '}' {
				c.endLine, c.endCol = d.close[0], d.close[1]+1
			}
			for _, a := range d.attrs {
				if c.attrLine == 0 || a[0] < c.attrLine {
					c.attrLine = a[0]
				}
			}
			c.rng, c.ok = csTokenRange(f.toks, d)
			checks[it] = c
			walk(d.id, path)
		}
	}
	walk(0, "")
	return items, checks, eventFields
}

// symeditCSItems returns Extract's C# symbols of src as csItems, with
// each one's range as character positions.
func symeditCSItems(t *testing.T, src []byte) (items []csItem, ranges map[csItem][4]int) {
	t.Helper()
	cs, err := lang.ByName("csharp")
	if err != nil {
		t.Fatal(err)
	}
	syms, err := symbols.Extract(context.Background(), src, cs)
	if err != nil {
		t.Fatal(err)
	}
	ranges = map[csItem][4]int{}
	for _, s := range syms {
		// A verbatim identifier (@public) is the identifier public to
		// mcs; symedit names it as written.
		it := csItem{Kind: s.Kind, NamePath: csVerbatimRE.ReplaceAllString(s.NamePath, "$1")}
		it.NameLine, it.NameCol = charPos(src, byteOffset(src, s.Selection))
		sl, sc := charPos(src, s.StartByte)
		el, ec := charPos(src, s.EndByte)
		items = append(items, it)
		ranges[it] = [4]int{sl, sc, el, ec}
	}
	return items, ranges
}

// csVerbatimRE matches the @ of a verbatim identifier.
var csVerbatimRE = regexp.MustCompile(`(^|[/.<,])@`)

// byteOffset returns the byte offset of p (1-based line, byte column)
// in src.
func byteOffset(src []byte, p symbols.Position) int {
	off := 0
	for l := 1; l < p.Line; l++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return len(src)
		}
		off += i + 1
	}
	return min(off+p.Column-1, len(src))
}

// csComparison is what compareCSharp learned over a set of files.
type csComparison struct {
	files, refused, items, agree, ends, starts, ranges, eventFields, symeditOnly int
	// conditional counts the files with text that conditional
	// compilation leaves out (compared as mcs reads them: csInactive).
	conditional int
	diffs       []string
}

// compareCSharp compares symedit's and mcs's declarations of each file
// that mcs parses without an error.
func compareCSharp(t *testing.T, root, exe string, files []string) csComparison {
	t.Helper()
	var res csComparison
	for _, f := range runMcsSymbols(t, root, exe, files) {
		if f.errors > 0 {
			res.refused++
			continue
		}
		src, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		src, blanked := csInactive(src)
		if blanked {
			res.conditional++
		}
		want, checks, ev := mcsItems(src, f)
		got, ranges := symeditCSItems(t, src)
		res.files++
		res.items += len(want)
		res.eventFields += ev
		gotSet := map[csItem]bool{}
		for _, g := range got {
			gotSet[g] = true
		}
		wantSet := map[csItem]bool{}
		for _, w := range want {
			wantSet[w] = true
			if !gotSet[w] {
				res.diffs = append(res.diffs, fmt.Sprintf("%s: mcs has %v, symedit does not", f.path, w))
				continue
			}
			res.agree++
			r, c := ranges[w], checks[w]
			if c.endLine != 0 {
				res.ends++
				if r[2] != c.endLine || r[3] != c.endCol {
					res.diffs = append(res.diffs, fmt.Sprintf("%s: %v ends at %d:%d, mcs's block at %d:%d", f.path, w, r[2], r[3], c.endLine, c.endCol))
				}
			}
			if c.ok {
				res.ranges++
				// mcs's Location holds a column up to 255: beyond, only
				// the line is known.
				for _, k := range []int{1, 3} {
					if c.rng[k] >= mcsMaxColumn {
						c.rng[k], r[k] = 0, 0
					}
				}
				if r != c.rng {
					res.diffs = append(res.diffs, fmt.Sprintf("%s: %v has the range %d:%d-%d:%d, mcs's tokens %d:%d-%d:%d", f.path, w, r[0], r[1], r[2], r[3], c.rng[0], c.rng[1], c.rng[2], c.rng[3]))
				}
			} else {
				res.diffs = append(res.diffs, fmt.Sprintf("%s: %v: no token of mcs's at its name", f.path, w))
			}
			if c.attrLine != 0 {
				res.starts++
				if r[0] != c.attrLine {
					res.diffs = append(res.diffs, fmt.Sprintf("%s: %v starts on line %d, its first attribute is on line %d", f.path, w, r[0], c.attrLine))
				}
			}
		}
		for _, g := range got {
			if !wantSet[g] {
				res.symeditOnly++
				res.diffs = append(res.diffs, fmt.Sprintf("%s: symedit has %v, mcs does not", f.path, g))
			}
		}
	}
	sort.Strings(res.diffs)
	return res
}

// TestCSharpMatchesMcs compares shapes.cs, the fixture mcs can read (the
// others use C# 9 to 11 syntax), and the C# fixtures from real code with
// mcs's declarations.
func TestCSharpMatchesMcs(t *testing.T) {
	root := mcsRoot(t)
	exe := mcsSymbolsTool(t, root)
	all, err := filepath.Glob(filepath.Join(repoTestdata, "src", "csharp", "*.cs"))
	if err != nil || len(all) == 0 {
		t.Fatalf("no C# fixtures (%v)", err)
	}
	var files []string
	for _, f := range all {
		if filepath.Base(f) != "modern.cs" {
			files = append(files, f)
		}
	}
	res := compareCSharp(t, root, exe, files)
	for _, d := range res.diffs {
		t.Error(d)
	}
	if res.refused > 0 {
		t.Errorf("mcs refused %d of the fixtures", res.refused)
	}
	t.Logf("%d files: %d of %d declarations agree (kind, name path, name position); %d ranges (from mcs's tokens), %d block ends and %d attribute lines agree; %d field-like events (not symbols)",
		res.files, res.agree, res.items, res.ranges, res.ends, res.starts, res.eventFields)
}

// TestCSharpMatchesMcsWholeTree compares every C# file of the trees
// SYMEDIT_CS_TREE names (a list, as in PATH; `make test-csharp` sets it
// to FlatBuffers's and Apache Thrift's sources, C# libraries, tests and
// generated code, from the Go module proxy) with mcs's declarations: at least 99.5% of mcs's declarations
// must agree; every difference is listed. Files mcs refuses are counted,
// not compared.
func TestCSharpMatchesMcsWholeTree(t *testing.T) {
	tree := os.Getenv("SYMEDIT_CS_TREE")
	if tree == "" {
		t.Skip("SYMEDIT_CS_TREE is not set (make test-csharp sets it)")
	}
	root := mcsRoot(t)
	exe := mcsSymbolsTool(t, root)
	var files []string
	for _, dir := range filepath.SplitList(tree) {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".cs") {
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) == 0 {
		t.Fatalf("no .cs files under %s", tree)
	}
	sort.Strings(files)
	res := compareCSharp(t, root, exe, files)
	const show = 400
	for i, d := range res.diffs {
		if i == show {
			t.Logf("... and %d more", len(res.diffs)-show)
			break
		}
		t.Log(d)
	}
	if res.agree*1000 < res.items*995 {
		t.Errorf("%d of %d declarations agree: under 99.5%%", res.agree, res.items)
	}
	if len(res.diffs) > 0 {
		t.Errorf("%d differences", len(res.diffs))
	}
	sweep := checkCSharpTree(t, files)
	for _, p := range sweep.problems {
		t.Error(p)
	}
	t.Logf("tree-sitter, every #if branch read: %d files (%d with a syntax error: %v), %d definition nodes, %d symbols",
		sweep.files, sweep.errorFiles, sweep.errorNames, sweep.nodes, sweep.symbols)
	t.Logf("%d files (%d refused by mcs, %d with text conditional compilation leaves out): %d of %d declarations agree (kind, name path, name position); %d ranges (from mcs's tokens), %d block ends and %d attribute lines agree; %d field-like events (not symbols)",
		res.files, res.refused, res.conditional, res.agree, res.items, res.ranges, res.ends, res.starts, res.eventFields)
}

// mcsMaxColumn is the largest column mcs's Location holds (8 bits).
const mcsMaxColumn = 255

// csTokenRange returns the range of declaration d as mcs's tokens
// delimit it, by the C# grammar's shape of a declaration: it starts at
// the first token after the ";", "{" or "}" that precede d's name (its
// attributes, modifiers, type and keyword), global attribute sections
// ([assembly: ...]) skipped, and ends after the first ";" that follows
// the name outside brackets, or after the "}" that closes the first "{"
// outside brackets, unless "=" or "=>" came first (an expression body,
// a property's initializer: then the ";" ends it) or "=" follows that
// "}" (a property's initializer). The optional ";" after a type's "}"
// (C# spec 15.2.1) is left out, as symedit leaves it out: tree-sitter's
// grammar gives it no node of its own.
func csTokenRange(toks []csTok, d *mcsDecl) (rng [4]int, ok bool) {
	k := -1
	for i, t := range toks {
		if t.line == d.line && t.col == d.col {
			k = i
			break
		}
	}
	if k < 0 {
		return rng, false
	}
	i := k
	for i > 0 && !strings.Contains(";{}", toks[i-1].text) {
		i--
	}
	for i+2 < k && toks[i].text == "[" && (toks[i+1].text == "assembly" || toks[i+1].text == "module") && toks[i+2].text == ":" {
		depth := 0
		for ; i < k; i++ {
			if toks[i].text == "[" {
				depth++
			} else if toks[i].text == "]" {
				depth--
				if depth == 0 {
					i++
					break
				}
			}
		}
	}
	depth, expr := 0, false
	for j := k + 1; j < len(toks); j++ {
		switch t := toks[j].text; t {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if t == "}" && depth == 0 && !expr {
				if j+1 < len(toks) && toks[j+1].text == "=" {
					expr = true
					continue
				}
				return [4]int{toks[i].line, toks[i].col, toks[j].line, toks[j].col + 1}, true
			}
		case "=", "=>":
			if depth == 0 {
				expr = true
			}
		case ";":
			if depth == 0 {
				return [4]int{toks[i].line, toks[i].col, toks[j].line, toks[j].col + 1}, true
			}
		}
	}
	return rng, false
}

// csInactive returns src with the lines that C#'s conditional
// compilation leaves out blanked (every byte but line ends made a
// space, so offsets and lines are unchanged), with no symbols defined
// but those the file's own #define lines define: the text mcs reads.
// symedit reads every branch of an #if, which is all text an edit may
// touch; mcs only the active one, so the comparison gives both the same
// text. It also reports whether anything was blanked.
func csInactive(src []byte) ([]byte, bool) {
	out := bytes.Clone(src)
	defined := map[string]bool{}
	type frame struct{ active, taken, outer bool }
	var stack []frame
	active := true
	blanked := false
	off := 0
	for _, line := range bytes.SplitAfter(src, []byte("\n")) {
		start := off
		off += len(line)
		t := strings.TrimSpace(string(line))
		blank := !active
		if strings.HasPrefix(t, "#") {
			d := strings.TrimSpace(t[1:])
			word, rest, _ := strings.Cut(d, " ")
			if i := strings.Index(rest, "//"); i >= 0 {
				rest = rest[:i]
			}
			rest = strings.TrimSpace(rest)
			switch word {
			case "if":
				v := active && csEval(rest, defined)
				stack = append(stack, frame{active: v, taken: v, outer: active})
				active = v
			case "elif":
				if n := len(stack); n > 0 {
					f := &stack[n-1]
					v := f.outer && !f.taken && csEval(rest, defined)
					f.taken = f.taken || v
					active = v
				}
			case "else":
				if n := len(stack); n > 0 {
					f := &stack[n-1]
					active = f.outer && !f.taken
					f.taken = true
				}
			case "endif":
				if n := len(stack); n > 0 {
					active = stack[n-1].outer
					stack = stack[:n-1]
				}
			case "define":
				if active {
					defined[rest] = true
				}
			case "undef":
				if active {
					delete(defined, rest)
				}
			}
			blank = false // the directive lines themselves are read
		}
		if blank {
			blanked = true
			for i := start; i < off; i++ {
				if out[i] != '\n' && out[i] != '\r' {
					out[i] = ' '
				}
			}
		}
	}
	return out, blanked
}

// csEval evaluates a conditional compilation expression (C# 6.5.5:
// symbols, true, false, !, ==, !=, &&, || and parentheses).
func csEval(expr string, defined map[string]bool) bool {
	var toks []string
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case strings.HasPrefix(expr[i:], "&&"), strings.HasPrefix(expr[i:], "||"),
			strings.HasPrefix(expr[i:], "=="), strings.HasPrefix(expr[i:], "!="):
			toks = append(toks, expr[i:i+2])
			i += 2
		case c == '!' || c == '(' || c == ')':
			toks = append(toks, string(c))
			i++
		default:
			j := i
			for j < len(expr) && strings.IndexByte(" \t&|=!()", expr[j]) < 0 {
				j++
			}
			toks = append(toks, expr[i:j])
			i = j
		}
	}
	pos := 0
	peek := func() string {
		if pos < len(toks) {
			return toks[pos]
		}
		return ""
	}
	var or func() bool
	var unary func() bool
	unary = func() bool {
		if peek() == "!" {
			pos++
			return !unary()
		}
		t := peek()
		pos++
		switch t {
		case "(":
			v := or()
			if peek() == ")" {
				pos++
			}
			return v
		case "true":
			return true
		case "false", "":
			return false
		}
		return defined[t]
	}
	eq := func() bool {
		v := unary()
		for peek() == "==" || peek() == "!=" {
			op := peek()
			pos++
			w := unary()
			v = (v == w) == (op == "==")
		}
		return v
	}
	and := func() bool {
		v := eq()
		for peek() == "&&" {
			pos++
			v = eq() && v
		}
		return v
	}
	or = func() bool {
		v := and()
		for peek() == "||" {
			pos++
			v = and() || v
		}
		return v
	}
	return or()
}

// csDefinitionNodes are the tree-sitter node types the C# query
// captures: every one in a tree must become a symbol.
var csDefinitionNodes = map[string]bool{
	"namespace_declaration": true, "file_scoped_namespace_declaration": true, "class_declaration": true,
	"struct_declaration": true, "interface_declaration": true, "enum_declaration": true,
	"record_declaration": true, "delegate_declaration": true, "method_declaration": true,
	"constructor_declaration": true, "destructor_declaration": true, "property_declaration": true,
	"indexer_declaration": true, "event_declaration": true, "operator_declaration": true,
	"conversion_operator_declaration": true, "local_function_statement": true,
}

// csTreeSweep is what checkCSharpTree learned of a set of files as they
// are (every #if branch included).
type csTreeSweep struct {
	files, errorFiles, nodes, symbols int
	problems                          []string
	errorNames                        []string // the files with a syntax error
}

// checkCSharpTree parses each file with tree-sitter and checks that every
// definition node the grammar reports is a symbol and that each symbol's
// range lies in its parent's; it counts the files with a syntax error.
func checkCSharpTree(t *testing.T, files []string) csTreeSweep {
	t.Helper()
	cs, err := lang.ByName("csharp")
	if err != nil {
		t.Fatal(err)
	}
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(cs.Grammar())
	var res csTreeSweep
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := p.ParseCtx(context.Background(), nil, cs.ParserInput(src))
		if err != nil {
			t.Fatal(err)
		}
		nodes := 0
		var walk func(n *sitter.Node)
		walk = func(n *sitter.Node) {
			if csDefinitionNodes[n.Type()] {
				nodes++
			}
			for i := 0; i < int(n.NamedChildCount()); i++ {
				walk(n.NamedChild(i))
			}
		}
		walk(tree.RootNode())
		hasError := tree.RootNode().HasError()
		tree.Close()
		syms, err := symbols.Extract(context.Background(), src, cs)
		if err != nil {
			t.Fatal(err)
		}
		res.files++
		res.nodes += nodes
		res.symbols += len(syms)
		if hasError {
			res.errorFiles++
			res.errorNames = append(res.errorNames, f)
		}
		if nodes != len(syms) {
			res.problems = append(res.problems, fmt.Sprintf("%s: %d definition nodes, %d symbols", f, nodes, len(syms)))
		}
		for i, s := range syms {
			if s.Parent < 0 {
				continue
			}
			if q := syms[s.Parent]; q.StartByte > s.StartByte || s.EndByte > q.EndByte || s.Parent >= i {
				res.problems = append(res.problems, fmt.Sprintf("%s: %s (%d-%d) is not inside its parent %s (%d-%d)", f, s.NamePath, s.StartByte, s.EndByte, q.NamePath, q.StartByte, q.EndByte))
			}
		}
	}
	return res
}

// TestCSInactive checks the conditional compilation that the mcs
// comparison applies to the text symedit reads: nested #if, #elif,
// #else, #define, and the expression operators.
func TestCSInactive(t *testing.T) {
	src := "#define A\n" +
		"#if A && !B\n" +
		"a1\n" +
		"#elif true\n" +
		"a2\n" +
		"#else\n" +
		"a3\n" +
		"#endif\n" +
		"#if (B || A) == true\n" +
		"b1\n" +
		"#if B\n" +
		"b2\n" +
		"#endif // B\n" +
		"#endif\n" +
		"#if A != A\n" +
		"c1\n" +
		"#elif !B\n" +
		"c2\n" +
		"#endif\n"
	out, blanked := csInactive([]byte(src))
	if !blanked || len(out) != len(src) {
		t.Fatalf("blanked %v, %d bytes for %d", blanked, len(out), len(src))
	}
	var kept []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			kept = append(kept, l)
		}
	}
	if got, want := strings.Join(kept, " "), "a1 b1 c2"; got != want {
		t.Errorf("kept %q, want %q", got, want)
	}
	if _, blanked := csInactive([]byte("class A {}\n")); blanked {
		t.Error("a file without directives was blanked")
	}
}
