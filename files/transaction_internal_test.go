package files

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/symedit/symedit/edit"
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

// changesOf returns the changes that commit contents[i] to docs[i].
func changesOf(docs []*edit.Document, contents [][]byte) []Change {
	changes := make([]Change, len(docs))
	for i, d := range docs {
		changes[i] = Change{Doc: d, Content: contents[i]}
	}
	return changes
}

// commitChanges commits changes on fsys with opt as one transaction, as
// Files.Commit does under AllOrNone.
func commitChanges(fsys fileSystem, opt Options, changes []Change) error {
	_, err := commit(context.Background(), fsys, opt, changes, AllOrNone, commitBatch)
	return err
}

// TestAllOrNoneRestoresOnFailure fails the commit of the third file and
// checks that the two written before it are back as they were, that the
// third and fourth are untouched, and that a created file is removed.
func TestAllOrNoneRestoresOnFailure(t *testing.T) {
	dir := t.TempDir()
	orig := map[string]string{
		"a.py": "def a():\n    return 1\n",
		"b.go": "package b\r\n\r\nfunc B() {}\r\n",
		"c.ts": "export const c = 1;\n",
		"d.py": "d = 4",
	}
	var docs []*edit.Document
	var contents [][]byte
	for _, name := range []string{"a.py", "new/created.py", "b.go", "c.ts", "d.py"} {
		p := filepath.Join(dir, name)
		var d *edit.Document
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
	err := commitChanges(fsys, Options{}, changesOf(docs, contents))
	var te *TransactionError
	if !errors.As(err, &te) {
		t.Fatalf("commit = %v, want a *TransactionError", err)
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

// TestAllOrNoneSuccess commits every file.
func TestAllOrNoneSuccess(t *testing.T) {
	dir := t.TempDir()
	var docs []*edit.Document
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
	if err := commitChanges(osFS{}, Options{}, changesOf(docs, contents)); err != nil {
		t.Fatal(err)
	}
	for i, d := range docs {
		if got, _ := os.ReadFile(d.Path); !bytes.Equal(got, contents[i]) {
			t.Errorf("%s = %q, want %q", d.Path, got, contents[i])
		}
	}
}

// TestAllOrNoneFirstFails restores nothing and changes nothing.
func TestAllOrNoneFirstFails(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "new.py")
	d, err := (&Files{fsys: osFS{}}).ReadOrNew(p)
	if err != nil {
		t.Fatal(err)
	}
	err = commitChanges(&nthRenameFS{failLink: true}, Options{}, []Change{{Doc: d, Content: []byte("x\n")}})
	var te *TransactionError
	if !errors.As(err, &te) || te.Failed != 0 || len(te.Restored) != 0 || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("commit = %#v", err)
	}
	if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("file created despite the failure: %v", err)
	}
}

// TestAllOrNoneRestoresDeletedAndMoved moves a.py to new/b.py (create
// b.py, delete a.py) and deletes d.py, then fails the commit of c.ts: a.py
// and d.py are back with their content and mode, b.py is gone, and no
// temporary file is left. Then the same changes without the failure
// delete both and leave nothing aside.
func TestAllOrNoneRestoresDeletedAndMoved(t *testing.T) {
	for _, fail := range []bool{true, false} {
		dir := t.TempDir()
		orig := map[string]string{"a.py": "def a():\n    return 1\n", "c.ts": "export const c = 1;\n", "d.py": "d = 4"}
		for name, o := range orig {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(o), 0o640); err != nil {
				t.Fatal(err)
			}
		}
		read := func(name string) *edit.Document {
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
		fsys := &nthRenameFS{} // renames: c.ts into place (a deletion renames nothing)
		if fail {
			fsys.n = 1
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
			t.Fatalf("commit = %#v, want a *TransactionError at 3 with 3 restored", err)
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

// TestAllOrNoneDeleteRefusals: a missing file, a changed file and a
// symbolic link are not deleted.
func TestAllOrNoneDeleteRefusals(t *testing.T) {
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
		doc  *edit.Document
		want error
	}{{missing, os.ErrNotExist}, {changed, edit.ErrChanged}, {link, edit.ErrNotRegular}} {
		_, err := files.Commit(context.Background(), []Change{{Doc: c.doc, Delete: true}}, AllOrNone)
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

// txnTree writes a tree of files under dir and returns the changes of a
// transaction over it, in three folders: four files written (a/x.py,
// a/y.go, b/z.ts, b/w.py), one created in a new folder (new/n.py, with
// execute permission, so that its temporary file is chmod'ed too) and
// one deleted (a/d.py). orig holds every file's content.
func txnTree(t *testing.T, dir string) (changes []Change, orig map[string]string) {
	t.Helper()
	orig = map[string]string{
		"a/x.py": "x = 1\n",
		"a/y.go": "package a\n",
		"b/z.ts": "export const z = 1;\n",
		"b/w.py": "w = 1\n",
		"a/d.py": "d = 1\n",
	}
	for name, content := range orig {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o640); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, 0o640); err != nil {
			t.Fatal(err)
		}
	}
	files := &Files{fsys: osFS{}}
	read := func(name string) *edit.Document {
		d, err := files.ReadOrNew(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	changes = []Change{
		{Doc: read("a/x.py"), Content: []byte("x = 2\n")},
		{Doc: read("b/z.ts"), Content: []byte("export const z = 2;\n")},
		{Doc: read("new/n.py"), Content: []byte("n = 1\n"), Exec: ExecSet},
		{Doc: read("a/d.py"), Delete: true},
		{Doc: read("a/y.go"), Content: []byte("package b\n")},
		{Doc: read("b/w.py"), Content: []byte("w = 2\n")},
	}
	return changes, orig
}

// tempsLeft lists the temporary files (".NAME.symedit-...") below dir.
func tempsLeft(t *testing.T, dir string) []string {
	t.Helper()
	var left []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".symedit-") {
			left = append(left, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return left
}

// TestAllOrNonePrepareFailure fails a step of the k-th file's
// temporary file (created, written, chmod'ed, synced) for each file k:
// the failure comes while the transaction prepares its files, so no lock
// was taken and nothing renamed, every file is byte-identical (the same
// inode, its mode), the created file does not exist, the deleted one is
// there, nothing was restored, and no temporary file remains, named or
// not.
func TestAllOrNonePrepareFailure(t *testing.T) {
	for _, named := range []bool{false, true} {
		for _, step := range []string{"CreateTemp", "Write", "Chmod", "Sync"} {
			for k := range 6 {
				if k == 3 {
					continue // the deletion has no temporary file
				}
				t.Run(fmt.Sprintf("named=%v/%s/%d", named, step, k), func(t *testing.T) {
					dir := t.TempDir()
					changes, orig := txnTree(t, dir)
					before := map[string]fs.FileInfo{}
					for name := range orig {
						fi, err := os.Lstat(filepath.Join(dir, name))
						if err != nil {
							t.Fatal(err)
						}
						before[name] = fi
					}
					fsys := newFaultFS(step, syscall.ENOSPC)
					fsys.noTmpfile = named
					fsys.failOnly = filepath.Base(changes[k].Doc.Path)
					err := commitChanges(fsys, Options{}, changes)
					var te *TransactionError
					if !errors.As(err, &te) || te.Failed != k || te.Path != changes[k].Doc.Path || !errors.Is(err, syscall.ENOSPC) {
						t.Fatalf("commit = %v, want a *TransactionError at %d wrapping ENOSPC", err, k)
					}
					if len(te.Restored) != 0 || len(te.RestoreErrs) != 0 {
						t.Errorf("restored %v (errors %v), want nothing: nothing was written", te.Restored, te.RestoreErrs)
					}
					for name, o := range orig {
						p := filepath.Join(dir, name)
						got, err := os.ReadFile(p)
						if err != nil || string(got) != o {
							t.Errorf("%s = %q, %v; want %q", name, got, err, o)
						}
						if fi, err := os.Lstat(p); err != nil || !os.SameFile(fi, before[name]) || fi.Mode() != 0o640 {
							t.Errorf("%s: %v %v, want the same file with mode 0640", name, fi, err)
						}
					}
					if _, err := os.Lstat(filepath.Join(dir, "new", "n.py")); !errors.Is(err, fs.ErrNotExist) {
						t.Errorf("new/n.py: %v, want it not created", err)
					}
					if left := tempsLeft(t, dir); len(left) > 0 {
						t.Errorf("temporary files left: %v", left)
					}
					calls := fsys.steps()
					for _, c := range []string{"Lock", "Rename"} {
						if indexOf(calls, c) >= 0 {
							t.Errorf("%s after a failure while preparing (calls %v)", c, calls)
						}
					}
					for _, f := range fsys.temps {
						if !f.closed {
							t.Errorf("temporary file of %s not closed", f.base)
						}
					}
				})
			}
		}
	}
}

// TestAllOrNoneSyncsEachFolderOnce: a transaction over six files in
// three folders syncs every temporary file it writes, and each folder
// once, after the last rename; a failed folder sync is not reported.
func TestAllOrNoneSyncsEachFolderOnce(t *testing.T) {
	for _, failSync := range []bool{false, true} {
		dir := t.TempDir()
		changes, _ := txnTree(t, dir)
		fsys := newFaultFS("", syscall.EIO)
		if failSync {
			fsys.fail = "SyncDir"
		}
		if err := commitChanges(fsys, Options{}, changes); err != nil {
			t.Fatalf("failSync=%v: %v", failSync, err)
		}
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int{filepath.Join(real, "a"): 1, filepath.Join(real, "b"): 1, filepath.Join(real, "new"): 1}
		if !reflect.DeepEqual(fsys.syncs, want) {
			t.Errorf("folder syncs %v, want %v", fsys.syncs, want)
		}
		calls := fsys.steps()
		syncs, lastPut, firstSyncDir := 0, -1, -1
		for i, c := range calls {
			switch {
			case c == "Sync":
				syncs++
			case c == "Rename" || strings.HasPrefix(c, "LinkTemp"):
				lastPut = i
			case c == "SyncDir" && firstSyncDir < 0:
				firstSyncDir = i
			}
		}
		if syncs != 5 {
			t.Errorf("%d temporary files synced, want 5 (calls %v)", syncs, calls)
		}
		if firstSyncDir < lastPut {
			t.Errorf("a folder synced before the last rename or link (calls %v)", calls)
		}
		for _, c := range changes {
			got, err := os.ReadFile(c.Doc.Path)
			if c.Delete {
				if !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("%s not deleted: %v", c.Doc.Path, err)
				}
				continue
			}
			if err != nil || !bytes.Equal(got, c.Content) {
				t.Errorf("%s = %q, %v; want %q", c.Doc.Path, got, err, c.Content)
			}
		}
		if fi, err := os.Stat(filepath.Join(dir, "new", "n.py")); err != nil || fi.Mode().Perm()&0o100 == 0 {
			t.Errorf("new/n.py: %v %v, want it executable", fi, err)
		}
		if left := tempsLeft(t, dir); len(left) > 0 {
			t.Errorf("temporary files left: %v", left)
		}
	}
}

// TestAllOrNonePreparesConcurrently: a transaction writes and syncs
// its temporary files at once, not one after another: each temporary
// file's sync waits here until another one's has begun too. A
// transaction that synced them one at a time would wait 30 s (a hang
// detector, not a time limit) and fail.
func TestAllOrNonePreparesConcurrently(t *testing.T) {
	dir := t.TempDir()
	changes, _ := txnTree(t, dir)
	var (
		mu         sync.Mutex
		started    int
		overlapped = make(chan struct{})
		alone      bool
	)
	fsys := newFaultFS("", nil)
	fsys.before = map[string]func(){"Sync": func() {
		mu.Lock()
		started++
		if started == 2 {
			close(overlapped)
		}
		waited := alone
		mu.Unlock()
		if waited {
			return // failed already: no need to wait again
		}
		select {
		case <-overlapped:
		case <-time.After(30 * time.Second):
			mu.Lock()
			alone = true
			mu.Unlock()
		}
	}}
	if err := commitChanges(fsys, Options{}, changes); err != nil {
		t.Fatal(err)
	}
	if alone {
		t.Error("a temporary file's sync waited 30 s for another one: the files were synced one at a time")
	}
}

// TestAllOrNoneLaterBatchFails: in a transaction longer than a
// batch, a failure while the third batch is prepared restores the files
// of the two batches already written, in reverse order, and leaves no
// temporary file.
func TestAllOrNoneLaterBatchFails(t *testing.T) {
	dir := t.TempDir()
	var changes []Change
	orig := map[string]string{}
	for i := range 5 {
		name := fmt.Sprintf("f%d.py", i)
		p := filepath.Join(dir, name)
		orig[p] = fmt.Sprintf("x = %d\n", i)
		if err := os.WriteFile(p, []byte(orig[p]), 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := Read(p)
		if err != nil {
			t.Fatal(err)
		}
		changes = append(changes, Change{Doc: d, Content: []byte("y = 1\n")})
	}
	fsys := newFaultFS("Write", syscall.EIO)
	fsys.failOnly = "f4.py"
	_, err := commit(context.Background(), fsys, Options{}, changes, AllOrNone, 2)
	var te *TransactionError
	if !errors.As(err, &te) || te.Failed != 4 || len(te.RestoreErrs) != 0 {
		t.Fatalf("commit = %v, want a *TransactionError at 4", err)
	}
	want := []string{changes[3].Doc.Path, changes[2].Doc.Path, changes[1].Doc.Path, changes[0].Doc.Path}
	if !reflect.DeepEqual(te.Restored, want) {
		t.Errorf("Restored = %v, want %v", te.Restored, want)
	}
	for p, o := range orig {
		if got, err := os.ReadFile(p); err != nil || string(got) != o {
			t.Errorf("%s = %q, %v; want %q", p, got, err, o)
		}
	}
	if left := tempsLeft(t, dir); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestAllOrNoneConcurrentTransactions runs transactions at once over
// the same three folders, each going through them in its own order. With
// disjoint files every transaction succeeds. With the same files, read
// by all before any commits, one transaction at most succeeds, the others
// fail with ErrChanged and restore what they wrote: every file ends as
// one transaction (or none) left it. None waits for a lock held by
// another that waits for it: a transaction that did would end with
// ErrLocked after LockWait, or hang (detected after 2 minutes).
func TestAllOrNoneConcurrentTransactions(t *testing.T) {
	const writers, rounds = 4, 5
	folders := []string{"a", "b", "c"}
	for _, shared := range []bool{false, true} {
		t.Run(fmt.Sprintf("shared=%v", shared), func(t *testing.T) {
			dir := t.TempDir()
			name := func(folder string, w int) string {
				if shared {
					return filepath.Join(dir, folder, "f.py")
				}
				return filepath.Join(dir, folder, fmt.Sprintf("f%d.py", w))
			}
			for _, folder := range folders {
				if err := os.MkdirAll(filepath.Join(dir, folder), 0o755); err != nil {
					t.Fatal(err)
				}
				for w := range writers {
					if err := os.WriteFile(name(folder, w), []byte("orig = 1\n"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			for round := range rounds {
				// Every transaction's files are read before any commits.
				txns := make([][]Change, writers)
				for w := range writers {
					for i := range folders {
						folder := folders[(i+w)%len(folders)] // its own order
						d, err := Read(name(folder, w))
						if err != nil {
							t.Fatal(err)
						}
						txns[w] = append(txns[w], Change{Doc: d, Content: fmt.Appendf(nil, "w%d = %d\n", w, round)})
					}
				}
				errs := make(chan error, writers)
				for w := range writers {
					go func() { errs <- commitChanges(osFS{}, Options{}, txns[w]) }()
				}
				wins := 0
				for range writers {
					select {
					case err := <-errs:
						var te *TransactionError
						switch {
						case err == nil:
							wins++
						case !shared:
							t.Errorf("round %d: %v", round, err)
						case !errors.As(err, &te) || !errors.Is(err, edit.ErrChanged) || len(te.RestoreErrs) != 0:
							t.Errorf("round %d: %v, want ErrChanged with everything restored", round, err)
						}
					case <-time.After(2 * time.Minute):
						t.Fatalf("round %d: transactions still running after 2 minutes: deadlocked", round)
					}
				}
				if shared && wins > 1 {
					t.Errorf("round %d: %d transactions over the same files succeeded", round, wins)
				}
				// Every file holds what one transaction wrote (or, if none
				// succeeded, what they all read).
				for w := range writers {
					var first []byte
					for i, folder := range folders {
						got, err := os.ReadFile(name(folder, w))
						if err != nil {
							t.Fatal(err)
						}
						if !shared && string(got) != fmt.Sprintf("w%d = %d\n", w, round) {
							t.Errorf("round %d: %s = %q", round, name(folder, w), got)
						}
						if i == 0 {
							first = got
						} else if !bytes.Equal(got, first) {
							t.Errorf("round %d: %s = %q but %s = %q", round, name(folders[0], w), first, name(folder, w), got)
						}
					}
				}
			}
			if left := tempsLeft(t, dir); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

// eachTree writes n files f0.py ... under dir, every third in a folder of
// its own (sub/), and returns their documents, new contents and
// original contents.
func eachTree(t *testing.T, dir string, n int) (docs []*edit.Document, contents [][]byte, orig []string) {
	t.Helper()
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("f%d.py", i))
		if i%3 == 2 {
			p = filepath.Join(dir, "sub", fmt.Sprintf("f%d.py", i))
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		orig = append(orig, fmt.Sprintf("x = %d\n", i))
		if err := os.WriteFile(p, []byte(orig[i]), 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := Read(p)
		if err != nil {
			t.Fatal(err)
		}
		docs, contents = append(docs, d), append(contents, fmt.Appendf(nil, "y = %d\n", i))
	}
	return docs, contents, orig
}

// wantWritten fails unless docs[:written] hold contents and the others
// orig, and no temporary file is left under dir.
func wantWritten(t *testing.T, dir string, docs []*edit.Document, contents [][]byte, orig []string, written int) {
	t.Helper()
	for i, d := range docs {
		want := orig[i]
		if i < written {
			want = string(contents[i])
		}
		if got, err := os.ReadFile(d.Path); err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", d.Path, got, err, want)
		}
	}
	if left := tempsLeft(t, dir); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestEachAlone: a Commit under EachAlone writes every file, syncing each folder once;
// when the k-th file fails, while its temporary file is written (phase
// 1) or at its rename (phase 2), the files before it are written, it and
// the files after it are not, and no temporary file is left; in batches
// of 2 as in one.
func TestEachAlone(t *testing.T) {
	for _, batch := range []int{commitBatch, 2} {
		t.Run(fmt.Sprintf("batch=%d/ok", batch), func(t *testing.T) {
			dir := t.TempDir()
			docs, contents, orig := eachTree(t, dir, 5)
			fsys := newFaultFS("", nil)
			n, err := commit(context.Background(), fsys, Options{}, changesOf(docs, contents), EachAlone, batch)
			if err != nil || n != 5 {
				t.Fatalf("commit = %d, %v", n, err)
			}
			wantWritten(t, dir, docs, contents, orig, 5)
			real, _ := filepath.EvalSymlinks(dir)
			want := map[string]int{real: 1, filepath.Join(real, "sub"): 1}
			if batch == 2 { // batches {f0, f1}, {sub/f2, f3}, {f4}
				want = map[string]int{real: 3, filepath.Join(real, "sub"): 1}
			}
			if !reflect.DeepEqual(fsys.syncs, want) {
				t.Errorf("folder syncs %v, want %v", fsys.syncs, want)
			}
		})
		for k := range 5 {
			for _, step := range []string{"Sync", "Rename"} {
				t.Run(fmt.Sprintf("batch=%d/%s/%d", batch, step, k), func(t *testing.T) {
					dir := t.TempDir()
					docs, contents, orig := eachTree(t, dir, 5)
					var fsys fileSystem
					if step == "Rename" {
						fsys = &nthRenameFS{n: k + 1}
					} else {
						ff := newFaultFS(step, syscall.EIO)
						ff.failOnly = filepath.Base(docs[k].Path)
						fsys = ff
					}
					n, err := commit(context.Background(), fsys, Options{}, changesOf(docs, contents), EachAlone, batch)
					var fe *edit.FileError
					if n != k || !errors.As(err, &fe) || fe.Path != docs[k].Path || !errors.Is(err, syscall.EIO) {
						t.Fatalf("commit = %d, %v; want %d and %s's EIO", n, err, k, docs[k].Path)
					}
					wantWritten(t, dir, docs, contents, orig, k)
				})
			}
		}
	}
}

// TestEachAloneCancelled: a context done before a Commit under EachAlone writes
// nothing; one done while the files are put in place stops before the
// next file: the files renamed before it stay written.
func TestEachAloneCancelled(t *testing.T) {
	dir := t.TempDir()
	docs, contents, orig := eachTree(t, dir, 5)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	fsys := newFaultFS("", nil)
	if n, err := commit(ctx, fsys, Options{}, changesOf(docs, contents), EachAlone, commitBatch); n != 0 || !errors.Is(err, context.Canceled) {
		t.Fatalf("commit = %d, %v; want 0, context.Canceled", n, err)
	}
	wantWritten(t, dir, docs, contents, orig, 0)
	if len(fsys.steps()) != 0 {
		t.Errorf("steps %v after the context was done", fsys.steps())
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	fsys = newFaultFS("", nil)
	renames := 0
	fsys.before = map[string]func(){"Rename": func() {
		if renames++; renames == 2 {
			cancel()
		}
	}}
	if n, err := commit(ctx, fsys, Options{}, changesOf(docs, contents), EachAlone, commitBatch); n != 2 || !errors.Is(err, context.Canceled) {
		t.Fatalf("commit = %d, %v; want 2, context.Canceled", n, err)
	}
	wantWritten(t, dir, docs, contents, orig, 2)
}

// TestEachAloneDeletes: under EachAlone a deletion is a change like any
// other: deleted, and kept deleted when a later change fails (nothing is
// undone), its copy gone with the commit; an empty list commits nothing.
func TestEachAloneDeletes(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.py"), filepath.Join(dir, "b.py")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte("x = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	da, err := Read(a)
	if err != nil {
		t.Fatal(err)
	}
	db, err := Read(b)
	if err != nil {
		t.Fatal(err)
	}
	changes := []Change{{Doc: da, Delete: true}, {Doc: db, Content: []byte("x = 2\n")}}
	n, err := commit(context.Background(), &nthRenameFS{n: 1}, Options{}, changes, EachAlone, commitBatch)
	var fe *edit.FileError
	if n != 1 || !errors.As(err, &fe) || fe.Path != b || !errors.Is(err, syscall.EIO) {
		t.Fatalf("commit = %d, %v; want 1 and %s's EIO", n, err, b)
	}
	if _, err := os.Lstat(a); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s: %v, want it deleted", a, err)
	}
	if got, _ := os.ReadFile(b); string(got) != "x = 1\n" {
		t.Errorf("%s = %q, want it as it was", b, got)
	}
	if left := tempsLeft(t, dir); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	for _, p := range []Policy{AllOrNone, EachAlone} {
		if n, err := commit(context.Background(), osFS{}, Options{}, nil, p, commitBatch); n != 0 || err != nil {
			t.Errorf("%v of no changes = %d, %v", p, n, err)
		}
	}
}

// TestCommitUnknownPolicy: a Policy that is neither AllOrNone nor
// EachAlone is a programming error.
func TestCommitUnknownPolicy(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "Policy(7)") {
			t.Errorf("recover() = %v, want a panic naming Policy(7)", r)
		}
	}()
	_, _ = commit(context.Background(), osFS{}, Options{}, nil, Policy(7), commitBatch)
}
