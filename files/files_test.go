package files_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/files"
	"github.com/symedit/symedit/internal/testfile"
	"github.com/symedit/symedit/remedy"
)

// Helpers of the Files tests. The names carry a "disk" prefix so that they
// do not collide with helpers of other test files of the package.

// diskWrite writes content to path with exactly mode, making its folders.
func diskWrite(t *testing.T, path string, content []byte, mode fs.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	testfile.WriteMode(t, path, content, mode)
}

// diskSymlink makes link point to target (taken as it is).
func diskSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// diskLink fails unless link is a symbolic link to target.
func diskLink(t *testing.T, link, target string) {
	t.Helper()
	fi, err := os.Lstat(link)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("%s is no longer a symbolic link (%v)", link, fi.Mode())
	}
	if got, err := os.Readlink(link); err != nil || got != target {
		t.Errorf("%s points to %q (%v), want %q", link, got, err, target)
	}
}

// diskNoTemps fails if any folder under dir holds a temporary file of
// Commit (".NAME.symedit-*").
func diskNoTemps(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") && strings.Contains(d.Name(), ".symedit-") {
			t.Errorf("temporary file %s left behind", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// diskNlink returns the number of hard links of path.
func diskNlink(t *testing.T, path string) uint64 {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return uint64(fi.Sys().(*syscall.Stat_t).Nlink)
}

// diskOpen opens a Files for opt, closed at the end of the test.
func diskOpen(t *testing.T, opt files.Options) *files.Files {
	t.Helper()
	f, err := files.Open(opt)
	if err != nil {
		t.Fatalf("Open(%+v): %v", opt, err)
	}
	t.Cleanup(func() {
		if err := f.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return f
}

// wantFileError fails unless err is a *FileError for path wrapping target.
func wantFileError(t *testing.T, err error, path string, target error) *edit.FileError {
	t.Helper()
	var fe *edit.FileError
	if !errors.As(err, &fe) {
		t.Fatalf("err = %v (%T), want a *FileError wrapping %v", err, err, target)
	}
	if !errors.Is(err, target) {
		t.Fatalf("err = %v, want it to wrap %v", err, target)
	}
	if fe.Path != path {
		t.Errorf("FileError.Path = %q, want %q", fe.Path, path)
	}
	return fe
}

func TestFilesOpen(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "dir")
	file := filepath.Join(base, "file.txt")
	diskWrite(t, filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644)
	diskWrite(t, file, []byte("f\n"), 0o644)
	tests := []struct {
		name    string
		root    string
		fail    bool
		wantErr error  // wrapped, when not nil
		reason  string // in the Reason, when fail
	}{
		{"unconfined", "", false, nil, ""},
		{"directory", dir, false, nil, ""},
		{"directory with trailing slash", dir + "/", false, nil, ""},
		{"missing", filepath.Join(base, "missing"), true, fs.ErrNotExist, "cannot use as root: no such file or folder"},
		{"regular file", file, true, nil, "cannot use as root: not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := files.Open(files.Options{Root: tt.root})
			if tt.fail {
				if f != nil {
					t.Errorf("Open returned a Files with the error")
				}
				var fe *edit.FileError
				if !errors.As(err, &fe) || fe.Path != tt.root {
					t.Fatalf("Open = %v, want a *FileError for %s", err, tt.root)
				}
				if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
					t.Errorf("err %v does not wrap %v", err, tt.wantErr)
				}
				if !strings.Contains(fe.Reason, tt.reason) {
					t.Errorf("Reason %q lacks %q", fe.Reason, tt.reason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			doc, err := f.Read(filepath.Join(dir, "a.txt"))
			if err != nil {
				t.Fatal(err)
			}
			if string(doc.Content) != "a\n" {
				t.Errorf("Content = %q, want %q", doc.Content, "a\n")
			}
		})
	}
}

// rootTree makes base/root holding pkg/value.go (slog_value.go) and
// base/outside/secret.txt, and returns base and the root.
func rootTree(t *testing.T) (base, root string) {
	base = t.TempDir()
	root = filepath.Join(base, "root")
	diskWrite(t, filepath.Join(root, "pkg", "value.go"), testfile.Read(t, "../testdata/src/go/slog_value.go"), 0o644)
	// A NUL byte: reading the file would fail with ErrBinary, so a refusal
	// that is ErrOutsideRoot happened before anything was read.
	diskWrite(t, filepath.Join(base, "outside", "secret.txt"), []byte("secret\x00\n"), 0o644)
	return base, root
}

func TestFilesReadInsideRoot(t *testing.T) {
	base, root := rootTree(t)
	want := testfile.Read(t, "../testdata/src/go/slog_value.go")
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(root, "pkg", "value.go")
	fromWD, err := filepath.Rel(wd, abs)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		cwd  string // "" keeps the package directory
		path string
	}{
		{"absolute", "", abs},
		{"absolute with dot-dot inside", "", filepath.Join(root, "pkg") + "/../pkg/./value.go"},
		{"relative to the package directory", "", fromWD},
		{"relative from the root", root, "pkg/value.go"},
		{"relative with dot-slash", root, "./pkg/value.go"},
		{"relative from a subfolder", filepath.Join(root, "pkg"), "value.go"},
		{"relative from above the root", base, "root/pkg/value.go"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.cwd != "" {
				t.Chdir(tt.cwd)
			}
			f := diskOpen(t, files.Options{Root: root})
			doc, err := f.Read(tt.path)
			if err != nil {
				t.Fatalf("Read(%s): %v", tt.path, err)
			}
			if doc.Path != tt.path {
				t.Errorf("Path = %q, want %q as given", doc.Path, tt.path)
			}
			if !bytes.Equal(doc.Content, want) {
				t.Errorf("Content differs from the file")
			}
			if doc.Mode != 0o644 {
				t.Errorf("Mode = %v, want 0644", doc.Mode)
			}
			// And the document commits back through the root.
			next := bytes.Replace(want, []byte("package slog"), []byte("package slog // edited"), 1)
			if err := commitIn(f, doc, next); err != nil {
				t.Fatalf("Commit: %v", err)
			}
			assertFile(t, abs, next, 0o644)
			diskNoTemps(t, root)
			testfile.WriteMode(t, abs, want, 0o644)
		})
	}
}

func TestFilesRootRefusesOutside(t *testing.T) {
	base, root := rootTree(t)
	secret := filepath.Join(base, "outside", "secret.txt")
	secretBytes := []byte("secret\x00\n")
	diskSymlink(t, "../outside/secret.txt", filepath.Join(root, "rel-link.txt"))
	diskSymlink(t, secret, filepath.Join(root, "abs-link.txt"))
	diskSymlink(t, "chain2.txt", filepath.Join(root, "chain1.txt"))
	diskSymlink(t, "pkg/chain3.txt", filepath.Join(root, "chain2.txt"))
	diskSymlink(t, "../../outside/secret.txt", filepath.Join(root, "pkg", "chain3.txt"))
	diskSymlink(t, "../outside", filepath.Join(root, "dir-link"))
	diskSymlink(t, "../outside/missing.txt", filepath.Join(root, "dangling-out.txt"))
	tests := []struct {
		name string
		cwd  string
		path string
	}{
		{"dot-dot relative", root, "../outside/secret.txt"},
		{"dot-dot to a sibling of the root", root, "../x"},
		{"dot-dot from a subfolder", filepath.Join(root, "pkg"), "../../outside/secret.txt"},
		{"absolute outside", "", secret},
		{"absolute through the root and out", "", root + "/pkg/../../outside/secret.txt"},
		{"the root's parent", "", base},
		{"symlink with a relative target outside", "", filepath.Join(root, "rel-link.txt")},
		{"symlink with an absolute target outside", "", filepath.Join(root, "abs-link.txt")},
		{"symlink chain leading outside", "", filepath.Join(root, "chain1.txt")},
		{"symlinked folder leading outside", "", filepath.Join(root, "dir-link", "secret.txt")},
		{"new file in a symlinked folder outside", "", filepath.Join(root, "dir-link", "new.txt")},
		{"dangling symlink outside", "", filepath.Join(root, "dangling-out.txt")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.cwd != "" {
				t.Chdir(tt.cwd)
			}
			f := diskOpen(t, files.Options{Root: root})
			for _, op := range []struct {
				name string
				read func(string) (*edit.Document, error)
			}{{"Read", f.Read}, {"ReadOrNew", f.ReadOrNew}} {
				doc, err := op.read(tt.path)
				if doc != nil {
					t.Errorf("%s returned a document", op.name)
				}
				fe := wantFileError(t, err, tt.path, files.ErrOutsideRoot)
				if errors.Is(err, edit.ErrBinary) || errors.Is(err, fs.ErrNotExist) {
					t.Errorf("%s: %v: the file was looked at", op.name, err)
				}
				if !strings.Contains(fe.Reason, "outside the root") || !strings.Contains(fe.Reason, "nothing was read") {
					t.Errorf("%s: Reason %q, want it to say outside the root, nothing was read", op.name, fe.Reason)
				}
			}
			testfile.Same(t, secret, secretBytes)
			for _, created := range []string{"x", "outside/new.txt", "outside/missing.txt"} {
				if _, err := os.Lstat(filepath.Join(base, created)); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("%s exists (%v)", created, err)
				}
			}
		})
	}
}

// TestFilesCommitRefusesLinkOutsideRoot reads a symbolic link that points
// inside the root, then repoints it outside before the commit. The file
// outside has the very bytes that were read, so only the root's check
// stands between the commit and the file outside.
func TestFilesCommitRefusesLinkOutsideRoot(t *testing.T) {
	content := testfile.Read(t, "../testdata/src/python/contextlib_excerpt.py")
	tests := []struct {
		name string
		// repoint makes root/link.py lead outside; base is the temp dir.
		repoint func(t *testing.T, base, root string) string
	}{
		{"relative target", func(t *testing.T, base, root string) string {
			return "../outside/real.py"
		}},
		{"absolute target", func(t *testing.T, base, root string) string {
			return filepath.Join(base, "outside", "real.py")
		}},
		{"absolute target through the root and out", func(t *testing.T, base, root string) string {
			return root + "/../outside/real.py"
		}},
		{"chain through a second link", func(t *testing.T, base, root string) string {
			diskSymlink(t, "../../outside/real.py", filepath.Join(root, "pkg", "hop.py"))
			return "pkg/hop.py"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			root := filepath.Join(base, "root")
			inside := filepath.Join(root, "pkg", "real.py")
			outside := filepath.Join(base, "outside", "real.py")
			diskWrite(t, inside, content, 0o644)
			diskWrite(t, outside, content, 0o644)
			link := filepath.Join(root, "link.py")
			diskSymlink(t, "pkg/real.py", link)
			f := diskOpen(t, files.Options{Root: root})
			doc, err := f.Read(link)
			if err != nil {
				t.Fatal(err)
			}
			target := tt.repoint(t, base, root)
			if err := os.Remove(link); err != nil {
				t.Fatal(err)
			}
			diskSymlink(t, target, link)
			err = commitIn(f, doc, []byte("# replaced\n"))
			wantFileError(t, err, link, files.ErrOutsideRoot)
			testfile.Same(t, outside, content)
			testfile.Same(t, inside, content)
			diskLink(t, link, target)
			diskNoTemps(t, base)
		})
	}
}

func TestFilesCommitThroughLinkInsideRoot(t *testing.T) {
	content := testfile.Read(t, "../testdata/src/python/process.py")
	tests := []struct {
		name  string
		links [][2]string // {link, target} relative to the root, target "@" + name for absolute
		path  string      // the path read and committed, relative to the root
		real  string      // the file that must receive the content
	}{
		{"same folder", [][2]string{{"link.py", "real.py"}}, "link.py", "real.py"},
		{"into a subfolder", [][2]string{{"link.py", "pkg/real.py"}}, "link.py", "pkg/real.py"},
		{"from a subfolder up", [][2]string{{"pkg/link.py", "../real.py"}}, "pkg/link.py", "real.py"},
		{"chain of two links", [][2]string{{"l1.py", "l2.py"}, {"l2.py", "pkg/real.py"}}, "l1.py", "pkg/real.py"},
		{"through a symlinked folder", [][2]string{{"alias", "pkg"}}, "alias/real.py", "pkg/real.py"},
		{"absolute target inside the root", [][2]string{{"abs.py", "@pkg/real.py"}}, "abs.py", "pkg/real.py"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			real := filepath.Join(root, tt.real)
			diskWrite(t, real, content, 0o640)
			for _, l := range tt.links {
				target := l[1]
				if rest, ok := strings.CutPrefix(target, "@"); ok {
					target = filepath.Join(root, rest)
				}
				diskSymlink(t, target, filepath.Join(root, l[0]))
			}
			f := diskOpen(t, files.Options{Root: root})
			path := filepath.Join(root, tt.path)
			doc, err := f.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			if doc.Mode != 0o640 {
				t.Errorf("Mode = %v, want the target's 0640", doc.Mode)
			}
			next := append([]byte("# edited through a link\n"), content...)
			if err := commitIn(f, doc, next); err != nil {
				t.Fatalf("Commit: %v", err)
			}
			assertFile(t, real, next, 0o640)
			for _, l := range tt.links {
				target := l[1]
				if rest, ok := strings.CutPrefix(target, "@"); ok {
					target = filepath.Join(root, rest)
				}
				diskLink(t, filepath.Join(root, l[0]), target)
			}
			diskNoTemps(t, root)
		})
	}
}

// TestFilesSymlinkedRoot gives the root through a symbolic link to it.
func TestFilesSymlinkedRoot(t *testing.T) {
	content := testfile.Read(t, "../testdata/src/java/Inventory.java")
	tests := []struct {
		name string
		cwd  string // relative to base; "" keeps the package directory
		path string // relative to base, or relative to cwd when cwd is set
	}{
		{"path through the link", "", "link/src/Inventory.java"},
		{"path through the real folder", "", "real/src/Inventory.java"},
		{"relative, working directory through the link", "link", "src/Inventory.java"},
		{"relative, working directory in the real folder", "real/src", "Inventory.java"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			realFile := filepath.Join(base, "real", "src", "Inventory.java")
			diskWrite(t, realFile, content, 0o644)
			diskSymlink(t, "real", filepath.Join(base, "link"))
			path := filepath.Join(base, tt.path)
			if tt.cwd != "" {
				t.Chdir(filepath.Join(base, tt.cwd))
				path = tt.path
			}
			f := diskOpen(t, files.Options{Root: filepath.Join(base, "link")})
			doc, err := f.Read(path)
			if err != nil {
				t.Fatalf("Read(%s): %v", path, err)
			}
			next := bytes.Replace(content, []byte("class Inventory"), []byte("class Stock"), 1)
			if err := commitIn(f, doc, next); err != nil {
				t.Fatalf("Commit: %v", err)
			}
			assertFile(t, realFile, next, 0o644)
			diskLink(t, filepath.Join(base, "link"), "real")
			// A new file beside it, created through the same root.
			newPath := filepath.Join(filepath.Dir(path), "gen", "New.java")
			nd, err := f.ReadOrNew(newPath)
			if err != nil {
				t.Fatalf("ReadOrNew(%s): %v", newPath, err)
			}
			if err := commitIn(f, nd, []byte("class New {}\n")); err != nil {
				t.Fatalf("Commit new: %v", err)
			}
			assertFile(t, filepath.Join(base, "real", "src", "gen", "New.java"), []byte("class New {}\n"), 0o644)
			// And the path outside is still refused.
			_, err = f.Read(filepath.Join(base, "link", "..", "real", "..", "x"))
			wantFileError(t, err, filepath.Join(base, "link", "..", "real", "..", "x"), files.ErrOutsideRoot)
			diskNoTemps(t, base)
		})
	}
}

// TestFilesRootCwdThroughSymlink names the root by its real path while the
// working directory is reached through a symbolic link to the root: a
// relative path inside the root is still inside.
func TestFilesRootCwdThroughSymlink(t *testing.T) {
	base := t.TempDir()
	content := []byte("x = 1\n")
	diskWrite(t, filepath.Join(base, "real", "a.py"), content, 0o644)
	diskSymlink(t, "real", filepath.Join(base, "link"))
	t.Chdir(filepath.Join(base, "link")) // sets PWD: os.Getwd returns the link's path
	f := diskOpen(t, files.Options{Root: filepath.Join(base, "real")})
	doc, err := f.Read("a.py")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(doc.Content, content) {
		t.Errorf("Content = %q, want %q", doc.Content, content)
	}
	testfile.Same(t, filepath.Join(base, "real", "a.py"), content)
}

func TestFilesHardLinks(t *testing.T) {
	content := testfile.Read(t, "../testdata/src/go/atomic_type.go")
	setup := func(t *testing.T) (dir, a, b string) {
		dir = t.TempDir()
		a, b = filepath.Join(dir, "a.go"), filepath.Join(dir, "b.go")
		diskWrite(t, a, content, 0o644)
		if err := os.Link(a, b); err != nil {
			t.Fatal(err)
		}
		return dir, a, b
	}
	t.Run("refused", func(t *testing.T) {
		dir, a, b := setup(t)
		reads := []struct {
			name string
			read func(path string) (*edit.Document, error)
		}{
			{"files.Read", files.Read},
			{"Files.Read unconfined", diskOpen(t, files.Options{}).Read},
			{"Files.Read with a root", diskOpen(t, files.Options{Root: dir}).Read},
			{"Files.ReadOrNew with a root", diskOpen(t, files.Options{Root: dir}).ReadOrNew},
		}
		for _, r := range reads {
			for _, path := range []string{a, b} {
				doc, err := r.read(path)
				if doc != nil {
					t.Errorf("%s(%s) returned a document", r.name, path)
				}
				fe := wantFileError(t, err, path, files.ErrHardLink)
				if !strings.Contains(fe.Reason, "2 hard links") || !slices.Equal(fe.Remedy(), remedy.Set(remedy.AllowHardlinks, "true")) {
					t.Errorf("%s: Reason %q, remedy %v, want the link count and allow_hardlinks", r.name, fe.Reason, fe.Remedy())
				}
			}
		}
		testfile.Same(t, a, content)
		if n := diskNlink(t, a); n != 2 {
			t.Errorf("a.go has %d links, want 2", n)
		}
	})
	for _, root := range []bool{false, true} {
		t.Run(fmt.Sprintf("allowed root=%v", root), func(t *testing.T) {
			dir, a, b := setup(t)
			opt := files.Options{AllowHardlinks: true}
			if root {
				opt.Root = dir
			}
			f := diskOpen(t, opt)
			doc, err := f.Read(a)
			if err != nil {
				t.Fatal(err)
			}
			next := bytes.Replace(content, []byte("package atomic"), []byte("package atomic2"), 1)
			if err := commitIn(f, doc, next); err != nil {
				t.Fatal(err)
			}
			// The commit replaced the name a.go only: b.go keeps the old
			// content, and the two names are now two files.
			assertFile(t, a, next, 0o644)
			assertFile(t, b, content, 0o644)
			if na, nb := diskNlink(t, a), diskNlink(t, b); na != 1 || nb != 1 {
				t.Errorf("links after the commit: a.go %d, b.go %d; want 1 and 1", na, nb)
			}
			diskNoTemps(t, dir)
		})
	}
}

func TestFilesReadOrNewCreates(t *testing.T) {
	emptySHA := hex.EncodeToString(func() []byte { s := sha256.Sum256(nil); return s[:] }())
	for _, root := range []bool{false, true} {
		t.Run(fmt.Sprintf("root=%v", root), func(t *testing.T) {
			dir := t.TempDir()
			opt := files.Options{}
			if root {
				opt.Root = dir
			}
			f := diskOpen(t, opt)
			path := filepath.Join(dir, "a", "b", "c", "new.py")
			doc, err := f.ReadOrNew(path)
			if err != nil {
				t.Fatal(err)
			}
			if doc.Path != path || len(doc.Content) != 0 || doc.LineCount() != 0 || doc.EOL != edit.LF {
				t.Errorf("new document: Path %q, %d bytes, %d lines, EOL %q; want %q, 0, 0, LF",
					doc.Path, len(doc.Content), doc.LineCount(), doc.EOL, path)
			}
			if doc.SHA256() != emptySHA {
				t.Errorf("SHA256() = %s, want the empty content's %s", doc.SHA256(), emptySHA)
			}
			if _, err := os.Lstat(filepath.Join(dir, "a")); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("ReadOrNew created something: %v", err)
			}
			content := []byte("def main():\n    pass\n")
			if err := commitIn(f, doc, content); err != nil {
				t.Fatalf("Commit: %v", err)
			}
			assertFile(t, path, content, 0o644)
			for _, d := range []string{"a", "a/b", "a/b/c"} {
				fi, err := os.Lstat(filepath.Join(dir, d))
				if err != nil || !fi.IsDir() {
					t.Errorf("%s: %v, %v; want a folder", d, fi, err)
				}
			}
			if n := diskNlink(t, path); n != 1 {
				t.Errorf("new file has %d links, want 1 (the temporary name removed)", n)
			}
			diskNoTemps(t, dir)
			// The file exists now: ReadOrNew reads it, and the next commit
			// replaces it.
			again, err := f.ReadOrNew(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again.Content, content) || again.Mode != 0o644 {
				t.Errorf("ReadOrNew of the new file: %q, %v", again.Content, again.Mode)
			}
			if err := commitIn(f, again, []byte("x = 2\n")); err != nil {
				t.Fatal(err)
			}
			assertFile(t, path, []byte("x = 2\n"), 0o644)
			diskNoTemps(t, dir)
		})
	}
}

// TestFilesReadOrNewRefusesAppeared makes something appear at the path
// between ReadOrNew and Commit: the commit is refused and what appeared is
// left as it is.
func TestFilesReadOrNewRefusesAppeared(t *testing.T) {
	tests := []struct {
		name   string
		appear func(t *testing.T, path string)
		check  func(t *testing.T, path string)
	}{
		{"regular file", func(t *testing.T, path string) {
			diskWrite(t, path, []byte("theirs\n"), 0o600)
		}, func(t *testing.T, path string) {
			assertFile(t, path, []byte("theirs\n"), 0o600)
		}},
		{"empty file", func(t *testing.T, path string) {
			diskWrite(t, path, nil, 0o644)
		}, func(t *testing.T, path string) {
			assertFile(t, path, nil, 0o644)
		}},
		{"directory", func(t *testing.T, path string) {
			if err := os.MkdirAll(path, 0o755); err != nil {
				t.Fatal(err)
			}
		}, func(t *testing.T, path string) {
			if fi, err := os.Lstat(path); err != nil || !fi.IsDir() {
				t.Errorf("the directory was replaced: %v %v", fi, err)
			}
		}},
		{"dangling symlink", func(t *testing.T, path string) {
			diskSymlink(t, "elsewhere.py", path)
		}, func(t *testing.T, path string) {
			diskLink(t, path, "elsewhere.py")
			if _, err := os.Lstat(filepath.Join(filepath.Dir(path), "elsewhere.py")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the link's target was created: %v", err)
			}
		}},
	}
	for _, tt := range tests {
		for _, root := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s root=%v", tt.name, root), func(t *testing.T) {
				dir := t.TempDir()
				opt := files.Options{}
				if root {
					opt.Root = dir
				}
				f := diskOpen(t, opt)
				path := filepath.Join(dir, "pkg", "new.py")
				doc, err := f.ReadOrNew(path)
				if err != nil {
					t.Fatal(err)
				}
				tt.appear(t, path)
				err = commitIn(f, doc, []byte("ours\n"))
				fe := wantFileError(t, err, path, edit.ErrChanged)
				if !strings.Contains(fe.Reason, "nothing was written") {
					t.Errorf("Reason %q does not say nothing was written", fe.Reason)
				}
				tt.check(t, path)
				diskNoTemps(t, dir)
			})
		}
	}
}

// TestFilesReadOrNewDanglingLink: a dangling symbolic link inside the root
// is refused by ReadOrNew with ErrNotRegular and a message that says why:
// symedit does not create files through links. Neither the link nor its
// missing target are touched.
func TestFilesReadOrNewDanglingLink(t *testing.T) {
	root := t.TempDir()
	link := filepath.Join(root, "gen.py")
	diskSymlink(t, "build/gen.py", link)
	f := diskOpen(t, files.Options{Root: root})
	_, err := f.ReadOrNew(link)
	fe := wantFileError(t, err, link, edit.ErrNotRegular)
	if !strings.Contains(fe.Reason, "symbolic link to a file that does not exist") {
		t.Errorf("Reason %q does not say the link dangles", fe.Reason)
	}
	diskLink(t, link, "build/gen.py")
	if _, err := os.Lstat(filepath.Join(root, "build")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the link's target folder was created: %v", err)
	}
	diskNoTemps(t, root)
}

func TestSHA256(t *testing.T) {
	tests := []struct {
		content string
		want    string
	}{
		{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"hello\n", "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"},
		// The BOM is part of the content that is hashed.
		{"\xEF\xBB\xBFhello\n", hex.EncodeToString(func() []byte { s := sha256.Sum256([]byte("\xEF\xBB\xBFhello\n")); return s[:] }())},
	}
	for _, tt := range tests {
		doc, err := edit.NewDocument("f.txt", []byte(tt.content))
		if err != nil {
			t.Fatal(err)
		}
		if got := doc.SHA256(); got != tt.want {
			t.Errorf("SHA256(%q) = %s, want %s", tt.content, got, tt.want)
		}
	}
}

func TestCheckSHA256(t *testing.T) {
	content := testfile.Read(t, "../testdata/src/typescript/widget.tsx")
	sum := sha256.Sum256(content)
	right := hex.EncodeToString(sum[:])
	wrong := []byte(right)
	wrong[10] ^= 1 // one hex digit off
	tests := []struct {
		name string
		want string
		ok   bool
	}{
		{"lower case", right, true},
		{"upper case", strings.ToUpper(right), true},
		{"mixed case", strings.ToUpper(right[:32]) + right[32:], true},
		{"one digit off", string(wrong), false},
		{"one digit off, upper case", strings.ToUpper(string(wrong)), false},
		{"empty", "", false},
		{"truncated", right[:63], false},
		{"with a newline", right + "\n", false},
		{"another file's", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "widget.tsx")
			diskWrite(t, path, content, 0o644)
			f := diskOpen(t, files.Options{Root: dir})
			doc, err := f.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			if doc.SHA256() != right {
				t.Fatalf("SHA256() = %s, want %s", doc.SHA256(), right)
			}
			err = doc.CheckSHA256(tt.want)
			if tt.ok {
				if err != nil {
					t.Fatalf("CheckSHA256(%q) = %v, want nil", tt.want, err)
				}
				return
			}
			fe := wantFileError(t, err, path, edit.ErrChanged)
			for _, s := range []string{right, strings.ToLower(tt.want), "nothing was written"} {
				if !strings.Contains(fe.Reason, s) {
					t.Errorf("Reason %q lacks %q", fe.Reason, s)
				}
			}
			// The caller stops at the refusal: the file is byte-identical.
			testfile.Same(t, path, content)
			diskNoTemps(t, dir)
		})
	}
}

func TestFilesCommitKeepsMode(t *testing.T) {
	content := testfile.Read(t, "../testdata/src/typescript/scheduler.ts")
	for _, mode := range []fs.FileMode{0o644, 0o600, 0o640, 0o755, 0o444, 0o711, 0o400} {
		t.Run(mode.String(), func(t *testing.T) {
			root := t.TempDir()
			path := filepath.Join(root, "src", "scheduler.ts")
			diskWrite(t, path, content, mode)
			uid, gid := os.Getuid(), os.Getgid()
			if os.Geteuid() == 0 {
				// As root Commit gives the new file the original's owner.
				uid, gid = 65534, 65534
				if err := os.Chown(path, uid, gid); err != nil {
					t.Fatal(err)
				}
			}
			// A read-only file needs AllowReadOnly, except as root.
			f := diskOpen(t, files.Options{Root: root, AllowReadOnly: mode&0o200 == 0})
			doc, err := f.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			if doc.Mode != mode {
				t.Errorf("Document.Mode = %v, want %v", doc.Mode, mode)
			}
			e, err := doc.ReplaceLines(1, 1, []string{"// edited through a root"})
			if err != nil {
				t.Fatal(err)
			}
			next, err := edit.Apply(doc.Content, []edit.Edit{e})
			if err != nil {
				t.Fatal(err)
			}
			if err := commitIn(f, doc, next); err != nil {
				t.Fatalf("Commit: %v", err)
			}
			assertFile(t, path, next, mode)
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if st := fi.Sys().(*syscall.Stat_t); int(st.Uid) != uid || int(st.Gid) != gid {
				t.Errorf("owner %d:%d, want %d:%d", st.Uid, st.Gid, uid, gid)
			}
			diskNoTemps(t, root)
		})
	}
}

// TestFilesConcurrent uses one rooted Files from several goroutines, each
// creating and then editing its own file (go test -race checks the claim
// that a Files is safe for concurrent use).
func TestFilesConcurrent(t *testing.T) {
	root := t.TempDir()
	f := diskOpen(t, files.Options{Root: root})
	errs := make([]error, 8)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			path := filepath.Join(root, fmt.Sprintf("pkg%d", i%3), fmt.Sprintf("f%d.txt", i))
			doc, err := f.ReadOrNew(path)
			if err == nil {
				err = commitIn(f, doc, []byte(fmt.Sprintf("first %d\n", i)))
			}
			if err == nil {
				doc, err = f.Read(path)
			}
			if err == nil {
				err = commitIn(f, doc, append(doc.Content, fmt.Sprintf("second %d\n", i)...))
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("goroutine %d: %v", i, err)
			continue
		}
		path := filepath.Join(root, fmt.Sprintf("pkg%d", i%3), fmt.Sprintf("f%d.txt", i))
		assertFile(t, path, []byte(fmt.Sprintf("first %d\nsecond %d\n", i, i)), 0o644)
	}
	diskNoTemps(t, root)
}

func TestFilesRootRefusesNonRegular(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	diskSymlink(t, "dir", filepath.Join(root, "dir-link"))
	diskSymlink(t, "fifo", filepath.Join(root, "fifo-link"))
	tests := []struct {
		path, kind string
		mode       fs.FileMode // of the file itself (Lstat), afterwards
	}{
		{"fifo", "named pipe", fs.ModeNamedPipe},
		{"dir", "directory", fs.ModeDir},
		{"dir-link", "directory", fs.ModeSymlink},
		{"fifo-link", "named pipe", fs.ModeSymlink},
		{".", "directory", fs.ModeDir},
	}
	f := diskOpen(t, files.Options{Root: root})
	for _, tt := range tests {
		path := filepath.Join(root, tt.path)
		for _, op := range []struct {
			name string
			read func(string) (*edit.Document, error)
		}{{"Read", f.Read}, {"ReadOrNew", f.ReadOrNew}} {
			// A FIFO opened for reading would block: returning at all
			// shows it was refused before it was opened.
			_, err := op.read(path)
			fe := wantFileError(t, err, path, edit.ErrNotRegular)
			if !strings.Contains(fe.Reason, tt.kind) {
				t.Errorf("%s(%s): Reason %q does not say %q", op.name, tt.path, fe.Reason, tt.kind)
			}
		}
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode().Type() != tt.mode.Type() {
			t.Errorf("%s changed: %v %v", tt.path, fi, err)
		}
	}
	diskNoTemps(t, root)
}

// TestFilesRootReplacedByNonRegular replaces the file by a FIFO and by a
// directory between Read and Commit, through a root.
func TestFilesRootReplacedByNonRegular(t *testing.T) {
	for _, kind := range []string{"fifo", "directory"} {
		t.Run(kind, func(t *testing.T) {
			root := t.TempDir()
			path := filepath.Join(root, "f.txt")
			diskWrite(t, path, []byte("a\n"), 0o644)
			f := diskOpen(t, files.Options{Root: root})
			doc, err := f.Read(path)
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
			err = commitIn(f, doc, []byte("b\n"))
			wantFileError(t, err, path, edit.ErrNotRegular)
			fi, err := os.Lstat(path)
			if err != nil || fi.Mode().IsRegular() {
				t.Errorf("the %s was replaced (%v, %v)", kind, fi, err)
			}
			diskNoTemps(t, root)
		})
	}
}

// execHelper returns the command that runs TestHelperFilesCommit in the
// test binary exe, in dir, with env added to the environment.
func execHelper(exe, dir string, env ...string) *exec.Cmd {
	cmd := exec.Command(exe, "-test.run=^TestHelperFilesCommit$", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

// filesHelperEnv makes TestHelperFilesCommit act as a helper process.
const filesHelperEnv = "SYMEDIT_FILES_HELPER"

// TestHelperFilesCommit is not a test: unless the environment asks it to
// act as a helper process, it does nothing. It opens the root named by
// SYMEDIT_FILES_HELPER_ROOT, reads SYMEDIT_FILES_HELPER_PATH through it,
// tries to commit new content and prints "files-helper: key=value ...".
func TestHelperFilesCommit(t *testing.T) {
	if os.Getenv(filesHelperEnv) == "" {
		return
	}
	f, err := files.Open(files.Options{Root: os.Getenv(filesHelperEnv + "_ROOT")})
	if err != nil {
		fmt.Printf("files-helper: open-error=%q\n", err)
		return
	}
	defer f.Close()
	doc, err := f.Read(os.Getenv(filesHelperEnv + "_PATH"))
	if err != nil {
		fmt.Printf("files-helper: read-error=%q\n", err)
		return
	}
	err = commitIn(f, doc, []byte("class Replaced {}\n"))
	var fe *edit.FileError
	fmt.Printf("files-helper: fileerror=%v eperm=%v message=%q\n",
		errors.As(err, &fe), errors.Is(err, fs.ErrPermission), fmt.Sprint(err))
}

// TestFilesRootCommitPermissionDenied commits through a root into a
// folder the process may not write. Root ignores permissions, so as root
// the commit runs in a child process as nobody (uid 65534).
func TestFilesRootCommitPermissionDenied(t *testing.T) {
	orig := testfile.Read(t, "../testdata/src/java/Inventory.java")
	check := func(t *testing.T, res string) {
		t.Helper()
		for _, want := range []string{"fileerror=true", "eperm=true", "permission denied", "the file was not changed"} {
			if !strings.Contains(res, want) {
				t.Errorf("result %q lacks %q", res, want)
			}
		}
	}
	if os.Geteuid() != 0 {
		root := t.TempDir()
		dir := filepath.Join(root, "src")
		path := filepath.Join(dir, "Inventory.java")
		diskWrite(t, path, orig, 0o644)
		f := diskOpen(t, files.Options{Root: root})
		doc, err := f.Read(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
		err = commitIn(f, doc, []byte("class Replaced {}\n"))
		var fe *edit.FileError
		check(t, fmt.Sprintf("fileerror=%v eperm=%v message=%q", errors.As(err, &fe), errors.Is(err, fs.ErrPermission), fmt.Sprint(err)))
		assertFile(t, path, orig, 0o644)
		diskNoTemps(t, root)
		return
	}
	// As root: a folder under /tmp that nobody can traverse but not
	// write, holding a copy of the test binary and the file.
	root, helper := helperDir(t, "symedit-files-perm-*")
	path := filepath.Join(root, "src", "Inventory.java")
	diskWrite(t, path, orig, 0o644)
	cmdOut := func() string {
		t.Helper()
		cmd := execHelper(helper, root,
			filesHelperEnv+"=1", filesHelperEnv+"_ROOT="+root, filesHelperEnv+"_PATH="+path)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("helper process: %v\n%s", err, out)
		}
		for _, line := range strings.Split(string(out), "\n") {
			if r, ok := strings.CutPrefix(line, "files-helper: "); ok {
				return r
			}
		}
		t.Fatalf("helper printed no result:\n%s", out)
		return ""
	}
	res := cmdOut()
	t.Logf("helper: %s", res)
	check(t, res)
	assertFile(t, path, orig, 0o644)
	diskNoTemps(t, root)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != 0 {
		t.Errorf("file owner changed to %d", st.Uid)
	}
}

// linkTree is a folder of files and symbolic links for the tests of how
// paths resolve (as the kernel does). Every file holds its own distinct
// content, so a test can tell exactly which file an edit changed.
type linkTree struct {
	base  string            // the temporary folder; the root is base/r
	files map[string][]byte // path below base -> content
	links map[string]string // path below base -> link target
}

// newLinkTree makes, below a temporary folder base:
//
//	r/a/x.py           the file the links below lead to (CPython's contextlib excerpt)
//	r/x.py, r/a/b/x.py, r/p/x.py, x.py, outside/x.py   other files named x.py
//	r/sub       -> a/b              a folder link
//	r/a/b/lnk.py -> ../x.py         relative, from the folder it lives in: r/a/x.py
//	r/hop.py    -> sub/../x.py      ".." after a folder link: r/a/x.py
//	r/top.py    -> sub/lnk.py       a chain: r/a/x.py
//	r/c/deep.py -> ../sub/../x.py   from a subfolder: r/a/x.py
//	r/abs.py    -> BASE/r/sub/lnk.py   absolute: r/a/x.py
//	r/p/q       -> ..               r/p/q is r itself
//	r/up.py     -> ../x.py          from r: BASE/x.py, outside the root
//	r/out       -> ../outside       a folder outside the root
//	r/esc.py    -> ../outside/x.py  outside the root
func newLinkTree(t *testing.T) *linkTree {
	t.Helper()
	lt := &linkTree{base: t.TempDir(), files: map[string][]byte{}, links: map[string]string{}}
	lt.files["r/a/x.py"] = testfile.Read(t, "../testdata/src/python/contextlib_excerpt.py")
	for _, p := range []string{"r/x.py", "r/a/b/x.py", "r/p/x.py", "x.py", "outside/x.py"} {
		lt.files[p] = []byte(fmt.Sprintf("WHERE = %q\n", p))
	}
	for p, c := range lt.files {
		diskWrite(t, filepath.Join(lt.base, p), c, 0o644)
	}
	for link, target := range map[string]string{
		"r/sub":        "a/b",
		"r/a/b/lnk.py": "../x.py",
		"r/hop.py":     "sub/../x.py",
		"r/top.py":     "sub/lnk.py",
		"r/c/deep.py":  "../sub/../x.py",
		"r/abs.py":     filepath.Join(lt.base, "r", "sub", "lnk.py"),
		"r/p/q":        "..",
		"r/up.py":      "../x.py",
		"r/out":        "../outside",
		"r/esc.py":     "../outside/x.py",
	} {
		lt.links[link] = target
		diskSymlink(t, target, filepath.Join(lt.base, link))
	}
	return lt
}

// check fails unless the file changed (below base; "" for none) holds
// want and every other file and link of the tree is as it was made.
func (lt *linkTree) check(t *testing.T, changed string, want []byte) {
	t.Helper()
	for p, c := range lt.files {
		if p == changed {
			testfile.Same(t, filepath.Join(lt.base, p), want)
		} else {
			testfile.Same(t, filepath.Join(lt.base, p), c)
		}
	}
	for link, target := range lt.links {
		diskLink(t, filepath.Join(lt.base, link), target)
	}
	diskNoTemps(t, lt.base)
}

// TestFilesLinkResolvedFromItsFolder edits through symbolic links and
// "..": each path must name the file the kernel opens for it (what cat
// shows), with and without a root.
func TestFilesLinkResolvedFromItsFolder(t *testing.T) {
	tests := []struct {
		path string // below base/r
		file string // below base: the file the kernel opens for base/r/path
	}{
		{"sub/lnk.py", "r/a/x.py"},
		{"sub/../x.py", "r/a/x.py"},
		{"sub/./../x.py", "r/a/x.py"},
		{"sub/../b/../x.py", "r/a/x.py"},
		{"sub/../../x.py", "r/x.py"},
		{"a/b/lnk.py", "r/a/x.py"},
		{"hop.py", "r/a/x.py"},
		{"top.py", "r/a/x.py"},
		{"c/deep.py", "r/a/x.py"},
		{"abs.py", "r/a/x.py"},
		{"p/q/p/x.py", "r/p/x.py"},
		{"p/q/a/b/lnk.py", "r/a/x.py"},
	}
	for _, root := range []bool{true, false} {
		for _, tt := range tests {
			for _, rel := range []bool{false, true} {
				name := fmt.Sprintf("root=%v/%s/relative=%v", root, tt.path, rel)
				t.Run(name, func(t *testing.T) {
					lt := newLinkTree(t)
					r := filepath.Join(lt.base, "r")
					opt := files.Options{}
					if root {
						opt.Root = r
					}
					path := r + "/" + tt.path
					if rel {
						t.Chdir(r)
						path = tt.path
					}
					f := diskOpen(t, opt)
					doc, err := f.Read(path)
					if err != nil {
						t.Fatalf("Read(%s): %v", path, err)
					}
					if !bytes.Equal(doc.Content, lt.files[tt.file]) {
						t.Fatalf("Read(%s) gave the content of another file than %s: %q", path, tt.file, abbrev(doc.Content))
					}
					next := append([]byte("# edited through "+tt.path+"\n"), doc.Content...)
					if err := commitIn(f, doc, next); err != nil {
						t.Fatalf("Commit(%s): %v", path, err)
					}
					lt.check(t, tt.file, next)
				})
			}
		}
	}
}

// TestFilesLinkOutOfRootRefused: a path that the kernel resolves out of
// the root, through a link or a ".." after a link, is refused with
// ErrOutsideRoot and nothing is written, whatever its text looks like;
// unconfined, the same path edits the file the kernel opens.
func TestFilesLinkOutOfRootRefused(t *testing.T) {
	tests := []struct {
		path string // below base/r
		file string // below base: the file the kernel opens
	}{
		// The text says r/p/x.py; r/p/q is r, so ".." is BASE.
		{"p/q/../x.py", "x.py"},
		// up.py lives in r, not in r/p/q: its ../x.py is BASE/x.py.
		{"p/q/up.py", "x.py"},
		{"esc.py", "outside/x.py"},
		{"out/x.py", "outside/x.py"},
		{"../x.py", "x.py"},
		{"sub/../../../x.py", "x.py"},
		// Out of the root and back in: refused all the same.
		{"out/../r/x.py", "r/x.py"},
		{"../r/x.py", "r/x.py"},
	}
	for _, tt := range tests {
		for _, rel := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/relative=%v", tt.path, rel), func(t *testing.T) {
				lt := newLinkTree(t)
				r := filepath.Join(lt.base, "r")
				path := r + "/" + tt.path
				if rel {
					t.Chdir(r)
					path = tt.path
				}
				f := diskOpen(t, files.Options{Root: r})
				for _, op := range []struct {
					name string
					read func(string) (*edit.Document, error)
				}{{"Read", f.Read}, {"ReadOrNew", f.ReadOrNew}} {
					doc, err := op.read(path)
					if doc != nil {
						t.Errorf("%s(%s) returned a document of %q", op.name, path, abbrev(doc.Content))
						if err := commitIn(f, doc, []byte("# wrong\n")); err != nil {
							t.Logf("Commit: %v", err)
						}
					}
					wantFileError(t, err, path, files.ErrOutsideRoot)
				}
				lt.check(t, "", nil)

				// Unconfined, the kernel's file is edited.
				doc, err := files.Read(path)
				if err != nil {
					t.Fatalf("unconfined Read(%s): %v", path, err)
				}
				if !bytes.Equal(doc.Content, lt.files[tt.file]) {
					t.Fatalf("unconfined Read(%s) gave another file than %s: %q", path, tt.file, abbrev(doc.Content))
				}
				next := []byte("# edited\n")
				if err := commitOne(doc, next); err != nil {
					t.Fatalf("unconfined Commit(%s): %v", path, err)
				}
				lt.check(t, tt.file, next)
			})
		}
	}
}

// TestFilesNewFileResolvedFromItsFolder creates files through a folder
// link followed by "..": the new file (and any new folder) goes where the
// kernel would put it, with and without a root.
func TestFilesNewFileResolvedFromItsFolder(t *testing.T) {
	tests := []struct {
		path    string // below base/r
		file    string // below base: where the file must appear
		notMade string // below base: what must not appear, or ""
	}{
		{"sub/new.py", "r/a/b/new.py", ""},
		{"sub/../new.py", "r/a/new.py", "r/new.py"},
		{"sub/../nd/new.py", "r/a/nd/new.py", "r/nd"},
		{"sub/../../nd/deeper/new.py", "r/nd/deeper/new.py", "nd"},
	}
	for _, root := range []bool{true, false} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("root=%v/%s", root, tt.path), func(t *testing.T) {
				lt := newLinkTree(t)
				r := filepath.Join(lt.base, "r")
				opt := files.Options{}
				if root {
					opt.Root = r
				}
				f := diskOpen(t, opt)
				path := r + "/" + tt.path
				doc, err := f.ReadOrNew(path)
				if err != nil {
					t.Fatalf("ReadOrNew(%s): %v", path, err)
				}
				if !doc.IsNew() {
					t.Fatalf("ReadOrNew(%s) read an existing file: %q", path, abbrev(doc.Content))
				}
				content := []byte("def created():\n    return 1\n")
				if err := commitIn(f, doc, content); err != nil {
					t.Fatalf("Commit(%s): %v", path, err)
				}
				testfile.Same(t, filepath.Join(lt.base, tt.file), content)
				if tt.notMade != "" {
					if _, err := os.Lstat(filepath.Join(lt.base, tt.notMade)); !errors.Is(err, fs.ErrNotExist) {
						t.Errorf("%s exists (%v): made by cleaning the path as text", tt.notMade, err)
					}
				}
				lt.check(t, "", nil)
			})
		}
	}
}

// TestFilesOpenRootDotDotAfterLink gives --root as "r/sub/..": the kernel
// reads it as r/a (r/sub is a link to a/b), not r as the text reads.
func TestFilesOpenRootDotDotAfterLink(t *testing.T) {
	lt := newLinkTree(t)
	r := filepath.Join(lt.base, "r")
	f := diskOpen(t, files.Options{Root: r + "/sub/.."})
	doc, err := f.Read(filepath.Join(r, "a", "x.py"))
	if err != nil {
		t.Fatalf("Read(r/a/x.py) in root r/sub/..: %v", err)
	}
	if !bytes.Equal(doc.Content, lt.files["r/a/x.py"]) {
		t.Errorf("Read(r/a/x.py) gave %q", abbrev(doc.Content))
	}
	for _, p := range []string{filepath.Join(r, "x.py"), filepath.Join(r, "sub", "..", "..", "x.py")} {
		_, err = f.ReadOrNew(p)
		wantFileError(t, err, p, files.ErrOutsideRoot)
	}
	lt.check(t, "", nil)
}

// TestFilesLinkLoop: a loop of symbolic links is an error, not a hang,
// with and without a root; nothing is written.
func TestFilesLinkLoop(t *testing.T) {
	for _, root := range []bool{true, false} {
		t.Run(fmt.Sprintf("root=%v", root), func(t *testing.T) {
			lt := newLinkTree(t)
			r := filepath.Join(lt.base, "r")
			diskSymlink(t, "../a/loop1.py", filepath.Join(r, "a", "loop2.py"))
			diskSymlink(t, "b/../loop2.py", filepath.Join(r, "a", "loop1.py"))
			lt.links["r/a/loop2.py"], lt.links["r/a/loop1.py"] = "../a/loop1.py", "b/../loop2.py"
			opt := files.Options{}
			if root {
				opt.Root = r
			}
			f := diskOpen(t, opt)
			for _, p := range []string{"a/loop1.py", "a/loop1.py/x.py"} {
				path := filepath.Join(r, p)
				doc, err := f.ReadOrNew(path)
				if err == nil {
					t.Fatalf("ReadOrNew(%s) = %v, want an error", path, doc)
				}
				var fe *edit.FileError
				if !errors.As(err, &fe) || fe.Path != path {
					t.Errorf("err = %v, want a *FileError for %s", err, path)
				}
				if root && !errors.Is(err, syscall.ELOOP) {
					t.Errorf("err = %v, want ELOOP", err)
				}
			}
			lt.check(t, "", nil)
		})
	}
}

// TestRealPathAndRoot: Files.Root and Document.RealPath resolve as the
// kernel does, the final link included, so a caller can name the file
// actually edited (in a diff's header):
// with r/sub -> a/b and r/a/b/lnk.py -> ../x.py, the root r/sub/.. is
// r/a, r/sub/lnk.py and r/sub/../x.py are r/a/x.py (what cat shows), and
// a missing r/sub/new.py is r/a/b/new.py. A Document from NewDocument has
// no real path.
func TestRealPathAndRoot(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r := filepath.Join(base, "r")
	src := testfile.Read(t, "../testdata/src/python/process.py")
	diskWrite(t, filepath.Join(r, "a", "x.py"), src, 0o644)
	diskWrite(t, filepath.Join(r, "x.py"), []byte("x = 'top'\n"), 0o644)
	if err := os.MkdirAll(filepath.Join(r, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a/b", filepath.Join(r, "sub")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../x.py", filepath.Join(r, "a", "b", "lnk.py")); err != nil {
		t.Fatal(err)
	}
	ax, anew := filepath.Join(r, "a", "x.py"), filepath.Join(r, "a", "b", "new.py")
	for _, root := range []string{"", r, r + "/sub/.."} {
		files, err := files.Open(files.Options{Root: root})
		if err != nil {
			t.Fatal(err)
		}
		defer files.Close()
		want := ""
		if root != "" {
			want = filepath.Join(r, "a")
			if root == r {
				want = r
			}
		}
		if got := files.Root(); got != want {
			t.Errorf("Open(Root %q).Root() = %q, want %q", root, got, want)
		}
		for path, want := range map[string]string{r + "/sub/lnk.py": ax, r + "/sub/../x.py": ax, r + "/sub/new.py": anew} {
			doc, err := files.ReadOrNew(path)
			if err != nil {
				t.Errorf("root %q: ReadOrNew(%s): %v", root, path, err)
				continue
			}
			if got := doc.RealPath(); got != want {
				t.Errorf("root %q: ReadOrNew(%s).RealPath() = %q, want %q", root, path, got, want)
			}
			if want == ax && !bytes.Equal(doc.Content, src) {
				t.Errorf("root %q: %s read another file than %s", root, path, ax)
			}
		}
	}
	doc, err := edit.NewDocument("x.py", []byte("x = 1\n"))
	if err != nil || doc.RealPath() != "" {
		t.Errorf("NewDocument: RealPath %q, %v; want \"\"", doc.RealPath(), err)
	}
}

// TestFilesDir checks that Options.Dir, not the working directory, is
// where relative paths start, confined or not, and that the root's
// confinement still applies to them.
func TestFilesDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{"", dir} {
		f, err := files.Open(files.Options{Root: root, Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		doc, err := f.Read("a.py")
		if err != nil {
			t.Fatalf("root %q: %v", root, err)
		}
		if string(doc.Content) != "x = 1\n" || doc.RealPath() != filepath.Join(dir, "a.py") {
			t.Errorf("root %q: read %q from %s", root, doc.Content, doc.RealPath())
		}
		if root != "" {
			if _, err := f.Read("../a.py"); !errors.Is(err, files.ErrOutsideRoot) {
				t.Errorf("../a.py from Dir at the root: %v, want ErrOutsideRoot", err)
			}
		}
		f.Close()
	}
}
