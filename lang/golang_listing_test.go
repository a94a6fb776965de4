package lang

import (
	"strings"
	"testing"
)

// TestGoListingInput checks the text Go's listing parses: the interior
// of each top-level brace group without the word "type" blanked ("«" and
// "»" mark it in a case, and are not part of its text), line endings
// kept; braces in comments and literals not counted; nil where nothing
// is blanked or the braces, a comment or a raw string are left open.
func TestGoListingInput(t *testing.T) {
	for _, c := range []struct{ name, marked string }{
		{"a body and a struct", "package p\n\ntype S struct {«\n\ta int\n»}\n\nfunc f() {«\n\tg()\n»}\n"},
		{"a body that declares a type is kept", "package p\n\nfunc f() {\n\ttype T int\n}\n\nfunc g() {« h() »}\n"},
		{"braces in literals and comments", "package p\n\nfunc f() {« a := \"}\"; b := '}'; c := `}`; /* } */ // }\n»}\n"},
		{"an escaped quote", "package p\n\nvar s = map[string]int{«\"\\\"}\": 1»}\n"},
		{"a receiver's struct and a constraint's interface", "package p\n\nfunc (s struct{« x int »}) M() {}\n\nfunc F[T interface{« ~int »}]() {« g() »}\n"},
		{"nothing to blank", "package p\n\nfunc f() {}\n"},
		{"a brace too many", "package p\n\nfunc f() { g() }}\n"},
		{"a brace left open", "package p\n\nfunc f() { g()\n"},
		{"a block comment left open", "package p\n\nfunc f() { g() }\n/* x"},
		{"a raw string left open", "package p\n\nfunc f() { g() }\nvar s = `x"},
	} {
		var src, want strings.Builder
		in := false
		for _, r := range c.marked {
			switch {
			case r == '«' || r == '»':
				in = r == '«'
			case in && r != '\n':
				src.WriteRune(r)
				want.WriteString(strings.Repeat(" ", len(string(r))))
			default:
				src.WriteRune(r)
				want.WriteRune(r)
			}
		}
		got := goListingInput([]byte(src.String()))
		if !strings.Contains(c.marked, "«") {
			if got != nil {
				t.Errorf("%s: %q, want nil", c.name, got)
			}
			continue
		}
		if string(got) != want.String() {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, want.String())
		}
	}
}
