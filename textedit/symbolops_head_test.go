package textedit_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
	"github.com/symedit/symedit/textedit"
)

// symTarget locates namePath in doc as the CLI does and returns its
// SymbolLines, Head included.
func symTarget(t *testing.T, doc *edit.Document, namePath string) textedit.SymbolLines {
	t.Helper()
	lang, err := lang.ForPath(doc.Path)
	if err != nil {
		t.Fatal(err)
	}
	syms, err := symbols.Extract(context.Background(), doc.Text, lang)
	if err != nil {
		t.Fatal(err)
	}
	i, err := symbols.Locate(syms, doc.Text, symbols.Location{Path: doc.Path, NamePath: namePath})
	if err != nil {
		t.Fatal(err)
	}
	s := syms[i]
	return textedit.SymbolLines{
		First:      doc.LineAt(s.StartByte),
		Last:       doc.LineAt(s.EndByte - 1),
		BlankLines: 1,
		Head:       textedit.HeadOf(s, lang),
	}
}

// TestReplaceSymbolKeepsHead checks on real code that replace-body keeps the
// decorators, annotations and modifiers that the new text does not start
// with, replaces the whole symbol when the text starts with a decorator or
// annotation, and says which.
func TestReplaceSymbolKeepsHead(t *testing.T) {
	const tsSrc = `export class Panel {
  @Input() @Log("x")
  public static async load(id: string): Promise<void> {
    await fetch(id);
  }

  static() { return 1; }
}

export function render(p: Panel): string {
  return String(p);
}
`
	const javaSrc = `class Point {
    private final int x;

    Point(int x) { this.x = x; }

    @Override public String toString() { return "Point"; }
}
`
	tests := []struct {
		name     string
		doc      func(t *testing.T) *edit.Document
		namePath string
		text     string
		replaced textedit.Replaced
		kept     string
		want     []string // the symbol's new lines
	}{
		{
			name: "python: def sent without @wraps(func), flush-left",
			doc:  fixtureDoc("python/contextlib_excerpt.py"), namePath: "contextmanager/helper",
			text:     "def helper(*args, **kwds):\n    return _GeneratorContextManager(func, args, dict(kwds))\n",
			replaced: textedit.ReplacedFromKeyword, kept: "@wraps(func)",
			want: []string{
				"    @wraps(func)",
				"    def helper(*args, **kwds):",
				"        return _GeneratorContextManager(func, args, dict(kwds))",
			},
		},
		{
			name: "python: text with the decorator replaces the whole symbol",
			doc:  fixtureDoc("python/contextlib_excerpt.py"), namePath: "contextmanager/helper",
			text:     "@functools.wraps(func)\ndef helper(*args, **kwds):\n    return None\n",
			replaced: textedit.ReplacedWhole,
			want: []string{
				"    @functools.wraps(func)",
				"    def helper(*args, **kwds):",
				"        return None",
			},
		},
		{
			name: "python: a comment before the def is not a decorator",
			doc:  fixtureDoc("python/contextlib_excerpt.py"), namePath: "contextmanager/helper",
			text:     "    # Wrap the generator.\n    def helper(*args, **kwds):\n        return None\n",
			replaced: textedit.ReplacedFromKeyword, kept: "@wraps(func)",
			want: []string{
				"    @wraps(func)",
				"    # Wrap the generator.",
				"    def helper(*args, **kwds):",
				"        return None",
			},
		},
		{
			name: "python: a property setter keeps @name.setter",
			doc:  fixtureDoc("python/process.py"), namePath: "BaseProcess/name[2]",
			text:     "def name(self, name):\n    self._name = str(name)\n",
			replaced: textedit.ReplacedFromKeyword, kept: "@name.setter",
			want: []string{
				"    @name.setter",
				"    def name(self, name):",
				"        self._name = str(name)",
			},
		},
		{
			name: "python: an undecorated function is replaced whole",
			doc:  fixtureDoc("python/process.py"), namePath: "BaseProcess/start",
			text:     "def start(self):\n    pass\n",
			replaced: textedit.ReplacedWhole,
			want:     []string{"    def start(self):", "        pass"},
		},
		{
			name: "java: modifiers sent, annotations kept",
			doc:  fixtureDoc("java/Inventory.java"), namePath: "Inventory/iterator",
			text:     "public Iterator<Item> iterator() {\n    return List.copyOf(items.values()).iterator();\n}\n",
			replaced: textedit.ReplacedFromModifiers,
			kept:     "@Override\n@SuppressWarnings({\n\"unused\",\n\"static-access\"\n})",
			want: []string{
				"    @Override",
				"    @SuppressWarnings({",
				"        \"unused\",",
				"        \"static-access\"",
				"    })",
				"    public Iterator<Item> iterator() {",
				"        return List.copyOf(items.values()).iterator();",
				"    }",
			},
		},
		{
			name: "java: return type sent, annotations and modifiers kept",
			doc:  fixtureDoc("java/Inventory.java"), namePath: "Inventory/add[3]",
			text:     "Item add(String sku, int quantity, Category category) {\n    return add(new Item(sku, quantity, category));\n}\n",
			replaced: textedit.ReplacedFromKeyword,
			kept:     "@Audited(\ncategory = \"stock\",\nlevel = Audited.Level.HIGH)\npublic",
			want: []string{
				"    @Audited(",
				"        category = \"stock\",",
				"        level = Audited.Level.HIGH)",
				"    public Item add(String sku, int quantity, Category category) {",
				"        return add(new Item(sku, quantity, category));",
				"    }",
			},
		},
		{
			name: "java: annotations sent replace the whole symbol",
			doc:  fixtureDoc("java/Inventory.java"), namePath: "Inventory/iterator",
			text:     "@Override\npublic Iterator<Item> iterator() {\n    return null;\n}\n",
			replaced: textedit.ReplacedWhole,
			want: []string{
				"    @Override",
				"    public Iterator<Item> iterator() {",
				"        return null;",
				"    }",
			},
		},
		{
			name: "java: an anonymous class keeps the code around it on its lines",
			doc:  fixtureDoc("java/Inventory.java"), namePath: "Inventory/byQuantity/Comparator$1",
			text:     "new Comparator<Item>() {\n    public int compare(Item a, Item b) {\n        return Integer.compare(a.quantity, b.quantity);\n    }\n}\n",
			replaced: textedit.ReplacedWhole,
			want: []string{
				"        sorted.sort(new Comparator<Item>() {",
				"            public int compare(Item a, Item b) {",
				"                return Integer.compare(a.quantity, b.quantity);",
				"            }",
				"        });",
			},
		},
		{
			// The whole lines, as show prints them and a model sends them
			// back: the code around the class is written once.
			name: "java: an anonymous class sent with the code around it on its lines",
			doc:  fixtureDoc("java/Inventory.java"), namePath: "Inventory/byQuantity/Comparator$1",
			text:     "sorted.sort(new Comparator<Item>() {\n    public int compare(Item a, Item b) {\n        return Integer.compare(b.quantity, a.quantity);\n    }\n});\n",
			replaced: textedit.ReplacedWhole,
			want: []string{
				"        sorted.sort(new Comparator<Item>() {",
				"            public int compare(Item a, Item b) {",
				"                return Integer.compare(b.quantity, a.quantity);",
				"            }",
				"        });",
			},
		},
		{
			name: "java: a method of an anonymous class keeps @Override",
			doc:  fixtureDoc("java/Inventory.java"), namePath: "Inventory/byQuantity/Comparator$1/compare",
			text:     "public int compare(Item a, Item b) {\n    return 0;\n}\n",
			replaced: textedit.ReplacedFromModifiers, kept: "@Override",
			want: []string{
				"            @Override",
				"            public int compare(Item a, Item b) {",
				"                return 0;",
				"            }",
			},
		},
		{
			name: "java: annotation and modifier on the keyword's line",
			doc:  inlineDoc("Point.java", javaSrc), namePath: "Point/toString",
			text:     "String toString() {\n    return \"Point(\" + x + \")\";\n}\n",
			replaced: textedit.ReplacedFromKeyword, kept: "@Override public",
			want: []string{
				"    @Override public String toString() {",
				"        return \"Point(\" + x + \")\";",
				"    }",
			},
		},
		{
			name: "typescript: name sent, decorators and modifiers kept",
			doc:  inlineDoc("panel.ts", tsSrc), namePath: "Panel/load",
			text:     "load(id: string): Promise<void> {\n  return Promise.resolve();\n}\n",
			replaced: textedit.ReplacedFromKeyword, kept: "@Input() @Log(\"x\")\npublic static async",
			want: []string{
				"  @Input() @Log(\"x\")",
				"  public static async load(id: string): Promise<void> {",
				"    return Promise.resolve();",
				"  }",
			},
		},
		{
			name: "typescript: modifiers sent, decorators kept",
			doc:  inlineDoc("panel.ts", tsSrc), namePath: "Panel/load",
			text:     "  async load(id: string): Promise<void> {\n    await fetch(id + \"?\");\n  }\n",
			replaced: textedit.ReplacedFromModifiers, kept: "@Input() @Log(\"x\")",
			want: []string{
				"  @Input() @Log(\"x\")",
				"  async load(id: string): Promise<void> {",
				"    await fetch(id + \"?\");",
				"  }",
			},
		},
		{
			name: "typescript: a method named static is not a modifier",
			doc:  inlineDoc("panel.ts", tsSrc), namePath: "Panel/static",
			text:     "static() { return 2; }\n",
			replaced: textedit.ReplacedWhole,
			want:     []string{"  static() { return 2; }"},
		},
		{
			name: "typescript: export kept when the function is sent without it",
			doc:  inlineDoc("panel.ts", tsSrc), namePath: "render",
			text:     "function render(p: Panel): string {\n  return \"panel\";\n}\n",
			replaced: textedit.ReplacedFromKeyword, kept: "export",
			want: []string{
				"export function render(p: Panel): string {",
				"  return \"panel\";",
				"}",
			},
		},
		{
			name: "typescript: export sent replaces the whole symbol",
			doc:  inlineDoc("panel.ts", tsSrc), namePath: "render",
			text:     "export function render(p: Panel): string {\n  return \"panel\";\n}\n",
			replaced: textedit.ReplacedWhole,
			want: []string{
				"export function render(p: Panel): string {",
				"  return \"panel\";",
				"}",
			},
		},
	}
	const sigs = "export function parsePriority(value: string): Priority;\nexport function parsePriority(value: number): Priority;"
	const schedSigs = "schedule<T>(job: Job<T>): Job<T>;\nschedule<T>(fn: (ctx: JobContext) => Promise<T>, options?: ScheduleOptions): Job<T>;"
	tests = append(tests, []struct {
		name     string
		doc      func(t *testing.T) *edit.Document
		namePath string
		text     string
		replaced textedit.Replaced
		kept     string
		want     []string
	}{
		{
			name: "typescript: the implementation sent keeps its overload signatures",
			doc:  fixtureDoc("typescript/scheduler.ts"), namePath: "parsePriority",
			text:     "export function parsePriority(value: string | number): Priority {\n  return Priority.Normal;\n}\n",
			replaced: textedit.ReplacedFromModifiers, kept: sigs,
			want: []string{
				"export function parsePriority(value: string): Priority;",
				"export function parsePriority(value: number): Priority;",
				"export function parsePriority(value: string | number): Priority {",
				"  return Priority.Normal;",
				"}",
			},
		},
		{
			name: "typescript: overload signatures sent replace the whole symbol",
			doc:  fixtureDoc("typescript/scheduler.ts"), namePath: "parsePriority",
			text:     "export function parsePriority(value: string): Priority;\nexport function parsePriority(value: string): Priority {\n  return Priority.Normal;\n}\n",
			replaced: textedit.ReplacedWhole,
			want: []string{
				"export function parsePriority(value: string): Priority;",
				"export function parsePriority(value: string): Priority {",
				"  return Priority.Normal;",
				"}",
			},
		},
		{
			name: "typescript: a method sent without decorator keeps @logged and its overloads",
			doc:  fixtureDoc("typescript/scheduler.ts"), namePath: "Scheduler/schedule",
			text:     "schedule<T>(jobOrFn: Job<T> | ((ctx: JobContext) => Promise<T>)): Job<T> {\n  return jobOrFn as Job<T>;\n}\n",
			replaced: textedit.ReplacedFromKeyword, kept: schedSigs + "\n@logged",
			want: []string{
				"  schedule<T>(job: Job<T>): Job<T>;",
				"  schedule<T>(fn: (ctx: JobContext) => Promise<T>, options?: ScheduleOptions): Job<T>;",
				"  @logged",
				"  schedule<T>(jobOrFn: Job<T> | ((ctx: JobContext) => Promise<T>)): Job<T> {",
				"    return jobOrFn as Job<T>;",
				"  }",
			},
		},
		{
			name: "typescript: a decorated method sent keeps its overloads only",
			doc:  fixtureDoc("typescript/scheduler.ts"), namePath: "Scheduler/schedule",
			text:     "  @traced\n  schedule<T>(jobOrFn: Job<T>): Job<T> {\n    return jobOrFn;\n  }\n",
			replaced: textedit.ReplacedFromImplementation, kept: schedSigs,
			want: []string{
				"  schedule<T>(job: Job<T>): Job<T>;",
				"  schedule<T>(fn: (ctx: JobContext) => Promise<T>, options?: ScheduleOptions): Job<T>;",
				"  @traced",
				"  schedule<T>(jobOrFn: Job<T>): Job<T> {",
				"    return jobOrFn;",
				"  }",
			},
		},
		{
			name: "typescript: a method's overloads sent replace the whole symbol",
			doc:  fixtureDoc("typescript/scheduler.ts"), namePath: "Scheduler/schedule",
			text:     "schedule<T>(job: Job<T>): Job<T>;\nschedule<T>(job: Job<T>): Job<T> {\n  return job;\n}\n",
			replaced: textedit.ReplacedWhole,
			want: []string{
				"  schedule<T>(job: Job<T>): Job<T>;",
				"  schedule<T>(job: Job<T>): Job<T> {",
				"    return job;",
				"  }",
			},
		},
	}...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := tt.doc(t)
			s := symTarget(t, doc, tt.namePath)
			e, pl, err := textedit.ReplaceSymbol(doc, s, tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if pl.Replaced != tt.replaced || pl.Kept != tt.kept {
				t.Errorf("Replaced %q, Kept %q; want %q, %q", pl.Replaced, pl.Kept, tt.replaced, tt.kept)
			}
			_, got := symApply(t, doc, e, s.First, s.Last)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("new lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func fixtureDoc(rel string) func(t *testing.T) *edit.Document {
	return func(t *testing.T) *edit.Document { return symDoc(t, filepath.FromSlash(rel)) }
}

func inlineDoc(name, src string) func(t *testing.T) *edit.Document {
	return func(t *testing.T) *edit.Document {
		doc, err := edit.NewDocument(name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
}

// TestReplaceSymbolCROnly checks through the edit layer that on a file whose
// lines end with a lone CR, replace-body replaces the symbol's real lines
// (none of the old body is left) and writes CR endings.
func TestReplaceSymbolCROnly(t *testing.T) {
	tests := []struct {
		name, file, src, namePath, text, want string
	}{
		{
			name: "python", file: "cr.py", namePath: "f",
			src:  "def f(a):\r    x = 1\r    return x\r\rdef g():\r    pass\r",
			text: "def f(a):\n    return a + 1\n",
			want: "def f(a):\r    return a + 1\r\rdef g():\r    pass\r",
		},
		{
			name: "python method, decorator kept", file: "cr.py", namePath: "A/g",
			src:  "class A:\r    @staticmethod\r    def g():\r        return 1\r\r    def h(self):\r        pass\r",
			text: "def g():\n    return 2\n",
			want: "class A:\r    @staticmethod\r    def g():\r        return 2\r\r    def h(self):\r        pass\r",
		},
		{
			name: "java", file: "A.java", namePath: "A/f",
			src:  "class A {\r  @Override\r  public int f() {\r    int x = 1;\r    return x;\r  }\r\r  void g() {}\r}\r",
			text: "public int f() {\n  return 2;\n}\n",
			want: "class A {\r  @Override\r  public int f() {\r    return 2;\r  }\r\r  void g() {}\r}\r",
		},
		{
			name: "typescript", file: "a.ts", namePath: "f",
			src:  "export function f(): number {\r  const x = 1;\r  return x;\r}\r\rfunction g() {}\r",
			text: "function f(): number {\n  return 2;\n}\n",
			want: "export function f(): number {\r  return 2;\r}\r\rfunction g() {}\r",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := edit.NewDocument(tt.file, []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if doc.EOL != edit.CR {
				t.Fatalf("EOL %q, want CR", doc.EOL)
			}
			s := symTarget(t, doc, tt.namePath)
			e, _, err := textedit.ReplaceSymbol(doc, s, tt.text)
			if err != nil {
				t.Fatal(err)
			}
			got, err := edit.Apply(doc.Content, []edit.Edit{e})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestReplaceSymbolKeepsFunctoolsDecorators runs replace-body on
// CPython's own ipaddress.py from the python3 on the machine (skipped
// without it): methods under @functools.cached_property and under
// @property with @functools.lru_cache() keep them when sent bare.
func TestReplaceSymbolKeepsFunctoolsDecorators(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	out, err := exec.Command(python, "-c", `import sysconfig; print(sysconfig.get_paths()["stdlib"])`).Output()
	if err != nil {
		t.Skipf("python3 does not run: %v", err)
	}
	content, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "ipaddress.py"))
	if err != nil {
		t.Skipf("no ipaddress.py: %v", err)
	}
	doc, err := edit.NewDocument("ipaddress.py", content)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		namePath, text, kept string
	}{
		{"_BaseNetwork/broadcast_address", "def broadcast_address(self):\n    return self._address_class(int(self.network_address) | int(self.hostmask))\n",
			"@functools.cached_property"},
		{"IPv4Address/is_private", "def is_private(self):\n    return any(self in net for net in self._constants._private_networks)\n",
			"@property\n@functools.lru_cache()"},
	} {
		s := symTarget(t, doc, tt.namePath)
		e, pl, err := textedit.ReplaceSymbol(doc, s, tt.text)
		if err != nil {
			t.Fatal(err)
		}
		if pl.Replaced != textedit.ReplacedFromKeyword || pl.Kept != tt.kept {
			t.Errorf("%s: Replaced %q, Kept %q; want from-keyword, %q", tt.namePath, pl.Replaced, pl.Kept, tt.kept)
		}
		nd, got := symApply(t, doc, e, s.First, s.Last)
		var want []string
		for _, k := range strings.Split(tt.kept, "\n") {
			want = append(want, "    "+k)
		}
		for _, l := range strings.Split(strings.TrimSuffix(tt.text, "\n"), "\n") {
			want = append(want, "    "+l)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: new lines:\n%s\nwant:\n%s", tt.namePath, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		// Python's own parser accepts the result.
		check := exec.Command(python, "-c", "import ast, sys; ast.parse(sys.stdin.buffer.read())")
		check.Stdin = bytes.NewReader(nd.Text)
		if msg, err := check.CombinedOutput(); err != nil {
			t.Errorf("%s: ast.parse refuses the result: %v\n%s", tt.namePath, err, msg)
		}
	}
}
