package lang

import (
	"bytes"
	"strings"
	"testing"
)

// TestCOneBranch checks which preprocessor groups cOneBranch blanks: a
// group whose branches each open a block keeps its first branch (its
// second after #if 0), directives blanked; a balanced group, brackets in
// comments and strings, and a text without directives stay as they are;
// every line ending and the length are kept, and the input is not
// modified.
func TestCOneBranch(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"unbalanced", "int f(int a)\n{\n#ifdef X\n  if (a) {\n#else\n  if (!a) {\n#endif\n    return 1;\n  }\n  return 0;\n}\n",
			"int f(int a)\n{\n        \n  if (a) {\n     \n           \n      \n    return 1;\n  }\n  return 0;\n}\n"},
		{"if 0 keeps the second", "#if 0 /* off */\nvoid f(void) {\n#else\nvoid g(void) {\n#endif\n}\n",
			"               \n              \n     \nvoid g(void) {\n      \n}\n"},
		{"balanced", "#ifdef X\nint f(void) { return 1; }\n#else\nint f(void) { return 0; }\n#endif\n", ""},
		{"brackets in comments and strings", "#if A\nchar *s = \"{\"; /* { */ // {\n#endif\n", ""},
		{"nested inner first", "#if A\n#if B\n{\n#else\n{\n#endif\n}\n#endif\n", "#if A\n     \n{\n     \n \n      \n}\n#endif\n"},
		{"continued directive", "#if A && \\\n  B\n{\n#endif\n", "          \n   \n{\n      \n"},
		{"no directives", "int x;\n", ""},
	}
	for _, tt := range tests {
		in := []byte(tt.in)
		got := cOneBranch(in)
		want := tt.want
		if want == "" {
			want = tt.in
		}
		if string(got) != want {
			t.Errorf("%s: cOneBranch(%q)\n = %q\nwant %q", tt.name, tt.in, got, want)
		}
		if string(in) != tt.in {
			t.Errorf("%s: the input was modified", tt.name)
		}
		if len(got) != len(in) || strings.Count(string(got), "\n") != strings.Count(tt.in, "\n") {
			t.Errorf("%s: length or lines changed", tt.name)
		}
		if tt.want == "" && !bytes.Equal(got, in) {
			t.Errorf("%s: changed a text it should leave", tt.name)
		}
	}
}
