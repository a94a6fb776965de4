package reply_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/symedit/symedit/reply"
)

// TestFailureBoundedOnLongLines: a block that misses a 1 MB line by its
// last byte is refused with windows of both lines around the difference,
// in Message, Expected, Actual, Nearest and the JSON, never with the lines
// themselves, so no refusal grows with the length of a file's lines.
func TestFailureBoundedOnLongLines(t *testing.T) {
	line := "x = \"" + strings.Repeat("ab ", 333333)
	text := "import os\n" + line + "\"\nprint(x)\n"
	for _, tc := range []struct {
		name  string
		reply string
		code  string
	}{
		{"search", "big.py\n<<<<<<< SEARCH\n" + line + "!\n=======\nx = 1\n>>>>>>> REPLACE\n", reply.CodeNotFound},
		{"edit old lines", "big.py\n<<<<<<< EDIT\nimport os\n-------\n" + line + "!\n=======\nx = 1\n-------\nprint(x)\n>>>>>>>\n", reply.CodeOldMismatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := reply.Parse(tc.reply)
			if len(res.Blocks) != 1 {
				t.Fatalf("parsed %d blocks, malformed %v", len(res.Blocks), res.Malformed)
			}
			_, f := res.Blocks[0].Apply(text)
			if f == nil {
				t.Fatalf("a block that does not match was applied")
			}
			if f.Code != tc.code {
				t.Errorf("code %s, want %s", f.Code, tc.code)
			}
			js, err := json.Marshal(f)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(f.Error()); n > 4096 {
				t.Errorf("Error() is %d bytes", n)
			}
			if n := len(js); n > 8192 {
				t.Errorf("JSON is %d bytes", n)
			}
			for _, s := range append([]string{f.Expected, f.Actual}, nearTexts(f)...) {
				if len(s) > reply.MaxShown+6 {
					t.Errorf("a shown line is %d bytes, want at most %d and the cut marks", len(s), reply.MaxShown)
				}
			}
			if !strings.Contains(f.Expected, "ab !") {
				t.Errorf("Expected %q does not show the difference (\"ab !\")", f.Expected)
			}
		})
	}
}

func nearTexts(f *reply.Failure) []string {
	var out []string
	for _, n := range f.Nearest {
		out = append(out, n.Text)
	}
	return out
}
