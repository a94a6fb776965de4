package app

import (
	"fmt"
	"syscall"
	"testing"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/files"
	"github.com/symedit/symedit/ops"
)

// TestCommitErrorCodes checks that the commit layer's refusals, wrapped as
// files.Files.Commit wraps them, get their own codes and exits rather than
// the catch-all ERROR.
func TestCommitErrorCodes(t *testing.T) {
	for _, tt := range []struct {
		err  error
		code string
		exit int
	}{
		{&edit.FileError{Path: "a.py", Reason: "locked", Err: fmt.Errorf("%w: %w", files.ErrLocked, syscall.EWOULDBLOCK)}, "LOCKED", ExitRejected},
		{&edit.FileError{Path: "a.py", Reason: "read-only", Err: fmt.Errorf("%w: %w", files.ErrNotWritable, syscall.EACCES)}, "NOT_WRITABLE", ExitError},
		{&edit.FileError{Path: "a.py", Reason: "owner", Err: files.ErrMetadata}, "METADATA", ExitError},
		{&edit.FileError{Path: "a.py", Reason: "changed", Err: edit.ErrChanged}, "CHANGED", ExitRejected},
		{&edit.FileError{Path: "a.py", Reason: "disk full", Err: syscall.ENOSPC}, "ERROR", ExitError},
	} {
		if got := string(ops.CodeOf(tt.err)); got != tt.code {
			t.Errorf("ops.CodeOf(%v) = %s, want %s", tt.err, got, tt.code)
		}
		if got := exitCode(tt.err); got != tt.exit {
			t.Errorf("exitCode(%v) = %d, want %d", tt.err, got, tt.exit)
		}
	}
}
