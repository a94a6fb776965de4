package chunk_test

import (
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/symedit/symedit/chunk"
)

// fileLines returns lines first..last (1-based) of a fixture.
func fileLines(t testing.TB, path string, first, last int) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if last > len(lines) {
		t.Fatalf("%s has %d lines, want %d", path, len(lines), last)
	}
	return lines[first-1 : last]
}

// startMethod is CPython's multiprocessing BaseProcess.start, lines 116-132
// of testdata/src/python/process.py.
func startMethod(t testing.TB) chunk.Target {
	t.Helper()
	lines := fileLines(t, "../testdata/src/python/process.py", 116, 132)
	if lines[0] != "    def start(self):" || lines[16] != "        _children.add(self)" {
		t.Fatalf("fixture changed: lines 116-132 of process.py are no longer BaseProcess.start")
	}
	return chunk.Target{Lines: lines, FirstLine: 116}
}

// line returns file line n of t.
func line(t chunk.Target, n int) string { return t.Lines[n-t.FirstLine] }

// errSpec is what a rejection must carry; zero fields are checked as zero.
type errSpec struct {
	is         error
	chunk      int
	other      int
	check      chunk.Check
	line       int
	expected   string
	actual     string
	candidates []int
	nearest    int      // file line that must be Nearest[0], or 0 for no Nearest
	message    []string // substrings of Message
}

// applyErr applies chunks expecting a rejection, checks that t.Lines did not
// change, and returns the *chunk.Error.
func applyErr(t *testing.T, tg chunk.Target, chunks []chunk.Chunk, want errSpec) *chunk.Error {
	t.Helper()
	before := slices.Clone(tg.Lines)
	res, err := chunk.Apply(tg, chunks)
	if !slices.Equal(tg.Lines, before) {
		t.Fatal("Apply modified Target.Lines")
	}
	if err == nil {
		t.Fatalf("Apply succeeded with %q, want %v", res.Lines, want.is)
	}
	if res.Lines != nil || res.Hunks != nil {
		t.Errorf("Apply returned a result with its error: %+v", res)
	}
	if !errors.Is(err, want.is) {
		t.Fatalf("err = %v, want errors.Is %v", err, want.is)
	}
	var e *chunk.Error
	if !errors.As(err, &e) {
		t.Fatalf("err is %T, want *chunk.Error", err)
	}
	for _, other := range []error{chunk.ErrNoMatch, chunk.ErrAmbiguous, chunk.ErrOverlap} {
		if other != want.is && errors.Is(err, other) {
			t.Errorf("err is also %v", other)
		}
	}
	wantCode := map[error]string{chunk.ErrNoMatch: chunk.CodeNoMatch, chunk.ErrAmbiguous: chunk.CodeAmbiguous, chunk.ErrOverlap: chunk.CodeOverlap}[want.is]
	if e.Code != wantCode {
		t.Errorf("Code = %q, want %q", e.Code, wantCode)
	}
	if e.Chunk != want.chunk || e.Other != want.other || e.Check != want.check {
		t.Errorf("Chunk, Other, Check = %d, %d, %q; want %d, %d, %q", e.Chunk, e.Other, e.Check, want.chunk, want.other, want.check)
	}
	if e.Line != want.line || e.Expected != want.expected || e.Actual != want.actual {
		t.Errorf("Line, Expected, Actual = %d, %q, %q\nwant %d, %q, %q", e.Line, e.Expected, e.Actual, want.line, want.expected, want.actual)
	}
	if !slices.Equal(e.Candidates, want.candidates) {
		t.Errorf("Candidates = %v, want %v", e.Candidates, want.candidates)
	}
	if want.nearest == 0 {
		if len(e.Nearest) != 0 {
			t.Errorf("Nearest = %+v, want none", e.Nearest)
		}
	} else {
		checkNearest(t, tg, e, want.nearest)
	}
	for _, m := range want.message {
		if !strings.Contains(e.Message, m) {
			t.Errorf("Message %q lacks %q", e.Message, m)
		}
	}
	if !strings.HasPrefix(e.Error(), e.Message) {
		t.Errorf("Error() = %q does not start with Message", e.Error())
	}
	return e
}

// checkNearest checks that Nearest is at most 3 real lines of the symbol,
// best first, the best being file line best, strictly more similar than
// the others.
func checkNearest(t *testing.T, tg chunk.Target, e *chunk.Error, best int) {
	t.Helper()
	if len(e.Nearest) == 0 || len(e.Nearest) > 3 {
		t.Fatalf("Nearest = %+v, want 1 to 3 lines", e.Nearest)
	}
	for i, n := range e.Nearest {
		if n.Line < tg.FirstLine || n.Line >= tg.FirstLine+len(tg.Lines) || line(tg, n.Line) != n.Text {
			t.Errorf("Nearest[%d] = %+v is not a line of the symbol", i, n)
		}
		if n.Similarity <= 0 || n.Similarity > 1 {
			t.Errorf("Nearest[%d].Similarity = %v, want in (0, 1]", i, n.Similarity)
		}
		if i > 0 && n.Similarity > e.Nearest[i-1].Similarity {
			t.Errorf("Nearest is not sorted best first: %+v", e.Nearest)
		}
	}
	if e.Nearest[0].Line != best {
		t.Errorf("Nearest[0] = %+v, want line %d %q", e.Nearest[0], best, line(tg, best))
	}
	if len(e.Nearest) > 1 && e.Nearest[1].Similarity >= e.Nearest[0].Similarity {
		t.Errorf("Nearest[0] is not strictly the most similar: %+v", e.Nearest)
	}
	if !strings.Contains(e.Error(), "nearest lines in the symbol:") || !strings.Contains(e.Error(), e.Nearest[0].Text) {
		t.Errorf("Error() does not list the nearest lines: %q", e.Error())
	}
}

// applyOK applies chunks expecting success, checks that t.Lines did not
// change, and returns the result.
func applyOK(t *testing.T, tg chunk.Target, chunks []chunk.Chunk) chunk.Result {
	t.Helper()
	before := slices.Clone(tg.Lines)
	res, err := chunk.Apply(tg, chunks)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if !slices.Equal(tg.Lines, before) {
		t.Fatal("Apply modified Target.Lines")
	}
	return res
}

// splice returns lines with file lines first..last (first = last+1 for an
// insertion before first) replaced by repl.
func splice(tg chunk.Target, first, last int, repl ...string) []string {
	out := slices.Clone(tg.Lines[:first-tg.FirstLine])
	out = append(out, repl...)
	return append(out, tg.Lines[last-tg.FirstLine+1:]...)
}

func TestCheckInsertion(t *testing.T) {
	tg := startMethod(t)
	valid := chunk.Chunk{
		ContextBefore: []string{line(tg, 120)},
		OldLines:      []string{line(tg, 121)},
		NewLines:      []string{"        assert self._popen is None"},
		ContextAfter:  []string{line(tg, 122)},
	}
	for _, c := range []chunk.Chunk{
		{NewLines: []string{"        print('no anchor')"}},
		{ContextBefore: nil, OldLines: nil, NewLines: []string{"x"}, ContextAfter: nil},
		{ContextBefore: []string{}, OldLines: []string{}, NewLines: []string{"x"}},
	} {
		applyErr(t, tg, []chunk.Chunk{valid, c}, errSpec{
			is: chunk.ErrNoMatch, chunk: 2, check: chunk.CheckInsertion,
			message: []string{"chunk 2 failed check 3 (insertion)", "context_before or context_after"},
		})
	}
}

func TestCheckContextBefore(t *testing.T) {
	tg := startMethod(t)
	t.Run("missing line", func(t *testing.T) {
		applyErr(t, tg, []chunk.Chunk{{
			ContextBefore: []string{"        self._check_open()"},
			OldLines:      []string{line(tg, 121)},
			NewLines:      []string{"        pass"},
			ContextAfter:  []string{line(tg, 122)},
		}}, errSpec{
			is: chunk.ErrNoMatch, chunk: 1, check: chunk.CheckContextBefore,
			expected: "        self._check_open()",
			nearest:  120,
			message:  []string{`context_before line 1 "        self._check_open()" is not in the symbol (lines 116-132)`},
		})
	})
	t.Run("second line missing", func(t *testing.T) {
		applyErr(t, tg, []chunk.Chunk{{
			ContextBefore: []string{line(tg, 126), "        self._popen = self.Popen(self)"},
			OldLines:      []string{line(tg, 128)},
			NewLines:      []string{"        pass"},
			ContextAfter:  []string{line(tg, 129)},
		}}, errSpec{
			is: chunk.ErrNoMatch, chunk: 1, check: chunk.CheckContextBefore,
			expected: "        self._popen = self.Popen(self)",
			nearest:  127,
			message:  []string{"context_before line 2"},
		})
	})
	t.Run("not consecutive", func(t *testing.T) {
		applyErr(t, tg, []chunk.Chunk{{
			ContextBefore: []string{line(tg, 126), line(tg, 120)},
			OldLines:      []string{line(tg, 121)},
			NewLines:      []string{"        pass"},
			ContextAfter:  []string{line(tg, 122)},
		}}, errSpec{
			is: chunk.ErrNoMatch, chunk: 1, check: chunk.CheckContextBefore,
			line: 127, expected: line(tg, 120), actual: line(tg, 127),
			nearest: 120,
			message: []string{"not consecutively"},
		})
	})
	t.Run("starts above the symbol", func(t *testing.T) {
		// The line before the symbol is not in it: a mismatch inside the
		// symbol explains the failure better than running off its edge.
		applyErr(t, tg, []chunk.Chunk{{
			ContextBefore: []string{"", line(tg, 116)}, // file lines 115-116
			OldLines:      []string{line(tg, 117)},
			NewLines:      []string{`        """`},
			ContextAfter:  []string{line(tg, 118)},
		}}, errSpec{
			is: chunk.ErrNoMatch, chunk: 1, check: chunk.CheckContextBefore,
			message: []string{`context_before line 1 "" is not in the symbol`},
		})
	})
}

func TestCheckBoundary(t *testing.T) {
	tg := startMethod(t)
	t.Run("after the end", func(t *testing.T) {
		applyErr(t, tg, []chunk.Chunk{{
			ContextBefore: []string{line(tg, 131)},
			OldLines:      []string{line(tg, 132)},
			NewLines:      []string{"        _children.add(self)  # registered"},
			ContextAfter:  []string{"", "    def terminate(self):"},
		}}, errSpec{
			is: chunk.ErrNoMatch, chunk: 1, check: chunk.CheckBoundary,
			candidates: []int{132},
			message:    []string{"chunk 1 failed check 5 (boundary)", "context_after line 1 would lie after the symbol's last line (132)", "lines 116-132"},
		})
	})
	t.Run("old lines after the end", func(t *testing.T) {
		applyErr(t, tg, []chunk.Chunk{{
			ContextBefore: []string{line(tg, 132)},
			OldLines:      []string{"", "    def terminate(self):"},
			NewLines:      []string{},
		}}, errSpec{
			is: chunk.ErrNoMatch, chunk: 1, check: chunk.CheckBoundary,
			candidates: []int{133},
			message:    []string{"old_lines line 1 would lie after the symbol's last line (132)"},
		})
	})
	t.Run("before the start", func(t *testing.T) {
		// A three-line symbol, lines 126-128, with five lines of context
		// reaching above it.
		small := chunk.Target{Lines: tg.Lines[10:13], FirstLine: 126}
		applyErr(t, small, []chunk.Chunk{{
			ContextBefore: tg.Lines[6:11], // lines 122-126
			OldLines:      []string{line(tg, 127)},
			NewLines:      []string{"        self._popen = self._Popen(self, timeout=None)"},
			ContextAfter:  []string{line(tg, 128)},
		}}, errSpec{
			is: chunk.ErrNoMatch, chunk: 1, check: chunk.CheckBoundary,
			expected: line(tg, 122),
			nearest:  127,
			message:  []string{"context_before line 1 would lie before the symbol's first line", "lines 126-128"},
		})
	})
}

func TestCheckOldLines(t *testing.T) {
	tg := startMethod(t)
	applyErr(t, tg, []chunk.Chunk{{
		ContextBefore: []string{line(tg, 120)},
		OldLines:      []string{"        assert self._popen is None, 'cannot start a process 2x'"},
		NewLines:      []string{"        pass"},
		ContextAfter:  []string{line(tg, 122)},
	}}, errSpec{
		is: chunk.ErrNoMatch, chunk: 1, check: chunk.CheckOldLines,
		line: 121, expected: "        assert self._popen is None, 'cannot start a process 2x'", actual: line(tg, 121),
		candidates: []int{121},
		nearest:    121,
		message:    []string{"chunk 1 failed check 2 (old_lines)", "after context_before (matched at lines 120-120)", "file line 121"},
	})
	// Without context_before the best candidate is where the most lines
	// matched: the second old line is wrong.
	applyErr(t, tg, []chunk.Chunk{{
		OldLines:     []string{line(tg, 127), "        self._sentinel = self.popen.sentinel"},
		NewLines:     []string{"        pass"},
		ContextAfter: []string{line(tg, 129)},
	}}, errSpec{
		is: chunk.ErrNoMatch, chunk: 1, check: chunk.CheckOldLines,
		line: 128, expected: "        self._sentinel = self.popen.sentinel", actual: line(tg, 128),
		nearest: 128,
		message: []string{"where the chunk matches best", "file line 128"},
	})
	// Leading white space is not tolerated.
	applyErr(t, tg, []chunk.Chunk{{
		ContextBefore: []string{line(tg, 125)},
		OldLines:      []string{"_cleanup()"},
		NewLines:      []string{"cleanup()"},
		ContextAfter:  []string{line(tg, 127)},
	}}, errSpec{
		is: chunk.ErrNoMatch, chunk: 1, check: chunk.CheckOldLines,
		line: 126, expected: "_cleanup()", actual: line(tg, 126),
		candidates: []int{126},
		nearest:    126,
	})
}

func TestCheckDeletion(t *testing.T) {
	tg := startMethod(t)
	withSpaces := line(tg, 129) + "  "
	applyErr(t, tg, []chunk.Chunk{{
		ContextBefore: []string{line(tg, 128)},
		OldLines:      []string{withSpaces, line(tg, 130)},
		NewLines:      []string{},
		ContextAfter:  []string{line(tg, 131)},
	}}, errSpec{
		is: chunk.ErrNoMatch, chunk: 1, check: chunk.CheckDeletion,
		line: 129, expected: withSpaces, actual: line(tg, 129),
		candidates: []int{129},
		nearest:    129,
		message:    []string{"chunk 1 failed check 4 (deletion)", "byte for byte"},
	})
	// The same old_lines replaced, not deleted, pass: trailing white space
	// is tolerated outside check 4.
	res := applyOK(t, tg, []chunk.Chunk{{
		ContextBefore: []string{line(tg, 128)},
		OldLines:      []string{withSpaces, line(tg, 130)},
		NewLines:      []string{"        # Avoid a reference cycle (bpo-30775)"},
		ContextAfter:  []string{line(tg, 131)},
	}})
	if want := splice(tg, 129, 130, "        # Avoid a reference cycle (bpo-30775)"); !slices.Equal(res.Lines, want) {
		t.Errorf("got %q, want %q", res.Lines, want)
	}
	// An exact deletion passes.
	res = applyOK(t, tg, []chunk.Chunk{{
		ContextBefore: []string{line(tg, 128)},
		OldLines:      []string{line(tg, 129), line(tg, 130)},
		NewLines:      []string{},
		ContextAfter:  []string{line(tg, 131)},
	}})
	if want := splice(tg, 129, 130); !slices.Equal(res.Lines, want) {
		t.Errorf("got %q, want %q", res.Lines, want)
	}
}

// TestCheckDeletionBeforeContextAfter: the package documentation orders
// check 4 (deletion) before check 1 (context_after), so a candidate failing
// both must report the deletion.
func TestCheckDeletionBeforeContextAfter(t *testing.T) {
	tg := startMethod(t)
	c := chunk.Chunk{
		ContextBefore: []string{line(tg, 128)},
		OldLines:      []string{line(tg, 129) + " ", line(tg, 130)},
		NewLines:      []string{},
		ContextAfter:  []string{"        del self._target"},
	}
	_, err := chunk.Apply(tg, []chunk.Chunk{c})
	var e *chunk.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want a *chunk.Error", err)
	}
	if e.Check != chunk.CheckDeletion {
		t.Fatalf("Check = %s, want check 4 (deletion) before context_after", e.Check)
	}
	if e.Line != 129 {
		t.Errorf("Line = %d, want 129", e.Line)
	}
}

func TestCheckContextAfter(t *testing.T) {
	tg := startMethod(t)
	applyErr(t, tg, []chunk.Chunk{{
		ContextBefore: []string{line(tg, 120)},
		OldLines:      []string{line(tg, 121)},
		NewLines:      []string{"        if self._popen is not None:", "            raise RuntimeError('cannot start a process twice')"},
		ContextAfter:  []string{`        assert self._parent_pid != os.getpid(), \`},
	}}, errSpec{
		is: chunk.ErrNoMatch, chunk: 1, check: chunk.CheckContextAfter,
		line: 122, expected: `        assert self._parent_pid != os.getpid(), \`, actual: line(tg, 122),
		candidates: []int{121},
		nearest:    122,
		message:    []string{"chunk 1 failed check 1 (context_after)", "file line 122"},
	})
	// The second context_after line is wrong.
	applyErr(t, tg, []chunk.Chunk{{
		OldLines:     []string{line(tg, 126)},
		NewLines:     []string{"        cleanup()"},
		ContextAfter: []string{line(tg, 127), "        self._sentinel = None"},
	}}, errSpec{
		is: chunk.ErrNoMatch, chunk: 1, check: chunk.CheckContextAfter,
		line: 128, expected: "        self._sentinel = None", actual: line(tg, 128),
		nearest: 128,
	})
}

func TestCheckEndOfSymbol(t *testing.T) {
	tg := startMethod(t)
	applyErr(t, tg, []chunk.Chunk{{
		ContextBefore: []string{line(tg, 125)},
		OldLines:      []string{line(tg, 126)},
		NewLines:      []string{"        cleanup()"},
	}}, errSpec{
		is: chunk.ErrNoMatch, chunk: 1, check: chunk.CheckEndOfSymbol,
		line: 127, actual: line(tg, 127),
		candidates: []int{126},
		message:    []string{"chunk 1 failed check 6 (end_of_symbol)", "symbol's last line (132), but 6 more line(s) follow", "give context_after"},
	})
	// At the last line, no context_after is right.
	res := applyOK(t, tg, []chunk.Chunk{{
		ContextBefore: []string{line(tg, 131)},
		OldLines:      []string{line(tg, 132)},
		NewLines:      []string{"        _children.add(self)", "        return self"},
	}})
	if want := splice(tg, 132, 132, "        _children.add(self)", "        return self"); !slices.Equal(res.Lines, want) {
		t.Errorf("got %q, want %q", res.Lines, want)
	}
	// An insertion with context_before only appends at the symbol's end.
	res = applyOK(t, tg, []chunk.Chunk{{
		ContextBefore: []string{line(tg, 132)},
		NewLines:      []string{"        return self"},
	}})
	if want := append(slices.Clone(tg.Lines), "        return self"); !slices.Equal(res.Lines, want) {
		t.Errorf("got %q, want %q", res.Lines, want)
	}
	// ... and fails anywhere else.
	applyErr(t, tg, []chunk.Chunk{{
		ContextBefore: []string{line(tg, 131)},
		NewLines:      []string{"        pass"},
	}}, errSpec{
		is: chunk.ErrNoMatch, chunk: 1, check: chunk.CheckEndOfSymbol,
		line: 132, actual: line(tg, 132), candidates: []int{132},
		message: []string{"1 more line(s) follow"},
	})
}

func TestCheckLineEndings(t *testing.T) {
	tg := startMethod(t)
	tests := []struct {
		name   string
		c      chunk.Chunk
		styles string
	}{
		{"crlf and lf in one string", chunk.Chunk{OldLines: []string{line(tg, 127) + "\r\n" + line(tg, 128) + "\n"}, NewLines: []string{"x"}, ContextAfter: []string{line(tg, 129)}}, "CRLF and LF"},
		{"crlf and lf in two strings", chunk.Chunk{OldLines: []string{line(tg, 127) + "\r\n", line(tg, 128) + "\n"}, NewLines: []string{"x"}, ContextAfter: []string{line(tg, 129)}}, "CRLF and LF"},
		{"lf and cr in new_lines", chunk.Chunk{OldLines: []string{line(tg, 127)}, NewLines: []string{"a\nb\rc"}, ContextAfter: []string{line(tg, 128)}}, "LF and CR"},
		{"all three in context_before", chunk.Chunk{ContextBefore: []string{"a\r\nb\nc\rd"}, OldLines: []string{line(tg, 127)}, NewLines: []string{"x"}, ContextAfter: []string{line(tg, 128)}}, "CRLF and LF and CR"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			applyErr(t, tg, []chunk.Chunk{tt.c}, errSpec{
				is: chunk.ErrNoMatch, chunk: 1, check: chunk.CheckLineEndings,
				message: []string{"chunk 1 failed check 7 (line_endings)", "(" + tt.styles + ")"},
			})
		})
	}
	// One style per chunk is fine, whichever it is.
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		res := applyOK(t, tg, []chunk.Chunk{{
			ContextBefore: []string{line(tg, 126) + eol},
			OldLines:      []string{line(tg, 127) + eol + line(tg, 128) + eol},
			NewLines:      []string{"        self._popen = p = self._Popen(self)" + eol + "        self._sentinel = p.sentinel"},
			ContextAfter:  []string{line(tg, 129)},
		}})
		if want := splice(tg, 127, 128, "        self._popen = p = self._Popen(self)", "        self._sentinel = p.sentinel"); !slices.Equal(res.Lines, want) {
			t.Errorf("eol %q: got %q, want %q", eol, res.Lines, want)
		}
	}
}

// TestCheckLineEndingsAcrossFields: doc.go says check 7 "refuses a chunk
// whose strings mix line-ending styles", so CRLF in context_before and LF in
// old_lines is a mix.
func TestCheckLineEndingsAcrossFields(t *testing.T) {
	tg := startMethod(t)
	_, err := chunk.Apply(tg, []chunk.Chunk{{
		ContextBefore: []string{line(tg, 125) + "\r\n" + line(tg, 126)},
		OldLines:      []string{line(tg, 127) + "\n" + line(tg, 128)},
		NewLines:      []string{"x"},
		ContextAfter:  []string{line(tg, 129)},
	}})
	var e *chunk.Error
	if err == nil || !errors.As(err, &e) || e.Check != chunk.CheckLineEndings {
		t.Fatalf("err = %v, want check 7 (line_endings) for a chunk mixing CRLF and LF across fields", err)
	}
}

func TestAmbiguous(t *testing.T) {
	// Real Go: two identical error returns.
	tg := chunk.Target{FirstLine: 10, Lines: []string{
		"func (s *store) Save(k string, v []byte) error {",
		"\tif err := s.check(k); err != nil {",
		"\t\treturn err",
		"\t}",
		"\tif err := s.db.Put(k, v); err != nil {",
		"\t\treturn err",
		"\t}",
		"\treturn nil",
		"}",
	}}
	wrap := "\t\treturn fmt.Errorf(\"save %s: %w\", k, err)"
	e := applyErr(t, tg, []chunk.Chunk{{
		OldLines:     []string{"\t\treturn err"},
		NewLines:     []string{wrap},
		ContextAfter: []string{"\t}"},
	}}, errSpec{
		is: chunk.ErrAmbiguous, chunk: 1, check: chunk.CheckUnique,
		candidates: []int{12, 15},
		message:    []string{"chunk 1 is ambiguous: it matches 2 places (old_lines start at file lines 12, 15)"},
	})
	if len(e.Nearest) != 0 {
		t.Errorf("ambiguous error with Nearest %+v", e.Nearest)
	}
	// An insertion point can be ambiguous too.
	applyErr(t, tg, []chunk.Chunk{{
		ContextBefore: []string{"\t\treturn err"},
		NewLines:      []string{"\t\t// unreachable"},
		ContextAfter:  []string{"\t}"},
	}}, errSpec{
		is: chunk.ErrAmbiguous, chunk: 1, check: chunk.CheckUnique,
		candidates: []int{13, 16},
		message:    []string{"the insertion point is at file lines 13, 16"},
	})
	// Trailing white space does not make lines differ: still ambiguous.
	applyErr(t, tg, []chunk.Chunk{{
		OldLines:     []string{"\t\treturn err \t"},
		NewLines:     []string{wrap},
		ContextAfter: []string{"\t}  "},
	}}, errSpec{is: chunk.ErrAmbiguous, chunk: 1, check: chunk.CheckUnique, candidates: []int{12, 15}})
	// context_before resolves it.
	res := applyOK(t, tg, []chunk.Chunk{{
		ContextBefore: []string{"\tif err := s.db.Put(k, v); err != nil {"},
		OldLines:      []string{"\t\treturn err"},
		NewLines:      []string{wrap},
		ContextAfter:  []string{"\t}"},
	}})
	if want := splice(tg, 15, 15, wrap); !slices.Equal(res.Lines, want) {
		t.Errorf("got %q, want %q", res.Lines, want)
	}
	if want := []chunk.Hunk{{Chunk: 1, Line: 15, Removed: 1, Added: 1}}; !reflect.DeepEqual(res.Hunks, want) {
		t.Errorf("Hunks = %+v, want %+v", res.Hunks, want)
	}
	// So does context_after, here the symbol's last lines.
	res = applyOK(t, tg, []chunk.Chunk{{
		OldLines:     []string{"\t\treturn err"},
		NewLines:     []string{wrap},
		ContextAfter: []string{"\t}", "\treturn nil"},
	}})
	if want := splice(tg, 15, 15, wrap); !slices.Equal(res.Lines, want) {
		t.Errorf("got %q, want %q", res.Lines, want)
	}
}

func TestOverlap(t *testing.T) {
	tg := startMethod(t)
	replace := func(first, last int, repl ...string) chunk.Chunk {
		return chunk.Chunk{
			ContextBefore: []string{line(tg, first-1)},
			OldLines:      tg.Lines[first-tg.FirstLine : last-tg.FirstLine+1],
			NewLines:      repl,
			ContextAfter:  []string{line(tg, last+1)},
		}
	}
	insert := func(before int, repl ...string) chunk.Chunk {
		return chunk.Chunk{
			ContextBefore: []string{line(tg, before-1)},
			NewLines:      repl,
			ContextAfter:  []string{line(tg, before)},
		}
	}
	tests := []struct {
		name   string
		chunks []chunk.Chunk
		want   errSpec
	}{
		{"overlapping replacements", []chunk.Chunk{replace(121, 122, "a"), replace(122, 123, "b")}, errSpec{
			is: chunk.ErrOverlap, chunk: 2, other: 1, check: chunk.CheckOverlap, line: 122,
			message: []string{"chunks 1 and 2 overlap: chunk 1 changes lines 121-122 and chunk 2 changes lines 122-123; merge them into one chunk"},
		}},
		{"overlapping replacements in reverse order", []chunk.Chunk{replace(122, 123, "b"), replace(121, 122, "a")}, errSpec{
			is: chunk.ErrOverlap, chunk: 2, other: 1, check: chunk.CheckOverlap, line: 122,
			message: []string{"chunks 1 and 2 overlap: chunk 1 changes lines 122-123 and chunk 2 changes lines 121-122"},
		}},
		{"same lines", []chunk.Chunk{replace(126, 126, "a"), replace(120, 120, "c"), replace(126, 126, "b")}, errSpec{
			is: chunk.ErrOverlap, chunk: 3, other: 1, check: chunk.CheckOverlap, line: 126,
		}},
		{"contained", []chunk.Chunk{replace(121, 128, "a"), replace(124, 125, "b")}, errSpec{
			is: chunk.ErrOverlap, chunk: 2, other: 1, check: chunk.CheckOverlap, line: 124,
		}},
		{"two insertions at the same point", []chunk.Chunk{insert(132, "        a()"), insert(132, "        b()")}, errSpec{
			is: chunk.ErrOverlap, chunk: 2, other: 1, check: chunk.CheckOverlap, line: 132,
			message: []string{"chunk 1 inserts before line 132 and chunk 2 inserts before line 132"},
		}},
		{"insertion inside a replaced range", []chunk.Chunk{replace(126, 128, "x"), insert(127, "        a()")}, errSpec{
			is: chunk.ErrOverlap, chunk: 2, other: 1, check: chunk.CheckOverlap, line: 127,
			message: []string{"chunk 1 changes lines 126-128 and chunk 2 inserts before line 127"},
		}},
		{"insertion listed first, inside a replaced range", []chunk.Chunk{insert(127, "        a()"), replace(126, 128, "x")}, errSpec{
			is: chunk.ErrOverlap, chunk: 2, other: 1, check: chunk.CheckOverlap, line: 127,
		}},
		{"insertion at a replaced range's first line", []chunk.Chunk{replace(127, 128, "x"), insert(127, "        a()")}, errSpec{
			is: chunk.ErrOverlap, chunk: 2, other: 1, check: chunk.CheckOverlap, line: 127,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			applyErr(t, tg, tt.chunks, tt.want)
		})
	}
	// Adjacent changes do not overlap: two replacements of consecutive
	// lines, and an insertion right after the second, listed first.
	res := applyOK(t, tg, []chunk.Chunk{insert(130, "        # c"), replace(129, 129, "        # b"), replace(128, 128, "        # a")})
	if want := splice(tg, 128, 129, "        # a", "        # b", "        # c"); !slices.Equal(res.Lines, want) {
		t.Errorf("got %q, want %q", res.Lines, want)
	}
}

func TestTrailingWhitespaceTolerated(t *testing.T) {
	tg := startMethod(t)
	// The file's lines with trailing white space, the chunk's without, and
	// the other way round.
	padded := chunk.Target{Lines: slices.Clone(tg.Lines), FirstLine: tg.FirstLine}
	padded.Lines[4] += "   "  // 120
	padded.Lines[5] += "\t"   // 121
	padded.Lines[6] += " \t " // 122
	res := applyOK(t, padded, []chunk.Chunk{{
		ContextBefore: []string{line(tg, 120)},
		OldLines:      []string{line(tg, 121)},
		NewLines:      []string{"        assert self._popen is None"},
		ContextAfter:  []string{line(tg, 122)},
	}})
	if want := splice(padded, 121, 121, "        assert self._popen is None"); !slices.Equal(res.Lines, want) {
		t.Errorf("got %q, want %q", res.Lines, want)
	}
	res = applyOK(t, tg, []chunk.Chunk{{
		ContextBefore: []string{line(tg, 120) + " "},
		OldLines:      []string{line(tg, 121) + "\t\t"},
		NewLines:      []string{"        assert self._popen is None  "},
		ContextAfter:  []string{line(tg, 122) + "\u00a0"},
	}})
	// New lines are written as given, trailing white space included.
	if want := splice(tg, 121, 121, "        assert self._popen is None  "); !slices.Equal(res.Lines, want) {
		t.Errorf("got %q, want %q", res.Lines, want)
	}
}

func TestContextForms(t *testing.T) {
	tg := startMethod(t)
	want := splice(tg, 127, 127, "        self._popen = self._Popen(self)  # started")
	forms := []struct {
		name          string
		before, after []string
	}{
		{"strings", []string{line(tg, 126)}, []string{line(tg, 128)}},
		{"arrays", []string{line(tg, 125), line(tg, 126)}, []string{line(tg, 128), line(tg, 129)}},
		{"multi-line strings", []string{line(tg, 125) + "\n" + line(tg, 126)}, []string{line(tg, 128) + "\n" + line(tg, 129) + "\n"}},
		{"crlf multi-line strings", []string{line(tg, 125) + "\r\n" + line(tg, 126)}, []string{line(tg, 128) + "\r\n" + line(tg, 129) + "\r\n"}},
		{"mixed array of multi-line strings", []string{line(tg, 124) + "\n" + line(tg, 125), line(tg, 126)}, []string{line(tg, 128), line(tg, 129) + "\n" + line(tg, 130)}},
	}
	for _, f := range forms {
		t.Run(f.name, func(t *testing.T) {
			res := applyOK(t, tg, []chunk.Chunk{{
				ContextBefore: f.before,
				OldLines:      []string{line(tg, 127)},
				NewLines:      []string{"        self._popen = self._Popen(self)  # started"},
				ContextAfter:  f.after,
			}})
			if !slices.Equal(res.Lines, want) {
				t.Errorf("got %q, want %q", res.Lines, want)
			}
		})
	}
	// In a Chunk every context string is at least one line: "" and "\n"
	// are one empty line. (Parse turns the format's "" into no context.)
	empty := chunk.Target{FirstLine: 1, Lines: []string{"a", "", "b", "", "c"}}
	for _, ctx := range [][]string{{""}, {"\n"}, {"\r\n"}} {
		res := applyOK(t, empty, []chunk.Chunk{{ContextBefore: ctx, OldLines: []string{"b"}, NewLines: []string{"B"}, ContextAfter: ctx}})
		if want := []string{"a", "", "B", "", "c"}; !slices.Equal(res.Lines, want) {
			t.Errorf("context %q: got %q, want %q", ctx, res.Lines, want)
		}
	}
	res := applyOK(t, empty, []chunk.Chunk{{ContextBefore: []string{"a", ""}, OldLines: []string{"b"}, NewLines: []string{"B"}, ContextAfter: []string{"", "c"}}})
	if want := []string{"a", "", "B", "", "c"}; !slices.Equal(res.Lines, want) {
		t.Errorf("got %q, want %q", res.Lines, want)
	}
	// No context: old_lines must end at the symbol's last line.
	applyErr(t, empty, []chunk.Chunk{{OldLines: []string{"b"}, NewLines: []string{"B"}}}, errSpec{
		is: chunk.ErrNoMatch, chunk: 1, check: chunk.CheckEndOfSymbol, line: 4, actual: "",
	})
}

func TestSplitLines(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", []string{""}},
		{"a", []string{"a"}},
		{"a\n", []string{"a"}},
		{"a\r\n", []string{"a"}},
		{"a\r", []string{"a"}},
		{"\n", []string{""}},
		{"\r\n", []string{""}},
		{"a\r\nb", []string{"a", "b"}},
		{"a\nb", []string{"a", "b"}},
		{"a\rb", []string{"a", "b"}},
		{"a\n\n", []string{"a", ""}},
		{"a\r\n\r\n", []string{"a", ""}},
		{"\n\n", []string{"", ""}},
		{"a\n\r\nb", []string{"a", "", "b"}},
		{"a\r\r\nb", []string{"a", "", "b"}},
		{"a\n\rb", []string{"a", "", "b"}},
		{"  x  \n\ty", []string{"  x  ", "\ty"}},
	}
	for _, tt := range tests {
		if got := chunk.SplitLines(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("SplitLines(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestChunkStringsSplit(t *testing.T) {
	tg := startMethod(t)
	// "a\r\nb" in old_lines is two lines; "a\n" is one line, not a line and
	// an empty line.
	res := applyOK(t, tg, []chunk.Chunk{{
		ContextBefore: []string{line(tg, 126) + "\r\n"},
		OldLines:      []string{line(tg, 127) + "\r\n" + line(tg, 128)},
		NewLines:      []string{"        self._popen = None\r\n"},
		ContextAfter:  []string{line(tg, 129) + "\r\n"},
	}})
	if want := splice(tg, 127, 128, "        self._popen = None"); !slices.Equal(res.Lines, want) {
		t.Errorf("got %q, want %q", res.Lines, want)
	}
	if want := []chunk.Hunk{{Chunk: 1, Line: 127, Removed: 2, Added: 1}}; !reflect.DeepEqual(res.Hunks, want) {
		t.Errorf("Hunks = %+v, want %+v", res.Hunks, want)
	}
	// new_lines [""] is one empty line, not a deletion.
	res = applyOK(t, tg, []chunk.Chunk{{
		ContextBefore: []string{line(tg, 128)},
		OldLines:      []string{line(tg, 129), line(tg, 130)},
		NewLines:      []string{""},
		ContextAfter:  []string{line(tg, 131)},
	}})
	if want := splice(tg, 129, 130, ""); !slices.Equal(res.Lines, want) {
		t.Errorf("got %q, want %q", res.Lines, want)
	}
}

// TestChunksAgainstOriginal: every chunk is located in the original lines,
// so chunk 2 may use as context a line that chunk 1 changes.
func TestChunksAgainstOriginal(t *testing.T) {
	tg := startMethod(t)
	chunks := []chunk.Chunk{
		{
			ContextBefore: []string{line(tg, 120)},
			OldLines:      []string{line(tg, 121)},
			NewLines:      []string{"        if self._popen is not None:", "            raise RuntimeError('cannot start a process twice')"},
			ContextAfter:  []string{line(tg, 122)},
		},
		{
			ContextBefore: []string{line(tg, 121)}, // changed by chunk 1
			OldLines:      []string{line(tg, 122), line(tg, 123)},
			NewLines:      []string{"        assert self._parent_pid == os.getpid()"},
			ContextAfter:  []string{line(tg, 124)},
		},
		{
			ContextBefore: []string{line(tg, 131)},
			NewLines:      []string{"        util.debug('started process %s', self.name)"},
			ContextAfter:  []string{line(tg, 132)},
		},
		{
			ContextBefore: []string{line(tg, 128)},
			OldLines:      []string{line(tg, 129), line(tg, 130)},
			NewLines:      []string{},
			ContextAfter:  []string{line(tg, 131)},
		},
	}
	res := applyOK(t, tg, chunks)
	want := slices.Concat(
		tg.Lines[:121-116],
		chunks[0].NewLines,
		chunks[1].NewLines,
		tg.Lines[124-116:129-116],
		tg.Lines[131-116:132-116],
		chunks[2].NewLines,
		tg.Lines[132-116:],
	)
	if !slices.Equal(res.Lines, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(res.Lines, "\n"), strings.Join(want, "\n"))
	}
	wantHunks := []chunk.Hunk{
		{Chunk: 1, Line: 121, Removed: 1, Added: 2},
		{Chunk: 2, Line: 122, Removed: 2, Added: 1},
		{Chunk: 3, Line: 132, Removed: 0, Added: 1},
		{Chunk: 4, Line: 129, Removed: 2, Added: 0},
	}
	if !reflect.DeepEqual(res.Hunks, wantHunks) {
		t.Errorf("Hunks = %+v, want %+v", res.Hunks, wantHunks)
	}
	// One by one, each chunk's context is gone once the other applied.
	first := applyOK(t, tg, chunks[:1])
	applyErr(t, chunk.Target{Lines: first.Lines, FirstLine: tg.FirstLine}, chunks[1:2], errSpec{
		is: chunk.ErrNoMatch, chunk: 1, check: chunk.CheckContextBefore, expected: line(tg, 121), nearest: 122,
		message: []string{"is not in the symbol"},
	})
}

// TestAtomic: when a later chunk fails, nothing is applied and the error
// names that chunk.
func TestAtomic(t *testing.T) {
	tg := startMethod(t)
	good := chunk.Chunk{ContextBefore: []string{line(tg, 125)}, OldLines: []string{line(tg, 126)}, NewLines: []string{"        cleanup()"}, ContextAfter: []string{line(tg, 127)}}
	bad := chunk.Chunk{ContextBefore: []string{line(tg, 125)}, OldLines: []string{"        _cleanup(1)"}, NewLines: []string{"        cleanup()"}, ContextAfter: []string{line(tg, 127)}}
	applyErr(t, tg, []chunk.Chunk{good, good, bad}, errSpec{
		is: chunk.ErrNoMatch, chunk: 3, check: chunk.CheckOldLines,
		line: 126, expected: "        _cleanup(1)", actual: line(tg, 126), candidates: []int{126}, nearest: 126,
		message: []string{"chunk 3 failed"},
	})
}

func TestApplyInputErrors(t *testing.T) {
	tg := startMethod(t)
	tests := []struct {
		name   string
		chunks []chunk.Chunk
		chunk  int
		key    string
	}{
		{"nil list", nil, 0, ""},
		{"empty list", []chunk.Chunk{}, 0, ""},
		{"chunk changes nothing", []chunk.Chunk{{ContextBefore: []string{line(tg, 120)}, ContextAfter: []string{line(tg, 121)}}}, 1, "old_lines"},
		{"second chunk changes nothing", []chunk.Chunk{
			{ContextBefore: []string{line(tg, 120)}, NewLines: []string{"x"}, ContextAfter: []string{line(tg, 121)}},
			{OldLines: []string{}, NewLines: []string{}},
		}, 2, "old_lines"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := chunk.Apply(tg, tt.chunks)
			var ie *chunk.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("err = %v (%T), want *chunk.InputError", err, err)
			}
			if ie.Chunk != tt.chunk || ie.Key != tt.key {
				t.Errorf("InputError{Chunk: %d, Key: %q}, want {%d, %q}", ie.Chunk, ie.Key, tt.chunk, tt.key)
			}
			if errors.Is(err, chunk.ErrNoMatch) || errors.Is(err, chunk.ErrAmbiguous) || errors.Is(err, chunk.ErrOverlap) {
				t.Errorf("an input error must not be a rejection: %v", err)
			}
		})
	}
}

func TestEmptyTarget(t *testing.T) {
	// An empty symbol has no line to anchor on.
	tg := chunk.Target{FirstLine: 5}
	applyErr(t, tg, []chunk.Chunk{{ContextBefore: []string{"x"}, NewLines: []string{"y"}}}, errSpec{
		is: chunk.ErrNoMatch, chunk: 1, check: chunk.CheckBoundary, expected: "x",
	})
	applyErr(t, tg, []chunk.Chunk{{OldLines: []string{"x"}, NewLines: []string{"y"}}}, errSpec{
		is: chunk.ErrNoMatch, chunk: 1, check: chunk.CheckBoundary, expected: "x",
	})
}

func TestCheckNumbers(t *testing.T) {
	tests := []struct {
		c    chunk.Check
		n    int
		name string
	}{
		{chunk.CheckContextAfter, 1, "check 1 (context_after)"},
		{chunk.CheckOldLines, 2, "check 2 (old_lines)"},
		{chunk.CheckInsertion, 3, "check 3 (insertion)"},
		{chunk.CheckDeletion, 4, "check 4 (deletion)"},
		{chunk.CheckBoundary, 5, "check 5 (boundary)"},
		{chunk.CheckEndOfSymbol, 6, "check 6 (end_of_symbol)"},
		{chunk.CheckLineEndings, 7, "check 7 (line_endings)"},
		{chunk.CheckContextBefore, 0, "context_before"},
		{chunk.CheckUnique, 0, "unique"},
		{chunk.CheckOverlap, 0, "overlap"},
	}
	for _, tt := range tests {
		if tt.c.Number() != tt.n || tt.c.String() != tt.name {
			t.Errorf("%q: Number() = %d, String() = %q; want %d, %q", string(tt.c), tt.c.Number(), tt.c.String(), tt.n, tt.name)
		}
	}
}
