package ops_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/symedit/symedit/ops"
)

// TestApplyGitDiffQuotedNames: real `git diff` output for files whose
// names hold a space, non-ASCII letters (which git C-quotes by default,
// "a/t\303\251st.go"), a tab and a double quote (quoted always), with an
// edit, a rename with an edit and a new file, applies and reproduces git's
// tree byte for byte, with core.quotePath on (git's default) and off.
func TestApplyGitDiffQuotedNames(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	for _, quotePath := range []string{"true", "false"} {
		t.Run("quotePath="+quotePath, func(t *testing.T) {
			w, root := applyWorkspace(t)
			for from, to := range map[string]string{
				"python/process.py": "python/my process.py",
				"go/atomic_type.go": "go/tést type.go",
				"go/slog_value.go":  "go/tab\there \"q\".go",
			} {
				if err := os.Rename(filepath.Join(root, from), filepath.Join(root, to)); err != nil {
					t.Fatal(err)
				}
			}
			repo := t.TempDir()
			if err := os.CopyFS(repo, os.DirFS(root)); err != nil {
				t.Fatal(err)
			}
			git := func(args ...string) string {
				t.Helper()
				cmd := exec.Command(gitBin, append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "core.quotePath=" + quotePath}, args...)...)
				cmd.Dir = repo
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("git %v: %v\n%s", args, err, out)
				}
				return string(out)
			}
			git("init", "-q")
			git("add", "-A")
			git("commit", "-q", "-m", "orig")
			edit := func(name, old, new string) {
				t.Helper()
				p := filepath.Join(repo, name)
				if err := os.WriteFile(p, []byte(replaceOnce(t, read(t, p), old, new)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			edit("python/my process.py", "    def kill(self):\n", "    def kill(self):  # SIGKILL\n")
			edit("go/tab\there \"q\".go", "func countEmptyGroups(as []Attr) int {\n", "func countEmptyGroups(as []Attr) (n int) {\n")
			edit("go/tést type.go", "type noCopy struct{}\n", "type noCopy struct{} // go vet\n")
			git("mv", "go/tést type.go", "go/renamed ünï.go")
			if err := os.MkdirAll(filepath.Join(repo, "notes é"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(repo, "notes é/new file.md"), []byte("# notes\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			git("add", "-A")
			diff := git("diff", "--cached", "-M")
			wants := []string{"--- a/python/my process.py\t\n", `"b/go/tab\there \"q\".go"`, "+++ b/notes é/new file.md\t\n", "rename to go/renamed ünï.go\n"}
			if quotePath == "true" {
				wants[2], wants[3] = `+++ "b/notes \303\251/new file.md"`, `rename to "go/renamed \303\274n\303\257.go"`
			}
			for _, want := range wants {
				if !strings.Contains(diff, want) {
					t.Fatalf("git diff has no %q:\n%s", want, diff)
				}
			}
			// The dry run's diffs name the same files, quoted as git
			// quotes them, so git apply on the original tree makes git's.
			orig := t.TempDir()
			if err := os.CopyFS(orig, os.DirFS(root)); err != nil {
				t.Fatal(err)
			}
			dry, err := w.Apply(context.Background(), ops.ApplyRequest{Reply: "```diff\n" + diff + "```\n", WriteOptions: ops.WriteOptions{DryRun: true}})
			if err != nil {
				t.Fatalf("Apply --dry-run: %v\n%s", err, diff)
			}
			var dryDiff strings.Builder
			for _, f := range dry.Files {
				dryDiff.WriteString(f.Diff)
			}
			cmd := exec.Command(gitBin, "apply", "--whitespace=nowarn", "-")
			cmd.Dir, cmd.Stdin = orig, strings.NewReader(dryDiff.String())
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git apply of the dry run's diff: %v\n%s\n%s", err, out, dryDiff.String())
			}
			if !strings.Contains(dryDiff.String(), `"a/go/tab\there \"q\".go"`) {
				t.Errorf("the dry run's diff does not quote the name with a tab:\n%s", dryDiff.String())
			}
			if _, err := w.Apply(context.Background(), ops.ApplyRequest{Reply: "```diff\n" + diff + "```\n"}); err != nil {
				t.Fatalf("Apply: %v\n%s", err, diff)
			}
			if got, written := snapshot(t, orig), snapshot(t, root); len(got) != len(written) {
				t.Errorf("git apply of the dry run's diff made %d files, Apply %d", len(got), len(written))
			} else {
				for p, c := range written {
					rel, _ := filepath.Rel(root, p)
					if got[filepath.Join(orig, rel)] != c {
						t.Errorf("%q: git apply of the dry run's diff differs from Apply", rel)
					}
				}
			}
			got, want := snapshot(t, root), snapshot(t, repo)
			for p, c := range want {
				rel, _ := filepath.Rel(repo, p)
				if strings.HasPrefix(rel, ".git"+string(filepath.Separator)) {
					continue
				}
				if g, ok := got[filepath.Join(root, rel)]; !ok || g != c {
					t.Errorf("%q: missing or different", rel)
				}
			}
			for q := range got {
				rel, _ := filepath.Rel(root, q)
				if _, ok := want[filepath.Join(repo, rel)]; !ok {
					t.Errorf("%q exists, git has no such file", rel)
				}
			}
		})
	}
}

// TestApplyQuotedNameRefused: a diff naming a file in quoting git does not
// write, a diff -u whose names differ, and a SEARCH/REPLACE block whose
// bare path line holds a space or whose fence names a path with spaces
// are refused with the reason, every file byte-identical, even though the
// reply's other block applies.
func TestApplyQuotedNameRefused(t *testing.T) {
	good := "--- a/python/process.py\n+++ b/python/process.py\n@@ -1 +1 @@\n-#\n+# changed\n"
	for name, c := range map[string]struct{ reply, want string }{
		"unknown escape":     {"--- \"a/go/x\\q.go\"\n+++ \"b/go/x\\q.go\"\n@@ -1 +1 @@\n-a\n+b\n", `the escape \q in a quoted name is not one git writes`},
		"NUL in a name":      {"--- \"a/go/x\\000.go\"\n+++ \"b/go/x\\000.go\"\n@@ -1 +1 @@\n-a\n+b\n", "NUL byte"},
		"bare spaced path":   {"python/my process.py\n<<<<<<< SEARCH\n#\n=======\n# x\n>>>>>>> REPLACE\n", "a path with spaces goes in backticks"},
		"spaced fence path":  {"```python python/my process.py\n<<<<<<< SEARCH\n#\n=======\n# x\n>>>>>>> REPLACE\n```\n", "so where its path starts cannot be told"},
		"escape out of root": {"--- \"a/..\\057..\\057x.py\"\n+++ \"b/..\\057..\\057x.py\"\n@@ -1 +1 @@\n-a\n+b\n", "outside"},
	} {
		t.Run(name, func(t *testing.T) {
			w, root := applyWorkspace(t)
			if err := os.WriteFile(filepath.Join(root, "python/my process.py"), []byte("#\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, root)
			res, err := w.Apply(context.Background(), ops.ApplyRequest{Reply: good + c.reply})
			if err == nil {
				t.Fatalf("want a refusal, got %+v", res)
			}
			out := err.Error()
			for _, f := range res.Files {
				out += "\n" + f.Reason
			}
			for _, b := range res.Blocks {
				out += "\n" + b.Reason
			}
			for _, m := range res.Malformed {
				out += "\n" + m.Reason
			}
			if !strings.Contains(out, c.want) {
				t.Errorf("want %q in the refusal, got %s", c.want, out)
			}
			sameFiles(t, root, before)
		})
	}
}
