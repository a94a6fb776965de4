package reply_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/reply"
)

// realEdits are edits of the fixtures, each a list of (old, new) pairs
// applied with strings.Replace once: a change in the middle, an insertion
// near the top and a deletion near the end, so that a diff of them has
// several hunks.
var realEdits = map[string][][2]string{
	"../testdata/src/python/process.py": {
		{"        assert self._popen is None, 'cannot start a process twice'\n", "        if self._popen is not None:\n            raise RuntimeError('cannot start a process twice')\n"},
		{"import os\n", "import os\nimport logging\n"},
		{"        # we choose a short prefix.\n        #\n        # On MacOSX in a sandbox it may be necessary to use a\n        # different prefix -- see #19478.\n", "        # we choose a short prefix.\n"},
	},
	"../testdata/src/go/slog_value.go": {
		{"// countEmptyGroups returns the number of empty group values in its argument.\n", "// countEmptyGroups counts the empty group values in its argument.\n"},
		{"import (\n", "import (\n\t\"errors\"\n"},
		{"\tk1 := v.Kind()\n", "\tk1 := v.Kind() // edited\n"},
	},
}

func editedFixture(t *testing.T, path string) (orig, edited string) {
	t.Helper()
	orig = readFixture(t, path)
	edited = orig
	for _, e := range realEdits[path] {
		if !strings.Contains(edited, e[0]) {
			t.Fatalf("%s: the fixture changed, %q is gone", path, e[0])
		}
		edited = strings.Replace(edited, e[0], e[1], 1)
	}
	return orig, edited
}

// run runs a command in dir; diff's exit status 1 (differences found) is
// not an error.
func run(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	out, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !(name == "diff" && errors.As(err, &ee) && ee.ExitCode() == 1) {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}

// applyReply parses a reply that edits one file and applies its blocks.
func applyReply(t *testing.T, replyText, path, text string) (string, *reply.Failure) {
	t.Helper()
	res := reply.Parse(replyText)
	if len(res.Malformed) > 0 || len(res.Blocks) == 0 {
		t.Fatalf("parsed %d blocks, malformed %+v\n%s", len(res.Blocks), res.Malformed, replyText)
	}
	for _, b := range res.Blocks {
		if b.Path != path || b.Format != reply.FormatUnifiedDiff {
			t.Fatalf("block for %q, format %s; want %q", b.Path, b.Format, path)
		}
	}
	out, _, _, f := reply.ApplyAll(res.Blocks, text, match.Exact)
	return out, f
}

// TestDiffRoundTrip makes real edits to real files, writes them as a
// unified diff with git diff (in a repository, as an agent sees it) and
// with diff -u of two folders, in a fence and raw, LF and CRLF, and with
// every line number 20 off; applying the diff to the original gives the
// edited file byte for byte.
func TestDiffRoundTrip(t *testing.T) {
	for _, tool := range []string{"git", "diff"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (make deps installs it)", tool)
		}
	}
	for fixture := range realEdits {
		for _, crlf := range []bool{false, true} {
			orig, edited := editedFixture(t, fixture)
			if crlf {
				orig, edited = strings.ReplaceAll(orig, "\n", "\r\n"), strings.ReplaceAll(edited, "\n", "\r\n")
			}
			name := "src/" + filepath.Base(fixture)
			dir := t.TempDir()
			write := func(rel, s string) {
				p := filepath.Join(dir, rel)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("repo/"+name, orig)
			repo := filepath.Join(dir, "repo")
			run(t, repo, "git", "init", "-q")
			run(t, repo, "git", "add", ".")
			run(t, repo, "git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "core.autocrlf=false", "commit", "-qm", "orig")
			write("repo/"+name, edited)
			gitDiff := run(t, repo, "git", "-c", "core.autocrlf=false", "diff")
			write("old/"+name, orig)
			write("new/"+name, edited)
			diffU := run(t, dir, "diff", "-u", "old/"+name, "new/"+name)
			if strings.Count(gitDiff, "\n@@ ") < 3 || strings.Count(diffU, "\n@@ ") < 3 {
				t.Fatalf("want 3 hunks:\n%s\n%s", gitDiff, diffU)
			}
			for kind, d := range map[string]string{
				"git diff":           gitDiff,
				"diff -u":            diffU,
				"fenced git diff":    "Here is the change:\n\n```diff\n" + gitDiff + "```\n\nDone.\n",
				"line numbers +20":   shiftHunks(gitDiff, 20),
				"diff -u, numbers-9": shiftHunks(diffU, -9),
			} {
				t.Run(fmt.Sprintf("%s/crlf=%v/%s", filepath.Base(fixture), crlf, kind), func(t *testing.T) {
					out, f := applyReply(t, d, name, orig)
					if f != nil {
						t.Fatalf("%v\n%s", f, d)
					}
					if out != edited {
						t.Fatalf("the result differs from the edited file:\n%s", diff("edited", "applied", edited, out))
					}
				})
			}
		}
	}
}

var hunkNumbers = regexp.MustCompile(`(?m)^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@`)

// shiftHunks adds d to every line number of the hunk headers of a diff.
func shiftHunks(diff string, d int) string {
	return hunkNumbers.ReplaceAllStringFunc(diff, func(h string) string {
		m := hunkNumbers.FindStringSubmatch(h)
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[3])
		return fmt.Sprintf("@@ -%d%s +%d%s @@", max(a+d, 1), m[2], max(b+d, 1), m[4])
	})
}

// TestDiffAiderUdiff: Aider's udiff hunks have no line numbers ("@@ ...
// @@"); they are placed by their lines alone, which must be consecutive
// in the file.
func TestDiffAiderUdiff(t *testing.T) {
	orig := readFixture(t, "../testdata/src/python/process.py")
	want := strings.Replace(orig, "        assert self._popen is None, 'cannot start a process twice'\n", "        if self._popen is not None:\n            raise RuntimeError('cannot start a process twice')\n", 1)
	want = strings.Replace(want, "import os\n", "import os\nimport logging\n", 1)
	want = strings.Replace(want, "        Return whether process is alive\n        '''\n        self._check_closed()\n", "        Return whether process is alive\n        '''\n", 1)
	d := "```diff\n--- src/python/process.py\n+++ src/python/process.py\n@@ ... @@\n" +
		"         self._check_closed()\n" +
		"-        assert self._popen is None, 'cannot start a process twice'\n" +
		"+        if self._popen is not None:\n" +
		"+            raise RuntimeError('cannot start a process twice')\n" +
		"         assert self._parent_pid == os.getpid(), \\\n" +
		"@@ ... @@\n import os\n+import logging\n" +
		"@@ ... @@\n     def is_alive(self):\n" +
		"-        self._check_closed()\n         if self is _current_process:\n```\n"
	_, f := applyReply(t, d, "src/python/process.py", orig)
	if f == nil || f.Code != reply.CodeNotFound {
		t.Fatalf("the third hunk's lines are not consecutive in the file: want NOT_FOUND, got %v", f)
	}
	d = strings.Replace(d, "     def is_alive(self):\n", "         Return whether process is alive\n         '''\n", 1)
	out, f := applyReply(t, d, "src/python/process.py", orig)
	if f != nil || out != want {
		t.Fatalf("%v\n%s", f, diff("want", "got", want, out))
	}
}

// writePatch writes the edits of one file as a Codex apply_patch patch of
// our own: one hunk per edit, with up to 3 lines of context on each side
// taken from the text as the edits before it left it, and an "@@" line.
func writePatch(t *testing.T, path, orig string, edits [][2]string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("*** Begin Patch\n*** Update File: " + path + "\n")
	cur := orig
	for _, e := range edits {
		at := strings.Index(cur, e[0])
		if at < 0 {
			t.Fatalf("%q not in the text", e[0])
		}
		before := strings.Split(cur[:at], "\n")
		before = before[:len(before)-1] // the empty piece after the last LF
		after := strings.Split(strings.TrimSuffix(cur[at+len(e[0]):], "\n"), "\n")
		b.WriteString("@@\n")
		for _, l := range before[max(len(before)-3, 0):] {
			b.WriteString(" " + l + "\n")
		}
		for _, l := range strings.Split(strings.TrimSuffix(e[0], "\n"), "\n") {
			b.WriteString("-" + l + "\n")
		}
		for _, l := range strings.Split(strings.TrimSuffix(e[1], "\n"), "\n") {
			b.WriteString("+" + l + "\n")
		}
		for _, l := range after[:min(3, len(after))] {
			b.WriteString(" " + l + "\n")
		}
		cur = strings.Replace(cur, e[0], e[1], 1)
	}
	b.WriteString("*** End Patch\n")
	return b.String()
}

// TestPatchRoundTrip writes real edits of real files as apply_patch
// patches (raw, in a fence, in a heredoc) and applies them: the result is
// the edited file byte for byte.
func TestPatchRoundTrip(t *testing.T) {
	for fixture, edits := range realEdits {
		orig, edited := editedFixture(t, fixture)
		name := "src/" + filepath.Base(fixture)
		p := writePatch(t, name, orig, edits)
		for kind, r := range map[string]string{
			"raw":     p,
			"fenced":  "The patch:\n\n```\n" + p + "```\n",
			"heredoc": "apply_patch <<'EOF'\n" + p + "EOF\n",
		} {
			t.Run(filepath.Base(fixture)+"/"+kind, func(t *testing.T) {
				res := reply.Parse(r)
				if len(res.Malformed) > 0 || len(res.Blocks) != len(edits) {
					t.Fatalf("%d blocks, malformed %+v\n%s", len(res.Blocks), res.Malformed, r)
				}
				out, _, _, f := reply.ApplyAll(res.Blocks, orig, match.Exact)
				if f != nil || out != edited {
					t.Fatalf("%v\n%s", f, diff("edited", "applied", edited, out))
				}
			})
		}
	}
}

// TestDiffHunksAgainstOriginal: the hunks of one unified diff are placed
// in the original text, not only in the text the hunks before
// them left. Applied in order only, the first and third went somewhere
// silently (the one place left after hunk 1 changed the other); the
// second was refused already and stays refused.
func TestDiffHunksAgainstOriginal(t *testing.T) {
	// Each hunk has a context line: one without (diff -U0) is placed by
	// its numbers alone (TestDiffZeroContext).
	orig := "a\nfoo()\nb\nc\nd\ne\nf\ng\nh\ni\nfoo()\nb\n"
	for _, c := range []struct {
		name, diff string
		code       string
		want       string // the message's words, or the new text
		candidates []int
	}{
		{name: "overlaps an earlier hunk in the original",
			diff: "@@ -1,3 +1,3 @@\n a\n-foo()\n+bar()\n b\n@@ -2,2 +2,2 @@\n-foo()\n+baz()\n b\n",
			code: reply.CodeOverlap, want: "overlaps the hunk on reply line 3: in the original file this hunk's lines are 2-3 and that hunk's 1-3", candidates: []int{2}},
		{name: "lines only adjacent after an earlier hunk removed one",
			diff: "@@ -5,2 +5,1 @@\n-d\n e\n@@ -4,3 +4,2 @@\n-c\n-e\n+ce\n f\n",
			code: reply.CodeOverlap, want: "overlaps the hunk on reply line 3", candidates: []int{4}},
		{name: "ambiguous in the original, numbers at neither",
			diff: "@@ -1,3 +1,3 @@\n a\n-foo()\n+bar()\n b\n@@ -30,2 +30,2 @@\n-foo()\n+baz()\n b\n",
			code: reply.CodeAmbiguous, want: "occur at 2 places in the original file (starting at lines 2, 11)", candidates: []int{2, 11}},
		{name: "ambiguous in the original, numbers at one",
			diff: "@@ -1,3 +1,3 @@\n a\n-foo()\n+bar()\n b\n@@ -11,2 +11,2 @@\n-foo()\n+baz()\n b\n",
			want: "a\nbar()\nb\nc\nd\ne\nf\ng\nh\ni\nbaz()\nb\n"},
		{name: "several hunks, one removing lines above the next",
			diff: "@@ -3,3 +3,2 @@\n b\n-c\n d\n@@ -10,3 +9,3 @@\n i\n-foo()\n+baz()\n b\n",
			want: "a\nfoo()\nb\nd\ne\nf\ng\nh\ni\nbaz()\nb\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := reply.Parse("--- a/x.py\n+++ b/x.py\n" + c.diff)
			if len(res.Malformed) != 0 || len(res.Blocks) != 2 {
				t.Fatalf("parse: %+v", res)
			}
			out, _, failed, f := reply.ApplyAll(res.Blocks, orig, match.Exact)
			if c.code == "" {
				if f != nil || out != c.want {
					t.Fatalf("ApplyAll = %q, %v; want %q", out, f, c.want)
				}
				return
			}
			if f == nil || failed != 1 || f.Code != c.code || !strings.Contains(f.Message, c.want) || fmt.Sprint(f.Candidates) != fmt.Sprint(c.candidates) {
				t.Fatalf("ApplyAll = %q, failed %d, %+v; want %s with %q and candidates %v", out, failed, f, c.code, c.want, c.candidates)
			}
		})
	}
}

// TestHunksAgainstOriginalLooseAndPatch: hunks matched only at a looser
// --match level, and the hunks of an apply_patch patch, are placed in the
// original text too, as exact-level diff hunks are. Applied in
// order only, each refused case went somewhere silently: to the one place
// left after an earlier hunk changed the other, or onto lines that were
// adjacent only once an earlier hunk removed one between them.
func TestHunksAgainstOriginalLooseAndPatch(t *testing.T) {
	const loose = "a\nfoo()  \nb\nc\nd\ne\nf\ng\nh\ni\nfoo()\t\nb\n"
	const exactTwice = "a\nfoo()\nb\nc\nd\ne\nf\ng\nh\ni\nfoo()\nj\n"
	for _, c := range []struct {
		name, reply string
		orig        string // loose when ""
		level       match.Level
		code        string
		want        string // the message's words, or the new text
		candidates  []int
	}{
		{name: "diff at trailing, ambiguous in the original",
			reply: "--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n a\n-foo()  \n+bar()\n b\n@@ -30,2 +30,2 @@\n-foo()\n+baz()\n b\n", level: match.Trailing,
			code: reply.CodeAmbiguous, want: "occur at match level trailing at 2 places in the original file (starting at lines 2, 11), and its line numbers point at none of them", candidates: []int{2, 11}},
		{name: "diff at trailing, numbers at one",
			reply: "--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n a\n-foo()  \n+bar()\n b\n@@ -11,2 +11,2 @@\n-foo()\n+baz()\n b\n", level: match.Trailing,
			want: "a\nbar()\nb\nc\nd\ne\nf\ng\nh\ni\nbaz()\nb\n"},
		{name: "patch, ambiguous in the original",
			reply: "*** Begin Patch\n*** Update File: x.py\n@@\n a\n-foo()\n+bar()\n b\n@@\n-foo()\n+baz()\n*** End Patch\n", level: match.Exact, orig: exactTwice,
			code: reply.CodeAmbiguous, want: "occur at 2 places in the original file (starting at lines 2, 11), and no @@ line singles one out", candidates: []int{2, 11}},
		{name: "patch at trailing, ambiguous in the original",
			reply: "*** Begin Patch\n*** Update File: x.py\n@@\n a\n-foo()  \n+bar()\n b\n@@\n-foo()\n+baz()\n*** End Patch\n", level: match.Trailing,
			code: reply.CodeAmbiguous, want: "at match level trailing at 2 places in the original file (starting at lines 2, 11)", candidates: []int{2, 11}},
		{name: "patch, an @@ line singles one out",
			reply: "*** Begin Patch\n*** Update File: x.py\n@@\n a\n-foo()  \n+bar()\n b\n@@ i\n-foo()\t\n+baz()\n*** End Patch\n", level: match.Exact,
			want: "a\nbar()\nb\nc\nd\ne\nf\ng\nh\ni\nbaz()\nb\n"},
		{name: "patch, hunks in order",
			reply: "*** Begin Patch\n*** Update File: x.py\n@@\n b\n-c\n d\n@@\n h\n i\n-foo()\t\n+baz()\n*** End Patch\n", level: match.Exact,
			want: "a\nfoo()  \nb\nd\ne\nf\ng\nh\ni\nbaz()\nb\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			orig := c.orig
			if orig == "" {
				orig = loose
			}
			res := reply.Parse(c.reply)
			if len(res.Malformed) != 0 || len(res.Blocks) != 2 {
				t.Fatalf("parse: %+v", res)
			}
			out, _, failed, f := reply.ApplyAll(res.Blocks, orig, c.level)
			if c.code == "" {
				if f != nil || out != c.want {
					t.Fatalf("ApplyAll = %q, %v; want %q", out, f, c.want)
				}
				return
			}
			if f == nil || failed != 1 || f.Code != c.code || !strings.Contains(f.Message, c.want) || fmt.Sprint(f.Candidates) != fmt.Sprint(c.candidates) {
				t.Fatalf("ApplyAll = %q, failed %d, %+v; want %s with %q and candidates %v", out, failed, f, c.code, c.want, c.candidates)
			}
			if out == orig {
				return
			}
			// out is the text before the failed hunk: the first hunk applied.
			if first, _, _ := res.Blocks[0].ApplyLevel(orig, c.level); first != out {
				t.Errorf("text before the failed hunk %q, want %q", out, first)
			}
		})
	}
}

// writeBlocks writes the edits of one file as EDIT blocks (edit) or
// SEARCH/REPLACE blocks of our own, each with up to 2 lines of context on
// each side taken from the text as the edits before it left it: as the
// leading and trailing anchors of an EDIT block, or repeated in both
// sections of a SEARCH/REPLACE block.
func writeBlocks(t *testing.T, path, orig string, edits [][2]string, edit bool) string {
	t.Helper()
	var b strings.Builder
	cur := orig
	for _, e := range edits {
		at := strings.Index(cur, e[0])
		if at < 0 {
			t.Fatalf("%q not in the text", e[0])
		}
		lines := strings.SplitAfter(cur[:at], "\n")
		lead := strings.Join(lines[max(len(lines)-3, 0):], "")
		rest := strings.SplitAfter(cur[at+len(e[0]):], "\n")
		trail := strings.Join(rest[:min(2, len(rest))], "")
		b.WriteString("Then " + path + ":\n\n" + path + "\n```\n")
		if edit {
			b.WriteString("<<<<<<< EDIT\n" + lead + "-------\n" + e[0] + "=======\n" + e[1] + "-------\n" + trail + ">>>>>>>\n")
		} else {
			b.WriteString("<<<<<<< SEARCH\n" + lead + e[0] + trail + "=======\n" + lead + e[1] + trail + ">>>>>>> REPLACE\n")
		}
		b.WriteString("```\n\n")
		cur = strings.Replace(cur, e[0], e[1], 1)
	}
	return b.String()
}

// TestBlockRoundTrip writes real edits of real files as EDIT and
// SEARCH/REPLACE blocks in a Markdown reply and applies them: the result is
// the edited file byte for byte (the round trip of TestDiffRoundTrip,
// for the two block formats).
func TestBlockRoundTrip(t *testing.T) {
	for fixture, edits := range realEdits {
		orig, edited := editedFixture(t, fixture)
		name := "src/" + filepath.Base(fixture)
		for kind, edit := range map[string]bool{"edit": true, "search-replace": false} {
			t.Run(filepath.Base(fixture)+"/"+kind, func(t *testing.T) {
				r := writeBlocks(t, name, orig, edits, edit)
				res := reply.Parse(r)
				if len(res.Malformed) > 0 || len(res.Blocks) != len(edits) {
					t.Fatalf("%d blocks, malformed %+v\n%s", len(res.Blocks), res.Malformed, r)
				}
				for _, b := range res.Blocks {
					if b.Path != name {
						t.Fatalf("block for %q, want %q", b.Path, name)
					}
				}
				out, _, _, f := reply.ApplyAll(res.Blocks, orig, match.Exact)
				if f != nil || out != edited {
					t.Fatalf("%v\n%s", f, diff("edited", "applied", edited, out))
				}
			})
		}
	}
}
