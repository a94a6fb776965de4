package diff_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/symedit/symedit/diff"
)

// TestNewFileDiffAsGit: NewFileDiff writes what git diff writes for a new
// file (its "index" line aside, which names blobs symedit does not
// compute): "new file mode", "--- /dev/null", "+++ b/PATH" (a tab after
// a name with a space), one hunk from @@ -0,0, "\ No newline at end of
// file" after an unterminated last line, and the header alone for an
// empty file.
func TestNewFileDiffAsGit(t *testing.T) {
	gitPath := requireTool(t, "git")
	for _, c := range []struct {
		name, path, content string
		exec                bool
	}{
		{"lines", "newdir/helper.go", "package newdir\n\nfunc helper() {}\n", false},
		{"no final line ending", "n.txt", "x\ny", false},
		{"empty", "empty.txt", "", false},
		{"a space in the name", "my dir/new file.txt", "x\n", false},
		{"executable", "run.sh", "#!/bin/sh\necho run\n", true},
		{"CRLF", "crlf.txt", "a\r\nb\r\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			git(t, gitPath, dir, "", "init", "-q")
			full := filepath.Join(dir, filepath.FromSlash(c.path))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			perm, mode := os.FileMode(0o644), "100644"
			if c.exec {
				perm, mode = 0o755, "100755"
			}
			if err := os.WriteFile(full, []byte(c.content), perm); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(full, perm); err != nil {
				t.Fatal(err)
			}
			git(t, gitPath, dir, "", "-c", "core.autocrlf=false", "add", "-A")
			cmd := exec.Command(gitPath, "-c", "core.quotePath=false", "diff", "--cached")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "HOME="+dir)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("git diff: %v", err)
			}
			want := regexp.MustCompile(`(?m)^index [0-9a-f]+\.\.[0-9a-f]+\n`).ReplaceAllString(string(out), "")
			if got := diff.NewFileDiff(c.path, []byte(c.content), mode); got != want {
				t.Errorf("NewFileDiff =\n%q\ngit diff (index line aside) =\n%q", got, want)
			}
			if got := diff.NewFileDiff("./"+c.path, []byte(c.content), mode); !strings.HasPrefix(got, "diff --git a/"+c.path) {
				t.Errorf("a leading ./ is kept: %q", got)
			}
		})
	}
}
