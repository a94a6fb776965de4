// Package walk expands the FILE... arguments of a symedit command into the
// list of files it works on.
//
// An argument that names an existing file is taken as given, and is never
// skipped by the rules below (as ripgrep treats a file named on its
// command line). An existing directory is walked. Any other argument that
// contains a glob metacharacter (*, ?, [ or {) is a doublestar pattern
// (github.com/bmatcuk/doublestar/v4: ** matches any number of folders,
// {a,b} alternatives, [a-z] classes), written in quotes so that the shell
// leaves it alone: the folder before its first metacharacter is walked and
// each file whose path below that folder matches the rest is kept. Any
// other argument is passed on as given, for the command to report.
//
// A walk skips, without counting them:
//   - what git ignores: the .gitignore files of every folder from the
//     top of the work tree (the nearest folder above with a .git entry)
//     down, and .git/info/exclude, read with go-git's gitignore matcher
//     (github.com/go-git/go-git/v5/plumbing/format/gitignore); without a
//     work tree, the .gitignore files from the walked folder down. The
//     user's global excludes file is not read. An ignore file that is not
//     a regular file (a named pipe, a device) is never read, and counts
//     as absent: every file is opened without blocking (O_NONBLOCK) and
//     read only if fstat finds a regular file, so a pipe in the tree
//     cannot hang the walk.
//     Options.NoIgnore turns this off;
//   - the .git folder, always;
//   - hidden files and folders (a name starting with "."), unless
//     Options.Hidden;
//   - what an Options.Exclude pattern matches: a doublestar pattern
//     matched against the path below the walked folder (slash-separated)
//     and against the base name, for files and folders alike.
//
// A walk also skips, and counts in Result.Skipped by reason: files in no
// language symedit supports (lang.ForPath), symbolic links (a walk
// does not follow them), binary files (a NUL byte in the first 8,000
// bytes) and files over Options.MaxSize bytes.
//
// A folder or pattern means what the kernel makes of it: ".." after a
// symbolic link goes up from the link's target (with sub a link to a/b,
// "sub/.." walks a), and the files are named by joining the folder as
// written and the path below it, never by cleaning the text (which would
// name files that were not walked); only empty and "." components are
// dropped. The work tree, its ignore files and Options.Root are found
// from the folder's real path, as the kernel resolves it.
//
// When any argument was walked, the result is sorted by path and holds
// each file once, under the first name it was reached by (names are
// compared by their folder's real path, so two spellings of one folder
// give each file once), whatever the order of the file system; when every
// argument names a file, the result is the arguments, in their order,
// duplicates included (a command may refuse those).
//
// A walk reads its folders on up to runtime.GOMAXPROCS(0) goroutines once
// it has read a few dozen on the caller's; the result is the same as
// reading them one by one, and so is the error: a walk that meets several
// folders or ignore files it cannot read returns the error of the first in
// depth-first name order, whichever fails first in time.
//
// The package has no mutable package-level state; Expand is safe for
// concurrent use.
package walk
