package ops_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/symedit/symedit/ops"
	"github.com/symedit/symedit/textedit"
)

// An exact-text edit in dry run: the result carries the unified diff and
// the summary, and the file is not written. An edit whose old_text is not
// in the file is refused with the most similar places and what differs.
func ExampleWorkspace_Edit() {
	dir, _ := os.MkdirTemp("", "symedit-example")
	defer os.RemoveAll(dir)
	src := "package counter\n\n// Count counts the elements of xs,\n// one by one.\nfunc Count(xs []int) int {\n\tn := 0\n\tfor range xs {\n\t\tn++\n\t}\n\treturn n\n}\n"
	os.WriteFile(filepath.Join(dir, "count.go"), []byte(src), 0o644)

	w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer w.Close()

	res, err := w.Edit(context.Background(), ops.EditRequest{
		Path:         "count.go",
		Edits:        ops.TextEdits{{OldText: "n := 0", NewText: "n := 0 // the count so far"}},
		WriteOptions: ops.WriteOptions{DryRun: true},
	})
	fmt.Println(err, res.OK, res.Written, res.Summary)
	fmt.Print(res.Diff)

	_, err = w.Edit(context.Background(), ops.EditRequest{
		Path:  "count.go",
		Edits: ops.TextEdits{{OldText: "n = 0", NewText: "n = 1"}},
	})
	var oe *ops.Error
	if errors.As(err, &oe) {
		fmt.Println(oe.Code, oe.Message)
		for _, s := range oe.Nearest.([]textedit.SimilarContent) {
			fmt.Printf("line %d (%.2f): %q", s.LineNumber, s.SimilarityScore, s.Content)
			for _, d := range s.Differences {
				fmt.Printf(", %s: %q, not %q", d.Type, d.Found, d.Expected)
			}
			fmt.Println()
		}
	}
	after, _ := os.ReadFile(filepath.Join(dir, "count.go"))
	fmt.Println("file unchanged:", string(after) == src)
	// Output:
	// <nil> true false applied 1 edit(s), 1 replacement(s)
	// --- a/count.go
	// +++ b/count.go
	// @@ -3,7 +3,7 @@
	//  // Count counts the elements of xs,
	//  // one by one.
	//  func Count(xs []int) int {
	// -	n := 0
	// +	n := 0 // the count so far
	//  	for range xs {
	//  		n++
	//  	}
	// NO_MATCH edit 1 of 1 failed: old_text was not found in the text.
	// line 6 (0.91): "\tn := 0", punctuation: "n :=", not "n ="
	// line 10 (0.50): "\treturn n", content: "n", not "= 0"
	// file unchanged: true
}
