package ops_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/symedit/symedit/ops"
)

// A batch read from JSON Lines, as `symedit batch` reads it: the two
// operations on count.go apply in order (the replace finds what the edit
// wrote), the file is checked and written once, and with Atomic a failing
// operation on another file leaves both files as they were.
func ExampleWorkspace_Batch() {
	dir, _ := os.MkdirTemp("", "symedit-example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "count.go"), []byte("package counter\n\nfunc Count(xs []int) int {\n\treturn len(xs)\n}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "sum.go"), []byte("package counter\n\nfunc Sum(xs []int) (s int) {\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\n"), 0o644)

	w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer w.Close()

	lines := `{"op": "edit", "path": "count.go", "edits": [{"old_text": "func Count(", "new_text": "func Length("}]}
{"op": "replace", "path": "count.go", "search": "Length", "replacement": "Len"}
{"op": "edit", "path": "sum.go", "edits": [{"old_text": "s -= x", "new_text": "s += 2 * x"}]}`
	req := ops.BatchRequest{Atomic: true}
	for _, line := range strings.Split(lines, "\n") {
		var op ops.BatchOp
		if err := json.Unmarshal([]byte(line), &op); err != nil {
			fmt.Println(err)
			return
		}
		req.Ops = append(req.Ops, op)
	}
	res, err := w.Batch(context.Background(), req)
	for _, r := range res.Ops {
		fmt.Println(r.Index, r.Op, r.Path, r.Status)
	}
	fmt.Println(ops.CodeOf(err), res.Written, res.Summary)

	req.Ops = req.Ops[:2]
	res, err = w.Batch(context.Background(), req)
	fmt.Println(err, res.Written, res.Summary)
	after, _ := os.ReadFile(filepath.Join(dir, "count.go"))
	fmt.Println(strings.Split(string(after), "\n")[2])
	// Output:
	// 1 edit count.go skipped
	// 2 replace count.go skipped
	// 3 edit sum.go failed
	// NO_MATCH false 3 operation(s) on 2 file(s): 0 applied, 1 failed, 2 skipped
	// <nil> true 2 operation(s) on 1 file(s): 2 applied, 0 failed, 0 skipped
	// func Len(xs []int) int {
}
