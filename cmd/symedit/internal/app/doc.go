// Package app is the symedit command line: it parses arguments with
// github.com/urfave/cli/v2, runs the packages symbols, chunk and edit, and
// prints. It is the only package that prints or decides exit codes.
//
// Usage:
//
//	symedit symbols [--json] [--lang NAME] FILE...
//	symedit show [--json] [-n] [--lang NAME] LOCATION
//	symedit chunk [--json] [--dry-run] [--diff] [--lang NAME] LOCATION CHUNKS
//
// LOCATION is FILE:LINE:COL (1-based line, 1-based byte column; column 0
// or a column in the line's indentation means the line's first non-blank
// column), FILE:LINE, or FILE::NAME_PATH (a full name path such as
// Class/method, or a unique suffix of one). CHUNKS is a file or "-" for
// standard input.
//
// Flags go before the arguments. A flag after them is refused as a usage
// error rather than ignored, so a misplaced --dry-run never writes.
//
// Exit codes (the same for every command):
//
//	0  done
//	1  rejected: the location or the edit does not match the file (no
//	   symbol there, ambiguous, a chunk failed a check); the file is
//	   byte-for-byte unchanged
//	2  usage, input or I/O error: bad flags or arguments, malformed JSON,
//	   an unreadable, binary or unsupported file, a failed write; the file
//	   is unchanged
package app
