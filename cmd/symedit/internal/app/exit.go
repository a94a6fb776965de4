package app

import "github.com/symedit/symedit/ops"

// Exit codes, the same for every command: ops's, see the package
// documentation.
const (
	ExitOK       = ops.ExitOK
	ExitRejected = ops.ExitRejected
	ExitError    = ops.ExitError
)

// exitCode maps an error to the exit code of its code in ops.Codes
// (ops.ExitCode): a rejection (the request does not fit the file as it
// is, which is left unchanged) is ExitRejected; anything else is
// ExitError.
func exitCode(err error) int { return ops.ExitCode(err) }
