// Package symbols finds the symbols of a source file (its classes,
// functions, methods, types, ...) with tree-sitter, or for Go with
// go/parser, offline, and resolves the locations a caller writes
// (file.py:45:9, file.py:45, file.py::Class/method) to one of them.
//
// # Parsers
//
// Python, Java and TypeScript/JavaScript are parsed with tree-sitter and
// the language's symbols query. Go is parsed with go/parser, Go's own
// parser and symedit's authority for Go, which is 6 times faster than a
// bare tree-sitter parse of Go or more (BenchmarkExtractTree compares
// the two paths): the symbols come from its go/ast
// tree (function and method declarations, type specs wherever they are)
// and get exactly the fields, ranges, name paths and nesting that the
// tree-sitter query and rules give (a test compares the two field by
// field over every .go file of Go's source tree, a fuzz target on mutated
// sources). A Go file that go/parser refuses (any syntax error) is parsed
// with tree-sitter instead, whose error recovery still yields the
// symbols of a broken file. The one difference is Go that tree-sitter's
// grammar does not know and go/parser does, such as a generic alias
// (type A[P any] = struct{}, a type, as every alias).
//
// # Symbols
//
// A [Symbol] is one definition: a name, a [Kind], a name path and a range.
// [Extract] returns a file's symbols as a flat slice in source order, each
// with the index of its enclosing symbol in Parent (or -1). Which kinds each
// language produces is documented on Extract; the per-language patterns
// are the embedded tree-sitter queries of package lang
// (lang/queries/<language>.scm), refined in this package.
//
// A name path joins the names of the enclosing symbols and the symbol's own
// name with "/": "Outer/Inner/run". The second, third, ... sibling with the
// same name (overloads, a Python property's getter and setter, a
// TypeScript getter and setter) gets "[2]", "[3]", ... appended to its own
// segment ("add[2]"), and its children carry that segment ("add[2]/inner").
// A Go method's name path is "Receiver/Method", with the receiver type
// written without "*" or type parameters ("List/Len" for
// func (l *List[T]) Len()). A Rust impl block's members carry its self
// type rather than the block's name ("impl Display for Point" holds
// "Point/fmt"). A C# namespace's qualified name is one segment
// ("Shapes.Geometry/Circle"). A Ruby singleton method is "self.x", whether
// written def self.x or in class << self ("Shape/self.register"); a PHP
// declaration after namespace X; is under the namespace
// ("App\Models/User/getName"). A Java anonymous class is named after its type
// and the number of javac's binary name ("Class/newInstance/
// PrivilegedAction$1/run" for Class$1), an enum constant body after its
// constant (see Extract). [ExtractFile] returns the same symbols in a
// [File], with Clean set when go/parser accepted a Go source, so that a
// caller need not parse it again to know; [ExtractParse] also returns the
// parse itself as a *lang.Parse (the tree-sitter tree, when one was
// made), which the caller owns and closes, for the syntax guard to check
// an edit without parsing the content before it again.
//
// What is particular to a language (its grammar and query, the rules
// that refine the query's matches, how a definition's head reads, its own
// parser) is its lang.Language; this package switches on no language's
// name.
//
// # Ranges and positions
//
// A symbol's range covers the whole definition: decorators, annotations,
// modifiers and export / export default / declare wrappers belong to it;
// comments never start or end it (a Javadoc or Go doc comment above a
// definition is not part of it, and a comment that the grammar puts at the
// end of a Python block is trimmed off). Go functions range exactly as
// go/ast's FuncDecl: from the func keyword to End().
//
// Ranges are given twice. Start and End are [Position] values: 1-based
// lines and 1-based byte columns (a tab or a multi-byte UTF-8 character
// counts as its bytes), End exclusive (the position just past the last
// byte, as go/token's End). StartByte and EndByte are the same range as
// 0-based byte offsets into the source, EndByte exclusive. Selection is the
// position of the first byte of the symbol's name. ImplByte, ModifiersByte
// and KeywordByte mark where a TypeScript symbol's overload signatures end,
// where the symbol's leading decorators or annotations end and where the
// definition proper begins after its modifiers; [TextLead] and
// [SendsOverloads] classify a text a caller sends the same way, so that
// replace-body keeps what the text does not send.
//
// Lines are counted as package edit's Document counts them: at LF (a CR
// before it belongs to the ending), or at CR in a file whose dominant line
// ending is a lone CR. Positions are computed from byte offsets with that
// rule, and [Locate] reads FILE:LINE with it. Python, Java,
// JavaScript/TypeScript and PHP end a line at a lone CR, so their files
// are parsed with each lone CR read as LF (same length, same byte
// offsets), lest a CR-only file parse as one line; Go, Rust and Ruby end
// lines at LF only, so their files are parsed as they are.
//
// # Locations
//
// A [Location] is what a caller writes to name a symbol, parsed by
// [ParseLocation]: FILE:LINE:COL, FILE:LINE or FILE::NAME_PATH. [Locate]
// resolves it against a file's symbols: a position selects the innermost
// symbol containing it (a column in the line's indentation, or none, stands
// for the line's first non-blank column); a name path selects the symbol
// with exactly that name path, else the only symbol whose name path ends
// with it on a segment boundary.
//
// # Errors
//
// Locate's errors are *[LocateError] values that wrap [ErrNoMatch] (no
// symbol there, or the position is outside the file) or [ErrAmbiguous]
// (several symbols match a name path). They carry the candidates or the
// nearest symbols, and their text lists them as
// "name_path (kind) line:col-line:col" so that the caller can fix its
// location in one retry. ParseLocation's errors say which forms are
// expected. Extract fails only on a canceled context (ctx.Err()) or a
// broken language definition; a file with syntax errors yields the symbols
// tree-sitter recovers (Go too: go/parser's refusal is not an error).
//
// # Concurrency and memory
//
// Extract creates its own parser, tree and query cursor (for Go, its own
// token.FileSet and go/ast tree) and closes them before it returns (a
// tree-sitter tree takes about 75 bytes of C memory per source byte), so
// it keeps no tree or node and may be called from many goroutines at
// once. The package has no mutable state.
package symbols
