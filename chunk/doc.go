// Package chunk is symedit's chunk engine: it applies context-anchored diff
// chunks to the lines of one symbol.
//
// A model that edits a large function sends only the lines that change plus a
// little context, never line numbers and never the whole body:
//
//	{"context_before": "    for item in batch:",
//	 "old_lines":      ["        result = process(item)"],
//	 "new_lines":      ["        result = process(item)", "        log(item, result)"],
//	 "context_after":  "        count += 1"}
//
// The package is pure: lines in, lines out, no I/O and no parsing of source
// code. Reading the file, finding the symbol and writing the result belong to
// packages edit and symbols.
//
// # Positioning and the seven checks
//
// The rules are the chunk spec's seven numbered checks, plus two of
// symedit's own that keep a chunk from landing at a guessed place: exactly
// one candidate may pass, and no two chunks may change the same lines. For
// every chunk, every position inside the symbol is a candidate; a
// candidate passes when, in this order:
//
//   - context_before: the lines just before it equal context_before (an empty
//     context_before adds no constraint);
//   - check 5 (boundary): context_before, old_lines and context_after all lie
//     inside the symbol;
//   - check 2 (old_lines): the lines at the position equal old_lines;
//   - check 4 (deletion): when new_lines is empty, old_lines equal the file's
//     lines byte for byte, not merely after trimming;
//   - check 1 (context_after): the lines just after old_lines equal
//     context_after;
//   - check 6 (end of symbol): when context_after is empty, old_lines end at
//     the symbol's last line.
//
// Two checks do not depend on the position and run first: check 3
// (insertion) refuses an insertion (empty old_lines) with no context at all,
// which no line would anchor; check 7 (line endings) refuses a chunk whose
// strings mix line-ending styles. Lines are compared after trimming trailing
// white space, except in check 4.
//
// Exactly one passing candidate applies. None is a rejection naming the chunk,
// the first check that failed at the candidate that came closest, the real
// line there and the symbol's lines most similar to the expected one. More
// than one is a rejection as ambiguous listing every candidate: the engine
// never guesses, since taking the first passing candidate could edit the
// wrong place without a word. Chunks are
// all validated against the original lines, chunks whose old_lines overlap
// are rejected, and only then are all applied at once.
//
// # Line endings
//
// A chunk string may hold several lines; it is split at CRLF, LF or CR, and
// a single trailing line ending does not add an empty line (as Python's
// str.splitlines). Engine lines never carry line endings: the caller writes
// them in the file's own style, so a CRLF file edited with LF chunks stays
// CRLF.
package chunk
