package edit_test

import (
	"fmt"

	"github.com/symedit/symedit/diff"
	"github.com/symedit/symedit/edit"
)

func ExampleDiff() {
	old := []byte("def greet(name):\n    print('hello', name)\n    return None\n")
	new := []byte("def greet(name):\n    print('hello,', name)\n    return None\n")
	fmt.Print(diff.Diff("greet.py", old, new))
	// Output:
	// --- a/greet.py
	// +++ b/greet.py
	// @@ -1,3 +1,3 @@
	//  def greet(name):
	// -    print('hello', name)
	// +    print('hello,', name)
	//      return None
}

func ExampleDocument_ReplaceLines() {
	// A CRLF file without a final newline: the new lines get CRLF and the
	// file still ends without one.
	doc, err := edit.NewDocument("main.go", []byte("package main\r\n\r\nfunc main() {}"))
	if err != nil {
		panic(err)
	}
	e, err := doc.ReplaceLines(3, 3, []string{"func main() {", "\tprintln(\"hi\")", "}"})
	if err != nil {
		panic(err)
	}
	content, err := edit.Apply(doc.Content, []edit.Edit{e})
	if err != nil {
		panic(err)
	}
	fmt.Printf("replace bytes [%d, %d) by %q\n", e.Start, e.End, e.New)
	fmt.Printf("%q\n", content)
	// Output:
	// replace bytes [16, 30) by "func main() {\r\n\tprintln(\"hi\")\r\n}"
	// "package main\r\n\r\nfunc main() {\r\n\tprintln(\"hi\")\r\n}"
}
