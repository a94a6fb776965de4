package ops

import (
	"context"
	"strings"
	"testing"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/lang"
)

// planSymbolText works on an in-memory document, as batch uses it: it
// places the text at the symbol located in the document's current
// content, and the change it returns holds the new content, nothing
// written.
func TestPlanSymbolTextInMemory(t *testing.T) {
	src := "class A:\n    def f(self):\n        return 1\n"
	doc, err := edit.NewDocument("a.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	lang, err := lang.Select("a.py", "")
	if err != nil {
		t.Fatal(err)
	}
	t1, err := locateIn(context.Background(), doc, lang, "a.py::A/f")
	if err != nil {
		t.Fatal(err)
	}
	var res SymbolTextResult
	ch, err := planSymbolText(t1, insertAfter, "def g(self):\n    return 2\n", &res)
	if err != nil {
		t.Fatal(err)
	}
	want := src + "\n    def g(self):\n        return 2\n"
	if string(ch.content) != want || !ch.changed() {
		t.Errorf("content %q, want %q", ch.content, want)
	}
	if res.Reindent != "indented by 4 spaces" || res.Symbol.NamePath != "A/f" || !strings.HasPrefix(ch.what, "inserted after A/f (method, lines 2-3)") {
		t.Errorf("result %+v, what %q", res, ch.what)
	}
}
