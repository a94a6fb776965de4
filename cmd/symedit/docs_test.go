package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The documentation's examples are tested by the rule docs/README.md
// states: in README.md and docs/*.md, every fenced block opened with
// ```sh is run, command by command, in a fresh copy of the repository's
// testdata folder, with symedit on PATH; every other fence (text, json,
// toml, go, a bare one) is not. Keep this comment, shExamples and
// docs/README.md's "Tested examples" in step.

// repoRoot is the repository's top folder, seen from cmd/symedit.
const repoRoot = "../.."

// docExample is one command of a ```sh block.
type docExample struct {
	line int    // the command's first line in its file, 1-based
	cmd  string // the command, continuation lines included
	exit int    // the exit status it must have: 0, or what a "# exits N" line before it says
}

// docBlock is one ```sh block of a Markdown file.
type docBlock struct {
	file     string // relative to the repository's top folder
	line     int    // the opening fence's line, 1-based
	examples []docExample
}

// docFiles returns README.md and docs/*.md, relative to the repository's
// top folder.
func docFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatal("no docs/*.md files")
	}
	files := []string{"README.md"}
	for _, d := range docs {
		rel, err := filepath.Rel(repoRoot, d)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, filepath.ToSlash(rel))
	}
	return files
}

var (
	fenceLine = regexp.MustCompile("^(`{3,})\\s*([^`\\s]*)")
	exitsLine = regexp.MustCompile(`^#\s*exits\s+([0-9]+)\s*$`)
)

// fence is one fenced code block of a Markdown file.
type fence struct {
	info  string   // the opening line's first word: "sh", "json", "" ...
	line  int      // the opening line, 1-based
	lines []string // the lines between the fences
}

// fences returns the fenced code blocks of a Markdown text, fences opened
// at the start of a line; a block ends at a line of at least as many
// backticks and nothing else, so a ```` block may hold ``` lines.
func fences(text string) ([]fence, error) {
	var out []fence
	var open *fence
	var ticks string
	for i, l := range strings.Split(text, "\n") {
		if open == nil {
			if m := fenceLine.FindStringSubmatch(l); m != nil {
				open = &fence{info: m[2], line: i + 1}
				ticks = m[1]
			}
			continue
		}
		if t := strings.TrimRight(l, " "); strings.HasPrefix(t, ticks) && strings.Trim(t, "`") == "" {
			out = append(out, *open)
			open = nil
			continue
		}
		open.lines = append(open.lines, l)
	}
	if open != nil {
		return nil, fmt.Errorf("line %d: a fence that is never closed", open.line)
	}
	return out, nil
}

// shExamples returns the commands of a ```sh block starting at line first
// (its first line's number). A line ending with \ or | goes on on the
// next line. A block with lines starting with "$ " is a transcript: only
// those are commands, the lines after them are output (not compared).
// Blank lines and comments are skipped; "# exits N" says the next command
// must exit N. Commands whose first word is make are not run: CI runs the
// make targets, and make test would run this test again.
func shExamples(lines []string, first int) ([]docExample, error) {
	transcript := false
	for _, l := range lines {
		if strings.HasPrefix(l, "$ ") {
			transcript = true
		}
	}
	var out []docExample
	exit := 0
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		trimmed := strings.TrimSpace(l)
		if m := exitsLine.FindStringSubmatch(trimmed); m != nil {
			exit, _ = strconv.Atoi(m[1])
			continue
		}
		if transcript {
			if !strings.HasPrefix(l, "$ ") {
				continue
			}
			l = strings.TrimPrefix(l, "$ ")
		} else if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		ex := docExample{line: first + i, cmd: l, exit: exit}
		exit = 0
		for continued(l) {
			if i+1 == len(lines) {
				return nil, fmt.Errorf("line %d: the command goes on after the block's end", first+i)
			}
			i++
			l = lines[i]
			ex.cmd += "\n" + l
		}
		if strings.Fields(ex.cmd)[0] == "make" {
			continue
		}
		out = append(out, ex)
	}
	if exit != 0 {
		return nil, fmt.Errorf("a block ends with \"# exits %d\" and no command after it", exit)
	}
	return out, nil
}

// continued reports whether a shell line goes on on the next line.
func continued(l string) bool {
	l = strings.TrimRight(l, " \t")
	return strings.HasSuffix(l, "\\") || strings.HasSuffix(l, "|") || strings.HasSuffix(l, "&&")
}

// docShBlocks returns every ```sh block of README.md and docs/*.md.
func docShBlocks(t *testing.T) []docBlock {
	t.Helper()
	var blocks []docBlock
	for _, file := range docFiles(t) {
		text, err := os.ReadFile(filepath.Join(repoRoot, file))
		if err != nil {
			t.Fatal(err)
		}
		fs, err := fences(string(text))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, f := range fs {
			if f.info != "sh" {
				continue
			}
			exs, err := shExamples(f.lines, f.line+1)
			if err != nil {
				t.Fatalf("%s:%d: %v", file, f.line, err)
			}
			if len(exs) > 0 {
				blocks = append(blocks, docBlock{file: file, line: f.line, examples: exs})
			}
		}
	}
	return blocks
}

// TestDocExamples runs every command of every ```sh block of README.md and
// docs/*.md with bash, in a fresh copy of the repository's testdata folder
// (named testdata, so that the examples' paths are the repository's), with
// symedit (this test binary, which TestMain puts on PATH) and a cache folder
// of its own; a command must exit with the status its block says, 0 unless
// a "# exits N" line comes before it. The commands of one block run in
// order in one copy, so a block may edit a file and then undo the edit.
func TestDocExamples(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("the documentation's examples run with bash: %v", err)
	}
	testdata, err := filepath.Abs(filepath.Join(repoRoot, "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := docShBlocks(t)
	perFile, total := map[string]int{}, 0
	for _, b := range blocks {
		perFile[b.file] += len(b.examples)
		total += len(b.examples)
	}
	if perFile["README.md"] < 3 {
		t.Errorf("README.md has %d tested commands, want at least the quick start's 3", perFile["README.md"])
	}
	for _, b := range blocks {
		t.Run(fmt.Sprintf("%s:%d", b.file, b.line), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if err := os.CopyFS(filepath.Join(dir, "testdata"), os.DirFS(testdata)); err != nil {
				t.Fatal(err)
			}
			var env []string
			for _, kv := range os.Environ() {
				if !strings.HasPrefix(kv, "SYMEDIT_") {
					env = append(env, kv)
				}
			}
			env = append(env, "SYMEDIT_CACHE_DIR="+filepath.Join(dir, ".cache"))
			for _, ex := range b.examples {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				cmd := exec.CommandContext(ctx, bash, "-o", "pipefail", "-c", ex.cmd)
				cmd.Dir = dir
				cmd.Env = env
				var out bytes.Buffer
				cmd.Stdout = &out
				cmd.Stderr = &out
				err := cmd.Run()
				cancel()
				got := 0
				var ee *exec.ExitError
				switch {
				case errors.As(err, &ee):
					got = ee.ExitCode()
				case err != nil:
					t.Fatalf("%s:%d: %v", b.file, ex.line, err)
				}
				if got != ex.exit {
					t.Errorf("%s:%d: exit status %d, want %d (a command that must fail says so with a \"# exits N\" line before it)\n$ %s\n%s",
						b.file, ex.line, got, ex.exit, ex.cmd, out.String())
				}
			}
		})
	}
	t.Logf("%d commands in %d blocks: %v", total, len(blocks), perFile)
}

// TestShExamples checks the rule's reading of a block: transcripts,
// continuation lines, "# exits N", comments and make lines.
func TestShExamples(t *testing.T) {
	for _, tc := range []struct {
		name  string
		block string
		want  []docExample
	}{
		{"plain", "symedit version\n# a comment\n\nsymedit help", []docExample{{line: 1, cmd: "symedit version"}, {line: 4, cmd: "symedit help"}}},
		{"continued", "echo x |\n  symedit edit - \\\n  more\nsymedit version", []docExample{{line: 1, cmd: "echo x |\n  symedit edit - \\\n  more"}, {line: 4, cmd: "symedit version"}}},
		{"exits", "# exits 1\nsymedit chunk a b\nsymedit version", []docExample{{line: 2, cmd: "symedit chunk a b", exit: 1}, {line: 3, cmd: "symedit version"}}},
		{"transcript", "# exits 2\n$ symedit nope\nsymedit: no such command\n$ symedit version\nv1", []docExample{{line: 2, cmd: "symedit nope", exit: 2}, {line: 4, cmd: "symedit version"}}},
		{"make", "make demo   # builds\nmake test\nsymedit version", []docExample{{line: 3, cmd: "symedit version"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := shExamples(strings.Split(tc.block, "\n"), 1)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
	for _, bad := range []string{"symedit x |", "symedit version\n# exits 1"} {
		if _, err := shExamples(strings.Split(bad, "\n"), 1); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

var (
	mdLink      = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	headingLine = regexp.MustCompile(`^#{1,6} (.*)$`)
	notInAnchor = regexp.MustCompile(`[^\p{L}\p{N} _-]`)
)

// anchors returns the anchors GitHub gives a Markdown text's headings:
// lower case, punctuation dropped, spaces made hyphens, a repeated one
// numbered -1, -2, ...
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	inFence := ""
	for _, l := range strings.Split(text, "\n") {
		if m := fenceLine.FindStringSubmatch(l); m != nil && (inFence == "" || strings.HasPrefix(l, inFence) && strings.Trim(strings.TrimSpace(l), "`") == "") {
			if inFence == "" {
				inFence = m[1]
			} else {
				inFence = ""
			}
			continue
		}
		if inFence != "" {
			continue
		}
		m := headingLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		a := strings.ReplaceAll(notInAnchor.ReplaceAllString(strings.ToLower(strings.TrimSpace(m[1])), ""), " ", "-")
		base := a
		for n := 1; out[a]; n++ {
			a = base + "-" + strconv.Itoa(n)
		}
		out[a] = true
	}
	return out
}

// withoutFences returns text with its fenced blocks' lines blanked.
func withoutFences(text string) string {
	fs, _ := fences(text)
	lines := strings.Split(text, "\n")
	for _, f := range fs {
		for i := range f.lines {
			lines[f.line+i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// TestDocLinks checks every relative link of README.md and docs/*.md:
// the file or folder it names exists, and its #anchor is a heading of the
// Markdown file it names (or of the file itself).
func TestDocLinks(t *testing.T) {
	texts := map[string]string{}
	read := func(file string) string {
		if s, ok := texts[file]; ok {
			return s
		}
		b, err := os.ReadFile(filepath.Join(repoRoot, file))
		if err != nil {
			t.Fatal(err)
		}
		texts[file] = string(b)
		return string(b)
	}
	links := 0
	for _, file := range docFiles(t) {
		for _, m := range mdLink.FindAllStringSubmatch(withoutFences(read(file)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			links++
			path, anchor, _ := strings.Cut(target, "#")
			linked := file
			if path != "" {
				linked = filepath.ToSlash(filepath.Join(filepath.Dir(file), path))
				if _, err := os.Stat(filepath.Join(repoRoot, linked)); err != nil {
					t.Errorf("%s: link %s: %v", file, target, err)
					continue
				}
			}
			if anchor != "" && strings.HasSuffix(linked, ".md") && !anchors(read(linked))[anchor] {
				t.Errorf("%s: link %s: %s has no heading with anchor #%s", file, target, linked, anchor)
			}
		}
	}
	if links == 0 {
		t.Error("no relative links found")
	}
}

// TestREADMEGoVersion checks that the README asks for the Go version
// go.mod's go line names.
func TestREADMEGoVersion(t *testing.T) {
	mod, err := os.ReadFile(filepath.Join(repoRoot, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go ([0-9.]+)$`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "Go " + string(m[1]) + " or later"; !bytes.Contains(readme, []byte(want)) {
		t.Errorf("README.md does not say %q (go.mod's go line)", want)
	}
}
