package app

import (
	"errors"

	"github.com/symedit/symedit/chunk"
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

// exitCode maps an error to the exit code its class calls for.
func exitCode(err error) int {
	switch {
	case err == nil:
		return ExitOK
	}
	var ce *chunk.Error
	if errors.As(err, &ce) {
		return ExitRejected
	}
	if errors.Is(err, symbols.ErrNoMatch) || errors.Is(err, symbols.ErrAmbiguous) {
		return ExitRejected
	}
	return ExitError
}

// errorCode is the "code" of a JSON error object.
func errorCode(err error) string {
	var ce *chunk.Error
	var ie *chunk.InputError
	var ue *usageError
	switch {
	case errors.As(err, &ce):
		return ce.Code
	case errors.Is(err, symbols.ErrNoMatch):
		return "NO_SYMBOL"
	case errors.Is(err, symbols.ErrAmbiguous):
		return "AMBIGUOUS_SYMBOL"
	case errors.As(err, &ie):
		return "INVALID_INPUT"
	case errors.As(err, &ue):
		return "USAGE"
	}
	return "ERROR"
}
