package app

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/symedit/symedit/edit"
)

// TestREADMECodeTable checks that README.md's table of error codes lists
// exactly codeTable's codes, with the same exit codes (issue 13).
func TestREADMECodeTable(t *testing.T) {
	readme, err := os.ReadFile("../../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("^\\| `([A-Z_]+)` \\| ([0-9]) \\|")
	documented := map[string]int{}
	for _, line := range strings.Split(string(readme), "\n") {
		m := row.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if _, dup := documented[m[1]]; dup {
			t.Errorf("README lists %s twice", m[1])
		}
		documented[m[1]], _ = strconv.Atoi(m[2])
	}
	if len(documented) == 0 {
		t.Fatal("README.md has no table of error codes")
	}
	for _, r := range codeTable {
		got, ok := documented[r.Code]
		switch {
		case !ok:
			t.Errorf("README does not list %s (exit %d)", r.Code, r.Exit)
		case got != r.Exit:
			t.Errorf("README says %s exits %d, exit.go says %d", r.Code, got, r.Exit)
		}
		delete(documented, r.Code)
	}
	for code, exit := range documented {
		t.Errorf("README lists %s (exit %d), which exit.go does not have", code, exit)
	}
}

// TestCommitErrorCodes checks that the commit layer's refusals, wrapped as
// edit.Files.Commit wraps them, get their own codes and exits rather than
// the catch-all ERROR.
func TestCommitErrorCodes(t *testing.T) {
	for _, tt := range []struct {
		err  error
		code string
		exit int
	}{
		{&edit.FileError{Path: "a.py", Reason: "locked", Err: fmt.Errorf("%w: %w", edit.ErrLocked, syscall.EWOULDBLOCK)}, "LOCKED", ExitRejected},
		{&edit.FileError{Path: "a.py", Reason: "read-only", Err: fmt.Errorf("%w: %w", edit.ErrNotWritable, syscall.EACCES)}, "NOT_WRITABLE", ExitError},
		{&edit.FileError{Path: "a.py", Reason: "owner", Err: edit.ErrMetadata}, "METADATA", ExitError},
		{&edit.FileError{Path: "a.py", Reason: "changed", Err: edit.ErrChanged}, "CHANGED", ExitRejected},
		{&edit.FileError{Path: "a.py", Reason: "disk full", Err: syscall.ENOSPC}, "ERROR", ExitError},
	} {
		if got := errorCode(tt.err); got != tt.code {
			t.Errorf("errorCode(%v) = %s, want %s", tt.err, got, tt.code)
		}
		if got := exitCode(tt.err); got != tt.exit {
			t.Errorf("exitCode(%v) = %d, want %d", tt.err, got, tt.exit)
		}
	}
}

// TestCodeTableComplete checks that every code in codeTable is listed once
// and that a code outside it exits ExitError.
func TestCodeTableComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range codeTable {
		if seen[r.Code] {
			t.Errorf("codeTable lists %s twice", r.Code)
		}
		seen[r.Code] = true
	}
	if got := exitCode(fmt.Errorf("plain")); got != ExitError {
		t.Errorf("exitCode(plain error) = %d, want %d", got, ExitError)
	}
}
