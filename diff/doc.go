// Package diff renders unified diffs of symedit's edits, as git diff
// and patch read them.
//
// [Diff] compares two contents line by line (go-difflib's matcher). Where
// the byte edits that made the new content are known, [DiffEdits] (and
// [DiffChange], which picks one or the other) builds the same unified diff
// from the edits themselves, in time proportional to the change, not to
// the file.
package diff
