package ops_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/symedit/symedit/ops"
)

// These tests hold symedit apply to what the peers it stands in for do
// with the same diff: git apply and GNU patch, run for real on copies of
// the same files, must leave the same bytes as symedit (or, where the
// peers disagree or would guess, symedit refuses and leaves every file
// byte-identical).

// needTool returns the path of the program name; the tests that compare
// with git apply and patch need both (make deps installs them).
func needTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s is required (make deps installs it): %v", name, err)
	}
	return p
}

// writeTree writes files (slash paths relative to the folder, mode 0644)
// into a new temporary folder and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// treeOf returns every regular file below dir: slash path relative to dir
// to content, with " (x)" after the path of an executable file.
func treeOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if fi.Mode()&0o111 != 0 {
			rel += " (x)"
		}
		m[filepath.ToSlash(rel)] = read(t, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// sameTree fails unless got and want hold the same files, byte for byte.
func sameTree(t *testing.T, who string, got, want map[string]string) {
	t.Helper()
	if maps.Equal(got, want) {
		return
	}
	for _, p := range slices.Sorted(maps.Keys(want)) {
		if g, ok := got[p]; !ok {
			t.Errorf("%s: %s missing (want %q)", who, p, want[p])
		} else if g != want[p] {
			t.Errorf("%s: %s is %q, want %q", who, p, g, want[p])
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s: %s (%q) should not exist", who, p, got[p])
		}
	}
}

// symeditApply applies reply to a copy of files with symedit (dry run or
// not) and returns the resulting files and the result.
func symeditApply(t *testing.T, files map[string]string, reply string, dry bool) (map[string]string, *ops.ApplyResult, error) {
	t.Helper()
	root := writeTree(t, files)
	w, err := ops.Open(ops.Options{Root: root, Dir: root})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	req := ops.ApplyRequest{Reply: reply}
	req.DryRun = dry
	res, err := w.Apply(context.Background(), req)
	return treeOf(t, root), res, err
}

// peerApply runs git apply (tool "git") or GNU patch (tool "patch") on
// diff in a copy of files, stripping strip leading folders from its
// names, and returns the resulting files, or the tool's output when it
// refused the diff.
func peerApply(t *testing.T, tool string, files map[string]string, diff string, strip int) (map[string]string, string, bool) {
	t.Helper()
	dir := writeTree(t, files)
	var cmd *exec.Cmd
	if tool == "git" {
		cmd = exec.Command(needTool(t, "git"), "apply", fmt.Sprintf("-p%d", strip), "-")
	} else {
		cmd = exec.Command(needTool(t, "patch"), fmt.Sprintf("-p%d", strip), "--batch", "--silent", "--no-backup-if-mismatch", "--reject-file=-")
	}
	cmd.Dir = dir
	// patch in POSIX mode (POSIXLY_CORRECT set, even empty) creates and
	// deletes no files: the tool's own defaults.
	env := slices.DeleteFunc(os.Environ(), func(e string) bool { return strings.HasPrefix(e, "POSIXLY_CORRECT=") })
	cmd.Env = append(env, "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
	cmd.Stdin = strings.NewReader(diff)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, string(out), false
	}
	return treeOf(t, dir), "", true
}

// gitDiff is git diff's diff from before to after (a repository with
// before committed, then after staged).
func gitDiff(t *testing.T, before, after map[string]string) string {
	t.Helper()
	dir := writeTree(t, before)
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(needTool(t, "git"), append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "core.autocrlf=false"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "--allow-empty", "-m", "before")
	for p := range before {
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
			t.Fatal(err)
		}
	}
	for p, c := range after {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("add", "-A")
	return git("diff", "--cached")
}

// gnuDiff runs GNU diff with args in a folder holding files and returns
// its output (exit status 1, differences found, is no error). env is
// added to the environment (TZ=...).
func gnuDiff(t *testing.T, files map[string]string, env []string, args ...string) string {
	t.Helper()
	dir := writeTree(t, files)
	cmd := exec.Command(needTool(t, "diff"), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		t.Fatalf("diff %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// prefixed returns files with each path under folder dir ("a", "b"), as
// diff -ruN a b compares them.
func prefixed(dir string, files map[string]string) map[string]string {
	m := map[string]string{}
	for p, c := range files {
		m[dir+"/"+p] = c
	}
	return m
}

// peerCase is a diff that symedit, git apply and patch all apply, to the
// same bytes.
type peerCase struct {
	name   string
	before map[string]string
	diff   string
	strip  int      // the -p of git apply and patch
	peers  []string // "git", "patch": the peers that read this diff
	want   map[string]string
}

// runPeerCases applies each case with symedit and with each peer, and
// compares every resulting file with want, byte for byte.
func runPeerCases(t *testing.T, cases []peerCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, res, err := symeditApply(t, c.before, c.diff, false)
			if err != nil {
				t.Fatalf("symedit apply: %v\n%+v\n%s", err, res, c.diff)
			}
			sameTree(t, "symedit apply", got, c.want)
			for _, peer := range c.peers {
				got, out, ok := peerApply(t, peer, c.before, c.diff, c.strip)
				if !ok {
					t.Errorf("%s refused the diff: %s\n%s", peer, out, c.diff)
					continue
				}
				sameTree(t, peer, got, c.want)
			}
		})
	}
}

// finalEOLCases are contents before and after a change that adds or
// removes the file's final line ending ("\ No newline at end of file" on
// one side only), with other changes or none, LF and CRLF.
var finalEOLCases = []struct{ name, before, after string }{
	{"adds the final line ending", "a\nb", "a\nb\n"},
	{"changes the last line, which has none", "a\nb", "a\nB"},
	{"changes the first line of a file without one", "a\nb\nc\nd\ne\nf", "A\nb\nc\nd\ne\nf"},
	{"removes the final line ending", "a\nb\n", "a\nb"},
	{"changes the last line and removes it", "a\nb\nc\n", "a\nb\nC"},
	{"changes lines and adds it", "a\nb\nc", "a\nB\nc\nd\n"},
	{"one line, adds it", "x", "x\n"},
	{"one line, removes it", "x\n", "x"},
	{"CRLF, removes it", "a\r\nb\r\n", "a\r\nb"},
	{"CRLF, adds it", "a\r\nb", "a\r\nb\r\n"},
	{"an empty line before the last, adds it", "a\n\nb", "a\n\nb\n"},
	{"removes it after an empty line", "a\n\n", "a\n\nb"},
	{"removes lines up to an unterminated last line", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n"},
	{"two hunks, the second adds it", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12", "one\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"},
}

// TestApplyFinalLineEndingAsPeers: a unified or git diff that adds or
// removes the file's final line ending, as git diff and GNU diff -u write
// it ("\ No newline at end of file" on one side only), applies, and
// leaves exactly the bytes git apply and patch leave.
func TestApplyFinalLineEndingAsPeers(t *testing.T) {
	var cases []peerCase
	for _, c := range finalEOLCases {
		before, after := map[string]string{"f.txt": c.before}, map[string]string{"f.txt": c.after}
		// git diff's form.
		cases = append(cases, peerCase{name: "git diff, " + c.name, before: before, diff: gitDiff(t, before, after),
			strip: 1, peers: []string{"git", "patch"}, want: after})
		// GNU diff -u's form, with timestamps (diff -ru a b).
		cases = append(cases, peerCase{name: "diff -u, " + c.name, before: before,
			diff:  gnuDiff(t, map[string]string{"a/f.txt": c.before, "b/f.txt": c.after}, nil, "-ru", "a", "b"),
			strip: 1, peers: []string{"git", "patch"}, want: after})
	}
	// A file created, and one deleted, without a final line ending (git
	// diff's --- /dev/null and +++ /dev/null).
	created := map[string]string{"new.txt": "x\ny"}
	cases = append(cases, peerCase{name: "git diff, creates a file without a final line ending", before: map[string]string{},
		diff: gitDiff(t, map[string]string{}, created), strip: 1, peers: []string{"git", "patch"}, want: created})
	cases = append(cases, peerCase{name: "git diff, deletes a file without a final line ending", before: created,
		diff: gitDiff(t, created, map[string]string{}), strip: 1, peers: []string{"git", "patch"}, want: map[string]string{}})
	runPeerCases(t, cases)
}

// TestApplyZeroContextAsPeers: a hunk without context lines (diff -U0)
// applies where its line numbers say when that is the end of the file,
// as git apply (without --unidiff-zero) and patch apply it; a hunk
// against an empty old file (@@ -0,0, as diff -u writes a new file
// without /dev/null, and as symedit's own dry runs wrote one before they
// said /dev/null) creates the file, or fills an empty one.
func TestApplyZeroContextAsPeers(t *testing.T) {
	five := "1\n2\n3\n4\n5\n"
	var cases []peerCase
	for _, c := range []struct{ name, before, after string }{
		{"appends at the end", five, five + "x\ny\n"},
		{"replaces the last lines", five, "1\n2\n3\nz\n"},
		{"deletes the last line", five, "1\n2\n3\n4\n"},
		{"replaces the last line, adding the final line ending", "1\n2\n3", "1\n2\nthree\n"},
		{"fills an empty file", "", "a\nb\n"},
	} {
		before, after := map[string]string{"f.txt": c.before}, map[string]string{"f.txt": c.after}
		// GNU diff -U0.
		d := gnuDiff(t, map[string]string{"a/f.txt": c.before, "b/f.txt": c.after}, nil, "-U0", "a/f.txt", "b/f.txt")
		cases = append(cases, peerCase{name: "diff -U0, " + c.name, before: before, diff: d, strip: 1, peers: []string{"git", "patch"}, want: after})
	}
	// What symedit's dry run printed for a new file before it wrote
	// --- /dev/null: git apply and patch create the file from it.
	cases = append(cases, peerCase{name: "symedit's old new-file diff", before: map[string]string{},
		diff:  "--- a/newdir/helper.go\n+++ b/newdir/helper.go\n@@ -0,0 +1,3 @@\n+package newdir\n+\n+func helper() {}\n",
		strip: 1, peers: []string{"git", "patch"}, want: map[string]string{"newdir/helper.go": "package newdir\n\nfunc helper() {}\n"}})
	runPeerCases(t, cases)
}

// TestApplyDiffNCreatesAndDeletes: diff -ruN a b writes a file that is
// only in b as a hunk against an empty file dated 1970-01-01 (the Unix
// epoch, in the local time zone), and one only in a as a hunk removing
// every line, dated so on its +++ line. patch (and git apply) create and
// delete those files; so does symedit.
func TestApplyDiffNCreatesAndDeletes(t *testing.T) {
	a := map[string]string{"old.txt": "gone\nsoon\n", "kept.txt": "k\n"}
	b := map[string]string{"new.txt": "x\ny\n", "kept.txt": "k\nK\n", "sub/deep.txt": "d\n"}
	both := maps.Clone(prefixed("a", a))
	maps.Copy(both, prefixed("b", b))
	var cases []peerCase
	for _, tz := range []string{"UTC", "Asia/Kolkata", "America/Los_Angeles"} {
		d := gnuDiff(t, both, []string{"TZ=" + tz}, "-ruN", "a", "b")
		if !strings.Contains(d, "1970-01-01") && !strings.Contains(d, "1969-12-31 16:00:00.000000000 -0800") {
			t.Fatalf("TZ=%s: diff -ruN wrote no epoch timestamp:\n%s", tz, d)
		}
		cases = append(cases, peerCase{name: "TZ=" + tz, before: a, diff: d, strip: 1, peers: []string{"git", "patch"}, want: b})
	}
	runPeerCases(t, cases)
}

// TestApplyTwoNamesAsPatch: GNU diff's names of an edited copy, diff -u
// x.orig x and diff -u x x.new, without git's a/ and b/: GNU patch edits
// the name that exists, and so does symedit (git apply reads such a diff
// as a rename, so only patch is compared).
func TestApplyTwoNamesAsPatch(t *testing.T) {
	before := "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
	after := "def f():\n    return 10\n\n\ndef g():\n    return 2\n"
	var cases []peerCase
	for _, c := range []struct{ name, old, new, target string }{
		{"diff -u x.py.orig x.py", "x.py.orig", "x.py", "x.py"},
		{"diff -u x.py x.py.new", "x.py", "x.py.new", "x.py"},
		{"diff -u src/x.py.orig src/x.py", "src/x.py.orig", "src/x.py", "src/x.py"},
		{"diff -u x.py~ x.py", "x.py~", "x.py", "x.py"},
	} {
		d := gnuDiff(t, map[string]string{c.old: before, c.new: after}, nil, "-u", c.old, c.new)
		cases = append(cases, peerCase{name: c.name, before: map[string]string{c.target: before, "other.py": "o\n"}, diff: d,
			strip: 0, peers: []string{"patch"}, want: map[string]string{c.target: after, "other.py": "o\n"}})
	}
	// diff -N x.py x.py.new with x.py.new missing: the +++ line's epoch
	// date deletes the name that exists.
	d := gnuDiff(t, map[string]string{"x.py": before}, nil, "-Nu", "x.py", "x.py.new")
	cases = append(cases, peerCase{name: "diff -Nu x.py x.py.new, deleting", before: map[string]string{"x.py": before, "other.py": "o\n"}, diff: d,
		strip: 0, peers: []string{"patch"}, want: map[string]string{"other.py": "o\n"}})
	runPeerCases(t, cases)
}

// TestApplyDiffRefusals: each diff below is refused, naming the reason,
// and leaves every file byte-identical, in a dry run and a real one.
func TestApplyDiffRefusals(t *testing.T) {
	five := "1\n2\n3\n4\n5\n"
	files := map[string]string{"f.txt": five, "x.py": "a = 1\n", "x.py.orig": "a = 1\n", "e.txt": "", "noeol.txt": "a\nb"}
	for _, c := range []struct {
		name, reply string
		code        ops.Code
		want        string // in the failed file's or malformed block's reason, or the error
	}{
		// diff -U0 (git apply --unidiff-zero): git apply without the
		// flag appends this insertion at the end, patch inserts it at
		// line 3: refused.
		{"zero context, insertion mid-file", "--- a/f.txt\n+++ b/f.txt\n@@ -3,0 +4,2 @@\n+x\n+y\n",
			ops.CodeApply, "put its new lines after line 3, which is not the end of the file (5 lines)"},
		// diff -U0: a replacement without context in the middle.
		{"zero context, replacement mid-file", "--- a/f.txt\n+++ b/f.txt\n@@ -2,2 +2 @@\n-2\n-3\n+z\n",
			ops.CodeApply, "put its old lines at lines 2-3, which is not the end of the file (5 lines)"},
		// diff -U0: at the end, but the old lines are not there.
		{"zero context at the end, old lines differ", "--- a/f.txt\n+++ b/f.txt\n@@ -4,2 +4 @@\n-4\n-6\n+z\n",
			ops.CodeApply, "line 2 of its old side is not line 5 of the file"},
		// git diff's addition of a final line ending, on a file that
		// has one already.
		{"old side without final line ending, file has one", "--- a/f.txt\n+++ b/f.txt\n@@ -4,2 +4,2 @@\n 4\n-5\n\\ No newline at end of file\n+5\n",
			ops.CodeApply, "the hunk says the file's last line has no line ending"},
		// GNU diff -u x.py.orig x.py where both exist.
		{"two names, both exist", "--- x.py.orig\t2024-01-01 00:00:00.000000000 +0000\n+++ x.py\t2024-01-02 00:00:00.000000000 +0000\n@@ -1 +1 @@\n-a = 1\n+a = 2\n",
			ops.CodeApply, "x.py.orig and x.py both exist"},
		// GNU diff -u y.py y.py.new where neither exists.
		{"two names, neither exists", "--- y.py\n+++ y.py.new\n@@ -1 +1 @@\n-a = 1\n+a = 2\n",
			ops.CodeApply, "neither y.py nor y.py.new exists: the diff of the hunk at reply line 3 names its file y.py on its --- line and y.py.new on its +++ line"},
		// diff -Nu z.py z.py.new deleting, where both names exist.
		{"epoch delete with two names, both exist", "--- x.py\t2026-11-27 04:06:28.798010668 +0000\n+++ x.py.orig\t1970-01-01 00:00:00.000000000 +0000\n@@ -1 +0,0 @@\n-a = 1\n",
			ops.CodeApply, "x.py and x.py.orig both exist"},
		// A name outside the root, on either line.
		{"two names, one outside the root", "--- ../x.py.orig\n+++ x.py\n@@ -1 +1 @@\n-a = 1\n+a = 2\n",
			ops.CodeOutsideRoot, "block 1 (reply line 3)"},
		// diff -N's epoch timestamp on the --- line, onto a file that
		// exists and is not empty (patch: "would create the file ...,
		// which already exists").
		{"epoch create onto an existing file", "--- a/x.py\t1970-01-01 00:00:00.000000000 +0000\n+++ b/x.py\t2024-01-01 00:00:00.000000000 +0000\n@@ -0,0 +1 @@\n+b = 2\n",
			ops.CodeApply, "the file exists and is not empty"},
		// diff -N's epoch timestamp on the +++ line, but the hunk
		// removes only some of the lines.
		{"epoch delete leaving lines", "--- a/f.txt\t2024-01-01 00:00:00.000000000 +0000\n+++ b/f.txt\t1970-01-01 00:00:00.000000000 +0000\n@@ -1,2 +0,0 @@\n-1\n-2\n",
			ops.CodeApply, "its removed lines are not the whole file"},
		// diff -N y.py y.py.new, y.py missing: patch names the new
		// file by the folders it must create.
		{"epoch create with two names", "--- y.py\t1970-01-01 00:00:00.000000000 +0000\n+++ y.py.new\t2026-11-27 04:06:28.798010668 +0000\n@@ -0,0 +1 @@\n+x\n",
			ops.CodeApply, "which name the file it creates gets cannot be told"},
		// Both sides dated at the epoch: no file on either side.
		{"epoch on both sides", "--- a/f.txt\t1970-01-01 00:00:00.000000000 +0000\n+++ b/f.txt\t1970-01-01 00:00:00.000000000 +0000\n@@ -0,0 +1 @@\n+x\n",
			ops.CodeApply, "both say the file does not exist"},
		// @@ -0,0 (an empty old file) onto a file with lines.
		{"empty old file, file has lines", "--- a/f.txt\n+++ b/f.txt\n@@ -0,0 +1 @@\n+x\n",
			ops.CodeApply, "the file exists and is not empty"},
		// A line after the one "\ No newline at end of file" marks.
		{"line after the no-newline marker", "--- a/noeol.txt\n+++ b/noeol.txt\n@@ -1,2 +1,2 @@\n-a\n\\ No newline at end of file\n+A\n b\n",
			ops.CodeApply, "only the file's last line can lack a line ending"},
		// The marker after an empty line: no such line can lack an
		// ending.
		{"no-newline marker after an empty line", "--- a/f.txt\n+++ b/f.txt\n@@ -5 +5,2 @@\n 5\n+\n\\ No newline at end of file\n",
			ops.CodeApply, "marks an empty line"},
	} {
		for _, dry := range []bool{false, true} {
			t.Run(fmt.Sprint(c.name, " dry ", dry), func(t *testing.T) {
				got, res, err := symeditApply(t, files, c.reply, dry)
				sameTree(t, "symedit apply", got, files)
				var oe *ops.Error
				if !errors.As(err, &oe) || oe.Code != c.code || res.OK || res.Written {
					t.Fatalf("error %v, result %+v; want code %s", err, res.Result, c.code)
				}
				var reasons []string
				for _, f := range res.Files {
					reasons = append(reasons, f.Reason)
				}
				for _, m := range res.Malformed {
					reasons = append(reasons, m.Reason)
				}
				reasons = append(reasons, err.Error())
				if !strings.Contains(strings.Join(reasons, "\n"), c.want) {
					t.Errorf("no reason says %q:\n%s", c.want, strings.Join(reasons, "\n"))
				}
			})
		}
	}
}
