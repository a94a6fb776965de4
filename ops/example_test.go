package ops_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/symedit/symedit/chunk"
	"github.com/symedit/symedit/ops"
)

// A chunk edit in dry run: the result carries the unified diff, and the
// file is not written. A chunk whose context is not in the symbol is
// refused, and the error names the check that failed and the symbol's
// nearest real lines.
func ExampleWorkspace_Chunk() {
	dir, _ := os.MkdirTemp("", "symedit-example")
	defer os.RemoveAll(dir)
	src := "class Greeter:\n    def greet(self, name):\n        msg = 'hello ' + name\n        return msg\n"
	os.WriteFile(filepath.Join(dir, "greet.py"), []byte(src), 0o644)

	w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer w.Close()

	res, err := w.Chunk(context.Background(), ops.ChunkRequest{
		Location: "greet.py::Greeter/greet",
		Chunks: ops.Chunks{{
			ContextBefore: []string{"    def greet(self, name):"},
			OldLines:      []string{"        msg = 'hello ' + name"},
			NewLines:      []string{"        msg = f'hello {name}'"},
			ContextAfter:  []string{"        return msg"},
		}},
		WriteOptions: ops.WriteOptions{DryRun: true},
	})
	fmt.Println(err, res.OK, res.Written)
	fmt.Print(res.Diff)

	_, err = w.Chunk(context.Background(), ops.ChunkRequest{
		Location: "greet.py::Greeter/greet",
		Chunks: ops.Chunks{{
			ContextBefore: []string{"    def greet(self, who):"},
			OldLines:      []string{"        msg = 'hello ' + name"},
			NewLines:      []string{"        msg = f'hello {name}'"},
			ContextAfter:  []string{"        return msg"},
		}},
	})
	var oe *ops.Error
	if errors.As(err, &oe) {
		fmt.Println(oe.Code, oe.Check, oe.Expected)
		for _, n := range oe.Nearest.([]chunk.Near) {
			fmt.Printf("%d: %s\n", n.Line, n.Text)
		}
	}
	after, _ := os.ReadFile(filepath.Join(dir, "greet.py"))
	fmt.Println("file unchanged:", string(after) == src)
	// Output:
	// <nil> true false
	// --- a/greet.py
	// +++ b/greet.py
	// @@ -1,4 +1,4 @@
	//  class Greeter:
	//      def greet(self, name):
	// -        msg = 'hello ' + name
	// +        msg = f'hello {name}'
	//          return msg
	// NO_MATCH context_before     def greet(self, who):
	// 2:     def greet(self, name):
	// 4:         return msg
	// 3:         msg = 'hello ' + name
	// file unchanged: true
}
