package symbols_test

import (
	"archive/zip"
	"context"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

// listingMatches checks that ListFile lists exactly ExtractFile's
// symbols in src (the file name), every field, when tree-sitter's parse
// of src has no error, and that the text the listing parses has src's
// length, its line endings in place and blanks where it differs. It
// returns how many bytes the listing blanked and whether it compared
// the symbols.
func listingMatches(t *testing.T, name string, src []byte, l *lang.Language) (blanked int, compared bool) {
	t.Helper()
	in, listed := l.ParserInput(src), l.ListingInput(src)
	if len(listed) != len(in) {
		t.Fatalf("%s: the listing parses %d bytes, the file has %d", name, len(listed), len(in))
	}
	for i := range in {
		if a, b := in[i], listed[i]; a != b {
			if b != ' ' || a == '\n' || a == '\r' {
				t.Fatalf("%s: byte %d is %q in the parser's input, %q in the listing's", name, i, a, b)
			}
			blanked++
		}
	}
	full, list := extractAndList(t, src, l)
	if !symbols.TreeClean(full) { // Java's extraction is tree-sitter's: its tree had an error
		return blanked, false
	}
	if d := firstSymbolDiff(full.Symbols, list.Symbols); d != "" {
		t.Errorf("%s: the listing differs from the extraction (%d bytes blanked): %s", name, blanked, d)
	}
	return blanked, true
}

// TestJavaListingMatchesExtract checks that the listing of every Java
// fixture, and of the JDK's java.base sources when a src.zip is found
// under /usr/lib/jvm (a sample of 200 files under -short), equals the
// extraction wherever tree-sitter's parse has no error, though it parses
// method bodies blanked (lang.Language.ListingInput); it logs how many
// files and what share of their bytes were blanked.
func TestJavaListingMatchesExtract(t *testing.T) {
	l := language(t, "java")
	var names []string
	for _, g := range []string{filepath.Join(repoTestdata, "src", "java", "*.java"), filepath.Join("testdata", "java", "*.java")} {
		m, _ := filepath.Glob(g)
		names = append(names, m...)
	}
	if len(names) == 0 {
		t.Fatal("no Java fixtures")
	}
	fixtures := 0
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		b, compared := listingMatches(t, name, src, l)
		if !compared {
			t.Errorf("%s: tree-sitter finds an error in a fixture", name)
		}
		if b > 0 {
			fixtures++
		}
	}
	if fixtures == 0 {
		t.Errorf("no fixture had a body blanked")
	}

	n := 0 // all
	if testing.Short() {
		n = 200
	}
	files := jdkBaseSources(t, n)
	if files == nil {
		t.Log("no readable JDK src.zip under /usr/lib/jvm: java.base not compared")
		return
	}
	var total, blanked, blankedFiles, compared int
	for _, f := range files {
		b, ok := listingMatches(t, f.name, f.src, l)
		total += len(f.src)
		blanked += b
		if b > 0 {
			blankedFiles++
		}
		if ok {
			compared++
		}
	}
	if compared == 0 || blankedFiles == 0 {
		t.Errorf("java.base: %d files compared, %d blanked", compared, blankedFiles)
	}
	t.Logf("java.base: %d files, %d without a syntax error compared; %d blanked, %d of %d bytes (%.1f%%)",
		len(files), compared, blankedFiles, blanked, total, 100*float64(blanked)/float64(total))
}

// jdkSource is one file read from a JDK's src.zip.
type jdkSource struct {
	name string
	src  []byte
}

// jdkBaseSources returns the .java files of java.base from a JDK's
// src.zip under /usr/lib/jvm, the newest JDK's first (JDK 25's, then any
// other), sorted by name, or nil when none is readable; with n > 0 only n
// of them, spread evenly over the sorted names, the same on every run.
func jdkBaseSources(t testing.TB, n int) []jdkSource {
	t.Helper()
	var zips []string
	for _, g := range []string{"/usr/lib/jvm/*25*/lib/src.zip", "/usr/lib/jvm/*/lib/src.zip", "/usr/lib/jvm/*/src.zip"} {
		m, _ := filepath.Glob(g)
		zips = append(zips, m...)
	}
	for _, z := range zips {
		zr, err := zip.OpenReader(z)
		if err != nil {
			continue
		}
		var entries []*zip.File
		for _, f := range zr.File {
			if strings.HasPrefix(f.Name, "java.base/") && strings.HasSuffix(f.Name, ".java") {
				entries = append(entries, f)
			}
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name < entries[j].Name })
		if n > 0 && len(entries) > n {
			picked := make([]*zip.File, 0, n)
			for i := 0; i < n; i++ {
				picked = append(picked, entries[i*len(entries)/n])
			}
			entries = picked
		}
		files := make([]jdkSource, 0, len(entries))
		for _, f := range entries {
			r, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			data, err := io.ReadAll(r)
			r.Close()
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, jdkSource{z + ":" + f.Name, data})
		}
		zr.Close()
		if len(files) > 0 {
			return files
		}
	}
	return nil
}

// FuzzJavaListing checks, for any text, that the listing's text has the
// text's length, its line endings in place and blanks where it differs,
// and that where tree-sitter's parse of the text has no error, ListFile
// lists exactly ExtractFile's symbols.
func FuzzJavaListing(f *testing.F) {
	f.Add("class A { void m() { x(); } }")
	f.Add("class A { Object o = new B(new C() { void c() {} }) { void b() { y(); } }; enum E { X { void x() { z(); } }; E() { w(); } } @interface N { int v() default 1; } }")
	f.Add("class A { void f() { class L { void g() { h(); } } new T() { void i() {} }; record R(int a) { R { a(); } } } }")
	f.Add("class A {\r\n  String s = \"\"\"\n { \"\"\" + '{' + \"}\"; // }\n  int[] g()[] throws E { return new int[] { 1 }; } /* { */ }\r")
	f.Add("record R<T>(T t) implements I { R(T t, int x) { this(t); } static { s(); } Runnable r = () -> { q(); }; }")
	f.Add("package a;\nimport b.C;\ninterface I { int X = 1, Y = f(2); @A(B.class) String S; Runnable R = new Runnable() { public void run() { go(); } }; Object O = f(() -> { class L {} }); }")
	f.Add("class A { static final ClassValue<M[]> C = new ClassValue<M[]>() { protected M[] computeValue(Class<?> t) { return new M[N]; } }; void f()\v{ run(new T()\f{ void g() { h(); } }); } }")
	f.Add("class A { void f() { a = new java.util.Map.Entry<K, V>() { }; b = new Outer.Inner<>(1) {}; c = new @Ann(1) T() {}; d = outer.new Inner() {}; e = new <X>T() {}; } }")
	f.Add("enum E { A(1) { int f() { return 1; } }, @Deprecated B { int f() { return 2; } }, C; E(int x) { this.x = x; } int f() { return 0; } }")
	f.Add("{@interfaceA{}}\nsealed interface S permits B {}\nnon-sealedclass B implements S { void f() { @interfaceC{} } double g() { return 0x1.8p3 + 0X1FL + 1e-5 + 1E+5d + 1_000L + 0b101 + .5f + 07 + 1. + 2.5e3F; } }")
	f.Add("\ufeffclass A { void f() { x(); } }")
	f.Add("@interface N { int v() default 1; int[] w() default {1, 2}; Class<?> c() default Object.class; enum K { X } }")
	l, err := lang.ByName("java")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		listingMatches(t, "fuzz input", []byte(src), l)
	})
}

// BenchmarkJavaListing compares, over 200 files of java.base (the Java
// fixtures when no JDK's src.zip is found), the listing's extraction
// (ListFile, which parses bodies blanked) with the whole parse's
// (ExtractFile), and times the blanking (ListingInput) alone; b.SetBytes
// reports source bytes per second.
func BenchmarkJavaListing(b *testing.B) {
	l := language(b, "java")
	files := jdkBaseSources(b, 200)
	if files == nil {
		for _, g := range []string{filepath.Join(repoTestdata, "src", "java", "*.java"), filepath.Join("testdata", "java", "*.java")} {
			m, _ := filepath.Glob(g)
			for _, name := range m {
				src, err := os.ReadFile(name)
				if err != nil {
					b.Fatal(err)
				}
				files = append(files, jdkSource{name, src})
			}
		}
	}
	size := 0
	for _, f := range files {
		size += len(f.src)
	}
	ctx := context.Background()
	for _, c := range []struct {
		name string
		run  func(src []byte) error
	}{
		{"extract", func(src []byte) error { _, err := symbols.ExtractFile(ctx, src, l); return err }},
		{"list", func(src []byte) error { _, err := symbols.ListFile(ctx, src, l); return err }},
		{"blank", func(src []byte) error { l.ListingInput(src); return nil }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				for _, f := range files {
					if err := c.run(f.src); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
