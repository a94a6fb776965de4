package app

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"runtime/debug"

	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/ops"
)

// fixtureDir is the repository's real source fixtures.
const fixtureDir = "../../../../testdata/src"

// copyFixtures copies the fixtures to dir, emptied first (but not
// removed: a server may be running in it).
func copyFixtures(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.CopyFS(dir, os.DirFS(fixtureDir)); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The demo's chunks for BaseProcess/start, and the file they make.
const demoChunks = `[
  {"context_before": "        self._check_closed()",
   "old_lines": ["        assert self._popen is None, 'cannot start a process twice'"],
   "new_lines": ["        if self._popen is not None:", "            raise RuntimeError('cannot start a process twice')"],
   "context_after": "        assert self._parent_pid == os.getpid(), \\"},
  {"context_before": ["        del self._target, self._args, self._kwargs"],
   "old_lines": [],
   "new_lines": ["        util.debug('started process %s', self.name)"],
   "context_after": "        _children.add(self)"}
]`

func demoResult(t *testing.T, orig string) string {
	t.Helper()
	want := strings.Replace(orig, "        self._check_closed()\n        assert self._popen is None, 'cannot start a process twice'\n",
		"        self._check_closed()\n        if self._popen is not None:\n            raise RuntimeError('cannot start a process twice')\n", 1)
	want = strings.Replace(want, "        del self._target, self._args, self._kwargs\n        _children.add(self)\n",
		"        del self._target, self._args, self._kwargs\n        util.debug('started process %s', self.name)\n        _children.add(self)\n", 1)
	if want == orig || strings.Count(want, "util.debug('started process") != 1 {
		t.Fatal("the fixture changed: process.py no longer has BaseProcess/start as the test expects")
	}
	return want
}

// serveInProcess starts the MCP server on root in this process (no
// chdir: the tests send absolute paths), with limit as --call-timeout and
// hook as its test hook, and connects a client. calls, when not nil, receives every tools/call result
// the server sends, a cancelled call's included.
func serveInProcess(t testing.TB, root string, limit time.Duration, hook func(context.Context, string), calls chan<- *mcp.CallToolResult) *mcp.ClientSession {
	t.Helper()
	w, err := ops.Open(ops.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	ts := newToolServer(w, limit)
	ts.hook = hook
	srv := newMCPServer(ts)
	if calls != nil {
		srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				res, err := next(ctx, method, req)
				if r, ok := res.(*mcp.CallToolResult); ok {
					calls <- r
				}
				return res, err
			}
		})
	}
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// resultText is the text content of a tool result.
func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// writeFuncs writes n Python files f0.py ... under dir, each with a
// function f returning 0, and returns their paths.
func writeFuncs(t testing.TB, dir string, n int) []string {
	t.Helper()
	var paths []string
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("f%d.py", i))
		if err := os.WriteFile(p, []byte("def f():\n    return 0\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// returnChunk is the chunk that makes f return i.
func returnChunk(i int) []any {
	return []any{map[string]any{"context_before": "def f():", "old_lines": []string{"    return 0"}, "new_lines": []string{fmt.Sprintf("    return %d", i)}}}
}

// TestMCPCancelledCall: the client's cancellation of a call in flight
// becomes the call's context: the operation does not run and the file is
// unchanged, the calls beside it are answered, and the server keeps
// serving.
func TestMCPCancelledCall(t *testing.T) {
	dir := t.TempDir()
	paths := writeFuncs(t, dir, 4)
	hang := paths[0]
	entered := make(chan struct{})
	calls := make(chan *mcp.CallToolResult, 16)
	var once sync.Once
	cs := serveInProcess(t, dir, time.Hour, func(ctx context.Context, tool string) {
		if tool != "chunk" {
			return
		}
		// The first chunk call hangs until its context is done.
		first := false
		once.Do(func() { first = true })
		if first {
			close(entered)
			<-ctx.Done()
		}
	}, calls)
	ctx := context.Background()
	hctx, cancel := context.WithCancel(ctx)
	hung := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(hctx, &mcp.CallToolParams{Name: "chunk", Arguments: map[string]any{"location": hang + "::f", "chunks": returnChunk(7)}})
		hung <- err
	}()
	<-entered
	for i, p := range paths[1:] {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "chunk", Arguments: map[string]any{"location": p + "::f", "chunks": returnChunk(i + 1)}})
		if err != nil || res.IsError {
			t.Fatalf("call %d beside a hung one: %v %+v", i, err, res)
		}
		<-calls
	}
	select {
	case err := <-hung:
		t.Fatalf("the hung call returned before it was cancelled: %v", err)
	default:
	}
	cancel()
	if err := <-hung; err == nil {
		t.Error("the cancelled call reported no error")
	}
	res := <-calls // the cancelled call's result, which the client no longer reads
	if !res.IsError || !strings.Contains(resultText(res), "the call was cancelled by the client; nothing was run") {
		t.Errorf("the cancelled call: %q", resultText(res))
	}
	if got := readFile(t, hang); got != "def f():\n    return 0\n" {
		t.Errorf("the cancelled call's file: %q", got)
	}
	// The server still answers.
	if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "chunk", Arguments: map[string]any{"location": hang + "::f", "chunks": returnChunk(9)}}); err != nil || res.IsError {
		t.Errorf("after the cancellation: %v %+v", err, res)
	}
}

// TestMCPCallTimeLimit: --call-timeout's limit is the call's context; a
// call it stops is answered isError, saying so, and writes nothing.
func TestMCPCallTimeLimit(t *testing.T) {
	dir := t.TempDir()
	path := writeFuncs(t, dir, 1)[0]
	// The hook waits for the call's context: with a limit of 1ns it is
	// done whatever the machine's speed.
	cs := serveInProcess(t, dir, time.Nanosecond, func(ctx context.Context, _ string) { <-ctx.Done() }, nil)
	c := callTool(t, cs, "chunk", map[string]any{"location": path + "::f", "chunks": returnChunk(1)})
	if !c.isError || !strings.Contains(c.text, "the call was stopped at the server's time limit for one call (1ns); nothing was run") ||
		get(c.data, "ok") != false || get(c.data, "error", "code") != "ERROR" {
		t.Errorf("a call past the limit: %+v", c)
	}
	if got := readFile(t, path); got != "def f():\n    return 0\n" {
		t.Errorf("the file: %q", got)
	}
}

// TestMCPConcurrentChunks: 8 chunk dry runs on 8 files are in flight at
// once (the SDK runs each tools/call in its own goroutine, and nothing in
// the server serializes them): each call, inside the handler, waits until
// all 8 are inside, which only happens if they overlap; every one
// succeeds with its own diff and writes nothing.
func TestMCPConcurrentChunks(t *testing.T) {
	const n = 8
	dir := t.TempDir()
	paths := writeFuncs(t, dir, n)
	var mu sync.Mutex
	inside, most := 0, 0
	all := make(chan struct{})
	cs := serveInProcess(t, dir, time.Hour, func(ctx context.Context, _ string) {
		mu.Lock()
		inside++
		most = max(most, inside)
		if inside == n {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all:
		case <-ctx.Done():
		case <-time.After(time.Minute): // only if the calls were serialized: the test then fails below
		}
		mu.Lock()
		inside--
		mu.Unlock()
	}, nil)
	var wg sync.WaitGroup
	results := make([]toolCall, n)
	for i, p := range paths {
		wg.Go(func() {
			results[i] = callTool(t, cs, "chunk", map[string]any{"location": p + "::f", "chunks": returnChunk(i + 1), "dry_run": true})
		})
	}
	wg.Wait()
	if most != n {
		t.Errorf("at most %d calls were in flight at once, want %d", most, n)
	}
	for i, c := range results {
		if c.isError || get(c.data, "dry_run") != true || get(c.data, "written") != false ||
			!strings.Contains(fmt.Sprint(get(c.data, "diff")), fmt.Sprintf("+    return %d\n", i+1)) {
			t.Errorf("call %d: %+v", i, c)
		}
		if got := readFile(t, paths[i]); got != "def f():\n    return 0\n" {
			t.Errorf("a dry run wrote %s: %q", paths[i], got)
		}
	}
}

// TestMCPConcurrentEditsOneFile: 12 edit calls on one file, each with
// its own anchor, all in flight at once (each waits in the handler until
// all 12 are inside): the workspace's lock per file serializes their
// read-to-commit, so every one applies and is in the file; none is lost.
func TestMCPConcurrentEditsOneFile(t *testing.T) {
	const n = 12
	dir := t.TempDir()
	path := filepath.Join(dir, "one.py")
	var src strings.Builder
	for i := range n {
		fmt.Fprintf(&src, "v_%02d = 0\n", i)
	}
	if err := os.WriteFile(path, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	inside, most := 0, 0
	all := make(chan struct{})
	cs := serveInProcess(t, dir, time.Hour, func(ctx context.Context, _ string) {
		mu.Lock()
		inside++
		most = max(most, inside)
		if inside == n {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all:
		case <-ctx.Done():
		case <-time.After(time.Minute): // only if the calls were serialized: the test then fails below
		}
		mu.Lock()
		inside--
		mu.Unlock()
	}, nil)
	results := make([]toolCall, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			results[i] = callTool(t, cs, "edit", map[string]any{"path": path, "edits": []any{
				map[string]any{"old_text": fmt.Sprintf("v_%02d = 0\n", i), "new_text": fmt.Sprintf("v_%02d = %d\n", i, i+1)}}})
		})
	}
	wg.Wait()
	if most != n {
		t.Errorf("at most %d calls were in flight at once, want %d", most, n)
	}
	got := readFile(t, path)
	for i, c := range results {
		if c.isError || get(c.data, "written") != true {
			t.Errorf("edit %d: %+v", i, c)
		}
		if line := fmt.Sprintf("v_%02d = %d\n", i, i+1); !strings.Contains(got, line) {
			t.Errorf("edit %d is not in the file", i)
		}
	}
}

// TestMCPToolSchemas: the typed tools keep the input fields the tools
// had before they moved to ops (plus expect_sha256 on the writing ones,
// expect_symbol_sha256 on those that write a located symbol, and lang,
// an enum of the language names, on every tool that reads a file's
// language) and the same required fields, and each declares an object
// output schema whose properties include the result's ok and error.
func TestMCPToolSchemas(t *testing.T) {
	want := map[string][]string{
		"symbols": {"path", "name", "kind", "lang"}, "check": {"path", "lang"}, "show": {"location", "line_numbers", "visible", "lang"},
		"chunk":         {"location", "chunks", "match", "allow_elision", "dry_run", "expect_sha256", "expect_symbol_sha256", "lang"},
		"edit":          {"path", "edits", "match", "allow_elision", "dry_run", "expect_sha256", "lang"},
		"lines":         {"path", "edits", "dry_run", "expect_sha256", "lang"},
		"replace":       {"search", "replacement", "paths", "regex", "ignore_case", "count", "expect", "partial", "dry_run", "expect_sha256", "lang"},
		"write":         {"path", "content", "dry_run", "expect_sha256", "lang"},
		"apply":         {"reply", "path", "match", "partial", "allow_elision", "dry_run", "expect_sha256", "lang"},
		"replace_body":  {"location", "text", "dry_run", "expect_sha256", "expect_symbol_sha256", "lang"},
		"insert_before": {"location", "text", "dry_run", "expect_sha256", "expect_symbol_sha256", "lang"},
		"insert_after":  {"location", "text", "dry_run", "expect_sha256", "expect_symbol_sha256", "lang"},
		"undo":          {"op_id", "last", "dry_run"},
		"journal":       {"limit"},
	}
	required := map[string][]string{
		"symbols": {"path"}, "check": {"path"}, "show": {"location"}, "chunk": {"location", "chunks"}, "edit": {"path", "edits"},
		"lines": {"path", "edits"}, "replace": {"search", "replacement", "paths"}, "write": {"path", "content"}, "apply": {"reply"},
		"replace_body": {"location", "text"}, "insert_before": {"location", "text"}, "insert_after": {"location", "text"},
	}
	cs := serveInProcess(t, t.TempDir(), time.Hour, nil, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != len(want) {
		t.Errorf("%d tools, want %d", len(res.Tools), len(want))
	}
	for _, tool := range res.Tools {
		in, _ := tool.InputSchema.(map[string]any)
		props, _ := in["properties"].(map[string]any)
		var names, req []string
		for name := range props {
			names = append(names, name)
		}
		rs, _ := in["required"].([]any) // undo and journal require nothing
		for _, r := range rs {
			req = append(req, r.(string))
		}
		slices.Sort(names)
		slices.Sort(req)
		w, r := slices.Sorted(slices.Values(want[tool.Name])), slices.Sorted(slices.Values(required[tool.Name]))
		if !slices.Equal(names, w) || !slices.Equal(req, r) {
			t.Errorf("%s: input fields %v (required %v), want %v (required %v)", tool.Name, names, req, w, r)
		}
		if l, ok := props["lang"].(map[string]any); ok {
			enum, _ := l["enum"].([]any)
			var got []string
			for _, e := range enum {
				got = append(got, fmt.Sprint(e))
			}
			if !slices.Equal(got, lang.Default().Names()) || l["description"] == "" {
				t.Errorf("%s: lang enum %v, want the language names %v, with a description", tool.Name, got, lang.Default().Names())
			}
		}
		out, _ := tool.OutputSchema.(map[string]any)
		outProps, _ := out["properties"].(map[string]any)
		if out["type"] != "object" || outProps["ok"] == nil || outProps["error"] == nil {
			t.Errorf("%s: output schema %v", tool.Name, tool.OutputSchema)
		}
	}
}

// BenchmarkMCPChunkDryRuns compares 8 chunk dry runs on 8 files sent one
// after the other with the same 8 sent at once, through the SDK's client
// and an in-process server (reported, not asserted: sent at once they
// should take clearly less time on a machine with several cores, which a
// shared test machine cannot promise).
func BenchmarkMCPChunkDryRuns(b *testing.B) {
	const n = 8
	dir := b.TempDir()
	// A realistic symbol: the fixture's process.py, one copy per call.
	src, err := os.ReadFile(filepath.Join(fixtureDir, "python/process.py"))
	if err != nil {
		b.Fatal(err)
	}
	var chunks any
	if err := json.Unmarshal([]byte(demoChunks), &chunks); err != nil {
		b.Fatal(err)
	}
	var paths []string
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("p%d.py", i))
		if err := os.WriteFile(p, src, 0o644); err != nil {
			b.Fatal(err)
		}
		paths = append(paths, p)
	}
	cs := serveInProcess(b, dir, time.Hour, nil, nil)
	call := func(p string) {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "chunk",
			Arguments: map[string]any{"location": p + "::BaseProcess/start", "chunks": chunks, "dry_run": true}})
		if err != nil || res.IsError {
			b.Errorf("%s: %v %s", p, err, resultText(res))
		}
	}
	b.Run("sequential", func(b *testing.B) {
		for b.Loop() {
			for _, p := range paths {
				call(p)
			}
		}
	})
	b.Run("concurrent", func(b *testing.B) {
		for b.Loop() {
			var wg sync.WaitGroup
			for _, p := range paths {
				wg.Go(func() { call(p) })
			}
			wg.Wait()
		}
	})
}

// TestMCPTextIsCLIText: a typed tool's text content is what the same
// command prints without --json (both streams, in order), for a result
// and for a refusal.
func TestMCPTextIsCLIText(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "src")
	copyFixtures(t, dir)
	start := filepath.Join(dir, "python/process.py") + "::BaseProcess/start"
	run := filepath.Join(dir, "python/process.py") + "::BaseProcess/run"
	atomic := filepath.Join(dir, "go/atomic_type.go")
	applyOK := filepath.Join(dir, "python/process.py") + "\n<<<<<<< SEARCH\n        _cleanup()\n=======\n        _cleanup()  # first\n>>>>>>> REPLACE\n"
	applyBad := "Prose first.\n\n" + filepath.Join(dir, "python/process.py") + "\n<<<<<<< SEARCH\n        _cleanup(now)\n=======\n        pass\n>>>>>>> REPLACE\n"
	stale := `[{"context_before": "        self._check_close()", "old_lines": [], "new_lines": ["        pass"]}]`
	broken := `[{"context_before": "        self._check_closed()", "old_lines": ["        assert self._popen is None, 'cannot start a process twice'"], "new_lines": ["        if self._popen is not None"], "context_after": "        assert self._parent_pid == os.getpid(), \\"}]`
	rbDup := filepath.Join(dir, "ruby/ostruct.rb") + "::OpenStruct/initialize_dup"
	phpArea := filepath.Join(dir, "php/shapes.php") + "::Circle/area"
	cs := serveInProcess(t, dir, time.Hour, nil, nil)
	for _, tt := range []struct {
		name   string
		tool   string
		args   map[string]any // the tool's arguments but for the JSON argument
		jsonIn string         // the JSON argument: the CLI's standard input
		key    string         // the JSON argument's field
		cli    []string       // the command line, "-" reading jsonIn
		code   int
		words  []string // the CLI's remedy lines and the tool's
	}{
		{"chunk", "chunk", map[string]any{"location": start}, demoChunks, "chunks", []string{"chunk", start, "-"}, 0, nil},
		{"chunk dry run", "chunk", map[string]any{"location": start, "dry_run": true}, demoChunks, "chunks", []string{"chunk", "--dry-run", start, "-"}, 0, nil},
		{"chunk stale", "chunk", map[string]any{"location": start}, stale, "chunks", []string{"chunk", start, "-"}, 1, nil},
		{"chunk syntax dry run", "chunk", map[string]any{"location": start, "dry_run": true}, broken, "chunks", []string{"chunk", "--dry-run", start, "-"}, 1,
			[]string{"to write it anyway, with a warning, rerun with --check warn", "the MCP tools write only content the syntax guard checked and accepts: correct the text and call again"}},
		{"chunk no symbol", "chunk", map[string]any{"location": start + "x"}, demoChunks, "chunks", []string{"chunk", start + "x", "-"}, 1, nil},
		{"replace_body", "replace_body", map[string]any{"location": run}, "def run(self):\n    pass\n", "text", []string{"replace-body", run, "-"}, 0, nil},
		{"insert_after dry run", "insert_after", map[string]any{"location": start, "dry_run": true}, "def started(self):\n    return True\n", "text",
			[]string{"insert-after", "--dry-run", start, "-"}, 0, nil},
		{"insert_before no symbol", "insert_before", map[string]any{"location": run + "x"}, "def f():\n    pass\n", "text", []string{"insert-before", run + "x", "-"}, 1, nil},
		{"show", "show", map[string]any{"location": start}, "", "", []string{"show", start}, 0, nil},
		{"show numbered", "show", map[string]any{"location": start, "line_numbers": true}, "", "", []string{"show", "-n", start}, 0, nil},
		{"show no symbol", "show", map[string]any{"location": start + "x"}, "", "", []string{"show", start + "x"}, 1, nil},
		{"check", "check", map[string]any{"path": filepath.Join(dir, "go")}, "", "", []string{"check", filepath.Join(dir, "go")}, 0, nil},
		{"check no file", "check", map[string]any{"path": filepath.Join(dir, "nosuch.py")}, "", "", []string{"check", filepath.Join(dir, "nosuch.py")}, 2, nil},
		{"edit", "edit", map[string]any{"path": atomic}, `[{"old_text": "return 0\n", "new_text": "return 2 - 2\n"}]`, "edits", []string{"edit", atomic, "-"}, 0, nil},
		{"edit dry run", "edit", map[string]any{"path": atomic, "dry_run": true}, `[{"old_text": "return 0\n", "new_text": "return 2 - 2\n"}]`, "edits", []string{"edit", "--dry-run", atomic, "-"}, 0, nil},
		{"edit no match", "edit", map[string]any{"path": atomic}, `[{"old_text": "retrun 0", "new_text": "x"}]`, "edits", []string{"edit", atomic, "-"}, 1,
			nil},
		{"lines dry run", "lines", map[string]any{"path": atomic, "dry_run": true}, `[{"insert_after": 0, "new_content": "// header"}]`, "edits", []string{"lines", "--dry-run", atomic, "-"}, 0, nil},
		{"lines out of range", "lines", map[string]any{"path": atomic}, `[{"start_line": 9000, "end_line": 9000, "new_content": ""}]`, "edits", []string{"lines", atomic, "-"}, 1, nil},
		{"write dry run", "write", map[string]any{"path": filepath.Join(dir, "python/new.py"), "dry_run": true}, "x = 1\n", "content", []string{"write", "--dry-run", filepath.Join(dir, "python/new.py")}, 0, nil},
		{"write", "write", map[string]any{"path": filepath.Join(dir, "python/new.py")}, "x = 1\n", "content", []string{"write", filepath.Join(dir, "python/new.py")}, 0, nil},
		{"symbols", "symbols", map[string]any{"path": filepath.Join(dir, "python/process.py")}, "", "", []string{"symbols", filepath.Join(dir, "python/process.py")}, 0, nil},
		{"symbols glob", "symbols", map[string]any{"path": filepath.Join(dir, "go/*.go")}, "", "", []string{"symbols", filepath.Join(dir, "go/*.go")}, 0, nil},
		{"symbols no file", "symbols", map[string]any{"path": filepath.Join(dir, "nosuch.py")}, "", "", []string{"symbols", filepath.Join(dir, "nosuch.py")}, 2, nil},
		{"apply", "apply", map[string]any{}, applyOK, "reply", []string{"apply", "--root", dir, "-"}, 0, nil},
		{"apply dry run", "apply", map[string]any{"dry_run": true}, applyOK, "reply", []string{"apply", "--root", dir, "--dry-run", "-"}, 0, nil},
		{"apply fails", "apply", map[string]any{}, applyBad, "reply", []string{"apply", "--root", dir, "-"}, 1, nil},
		{"replace", "replace", map[string]any{"search": "b32(", "replacement": "toU32(", "paths": []string{atomic}}, "", "", []string{"replace", "b32(", "toU32(", atomic}, 0, nil},
		{"replace dry run", "replace", map[string]any{"search": "RETURN 0", "replacement": "return 00", "ignore_case": true, "dry_run": true,
			"paths": []string{atomic, filepath.Join(dir, "go/slog_value.go")}}, "", "",
			[]string{"replace", "--dry-run", "-i", "RETURN 0", "return 00", atomic, filepath.Join(dir, "go/slog_value.go")}, 0, nil},
		{"replace no match", "replace", map[string]any{"search": "b33(", "replacement": "x(", "paths": []string{atomic}}, "", "", []string{"replace", "b33(", "x(", atomic}, 1, nil},
		{"replace one file refused", "replace", map[string]any{"search": "#", "replacement": "// ", "paths": []string{filepath.Join(dir, "go"), filepath.Join(dir, "typescript")}}, "", "",
			[]string{"replace", "#", "// ", filepath.Join(dir, "go"), filepath.Join(dir, "typescript")}, 1,
			[]string{"to write the files that pass, rerun with --partial", `to write the files that pass, call again with "partial": true`,
				"to write it anyway, with a warning, rerun with --check warn", "the MCP tools write only content the syntax guard checked and accepts: correct the text and call again"}},
		{"replace_body syntax", "replace_body", map[string]any{"location": run}, "def run(self:\n    pass\n", "text", []string{"replace-body", run, "-"}, 1,
			[]string{"to write it anyway, with a warning, rerun with --check warn", "the MCP tools write only content the syntax guard checked and accepts: correct the text and call again"}},
		{"show ruby", "show", map[string]any{"location": rbDup}, "", "", []string{"show", rbDup}, 0, nil},
		{"replace_body ruby", "replace_body", map[string]any{"location": rbDup}, "def initialize_dup(orig)\n  super\nend\n", "text",
			[]string{"replace-body", rbDup, "-"}, 0, nil},
		{"replace_body ruby stray end", "replace_body", map[string]any{"location": rbDup}, "def initialize_dup(orig)\n  super\nend\nend\n", "text",
			[]string{"replace-body", rbDup, "-"}, 1,
			[]string{"to write it anyway, with a warning, rerun with --check warn", "the MCP tools write only content the syntax guard checked and accepts: correct the text and call again"}},
		{"replace_body php", "replace_body", map[string]any{"location": phpArea}, "function area(): float\n{\n    return 3.0;\n}\n", "text",
			[]string{"replace-body", phpArea, "-"}, 0, nil},
		{"replace_body php syntax", "replace_body", map[string]any{"location": phpArea}, "function area(): float\n{\n    return 3.0\n}\n", "text",
			[]string{"replace-body", phpArea, "-"}, 1,
			[]string{"to write it anyway, with a warning, rerun with --check warn", "the MCP tools write only content the syntax guard checked and accepts: correct the text and call again"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			copyFixtures(t, dir)
			var text bytes.Buffer
			if code := Main(append([]string{"symedit"}, tt.cli...), strings.NewReader(tt.jsonIn), &text, &text); code != tt.code {
				t.Fatalf("CLI: exit %d, want %d\n%s", code, tt.code, text.String())
			}
			copyFixtures(t, dir)
			switch tt.key {
			case "":
			case "text", "content", "reply": // sent as is
				tt.args[tt.key] = tt.jsonIn
			default:
				var v any
				if err := json.Unmarshal([]byte(tt.jsonIn), &v); err != nil {
					t.Fatal(err)
				}
				tt.args[tt.key] = v
			}
			c := callTool(t, cs, tt.tool, tt.args)
			if c.isError != (tt.code != 0) {
				t.Errorf("isError %v, want %v", c.isError, tt.code != 0)
			}
			// The CLI adds a pointer to --help after a usage error only.
			want := strings.TrimSuffix(text.String(), "run 'symedit --help' or 'symedit COMMAND --help' for usage\n")
			if len(tt.words) > 0 {
				want = strings.NewReplacer(tt.words...).Replace(want)
			}
			if c.text != want {
				t.Errorf("text content:\n%s\nwant what the CLI prints:\n%s", c.text, want)
			}
			if c.data == nil || get(c.data, "ok") != (tt.code == 0) {
				t.Errorf("structured content %v", c.data)
			}
		})
	}
}

// TestMCPCommandRefuses checks the command line of `symedit mcp` (before it
// serves anything, so in-process).
func TestMCPCommandRefuses(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "--root", filepath.Join(t.TempDir(), "nosuch")}, "cannot use as root"},
		{[]string{"mcp", "extra"}, "mcp: want no arguments, got 1 argument(s)"},
		{[]string{"mcp", "--call-timeout", "0s"}, "--call-timeout 0s: want a positive duration"},
	} {
		var out, errb bytes.Buffer
		code := Main(append([]string{"symedit"}, tt.args...), strings.NewReader(""), &out, &errb)
		if code != ExitError || !strings.Contains(errb.String(), tt.want) || out.Len() != 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tt.args, code, out.String(), errb.String(), tt.want)
		}
	}
}

// The end-to-end tests build the binary and talk to `symedit mcp` with the
// SDK's client.

// buildSymedit builds the symedit command into a temporary folder.
func buildSymedit(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "symedit")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/symedit/symedit/cmd/symedit")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// connect starts `bin mcp args...` in dir and connects a client to it.
func connect(t *testing.T, bin, dir string, args ...string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"mcp"}, args...)...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "symedit-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting to symedit mcp: %v", err)
	}
	t.Cleanup(func() {
		if err := cs.Close(); err != nil {
			t.Errorf("closing the session: %v", err)
		}
	})
	return cs
}

// toolCall is a tool's result as a client sees it.
type toolCall struct {
	text    string
	data    map[string]any // the structured content
	isError bool
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) toolCall {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var c toolCall
	c.isError = res.IsError
	for _, content := range res.Content {
		if tc, ok := content.(*mcp.TextContent); ok {
			c.text += tc.Text
		}
	}
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &c.data); err != nil {
			t.Fatalf("%s: structured content %s: %v", name, b, err)
		}
	}
	return c
}

// get follows keys (object keys, or array indexes as ints) into v.
func get(v any, keys ...any) any {
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			a, _ := v.([]any)
			if k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

func TestMCP(t *testing.T) {
	bin := buildSymedit(t)
	base := t.TempDir()
	root := filepath.Join(base, "root")
	copyFixtures(t, root)
	// The server starts outside the root: relative paths are the root's.
	cs := connect(t, bin, base, "--root", root)
	process := filepath.Join(root, "python/process.py")
	start := "python/process.py::BaseProcess/start"

	t.Run("version", func(t *testing.T) {
		out, err := exec.Command(bin, "version").Output()
		if err != nil {
			t.Fatal(err)
		}
		want := strings.TrimSuffix(strings.TrimPrefix(string(out), "symedit "), "\n")
		if got := cs.InitializeResult().ServerInfo.Version; got != want || want == "" {
			t.Errorf("serverInfo.version %q, want %q as symedit version prints", got, want)
		}
	})

	t.Run("tools", func(t *testing.T) {
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
			a := tool.Annotations
			if a == nil {
				t.Errorf("%s: no annotations", tool.Name)
				continue
			}
			readOnly := tool.Name == "symbols" || tool.Name == "show" || tool.Name == "check" || tool.Name == "journal"
			if a.ReadOnlyHint != readOnly {
				t.Errorf("%s: readOnlyHint %v", tool.Name, a.ReadOnlyHint)
			}
			if !readOnly && (a.DestructiveHint == nil || !*a.DestructiveHint) {
				t.Errorf("%s writes files but is not annotated destructive", tool.Name)
			}
			if tool.Description == "" {
				t.Errorf("%s: no description", tool.Name)
			}
			checkDescriptions(t, tool.Name, tool.InputSchema)
			// Every tool declares the schema of its structured content,
			// the ops result type's.
			if out, _ := tool.OutputSchema.(map[string]any); out["type"] != "object" || out["properties"] == nil {
				t.Errorf("%s: output schema %v", tool.Name, tool.OutputSchema)
			}
		}
		want := []string{"apply", "check", "chunk", "edit", "insert_after", "insert_before", "journal", "lines", "replace", "replace_body", "show", "symbols", "undo", "write"}
		slices.Sort(names)
		if !slices.Equal(names, want) {
			t.Errorf("tools %v, want %v", names, want)
		}
	})

	t.Run("show", func(t *testing.T) {
		c := callTool(t, cs, "show", map[string]any{"location": start})
		if c.isError || get(c.data, "first_line") != 116.0 || get(c.data, "last_line") != 132.0 {
			t.Fatalf("show: %+v", c)
		}
		if !strings.HasPrefix(c.text, "    def start(self):\n") || c.text != get(c.data, "text") {
			t.Errorf("show text %q", c.text)
		}
		c = callTool(t, cs, "show", map[string]any{"location": "python/process.py:120:9", "line_numbers": true})
		if c.isError || !strings.Contains(c.text, "120          self._check_closed()\n") {
			t.Errorf("show by position, numbered: %+v", c)
		}
	})

	t.Run("chunk stale context, then fixed", func(t *testing.T) {
		copyFixtures(t, root)
		orig := readFile(t, process)
		var chunks []map[string]any
		if err := json.Unmarshal([]byte(demoChunks), &chunks); err != nil {
			t.Fatal(err)
		}
		chunks[0]["context_before"] = "        self._check_close()" // stale: the real line is _check_closed
		c := callTool(t, cs, "chunk", map[string]any{"location": start, "chunks": chunks})
		if !c.isError {
			t.Fatalf("a stale context line was accepted: %+v", c)
		}
		if !strings.Contains(c.text, "chunk 1 failed context_before") || !strings.Contains(c.text, "120:         self._check_closed()") {
			t.Errorf("the text does not show the nearest real line:\n%s", c.text)
		}
		if get(c.data, "ok") != false || get(c.data, "error", "code") != "NO_MATCH" || get(c.data, "error", "check") != "context_before" ||
			get(c.data, "error", "nearest", 0, "line") != 120.0 || get(c.data, "error", "nearest", 0, "text") != "        self._check_closed()" {
			t.Errorf("structured error: %v", c.data["error"])
		}
		if readFile(t, process) != orig {
			t.Fatal("a rejected chunk changed the file")
		}
		chunks[0]["context_before"] = "        self._check_closed()"
		c = callTool(t, cs, "chunk", map[string]any{"location": start, "chunks": chunks})
		if c.isError || get(c.data, "ok") != true || get(c.data, "chunks_applied") != 2.0 {
			t.Fatalf("the fixed chunk: %+v", c)
		}
		if !strings.Contains(c.text, "applied 2 chunk(s) to BaseProcess/start (method, lines 116-132)") {
			t.Errorf("text %q", c.text)
		}
		if got := readFile(t, process); got != demoResult(t, orig) {
			t.Errorf("process.py after the chunk:\n%s", got)
		}
	})

	t.Run("chunk sent flush-left, match indent", func(t *testing.T) {
		copyFixtures(t, root)
		orig := readFile(t, process)
		chunks := []any{map[string]any{
			"context_before": "self._check_closed()",
			"old_lines":      []string{"assert self._popen is None, 'cannot start a process twice'"},
			"new_lines":      []string{"if self._popen is not None:", "    raise RuntimeError('cannot start a process twice')"},
			"context_after":  "assert self._parent_pid == os.getpid(), \\",
		}}
		c := callTool(t, cs, "chunk", map[string]any{"location": start, "chunks": chunks})
		// The refusal names the tool's field, not the CLI flag; the remedy
		// is data.
		if !c.isError || !strings.Contains(c.text, `to accept that match, call again with "match": "indent"`) ||
			strings.Contains(c.text, "--match") || get(c.data, "error", "remedy", 0, "option") != "match" ||
			get(c.data, "error", "remedy", 0, "value") != "indent" || get(c.data, "error", "hint", "level") != "indent" {
			t.Fatalf("a flush-left chunk without match indent: %+v", c)
		}
		if readFile(t, process) != orig {
			t.Fatal("a rejected chunk changed the file")
		}
		c = callTool(t, cs, "chunk", map[string]any{"location": start, "chunks": chunks, "match": "indent"})
		if c.isError || get(c.data, "placements", 0, "match") != "indent" {
			t.Fatalf("match indent: %+v", c)
		}
		want := strings.Replace(orig, "        assert self._popen is None, 'cannot start a process twice'\n",
			"        if self._popen is not None:\n            raise RuntimeError('cannot start a process twice')\n", 1)
		if got := readFile(t, process); got != want {
			t.Errorf("process.py after the chunk:\n%s", got)
		}
	})

	t.Run("dry run writes nothing", func(t *testing.T) {
		copyFixtures(t, root)
		orig := readFile(t, process)
		var chunks any
		if err := json.Unmarshal([]byte(demoChunks), &chunks); err != nil {
			t.Fatal(err)
		}
		c := callTool(t, cs, "chunk", map[string]any{"location": start, "chunks": chunks, "dry_run": true})
		if c.isError || get(c.data, "dry_run") != true || get(c.data, "written") != false {
			t.Fatalf("dry run: %+v", c)
		}
		if !strings.Contains(c.text, "+            raise RuntimeError('cannot start a process twice')") {
			t.Errorf("the dry run's text has no diff:\n%s", c.text)
		}
		for _, tool := range []struct {
			name string
			args map[string]any
		}{
			{"write", map[string]any{"path": "python/process.py", "content": "x = 1\n"}},
			{"replace", map[string]any{"search": "self", "replacement": "me", "paths": []string{"python/process.py"}}},
			{"replace_body", map[string]any{"location": start, "text": "def start(self):\n    pass\n"}},
		} {
			tool.args["dry_run"] = true
			if c := callTool(t, cs, tool.name, tool.args); c.isError || get(c.data, "dry_run") != true {
				t.Errorf("%s dry run: %+v", tool.name, c)
			}
		}
		if readFile(t, process) != orig {
			t.Error("a dry run changed the file")
		}
	})

	t.Run("outside the root", func(t *testing.T) {
		copyFixtures(t, root)
		outside := filepath.Join(base, "outside.py")
		const content = "def f():\n    return 0\n"
		if err := os.WriteFile(outside, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, tool := range []struct {
			name string
			args map[string]any
		}{
			{"write", map[string]any{"path": "../outside.py", "content": "x = 1\n"}},
			{"write", map[string]any{"path": outside, "content": "x = 1\n"}},
			{"chunk", map[string]any{"location": "../outside.py::f", "chunks": []any{map[string]any{"context_before": "def f():", "old_lines": []string{"    return 0"}, "new_lines": []string{"    return 1"}}}}},
			{"edit", map[string]any{"path": "python/../../outside.py", "edits": []any{map[string]any{"old_text": "0", "new_text": "1"}}}},
			{"show", map[string]any{"location": outside + ":1"}},
			// Confinement comes first: not UNSUPPORTED_LANGUAGE, which would
			// hide that the path is outside the root.
			{"show", map[string]any{"location": "/etc/passwd:1"}},
			{"check", map[string]any{"path": "/etc/passwd"}},
			{"symbols", map[string]any{"path": "../outside.py"}},
		} {
			c := callTool(t, cs, tool.name, tool.args)
			if !c.isError || !strings.Contains(c.text, "outside the root") {
				t.Errorf("%s %v: not refused: %+v", tool.name, tool.args, c)
			}
			if code := get(c.data, "error", "code"); tool.name != "symbols" && code != "OUTSIDE_ROOT" {
				t.Errorf("%s: structured error %v", tool.name, c.data["error"])
			}
		}
		if c := callTool(t, cs, "symbols", map[string]any{"path": "../*.py"}); !c.isError {
			t.Errorf("a glob reached outside the root: %+v", c)
		}
		if readFile(t, outside) != content {
			t.Error("the file outside the root changed")
		}
	})

	t.Run("concurrent calls", func(t *testing.T) {
		const n = 8
		var wg sync.WaitGroup
		for i := range n {
			rel := fmt.Sprintf("conc/f%d.py", i)
			if err := os.MkdirAll(filepath.Join(root, "conc"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, rel), []byte("def f():\n    return 0\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			wg.Go(func() {
				chunks := []any{map[string]any{"context_before": "def f():", "old_lines": []string{"    return 0"}, "new_lines": []string{fmt.Sprintf("    return %d", i)}}}
				if c := callTool(t, cs, "chunk", map[string]any{"location": rel + "::f", "chunks": chunks}); c.isError {
					t.Errorf("%s: %s", rel, c.text)
				}
			})
		}
		wg.Wait()
		for i := range n {
			path := filepath.Join(root, fmt.Sprintf("conc/f%d.py", i))
			if got, want := readFile(t, path), fmt.Sprintf("def f():\n    return %d\n", i); got != want {
				t.Errorf("%s = %q, want %q", path, got, want)
			}
		}
	})

	t.Run("concurrent edits of one file", func(t *testing.T) {
		// 12 edit calls at once on one file, each with its own anchor:
		// each applies or is refused (isError), and none reported
		// applied is lost.
		const n = 12
		rel := "conc/one.py"
		var src strings.Builder
		for i := range n {
			fmt.Fprintf(&src, "v_%02d = 0\n", i)
		}
		if err := os.MkdirAll(filepath.Join(root, "conc"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, rel), []byte(src.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		results := make([]toolCall, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				results[i] = callTool(t, cs, "edit", map[string]any{"path": rel, "edits": []any{
					map[string]any{"old_text": fmt.Sprintf("v_%02d = 0\n", i), "new_text": fmt.Sprintf("v_%02d = %d\n", i, i+1)}}})
			})
		}
		wg.Wait()
		got := readFile(t, filepath.Join(root, rel))
		applied := 0
		for i, c := range results {
			line := fmt.Sprintf("v_%02d = %d\n", i, i+1)
			switch {
			case !c.isError:
				applied++
				if !strings.Contains(got, line) {
					t.Errorf("edit %d was reported applied and is not in the file: %s", i, c.text)
				}
			case strings.Contains(got, line):
				t.Errorf("edit %d was refused and is in the file: %s", i, c.text)
			}
		}
		if applied == 0 {
			t.Error("no edit applied")
		}
		t.Logf("%d of %d concurrent edits applied", applied, n)
	})

	t.Run("every tool", func(t *testing.T) {
		copyFixtures(t, root)
		atomic := filepath.Join(root, "go/atomic_type.go")
		origGo, origPy := readFile(t, atomic), readFile(t, process)

		c := callTool(t, cs, "symbols", map[string]any{"path": "go/*.go"})
		if c.isError || len(get(c.data, "files").([]any)) != 2 || !strings.Contains(c.text, "go/atomic_type.go:20:1: method Bool/Load (to 20:60)\n") {
			t.Errorf("symbols glob: %+v", c)
		}
		c = callTool(t, cs, "symbols", map[string]any{"path": "python/process.py"})
		if c.isError || get(c.data, "files", 0, "symbols", 0, "name_path") != "current_process" {
			t.Errorf("symbols: %+v", c)
		}

		c = callTool(t, cs, "edit", map[string]any{"path": "go/atomic_type.go", "edits": []any{
			map[string]any{"old_text": "func b32(b bool) uint32 {", "new_text": "func b32(b bool) uint32 { // 0 or 1"}}})
		if c.isError || get(c.data, "ok") != true || get(c.data, "total_replacements") != 1.0 {
			t.Errorf("edit: %+v", c)
		}
		c = callTool(t, cs, "lines", map[string]any{"path": "go/atomic_type.go", "edits": []any{
			map[string]any{"insert_after": 0, "new_content": "// Edited."}}})
		if c.isError {
			t.Errorf("lines: %+v", c)
		}
		c = callTool(t, cs, "replace", map[string]any{"search": `b32\((\w+)\)`, "replacement": "toU32($1)", "regex": true,
			"paths": []string{"go/atomic_type.go"}, "expect": 4})
		if c.isError || get(c.data, "total_replacements") != 4.0 {
			t.Errorf("replace: %+v", c)
		}
		want := "// Edited.\n" + strings.Replace(origGo, "func b32(b bool) uint32 {", "func b32(b bool) uint32 { // 0 or 1", 1)
		for _, arg := range []string{"val", "new", "old", "new"} {
			want = strings.Replace(want, "b32("+arg+")", "toU32("+arg+")", 1)
		}
		if got := readFile(t, atomic); got != want {
			t.Errorf("atomic_type.go after edit, lines and replace:\n%s", got)
		}

		c = callTool(t, cs, "replace_body", map[string]any{"location": "python/process.py::BaseProcess/run",
			"text": "def run(self):\n    '''Run.'''\n    pass\n"})
		if c.isError || !strings.Contains(c.text, "text indented by 4 spaces") {
			t.Errorf("replace_body: %+v", c)
		}
		c = callTool(t, cs, "insert_after", map[string]any{"location": "python/process.py::BaseProcess/run",
			"text": "def started(self):\n    return self._popen is not None\n"})
		if c.isError {
			t.Errorf("insert_after: %+v", c)
		}
		c = callTool(t, cs, "insert_before", map[string]any{"location": "python/process.py::current_process",
			"text": "def first():\n    pass\n"})
		if c.isError {
			t.Errorf("insert_before: %+v", c)
		}
		got := readFile(t, process)
		for _, s := range []string{
			"    def run(self):\n        '''Run.'''\n        pass\n\n    def started(self):\n        return self._popen is not None\n\n    def start(self):\n",
			"def first():\n    pass\n\n\n",
		} {
			if !strings.Contains(got, s) {
				t.Errorf("process.py does not contain %q", s)
			}
		}
		if got == origPy {
			t.Error("process.py unchanged")
		}

		c = callTool(t, cs, "write", map[string]any{"path": "new/hello.py", "content": "print('hello')\n"})
		if c.isError || readFile(t, filepath.Join(root, "new/hello.py")) != "print('hello')\n" {
			t.Errorf("write: %+v", c)
		}
		c = callTool(t, cs, "write", map[string]any{"path": "new/bad.py", "content": "def (:\n"})
		if !c.isError || get(c.data, "error", "code") != "SYNTAX" || strings.Contains(c.text, "--check") ||
			strings.Contains(get(c.data, "error", "message").(string), "--check") || !strings.Contains(c.text, "correct the text and call again") {
			t.Errorf("write with a syntax error: %+v", c)
		}
		c = callTool(t, cs, "edit", map[string]any{"path": "go/atomic_type.go", "edits": []any{
			map[string]any{"old_text": "func b32(b bool) uint64 {", "new_text": "x"}}})
		if !c.isError || strings.Contains(c.text, "symedit show -n") || !strings.Contains(c.text, "Read the file again and copy old_text exactly") {
			t.Errorf("edit NO_MATCH names a CLI command: %+v", c)
		}
		// A replace that refuses a file names the partial field.
		c = callTool(t, cs, "replace", map[string]any{"search": "#", "replacement": "// ", "paths": []string{"typescript/scheduler.ts", "go/atomic_type.go"}})
		if !c.isError || strings.Contains(c.text, "--partial") || !strings.Contains(c.text, `to write the files that pass, call again with "partial": true`) ||
			get(c.data, "files", 0, "status") != "refused" {
			t.Errorf("replace refused: %+v", c)
		}
		// An empty write creates the empty file.
		c = callTool(t, cs, "write", map[string]any{"path": "new/empty.py", "content": ""})
		if info, err := os.Stat(filepath.Join(root, "new/empty.py")); c.isError || err != nil || info.Size() != 0 || get(c.data, "written") != true {
			t.Errorf("an empty write: %+v, %v", c, err)
		}
		// A location copied from compiler output, trailing colon included.
		if c := callTool(t, cs, "show", map[string]any{"location": "go/slog_value.go:111:2:"}); c.isError || !strings.HasPrefix(c.text, "func StringValue(value string) Value {") {
			t.Errorf("show FILE:LINE:COL: %+v", c)
		}
		if _, err := os.Stat(filepath.Join(root, "new/bad.py")); err == nil {
			t.Error("a refused write created the file")
		}
	})

	t.Run("check", func(t *testing.T) {
		copyFixtures(t, root)
		if c := callTool(t, cs, "check", map[string]any{"path": "python/process.py"}); c.isError {
			t.Fatalf("check on a clean file: %+v", c)
		}
		broken := filepath.Join(root, "python", "broken.py")
		if err := os.WriteFile(broken, []byte("def f(:\n    pass\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(broken)
		c := callTool(t, cs, "check", map[string]any{"path": "python/broken.py"})
		if !c.isError || !strings.Contains(c.text, "broken.py:1:") {
			t.Fatalf("check on a broken file: %+v", c)
		}
	})

	t.Run("apply", func(t *testing.T) {
		copyFixtures(t, root)
		atomic := filepath.Join(root, "go/atomic_type.go")
		origGo, origPy := readFile(t, atomic), readFile(t, process)
		reply := "Two changes:\n\ngo/atomic_type.go\n<<<<<<< SEARCH\n// b32 returns a uint32 0 or 1 representing b.\n=======\n" +
			"// b32 returns 1 for true and 0 for false.\n>>>>>>> REPLACE\n\npython/process.py\n<<<<<<< SEARCH\n" +
			"    def _check_closed(self):\n=======\n    def _check_closed(self):  # raises if closed\n>>>>>>> REPLACE\n"
		c := callTool(t, cs, "apply", map[string]any{"reply": strings.Replace(reply, "0 or 1", "0 or one", 1)})
		if !c.isError || get(c.data, "ok") != false || readFile(t, atomic) != origGo || readFile(t, process) != origPy {
			t.Fatalf("a reply with a bad block: %+v", c)
		}
		c = callTool(t, cs, "apply", map[string]any{"reply": reply})
		if c.isError || get(c.data, "ok") != true {
			t.Fatalf("apply: %+v", c)
		}
		if got, want := readFile(t, atomic), strings.Replace(origGo, "// b32 returns a uint32 0 or 1 representing b.", "// b32 returns 1 for true and 0 for false.", 1); got != want {
			t.Errorf("atomic_type.go after apply:\n%s", got)
		}
		if got, want := readFile(t, process), strings.Replace(origPy, "def _check_closed(self):", "def _check_closed(self):  # raises if closed", 1); got != want {
			t.Errorf("process.py after apply:\n%s", got)
		}
	})

	t.Run("apply with path", func(t *testing.T) {
		// A unified diff that names no file, and the path field that names
		// it; a path outside the root is refused and nothing is written.
		copyFixtures(t, root)
		atomic := filepath.Join(root, "go/atomic_type.go")
		orig := readFile(t, atomic)
		reply := "<<<<<<< SEARCH\n// b32 returns a uint32 0 or 1 representing b.\n=======\n// b32 returns 1 for true and 0 for false.\n>>>>>>> REPLACE\n"
		c := callTool(t, cs, "apply", map[string]any{"reply": reply, "path": "../outside.go"})
		if !c.isError || readFile(t, atomic) != orig {
			t.Fatalf("a path outside the root: %+v", c)
		}
		if _, err := os.Stat(filepath.Join(base, "outside.go")); !os.IsNotExist(err) {
			t.Fatalf("outside.go exists after a refused apply: %v", err)
		}
		c = callTool(t, cs, "apply", map[string]any{"reply": reply, "path": "go/atomic_type.go"})
		if c.isError || get(c.data, "ok") != true {
			t.Fatalf("apply with path: %+v", c)
		}
		if got, want := readFile(t, atomic), strings.Replace(orig, "// b32 returns a uint32 0 or 1 representing b.", "// b32 returns 1 for true and 0 for false.", 1); got != want {
			t.Errorf("atomic_type.go after apply with path:\n%s", got)
		}
	})

	t.Run("bad input", func(t *testing.T) {
		c := callTool(t, cs, "chunk", map[string]any{"location": start, "chunks": []any{map[string]any{"old_lines": []string{}}}})
		if !c.isError {
			t.Errorf("a chunk without new_lines was accepted: %+v", c)
		}
		c = callTool(t, cs, "show", map[string]any{"location": "python/process.py"})
		if !c.isError || !strings.Contains(c.text, "invalid location") {
			t.Errorf("a location without a symbol: %+v", c)
		}
	})
}

// TestMCPDefaultRoot starts the server with no --root: the working
// directory is the root.
func TestMCPDefaultRoot(t *testing.T) {
	bin := buildSymedit(t)
	base := t.TempDir()
	root := filepath.Join(base, "root")
	copyFixtures(t, root)
	cs := connect(t, bin, root)
	c := callTool(t, cs, "show", map[string]any{"location": "go/atomic_type.go::Bool/Load"})
	if c.isError || c.text != "func (x *Bool) Load() bool { return LoadUint32(&x.v) != 0 }\n" || get(c.data, "path") != "go/atomic_type.go" {
		t.Errorf("show: %+v", c)
	}
	abs, err := filepath.Abs(filepath.Join(fixtureDir, "go/atomic_type.go"))
	if err != nil {
		t.Fatal(err)
	}
	c = callTool(t, cs, "show", map[string]any{"location": abs + "::Bool/Load"})
	if !c.isError || get(c.data, "error", "code") != "OUTSIDE_ROOT" {
		t.Errorf("a path outside the working directory: %+v", c)
	}
}

// checkDescriptions fails for a property of schema (at any depth) that has
// no description.
func checkDescriptions(t *testing.T, where string, schema any) {
	t.Helper()
	m, _ := schema.(map[string]any)
	if m == nil {
		return
	}
	props, _ := m["properties"].(map[string]any)
	for name, p := range props {
		pm, _ := p.(map[string]any)
		if d, _ := pm["description"].(string); strings.TrimSpace(d) == "" {
			t.Errorf("%s.%s: no description", where, name)
		}
		checkDescriptions(t, where+"."+name, p)
	}
	if items, ok := m["items"]; ok {
		checkDescriptions(t, where+"[]", items)
	}
}

// rawServer is `symedit mcp` spoken to in raw JSON-RPC frames.
type rawServer struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Reader
}

func startRaw(t *testing.T, bin, root string) *rawServer {
	t.Helper()
	cmd := exec.Command(bin, "mcp", "--root", root)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("symedit mcp: %v", err)
		}
	})
	return &rawServer{t: t, in: in, out: bufio.NewReaderSize(out, 1<<20)}
}

// send writes one frame and a line break.
func (r *rawServer) send(frame string) {
	r.t.Helper()
	if _, err := io.WriteString(r.in, frame+"\n"); err != nil {
		r.t.Fatalf("writing a frame: %v", err)
	}
}

// reply reads the next frame the server writes.
func (r *rawServer) reply() map[string]any {
	r.t.Helper()
	line, err := r.out.ReadBytes('\n')
	if err != nil {
		r.t.Fatalf("reading a reply: %v (the server stopped?)", err)
	}
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil {
		r.t.Fatalf("a reply that is not JSON: %q", line)
	}
	return m
}

// TestMCPMalformedFrames: frames that are not valid JSON-RPC get JSON-RPC
// errors and the server keeps serving; a write larger than the SDK's 16 MiB
// frame limit works (with the SDK's own transport each of these ended
// the server).
func TestMCPMalformedFrames(t *testing.T) {
	bin := buildSymedit(t)
	root := t.TempDir()
	r := startRaw(t, bin, root)
	r.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if m := r.reply(); get(m, "id") != 1.0 || get(m, "result", "serverInfo", "name") != "symedit" {
		t.Fatalf("initialize: %v", m)
	}
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	deep := `{"jsonrpc":"2.0","id":8,"method":"tools/list","params":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`
	for _, tt := range []struct {
		frame string
		id    any
		code  float64
	}{
		{`not json`, nil, -32700},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/list"`, nil, -32700},
		{`[1,2,3]`, nil, -32600},
		{`[]`, nil, -32600},
		{`"jsonrpc"`, nil, -32600},
		{`{"jsonrpc":"1.0","id":7,"method":"tools/list"}`, 7.0, -32600},
		{`{"id":"s","method":"tools/list"}`, "s", -32600},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, nil, -32600},
		{deep, nil, -32700},
		// An id with no method and neither result nor error: no request
		// and no response, answered as JSON-RPC 2.0 says (Invalid Request).
		{`{"jsonrpc":"2.0","id":13}`, 13.0, -32600},
		{`{"jsonrpc":"2.0","id":"x","params":{}}`, "x", -32600},
		// Text that encoding/json would read with U+FFFD in place of what
		// was sent: invalid UTF-8, a lone surrogate escape.
		{"{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"tools/call\",\"params\":{\"name\":\"write\",\"arguments\":{\"path\":\"u.py\",\"content\":\"x = '\xff'\\n\"}}}", 14.0, -32700},
		{`{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"write","arguments":{"path":"u.py","content":"x = '\ud800'\n"}}}`, 15.0, -32700},
		// Deeper than the SDK's decoder takes (1,000), valid JSON: the id is read.
		{`{"jsonrpc":"2.0","id":11,"method":"tools/list","params":{"a":` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `}}`, 11.0, -32600},
	} {
		r.send(tt.frame)
		m := r.reply()
		if get(m, "id") != tt.id || get(m, "error", "code") != tt.code || get(m, "jsonrpc") != "2.0" {
			t.Errorf("%.60s: reply %v, want id %v and code %v", tt.frame, m, tt.id, tt.code)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "u.py")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a write with text that does not decode as sent created u.py: %v", err)
	}
	r.send(`{"jsonrpc":"2.0","id":12,"result":{}}`) // a response to nothing: ignored
	r.send(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`)
	if m := r.reply(); get(m, "id") != 9.0 || get(m, "result", "tools") == nil {
		t.Fatalf("tools/list after the bad frames: %.300v", m)
	}
	// A 20 MiB write: over the SDK's 16 MiB frame limit, under maxFrame.
	// A text file, which the syntax guard does not parse: a .py file over
	// its 16 MiB limit is refused as not checked.
	content := strings.Repeat("# a comment line of sixty-four bytes for a large file to write\n", 20<<20/64)
	args, err := json.Marshal(map[string]any{"path": "big.txt", "content": content})
	if err != nil {
		t.Fatal(err)
	}
	r.send(`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"write","arguments":` + string(args) + `}}`)
	if m := r.reply(); get(m, "id") != 10.0 || get(m, "result", "isError") == true || get(m, "result", "structuredContent", "written") != true {
		t.Fatalf("a 20 MiB write: %.500v", m)
	}
	if got := readFile(t, filepath.Join(root, "big.txt")); got != content {
		t.Errorf("big.txt holds %d bytes, want %d", len(got), len(content))
	}
}

// TestFrameTooLarge: a frame over the limit is answered with an error that
// carries its id when the id comes first, and dropped without being held;
// the next frame is read, so one bad frame does not end the session.
func TestFrameTooLarge(t *testing.T) {
	big := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"x":"` + strings.Repeat("y", 1<<20) + `"}}`
	in := strings.NewReader(big + "\n" + `{"jsonrpc":"2.0","id":6,"method":"ping"}` + "\n" + strings.Repeat("z", 1<<20))
	var out bytes.Buffer
	conn, err := (&frameTransport{r: in, w: &out, limit: 64 << 10}).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	msg, err := conn.Read(context.Background())
	if req, ok := msg.(*jsonrpc.Request); err != nil || !ok || req.Method != "ping" {
		t.Fatalf("after a frame over the limit: %v, %v", msg, err)
	}
	if _, err := conn.Read(context.Background()); !errors.Is(err, io.EOF) {
		t.Errorf("at the end: %v, want EOF", err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"id":5,"error":{"code":-32600,"message":"the message is 1048641 bytes, over the 65536-byte limit`) ||
		!strings.Contains(lines[1], `"id":null,"error":{"code":-32600,`) {
		t.Errorf("replies:\n%s", out.String())
	}
}

// TestVersionOf formats the build information of a release and of a
// build from a modified tree.
func TestVersionOf(t *testing.T) {
	for _, tt := range []struct {
		bi   debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2026-11-24T20:00:00Z"}, {Key: "vcs.modified", Value: "false"}}},
			"v1.2.0 (revision 0123abcd, 2026-11-24T20:00:00Z)"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.modified", Value: "true"}}},
			"(devel) (revision 0123abcd, modified)"},
		{debug.BuildInfo{}, "(devel) (no VCS revision recorded)"},
	} {
		if got := versionOf(&tt.bi); got != tt.want {
			t.Errorf("versionOf = %q, want %q", got, tt.want)
		}
	}
}

// TestMCPRootThroughLink: `mcp --root r/sub/..` with r/sub a link to a/b
// serves r/a, where the kernel's ".." leads, not r, what cleaning the text
// gives; its diffs name the file edited relative to
// that root, through a link as the last component too, and apply there
// with git apply.
func TestMCPRootThroughLink(t *testing.T) {
	bin := buildSymedit(t)
	base := t.TempDir()
	r := filepath.Join(base, "r")
	if err := os.MkdirAll(filepath.Join(r, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	atomic := readFile(t, filepath.Join(fixtureDir, "go/atomic_type.go"))
	slog := readFile(t, filepath.Join(fixtureDir, "go/slog_value.go"))
	for path, content := range map[string]string{"a/x.go": atomic, "x.go": slog} {
		if err := os.WriteFile(filepath.Join(r, path), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a/b", filepath.Join(r, "sub")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../x.go", filepath.Join(r, "a", "b", "lnk.go")); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, bin, base, "--root", "r/sub/..")

	c := callTool(t, cs, "show", map[string]any{"location": "x.go::Bool/Load"})
	if c.isError || c.text != "func (x *Bool) Load() bool { return LoadUint32(&x.v) != 0 }\n" {
		t.Errorf("show x.go::Bool/Load from the root r/sub/..: %+v (want r/a/x.go's, not r/x.go's)", c)
	}
	edits := []map[string]any{{"old_text": "return LoadUint32(&x.v) != 0", "new_text": "return LoadUint32(&x.v) == 1"}}
	for _, path := range []string{"x.go", "b/lnk.go"} {
		c = callTool(t, cs, "edit", map[string]any{"path": path, "edits": edits, "dry_run": true})
		diff, _ := get(c.data, "diff").(string)
		if c.isError || !strings.HasPrefix(diff, "--- a/x.go\n+++ b/x.go\n") {
			t.Errorf("edit %s dry run: diff %q, want headers naming x.go; %+v", path, diff, c)
			continue
		}
		if _, err := exec.LookPath("git"); err != nil {
			continue
		}
		cmd := exec.Command("git", "apply", "-")
		cmd.Dir = filepath.Join(r, "a")
		cmd.Stdin = strings.NewReader(diff)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("git apply of %s's diff: %v\n%s", path, err, out)
		}
		if got := readFile(t, filepath.Join(r, "a/x.go")); !strings.Contains(got, "return LoadUint32(&x.v) == 1") {
			t.Errorf("git apply of %s's diff did not change r/a/x.go", path)
		}
		if err := os.WriteFile(filepath.Join(r, "a/x.go"), []byte(atomic), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := readFile(t, filepath.Join(r, "x.go")); got != slog {
		t.Error("r/x.go changed")
	}
}

// TestMCPAnswersBeforeEOF: a client that writes its requests and closes
// its end at once (printf ... | symedit mcp) gets an answer to every
// request, a tool call's included, before the server exits; the SDK
// ended the session at the end of the input and dropped them.
func TestMCPAnswersBeforeEOF(t *testing.T) {
	bin := buildSymedit(t)
	root := t.TempDir()
	copyFixtures(t, root)
	frames := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`not json`,
		`{"jsonrpc":"2.0","id":2,"method":"nosuch/method"}`,
		`{"jsonrpc":"2.0","id":"three","method":"tools/call","params":{"name":"show","arguments":{"location":"go/atomic_type.go::Bool/Load"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"symbols","arguments":{"path":"python/process.py"}}}`,
	}, "\n") + "\n"
	cmd := exec.Command(bin, "mcp", "--root", root)
	cmd.Stdin = strings.NewReader(frames)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("symedit mcp: %v", err)
	}
	answered := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var m struct {
			ID     any             `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("a reply that is not JSON: %q", line)
		}
		answered[fmt.Sprint(m.ID)] = string(m.Result)
	}
	for _, id := range []string{"1", "2", "three", "4"} {
		if _, ok := answered[id]; !ok {
			t.Errorf("request %s was not answered; the answers: %v", id, answered)
		}
	}
	if !strings.Contains(answered["three"], "LoadUint32") {
		t.Errorf("show's answer %q does not hold the method", answered["three"])
	}
}

// TestMCPLang: a C++ header named .h is read as C by its extension; with
// "lang": "cpp" the MCP tools read it as C++, as --lang does: symbols
// lists its class and method, show and replace_body find the method by
// its name path, and the write is guarded as C++. A name that is not a
// language is refused with the file unchanged.
func TestMCPLang(t *testing.T) {
	root := t.TempDir()
	header := "namespace gui {\n\nclass Widget {\npublic:\n    int width() const { return width_; }\n\nprivate:\n    int width_ = 0;\n};\n\n}  // namespace gui\n"
	path := filepath.Join(root, "widget.h")
	if err := os.WriteFile(path, []byte(header), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := serveInProcess(t, root, time.Hour, nil, nil)
	h := path // the in-process server's folder is the test's: an absolute path
	listed := callTool(t, cs, "symbols", map[string]any{"path": h, "lang": "cpp"})
	if listed.isError || !strings.Contains(listed.text, "class gui/Widget") || !strings.Contains(listed.text, "method gui/Widget/width") {
		t.Fatalf("symbols with lang cpp: %+v", listed)
	}
	if asC := callTool(t, cs, "symbols", map[string]any{"path": h}); strings.Contains(asC.text, "class gui/Widget") {
		t.Errorf("without lang the .h file was read as C++: %s", asC.text)
	}
	shown := callTool(t, cs, "show", map[string]any{"location": h + "::gui/Widget/width", "lang": "cpp"})
	if shown.isError || !strings.HasPrefix(shown.text, "    int width() const") || get(shown.data, "language") != "cpp" {
		t.Fatalf("show with lang cpp: %+v", shown)
	}
	res := callTool(t, cs, "replace_body", map[string]any{"location": h + "::gui/Widget/width", "lang": "cpp",
		"text": "int width() const { return width_ > 0 ? width_ : 0; }\n"})
	if res.isError || get(res.data, "written") != true {
		t.Fatalf("replace_body with lang cpp: %+v", res)
	}
	want := strings.Replace(header, "{ return width_; }", "{ return width_ > 0 ? width_ : 0; }", 1)
	if got, _ := os.ReadFile(path); string(got) != want {
		t.Fatalf("after replace_body:\n%s\nwant\n%s", got, want)
	}
	// Not a language: refused before anything is read or written.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	bad, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "replace_body", Arguments: map[string]any{
		"location": h + "::gui/Widget/width", "lang": "cobol", "text": "int width() const { return 1; }\n"}})
	if err == nil {
		var text string
		for _, c := range bad.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text += tc.Text
			}
		}
		if !bad.IsError || !strings.Contains(text, "lang") {
			t.Errorf("lang cobol: error %v, text %q: want a refusal that names the field", bad.IsError, text)
		}
		t.Logf("lang cobol: %s", text)
	}
	if got, _ := os.ReadFile(path); string(got) != want {
		t.Errorf("a refused call changed the file:\n%s", got)
	}
}
