package chunk_test

import (
	"errors"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/symedit/symedit/chunk"
	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/remedy"
)

// formatMethod is Inventory/report/Line/format, a method of a local class
// inside a method, lines 184-186 of testdata/src/java/Inventory.java.
func formatMethod(t testing.TB) chunk.Target {
	t.Helper()
	lines := fileLines(t, "../testdata/src/java/Inventory.java", 184, 186)
	if lines[0] != "            String format() {" {
		t.Fatalf("fixture changed: line 184 of Inventory.java is %q", lines[0])
	}
	return chunk.Target{Lines: lines, FirstLine: 184}
}

// flushLeft is a chunk on formatMethod as a model sends it flush-left.
var flushLeft = []chunk.Chunk{{
	ContextBefore: []string{"String format() {"},
	OldLines:      []string{`    return String.format("%-12s %6d %s", item.sku(), item.quantity, item.category());`},
	NewLines:      []string{"    String cat = item.category();", `    return String.format("%-12s %6d %s", item.sku(), item.quantity, cat);`},
	ContextAfter:  []string{"}"},
}}

func TestNestedMethodFlushLeft(t *testing.T) {
	tg := formatMethod(t)
	res, err := chunk.ApplyLevel(tg, flushLeft, match.Indent)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"            String format() {",
		"                String cat = item.category();",
		`                return String.format("%-12s %6d %s", item.sku(), item.quantity, cat);`,
		"            }",
	}
	if !slices.Equal(res.Lines, want) {
		t.Errorf("Lines =\n%s\nwant\n%s", strings.Join(res.Lines, "\n"), strings.Join(want, "\n"))
	}
	p := res.Hunks[0]
	if p.Line != 185 || p.Level != match.Indent || p.Shift.Columns != 12 || p.Describe() != "indent +12 spaces" {
		t.Errorf("Hunk = %+v (%s)", p, p.Describe())
	}

	// At the default levels: refused, naming the line and the level, the
	// remedy (the match option, as data) and no front end's spelling of
	// it.
	for _, apply := range []func() (chunk.Result, error){
		func() (chunk.Result, error) { return chunk.Apply(tg, flushLeft) },
		func() (chunk.Result, error) { return chunk.ApplyLevel(tg, flushLeft, match.Trailing) },
	} {
		_, err := apply()
		var e *chunk.Error
		if !errors.As(err, &e) || !errors.Is(err, chunk.ErrNoMatch) {
			t.Fatalf("err = %v, want a NO_MATCH *chunk.Error", err)
		}
		if e.Hint == nil || e.Hint.Line != 185 || e.Hint.Level != match.Indent {
			t.Errorf("Hint = %+v", e.Hint)
		}
		if r := remedy.Of(err); !slices.Equal(r, remedy.Set(remedy.Match, "indent")) {
			t.Errorf("remedy.Of = %v, want match indent", r)
		}
		for _, s := range []string{"file line 185", "level indent +12 spaces"} {
			if !strings.Contains(e.Message, s) {
				t.Errorf("message %q lacks %q", e.Message, s)
			}
		}
		if strings.Contains(e.Error(), "--") || strings.Contains(e.Error(), "rerun") {
			t.Errorf("message names a front end's option: %q", e.Error())
		}
	}
}

// TestPythonNestedDef: a method of a class nested in a function,
// dedented and with tabs, in contextlib's excerpt.
func TestLevelsPython(t *testing.T) {
	tg := startMethod(t)
	c := []chunk.Chunk{{
		ContextBefore: []string{"\tself._check_closed()"},
		OldLines:      []string{"\tassert self._popen is None, \u2018cannot start a process twice\u2019"},
		NewLines:      []string{"\tif self._popen is not None:", "\t\traise RuntimeError('cannot start a process twice')"},
		ContextAfter:  []string{"\tassert self._parent_pid == os.getpid(), \\"},
	}}
	for _, l := range []match.Level{match.Exact, match.Trailing, match.Indent} {
		_, err := chunk.ApplyLevel(tg, c, l)
		var e *chunk.Error
		if !errors.As(err, &e) || e.Hint == nil || e.Hint.Level != match.Loose || e.Hint.Line != 121 {
			t.Fatalf("at %v: err = %v, hint %+v", l, err, e)
		}
	}
	res, err := chunk.ApplyLevel(tg, c, match.Loose)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Lines[5:7]; !slices.Equal(got, []string{"        if self._popen is not None:", "            raise RuntimeError('cannot start a process twice')"}) {
		t.Errorf("new lines = %q", got)
	}
	if p := res.Hunks[0]; p.Level != match.Loose || p.Describe() != "loose +4 spaces, tabs for spaces" {
		t.Errorf("Hunk = %+v (%s)", p, p.Describe())
	}
}

// TestLevelStrictFirst: the strictest level with a match wins, and an
// ambiguity there is not broken by a looser level.
func TestLevelStrictFirst(t *testing.T) {
	tg := chunk.Target{Lines: []string{"f() {", "    x = 1", "    y", "}", "g() {", "  x = 1", "  y", "}"}, FirstLine: 1}
	c := []chunk.Chunk{{OldLines: []string{"  x = 1"}, NewLines: []string{"  x = 2"}, ContextAfter: []string{"  y"}}}
	res, err := chunk.ApplyLevel(tg, c, match.Loose)
	if err != nil || res.Hunks[0].Line != 6 || res.Hunks[0].Level != match.Exact {
		t.Fatalf("res = %+v, %v", res.Hunks, err)
	}
	c[0].OldLines, c[0].NewLines, c[0].ContextAfter = []string{"x = 1"}, []string{"x = 2"}, []string{"y"}
	_, err = chunk.ApplyLevel(tg, c, match.Loose)
	var e *chunk.Error
	if !errors.As(err, &e) || !errors.Is(err, chunk.ErrAmbiguous) || e.Level != "indent" || !slices.Equal(e.Candidates, []int{2, 6}) {
		t.Fatalf("err = %v", err)
	}
	// A deletion at indent still needs its lines byte for byte, but for
	// the indentation.
	c[0].NewLines = nil
	c[0].OldLines = []string{"x = 1 "}
	if _, err := chunk.ApplyLevel(tg, c, match.Loose); !errors.Is(err, chunk.ErrNoMatch) {
		t.Fatalf("inexact deletion: err = %v", err)
	}
	c[0].OldLines = []string{"x = 1"}
	if _, err := chunk.ApplyLevel(tg, c, match.Loose); !errors.Is(err, chunk.ErrAmbiguous) {
		t.Fatalf("deletion: err = %v", err)
	}
}

// FuzzIndent: for random files and random shifted copies of a unique
// block, indent applies exactly where the block is, with the new lines at
// the file's indentation, and a rejected call changes nothing.
func FuzzIndent(f *testing.F) {
	f.Add(int64(1), 0)
	f.Add(int64(7), -3)
	f.Add(int64(42), 5)
	f.Fuzz(func(t *testing.T, seed int64, shift int) {
		r := rand.New(rand.NewSource(seed))
		words := []string{"a", "b()", "{", "}", "return x", "x = 1", "if y:", ""}
		n := 5 + r.Intn(40)
		file := make([]string, n)
		for i := range file {
			w := words[r.Intn(len(words))]
			if w != "" {
				w = strings.Repeat(" ", 2*r.Intn(5)) + w
			}
			file[i] = w
		}
		// The block holds a line found nowhere else.
		pos := r.Intn(n - 2)
		size := 1 + r.Intn(3)
		if pos+size > n {
			size = n - pos
		}
		file[pos+r.Intn(size)] = strings.Repeat(" ", 2*(1+r.Intn(4))) + "unique()"
		block := file[pos : pos+size]
		// The copy shifts every line of the chunk, context included, by
		// one amount; a negative shift is limited by the file's least
		// indentation.
		minIndent, blockIndent := 1<<30, 1<<30
		for i, l := range file {
			if strings.TrimSpace(l) != "" {
				w := len(l) - len(strings.TrimLeft(l, " "))
				minIndent = min(minIndent, w)
				if i >= pos && i < pos+size {
					blockIndent = min(blockIndent, w)
				}
			}
		}
		shift %= 8
		if -shift > minIndent {
			shift = -minIndent
		}
		shifted := func(ls []string) []string {
			out := make([]string, len(ls))
			for i, l := range ls {
				switch {
				case strings.TrimSpace(l) == "":
					out[i] = l
				case shift >= 0:
					out[i] = strings.Repeat(" ", shift) + l
				default:
					out[i] = l[-shift:]
				}
			}
			return out
		}
		copyOf := shifted(block)
		tg := chunk.Target{Lines: slices.Clone(file), FirstLine: 1}
		marked := append(slices.Clone(copyOf), strings.Repeat(" ", blockIndent+shift)+"marker()")
		c := []chunk.Chunk{{OldLines: copyOf, NewLines: marked, ContextBefore: shifted(file[:pos]), ContextAfter: shifted(file[pos+size:])}}
		if pos == 0 && pos+size == n {
			return
		}
		res, err := chunk.ApplyLevel(tg, c, match.Indent)
		if !slices.Equal(tg.Lines, file) {
			t.Fatal("Apply modified Target.Lines")
		}
		if err != nil {
			// With all the file as context the block is unique: blank
			// context lines are the only way it can fail.
			t.Fatalf("rejected: %v", err)
		}
		if res.Hunks[0].Line != pos+1 {
			t.Fatalf("applied at line %d, want %d", res.Hunks[0].Line, pos+1)
		}
		want := slices.Concat(file[:pos], block, []string{strings.Repeat(" ", blockIndent) + "marker()"}, file[pos+size:])
		if !slices.Equal(res.Lines, want) {
			t.Fatalf("lines = %q, want %q", res.Lines, want)
		}
		// Old lines alone, without context: either exactly the block's
		// place, or rejected with nothing changed.
		c2 := []chunk.Chunk{{OldLines: copyOf, NewLines: marked, ContextAfter: []string{"\x00never"}}}
		if _, err := chunk.ApplyLevel(tg, c2, match.Indent); err == nil || !slices.Equal(tg.Lines, file) {
			t.Fatalf("a chunk with impossible context applied or changed the input: %v", err)
		}
		c3 := []chunk.Chunk{{OldLines: copyOf, NewLines: marked, ContextAfter: shifted(file[pos+size:])}}
		if res, err := chunk.ApplyLevel(tg, c3, match.Indent); err == nil && res.Hunks[0].Line != pos+1 {
			t.Fatalf("applied at line %d, want %d", res.Hunks[0].Line, pos+1)
		}
	})
}
