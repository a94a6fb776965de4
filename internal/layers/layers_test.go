// Package layers_test checks that the packages' dependencies point one
// way, as the pipeline reads: the front ends over the operation core, the
// core over the file layer, the guard and the engines, and those over the
// text core and the language definitions. A new import against that
// direction fails here, before it makes the house harder to read.
package layers_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/symedit/symedit/"

// forbidden maps a package (a folder below the module root) to the
// packages of this module it must not import.
var forbidden = map[string][]string{
	// The text core and the language definitions are the bottom.
	"edit": {"files", "guard", "diff", "textedit", "chunk", "reply", "symbols", "lang", "walk", "ops", "cmd"},
	"lang": {"edit", "files", "guard", "diff", "textedit", "chunk", "reply", "symbols", "walk", "ops", "cmd"},
	// The engines are pure: no file layer, guard or core.
	"match":    {"edit", "files", "guard", "diff", "textedit", "chunk", "reply", "symbols", "walk", "ops", "cmd"},
	"chunk":    {"files", "guard", "diff", "textedit", "reply", "walk", "ops", "cmd"},
	"reply":    {"files", "guard", "diff", "textedit", "chunk", "walk", "ops", "cmd"},
	"textedit": {"files", "guard", "diff", "chunk", "reply", "walk", "ops", "cmd"},
	"symbols":  {"edit", "files", "guard", "diff", "textedit", "chunk", "reply", "walk", "ops", "cmd"},
	// The guard knows languages, not symbols; the diff knows edits only.
	"guard": {"files", "diff", "textedit", "chunk", "reply", "symbols", "walk", "ops", "cmd"},
	"diff":  {"files", "guard", "textedit", "chunk", "reply", "symbols", "lang", "walk", "ops", "cmd"},
	// The file layer stores what it is given: no engine, guard or core.
	"files": {"guard", "diff", "textedit", "chunk", "reply", "symbols", "lang", "walk", "ops", "cmd"},
	"walk":  {"files", "guard", "diff", "textedit", "chunk", "reply", "symbols", "ops", "cmd"},
	// The core is under the front ends.
	"ops": {"cmd"},
}

func TestDependenciesPointOneWay(t *testing.T) {
	root := filepath.Join("..", "..")
	for pkg, bad := range forbidden {
		files, err := filepath.Glob(filepath.Join(root, pkg, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", pkg, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue // a black-box test may drive its package from above
			}
			af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, im := range af.Imports {
				path, _ := strconv.Unquote(im.Path.Value)
				dep, ok := strings.CutPrefix(path, module)
				if !ok {
					continue
				}
				for _, b := range bad {
					if dep == b || strings.HasPrefix(dep, b+"/") {
						t.Errorf("%s imports %s, against the direction of the pipeline", filepath.ToSlash(f), dep)
					}
				}
			}
		}
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("not at the module root: %v", err)
	}
}
