package ops

import (
	"errors"

	"github.com/symedit/symedit/chunk"
	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/files"
	"github.com/symedit/symedit/guard"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
	"github.com/symedit/symedit/textedit"
)

// Exit codes, the same for every operation and front end: a Code maps to
// exactly one of them (Code.Exit).
const (
	// ExitOK: done.
	ExitOK = 0
	// ExitRejected: the request does not fit the file as it is (no such
	// symbol, ambiguous, a check failed, ...); the file is unchanged.
	ExitRejected = 1
	// ExitError: usage, input or I/O error; the file is unchanged.
	ExitError = 2
)

// Code is the machine-readable kind of a refusal or failure: the "code"
// of a result's error object. Codes are stable; docs/json.md's table of
// error codes lists them all (checked by a test against Codes).
type Code string

// The codes. Each one's exit code is in Codes.
const (
	CodeNoMatch         Code = chunk.CodeNoMatch   // a chunk matches nowhere (chunk spec)
	CodeAmbiguous       Code = chunk.CodeAmbiguous // a chunk matches in several places
	CodeOverlap         Code = chunk.CodeOverlap   // two chunks or hunks overlap
	CodeNoSymbol        Code = "NO_SYMBOL"         // no symbol at the location
	CodeAmbiguousSymbol Code = "AMBIGUOUS_SYMBOL"  // several symbols fit the name path
	CodeSyntax          Code = "SYNTAX"            // the edit adds syntax errors (strict mode)
	CodeNotChecked      Code = "NOT_CHECKED"       // the guard could not check the edit (strict mode)
	CodeChanged         Code = "CHANGED"           // the file changed since it was read
	CodeLocked          Code = "LOCKED"            // another process holds the file's lock
	CodeLineRange       Code = "LINE_RANGE"        // a line number outside the file
	CodeNoMatchText     Code = "NO_MATCH_TEXT"     // replace found no match
	CodeCount           Code = "COUNT"             // replace found another number of matches than expected
	CodeWrongCount      Code = textedit.TextEditWrongCount
	CodeApply           Code = "APPLY"  // a reply's block did not apply, or the reply is malformed
	CodeElided          Code = "ELIDED" // an edit's new side holds a placeholder for code it replaces
	CodeInvalidInput    Code = "INVALID_INPUT"
	CodeOutsideRoot     Code = "OUTSIDE_ROOT"
	CodeNotWritable     Code = "NOT_WRITABLE"
	CodeMetadata        Code = "METADATA"
	CodeUnsupported     Code = "UNSUPPORTED_LANGUAGE"
	CodeUsage           Code = "USAGE"
	CodeError           Code = "ERROR" // any other failure (I/O, ...)
)

// CodeInfo is one row of the table of codes: a code and its exit code.
type CodeInfo struct {
	Code Code `json:"code"`
	Exit int  `json:"exit"`
}

// Codes returns the table of error codes, each with its exit code: the one
// place where codes map to exit codes. A code outside it exits ExitError.
func Codes() []CodeInfo {
	return []CodeInfo{
		{CodeNoMatch, ExitRejected},
		{CodeAmbiguous, ExitRejected},
		{CodeOverlap, ExitRejected},
		{CodeNoSymbol, ExitRejected},
		{CodeAmbiguousSymbol, ExitRejected},
		{CodeSyntax, ExitRejected},
		{CodeNotChecked, ExitRejected},
		{CodeChanged, ExitRejected},
		{CodeLocked, ExitRejected},
		{CodeLineRange, ExitRejected},
		{CodeNoMatchText, ExitRejected},
		{CodeCount, ExitRejected},
		{CodeWrongCount, ExitRejected},
		{CodeApply, ExitRejected},
		{CodeElided, ExitRejected},
		{CodeInvalidInput, ExitError},
		{CodeOutsideRoot, ExitError},
		{CodeNotWritable, ExitError},
		{CodeMetadata, ExitError},
		{CodeUnsupported, ExitError},
		{CodeUsage, ExitError},
		{CodeError, ExitError},
	}
}

// Exit returns c's exit code from Codes: ExitRejected or ExitError (a code
// not in the table).
func (c Code) Exit() int {
	for _, r := range Codes() {
		if r.Code == c {
			return r.Exit
		}
	}
	return ExitError
}

// ExitCode returns the exit code for err: ExitOK for nil, else the exit
// code of CodeOf(err).
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	return CodeOf(err).Exit()
}

// CodeOf returns the code of err: the code of an *Error, else the code of
// the error it wraps from the packages below (chunk, symbols, edit,
// lang), else CodeError.
func CodeOf(err error) Code {
	var oe *Error
	if errors.As(err, &oe) && oe.Code != "" {
		return oe.Code
	}
	var ce *chunk.Error
	var ie *chunk.InputError
	var ue *UsageError
	var se *SyntaxError
	var le *edit.LineEditError
	var re *ReplaceError
	var te *textedit.TextEditError
	var in *InputError
	var tie *textedit.TextEditInputError
	var ae *ApplyError
	var ee *ElidedError
	switch {
	case errors.As(err, &ae):
		if ae.code != "" {
			return ae.code
		}
		return CodeApply
	case errors.As(err, &ee):
		return CodeElided
	case errors.As(err, &ce):
		return Code(ce.Code)
	case errors.As(err, &te):
		return Code(te.Type)
	case errors.Is(err, symbols.ErrNoMatch):
		return CodeNoSymbol
	case errors.Is(err, symbols.ErrAmbiguous):
		return CodeAmbiguousSymbol
	case errors.As(err, &se):
		return CodeSyntax
	case errors.Is(err, guard.ErrNotChecked):
		return CodeNotChecked
	case errors.Is(err, edit.ErrChanged):
		return CodeChanged
	case errors.Is(err, files.ErrLocked):
		return CodeLocked
	case errors.Is(err, files.ErrNotWritable):
		return CodeNotWritable
	case errors.Is(err, files.ErrMetadata):
		return CodeMetadata
	case errors.Is(err, files.ErrOutsideRoot):
		return CodeOutsideRoot
	case errors.As(err, &le) && !le.Input:
		return CodeLineRange
	case errors.As(err, &re):
		if re.Count {
			return CodeCount
		}
		return CodeNoMatchText
	case errors.Is(err, lang.ErrUnknownLanguage):
		return CodeUnsupported
	case errors.As(err, &ie), errors.As(err, &le), errors.As(err, &in), errors.As(err, &tie):
		return CodeInvalidInput
	case errors.As(err, &ue):
		return CodeUsage
	}
	return CodeError
}
