package symbols_test

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

// javacDef is one definition as testdata/parsers/JavacSymbols.java prints
// it from javac's trees: UTF-16 offsets.
type javacDef struct {
	NamePath string       `json:"name_path"`
	Kind     symbols.Kind `json:"kind"`
	Start    int          `json:"start"`
	End      int          `json:"end"`
	Name     int          `json:"name"`
}

type javacFile struct {
	Path  string     `json:"path"`
	Defs  []javacDef `json:"defs"`
	Error string     `json:"error"`
}

// javaTool returns the java launcher, skipping the test when it is absent.
func javaTool(t *testing.T) string {
	t.Helper()
	java, err := exec.LookPath("java")
	if err != nil {
		t.Skip("java not found")
	}
	return java
}

// utf16ToBytes maps each UTF-16 offset of src (0..len in UTF-16 units) to
// its byte offset.
func utf16ToBytes(src []byte) []int {
	out := make([]int, 0, len(src)+1)
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		out = append(out, i)
		if r >= 0x10000 {
			out = append(out, i)
		}
		i += n
	}
	return append(out, len(src))
}

// checkAgainstJavac runs JavacSymbols.java over files (with --analyze, so
// that anonymous class numbers come from javac's binary names, when
// analyze is set) and checks that Extract finds exactly the definitions
// javac's trees hold, with the same name path, kind, range and name
// position. It returns how many definitions it compared.
func checkAgainstJavac(t *testing.T, java string, files []string, analyze bool) int {
	t.Helper()
	args := []string{"--add-exports", "jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED",
		filepath.Join("testdata", "parsers", "JavacSymbols.java")}
	if analyze {
		args = append(args, "--analyze")
	}
	cmd := exec.Command(java, append(args, files...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("JavacSymbols.java: %v\n%s", err, stderr.Bytes())
	}
	lang := language(t, "java")
	n, parsed := 0, 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var f javacFile
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			t.Fatal(err)
		}
		if f.Error != "" {
			t.Logf("%s: javac: %s", f.Path, f.Error)
			continue
		}
		parsed++
		src, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		n += compareUTF16Defs(t, f, src, lang, "javac")
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if parsed == 0 {
		t.Fatalf("javac parsed none of %d files", len(files))
	}
	return n
}

// TestJavaMatchesJavac checks hand-written Java (anonymous classes, enum
// constant bodies, annotation elements, records, local classes) against
// javac's attributed trees: anonymous classes are named with the number of
// javac's binary name. It runs javac (a few seconds), so -short
// skips it.
func TestJavaMatchesJavac(t *testing.T) {
	if testing.Short() {
		t.Skip("runs javac")
	}
	java := javaTool(t)
	files := []string{filepath.Join("testdata", "java", "EventBus.java"), filepath.Join(repoTestdata, "src", "java", "Inventory.java")}
	n := checkAgainstJavac(t, java, files, true)
	t.Logf("%d definitions agree with javac", n)
}

// TestJavaMatchesJavacWholeTree checks the JDK's java.base/java sources
// (from a src.zip under /usr/lib/jvm, JDK 17's when present) against the
// trees of the same JDK's javac; it
// runs only in `make test-parsers` (see longTrees).
func TestJavaMatchesJavacWholeTree(t *testing.T) {
	longTrees(t)
	java := javaTool(t)
	// Prefer JDK 17's sources (the JDK of the project's tests), then any.
	var zips []string
	for _, g := range []string{"/usr/lib/jvm/*17*/lib/src.zip", "/usr/lib/jvm/*17*/src.zip", "/usr/lib/jvm/*/lib/src.zip"} {
		m, _ := filepath.Glob(g)
		zips = append(zips, m...)
	}
	var zr *zip.ReadCloser
	for _, z := range zips {
		if r, err := zip.OpenReader(z); err == nil {
			zr = r
			// The same JDK's javac parses its sources whole.
			home := filepath.Dir(filepath.Dir(z))
			if j := filepath.Join(home, "bin", "java"); exec.Command(j, "-version").Run() == nil {
				java = j
			}
			t.Logf("%s with %s", z, java)
			break
		}
	}
	if zr == nil {
		t.Skip("no readable JDK src.zip under /usr/lib/jvm")
	}
	defer zr.Close()
	dir := t.TempDir()
	var files []string
	for _, f := range zr.File {
		if !strings.HasPrefix(f.Name, "java.base/java/") || !strings.HasSuffix(f.Name, ".java") {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	t.Logf("%d files of java.base/java", len(files))
	n := 0
	for len(files) > 0 {
		k := min(len(files), 400)
		n += checkAgainstJavac(t, java, files[:k], false)
		files = files[k:]
	}
	t.Logf("%d definitions agree with javac", n)
}

// compareUTF16Defs checks that Extract finds in src (the file f.Path, in
// language lang) exactly the definitions f holds, as a compiler's own
// parser (who: "javac", "compiler") reported them with UTF-16 offsets:
// the same name path, kind, byte range and name position. It returns how
// many definitions it compared.
func compareUTF16Defs(t *testing.T, f javacFile, src []byte, lang *lang.Language, who string) int {
	t.Helper()
	off := utf16ToBytes(src)
	syms, err := symbols.Extract(context.Background(), src, lang)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]symbols.Symbol{}
	for _, s := range syms {
		got[s.NamePath] = s
	}
	for _, d := range f.Defs {
		s, ok := got[d.NamePath]
		if !ok {
			t.Errorf("%s:%d: %s (%s) not extracted", f.Path, position(src, off[d.Start]).Line, d.NamePath, d.Kind)
			continue
		}
		if s.Kind != d.Kind || s.StartByte != off[d.Start] || s.EndByte != off[d.End] || s.Selection != position(src, off[d.Name]) {
			t.Errorf("%s: %s: got %s %v-%v name %v; %s: %s %v-%v name %v", f.Path, d.NamePath,
				s.Kind, s.Start, s.End, s.Selection, who, d.Kind, position(src, off[d.Start]), position(src, off[d.End]), position(src, off[d.Name]))
		}
	}
	if len(syms) != len(f.Defs) {
		t.Errorf("%s: %d symbols extracted, %s has %d definitions", f.Path, len(syms), who, len(f.Defs))
	}
	return len(f.Defs)
}
