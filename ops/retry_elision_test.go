package ops_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/symedit/symedit/chunk"
	"github.com/symedit/symedit/ops"
)

// mustChunks reads a chunk list as the chunk spec's JSON.
func mustChunks(t *testing.T, js string) ops.Chunks {
	t.Helper()
	list, err := chunk.Parse([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// mustEdits reads an edit list as the edit tool's JSON.
func mustEdits(t *testing.T, js string) ops.TextEdits {
	t.Helper()
	var e ops.TextEdits
	if err := json.Unmarshal([]byte(js), &e); err != nil {
		t.Fatal(err)
	}
	return e
}

// readFile returns the file's content.
func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The retries: each format's edit, run twice on a real file, applies the
// first time and reports already_applied the second, exit 0, with the
// file as the first run left it.

const isAliveChunk = `[{"context_before": ["        returncode = self._popen.poll()"],
  "old_lines": ["        if returncode is None:"],
  "new_lines": ["        if returncode is None and not self._closed:"],
  "context_after": ["            return True"]}]`

// An insertion that keeps its anchor line: old_lines inside new_lines.
const insertChunk = `[{"context_before": ["        '''"],
  "old_lines": ["        self._check_closed()"],
  "new_lines": ["        self._check_closed()", "        self._check_started()"],
  "context_after": ["        if self is _current_process:"]}]`

func TestChunkRetry(t *testing.T) {
	ctx := context.Background()
	for _, chunks := range []string{isAliveChunk, insertChunk} {
		w, path, _ := textFixture(t, "python/process.py", "")
		req := ops.ChunkRequest{Location: path + "::BaseProcess/is_alive", Chunks: mustChunks(t, chunks)}
		res, err := w.Chunk(ctx, req)
		if err != nil || !res.Written || res.AlreadyApplied {
			t.Fatalf("first run: %v %+v", err, res.Result)
		}
		once := readFile(t, path)
		res, err = w.Chunk(ctx, req)
		if err != nil || ops.ExitCode(err) != 0 || !res.OK || res.Written || !res.AlreadyApplied {
			t.Fatalf("second run: %v %+v", err, res.Result)
		}
		if len(res.Hunks) != 1 || !res.Hunks[0].AlreadyApplied || res.ChunksApplied != 0 {
			t.Errorf("placements %+v, chunks_applied %d", res.Hunks, res.ChunksApplied)
		}
		if !strings.HasPrefix(res.Summary, "already applied, nothing to write") {
			t.Errorf("summary %q", res.Summary)
		}
		textSameFile(t, path, once, "second run")
	}
}

// A chunk list with one chunk already in and one to apply writes the one
// and names the other.
func TestChunkRetryMixed(t *testing.T) {
	ctx := context.Background()
	w, path, _ := textFixture(t, "python/process.py", "")
	loc := path + "::BaseProcess/is_alive"
	if _, err := w.Chunk(ctx, ops.ChunkRequest{Location: loc, Chunks: mustChunks(t, isAliveChunk)}); err != nil {
		t.Fatal(err)
	}
	both := strings.TrimSuffix(isAliveChunk, "]") + "," + strings.TrimPrefix(insertChunk, "[")
	res, err := w.Chunk(ctx, ops.ChunkRequest{Location: loc, Chunks: mustChunks(t, both)})
	if err != nil || !res.Written || res.AlreadyApplied || res.ChunksApplied != 1 {
		t.Fatalf("%v %+v", err, res)
	}
	if !res.Hunks[0].AlreadyApplied || res.Hunks[1].AlreadyApplied {
		t.Errorf("placements %+v", res.Hunks)
	}
	if !strings.Contains(res.Summary, "already applied: chunk 1") {
		t.Errorf("summary %q", res.Summary)
	}
	if got := string(readFile(t, path)); strings.Count(got, "self._check_started()") != 1 || strings.Count(got, "not self._closed:") != 1 {
		t.Errorf("the file has the lines %d and %d times", strings.Count(got, "self._check_started()"), strings.Count(got, "not self._closed:"))
	}
}

// The unsafe shapes keep today's refusals on their retry: a deletion, a
// new side inside the old side, a new side present twice, a new side too
// small to recognise.
func TestChunkRetryUnsafe(t *testing.T) {
	ctx := context.Background()
	cases := map[string]string{
		"deletion": `[{"context_before": ["        self._check_closed()"], "old_lines": ["        if self is _current_process:", "            return True"], "new_lines": [],
			"context_after": ["        assert self._parent_pid == os.getpid(), 'can only test a child process'"]}]`,
		"new inside old": `[{"context_before": ["        # reference to the process object (see bpo-30775)"], "old_lines": ["        del self._target, self._args, self._kwargs", "        _children.add(self)"],
			"new_lines": ["        _children.add(self)"], "context_after": []}]`,
		"lone line": `[{"old_lines": ["        if returncode is None:"], "new_lines": ["            return True"], "context_before": [], "context_after": ["        else:"]}]`,
	}
	for name, js := range cases {
		w, path, _ := textFixture(t, "python/process.py", "")
		sym := "::BaseProcess/is_alive"
		if name == "new inside old" {
			sym = "::BaseProcess/start"
		}
		req := ops.ChunkRequest{Location: path + sym, Chunks: mustChunks(t, js)}
		if _, err := w.Chunk(ctx, req); err != nil && name != "lone line" {
			t.Fatalf("%s: first run: %v", name, err)
		}
		once := readFile(t, path)
		res, err := w.Chunk(ctx, req)
		if err == nil || res.AlreadyApplied {
			t.Errorf("%s: retry accepted: %+v", name, res.Result)
			continue
		}
		textSameFile(t, path, once, name)
	}
	// A new side present twice: "return True" after "if ...:" occurs at
	// two places of is_alive, so the chunk that would write it there is
	// not taken as applied.
	w, path, src := textFixture(t, "python/process.py", "")
	req := ops.ChunkRequest{Location: path + "::BaseProcess/is_alive", Chunks: mustChunks(t,
		`[{"context_before": [], "old_lines": ["            return Maybe"], "new_lines": ["            return True"], "context_after": []}]`)}
	res, err := w.Chunk(ctx, req)
	if err == nil || res.AlreadyApplied {
		t.Errorf("twice: %+v", res.Result)
	}
	textSameFile(t, path, src, "twice")
}

const srReply = `process.py
<<<<<<< SEARCH
        returncode = self._popen.poll()
=======
        returncode = self._popen.poll()
        self._last_returncode = returncode
>>>>>>> REPLACE
`

const editReply = `process.py
<<<<<<< EDIT
    def is_alive(self):
        '''
        Return whether process is alive
        '''
-------
        self._check_closed()
=======
        self._check_closed()
        self._check_started()
-------
        if self is _current_process:
>>>>>>>
`

const diffReply = `--- a/process.py
+++ b/process.py
@@ -163,6 +163,8 @@
         self._check_closed()
         if self is _current_process:
             return True
+        if self._closing:
+            return False
         assert self._parent_pid == os.getpid(), 'can only test a child process'
 
         if self._popen is None:
`

const patchReply = `*** Begin Patch
*** Update File: process.py
@@
         if self._popen is None:
-            return False
+            return self._default_alive
 
         returncode = self._popen.poll()
*** End Patch
`

func TestApplyRetry(t *testing.T) {
	ctx := context.Background()
	for name, r := range map[string]string{"search/replace": srReply, "edit": editReply, "unified diff": diffReply, "apply_patch": patchReply,
		"three formats": srReply + "\n" + editReply + "\n" + patchReply} {
		w, path, src := textFixture(t, "python/process.py", "")
		res, err := w.Apply(ctx, ops.ApplyRequest{Reply: r})
		if err != nil || !res.Written || res.AlreadyApplied {
			t.Fatalf("%s: first run: %v %+v", name, err, res.Result)
		}
		once := readFile(t, path)
		if string(once) == string(src) {
			t.Fatalf("%s: the first run changed nothing", name)
		}
		res, err = w.Apply(ctx, ops.ApplyRequest{Reply: r})
		if err != nil || !res.OK || res.Written || !res.AlreadyApplied || !res.Files[0].AlreadyApplied || res.Files[0].Written {
			t.Fatalf("%s: second run: %v %+v", name, err, res)
		}
		for _, b := range res.Blocks {
			if b.Status != ops.ApplyApplied || !b.AlreadyApplied {
				t.Errorf("%s: block %d: %+v", name, b.Index, b)
			}
		}
		textSameFile(t, path, once, name+": second run")
	}
}

// A reply whose blocks are applied or already applied together succeeds;
// mixed with a real failure it is refused as a whole.
func TestApplyRetryMixed(t *testing.T) {
	ctx := context.Background()
	w, path, _ := textFixture(t, "python/process.py", "")
	if _, err := w.Apply(ctx, ops.ApplyRequest{Reply: srReply}); err != nil {
		t.Fatal(err)
	}
	res, err := w.Apply(ctx, ops.ApplyRequest{Reply: srReply + "\n" + patchReply})
	if err != nil || !res.Written || res.AlreadyApplied || !res.Blocks[0].AlreadyApplied || res.Blocks[1].AlreadyApplied {
		t.Fatalf("applied and already applied: %v %+v", err, res)
	}
	once := readFile(t, path)
	bad := strings.Replace(diffReply, "         self._check_closed()\n", "         self._check_opened()\n", 1)
	res, err = w.Apply(ctx, ops.ApplyRequest{Reply: srReply + "\n" + bad})
	if err == nil || res.Written {
		t.Fatalf("with a failure: %+v", res)
	}
	textSameFile(t, path, once, "with a failure")
}

// The unsafe block shapes keep refusing on their retry: a deletion with
// context (a hunk that only removes lines: its new side is its context),
// a SEARCH/REPLACE whose REPLACE is inside its SEARCH, a REPLACE present
// twice.
func TestApplyRetryUnsafe(t *testing.T) {
	ctx := context.Background()
	for name, r := range map[string]string{
		"deletion hunk":         "--- a/process.py\n+++ b/process.py\n@@ -129,4 +129,3 @@\n         # Avoid a refcycle if the target function holds an indirect\n-        # reference to the process object (see bpo-30775)\n         del self._target, self._args, self._kwargs\n         _children.add(self)\n",
		"replace inside search": "process.py\n<<<<<<< SEARCH\n        del self._target, self._args, self._kwargs\n        _children.add(self)\n=======\n        _children.add(self)\n>>>>>>> REPLACE\n",
	} {
		w, path, _ := textFixture(t, "python/process.py", "")
		if _, err := w.Apply(ctx, ops.ApplyRequest{Reply: r}); err != nil {
			t.Fatalf("%s: first run: %v", name, err)
		}
		once := readFile(t, path)
		res, err := w.Apply(ctx, ops.ApplyRequest{Reply: r})
		if err == nil || res.AlreadyApplied {
			t.Errorf("%s: retry accepted: %+v", name, res.Result)
		}
		textSameFile(t, path, once, name)
	}
	// REPLACE present twice: the two lines open is_alive's body and
	// ident's.
	w, path, src := textFixture(t, "python/process.py", "")
	r := "process.py\n<<<<<<< SEARCH\n        self._check_opened()\n        if self is _current_process:\n=======\n        self._check_closed()\n        if self is _current_process:\n>>>>>>> REPLACE\n"
	res, err := w.Apply(ctx, ops.ApplyRequest{Reply: r})
	if err == nil || res.AlreadyApplied {
		t.Errorf("twice: %+v", res.Result)
	}
	textSameFile(t, path, src, "twice")
}

func TestEditRetry(t *testing.T) {
	ctx := context.Background()
	for _, js := range []string{
		`[{"old_text": "        returncode = self._popen.poll()\n", "new_text": "        returncode = self._popen.poll()\n        self._seen = returncode\n"}]`,
		`[{"old_text": "raise ValueError(\"process object is closed\")", "new_text": "raise ValueError(\"the process object is closed\")"}]`,
	} {
		w, path, _ := textFixture(t, "python/process.py", "")
		req := ops.EditRequest{Path: path, Edits: mustEdits(t, js)}
		if res, err := w.Edit(ctx, req); err != nil || !res.Written {
			t.Fatalf("first run: %v", err)
		}
		once := readFile(t, path)
		res, err := w.Edit(ctx, req)
		if err != nil || !res.OK || res.Written || !res.AlreadyApplied || !res.EditsApplied[0].AlreadyApplied || res.TotalReplacements != 0 {
			t.Fatalf("second run: %v %+v", err, res)
		}
		textSameFile(t, path, once, "second run")
	}
	// The unsafe shapes: a deletion, a new text inside the old one, a
	// new text present twice, and a mistyped old text whose new text
	// happens to be elsewhere.
	for name, js := range map[string]string{
		"deletion":       `[{"old_text": "        # reference to the process object (see bpo-30775)\n", "new_text": ""}]`,
		"new inside old": `[{"old_text": "        del self._target, self._args, self._kwargs\n        _children.add(self)\n", "new_text": "        _children.add(self)\n"}]`,
		"twice":          `[{"old_text": "self._check_opened()", "new_text": "self._check_closed()"}]`,
		"mistyped":       `[{"old_text": "Assert self._popen is None", "new_text": "assert self._popen is not None"}]`,
	} {
		w, path, _ := textFixture(t, "python/process.py", "")
		req := ops.EditRequest{Path: path, Edits: mustEdits(t, js)}
		if name == "deletion" || name == "new inside old" {
			if _, err := w.Edit(ctx, req); err != nil {
				t.Fatalf("%s: first run: %v", name, err)
			}
		}
		once := readFile(t, path)
		res, err := w.Edit(ctx, req)
		if err == nil || res.AlreadyApplied {
			t.Errorf("%s: accepted: %+v", name, res.Result)
		}
		textSameFile(t, path, once, name)
	}
}

// The lazy outputs the peers document, in each language, are refused
// with ELIDED naming the line, the file byte-identical; allow_elision
// writes them; the file's own "..." is no placeholder.
func TestElided(t *testing.T) {
	ctx := context.Background()
	type lazy struct{ rel, old, new, line string }
	cases := map[string]lazy{
		"python, rest of the function": {"python/process.py",
			"        if self._popen is None:\n            return False\n\n        returncode = self._popen.poll()\n",
			"        if self._popen is None:\n            return None\n        # ... rest of the function unchanged ...\n",
			"        # ... rest of the function unchanged ..."},
		"python, bare dots": {"python/process.py",
			"        if self._popen is None:\n            return False\n",
			"        if self._popen is None:\n            ...\n",
			"            ..."},
		"go, existing code (Cursor)": {"go/slog_value.go",
			"\tif g, w := v.Kind(), KindInt64; g != w {\n\t\tpanic(fmt.Sprintf(\"Value kind is %s, not %s\", g, w))\n\t}\n\treturn int64(v.num)\n",
			"\t// ... existing code ...\n\treturn int64(v.num) + 0\n",
			"\t// ... existing code ..."},
		"java, rest of the method": {"java/Inventory.java",
			"        item.quantity -= quantity;\n        legacyCounter++;\n        return item.quantity;\n",
			"        item.quantity -= quantity;\n        // rest of the method remains the same\n",
			"        // rest of the method remains the same"},
		"typescript, block comment": {"typescript/scheduler.ts",
			"    const [job] = this.queue.splice(index, 1);\n    job.state = \"cancelled\";\n    return true;\n",
			"    /* ... */\n    return true;\n",
			"    /* ... */"},
		"tsx, JSX comment": {"typescript/widget.tsx",
			"      {items.map((item, i) => (\n        <li key={i}>{render(item)}</li>\n      ))}\n",
			"      {/* ... existing code ... */}\n",
			"      {/* ... existing code ... */}"},
	}
	for name, c := range cases {
		w, path, src := textFixture(t, c.rel, "")
		raw, _ := json.Marshal([]map[string]string{{"old_text": c.old, "new_text": c.new}})
		req := ops.EditRequest{Path: path, Edits: mustEdits(t, string(raw))}
		res, err := w.Edit(ctx, req)
		e := textRefused(t, &res.Result, err, ops.CodeElided, name)
		if e != nil && (!strings.Contains(e.Message, strings.TrimSpace(strings.Trim(mustJSON(c.line), `"`))) || len(e.Remedy) != 1 || e.Remedy[0].Option != "allow_elision") {
			t.Errorf("%s: message %q, remedy %v", name, e.Message, e.Remedy)
		}
		textSameFile(t, path, src, name)
		// The same as a SEARCH/REPLACE block.
		r := strings.TrimPrefix(c.rel[strings.IndexByte(c.rel, '/')+1:], "") + "\n<<<<<<< SEARCH\n" + c.old + "=======\n" + c.new + ">>>>>>> REPLACE\n"
		ares, err := w.Apply(ctx, ops.ApplyRequest{Reply: r})
		if ops.CodeOf(err) != ops.CodeElided || ares.Written || ares.Blocks[0].Failure == nil || ares.Blocks[0].Failure.Code != "ELIDED" {
			t.Errorf("%s: apply: %v %+v", name, err, ares.Result)
		}
		textSameFile(t, path, src, name+": apply")
		req.AllowElision = true
		if res, err := w.Edit(ctx, req); err != nil || !res.Written {
			t.Errorf("%s: allow_elision: %v", name, err)
		}
	}
	// A chunk whose new_lines replace code by a placeholder.
	w, path, src := textFixture(t, "python/process.py", "")
	res, err := w.Chunk(ctx, ops.ChunkRequest{Location: path + "::BaseProcess/is_alive", Chunks: mustChunks(t,
		`[{"context_before": ["        self._check_closed()"], "old_lines": ["        if self is _current_process:", "            return True"],
		  "new_lines": ["        # ... existing code ..."], "context_after": ["        assert self._parent_pid == os.getpid(), 'can only test a child process'"]}]`)})
	if e := textRefused(t, &res.Result, err, ops.CodeElided, "chunk"); e != nil && (e.Chunk != 1 || !strings.Contains(e.Message, `line 1 of its new_lines, "        # ... existing code ..."`)) {
		t.Errorf("chunk: %+v", e)
	}
	textSameFile(t, path, src, "chunk")
}

// An edit that keeps the file's own "..." (a stub's body) is no elision,
// and neither is Aider's "..." on both sides of a block.
func TestElidedOwnDots(t *testing.T) {
	ctx := context.Background()
	w, path, _ := textFixture(t, "python/process.py", "")
	if err := os.WriteFile(path, []byte("class Closer(Protocol):\n    def close(self) -> None:\n        ...\n\n    def flush(self) -> None:\n        ...\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := w.Edit(ctx, ops.EditRequest{Path: path, Edits: mustEdits(t,
		`[{"old_text": "    def close(self) -> None:\n        ...\n", "new_text": "    def close(self, force: bool = False) -> None:\n        ...\n"}]`)})
	if err != nil || !res.Written {
		t.Fatalf("stub: %v", err)
	}
	r := "process.py\n<<<<<<< SEARCH\nclass Closer(Protocol):\n...\n    def flush(self) -> None:\n=======\nclass Closer(Protocol):  # closes\n...\n    def flush(self, all: bool) -> None:\n>>>>>>> REPLACE\n"
	if ares, err := w.Apply(ctx, ops.ApplyRequest{Reply: r}); err != nil || !ares.Written {
		t.Fatalf("Aider's elision: %v", err)
	}
	if got := string(readFile(t, path)); !strings.Contains(got, "# closes") || !strings.Contains(got, "flush(self, all: bool)") || strings.Count(got, "        ...\n") != 2 {
		t.Errorf("got:\n%s", got)
	}
}

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
