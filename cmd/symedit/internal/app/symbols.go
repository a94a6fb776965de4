package app

import (
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/grammars"
	"github.com/symedit/symedit/internal/symcache"
	"github.com/symedit/symedit/symbols"
)

func symbolsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "symbols",
		Usage:     "list the symbols of files: an outline, or JSON Lines with --json",
		ArgsUsage: "FILE|DIR|PATTERN...",
		Flags: append(append(readFlags(), walkFlags()...),
			&cli.BoolFlag{Name: "no-cache", Usage: "neither read nor write the symbol index: read and parse every file"},
			&cli.BoolFlag{Name: "cache-stats", Usage: "print to standard error how many files came from the symbol index and how many were parsed"}),
		Action: func(c *cli.Context) error {
			files, err := e.positional(c, 1, -1, "FILE...")
			if err != nil {
				return err
			}
			s, err := e.newSession(c)
			if err != nil {
				return err
			}
			defer s.close()
			jobs, err := s.jobs()
			if err != nil {
				return err
			}
			w, err := s.expand(files)
			if err != nil {
				return err
			}
			ix := openIndex(s)
			type result struct {
				p   *parsed
				err error
			}
			var firstErr error
			bar := e.progress(len(w.Files), c.Bool("json"))
			err = forEachOrdered(len(w.Files), jobs, func(i int) result {
				p, err := ix.parseFile(s, w.Files[i])
				return result{p, err}
			}, func(i int, r result) error {
				defer bar.add()
				f, p := w.Files[i], r.p
				if r.err != nil {
					bar.clear()
					fmt.Fprintf(e.stderr, "symedit: %v\n", r.err)
					if firstErr == nil {
						firstErr = r.err
					}
					return nil
				}
				if c.Bool("json") {
					err := e.writeJSON(fileJSON{Path: f, Language: p.lang.Name, Symbols: nonNil(p.symbols)})
					if err == nil && e.side != nil {
						err = printOutline(e.sideEnv(), f, p) // the readable text too
					}
					return err
				}
				return printOutline(e, f, p)
			})
			bar.done()
			ix.finish(s)
			if err != nil {
				return err
			}
			s.summary(w, fmt.Sprintf("%d file(s)", len(w.Files)))
			if firstErr != nil {
				return fmt.Errorf("%w", errSilent{firstErr})
			}
			return nil
		},
	}
}

// symbolIndex is one `symbols` run's use of the persistent symbol index
// (issue 15, first bullet; package symcache). Location by name path and
// the editing commands do not use it: they need the file's text (and the
// guard its tree) anyway, so the index would save them nothing.
type symbolIndex struct {
	cache  *symcache.Cache // nil: --no-cache, --expect-sha256, or no cache folder
	parses atomic.Int64    // files read and parsed
}

// openIndex opens the index for s's flags: none with --no-cache, nor with
// --expect-sha256 (which checks the content, so must read it), nor when
// the user has no cache folder.
func openIndex(s *session) *symbolIndex {
	ix := &symbolIndex{}
	if s.c.Bool("no-cache") || s.expect != "" {
		return ix
	}
	if c, err := symcache.Open(symcache.Options{}); err == nil {
		ix.cache = c
	}
	return ix
}

// parseFile is s.parseFile through the index: a file whose key (its real
// path, size, times, inode, the language and the build) has an entry is
// neither read nor parsed; any other is, and its symbols are stored. The
// checks Read makes before reading (the root, not a regular file, hard
// links, size) are made on every file; those of its content (binary,
// encoding) were made when its entry was written.
func (ix *symbolIndex) parseFile(s *session, path string) (*parsed, error) {
	if ix.cache == nil {
		ix.parses.Add(1)
		return s.parseFile(path)
	}
	stated := time.Now() // before the stat: the racily-clean rule's time
	real, fi, err := s.files.Stat(path)
	if err != nil {
		return nil, err
	}
	lang, err := grammars.Select(path, s.c.String("lang"))
	if err != nil {
		ix.parses.Add(1)
		return s.parseFile(path) // its errors, in its order
	}
	key := symcache.KeyOf(real, lang.Name, fi)
	if syms, ok := ix.cache.Get(key); ok {
		return &parsed{lang: lang, symbols: syms}, nil
	}
	doc, err := s.read(path)
	if err != nil {
		return nil, err
	}
	ix.parses.Add(1)
	p, err := parse(doc, lang)
	if err != nil {
		return nil, err
	}
	_ = ix.cache.Put(key, stated, p.symbols) // counted in the stats; the output does not depend on it
	return p, nil
}

// finish prunes the index after a run that wrote to it (at most hourly,
// symcache.MaybePrune) and prints the counts for --cache-stats.
func (ix *symbolIndex) finish(s *session) {
	var st symcache.Stats
	if ix.cache != nil {
		st = ix.cache.Stats()
		if st.Writes > 0 {
			_, _, _ = ix.cache.MaybePrune()
		}
	}
	if s.c.Bool("cache-stats") {
		where := "off"
		if ix.cache != nil {
			where = ix.cache.Dir()
		}
		fmt.Fprintf(s.e.stderr, "symedit: index: %d from the index, %d parsed, %d written, %d corrupt, %d too recent to store (%s)\n",
			st.Hits, ix.parses.Load(), st.Writes, st.Corrupt, st.Racy, where)
	}
}

// errSilent wraps an error already printed; Main prints nothing more but
// still takes its exit code.
type errSilent struct{ err error }

func (e errSilent) Error() string { return e.err.Error() }
func (e errSilent) Unwrap() error { return e.err }

// fileJSON is one line of `symbols --json`.
type fileJSON struct {
	Path     string           `json:"path"`
	Language string           `json:"language"`
	Symbols  []symbols.Symbol `json:"symbols"`
}

func nonNil(s []symbols.Symbol) []symbols.Symbol {
	if s == nil {
		return []symbols.Symbol{}
	}
	return s
}

// printOutline prints the readable outline: the file, then one line per
// symbol, indented by depth: kind, name path's last segment, line range.
func printOutline(e *env, path string, p *parsed) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s, %d symbols)\n", path, p.lang.Name, len(p.symbols))
	depth := make([]int, len(p.symbols))
	for i, s := range p.symbols {
		if s.Parent >= 0 {
			depth[i] = depth[s.Parent] + 1
		}
		name := s.NamePath
		if s.Parent >= 0 {
			name = name[strings.LastIndex(name, "/")+1:]
		}
		fmt.Fprintf(&b, "%s  %-12s%s  %d-%d\n", strings.Repeat("  ", depth[i]), s.Kind, name, s.Start.Line, s.LastLine())
	}
	_, err := fmt.Fprint(e.stdout, b.String())
	return err
}
