package journal

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func open(t *testing.T, maxEntries int, maxBytes int64) *Journal {
	t.Helper()
	j, err := Open(Options{Dir: t.TempDir(), Root: "/some/root", MaxEntries: maxEntries, MaxBytes: maxBytes})
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func entry(op string, before string) *Entry {
	return &Entry{Op: op, Files: []File{{Path: "a.go", SHA256Before: "x", SHA256After: "y", Before: []byte(before)}}}
}

func TestAppendListGet(t *testing.T) {
	j := open(t, 0, 0)
	for _, op := range []string{"chunk", "apply", "undo"} {
		if err := j.Append(entry(op, "content of "+op)); err != nil {
			t.Fatal(err)
		}
	}
	es, bad, err := j.List()
	if err != nil || len(bad) != 0 || len(es) != 3 {
		t.Fatalf("List = %d entries, %v, %v", len(es), bad, err)
	}
	for i, op := range []string{"chunk", "apply", "undo"} {
		if es[i].Op != op || es[i].Root != "/some/root" || string(es[i].Files[0].Before) != "content of "+op {
			t.Errorf("entry %d = %+v", i, es[i])
		}
	}
	e, err := j.Get(es[1].ID)
	if err != nil || e.Op != "apply" {
		t.Fatalf("Get = %+v, %v", e, err)
	}
	if _, err := j.Get("../x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get(../x) = %v, want ErrNotFound", err)
	}
}

func TestPermissions(t *testing.T) {
	j := open(t, 0, 0)
	e := entry("chunk", "secret")
	if err := j.Append(e); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(j.Dir(), e.ID+ext))
	if err != nil {
		t.Fatal(err)
	}
	if m := fi.Mode().Perm(); m != 0o600 {
		t.Errorf("entry mode %o, want 600", m)
	}
	for _, d := range []string{j.Dir(), filepath.Dir(j.Dir())} {
		di, err := os.Stat(d)
		if err != nil {
			t.Fatal(err)
		}
		if m := di.Mode().Perm(); m != 0o700 {
			t.Errorf("%s mode %o, want 700", d, m)
		}
	}
}

func TestBoundEntries(t *testing.T) {
	j := open(t, 3, 0)
	var ids []string
	for i := 0; i < 7; i++ {
		e := entry("chunk", strings.Repeat("x", i))
		if err := j.Append(e); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, e.ID)
	}
	es, _, _ := j.List()
	if len(es) != 3 {
		t.Fatalf("%d entries, want 3", len(es))
	}
	for i, e := range es {
		if e.ID != ids[4+i] {
			t.Errorf("entry %d is %s, want %s (the newest kept)", i, e.ID, ids[4+i])
		}
	}
}

func TestBoundBytes(t *testing.T) {
	j := open(t, 0, 2500)
	var last string
	for i := 0; i < 5; i++ {
		e := entry("chunk", strings.Repeat("y", 1000)) // over 1000 bytes each, encoded
		if err := j.Append(e); err != nil {
			t.Fatal(err)
		}
		last = e.ID
	}
	es, _, _ := j.List()
	var total int64
	all, _ := j.files()
	for _, s := range all {
		total += s.size
	}
	if total > 2500 || len(es) == 0 || es[len(es)-1].ID != last {
		t.Fatalf("%d entries of %d bytes, newest %v", len(es), total, es)
	}
	// One entry over the bound is kept: the last operation stays undoable.
	big := open(t, 0, 10)
	e := entry("chunk", "more than ten bytes")
	if err := big.Append(e); err != nil {
		t.Fatal(err)
	}
	if es, _, _ := big.List(); len(es) != 1 {
		t.Errorf("%d entries, want the one just written", len(es))
	}
}

func TestCorruptSkipped(t *testing.T) {
	j := open(t, 0, 0)
	good := entry("chunk", "a")
	if err := j.Append(good); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(j.Dir(), "20000101T000000.000000000Z-00000000.json"), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	es, bad, err := j.List()
	if err != nil || len(es) != 1 || es[0].ID != good.ID {
		t.Fatalf("List = %v, %v", es, err)
	}
	var ce *CorruptError
	if len(bad) != 1 || !errors.As(bad[0], &ce) {
		t.Fatalf("bad = %v, want one *CorruptError", bad)
	}
	// Appending still works past a corrupt entry.
	if err := j.Append(entry("apply", "b")); err != nil {
		t.Fatal(err)
	}
}

func TestConcurrentAppend(t *testing.T) {
	j := open(t, 0, 0)
	const n = 40
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := j.Append(entry("chunk", "c")); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	es, bad, err := j.List()
	if err != nil || len(bad) != 0 || len(es) != n {
		t.Fatalf("List = %d entries, %v, %v; want %d", len(es), bad, err, n)
	}
}
