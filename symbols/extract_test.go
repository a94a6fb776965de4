package symbols_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/symedit/symedit/internal/lines"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

func language(t testing.TB, name string) *lang.Language {
	t.Helper()
	l, err := lang.ByName(name)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func extract(t testing.TB, lang, src string) []symbols.Symbol {
	t.Helper()
	syms, err := symbols.Extract(context.Background(), []byte(src), language(t, lang))
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, lang, []byte(src), syms)
	return syms
}

// summary renders symbols as "name_path kind L:C-L:C" lines.
func summary(syms []symbols.Symbol) string {
	var b strings.Builder
	for _, s := range syms {
		fmt.Fprintf(&b, "%s %s %d:%d-%d:%d\n", s.NamePath, s.Kind, s.Start.Line, s.Start.Column, s.End.Line, s.End.Column)
	}
	return b.String()
}

// position returns the 1-based line and byte column of byte offset off,
// lines counted as edit.Document counts them: at LF, or at CR in a file
// whose dominant line ending is a lone CR.
func position(src []byte, off int) symbols.Position {
	sep := byte('\n')
	if lines.DominantEnding(string(src)) == "\r" {
		sep = '\r'
	}
	line := 1 + bytes.Count(src[:off], []byte{sep})
	col := off - (bytes.LastIndexByte(src[:off], sep) + 1) + 1
	return symbols.Position{Line: line, Column: col}
}

// checkInvariants checks what must hold for any input: byte ranges and
// positions agree, ranges are non-empty and nest, parents come first and
// contain their children, name paths are unique and built from the
// parent's.
func checkInvariants(t testing.TB, lang string, src []byte, syms []symbols.Symbol) {
	t.Helper()
	paths := map[string]bool{}
	for i, s := range syms {
		if s.StartByte < 0 || s.EndByte > len(src) || s.StartByte >= s.EndByte {
			t.Errorf("%s: bad byte range %d-%d (len %d)", s.NamePath, s.StartByte, s.EndByte, len(src))
			continue
		}
		if p := position(src, s.StartByte); p != s.Start {
			t.Errorf("%s: Start %v, StartByte %d is at %v", s.NamePath, s.Start, s.StartByte, p)
		}
		if p := position(src, s.EndByte); p != s.End {
			t.Errorf("%s: End %v, EndByte %d is at %v", s.NamePath, s.End, s.EndByte, p)
		}
		if !(s.StartByte <= s.ImplByte && s.ImplByte <= s.ModifiersByte && s.ModifiersByte <= s.KeywordByte && s.KeywordByte < s.EndByte) {
			t.Errorf("%s: StartByte %d, ImplByte %d, ModifiersByte %d, KeywordByte %d, EndByte %d out of order",
				s.NamePath, s.StartByte, s.ImplByte, s.ModifiersByte, s.KeywordByte, s.EndByte)
		}
		if i > 0 {
			prev := syms[i-1]
			if s.StartByte < prev.StartByte || s.StartByte == prev.StartByte && s.EndByte > prev.EndByte {
				t.Errorf("%s: not in source order after %s", s.NamePath, prev.NamePath)
			}
		}
		if s.Name == "" || s.NamePath == "" || s.Kind == "" {
			t.Errorf("symbol %d: empty name, name path or kind: %+v", i, s)
		}
		if paths[s.NamePath] {
			t.Errorf("duplicate name path %s", s.NamePath)
		}
		paths[s.NamePath] = true
		if s.Parent >= i || s.Parent < -1 {
			t.Errorf("%s: parent %d", s.NamePath, s.Parent)
			continue
		}
		if s.Parent >= 0 {
			p := syms[s.Parent]
			if s.StartByte < p.StartByte || s.EndByte > p.EndByte {
				t.Errorf("%s: not inside parent %s", s.NamePath, p.NamePath)
			}
			if !strings.HasPrefix(s.NamePath, memberPath(syms, s.Parent)+"/") {
				t.Errorf("%s: name path does not extend parent's %s", s.NamePath, p.NamePath)
			}
		}
		// Ranges never start or end inside a comment line's text.
		text := string(src[s.StartByte:s.EndByte])
		comment := strings.HasPrefix(text, "//") || strings.HasPrefix(text, "/*")
		if lang == "python" {
			comment = strings.HasPrefix(text, "#")
		}
		if comment {
			t.Errorf("%s: range starts with a comment: %.30q", s.NamePath, text)
		}
	}
}

// memberPath returns the name path that the members of syms[i] extend:
// its name path, or for a Rust impl block ("impl Display for Point") its
// parent's member path and the block's self type ("Point").
func memberPath(syms []symbols.Symbol, i int) string {
	s := syms[i]
	if s.Kind != symbols.KindImpl {
		return s.NamePath
	}
	self := strings.TrimPrefix(s.Name, "impl ")
	if j := strings.LastIndex(self, " for "); j >= 0 {
		self = self[j+len(" for "):]
	}
	if s.Parent >= 0 {
		return memberPath(syms, s.Parent) + "/" + self
	}
	return self
}

func expectSymbols(t *testing.T, lang, src, want string) []symbols.Symbol {
	t.Helper()
	syms := extract(t, lang, src)
	if got := summary(syms); got != strings.TrimLeft(want, "\n") {
		t.Errorf("%s symbols:\n%s\nwant:\n%s", lang, got, strings.TrimLeft(want, "\n"))
	}
	return syms
}

func TestPython(t *testing.T) {
	const src = `import functools

# A comment above the class is not part of it.
@functools.total_ordering
@dataclass(frozen=True)
class Point:
    """A point."""

    @property
    def x(self):
        return self._x
        # trailing comment swallowed by the block

    @x.setter
    def x(self, v):
        self._x = v

    async def fetch(self):
        def helper():
            class Local:
                def run(self):
                    pass
            return Local
        return helper
    # comment at the end of the class body

def top():  # trailing
    def nested():
        pass
    return nested
# comment after top

async def main(): pass  # same-line comment
`
	syms := expectSymbols(t, "python", src, `
Point class 4:1-24:22
Point/x method 9:5-11:23
Point/x[2] method 14:5-16:20
Point/fetch method 18:5-24:22
Point/fetch/helper function 19:9-23:25
Point/fetch/helper/Local class 20:13-22:25
Point/fetch/helper/Local/run method 21:17-22:25
top function 27:1-30:18
top/nested function 28:5-29:13
main function 33:1-33:23
`)
	if syms[0].Selection != (symbols.Position{Line: 6, Column: 7}) {
		t.Errorf("Point selection = %v", syms[0].Selection)
	}
	if syms[1].Parent != 0 || syms[4].Parent != 3 || syms[0].Parent != -1 {
		t.Errorf("parents: %d %d %d", syms[1].Parent, syms[4].Parent, syms[0].Parent)
	}
}

func TestPythonPartialFile(t *testing.T) {
	// A syntax error in the middle: the definitions before and after are
	// still found.
	const src = "def ok():\n    return 1\n\ndef broken(:\n    pass\n\nclass After:\n    def m(self): pass\n"
	syms := extract(t, "python", src)
	got := summary(syms)
	for _, want := range []string{"ok function 1:1-2:13", "After class 7:1-8:22", "After/m method 8:5-8:22"} {
		if !strings.Contains(got, want+"\n") {
			t.Errorf("partial file: missing %q in\n%s", want, got)
		}
	}
}

func TestGo(t *testing.T) {
	const src = `package p

// X is documented; the comment is not part of the range.
type X struct{ a int }

type (
	// A is grouped.
	A int
	B struct{}
	C = A
	I interface{ M() }
)

type List[T any] struct{ items []T }

type Single = int

// Len has a doc comment.
func (l *List[T]) Len() int { return len(l.items) }

func (List[T]) Get() {}

func (p (*X)) Paren() {}

func F[T any](x T) {
	type local struct{}
}

func init() {}
func init() {}

/* é */ func Asm(x int) int
`
	syms := expectSymbols(t, "go", src, `
X struct 4:1-4:23
A type 8:2-8:7
B struct 9:2-9:12
C type 10:2-10:7
I interface 11:2-11:20
List struct 14:1-14:37
Single type 16:1-16:18
List/Len method 19:1-19:52
List/Get method 21:1-21:24
X/Paren method 23:1-23:25
F function 25:1-27:2
F/local struct 26:2-26:21
init function 29:1-29:15
init[2] function 30:1-30:15
Asm function 32:10-32:29
`)
	for _, s := range syms {
		want := -1
		if s.NamePath == "F/local" {
			want = 10 // a type declared in F's body
		}
		if s.Parent != want {
			t.Errorf("%s: parent %d, want %d", s.NamePath, s.Parent, want)
		}
	}
	if s := syms[7]; s.Name != "Len" || s.Selection != (symbols.Position{Line: 19, Column: 19}) {
		t.Errorf("Len: name %q selection %v", s.Name, s.Selection)
	}
}

// TestGoReceiverSkipsComments checks that a method whose receiver type
// has a comment inside is named after the type, not the comment
// (tree-sitter puts the comment first among a pointer or parenthesized
// type's named children).
func TestGoReceiverSkipsComments(t *testing.T) {
	expectSymbols(t, "go", "package p\n\nfunc (x * /* c */ T) M() {}\nfunc (x ( /* c */ T)) N() {}\n", `
T/M method 3:1-3:28
T/N method 4:1-4:29
`)
}

func TestJava(t *testing.T) {
	const src = `package p;

/** Javadoc is not part of the class. */
@Deprecated
// a comment between the annotation and the declaration
public class Shop<T> extends Base {
    // a line comment above a constructor
    @Inject
    public Shop() { super(); }
    Shop(int n) { this(); }

    /** add one */
    void add(int a) {}
    void add(String s) {}

    static class Nested { void n() {} }

    interface Api {
        void call();
        default void d() {}
    }

    enum Color {
        RED { void special() {} }, GREEN;
        private Color() {}
        int code() { return 1; }
    }

    record Range(int lo, int hi) {
        Range { assert lo <= hi; }
        int size() { return hi - lo; }
    }

    @interface Tag { String value() default ""; }

    void run() {
        class Local { void go() {} }
        Runnable r = new Runnable() { public void run() {} };
        Runnable q = () -> {};
    }
}
`
	expectSymbols(t, "java", src, `
Shop class 4:1-41:2
Shop/Shop constructor 8:5-9:31
Shop/Shop[2] constructor 10:5-10:28
Shop/add method 13:5-13:23
Shop/add[2] method 14:5-14:26
Shop/Nested class 16:5-16:40
Shop/Nested/n method 16:27-16:38
Shop/Api interface 18:5-21:6
Shop/Api/call method 19:9-19:21
Shop/Api/d method 20:9-20:28
Shop/Color enum 23:5-27:6
Shop/Color/RED class 24:9-24:34
Shop/Color/RED/special method 24:15-24:32
Shop/Color/Color constructor 25:9-25:27
Shop/Color/code method 26:9-26:33
Shop/Range record 29:5-32:6
Shop/Range/Range constructor 30:9-30:35
Shop/Range/size method 31:9-31:39
Shop/Tag annotation 34:5-34:50
Shop/Tag/value method 34:22-34:48
Shop/run method 36:5-40:6
Shop/run/Local class 37:9-37:37
Shop/run/Local/go method 37:23-37:35
Shop/run/Runnable$1 class 38:22-38:61
Shop/run/Runnable$1/run method 38:39-38:59
`)
}

func TestTypeScript(t *testing.T) {
	const src = `/** doc */
@Component({})
export class Widget extends Base {
  @Input() size: number;
  /** method doc */
  @HostListener('click')
  @Other
  onClick() {}
  get value(): number { return 1 }
  set value(v: number) {}
  constructor(private a: number) { super(); }
  foo(a: string): void;
  foo(a: number): void;
  foo(a: any) {}
  static async *gen() {}
  #secret() {}
}
export default class { m() {} }
export abstract class Shape { abstract area(): number; }
export interface Props { m(): void; x: number }
export enum Color { Red }
export type Id = string;
declare function ambient(x: number): void;
function over(a: string): void;
function over(a: any) { function nested() {} }
export const arrow = (a: number) => a;
const fexpr = function () {};
let two = async () => {}, three = () => 3;
var v = () => 1 // trailing comment
const notFn = 1;
namespace NS { export function inner() {} const inNs = () => 0; }
declare module "pkg/name" {}
function* gen() { const local = () => 1; }
const obj = { m() {}, get g() { return 1 } };
const Klass = class { km() {} };
@dec class Plain {}
`
	expectSymbols(t, "typescript", src, `
Widget class 2:1-17:2
Widget/onClick method 6:3-8:15
Widget/value method 9:3-9:35
Widget/value[2] method 10:3-10:26
Widget/constructor constructor 11:3-11:46
Widget/foo method 12:3-14:17
Widget/gen method 15:3-15:25
Widget/#secret method 16:3-16:15
default class 18:1-18:32
default/m method 18:24-18:30
Shape class 19:1-19:57
Shape/area method 19:31-19:55
Props interface 20:1-20:48
Color enum 21:1-21:26
Id type 22:1-22:25
ambient function 23:1-23:43
over function 24:1-25:47
over/nested function 25:25-25:45
arrow function 26:1-26:39
fexpr function 27:1-27:30
two function 28:5-28:25
three function 28:27-28:42
v function 29:1-29:16
NS namespace 31:1-31:66
NS/inner function 31:16-31:42
NS/inNs function 31:43-31:64
"pkg/name" namespace 32:1-32:29
gen function 33:1-33:43
Klass class 35:1-35:33
Klass/km method 35:23-35:30
Plain class 36:1-36:20
`)
}

func TestTypeScriptOverloadsAndAmbient(t *testing.T) {
	const src = `export function parse(v: string): number;
export function parse(v: number): number;
export function parse(v: any): number { return 0 }
declare function lonely(): void;
declare function twice(a: string): void;
declare function twice(a: number): void;
export declare function exported(): void;
declare class Decl { m(): void; m(a: number): void; }
declare global { interface Window { app: string } }
declare class Ctor { constructor(a: string); constructor(a: number); }
`
	expectSymbols(t, "typescript", src, `
parse function 1:1-3:51
lonely function 4:1-4:33
twice function 5:1-5:41
twice[2] function 6:1-6:41
exported function 7:1-7:42
Decl class 8:1-8:54
Decl/m method 8:22-8:32
Decl/m[2] method 8:33-8:52
global namespace 9:1-9:52
global/Window interface 9:18-9:50
Ctor class 10:1-10:71
Ctor/constructor constructor 10:22-10:45
Ctor/constructor[2] constructor 10:46-10:69
`)
}

func TestTSX(t *testing.T) {
	const src = `export function Button(props: { label: string }) {
  const onClick = () => {};
  return <button onClick={onClick}>{props.label}</button>;
}
export const Card = ({ title }: { title: string }) => <div>{title}</div>;
export default class Counter extends Component<{}, {}> {
  render() { return <span />; }
}
`
	expectSymbols(t, "tsx", src, `
Button function 1:1-4:2
Card function 5:1-5:74
Counter class 6:1-8:2
Counter/render method 7:3-7:32
`)
}

func TestJavaScript(t *testing.T) {
	const src = `// comment
@dec class A {
  @m foo() {}
  constructor() {}
  static #priv() {}
  get [Symbol.iterator]() {}
}
export default function () {}
export const g = () => {};
var h = function named() {};
module.exports = function () {};
function* gen() {}
`
	expectSymbols(t, "javascript", src, `
A class 2:1-7:2
A/foo method 3:3-3:14
A/constructor constructor 4:3-4:19
A/#priv method 5:3-5:20
A/[Symbol.iterator] method 6:3-6:29
default function 8:1-8:30
g function 9:1-9:27
h function 10:1-10:29
gen function 12:1-12:19
`)
}

// TestColumnsAreBytes checks that a multi-byte character before a symbol
// counts as its bytes.
func TestColumnsAreBytes(t *testing.T) {
	syms := extract(t, "python", "x = 'é'; y = 2\nclass C:\n    def m(self): return 'ü'\n")
	if got := summary(syms); got != "C class 2:1-3:29\nC/m method 3:5-3:29\n" {
		t.Errorf("got\n%s", got)
	}
	syms = extract(t, "go", "package p\n/* é */ func F() {}\n")
	if syms[0].Start != (symbols.Position{Line: 2, Column: 10}) || syms[0].StartByte != 19 {
		t.Errorf("F start %v byte %d", syms[0].Start, syms[0].StartByte)
	}
}

func TestEmptyAndNil(t *testing.T) {
	for _, l := range lang.Languages() {
		for _, src := range [][]byte{nil, {}, []byte("\n\n"), []byte("   "), []byte("// just a comment\n"), []byte("# c\n")} {
			syms, err := symbols.Extract(context.Background(), src, l)
			if err != nil || len(syms) != 0 {
				t.Errorf("%s: Extract(%q) = %v, %v", l.Name, src, syms, err)
			}
		}
	}
	if _, err := symbols.Extract(context.Background(), []byte("x"), nil); err == nil {
		t.Error("Extract with a nil language: no error")
	}
}

func TestGarbageDoesNotPanic(t *testing.T) {
	inputs := []string{
		"}}}}{{{{", "class", "def", "func (", "func (x *", "type (", "@", "@@@ class X", "export default",
		"class A { m( { }", "def f(:\n  class", "public class { void }", "\x00\xff\xfe", strings.Repeat("(", 1000),
		"namespace", "declare", "export declare", "const f = (", "enum {", "interface I { m(",
	}
	for _, l := range lang.Languages() {
		for _, in := range inputs {
			syms, err := symbols.Extract(context.Background(), []byte(in), l)
			if err != nil {
				t.Errorf("%s: %q: %v", l.Name, in, err)
			}
			checkInvariants(t, l.Name, []byte(in), syms)
		}
	}
}

func TestCanceledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := symbols.Extract(ctx, []byte("def f(): pass\n"), language(t, "python"))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Extract with a canceled context: %v", err)
	}

	// A deadline that expires during a long parse stops it.
	big := bytes.Repeat([]byte("def f(x):\n    if x:\n        return [i for i in range(x)]\n"), 200000)
	ctx, cancel = context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	_, err = symbols.Extract(ctx, big, language(t, "python"))
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Extract with an expiring deadline: %v", err)
	}
}

func FuzzExtract(f *testing.F) {
	for _, s := range []string{"def f():\n  pass\n", "package p\nfunc (l *L[T]) M() {}\n", "class A { void m() {} }", "export default class { m() {} }"} {
		f.Add(s, uint8(0))
	}
	// The harder cases (CR-only lines, local types, anonymous classes,
	// enum constant bodies, annotation elements, overload signatures),
	// each with its language's index in lang.Languages(): python 0, go 1,
	// java 2, typescript 3.
	f.Add("def f(a):\r    x = 1\r\rdef g():\r    pass\r", uint8(0))
	f.Add("package p\nfunc F() {\n\ttype t struct{}\n\tf := func() { type u int }\n}\n", uint8(1))
	f.Add("class A { Object o = new B(new C() { void c() {} }) { void b() {} }; enum E { X { void x() {} } } @interface N { int v() default 1; } }", uint8(2))
	f.Add("class N { @d constructor(a: 'N');\n constructor(a: string) {}\n m(): void; abstract n(): void; }\nexport function f(a: string): void;\nexport function f(a: any) {}\ndeclare global { interface W {} }\n", uint8(3))
	langs := lang.Languages()
	f.Fuzz(func(t *testing.T, src string, li uint8) {
		l := langs[int(li)%len(langs)]
		syms, err := symbols.Extract(context.Background(), []byte(src), l)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, l.Name, []byte(src), syms)
	})
}

// TestCRLF checks that Windows line endings do not end up in ranges and
// that Locate does not count the '\r' as part of a line.
func TestCRLF(t *testing.T) {
	src := "class A:\r\n    def f(self):\r\n        pass\r\n    # c\r\n\r\ndef g():\r\n    return 1\r\n"
	syms := expectSymbols(t, "python", src, `
A class 1:1-3:13
A/f method 2:5-3:13
g function 6:1-7:13
`)
	i, err := symbols.Locate(syms, []byte(src), symbols.Location{Path: "w.py", Line: 7, Column: 13})
	if err != nil || syms[i].NamePath != "g" {
		t.Errorf("Locate(7:13) = %d, %v", i, err)
	}
	if _, err := symbols.Locate(syms, []byte(src), symbols.Location{Path: "w.py", Line: 7, Column: 14}); !errors.Is(err, symbols.ErrNoMatch) {
		t.Errorf("Locate(7:14) = %v, want past the end of the line", err)
	}
	expectSymbols(t, "go", "package p\r\n\r\nfunc F() {\r\n}\r\n", "F function 3:1-4:2\n")
}
