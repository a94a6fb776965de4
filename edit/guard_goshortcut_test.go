package edit

import (
	"context"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/symedit/symedit/grammars"
	"github.com/symedit/symedit/internal/goroot"
)

// guardGoSample returns every step-th Go file of Go's source tree under 300
// KB (testdata included: some of those files do not parse), in walk order.
func guardGoSample(t *testing.T, step int) map[string][]byte {
	t.Helper()
	src := goroot.Src()
	files := map[string][]byte{}
	i := 0
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		if i++; i%step != 0 {
			return nil
		}
		b, err := os.ReadFile(path)
		if err == nil && len(b) < 300_000 {
			files[path] = b
		}
		return nil
	})
	if err != nil || len(files) == 0 {
		t.Skip("no GOROOT source:", err)
	}
	return files
}

// TestGuardGoShortcut checks the Go shortcut (issue 15): when go/parser
// accepts the content after the edit, tree-sitter does not parse at all,
// and the shortcut never accepts an edit the full check (tree-sitter's
// parses too) refuses. Over a sample of Go's source tree, each file gets a
// comment line (valid), edits that break it (a brace removed, a
// parenthesis doubled, a statement at top level) and random edits, and
// each of these is also undone by a whole write (an edit that fixes a
// file with errors): the
// refusal, and every new problem, is the same with and without the
// shortcut; where the shortcut is taken the full check has no new problem
// either (only notes); where it is not, the reports are equal.
func TestGuardGoShortcut(t *testing.T) {
	step := 80
	if testing.Short() {
		step = 800
	}
	files := guardGoSample(t, step)
	lang, err := grammars.ByName("go")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(15, 3))
	var skipped, refused, brokenBefore int
	type edit struct {
		before, after []byte
		edits         []Edit // nil: a whole write
	}
	for path, content := range files {
		var cases []edit
		for _, edits := range [][]Edit{
			guardCommentLines(content, "go", 2),
			guardBreakAt(content, "}", "", 0.5),
			guardBreakAt(content, "(", "((", 0.4),
			guardBreakAt(content, "\nfunc ", "\nx := 1\nfunc ", 0.3),
			guardRandomEdits(r, content),
			guardRandomEdits(r, content),
		} {
			if len(edits) == 0 {
				continue
			}
			after, err := Apply(content, edits)
			if err != nil {
				t.Fatal(err)
			}
			// The edit, and the whole write that undoes it (a file with
			// errors before, fixed).
			cases = append(cases, edit{content, after, edits}, edit{after, content, nil})
		}
		for _, c := range cases {
			before, after, edits := c.before, c.after, c.edits
			fast, err := CheckSyntax(context.Background(), lang, before, after, edits, GuardOptions{})
			if err != nil {
				t.Fatal(err)
			}
			full, err := CheckSyntax(context.Background(), lang, before, after, edits, GuardOptions{goTree: true})
			if err != nil {
				t.Fatal(err)
			}
			if !fast.Checked || !full.Checked {
				t.Fatalf("%s %+v: not checked: %q, %q", path, edits, fast.Skipped, full.Skipped)
			}
			if fast.Rejects(CheckStrict) != full.Rejects(CheckStrict) || !reflect.DeepEqual(fast.New, full.New) {
				t.Errorf("%s %+v:\nshortcut %+v\nfull     %+v", path, edits, fast, full)
				continue
			}
			if full.treeSkipped {
				t.Fatalf("%s: the full check skipped tree-sitter", path)
			}
			if fast.treeSkipped {
				skipped++
				if len(guardGoErrors(after)) > 0 || fast.After != 0 || len(fast.Notes) > 0 || fast.incremental {
					t.Errorf("%s %+v: shortcut taken for content go/parser refuses, or with tree-sitter's results: %+v", path, edits, fast)
				}
				if fast.Before != len(guardGoErrors(before)) {
					t.Errorf("%s: Before = %d, want go/parser's %d errors", path, fast.Before, len(guardGoErrors(before)))
				}
				if fast.Before > 0 {
					brokenBefore++
				}
				continue
			}
			if !reflect.DeepEqual(fast, full) {
				t.Errorf("%s %+v: go/parser refuses, yet the reports differ:\nshortcut %+v\nfull     %+v", path, edits, fast, full)
			}
			if fast.Rejects(CheckStrict) {
				refused++
			}
		}
	}
	t.Logf("%d files: %d edits took the shortcut (%d of a file go/parser refused), %d were refused", len(files), skipped, brokenBefore, refused)
	if skipped == 0 || refused == 0 || brokenBefore == 0 {
		t.Errorf("the sample does not exercise every path: %d shortcuts (%d of a file with errors), %d refusals", skipped, brokenBefore, refused)
	}
}
