// Package similar finds the lines most like a line a caller expected: the
// "nearest lines" that the chunk engine and the reply matcher show with a
// rejection, so that a model can correct its call in one retry.
package similar

import (
	"math"
	"sort"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// Line is one of the lines Nearest found.
type Line struct {
	// Index is the line's 0-based index in the lines searched.
	Index int
	// Similarity is 0 (nothing alike) to 1 (equal once surrounding white
	// space is trimmed): the ratio of go-difflib's SequenceMatcher over the
	// trimmed lines' runes, rounded to two decimals.
	Similarity float64
}

// Nearest returns up to k of lines most similar to want, best first; at
// equal similarity the earlier line first. Lines with similarity 0 are
// left out. With exactOnly1, a line that equals want only once white
// space is trimmed scores 0.99, so that 1 means byte-for-byte equal.
func Nearest(lines []string, want string, k int, exactOnly1 bool) []Line {
	wt := strings.TrimSpace(want)
	m := difflib.NewMatcher(nil, runeStrings(wt))
	var out []Line
	floor := 0.0 // the k-th best similarity so far, once there are k
	for i, l := range lines {
		lt := strings.TrimSpace(l)
		var r float64
		if lt == wt {
			r = 1
		} else {
			m.SetSeq1(runeStrings(lt))
			// Upper bounds first: a line that cannot beat the k-th best
			// needs no full ratio.
			if len(out) == k && (m.RealQuickRatio() < floor || m.QuickRatio() < floor) {
				continue
			}
			r = m.Ratio()
		}
		r = math.Round(r*100) / 100
		if exactOnly1 && r == 1 && l != want {
			r = 0.99
		}
		if r <= 0 || len(out) == k && r <= floor {
			continue
		}
		out = append(out, Line{Index: i, Similarity: r})
		sort.SliceStable(out, func(a, b int) bool { return out[a].Similarity > out[b].Similarity })
		if len(out) > k {
			out = out[:k]
		}
		if len(out) == k {
			floor = out[k-1].Similarity
		}
	}
	return out
}

func runeStrings(s string) []string {
	out := make([]string, 0, len(s))
	for _, r := range s {
		out = append(out, string(r))
	}
	return out
}
