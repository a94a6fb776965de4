package textedit_test

import (
	"testing"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/textedit"
)

// MayMatch is a prefilter: it must say true for every file whose
// Document has a match (in any line-ending style, after a byte order
// mark, case-insensitively) and false for files without the text.
func TestMayMatch(t *testing.T) {
	tests := []struct {
		name    string
		search  textedit.Search
		content string
		want    bool
	}{
		{"literal present", textedit.Search{Pattern: "foo"}, "x = foo\n", true},
		{"literal absent", textedit.Search{Pattern: "foo"}, "x = fo o\n", false},
		{"literal across CRLF lines", textedit.Search{Pattern: "a = 1\nb = 2"}, "a = 1\r\nb = 2\r\n", true},
		{"literal across lines, longest line absent", textedit.Search{Pattern: "a\nbbbb"}, "a\nbbb\n", false},
		{"literal ignore case", textedit.Search{Pattern: "FOO", IgnoreCase: true}, "x = foo\n", true},
		{"literal ignore case absent", textedit.Search{Pattern: "FOO", IgnoreCase: true}, "x = fo\n", false},
		{"line breaks only", textedit.Search{Pattern: "\n\n"}, "a\r\n\r\nb\r\n", true},
		{"regex anchored after a byte order mark", textedit.Search{Pattern: "^foo", Regex: true}, edit.UTF8BOM + "foo\n", true},
		{"regex absent", textedit.Search{Pattern: `fo+\(`, Regex: true}, "foo = 1\n", false},
		{"regex across CRLF lines", textedit.Search{Pattern: `a\r?\nb`, Regex: true}, "a\r\nb\r\n", true},
		{"not UTF-8 bytes around a match", textedit.Search{Pattern: "foo"}, "# \xe9t\xe9\nfoo\n", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sr, err := textedit.Compile(tc.search)
			if err != nil {
				t.Fatal(err)
			}
			if got := sr.MayMatch([]byte(tc.content)); got != tc.want {
				t.Errorf("MayMatch = %v, want %v", got, tc.want)
			}
			// Never false where the Document's search finds a match.
			if doc, err := edit.NewFileDocument("a.py", []byte(tc.content), 0o644, edit.Origin{}); err == nil {
				if _, n, _, _ := sr.ReplaceDocument(doc); n > 0 && !sr.MayMatch([]byte(tc.content)) {
					t.Errorf("%d match(es) in the document, but MayMatch says none", n)
				}
			}
		})
	}
}
