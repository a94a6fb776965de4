// Package files is symedit's file layer: it reads a source file for
// editing into an [edit.Document] (refusing what is not a regular UTF-8
// text file), confines paths to a root, and commits new content
// atomically, one file or several as one transaction.
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
// [Commit] works through the file's open folder (every step a *at system
// call), under the folder's flock so that symedit processes take turns
// instead of overwriting each other. Under the lock it reads the file again and refuses
// with [ErrChanged] unless it still holds what was read; refuses a file
// the caller may not write ([ErrNotWritable], unless
// [Options].AllowReadOnly); writes a temporary file in the same folder,
// unnamed (O_TMPFILE) where the file system allows, else named
// ".NAME.symedit-RANDOM"; gives it the original's owner, extended
// attributes (POSIX ACLs included) and mode with its setuid, setgid and
// sticky bits, in that order ([ErrMetadata] for what cannot be kept,
// unless [Options].AllowMetadataLoss); syncs it; compares the file's
// inode, size and times with what was read (a writer that does not lock)
// and its link count (one, unless [Options].AllowHardlinks: a link made
// since the read is refused with [ErrChanged], as Read refuses a file
// with several links) and renames the temporary file over the original,
// then syncs the folder. A symbolic link is written through to its target and stays a
// link. A new file gets 0666 less the umask and is linked into place. New
// content that Read would refuse is refused before anything is written.
// On any failure the temporary file is removed and the original is
// untouched. A single [Files.Commit] syncs the temporary file before the
// rename and the folder after it, all under the folder's lock.
//
// [Files.CommitChanges] (and [Files.CommitAll]) commits several files as
// one transaction: writes, deletions (checked and copied as a write is,
// the name removed in phase 2, the unnamed copy kept to put it back
// until every change succeeded), moves (a created file whose
// [Change].From is the file it moves, which is deleted: the new name is
// checked and given metadata as a commit of that file would be) and
// changes of the execute permission
// ([Change].Exec, for git's mode changes), each undone, mode
// included, when a later one fails. It works in two phases, so that its
// syncs do not wait one after another. Phase 1, unlocked and
// up to 8 files at once: every file is checked as Commit checks it and
// its temporary file written, given the metadata and synced; a failure
// there leaves every file untouched, with nothing to restore (a longer
// transaction than 256 files goes in batches of 256). Phase 2, in
// order: each file's folder lock is taken alone (never two at once, so
// concurrent transactions cannot deadlock), the file is checked again
// (inode, size and times as read; the original is held open since, so
// its inode cannot be reused) and renamed into place. Last, each folder
// the transaction wrote in is synced once, not once per file.
// [Files.CommitEach] commits several files the same way but each on its
// own (symedit replace): it stops at the first failure and keeps the
// files written before it.
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
