package ops_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/symedit/symedit/ops"
)

// TestApplyPatchInsertion: an apply_patch update hunk that only adds lines
// appends them to the file (openai/codex's scenario
// 016_pure_addition_update_chunk), or inserts them right after its @@
// line when that line occurs once (openai/codex#30946, where Codex
// appends them anyway); an @@ line that occurs twice or nowhere refuses
// the reply, the files byte for byte as they were.
func TestApplyPatchInsertion(t *testing.T) {
	w, root := applyWorkspace(t)
	proc := filepath.Join(root, "python/process.py")
	orig := read(t, proc)
	r := "*** Begin Patch\n*** Update File: python/process.py\n@@\n+# appended\n" +
		"@@ class AuthenticationString(bytes):\n+    '''A secret.'''\n*** End Patch\n"
	if _, err := w.Apply(context.Background(), ops.ApplyRequest{Reply: r}); err != nil {
		t.Fatal(err)
	}
	want := replaceOnce(t, orig, "class AuthenticationString(bytes):\n", "class AuthenticationString(bytes):\n    '''A secret.'''\n") + "# appended\n"
	if got := read(t, proc); got != want {
		t.Fatalf("got\n%s", got)
	}

	for name, r := range map[string]string{
		// "def is_alive(self):" is in BaseProcess and _ParentProcess.
		"codex#30946 ambiguous": "*** Begin Patch\n*** Update File: python/process.py\n@@     def is_alive(self):\n+        pass\n*** End Patch\n",
		"not found":             "*** Begin Patch\n*** Update File: python/process.py\n@@ class NoSuch:\n+    pass\n*** End Patch\n",
		"missing file":          "*** Begin Patch\n*** Update File: python/nosuch.py\n@@\n+x = 1\n*** End Patch\n",
	} {
		t.Run(name, func(t *testing.T) {
			before := snapshot(t, root)
			res, err := w.Apply(context.Background(), ops.ApplyRequest{Reply: r})
			sameFiles(t, root, before)
			var oe *ops.Error
			if !errors.As(err, &oe) || oe.Code != ops.CodeApply || res.Written {
				t.Fatalf("error %v, result %+v", err, res.Result)
			}
			if name == "codex#30946 ambiguous" && (len(res.Blocks) != 1 || res.Blocks[0].Failure == nil || len(res.Blocks[0].Failure.Candidates) != 2) {
				t.Errorf("blocks %+v, want the two places listed", res.Blocks)
			}
			if name == "missing file" && !strings.Contains(res.Files[0].Reason, "no such file") {
				t.Errorf("file %+v", res.Files[0])
			}
		})
	}
}
