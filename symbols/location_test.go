package symbols_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/symedit/symedit/symbols"
)

func TestParseLocation(t *testing.T) {
	ok := []struct {
		in   string
		want symbols.Location
	}{
		{"a.py:45:9", symbols.Location{Path: "a.py", Line: 45, Column: 9}},
		{"a.py:45", symbols.Location{Path: "a.py", Line: 45}},
		{"a.py:45:0", symbols.Location{Path: "a.py", Line: 45}},
		{"a.py::Class/method", symbols.Location{Path: "a.py", NamePath: "Class/method"}},
		{"a.py::add[2]", symbols.Location{Path: "a.py", NamePath: "add[2]"}},
		{"  dir/sub/a.go:7  ", symbols.Location{Path: "dir/sub/a.go", Line: 7}},
		{`C:\src\a.py:12:3`, symbols.Location{Path: `C:\src\a.py`, Line: 12, Column: 3}},
		{`C:\src\a.py:12`, symbols.Location{Path: `C:\src\a.py`, Line: 12}},
		{`C:\src\a.py::f`, symbols.Location{Path: `C:\src\a.py`, NamePath: "f"}},
		{"odd:name.py:3", symbols.Location{Path: "odd:name.py", Line: 3}},
		{"odd:dir/a.py:3:4", symbols.Location{Path: "odd:dir/a.py", Line: 3, Column: 4}},
	}
	for _, c := range ok {
		got, err := symbols.ParseLocation(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseLocation(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
		if err == nil {
			if again, err := symbols.ParseLocation(got.String()); err != nil || again != got {
				t.Errorf("ParseLocation(%q.String() = %q) = %+v, %v", c.in, got.String(), again, err)
			}
		}
	}
	bad := []struct{ in, says string }{
		{"", "empty"},
		{"a.py", "no line number"},
		{"a.py:", "nothing after"},
		{"a.py:0", "line 0 must be at least 1"},
		{"a.py:-3", "line -3 must be at least 1"},
		{"a.py:12:-1", "column -1 must be at least 0"},
		{"a.py:abc", `"abc" is not a line number`},
		{"a.py:x:3", `"x" is not a line number`},
		{"a.py:12:", "nothing after"},
		{"a.py::", "empty name path"},
		{"a.py::  ", "empty name path"},
		{"::f", "no file"},
		{":12", "no file"},
		{":12:3", "no file"},
		{"a.py:99999999999999999999999", "out of range"},
	}
	for _, c := range bad {
		got, err := symbols.ParseLocation(c.in)
		if err == nil {
			t.Errorf("ParseLocation(%q) = %+v, want an error", c.in, got)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, c.says) || !strings.Contains(msg, "FILE:LINE:COL") || !strings.Contains(msg, "FILE::NAME_PATH") {
			t.Errorf("ParseLocation(%q) error %q: want it to say %q and the expected forms", c.in, msg, c.says)
		}
	}
}

const locateSrc = `import os

class Foo:
    def bar(self):
        return 1

    def baz(self):
        pass

x = 1

def add(a): pass
def add(a, b): pass

class Other:
    def bar(self):
        pass
`

func TestLocatePosition(t *testing.T) {
	syms := extract(t, "python", locateSrc)
	cases := []struct {
		line, col int
		want      string
	}{
		{5, 9, "Foo/bar"},  // inside the body
		{5, 16, "Foo/bar"}, // last byte
		{5, 17, "Foo/bar"}, // just past the line's end: its last byte
		{4, 1, "Foo/bar"},  // column in the indentation of the def line
		{4, 3, "Foo/bar"},  // also in the indentation
		{4, 0, "Foo/bar"},  // column 0
		{4, 5, "Foo/bar"},  // the def keyword
		{4, 0, "Foo/bar"},  // FILE:LINE form
		{3, 0, "Foo"},
		{3, 1, "Foo"},
		{6, 0, "Foo"}, // a blank line inside the class
		{6, 1, "Foo"},
		{12, 13, "add"},
		{13, 0, "add[2]"},
		{16, 1, "Other/bar"},
	}
	for _, c := range cases {
		loc := symbols.Location{Path: "a.py", Line: c.line, Column: c.col}
		i, err := symbols.Locate(syms, []byte(locateSrc), loc)
		if err != nil {
			t.Errorf("Locate(%v): %v", loc, err)
			continue
		}
		if syms[i].NamePath != c.want {
			t.Errorf("Locate(%v) = %s, want %s", loc, syms[i].NamePath, c.want)
		}
	}
}

func TestLocatePositionErrors(t *testing.T) {
	syms := extract(t, "python", locateSrc)
	cases := []struct {
		line, col  int
		says       []string
		outOfRange bool
	}{
		{10, 1, []string{"no symbol contains line 10 col 1 of a.py (line 10 is between symbols)", "nearest: ", "Foo/baz (method) 7:5-8:13", "add (function) 12:1-12:17"}, false},
		{1, 0, []string{"line 1 is before the first symbol", "Foo (class) 3:1-8:13"}, false},
		{9, 0, []string{"line 9 is blank"}, false},
		{18, 1, []string{"line 18 is past the end of a.py (the file has 17 lines)", "Other/bar (method)"}, true},
		{100, 1, []string{"the file has 17 lines"}, true},
		{4, 40, []string{"column 40 is past the end of line 4 of a.py (the line has 18 bytes"}, true},
		{0, 1, []string{"invalid line 0"}, true},
	}
	for _, c := range cases {
		loc := symbols.Location{Path: "a.py", Line: c.line, Column: c.col}
		i, err := symbols.Locate(syms, []byte(locateSrc), loc)
		var le *symbols.LocateError
		if !errors.As(err, &le) || !errors.Is(err, symbols.ErrNoMatch) || errors.Is(err, symbols.ErrAmbiguous) || i != -1 {
			t.Errorf("Locate(%v) = %d, %v; want a *LocateError wrapping ErrNoMatch", loc, i, err)
			continue
		}
		for _, s := range c.says {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("Locate(%v) error %q: want it to contain %q", loc, err, s)
			}
		}
		if le.OutOfRange != c.outOfRange || le.Lines != 17 || le.Loc != loc {
			t.Errorf("Locate(%v): OutOfRange %v Lines %d Loc %v", loc, le.OutOfRange, le.Lines, le.Loc)
		}
		if len(le.Nearest) == 0 || len(le.Nearest) > 5 {
			t.Errorf("Locate(%v): %d nearest symbols", loc, len(le.Nearest))
		}
	}
	// An empty file.
	_, err := symbols.Locate(nil, nil, symbols.Location{Path: "e.py", Line: 1})
	if !errors.Is(err, symbols.ErrNoMatch) || !strings.Contains(err.Error(), "the file has 0 lines") {
		t.Errorf("Locate in an empty file: %v", err)
	}
}

// An operator whose name holds "/" is found by the name path the listing
// gives it, and a name path ending in "//" never falls back to the
// enclosing class (a replace-body there would replace the whole class).
func TestLocateOperatorNames(t *testing.T) {
	for _, tc := range []struct {
		lang, src string
		want      map[string]string // query -> name path; "" refused
	}{
		{"ruby", "class V\n  def /(other)\n    other\n  end\n\n  def call\n  end\nend\n\ndef /(x)\nend\n",
			map[string]string{"V//": "V//", "V/call": "V/call", "V": "V", "V/": "V", "V///": ""}},
		{"cpp", "struct V {\n    V operator/(const V& o) const { return o; }\n    V operator*(const V& o) const { return o; }\n};\n",
			map[string]string{"V/operator/": "V/operator/", "operator/": "V/operator/", "V/operator*": "V/operator*", "V/operator": ""}},
	} {
		syms := extract(t, tc.lang, tc.src)
		for q, want := range tc.want {
			i, err := symbols.Locate(syms, []byte(tc.src), symbols.Location{Path: "f", NamePath: q})
			switch {
			case want == "" && err == nil:
				t.Errorf("%s: Locate(%q) = %s, want a refusal", tc.lang, q, syms[i].NamePath)
			case want != "" && err != nil:
				t.Errorf("%s: Locate(%q): %v", tc.lang, q, err)
			case want != "" && syms[i].NamePath != want:
				t.Errorf("%s: Locate(%q) = %s, want %s", tc.lang, q, syms[i].NamePath, want)
			}
		}
	}
}

func TestLocateName(t *testing.T) {
	syms := extract(t, "python", locateSrc)
	for q, want := range map[string]string{
		"Foo/bar":    "Foo/bar", // exact
		"Other/bar":  "Other/bar",
		"baz":        "Foo/baz", // unique suffix
		"Foo/baz":    "Foo/baz",
		"add":        "add", // exact beats the suffixed sibling
		"add[2]":     "add[2]",
		"Foo.bar":    "Foo/bar", // dotted fallback
		"/Foo/baz/":  "Foo/baz",
		"Other":      "Other",
		"Other/bar ": "Other/bar",
	} {
		i, err := symbols.Locate(syms, []byte(locateSrc), symbols.Location{Path: "a.py", NamePath: q})
		if err != nil {
			t.Errorf("Locate(%q): %v", q, err)
			continue
		}
		if syms[i].NamePath != want {
			t.Errorf("Locate(%q) = %s, want %s", q, syms[i].NamePath, want)
		}
	}

	// Ambiguous: two classes have bar.
	_, err := symbols.Locate(syms, []byte(locateSrc), symbols.Location{Path: "a.py", NamePath: "bar"})
	var le *symbols.LocateError
	if !errors.As(err, &le) || !errors.Is(err, symbols.ErrAmbiguous) || len(le.Candidates) != 2 {
		t.Fatalf("Locate(bar) = %v, want ambiguous with 2 candidates", err)
	}
	for _, s := range []string{`name path "bar" matches 2 symbols in a.py`, "candidates: Foo/bar (method) 4:5-5:17, Other/bar (method) 16:5-17:13"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("ambiguous error %q: want %q", err, s)
		}
	}

	// Not found: the nearest names are listed, the closest first.
	_, err = symbols.Locate(syms, []byte(locateSrc), symbols.Location{Path: "a.py", NamePath: "Foo/bazz"})
	if !errors.As(err, &le) || !errors.Is(err, symbols.ErrNoMatch) {
		t.Fatalf("Locate(Foo/bazz) = %v, want no match", err)
	}
	if len(le.Nearest) == 0 || len(le.Nearest) > 5 || le.Nearest[0].NamePath != "Foo/baz" {
		t.Errorf("Locate(Foo/bazz): nearest %v", le.Nearest)
	}
	if !strings.Contains(err.Error(), `no symbol in a.py has name path "Foo/bazz"; nearest: Foo/baz (method) 7:5-8:13`) {
		t.Errorf("not found error: %q", err)
	}
}

// TestLocateSuffixedSiblings checks that a segment without "[n]" matches
// the suffixed siblings too, which makes a suffix ambiguous.
func TestLocateSuffixedSiblings(t *testing.T) {
	const src = "class C:\n    @property\n    def x(self): return 1\n    @x.setter\n    def x(self, v): pass\n"
	syms := extract(t, "python", src)
	_, err := symbols.Locate(syms, []byte(src), symbols.Location{Path: "c.py", NamePath: "x"})
	if !errors.Is(err, symbols.ErrAmbiguous) || !strings.Contains(err.Error(), "C/x (method) 2:5-3:26, C/x[2] (method) 4:5-5:25") {
		t.Errorf("Locate(x) = %v", err)
	}
	for q, want := range map[string]string{"C/x": "C/x", "x[2]": "C/x[2]", "C/x[2]": "C/x[2]"} {
		i, err := symbols.Locate(syms, []byte(src), symbols.Location{Path: "c.py", NamePath: q})
		if err != nil || syms[i].NamePath != want {
			t.Errorf("Locate(%q) = %d, %v; want %s", q, i, err, want)
		}
	}
}

func TestLocateGoMethod(t *testing.T) {
	const src = "package p\n\ntype List[T any] struct{}\n\nfunc (l *List[T]) Len() int {\n\treturn 0\n}\n"
	syms := extract(t, "go", src)
	for _, q := range []string{"List/Len", "Len", "(*List).Len", "List.Len"} {
		i, err := symbols.Locate(syms, []byte(src), symbols.Location{Path: "l.go", NamePath: q})
		if err != nil || syms[i].NamePath != "List/Len" {
			t.Errorf("Locate(%q) = %d, %v", q, i, err)
		}
	}
	// A tab is one byte of indentation.
	i, err := symbols.Locate(syms, []byte(src), symbols.Location{Path: "l.go", Line: 6, Column: 1})
	if err != nil || syms[i].NamePath != "List/Len" {
		t.Errorf("Locate(6:1) = %d, %v", i, err)
	}
}

// FuzzLocate parses a location and resolves it in a Python source: no
// panic, and a found symbol contains the position or matches the name path.
func FuzzLocate(f *testing.F) {
	f.Add(locateSrc, "a.py:4:1")
	f.Add(locateSrc, "a.py::bar")
	f.Add("def f():\n\tpass\n", "f.py:2:9")
	f.Add("", "x:1")
	lang := language(f, "python")
	f.Fuzz(func(t *testing.T, src, arg string) {
		loc, err := symbols.ParseLocation(arg)
		if err != nil {
			return
		}
		syms, err := symbols.Extract(context.Background(), []byte(src), lang)
		if err != nil {
			t.Fatal(err)
		}
		i, err := symbols.Locate(syms, []byte(src), loc)
		if err != nil {
			var le *symbols.LocateError
			if !errors.As(err, &le) || i != -1 || len(le.Nearest) > 5 {
				t.Fatalf("Locate(%v) = %d, %v", loc, i, err)
			}
			return
		}
		s := syms[i]
		if loc.NamePath == "" && (loc.Line < s.Start.Line || loc.Line > s.End.Line) {
			t.Fatalf("Locate(%v) = %s %v-%v, which does not contain the line", loc, s.NamePath, s.Start, s.End)
		}
		if loc.NamePath != "" && !strings.Contains(s.NamePath, strings.Trim(strings.TrimSpace(loc.NamePath), "/")) &&
			!strings.ContainsAny(loc.NamePath, ".()") {
			t.Fatalf("Locate(%v) = %s", loc, s.NamePath)
		}
	})
}

// TestLocateNewDefinitions checks that positions and name paths inside a
// Go type in a function body, a method of a Java anonymous class, a Java
// annotation element and a TypeScript overload signature resolve to those
// definitions, not to the enclosing symbol.
func TestLocateNewDefinitions(t *testing.T) {
	tests := []struct {
		lang, src string
		loc       symbols.Location
		want      string
	}{
		{"go", "package p\n\nfunc UserTaskHandlerFunc() {\n\ttype event struct {\n\t\tx int\n\t}\n\t_ = event{}\n}\n",
			symbols.Location{Line: 5}, "UserTaskHandlerFunc/event"},
		{"go", "package p\n\nfunc UserTaskHandlerFunc() {\n\ttype event struct{ x int }\n}\n",
			symbols.Location{NamePath: "UserTaskHandlerFunc/event"}, "UserTaskHandlerFunc/event"},
		{"java", "class C {\n  Object newInstance() {\n    return run(new PrivilegedAction<Object>() {\n      public Object run() {\n        return null;\n      }\n    });\n  }\n}\n",
			symbols.Location{Line: 5}, "C/newInstance/PrivilegedAction$1/run"},
		{"java", "class C {\n  Object newInstance() {\n    return run(new PrivilegedAction<Object>() {\n      public Object run() {\n        return null;\n      }\n    });\n  }\n}\n",
			symbols.Location{NamePath: "newInstance/PrivilegedAction$1/run"}, "C/newInstance/PrivilegedAction$1/run"},
		{"java", "@interface Deprecated {\n  String since() default \"\";\n}\n",
			symbols.Location{Line: 2, Column: 10}, "Deprecated/since"},
		{"typescript", "class N {\n  constructor(kind: 'N');\n  constructor(kind: string) {}\n}\n",
			symbols.Location{Line: 2, Column: 5}, "N/constructor"},
	}
	for _, tt := range tests {
		syms := extract(t, tt.lang, tt.src)
		loc := tt.loc
		loc.Path = "f"
		i, err := symbols.Locate(syms, []byte(tt.src), loc)
		if err != nil || syms[i].NamePath != tt.want {
			got := ""
			if err == nil {
				got = syms[i].NamePath
			}
			t.Errorf("%s: Locate(%v) = %q, %v; want %s", tt.lang, tt.loc, got, err, tt.want)
		}
	}
}
