package lang

import (
	"errors"
	"strings"
	"testing"
)

func TestDefaultRegistry(t *testing.T) {
	defs := []Definition{pythonDef, goDef, javaDef, typescriptDef, tsxDef, javascriptDef}
	var langs []*Language
	for _, d := range defs {
		langs = append(langs, New(d))
	}
	if _, err := NewRegistry(langs...); err != nil {
		t.Fatal(err)
	}
	other := pythonDef
	other.Name = "other"
	if _, err := NewRegistry(append(langs, New(other))...); err == nil || !strings.Contains(err.Error(), ".py claimed by both python and other") {
		t.Fatalf("duplicate extension not refused: %v", err)
	}
	if _, err := NewRegistry(append(langs, New(pythonDef))...); err == nil || !strings.Contains(err.Error(), `duplicate language name "python"`) {
		t.Fatalf("duplicate name not refused: %v", err)
	}
}

func TestForPath(t *testing.T) {
	for path, want := range map[string]string{
		"a.py": "python", "a.pyi": "python", "x/y.go": "go", "A.JAVA": "java",
		"a.ts": "typescript", "a.mts": "typescript", "a.cts": "typescript", "a.tsx": "tsx",
		"a.js": "javascript", "a.mjs": "javascript", "a.cjs": "javascript", "a.jsx": "javascript",
		"src/lib.rs": "rust", "B.RS": "rust",
		"Program.cs": "csharp", "A.CS": "csharp",
		"lib/set.rb": "ruby", "C.RB": "ruby", "src/User.php": "php", "D.PHP": "php",
		"a.c": "c", "a.h": "c", "a.cc": "cpp", "a.cpp": "cpp", "a.cxx": "cpp", "a.hpp": "cpp", "a.hh": "cpp",
	} {
		l, err := ForPath(path)
		if err != nil || l.Name != want {
			t.Errorf("ForPath(%q) = %v, %v; want %s", path, l, err, want)
		}
	}
	_, err := ForPath("notes.txt")
	if !errors.Is(err, ErrUnknownLanguage) || !strings.Contains(err.Error(), ".txt") || !strings.Contains(err.Error(), ".py") {
		t.Fatalf("ForPath(notes.txt) error = %v", err)
	}
}

func TestByName(t *testing.T) {
	if l, err := ByName("TypeScript"); err != nil || l.Name != "typescript" {
		t.Fatalf("ByName = %v, %v", l, err)
	}
	_, err := ByName("cobol")
	if !errors.Is(err, ErrUnknownLanguage) || !strings.Contains(err.Error(), "python, go, java") {
		t.Fatalf("ByName(cobol) error = %v", err)
	}
	if l, err := Select("a.txt", "go"); err != nil || l.Name != "go" {
		t.Fatalf("Select with --lang = %v, %v", l, err)
	}
}

func TestQueriesCompile(t *testing.T) {
	for _, l := range Languages() {
		q, err := l.SymbolsQuery()
		if err != nil {
			t.Errorf("%s: %v", l.Name, err)
			continue
		}
		q2, _ := l.SymbolsQuery()
		if q != q2 {
			t.Errorf("%s: query compiled twice", l.Name)
		}
	}
}

func TestParserInput(t *testing.T) {
	py, _ := ByName("python")
	golang, _ := ByName("go")
	tests := []struct {
		lang     *Language
		in, want string
	}{
		{py, "def f():\r    pass\r", "def f():\n    pass\n"},
		{py, "a\r\nb\rc\n", "a\r\nb\nc\n"}, // CRLF stays: only a lone CR is a line end to read as LF
		{py, "x = '\r'\r", "x = '\n'\n"},
		{py, "", ""},
		{py, "\r", "\n"},
		{golang, "package p\rfunc F() {}\r", "package p\rfunc F() {}\r"}, // Go: CR is white space
	}
	for _, tt := range tests {
		in := []byte(tt.in)
		got := tt.lang.ParserInput(in)
		if string(got) != tt.want {
			t.Errorf("%s ParserInput(%q) = %q, want %q", tt.lang.Name, tt.in, got, tt.want)
		}
		if string(in) != tt.in {
			t.Errorf("%s ParserInput(%q) modified its input", tt.lang.Name, tt.in)
		}
	}
	src := []byte("a\nb\r\n")
	if got := py.ParserInput(src); &got[0] != &src[0] {
		t.Error("ParserInput copied a text without a lone CR")
	}
}

func TestCSharpOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"Shapes.Geometry":                 "Shapes.Geometry",
		"Shapes .\n  Geometry":            "Shapes.Geometry",
		"Dictionary<int, string>":         "Dictionary<int,string>",
		"(int x, int y)":                  "(int x,int y)",
		"global::System.Int32":            "System.Int32",
		"List<global::System.Int32>":      "List<System.Int32>",
		"IEnumerable<KeyValuePair<K, V>>": "IEnumerable<KeyValuePair<K,V>>",
		"int?":                            "int?",
	} {
		if got := csharpOneLine(in); got != want {
			t.Errorf("csharpOneLine(%q) = %q, want %q", in, got, want)
		}
	}
}
