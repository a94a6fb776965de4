// Package ops is symedit's operations as a Go library: one typed request
// and one typed result per operation (symbols, show, check, chunk, edit,
// lines, replace, write, replace-body, insert-before, insert-after, apply),
// run on a Workspace. The command line (cmd/symedit), its batch command and
// the MCP server are front ends over this package: each parses its input
// into a request, calls the Workspace and prints the result, so the three
// can never drift apart.
//
// Every writing operation runs one pipeline: read (confined to the
// workspace's root), locate, compute the edit, check everything before
// anything is written, run the syntax guard, build the unified diff, and
// commit atomically (files.Files.Commit), or, for a dry run, write nothing.
// Its result embeds Result, the envelope every writing operation shares:
// ok, path, changed, written, dry_run, diff, syntax, summary and error, an
// *Error whose Code (one table, Codes, each code with its exit code) and
// fields (check, line, expected, actual, candidates, nearest, hint) say
// why a request was refused. The CLI's --json output, batch's result lines
// and the MCP tools' structured content are these values marshalled.
//
// Batch runs many writing operations in one call (`symedit batch`): each
// BatchOp holds one operation's own request (read from a JSON line by the
// same strict rules), the operations on one file apply in order in memory
// through the operations' own plan functions, and each file is checked
// and committed once, different files in parallel.
//
// Every write that commits is recorded in the journal of the workspace's
// root (package internal/journal, in the cache folder; Options.NoJournal
// turns it off) and its result carries the entry's id, OpID. Undo puts the
// files of an entry (or of the last N) back as they were, as one
// transaction and only if none changed since; Journal lists the entries.
// A journal that cannot be written never fails the write: the result's
// JournalError says so.
//
// The read-only operations, Show, Check and Symbols, write nothing (Symbols
// only its persistent symbol index); their results have the envelope's ok,
// error and path (or files) so that every result has the same error shape.
// Check and Symbols take a file, a folder or a doublestar pattern (package
// walk, confined to the root), work on the files concurrently and report
// them in path order, all at once in the result or one by one through the
// request's OnFile.
//
// A Workspace is safe for concurrent use: calls on different files run in
// parallel, calls that write one file are serialized by a lock per file.
package ops
