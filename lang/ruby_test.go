package lang_test

import (
	"strings"
	"testing"

	"github.com/symedit/symedit/lang"
)

// TestRubyStrayKeywords checks the Ruby checker: a reserved word that
// tree-sitter's grammar reads as a name (an end too many, an else without
// an if) is a problem; the same word where Ruby reads it as a name is
// not.
func TestRubyStrayKeywords(t *testing.T) {
	rb, err := lang.ByName("ruby")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		src  string
		want []string // the problems' text
	}{
		{"class A\nend\nend\n", []string{"end"}},
		{"x = 1\nelse\n", []string{"else"}},
		{"def f\n  1\nend\nend\nend\n", []string{"end", "end"}},
		{"r = (1..2)\nr.end\nr&.end\n", nil},
		{"def end; end\ndef self.begin; end\n", nil},
		{"alias end finish\nundef end\n", nil},
		{"def f(do: nil, end: 1) = 1\nf(do: 2, end: 3)\nh = {end: 1}\n:end\n", nil},
		{"if x then y else z end\ncase a\nwhen 1 then 2\nend\n", nil},
	}
	for _, c := range cases {
		var got []string
		for _, p := range rb.Checker().Check([]byte(c.src)) {
			got = append(got, c.src[p.Start:p.End])
			if !strings.HasPrefix(p.Message, "unexpected keyword ") {
				t.Errorf("%q: message %q", c.src, p.Message)
			}
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%q: problems at %q, want %q", c.src, got, c.want)
		}
	}
}

// TestRubyRewrite checks that the parser's input reads def != as a def
// of ==, the same length, and leaves other != alone.
func TestRubyRewrite(t *testing.T) {
	rb, err := lang.ByName("ruby")
	if err != nil {
		t.Fatal(err)
	}
	for src, want := range map[string]string{
		"def !=(o)\n  a != o\nend\n":    "def ==(o)\n  a != o\nend\n",
		"def self.!=(o) = 1\n":          "def self.==(o) = 1\n",
		"def  \t!=(o); end\n":           "def  \t==(o); end\n",
		"a != b\nundef_!= 1\nx.!=(y)\n": "a != b\nundef_!= 1\nx.!=(y)\n",
		"redef !=(o)\n":                 "redef !=(o)\n",
	} {
		in := []byte(src)
		if got := string(rb.ParserInput(in)); got != want {
			t.Errorf("%q: parser input %q, want %q", src, got, want)
		}
		if string(in) != src {
			t.Errorf("%q: ParserInput modified its input", src)
		}
	}
}
