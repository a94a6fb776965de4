package ops

import (
	"context"
	"fmt"
	"strings"

	"github.com/symedit/symedit/chunk"
	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/match"
)

// Chunks is a list of chunks (chunk spec). As JSON it is what chunk.Parse
// reads, strictly: an array of chunk objects (or {"chunks": [...]}), each
// context a string or an array of strings; an unknown key, a missing
// old_lines or new_lines, a chunk that changes nothing or an empty list is
// an error (*chunk.InputError).
type Chunks []chunk.Chunk

// UnmarshalJSON parses data with chunk.Parse.
func (c *Chunks) UnmarshalJSON(data []byte) error {
	list, err := chunk.Parse(data)
	if err != nil {
		return err
	}
	*c = list
	return nil
}

// ChunkRequest applies context-anchored chunks inside one symbol (`symedit
// chunk`, the MCP chunk tool, batch op "chunk").
type ChunkRequest struct {
	// Location is the symbol: FILE:LINE:COL, FILE:LINE or FILE::NAME_PATH
	// (ParseLocation).
	Location string `json:"location"`
	// Chunks are the chunks, all checked against the symbol as it is, then
	// applied together.
	Chunks Chunks `json:"chunks"`
	// Match is the loosest match level allowed (match.Parse: exact,
	// trailing, indent, loose); "" means trailing.
	Match string `json:"match,omitempty"`
	// ExpectSymbolSHA256 refuses (CHANGED) unless the symbol's text has
	// this SHA-256 (ShowResult.SymbolSHA256); "" checks nothing.
	ExpectSymbolSHA256 SHA256 `json:"expect_symbol_sha256,omitempty" jsonschema:"Refuse, writing nothing, unless the symbol's text has this SHA-256 (show's symbol_sha256, a listing's or receipt's sha256): a lock on this symbol alone."`
	// AllowElision writes a chunk whose new_lines hold a placeholder line
	// ("// ... existing code ...") where its old_lines have code; without
	// it such a chunk is refused (ELIDED).
	AllowElision bool `json:"allow_elision,omitempty" jsonschema:"true: write a chunk whose new_lines hold a placeholder line such as // ... existing code ... or # rest of the function unchanged where its old_lines have code. Omitted or false: such a chunk is refused (ELIDED), since the placeholder would delete that code."`
	WriteOptions
}

// ChunkResult is the result of a ChunkRequest.
type ChunkResult struct {
	Result
	// Symbol is the symbol the chunks edited, as it was.
	Symbol *Symbol `json:"symbol,omitempty" jsonschema:"The symbol the chunks edited, as it was before the edit; omitted when it was not found."`
	// ChunksApplied counts the chunks placed, not counting those already
	// applied (chunk.Hunk.AlreadyApplied).
	ChunksApplied int `json:"chunks_applied" jsonschema:"How many chunks were placed, not counting those already in the symbol (already_applied in placements)."`
	// Hunks are where each chunk applied and at which level, in input
	// order; the JSON key keeps the name "placements" clients read.
	Hunks []chunk.Hunk `json:"placements,omitempty" jsonschema:"Where each chunk applied and at which match level, in input order; omitted when refused."`
}

// splitLines returns a chunk field's lines, a string holding line breaks
// split at them (as the chunk spec reads it).
func splitLines(field []string) []string {
	var out []string
	for _, s := range field {
		out = append(out, match.SplitLines(s)...)
	}
	return out
}

// matchLevel parses a request's match level, def when it is "". The error
// is a *UsageError.
func matchLevel(s string, def match.Level) (match.Level, error) {
	if s == "" {
		return def, nil
	}
	l, err := match.Parse(s)
	if err != nil {
		return 0, &UsageError{Field: "match", Msg: err.Error()}
	}
	return l, nil
}

// Chunk applies req's chunks to its symbol: every chunk is checked against
// the symbol before anything is written (the chunk spec's checks), then the
// syntax guard runs and the file is committed atomically (unless
// req.DryRun). The result is never nil. The error is nil or the result's
// *Error: NO_MATCH, AMBIGUOUS, OVERLAP (the chunk's check, the real line and
// the nearest lines in its fields), NO_SYMBOL, AMBIGUOUS_SYMBOL, SYNTAX,
// CHANGED, INVALID_INPUT, USAGE, OUTSIDE_ROOT, ...
func (w *Workspace) Chunk(ctx context.Context, req ChunkRequest) (*ChunkResult, error) {
	ctx = withOp(ctx, "chunk")
	res := &ChunkResult{}
	return res, w.writeSymbol(ctx, req.Location, req.ExpectSymbolSHA256, req.WriteOptions, &res.Result,
		func(t *target) (*change, error) { return planChunk(t, req, res) })
}

// planChunk computes the change req makes to the located symbol t and
// fills res's own fields.
func planChunk(t *target, req ChunkRequest, res *ChunkResult) (*change, error) {
	level, err := matchLevel(req.Match, match.Trailing)
	if err != nil {
		return nil, err
	}
	if len(req.Chunks) == 0 {
		return nil, &chunk.InputError{Msg: "no chunks: the list is empty"}
	}
	s := symbolOf(t.sym)
	res.Symbol = &s
	if !req.AllowElision {
		for i, c := range req.Chunks {
			if e := elided("chunk", i+1, "new_lines", splitLines(c.OldLines), splitLines(c.NewLines)); e != nil {
				return nil, e
			}
		}
	}
	out, err := chunk.ApplyLevel(chunk.Target{Lines: t.doc.Lines(t.first, t.last), FirstLine: t.first}, req.Chunks, level)
	if err != nil {
		return nil, err
	}
	ch, err := t.replaceEach(out.Replacements)
	if err != nil {
		return nil, err
	}
	var already []string
	for _, p := range out.Hunks {
		if p.AlreadyApplied {
			already = append(already, fmt.Sprintf("chunk %d at line %d", p.Chunk, p.Line))
		}
	}
	ch.what = fmt.Sprintf("applied %d chunk(s) to %s (%s, lines %d-%d)", len(req.Chunks)-len(already), t.sym.NamePath, t.sym.Kind, t.first, t.last)
	switch {
	case len(already) == len(req.Chunks):
		// A retried request: say so, so that no one looks for a change.
		ch.what = fmt.Sprintf("already applied, nothing to write: %d chunk(s) already in %s (%s, lines %d-%d)", len(already), t.sym.NamePath, t.sym.Kind, t.first, t.last)
		res.AlreadyApplied = true
	case len(already) > 0:
		ch.what += "; already applied: " + strings.Join(already, ", ")
	}
	// The levels exact and trailing are chunk's contract; a chunk placed
	// at a looser level is named in the summary (the JSON always says).
	var looser []string
	for _, p := range out.Hunks {
		if p.Level >= match.Indent {
			looser = append(looser, fmt.Sprintf("chunk %d at line %d matched at %s", p.Chunk, p.Line, p.Describe()))
		}
	}
	if len(looser) > 0 {
		ch.what += "; " + strings.Join(looser, "; ")
	}
	res.ChunksApplied, res.Hunks = len(out.Hunks)-len(already), out.Hunks
	return ch, nil
}

// replaceEach makes the change that applies the chunks' line
// replacements (chunk.Result.Replacements, in file order) to the
// target's file: one byte edit per replacement, the lines that chunk
// replaced (Document.ReplaceLines), so that the guard and the diff see
// the chunks' own spans and not the whole symbol. Two replacements whose
// edits would overlap (a deletion through a last line without a line
// ending takes the line ending before it, which the replacement just
// above may rewrite) become one edit over both line ranges.
func (t *target) replaceEach(reps []chunk.LineReplacement) (*change, error) {
	type group struct {
		first, last int // 1-based file lines; last = first-1 inserts
		lines       []string
		ed          edit.Edit
	}
	var groups []group
	for _, r := range reps {
		g := group{first: r.Line, last: r.Line + r.Removed - 1, lines: r.New}
		ed, err := t.doc.ReplaceLines(g.first, g.last, g.lines)
		if err != nil {
			return nil, err
		}
		g.ed = ed
		if n := len(groups); n > 0 && (ed.Start < groups[n-1].ed.End || ed.Start == groups[n-1].ed.Start) {
			p := groups[n-1]
			lines := append(append([]string(nil), p.lines...), t.doc.Lines(p.last+1, g.first-1)...)
			g = group{first: p.first, last: g.last, lines: append(lines, g.lines...)}
			if g.ed, err = t.doc.ReplaceLines(g.first, g.last, g.lines); err != nil {
				return nil, err
			}
			groups = groups[:n-1]
		}
		groups = append(groups, g)
	}
	edits := make([]edit.Edit, len(groups))
	for i, g := range groups {
		edits[i] = g.ed
	}
	content, err := edit.Apply(t.doc.Content, edits)
	if err != nil {
		return nil, err
	}
	return &change{doc: t.doc, lang: t.lang, content: content, edits: edits, located: t.parsed}, nil
}
