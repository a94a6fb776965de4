package ops_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/ops"
)

// TestWrite creates a file in new folders, replaces it, and writes the
// same content again (unchanged, nothing written).
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx := context.Background()
	path := filepath.Join(dir, "new", "pkg", "hello.py")

	const v1 = "def hello():\n    return 'hello'\n"
	res, err := w.Write(ctx, ops.WriteRequest{Path: "new/pkg/hello.py", Content: v1})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || !res.Changed || !res.Written || !res.Created || res.Bytes != len(v1) || res.Summary != fmt.Sprintf("created with %d bytes", len(v1)) {
		t.Errorf("create: %+v", res)
	}
	textSameFile(t, path, []byte(v1), "created")

	const v2 = "def hello():\n    return 'hi'\n"
	res, err = w.Write(ctx, ops.WriteRequest{Path: "new/pkg/hello.py", Content: v2, WriteOptions: ops.WriteOptions{Diff: true}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Written || res.Created || res.Summary != fmt.Sprintf("wrote %d bytes", len(v2)) || !strings.Contains(res.Diff, "-    return 'hello'\n+    return 'hi'\n") {
		t.Errorf("replace: %+v", res)
	}
	textSameFile(t, path, []byte(v2), "replaced")

	res, err = w.Write(ctx, ops.WriteRequest{Path: "new/pkg/hello.py", Content: v2})
	if err != nil || res.Changed || res.Written || !res.OK {
		t.Errorf("same content: %v, %+v", err, res.Result)
	}

	// Empty content creates an empty file.
	res, err = w.Write(ctx, ops.WriteRequest{Path: "empty.txt"})
	if err != nil || !res.Changed || !res.Written || !res.Created {
		t.Errorf("empty file: %v, %+v", err, res)
	}
	textSameFile(t, filepath.Join(dir, "empty.txt"), nil, "empty file")
}

// TestWriteDryRun: an existing file and a new one; the new file and its
// folders are not created, and the diff creates it with git apply.
func TestWriteDryRun(t *testing.T) {
	w, path, orig := textFixture(t, "java/Inventory.java", "")
	ctx := context.Background()
	content := strings.Replace(string(orig), "public int commit() throws InventoryException {", "public int commitAll() throws InventoryException {", 1)
	if content == string(orig) {
		t.Fatal("the fixture has no commit()")
	}
	res, err := w.Write(ctx, ops.WriteRequest{Path: "Inventory.java", Content: content, WriteOptions: ops.WriteOptions{DryRun: true}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || !res.Changed || res.Written || !strings.Contains(res.Diff, "+        public int commitAll() throws InventoryException {\n") ||
		res.Syntax == nil || !res.Syntax.Checked || res.Syntax.Language != "java" {
		t.Errorf("result %+v", res.Result)
	}
	textSameFile(t, path, orig, "dry run")

	res, err = w.Write(ctx, ops.WriteRequest{Path: "other/dir/a.py", Content: "x = 1\n", WriteOptions: ops.WriteOptions{DryRun: true}})
	if err != nil || !res.Created || !strings.Contains(res.Diff, "@@ -0,0 +1 @@\n+x = 1\n") {
		t.Errorf("new file: %v, %+v", err, res)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), "other")); !os.IsNotExist(err) {
		t.Errorf("a dry run created the folder: %v", err)
	}
}

// TestWriteRefusals: every refusal, in a real run and in a dry run,
// leaves the file byte-identical (or creates nothing).
func TestWriteRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  ops.WriteRequest
		code ops.Code
	}{
		{name: "NUL byte", code: ops.CodeInvalidInput, req: ops.WriteRequest{Content: "x = '\x00'\n"}},
		{name: "not UTF-8", code: ops.CodeInvalidInput, req: ops.WriteRequest{Content: "x = '\xff'\n"}},
		{name: "UTF-16", code: ops.CodeInvalidInput, req: ops.WriteRequest{Content: "\xff\xfex\x00"}},
		{name: "too large", code: ops.CodeInvalidInput, req: ops.WriteRequest{Content: strings.Repeat("#\n", edit.MaxFileSize/2+1)}},
		{name: "syntax error", code: ops.CodeSyntax, req: ops.WriteRequest{Content: "def f(:\n"}},
		{name: "other sha256", code: ops.CodeChanged, req: ops.WriteRequest{Content: "x = 1\n", WriteOptions: ops.WriteOptions{ExpectSHA256: textSHA(nil)}}},
		{name: "malformed sha256", code: ops.CodeUsage, req: ops.WriteRequest{Content: "x = 1\n", WriteOptions: ops.WriteOptions{ExpectSHA256: "xyz"}}},
		{name: "empty path", code: ops.CodeUsage, req: ops.WriteRequest{Path: "-", Content: "x = 1\n"}},
		{name: "a folder", code: ops.CodeError, req: ops.WriteRequest{Path: "sub", Content: "x = 1\n"}},
		{name: "a link to nothing", code: ops.CodeError, req: ops.WriteRequest{Path: "dangling.py", Content: "x = 1\n"}},
		{name: "outside the root", code: ops.CodeOutsideRoot, req: ops.WriteRequest{Path: "../outside.py", Content: "x = 1\n"}},
		{name: "a new file outside the root", code: ops.CodeOutsideRoot, req: ops.WriteRequest{Path: "../new.py", Content: "x = 1\n"}},
	} {
		for _, dry := range []bool{false, true} {
			name := tc.name
			if dry {
				name += " (dry run)"
			}
			t.Run(name, func(t *testing.T) {
				w, path, orig := textFixture(t, "python/process.py", "")
				dir := filepath.Dir(path)
				outside := filepath.Join(filepath.Dir(dir), "outside.py")
				if err := os.WriteFile(outside, orig, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink("nothing.py", filepath.Join(dir, "dangling.py")); err != nil {
					t.Fatal(err)
				}
				req := tc.req
				switch req.Path {
				case "":
					req.Path = "process.py"
				case "-":
					req.Path = ""
				}
				req.DryRun = dry
				res, err := w.Write(context.Background(), req)
				textRefused(t, &res.Result, err, tc.code, name)
				textSameFile(t, path, orig, name)
				textSameFile(t, outside, orig, name+", outside the root")
				for _, p := range []string{filepath.Join(dir, "nothing.py"), filepath.Join(filepath.Dir(dir), "new.py")} {
					if _, err := os.Lstat(p); !os.IsNotExist(err) {
						t.Errorf("%s was created: %v", p, err)
					}
				}
				if fi, err := os.Stat(filepath.Join(dir, "sub")); err != nil || !fi.IsDir() {
					t.Errorf("the folder: %v", err)
				}
			})
		}
	}
}

// TestWriteRequestJSON: the request's field names (those of the MCP write
// tool) and the result's envelope.
func TestWriteRequestJSON(t *testing.T) {
	var req ops.WriteRequest
	if err := json.Unmarshal([]byte(`{"path": "a.py", "content": "x = 1\n", "dry_run": true}`), &req); err != nil {
		t.Fatal(err)
	}
	if req.Path != "a.py" || req.Content != "x = 1\n" || !req.DryRun {
		t.Errorf("%+v", req)
	}
	dir := t.TempDir()
	w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	res, _ := w.Write(context.Background(), req)
	b, _ := json.Marshal(res)
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got["ok"] != true || got["bytes"] != 6.0 || got["created"] != true || got["written"] != false || got["changed"] != true {
		t.Errorf("%s", b)
	}
}

// TestWriteConcurrentNewFile: eight writes of one new file at once, in
// new folders. The per-file lock serializes them, so the first creates
// the file and the others replace it: none is refused (without the lock
// the later ones find the file created meanwhile, CHANGED), and the file
// holds one whole content.
func TestWriteConcurrentNewFile(t *testing.T) {
	dir := t.TempDir()
	w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	const n = 8
	contents := make([]string, n)
	errs := make([]error, n)
	created := make([]bool, n)
	done := make(chan struct{})
	for i := range n {
		contents[i] = fmt.Sprintf("X = %d\n", i)
		go func() {
			res, err := w.Write(context.Background(), ops.WriteRequest{Path: "a/b/new.py", Content: contents[i]})
			errs[i], created[i] = err, res.Created
			done <- struct{}{}
		}()
	}
	for range n {
		<-done
	}
	ncreated := 0
	for i := range n {
		if errs[i] != nil {
			t.Errorf("write %d: %v", i, errs[i])
		}
		if created[i] {
			ncreated++
		}
	}
	if ncreated != 1 {
		t.Errorf("%d writes created the file, want 1", ncreated)
	}
	got, err := os.ReadFile(filepath.Join(dir, "a", "b", "new.py"))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range contents {
		found = found || string(got) == c
	}
	if !found {
		t.Errorf("the file holds %q, none of the contents written", got)
	}
}
