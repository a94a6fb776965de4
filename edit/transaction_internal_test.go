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

// TestCommitChangesRestoresDeletedAndMoved moves a.py to new/b.py (create
// b.py, delete a.py) and deletes d.py, then fails the commit of c.ts: a.py
// and d.py are back with their content and mode, b.py is gone, and no
// temporary file is left. Then the same changes without the failure
// delete both and leave nothing aside.
func TestCommitChangesRestoresDeletedAndMoved(t *testing.T) {
	for _, fail := range []bool{true, false} {
		dir := t.TempDir()
		orig := map[string]string{"a.py": "def a():\n    return 1\n", "c.ts": "export const c = 1;\n", "d.py": "d = 4"}
		for name, o := range orig {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(o), 0o640); err != nil {
				t.Fatal(err)
			}
		}
		read := func(name string) *Document {
			d, err := (&Files{fsys: osFS{}}).ReadOrNew(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
		changes := []Change{
			{Doc: read("new/b.py"), Content: []byte(orig["a.py"])},
			{Doc: read("a.py"), Delete: true},
			{Doc: read("d.py"), Delete: true},
			{Doc: read("c.ts"), Content: []byte("export const c = 2;\n")},
		}
		fsys := &nthRenameFS{} // renames: a.py aside, d.py aside, c.ts into place
		if fail {
			fsys.n = 3
		}
		err := commitChanges(fsys, Options{}, changes)
		leftovers, _ := filepath.Glob(filepath.Join(dir, ".*symedit-*"))
		sub, _ := filepath.Glob(filepath.Join(dir, "new", ".*symedit-*"))
		if len(leftovers)+len(sub) > 0 {
			t.Errorf("fail=%v: temporary files left: %v %v", fail, leftovers, sub)
		}
		if !fail {
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"a.py", "d.py"} {
				if _, err := os.Lstat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s not deleted: %v", name, err)
				}
			}
			if got, _ := os.ReadFile(filepath.Join(dir, "new", "b.py")); string(got) != orig["a.py"] {
				t.Errorf("new/b.py = %q", got)
			}
			continue
		}
		var te *TransactionError
		if !errors.As(err, &te) || te.Failed != 3 || len(te.RestoreErrs) != 0 || len(te.Restored) != 3 {
			t.Fatalf("commitChanges = %#v, want a *TransactionError at 3 with 3 restored", err)
		}
		for name, o := range orig {
			p := filepath.Join(dir, name)
			got, err := os.ReadFile(p)
			if err != nil || string(got) != o {
				t.Errorf("%s = %q, %v; want the original %q", name, got, err, o)
			}
			if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o640 {
				t.Errorf("%s mode = %v, %v; want 0640", name, fi.Mode(), err)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "new", "b.py")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("moved-to file still there after the rollback: %v", err)
		}
	}
}

// TestCommitChangesDeleteRefusals: a missing file, a changed file and a
// symbolic link are not deleted.
func TestCommitChangesDeleteRefusals(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.py")
	if err := os.WriteFile(p, []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files := &Files{fsys: osFS{}}
	missing, _ := files.ReadOrNew(filepath.Join(dir, "gone.py"))
	changed, err := files.Read(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("x = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("x.py", filepath.Join(dir, "l.py")); err != nil {
		t.Fatal(err)
	}
	link, err := files.Read(filepath.Join(dir, "l.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		doc  *Document
		want error
	}{{missing, os.ErrNotExist}, {changed, ErrChanged}, {link, ErrNotRegular}} {
		err := files.CommitChanges([]Change{{Doc: c.doc, Delete: true}})
		if !errors.Is(err, c.want) {
			t.Errorf("delete %s = %v, want %v", c.doc.Path, err, c.want)
		}
	}
	if got, _ := os.ReadFile(p); string(got) != "x = 2\n" {
		t.Errorf("x.py = %q", got)
	}
	if _, err := os.Lstat(filepath.Join(dir, "l.py")); err != nil {
		t.Errorf("link gone: %v", err)
	}
}
