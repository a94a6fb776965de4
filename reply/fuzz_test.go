package reply_test

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/symedit/symedit/internal/lines"
	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/reply"
	"golang.org/x/tools/txtar"
)

// fixtures are the real sources the fuzz seeds and the benchmark are cut
// from.
var fixtures = []string{
	"../testdata/src/python/process.py",
	"../testdata/src/python/contextlib_excerpt.py",
	"../testdata/src/go/slog_value.go",
	"../testdata/src/go/atomic_type.go",
	"../testdata/src/java/Inventory.java",
	"../testdata/src/typescript/scheduler.ts",
}

func readFixture(tb testing.TB, path string) string {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// FuzzParse checks, on any input, that Parse never panics, is
// deterministic, reads a CRLF reply as its LF form, and reports blocks,
// malformed blocks and suggestions with consistent line numbers; and, on a
// reply built from blocks derived from the input (formatted with
// Block.String, among prose and fences), that Parse gives those blocks back.
func FuzzParse(f *testing.F) {
	golden, _ := filepath.Glob("testdata/*.txtar")
	for _, g := range golden {
		ar, err := txtar.ParseFile(g)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range ar.Files {
			if file.Name == "reply" {
				f.Add(string(file.Data))
			}
		}
	}
	for _, path := range fixtures[:3] {
		f.Add(readFixture(f, path)[:2000])
	}
	f.Add("a\n<<<<<<< EDIT\n")
	f.Add("<<<<<<< SEARCH\n=======\n>>>>>>>")
	f.Add("x\r<<<<<<< EDIT\r-------\r=======\r-------\r>>>>>>>\r")
	f.Add("`` `rm a` ``\n```sh\n$ git mv a b\n")
	f.Add("--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n\n\\ No newline at end of file\n@@ -9 +9 @@\n-x\n+y\n--- /dev/null\n+++ b/n.py\n@@ -0,0 +1 @@\n+z\n")
	f.Add("```diff\n--- x.py\n+++ x.py\n@@ ... @@\n a\n\n-b\n+c\n```\n@@ -1 +1 @@\n-q\n")
	f.Add("rename from a.py\nrename to b.py\n--- a/a.py\n+++ b/b.py\n@@ -1 +1 @@\n-x\n+y\nrename from c\nrename to d\n--- a/x\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n")
	f.Add("*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n*** Update File: c.py\n*** Move to: d.py\n@@\n-x\n+y\n*** Delete File: e.py\n*** End Patch\n")
	f.Add("diff --git a/e.py b/e.py\nnew file mode 100644\nindex 0000000..e69de29\ndiff --git a/d.py b/d.py\ndeleted file mode 100644\ndiff --git a/r.sh b/r.sh\nold mode 100644\nnew mode 100755\n")
	f.Add("diff --git \"a/t\\303\\251st.py\" \"b/t\\303\\251st.py\"\n--- \"a/t\\303\\251st.py\"\n+++ \"b/t\\303\\251st.py\"\n@@ -1 +1 @@\n-x\n+y\ndiff --git a/x b/y b/x b/y\nnew file mode 100644\n--- my file.py\t2026-11-25 00:00:00 +0000\n+++ my file.py\t2026-11-25 00:00:00 +0000\n@@ -1 +1 @@\n-x\n+y\n")
	// GNU diff's and git's forms apply reads as the peers do: -U0 hunks,
	// diff -N's epoch dates, two names for an edited copy, final line
	// endings added and removed.
	f.Add("--- a/f\t1970-01-01 00:00:00.000000000 +0000\n+++ b/f\t2026-11-27 04:06:28 +0000\n@@ -0,0 +1 @@\n+x\n--- f.orig\n+++ f\n@@ -5,0 +6,2 @@\n+x\n+y\n@@ -9 +10 @@\n-a\n\\ No newline at end of file\n+a\n--- x\n+++ x.new\t1969-12-31 16:00:00 -0800\n@@ -1 +0,0 @@\n-x\n\\ No newline at end of file\n")
	f.Add("`src/my file.py`\n```python \"src/my file.py\"\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n```python src/my file.py\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n")
	f.Add("*** Begin Patch\n*** Add File: n.py\n+x\n*** Update File: a.py\n@@ class A:\n@@ def f(self):\n     x = 1\n-    y\n+    z\n\n@@\n a\n*** End of File\n*** Delete File: d.py\n*** End Patch\n")

	f.Add("```bash\n# x\ncd \"my dir\" && apply_patch <<'EOF'\n *** Begin Patch\n*** Update File: a.py\n@@ class A:\n+    x = 1\n *** End Patch\nEOF\nrm x\n```\ncd sub\n*** Begin Patch\n*** Delete File: b\n*** End Patch\n")

	f.Fuzz(func(t *testing.T, data string) {
		res := reply.Parse(data)
		if again := reply.Parse(data); !reflect.DeepEqual(res, again) {
			t.Fatal("Parse is not deterministic")
		}
		checkResult(t, data, res)
		if !strings.Contains(data, "\r") {
			if crlf := reply.Parse(strings.ReplaceAll(data, "\n", "\r\n")); !equalResults(res, crlf) {
				t.Fatalf("the CRLF form parses differently:\n%+v\n%+v", res, crlf)
			}
		}

		text, want := buildReply(data)
		got := reply.Parse(text)
		if len(got.Malformed) != 0 || !equalResults(reply.Result{Blocks: got.Blocks}, reply.Result{Blocks: want}) {
			t.Fatalf("round trip of\n%s\ngot  %+v\nwant %+v", text, got, want)
		}
	})
}

// checkResult checks the invariants of a Result for reply data.
func checkResult(t *testing.T, data string, res reply.Result) {
	t.Helper()
	ls := lines.Split(data)
	n := len(ls)
	var markers []int
	used := 0
	pathLines := map[int]bool{}
	for _, b := range res.Blocks {
		if b.Format == reply.FormatUnifiedDiff && b.Line <= n && strings.HasPrefix(ls[b.Line-1], "diff --git ") {
			// git's change without hunks: an empty file
			// created or deleted, or a mode change; no lines.
			if b.PathLine != b.Line || b.Path == "" || b.OldLines != nil || b.NewLines != nil || b.ContextBefore != nil || b.ContextAfter != nil ||
				!(b.Mode != "" && b.OldMode == "" && b.IsCreate() || b.Delete && b.Mode == "" && b.FileOnly() || b.OldMode != "" && b.Mode != "" && b.FileOnly()) {
				t.Fatalf("git change without hunks %+v", b)
			}
			markers = append(markers, b.Line)
			continue
		}
		if b.PathLine < 1 || b.PathLine > b.Line || b.PathLine == b.Line && b.Format != reply.FormatApplyPatch && !b.FileOnly() || b.Line > n {
			t.Fatalf("block lines out of range: path %d, marker %d, reply %d lines", b.PathLine, b.Line, n)
		}
		if b.Format == reply.FormatUnifiedDiff && b.FileOnly() {
			// git's pure rename: its "rename from" and "rename to" lines.
			if !strings.HasPrefix(ls[b.Line-1], "rename from ") || !strings.HasPrefix(ls[b.Line], "rename to ") || b.MoveTo == "" || b.Path == "" {
				t.Fatalf("pure rename %+v", b)
			}
			markers = append(markers, b.Line)
			continue
		}
		if b.Format == reply.FormatUnifiedDiff {
			// A hunk: its @@ line, after its +++ line; its lines are
			// the diff's, whatever they look like.
			if !strings.HasPrefix(ls[b.Line-1], "@@") || !strings.HasPrefix(ls[b.PathLine-1], "+++ ") && !strings.HasPrefix(ls[b.PathLine-1], "--- ") ||
				b.Path == "" || b.ContextBefore != nil || b.ContextAfter != nil {
				t.Fatalf("hunk %+v", b)
			}
			markers = append(markers, b.Line)
			continue
		}
		if b.Format == reply.FormatApplyPatch {
			// A file added or a hunk of an apply_patch patch: after its
			// "*** Add File:" or "*** Update File:" line.
			if !strings.HasPrefix(strings.TrimSpace(ls[b.PathLine-1]), "*** ") || b.Line < b.PathLine || b.Path == "" || b.ContextBefore != nil || b.ContextAfter != nil {
				t.Fatalf("apply_patch block %+v", b)
			}
			markers = append(markers, b.Line)
			continue
		}
		if b.Format != reply.FormatEdit && b.Format != reply.FormatSearchReplace {
			t.Fatalf("format %q", b.Format)
		}
		if b.Path == "" || strings.ContainsAny(b.Path, "\t\r\n`*") || strings.TrimSpace(b.Path) != b.Path || len(b.Path) > 200 {
			t.Fatalf("path %q", b.Path)
		}
		// A path with spaces only from backticks or quotes, since a bare
		// line with spaces may be prose.
		if strings.Contains(b.Path, " ") && (b.PathLine < 1 || !strings.ContainsAny(ls[b.PathLine-1], "`'\"")) {
			t.Fatalf("path %q with spaces from the bare line %d", b.Path, b.PathLine)
		}
		if m := ls[b.Line-1]; !strings.HasPrefix(m, "<<<<<") && !(strings.HasPrefix(m, "-----") && b.Format == reply.FormatSearchReplace) {
			t.Fatalf("marker line %d is %q", b.Line, ls[b.Line-1])
		}
		if b.Format == reply.FormatSearchReplace && (b.ContextBefore != nil || b.ContextAfter != nil) {
			t.Fatalf("search-replace block with anchors")
		}
		for _, sec := range [][]string{b.ContextBefore, b.OldLines, b.NewLines, b.ContextAfter} {
			for _, l := range sec {
				if strings.ContainsAny(l, "\r\n") {
					t.Fatalf("block line %q", l)
				}
			}
			used += len(sec)
		}
		used += 2                   // start and end markers
		if !pathLines[b.PathLine] { // a path line may serve the blocks after it
			pathLines[b.PathLine] = true
			used++
		}
		if b.Format == reply.FormatEdit {
			used += 3 // separators
		} else {
			used++
		}
		markers = append(markers, b.Line)
	}
	if used > n { // blocks never share a line
		t.Fatalf("blocks hold %d lines of a %d-line reply", used, n)
	}
	for _, m := range res.Malformed {
		if m.Line < 1 || m.Line > n || m.Reason == "" || !markerShaped(ls[m.Line-1]) {
			t.Fatalf("malformed %+v", m)
		}
		markers = append(markers, m.Line)
	}
	slices.Sort(markers)
	if len(slices.Compact(markers)) != len(res.Blocks)+len(res.Malformed) {
		t.Fatalf("two results at one marker line: %v", markers)
	}
	for _, s := range res.Shell {
		if s.Line < 1 || s.Line > n || s.Command == "" || !strings.Contains(ls[s.Line-1], s.Command) {
			t.Fatalf("shell %+v", s)
		}
	}
}

// structural reports whether l is a line a block cannot hold, by the
// package documentation's rule: a separator, a line starting with >>>>>>>,
// or, at column 1, a line like a marker: a run of five or more of < > - +
// and then SEARCH, REPLACE or EDIT in any case, or a run of three or four
// and one of those words in capitals ending the line (after a - or + run,
// the word always ends the line).
func structural(l string, f reply.Format) bool {
	t := strings.TrimRight(l, " \t")
	if t == "=======" || (t == "-------" && f == reply.FormatEdit) || strings.HasPrefix(t, ">>>>>>>") {
		return true
	}
	if t == "" || strings.IndexByte("<>-+", t[0]) < 0 {
		return false
	}
	run := 0
	for run < len(t) && t[run] == t[0] {
		run++
	}
	if run < 3 {
		return false
	}
	fields := strings.Fields(t[run:])
	if len(fields) == 0 {
		return false
	}
	w := strings.TrimSuffix(fields[0], ">")
	if w == "" || !strings.EqualFold(w, "SEARCH") && !strings.EqualFold(w, "REPLACE") && !strings.EqualFold(w, "EDIT") {
		return false
	}
	if run < 5 && (len(fields) > 1 || strings.ToUpper(w) != w) {
		return false
	}
	return t[0] == '<' || t[0] == '>' || len(fields) == 1
}

// markerShaped reports whether a reply line could be reported as a
// malformed block: it starts, after indentation, with one of < > - + = * @,
// or it is a "diff --git" or "rename from" line (never prose either).
func markerShaped(l string) bool {
	t := strings.TrimLeftFunc(l, unicode.IsSpace)
	return t != "" && strings.IndexByte("<>-+=*@", t[0]) >= 0 || strings.HasPrefix(l, "diff --git ") || strings.HasPrefix(l, "rename from ")
}

// byteStream hands out the bytes of a string, then zeros.
type byteStream struct {
	s string
	i int
}

func (b *byteStream) next() int {
	if b.i >= len(b.s) {
		return 0
	}
	b.i++
	return int(b.s[b.i-1])
}

// buildReply derives blocks from data and formats them into a reply with
// prose, blank lines and fences between them. It returns the reply and
// the blocks, with the reply lines Parse must report.
func buildReply(data string) (string, []reply.Block) {
	h := fnv.New64a()
	h.Write([]byte(data))
	seed := h.Sum64()
	pool := strings.Split(strings.ReplaceAll(data, "\r", ""), "\n")
	bs := &byteStream{s: data}
	take := func(k int, f reply.Format) []string {
		var out []string
		for range k {
			// Block lines may be anything: Block.String escapes the
			// structural ones with a backslash, and Parse reads them back.
			l := pool[bs.next()*7%len(pool)]
			if structural(l, f) && f == "" {
				l = "x" + l
			}
			out = append(out, l)
		}
		return out
	}
	var reply1 strings.Builder
	line := 0
	write := func(s string) {
		reply1.WriteString(s)
		line += strings.Count(s, "\n")
	}
	var blocks []reply.Block
	nb := 1 + int(seed%4)
	for i := range nb {
		// Prose: a line of the input that starts no block.
		prose := take(1, "")[0]
		if markerShaped(prose) {
			prose = "x" + prose
		}
		write(prose + "\n")
		if bs.next()%2 == 0 {
			write("\n")
		}
		b := reply.Block{Format: reply.FormatEdit, Path: fmt.Sprintf("src/d%d/f_%x.go", i, seed>>(8*i)&0xffff)}
		if bs.next()%2 == 0 {
			b.Format = reply.FormatSearchReplace
		}
		if b.Format == reply.FormatEdit {
			b.ContextBefore = take(bs.next()%4, b.Format)
		}
		b.OldLines = take(bs.next()%4, b.Format)
		b.NewLines = take(bs.next()%4, b.Format)
		if b.Format == reply.FormatEdit {
			b.ContextAfter = take(bs.next()%4, b.Format)
		}
		fenced := bs.next()%3 == 0
		if fenced {
			write("```go\n")
		}
		b.PathLine = line + 1
		b.Line = line + 2
		write(b.String())
		if fenced {
			write("```\n")
		}
		blocks = append(blocks, b)
	}
	return reply1.String(), blocks
}

// FuzzApply checks Apply against a simple reference on blocks cut from a
// text: the block applies exactly when its lines occur at exactly one
// place that its empty anchors allow, the result is the text with the old
// lines replaced, line endings and the final newline are kept, and a
// failure leaves the text unchanged. A block with one line changed to match
// nowhere fails.
func FuzzApply(f *testing.F) {
	for i, path := range fixtures {
		ls := strings.SplitAfter(readFixture(f, path), "\n")
		for j, start := range []int{0, len(ls) / 2, len(ls) - 30} {
			window := strings.Join(ls[max(start, 0):min(start+40, len(ls))], "")
			k := byte(i*3 + j)
			f.Add(window, []byte{k, 3 * k, k + 2, 1 + k%3, k % 4, 2, k})
		}
	}
	f.Add("}\n}\n}\n", []byte{0, 0, 1, 1, 0, 1, 0})
	f.Add("a\nb", []byte{1, 1, 1, 0, 1, 0, 2})
	f.Add("", []byte{0, 0, 0, 0, 0, 1, 0})

	f.Add("\uFEFF", []byte{0, 0, 0, 0, 0, 0, 1})
	f.Add("\uFEFFa\n\uFEFFb\n", []byte{0, 1, 1, 1, 0, 0, 1})

	f.Fuzz(func(t *testing.T, text string, ops []byte) {
		// A UTF-8 byte order mark at the start of the text is kept and
		// not matched (a text of only a BOM has no lines: it is empty);
		// anywhere else it is an ordinary character of a line.
		text = strings.NewReplacer("\r", "", "\x00", "").Replace(text)
		bom := ""
		if strings.HasPrefix(text, "\uFEFF") {
			bom, text = "\uFEFF", text[len("\uFEFF"):]
		}
		all := strings.Split(text, "\n")
		final := strings.HasSuffix(text, "\n")
		if final || text == "" {
			all = all[:len(all)-1]
		}
		if len(all) > 300 {
			all, final = all[:300], true
			text = strings.Join(all, "\n") + "\n"
		}
		bs := &byteStream{s: string(ops)}
		crlf := bs.next()%2 == 1
		n := len(all)
		a := bs.next() % (n + 1)
		b := a + bs.next()%(n-a+1)
		c := b + bs.next()%(n-b+1)
		c = min(c, b+5)
		d := c + bs.next()%(n-c+1)
		d = min(d, c+3)
		var blk reply.Block
		if bs.next()%2 == 0 {
			blk = edit(all[a:b], all[b:c], nil, all[c:d])
		} else {
			blk = sr(all[b:c], nil)
		}
		for i := range bs.next() % 3 {
			blk.NewLines = append(blk.NewLines, fmt.Sprintf("// new %d", i))
		}
		if bs.next()%2 == 0 && c > b {
			blk.NewLines = append(blk.NewLines, all[b])
		}
		for _, p := range []*[]string{&blk.ContextBefore, &blk.OldLines, &blk.NewLines, &blk.ContextAfter} {
			if len(*p) == 0 {
				*p = nil
			}
		}
		in := text
		if crlf {
			in = strings.ReplaceAll(text, "\n", "\r\n")
		}
		in = bom + in
		out, fail := blk.Apply(in)
		places, start, end := reference(blk, all)
		if fail == nil && !strings.HasPrefix(out, bom) {
			t.Fatalf("the byte order mark was dropped: %q", out)
		}
		switch {
		case blk.IsCreate() && text != "":
			if fail == nil || fail.Code != reply.CodeFileExists {
				t.Fatalf("create on a non-empty text: %v", fail)
			}
		case blk.IsCreate():
			want := bom
			if len(blk.NewLines) > 0 {
				want += strings.Join(blk.NewLines, "\n") + "\n"
			}
			if fail != nil || out != want {
				t.Fatalf("create: %q, %v", out, fail)
			}
		case len(places) == 1:
			if fail != nil {
				t.Fatalf("reference applies at %d, Apply failed: %v", places[0], fail)
			}
			got := strings.ReplaceAll(strings.TrimPrefix(out, bom), "\r\n", "\n")
			want := slices.Concat(all[:start], blk.NewLines, all[end:])
			gotLines := strings.Split(got, "\n")
			if got == "" || strings.HasSuffix(got, "\n") {
				gotLines = gotLines[:len(gotLines)-1]
			}
			if len(want) == 0 {
				want = nil
			}
			if len(gotLines) == 0 {
				gotLines = nil
			}
			if !slices.Equal(gotLines, want) {
				t.Fatalf("got lines %q\nwant %q", gotLines, want)
			}
			// The final line ending is kept, except that an empty last
			// line needs one.
			if got != "" && strings.HasSuffix(got, "\n") != (final || want[len(want)-1] == "") {
				t.Fatalf("final newline: text %v, result %q", final, out)
			}
			if strings.Contains(in, "\r\n") && strings.Count(out, "\n") != strings.Count(out, "\r\n") {
				t.Fatalf("CRLF text gave LF lines: %q", out)
			}
		case len(places) > 1:
			if fail == nil || fail.Code != reply.CodeAmbiguous || len(fail.Candidates) != len(places) {
				t.Fatalf("reference: %d places; Apply: %q, %v", len(places), out, fail)
			}
		default:
			if fail == nil || fail.Code == reply.CodeAmbiguous || fail.Code == reply.CodeFileExists {
				t.Fatalf("reference: no place; Apply: %q, %v", out, fail)
			}
		}
		if fail != nil && out != in {
			t.Fatal("a failed Apply changed the text")
		}

		// One line changed so that it occurs nowhere: the block fails.
		sections := []*[]string{&blk.ContextBefore, &blk.OldLines, &blk.ContextAfter}
		for k := range sections {
			sec := sections[(k+bs.next())%3]
			if len(*sec) == 0 {
				continue
			}
			*sec = slices.Clone(*sec)
			(*sec)[bs.next()%len(*sec)] += "\x00 changed"
			out, fail := blk.Apply(in)
			if fail == nil && out == in && containsRun(all, blk.NewLines) {
				// Unless its new lines are there: then it is already
				// applied, which changes nothing and is no failure.
				if _, oc, _, _ := reply.ApplyAllOutcomes([]reply.Block{blk}, in, match.Exact); len(oc) == 1 && oc[0].AlreadyApplied {
					break
				}
			}
			if fail == nil || out != in {
				t.Fatalf("a changed block applied: %q", out)
			}
			break
		}
	})
}

// containsRun reports whether run, not empty, occurs in lines as
// consecutive lines.
func containsRun(lines, run []string) bool {
	if len(run) == 0 {
		return false
	}
	for i := 0; i+len(run) <= len(lines); i++ {
		if slices.Equal(lines[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

// reference finds, by brute force, every place where b applies to the
// lines: the 0-based starts of leading + old + trailing, with an empty
// leading anchor pinned to the start and an empty trailing anchor to the
// end (EDIT blocks only). For one place it also returns the old lines'
// range.
func reference(b reply.Block, all []string) (places []int, start, end int) {
	window := slices.Concat(b.ContextBefore, b.OldLines, b.ContextAfter)
	for p := 0; p+len(window) <= len(all); p++ {
		if !slices.Equal(all[p:p+len(window)], window) {
			continue
		}
		if b.Format == reply.FormatEdit && (len(b.ContextBefore) == 0 && p != 0 || len(b.ContextAfter) == 0 && p+len(window) != len(all)) {
			continue
		}
		places = append(places, p)
	}
	if len(places) == 1 {
		start = places[0] + len(b.ContextBefore)
		end = start + len(b.OldLines)
	}
	return places, start, end
}
