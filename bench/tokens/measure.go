package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
	"github.com/symedit/symedit/chunk"
	"github.com/symedit/symedit/edit"
)

// hunk is one changed region: old[i1:i2] becomes new[j1:j2].
type hunk struct{ i1, i2, j1, j2 int }

func hunks(old, new []string) []hunk {
	var hs []hunk
	for _, op := range difflib.NewMatcher(old, new).GetOpCodes() {
		if op.Tag != 'e' {
			hs = append(hs, hunk{op.I1, op.I2, op.J1, op.J2})
		}
	}
	return hs
}

// errNoUnique: no amount of context makes the chunk unique inside the
// function (repeated lines up to its edges).
var errNoUnique = errors.New("no unique chunk")

// minimalChunk grows the context of hunk h, fewest context lines first (and
// for a tie, fewer lines before), until chunk.Apply of that chunk alone
// succeeds and gives exactly the function with only this hunk applied.
func minimalChunk(old, new []string, h hunk) (chunk.Chunk, error) {
	want := slices.Concat(old[:h.i1], new[h.j1:h.j2], old[h.i2:])
	tg := chunk.Target{Lines: old, FirstLine: 1}
	for total := 0; total <= len(old); total++ {
		for before := 0; before <= total; before++ {
			after := total - before
			if h.i1-before < 0 || h.i2+after > len(old) {
				continue
			}
			c := chunk.Chunk{
				ContextBefore: slices.Clone(old[h.i1-before : h.i1]),
				OldLines:      slices.Clone(old[h.i1:h.i2]),
				NewLines:      slices.Clone(new[h.j1:h.j2]),
				ContextAfter:  slices.Clone(old[h.i2 : h.i2+after]),
			}
			res, err := chunk.Apply(tg, []chunk.Chunk{c})
			if err == nil && slices.Equal(res.Lines, want) {
				return c, nil
			}
		}
	}
	return chunk.Chunk{}, errNoUnique
}

// payload is a chunk as a model sends it: one-line contexts as strings.
type payload struct {
	ContextBefore any      `json:"context_before"`
	OldLines      []string `json:"old_lines"`
	NewLines      []string `json:"new_lines"`
	ContextAfter  any      `json:"context_after"`
}

// contextValue is a context as a model writes it: one string (lines joined
// with newlines) when that splits back to the same lines, else an array.
func contextValue(ls []string) any {
	s := strings.Join(ls, "\n")
	if len(ls) == 0 || slices.Equal(chunk.SplitLines(s), ls) && s != "" {
		return s
	}
	return ls
}

// texts are the four ways of sending one edit of one function.
type texts struct {
	chunks, body, searchReplace, diff string
	nchunks                           int
}

// derive builds the minimal chunks of old -> new, checks that chunk.Apply
// of all of them reproduces new exactly, and renders the four forms.
func derive(f *function, new []string) (texts, error) {
	old := f.lines
	hs := hunks(old, new)
	if len(hs) == 0 {
		return texts{}, fmt.Errorf("%s %s: the edit changed nothing", f.path, f.name)
	}
	var cs []chunk.Chunk
	var ps []payload
	var sr strings.Builder
	for _, h := range hs {
		c, err := minimalChunk(old, new, h)
		if err != nil {
			return texts{}, err
		}
		cs = append(cs, c)
		ps = append(ps, payload{contextValue(c.ContextBefore), c.OldLines, c.NewLines, contextValue(c.ContextAfter)})
		// JSON null is not an array: send [] for an insertion or deletion.
		if ps[len(ps)-1].OldLines == nil {
			ps[len(ps)-1].OldLines = []string{}
		}
		if ps[len(ps)-1].NewLines == nil {
			ps[len(ps)-1].NewLines = []string{}
		}
		// The equivalent SEARCH/REPLACE block: the same lines, context
		// included, as search and as replacement.
		sr.WriteString("<<<<<<< SEARCH\n")
		for _, s := range slices.Concat(c.ContextBefore, c.OldLines, c.ContextAfter) {
			sr.WriteString(s + "\n")
		}
		sr.WriteString("=======\n")
		for _, s := range slices.Concat(c.ContextBefore, c.NewLines, c.ContextAfter) {
			sr.WriteString(s + "\n")
		}
		sr.WriteString(">>>>>>> REPLACE\n")
	}
	res, err := chunk.Apply(chunk.Target{Lines: old, FirstLine: f.first}, cs)
	if err != nil {
		return texts{}, fmt.Errorf("FAIL: %s %s: the chunks do not apply together: %v", f.path, f.name, err)
	}
	if !slices.Equal(res.Lines, new) {
		return texts{}, fmt.Errorf("FAIL: %s %s: chunk.Apply does not reproduce the edited function", f.path, f.name)
	}
	// The payload also goes through chunk.Parse, as symedit chunk reads it.
	js, err := json.Marshal(ps)
	if err != nil {
		return texts{}, err
	}
	parsed, err := chunk.Parse(js)
	if err != nil {
		return texts{}, fmt.Errorf("FAIL: %s %s: chunk.Parse of the payload: %v", f.path, f.name, err)
	}
	if res2, err := chunk.Apply(chunk.Target{Lines: old, FirstLine: f.first}, parsed); err != nil || !slices.Equal(res2.Lines, new) {
		return texts{}, fmt.Errorf("FAIL: %s %s: the parsed payload does not reproduce the edited function (%v)", f.path, f.name, err)
	}
	join := func(ls []string) string { return strings.Join(ls, "\n") + "\n" }
	return texts{
		chunks:        string(js),
		body:          join(new),
		searchReplace: sr.String(),
		diff:          diff.Diff(f.path, []byte(join(old)), []byte(join(new))),
		nchunks:       len(cs),
	}, nil
}
