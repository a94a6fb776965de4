package reply

import "github.com/symedit/symedit/match"

// ParseSteps is Parse with its step count: the number of times the
// parser's loops looked at a line or at a run of backticks.
func ParseSteps(reply string) (Result, int) { return parse(reply, Options{}) }

// ApplyAllSteps is ApplyAll with its step count: the lines and tree nodes
// it looked at.
func ApplyAllSteps(blocks []Block, text string, allowed match.Level) (string, []Outcome, int, *Failure, int) {
	r, steps := applyAll(blocks, text, allowed)
	return r.Text, r.Outcomes, r.Failed, r.Failure, steps
}
