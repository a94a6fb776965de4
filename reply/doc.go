// Package reply reads the edit blocks a model writes in its reply and applies
// one block to one file's text. It is the pure core of `symedit apply`:
// text in, text out, no file I/O and no parsing of source code.
// Reading files, refusing binary or missing ones, the syntax guard, diffs and
// the transaction over many files belong to the caller (packages edit and
// cmd/symedit).
//
// # Block formats
//
// These formats are read. symedit's anchored EDIT block:
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
// the older SEARCH/REPLACE block many models also write:
//
//	path/to/file.ext
//	<<<<<<< SEARCH
//	old lines
//	=======
//	new lines
//	>>>>>>> REPLACE
//
// and Codex apply_patch patches and unified diffs (git diff,
// diff -u and Aider's udiff), in a code fence or raw. Each hunk of either
// is a Block of FormatApplyPatch or FormatUnifiedDiff whose OldLines are
// its old side (context and removed lines) and NewLines its new side
// (context and added lines); it applies as a SEARCH/REPLACE block, so a
// hunk is placed by its lines, never by line numbers alone.
//
// # Codex apply_patch
//
// A patch starts at "*** Begin Patch" (or, without it, at an "*** Update
// File:", "*** Add File:" or "*** Delete File:" line, and then ends at the
// first line that is none of its own) and ends at "*** End Patch"; it may
// sit in a code fence or a shell heredoc ("apply_patch <<'EOF'"), which
// are prose. "*** Add File: P" and its lines starting with '+' are a
// create block (refused, FILE_EXISTS, over a non-empty file); the rest of a
// file line, trimmed, is the path, spaces included ("*** Update File: my
// file.py"), as Codex reads it. Each hunk of
// "*** Update File: P" is a Block of FormatApplyPatch, applied as a
// SEARCH/REPLACE block: it opens with "@@" or "@@ context" lines (the
// first hunk may omit it) and holds lines starting with a space, '-' or
// '+' (an empty line is an empty context line when hunk lines follow it).
// The @@ context lines are Block.Scope: where Codex takes the first match
// after them, symedit takes, of the places the hunk's lines match, those
// that are the first after an occurrence of the context lines (in order,
// compared with surrounding white space trimmed); one such place applies,
// several are AMBIGUOUS with the places listed, none is NOT_FOUND. The
// hunks of one file are written against the original file: each is also
// placed there, as a unified diff's hunks are (below), so an earlier
// hunk's change never makes a hunk unique and hunks may not overlap. A
// hunk followed by "*** End of File" must end at the file's last line
// (Block.AtEnd). A hunk with only added lines (no context and no removed
// lines) is an insertion (Block.Insert), as Codex reads it: without "@@
// context" lines it goes after the file's last line (Codex's scenario
// 016_pure_addition_update_chunk), with them right after the last line of
// their one chain (the first context line, then each next one the first
// after it, compared trimmed): such chains ending at several lines are
// AMBIGUOUS, listing those lines, and none is NOT_FOUND, naming the
// context line that breaks the chain (Codex appends such a hunk to the
// file whatever its context lines say: openai/codex#30946). An
// insertion is placed in the original file too: at one place there, not
// inside an earlier hunk's lines, and not where an earlier insertion
// with context lines goes (OVERLAP: which lines come first cannot be
// told; insertions at the end of the file keep their reply order).
// "*** Delete File: P" is a Block with Delete set and no
// lines (Block.FileOnly); "*** Move to: Q" after "*** Update File: P" sets
// MoveTo Q on each of the file's hunks, or, with no hunks, is one FileOnly
// block. These are Malformed, naming the reason: a Delete File or Move to
// naming no file, an insertion with both "@@ context" lines and "***
// End of File" (they disagree on where it goes), an update
// without hunks or a move, a line that is not part of the patch after
// "*** Begin Patch", and a patch without "*** End Patch".
//
// A patch may follow the shell line Codex models write to run it,
// "apply_patch <<'EOF'" (or applypatch; the heredoc's word quoted or
// not), maybe after "cd DIR &&" or "cd DIR;", and then be followed by the
// line ending the heredoc (its word, trailing white space allowed; blank
// lines may come between). The shell line is split into words as a POSIX
// shell splits it (quotes and backslashes removed, nothing expanded), and
// DIR makes every path of the patch, "*** Move to:" targets included,
// DIR/path, with DIR cleaned as cd cleans it (an absolute path in the
// patch stays as it is); the caller confines the result to its root, so
// "cd .." or "cd /elsewhere" is refused there. When the shell would do
// anything else, the whole patch is one Malformed at its first line,
// naming the offending line, with every file of the patch in Paths:
// another command before apply_patch or after the heredoc, apply_patch
// with arguments, a heredoc fed to another command, "<<-" (which strips
// the tabs starting the patch's lines), a cd with options, with no
// folder or several, joined by anything but && or ;, or to a folder the
// shell would expand ($, `, ~, *, ?, [ or {), a line the shell cannot
// split (an open quote), a heredoc not ended after the patch or ended by
// a line holding more than its word, a cd on a line of its own before the
// patch (directly above it, or anywhere in its code fence), and, in a
// code fence that holds the heredoc or whose language is a shell's, any
// line before or after the patch that is not blank or a '#' comment.
//
// Marker lines ("*** Begin Patch", the file lines, "*** Move to:", "***
// End of File", "*** End Patch") may be padded with spaces or tabs before
// and after, as Codex reads them. Inside a hunk, where a line starting
// with a space is a context line, a line that is a marker padded with
// spaces cannot be told from a context line holding a marker's text: it
// makes the file's hunks Malformed, naming the line, except a padded
// "*** End Patch" that no line of the patch follows (after blank lines:
// no hunk line, "@@" line or "*** " line), which is the patch's last line
// and so its end, as Codex reads it.
//
// # Unified diffs
//
// A diff for one file starts at a line beginning "--- " followed directly
// by one beginning "+++ " and one beginning "@@". The file is the +++ name:
// up to a tab (git writes one after a name with a space, diff -u one
// before its timestamp), or without a tab the rest of the line trimmed, so
// names may hold spaces; a name git or GNU diff C-quoted
// ("b/t\303\251st.py", "b/tab\there", "my file.py") is decoded exactly (\a \b \t \n \v \f \r \" \\ and
// three octal digits per byte), and one with another escape, a NUL byte,
// no closing quote or text other than a tab and a timestamp after it makes
// the diff Malformed. Git's "rename from", "rename to" and "diff --git"
// names are read alike; a "diff --git" line's two unquoted names are split
// where both halves are the same name, as git apply does, which is unique
// even for a name holding " b/", and names that cannot be split so are
// not one file (the --- and +++ lines name the file of a diff with hunks).
// When the two names differ only in
// their first folder ("a/x" and "b/x" as git writes them, "old/x" and
// "new/x" from diff -u of two folders) that folder is dropped, as patch
// -p1 does. When they differ otherwise, without git's a/ and b/ or rename
// lines (GNU diff's habit with an edited copy: "diff -u x.py.orig x.py",
// "diff -u x.py x.py.new"), both are candidates for the one file edited:
// Block.PathChoices holds them, the --- name first, and Path is the +++
// name; as GNU patch does (its manual, "Multiple Patches": of the names
// given, one that exists), the caller edits the one that exists, in
// place, and refuses the diff when both or neither exist. Two names that
// are one path once cleaned ("./x" and "x") are one file.
//
// A --- line naming /dev/null, or dated at the Unix epoch (diff -N and
// diff -ruN write "1970-01-01 00:00:00.000000000 +0000", in the local time
// zone, for a file missing on that side; GNU patch reads it as
// /dev/null), creates the file: its one hunk may only add lines, and is a
// create block. A +++ line naming /dev/null, or so dated, deletes the
// file: a hunk of it has Delete set and may only remove lines, and the
// caller deletes the file only when the file's hunks, applied in order,
// leave the empty text. Both lines so is Malformed. With two different
// names (diff -N x.py x.py.new), a deletion's PathChoices holds both, and
// the one that exists is deleted; a creation is Malformed, since GNU
// patch names the new file by the folders it would have to create, which
// the text cannot tell.
//
// Its hunks follow, each at a line beginning "@@". A numbered
// header "@@ -l,s +l,s @@" says how many old and new lines follow (an
// empty line is an empty context line, as patch reads it); a line too many
// or too few is a Malformed. A header without numbers ("@@ ... @@", as
// Aider writes) takes the lines that start with a space, '-' or '+', and
// empty lines between them. Hunks of one file apply in order, each on the
// result of the ones before, and a hunk that matches on lines an earlier
// hunk wrote is refused (OVERLAP), as they overlap in the original. Each
// hunk is also placed in the original text (ApplyAll), at the match level
// it matched at: its lines must occur there at one place, or at the one
// its line numbers name (else
// AMBIGUOUS, with the original's places), that place may not overlap an
// earlier hunk's original lines (OVERLAP, naming both hunks' lines), and
// it must be where the hunk landed once the hunks above it applied; so an
// earlier hunk's change never makes a hunk unique. A hunk's Hint is its
// +l (where it starts once the hunks before it are applied; for +l,0, the
// line after l), which chooses
// between identical candidates when exactly one starts there: stale line numbers do not matter while the
// hunk's lines are unique, and identical candidates that the numbers do
// not tell apart are AMBIGUOUS with both listed.
//
// A numbered hunk with no context lines (diff -U0, which git apply reads
// only with --unidiff-zero) has only its numbers to place it, and there
// git apply (which moves a pure insertion to the end of the file) and
// patch (which inserts it at its line) disagree. It is Pinned: it applies
// only where its numbers put it (its old lines from line Hint, or its new
// lines after line Hint-1) and only when that place ends at the file's
// last line, where both agree; elsewhere it is refused
// (TRAILING_NOT_FOUND, naming the hunk's reply line, the lines its
// numbers name and the file's length), and old lines that are not there
// are OLD_MISMATCH. The one exception is a hunk against an empty old
// file, "@@ -0,0 +1,N @@" (diff -u of an empty file, and how symedit's
// own diffs named a new file before they wrote /dev/null): the only hunk
// of its file, it is a create block (a missing or empty file gets its
// lines; a file with lines is FILE_EXISTS), as git apply and patch apply
// it; a hunk after it is Malformed. A hunk without numbers has no place
// but its lines: without context and removed lines it is Malformed.
//
// "\ No newline at end of file" marks the line before it as the last of
// its side, without a line ending: a removed line the last of the old
// side (Block.OldNoEOL), an added line the last of the new side
// (NewNoEOL), a context line both. Such a hunk ends at the file's last
// line (AtEnd). Its old side's mark says the file's last line has no line
// ending (OLD_MISMATCH when it has one); the result ends without a line
// ending when the new side is marked, and with one (the text's dominant
// ending) when only the old side is, so a diff that adds or removes the
// final line ending applies to the bytes git apply and patch write. A
// line of the marked side after the mark, a mark after an empty line (an
// empty last line without an ending is no line) or a mark that follows
// no line is Malformed.
//
// A rename sets
// MoveTo on the file's hunks (Path is the old name): git's "rename from P"
// and "rename to Q" lines followed (after git's index, mode and similarity
// lines) by --- and +++ lines, which must name P and Q; the same lines
// without a diff after them (a pure rename), one FileOnly block; or --- a/P
// and +++ b/Q naming different files. These are Malformed, naming the
// reason: rename lines that disagree with the --- and +++ lines, a
// deletion hunk with context or added lines, a creating hunk with context
// or removed lines or after another hunk, a hunk cut short by the end of
// the reply or by a line that is not a hunk line, and a "diff --git"
// header whose change has no hunks and is no rename but a binary file, a
// copy, a symbolic link or submodule, or names two files, so that such a
// change is never silently left out. Git writes no hunks either for an
// empty file created or deleted or a mode change between 100644 and
// 100755: for one file named alike on both sides, these are blocks
// without lines: "new file mode M" a create block with Mode M,
// "deleted file mode" a Delete block (the caller deletes the file only
// when it is empty, as the diff says it is), "old mode A" and "new mode
// B" a FileOnly block with OldMode A and Mode B (the caller sets or
// clears the file's execute permission). The same lines before a diff's
// --- line set Mode (and OldMode) on each of its hunks; a mode that is not
// 100644 or 100755 there (a symbolic link, a submodule) makes the diff
// Malformed.
//
// # Parsing
//
// Parse splits the reply into lines at CRLF, LF or lone CR (so a CRLF reply
// parses like its LF form) and numbers them from 1. Everything outside a
// block is prose and is ignored, except for lines that look like markers
// and shell suggestions (both below).
//
// A block starts at a start marker at column 1: a run of 5 to 9 '<', white
// space, then EDIT or SEARCH, or (Cline's form) a run of 5 to 9 '-', white
// space, then SEARCH; a '>' may follow the word ("<<<<<<< SEARCH>") and
// trailing spaces and tabs are allowed. The run lengths other than 7 and
// the trailing '>' are the variants Aider and Cline accept, so replies
// written for those tools apply too.
// Inside a block every line is taken verbatim, including lines that look
// like code fences and indented lines of any kind, except these
// structural lines (again with trailing spaces or tabs allowed): a
// separator, a run of exactly 7 '-' or '=' or of the start marker's run
// length; an end marker, a line starting with 7 or more '>', a run of '>'
// of the start marker's length, a run of 5 to 9 '>' then white space and
// SEARCH, REPLACE or EDIT in any case, maybe with a '>' after it
// (">>>>> REPLACE>": the run lengths of one block may differ, as Aider
// and Cline accept), or (Cline's) a run of 5 to 9 '+' then REPLACE;
// another start marker; and a line at column 1 that looks like a
// marker (below). An EDIT block ends at an end marker with nothing after
// the run or EDIT or END; a SEARCH/REPLACE block at one with nothing or
// REPLACE ("+++++++ REPLACE" included). Both bare and named end markers
// are accepted because the structure before them already says which kind
// of block ends, so no reading is ambiguous; an end marker naming the
// other kind (">>>>>>> REPLACE" closing an EDIT block) or anything else is
// refused. In a SEARCH/REPLACE block a dash separator is an ordinary line,
// and, when the block (up to its end marker) holds no "=" separator of
// those lengths, its one line that is a run of 5 to 9 '=' (Cline's
// "=====", Aider's "={5,9}") is the separator; with several such lines,
// which one separates cannot be told, and the block is malformed, naming
// them. Next to a separator of the standard length such runs are ordinary
// lines, as before.
//
// Inside a block, a line of one or more backslashes followed by a
// structural line loses one backslash and is an ordinary line ("\=======" is
// the line "=======", "\\=======" the line "\======="), so that files
// holding marker lines can be edited; Block.String writes such lines so
// escaped. A SEARCH section may open with Roo Code's hint
// ":start_line:N", an optional ":end_line:M" and a "-------" line: N is the
// block's Hint, which only chooses between identical candidates when it
// names the first line of exactly one of them; the hint without its
// "-------" line is malformed (a SEARCH section whose first line is such
// text writes it "\:start_line:N").
//
// A block's path line is the line before its start marker (below). A
// block with none, when only blank lines, fence lines and lines "..."
// (Aider's elision of the file between two blocks) follow the well-formed
// block before it, takes that block's path (Aider's rule); a
// path on the opening fence line ("```python src/x.py": the text after
// the language, one word with "/" or ".", or quoted; or "```src/x.py",
// one word with "/" or "." in place of the language) serves too, and one
// that differs from the path line above it is malformed ("two paths"); and ParseWith's Options.Path (apply
// --path) names the file of any block for which the reply names none.
//
// # Lines that look like markers
//
// A line that looks like a block marker is never prose: it is read as a
// marker by the rules above, or it is reported as a Malformed at its reply
// line, so that the caller can refuse the whole
// reply rather than apply part of what the model asked for. These lines,
// outside a block, are reported:
//
//   - a line that looks like a marker but is no start marker: a run of 5
//     or more of < > - + followed by SEARCH, REPLACE or EDIT in any case
//     (with or without white space between), or a run of 3 or 4 followed
//     by one of those words in capitals and nothing else; after a '-' or
//     '+' run the word must end the line. A start marker out of reach
//     ("<<<<<<<<<< SEARCH", "<<<< SEARCH", "<<<<<<<SEARCH",
//     "<<<<<<< search", or an indented one) is a malformed block up to its
//     end marker, so its lines are not prose either; an end-marker-like
//     line (">>>>>>> REPLACE", "+++++++ REPLACE") is a stray end marker;
//   - a line starting at column 1 with a run of 5 or more '>' that is bare
//     or followed by white space (">>>>>>>", ">>>>>>> feature"): a stray
//     end marker;
//   - a line that is exactly "=======" at column 1 (trailing white space
//     allowed): a stray separator, reported with the lines after it up to
//     the next end marker, unless it underlines a Markdown setext heading:
//     outside a code fence, under a line that is not blank, and above a
//     blank line or the end of the reply. Runs of '=' of other lengths and
//     runs of '-' alone (headings, horizontal rules "---") are prose;
//   - a hunk header ("@@ -l,s +l,s @@") without the --- and +++ lines of
//     a unified diff before it, or indented (a diff in a Markdown list),
//     with the hunk's lines.
//
// A quoted git
// conflict, from "<<<<<<< NAME" (seven '<', NAME not a block word) to the
// next line starting with ">>>>>>>" that does not name a block part, is
// prose, with its "=======" and "|||||||" lines.
//
// The path line is the last non-blank line before the start marker, skipping
// one code-fence line (``` or ~~~, with or without a language) between it and
// the marker, so both "src/a.py\n```python\n<<<<<<< EDIT" and
// "```\nsrc/a.py\n<<<<<<< SEARCH" name src/a.py; a path in a fence of
// its own just above the block's fence, as DeepSeek Coder V2 writes it
// ("```python\nsrc/a.py\n```\n```python\n<<<<<<< SEARCH", Aider's
// find_filename), is the path line too. A path with spaces is
// read only in backticks or quotes ("`src/my file.py`"), since a bare line
// with spaces ("Update the file x.py") may be prose; on a fence line only
// in quotes ("```python "src/my file.py""): the unquoted fence line
// "```python src/my file.py" may name "src/my file.py" or "file.py", so it
// is malformed unless the path line above names the same text. It is
// never looked for
// inside or before the previous block. Decoration is stripped, repeatedly and
// in any order: surrounding white space, a Markdown heading ("# ", "### "),
// or a run of up to six '#' glued to a name ("#src/a.py"), a list bullet
// ("- ", "* ", "+ "), a "File:", "Filename:" or "Path:" label (any case),
// a trailing colon, and surrounding backticks, "**" or "*", and quotes;
// then backticks and stars left on one side only ("**src/a.py",
// "`src/a.py") when a name follows them, as Aider strips DeepSeek Coder
// V2's mangled names (a name so stripped holds no spaces). What remains is not a path, and the block is malformed ("path line
// missing"), when it is empty, is longer than 200 bytes, contains white
// space (but for spaces inside backticks or quotes in a path with "/" or
// "."), ends with a period,
// contains one of the characters ` * < > | " , has no letter or digit, or
// (when the line ended with a colon) has neither "/" nor "." in it, as in
// "Changes:". A block without its own path line takes the previous
// block's path only as said above: never across prose, a malformed block
// or anything Parse reports, where a model that drops the path may have
// lost track of the file.
//
// Malformed blocks are reported, not applied, as a Malformed with the reply
// line of the block's start marker (or of the marker-like line) and a
// reason naming the offending line: a path line missing, a missing or
// repeated separator, separators in the wrong order, an EDIT block with
// only one "-------", an end marker of the wrong kind, a marker-like line
// inside the block, a block still open when another starts or the reply
// ends, and the lines above (a start marker that is indented is reported
// so that a block inside a Markdown list is not silently ignored). Parsing
// resumes after the malformed block's end marker or at the next start
// marker, whichever comes first, so the lines of a broken block are never
// read as prose. A block cut short by the next start marker has usually
// just lost its end marker, so the next block may take its path line from
// the broken block's last lines (the broken block is not applied either
// way). Parse runs in time linear in the reply's length
// (TestParseLinearTime counts its steps), never panics and never fails.
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
// the end of the file (the sequence must end at the last line), so that
// an anchor left empty still says where the block goes instead of letting
// the sequence match anywhere. So an EDIT
// block with both anchors empty and some old lines replaces the whole file,
// and only if the old lines are the whole file. Old lines are replaced by the
// new lines; empty old lines insert, empty new lines delete. A
// SEARCH/REPLACE block's old lines must occur exactly once, anywhere.
// When they occur nowhere and its SEARCH and REPLACE sections hold the
// same lines "..." (after optional indentation), in the same order, the
// block is Aider's elision: those lines split both sections into pieces,
// and each piece's SEARCH lines are replaced by its REPLACE lines, in
// order, each where they occur exactly once in the text the pieces
// before it left, below the piece before (Aider does not require the
// order); a piece with REPLACE lines and no SEARCH lines (which Aider
// appends to the file) or any piece that does not so apply leaves the
// block NOT_FOUND, the message saying which piece and why. Where the
// SEARCH lines, "..." included, do occur (a Python stub's "..."), the
// block applies as written.
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
// text is kept and not matched (so a text of only a byte order mark has no
// lines: it is empty, and a create block applies to it, keeping the
// mark); a byte order mark anywhere else is an ordinary
// character of its line; the presence or absence of a final line
// ending is kept, unless a unified diff's hunk says otherwise with "\ No
// newline at end of file" (above); every byte outside the replaced lines
// is kept. The line
// arithmetic is edit.Document.ReplaceLines', with one correction: an empty
// line never ends up as the text's unterminated last line, where it would
// vanish (it would read as a final line ending), so deleting the last line
// "b" of "a\n\nb" gives "a\n\n", and new lines ending in an empty line at
// the end of a text without a final line ending are written with one.
//
// Blocks for the same file apply in order, each on the text the one before
// produced. Apply is a pure function of the block and the text, so the caller
// can validate a whole reply in memory before writing anything. ApplyAll
// applies a file's blocks in order with the same result as ApplyLevel in a
// loop, but without a pass over the text per block, so many blocks on a
// large file do not cost their product: the
// text is split once into a balanced tree of lines indexed by content; a
// block that matches exactly once at the exact level is found through the
// occurrences of its rarest line and spliced in, in time proportional to
// its lines and those occurrences times the logarithm of the file's line
// count (TestApplyAllGrowth counts the steps; BenchmarkApplyAll measures:
// 1,000 blocks on a 100,000-line file take about 60 ms, against about 19 s
// for the loop). A block that fails, is ambiguous, matches only at a
// looser level or creates a file, and every block of a CR-only text, costs
// one pass. A reply may hold at most MaxBlocks (10,000) blocks, well formed
// or not; the caller refuses a longer one. ApplyAllEdits also returns the
// byte edits of the original text that the blocks made, where they landed,
// so that the caller's syntax guard and diff look at what changed rather
// than compare whole files: the tree's lines keep their original offsets,
// and a block applied to the text made whole is the stretch between the
// common start and end of the text before and after it, mapped back
// through the edits before it (edit.Compose).
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
//     but the old lines do not follow it (a diff's hunk without context:
//     they are not where its numbers say; a hunk whose old side ends
//     without a line ending: the file's last line has one);
//   - TRAILING_NOT_FOUND: leading anchor and old lines were found, but the
//     trailing anchor does not follow them (or, when it is empty, they are
//     not at the end of the file; a diff's hunk without context: its
//     numbers do not put it at the end of the file);
//   - AMBIGUOUS: the block matches several places; Candidates lists them;
//   - NOT_FOUND: a SEARCH/REPLACE block's old lines occur nowhere;
//   - FILE_EXISTS: a create block on a non-empty text;
//   - OVERLAP (ApplyAll): a hunk of a diff or patch matches only on lines
//     an earlier hunk of the same file wrote, or its place in the original
//     file overlaps an earlier hunk's, or its lines never occur together
//     there; the hunks of one diff or patch are written against the
//     original file and may not overlap. Candidates holds the
//     line.
//
// When no place matches, the place that matched the most lines of the block
// explains the failure; at a tie, the place whose next line is most like the
// block's (by Near.Similarity), then the first. Failure.Candidates lists the
// places that matched as far as the leading anchor or the old lines.
package reply
