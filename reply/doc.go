// Package reply reads the edit blocks a model writes in its reply and applies
// one block to one file's text. It is the pure core of `symedit apply`
// (issue 5): text in, text out, no file I/O and no parsing of source code.
// Reading files, refusing binary or missing ones, the syntax guard, diffs and
// the transaction over many files belong to the caller (packages edit and
// cmd/symedit).
//
// # Block formats
//
// Two formats are read. The anchored EDIT block of seed 004:
//
//	path/to/file.ext
//	<<<<<<< EDIT
//	leading anchor lines (kept)
//	-------
//	old lines (removed)
//	=======
//	new lines (written)
//	-------
//	trailing anchor lines (kept)
//	>>>>>>>
//
// and the older SEARCH/REPLACE block many models also write:
//
//	path/to/file.ext
//	<<<<<<< SEARCH
//	old lines
//	=======
//	new lines
//	>>>>>>> REPLACE
//
// # Parsing
//
// Parse splits the reply into lines at CRLF, LF or lone CR (so a CRLF reply
// parses like its LF form) and numbers them from 1. Everything outside a
// block is prose and is ignored, except for shell suggestions (below).
//
// A block starts at a line that is exactly "<<<<<<< EDIT" or
// "<<<<<<< SEARCH" (trailing spaces and tabs allowed) at column 1. Inside a
// block every line is taken verbatim, including lines that look like code
// fences, except these structural lines (again with trailing spaces or tabs
// allowed): "-------" and "=======", a line starting with ">>>>>>>", and
// another start marker. An EDIT block ends at ">>>>>>>", ">>>>>>> EDIT" or
// ">>>>>>> END"; a SEARCH/REPLACE block at ">>>>>>> REPLACE" or ">>>>>>>".
// Both bare and named end markers are accepted because the structure before
// them already says which kind of block ends, so no reading is ambiguous; an
// end marker naming the other kind (">>>>>>> REPLACE" closing an EDIT block)
// or anything else is refused. In a SEARCH/REPLACE block "-------" is an
// ordinary line.
//
// The path line is the last non-blank line before the start marker, skipping
// one code-fence line (``` or ~~~, with or without a language) between it and
// the marker, so both "src/a.py\n```python\n<<<<<<< EDIT" and
// "```\nsrc/a.py\n<<<<<<< SEARCH" name src/a.py. It is never looked for
// inside or before the previous block. Decoration is stripped, repeatedly and
// in any order: surrounding white space, a Markdown heading ("# ", "### "), a
// list bullet ("- ", "* ", "+ "), a "File:", "Filename:" or "Path:" label
// (any case), a trailing colon, and surrounding backticks, "**" or "*", and
// quotes. What remains is not a path, and the block is malformed ("path line
// missing"), when it is empty, is longer than 200 bytes, contains white
// space (so a path with spaces cannot be named), ends with a period,
// contains one of the characters ` * < > | " , has no letter or digit, or
// (when the line ended with a colon) has neither "/" nor "." in it, as in
// "Changes:". A block without its own path line never reuses the previous
// block's path: a model that drops the path has usually lost track of the
// file, and guessing could edit the wrong one.
//
// Malformed blocks are reported, not applied, as a Malformed with the reply
// line of the block's start marker and a reason naming the offending line: a
// path line missing, a missing or repeated separator, separators in the
// wrong order, an EDIT block with only one "-------", an end marker of the
// wrong kind, a block still open when another starts or the reply ends, and
// a start marker that is indented (markers must start at column 1; an
// indented one is reported so that a block inside a Markdown list is not
// silently ignored). Parsing resumes after the malformed block's end marker
// or at the next start marker, whichever comes first, so the lines of a
// broken block are never read as prose. A block cut short by the next start
// marker has usually just lost its end marker, so the next block may take its
// path line from the broken block's last lines (the broken block is not
// applied either way). Parse runs in time linear in the reply's length,
// never panics and never fails.
//
// # Shell suggestions
//
// Deleting, moving or creating files and folders is not an edit block. A
// model suggests it as a shell command; Parse lists the commands git rm, git
// mv, rm, rmdir, mv, cp, touch and mkdir (followed by arguments) found in
// inline code spans of prose lines outside code fences, and as whole lines
// (a "$ " prompt stripped) inside fences whose language is sh, bash, shell,
// zsh or console. They are never run: symedit only reports them.
//
// # Applying a block
//
// Block.Apply applies one block to the text of one file and returns the new
// text, or a *Failure saying why it does not apply. Only line endings are
// normalised for matching; every other byte of a line must be equal, so a
// trailing-space difference is a mismatch. Lines are the file's lines as
// edit.Document counts them: split at LF (a CR before the LF belongs to the
// ending), or at CR in a file whose dominant ending is CR.
//
// For an EDIT block the lines leading + old + trailing must occur, as whole
// consecutive lines, exactly once. An empty leading anchor means the start of
// the file (the sequence must begin at line 1) and an empty trailing anchor
// the end of the file (the sequence must end at the last line), as issue 5
// decides; the seed's validation found the sequence anywhere. So an EDIT
// block with both anchors empty and some old lines replaces the whole file,
// and only if the old lines are the whole file. Old lines are replaced by the
// new lines; empty old lines insert, empty new lines delete. A
// SEARCH/REPLACE block's old lines must occur exactly once, anywhere.
//
// A block whose anchors and old lines are all empty (an EDIT block with only
// new lines, or a SEARCH/REPLACE block with an empty SEARCH section) creates
// a file: Block.IsCreate reports it, so the caller knows that a missing file
// is expected rather than an error. Apply on an empty text returns the new
// lines, each ending in LF; on a non-empty text it refuses with FILE_EXISTS:
// there is no "append with an empty SEARCH". A block that changes nothing
// (equal old and new lines) is not refused: it still checks that its lines
// are where it says.
//
// Lines written get the text's dominant line ending (by edit.DetectEOL's
// rule: CRLF, LF or CR; LF for a text without any), so a CRLF file edited
// from an LF reply stays CRLF. A UTF-8 byte order mark at the start of the
// text is kept and not matched, and the presence or absence of a final line
// ending is kept; every byte outside the replaced lines is kept. The line
// arithmetic is edit.Document.ReplaceLines', with one correction: an empty
// line never ends up as the text's unterminated last line, where it would
// vanish (it would read as a final line ending), so deleting the last line
// "b" of "a\n\nb" gives "a\n\n", and new lines ending in an empty line at
// the end of a text without a final line ending are written with one.
//
// Blocks for the same file apply in order, each on the text the one before
// produced. Apply is a pure function of the block and the text, so the caller
// can validate a whole reply in memory before writing anything.
//
// # Failures
//
// A *Failure has a Code, a Message, the 1-based text line where the block
// first disagreed with the text and the expected and actual lines there, the
// candidate lines, and the text's lines most similar to the expected one
// (Nearest), so that a model can fix the block in one retry:
//
//   - LEADING_NOT_FOUND: the leading anchor occurs nowhere;
//   - OLD_MISMATCH: the leading anchor (or the start of the file) was found,
//     but the old lines do not follow it;
//   - TRAILING_NOT_FOUND: leading anchor and old lines were found, but the
//     trailing anchor does not follow them (or, when it is empty, they are
//     not at the end of the file);
//   - AMBIGUOUS: the block matches several places; Candidates lists them;
//   - NOT_FOUND: a SEARCH/REPLACE block's old lines occur nowhere;
//   - FILE_EXISTS: a create block on a non-empty text.
//
// When no place matches, the place that matched the most lines of the block
// explains the failure; at a tie, the place whose next line is most like the
// block's (by Near.Similarity), then the first. Failure.Candidates lists the
// places that matched as far as the leading anchor or the old lines.
package reply
