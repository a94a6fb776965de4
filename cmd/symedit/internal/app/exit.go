package app

import (
	"errors"

	"github.com/symedit/symedit/ops"
)

// Exit codes, the same for every command: ops's, see the package
// documentation.
const (
	ExitOK       = ops.ExitOK
	ExitRejected = ops.ExitRejected
	ExitError    = ops.ExitError
)

// exitCode maps an error to the exit code of its code in ops.Codes: a
// rejection (the request does not fit the file as it is, which is left
// unchanged) is ExitRejected; anything else is ExitError.
func exitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	return ops.Code(errorCode(err)).Exit()
}

// errorCode is the "code" of a JSON error object; exitCode derives the
// exit code from it, so the two never disagree. The commands not yet
// moved to package ops have their own error types; everything else is
// ops.CodeOf's.
func errorCode(err error) string {
	var ue *ops.UsageError
	var in *inputError
	var oe *ops.Error
	switch {
	case errors.As(err, &oe):
		return string(oe.Code)
	}
	if c := ops.CodeOf(err); c != ops.CodeError {
		return string(c)
	}
	switch {
	case errors.As(err, &in):
		return string(ops.CodeInvalidInput)
	case errors.As(err, &ue):
		return string(ops.CodeUsage)
	}
	return string(ops.CodeError)
}
