package edit_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/symedit/symedit/edit"
)

// writeFileMode writes a file and sets its mode exactly (no umask).
func writeFileMode(t *testing.T, path string, content []byte, mode fs.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, content, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// noTempFiles fails if dir holds a temporary file of Commit.
func noTempFiles(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), ".symedit-") {
			t.Errorf("temporary file %s left in %s", e.Name(), dir)
		}
	}
}

// assertFile fails unless path is a regular file holding content with mode.
func assertFile(t *testing.T, path string, content []byte, mode fs.FileMode) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, content) {
		t.Errorf("%s holds %q, want %q", path, abbrev(got), abbrev(content))
	}
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode() != mode {
		t.Errorf("%s has mode %v, want %v", path, fi.Mode(), mode)
	}
}

func abbrev(b []byte) string {
	if len(b) > 80 {
		return string(b[:80]) + "..."
	}
	return string(b)
}

func TestCommitKeepsMode(t *testing.T) {
	src := readFixture(t, "../testdata/src/go/atomic_type.go")
	for _, mode := range []fs.FileMode{0o640, 0o755, 0o600, 0o644, 0o444, 0o711} {
		t.Run(mode.String(), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "type.go")
			writeFileMode(t, path, src, mode)
			doc, err := edit.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			if doc.Mode != mode {
				t.Errorf("Document.Mode = %v, want %v", doc.Mode, mode)
			}
			e, err := doc.ReplaceLines(5, 5, []string{"// edited"})
			if err != nil {
				t.Fatal(err)
			}
			content, err := edit.Apply(doc.Content, []edit.Edit{e})
			if err != nil {
				t.Fatal(err)
			}
			if err := edit.Commit(doc, content); err != nil {
				t.Fatalf("Commit: %v", err)
			}
			assertFile(t, path, content, mode)
			noTempFiles(t, dir)
		})
	}
}

func TestCommitKeepsOwner(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "owned.txt")
	writeFileMode(t, path, []byte("old\n"), 0o644)
	uid, gid := os.Getuid(), os.Getgid()
	if os.Geteuid() == 0 {
		// As root Commit gives the new file the original's owner.
		uid, gid = 65534, 65534
		if err := os.Chown(path, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	doc, err := edit.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := edit.Commit(doc, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	if int(st.Uid) != uid || int(st.Gid) != gid {
		t.Errorf("owner %d:%d, want %d:%d", st.Uid, st.Gid, uid, gid)
	}
	assertFile(t, path, []byte("new\n"), 0o644)
}

func TestCommitThroughSymlink(t *testing.T) {
	tests := []struct {
		name   string
		target string // relative to the link's directory
	}{
		{"same directory", "real.py"},
		{"other directory", "../other/real.py"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			linkDir := filepath.Join(root, "links")
			for _, d := range []string{linkDir, filepath.Join(root, "other")} {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			target := filepath.Join(linkDir, tt.target)
			src := readFixture(t, "../testdata/src/python/contextlib_excerpt.py")
			writeFileMode(t, target, src, 0o640)
			link := filepath.Join(linkDir, "link.py")
			if err := os.Symlink(tt.target, link); err != nil {
				t.Fatal(err)
			}
			doc, err := edit.Read(link)
			if err != nil {
				t.Fatal(err)
			}
			if doc.Mode != 0o640 {
				t.Errorf("Read through a link: Mode = %v, want the target's 0640", doc.Mode)
			}
			content := append([]byte("# edited through a symlink\n"), src...)
			if err := edit.Commit(doc, content); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Lstat(link)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode()&fs.ModeSymlink == 0 {
				t.Fatalf("link replaced by a %v", fi.Mode())
			}
			if dest, err := os.Readlink(link); err != nil || dest != tt.target {
				t.Errorf("link points to %q (%v), want %q", dest, err, tt.target)
			}
			assertFile(t, target, content, 0o640)
			noTempFiles(t, linkDir)
			noTempFiles(t, filepath.Dir(target))
		})
	}
}

func TestCommitRefusesChangedFile(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, path string)
	}{
		{"different bytes", func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte("package p // changed by someone else\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"appended byte", func(t *testing.T, path string) {
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteString("\n"); err != nil {
				t.Fatal(err)
			}
		}},
		{"truncated", func(t *testing.T, path string) {
			if err := os.Truncate(path, 0); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "value.go")
			writeFileMode(t, path, readFixture(t, "../testdata/src/go/slog_value.go"), 0o644)
			doc, err := edit.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			tt.change(t, path)
			changed, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			err = edit.Commit(doc, []byte("package p\n"))
			if !errors.Is(err, edit.ErrChanged) {
				t.Fatalf("Commit = %v, want ErrChanged", err)
			}
			var fe *edit.FileError
			if !errors.As(err, &fe) || fe.Path != path {
				t.Errorf("err = %#v, want a *FileError for %s", err, path)
			}
			assertFile(t, path, changed, 0o644)
			noTempFiles(t, dir)
		})
	}
}

func TestCommitRemovedFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gone.txt")
	writeFileMode(t, path, []byte("x\n"), 0o644)
	doc, err := edit.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	err = edit.Commit(doc, []byte("y\n"))
	var fe *edit.FileError
	if !errors.As(err, &fe) || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Commit = %v, want a *FileError wrapping fs.ErrNotExist", err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Commit recreated the removed file (%v)", err)
	}
	noTempFiles(t, dir)
}

func TestReadRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	linkToDir := filepath.Join(dir, "linkdir")
	if err := os.Symlink("sub", linkToDir); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, kind string
	}{
		{sub, "directory"},
		{fifo, "named pipe"},
		{linkToDir, "directory"},
		{"/dev/null", "device"},
	}
	for _, tt := range tests {
		_, err := edit.Read(tt.path)
		if !errors.Is(err, edit.ErrNotRegular) {
			t.Errorf("Read(%s) = %v, want ErrNotRegular", tt.path, err)
			continue
		}
		if !strings.Contains(err.Error(), tt.kind) {
			t.Errorf("Read(%s) error %q does not say %q", tt.path, err, tt.kind)
		}
	}
}

// TestCommitRefusesNonRegular replaces the file by a FIFO and by a
// directory between Read and Commit.
func TestCommitRefusesNonRegular(t *testing.T) {
	for _, kind := range []string{"fifo", "directory"} {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f.txt")
			writeFileMode(t, path, []byte("a\n"), 0o644)
			doc, err := edit.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			if kind == "fifo" {
				err = syscall.Mkfifo(path, 0o644)
			} else {
				err = os.Mkdir(path, 0o755)
			}
			if err != nil {
				t.Fatal(err)
			}
			err = edit.Commit(doc, []byte("b\n"))
			if !errors.Is(err, edit.ErrNotRegular) {
				t.Fatalf("Commit = %v, want ErrNotRegular", err)
			}
			fi, err := os.Lstat(path)
			if err != nil || fi.Mode().IsRegular() {
				t.Errorf("the %s was replaced (%v, %v)", kind, fi, err)
			}
			noTempFiles(t, dir)
		})
	}
}

func TestReadRefusesTooLarge(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "huge.txt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	// A sparse file: no disk space, no reading.
	if err := os.Truncate(path, edit.MaxFileSize+1); err != nil {
		t.Fatal(err)
	}
	_, err = edit.Read(path)
	if !errors.Is(err, edit.ErrTooLarge) {
		t.Fatalf("Read = %v, want ErrTooLarge", err)
	}
	if !strings.Contains(err.Error(), strconv.Itoa(edit.MaxFileSize+1)) {
		t.Errorf("error %q does not give the size", err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != edit.MaxFileSize+1 {
		t.Errorf("file changed: %v %v", fi, err)
	}
}

// Helper processes: TestHelperCommit is run by the tests below in a child
// process (the test binary itself) with limits the parent must not have.

const helperEnv = "SYMEDIT_COMMIT_HELPER"

// TestHelperCommit is not a test: it reports nothing unless the
// environment asks it to act as a helper process. It reads the file named
// by SYMEDIT_COMMIT_HELPER_PATH, tries to commit new content and prints
// "helper-result: <json-free key=value pairs>" for the parent to check.
func TestHelperCommit(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		return
	}
	path := os.Getenv(helperEnv + "_PATH")
	switch mode {
	case "fsize":
		signal.Ignore(syscall.SIGXFSZ)
		limit, _ := strconv.ParseUint(os.Getenv(helperEnv+"_LIMIT"), 10, 64)
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
			fmt.Printf("helper-result: setup-error=%q\n", err)
			return
		}
	case "perm":
	default:
		fmt.Printf("helper-result: setup-error=%q\n", "unknown mode "+mode)
		return
	}
	doc, err := edit.Read(path)
	if err != nil {
		fmt.Printf("helper-result: read-error=%q\n", err)
		return
	}
	size, _ := strconv.Atoi(os.Getenv(helperEnv + "_SIZE"))
	err = edit.Commit(doc, bytes.Repeat([]byte("x = 1\n"), size/6+1))
	var fe *edit.FileError
	fmt.Printf("helper-result: fileerror=%v efbig=%v eperm=%v message=%q\n",
		errors.As(err, &fe), errors.Is(err, syscall.EFBIG), errors.Is(err, fs.ErrPermission), fmt.Sprint(err))
}

// runHelper runs TestHelperCommit in the binary exe with the given
// environment and returns its helper-result line.
func runHelper(t *testing.T, exe, dir string, attr *syscall.SysProcAttr, env ...string) string {
	t.Helper()
	cmd := exec.Command(exe, "-test.run=^TestHelperCommit$", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = attr
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper process: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if r, ok := strings.CutPrefix(line, "helper-result: "); ok {
			return r
		}
	}
	t.Fatalf("helper process printed no result:\n%s", out)
	return ""
}

// TestCommitFileSizeLimit commits under RLIMIT_FSIZE in a child process:
// writing the temporary file fails with EFBIG, a real kernel failure.
func TestCommitFileSizeLimit(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "process.py")
	orig := readFixture(t, "../testdata/src/python/process.py")
	writeFileMode(t, path, orig, 0o640)
	res := runHelper(t, exe, dir, nil,
		helperEnv+"=fsize", helperEnv+"_PATH="+path,
		helperEnv+"_LIMIT=4096", helperEnv+"_SIZE=65536")
	t.Logf("helper: %s", res)
	for _, want := range []string{"fileerror=true", "efbig=true", "the file was not changed"} {
		if !strings.Contains(res, want) {
			t.Errorf("helper result %q lacks %q", res, want)
		}
	}
	assertFile(t, path, orig, 0o640)
	noTempFiles(t, dir)
}

// TestCommitPermissionDenied commits into a directory the process cannot
// write. As root, which ignores permissions, it runs the commit in a child
// process as nobody (uid 65534); otherwise directly on a 0555 directory.
func TestCommitPermissionDenied(t *testing.T) {
	orig := readFixture(t, "../testdata/src/java/Inventory.java")
	if os.Geteuid() != 0 {
		dir := t.TempDir()
		path := filepath.Join(dir, "Inventory.java")
		writeFileMode(t, path, orig, 0o644)
		doc, err := edit.Read(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
		err = edit.Commit(doc, []byte("class X {}\n"))
		var fe *edit.FileError
		if !errors.As(err, &fe) || !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "the file was not changed") {
			t.Fatalf("Commit = %v, want a *FileError wrapping fs.ErrPermission saying the file was not changed", err)
		}
		assertFile(t, path, orig, 0o644)
		noTempFiles(t, dir)
		return
	}

	// A directory nobody can traverse, holding a copy of the test binary
	// nobody can run, and a file nobody can read but not write.
	dir, helper := helperDir(t, "symedit-perm-*")
	path := filepath.Join(dir, "Inventory.java")
	writeFileMode(t, path, orig, 0o644)
	res := runHelper(t, helper, dir,
		&syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}},
		helperEnv+"=perm", helperEnv+"_PATH="+path, helperEnv+"_SIZE=100")
	t.Logf("helper: %s", res)
	for _, want := range []string{"fileerror=true", "eperm=true", "permission denied", "the file was not changed"} {
		if !strings.Contains(res, want) {
			t.Errorf("helper result %q lacks %q", res, want)
		}
	}
	assertFile(t, path, orig, 0o644)
	noTempFiles(t, dir)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != 0 {
		t.Errorf("file owner changed to %d", st.Uid)
	}
}

func copyFile(t *testing.T, from, to string, mode fs.FileMode) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, mode)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(to, mode); err != nil {
		t.Fatal(err)
	}
}

// helperDir makes a folder under /tmp (named after pattern, removed after
// the test) that any user can traverse but only root can write, holding a
// copy of the test binary as helper.test: the setting for running the
// test's writer as another user (uid 65534) in a child process.
func helperDir(t *testing.T, pattern string) (dir, helper string) {
	t.Helper()
	dir, err := os.MkdirTemp("/tmp", pattern)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	helper = filepath.Join(dir, "helper.test")
	copyFile(t, exe, helper, 0o755)
	return dir, helper
}
