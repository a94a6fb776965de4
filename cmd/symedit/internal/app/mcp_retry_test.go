package app

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMCPAlreadyApplied: chunk, edit and apply called twice with the
// same edit: the second structured result is ok with already_applied, on
// the result and on the chunk, edit or block, and the file is as the
// first call left it.
func TestMCPAlreadyApplied(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "src")
	copyFixtures(t, dir)
	py := filepath.Join(dir, "python/process.py")
	cs := serveInProcess(t, dir, time.Hour, nil, nil)
	calls := []struct {
		tool string
		args map[string]any
		item []any // the keys of the chunk's, edit's or block's entry
	}{
		{"chunk", map[string]any{"location": py + "::BaseProcess/is_alive", "chunks": []any{map[string]any{
			"context_before": "        returncode = self._popen.poll()", "old_lines": []any{"        if returncode is None:"},
			"new_lines": []any{"        if returncode is None and not self._closed:"}, "context_after": "            return True"}}},
			[]any{"placements", 0}},
		{"edit", map[string]any{"path": py, "edits": []any{map[string]any{
			"old_text": "        del self._target, self._args, self._kwargs\n", "new_text": "        del self._target, self._args, self._kwargs, self._config\n"}}},
			[]any{"edits_applied", 0}},
		{"apply", map[string]any{"reply": py + "\n<<<<<<< SEARCH\n        returncode = self._popen.poll()\n=======\n" +
			"        returncode = self._popen.poll()\n        self._last_returncode = returncode\n>>>>>>> REPLACE\n"},
			[]any{"blocks", 0}},
	}
	for _, c := range calls {
		first := callTool(t, cs, c.tool, c.args)
		if first.isError || get(first.data, "written") != true || get(first.data, "already_applied") != nil {
			t.Fatalf("%s: first call: %s", c.tool, first.text)
		}
		once := readFile(t, py)
		second := callTool(t, cs, c.tool, c.args)
		if second.isError || get(second.data, "ok") != true || get(second.data, "written") != false || get(second.data, "already_applied") != true {
			t.Errorf("%s: second call: %v", c.tool, second.data)
		}
		if got := get(second.data, append(c.item, "already_applied")...); got != true {
			t.Errorf("%s: %v already_applied is %v", c.tool, c.item, got)
		}
		if !strings.Contains(second.text, "already applied") {
			t.Errorf("%s: text %q", c.tool, second.text)
		}
		if readFile(t, py) != once {
			t.Errorf("%s: the second call changed the file", c.tool)
		}
	}
}

// TestMCPElided: a lazy edit is refused with ELIDED, its remedy worded as
// the tool's allow_elision field; with the field it is written.
func TestMCPElided(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "src")
	copyFixtures(t, dir)
	py := filepath.Join(dir, "python/process.py")
	orig := readFile(t, py)
	cs := serveInProcess(t, dir, time.Hour, nil, nil)
	args := map[string]any{"path": py, "edits": []any{map[string]any{
		"old_text": "        if self._popen is None:\n            return False\n\n        returncode = self._popen.poll()\n",
		"new_text": "        if self._popen is None:\n            return None\n        # ... rest of the function unchanged ...\n"}}}
	res := callTool(t, cs, "edit", args)
	if !res.isError || get(res.data, "error", "code") != "ELIDED" || !strings.Contains(res.text, `"allow_elision": true`) {
		t.Errorf("refusal: %s %v", res.text, res.data)
	}
	if readFile(t, py) != orig {
		t.Fatal("the refusal changed the file")
	}
	args["allow_elision"] = true
	if res := callTool(t, cs, "edit", args); res.isError || get(res.data, "written") != true {
		t.Errorf("allow_elision: %s", res.text)
	}
}
