// Package files is symedit's file layer: it reads a source file for
// editing into an [edit.Document] (refusing what is not a regular UTF-8
// text file), confines paths to a root, and commits new content
// atomically: one file, several as one transaction, or several each on
// its own ([Files.Commit] and its [Policy]).
//
// # Paths
//
// A path names the file the kernel opens for it: [Files] resolves it one
// component at a time, a symbolic link's relative target from the folder
// the link really lives in and ".." from the real folder reached so far,
// never by cleaning the text. Confined to a root ([Options].Root), the
// components below the root are looked at through an [os.Root], and a path
// that ends outside the root, or that steps out of it once inside (a ".."
// above it, a link leading out), is refused with [ErrOutsideRoot]. A file
// is opened to be read with O_NONBLOCK|O_NOFOLLOW and read only if fstat
// finds a regular file, so a named pipe put in its place never blocks a
// read. [Files.Resolve] and [Files.ReadResolved] are
// Read in two steps, for a caller that keys a lock by the file before it
// reads: the path is resolved once, and the read checks the file it opens
// again (fstat: a regular file, one hard link, the size limit).
//
// # Atomic commit
//
// [Files.Commit] is the one way to write: it takes a list of [Change]s
// (a file's new content, a new file, a deletion, a move, a change of the
// execute permission) and a [Policy] that says what a failure undoes:
// [AllOrNone] makes the list one transaction (a failure puts back every
// file written before it: [TransactionError]), [EachAlone] commits each
// change on its own (symedit replace: it stops at the first failure and
// keeps the files written before it). A one-file commit is a one-element
// list under EachAlone.
//
// Each file is committed through its open folder (every step a *at
// system call), under the folder's flock so that symedit processes take
// turns instead of overwriting each other. The commit reads the file
// again and refuses with [ErrChanged] unless it still holds what was
// read; refuses a file the caller may not write ([ErrNotWritable],
// unless [Options].AllowReadOnly); writes a temporary file in the same
// folder, unnamed (O_TMPFILE) where the file system allows, else named
// ".NAME.symedit-RANDOM"; gives it the original's owner, extended
// attributes (POSIX ACLs included) and mode with its setuid, setgid and
// sticky bits, in that order ([ErrMetadata] for what cannot be kept,
// unless [Options].AllowMetadataLoss); syncs it; under the lock, compares
// the file's inode, size and times with what was read (a writer that does
// not lock) and its link count (one, unless [Options].AllowHardlinks: a
// link made since the read is refused with [ErrChanged], as Read refuses
// a file with several links) and renames the temporary file over the
// original, then syncs the folder. A symbolic link is written through to
// its target and stays a link. A new file gets 0666 less the umask and is
// linked into place. New content that Read would refuse is refused before
// anything is written. On any failure the temporary file is removed and
// the original is untouched. A one-file commit does every step, from the
// read to the folder's sync, under the folder's lock.
//
// Any other commit (several changes, or a deletion or move) works in two
// phases, so that its syncs do not wait one after another: deletions
// (checked and copied as a write is, the name removed in phase 2, the
// unnamed copy kept to put it back until every change succeeded), moves
// (a created file whose [Change].From is the file it moves, which is
// deleted: the new name is checked and given metadata as a commit of that
// file would be) and changes of the execute permission ([Change].Exec,
// for git's mode changes), each undone under AllOrNone, mode included,
// when a later one fails. Phase 1, unlocked and up to 8 files at once:
// every file is checked as above and its temporary file written, given
// the metadata and synced; a failure there leaves every file untouched
// under AllOrNone, with nothing to restore, and lets phase 2 put the
// files before it in place under EachAlone (a list longer than 256
// changes goes in batches of 256). Phase 2, in order: each file's folder
// lock is taken alone (never two at once, so concurrent commits cannot
// deadlock), the file is checked again (inode, size and times as read;
// the original is held open since, so its inode cannot be reused) and
// renamed into place. Last, each folder the commit wrote in is synced
// once, not once per file.
//
// # Killed processes
//
// Where the file system has O_TMPFILE, a symedit killed at any step
// leaves no file of its own: temporary files and deleted files' copies
// are unnamed, a deleted file is never renamed aside, and a temporary
// file gets a name only under the folder's lock, from just before the
// rename over the original to the rename, and always the same one
// (".NAME.symedit-0000000000000000"): the next commit of the same file
// (any command that writes it) finds it there and removes it. Without
// O_TMPFILE (or without the folder's lock), temporary files are named
// ".NAME.symedit-" and 16 random hex digits from their creation; the next
// commit of the same file removes those a killed symedit left once they
// are [StaleTempAge] old.
package files
