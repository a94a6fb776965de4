// Package testfile holds the file helpers that the tests of the packages
// along the editing pipeline (edit, diff, files, guard, textedit) share:
// reading a fixture, writing a file with an exact mode, and the list of
// real-source fixtures they run on.
package testfile

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// RealSources returns the paths, relative to a package folder one level
// below the module root, of the real-source fixtures (a CPython module, a
// Go standard library file, a Java class) that the editing tests run on.
func RealSources() []string {
	return []string{
		"../testdata/src/python/process.py",
		"../testdata/src/go/slog_value.go",
		"../testdata/src/java/Inventory.java",
	}
}

// Read returns the content of the file at path, failing t if it cannot
// be read.
func Read(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// WriteMode writes content to path and sets its mode to exactly mode (no
// umask), failing t on any error.
func WriteMode(t testing.TB, path string, content []byte, mode fs.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, content, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// update is the -update flag of every test binary that imports this
// package: golden files are rewritten instead of compared.
var update = flag.Bool("update", false, "rewrite the golden files in testdata/ instead of comparing them")

// Update reports whether the tests run with -update.
func Update() bool { return *update }

// Section returns the data of the file called name in ar, failing t if
// there is none.
func Section(t testing.TB, ar *txtar.Archive, name string) []byte {
	t.Helper()
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	t.Fatalf("no %s section", name)
	return nil
}

// CheckGolden compares got with the result section ("want" or "error") of
// the archive ar read from file, failing t where they differ, or, with
// -update, replaces that section with got under the name section and
// rewrites file.
func CheckGolden(t testing.TB, file string, ar *txtar.Archive, section, got string) {
	t.Helper()
	if *update {
		var kept []txtar.File
		for _, f := range ar.Files {
			if f.Name != "want" && f.Name != "error" {
				kept = append(kept, f)
			}
		}
		ar.Files = append(kept, txtar.File{Name: section, Data: []byte(got)})
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, f := range ar.Files {
		if f.Name == "want" || f.Name == "error" {
			if f.Name != section || string(f.Data) != got {
				t.Errorf("got %s:\n%s\nwant %s:\n%s", section, got, f.Name, f.Data)
			}
			return
		}
	}
	t.Fatalf("no want or error section; run go test -update and review")
}

// Same fails t unless the file at path holds exactly want: the check that
// a refused edit left a file byte-identical.
func Same(t testing.TB, path string, want []byte) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s holds %q, want it byte-identical to %q", path, abbrev(got), abbrev(want))
	}
}

// NoTemps fails t if dir holds a temporary file of a commit (a name with
// ".symedit-" in it).
func NoTemps(t testing.TB, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), ".symedit-") {
			t.Errorf("temporary file %s left in %s", e.Name(), dir)
		}
	}
}

// abbrev shortens b for a failure message to its first 80 bytes.
func abbrev(b []byte) string {
	if len(b) > 80 {
		return string(b[:80]) + "..."
	}
	return string(b)
}
