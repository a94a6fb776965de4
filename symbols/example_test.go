package symbols_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

func ExampleExtract() {
	src := []byte(`package list

// List is a generic list.
type List[T any] struct{ items []T }

// Len returns the number of items.
func (l *List[T]) Len() int { return len(l.items) }
`)
	lang, err := lang.ForPath("list.go")
	if err != nil {
		panic(err)
	}
	syms, err := symbols.Extract(context.Background(), src, lang)
	if err != nil {
		panic(err)
	}
	for _, s := range syms {
		fmt.Printf("%s (%s) %d:%d-%d:%d bytes %d-%d\n", s.NamePath, s.Kind,
			s.Start.Line, s.Start.Column, s.End.Line, s.End.Column, s.StartByte, s.EndByte)
	}
	// Output:
	// List (struct) 4:1-4:37 bytes 41-77
	// List/Len (method) 7:1-7:52 bytes 115-166
}

func ExampleLocate() {
	src := []byte(`class Cart:
    def add(self, item):
        self.items.append(item)

    def total(self):
        return sum(self.items)
`)
	lang, _ := lang.ForPath("cart.py")
	syms, err := symbols.Extract(context.Background(), src, lang)
	if err != nil {
		panic(err)
	}
	for _, arg := range []string{"cart.py:2:1", "cart.py:6", "cart.py::total", "cart.py::remove", "cart.py:4"} {
		loc, err := symbols.ParseLocation(arg)
		if err != nil {
			panic(err)
		}
		i, err := symbols.Locate(syms, src, loc)
		if errors.Is(err, symbols.ErrNoMatch) {
			fmt.Println(arg, "->", err)
			continue
		}
		fmt.Println(arg, "->", syms[i].NamePath)
	}
	// Output:
	// cart.py:2:1 -> Cart/add
	// cart.py:6 -> Cart/total
	// cart.py::total -> Cart/total
	// cart.py::remove -> no symbol in cart.py has name path "remove"; nearest: Cart (class) 1:1-6:31, Cart/add (method) 2:5-3:32, Cart/total (method) 5:5-6:31
	// cart.py:4 -> Cart
}

func ExampleParseLocation() {
	for _, s := range []string{"a.py:45:9", "a.py:45", "a.py::Class/method", "a.py:0"} {
		loc, err := symbols.ParseLocation(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("path %q line %d column %d name path %q\n", loc.Path, loc.Line, loc.Column, loc.NamePath)
	}
	// Output:
	// path "a.py" line 45 column 9 name path ""
	// path "a.py" line 45 column 0 name path ""
	// path "a.py" line 0 column 0 name path "Class/method"
	// invalid location "a.py:0": line 0 must be at least 1; expected FILE:LINE, FILE:LINE:COL (1-based line, 1-based byte column) or FILE::NAME_PATH
}
