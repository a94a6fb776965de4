package chunk_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/pmezard/go-difflib/difflib"
	"github.com/symedit/symedit/chunk"
)

// seedFiles are the real sources FuzzApply's seed corpus is cut from.
var seedFiles = []string{
	"../testdata/src/go/slog_value.go",
	"../testdata/src/go/atomic_type.go",
	"../testdata/src/python/process.py",
	"../testdata/src/python/contextlib_excerpt.py",
}

// maxFuzzLines bounds the symbol's size so that every input runs fast.
const maxFuzzLines = 200

// FuzzApply checks the chunk engine's two properties on chunks derived
// from a line diff. From the input derive a symbol A (text's lines) and B (A
// with lines deleted, inserted and replaced as ops says); turn the diff
// from A to B into chunks, each with just enough context to match one place.
//  1. Apply(A, chunks) is B exactly, with the right hunks.
//  2. With one line of one chunk changed so that it matches nowhere, Apply
//     fails with ErrNoMatch naming that chunk, and A is unchanged.
func FuzzApply(f *testing.F) {
	for i, path := range seedFiles {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		for j, start := range []int{0, len(lines) / 3, len(lines) / 2, len(lines) - 60} {
			window := strings.Join(lines[max(start, 0):min(start+60, len(lines))], "\n")
			k := byte(i*4 + j)
			ops := []byte{
				0, 7 * k, k, // delete
				1, 13*k + 5, 0x80 | k, // insert duplicates of existing lines
				2, 29*k + 11, k + 1, // replace
				1, 3*k + 40, k, // insert new lines
				2, 200 - k, 2, // replace
				0, 17 * k, 1, // delete
			}
			f.Add(window, ops[:3*(1+(i+j)%6)])
		}
	}
	// Blank lines and repeated lines, where context must grow.
	f.Add("}\n\n}\n\n}\n\n}\n", []byte{2, 2, 0, 1, 7, 0x80})
	f.Add("\treturn err\n\t}\n\treturn err\n\t}\n\treturn nil\n", []byte{2, 2, 0})
	f.Add("a\n  \nb\nb  \n", []byte{0, 3, 0, 1, 0, 0})

	f.Fuzz(func(t *testing.T, text string, ops []byte) {
		a := chunk.SplitLines(strings.ToValidUTF8(text, "\uFFFD"))
		if len(a) > maxFuzzLines {
			a = a[:maxFuzzLines]
		}
		b := modify(a, ops)
		if slices.Equal(a, b) {
			return
		}
		tg := chunk.Target{Lines: a, FirstLine: 1 + len(text)%50}
		orig := slices.Clone(a)

		var specs []chunkSpec
		m := difflib.NewMatcherWithJunk(a, b, false, nil)
		for _, op := range m.GetOpCodes() {
			if op.Tag == 'e' {
				continue
			}
			s, ok := uniqueChunk(t, tg, b, op)
			if !ok {
				return // cannot be made unique
			}
			specs = append(specs, s)
		}
		chunks := make([]chunk.Chunk, len(specs))
		for i, s := range specs {
			chunks[i] = s.chunk()
		}
		// Through JSON and Parse, as a model would send them.
		data, err := json.Marshal(chunks)
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := chunk.Parse(data)
		if err != nil {
			t.Fatalf("Parse(%s): %v", data, err)
		}
		if !sameChunks(parsed, chunks) {
			t.Fatalf("Parse(Marshal(chunks)) = %q, want %q", parsed, chunks)
		}

		// Property 1.
		res, err := chunk.Apply(tg, parsed)
		if err != nil {
			t.Fatalf("Apply(A, chunks) failed: %v\nA:\n%s\nchunks: %s", err, strings.Join(a, "\n"), data)
		}
		if !slices.Equal(res.Lines, b) {
			t.Fatalf("Apply(A, chunks) != B\nA: %q\nB: %q\ngot: %q\nchunks: %s", a, b, res.Lines, data)
		}
		for i, s := range specs {
			want := chunk.Hunk{Chunk: i + 1, Line: tg.FirstLine + s.op.I1, Removed: s.op.I2 - s.op.I1, Added: s.op.J2 - s.op.J1}
			if res.Hunks[i] != want {
				t.Fatalf("Hunks[%d] = %+v, want %+v", i, res.Hunks[i], want)
			}
		}
		if !slices.Equal(a, orig) {
			t.Fatal("Apply modified Target.Lines")
		}

		// Property 2.
		k := int(ops[0]) % len(specs)
		bad, ok := specs[k].corrupt(a, int(ops[len(ops)-1]))
		if !ok {
			t.Fatalf("cannot corrupt chunk %d", k+1)
		}
		corrupted := slices.Clone(chunks)
		corrupted[k] = bad.chunk()
		res, err = chunk.Apply(tg, corrupted)
		if err == nil {
			t.Fatalf("corrupted chunk %d applied: %q\nchunk: %+v", k+1, res.Lines, corrupted[k])
		}
		var e *chunk.Error
		if !errors.Is(err, chunk.ErrNoMatch) || !errors.As(err, &e) || e.Chunk != k+1 {
			t.Fatalf("corrupted chunk %d: err = %v, want ErrNoMatch for chunk %d", k+1, err, k+1)
		}
		if res.Lines != nil {
			t.Fatalf("result %q returned with the error", res.Lines)
		}
		if !slices.Equal(a, orig) {
			t.Fatal("a failed Apply modified Target.Lines")
		}
	})
}

// modify returns a copy of a changed by ops, read three bytes at a time
// (at most 6 operations): kind (delete, insert, replace), position, and
// count (1 to 3; with the high bit, new lines copy existing ones).
func modify(a []string, ops []byte) []string {
	b := slices.Clone(a)
	for i := 0; i+2 < len(ops) && i < 18; i += 3 {
		kind, pos, n := ops[i]%3, int(ops[i+1])%(len(b)+1), int(ops[i+2]&0x7f)%3+1
		lines := make([]string, n)
		for j := range lines {
			if ops[i+2]&0x80 != 0 {
				lines[j] = a[(pos+j)%len(a)]
			} else {
				lines[j] = fmt.Sprintf("\tfuzz(%d, %d)", i/3, j)
			}
		}
		switch kind {
		case 0:
			b = slices.Delete(b, pos, min(pos+n, len(b)))
		case 1:
			b = slices.Insert(b, pos, lines...)
		case 2:
			b = slices.Replace(b, pos, min(pos+n, len(b)), lines...)
		}
	}
	return b
}

// chunkSpec is a chunk as lines, before encoding.
type chunkSpec struct {
	op                      difflib.OpCode
	before, old, new, after []string
}

// chunk encodes s. A context of one empty line is sent as "\n", which is
// one empty line, where "" could be read as no context.
func (s chunkSpec) chunk() chunk.Chunk {
	ctx := func(lines []string) []string {
		if len(lines) == 1 && lines[0] == "" {
			return []string{"\n"}
		}
		return slices.Clone(lines)
	}
	return chunk.Chunk{ContextBefore: ctx(s.before), OldLines: slices.Clone(s.old), NewLines: slices.Clone(s.new), ContextAfter: ctx(s.after)}
}

// uniqueChunk builds the chunk for op with the least context that makes it
// match one place only: one line after it unless it ends the symbol (check
// 6), one before for an insertion at the end (check 3), then as many lines
// on both sides as needed.
func uniqueChunk(t *testing.T, tg chunk.Target, b []string, op difflib.OpCode) (chunkSpec, bool) {
	a := tg.Lines
	cb, ca := 0, 0
	if op.I2 < len(a) {
		ca = 1
	} else if op.I1 == op.I2 {
		cb = 1
	}
	for {
		s := chunkSpec{op: op, before: a[op.I1-cb : op.I1], old: a[op.I1:op.I2], new: b[op.J1:op.J2], after: a[op.I2 : op.I2+ca]}
		res, err := chunk.Apply(tg, []chunk.Chunk{s.chunk()})
		if err == nil {
			want := slices.Concat(a[:op.I1], s.new, a[op.I2:])
			if !slices.Equal(res.Lines, want) {
				t.Fatalf("single chunk %+v applied elsewhere: got %q, want %q", s, res.Lines, want)
			}
			return s, true
		}
		if !errors.Is(err, chunk.ErrAmbiguous) {
			t.Fatalf("chunk cut from A does not match A: %v\nchunk: %+v\nA: %q", err, s, a)
		}
		grew := false
		if op.I1-cb > 0 {
			cb++
			grew = true
		}
		if op.I2+ca < len(a) {
			ca++
			grew = true
		}
		if !grew {
			return s, false
		}
	}
}

// corrupt returns s with one of its context or old lines changed by one
// character so that it equals no line of a (after trimming trailing white
// space). which picks the line and the character.
func (s chunkSpec) corrupt(a []string, which int) (chunkSpec, bool) {
	present := map[string]bool{}
	for _, l := range a {
		present[strings.TrimRightFunc(l, unicode.IsSpace)] = true
	}
	s.before, s.old, s.after = slices.Clone(s.before), slices.Clone(s.old), slices.Clone(s.after)
	var refs []*string
	for _, field := range [][]string{s.before, s.old, s.after} {
		for i := range field {
			refs = append(refs, &field[i])
		}
	}
	if len(refs) == 0 {
		return s, false
	}
	ref := refs[which%len(refs)]
	runes := []rune(*ref)
	for _, r := range "#@~§Жx" {
		var changed string
		if len(runes) == 0 {
			changed = string(r)
		} else {
			c := slices.Clone(runes)
			c[which%len(c)] = r
			changed = string(c)
		}
		if !present[strings.TrimRightFunc(changed, unicode.IsSpace)] {
			*ref = changed
			return s, true
		}
	}
	return s, false
}
