package diff_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/symedit/symedit/diff"
	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/internal/testfile"
	"github.com/symedit/symedit/reply"
)

// diffCase is an (old, new) pair whose diff is golden and must apply with
// git apply and patch -p1.
type diffCase struct {
	name     string // golden file testdata/diff/<name>.diff
	path     string // the file's path inside the repository
	old, new string
}

func syntheticDiffCases() []diffCase {
	const ten = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"
	const bom = "\xEF\xBB\xBF"
	return []diffCase{
		{"middle", "f.txt", ten, "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n"},
		{"first_line", "f.txt", ten, "one\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"},
		{"last_line", "f.txt", ten, "1\n2\n3\n4\n5\n6\n7\n8\n9\nten\n"},
		{"two_hunks", "f.txt", ten + ten, "1\nTWO\n3\n4\n5\n6\n7\n8\n9\n10\n1\n2\n3\n4\n5\n6\n7\n8\nNINE\n10\n"},
		{"add_final_newline", "f.txt", "1\n2\n3\n4\n5", "1\n2\n3\n4\n5\n"},
		{"remove_final_newline", "f.txt", "1\n2\n3\n4\n5\n", "1\n2\n3\n4\n5"},
		{"both_without_final_newline", "f.txt", "1\n2\n3\n4\n5", "1\n2\n3\nfour\n5"},
		{"both_without_final_newline_last_changed", "f.txt", "1\n2\n3\n4\n5", "1\n2\n3\n4\nfive"},
		{"append_without_final_newline", "f.txt", "1\n2\n3", "1\n2\n3\n4"},
		{"crlf", "f.txt", "1\r\n2\r\n3\r\n4\r\n5\r\n", "1\r\n2\r\nthree\r\n3.5\r\n4\r\n5\r\n"},
		{"crlf_without_final_newline", "f.txt", "1\r\n2\r\n3", "1\r\n2\r\nthree"},
		{"bom", "f.txt", bom + "1\n2\n3\n", bom + "1\ntwo\n3\n"},
		{"bom_first_line", "f.txt", bom + "1\n2\n3\n", bom + "one\n2\n3\n"},
		{"no_final_newline_far_from_end", "f.txt", strings.TrimSuffix(ten, "\n"), strings.Replace(strings.TrimSuffix(ten, "\n"), "2\n", "two\n", 1)},
		{"cr_only", "f.txt", "1\r2\r3\r", "1\rtwo\r3\r"},
		{"empty_old", "f.txt", "", "new\nfile\ncontent\n"},
		{"empty_old_without_final_newline", "f.txt", "", "new"},
		{"delete_everything", "f.txt", "1\n2\n3\n", ""},
		{"subdir", "dir/sub/f.go", "package p\n\nfunc f() {}\n", "package p\n\nfunc f() { return }\n"},
	}
}

// realDiffCases edits real fixtures with ReplaceLines at several places:
// replace a line, insert lines, delete lines, edit near the end.
func realDiffCases(t *testing.T) []diffCase {
	var cases []diffCase
	for _, path := range testfile.RealSources() {
		raw := testfile.Read(t, path)
		doc, err := edit.NewDocument(path, raw)
		if err != nil {
			t.Fatal(err)
		}
		n := doc.LineCount()
		type op struct {
			first, last int
			lines       []string
		}
		ops := []op{
			{n / 10, n / 10, []string{doc.Line(n/10) + " // replaced"}},
			{n / 4, n/4 - 1, []string{"inserted line 1", "", "inserted line 3"}},
			{n / 3, n/3 + 2, nil},
			{n / 2, n/2 + 1, []string{"replaced two lines by one"}},
			{2 * n / 3, 2*n/3 + 5, nil},
			{n - 2, n - 2, []string{"edited near the end", doc.Line(n - 2)}},
		}
		var edits []edit.Edit
		for _, o := range ops {
			e, err := doc.ReplaceLines(o.first, o.last, o.lines)
			if err != nil {
				t.Fatal(err)
			}
			edits = append(edits, e)
		}
		out, err := edit.Apply(doc.Content, edits)
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(path)
		cases = append(cases, diffCase{
			name: "real_" + strings.ReplaceAll(base, ".", "_"),
			path: "src/" + base,
			old:  string(raw),
			new:  string(out),
		})
	}
	return cases
}

func TestDiffEqual(t *testing.T) {
	for _, s := range []string{"", "a\n", "a\r\nb"} {
		if d := diff.Diff("f", []byte(s), []byte(s)); d != "" {
			t.Errorf("Diff of equal contents %q = %q, want \"\"", s, d)
		}
	}
}

func TestDiffHeaders(t *testing.T) {
	d := diff.Diff("./pkg/f.go", []byte("a\n"), []byte("b\n"))
	want := "--- a/pkg/f.go\n+++ b/pkg/f.go\n@@ -1 +1 @@\n-a\n+b\n"
	if d != want {
		t.Errorf("Diff = %q, want %q", d, want)
	}
}

// TestDiffApplies compares every diff with its golden file and applies it
// to the old content with git apply and with patch -p1: both must produce
// the new content byte for byte.
func TestDiffApplies(t *testing.T) {
	gitPath := requireTool(t, "git")
	patchPath := requireTool(t, "patch")
	cases := append(syntheticDiffCases(), realDiffCases(t)...)
	seen := map[string]bool{}
	for _, c := range cases {
		seen[c.name+".diff"] = true
		t.Run(c.name, func(t *testing.T) {
			d := diff.Diff(c.path, []byte(c.old), []byte(c.new))
			if d == "" {
				t.Fatal("empty diff for different contents")
			}
			golden := filepath.Join("testdata", "diff", c.name+".diff")
			if testfile.Update() {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(d), 0o644); err != nil {
					t.Fatal(err)
				}
			} else if want, err := os.ReadFile(golden); err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			} else if string(want) != d {
				t.Errorf("diff differs from %s (run go test -update and review):\n got:\n%s\nwant:\n%s", golden, d, want)
			}

			dir := t.TempDir()
			git(t, gitPath, dir, "", "init", "-q")
			file := filepath.Join(dir, filepath.FromSlash(c.path))
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile := func() {
				if err := os.WriteFile(file, []byte(c.old), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			check := func(tool string) {
				got, err := os.ReadFile(file)
				if err != nil {
					t.Fatalf("after %s: %v", tool, err)
				}
				if !bytes.Equal(got, []byte(c.new)) {
					t.Errorf("%s produced\n%q\nwant\n%q", tool, got, c.new)
				}
			}

			writeFile()
			git(t, gitPath, dir, d, "apply", "--check", "--whitespace=nowarn", "-")
			git(t, gitPath, dir, d, "apply", "--whitespace=nowarn", "-")
			check("git apply")

			writeFile()
			cmd := exec.Command(patchPath, "-p1", "--quiet", "--no-backup-if-mismatch")
			cmd.Dir = dir
			cmd.Stdin = strings.NewReader(d)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("patch -p1: %v\n%s\ndiff:\n%s", err, out, d)
			}
			check("patch -p1")
		})
	}
	if !testfile.Update() {
		// Every golden file belongs to a case.
		files, _ := filepath.Glob(filepath.Join("testdata", "diff", "*.diff"))
		for _, f := range files {
			if !seen[filepath.Base(f)] {
				t.Errorf("stale golden file %s", f)
			}
		}
	}
}

// TestDiffPathWithSpace: git diff ends the "---" and "+++" lines with a tab
// when the name holds a space, since patch otherwise stops the name at the
// space. Diff must do the same for patch -p1 to accept its output.
func TestDiffPathWithSpace(t *testing.T) {
	patchPath := requireTool(t, "patch")
	dir := t.TempDir()
	file := filepath.Join(dir, "my dir", "my file.txt")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("a\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := diff.Diff("my dir/my file.txt", []byte("a\nb\n"), []byte("a\nB\n"))
	cmd := exec.Command(patchPath, "-p1", "--quiet", "--no-backup-if-mismatch", "--batch")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(d)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("Diff wrote %q; patch -p1 fails: %v\n%s", strings.SplitN(d, "\n", 2)[0], err, out)
	}
	if got, _ := os.ReadFile(file); string(got) != "a\nB\n" {
		t.Errorf("patch -p1 produced %q", got)
	}
}

// git runs git in dir with stdin, isolated from the user's and the system's
// configuration (core.autocrlf or apply.whitespace would change results).
func git(t *testing.T, gitPath, dir, stdin string, args ...string) {
	t.Helper()
	cmd := exec.Command(gitPath, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "HOME="+dir)
	cmd.Stdin = strings.NewReader(stdin)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s\ninput:\n%s", strings.Join(args, " "), err, out, stdin)
	}
}

// BenchmarkDiff diffs about 1 MB of real source (every fixture under
// testdata/src, concatenated and repeated) with a line changed every 500
// lines. In "distinct", lines longer than a few characters carry their copy
// number, as in a large real file where most lines occur once; in
// "repeated" the copies are identical, so every line occurs dozens of
// times, the worst case for difflib's matcher.
func BenchmarkDiff(b *testing.B) {
	var src []string
	for _, path := range append(testfile.RealSources(), "../testdata/src/typescript/scheduler.ts", "../testdata/src/python/contextlib_excerpt.py", "../testdata/src/go/atomic_type.go") {
		src = append(src, strings.SplitAfter(strings.TrimSuffix(string(testfile.Read(b, path)), "\n"), "\n")...)
	}
	for _, distinct := range []bool{true, false} {
		name := "repeated"
		if distinct {
			name = "distinct"
		}
		b.Run(name, func(b *testing.B) {
			var lines []string
			size := 0
			for copyN := 0; size < 1<<20; copyN++ {
				for _, l := range src {
					if distinct && len(strings.TrimSpace(l)) > 3 {
						l = strings.TrimSuffix(l, "\n") + fmt.Sprintf(" %d\n", copyN)
					}
					lines = append(lines, l)
					size += len(l)
				}
			}
			oldContent := []byte(strings.Join(lines, ""))
			for i := 250; i < len(lines); i += 500 {
				lines[i] = "\t// changed\n"
			}
			newContent := []byte(strings.Join(lines, ""))
			b.SetBytes(int64(len(oldContent)))
			for b.Loop() {
				if diff.Diff("big.go", oldContent, newContent) == "" {
					b.Fatal("empty diff")
				}
			}
		})
	}
}

// TestGitName checks git's quoting of file names in diff headers (quote.c's
// quote_c_style with core.quotePath off): a control byte, a double quote
// or a backslash quotes the whole name; a space or UTF-8 does not.
func TestGitName(t *testing.T) {
	tests := []struct{ prefix, name, want, header string }{
		{"a/", "src/x.go", "a/src/x.go", "a/src/x.go"},
		{"a/", "my file.go", "a/my file.go", "a/my file.go\t"},
		{"b/", "é/ü.go", "b/é/ü.go", "b/é/ü.go"},
		{"a/", "tab\there.go", `"a/tab\there.go"`, `"a/tab\there.go"`},
		{"a/", "new\nline.go", `"a/new\nline.go"`, `"a/new\nline.go"`},
		{"a/", `we"ird.go`, `"a/we\"ird.go"`, `"a/we\"ird.go"`},
		{"", `back\slash.go`, `"back\\slash.go"`, `"back\\slash.go"`},
		{"a/", "ctl\x01 del\x7f.go", `"a/ctl\001 del\177.go"`, `"a/ctl\001 del\177.go"`},
		{"a/", "\a\b\v\f\r.go", `"a/\a\b\v\f\r.go"`, `"a/\a\b\v\f\r.go"`},
	}
	for _, tt := range tests {
		if got := diff.GitName(tt.prefix, tt.name); got != tt.want {
			t.Errorf("GitName(%q, %q) = %s, want %s", tt.prefix, tt.name, got, tt.want)
		}
		if got := diff.HeaderName(tt.prefix, tt.name); got != tt.header {
			t.Errorf("HeaderName(%q, %q) = %q, want %q", tt.prefix, tt.name, got, tt.header)
		}
	}
}

// TestDiffGitNames applies diffs of files whose names need git's quoting
// (a tab, a line ending, a double quote, a backslash, a control byte) or
// none (a space, UTF-8) with git apply and patch -p1, and reads their
// names back with reply's parser: every tool finds the file.
func TestDiffGitNames(t *testing.T) {
	gitPath := requireTool(t, "git")
	patchPath := requireTool(t, "patch")
	names := []string{"tab\there.txt", "new\nline.txt", `we"ird.txt`, `back\slash.txt`, "ctl\x01.txt", "sp ace.txt", "é.txt", "dir with space/and\ttab.txt"}
	var all strings.Builder
	for _, n := range names {
		d := diff.Diff(n, []byte("a\nb\n"), []byte("a\nB\n"))
		all.WriteString(d)
		res := reply.Parse(d)
		if len(res.Blocks) != 1 || res.Blocks[0].Path != n {
			t.Errorf("reply reads the diff of %q as %+v (malformed %+v)", n, res.Blocks, res.Malformed)
		}
	}
	for _, tool := range []string{"git apply", "patch -p1"} {
		dir := t.TempDir()
		for _, n := range names {
			if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(n)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, n), []byte("a\nb\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if tool == "git apply" {
			git(t, gitPath, dir, all.String(), "apply", "--whitespace=nowarn", "-")
		} else {
			cmd := exec.Command(patchPath, "-p1", "--quiet", "--no-backup-if-mismatch", "--batch")
			cmd.Dir = dir
			cmd.Stdin = strings.NewReader(all.String())
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("patch -p1: %v\n%s\ndiff:\n%s", err, out, all.String())
			}
		}
		for _, n := range names {
			if got, err := os.ReadFile(filepath.Join(dir, n)); err != nil || string(got) != "a\nB\n" {
				t.Errorf("%s left %q as %q (%v)", tool, n, got, err)
			}
		}
	}
}

// requireTool returns the path of the command name, failing the test when
// it is missing: make deps installs git and patch.
func requireTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s is required (make deps installs it): %v", name, err)
	}
	return p
}
