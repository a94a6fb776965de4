package symbols_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/symedit/symedit/lang"
)

// tsModule returns node and the TypeScript compiler's module folder from
// SYMEDIT_TS_MODULE (set by `make test-typescript`, which installs it with
// npm), skipping the test when either is missing.
func tsModule(t *testing.T) (node, module string) {
	t.Helper()
	module = os.Getenv("SYMEDIT_TS_MODULE")
	if module == "" {
		t.Skip("SYMEDIT_TS_MODULE not set: run make test-typescript")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found")
	}
	return node, module
}

// checkAgainstTSC runs tsdefs.js over files and checks that Extract finds
// exactly the definitions the TypeScript compiler's parser holds (as
// tsdefs.js selects them), with the same name path, kind, range and name
// position. It returns how many definitions it compared.
func checkAgainstTSC(t *testing.T, node, module string, files []string) int {
	t.Helper()
	cmd := exec.Command(node, append([]string{filepath.Join("testdata", "parsers", "tsdefs.js")}, files...)...)
	cmd.Env = append(os.Environ(), "TS_MODULE="+module)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tsdefs.js: %v\n%s", err, stderr.Bytes())
	}
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var f javacFile // the same shape: name_path, kind, start, end, name in UTF-16 offsets
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			t.Fatal(err)
		}
		if f.Error != "" {
			t.Errorf("%s: tsdefs.js: %s", f.Path, f.Error)
			continue
		}
		src, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		lang, err := lang.ForPath(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		n += compareUTF16Defs(t, f, src, lang, "the compiler")
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestTypeScriptMatchesCompiler checks the hand-written TypeScript
// fixtures and, when SYMEDIT_TS_TREE names a folder (make test-typescript
// fetches rxjs's sources with npm pack), every .ts file under it against
// the TypeScript compiler's parser.
func TestTypeScriptMatchesCompiler(t *testing.T) {
	node, module := tsModule(t)
	files := []string{
		filepath.Join(repoTestdata, "src", "typescript", "scheduler.ts"),
		filepath.Join(repoTestdata, "src", "typescript", "widget.tsx"),
		filepath.Join("testdata", "typescript", "overloads.ts"),
	}
	if tree := os.Getenv("SYMEDIT_TS_TREE"); tree != "" {
		err := filepath.WalkDir(tree, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(p, ".ts") && !strings.HasSuffix(p, ".d.ts") {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for len(files) > 0 {
		k := min(len(files), 400)
		n += checkAgainstTSC(t, node, module, files[:k])
		files = files[k:]
	}
	t.Logf("%d definitions agree with the TypeScript compiler", n)
}

// TestTypeScriptOverloadsFixture compares Extract on the hand-written
// testdata/typescript/overloads.ts with its expected symbols, written from
// the TypeScript compiler's parse (tsdefs.js; make test-typescript checks
// the file against the compiler again): overloads merged into their
// implementation, ambient signatures one symbol each.
func TestTypeScriptOverloadsFixture(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "typescript", "overloads.ts"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "typescript", "overloads.ts.want"))
	if err != nil {
		t.Fatal(err)
	}
	syms := extract(t, "typescript", string(src))
	var b strings.Builder
	for _, s := range syms {
		fmt.Fprintf(&b, "%s %s %d:%d-%d:%d %d:%d\n", s.NamePath, s.Kind, s.Start.Line, s.Start.Column,
			s.End.Line, s.End.Column, s.Selection.Line, s.Selection.Column)
	}
	var w strings.Builder
	for _, l := range strings.SplitAfter(string(want), "\n") {
		if !strings.HasPrefix(l, "#") {
			w.WriteString(l)
		}
	}
	if b.String() != w.String() {
		t.Errorf("overloads.ts symbols:\n%s\nwant:\n%s", b.String(), w.String())
	}
}
