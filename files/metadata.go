package files

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/remedy"
	"golang.org/x/sys/unix"
)

// fileMeta is the metadata of a file that Commit gives the new file.
type fileMeta struct {
	mode     fs.FileMode // permission, setuid, setgid and sticky bits
	uid, gid uint32
	xattrs   []xattr // extended attributes, POSIX ACLs included
}

// xattr is one extended attribute.
type xattr struct {
	name  string
	value []byte
}

// readMeta reads f's metadata; st is its status.
func readMeta(f *os.File, st *unix.Stat_t) (*fileMeta, error) {
	m := &fileMeta{mode: statMode(st) & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky), uid: st.Uid, gid: st.Gid}
	var err error
	m.xattrs, err = readXattrs(int(f.Fd()))
	return m, err
}

// readXattrs returns every extended attribute of the file fd that the
// caller may list, in the order the file system lists them; none where
// the file system has no extended attributes.
func readXattrs(fd int) ([]xattr, error) {
	names, err := listXattrs(fd)
	if err != nil {
		return nil, err
	}
	var out []xattr
	for _, n := range names {
		v, err := getXattr(fd, n)
		if errors.Is(err, unix.ENODATA) {
			continue // removed meanwhile
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		out = append(out, xattr{n, v})
	}
	return out, nil
}

func listXattrs(fd int) ([]string, error) {
	for {
		n, err := unix.Flistxattr(fd, nil)
		if errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EOPNOTSUPP) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, nil
		}
		buf := make([]byte, n)
		n, err = unix.Flistxattr(fd, buf)
		if errors.Is(err, unix.ERANGE) {
			continue // grew meanwhile
		}
		if err != nil {
			return nil, err
		}
		var names []string
		for _, s := range strings.Split(string(buf[:n]), "\x00") {
			if s != "" {
				names = append(names, s)
			}
		}
		return names, nil
	}
}

func getXattr(fd int, name string) ([]byte, error) {
	for {
		n, err := unix.Fgetxattr(fd, name, nil)
		if err != nil {
			return nil, err
		}
		buf := make([]byte, n)
		n, err = unix.Fgetxattr(fd, name, buf)
		if errors.Is(err, unix.ERANGE) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return buf[:n], nil
	}
}

// copyMeta gives the temporary file t the metadata m, in the order the
// kernel needs: the owner first (chown clears the setuid and setgid bits
// and file capabilities), then the extended attributes (the folder's
// default ACL, inherited by t, removed where the original had none), then
// the mode. It then checks t's owner and mode. What cannot be kept makes
// a *FileError wrapping ErrMetadata that lists it, unless
// opt.AllowMetadataLoss; a failed chmod is always an error.
func copyMeta(doc *edit.Document, t tempFile, m *fileMeta, opt Options) error {
	var lost []string
	fd := int(t.Fd())
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return failed(doc, "cannot read the temporary file's status", err)
	}
	if st.Uid != m.uid || st.Gid != m.gid {
		if err := t.Chown(int(m.uid), int(m.gid)); err != nil {
			lost = append(lost, fmt.Sprintf("owner %d:%d (%s)", m.uid, m.gid, reason(err)))
			if st.Gid != m.gid {
				_ = t.Chown(-1, int(m.gid)) // keep the group at least
			}
		}
	}
	have, err := readXattrs(fd)
	if err != nil {
		return failed(doc, "cannot read the temporary file's extended attributes", err)
	}
	for _, x := range m.xattrs {
		if i := indexXattr(have, x.name); i >= 0 && bytes.Equal(have[i].value, x.value) {
			continue
		}
		if err := t.Setxattr(x.name, x.value); err != nil {
			lost = append(lost, fmt.Sprintf("extended attribute %s (%s)", x.name, reason(err)))
		}
	}
	for _, x := range have {
		if indexXattr(m.xattrs, x.name) < 0 {
			if err := t.Removexattr(x.name); err != nil {
				lost = append(lost, fmt.Sprintf("no extended attribute %s, which the new file got from its folder (%s)", x.name, reason(err)))
			}
		}
	}
	if err := t.Chmod(m.mode); err != nil {
		return failed(doc, "cannot set the temporary file's permissions", err)
	}
	if err := unix.Fstat(fd, &st); err != nil {
		return failed(doc, "cannot read the temporary file's status", err)
	}
	got := statMode(&st) & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	for _, b := range []struct {
		bit  fs.FileMode
		name string
	}{{fs.ModeSetuid, "setuid bit"}, {fs.ModeSetgid, "setgid bit"}, {fs.ModeSticky, "sticky bit"}} {
		if m.mode&b.bit != 0 && got&b.bit == 0 {
			lost = append(lost, b.name)
		}
	}
	if got.Perm() != m.mode.Perm() {
		lost = append(lost, fmt.Sprintf("permission bits %04o (the new file has %04o)", m.mode.Perm(), got.Perm()))
	}
	if len(lost) == 0 || opt.AllowMetadataLoss {
		return nil
	}
	return (&edit.FileError{Path: doc.Path,
		Reason: "the new file cannot keep the file's " + strings.Join(lost, ", ") + "; nothing was written",
		Err:    ErrMetadata}).WithRemedy(remedy.Set(remedy.AllowMetadataLoss, "true"))
}

func indexXattr(xs []xattr, name string) int {
	for i, x := range xs {
		if x.name == name {
			return i
		}
	}
	return -1
}
