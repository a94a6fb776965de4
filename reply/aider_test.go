package reply_test

import (
	"strings"
	"testing"

	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/reply"
)

// applySR parses replyText, which must hold well-formed blocks for path
// alone, and applies them to text.
func applySR(t *testing.T, replyText, path, text string) string {
	t.Helper()
	res := reply.Parse(replyText)
	if len(res.Malformed) > 0 || len(res.Blocks) == 0 {
		t.Fatalf("parsed %d blocks, malformed %+v\n%s", len(res.Blocks), res.Malformed, replyText)
	}
	for _, b := range res.Blocks {
		if b.Path != path {
			t.Fatalf("block for %q, want %q\n%s", b.Path, path, replyText)
		}
	}
	out, _, _, f := reply.ApplyAll(res.Blocks, text, match.Exact)
	if f != nil {
		t.Fatalf("failure %v", f)
	}
	return out
}

// TestAiderFileNames reads the file names Aider's find_filename reads
// (aider/coders/editblock_coder.py and its tests): on the fence line
// after the language or in its place, in a fence of its own above the
// block's (DeepSeek Coder V2's habit, Aider's
// test_deepseek_coder_v2_filename_mangling), and mangled with '#', '*',
// backticks and a trailing ':' (Aider strips them, on either side).
func TestAiderFileNames(t *testing.T) {
	const blk = "<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n"
	for _, before := range []string{
		"```python foo.txt\n",
		"````python foo.txt\n",
		"```foo.txt\n",
		"```python src/foo.txt\n",
		" ```python\nfoo.txt\n```\n```python\n",
		"```\nfoo.txt\n```\n\n```\n",
		"#foo.txt\n",
		"##foo.txt\n```python\n",
		"# foo.txt\n",
		"**foo.txt**\n",
		"**foo.txt\n",
		"foo.txt**\n",
		"`foo.txt\n",
		"`foo.txt`\n",
		"foo.txt:\n",
		"`foo.txt`:\n",
		"**`foo.txt`:**\n",
		"**`foo.txt`**:\n",
		"#**foo.txt**:\n",
	} {
		want := "foo.txt"
		if strings.Contains(before, "src/") {
			want = "src/foo.txt"
		}
		if got := applySR(t, "Change:\n\n"+before+blk+"```\n", want, "zero\none\n"); got != "zero\ntwo\n" {
			t.Errorf("%q: got %q", before, got)
		}
	}
	// Still not names: a path in a fence of its own needs the fence's
	// opening line, and what the stripping leaves must look like a name.
	for _, before := range []string{
		"foo.txt\n```\n```python\n",
		"**\n",
		"#!\n",
		"`foo bar.txt\n",
		"**Changes:**\n",
	} {
		res := reply.Parse(before + blk)
		if len(res.Blocks) != 0 || len(res.Malformed) != 1 || !strings.HasPrefix(res.Malformed[0].Reason, "path line missing") {
			t.Errorf("%q: want path line missing, got %+v", before, res)
		}
	}
}

// TestAiderElisionBetweenBlocks: several blocks for one file with a
// "..." line between them, as in Aider's
// test_find_original_update_blocks_mupltiple_same_file: the block
// without a path line takes the one before's, as across blank lines.
func TestAiderElisionBetweenBlocks(t *testing.T) {
	r := "Here's the change:\n\n```text\nfoo.txt\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n\n...\n\n<<<<<<< SEARCH\nthree\n=======\nfour\n>>>>>>> REPLACE\n```\n\nHope you like it!\n"
	if got := applySR(t, r, "foo.txt", "one\nmid\nthree\n"); got != "two\nmid\nfour\n" {
		t.Errorf("got %q", got)
	}
	// Not across prose, nor across a "..." inside other prose.
	for _, between := range []string{"...\nThen:\n", "... and then\n"} {
		res := reply.Parse("foo.txt\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n" + between + "<<<<<<< SEARCH\nthree\n=======\nfour\n>>>>>>> REPLACE\n")
		if len(res.Blocks) != 1 || len(res.Malformed) != 1 {
			t.Errorf("%q: got %+v", between, res)
		}
	}
}

// TestMarkerRunVariants reads marker runs of different lengths in one
// block as Aider (HEAD "<{5,9} SEARCH>?", DIVIDER "={5,9}", UPDATED
// ">{5,9} REPLACE" in editblock_coder.py) and Cline (its diff.ts reads
// "={3,}" separators and ">{3,} REPLACE>?" legacy end markers) accept
// them, where the block stays unambiguous: an end marker of 5 to 9 '>'
// naming the block's kind, a '>' after the word, and, when no separator
// of the standard or the start marker's length is in the block, its one
// run of 5 to 9 '='. A block with several such runs and no standard
// separator, where which one separates cannot be told, stays malformed.
func TestMarkerRunVariants(t *testing.T) {
	for _, c := range []struct{ name, block string }{
		{"different end run with a trailing >", "<<<<<<< SEARCH\none\n=======\ntwo\n>>>>> REPLACE>\n"},
		{"six > and a trailing >", "<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>> REPLACE>\n"},
		{"nine > and a trailing >", "<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>>>> REPLACE>\n"},
		{"Cline's five =", "------- SEARCH\none\n=====\ntwo\n+++++++ REPLACE\n"},
		{"Cline's nine =", "------- SEARCH\none\n=========\ntwo\n+++++++ REPLACE\n"},
		{"Aider's six = with every run different", "<<<<<<<<< SEARCH>\none\n======\ntwo\n>>>>> REPLACE\n"},
		{"an EDIT block's end of five >", "<<<<<<< EDIT\n-------\none\n=======\ntwo\n-------\n>>>>> EDIT>\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := applySR(t, "foo.txt\n"+c.block, "foo.txt", "one\n"); got != "two\n" {
				t.Errorf("got %q", got)
			}
		})
	}
	// A run of another length next to a standard separator is a line of
	// the block, as before.
	if got := applySR(t, "x.rst\n<<<<<<< SEARCH\nTitle\n=====\n=======\nTitle!\n=====\n>>>>>>> REPLACE\n", "x.rst", "Title\n=====\n"); got != "Title!\n=====\n" {
		t.Errorf("got %q", got)
	}
	// Still malformed: several candidate separators, and a bare '>' run
	// of another length (a quoted line, content) leaves the block open.
	for _, c := range []struct{ block, want string }{
		{"------- SEARCH\none\n=====\ntwo\n=====\nthree\n+++++++ REPLACE\n", "lines 4, 6 are runs of '=' of other lengths"},
		{"<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>\n", "unterminated block"},
		{"<<<<<<< SEARCH\none\n=======\ntwo\n>>>>> replace\n", `does not close a SEARCH/REPLACE block`},
	} {
		res := reply.Parse("foo.txt\n" + c.block)
		if len(res.Blocks) != 0 || len(res.Malformed) != 1 || !strings.Contains(res.Malformed[0].Reason, c.want) || res.Malformed[0].Line != 2 {
			t.Errorf("%q: want malformed at line 2 with %q, got %+v", c.block, c.want, res)
		}
	}
}

// TestAiderElisionInBlock applies a SEARCH/REPLACE block whose SEARCH and
// REPLACE sections are split by the same "..." lines into pieces, each
// piece in order, as Aider's try_dotdotdots does when the SEARCH lines
// (dots included) occur nowhere; where they do occur (a Python stub's
// "..."), the block applies as written. Each piece must occur once, below
// the piece before; anything else is refused, saying why.
func TestAiderElisionInBlock(t *testing.T) {
	const text = "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n"
	for _, c := range []struct{ name, old, new, text, want string }{
		{"two pieces", "    def f(self):\n...\n    def g(self):\n", "    def f(self, x):\n...\n    def g(self, x):\n", text,
			"class A:\n    def f(self, x):\n        return 1\n\n    def g(self, x):\n        return 2\n"},
		{"indented dots and an unchanged piece", "class A:\n    ...\n        return 2\n", "class A:\n    ...\n        return 3\n", text,
			"class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 3\n"},
		{"dots at the ends", "...\n        return 1\n...\n", "...\n        return 10\n...\n", text,
			"class A:\n    def f(self):\n        return 10\n\n    def g(self):\n        return 2\n"},
		{"a stub's literal dots", "def h():\n    ...\n", "def h():\n    return 0\n", "def h():\n    ...\n", "def h():\n    return 0\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := "x.py\n<<<<<<< SEARCH\n" + c.old + "=======\n" + c.new + ">>>>>>> REPLACE\n"
			if got := applySR(t, r, "x.py", c.text); got != c.want {
				t.Errorf("got %q", got)
			}
		})
	}
	dup := text + "\n    def f(self):\n        return 1\n"
	for _, c := range []struct{ name, old, new, text, want string }{
		{"different dots", "    def f(self):\n...\n    def g(self):\n", "    def f(self, x):\n    def g(self, x):\n", text, `the SEARCH section has 1 "..." lines and the REPLACE section 0`},
		{"a piece twice", "class A:\n...\n    def f(self):\n", "class B:\n...\n    def f(self, x):\n", dup, `piece 2's SEARCH lines occur at lines 2, 8`},
		{"a piece missing", "class A:\n...\n    def h(self):\n", "class A:\n...\n    def h(self, x):\n", text, `piece 2's SEARCH lines do not occur`},
		{"pieces out of order", "    def g(self):\n...\n    def f(self):\n", "    def g(self, x):\n...\n    def f(self, x):\n", text, "piece 2's SEARCH lines occur at line 2, above piece 1's"},
		{"a piece with nothing to search", "...\n        return 1\n", "# head\n...\n        return 1\n", text, "piece 1 has REPLACE lines but no SEARCH lines"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := reply.Parse("x.py\n<<<<<<< SEARCH\n" + c.old + "=======\n" + c.new + ">>>>>>> REPLACE\n")
			if len(res.Blocks) != 1 {
				t.Fatalf("got %+v", res)
			}
			out, f := res.Blocks[0].Apply(c.text)
			if f == nil || f.Code != reply.CodeNotFound || !strings.Contains(f.Message, "read as Aider's elision, "+c.want) || out != c.text {
				t.Errorf("got %q, %+v; want NOT_FOUND with %q and the text unchanged", out, f, c.want)
			}
		})
	}
}
