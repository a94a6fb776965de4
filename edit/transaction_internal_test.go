package edit

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// nthRenameFS fails the n-th Rename (1-based) and, if failLink, every
// link of a new file into place, on the real file system.
type nthRenameFS struct {
	osFS
	n, renames int
	failLink   bool
}

func (f *nthRenameFS) OpenDir(dir string) (commitDir, error) {
	d, err := f.osFS.OpenDir(dir)
	if err != nil {
		return nil, err
	}
	return &nthRenameDir{commitDir: d, fs: f}, nil
}

type nthRenameDir struct {
	commitDir
	fs *nthRenameFS
}

func (d *nthRenameDir) Rename(oldname, newname string) error {
	d.fs.renames++
	if d.fs.renames == d.fs.n {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: syscall.EIO}
	}
	return d.commitDir.Rename(oldname, newname)
}

func (d *nthRenameDir) LinkTemp(t tempFile, name string) error {
	if d.fs.failLink && !strings.Contains(name, ".symedit-") {
		return &os.LinkError{Op: "link", Old: t.Name(), New: name, Err: syscall.ENOSPC}
	}
	return d.commitDir.LinkTemp(t, name)
}

// TestCommitAllRestoresOnFailure fails the commit of the third file and
// checks that the two written before it are back as they were, that the
// third and fourth are untouched, and that a created file is removed.
func TestCommitAllRestoresOnFailure(t *testing.T) {
	dir := t.TempDir()
	orig := map[string]string{
		"a.py": "def a():\n    return 1\n",
		"b.go": "package b\r\n\r\nfunc B() {}\r\n",
		"c.ts": "export const c = 1;\n",
		"d.py": "d = 4",
	}
	var docs []*Document
	var contents [][]byte
	for _, name := range []string{"a.py", "new/created.py", "b.go", "c.ts", "d.py"} {
		p := filepath.Join(dir, name)
		var d *Document
		var err error
		if o, ok := orig[name]; ok {
			if err := os.WriteFile(p, []byte(o), 0o640); err != nil {
				t.Fatal(err)
			}
			d, err = Read(p)
		} else {
			d, err = (&Files{fsys: osFS{}}).ReadOrNew(p)
		}
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d)
		contents = append(contents, []byte("# rewritten "+name+"\n"))
	}
	fsys := &nthRenameFS{n: 3} // a.py and b.go are renamed into place; c.ts fails
	err := commitAll(fsys, Options{}, docs, contents)
	var te *TransactionError
	if !errors.As(err, &te) {
		t.Fatalf("commitAll = %v, want a *TransactionError", err)
	}
	if te.Failed != 3 || te.Path != docs[3].Path || len(te.RestoreErrs) != 0 {
		t.Fatalf("TransactionError = %+v", te)
	}
	want := []string{docs[2].Path, docs[1].Path, docs[0].Path}
	if strings.Join(te.Restored, ",") != strings.Join(want, ",") {
		t.Errorf("Restored = %v, want %v", te.Restored, want)
	}
	if !strings.Contains(te.Error(), "restored the 3 file(s) written before it") {
		t.Errorf("message %q does not say what was restored", te.Error())
	}
	for name, o := range orig {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(got, []byte(o)) {
			t.Errorf("%s = %q, %v; want the original %q", name, got, err, o)
		}
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil || fi.Mode().Perm() != 0o640 {
			t.Errorf("%s mode = %v, %v; want 0640", name, fi.Mode(), err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "new", "created.py")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("created file still there after the rollback: %v", err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, "*", ".*symedit-*"))
	top, _ := filepath.Glob(filepath.Join(dir, ".*symedit-*"))
	if len(leftovers)+len(top) > 0 {
		t.Errorf("temporary files left: %v %v", leftovers, top)
	}
}

// TestCommitAllSuccess commits every file.
func TestCommitAllSuccess(t *testing.T) {
	dir := t.TempDir()
	var docs []*Document
	var contents [][]byte
	for i, name := range []string{"x.py", "y.py"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := Read(p)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d)
		contents = append(contents, []byte{byte('a' + i), '\n'})
	}
	if err := commitAll(osFS{}, Options{}, docs, contents); err != nil {
		t.Fatal(err)
	}
	for i, d := range docs {
		if got, _ := os.ReadFile(d.Path); !bytes.Equal(got, contents[i]) {
			t.Errorf("%s = %q, want %q", d.Path, got, contents[i])
		}
	}
}

// TestCommitAllFirstFails restores nothing and changes nothing.
func TestCommitAllFirstFails(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "new.py")
	d, err := (&Files{fsys: osFS{}}).ReadOrNew(p)
	if err != nil {
		t.Fatal(err)
	}
	err = commitAll(&nthRenameFS{failLink: true}, Options{}, []*Document{d}, [][]byte{[]byte("x\n")})
	var te *TransactionError
	if !errors.As(err, &te) || te.Failed != 0 || len(te.Restored) != 0 || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("commitAll = %#v", err)
	}
	if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("file created despite the failure: %v", err)
	}
}
