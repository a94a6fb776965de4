package files_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/files"
)

// TestFilesStat checks Files.Stat, the look without a read that the symbol
// index keys on (so that a hit reads no file): it names the final link's
// target by its absolute real path, unconfined and confined, and refuses
// what Read refuses before reading (outside the root, hard links, not a
// regular file) with the same errors.
func TestFilesStat(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(dir, "sub", "a.py")
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.py")
	if err := os.Symlink("sub/a.py", link); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{"", dir} {
		f, err := files.Open(files.Options{Root: root})
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		got, fi, err := f.Stat(link)
		if err != nil || got != real || fi.Size() != 6 || !fi.Mode().IsRegular() {
			t.Errorf("root %q: Stat = %q, %v, %v; want %q", root, got, fi, err, real)
		}
		if _, _, err := f.Stat(filepath.Join(dir, "sub")); !errors.Is(err, edit.ErrNotRegular) {
			t.Errorf("root %q: a folder: %v", root, err)
		}
	}
	f, err := files.Open(files.Options{Root: filepath.Join(dir, "sub")})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, _, err := f.Stat(link); !errors.Is(err, files.ErrOutsideRoot) {
		t.Errorf("outside the root: %v", err)
	}
	hard := filepath.Join(dir, "sub", "b.py")
	if err := os.Link(real, hard); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.Stat(hard); !errors.Is(err, files.ErrHardLink) {
		t.Errorf("hard link: %v", err)
	}
}

// TestDocumentInfo: a Document's Info is the read file's own information,
// unconfined and confined, through a final link too; a Document that was
// not read from a file has none.
func TestDocumentInfo(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.py")
	if err := os.WriteFile(p, []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.py", filepath.Join(dir, "link.py")); err != nil {
		t.Fatal(err)
	}
	want, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{"", dir} {
		f, err := files.Open(files.Options{Root: root, Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		for _, name := range []string{"a.py", "link.py"} {
			doc, err := f.Read(name)
			if err != nil {
				t.Fatal(err)
			}
			if fi := doc.Info(); fi == nil || !os.SameFile(fi, want) || fi.Size() != want.Size() || !fi.ModTime().Equal(want.ModTime()) {
				t.Errorf("root %q, %s: Info %v, want the file's", root, name, fi)
			}
		}
		if doc, err := f.ReadOrNew("new.py"); err != nil || doc.Info() != nil {
			t.Errorf("root %q: a new file's Info %v (%v)", root, doc.Info(), err)
		}
	}
	if doc, _ := edit.NewDocument("b.py", []byte("y = 2\n")); doc.Info() != nil {
		t.Errorf("NewDocument's Info %v", doc.Info())
	}
}

// TestDirStat checks that DirStat.Stat gives exactly what Files.Stat
// gives (the real path, the information, the same errors), unconfined and
// confined: a regular file, a final link, a file in a folder reached
// through a link, a missing file, a folder, a hard link, and a folder
// link that leaves the root.
func TestDirStat(t *testing.T) {
	dir := dirStatTree(t, map[string]string{"sub/a.py": "x = 1\n", "sub/b.py": "y = 2\n", "top.py": "z = 3\n"})
	paths := []string{"top.py", "sub/a.py", "link.py", "via/a.py", "sub/missing.py", "sub", "sub/hard.py", "away/o.py", "sub/../top.py"}
	for _, root := range []string{"", dir} {
		f, err := files.Open(files.Options{Root: root, Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		ds := f.NewDirStat()
		defer ds.Close()
		for _, p := range paths {
			wantReal, wantFi, wantErr := f.Stat(p)
			for range 2 { // the second time from the folder already open
				gotReal, gotFi, gotErr := ds.Stat(p)
				switch {
				case (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error():
					t.Errorf("root %q, %s: error %v, want %v", root, p, gotErr, wantErr)
				case gotErr == nil && (gotReal != wantReal || !os.SameFile(gotFi, wantFi) || gotFi.ModTime() != wantFi.ModTime()):
					t.Errorf("root %q, %s: %q, want %q", root, p, gotReal, wantReal)
				}
			}
		}
		if root != "" {
			if _, _, err := ds.Stat("away/o.py"); !errors.Is(err, files.ErrOutsideRoot) {
				t.Errorf("a folder link out of the root: %v", err)
			}
		}
	}
}

// dirStatTree makes the tree the DirStat tests look at and returns its
// real path: the files (slash paths to contents), the links link.py to
// sub/a.py and via to sub, away to a folder beside it (out of the tree)
// holding o.py, and sub/hard.py, a hard link of sub/b.py.
func dirStatTree(t *testing.T, tree map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	out, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write := func(base, name, content string) {
		p := filepath.Join(base, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range tree {
		write(dir, name, content)
	}
	write(out, "o.py", "o = 1\n")
	for _, l := range [][2]string{{"sub/a.py", "link.py"}, {"sub", "via"}, {out, "away"}} {
		if err := os.Symlink(l[0], filepath.Join(dir, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(filepath.Join(dir, "sub", "b.py"), filepath.Join(dir, "sub", "hard.py")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestDirStatDeepAndMany: a file 100 folders deep (each folder opened
// from its parent, more folders than a DirStat keeps open, so that it
// forgets folders while it is still opening their children) and the files
// of many sibling folders all give what Files.Stat gives.
func TestDirStatDeepAndMany(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	deep := ""
	for i := range 100 {
		deep += fmt.Sprintf("d%d/", i)
	}
	paths := []string{deep + "f.py"}
	for i := range 150 {
		paths = append(paths, fmt.Sprintf("wide/s%d/f.py", i))
	}
	for _, p := range paths {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("x = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, root := range []string{"", dir} {
		f, err := files.Open(files.Options{Root: root, Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		ds := f.NewDirStat()
		for round := range 2 {
			for _, p := range paths {
				want, wantFi, err := f.Stat(p)
				if err != nil {
					t.Fatal(err)
				}
				got, fi, err := ds.Stat(p)
				if err != nil || got != want || !os.SameFile(fi, wantFi) {
					t.Fatalf("root %q, round %d, %s: %q, %v; want %q", root, round, p, got, err, want)
				}
			}
		}
		ds.Close()
	}
}

// TestDirStatRead checks that DirStat.Read gives exactly what Files.Read
// gives (the text, the file's information, the names it was read by, the
// same errors), unconfined and confined, for the paths of TestDirStat and
// for files Read refuses by their content: a regular file, a final link,
// a file in a folder reached through a link, a missing file, a folder, a
// hard link, a folder link that leaves the root, a file with a NUL byte
// and one that is not UTF-8; and that a folder forgotten while a file of
// it is read (more folders than a DirStat keeps open) still reads.
func TestDirStatRead(t *testing.T) {
	tree := map[string]string{"sub/a.py": "x = 1\n", "sub/b.py": "y = 2\n", "top.py": "\ufeffz = 3\n",
		"sub/bin.py": "a = 1\x00\n", "sub/latin.py": "s = '\xe9'\n"}
	paths := []string{"top.py", "sub/a.py", "link.py", "via/a.py", "sub/missing.py", "sub", "sub/hard.py", "away/o.py",
		"sub/../top.py", "sub/bin.py", "sub/latin.py", "sub/", "./top.py"}
	for i := range 70 {
		name := fmt.Sprintf("many/s%d/f.py", i)
		tree[name] = fmt.Sprintf("f = %d\n", i)
		paths = append(paths, name)
	}
	dir := dirStatTree(t, tree)
	for _, root := range []string{"", dir} {
		f, err := files.Open(files.Options{Root: root, Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		for _, view := range []*files.Files{f, f.ForReading()} {
			ds := view.NewDirStat()
			defer ds.Close()
			read := 0
			for _, p := range append(paths, paths...) { // the second time from the folders already open
				want, wantErr := view.Read(p)
				got, gotErr := ds.Read(p)
				switch {
				case (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error():
					t.Errorf("root %q, %s: error %v, want %v", root, p, gotErr, wantErr)
				case gotErr != nil:
					for _, kind := range []error{edit.ErrNotRegular, files.ErrHardLink, files.ErrOutsideRoot, edit.ErrEncoding, edit.ErrBinary, fs.ErrNotExist} {
						if errors.Is(gotErr, kind) != errors.Is(wantErr, kind) {
							t.Errorf("root %q, %s: error %v: errors.Is(%v) %v, want %v", root, p, gotErr, kind, !errors.Is(wantErr, kind), errors.Is(wantErr, kind))
						}
					}
				case got.Path != want.Path || string(got.Content) != string(want.Content) || string(got.Text) != string(want.Text) ||
					got.BOM != want.BOM || got.Mode != want.Mode || got.Origin().Name != want.Origin().Name ||
					got.RealPath() != want.RealPath() || !os.SameFile(got.Info(), want.Info()) || got.Info().ModTime() != want.Info().ModTime():
					t.Errorf("root %q, %s: read %+v, want %+v", root, p, got.Origin(), want.Origin())
				default:
					read++
				}
			}
			if want := 2 * (70 + 4); read < want {
				t.Errorf("root %q: %d reads succeeded, want at least %d", root, read, want)
			}
		}
	}
}

// TestDirStatReadFolderAsResolved: DirStat.Read opens a file in its
// folder as the DirStat resolved that folder, once, as a walk lists a
// folder once: a folder renamed afterwards, and another put under its
// name, is still the one read (Files.Read reads the new one).
func TestDirStatReadFolderAsResolved(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "a.py"), []byte("old = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := files.Open(files.Options{Root: dir, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ds := f.NewDirStat()
	defer ds.Close()
	if doc, err := ds.Read("sub/a.py"); err != nil || string(doc.Text) != "old = 1\n" {
		t.Fatalf("first read: %v", err)
	}
	if err := os.Rename(filepath.Join(dir, "sub"), filepath.Join(dir, "moved")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "a.py"), []byte("new = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if doc, err := ds.Read("sub/a.py"); err != nil || string(doc.Text) != "old = 1\n" {
		t.Errorf("the folder as resolved: %q, %v", doc.Text, err)
	}
	if doc, err := f.Read("sub/a.py"); err != nil || string(doc.Text) != "new = 1\n" {
		t.Errorf("Files.Read: %q, %v", doc.Text, err)
	}
}
