package app

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/symbols"
)

func symbolsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "symbols",
		Usage:     "list the symbols of files: an outline, or JSON Lines with --json",
		ArgsUsage: "FILE|DIR|PATTERN...",
		Flags:     append(readFlags(), walkFlags()...),
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
			type result struct {
				p   *parsed
				err error
			}
			var firstErr error
			bar := e.progress(len(w.Files), c.Bool("json"))
			err = forEachOrdered(len(w.Files), jobs, func(i int) result {
				p, err := s.parseFile(w.Files[i])
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
