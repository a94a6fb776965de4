package symbols_test

import (
	"context"
	"strings"
	"testing"

	"github.com/symedit/symedit/symbols"
)

func TestTextLead(t *testing.T) {
	tests := []struct {
		lang, text string
		want       symbols.Lead
	}{
		{"python", "@functools.cache\ndef f(): pass\n", symbols.LeadDecorator},
		{"python", "\n  # a comment\n    @property\n    def x(self): ...\n", symbols.LeadDecorator},
		{"python", "def f(): pass\n", symbols.LeadDefinition},
		{"python", "async def f(): pass\n", symbols.LeadDefinition},
		{"python", "# @cache\ndef f(): pass\n", symbols.LeadDefinition},
		{"python", "static def\n", symbols.LeadDefinition}, // Python has no modifiers
		{"java", "@Override\npublic void run() {}\n", symbols.LeadDecorator},
		{"java", "/** Doc. */\n@Override public void run() {}\n", symbols.LeadDecorator},
		{"java", "public void run() {}\n", symbols.LeadModifier},
		{"java", "public\nvoid run() {}\n", symbols.LeadModifier},
		{"java", "non-sealed class A extends B {}\n", symbols.LeadModifier},
		{"java", "default void run() {}\n", symbols.LeadModifier},
		{"java", "void run() {}\n", symbols.LeadDefinition},
		{"java", "<T> T first(List<T> l) {}\n", symbols.LeadDefinition},
		{"java", "publicKey() {}\n", symbols.LeadDefinition},
		{"java", "@interface Audited {}\n", symbols.LeadDefinition},
		{"java", "@ interface Audited {}\n", symbols.LeadDefinition},
		{"java", "@Interface2 class A {}\n", symbols.LeadDecorator},
		{"rust", "#[test]\nfn f() {}\n", symbols.LeadDecorator},
		{"rust", "/// Doc.\n#[inline]\npub fn f() {}\n", symbols.LeadDecorator},
		{"rust", "pub(crate) fn f() {}\n", symbols.LeadModifier},
		{"rust", "pub fn f() {}\n", symbols.LeadModifier},
		{"rust", "const fn f() {}\n", symbols.LeadModifier},
		{"rust", "async unsafe fn f() {}\n", symbols.LeadModifier},
		{"rust", "extern \"C\" fn f() {}\n", symbols.LeadModifier},
		{"rust", "unsafe impl Send for P {}\n", symbols.LeadModifier},
		{"rust", "fn f() {}\n", symbols.LeadDefinition},
		{"rust", "impl Point {}\n", symbols.LeadDefinition},
		{"rust", "macro_rules! m { () => {} }\n", symbols.LeadDefinition},
		{"rust", "@x fn f() {}\n", symbols.LeadDefinition}, // "@" begins no Rust attribute
		{"csharp", "[Test]\npublic void Run() {}\n", symbols.LeadDecorator},
		{"csharp", "/// <summary>Doc.</summary>\n[Obsolete]\nvoid Run() {}\n", symbols.LeadDecorator},
		{"csharp", "public static async Task Run() {}\n", symbols.LeadModifier},
		{"csharp", "internal protected abstract class A {}\n", symbols.LeadModifier},
		{"csharp", "partial class A {}\n", symbols.LeadModifier},
		{"csharp", "void Run() {}\n", symbols.LeadDefinition},
		{"csharp", "async(x);\n", symbols.LeadDefinition}, // a call, not the modifier
		{"csharp", "publicKey() {}\n", symbols.LeadDefinition},
		{"csharp", "ref int Find() => ref x;\n", symbols.LeadDefinition}, // a ref return type
		{"csharp", "ref struct S {}\n", symbols.LeadDefinition},
		{"php", "#[Route('/')]\npublic function f() {}\n", symbols.LeadDecorator},
		{"php", "/** Doc. */\n#[Pure]\nfunction f() {}\n", symbols.LeadDecorator},
		{"php", "# a comment\npublic static function f() {}\n", symbols.LeadModifier},
		{"php", "final public function f() {}\n", symbols.LeadModifier},
		{"php", "abstract class A {}\n", symbols.LeadModifier},
		{"php", "readonly class P {}\n", symbols.LeadModifier},
		{"php", "function f() {}\n", symbols.LeadDefinition},
		{"php", "function public() {}\n", symbols.LeadDefinition},
		{"php", "class A {}\n", symbols.LeadDefinition},
		{"php", "@f() {}\n", symbols.LeadDefinition}, // "@" begins no PHP attribute
		{"ruby", "private def x\nend\n", symbols.LeadModifier},
		{"ruby", "# Doc.\nruby2_keywords def m(*a)\nend\n", symbols.LeadModifier},
		{"ruby", "private_class_method def self.x; end\n", symbols.LeadModifier},
		{"ruby", "module_function def x = 1\n", symbols.LeadModifier},
		{"ruby", "def private_x; end\n", symbols.LeadDefinition},
		{"ruby", "private_x def y; end\n", symbols.LeadDefinition}, // not a modifier word
		{"ruby", "private(def x; end)\n", symbols.LeadDefinition},  // a call with parentheses
		{"ruby", "class << self\nend\n", symbols.LeadDefinition},
		{"ruby", "@x = 1\ndef f; end\n", symbols.LeadDefinition}, // "@" begins no Ruby decorator
		{"c", "static inline int f(void) {}\n", symbols.LeadModifier},
		{"c", "_Noreturn void die(void);\n", symbols.LeadModifier},
		{"c", "__attribute__((unused)) static int f(void) {}\n", symbols.LeadDecorator},
		{"c", "/* Doc. */\nint f(void) {}\n", symbols.LeadDefinition},
		{"c", "static_count(void) {}\n", symbols.LeadDefinition}, // a name that begins with a modifier
		{"cpp", "template <typename T>\nT max(T a, T b) {}\n", symbols.LeadDecorator},
		{"cpp", "template<> class Stack<bool> {};\n", symbols.LeadDecorator},
		{"cpp", "[[nodiscard]] int size() const;\n", symbols.LeadDecorator},
		{"cpp", "virtual void draw() const = 0;\n", symbols.LeadModifier},
		{"cpp", "explicit Widget(int w);\n", symbols.LeadModifier},
		{"cpp", "void Widget::draw() const {}\n", symbols.LeadDefinition},
		{"cpp", "templated(int x);\n", symbols.LeadDefinition},
		// Macros the parser's input writes as "static" (SQLite's amalgamation,
		// googletest): a modifier in the sent text as in the file's symbol.
		{"c", "SQLITE_PRIVATE int sqlite3Strlen30(const char *z){\n  return 0;\n}\n", symbols.LeadModifier},
		{"c", "static SQLITE_NOINLINE void sqlite3ErrorFinish(sqlite3 *db, int err_code){\n}\n", symbols.LeadModifier},
		{"c", "int sqlite3Strlen30(const char *z){\n  return 0;\n}\n", symbols.LeadDefinition},
		{"cpp", "GTEST_API_ Cardinality Between(int min, int max) {\n  return Cardinality();\n}\n", symbols.LeadModifier},
		{"typescript", "@Input() name() {}\n", symbols.LeadDecorator},
		{"typescript", "export function f() {}\n", symbols.LeadModifier},
		{"typescript", "export default class {}\n", symbols.LeadModifier},
		{"typescript", "private static async load() {}\n", symbols.LeadModifier},
		{"typescript", "async load() {}\n", symbols.LeadModifier},
		{"typescript", "static() { return 1; }\n", symbols.LeadDefinition},
		{"typescript", "static <T>(x: T) {}\n", symbols.LeadDefinition},
		{"typescript", "async(x) {}\n", symbols.LeadDefinition},
		{"typescript", "get value() { return 1; }\n", symbols.LeadDefinition},
		{"typescript", "function f() {}\n", symbols.LeadDefinition},
		{"tsx", "export const C = () => <div/>;\n", symbols.LeadModifier},
		{"javascript", "static create() {}\n", symbols.LeadModifier},
		{"go", "func F() {}\n", symbols.LeadDefinition},
		{"python", "", symbols.LeadDefinition},
	}
	for _, tt := range tests {
		if got := symbols.TextLead(language(t, tt.lang), tt.text); got != tt.want {
			t.Errorf("TextLead(%s, %q) = %v, want %v", tt.lang, tt.text, got, tt.want)
		}
	}
	if got := symbols.TextLead(nil, "@x\n"); got != symbols.LeadDefinition {
		t.Errorf("TextLead(nil) = %v", got)
	}
}

// TestHeadOffsets checks ModifiersByte and KeywordByte on hand-written code
// of each language: the text from StartByte, ModifiersByte and KeywordByte.
func TestHeadOffsets(t *testing.T) {
	tests := []struct {
		lang, src, namePath string
		mods, kw            string // the text at ModifiersByte and KeywordByte, up to the line's end
	}{
		{"python", "@a\n@b(1)\nasync def f():\n    pass\n", "f", "async def f():", "async def f():"},
		{"python", "class A:\n    @property\n    # c\n    def x(self): return 1\n", "A/x", "def x(self): return 1", "def x(self): return 1"},
		{"python", "def g(): pass\n", "g", "def g(): pass", "def g(): pass"},
		{"java", "class A {\n  @Override\n  public @Nullable <T> T f() { return null; }\n}\n", "A/f",
			"public @Nullable <T> T f() { return null; }", "<T> T f() { return null; }"},
		{"java", "@Retention(RUNTIME)\npublic @interface B {}\n", "B", "public @interface B {}", "@interface B {}"},
		{"java", "final class C {}\n", "C", "final class C {}", "class C {}"},
		{"csharp", "class A {\n  [Test]\n  [Obsolete]\n  public static void M() {}\n}\n", "A/M", "public static void M() {}", "void M() {}"},
		{"csharp", "[Serializable]\npublic sealed partial class P {}\n", "P", "public sealed partial class P {}", "class P {}"},
		{"csharp", "record struct R(int X);\n", "R", "record struct R(int X);", "record struct R(int X);"},
		{"csharp", "public readonly ref struct S { public ref int F() => ref x; }\n", "S/F", "public ref int F() => ref x; }", "ref int F() => ref x; }"},
		{"java", "class D { D() {} }\n", "D/D", "D() {} }", "D() {} }"},
		{"typescript", "@Component({a: 1})\nexport class Foo {\n  @Input() @Other\n  public static async bar(): void {}\n  get x() { return 1 }\n}\n",
			"Foo", "export class Foo {", "class Foo {"},
		{"typescript", "class Foo {\n  @Input() @Other\n  public static async bar(): void {}\n}\n",
			"Foo/bar", "public static async bar(): void {}", "bar(): void {}"},
		{"typescript", "class Foo {\n  get x() { return 1 }\n}\n", "Foo/x", "get x() { return 1 }", "get x() { return 1 }"},
		{"typescript", "export default class {}\n", "default", "export default class {}", "class {}"},
		{"typescript", "declare function f(a: string): void;\n", "f", "declare function f(a: string): void;", "function f(a: string): void;"},
		{"typescript", "export const f = () => 1;\n", "f", "export const f = () => 1;", "const f = () => 1;"},
		{"typescript", "export abstract class J { abstract run(): void; }\n", "J", "export abstract class J { abstract run(): void; }", "class J { abstract run(): void; }"},
		{"go", "package p\n\nfunc F() {}\n", "F", "func F() {}", "func F() {}"},
	}
	for _, tt := range tests {
		syms := extract(t, tt.lang, tt.src)
		var s *symbols.Symbol
		for i := range syms {
			if syms[i].NamePath == tt.namePath {
				s = &syms[i]
			}
		}
		if s == nil {
			t.Errorf("%s: no %s in %s", tt.lang, tt.namePath, summary(syms))
			continue
		}
		lineAt := func(off int) string {
			rest := tt.src[off:]
			if i := strings.IndexByte(rest, '\n'); i >= 0 {
				rest = rest[:i]
			}
			return rest
		}
		if got := lineAt(s.ModifiersByte); got != tt.mods {
			t.Errorf("%s %s: text at ModifiersByte %q, want %q", tt.lang, tt.namePath, got, tt.mods)
		}
		if got := lineAt(s.KeywordByte); got != tt.kw {
			t.Errorf("%s %s: text at KeywordByte %q, want %q", tt.lang, tt.namePath, got, tt.kw)
		}
	}
}

// TestHeadOffsetsOnFixtures checks every symbol of the real fixtures: the
// text at KeywordByte begins with the definition, the text at ModifiersByte
// with a modifier when there are modifiers, the text at ImplByte with a
// decorator or annotation when there are some, and the text at StartByte
// with an overload signature when there are some.
func TestHeadOffsetsOnFixtures(t *testing.T) {
	for _, f := range fixtures(t) {
		syms, err := symbols.Extract(context.Background(), f.Src, f.Lang)
		if err != nil {
			t.Fatal(err)
		}
		src := string(f.Src)
		for _, s := range syms {
			if got := symbols.TextLead(f.Lang, src[s.KeywordByte:s.EndByte]); got != symbols.LeadDefinition {
				t.Errorf("%s %s: text at KeywordByte %.40q begins with a %v", f.Rel, s.NamePath, src[s.KeywordByte:], got)
			}
			if s.ModifiersByte < s.KeywordByte {
				if got := symbols.TextLead(f.Lang, src[s.ModifiersByte:s.EndByte]); got != symbols.LeadModifier {
					t.Errorf("%s %s: text at ModifiersByte %.40q begins with a %v", f.Rel, s.NamePath, src[s.ModifiersByte:], got)
				}
			}
			if s.ImplByte < s.ModifiersByte {
				if got := symbols.TextLead(f.Lang, src[s.ImplByte:s.EndByte]); got != symbols.LeadDecorator {
					t.Errorf("%s %s: text at ImplByte %.40q begins with a %v", f.Rel, s.NamePath, src[s.ImplByte:], got)
				}
			}
			if s.StartByte < s.ImplByte && !symbols.SendsOverloads(f.Lang, s.Kind, src[s.StartByte:s.EndByte]) {
				t.Errorf("%s %s: text at StartByte %.40q is not an overload signature", f.Rel, s.NamePath, src[s.StartByte:])
			}
		}
	}
}

func TestSendsOverloads(t *testing.T) {
	tests := []struct {
		lang string
		kind symbols.Kind
		text string
		want bool
	}{
		{"typescript", symbols.KindFunction, "function f(a: string): void;\nfunction f(a: any) {}\n", true},
		{"typescript", symbols.KindFunction, "/** doc */\nexport function f(a: string): void;\nexport function f(a: any) {}\n", true},
		{"typescript", symbols.KindFunction, "export function f(a: any) {}\n", false},
		{"typescript", symbols.KindFunction, "declare function f(a: string): void;\n", true},
		{"typescript", symbols.KindMethod, "f(a: string): void;\nf(a: any) {}\n", true},
		{"typescript", symbols.KindMethod, "// c\n  public f(a: string): void;\n  public f(a: any) {}\n", true},
		{"typescript", symbols.KindMethod, "@dec\nf(a: any) {}\n", false},
		{"typescript", symbols.KindConstructor, "constructor(kind: 'N', value?: T);\nconstructor(kind: string) {}\n", true},
		{"typescript", symbols.KindConstructor, "constructor(kind: string) {}\n", false},
		{"tsx", symbols.KindFunction, "function f(a: string): JSX.Element;\nfunction f(a: any) { return <div/>; }\n", true},
		{"javascript", symbols.KindFunction, "function f(a) {}\n", false},
		{"java", symbols.KindMethod, "void f();\n", false},
		{"typescript", symbols.KindFunction, "", false},
	}
	for _, tt := range tests {
		if got := symbols.SendsOverloads(language(t, tt.lang), tt.kind, tt.text); got != tt.want {
			t.Errorf("SendsOverloads(%s, %s, %q) = %v, want %v", tt.lang, tt.kind, tt.text, got, tt.want)
		}
	}
}
