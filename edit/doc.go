// Package edit is symedit's text core: a [Document] (a text file's
// content, its byte order mark, dominant line ending and lines), the byte
// [Edit] every engine returns against the text it was given, [Apply],
// which applies edits, and line-range edits ([LineEdit],
// [Document.ReplaceLines]).
//
// Every writing operation goes the same way, one package per stage: read
// (package files), locate (symbols), compute edits (chunk, reply,
// textedit, or this package's line edits), guard (guard), diff (diff),
// commit (files). Nothing is written until everything has been validated,
// and a failure at any step leaves the file byte-identical.
//
// # Lines
//
// A [Document] splits its text (the content after any UTF-8 byte order mark)
// into lines at LF, keeping a CR before it as part of the CRLF ending; a file
// whose dominant ending is a lone CR is split at CR. Line numbers are 1-based.
// The dominant ending is the one most lines of the file use: CRLF if
// CRLF outnumbers both LF and CR, else LF if LF outnumbers CR, else CR if
// any, else LF. Lines that an edit writes get the dominant ending; lines it
// does not touch keep their bytes, whatever their ending.
package edit
