// Package cachefile writes the files of symedit's own cache folders (the
// symbol index, the journal of writes): each file whole or not at all,
// readable only by the user. A cache file records what can be rebuilt or
// lost (an index entry, how to undo an edit whose own commit was synced),
// so it is not synced: a crash may leave the newest ones missing or empty,
// and their readers skip those.
package cachefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteAtomic writes data to a new temporary file beside path, named
// prefix and a random suffix, with mode 0600, and renames it over path,
// making path's folders with mode 0700 first. On error no temporary file
// remains; the error is the first failed step's.
func WriteAtomic(path, prefix string, data []byte) error {
	dir := filepath.Dir(path)
	// The folders are made only when the temporary file cannot be
	// created for want of them: a cold run writes thousands of packs into
	// one folder, and a stat of it before each was a system call per
	// pack for nothing.
	f, err := os.CreateTemp(dir, prefix+"*") // CreateTemp's mode is 0600
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		f, err = os.CreateTemp(dir, prefix+"*")
	}
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
