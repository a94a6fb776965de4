package symcache

import (
	"io/fs"
	"syscall"
)

// statIdentity returns fi's change time (nanoseconds since the Unix
// epoch), inode and device, or zeros without a *syscall.Stat_t.
func statIdentity(fi fs.FileInfo) (ctime int64, ino, dev uint64) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, 0
	}
	return int64(st.Ctim.Sec)*1e9 + int64(st.Ctim.Nsec), uint64(st.Ino), uint64(st.Dev)
}

// DiskUse returns the bytes of disk blocks fi's file takes (st_blocks ×
// 512, what du counts), or its apparent size without a *syscall.Stat_t.
func DiskUse(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Blocks * 512
	}
	return fi.Size()
}
