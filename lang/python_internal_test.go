package lang

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestPyIndent(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string // "offset message"
	}{
		{"def f():\n    return 1\n", nil},
		{"def f():\n\nx = 1\n", []string{`10 expected an indented block after "def f():"`}},
		{"def f():", []string{`8 expected an indented block after "def f():"`}},
		{"def f():\n    # only a comment\n", []string{`30 expected an indented block after "def f():"`}},
		{"class A:\n    def f(self):\n    x = 1\n", []string{`30 expected an indented block after "def f(self):"`}},
		{"def f():\n    x = 1\n      y = 2\n", []string{"25 unexpected indent"}},
		{"def f():\n    x = 1\n  y = 2\n", []string{"21 unindent does not match any outer indentation level"}},
		{"if x:\n\tpass\n        y\n", []string{"20 inconsistent use of tabs and spaces in indentation"}},
		{"if x:\n        pass\n\ty\n", []string{"20 inconsistent use of tabs and spaces in indentation"}},
		{"if x:\n\tif y:\n\t\tpass\n\tz\n", nil},
		{" x = 1\n", []string{"1 unexpected indent"}},
		// Brackets, strings, continuations and comments do not count.
		{"x = (1,\n   2)\ny = [\n]\n", nil},
		{"d = {\n  1:\n 2}\n", nil},
		{"s = '''a:\n  b'''\nt = \"x\\\n  y\"\n", nil},
		{"s = '''a\n  b'''\n  y\n", []string{"18 unexpected indent"}},
		{"if x: \\\n    pass\ny\n", nil},
		{"x = 1 + \\\n      2\n", nil},
		{"if x:  # comment\n    pass\n", nil},
		{"if x:\n# comment at column 0\n    pass\n", nil},
		{"f = lambda: 0\nx = d[1:]\n", nil},
		{"s = 'unterminated\nif x:\n    pass\n", nil},
		{"s = r'\\''\nif x:\n    pass\n", nil},
		{"x = f\"{y['k']:>10}\"\n", nil},
		{"\f\nif x:\n\f    pass\n", nil},
		// Line endings.
		{"def f():\r\n    pass\r\n  x\r\n", []string{"22 unindent does not match any outer indentation level"}},
		{"def f():\r    pass\r  x\r", []string{"20 unindent does not match any outer indentation level"}},
		// Recovery: one error per mis-indented block.
		{"def f():\n    a\n      b\n      c\n    d\n", []string{"21 unexpected indent"}},
		{"", nil},
	} {
		var got []string
		for _, p := range pyIndent([]byte(c.src)) {
			if p.Start != p.End {
				t.Errorf("%q: bad problem %+v", c.src, p)
			}
			got = append(got, fmt.Sprintf("%d %s", p.Start, p.Message))
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("pyIndent(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}

// TestPyIndentStdlib checks the Python indentation check on every
// module of a CPython standard library, when one is installed: none has an
// indentation error.
func TestPyIndentStdlib(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	dirs, _ := filepath.Glob("/usr/lib/python3*")
	more, _ := filepath.Glob("/root/.pyenv/versions/3.*/lib/python3.*")
	dirs = append(dirs, more...)
	if len(dirs) == 0 {
		t.Skip("no Python standard library found")
	}
	dir := dirs[len(dirs)-1]
	n := 0
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".py") || strings.Contains(path, "bad") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		n++
		if ps := pyIndent(src); len(ps) > 0 {
			t.Errorf("%s: offset %d: %s", path, ps[0].Start, ps[0].Message)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d modules", dir, n)
}
