package ops

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/symedit/symedit/files"
	"github.com/symedit/symedit/internal/symcache"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
	"github.com/symedit/symedit/walk"
)

// SymbolsRequest lists the symbols of the files a path names (`symedit
// symbols`, the MCP symbols tool). It writes nothing but the persistent
// symbol index (package internal/symcache), unless NoCache.
type SymbolsRequest struct {
	// Path is a file, a folder (walked, skipping what git ignores) or a
	// doublestar pattern (package walk).
	Path string `json:"path" jsonschema:"A source file, a folder (walked, skipping what git ignores), or a doublestar glob (** matches any depth, {a,b} alternatives), relative to the server's root: src/app.py, src, 'src/**/*.py'."`
	// Paths are more paths of the same kinds, expanded after Path (the
	// CLI's further arguments). An empty Path is skipped.
	Paths []string `json:"-"`
	// Name, when not "", keeps only the symbols whose name path matches
	// it: a glob (path.Match syntax: * ? [...], where * does not cross
	// "/") when it holds one of * ? [, else a substring, case-sensitive.
	// A file with no such symbol is left out of the result (a file that
	// could not be read stays, with its error).
	Name string `json:"name,omitempty" jsonschema:"Keep only the symbols whose name path matches: a substring (Handler), or a glob when it holds * ? or [ (*Handler, Server/Serve*; * does not cross /). Files with no such symbol are left out. Omitted: every symbol."`
	// Kind, when not "", keeps only the symbols of that kind (as Name
	// does): class, interface, enum, record, annotation, struct, type,
	// function, method, constructor or namespace.
	Kind string `json:"kind,omitempty" jsonschema:"Keep only the symbols of this kind: class, interface, enum, record, annotation, struct, type, function, method, constructor, namespace, trait, impl, union, macro, property, indexer, event, operator or delegate. Omitted: every kind."`
	// Lang parses every file as this language (lang.Select) instead of
	// by extension.
	Lang string `json:"lang,omitempty" jsonschema:"Parse every file as this language instead of by its extension, as for a C++ header named .h (read as c unless cpp is given). Omitted: by extension."`
	WalkOptions
	// NoCache neither reads nor writes the symbol index: every file is
	// read and parsed.
	NoCache bool `json:"-"`
	// OnFile, when set, receives each file's result in path order, on the
	// calling goroutine, as soon as it and every file before it are done
	// (the files are parsed concurrently, WalkOptions.Jobs at once); n is
	// the number of files. Files is then left empty, so that a large tree
	// is never held whole. An error from OnFile stops the run: Symbols
	// returns it as the result's error.
	OnFile func(f *SymbolsFile, n int) error `json:"-"`
	// Render, when set, is called on the goroutine that listed a file,
	// before OnFile receives it, and its result is kept in the file's
	// Rendered: a front end formats each file there (its JSON line, its
	// outline), concurrently, so that the one goroutine calling OnFile
	// only writes bytes. It is called only for the files OnFile receives
	// and must not keep f.
	Render func(f *SymbolsFile) []byte `json:"-"`

	// afterStat, set only by tests, runs between a file's stat for its
	// index key and its read, so that a test can repoint a link or rename
	// a file exactly there.
	afterStat func(path string)
}

// paths returns Path and Paths, without an empty Path.
func (r SymbolsRequest) paths() []string { return joinPaths(r.Path, r.Paths) }

// SymbolsResult is the result of a SymbolsRequest.
type SymbolsResult struct {
	// OK is false when a file could not be read or parsed, or the paths
	// could not be expanded; Error says why.
	OK bool `json:"ok" jsonschema:"False when a file could not be read or parsed, or the paths could not be expanded; error says why."`
	// Summary is "N file(s)" and, when a walk skipped files, "; skipped:
	// COUNT REASON, ..." (walk.Result.Summary).
	Summary string `json:"summary,omitempty" jsonschema:"\"N file(s)\" and, when a walk skipped files, \"; skipped: COUNT REASON, ...\"; omitted when the paths could not be expanded."`
	// Error is the first file's failure (its code), else the expansion's
	// (USAGE for a malformed pattern, OUTSIDE_ROOT, ERROR for a pattern
	// that matches no file), or nil.
	Error *Error `json:"error,omitempty" jsonschema:"The first file's failure (its code), else the expansion's (USAGE for a malformed pattern, OUTSIDE_ROOT, ERROR for a pattern that matches no file); omitted on success."`
	// Files are the files' symbols in path order (empty with OnFile).
	Files []SymbolsFile `json:"files" jsonschema:"The files' symbols, in path order."`
	// Skipped counts the files a walk left out, by reason (walk.Result).
	Skipped map[string]int `json:"skipped,omitempty" jsonschema:"How many files a walk left out, by reason; omitted when none."`
	// Walked reports that a path was a folder or a pattern.
	Walked bool `json:"-"`
	// Index counts the run's use of the symbol index.
	Index IndexStats `json:"-"`
}

// SymbolsFile is one file's symbols: one line of `symedit symbols
// --json`.
type SymbolsFile struct {
	// Path is the file as the request or the walk named it.
	Path string `json:"path" jsonschema:"The file, as the request or the walk named it."`
	// Language is the grammar's name; "" when the file could not be read
	// or is in no supported language.
	Language string `json:"language" jsonschema:"The grammar's name (python, go, ...); \"\" when the file could not be read or is in no supported language."`
	// SHA256 is the file's SHA-256 as read (64 lowercase hexadecimal
	// digits), what a writing request's ExpectSHA256 takes; "" when the
	// file could not be read.
	SHA256 string `json:"sha256,omitempty" jsonschema:"The file's SHA-256 (64 hexadecimal digits): send it as a writing call's expect_sha256 to refuse if the file changed since; omitted when it could not be read."`
	// Symbols are the file's symbols, a flat list in source order, nested
	// ones included; [] when none.
	Symbols []ListedSymbol `json:"symbols" jsonschema:"The file's symbols, a flat list in source order, nested ones included; [] when none."`
	// Error is why the file could not be read or parsed, or nil.
	Error *Error `json:"error,omitempty" jsonschema:"Why the file could not be read or parsed; omitted when it was."`

	// Rendered is what SymbolsRequest.Render returned for this file; nil
	// without Render.
	Rendered []byte `json:"-"`

	// skip is the reason a walked file whose content checks were left to
	// Symbols (walk.Options.DeferContentChecks) is skipped: a key of
	// walk.Result.Skipped; "" when it is listed.
	skip string
}

// ListedSymbol is a symbol as a symbols listing gives it: symbols.Symbol's
// fields and SHA256, the SHA-256 of its text as show's SymbolSHA256 counts
// it (its whole lines, each ending in "\n"), which a location's
// ExpectSymbolSHA256 takes.
type ListedSymbol struct {
	symbols.Symbol
	SHA256 string `json:"sha256" jsonschema:"The SHA-256 of the symbol's text (its whole lines, as show's symbol_sha256): send it as chunk's or replace_body's (insert_before's, insert_after's) expect_symbol_sha256 to refuse only if this symbol changed since."`
}

// IndexStats counts a symbols run's use of the persistent symbol index.
type IndexStats struct {
	// Dir is the index's folder; "" when the run did not use one
	// (NoCache, or no cache folder).
	Dir string
	// Hits counts the files whose symbols came from the index; Parsed
	// the files read and parsed.
	Hits, Parsed int64
	// Written counts the entries stored; Corrupt the entries found
	// unreadable; Racy the files too recently changed to store
	// (symcache's racily-clean rule).
	Written, Corrupt, Racy int64
	// Checked counts the walked files opened for the walk's content
	// checks (binary, too large), which a run with an index makes only
	// for a file whose entry missed.
	Checked int64
	// LookedUp counts the files stat'ed to look their entry up: none of
	// a folder whose group the index holds nothing of (a cold run).
	LookedUp int64
}

// Symbols expands req's paths and extracts every file's symbols,
// concurrently, in path order. A file whose key (its real path, size,
// times, inode, the language and the build) has an entry in the symbol
// index is neither read nor parsed; any other is, and its symbols are
// stored under the identity of the file read (the fstat of the
// descriptor its content came from); the output does not depend on the
// index. The result is never
// nil. The error is nil or the result's *Error (see SymbolsResult.Error).
func (w *Workspace) Symbols(ctx context.Context, req SymbolsRequest) (*SymbolsResult, error) {
	res := &SymbolsResult{Files: []SymbolsFile{}}
	fail := func(err error) error {
		res.OK, res.Error = false, AsError(err)
		return res.Error
	}
	keep, err := req.filter()
	if err != nil {
		return res, fail(err)
	}
	ix := w.openIndex(req.NoCache)
	ix.afterStat = req.afterStat
	defer ix.close()
	wo := req.WalkOptions
	wo.deferChecks = ix.cache != nil // a hit opens no file, not even to sniff it
	found, err := w.expand(req.paths(), wo)
	if err != nil {
		return res, fail(err)
	}
	res.Walked, res.Skipped, res.Summary = found.Walked, found.Skipped, found.Summary()
	var first error
	n := len(found.Files)
	skipped := false
	err = forEachOrdered(n, req.jobs(), func(i int) *SymbolsFile {
		path := found.Files[i]
		f := &SymbolsFile{Path: path, Symbols: []ListedSymbol{}}
		unchecked := found.Unchecked != nil && found.Unchecked[i]
		lang, e, skip, err := ix.symbols(ctx, w, path, req.Lang, unchecked)
		switch {
		case skip != "":
			f.skip = skip
		case err != nil:
			f.Error = AsError(err)
		default:
			f.Language = lang.Name
			f.list(e, keep)
		}
		if req.Render != nil && f.skip == "" && !(keep != nil && f.Error == nil && len(f.Symbols) == 0) {
			f.Rendered = req.Render(f)
		}
		return f
	}, func(i int, f *SymbolsFile) error {
		if f.skip != "" { // the walk's deferred check, made here: as if the walk had skipped it
			found.Skipped[f.skip]++
			found.Files[i], skipped = "", true
			return nil
		}
		if f.Error != nil && first == nil {
			first = f.Error
		}
		if keep != nil && f.Error == nil && len(f.Symbols) == 0 {
			return nil // a search: a file with no match is not listed
		}
		if req.OnFile != nil {
			return req.OnFile(f, n)
		}
		res.Files = append(res.Files, *f)
		return nil
	})
	res.Index = ix.finish()
	if skipped {
		found.Files = slices.DeleteFunc(found.Files, func(p string) bool { return p == "" })
		res.Skipped, res.Summary = found.Skipped, found.Summary()
	}
	switch {
	case err != nil:
		return res, fail(err)
	case first != nil:
		return res, fail(first)
	}
	res.OK = true
	return res, nil
}

// filter returns the test a symbol must pass to be listed (Name and Kind),
// or nil when the request filters nothing. A malformed glob or an unknown
// kind is a *UsageError.
func (r SymbolsRequest) filter() (func(symbols.Symbol) bool, error) {
	if r.Name == "" && r.Kind == "" {
		return nil, nil
	}
	glob := strings.ContainsAny(r.Name, "*?[")
	if glob {
		if _, err := path.Match(r.Name, ""); err != nil {
			return nil, &UsageError{Field: "name", Msg: fmt.Sprintf("%q is not a glob: %v", r.Name, err)}
		}
	}
	if r.Kind != "" && !slices.Contains(symbols.Kinds(), symbols.Kind(r.Kind)) {
		return nil, &UsageError{Field: "kind", Msg: fmt.Sprintf("unknown kind %q: want one of %v", r.Kind, symbols.Kinds())}
	}
	return func(s symbols.Symbol) bool {
		if r.Kind != "" && s.Kind != symbols.Kind(r.Kind) {
			return false
		}
		if glob {
			ok, _ := path.Match(r.Name, s.NamePath)
			return ok
		}
		return strings.Contains(s.NamePath, r.Name)
	}, nil
}

// symbolIndex is one Symbols run's use of the persistent symbol index
// (package symcache). Location by name path and
// the editing operations do not use it: they need the file's text (and
// the guard its tree) anyway, so the index would save them nothing.
type symbolIndex struct {
	cache     *symcache.Cache   // nil: NoCache, or no cache folder
	dirs      *files.DirStat    // the files' stats and reads, a folder resolved once
	parses    atomic.Int64      // files read and parsed
	checks    atomic.Int64      // walked files opened for walk.Check
	lookups   atomic.Int64      // files stat'ed for a lookup
	afterStat func(path string) // SymbolsRequest.afterStat
}

// openIndex opens the index in Options.IndexDir (symcache's default
// folder when ""); none with noCache, nor when there is no cache folder.
func (w *Workspace) openIndex(noCache bool) *symbolIndex {
	ix := &symbolIndex{dirs: w.view.NewDirStat()}
	if noCache {
		return ix
	}
	if c, err := symcache.Open(symcache.Options{Dir: w.opt.IndexDir}); err == nil {
		ix.cache = c
	}
	return ix
}

// close releases the folders the run's stats opened.
func (ix *symbolIndex) close() {
	ix.dirs.Close()
}

// symbols returns the language and symbols of the file path names,
// through the index. The checks Read makes before reading (the root, not
// a regular file, hard links, size) are made on every file, from one
// stat relative to its folder, which the run resolves once
// (files.DirStat); those of its content (binary, encoding) were made
// when its entry was written. A walked file whose content checks the
// walk left to the caller (unchecked: walk.Options.DeferContentChecks)
// gets them (walk.Check) only when its entry misses, before its stat's
// error is reported: skip is then the walk's reason to skip it (too
// large, binary), and the file is left out as the walk would have.
//
// A miss reads the file, and its entry is keyed by what was read: the
// real path that read resolved and the fstat of the descriptor the
// content came from, never by the stat taken for the lookup. Between
// that stat and the read a folder link on the way may have been
// repointed, or a folder renamed, and the content read be another
// file's; keyed by the stat, that other file's symbols would be served
// for this one for as long as this one stayed unchanged. A hit needs the
// entry's identity (device, inode, size, modification and change times)
// to equal that of the file the path names now, by the stat its
// resolution makes: the same file, unchanged since it was read (a write
// moves the change time, which no program can set back), whatever path
// led to it; a hit opens no source file. The racily-clean time is taken
// before that stat, so before the read's open and fstat too.
//
// A file of a folder whose group the index holds nothing of
// (symcache.Cache.Holds: a cold run) is not stat'ed for a lookup that
// must miss; it is read as on a miss, and its errors are the read's,
// which are the stat's in the same order.
//
// The entry holds the file's SHA-256 and each symbol's (symcache.Entry:
// raw sums, one per symbol), so that a hit gives them without reading
// the file.
func (ix *symbolIndex) symbols(ctx context.Context, w *Workspace, path, langName string, unchecked bool) (l *lang.Language, e symcache.Entry, skip string, err error) {
	parseFile := func() (*lang.Language, symcache.Entry, string, error) {
		ix.parses.Add(1)
		p, err := listFile(ctx, ix.dirs, path, langName)
		if err != nil {
			return nil, symcache.Entry{}, "", err
		}
		return p.lang, p.entry(), "", nil
	}
	if ix.cache == nil {
		return parseFile()
	}
	stated := time.Now() // before the stat: the racily-clean rule's time
	// A file whose folder's group the index holds nothing of (a cold
	// run) misses whatever its key: no stat to make one.
	lookup := true
	if dir, ok := ix.dirs.RealDir(path); ok && !ix.cache.Holds(dir) {
		lookup = false
		l, err = lang.Select(path, langName)
	}
	var fi fs.FileInfo
	if lookup {
		ix.lookups.Add(1)
		var real string
		real, fi, err = ix.dirs.Stat(path)
		if err == nil {
			l, err = lang.Select(path, langName)
			if err == nil {
				if e, ok := ix.cache.GetEntry(symcache.KeyOf(real, l.Name, fi)); ok && len(e.SHA256) == sha256.Size && len(e.SymbolSHA256) == len(e.Symbols) {
					return l, e, "", nil
				}
			}
		}
	}
	if unchecked {
		ix.checks.Add(1)
		if skip := walk.Check(w.walkPath(path), 0); skip != "" {
			return nil, symcache.Entry{}, skip, nil
		}
	}
	switch {
	case lookup && fi == nil:
		return nil, symcache.Entry{}, "", err
	case l == nil:
		return parseFile() // its errors, in its order
	}
	if ix.afterStat != nil {
		ix.afterStat(path)
	}
	doc, err := ix.dirs.Read(path)
	if err != nil {
		return nil, symcache.Entry{}, "", err
	}
	ix.parses.Add(1)
	p, err := list(ctx, doc, l)
	if err != nil {
		return nil, symcache.Entry{}, "", err
	}
	e = p.entry()
	if read := doc.Info(); read != nil {
		// Counted in the stats; the output does not depend on it.
		_ = ix.cache.PutEntry(symcache.KeyOf(doc.RealPath(), l.Name, read), stated, e)
	}
	return l, e, "", nil
}

// entry returns what the index stores for p's file: its symbols, the
// file's SHA-256 and each symbol's (symbolSHA256), raw.
func (p *parsed) entry() symcache.Entry {
	sum := sha256.Sum256(p.doc.Content) // Document.SHA256's, raw
	e := symcache.Entry{Symbols: p.symbols, SHA256: string(sum[:]), SymbolSHA256: make([]string, len(p.symbols))}
	for i, s := range p.symbols {
		sum := symbolSum(p.doc, s)
		e.SymbolSHA256[i] = string(sum[:])
	}
	return e
}

// list fills f's SHA256 and Symbols from e, an index entry with its
// sums, keeping only the symbols keep accepts (all with a nil keep).
//
// The hex digits of all the sums are encoded into one buffer and taken
// as one string, which the listed symbols' SHA256 fields share: a warm
// run lists every symbol of a tree, one allocation per sum otherwise.
func (f *SymbolsFile) list(e symcache.Entry, keep func(symbols.Symbol) bool) {
	n := 0
	for _, s := range e.Symbols {
		if keep == nil || keep(s) {
			n++
		}
	}
	buf := make([]byte, 0, hex.EncodedLen(len(e.SHA256))+n*hex.EncodedLen(sha256.Size))
	buf = hex.AppendEncode(buf, []byte(e.SHA256))
	at := make([]int, 0, n+1) // where each listed symbol's digits start
	for i, s := range e.Symbols {
		if keep == nil || keep(s) {
			at = append(at, len(buf))
			buf = hex.AppendEncode(buf, []byte(e.SymbolSHA256[i]))
		}
	}
	at = append(at, len(buf))
	all := string(buf)
	f.SHA256 = all[:at[0]]
	if n > 0 && cap(f.Symbols)-len(f.Symbols) < n {
		f.Symbols = slices.Grow(f.Symbols, n)
	}
	j := 0
	for _, s := range e.Symbols {
		if keep == nil || keep(s) {
			f.Symbols = append(f.Symbols, ListedSymbol{Symbol: s, SHA256: all[at[j]:at[j+1]]})
			j++
		}
	}
}

// finish writes the entries the run put, prunes the index after a run that wrote to it (at most hourly,
// symcache.MaybePrune) and returns the run's counts.
func (ix *symbolIndex) finish() IndexStats {
	st := IndexStats{Parsed: ix.parses.Load(), Checked: ix.checks.Load(), LookedUp: ix.lookups.Load()}
	if ix.cache == nil {
		return st
	}
	_ = ix.cache.Flush() // counted in the stats (Failed); the output does not depend on it
	cs := ix.cache.Stats()
	if cs.Writes > 0 {
		_, _, _ = ix.cache.MaybePrune()
	}
	st.Dir, st.Hits, st.Written, st.Corrupt, st.Racy = ix.cache.Dir(), cs.Hits, cs.Writes, cs.Corrupt, cs.Racy
	return st
}
