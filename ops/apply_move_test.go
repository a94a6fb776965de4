package ops_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/symedit/symedit/ops"
)

// moveReplies are the replies that move old.py (holding "x = 1\n") to
// sub/new.py: a Codex patch with a hunk and one without, a git rename
// with a hunk, and a git rename without hunks.
var moveReplies = map[string]string{
	"codex":      "*** Begin Patch\n*** Update File: old.py\n*** Move to: sub/new.py\n@@\n-x = 1\n+x = 2\n*** End Patch\n",
	"codex-pure": "*** Begin Patch\n*** Update File: old.py\n*** Move to: sub/new.py\n*** End Patch\n",
	"git": "diff --git a/old.py b/sub/new.py\nsimilarity index 50%\nrename from old.py\nrename to sub/new.py\n" +
		"--- a/old.py\n+++ b/sub/new.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n",
	"git-pure": "diff --git a/old.py b/sub/new.py\nsimilarity index 100%\nrename from old.py\nrename to sub/new.py\n",
}

const applyHelperEnv = "SYMEDIT_APPLY_HELPER"

// TestHelperApply is not a test: unless the environment asks it to act
// as a helper process it does nothing. As one, it applies the reply
// SYMEDIT_APPLY_HELPER_REPLY in a workspace rooted at
// SYMEDIT_APPLY_HELPER with the permissions SYMEDIT_APPLY_HELPER_OPTS
// ("readonly", "metadata") and prints "helper-result: " and the first
// file's result.
func TestHelperApply(t *testing.T) {
	root := os.Getenv(applyHelperEnv)
	if root == "" {
		return
	}
	opts := os.Getenv(applyHelperEnv + "_OPTS")
	fmt.Println("helper-result:", applyMove(root, os.Getenv(applyHelperEnv+"_REPLY"), opts))
}

// applyMove applies reply in a workspace rooted at root with the
// permissions opts and returns the first file's status, code, remedy
// and message as key=value pairs.
func applyMove(root, reply, opts string) string {
	w, err := ops.Open(ops.Options{Root: root, Dir: root,
		AllowReadOnly: strings.Contains(opts, "readonly"), AllowMetadataLoss: strings.Contains(opts, "metadata")})
	if err != nil {
		return fmt.Sprintf("setup-error=%q", err)
	}
	defer w.Close()
	res, _ := w.Apply(context.Background(), ops.ApplyRequest{Reply: reply})
	if len(res.Files) == 0 {
		return fmt.Sprintf("no-files error=%v", res.Error)
	}
	f := res.Files[0]
	s := fmt.Sprintf("ok=%v written=%v op=%s", f.OK, f.Written, f.Op)
	if f.Error != nil {
		s += fmt.Sprintf(" code=%s remedy=%v message=%q", f.Error.Code, f.Error.Remedy, f.Error.Message)
	}
	return s
}

// TestApplyMoveKeepsWhatEditKeeps: apply's moves (a Codex Move to, a git
// rename with and without hunks) give the new name the moved file's mode,
// owner and extended attributes (as root, a private file of another
// user), and are refused as an edit of the file is when another user
// (uid 65534, in a child process) may not write the file: its own
// read-only file, or root's file (NOT_WRITABLE). A refusal leaves the
// file byte-identical with its mode and owner, creates nothing and
// leaves no temporary file.
func TestApplyMoveKeepsWhatEditKeeps(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give files other owners and run apply as another user")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	orig := []byte("x = 1\n")
	for kind, reply := range moveReplies {
		for _, tt := range []struct {
			name      string
			mode      fs.FileMode
			uid       int
			asNobody  bool
			opts      string
			want      []string
			wantWrite bool
		}{
			{name: "root moves another user's private file", mode: 0o600, uid: 65534, wantWrite: true},
			{name: "read-only", mode: 0o444, uid: 65534, asNobody: true,
				want: []string{"ok=false", "written=false", "code=NOT_WRITABLE", "remedy=[{allow_read_only true}] "}},
			{name: "read-only allowed", mode: 0o444, uid: 65534, asNobody: true, opts: "readonly", wantWrite: true},
			{name: "root's file", mode: 0o644, uid: 0, asNobody: true,
				want: []string{"ok=false", "written=false", "code=NOT_WRITABLE", "remedy=[{allow_read_only true} {allow_metadata_loss true}] "}},
			{name: "root's file, read-only allowed", mode: 0o644, uid: 0, asNobody: true, opts: "readonly",
				want: []string{"ok=false", "written=false", "code=METADATA", "remedy=[{allow_metadata_loss true}] "}},
		} {
			t.Run(kind+"/"+tt.name, func(t *testing.T) {
				top, err := os.MkdirTemp("/tmp", "symedit-applymove-*")
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.RemoveAll(top) })
				if err := os.Chmod(top, 0o755); err != nil {
					t.Fatal(err)
				}
				root := filepath.Join(top, "root")
				if err := os.Mkdir(root, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Chown(root, 65534, 65534); err != nil {
					t.Fatal(err)
				}
				path := filepath.Join(root, "old.py")
				if err := os.WriteFile(path, orig, 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Chown(path, tt.uid, tt.uid); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(path, tt.mode); err != nil {
					t.Fatal(err)
				}
				hasXattr := unix.Setxattr(path, "user.origin", []byte("https://example.org/x"), 0) == nil
				var res string
				if tt.asNobody {
					helper := filepath.Join(top, "helper.test")
					copyExe(t, exe, helper)
					cmd := exec.Command(helper, "-test.run=^TestHelperApply$", "-test.count=1")
					cmd.Dir = root
					cmd.Env = append(os.Environ(), applyHelperEnv+"="+root, applyHelperEnv+"_REPLY="+reply, applyHelperEnv+"_OPTS="+tt.opts)
					cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
					out, err := cmd.CombinedOutput()
					if err != nil {
						t.Fatalf("helper: %v\n%s", err, out)
					}
					_, res, _ = strings.Cut(string(out), "helper-result: ")
					res, _, _ = strings.Cut(res, "\n")
				} else {
					res = applyMove(root, reply, tt.opts)
				}
				t.Logf("result: %s", res)
				dest := filepath.Join(root, "sub", "new.py")
				if !tt.wantWrite {
					for _, want := range tt.want {
						if !strings.Contains(res+" ", want) {
							t.Errorf("result %q lacks %q", res, want)
						}
					}
					checkFile(t, path, orig, tt.mode, tt.uid)
					if _, err := os.Lstat(dest); !errors.Is(err, fs.ErrNotExist) {
						t.Errorf("%s was created (%v)", dest, err)
					}
					noTemps(t, root)
					return
				}
				if !strings.Contains(res, "ok=true written=true op=move") {
					t.Fatalf("result %q: want the move written", res)
				}
				want := []byte("x = 2\n")
				if strings.HasSuffix(kind, "-pure") {
					want = orig
				}
				checkFile(t, dest, want, tt.mode, tt.uid)
				if hasXattr {
					buf := make([]byte, 64)
					n, err := unix.Getxattr(dest, "user.origin", buf)
					if err != nil || string(buf[:n]) != "https://example.org/x" {
						t.Errorf("the moved file's user.origin: %q %v", buf[:max(n, 0)], err)
					}
				}
				if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("%s still there (%v)", path, err)
				}
				noTemps(t, root)
			})
		}
	}
}

// checkFile fails unless path holds content with mode, owned by uid:uid.
func checkFile(t *testing.T, path string, content []byte, mode fs.FileMode, uid int) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil || string(got) != string(content) {
		t.Errorf("%s holds %q (%v), want %q", path, got, err, content)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	if fi.Mode() != mode || int(st.Uid) != uid || int(st.Gid) != uid {
		t.Errorf("%s: mode %v owner %d:%d, want %v %d:%d", path, fi.Mode(), st.Uid, st.Gid, mode, uid, uid)
	}
}

// noTemps fails if a temporary file's name is left below root.
func noTemps(t *testing.T, root string) {
	t.Helper()
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".symedit-") {
			t.Errorf("left %s", p)
		}
		return nil
	})
}

// copyExe copies the test binary to to, executable by anyone.
func copyExe(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(to, 0o755); err != nil {
		t.Fatal(err)
	}
}
