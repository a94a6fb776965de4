// Package symcache is symedit's persistent symbol index: the symbols of each source file, kept between runs in a folder
// under the user's cache folder, so that `symedit symbols` neither reads
// nor parses a file that has not changed.
//
// An entry is keyed by the file's identity (Key: absolute real path,
// language, size, modification and change times with nanoseconds, inode
// and device; for Put, those of the descriptor the content was read
// from) and by the symedit build (BuildID: the schema version, a
// digest of the embedded symbols queries, the module and VCS information
// and the executable's size and modification time). Get returns an
// entry's symbols only when every part of both matches.
//
// Racily clean files (git's rule, see Documentation/technical/racy-git.txt
// in git): Put stores nothing for a file whose modification or change
// time is not strictly older than the time the caller took before it
// looked at the file (stat) minus the timestamp granularity (Margin): a
// write in the same clock tick as the look could leave the key unchanged.
// Such a file is parsed on every run until it is older than that.
//
// Layout: one pack file per group of source folders, the parent of the
// folders (Dir/v<Schema>/<the hex SHA-256 of the parent's real path>,
// every pack in that one folder: a cold run would otherwise make the
// folders too, and a new folder costs the kernel more than a new file),
// holding the entries of the files of its subfolders (keyed
// inside by the subfolder's base name, "/", the file's base name, and the
// language) and the build and group it is for. One file per source file
// took a whole file system block and an inode per entry: at 100,000
// files 373 MB on disk for 109 MB of entries, and a cold run that filled
// it was 27-38% slower than one without the index, most of it in
// creating inodes. One pack per folder still made 9,173 files for 71,609
// source files, most folders holding a few; grouping by the parent makes
// 2,433. A walk lists a folder's files together, and the subfolders of
// one parent one after the other, so one read of a pack serves many
// files (a Cache keeps the last 64 packs read), and a cold run writes
// about one pack per group: Put holds entries in memory (up to 8 MiB,
// then it flushes) and Flush merges them into the group's pack as it is
// on disk at that moment, the entries of other files kept and those of
// another build dropped. A pack is written to a temporary file in the
// same folder and renamed over the old one, so a reader sees an old or a
// new pack, never half of one, and concurrent runs and a killed run leave
// a valid index; two runs flushing one group at once leave one of their
// packs, and the other's new entries are parsed again by a later run. A
// pack starts with a header line holding the CRC-32C of the rest; a pack
// that fails it (or does not decode) is counted as corrupt and ignored,
// and the next Flush for its group rewrites it from the entries put.
// Holds tells a caller that a group's pack holds nothing of this build (a
// cold run), so that it can read a file without the stat a lookup would
// need. An entry's symbols are decoded only when a Get asks for that
// entry, from one copy of its bytes that all its strings share. An entry
// of a file deleted since stays in its group's pack until Prune removes
// the pack.
//
// The folder's disk use is bounded (MaxBytes, default DefaultMaxBytes),
// counted in blocks allocated (st_blocks × 512, what du shows), not in
// apparent size: Prune removes the oldest-written packs until the folder
// takes under three quarters of it.
//
// The package reads and writes only under Dir; it never reads the source
// files (the caller stats and reads them, through its confinement).
package symcache
