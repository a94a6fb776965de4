package reply_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pmezard/go-difflib/difflib"
	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/reply"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden \"out\" sections of testdata/*.txtar")

// fixtureRoot is where a block's path is looked up when the archive has
// no "file:PATH" section for it: paths in the replies are relative to the
// repository's testdata folder ("src/python/process.py").
const fixtureRoot = "../testdata"

// TestGolden runs every testdata/*.txtar case. An archive holds:
//
//   - "reply": the model's reply;
//   - "file:PATH" (optional, any number): the content of the file PATH, for
//     files that are not under ../testdata or that a case changes;
//   - "out": the golden result, rewritten by go test -update.
//
// Comment lines "crlf-reply" and "crlf-files" turn every LF of the reply
// or of the files into CRLF before the test runs. The result lists what
// Parse found, then, for each file in order of first mention, what applying
// its blocks in sequence gave (as the caller will: a missing file fails a
// block that does not create it, and the blocks after a failed one are
// skipped), the diff of the new content when every block applied, and the
// line endings of the new content.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			crlfReply := bytes.Contains(ar.Comment, []byte("crlf-reply"))
			crlfFiles := bytes.Contains(ar.Comment, []byte("crlf-files"))
			var replyText string
			inline := map[string]string{}
			haveReply := false
			for _, f := range ar.Files {
				switch {
				case f.Name == "reply":
					replyText, haveReply = string(f.Data), true
				case strings.HasPrefix(f.Name, "file:"):
					inline[strings.TrimPrefix(f.Name, "file:")] = string(f.Data)
				}
			}
			if !haveReply {
				t.Fatal("no reply section")
			}
			if crlfReply {
				replyText = strings.ReplaceAll(replyText, "\n", "\r\n")
			}
			read := func(path string) (string, bool) {
				s, ok := inline[path]
				if !ok {
					b, err := os.ReadFile(filepath.Join(fixtureRoot, filepath.FromSlash(path)))
					if errors.Is(err, fs.ErrNotExist) {
						return "", false
					}
					if err != nil {
						t.Fatal(err)
					}
					s = string(b)
				}
				if crlfFiles {
					s = strings.ReplaceAll(s, "\n", "\r\n")
				}
				return s, true
			}
			got := runCase(t, replyText, read)
			if *update {
				var kept []txtar.File
				for _, f := range ar.Files {
					if f.Name != "out" {
						kept = append(kept, f)
					}
				}
				ar.Files = append(kept, txtar.File{Name: "out", Data: []byte(got)})
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, f := range ar.Files {
				if f.Name == "out" {
					if string(f.Data) != got {
						t.Errorf("got:\n%s\nwant:\n%s\n%s", got, f.Data, diff("want", "got", string(f.Data), got))
					}
					return
				}
			}
			t.Fatal("no golden out section; run go test -update")
		})
	}
}

// runCase parses the reply and applies its blocks, file by file, and
// renders what happened.
func runCase(t *testing.T, replyText string, read func(string) (string, bool)) string {
	t.Helper()
	res := reply.Parse(replyText)
	if again := reply.Parse(replyText); !equalResults(res, again) {
		t.Fatal("Parse is not deterministic")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "parsed: %d block(s), %d malformed, %d shell suggestion(s)\n", len(res.Blocks), len(res.Malformed), len(res.Shell))
	for i, bl := range res.Blocks {
		fmt.Fprintf(&b, "block %d: %s %s (path line %d, marker line %d)\n", i+1, bl.Format, bl.Path, bl.PathLine, bl.Line)
		if bl.IsCreate() {
			b.WriteString("  creates a file\n")
		}
		if bl.Delete {
			b.WriteString("  deletes the file\n")
		}
		if bl.MoveTo != "" {
			fmt.Fprintf(&b, "  moves the file to %s\n", bl.MoveTo)
		}
		pv, _ := json.Marshal(bl.Preview())
		fmt.Fprintf(&b, "  preview: %s\n", pv)
		for _, sec := range []struct {
			tag   string
			lines []string
		}{{"L", bl.ContextBefore}, {"O", bl.OldLines}, {"N", bl.NewLines}, {"T", bl.ContextAfter}} {
			for _, l := range sec.lines {
				fmt.Fprintf(&b, "  %s|%s\n", sec.tag, l)
			}
		}
	}
	for _, m := range res.Malformed {
		fmt.Fprintf(&b, "malformed: line %d %s path %q: %s\n", m.Line, m.Format, m.Path, m.Reason)
	}
	for _, s := range res.Shell {
		fmt.Fprintf(&b, "shell: line %d: %s\n", s.Line, s.Command)
	}

	var order []string
	byPath := map[string][]int{}
	for i, bl := range res.Blocks {
		if _, ok := byPath[bl.Path]; !ok {
			order = append(order, bl.Path)
		}
		byPath[bl.Path] = append(byPath[bl.Path], i)
	}
	for _, path := range order {
		fmt.Fprintf(&b, "\n== %s\n", path)
		orig, exists := read(path)
		idx := byPath[path]
		if !exists && !res.Blocks[idx[0]].IsCreate() {
			fmt.Fprintf(&b, "block %d: failed: file not found\n", idx[0]+1)
			for _, i := range idx[1:] {
				fmt.Fprintf(&b, "block %d: skipped\n", i+1)
			}
			continue
		}
		// As the caller applies them: ApplyAll, each block on the result
		// of the one before.
		// A block that only deletes or moves its file changes no lines.
		var blocks []reply.Block
		var lineIdx []int
		for _, i := range idx {
			if res.Blocks[i].FileOnly() {
				fmt.Fprintf(&b, "block %d: changes no lines\n", i+1)
				continue
			}
			blocks, lineIdx = append(blocks, res.Blocks[i]), append(lineIdx, i)
		}
		idx = lineIdx
		text, _, failedAt, f := reply.ApplyAll(blocks, orig, match.Exact)
		if again, _, _, _ := reply.ApplyAll(blocks, orig, match.Exact); again != text {
			t.Errorf("%s: ApplyAll is not deterministic", path)
		}
		checkEdits(t, blocks, orig, match.Exact)
		failed := failedAt >= 0
		for k, i := range idx {
			switch {
			case !failed || k < failedAt:
				fmt.Fprintf(&b, "block %d: applied\n", i+1)
			case k == failedAt:
				fmt.Fprintf(&b, "block %d: failed\n%s", i+1, marshal(t, f))
			default:
				fmt.Fprintf(&b, "block %d: skipped\n", i+1)
			}
		}
		if failed {
			continue
		}
		if first := res.Blocks[byPath[path][0]]; first.Delete && first.FileOnly() {
			b.WriteString("deletes the file as it is\n")
			continue
		} else if first.Delete {
			fmt.Fprintf(&b, "deletion leaves %d byte(s) (the caller deletes the file only if none)\n", len(text))
			continue
		}
		b.WriteString(diff("a/"+path, "b/"+path, orig, text))
		b.WriteString(endings(text))
	}
	return b.String()
}

// diff is a unified diff with two lines of context, CRs shown as \r.
func diff(from, to, a, b string) string {
	show := func(s string) []string {
		s = strings.ReplaceAll(s, "\r", `\r`)
		if s != "" && !strings.HasSuffix(s, "\n") {
			s += "\n" // the endings line says whether there was one
		}
		ls := strings.SplitAfter(s, "\n")
		return ls[:len(ls)-1] // the last is "" after the final LF
	}
	d, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: show(a), B: show(b), FromFile: from, ToFile: to, Context: 2,
	})
	if err != nil {
		panic(err)
	}
	return d
}

// equalResults compares two parse results, nil and empty slices alike.
func equalResults(a, b reply.Result) bool {
	return reflect.DeepEqual(normalize(a), normalize(b))
}

func normalize(r reply.Result) reply.Result {
	out := reply.Result{Malformed: append([]reply.Malformed{}, r.Malformed...), Shell: append([]reply.ShellSuggestion{}, r.Shell...)}
	for _, b := range r.Blocks {
		for _, p := range []*[]string{&b.ContextBefore, &b.OldLines, &b.NewLines, &b.ContextAfter} {
			if len(*p) == 0 {
				*p = nil
			}
		}
		out.Blocks = append(out.Blocks, b)
	}
	return out
}

// endings describes the line endings of s.
func endings(s string) string {
	crlf := strings.Count(s, "\r\n")
	lf := strings.Count(s, "\n") - crlf
	cr := strings.Count(s, "\r") - crlf
	final := "no final line ending"
	if strings.HasSuffix(s, "\n") || strings.HasSuffix(s, "\r") {
		final = "final line ending"
	}
	return fmt.Sprintf("endings: %d LF, %d CRLF, %d CR, %s\n", lf, crlf, cr, final)
}

func marshal(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
