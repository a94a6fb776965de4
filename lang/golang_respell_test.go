package lang

import (
	"bytes"
	"go/scanner"
	"go/token"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/symedit/symedit/internal/goroot"
)

// goScannerMultiLine returns the line starts of src that go/scanner reads
// as inside a token, a block comment or a raw string running across
// them, and every line start of src; the reference goLineStartsInCode is
// tested against.
func goScannerMultiLine(src []byte) (inside map[int]bool, starts []int) {
	inside = map[int]bool{}
	starts = []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	s.Init(f, src, func(token.Position, string) {}, scanner.ScanComments)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		off := f.Offset(pos)
		end := off
		switch {
		case tok == token.COMMENT && strings.HasPrefix(lit, "/*"):
			end = len(src) + 1 // not closed: it takes the end of src
			if j := bytes.Index(src[off+2:], []byte("*/")); j >= 0 {
				end = off + 2 + j + 2
			}
		case tok == token.STRING && src[off] == '`':
			end = len(src) + 1
			if j := bytes.IndexByte(src[off+1:], '`'); j >= 0 {
				end = off + 1 + j + 1
			}
		}
		for _, ls := range starts {
			if off < ls && ls < end {
				inside[ls] = true
			}
		}
	}
	return inside, starts
}

// checkLineStarts compares goLineStartsInCode with go/scanner on src:
// the line starts go/scanner reads outside every token are in code all
// together, and each one inside a token is not.
func checkLineStarts(t *testing.T, name string, src []byte) {
	t.Helper()
	inside, starts := goScannerMultiLine(src)
	var code []int
	for _, ls := range starts {
		if !inside[ls] {
			code = append(code, ls)
		} else if goLineStartsInCode(src, []int{ls}) {
			t.Errorf("%s: the line at offset %d is inside a comment or raw string, yet taken as code", name, ls)
		}
	}
	if !goLineStartsInCode(src, code) {
		t.Errorf("%s: the lines go/scanner starts in code are not all taken as code", name)
	}
}

// TestGoLineStartsInCode checks, over a sample of Go's source tree and a
// table of corner cases, that goLineStartsInCode finds the lines that
// start inside a block comment or a raw string as go/scanner does.
func TestGoLineStartsInCode(t *testing.T) {
	for _, src := range goLineStartCases {
		checkLineStarts(t, strings.ReplaceAll(src, "\n", `\n`), []byte(src))
	}
	step := 40
	if testing.Short() {
		step = 400
	}
	for path, src := range goroot.Sample(t, step) {
		checkLineStarts(t, path, src)
	}
}

// goLineStartCases are texts where comments, literals and escapes hide
// one another's openers, closed or not.
var goLineStartCases = []string{
	"package p\nvar s = `a\nb`\nvar t = 1\n",
	"package p\n/* a\n// b\n*/ x\n",
	"package p\nvar s = \"`\"\nx\n",
	"package p\nvar r = '`'\nx\n",
	"package p\nvar r = '\\''\n`\nx`\n",
	"package p\nvar s = \"\\\"`\"\nx\n",
	"package p\nvar s = \"\\\\\"`\nx`\n",
	"package p\nvar s = \"\\\n`\nx`\n",
	"package p\nvar s = \"abc\n`\ny`\n",
	"package p\n// `\nx\n",
	"package p\n/*/ x\n*/\n",
	"package p\n/**/\n/*\n",
	"package p\nx := a */ b\n/ * c\n",
	"package p\nvar s = `\n",
	"package p\n/*\n",
	"package p\nvar s = \"\\x`\"\n`\n`\n",
	"package p\nvar r = '\\x`'\n`\n`\n",
	"package p\nvar r = '\\\n`\n`\n",
	"\xef\xbb\xbfpackage p\n/* \x00 */\n`\xff\n`\n",
}

// FuzzGoLineStartsInCode compares goLineStartsInCode with go/scanner on
// any text.
func FuzzGoLineStartsInCode(f *testing.F) {
	for _, s := range goLineStartCases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkLineStarts(t, "fuzz", src)
	})
}

// TestGoRespelled checks which edits goRespelled takes for respellings:
// identifiers, comments and string literals changed within their lines,
// and not the edits that come near.
func TestGoRespelled(t *testing.T) {
	const file = "package p\n\n// Buffer holds bytes.\nvar b bytes.Buffer // a bytes.Buffer\n\nvar s = \"bytes.Buffer\" + `bytes.Buffer`\n\nvar raw = `\nbytes.Buffer\n`\n\n/* bytes.Buffer\n   bytes.Buffer */\nfunc f() { b.Buffer(); x := bytes.Buffer{} }"
	tests := []struct {
		name     string
		old, new string
		nth      []int // which occurrences of old (0-based) to replace; nil: all
		want     bool
	}{
		{"identifiers, comments, strings", "Buffer", "Buffr", []int{0, 1, 2, 3, 4, 8, 9}, true},
		{"two on one line, twice", "bytes.Buffer", "bytes.Buf", []int{0, 1, 2, 3}, true},
		{"a raw string's middle line", "bytes.Buffer", "bytes.Buf", []int{4}, false},
		{"a block comment's second line", "Buffer", "Buf", []int{7}, false},
		// The line alone does not scan: the comment runs past its end.
		{"a block comment's first line", "/* bytes", "/* bits", nil, false},
		{"the last line, without a line ending", "bytes.Buffer{}", "bytes.Buffr{}", nil, true},
		{"a keyword", "b.Buffer()", "b.func()", nil, false},
		{"an identifier split", "b bytes.Buffer", "b bytes.Buf fer", nil, false},
		{"a string closed early", `"bytes.Buffer"`, `"bytes".Buffer"`, nil, false},
		{"a bad escape", `"bytes.Buffer"`, `"bytes\qBuffer"`, nil, false},
		{"a comment closed early", "/* bytes.Buffer", "/* bytes*/Buffer", nil, false},
		{"a comment given a backquote", "// a bytes", "// a `bytes", nil, true},
		{"a line ending", "// a bytes.Buffer", "// a bytes.\nBuffer", nil, false},
		{"a line comment opened", "var b bytes.Buffer", "var b bytes//Buffer", nil, false},
		{"a number", "var b", "var 1b", nil, false},
		{"a line directive", "// Buffer holds", "//line x.go:0", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := []byte(file)
			var after []byte
			var edits []Edit
			at, k := 0, 0
			for i := 0; ; k++ {
				j := bytes.Index(before[i:], []byte(tt.old))
				if j < 0 {
					break
				}
				i += j
				if tt.nth != nil && !containsInt(tt.nth, k) {
					i += len(tt.old)
					continue
				}
				pre := commonPrefix(tt.old, tt.new)
				suf := commonSuffix(tt.old[pre:], tt.new[pre:])
				after = append(after, before[at:i]...)
				e := Edit{Start: i + pre, End: i + len(tt.old) - suf, NewStart: len(after) + pre}
				e.NewEnd = e.NewStart + len(tt.new) - pre - suf
				edits = append(edits, e)
				after = append(after, tt.new...)
				i += len(tt.old)
				at = i
			}
			if len(edits) == 0 {
				t.Fatal("no", tt.old)
			}
			after = append(after, before[at:]...)
			got := goRespelled(before, after, edits)
			if got != tt.want {
				t.Errorf("goRespelled = %v, want %v\n%s", got, tt.want, after)
			}
			if got && len(goErrors(after)) != len(goErrors(before)) {
				t.Errorf("respelled, yet go/parser finds %v before and %v after", goErrors(before), goErrors(after))
			}
		})
	}
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// FuzzGoRespelled replaces a piece of a Go text and checks that whenever
// goRespelled takes the edit for a respelling, go/parser finds the same
// errors after it as before, those outside the edited line at the same
// offsets moved by the edit.
func FuzzGoRespelled(f *testing.F) {
	f.Add([]byte("package p\n\nvar b bytes.Buffer // bytes.Buffer\nvar s = \"x\"\n"), uint16(20), uint8(3), "Buf")
	f.Add([]byte("package p\n\nfunc f() { x := `a\nb` }\n"), uint16(25), uint8(1), "c")
	f.Add([]byte("package p\n\nfunc f( { /* a\nb */ }\n"), uint16(30), uint8(0), "zz")
	f.Fuzz(func(t *testing.T, src []byte, at uint16, n uint8, s string) {
		start := int(at) % (len(src) + 1)
		end := min(start+int(n)%8, len(src))
		before := src
		after := append(append(append([]byte{}, src[:start]...), s...), src[end:]...)
		e := Edit{Start: start, End: end, NewStart: start, NewEnd: start + len(s)}
		if !goRespelled(before, after, []Edit{e}) {
			return
		}
		eb, ea := goErrors(before), goErrors(after)
		if len(eb) != len(ea) {
			t.Fatalf("respelled, yet go/parser finds %v before and %v after", eb, ea)
		}
		// An error before the edit is where it was, and one past the end
		// of the edited line is moved by the edit's change in length; one
		// on the line between may move with its token (" A" made "AA",
		// "8A" made "8A8A", where the identifier after the number grew
		// to the left).
		lineEnd := len(src)
		if k := bytes.IndexByte(src[end:], '\n'); k >= 0 {
			lineEnd = end + k
		}
		for i, p := range eb {
			switch {
			case p.Start < start && ea[i].Start != p.Start,
				p.Start > lineEnd && ea[i].Start != p.Start+len(s)-(end-start):
				t.Fatalf("respelled, yet go/parser's error %d moved from %d to %d: %v, %v", i, p.Start, ea[i].Start, eb, ea)
			}
		}
	})
}

// goRespellings returns up to n edits (sorted, trimmed) of src that
// respell tokens: a letter inserted into an identifier, a comment or a
// string literal that go/scanner finds, picked every step-th token.
func goRespellings(src []byte, step, n int) []Edit {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	s.Init(f, src, nil, scanner.ScanComments)
	var edits []Edit
	k := 0
	for len(edits) < n {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok != token.IDENT && tok != token.COMMENT && tok != token.STRING || len(lit) < 3 {
			continue
		}
		if k++; k%step != 0 {
			continue
		}
		at := f.Offset(pos) + 2 // past a comment's "//" or "/*", an identifier's first two bytes
		if tok == token.STRING {
			at-- // just past the quote: never inside an escape
		}
		if len(edits) > 0 && edits[len(edits)-1].Start >= at || at >= len(src) || !utf8.RuneStart(src[at]) {
			continue // not inside one character
		}
		edits = append(edits, Edit{Start: at, End: at})
	}
	// One byte, "Q", inserted at each: offsets in newText follow.
	for i := range edits {
		edits[i].NewStart, edits[i].NewEnd = edits[i].Start+i, edits[i].Start+i+1
	}
	return edits
}

// TestGoRespelledDefs checks goExtractEdits on respellings of the files
// of a sample of Go's tree that go/parser accepts: its definitions and
// layout, with or without a parse, are goExtract's of the content after,
// field for field; and it parses nothing for some of them (the edits away
// from every definition's head and offsets).
func TestGoRespelledDefs(t *testing.T) {
	step := 40
	if testing.Short() {
		step = 400
	}
	var noParse, parsedSome int
	for path, src := range goroot.Sample(t, step) {
		old, oldLayout, ok := goExtract(src)
		if !ok {
			continue
		}
		for _, every := range []int{7, 61} {
			edits := goRespellings(src, every, 5)
			if len(edits) == 0 {
				continue
			}
			var after []byte
			at := 0
			for _, e := range edits {
				after = append(append(after, src[at:e.Start]...), 'Q')
				at = e.End
			}
			after = append(after, src[at:]...)
			want, wantLayout, ok := goExtract(after)
			if !ok {
				t.Fatalf("%s: a respelling go/parser refuses: %+v", path, edits)
			}
			defs, layout, parsed, ok := goExtractEdits(src, after, edits, old, oldLayout)
			if !ok {
				continue
			}
			if parsed == 0 {
				noParse++
			} else {
				parsedSome++
			}
			if !reflect.DeepEqual(defs, want) || !reflect.DeepEqual(layout, wantLayout) {
				t.Errorf("%s %+v (parsed %d bytes): the definitions after differ from goExtract's", path, edits, parsed)
			}
		}
	}
	t.Logf("%d respellings without a parse, %d with the edited regions parsed", noParse, parsedSome)
	if noParse == 0 || parsedSome == 0 {
		t.Errorf("the sample does not exercise both paths: %d without a parse, %d with", noParse, parsedSome)
	}
}

// TestGoRespelledHead checks respellings in the head of a definition
// that spans lines, away from its start's and its name's lines: a
// method's receiver type, a function's type parameters. The definitions
// after are goExtract's: the receiver's new name is the method's prefix.
func TestGoRespelledHead(t *testing.T) {
	for _, c := range []struct{ src, old, new string }{
		{"package p\n\nfunc (\n\tb *Buffer,\n) Len() int {\n\treturn 0\n}\n", "Buffer", "Buffr"},
		{"package p\n\nfunc F[\n\tT any,\n] () {\n}\n", "T any", "TT any"},
		{"package p\n\ntype (\n\tA = int\n\tB struct {\n\t\tx Buffer\n\t}\n)\n", "x Buffer", "xy Buffer"},
	} {
		src := []byte(c.src)
		i := strings.Index(c.src, c.old)
		pre := commonPrefix(c.old, c.new)
		suf := commonSuffix(c.old[pre:], c.new[pre:])
		e := Edit{Start: i + pre, End: i + len(c.old) - suf, NewStart: i + pre}
		e.NewEnd = e.NewStart + len(c.new) - pre - suf
		after := []byte(c.src[:i] + c.new + c.src[i+len(c.old):])
		old, oldLayout, ok := goExtract(src)
		want, wantLayout, wok := goExtract(after)
		if !ok || !wok {
			t.Fatalf("%q: go/parser refuses it", c.src)
		}
		defs, layout, _, ok := goExtractEdits(src, after, []Edit{e}, old, oldLayout)
		if !ok || !reflect.DeepEqual(defs, want) || !reflect.DeepEqual(layout, wantLayout) {
			t.Errorf("%q: %v\n got %+v\nwant %+v", after, ok, defs, want)
		}
	}
}
