package symbols

// Position is a place in a source file as compilers print it: Line is
// 1-based, Column is the 1-based byte column (a tab or a multi-byte UTF-8
// character counts as its bytes). An exclusive end Position names the byte
// just past the last byte of a range, as go/token's End does.
type Position struct {
	Line   int `json:"line" jsonschema:"The 1-based line."`
	Column int `json:"column" jsonschema:"The 1-based byte column (a tab or a multi-byte UTF-8 character counts as its bytes)."`
}

// Kind is the kind of a symbol, one of the Kind constants.
type Kind string

// The kinds of symbol symedit reports. Which kinds a language produces is
// documented on Extract.
const (
	KindClass       Kind = "class"
	KindInterface   Kind = "interface"
	KindEnum        Kind = "enum"
	KindRecord      Kind = "record"
	KindAnnotation  Kind = "annotation" // a Java @interface
	KindStruct      Kind = "struct"
	KindType        Kind = "type" // type alias or other named type
	KindFunction    Kind = "function"
	KindMethod      Kind = "method"
	KindConstructor Kind = "constructor"
	KindDestructor  Kind = "destructor" // a C++ destructor
	KindNamespace   Kind = "namespace"
	KindTrait       Kind = "trait"    // a Rust or PHP trait
	KindImpl        Kind = "impl"     // a Rust impl block
	KindUnion       Kind = "union"    // a Rust union
	KindMacro       Kind = "macro"    // a Rust macro_rules! macro
	KindProperty    Kind = "property" // a C# property
	KindIndexer     Kind = "indexer"  // a C# indexer (this[...])
	KindEvent       Kind = "event"    // a C# event with accessors
	KindOperator    Kind = "operator" // a C# operator or conversion operator
	KindDelegate    Kind = "delegate" // a C# delegate type
)

// Kinds returns every Kind, in the order above.
func Kinds() []Kind {
	return []Kind{KindClass, KindInterface, KindEnum, KindRecord, KindAnnotation, KindStruct, KindType,
		KindFunction, KindMethod, KindConstructor, KindDestructor, KindNamespace, KindTrait, KindImpl, KindUnion, KindMacro,
		KindProperty, KindIndexer, KindEvent, KindOperator, KindDelegate}
}

// Symbol is one definition found in a file.
//
// Its range runs from Start (inclusive) to End (exclusive) and covers the
// whole definition: decorators (Python, TypeScript), annotations and
// modifiers (Java), and export / export default / declare (TypeScript)
// belong to it; comments above it do not. StartByte and EndByte are the same
// range as 0-based byte offsets into the source, EndByte exclusive.
type Symbol struct {
	// Name is the symbol's own name ("Serve", "__init__").
	Name string `json:"name" jsonschema:"The symbol's own name (\"Serve\", \"__init__\")."`
	// NamePath joins the names of the enclosing symbols and this one with
	// "/" ("Server/Serve", "Outer/Inner/run"). The second and later
	// same-named siblings get "[2]", "[3]", ... ("add[2]"). A Go method's
	// name path is "Receiver/Method", the receiver type without "*" or type
	// parameters.
	NamePath string `json:"name_path" jsonschema:"The names of the enclosing symbols and this one joined by \"/\" (\"Server/Serve\"); the second and later same-named siblings get \"[2]\", \"[3]\", ...; a Go method's is \"Receiver/Method\". A location takes it after \"::\"."`
	Kind     Kind   `json:"kind" jsonschema:"The symbol's kind: class, interface, enum, record, annotation, struct, type, function, method, constructor, destructor, namespace, trait, impl, union, macro, property, indexer, event, operator or delegate."`
	// Start is the first position of the range (1-based line and column).
	Start Position `json:"start" jsonschema:"Where the symbol starts (inclusive): decorators, annotations and modifiers included, comments above it not."`
	// End is the exclusive end of the range (1-based line and column of the
	// byte just past the symbol).
	End Position `json:"end" jsonschema:"Where the symbol ends (exclusive): the position of the byte just past it."`
	// Selection is the position of the first byte of the symbol's name.
	Selection Position `json:"selection" jsonschema:"The position of the first byte of the symbol's name."`
	// StartByte and EndByte are the range as 0-based byte offsets, EndByte
	// exclusive.
	StartByte int `json:"-"`
	EndByte   int `json:"-"`
	// ImplByte is the 0-based byte offset where the definition itself
	// begins (its decorators included) after the overload signatures that
	// belong to its range (TypeScript: "function f(a: string): void;"
	// before "function f(a: any) {...}"), or StartByte when it has none.
	ImplByte int `json:"-"`
	// ModifiersByte is the 0-based byte offset of the symbol's first
	// modifier after its leading decorators or annotations (Java public,
	// static, ...; TypeScript export, declare, public, static, async, ...),
	// or KeywordByte when it has none. It equals ImplByte when the symbol
	// has no leading decorators or annotations.
	ModifiersByte int `json:"-"`
	// KeywordByte is the 0-based byte offset where the definition proper
	// begins, after every decorator, annotation and modifier: Python's def,
	// async def or class; Java's class or @interface keyword, a method's
	// type parameters or return type; TypeScript's class, function, const,
	// a method's get, set, * or name; Go's func or type. StartByte <=
	// ImplByte <= ModifiersByte <= KeywordByte < EndByte. replace-body
	// keeps the text before it that the new text does not start with.
	KeywordByte int `json:"-"`
	// Parent is the index, in the slice Extract returned, of the innermost
	// symbol whose range contains this one, or -1 for a top-level symbol.
	// (A Go method's parent is -1: its name path comes from its receiver.)
	Parent int `json:"-"`
}

// LastLine returns the 1-based number of the symbol's last line: End.Line,
// or the line before it when the exclusive end sits in column 1 (the range
// ends with a line ending).
func (s Symbol) LastLine() int {
	if s.End.Column <= 1 && s.End.Line > s.Start.Line {
		return s.End.Line - 1
	}
	return s.End.Line
}
