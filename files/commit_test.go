package files_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/files"
	"github.com/symedit/symedit/internal/testfile"
	"github.com/symedit/symedit/remedy"
)

// unconfined is a Files with the default Options, unconfined: what the
// package's Read reads with.
var unconfined = func() *files.Files {
	fl, err := files.Open(files.Options{})
	if err != nil {
		panic(err)
	}
	return fl
}()

// commitIn commits content to the file doc was read from through fl as a
// one-file commit: one change, EachAlone.
func commitIn(fl *files.Files, doc *edit.Document, content []byte) error {
	_, err := fl.Commit(context.Background(), []files.Change{{Doc: doc, Content: content}}, files.EachAlone)
	return err
}

// commitOne is commitIn through an unconfined Files with the default
// Options.
func commitOne(doc *edit.Document, content []byte) error { return commitIn(unconfined, doc, content) }

// commitChanges commits changes through fl as one transaction: AllOrNone.
func commitChanges(fl *files.Files, changes []files.Change) error {
	_, err := fl.Commit(context.Background(), changes, files.AllOrNone)
	return err
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
	src := testfile.Read(t, "../testdata/src/go/atomic_type.go")
	for _, mode := range []fs.FileMode{0o640, 0o755, 0o600, 0o644, 0o444, 0o711} {
		t.Run(mode.String(), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "type.go")
			testfile.WriteMode(t, path, src, mode)
			doc, err := files.Read(path)
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
			// A file its owner may not write is replaced only when
			// AllowReadOnly says so (root may write any file).
			fl, err := files.Open(files.Options{AllowReadOnly: mode&0o200 == 0})
			if err != nil {
				t.Fatal(err)
			}
			if err := commitIn(fl, doc, content); err != nil {
				t.Fatalf("Commit: %v", err)
			}
			assertFile(t, path, content, mode)
			testfile.NoTemps(t, dir)
		})
	}
}

func TestCommitKeepsOwner(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "owned.txt")
	testfile.WriteMode(t, path, []byte("old\n"), 0o644)
	uid, gid := os.Getuid(), os.Getgid()
	if os.Geteuid() == 0 {
		// As root Commit gives the new file the original's owner.
		uid, gid = 65534, 65534
		if err := os.Chown(path, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	doc, err := files.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := commitOne(doc, []byte("new\n")); err != nil {
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
			src := testfile.Read(t, "../testdata/src/python/contextlib_excerpt.py")
			testfile.WriteMode(t, target, src, 0o640)
			link := filepath.Join(linkDir, "link.py")
			if err := os.Symlink(tt.target, link); err != nil {
				t.Fatal(err)
			}
			doc, err := files.Read(link)
			if err != nil {
				t.Fatal(err)
			}
			if doc.Mode != 0o640 {
				t.Errorf("Read through a link: Mode = %v, want the target's 0640", doc.Mode)
			}
			content := append([]byte("# edited through a symlink\n"), src...)
			if err := commitOne(doc, content); err != nil {
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
			testfile.NoTemps(t, linkDir)
			testfile.NoTemps(t, filepath.Dir(target))
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
			testfile.WriteMode(t, path, testfile.Read(t, "../testdata/src/go/slog_value.go"), 0o644)
			doc, err := files.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			tt.change(t, path)
			changed, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			err = commitOne(doc, []byte("package p\n"))
			if !errors.Is(err, edit.ErrChanged) {
				t.Fatalf("Commit = %v, want ErrChanged", err)
			}
			var fe *edit.FileError
			if !errors.As(err, &fe) || fe.Path != path {
				t.Errorf("err = %#v, want a *FileError for %s", err, path)
			}
			assertFile(t, path, changed, 0o644)
			testfile.NoTemps(t, dir)
		})
	}
}

func TestCommitRemovedFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gone.txt")
	testfile.WriteMode(t, path, []byte("x\n"), 0o644)
	doc, err := files.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	err = commitOne(doc, []byte("y\n"))
	var fe *edit.FileError
	if !errors.As(err, &fe) || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Commit = %v, want a *FileError wrapping fs.ErrNotExist", err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Commit recreated the removed file (%v)", err)
	}
	testfile.NoTemps(t, dir)
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
		_, err := files.Read(tt.path)
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
			testfile.WriteMode(t, path, []byte("a\n"), 0o644)
			doc, err := files.Read(path)
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
			err = commitOne(doc, []byte("b\n"))
			if !errors.Is(err, edit.ErrNotRegular) {
				t.Fatalf("Commit = %v, want ErrNotRegular", err)
			}
			fi, err := os.Lstat(path)
			if err != nil || fi.Mode().IsRegular() {
				t.Errorf("the %s was replaced (%v, %v)", kind, fi, err)
			}
			testfile.NoTemps(t, dir)
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
	_, err = files.Read(path)
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
// by SYMEDIT_COMMIT_HELPER_PATH (creating it if it does not exist, with
// the umask SYMEDIT_COMMIT_HELPER_UMASK when set), tries to commit new
// content with the Options named in SYMEDIT_COMMIT_HELPER_OPTS
// ("readonly", "metadata") and prints "helper-result: <json-free
// key=value pairs>" for the parent to check. In the modes "move" and
// "delete" it moves the file to SYMEDIT_COMMIT_HELPER_DEST or deletes it
// instead (helperMove).
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
	case "move", "delete":
		helperMove(mode, path)
		return
	default:
		fmt.Printf("helper-result: setup-error=%q\n", "unknown mode "+mode)
		return
	}
	if u := os.Getenv(helperEnv + "_UMASK"); u != "" {
		n, _ := strconv.ParseUint(u, 8, 32)
		syscall.Umask(int(n))
	}
	opts := os.Getenv(helperEnv + "_OPTS")
	fl, err := files.Open(files.Options{AllowReadOnly: strings.Contains(opts, "readonly"), AllowMetadataLoss: strings.Contains(opts, "metadata")})
	if err != nil {
		fmt.Printf("helper-result: setup-error=%q\n", err)
		return
	}
	doc, err := fl.ReadOrNew(path)
	if err != nil {
		fmt.Printf("helper-result: read-error=%q\n", err)
		return
	}
	size, _ := strconv.Atoi(os.Getenv(helperEnv + "_SIZE"))
	err = commitIn(fl, doc, bytes.Repeat([]byte("x = 1\n"), size/6+1))
	var fe *edit.FileError
	fmt.Printf("helper-result: written=%v fileerror=%v efbig=%v eperm=%v notwritable=%v metadata=%v remedy=%v message=%q\n",
		err == nil, errors.As(err, &fe), errors.Is(err, syscall.EFBIG), errors.Is(err, fs.ErrPermission),
		errors.Is(err, files.ErrNotWritable), errors.Is(err, files.ErrMetadata), remedy.Of(err), fmt.Sprint(err))
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
	orig := testfile.Read(t, "../testdata/src/python/process.py")
	testfile.WriteMode(t, path, orig, 0o640)
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
	testfile.NoTemps(t, dir)
}

// TestCommitPermissionDenied commits into a directory the process cannot
// write. As root, which ignores permissions, it runs the commit in a child
// process as nobody (uid 65534); otherwise directly on a 0555 directory.
func TestCommitPermissionDenied(t *testing.T) {
	orig := testfile.Read(t, "../testdata/src/java/Inventory.java")
	if os.Geteuid() != 0 {
		dir := t.TempDir()
		path := filepath.Join(dir, "Inventory.java")
		testfile.WriteMode(t, path, orig, 0o644)
		doc, err := files.Read(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
		err = commitOne(doc, []byte("class X {}\n"))
		var fe *edit.FileError
		if !errors.As(err, &fe) || !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "the file was not changed") {
			t.Fatalf("Commit = %v, want a *FileError wrapping fs.ErrPermission saying the file was not changed", err)
		}
		assertFile(t, path, orig, 0o644)
		testfile.NoTemps(t, dir)
		return
	}

	// A folder anybody can traverse but only root can write, holding a
	// copy of the test binary and a file nobody (uid 65534) owns and may
	// write: creating the temporary file beside it is refused.
	dir, helper := helperDir(t, "symedit-perm-*")
	path := filepath.Join(dir, "Inventory.java")
	testfile.WriteMode(t, path, orig, 0o644)
	if err := os.Chown(path, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	res := runHelper(t, helper, dir, asNobody(),
		helperEnv+"=perm", helperEnv+"_PATH="+path, helperEnv+"_SIZE=100")
	t.Logf("helper: %s", res)
	for _, want := range []string{"fileerror=true", "eperm=true", "cannot create a temporary file", "permission denied", "the file was not changed"} {
		if !strings.Contains(res, want) {
			t.Errorf("helper result %q lacks %q", res, want)
		}
	}
	assertFile(t, path, orig, 0o644)
	assertOwner(t, path, 65534, 65534)
	testfile.NoTemps(t, dir)
}

// asNobody is the process attribute that runs a helper as uid and gid
// 65534.
func asNobody() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
}

// assertOwner fails unless path belongs to uid:gid.
func assertOwner(t *testing.T, path string, uid, gid uint32) {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != uid || st.Gid != gid {
		t.Errorf("%s belongs to %d:%d, want %d:%d", path, st.Uid, st.Gid, uid, gid)
	}
}

// TestCommitRefusesUnwritable: a user (uid 65534, in a
// child process; CI runs as root) in a folder it may write does not
// replace a file it may not write (read-only, or root's) unless
// AllowReadOnly says so, and a file whose owner or group the new file
// cannot keep unless AllowMetadataLoss says so; a refused file is
// byte-identical with its owner and mode.
func TestCommitRefusesUnwritable(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run the writer as another user and give files other owners")
	}
	orig := testfile.Read(t, "../testdata/src/python/process.py")
	tests := []struct {
		name       string
		mode       fs.FileMode
		uid, gid   uint32
		opts       string
		want       []string
		owner      [2]uint32 // after a successful commit
		wantWrite  bool
		wantInMode fs.FileMode
	}{
		{name: "read-only mode", mode: 0o444, uid: 65534, gid: 65534,
			want: []string{"written=false", "notwritable=true", "eperm=true", "this user may not write the file", "remedy=[{allow_read_only true}] "}},
		{name: "read-only mode allowed", mode: 0o444, uid: 65534, gid: 65534, opts: "readonly",
			wantWrite: true, owner: [2]uint32{65534, 65534}, wantInMode: 0o444},
		{name: "root's file", mode: 0o644, uid: 0, gid: 0,
			want: []string{"written=false", "notwritable=true", "permission denied", "belongs to another user",
				"remedy=[{allow_read_only true} {allow_metadata_loss true}] "}},
		{name: "root's file allowed but owner lost", mode: 0o644, uid: 0, gid: 0, opts: "readonly",
			want: []string{"written=false", "metadata=true", "owner 0:0", "remedy=[{allow_metadata_loss true}] "}},
		{name: "root's file allowed with owner lost", mode: 0o644, uid: 0, gid: 0, opts: "readonly,metadata",
			wantWrite: true, owner: [2]uint32{65534, 65534}, wantInMode: 0o644},
		{name: "group the user is not in", mode: 0o664, uid: 65534, gid: 0,
			want: []string{"written=false", "metadata=true", "owner 65534:0"}},
		{name: "group the user is not in, allowed", mode: 0o664, uid: 65534, gid: 0, opts: "metadata",
			wantWrite: true, owner: [2]uint32{65534, 65534}, wantInMode: 0o664},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			top, helper := helperDir(t, "symedit-unwritable-*")
			dir := filepath.Join(top, "work")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Chown(dir, 65534, 65534); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "process.py")
			testfile.WriteMode(t, path, orig, tt.mode)
			if err := os.Chown(path, int(tt.uid), int(tt.gid)); err != nil {
				t.Fatal(err)
			}
			res := runHelper(t, helper, dir, asNobody(),
				helperEnv+"=perm", helperEnv+"_PATH="+path, helperEnv+"_SIZE=100", helperEnv+"_OPTS="+tt.opts)
			t.Logf("helper: %s", res)
			if tt.wantWrite {
				if !strings.Contains(res, "written=true") {
					t.Fatalf("helper result %q: want written", res)
				}
				fi, err := os.Lstat(path)
				if err != nil {
					t.Fatal(err)
				}
				if fi.Mode() != tt.wantInMode {
					t.Errorf("mode %v, want %v", fi.Mode(), tt.wantInMode)
				}
				assertOwner(t, path, tt.owner[0], tt.owner[1])
				testfile.NoTemps(t, dir)
				return
			}
			for _, want := range tt.want {
				if !strings.Contains(res, want) {
					t.Errorf("helper result %q lacks %q", res, want)
				}
			}
			assertFile(t, path, orig, tt.mode)
			assertOwner(t, path, tt.uid, tt.gid)
			testfile.NoTemps(t, dir)
		})
	}
}

// TestCommitNewFileUmask: a new file gets 0666 less
// the umask, as every other tool's, in a child process with that umask.
func TestCommitNewFileUmask(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		umask     string
		want, dir fs.FileMode
	}{{"002", 0o664, 0o775}, {"077", 0o600, 0o700}, {"022", 0o644, 0o755}} {
		t.Run(tt.umask, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "pkg", "new.py")
			res := runHelper(t, exe, dir, nil, helperEnv+"=perm", helperEnv+"_PATH="+path,
				helperEnv+"_SIZE=10", helperEnv+"_UMASK="+tt.umask)
			if !strings.Contains(res, "written=true") {
				t.Fatalf("helper result %q: want written", res)
			}
			fi, err := os.Lstat(path)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode() != tt.want {
				t.Errorf("new file has mode %v with umask %s, want %v", fi.Mode(), tt.umask, tt.want)
			}
			// The folder it made too: 0777 less the umask.
			di, err := os.Lstat(filepath.Dir(path))
			if err != nil {
				t.Fatal(err)
			}
			if want := fs.ModeDir | tt.dir; di.Mode() != want {
				t.Errorf("new folder has mode %v with umask %s, want %v", di.Mode(), tt.umask, want)
			}
		})
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

// TestCommitKeepsSpecialBits: the setuid, setgid and
// sticky bits survive a commit that also gives the file its owner (the
// kernel clears setuid and setgid on chown, so the mode comes after).
func TestCommitKeepsSpecialBits(t *testing.T) {
	src := testfile.Read(t, "../testdata/src/python/process.py")
	for _, mode := range []fs.FileMode{0o755 | fs.ModeSetuid, 0o775 | fs.ModeSetgid, 0o644 | fs.ModeSticky, 0o750 | fs.ModeSetuid | fs.ModeSetgid} {
		t.Run(mode.String(), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "tool.py")
			testfile.WriteMode(t, path, src, mode)
			uid, gid := uint32(os.Getuid()), uint32(os.Getgid())
			if os.Geteuid() == 0 {
				uid, gid = 65534, 65534
				if err := os.Chown(path, int(uid), int(gid)); err != nil {
					t.Fatal(err)
				}
				// chown cleared the bits; set them again.
				if err := os.Chmod(path, mode); err != nil {
					t.Fatal(err)
				}
			}
			doc, err := files.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			content := append([]byte("# edited\n"), src...)
			if err := commitOne(doc, content); err != nil {
				t.Fatal(err)
			}
			assertFile(t, path, content, mode)
			assertOwner(t, path, uid, gid)
		})
	}
}

// posixACL encodes a POSIX access ACL as the system.posix_acl_access
// extended attribute holds it: version 2, then (tag, permissions, id)
// entries in tag order.
func posixACL(entries ...[3]uint32) []byte {
	b := binary.LittleEndian.AppendUint32(nil, 2)
	for _, e := range entries {
		b = binary.LittleEndian.AppendUint16(b, uint16(e[0]))
		b = binary.LittleEndian.AppendUint16(b, uint16(e[1]))
		b = binary.LittleEndian.AppendUint32(b, e[2])
	}
	return b
}

// TestCommitKeepsExtendedAttributes: user.*
// attributes and a POSIX ACL that denies a group what the mode's group
// bits allow are on the new file, byte for byte, and the new file has no
// attribute the original did not have (a folder's default ACL is not
// inherited).
func TestCommitKeepsExtendedAttributes(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "inventory.java")
	src := testfile.Read(t, "../testdata/src/java/Inventory.java")
	testfile.WriteMode(t, path, src, 0o640)
	if err := unix.Setxattr(path, "user.origin", []byte("https://example.org/inventory"), 0); err != nil {
		t.Skipf("the test folder's file system takes no user.* extended attributes: %v", err)
	}
	if err := unix.Setxattr(path, "user.checksum", []byte{0, 1, 2, 0xff}, 0); err != nil {
		t.Fatal(err)
	}
	// A file with no extended attributes, made before the folder got its
	// default ACL.
	plain := filepath.Join(dir, "plain.java")
	testfile.WriteMode(t, plain, src, 0o640)
	const undefined = 0xFFFFFFFF
	acl := posixACL(
		[3]uint32{0x01, 6, undefined}, // user::rw-
		[3]uint32{0x04, 4, undefined}, // group::r--
		[3]uint32{0x08, 0, 65534},     // group:65534:---
		[3]uint32{0x10, 4, undefined}, // mask::r--
		[3]uint32{0x20, 0, undefined}, // other::---
	)
	hasACL := unix.Setxattr(path, "system.posix_acl_access", acl, 0) == nil
	if !hasACL {
		t.Log("the test folder's file system takes no POSIX ACLs; checking user.* attributes only")
	} else {
		// A default ACL on the folder, which a new file inherits: the
		// commit must not give it to a file that had no such entry.
		dacl := posixACL(
			[3]uint32{0x01, 7, undefined},
			[3]uint32{0x02, 7, 65534}, // user:65534:rwx
			[3]uint32{0x04, 7, undefined},
			[3]uint32{0x10, 7, undefined},
			[3]uint32{0x20, 7, undefined},
		)
		if err := unix.Setxattr(dir, "system.posix_acl_default", dacl, 0); err != nil {
			t.Fatal(err)
		}
	}
	content := bytes.Replace(src, []byte("class"), []byte("final class"), 1)
	for _, p := range []string{path, plain} {
		before := xattrs(t, p)
		doc, err := files.Read(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := commitOne(doc, content); err != nil {
			t.Fatal(err)
		}
		assertFile(t, p, content, 0o640)
		after := xattrs(t, p)
		if !reflect.DeepEqual(after, before) {
			t.Errorf("%s: extended attributes after the commit:\n%q\nwant:\n%q", filepath.Base(p), after, before)
		}
	}
	if after := xattrs(t, path); hasACL && after["system.posix_acl_access"] == "" {
		t.Errorf("the ACL was not kept: %q", after)
	}
}

// xattrs returns path's extended attributes by name.
func xattrs(t *testing.T, path string) map[string]string {
	t.Helper()
	buf := make([]byte, 64<<10)
	n, err := unix.Listxattr(path, buf)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, name := range strings.Split(string(buf[:n]), "\x00") {
		if name == "" {
			continue
		}
		v := make([]byte, 64<<10)
		k, err := unix.Getxattr(path, name, v)
		if err != nil {
			t.Fatal(err)
		}
		m[name] = string(v[:k])
	}
	return m
}

// Concurrent writers, each committing the file it read, must never undo
// one another's edit: writer processes started by
// TestCommitConcurrentProcesses run TestHelperConcurrentWriter.

const writerEnv = "SYMEDIT_CONCURRENT_WRITER"

// TestHelperConcurrentWriter is not a test: unless the environment asks it
// to act as a writer process it does nothing. As one, it reads the file
// SYMEDIT_CONCURRENT_WRITER_PATH, appends " # writer N" to line
// SYMEDIT_CONCURRENT_WRITER_LINE, prints "ready", waits for a line on
// standard input (so that every writer commits at once) and commits; when
// the commit is refused with ErrChanged it reads the file again and
// retries, up to 1,000 times. It prints "writer-result: written
// attempts=N" or "writer-result: error ...".
func TestHelperConcurrentWriter(t *testing.T) {
	path := os.Getenv(writerEnv + "_PATH")
	if path == "" {
		return
	}
	line, _ := strconv.Atoi(os.Getenv(writerEnv + "_LINE"))
	fl, err := files.Open(files.Options{Root: os.Getenv(writerEnv + "_ROOT")})
	if err != nil {
		fmt.Printf("writer-result: error %v\n", err)
		return
	}
	defer fl.Close()
	for attempt := 1; attempt <= 1000; attempt++ {
		doc, content, err := appendToLine(fl, path, line)
		if err != nil {
			fmt.Printf("writer-result: error %v\n", err)
			return
		}
		if attempt == 1 {
			fmt.Println("ready")
			if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
				fmt.Printf("writer-result: error reading the start signal: %v\n", err)
				return
			}
		}
		err = commitIn(fl, doc, content)
		if err == nil {
			fmt.Printf("writer-result: written attempts=%d\n", attempt)
			return
		}
		if !errors.Is(err, edit.ErrChanged) {
			fmt.Printf("writer-result: error %v\n", err)
			return
		}
	}
	fmt.Println("writer-result: error refused with CHANGED 1,000 times")
}

// appendToLine reads path and returns it with " # writer LINE" appended
// to line (1-based).
func appendToLine(files *files.Files, path string, line int) (*edit.Document, []byte, error) {
	doc, err := files.Read(path)
	if err != nil {
		return nil, nil, err
	}
	e, err := doc.ReplaceLines(line, line, []string{doc.Line(line) + fmt.Sprintf(" # writer %d", line)})
	if err != nil {
		return nil, nil, err
	}
	content, err := edit.Apply(doc.Content, []edit.Edit{e})
	return doc, content, err
}

// TestCommitConcurrentProcesses runs 20 writer processes (8 with -short)
// on one file, each changing a different line, all committing at the
// same moment: every writer that reports its edit written must find it
// in the final file (before the folder lock, some were lost), and those
// refused with CHANGED retry until all land.
func TestCommitConcurrentProcesses(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, confined := range []bool{false, true} {
		t.Run(map[bool]string{false: "unconfined", true: "root"}[confined], func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "process.py")
			// About 1 MB of real Python, so the write takes a while.
			src := testfile.Read(t, "../testdata/src/python/process.py")
			testfile.WriteMode(t, path, bytes.Repeat(src, 1<<20/len(src)+1), 0o644)
			root := ""
			if confined {
				root = dir
			}
			writers := 20
			if testing.Short() {
				writers = 8 // each is a process of this (race-built) binary
			}
			type writer struct {
				cmd   *exec.Cmd
				stdin io.WriteCloser
				out   *bufio.Scanner
				line  int
			}
			var ws []*writer
			for i := range writers {
				w := &writer{line: 3 + 41*i}
				w.cmd = exec.Command(exe, "-test.run=^TestHelperConcurrentWriter$", "-test.count=1")
				w.cmd.Env = append(os.Environ(), writerEnv+"_PATH="+path, writerEnv+"_LINE="+strconv.Itoa(w.line), writerEnv+"_ROOT="+root)
				w.cmd.Stderr = os.Stderr
				if w.stdin, err = w.cmd.StdinPipe(); err != nil {
					t.Fatal(err)
				}
				stdout, err := w.cmd.StdoutPipe()
				if err != nil {
					t.Fatal(err)
				}
				w.out = bufio.NewScanner(stdout)
				if err := w.cmd.Start(); err != nil {
					t.Fatal(err)
				}
				ws = append(ws, w)
			}
			// Every writer has read the file; then all commit at once.
			for _, w := range ws {
				if !w.out.Scan() || w.out.Text() != "ready" {
					t.Fatalf("writer for line %d: %q %v", w.line, w.out.Text(), w.out.Err())
				}
			}
			for _, w := range ws {
				if _, err := io.WriteString(w.stdin, "go\n"); err != nil {
					t.Fatal(err)
				}
			}
			retried := 0
			var written []int
			for _, w := range ws {
				var result string
				for w.out.Scan() {
					if r, ok := strings.CutPrefix(w.out.Text(), "writer-result: "); ok {
						result = r
					}
				}
				if err := w.cmd.Wait(); err != nil {
					t.Errorf("writer for line %d: %v", w.line, err)
				}
				attempts, ok := strings.CutPrefix(result, "written attempts=")
				if !ok {
					t.Errorf("writer for line %d: %s", w.line, result)
					continue
				}
				written = append(written, w.line)
				if attempts != "1" {
					retried++
				}
			}
			final, err := files.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range written {
				if want := fmt.Sprintf(" # writer %d", n); !strings.HasSuffix(final.Line(n), want) {
					t.Errorf("the writer of line %d reported its edit written, but line %d is %q", n, n, final.Line(n))
				}
			}
			if len(written) != writers {
				t.Errorf("%d of %d writers wrote", len(written), writers)
			}
			t.Logf("%d writers wrote, %d after being refused with CHANGED", len(written), retried)
			testfile.NoTemps(t, dir)
		})
	}
}

// TestCommitConcurrentGoroutines commits from several goroutines of one
// process, each its own line: the folder lock serializes them as it does
// processes, and every edit lands.
func TestCommitConcurrentGoroutines(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "value.go")
	testfile.WriteMode(t, path, testfile.Read(t, "../testdata/src/go/slog_value.go"), 0o644)
	fl, err := files.Open(files.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer fl.Close()
	const writers = 8
	errs := make(chan error, writers)
	for i := range writers {
		go func(line int) {
			for {
				doc, content, err := appendToLine(fl, path, line)
				if err == nil {
					err = commitIn(fl, doc, content)
				}
				if !errors.Is(err, edit.ErrChanged) {
					errs <- err
					return
				}
			}
		}(5 + 7*i)
	}
	for range writers {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	final, err := fl.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range writers {
		n := 5 + 7*i
		if want := fmt.Sprintf(" # writer %d", n); !strings.HasSuffix(final.Line(n), want) {
			t.Errorf("line %d is %q, want it to end %q", n, final.Line(n), want)
		}
	}
}

// TestCommitLongNames: names up to NAME_MAX (255
// bytes), ASCII and multi-byte, are replaced and created: the temporary
// file's name keeps at most 200 bytes of the name.
func TestCommitLongNames(t *testing.T) {
	for _, n := range []int{230, 246, 255} {
		for _, r := range []string{"a", "é"} {
			name := strings.Repeat(r, (n-3)/len(r)) + ".py"
			t.Run(fmt.Sprintf("%d-%s", len(name), r), func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, name)
				testfile.WriteMode(t, path, []byte("x = 1\n"), 0o644)
				doc, err := files.Read(path)
				if err != nil {
					t.Fatal(err)
				}
				if err := commitOne(doc, []byte("x = 2\n")); err != nil {
					t.Fatalf("replace: %v", err)
				}
				assertFile(t, path, []byte("x = 2\n"), 0o644)
				created := filepath.Join(dir, "new", name)
				fl, err := files.Open(files.Options{Root: dir})
				if err != nil {
					t.Fatal(err)
				}
				defer fl.Close()
				doc, err = fl.ReadOrNew(created)
				if err != nil {
					t.Fatal(err)
				}
				if err := commitIn(fl, doc, []byte("y = 1\n")); err != nil {
					t.Fatalf("create: %v", err)
				}
				if got, err := os.ReadFile(created); err != nil || string(got) != "y = 1\n" {
					t.Errorf("created file holds %q (%v)", got, err)
				}
				testfile.NoTemps(t, dir)
				testfile.NoTemps(t, filepath.Dir(created))
			})
		}
	}
}

// TestCommitRefusesBadContent: new content that Read
// would refuse to read back is refused before anything is written, for a
// replaced file and a new one, and the file is byte-identical; CheckContent
// (what a dry run runs) refuses it with the same error.
func TestCommitRefusesBadContent(t *testing.T) {
	src := testfile.Read(t, "../testdata/src/go/slog_value.go")
	big := bytes.Repeat([]byte("// padding to push the NUL past the sniffed prefix\n"), 200)
	tests := []struct {
		name    string
		content []byte
		is      error
		message string
	}{
		{"invalid UTF-8", append(append([]byte{}, src[:100]...), 0xff, 0xfe, 'x'), edit.ErrEncoding, "the new content is not valid UTF-8 (first bad byte at offset 100); nothing was written"},
		{"UTF-16 BOM", []byte("\xff\xfep\x00"), edit.ErrEncoding, "byte order mark"},
		{"NUL early", append([]byte("package p\x00\n"), src...), edit.ErrBinary, "has a NUL byte at offset 9"},
		{"NUL late", append(append(append([]byte{}, big...), 0), src...), edit.ErrBinary, fmt.Sprintf("has 1 NUL bytes where the file had 0 (the first at offset %d)", len(big))},
		{"too large", bytes.Repeat([]byte("x = 1\n"), edit.MaxFileSize/6+1), edit.ErrTooLarge, "over the 104857600-byte limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "value.go")
			testfile.WriteMode(t, path, src, 0o644)
			fl, err := files.Open(files.Options{Root: dir})
			if err != nil {
				t.Fatal(err)
			}
			defer fl.Close()
			for _, p := range []string{path, filepath.Join(dir, "new.go")} {
				doc, err := fl.ReadOrNew(p)
				if err != nil {
					t.Fatal(err)
				}
				// The dry run's check (CheckContent) and the commit's
				// refuse alike, with the same message.
				checkErr := edit.CheckContent(doc, tt.content)
				err = commitIn(fl, doc, tt.content)
				var fe *edit.FileError
				if !errors.As(err, &fe) || !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.message) {
					t.Errorf("Commit(%s) = %v, want a *FileError wrapping %v saying %q", filepath.Base(p), err, tt.is, tt.message)
				}
				if !errors.As(checkErr, &fe) || !errors.Is(checkErr, tt.is) || fmt.Sprint(checkErr) != fmt.Sprint(err) {
					t.Errorf("CheckContent(%s) = %v, want the error Commit gives: %v", filepath.Base(p), checkErr, err)
				}
			}
			assertFile(t, path, src, 0o644)
			if _, err := os.Lstat(filepath.Join(dir, "new.go")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("new.go was created: %v", err)
			}
			testfile.NoTemps(t, dir)
		})
	}
}

// TestCommitKeepsExistingLateNUL: a file that Read accepts with a NUL
// byte past the first 8,000 bytes can still be edited, as long as the
// edit adds none.
func TestCommitKeepsExistingLateNUL(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "data.py")
	content := append(bytes.Repeat([]byte("x = 1\n"), 2000), []byte("y = '\x00'\n")...)
	testfile.WriteMode(t, path, content, 0o644)
	doc, err := files.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := append([]byte("# edited\n"), content...)
	if err := edit.CheckContent(doc, edited); err != nil {
		t.Fatalf("CheckContent = %v, want nil", err)
	}
	if err := commitOne(doc, edited); err != nil {
		t.Fatal(err)
	}
	assertFile(t, path, edited, 0o644)
}

// TestCommitInUnreadableFolder: a folder the user may write and search
// but not list (mode 0300) is written to as before, in a child process as
// uid 65534 (root ignores permissions).
func TestCommitInUnreadableFolder(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run the writer as another user")
	}
	top, helper := helperDir(t, "symedit-wx-*")
	dir := filepath.Join(top, "drop")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "process.py")
	testfile.WriteMode(t, path, testfile.Read(t, "../testdata/src/python/process.py"), 0o644)
	for _, p := range []string{dir, path} {
		if err := os.Chown(p, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(dir, 0o300); err != nil {
		t.Fatal(err)
	}
	res := runHelper(t, helper, top, asNobody(), helperEnv+"=perm", helperEnv+"_PATH="+path, helperEnv+"_SIZE=12")
	if !strings.Contains(res, "written=true") {
		t.Fatalf("helper result %q: want written", res)
	}
	assertFile(t, path, bytes.Repeat([]byte("x = 1\n"), 3), 0o644)
	assertOwner(t, path, 65534, 65534)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	testfile.NoTemps(t, dir)
}
