package app

import (
	"errors"

	"github.com/symedit/symedit/chunk"
	"github.com/symedit/symedit/symbols"
)

// toJSONError renders err's fields for JSON output.
func toJSONError(err error) *jsonError {
	j := &jsonError{Code: errorCode(err), Message: err.Error()}
	var ce *chunk.Error
	var le *symbols.LocateError
	switch {
	case errors.As(err, &ce):
		j.Chunk, j.Check, j.Message = ce.Chunk, string(ce.Check), ce.Message
		j.Line, j.Expected, j.Actual, j.Candidates = ce.Line, ce.Expected, ce.Actual, ce.Candidates
		if len(ce.Nearest) > 0 {
			j.Nearest = ce.Nearest
		}
	case errors.As(err, &le):
		var cands []int
		for _, s := range le.Candidates {
			cands = append(cands, s.Start.Line)
		}
		j.Candidates = cands
		var near []map[string]any
		for _, s := range append(append([]symbols.Symbol{}, le.Candidates...), le.Nearest...) {
			near = append(near, map[string]any{"name_path": s.NamePath, "kind": s.Kind, "start": s.Start, "end": s.End})
		}
		if len(near) > 0 {
			j.Nearest = near
		}
	}
	return j
}
