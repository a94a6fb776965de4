package reply_test

import (
	"os"
	"strings"
	"testing"

	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/reply"
)

// TestAlreadyApplied: blocks of every format, applied to a real file and
// then applied again to the result, are found already applied there and
// leave it as it is: on their own (Block.ApplyLevel) and several at once,
// through the fast path and the checks of a diff's hunks against the
// original (ApplyAllOutcomes).
func TestAlreadyApplied(t *testing.T) {
	src, err := os.ReadFile("../testdata/src/python/process.py")
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	replies := map[string]string{
		// The anchor line kept, a line added after it: its old lines lie
		// inside its new ones and still match once applied.
		"search/replace insertion": "process.py\n<<<<<<< SEARCH\n        returncode = self._popen.poll()\n=======\n" +
			"        returncode = self._popen.poll()\n        self._last = returncode\n>>>>>>> REPLACE\n",
		"search/replace change": "process.py\n<<<<<<< SEARCH\n        self._check_closed()\n        if self is _current_process:\n            return True\n=======\n" +
			"        self._check_closed()\n        if self is _current_process:\n            return self._alive\n>>>>>>> REPLACE\n",
		"edit block": "process.py\n<<<<<<< EDIT\n    def is_alive(self):\n        '''\n        Return whether process is alive\n        '''\n-------\n" +
			"        self._check_closed()\n=======\n        self._check_closed()\n        self._check_started()\n-------\n        if self is _current_process:\n>>>>>>>\n",
		"two hunks of one diff": "--- a/process.py\n+++ b/process.py\n@@ -129,4 +129,5 @@\n         # Avoid a refcycle if the target function holds an indirect\n" +
			"         # reference to the process object (see bpo-30775)\n         del self._target, self._args, self._kwargs\n+        self._started = True\n         _children.add(self)\n" +
			"@@ -163,6 +164,8 @@\n         self._check_closed()\n         if self is _current_process:\n             return True\n+        if self._closing:\n+            return False\n" +
			"         assert self._parent_pid == os.getpid(), 'can only test a child process'\n \n         if self._popen is None:\n",
		"apply_patch": "*** Begin Patch\n*** Update File: process.py\n@@\n         if self._popen is None:\n-            return False\n+            return self._default\n \n" +
			"         returncode = self._popen.poll()\n*** End Patch\n",
	}
	for name, r := range replies {
		parsed := reply.Parse(r)
		if len(parsed.Blocks) == 0 || len(parsed.Malformed) > 0 {
			t.Fatalf("%s: %+v", name, parsed)
		}
		once, _, failed, f := reply.ApplyAllOutcomes(parsed.Blocks, text, match.Exact)
		if failed >= 0 || once == text {
			t.Fatalf("%s: first run: %v", name, f)
		}
		twice, outcomes, failed, f := reply.ApplyAllOutcomes(parsed.Blocks, once, match.Exact)
		if failed >= 0 || twice != once {
			t.Fatalf("%s: second run: %v, changed %v", name, f, twice != once)
		}
		for i, o := range outcomes {
			if !o.AlreadyApplied {
				t.Errorf("%s: block %d not already applied", name, i+1)
			}
		}
		if len(parsed.Blocks) == 1 {
			out, _, f := parsed.Blocks[0].ApplyLevel(once, match.Trailing)
			if f != nil || out != once {
				t.Errorf("%s: ApplyLevel: %v", name, f)
			}
		}
	}
	// Several SEARCH/REPLACE insertions at once: the fast path must not
	// write one a second time.
	two := replies["search/replace insertion"] + "\n" + strings.ReplaceAll(replies["search/replace insertion"], "returncode", "res")
	parsed := reply.Parse(strings.Replace(two, "res = self._popen.poll()", "res = self._popen.wait(timeout)", 2))
	once, _, failed, f := reply.ApplyAllOutcomes(parsed.Blocks, text, match.Exact)
	if failed >= 0 {
		t.Fatalf("two insertions: %v", f)
	}
	twice, outcomes, failed, _ := reply.ApplyAllOutcomes(parsed.Blocks, once, match.Exact)
	if failed >= 0 || twice != once || len(outcomes) != 2 || !outcomes[0].AlreadyApplied || !outcomes[1].AlreadyApplied {
		t.Errorf("two insertions: changed %v, %+v", twice != once, outcomes)
	}
}

// TestAlreadyAppliedRefused: shapes whose retry keeps today's failure.
func TestAlreadyAppliedRefused(t *testing.T) {
	text := "def f(a, b):\n    x = a + 1\n    y = b * 2\n    return x + y\n\ndef g():\n    pass\n\ndef g():\n    pass\n"
	l := func(s ...string) []string { return s }
	for name, b := range map[string]reply.Block{
		// A deletion: nothing tells its retry from a mismatch.
		"deletion": {Format: reply.FormatSearchReplace, OldLines: l("    x = a + 2", "    y = b * 2"), NewLines: l("    y = b * 2")},
		// Its new side inside its old side.
		"new inside old": {Format: reply.FormatSearchReplace, OldLines: l("    x = a + 1", "    z = 0"), NewLines: l("    x = a + 1")},
		// Its new side present twice (g is defined twice).
		"twice": {Format: reply.FormatSearchReplace, OldLines: l("def k():", "    return"), NewLines: l("def g():", "    pass")},
		// A lone short line.
		"lone line": {Format: reply.FormatSearchReplace, OldLines: l("    return None"), NewLines: l("    pass")},
		// Its old side still in the file elsewhere.
		"old elsewhere": {Format: reply.FormatEdit, ContextBefore: l("def g():"), OldLines: l("    return x + y"), NewLines: l("    pass"), ContextAfter: nil},
	} {
		out, _, f := b.ApplyLevel(text, match.Trailing)
		if name == "old elsewhere" {
			// The EDIT block's empty trailing anchor is the end of the
			// file: "    pass" is there after "def g():", but the
			// block's old line is in f, so it is not taken as applied.
			if f == nil {
				t.Errorf("%s: accepted", name)
			}
			continue
		}
		if f == nil || out != text {
			t.Errorf("%s: accepted", name)
		}
	}
}
