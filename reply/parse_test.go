package reply_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/reply"
)

// goBlock is an EDIT block on sync/atomic's noCopy declaration
// (testdata/src/go/atomic_type.go, lines 246-250).
const goBlock = "src/go/atomic_type.go\n" +
	"<<<<<<< EDIT\n" +
	"type noCopy struct{}\n" +
	"-------\n" +
	"\n" +
	"=======\n" +
	"\n" +
	"// Lock and Unlock are no-ops used by -copylocks checker from `go vet`.\n" +
	"-------\n" +
	"// Lock is a no-op used by -copylocks checker from `go vet`.\n" +
	">>>>>>>\n"

func TestParseOneBlock(t *testing.T) {
	res := reply.Parse("Prose first.\n\n" + goBlock + "\nProse after.\n")
	want := []reply.Block{{
		Format:        reply.FormatEdit,
		Path:          "src/go/atomic_type.go",
		ContextBefore: []string{"type noCopy struct{}"},
		OldLines:      []string{""},
		NewLines:      []string{"", "// Lock and Unlock are no-ops used by -copylocks checker from `go vet`."},
		ContextAfter:  []string{"// Lock is a no-op used by -copylocks checker from `go vet`."},
		Line:          4,
		PathLine:      3,
	}}
	if !reflect.DeepEqual(res.Blocks, want) || len(res.Malformed) != 0 {
		t.Fatalf("got %#v\nmalformed %v", res.Blocks, res.Malformed)
	}
	// The "go vet" in backticks is inside the block: not prose, and not a
	// shell command anyway.
	if len(res.Shell) != 0 {
		t.Errorf("shell: %v", res.Shell)
	}
}

func TestParseManyBlocks(t *testing.T) {
	var b strings.Builder
	for i := range 50 {
		fmt.Fprintf(&b, "Step %d.\n\nsrc/f%d.py\n```python\n<<<<<<< SEARCH\nx = %d\n=======\nx = %d\n>>>>>>> REPLACE\n```\n\n", i, i, i, i+1)
	}
	res := reply.Parse(b.String())
	if len(res.Blocks) != 50 || len(res.Malformed) != 0 {
		t.Fatalf("%d blocks, %d malformed", len(res.Blocks), len(res.Malformed))
	}
	for i, bl := range res.Blocks {
		if bl.Path != fmt.Sprintf("src/f%d.py", i) || bl.Line != 11*i+5 || bl.PathLine != 11*i+3 ||
			!reflect.DeepEqual(bl.OldLines, []string{fmt.Sprintf("x = %d", i)}) || bl.ContextBefore != nil || bl.ContextAfter != nil {
			t.Errorf("block %d: %+v", i, bl)
		}
	}
}

func TestParseCRLFReply(t *testing.T) {
	lf := "Intro `git rm a.py`.\n\n" + goBlock + "\nsrc/b.py\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n\nsrc/c.py\n<<<<<<< EDIT\nx\n>>>>>>>\n"
	crlf := strings.ReplaceAll(lf, "\n", "\r\n")
	a, b := reply.Parse(lf), reply.Parse(crlf)
	if !equalResults(a, b) {
		t.Fatalf("LF and CRLF replies differ:\n%+v\n%+v", a, b)
	}
	if len(a.Blocks) != 2 || len(a.Malformed) != 1 || len(a.Shell) != 1 {
		t.Fatalf("got %+v", a)
	}
	for _, bl := range b.Blocks {
		for _, l := range append(append(bl.ContextBefore, bl.OldLines...), append(bl.NewLines, bl.ContextAfter...)...) {
			if strings.ContainsAny(l, "\r\n") {
				t.Errorf("line %q keeps a line ending", l)
			}
		}
	}
}

func TestParseNoBlocks(t *testing.T) {
	for _, s := range []string{"", "\n", "\r\n", "Nothing to change.", "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> main\n", "-------\n=====\n>>> x\n"} {
		res := reply.Parse(s)
		if len(res.Blocks) != 0 || len(res.Malformed) != 0 {
			t.Errorf("Parse(%q) = %+v, want nothing", s, res)
		}
	}
}

// TestParsePathLine checks how the path line is found and cleaned: the
// line before the marker, through one fence line and blank lines, with
// models' decoration stripped; prose is no path.
func TestParsePathLine(t *testing.T) {
	const body = "<<<<<<< SEARCH\n=======\nx = 1\n>>>>>>> REPLACE\n"
	for _, c := range []struct {
		before, want string // want "" means malformed (path line missing)
	}{
		{"src/a.py\n", "src/a.py"},
		{"src/a.py\n```python\n", "src/a.py"},
		{"src/a.py\n\n```python\n\n", "src/a.py"},
		{"```\nsrc/a.py\n", "src/a.py"},
		{"src/a.py\n~~~\n", "src/a.py"},
		{"**src/a.py**\n", "src/a.py"},
		{"`src/a.py`\n", "src/a.py"},
		{"``src/a.py``\n", "src/a.py"},
		{"`src/a.py`:\n", "src/a.py"},
		{"src/a.py:\n", "src/a.py"},
		{"File: src/a.py\n", "src/a.py"},
		{"file: `src/a.py`\n", "src/a.py"},
		{"Filename: src/a.py\n", "src/a.py"},
		{"**File:** `src/a.py`\n", "src/a.py"},
		{"# src/a.py\n", "src/a.py"},
		{"### src/a.py\n", "src/a.py"},
		{"### `src/a.py`\n", "src/a.py"},
		{"- `src/a.py`\n", "src/a.py"},
		{"*src/a.py*\n", "src/a.py"},
		{"'src/a.py'\n", "src/a.py"},
		{"Makefile\n", "Makefile"},
		{"src\\win\\a.py\n", `src\win\a.py`},
		{"  src/a.py  \n", "src/a.py"},
		{"__init__.py\n", "__init__.py"},
		{"", ""},
		{"\n\n", ""},
		{"```python\n", ""},
		{"Here is the change\n", ""},
		{"Update src/a.py like this\n", ""},
		{"src/a.py.\n", ""},
		{"Changes:\n", ""},
		{"Makefile:\n", ""},
		{"---\n", ""},
		{"####### src/a.py\n", ""},
		{"src/<a>.py\n", ""},
		{strings.Repeat("a", 201) + "\n", ""},
		{strings.Repeat("a", 200) + "\n", strings.Repeat("a", 200)},
		{"src/a.py\n```\n```python\n", ""}, // only one fence line is skipped
	} {
		res := reply.Parse(c.before + body)
		switch {
		case c.want == "" && (len(res.Malformed) != 1 || !strings.HasPrefix(res.Malformed[0].Reason, "path line missing")):
			t.Errorf("%q: want malformed (path line missing), got %+v", c.before, res)
		case c.want != "" && (len(res.Blocks) != 1 || res.Blocks[0].Path != c.want):
			t.Errorf("%q: want path %q, got %+v", c.before, c.want, res)
		}
	}
}

// TestParsePathReuse checks where a block's path comes from: a block with no
// path line right after a block (only blank and fence lines between)
// takes its path (Aider's rule), never across prose or a malformed block;
// a path on the opening fence line; Options.Path for a reply that names
// no file; an explicit path always wins.
func TestParsePathReuse(t *testing.T) {
	const blk = "<<<<<<< SEARCH\nc\n=======\nd\n>>>>>>> REPLACE\n"
	for _, c := range []struct {
		name, reply, def string
		want             []string // the blocks' paths; "" for a malformed block
	}{
		{"reused", "src/a.py\n" + blk + blk, "", []string{"src/a.py", "src/a.py"}},
		{"reused across fences", "src/a.py\n```\n" + blk + "```\n\n```python\n" + blk + "```\n", "", []string{"src/a.py", "src/a.py"}},
		{"not across prose", "src/a.py\n" + blk + "Then:\n" + blk, "", []string{"src/a.py", ""}},
		{"not after a malformed block", "src/a.py\n<<<<<<< SEARCH\nx\n>>>>>>> REPLACE\n" + blk, "", []string{"", ""}},
		{"own path wins", "src/a.py\n" + blk + "src/b.py\n" + blk, "", []string{"src/a.py", "src/b.py"}},
		{"fence path", "Change:\n```python src/b.py\n" + blk + "```\n", "", []string{"src/b.py"}},
		{"fence path and same line", "src/b.py\n```python src/b.py\n" + blk, "", []string{"src/b.py"}},
		{"two paths", "src/a.py\n```python src/b.py\n" + blk, "", []string{""}},
		{"fence language only", "Change:\n```python\n" + blk, "", []string{""}},
		{"--path", "Here is the change:\n\n" + blk + "And:\n" + blk, "src/c.py", []string{"src/c.py", "src/c.py"}},
		{"--path, own path wins", "src/a.py\n" + blk + "Then:\n" + blk, "src/c.py", []string{"src/a.py", "src/c.py"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := reply.ParseWith(c.reply, reply.Options{Path: c.def})
			var got []string
			bi, mi := 0, 0
			for range len(res.Blocks) + len(res.Malformed) {
				switch {
				case mi < len(res.Malformed) && (bi == len(res.Blocks) || res.Malformed[mi].Line < res.Blocks[bi].Line):
					got = append(got, "")
					mi++
				default:
					got = append(got, res.Blocks[bi].Path)
					bi++
				}
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("paths %q, want %q\n%+v", got, c.want, res)
			}
		})
	}
}

func TestParseEndMarkers(t *testing.T) {
	for _, c := range []struct {
		block string
		ok    bool
	}{
		{"<<<<<<< EDIT\na\n-------\nb\n=======\nc\n-------\nd\n>>>>>>>\n", true},
		{"<<<<<<< EDIT\na\n-------\nb\n=======\nc\n-------\nd\n>>>>>>> EDIT\n", true},
		{"<<<<<<< EDIT\na\n-------\nb\n=======\nc\n-------\nd\n>>>>>>> END\n", true},
		{"<<<<<<< EDIT  \na\n-------\t\nb\n=======  \nc\n------- \nd\n>>>>>>>  \n", true},
		{"<<<<<<< EDIT\na\n-------\nb\n=======\nc\n-------\nd\n>>>>>>> REPLACE\n", false},
		{"<<<<<<< EDIT\na\n-------\nb\n=======\nc\n-------\nd\n>>>>>>> main\n", false},
		{"<<<<<<< SEARCH\nb\n=======\nc\n>>>>>>> REPLACE\n", true},
		{"<<<<<<< SEARCH\nb\n=======\nc\n>>>>>>>\n", true},
		{"<<<<<<< SEARCH\nb\n=======\nc\n>>>>>>> EDIT\n", false},
		{"<<<<<<<EDIT\na\n-------\nb\n=======\nc\n-------\nd\n>>>>>>>\n", false}, // a near miss: malformed
		{"<<<<<<< edit\na\n-------\nb\n=======\nc\n-------\nd\n>>>>>>>\n", false},
	} {
		res := reply.Parse("src/a.py\n" + c.block)
		if got := len(res.Blocks) == 1; got != c.ok {
			t.Errorf("%q: block parsed = %v, want %v (%+v)", c.block, got, c.ok, res)
		}
	}
}

// TestParseVerbatim: inside a block only the structural lines are special.
func TestParseVerbatim(t *testing.T) {
	lines := []string{
		"```", "```python", "~~~", "  -------", "=======x", " =======", "<<<<<<< HEAD", "<<<<<<<", "  <<<<<<< EDIT",
		"\ttab", "trailing  ", "", " ", "`git rm x`", "# src/a.py", "\u00e9t\u00e9 \u2603", "-------x",
	}
	body := strings.Join(lines, "\n")
	res := reply.Parse("src/a.md\n<<<<<<< EDIT\n" + body + "\n-------\n" + body + "\n=======\n" + body + "\n-------\n" + body + "\n>>>>>>>\n")
	if len(res.Blocks) != 1 {
		t.Fatalf("got %+v", res)
	}
	b := res.Blocks[0]
	for name, got := range map[string][]string{"leading": b.ContextBefore, "old": b.OldLines, "new": b.NewLines, "trailing": b.ContextAfter} {
		if !reflect.DeepEqual(got, lines) {
			t.Errorf("%s = %q, want %q", name, got, lines)
		}
	}
	if len(res.Shell) != 0 {
		t.Errorf("shell suggestions from inside a block: %v", res.Shell)
	}
	// In a SEARCH/REPLACE block "-------" is an ordinary line.
	res = reply.Parse("src/a.md\n<<<<<<< SEARCH\nTitle\n-------\n=======\nTitle\n-------\n\n>>>>>>> REPLACE\n")
	if len(res.Blocks) != 1 || !reflect.DeepEqual(res.Blocks[0].OldLines, []string{"Title", "-------"}) ||
		!reflect.DeepEqual(res.Blocks[0].NewLines, []string{"Title", "-------", ""}) {
		t.Fatalf("got %+v", res)
	}
}

// TestParseMalformedRecovery: after a malformed block parsing goes on, and
// a block's lines are never read as prose.
func TestParseMalformedRecovery(t *testing.T) {
	reply1 := strings.Join([]string{
		"src/a.py",       // 1
		"<<<<<<< EDIT",   // 2  missing =======
		"a",              // 3
		"-------",        // 4
		"`git rm x.py`",  // 5  inside the broken block: not a suggestion
		"-------",        // 6  the error: a second -------
		"```sh",          // 7  skipped, not a fence
		"rm -rf y",       // 8
		">>>>>>>",        // 9  end of the broken block
		"src/b.py",       // 10
		"<<<<<<< SEARCH", // 11
		"b",              // 12
		"=======",        // 13
		"c",              // 14
		">>>>>>> REPLACE",
		"`git rm z.py`", // 16
	}, "\n")
	res := reply.Parse(reply1)
	if len(res.Malformed) != 1 || res.Malformed[0].Line != 2 || !strings.Contains(res.Malformed[0].Reason, "line 6") {
		t.Errorf("malformed: %+v", res.Malformed)
	}
	if len(res.Blocks) != 1 || res.Blocks[0].Line != 11 || res.Blocks[0].Path != "src/b.py" {
		t.Errorf("blocks: %+v", res.Blocks)
	}
	if want := []reply.ShellSuggestion{{Line: 16, Command: "git rm z.py"}}; !reflect.DeepEqual(res.Shell, want) {
		t.Errorf("shell: %+v, want %+v", res.Shell, want)
	}

	// A block cut short by the next marker: the next block keeps its path
	// line, which the broken block had swallowed.
	res = reply.Parse("src/a.py\n<<<<<<< SEARCH\na\n\nsrc/b.py\n```python\n<<<<<<< SEARCH\nb\n=======\nc\n>>>>>>> REPLACE\n```\n")
	if len(res.Malformed) != 1 || res.Malformed[0].Line != 2 || len(res.Blocks) != 1 || res.Blocks[0].Path != "src/b.py" || res.Blocks[0].PathLine != 5 {
		t.Errorf("got %+v", res)
	}
}

func TestParseIndentedMarker(t *testing.T) {
	res := reply.Parse("1. Change it:\n\n   src/a.py\n   <<<<<<< SEARCH\n   a\n   =======\n   b\n   >>>>>>> REPLACE\n")
	if len(res.Blocks) != 0 || len(res.Malformed) != 1 || res.Malformed[0].Line != 4 || !strings.Contains(res.Malformed[0].Reason, "indented") {
		t.Fatalf("got %+v", res)
	}
}

func TestParseShellSuggestions(t *testing.T) {
	res := reply.Parse(strings.Join([]string{
		"Run `git rm old.py`, then `git mv a.py b.py` and `mkdir -p pkg/sub`.", // 1
		"Not `git status`, not `rm`, not `rmx foo`; but ``rm -rf build``.",     // 2
		"```shell",                 // 3
		"$ rm  stale.txt",          // 4
		"  cp a b",                 // 5
		"ls -la",                   // 6
		"```",                      // 7
		"```zsh",                   // 8
		"touch new.txt",            // 9
		"```",                      // 10
		"```console",               // 11
		"$ rmdir empty/",           // 12
		"```",                      // 13
		"```",                      // 14 a plain fence: not a shell
		"rm x",                     // 15
		"```",                      // 16
		"```python",                // 17
		"shutil.rmtree('x')",       // 18
		"# `rm y`",                 // 19
		"```",                      // 20
		"rm z, says the prose.",    // 21
		"Unclosed `rm w and more.", // 22
	}, "\n"))
	want := []reply.ShellSuggestion{
		{1, "git rm old.py"}, {1, "git mv a.py b.py"}, {1, "mkdir -p pkg/sub"},
		{2, "rm -rf build"}, {4, "rm  stale.txt"}, {5, "cp a b"}, {9, "touch new.txt"}, {12, "rmdir empty/"},
	}
	if !reflect.DeepEqual(res.Shell, want) {
		t.Fatalf("got %+v\nwant %+v", res.Shell, want)
	}
}

// adversarialReplies returns replies of about n lines built to make a
// careless parser quadratic: many markers, long runs of blank lines before
// markers, many unterminated blocks, many backticks, near-miss markers.
func adversarialReplies(n int) map[string]string {
	return map[string]string{
		"markers":           strings.Repeat("<<<<<<< EDIT\n", n),
		"blank runs":        strings.Repeat(strings.Repeat("\n", 1000)+"<<<<<<< SEARCH\n=======\n>>>>>>>\n", max(n/1000, 1)),
		"path then markers": strings.Repeat("src/a.py\n<<<<<<< SEARCH\na\n", n/3),
		"broken blocks":     strings.Repeat("src/a.py\n<<<<<<< EDIT\n=======\nx\n", n/4),
		"backticks":         strings.Repeat("`` ` `` `rm a` ```` ` `"+strings.Repeat("`", 100)+"\n", n/10),
		"fences":            strings.Repeat("```sh\nrm a\n", n/2),
		"one long line":     strings.Repeat("`", 4*n),
		"one line of runs":  strings.Repeat("` `` ``` ", n),
		// Shell lines around patches (each looks back and ahead in its
		// fence) and padded patch ends (each looks ahead).
		"heredocs":    "```sh\n" + strings.Repeat("# x\ncd a && apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: x\n*** End Patch\nEOF\n", n/6),
		"padded ends": "*** Begin Patch\n*** Update File: a\n" + strings.Repeat("-x\n *** End Patch\n\n\n", n/4),
		// Blocks that look ahead for a separator of another length.
		"equal runs": strings.Repeat("a.py\n<<<<<<< SEARCH\n=====\n======\n", n/4) + strings.Repeat("=====\n", n/2),
	}
}

// TestParseLinearTime shows that Parse's work grows linearly with the
// reply, by counting the parser's steps (lines and backtick runs looked
// at), not by timing it, which a loaded machine would skew: on each
// adversarial reply
// the steps are at most 4 per line and backtick run, and 8 times the input
// takes at most 8.5 times the steps (a quadratic parser takes 64 times).
// BenchmarkParseAdversarial measures the time.
func TestParseLinearTime(t *testing.T) {
	const n = 20_000
	small, large := adversarialReplies(n), adversarialReplies(8*n)
	for name, in := range small {
		_, s := reply.ParseSteps(in)
		_, l := reply.ParseSteps(large[name])
		if size := units(in); s > 4*size {
			t.Errorf("%s: %d steps for %d lines and backtick runs", name, s, size)
		}
		if float64(l) > 8.5*float64(s) {
			t.Errorf("%s: %d steps for %d lines and runs, %d for %d: growth %.1f for 8 times the input", name, s, units(in), l, units(large[name]), float64(l)/float64(s))
		}
	}
}

// units is the number of lines and of backtick runs in s.
func units(s string) int {
	n := strings.Count(s, "\n") + 1
	for i := 0; i < len(s); i++ {
		if s[i] == '`' && (i == 0 || s[i-1] != '`') {
			n++
		}
	}
	return n
}

// TestParseMarkerLines checks the marker lines, the variants Aider and
// Cline write included: a line that looks like a block marker is parsed as one
// where that is unambiguous, or is a Malformed with its reply line; it is
// never prose. Markdown that merely resembles a marker stays prose.
func TestParseMarkerLines(t *testing.T) {
	const good = "src/a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n\n"
	for _, c := range []struct {
		name   string
		reply  string
		blocks int
		// malformed are the wanted Malformed lines and formats, and want
		// a word each reason holds.
		malformed []int
		format    reply.Format
		want      string
	}{
		// Accepted: runs of 5 to 9, a trailing '>', Cline's markers.
		{name: "8 <", reply: good + "src/b.py\n<<<<<<<< SEARCH\nb\n========\nc\n>>>>>>>> REPLACE\n", blocks: 2},
		{name: "5 < and 5 =", reply: good + "src/b.py\n<<<<< SEARCH\nb\n=====\nc\n>>>>> REPLACE\n", blocks: 2},
		{name: "9 < with 7 =", reply: good + "src/b.py\n<<<<<<<<< SEARCH\nb\n=======\nc\n>>>>>>>>> REPLACE\n", blocks: 2},
		{name: "trailing >", reply: good + "src/b.py\n<<<<<<< SEARCH>\nb\n=======\nc\n>>>>>>> REPLACE\n", blocks: 2},
		{name: "cline", reply: good + "src/b.py\n------- SEARCH\nb\n=======\nc\n+++++++ REPLACE\n", blocks: 2},
		{name: "edit 6", reply: good + "src/b.py\n<<<<<< EDIT\na\n------\nb\n======\nc\n------\nd\n>>>>>>\n", blocks: 2},

		// Near misses: reported at their line, the block's lines skipped.
		{name: "10 <", reply: good + "src/b.py\n<<<<<<<<<< SEARCH\nb\n=======\nc\n>>>>>>> REPLACE\n",
			blocks: 1, malformed: []int{9}, format: reply.FormatSearchReplace, want: "start marker"},
		{name: "4 <", reply: good + "src/b.py\n<<<< SEARCH\nb\n=======\nc\n>>>>>>> REPLACE\n",
			blocks: 1, malformed: []int{9}, format: reply.FormatSearchReplace, want: "start marker"},
		{name: "no space", reply: good + "src/b.py\n<<<<<<<SEARCH\nb\n=======\nc\n>>>>>>> REPLACE\n",
			blocks: 1, malformed: []int{9}, format: reply.FormatSearchReplace, want: "start marker"},
		{name: "lower case", reply: good + "src/b.py\n<<<<<<< search\nb\n=======\nc\n>>>>>>> REPLACE\n",
			blocks: 1, malformed: []int{9}, format: reply.FormatSearchReplace, want: "start marker"},
		{name: "near-miss edit", reply: good + "src/b.py\n<<<<<<<<<<<< EDIT\na\n-------\nb\n=======\nc\n-------\n>>>>>>>\n",
			blocks: 1, malformed: []int{9}, format: reply.FormatEdit, want: "start marker"},
		{name: "stray separator", reply: good + "src/b.py\nb\n=======\nc\n>>>>>>> REPLACE\n",
			blocks: 1, malformed: []int{10}, format: reply.FormatSearchReplace, want: "separator outside any block"},
		{name: "stray end", reply: good + "src/b.py\nb\nc\n>>>>>>> REPLACE\n",
			blocks: 1, malformed: []int{11}, format: reply.FormatSearchReplace, want: "end marker outside any block"},
		{name: "stray bare end", reply: good + ">>>>>>>\n", blocks: 1, malformed: []int{8}, want: "end marker outside any block"},
		{name: "stray cline end", reply: good + "+++++++ REPLACE\n", blocks: 1, malformed: []int{8}, want: "end marker outside any block"},
		{name: "near-miss separator inside", reply: good + "src/b.py\n<<<<<<< SEARCH\nb\n<<<< SEARCH\n=======\nc\n>>>>>>> REPLACE\n",
			blocks: 1, malformed: []int{9}, format: reply.FormatSearchReplace, want: "line 11"},
		{name: "indented", reply: good + "- src/b.py\n  <<<<<<< SEARCH\n  b\n  =======\n  c\n  >>>>>>> REPLACE\n",
			blocks: 1, malformed: []int{9}, format: reply.FormatSearchReplace, want: "indented"},

		// Formats not read yet: refused, naming the format and the line.
		{name: "apply_patch", reply: good + "*** Begin Patch\n*** Update File: src/b.py\n@@ def f():\n-    x = 1\n+    x = 2\n*** End Patch\n" + good, blocks: 3},
		{name: "apply_patch without begin", reply: "*** Update File: src/b.py\n@@\n-a\n+b\n\n" + good, blocks: 2},
		{name: "apply_patch without end", reply: good + "*** Begin Patch\n*** Update File: src/b.py\n@@\n-a\n+b\n",
			blocks: 2, malformed: []int{8}, format: reply.FormatApplyPatch, want: "has no \"*** End Patch\" line"},
		{name: "unified diff", reply: good + "```diff\n--- a/src/b.py\n+++ b/src/b.py\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n d\n```\n", blocks: 2},
		{name: "indented unified diff", reply: good + "- the change:\n  ```diff\n  --- a/src/b.py\n  +++ b/src/b.py\n  @@ -1,3 +1,3 @@\n   a\n  -b\n  +c\n  ```\n",
			blocks: 1, malformed: []int{12}, format: reply.FormatUnifiedDiff, want: "indented hunk header"},
		{name: "hunk without file headers", reply: good + "@@ -1,2 +1,2 @@\n a\n-b\n+c\n",
			blocks: 1, malformed: []int{8}, format: reply.FormatUnifiedDiff, want: "without the --- and +++ lines"},

		// Prose that resembles markers.
		{name: "setext heading", reply: "Summary\n=======\n\n" + good, blocks: 1},
		{name: "other setext", reply: "A longer title\n==============\n\nDone\n=====\n" + good, blocks: 1},
		{name: "rules", reply: "---\n\n-------\n\n***\n\n" + good, blocks: 1},
		{name: "quoted conflict", reply: "```\n<<<<<<< HEAD\na\n=======\nb\n>>>>>>> feature\n```\n" + good, blocks: 1},
		{name: "diff3 conflict", reply: "<<<<<<< ours\na\n||||||| base\nx\n=======\nb\n>>>>>>> theirs\n" + good, blocks: 1},
		{name: "repl prompt", reply: ">>> edit(x)\n>>> search\n" + good, blocks: 1},
		{name: "prose words", reply: "--- edit history ---\n<<< SEARCH and REPLACE are the words >>>\n" + good, blocks: 1},
		{name: "diff headers without hunk", reply: "--- a/x\n+++ b/x\nno hunk\n" + good, blocks: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := reply.Parse(c.reply)
			var lines []int
			for _, m := range res.Malformed {
				lines = append(lines, m.Line)
				if c.format != "" && m.Format != c.format || !strings.Contains(m.Reason, c.want) {
					t.Errorf("malformed %+v, want format %q and %q in the reason", m, c.format, c.want)
				}
			}
			if len(res.Blocks) != c.blocks || !reflect.DeepEqual(lines, c.malformed) {
				t.Fatalf("%d blocks, malformed at %v; want %d, at %v\n%+v", len(res.Blocks), lines, c.blocks, c.malformed, res)
			}
		})
	}
}

// TestParseDeleteAndMove: apply_patch's Delete File and Move to (with
// and without hunks), and a unified diff's +++ /dev/null, git's
// a/P b/Q and rename lines (with and without hunks) are blocks that say
// what happens to the file, and diff -u's different names
// without a/ and b/ stay refused.
func TestParseDeleteAndMove(t *testing.T) {
	res := reply.Parse("*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@\n-x\n+y\n*** Delete File: c.py\n" +
		"*** Update File: m.py\n*** Move to: n/m.py\n*** End Patch\n" +
		"--- a/d.py\t2024-01-01 00:00:00\n+++ b/d.py\t2024-01-02 00:00:00\n@@ -1 +1 @@\n-x\n+y\n--- e.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n" +
		"--- a/f.py\n+++ b/g.py\n@@ -1 +1 @@\n-x\n+y\n" +
		"diff --git a/h.py b/i.py\nsimilarity index 100%\nrename from h.py\nrename to i.py\n" +
		"diff --git a/j.py b/k.py\nsimilarity index 90%\nrename from j.py\nrename to k.py\nindex 1..2 100644\n--- a/j.py\n+++ b/k.py\n@@ -1 +1 @@\n-x\n+y\n" +
		"--- l.py.orig\n+++ l.py\n@@ -1 +1 @@\n-x\n+y\n")
	type op struct {
		path, moveTo string
		del, only    bool
	}
	var got []op
	for _, b := range res.Blocks {
		got = append(got, op{b.Path, b.MoveTo, b.Delete, b.FileOnly()})
	}
	want := []op{{"a.py", "b.py", false, false}, {"c.py", "", true, true}, {"m.py", "n/m.py", false, true},
		{"d.py", "", false, false}, {"e.py", "", true, false}, {"f.py", "g.py", false, false},
		{"h.py", "i.py", false, true}, {"j.py", "k.py", false, false}, {"l.py", "", false, false}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("blocks %+v\nwant %+v", got, want)
	}
	// GNU diff's names of a copy edited (diff -u l.py.orig l.py): the
	// caller takes the one that exists.
	if l := res.Blocks[len(res.Blocks)-1]; !reflect.DeepEqual(l.PathChoices, []string{"l.py.orig", "l.py"}) {
		t.Errorf("path choices %q, want l.py.orig and l.py", l.PathChoices)
	}
	if len(res.Malformed) != 0 {
		t.Errorf("malformed %+v", res.Malformed)
	}
	for _, b := range res.Blocks {
		if b.IsCreate() {
			t.Errorf("block %+v creates a file", b)
		}
	}
}

// TestParseRenameMismatch: rename lines that do not name the --- and +++
// files, a deletion hunk that keeps lines and an empty Move to are
// malformed.
func TestParseRenameMismatch(t *testing.T) {
	for _, c := range []struct{ reply, want string }{
		{"rename from j.py\nrename to k.py\n--- a/j.py\n+++ b/x.py\n@@ -1 +1 @@\n-x\n+y\n", "but the --- and +++ lines"},
		{"--- a/e.py\n+++ /dev/null\n@@ -1,2 +0,1 @@\n-x\n y\n", "a deletion removes every line"},
		{"*** Begin Patch\n*** Update File: a.py\n*** Move to:\n@@\n-x\n+y\n*** End Patch\n", "names no file"},
	} {
		res := reply.Parse(c.reply)
		if len(res.Blocks) != 0 || len(res.Malformed) != 1 || !strings.Contains(res.Malformed[0].Reason, c.want) {
			t.Errorf("%q: %+v, want one malformed saying %q", c.reply, res, c.want)
		}
	}
}

// TestDeleteWithoutFinalNewline: a deletion hunk whose last removed line
// has no line ending ("\ No newline at end of file" on the old side only,
// as git diff writes the deletion of such a file) is read, and removes the
// whole of such a file; the marker pins the hunk to the file's end, so on
// a file with one more line, or whose last line has a line ending, it is
// refused and leaves the text as it was.
func TestDeleteWithoutFinalNewline(t *testing.T) {
	res := reply.Parse("--- a/x.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a = 1\n-b = 2\n\\ No newline at end of file\n")
	if len(res.Blocks) != 1 || len(res.Malformed) != 0 || !res.Blocks[0].Delete || !res.Blocks[0].OldNoEOL || !res.Blocks[0].AtEnd {
		t.Fatalf("%+v, want one Delete block", res)
	}
	if got, _, failedAt, f := reply.ApplyAll(res.Blocks, "a = 1\nb = 2", match.Exact); failedAt >= 0 || got != "" {
		t.Errorf("ApplyAll = %q, %d, %v; want \"\"", got, failedAt, f)
	}
	for _, text := range []string{"a = 1\nb = 2\nc = 3", "a = 1\nb = 2\n"} {
		got, _, failedAt, f := reply.ApplyAll(res.Blocks, text, match.Exact)
		if failedAt != 0 || f == nil || got != text {
			t.Errorf("ApplyAll(%q) = %q, %d, %v; want it refused", text, got, failedAt, f)
		}
	}
}

// TestParseHunklessGitDiff: git writes no
// ---, +++ or @@ lines when a diff creates or deletes an empty file,
// changes only a mode or touches a binary file. The first three, for one
// regular file, are blocks without lines (a create block with its Mode, a
// Delete block, a mode change with OldMode and Mode); the others are a
// malformed block, never prose that lets the rest of the reply apply as
// if the change were not asked for; a header followed by its hunks, or a
// rename, still parses.
func TestParseHunklessGitDiff(t *testing.T) {
	good := "diff --git a/x.py b/x.py\nindex 1111111..2222222 100644\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a = 1\n+a = 2\n"
	for _, tc := range []struct {
		name, reply string
		malformed   string // the reason's words, or "" for a block
		block       reply.Block
		hunks       bool // block's modes are on every hunk of its file
	}{
		{name: "mode change with hunks", reply: "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\nindex 1111111..2222222\n--- a/run.sh\n+++ b/run.sh\n@@ -1 +1 @@\n-a\n+b\n@@ -5 +5 @@\n-c\n+d\n" + good,
			block: reply.Block{Path: "run.sh", OldMode: reply.ModeFile, Mode: reply.ModeExecutable}, hunks: true},
		{name: "new executable with content", reply: "diff --git a/run.sh b/run.sh\nnew file mode 100755\nindex 0000000..2222222\n--- /dev/null\n+++ b/run.sh\n@@ -0,0 +1 @@\n+echo\n" + good,
			block: reply.Block{Path: "run.sh", Mode: reply.ModeExecutable}, hunks: true},
		{name: "new empty file", reply: "diff --git a/empty.py b/empty.py\nnew file mode 100644\nindex 0000000..e69de29\n" + good,
			block: reply.Block{Format: reply.FormatUnifiedDiff, Path: "empty.py", Line: 1, PathLine: 1, Mode: reply.ModeFile}},
		{name: "new empty executable", reply: good + "diff --git a/run.sh b/run.sh\nnew file mode 100755\nindex 0000000..e69de29\n",
			block: reply.Block{Format: reply.FormatUnifiedDiff, Path: "run.sh", Line: 8, PathLine: 8, Mode: reply.ModeExecutable}},
		{name: "deleted empty file", reply: good + "diff --git a/old.py b/old.py\ndeleted file mode 100644\nindex e69de29..0000000\n",
			block: reply.Block{Format: reply.FormatUnifiedDiff, Path: "old.py", Line: 8, PathLine: 8, Delete: true}},
		{name: "mode change", reply: "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n" + good,
			block: reply.Block{Format: reply.FormatUnifiedDiff, Path: "run.sh", Line: 1, PathLine: 1, OldMode: reply.ModeFile, Mode: reply.ModeExecutable}},
		{name: "binary", reply: "diff --git a/logo.png b/logo.png\nindex 1111111..2222222 100644\nBinary files a/logo.png and b/logo.png differ\n" + good,
			malformed: "git diff with no hunks of a binary file"},
		{name: "symbolic link", reply: "diff --git a/link b/link\nnew file mode 120000\nindex 0000000..1111111\n" + good,
			malformed: "git diff with no hunks that is not an empty file created or deleted or a mode change"},
		{name: "same mode", reply: "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100644\n" + good,
			malformed: "git diff with no hunks that is not"},
		{name: "copy", reply: "diff --git a/a.py b/c.py\nsimilarity index 100%\ncopy from a.py\ncopy to c.py\n" + good,
			malformed: "git diff with no hunks whose a/ and b/ names are not one file"},
		{name: "index only", reply: "diff --git a/a.py b/a.py\nindex 1111111..2222222 100644\n" + good,
			malformed: "git diff with no hunks that is not"},
		{name: "header and hunks", reply: good},
		{name: "rename with a mode change", reply: "diff --git a/a.sh b/b.sh\nold mode 100644\nnew mode 100755\nsimilarity index 100%\nrename from a.sh\nrename to b.sh\n" + good,
			block: reply.Block{Format: reply.FormatUnifiedDiff, Path: "a.sh", MoveTo: "b.sh", Line: 5, PathLine: 5, OldMode: reply.ModeFile, Mode: reply.ModeExecutable}},
		{name: "rename to a symbolic link", reply: "diff --git a/a.sh b/b.sh\nold mode 100644\nnew mode 120000\nsimilarity index 100%\nrename from a.sh\nrename to b.sh\n" + good,
			malformed: "the rename on lines 5-6 changes the type of a.sh (mode 100644 to 120000"},
		{name: "symbolic link with hunks", reply: "diff --git a/link b/link\nnew file mode 120000\nindex 0000000..1111111\n--- /dev/null\n+++ b/link\n@@ -0,0 +1 @@\n+target\n\\ No newline at end of file\n" + good,
			malformed: "creates link with mode 120000 (a symbolic link or a submodule), which apply does not do"},
		{name: "type change with hunks", reply: "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 120000\n--- a/run.sh\n+++ b/run.sh\n@@ -1 +1 @@\n-a\n+b\n" + good,
			malformed: "changes the type of run.sh (mode 100644 to 120000"},
		{name: "pure rename", reply: "diff --git a/a.py b/b.py\nsimilarity index 100%\nrename from a.py\nrename to b.py\n" + good,
			block: reply.Block{Format: reply.FormatUnifiedDiff, Path: "a.py", MoveTo: "b.py", Line: 3, PathLine: 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := reply.Parse(tc.reply)
			var x *reply.Block
			var others []reply.Block
			for k := range res.Blocks {
				if res.Blocks[k].Path == "x.py" {
					x = &res.Blocks[k]
				} else {
					others = append(others, res.Blocks[k])
				}
			}
			if x == nil {
				t.Errorf("the well-formed hunk of x.py was not parsed: %+v", res.Blocks)
			}
			if tc.malformed != "" {
				if len(res.Malformed) != 1 || !strings.Contains(res.Malformed[0].Reason, tc.malformed) || len(others) != 0 {
					t.Fatalf("malformed %+v, blocks %+v; want one malformed block saying %q", res.Malformed, others, tc.malformed)
				}
				return
			}
			if len(res.Malformed) != 0 {
				t.Fatalf("malformed %+v", res.Malformed)
			}
			if tc.block.Path == "" {
				if len(others) != 0 {
					t.Errorf("blocks %+v", others)
				}
				return
			}
			if tc.hunks {
				for _, b := range others {
					if b.Mode != tc.block.Mode || b.OldMode != tc.block.OldMode || len(b.NewLines) == 0 {
						t.Errorf("hunk %+v, want mode %q, old mode %q", b, tc.block.Mode, tc.block.OldMode)
					}
				}
				if len(others) == 0 {
					t.Errorf("no hunk of %s", tc.block.Path)
				}
				return
			}
			if len(others) != 1 || fmt.Sprintf("%+v", others[0]) != fmt.Sprintf("%+v", tc.block) {
				t.Fatalf("blocks %+v, want %+v", others, tc.block)
			}
		})
	}
}
