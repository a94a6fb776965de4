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
// Layout: Dir/v<Schema>/<hh>/<sha256 of path and language>, one file per
// source file, written to a temporary file in the same folder and renamed
// over the entry, so a reader sees an old or a new entry, never half of
// one, and concurrent runs and a killed run leave a valid index. An entry
// starts with a header line holding the SHA-256 of the rest; an entry
// that fails it (or does not decode) is counted as corrupt, ignored and
// rewritten by the caller's Put. The folder's size is bounded (MaxBytes,
// default DefaultMaxBytes): Prune removes the oldest-written entries
// until the folder is under three quarters of it.
//
// The package reads and writes only under Dir; it never reads the source
// files (the caller stats and reads them, through its confinement).
package symcache
