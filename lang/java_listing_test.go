package lang_test

import (
	"strings"
	"testing"

	"github.com/symedit/symedit/lang"
)

// javaListingCases are Java texts as a listing parses them
// (Language.ListingInput): "«" and "»" mark each stretch the listing
// blanks (a body's interior, a parameter list's, a field, an import, a
// comment),
// and are not part of the text.
var javaListingCases = []struct {
	name, marked string
}{
	{"a method's body and parameters",
		"class A {\n  int f(«int x») {\n    «return x + 1;»\n  }\n}\n"},
	{"a constructor's body and parameters, and a generic constructor's",
		"class A {\n  A(«int x») { «this.x = x;» }\n  <T> A(«T t») { «this(0);» }\n}\n"},
	{"an empty body and one of blanks change nothing", "class A { void f() {} void g() {  \n  } }"},
	{"an anonymous class in an argument keeps its method's body; the anonymous class's method is blanked",
		"class A {\n  void f() { run(new Runnable() { public void run() { «go();» } }); }\n}\n"},
	{"an anonymous class in a lambda",
		"class A {\n  void f() { list.forEach(x -> new Thread() { public void run() { «x.go();» } }.start()); }\n}\n"},
	{"an anonymous class of a qualified, generic, diamond or annotated type, or of an inner class",
		"class A {\n  void f() { a = new java.util.Map.Entry<K, V>() { }; }\n  void g() { b = new Outer.Inner<>(1) {}; }\n  void h() { c = new @Ann(1) T() {}; }\n  void i() { d = outer.new Inner() {}; }\n}\n"},
	{"local classes, interfaces, enums and records keep their method's body; their methods are blanked",
		"class A {\n  void f() { class L { int g() { «return 1;» } } }\n  void h() { interface I { default void i() { «j();» } } }\n  void k() { enum E { X; void m() { «n();» } } }\n  void o() { record P(int x) { int p() { «return x;» } } q(); }\n}\n"},
	{"a generic local record",
		"class A {\n  void f() { record P<T>(T x) {} }\n}\n"},
	{"class literals, new arrays, method references and control blocks are no class",
		"class A {\n  Class<?> f() { «return Foo.class;» }\n  int[] g() { «return new int[] { 1, 2 };» }\n  Object h() { «return new String[][] {{\"a\"}};» }\n  Supplier<A> i() { «return A::new;» }\n  void j(«int x») { «if (x > 0) { k(); } else { l(); } for (;;) { } while (x) { } switch (x) { case 1 -> { } default -> { } } try (var r = open()) { } catch (E | F e) { } finally { } synchronized (this) { }» }\n}\n"},
	{"text blocks and strings with braces, quotes and class",
		"class A {\n  «String s = \"\"\"\n    class X { \"a\" } \\\"\"\" }\n    \"\"\";»\n  String f() { «return \"\"\"\n    { \"\"class\"\" }\n    \"\"\";» }\n  String g() { «return \"} class {\\\"\" + '\"';» }\n}\n"},
	{"comments with braces and class",
		"class A {\n  void f() { «// }\n    x(); /* { class */» }\n  «/* } */» void g() { «y();» }\n}\n"},
	{"comments are blanked wherever they are",
		"«// a\n/* b */»\nclass A «/** c */» extends «/* d */» B {\n  «/** e */»\n  @A(«/* f */» 1) void f() { }\n} «// g»"},
	{"character literals",
		"class A {\n  char f() { «return '{';» }\n  char g() { «return '\"';» }\n  char h() { «return '\\'';» }\n  char i() { «return '}';» }\n}\n"},
	{"generic methods, throws clauses, array dimensions after the parameters",
		"class A {\n  public static <T extends Comparable<? super T>> T max(«List<? extends T> l») { «return l.get(0);» }\n  void f() throws IOException, java.io.UncheckedIOException { «g();» }\n  int h()[] { «return null;» }\n  int[] i() throws @Ann E { «return null;» }\n}\n"},
	{"interface default, static and private methods",
		"interface I {\n  default int f() { «return 1;» }\n  static void g() { «h();» }\n  private void i() { «j();» }\n  void k();\n}\n"},
	{"enum constants with arguments and bodies, an enum's constructors and methods",
		"enum E {\n  A(1) { int f() { «return 1;» } },\n  @Deprecated B { int f() { «return 2;» } },\n  C;\n  E(«int x») { «this.x = x;» }\n  E() { «this(0);» }\n  int f() { «return 0;» }\n}\n"},
	{"nested classes",
		"class A {\n  class B { void f() { «x();» } }\n  static class C { void g() { «y();» } }\n  interface D { class E { void h() { «z();» } } }\n}\n"},
	{"annotations with arguments",
		"@Target({«ElementType.METHOD»})\nclass A {\n  @SuppressWarnings({«\"a\", \"b\"»}) @A(x = 1) void f(«@B(\"p\") int p») { «x();» }\n  @A(1) A() { «y();» }\n}\n"},
	{"unicode identifiers",
		"class Ü {\n  void größe(«int ä») { «ä++;» }\n  Ü() { «größe(1);» }\n}\n"},
	{"records: the compact and canonical constructors and the methods, not the header",
		"record R(int a, int b) implements I {\n  R { «check(a);» }\n  R(«int a») { «this(a, 0);» }\n  int sum() { «return a + b;» }\n}\n"},
	{"initializer blocks and fields (lambdas, array initializers) are blanked; a field's anonymous class stays, its methods blanked",
		"class A {\n  static { «x();» }\n  { «y();» }\n  «Runnable r = () -> { z(); };\n  Comparator<A> c = (a, b) -> { return 0; };\n  int[] a = { 1, 2 }, b = g(1);»\n  Object o = new Object() { public String toString() { «return \"\";» } };\n  Object p = new @Ann(1) Foo() { void f() { «x();» } };\n}\n"},
	{"annotation types: an element's default array",
		"@interface N {\n  int v() default 1;\n  int[] w() default {«1, 2»};\n  Class<?> c() default Object.class;\n}\n"},
	{"record, an identifier",
		"class A {\n  void f() { «Record record = get(); record.x(); if (record instanceof B b) { }» }\n  void record(«int x») { «y();» }\n}\n"},
	{"a local class nested in a lambda keeps every enclosing body",
		"class A {\n  void f() {\n    run(() -> {\n      class L { void g() { «h();» } }\n    });\n  }\n}\n"},
	{"a block after parentheses that are not a control's may be an anonymous class: kept",
		"class A {\n  void f() { g(x) { } }\n}\n"},
	{"tabs and CRLF line endings",
		"class A {\r\n\tvoid f() {\r\n«\t\tx();\r\n\t»}\r\n}\r\n"},
	{"module declarations: the module's body", "module m {\n  «requires java.base;\n  exports p;»\n}\n"},
	{"imports and the package",
		"«package a.b;»\n«import java.util.List;\nimport static java.util.Map.*;»\nclass A {}\n"},
	{"a package with annotations stays; imports go",
		"@Deprecated package a.b;\n«import x.Y;»\n"},
	{"fields and interface constants",
		"interface I {\n  «int X = 1, Y = f(2);»\n  «@A(B.class) String S;»\n  «Map<@C(1) K, V> m;»\n  ;\n}\n"},
	{"a field whose initializer declares a class stays",
		"class A {\n  Runnable r = new Runnable() { public void run() { «go();» } };\n  Object o = f(() -> { class L {} });\n}\n"},
	{"an anonymous class of a type whose arguments are arrays",
		"class A {\n  static final ClassValue<M[]> C\n      = new ClassValue<M[]>() {\n          protected M[] computeValue(«Class<?> type») { «return new M[N];» }\n      };\n}\n"},
	{"array creations followed by a method's head",
		"class A {\n  void f() { «int[] a = new int[n]; g(a);» }\n  void g(«int[] a») { «h();» }\n}\n"},
	{"vertical tabs and form feeds are white space",
		"class A {\n  void f()\v{ run(new T()\f{ void g() { «h();» } }); }\n}\n"},
	{"@interface glued to the name it declares (one token to the grammar)",
		"{@interfaceA{}}\nclass B { void f() { @interfaceC{} } void g() { «x();» } }\n"},
	{"non-sealed glued to class (one token to the grammar)",
		"sealed interface S permits A {}\nnon-sealedclass A implements S { void f() { «x();» } }\n"},
	{"a byte order mark, which the grammar skips",
		"\ufeffclass A { void f() { «x();» } }\n"},
	{"number literals",
		"class A { double f() { «return 0x1.8p3 + 0X1FL + 1e-5 + 1E+5d + 1_000L + 0b101 + .5f + 07 + 1. + 2.5e3F;» } }\n"},
	// Text the lexer is unsure of: nothing is blanked.
	{"a letter right after a number (the grammar's two tokens)", "class A {\n  void f() { x(); }\n  int g() { return 1class; }\n}\n"},
	{"an unterminated string", "class A {\n  void f() { x(); }\n  String s = \"abc;\n}\n"},
	{"a string that spans lines", "class A {\n  void f() { x(); }\n  String s = \"a\nb\";\n}\n"},
	{"an unterminated comment", "class A {\n  void f() { x(); }\n  /* }\n"},
	{"an unterminated text block", "class A {\n  void f() { x(); }\n  String s = \"\"\"\n  a\n"},
	{"an empty character literal", "class A {\n  void f() { x(); }\n  char c = '';\n}\n"},
	{"an unterminated character literal", "class A {\n  void f() { x(); }\n  char c = 'a;\n}\n"},
	{"a brace too many", "class A {\n  void f() { x(); }\n}\n}\n"},
	{"a brace missing", "class A {\n  void f() { x(); }\n"},
	{"a parenthesis that closes a brace", "class A {\n  void f() { x(); )\n}\n"},
	{"a Unicode escape outside a literal", "class A {\n  void f() { x(); }\n  \\u0076oid g() \\u007B }\n}\n"},
	{"an interpolation in a string", "class A {\n  void f() { x(); }\n  String s = \"\\{ \"}\" }\";\n}\n"},
}

// javaListingCase returns a case's text and the listing's text: its
// marks dropped, and the bytes between them blanked but for line
// endings.
func javaListingCase(marked string) (src, want string) {
	var s, w strings.Builder
	in := false
	for _, r := range marked {
		switch {
		case r == '«' || r == '»':
			in = r == '«'
			continue
		case in && r != '\n' && r != '\r':
			s.WriteRune(r)
			w.WriteString(strings.Repeat(" ", len(string(r))))
			continue
		}
		s.WriteRune(r)
		w.WriteRune(r)
	}
	return s.String(), w.String()
}

// TestJavaListingInput checks each case's exact listing text, that its
// length and line endings are the text's, that nothing is copied where
// nothing is blanked, and that ListingInput does not modify the text it
// is given.
func TestJavaListingInput(t *testing.T) {
	l, err := lang.ByName("java")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range javaListingCases {
		text, want := javaListingCase(c.marked)
		src := []byte(text)
		got := l.ListingInput(src)
		if string(got) != want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, want)
		}
		if string(src) != text {
			t.Errorf("%s: ListingInput modified its input", c.name)
		}
		if want == text && len(src) > 0 && &got[0] != &src[0] {
			t.Errorf("%s: nothing blanked, but ListingInput returned a copy", c.name)
		}
		if len(got) != len(src) {
			t.Errorf("%s: listing text of %d bytes, the text's %d", c.name, len(got), len(src))
			continue
		}
		for i := range src {
			if a, b := src[i], got[i]; a != b && (b != ' ' || a == '\n' || a == '\r') {
				t.Errorf("%s: byte %d is %q in the text, %q in the listing's", c.name, i, a, b)
				break
			}
		}
	}
}

// TestJavaListingInputAllocs checks that blanking allocates only the copy
// it returns, and nothing when nothing is blanked.
func TestJavaListingInputAllocs(t *testing.T) {
	l, err := lang.ByName("java")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		src    string
		allocs float64
	}{
		{"class A {\n  void f() { x(); }\n  class B { void g() { new T() { void h() { y(); } }; } }\n}\n", 1},
		{"class A {\n  void f() { new T() {}; }\n  static { }\n}\n", 0},
		// A body blanked before the lexer meets what it is unsure of costs
		// the copy it then drops.
		{"class A {\n  void f() { x(); }\n  /* }\n", 1},
		{"class A {\n  /* }\n  void f() { x(); }\n", 0},
	} {
		src := []byte(c.src)
		if got := testing.AllocsPerRun(20, func() { l.ListingInput(src) }); got != c.allocs {
			t.Errorf("ListingInput(%q): %v allocations, want %v", c.src, got, c.allocs)
		}
	}
}

// TestJavaListingCollapses checks the text a Java listing parses
// (Language.Listing) for every case above and one with literals: each
// run of white space that holds blanked text is one byte, a line ending
// where the run held one; every other byte is the blanked text's byte
// at the offset Start gives, in order, so that a token's first byte maps
// to its own and its end to one past its last; white space inside a
// literal is kept.
func TestJavaListingCollapses(t *testing.T) {
	l, err := lang.ByName("java")
	if err != nil {
		t.Fatal(err)
	}
	cases := append(javaListingCases[:len(javaListingCases):len(javaListingCases)], struct{ name, marked string }{
		"literals keep their white space",
		"@A(\"a   b\")\nclass A {\n  @B(\"\"\"\n      x    y\n      \"\"\") void f() { «g(\"  \");» }\n  char c() { «return ' ';» }\n}\n"})
	for _, c := range cases {
		text, _ := javaListingCase(c.marked)
		src := []byte(text)
		blanked := l.ListingInput(src)
		lst := l.Listing(src)
		if !lst.Collapsed() {
			if string(lst.Text) != string(blanked) {
				t.Errorf("%s: not collapsed, yet not the blanked text", c.name)
			}
			continue
		}
		prev := -1
		for p, b := range lst.Text {
			o := lst.Start(p)
			if o <= prev || o >= len(blanked) {
				t.Fatalf("%s: byte %d of the listing maps to %d, after %d", c.name, p, o, prev)
			}
			prev = o
			if blanked[o] != b && !(b == ' ' || b == '\n') {
				t.Errorf("%s: byte %d of the listing is %q, the source's at %d is %q", c.name, p, b, o, blanked[o])
			}
			if p > 0 && lst.Text[p-1] != ' ' && lst.Text[p-1] != '\n' && lst.End(p) != lst.Start(p-1)+1 {
				t.Errorf("%s: the end %d maps to %d, not past the byte before it", c.name, p, lst.End(p))
			}
		}
		if lst.End(len(lst.Text)) != len(blanked) && lst.Text[len(lst.Text)-1] != ' ' && lst.Text[len(lst.Text)-1] != '\n' {
			t.Errorf("%s: the end of the listing maps to %d of %d", c.name, lst.End(len(lst.Text)), len(blanked))
		}
		if len(lst.Text) >= len(blanked) {
			t.Errorf("%s: collapsed, yet %d bytes of %d", c.name, len(lst.Text), len(blanked))
		}
		for _, lit := range []string{`"a   b"`, "\n      x    y\n      "} {
			if strings.Contains(text, lit) && !strings.Contains(string(lst.Text), lit) {
				t.Errorf("%s: the literal %q lost its white space: %q", c.name, lit, lst.Text)
			}
		}
	}
}
