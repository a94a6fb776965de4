package ops_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/symedit/symedit/ops"
)

// commentOpeners are the prefixes that begin a line comment or open a
// block comment in the fixtures' languages, by file extension: the
// test's own reading of which lines above a symbol are its comment.
var commentOpeners = map[string][]string{
	".py": {"#"}, ".rb": {"#"},
	".go": {"//"}, ".rs": {"//"}, ".java": {"//", "/*"}, ".ts": {"//", "/*"}, ".tsx": {"//", "/*"},
	".c": {"//", "/*"}, ".h": {"//", "/*"}, ".cc": {"//", "/*"}, ".cpp": {"//", "/*"}, ".hpp": {"//", "/*"},
	".cs": {"//", "/*"}, ".php": {"//", "/*"},
}

// docAbove returns the 0-based index of the first line of the comment
// block directly above lines[first] (line comments, or a block comment
// whose every line begins with "/*", "*" or "*/"), or -1 when there is
// none or it is of another shape.
func docAbove(lines []string, first int, openers []string) int {
	at := first
	for at > 0 {
		t := strings.TrimSpace(lines[at-1])
		if t == "" {
			break
		}
		line := false
		for _, o := range openers {
			line = line || strings.HasPrefix(t, o)
		}
		if !line && !(strings.HasPrefix(t, "*") && at < first) {
			break
		}
		at--
	}
	if at == first || strings.HasPrefix(strings.TrimSpace(lines[at]), "*") {
		return -1
	}
	return at
}

// Over every fixture, the first five symbols with a comment above them
// (each on lines of its own): replace-body
// sent the comment and the symbol's text as show gives them (a model
// sending back the whole definition it read) changes nothing; sent with
// one more comment line, the file gains exactly that line and keeps one
// copy of the comment. Without this the comment was written twice.
func TestReplaceBodyWithItsComment(t *testing.T) {
	_, dir := tree(t, map[string]string{})
	w := symbolsWorkspace(t, dir, t.TempDir())
	ctx := context.Background()
	listed, err := w.Symbols(ctx, ops.SymbolsRequest{Path: "src"})
	if err != nil && listed == nil {
		t.Fatal(err)
	}
	tried := 0
	for _, f := range listed.Files {
		openers := commentOpeners[filepath.Ext(f.Path)]
		if openers == nil || f.Error != nil {
			continue
		}
		path := filepath.Join(dir, f.Path)
		orig, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(orig), "\r") {
			continue
		}
		lines := strings.Split(string(orig), "\n")
		perFile := 0
		for _, s := range f.Symbols {
			if perFile == 5 {
				break // a few per file keep the test quick; every file is tried
			}
			first := s.Start.Line - 1
			indent := lines[first][:len(lines[first])-len(strings.TrimLeft(lines[first], " \t"))]
			if s.Start.Column != len(indent)+1 || len(strings.TrimRight(lines[s.End.Line-1], " \t")) != s.End.Column-1 {
				continue // shares a line with other code
			}
			above := docAbove(lines, first, openers)
			if above < 0 {
				continue
			}
			loc := fmt.Sprintf("%s:%d:%d", f.Path, s.Start.Line, s.Start.Column)
			shown, err := w.Show(ctx, ops.ShowRequest{Location: loc})
			if err != nil {
				t.Fatalf("%s: %v", loc, err)
			}
			if shown.Symbol.NamePath != s.NamePath {
				continue // the position names an enclosing symbol
			}
			perFile++
			comment := strings.Join(lines[above:first], "\n") + "\n"
			added := indent + openers[0] + " Checked."
			for i, tc := range []struct {
				text, want string
			}{
				{comment + shown.Text, string(orig)},
				{added + "\n" + comment + shown.Text, strings.Join(slices.Concat(lines[:above], []string{added}, lines[above:]), "\n")},
			} {
				tried++
				res, err := w.ReplaceBody(ctx, ops.SymbolTextRequest{Location: loc, Text: tc.text, WriteOptions: ops.WriteOptions{Check: "off"}})
				if err != nil {
					t.Fatalf("%s (%s): %v", loc, s.NamePath, err)
				}
				got, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != tc.want {
					t.Fatalf("%s (%s), case %d: got\n%s\nwant\n%s", loc, s.NamePath, i, got, tc.want)
				}
				var trimmed []string
				for _, l := range lines[above:first] {
					trimmed = append(trimmed, strings.TrimSpace(l))
				}
				if res.Comment != strings.Join(trimmed, "\n") {
					t.Errorf("%s: comment %q, want %q", loc, res.Comment, strings.Join(trimmed, "\n"))
				}
				if err := os.WriteFile(path, orig, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	t.Logf("%d replacements", tried)
	if tried < 40 {
		t.Errorf("only %d replacements tried: the fixtures should give more symbols with comments", tried)
	}
}
