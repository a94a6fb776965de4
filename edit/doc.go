// Package edit is symedit's file layer: it reads a source file for editing
// (refusing what is not a regular UTF-8 text file), models its lines, turns
// line replacements into byte [Edit] values, applies them, renders unified
// diffs, and commits the result atomically.
//
// Every writing command goes the same way: Read, compute the new content,
// check, preview (Diff), Commit. Nothing is written until everything has been
// validated, and a failure at any step leaves the file byte-identical.
//
// # Lines
//
// A [Document] splits its text (the content after any UTF-8 byte order mark)
// into lines at LF, keeping a CR before it as part of the CRLF ending; a file
// whose dominant ending is a lone CR is split at CR. Line numbers are 1-based.
// The dominant ending is detected as the chunk spec (seed 000) says: CRLF if
// CRLF outnumbers both LF and CR, else LF if LF outnumbers CR, else CR if
// any, else LF. Lines that an edit writes get the dominant ending; lines it
// does not touch keep their bytes, whatever their ending.
//
// # Paths
//
// A path names the file the kernel opens for it: [Files] resolves it one
// component at a time, a symbolic link's relative target from the folder
// the link really lives in and ".." from the real folder reached so far,
// never by cleaning the text. Confined to a root ([Options].Root), the
// components below the root are looked at through an [os.Root], and a path
// that ends outside the root, or that steps out of it once inside (a ".."
// above it, a link leading out), is refused with [ErrOutsideRoot].
//
// # Atomic commit
//
// [Commit] writes a temporary file (created with O_EXCL) in the target's own
// directory, syncs it, gives it the original's permission bits (and owner,
// when running as root), checks that the file still holds the content that
// was read, renames the temporary file over the original and syncs the
// directory. A symbolic link is written through to its target and stays a
// link. On any failure the temporary file is removed and the original is
// untouched.
package edit
