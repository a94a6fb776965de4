package files_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/symedit/symedit/files"
	"github.com/symedit/symedit/internal/testfile"
	"github.com/symedit/symedit/remedy"
)

// helperMove is TestHelperCommit's "move" and "delete" modes: the file
// path is moved to SYMEDIT_COMMIT_HELPER_DEST with one more line (a
// created file whose Change.From is path, and path deleted, as apply
// commits a move) or deleted, with the Options named in
// SYMEDIT_COMMIT_HELPER_OPTS; it prints the result as TestHelperCommit
// does.
func helperMove(mode, path string) {
	opts := os.Getenv(helperEnv + "_OPTS")
	fl, err := files.Open(files.Options{AllowReadOnly: strings.Contains(opts, "readonly"), AllowMetadataLoss: strings.Contains(opts, "metadata")})
	if err != nil {
		fmt.Printf("helper-result: setup-error=%q\n", err)
		return
	}
	doc, err := fl.Read(path)
	if err != nil {
		fmt.Printf("helper-result: read-error=%q\n", err)
		return
	}
	changes := []files.Change{{Doc: doc, Delete: true}}
	if mode == "move" {
		dest, err := fl.ReadOrNew(os.Getenv(helperEnv + "_DEST"))
		if err != nil {
			fmt.Printf("helper-result: read-error=%q\n", err)
			return
		}
		changes = append([]files.Change{{Doc: dest, Content: append(bytes.Clone(doc.Content), "# moved\n"...), From: doc}}, changes...)
	}
	err = commitChanges(fl, changes)
	fmt.Printf("helper-result: written=%v notwritable=%v metadata=%v remedy=%v message=%q\n",
		err == nil, errors.Is(err, files.ErrNotWritable), errors.Is(err, files.ErrMetadata), remedy.Of(err), fmt.Sprint(err))
}

// moveCase is a file moved or deleted as another user (uid 65534) or
// as root, and what must come of it.
type moveCase struct {
	name     string
	mode     fs.FileMode
	uid, gid int
	xattr    bool   // the file has user.origin
	opts     string // "readonly", "metadata"
	want     []string
	written  bool
	// owner of the moved file, when written (its mode is mode and its
	// extended attributes the file's).
	owner [2]uint32
}

// TestMoveKeepsWhatEditKeeps: a move (a created file whose Change.From
// is the moved file, and that file deleted, as apply commits it) gives
// the new name the file's mode, owner and extended attributes, and a move
// or a deletion is refused where an edit of the file is: a read-only
// file, another user's file (ErrNotWritable unless AllowReadOnly, and
// then ErrMetadata unless AllowMetadataLoss). A refusal leaves the file
// byte-identical with its mode and owner, creates nothing and leaves no
// temporary file. As root it runs the writer as uid 65534 in a child
// process too.
func TestMoveKeepsWhatEditKeeps(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run the writer as another user and give files other owners")
	}
	asRoot := []moveCase{
		{name: "private file of another user", mode: 0o600, uid: 65534, gid: 65534, xattr: true, written: true, owner: [2]uint32{65534, 65534}},
		{name: "setgid file", mode: 0o750 | fs.ModeSetgid, uid: 65534, gid: 65534, written: true, owner: [2]uint32{65534, 65534}},
	}
	asNobodyCases := []moveCase{
		{name: "own private file", mode: 0o600, uid: 65534, gid: 65534, xattr: true, written: true, owner: [2]uint32{65534, 65534}},
		{name: "read-only", mode: 0o444, uid: 65534, gid: 65534,
			want: []string{"written=false", "notwritable=true", "this user may not write the file", "remedy=[{allow_read_only true}] "}},
		{name: "read-only allowed", mode: 0o444, uid: 65534, gid: 65534, opts: "readonly", written: true, owner: [2]uint32{65534, 65534}},
		{name: "root's file", mode: 0o644, uid: 0, gid: 0,
			want: []string{"written=false", "notwritable=true", "belongs to another user", "remedy=[{allow_read_only true} {allow_metadata_loss true}] "}},
		{name: "root's file allowed but owner lost", mode: 0o644, uid: 0, gid: 0, opts: "readonly",
			want: []string{"written=false", "metadata=true", "owner 0:0", "remedy=[{allow_metadata_loss true}] "}},
		{name: "root's file allowed with owner lost", mode: 0o644, uid: 0, gid: 0, opts: "readonly,metadata", written: true, owner: [2]uint32{65534, 65534}},
	}
	orig := []byte("x = 1\n")
	for _, op := range []string{"move", "delete"} {
		for _, user := range []string{"root", "nobody"} {
			cases := asRoot
			if user == "nobody" {
				cases = asNobodyCases
			}
			for _, tt := range cases {
				t.Run(op+"/"+user+"/"+tt.name, func(t *testing.T) {
					top, helper := helperDir(t, "symedit-move-*")
					dir := filepath.Join(top, "work")
					if err := os.Mkdir(dir, 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.Chown(dir, 65534, 65534); err != nil {
						t.Fatal(err)
					}
					path, dest := filepath.Join(dir, "old.py"), filepath.Join(dir, "sub", "new.py")
					testfile.WriteMode(t, path, orig, 0o644)
					if err := os.Chown(path, tt.uid, tt.gid); err != nil {
						t.Fatal(err)
					}
					if err := os.Chmod(path, tt.mode); err != nil { // after chown, which clears setgid
						t.Fatal(err)
					}
					if tt.xattr {
						if err := unix.Setxattr(path, "user.origin", []byte("https://example.org/x"), 0); err != nil {
							t.Skipf("the test folder's file system takes no user.* extended attributes: %v", err)
						}
					}
					before := xattrs(t, path)
					attr := asNobody()
					if user == "root" {
						attr = nil
					}
					res := runHelper(t, helper, dir, attr, helperEnv+"="+op, helperEnv+"_PATH="+path,
						helperEnv+"_DEST="+dest, helperEnv+"_OPTS="+tt.opts)
					t.Logf("helper: %s", res)
					if !tt.written {
						for _, want := range tt.want {
							if !strings.Contains(res, want) {
								t.Errorf("helper result %q lacks %q", res, want)
							}
						}
						assertFile(t, path, orig, tt.mode)
						assertOwner(t, path, uint32(tt.uid), uint32(tt.gid))
						if got := xattrs(t, path); fmt.Sprint(got) != fmt.Sprint(before) {
							t.Errorf("extended attributes %q, want %q", got, before)
						}
						// Nothing created: not the new name, and not its
						// folder, but where the refusal is the new file's
						// metadata, known only once it is written there.
						created := dest
						if !strings.Contains(res, "metadata=true") {
							created = filepath.Dir(dest)
						}
						if _, err := os.Lstat(created); !errors.Is(err, fs.ErrNotExist) {
							t.Errorf("%s was created (%v)", created, err)
						}
						if _, err := os.Lstat(filepath.Dir(dest)); err == nil {
							testfile.NoTemps(t, filepath.Dir(dest))
						}
						testfile.NoTemps(t, dir)
						return
					}
					if !strings.Contains(res, "written=true") {
						t.Fatalf("helper result %q: want written", res)
					}
					if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
						t.Errorf("%s still there: %v", path, err)
					}
					testfile.NoTemps(t, dir)
					if op == "delete" {
						return
					}
					assertFile(t, dest, append(bytes.Clone(orig), "# moved\n"...), tt.mode)
					assertOwner(t, dest, tt.owner[0], tt.owner[1])
					if got := xattrs(t, dest); fmt.Sprint(got) != fmt.Sprint(before) {
						t.Errorf("moved file's extended attributes %q, want %q", got, before)
					}
					testfile.NoTemps(t, filepath.Dir(dest))
				})
			}
		}
	}
}
