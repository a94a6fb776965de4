package symbols_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/symedit/symedit/symbols"
)

// TestCROnly checks that a file whose lines end with a lone CR
// (classic Mac OS) is parsed with its CRs read as line ends, so that every
// definition is found with the right lines and byte ranges.
func TestCROnly(t *testing.T) {
	src := "def f(a):\r    x = 1\r    return x\r\rdef g():\r    pass\r"
	syms := expectSymbols(t, "python", src, `
f function 1:1-3:13
g function 5:1-6:9
`)
	if got := src[syms[0].StartByte:syms[0].EndByte]; got != "def f(a):\r    x = 1\r    return x" {
		t.Errorf("f's range is %q", got)
	}
	expectSymbols(t, "java", "class A {\r  void f() {\r    int x = 1;\r  }\r\r  void g() {}\r}\r", `
A class 1:1-7:2
A/f method 2:3-4:4
A/g method 6:3-6:14
`)
	expectSymbols(t, "typescript", "export class A {\r  f(): void {\r    return;\r  }\r}\r\rfunction g() {}\r", `
A class 1:1-5:2
A/f method 2:3-4:4
g function 7:1-7:16
`)
}

// TestCROnlyLocate checks FILE:LINE locations on a CR-only file: lines
// are counted at CR, as edit.Document counts them.
func TestCROnlyLocate(t *testing.T) {
	src := []byte("def f(a):\r    x = 1\r    return x\r\rdef g():\r    pass\r")
	syms := extract(t, "python", string(src))
	for _, tt := range []struct {
		line int
		want string
	}{{1, "f"}, {3, "f"}, {5, "g"}, {6, "g"}} {
		i, err := symbols.Locate(syms, src, symbols.Location{Path: "cr.py", Line: tt.line})
		if err != nil || syms[i].NamePath != tt.want {
			t.Errorf("Locate(cr.py:%d) = %d, %v; want %s", tt.line, i, err, tt.want)
		}
	}
	i, err := symbols.Locate(syms, src, symbols.Location{Path: "cr.py", Line: 3, Column: 13})
	if err != nil || syms[i].NamePath != "f" {
		t.Errorf("Locate(cr.py:3:13) = %d, %v; want f", i, err)
	}
	_, err = symbols.Locate(syms, src, symbols.Location{Path: "cr.py", Line: 3, Column: 14})
	var le *symbols.LocateError
	if !errors.As(err, &le) || !le.OutOfRange {
		t.Errorf("Locate(cr.py:3:14) = %v, want past the end of the line's 12 bytes", err)
	}
	_, err = symbols.Locate(syms, src, symbols.Location{Path: "cr.py", Line: 4})
	if !errors.Is(err, symbols.ErrNoMatch) {
		t.Errorf("Locate(cr.py:4) = %v, want a blank line outside every symbol", err)
	}
	_, err = symbols.Locate(syms, src, symbols.Location{Path: "cr.py", Line: 7})
	if !errors.As(err, &le) || !le.OutOfRange || le.Lines != 6 {
		t.Errorf("Locate(cr.py:7) = %v, want past the end of the file's 6 lines", err)
	}
}

// TestCROnlyFixtures checks that the real Python, Java and TypeScript
// fixtures (those of every language whose lines end at a lone CR too) with every LF turned into a CR give the same symbols, with the
// same lines, columns and byte ranges, as the originals.
func TestCROnlyFixtures(t *testing.T) {
	for _, f := range fixtures(t) {
		if string(f.Lang.ParserInput([]byte("\r"))) == "\r" || bytes.IndexByte(f.Src, '\r') >= 0 {
			continue // Go's and Rust's lines end at LF only: a lone CR is white space
		}
		want, err := symbols.Extract(context.Background(), f.Src, f.Lang)
		if err != nil {
			t.Fatal(err)
		}
		cr := bytes.ReplaceAll(f.Src, []byte{'\n'}, []byte{'\r'})
		got, err := symbols.Extract(context.Background(), cr, f.Lang)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, f.Lang.Name, cr, got)
		if len(got) != len(want) {
			t.Errorf("%s with CR line ends: %d symbols, want %d:\n%s", f.Rel, len(got), len(want), summary(got))
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s with CR line ends: symbol %d is %+v, want %+v", f.Rel, i, got[i], want[i])
			}
		}
	}
}
