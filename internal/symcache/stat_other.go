//go:build !linux

package symcache

import "io/fs"

// statIdentity returns zeros off Linux: without a change time every key is
// racy and the index stores nothing (a port reads the platform's Stat_t).
func statIdentity(fs.FileInfo) (ctime int64, ino, dev uint64) { return 0, 0, 0 }

// DiskUse returns fi's apparent size in bytes (off Linux the blocks a
// file takes are not read so far).
func DiskUse(fi fs.FileInfo) int64 { return fi.Size() }
