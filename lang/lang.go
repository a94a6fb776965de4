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
	"github.com/smacker/go-tree-sitter/golang"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
	"github.com/symedit/symedit/remedy"
)

//go:embed queries/*.scm
var queryFiles embed.FS

// Language is one supported language: its name as symedit prints it, the
// file extensions that select it, and its tree-sitter grammar and symbols
// query. A Language is immutable and safe for concurrent use.
type Language struct {
	// Name is the language's name in symedit's output and in --lang:
	// "python", "go", "java", "typescript", "tsx" or "javascript".
	Name string
	// Extensions lists the file name endings that select the language,
	// lower-case and with their leading dot (".py", ".pyi").
	Extensions []string
	// QueryFile is the embedded symbols query's file name under queries/.
	QueryFile string

	grammar func() *sitter.Language
	query   func() (*sitter.Query, error)
}

// Grammar returns the tree-sitter grammar. Callers create their own
// [sitter.Parser] from it, one per goroutine.
func (l *Language) Grammar() *sitter.Language { return l.grammar() }

// SymbolsQuery returns the language's compiled symbols query, compiling it on
// the first call. The query is read-only and may be shared between
// goroutines (each with its own [sitter.QueryCursor]); callers must not
// Close it. The error is a *sitter.QueryError if the embedded .scm file does
// not compile against the grammar, which is a bug caught by this package's
// tests.
func (l *Language) SymbolsQuery() (*sitter.Query, error) { return l.query() }

// ParserInput returns src as the language's parser should read it: for
// every language but Go, each lone CR (one not followed by LF) read as LF,
// the same length, so byte offsets are unchanged; src itself when there is
// no lone CR or the language is Go. Python (universal newlines), Java (JLS
// 3.4) and JavaScript/TypeScript (ECMA-262 line terminators) end a line at
// a lone CR; tree-sitter's grammars do not, and would read a CR-only file
// as one line (issue 12, item 3). Go's spec ends lines at LF only, and
// go/parser is the authority, so Go text is returned as it is.
func (l *Language) ParserInput(src []byte) []byte {
	if l.Name == "go" {
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
// lists the supported names and extensions so that the caller can correct
// the call. It wraps ErrUnknownLanguage.
type UnknownError struct {
	// Path is the file path whose extension was not recognised, or "".
	Path string
	// Name is the --lang name that was not recognised, or "".
	Name string
}

// Error says which name or extension is unknown and lists the supported
// ones.
func (e *UnknownError) Error() string {
	if e.Name != "" {
		return fmt.Sprintf("unknown language %q: supported languages are %s", e.Name, strings.Join(Names(), ", "))
	}
	ext := filepath.Ext(e.Path)
	if ext == "" {
		ext = "(none)"
	}
	return fmt.Sprintf("%s: unsupported file extension %s: supported extensions are %s",
		e.Path, ext, strings.Join(extensions(), " "))
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

// spec is one row of the registry table.
type spec struct {
	name       string
	extensions []string
	queryFile  string
	grammar    func() *sitter.Language
}

// table is the registry: one row per language. Order is the order of Names.
var table = []spec{
	{"python", []string{".py", ".pyi"}, "python.scm", python.GetLanguage},
	{"go", []string{".go"}, "go.scm", golang.GetLanguage},
	{"java", []string{".java"}, "java.scm", java.GetLanguage},
	{"typescript", []string{".ts", ".mts", ".cts"}, "typescript.scm", typescript.GetLanguage},
	{"tsx", []string{".tsx"}, "typescript.scm", tsx.GetLanguage}, // one query serves both grammars
	{"javascript", []string{".js", ".mjs", ".cjs", ".jsx"}, "javascript.scm", javascript.GetLanguage},
}

// languages and byExt are built once from table by build; they are never
// modified afterwards.
var languages, byExt, byName = build(table)

func build(rows []spec) ([]*Language, map[string]*Language, map[string]*Language) {
	langs, ext, name, err := index(rows)
	if err != nil {
		panic(err) // the table is a constant; TestTable reports the same error
	}
	return langs, ext, name
}

// index turns table rows into Languages, refusing a duplicate name or
// extension.
func index(rows []spec) ([]*Language, map[string]*Language, map[string]*Language, error) {
	var langs []*Language
	ext := map[string]*Language{}
	name := map[string]*Language{}
	for _, r := range rows {
		l := &Language{Name: r.name, Extensions: slices.Clone(r.extensions), QueryFile: r.queryFile, grammar: r.grammar}
		src, qf := r.grammar, r.queryFile
		l.query = sync.OnceValues(func() (*sitter.Query, error) {
			text, err := queryFiles.ReadFile("queries/" + qf)
			if err != nil {
				return nil, err
			}
			q, err := sitter.NewQuery(text, src())
			if err != nil {
				return nil, fmt.Errorf("lang: %s: %w", qf, err)
			}
			return q, nil
		})
		if _, dup := name[r.name]; dup {
			return nil, nil, nil, fmt.Errorf("lang: duplicate language name %q", r.name)
		}
		name[r.name] = l
		for _, e := range r.extensions {
			if prev, dup := ext[e]; dup {
				return nil, nil, nil, fmt.Errorf("lang: extension %s claimed by both %s and %s", e, prev.Name, r.name)
			}
			ext[e] = l
		}
		langs = append(langs, l)
	}
	return langs, ext, name, nil
}

// ForPath returns the language selected by path's extension, compared
// case-insensitively. The error is an *UnknownError (wrapping
// ErrUnknownLanguage) if no language claims the extension.
func ForPath(path string) (*Language, error) {
	if l, ok := byExt[strings.ToLower(filepath.Ext(path))]; ok {
		return l, nil
	}
	return nil, &UnknownError{Path: path}
}

// ByName returns the language called name (as in --lang). The error is an
// *UnknownError (wrapping ErrUnknownLanguage) if there is none.
func ByName(name string) (*Language, error) {
	if l, ok := byName[strings.ToLower(name)]; ok {
		return l, nil
	}
	return nil, &UnknownError{Name: name}
}

// Select returns ByName(name) when name is not empty, else ForPath(path): the
// rule of the CLI's --lang flag.
func Select(path, name string) (*Language, error) {
	if name != "" {
		return ByName(name)
	}
	return ForPath(path)
}

// Languages returns every supported language in table order. The slice is
// a copy; the Languages are shared and immutable.
func Languages() []*Language { return slices.Clone(languages) }

// Names returns the supported language names in table order.
func Names() []string {
	out := make([]string, len(languages))
	for i, l := range languages {
		out[i] = l.Name
	}
	return out
}

// extensions returns every supported extension, sorted.
func extensions() []string {
	var out []string
	for e := range byExt {
		out = append(out, e)
	}
	sort.Strings(out)
	return out
}

// QueryDigest returns the hex SHA-256 of every embedded query file, each
// file's name and length before its bytes, in name order: it changes
// whenever a symbols query changes, for a cache of extracted symbols keyed
// by the build (issue 15, first bullet). It is computed on the first call.
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
