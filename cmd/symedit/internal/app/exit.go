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

// exitCode maps an error to the exit code of its code in codeTable: a
// rejection (the request does not fit the file as it is, which is left
// unchanged) is ExitRejected; anything else is ExitError.
func exitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	if code, ok := codeExit[errorCode(err)]; ok {
		return code
	}
	return ExitError
}

// codeTable is every code errorCode returns, with its exit code: the one
// table of error codes. README.md's table of error codes lists the same
// rows (TestREADMECodeTable checks it). Codes outside it exit ExitError.
var codeTable = []struct {
	Code string
	Exit int
}{
	{chunk.CodeNoMatch, ExitRejected},
	{chunk.CodeAmbiguous, ExitRejected},
	{chunk.CodeOverlap, ExitRejected},
	{"NO_SYMBOL", ExitRejected},
	{"AMBIGUOUS_SYMBOL", ExitRejected},
	{"SYNTAX", ExitRejected},
	{"NOT_CHECKED", ExitRejected},
	{"CHANGED", ExitRejected},
	{"LOCKED", ExitRejected},
	{"LINE_RANGE", ExitRejected},
	{"NO_MATCH_TEXT", ExitRejected},
	{"COUNT", ExitRejected},
	{edit.TextEditWrongCount, ExitRejected},
	{"APPLY", ExitRejected},
	{"INVALID_INPUT", ExitError},
	{"OUTSIDE_ROOT", ExitError},
	{"NOT_WRITABLE", ExitError},
	{"METADATA", ExitError},
	{"UNSUPPORTED_LANGUAGE", ExitError},
	{"USAGE", ExitError},
	{"ERROR", ExitError},
}

// codeExit is codeTable as a map; a code not in it maps to ExitError.
var codeExit = func() map[string]int {
	m := map[string]int{}
	for _, row := range codeTable {
		m[row.Code] = row.Exit
	}
	return m
}()

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
	case errors.Is(err, edit.ErrLocked):
		return "LOCKED"
	case errors.Is(err, edit.ErrNotWritable):
		return "NOT_WRITABLE"
	case errors.Is(err, edit.ErrMetadata):
		return "METADATA"
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
