package app

import (
	"errors"

	"github.com/symedit/symedit/chunk"
	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/grammars"
	"github.com/symedit/symedit/symbols"
)

// Exit codes, the same for every command; see the package documentation.
const (
	ExitOK       = 0
	ExitRejected = 1
	ExitError    = 2
)

// usageError is a bad command line.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// exitCode maps an error to the exit code its class calls for: a
// rejection (the request does not fit the file as it is, which is left
// unchanged) is ExitRejected; anything else is ExitError.
func exitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	if code := errorCode(err); rejections[code] {
		return ExitRejected
	}
	return ExitError
}

// rejections are the error codes that exit with ExitRejected.
var rejections = map[string]bool{
	chunk.CodeNoMatch: true, chunk.CodeAmbiguous: true, chunk.CodeOverlap: true,
	"NO_SYMBOL": true, "AMBIGUOUS_SYMBOL": true,
	"SYNTAX": true, "NOT_CHECKED": true, "CHANGED": true, "LINE_RANGE": true, "NO_MATCH_TEXT": true, "COUNT": true,
	"WRONG_COUNT": true, "APPLY": true,
}

// errorCode is the "code" of a JSON error object; exitCode derives the
// exit code from it, so the two never disagree.
func errorCode(err error) string {
	var ce *chunk.Error
	var ie *chunk.InputError
	var ue *usageError
	var se *syntaxError
	var le *edit.LineEditError
	var re *replaceError
	var te *edit.TextEditError
	var in *inputError
	var tie *edit.TextEditInputError
	var ae *applyError
	switch {
	case errors.As(err, &ae):
		return "APPLY"
	case errors.As(err, &ce):
		return ce.Code
	case errors.As(err, &te):
		return te.Type
	case errors.Is(err, symbols.ErrNoMatch):
		return "NO_SYMBOL"
	case errors.Is(err, symbols.ErrAmbiguous):
		return "AMBIGUOUS_SYMBOL"
	case errors.As(err, &se):
		return "SYNTAX"
	case errors.Is(err, edit.ErrNotChecked):
		return "NOT_CHECKED"
	case errors.Is(err, edit.ErrChanged):
		return "CHANGED"
	case errors.Is(err, edit.ErrOutsideRoot):
		return "OUTSIDE_ROOT"
	case errors.As(err, &le) && !le.Input:
		return "LINE_RANGE"
	case errors.As(err, &re):
		if re.count {
			return "COUNT"
		}
		return "NO_MATCH_TEXT"
	case errors.Is(err, grammars.ErrUnknownLanguage):
		return "UNSUPPORTED_LANGUAGE"
	case errors.As(err, &ie), errors.As(err, &le), errors.As(err, &in), errors.As(err, &tie):
		return "INVALID_INPUT"
	case errors.As(err, &ue):
		return "USAGE"
	}
	return "ERROR"
}
