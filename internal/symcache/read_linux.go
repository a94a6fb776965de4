package symcache

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// maxEntry bounds the size of an entry readEntry reads: far over any
// real one (a file's symbols), so that a corrupt or foreign file in the
// index folder cannot make a lookup allocate without bound.
const maxEntry = 64 << 20

// readEntry reads the entry file name with four system calls (open,
// fstat, read, close): a warm run reads one entry per file, and an
// os.File would add the runtime poller's attempt to register it and a
// read to find the end. The errors are the system calls' (a missing
// entry wraps fs.ErrNotExist), or io.ErrUnexpectedEOF when the file is
// not a regular file, is over maxEntry bytes or is shorter than its size
// said; each is an *os.PathError.
func readEntry(name string) ([]byte, error) {
	fd, err := retry(func() (int, error) {
		return unix.Open(name, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOCTTY|unix.O_NONBLOCK, 0)
	})
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, &os.PathError{Op: "fstat", Path: name, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG || st.Size > maxEntry {
		return nil, &os.PathError{Op: "read", Path: name, Err: io.ErrUnexpectedEOF}
	}
	buf := make([]byte, st.Size)
	for n := 0; n < len(buf); {
		k, err := retry(func() (int, error) { return unix.Read(fd, buf[n:]) })
		if err != nil {
			return nil, &os.PathError{Op: "read", Path: name, Err: err}
		}
		if k == 0 {
			return nil, &os.PathError{Op: "read", Path: name, Err: io.ErrUnexpectedEOF}
		}
		n += k
	}
	return buf, nil
}

// retry calls f until it fails with something other than EINTR.
func retry(f func() (int, error)) (int, error) {
	for {
		n, err := f()
		if err != unix.EINTR {
			return n, err
		}
	}
}
