// Package app is the symedit command line: it parses arguments with
// github.com/urfave/cli/v2, runs the packages symbols, chunk and edit, and
// prints. It is the only package that prints or decides exit codes.
//
// Usage:
//
//	symedit symbols [--json] [--lang NAME] [--root DIR] [walk flags] FILE|DIR|PATTERN...
//	symedit check [--json] [--lang NAME] [--root DIR] [walk flags] FILE|DIR|PATTERN...
//	symedit show [--json] [-n] [--lang NAME] [--root DIR] LOCATION
//	symedit chunk [write flags] LOCATION CHUNKS
//	symedit edit [write flags] FILE EDITS
//	symedit lines [write flags] FILE LINE_EDITS
//	symedit replace [write flags] [walk flags] [--regex] [-i] [--count N] [--expect N] [--partial] SEARCH REPLACEMENT FILE|DIR|PATTERN...
//	symedit write [write flags] FILE            (content on standard input)
//	symedit replace-body [write flags] LOCATION BODY
//	symedit insert-before [write flags] LOCATION TEXT
//	symedit insert-after [write flags] LOCATION TEXT
//	symedit apply [write flags] [--partial] [REPLY|-]
//	symedit batch [write flags] [--atomic] OPS   (JSON Lines in and out)
//	symedit mcp [--root DIR] [--call-timeout D] (the commands as MCP tools over standard input and output)
//	symedit help [COMMAND]
//	symedit version                             (also --version: module version and VCS revision)
//
// The write flags, shared by every writing command (one safety layer:
// read, compute, check, preview, commit):
//
//	--dry-run            write nothing; print the unified diff and the check results
//	--diff               also print the unified diff of what was written
//	--json               print the machine-readable result
//	--check MODE         syntax guard: strict (default: refuse an edit that adds
//	                     syntax errors, or that the guard could not check),
//	                     warn (write and report them) or off
//	--root DIR           confine every path to DIR (also SYMEDIT_ROOT)
//	--allow-hardlinks    edit a file with several hard links
//	--allow-read-only    replace a file this user may not write
//	--allow-metadata-loss  write even if the owner, special mode bits or
//	                     extended attributes (ACLs) cannot be kept
//	--expect-sha256 HEX  refuse unless the file has this content
//	--lang NAME          parse as NAME instead of by extension
//
// The walk flags, for commands whose FILE arguments may be folders (walked)
// and quoted doublestar patterns (see package walk): -j N (files processed
// at once; default the number of cores; the output is the same, in path
// order, for every N), --exclude PATTERN (repeatable), --no-ignore (walk
// what git ignores too), --hidden (walk hidden files too). A walk prints a
// summary line on standard error; over a terminal, a run of more than 50
// files shows a progress bar there (never on a pipe or with --json).
// check prints every syntax error of its files and exits 1 if there is one.
//
// LOCATION is FILE:LINE:COL (1-based line, 1-based byte column; column 0
// or a column in the line's indentation means the line's first non-blank
// column), FILE:LINE, or FILE::NAME_PATH (a full name path such as
// Class/method, or a unique suffix of one). CHUNKS, EDITS, LINE_EDITS, BODY
// and TEXT are files, or "-" for standard input.
//
// Flags go before the arguments. A flag after them is refused as a usage
// error rather than ignored, so a misplaced --dry-run never writes.
//
// Exit codes (the same for every command):
//
//	0  done
//	1  rejected: the request does not fit the file as it is (no symbol
//	   there, ambiguous, a chunk failed a check, NO_MATCH or WRONG_COUNT,
//	   a line range outside the file, the syntax guard refused, the file
//	   changed since it was read, another symedit process held the lock);
//	   the file is byte-for-byte unchanged
//	2  usage, input or I/O error: bad flags or arguments, malformed JSON,
//	   a path outside --root, an unreadable, binary, hard-linked or
//	   unsupported file, a file this user may not write, metadata that
//	   cannot be kept, a failed write; the file is unchanged
//
// Each JSON error code has one exit code, in exit.go's codeTable; the
// table of codes in docs/json.md lists the same rows.
package app
