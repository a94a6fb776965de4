package lang

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/symedit/symedit/remedy"
)

//go:embed queries/*.scm
var queryFiles embed.FS

// Definition is everything symedit knows of one language, as a value: the
// input of [New]. Each built-in language's Definition is in a file of its
// own (python.go, golang.go, java.go, typescript.go, javascript.go,
// rust.go, csharp.go, ruby.go, php.go, c.go, cpp.go), with
// its symbols query in queries/; adding a language is one such file and
// its query. Only Name, Extensions, Grammar and a query are required;
// every other field may be left zero, which means the language has no
// such rule (see each field).
type Definition struct {
	// Name is the language's name in symedit's output and in --lang,
	// lower-case ("python").
	Name string
	// Extensions lists the file name endings that select the language,
	// lower-case and with their leading dot (".py", ".pyi").
	Extensions []string
	// Grammar returns the tree-sitter grammar.
	Grammar func() *sitter.Language
	// QueryFile names an embedded symbols query under queries/ (the
	// built-in languages); Query, when not nil, is the query's text
	// instead (a language defined outside this package). The query
	// captures @definition.<kind>, @name and optionally @scope (see
	// package symbols).
	QueryFile string
	Query     []byte
	// LFOnly says that the language's lines end at LF only, as Go's spec
	// says, so a lone CR is white space: ParserInput returns the text
	// as it is. Otherwise a lone CR ends a line and is read as LF.
	LFOnly bool
	// Rules are the steps that refine the definitions the query captures
	// into symbols (see [Rules]).
	Rules Rules
	// Anatomy describes how the text of a definition may begin, for
	// replace-body (see [Anatomy]).
	Anatomy Anatomy
	// SendsOverloads, when not nil, reports whether text, a definition
	// sent in place of a symbol (a class member when member is true),
	// begins with an overload signature, parsed with grammar, the
	// language's (TypeScript); nil means the language has no overloads.
	SendsOverloads func(grammar *sitter.Language, member bool, text string) bool
	// Checker, when not nil, is the syntax check that supplements
	// tree-sitter's in the guard (see [Checker]).
	Checker *Checker
	// TreeErrorsCascade says that the tree-sitter grammar's problems
	// below the first problem of a text are unreliable: its scanner's
	// state stays wrong after an error (Python's indentation scanner), so
	// a comment line added below an error can make it report an error a
	// line away. The guard then takes a problem that does not touch the
	// edited text and lies after the first problem of the content before
	// as old.
	TreeErrorsCascade bool
	// Extract, when not nil, is the language's own parser's symbol
	// extraction (go/parser for Go), which package symbols prefers to
	// tree-sitter's: it returns the source's definitions and its
	// top-level layout, with ok false when the parser refuses src (then
	// symbols falls back to tree-sitter, whose recovery still finds the
	// symbols of a broken file). See [Def].
	Extract func(src []byte) (defs []Def, layout *Layout, ok bool)
	// ListExtract, when not nil, is Extract for a listing of many files
	// (symbols.ListFile): Extract's definitions on every source the own
	// parser accepts, read more cheaply (Go: the bodies that declare no
	// type blanked before go/parser reads them); on a source it refuses
	// it may find definitions Extract would not (then the listing's
	// symbols are the own parser's where the extraction's are
	// tree-sitter's), as a listing may differ on a broken source.
	ListExtract func(src []byte) (defs []Def, layout *Layout, ok bool)
	// ExtractEdits, when not nil, is Extract of newText, the result of
	// edits (sorted, not overlapping, byte offsets as Checker.CheckEdits
	// takes them) on oldText, for which Extract returned old and
	// oldLayout: the same defs and layout, found by parsing only the
	// part of newText the edits touched and taking the rest from old,
	// shifted. parsed is how many bytes it handed to the parser. ok is
	// false when it cannot tell (then the caller calls Extract).
	ExtractEdits func(oldText, newText []byte, edits []Edit, old []Def, oldLayout *Layout) (defs []Def, layout *Layout, parsed int, ok bool)
	// Rewrite, when not nil, returns src as the tree-sitter grammar
	// should read it where the grammar misreads valid text (Ruby's
	// def !=, read as an endless def of !), after ParserInput's line
	// endings: a copy of the same length, so that byte offsets are
	// unchanged, or nil when src needs no change. It must not modify
	// src. Symbol names are read from the text as it is.
	Rewrite func(src []byte) []byte
	// Outline, when not nil, reads the definitions of src for a listing
	// of many files (symbols.ListFile: the symbols command and its index)
	// without a tree: the definitions tree-sitter's extraction finds,
	// field by field once assembled, on every text it accepts, at a
	// small part of a parse's cost. ok is false when it cannot be sure of
	// that (a bracket or string left open, an indentation the language
	// refuses); then the listing parses. src is ParserInput's text. A
	// definition's Keyword is where it begins after its decorators.
	Outline func(src []byte) (defs []Def, ok bool)
	// ListingInput, when not nil, returns ParserInput's text src as a
	// listing of many files parses it (symbols.ListFile), with text that
	// can hold no symbol blanked (in Java, method bodies, fields and
	// imports without a class in them) so that the parse builds a
	// smaller tree: a copy of the same length in which every blanked
	// byte is a space and every line ending stays in place, so that
	// offsets and positions are unchanged, or nil when nothing is
	// blanked. It must not modify src.
	// The symbols listed must equal those of src's own parse on every
	// text whose parse has no error.
	ListingInput func(src []byte) []byte
	// ListingCollapses says that the listing may parse ListingInput's
	// text with each run of white space that holds blanked text
	// collapsed to one byte (Language.Listing): the language's tokens are
	// separated by white space, never told apart by its amount or its
	// lines once comments are blanked (Java), so that the parse, shorter
	// by the runs, finds the same symbols at offsets that map back.
	ListingCollapses bool
	// LocalSymbols says that, in a tree with no ERROR or MISSING node,
	// the symbols of each child of the root node (a top-level statement
	// or definition) come from that child alone, its neighbours aside:
	// no rule looks across top-level nodes (Rust's attributes, a
	// TypeScript overload's implementation do) or at the whole file (C++
	// asks whether a qualifier names a class anywhere in the file), and
	// no symbol spans several of them (C#'s file-scoped namespace, PHP's
	// namespace X;, which ExtractEdit also finds and then extracts the
	// whole file). package symbols then extracts only the top-level
	// nodes an edit touched (symbols.ExtractEdit); false extracts the
	// whole file after every edit.
	LocalSymbols bool
	// TopLevelBlankLines is the number of blank lines the language's
	// style puts around a top-level definition (PEP 8's 2 in Python);
	// zero means 1, as around any nested one.
	TopLevelBlankLines int
}

// Language is one supported language: its name as symedit prints it, the
// file extensions that select it, its tree-sitter grammar and symbols
// query, and the rest of its [Definition]. A Language is immutable and
// safe for concurrent use; make one with [New].
type Language struct {
	// Name is the language's name in symedit's output and in --lang:
	// "python", "go", "java", "typescript", "tsx", "javascript", "rust",
	// "csharp", "ruby", "php", "c" or "cpp" for the built-in languages.
	Name string
	// Extensions lists the file name endings that select the language,
	// lower-case and with their leading dot (".py", ".pyi"). Callers must
	// not modify it.
	Extensions []string
	// QueryFile is the embedded symbols query's file name under queries/,
	// or "" for a query given as text (Definition.Query).
	QueryFile string

	def   Definition
	query func() (*sitter.Query, error)
}

// New returns the Language that def defines. It copies def (its slices
// too) and compiles the symbols query on the first call of SymbolsQuery,
// not here; [NewRegistry] checks that the required fields are set.
func New(def Definition) *Language {
	def.Extensions = slices.Clone(def.Extensions)
	def.Query = bytes.Clone(def.Query)
	def.Anatomy = def.Anatomy.clone()
	l := &Language{Name: def.Name, Extensions: def.Extensions, QueryFile: def.QueryFile, def: def}
	l.query = sync.OnceValues(func() (*sitter.Query, error) {
		text, name := def.Query, "query of "+def.Name
		if text == nil {
			name = def.QueryFile
			var err error
			if text, err = queryFiles.ReadFile("queries/" + def.QueryFile); err != nil {
				return nil, fmt.Errorf("lang: %s: %w", def.Name, err)
			}
		}
		if def.Grammar == nil {
			return nil, fmt.Errorf("lang: %s: no grammar", def.Name)
		}
		q, err := sitter.NewQuery(text, def.Grammar())
		if err != nil {
			return nil, fmt.Errorf("lang: %s: %w", name, err)
		}
		return q, nil
	})
	return l
}

// Grammar returns the tree-sitter grammar. Callers create their own
// [sitter.Parser] from it, one per goroutine.
func (l *Language) Grammar() *sitter.Language { return l.def.Grammar() }

// SymbolsQuery returns the language's compiled symbols query, compiling it on
// the first call. The query is read-only and may be shared between
// goroutines (each with its own [sitter.QueryCursor]); callers must not
// Close it. The error is a *sitter.QueryError if the query does not
// compile against the grammar, which for a built-in language is a bug
// caught by this package's tests.
func (l *Language) SymbolsQuery() (*sitter.Query, error) { return l.query() }

// Rules returns the language's symbol rules (Definition.Rules); a field
// is nil where the language has no such rule.
func (l *Language) Rules() Rules { return l.def.Rules }

// Anatomy returns how a definition's text may begin in the language
// (Definition.Anatomy). Its slices are shared: callers must not modify
// them.
func (l *Language) Anatomy() Anatomy { return l.def.Anatomy }

// SendsOverloads reports whether text, a definition sent in place of a
// symbol (a class member's when member is true), begins with an overload
// signature (Definition.SendsOverloads); false in a language without
// overloads.
func (l *Language) SendsOverloads(member bool, text string) bool {
	if l.def.SendsOverloads == nil {
		return false
	}
	return l.def.SendsOverloads(l.def.Grammar(), member, text)
}

// Checker returns the syntax check that supplements tree-sitter's in the
// guard (Definition.Checker), or nil when the language has none. The
// Checker is shared and read-only.
func (l *Language) Checker() *Checker { return l.def.Checker }

// TreeErrorsCascade reports Definition.TreeErrorsCascade: the grammar's
// problems below a text's first problem are unreliable.
func (l *Language) TreeErrorsCascade() bool { return l.def.TreeErrorsCascade }

// OwnExtract returns the language's own parser's symbol extraction
// (Definition.Extract), or nil when tree-sitter is the only one.
func (l *Language) OwnExtract() func(src []byte) (defs []Def, layout *Layout, ok bool) {
	return l.def.Extract
}

// OwnListExtract returns the language's own parser's symbol extraction
// for listings (Definition.ListExtract), else OwnExtract's, or nil.
func (l *Language) OwnListExtract() func(src []byte) (defs []Def, layout *Layout, ok bool) {
	if l.def.ListExtract != nil {
		return l.def.ListExtract
	}
	return l.def.Extract
}

// OwnExtractEdits returns the language's own parser's symbol extraction
// after an edit (Definition.ExtractEdits), or nil.
func (l *Language) OwnExtractEdits() func(oldText, newText []byte, edits []Edit, old []Def, oldLayout *Layout) (defs []Def, layout *Layout, parsed int, ok bool) {
	return l.def.ExtractEdits
}

// Outline returns the language's reading of definitions for listings
// (Definition.Outline), or nil when a listing parses.
func (l *Language) Outline() func(src []byte) (defs []Def, ok bool) {
	return l.def.Outline
}

// ListingInput returns src as a listing of many files parses it:
// ParserInput(src) with Definition.ListingInput's blanking applied when
// the language has one. The result has src's length; it is src itself
// when nothing changes.
func (l *Language) ListingInput(src []byte) []byte {
	in := l.ParserInput(src)
	if l.def.ListingInput != nil {
		if out := l.def.ListingInput(in); out != nil {
			return out
		}
	}
	return in
}

// LocalSymbols reports Definition.LocalSymbols: each top-level node's
// symbols come from that node alone.
func (l *Language) LocalSymbols() bool { return l.def.LocalSymbols }

// BlankLines returns how many blank lines the language's style puts
// around a definition: Definition.TopLevelBlankLines (2 in Python) around
// a top-level one when set, else 1.
func (l *Language) BlankLines(topLevel bool) int {
	if topLevel && l.def.TopLevelBlankLines > 0 {
		return l.def.TopLevelBlankLines
	}
	return 1
}

// ParserInput returns src as the language's parser should read it: each
// lone CR (one not followed by LF) read as LF, the same length, so byte
// offsets are unchanged; src itself when there is no lone CR or the
// language's lines end at LF only (Definition.LFOnly, Go); then the
// language's Definition.Rewrite, where its grammar misreads valid text. Python
// (universal newlines), Java (JLS 3.4), JavaScript/TypeScript (ECMA-262
// line terminators) and PHP (its scanner's newline is CR, LF or CRLF) end
// a line at a lone CR; tree-sitter's grammars do not, and would read a
// CR-only file as one line. Go's spec ends lines at
// LF only, and go/parser is the authority, so Go text is returned as it
// is.
func (l *Language) ParserInput(src []byte) []byte {
	in := l.lineInput(src)
	if l.def.Rewrite != nil {
		if out := l.def.Rewrite(in); out != nil {
			return out
		}
	}
	return in
}

// lineInput is ParserInput's line endings: each lone CR read as LF
// unless the language's lines end at LF only.
func (l *Language) lineInput(src []byte) []byte {
	if l.def.LFOnly {
		return src
	}
	var out []byte
	for i := bytes.IndexByte(src, '\r'); i >= 0; {
		if i+1 >= len(src) || src[i+1] != '\n' {
			if out == nil {
				out = bytes.Clone(src)
			}
			out[i] = '\n'
		}
		j := bytes.IndexByte(src[i+1:], '\r')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	if out == nil {
		return src
	}
	return out
}

// ErrUnknownLanguage is returned (wrapped in an *UnknownError) when a file's
// extension or a --lang name selects no supported language.
var ErrUnknownLanguage = errors.New("unsupported language")

// UnknownError reports a path or language name that selects no language. It
// lists the supported names and extensions (of the registry that was
// asked, the built-in one for an UnknownError made elsewhere) so that the
// caller can correct the call. It wraps ErrUnknownLanguage.
type UnknownError struct {
	// Path is the file path whose extension was not recognised, or "".
	Path string
	// Name is the --lang name that was not recognised, or "".
	Name string

	reg *Registry
}

// Error says which name or extension is unknown and lists the supported
// ones.
func (e *UnknownError) Error() string {
	reg := e.reg
	if reg == nil {
		reg = Default()
	}
	if e.Name != "" {
		return fmt.Sprintf("unknown language %q: supported languages are %s", e.Name, strings.Join(reg.Names(), ", "))
	}
	ext := filepath.Ext(e.Path)
	if ext == "" {
		ext = "(none)"
	}
	return fmt.Sprintf("%s: unsupported file extension %s: supported extensions are %s",
		e.Path, ext, strings.Join(reg.extensions(), " "))
}

// Remedy returns, for a file whose extension names no language, the
// request change that names the language (the lang option, its value the
// caller's choice); nil for an unknown language name.
func (e *UnknownError) Remedy() remedy.Remedy {
	if e.Name != "" {
		return nil
	}
	return remedy.Set(remedy.Lang, "")
}

// Unwrap returns ErrUnknownLanguage.
func (e *UnknownError) Unwrap() error { return ErrUnknownLanguage }

// Registry is a set of languages, looked up by name or by a path's
// extension. It is immutable and safe for concurrent use; make one with
// [NewRegistry]. [Default] is the registry of the built-in languages.
type Registry struct {
	langs  []*Language
	byExt  map[string]*Language
	byName map[string]*Language
}

// NewRegistry returns the registry of langs, in that order (the order of
// Languages and Names). The error names the first language without a
// name, a grammar or a query, and the first name or extension that two
// languages claim.
func NewRegistry(langs ...*Language) (*Registry, error) {
	r := &Registry{byExt: map[string]*Language{}, byName: map[string]*Language{}}
	for _, l := range langs {
		switch {
		case l == nil || l.Name == "":
			return nil, errors.New("lang: a language without a name")
		case l.def.Grammar == nil:
			return nil, fmt.Errorf("lang: %s: no grammar", l.Name)
		case l.def.Query == nil && l.def.QueryFile == "":
			return nil, fmt.Errorf("lang: %s: no symbols query", l.Name)
		}
		key := strings.ToLower(l.Name)
		if _, dup := r.byName[key]; dup {
			return nil, fmt.Errorf("lang: duplicate language name %q", l.Name)
		}
		r.byName[key] = l
		for _, e := range l.Extensions {
			if prev, dup := r.byExt[e]; dup {
				return nil, fmt.Errorf("lang: extension %s claimed by both %s and %s", e, prev.Name, l.Name)
			}
			r.byExt[e] = l
		}
		r.langs = append(r.langs, l)
	}
	return r, nil
}

// builtin is the registry of the built-in languages, built once on first
// use and never modified.
var builtin = sync.OnceValue(func() *Registry {
	r, err := NewRegistry(New(pythonDef), New(goDef), New(javaDef),
		New(typescriptDef), New(tsxDef), New(javascriptDef), New(rustDef),
		New(csharpDef), New(rubyDef), New(phpDef), New(cDef), New(cppDef))
	if err != nil {
		panic(err) // the definitions are constants; TestDefaultRegistry reports the same error
	}
	return r
})

// Default returns the registry of the built-in languages: python, go,
// java, typescript, tsx, javascript, rust, csharp, ruby, php, c and cpp, in
// that order.
func Default() *Registry { return builtin() }

// ForPath returns the language selected by path's extension, compared
// case-insensitively. The error is an *UnknownError (wrapping
// ErrUnknownLanguage) if no language claims the extension.
func (r *Registry) ForPath(path string) (*Language, error) {
	if l, ok := r.byExt[strings.ToLower(filepath.Ext(path))]; ok {
		return l, nil
	}
	return nil, &UnknownError{Path: path, reg: r}
}

// ByName returns the language called name (as in --lang), compared
// case-insensitively. The error is an *UnknownError (wrapping
// ErrUnknownLanguage) if there is none.
func (r *Registry) ByName(name string) (*Language, error) {
	if l, ok := r.byName[strings.ToLower(name)]; ok {
		return l, nil
	}
	return nil, &UnknownError{Name: name, reg: r}
}

// Select returns ByName(name) when name is not empty, else ForPath(path): the
// rule of the CLI's --lang flag.
func (r *Registry) Select(path, name string) (*Language, error) {
	if name != "" {
		return r.ByName(name)
	}
	return r.ForPath(path)
}

// Languages returns the registry's languages in order. The slice is a
// copy; the Languages are shared and immutable.
func (r *Registry) Languages() []*Language { return slices.Clone(r.langs) }

// Names returns the registry's language names in order.
func (r *Registry) Names() []string {
	out := make([]string, len(r.langs))
	for i, l := range r.langs {
		out[i] = l.Name
	}
	return out
}

// extensions returns every extension of the registry, sorted.
func (r *Registry) extensions() []string {
	var out []string
	for e := range r.byExt {
		out = append(out, e)
	}
	sort.Strings(out)
	return out
}

// ForPath is Default().ForPath: the built-in language selected by path's
// extension, or an *UnknownError.
func ForPath(path string) (*Language, error) { return Default().ForPath(path) }

// ByName is Default().ByName: the built-in language called name, or an
// *UnknownError.
func ByName(name string) (*Language, error) { return Default().ByName(name) }

// Select is Default().Select: ByName(name) when name is not empty, else
// ForPath(path).
func Select(path, name string) (*Language, error) { return Default().Select(path, name) }

// Languages is Default().Languages: every built-in language, in the
// registry's order (a copy of the slice).
func Languages() []*Language { return Default().Languages() }

// Names is Default().Names: the built-in language names in order.
func Names() []string { return Default().Names() }

// QueryDigest returns the hex SHA-256 of every embedded query file, each
// file's name and length before its bytes, in name order: it changes
// whenever a symbols query changes, for a cache of extracted symbols keyed
// by the build, so that a query change invalidates the symbols it cached.
// It is computed on the first call.
var QueryDigest = sync.OnceValue(func() string {
	h := sha256.New()
	entries, err := queryFiles.ReadDir("queries")
	if err != nil {
		panic(err) // the embedded folder is part of the binary
	}
	for _, e := range entries { // ReadDir sorts by name
		text, err := queryFiles.ReadFile("queries/" + e.Name())
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(h, "%s %d\n", e.Name(), len(text))
		h.Write(text)
	}
	return hex.EncodeToString(h.Sum(nil))
})
