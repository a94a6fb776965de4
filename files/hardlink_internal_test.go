package files

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/symedit/symedit/edit"
)

// TestCommitRefusesLinkMadeMeanwhile: a hard link made to the file after
// it was read, before the commit looked at it or between the commit's
// preparation and its rename, is refused with ErrChanged, as Read refuses
// a file with several links: both names keep the content as read and no
// temporary file remains. AllowHardlinks lets the commit split the names.
func TestCommitRefusesLinkMadeMeanwhile(t *testing.T) {
	orig, next := []byte("x = 1\n"), []byte("x = 2\n")
	for _, tt := range []struct {
		name      string
		when      string // "read": after Read; else the step the link is made before
		changes   bool   // a transaction (AllOrNone), not a one-file commit
		hardlinks bool
	}{
		{name: "after the read", when: "read"},
		{name: "before the rename", when: "Lstat#2"},
		{name: "transaction, after the read", when: "read", changes: true},
		{name: "transaction, before the rename", when: "Lstat#2", changes: true},
		{name: "allowed", when: "read", hardlinks: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path, other := filepath.Join(dir, "f.py"), filepath.Join(dir, "g.py")
			if err := os.WriteFile(path, orig, 0o644); err != nil {
				t.Fatal(err)
			}
			opt := Options{AllowHardlinks: tt.hardlinks}
			files := &Files{fsys: osFS{}, opt: opt}
			doc, err := files.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			link := func() {
				if err := os.Link(path, other); err != nil {
					t.Fatal(err)
				}
			}
			fsys := newFaultFS("", nil)
			if tt.when == "read" {
				link()
			} else {
				fsys.before = map[string]func(){tt.when: link}
			}
			if tt.changes {
				err = commitChanges(fsys, opt, []Change{{Doc: doc, Content: next}})
			} else {
				err = commitOne(fsys, opt, doc, next)
			}
			if _, lerr := os.Lstat(other); lerr != nil {
				t.Fatalf("the link was not made: %v", lerr)
			}
			if tt.hardlinks {
				if err != nil {
					t.Fatalf("commit with AllowHardlinks = %v", err)
				}
				if got, _ := os.ReadFile(path); !bytes.Equal(got, next) {
					t.Errorf("%s holds %q", path, got)
				}
				return
			}
			if !errors.Is(err, edit.ErrChanged) {
				t.Fatalf("commit = %v, want ErrChanged", err)
			}
			for _, p := range []string{path, other} {
				if got, _ := os.ReadFile(p); !bytes.Equal(got, orig) {
					t.Errorf("%s holds %q, want %q", p, got, orig)
				}
			}
			if a, b := statOf(t, path), statOf(t, other); !os.SameFile(a, b) {
				t.Errorf("the two names are no longer one file")
			}
			noTemps(t, dir)
		})
	}
}

func statOf(t *testing.T, path string) os.FileInfo {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

// noTemps fails if dir holds a name of symedit's temporary files.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if bytes.Contains([]byte(e.Name()), []byte(".symedit-")) {
			t.Errorf("%s left in %s", e.Name(), dir)
		}
	}
}
