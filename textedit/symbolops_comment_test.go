package textedit_test

import (
	"strings"
	"testing"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/textedit"
)

// A text that begins with a comment replaces the comment block directly
// above the symbol, whatever its shape, and goes above the decorators it
// keeps; a text without one keeps the block; a text that is only a comment
// is refused.
func TestReplaceSymbolComment(t *testing.T) {
	for _, tt := range []struct {
		name, file, src, namePath, text string
		want, comment                   string // want "" with an error
	}{
		{"go doc comment replaced", "a.go",
			"package a\n\n// Old says old.\n// Really.\nfunc F() {}\n", "F",
			"// F says new.\nfunc F() { return }\n",
			"package a\n\n// F says new.\nfunc F() { return }\n", "// Old says old.\n// Really."},
		{"go: no comment sent keeps it", "a.go",
			"package a\n\n// Old.\nfunc F() {}\n", "F", "func F() { return }\n",
			"package a\n\n// Old.\nfunc F() { return }\n", ""},
		{"go: a comment after a blank line is not the doc comment", "a.go",
			"package a\n\n// Header.\n\nfunc F() {}\n", "F", "// F.\nfunc F() { return }\n",
			"package a\n\n// Header.\n\n// F.\nfunc F() { return }\n", ""},
		{"block comment without stars taken whole", "a.c",
			"int x;\n/*\n  Adds.\n*/\nint add(int a) { return a; }\n", "add",
			"/* Adds one. */\nint add(int a) { return a + 1; }\n",
			"int x;\n/* Adds one. */\nint add(int a) { return a + 1; }\n", "/*\nAdds.\n*/"},
		{"c: an #include above is not a comment", "a.c",
			"#include <x.h>\nint add(int a) { return a; }\n", "add",
			"// Adds.\nint add(int a) { return a; }\n",
			"#include <x.h>\n// Adds.\nint add(int a) { return a; }\n", ""},
		{"java: comment goes above the kept annotation", "A.java",
			"class A {\n    /** Old. */\n    @Deprecated\n    int f() { return 1; }\n}\n", "A/f",
			"    /** New. */\n    int f() { return 2; }\n",
			"class A {\n    /** New. */\n    @Deprecated\n    int f() { return 2; }\n}\n", "/** Old. */"},
		{"python: comment above the decorator", "a.py",
			"x = 1\n# old\n@cache\ndef f():\n    return 1\n", "f",
			"# new\ndef f():\n    return 2\n",
			"x = 1\n# new\n@cache\ndef f():\n    return 2\n", "# old"},
		{"rust: attribute is not a comment", "a.rs",
			"/// Old.\n#[inline]\nfn f() {}\n", "f", "/// New.\n#[inline]\nfn f() { g() }\n",
			"/// New.\n#[inline]\nfn f() { g() }\n", "/// Old."},
		{"python: no comment above, the comment goes after the kept decorator", "a.py",
			"x = 1\n@cache\ndef f():\n    return 1\n", "f",
			"# new\ndef f():\n    return 2\n",
			"x = 1\n@cache\n# new\ndef f():\n    return 2\n", ""},
		{"python: a comment between decorator and def is the one replaced", "a.py",
			"x = 1\n# above\n@cache\n# old\ndef f():\n    return 1\n", "f",
			"# new\ndef f():\n    return 2\n",
			"x = 1\n# above\n@cache\n# new\ndef f():\n    return 2\n", "# old"},
		{"java: a modifier kept on the line, comment above the annotation", "A.java",
			"class A {\n    // old\n    @Ann public int f() { return 1; }\n}\n", "A/f",
			"    // new\n    int f() { return 2; }\n",
			"class A {\n    // new\n    @Ann public int f() { return 2; }\n}\n", "// old"},
		{"only a comment is refused", "a.go",
			"package a\n\n// Old.\nfunc F() {}\n", "F", "// New.\n", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := edit.NewDocument(tt.file, []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			e, pl, err := textedit.ReplaceSymbol(doc, symTarget(t, doc, tt.namePath), tt.text)
			if tt.want == "" {
				if err == nil || !strings.Contains(err.Error(), "only a comment") {
					t.Fatalf("error %v, want a refusal of a comment-only text", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := edit.Apply(doc.Content, []edit.Edit{e})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want || pl.Comment != tt.comment {
				t.Errorf("got\n%s\ncomment %q; want\n%s\ncomment %q", got, pl.Comment, tt.want, tt.comment)
			}
		})
	}
}

// insert-before goes above the comment block attached to a symbol, read
// by the language's own comment prefixes: a C #include or a Rust
// attribute above it is code, not comment.
func TestInsertBeforeReadsTheLanguagesComments(t *testing.T) {
	for _, tt := range []struct{ file, src, namePath, want string }{
		{"a.c", "#include <x.h>\n// Adds.\nint add(int a) { return a; }\n", "add",
			"#include <x.h>\n\nint g;\n\n// Adds.\nint add(int a) { return a; }\n"},
		{"a.py", "import os\n# Adds.\ndef add(a):\n    return a\n", "add",
			"import os\n\nint g;\n\n# Adds.\ndef add(a):\n    return a\n"},
	} {
		doc, err := edit.NewDocument(tt.file, []byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		e, _, err := textedit.InsertBeforeSymbol(doc, symTarget(t, doc, tt.namePath), "int g;\n")
		if err != nil {
			t.Fatal(err)
		}
		got, err := edit.Apply(doc.Content, []edit.Edit{e})
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tt.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tt.file, got, tt.want)
		}
	}
}
