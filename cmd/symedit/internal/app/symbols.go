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
		ArgsUsage: "FILE...",
		Flags:     readFlags(),
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
			var firstErr error
			for _, f := range files {
				p, err := s.parseFile(f)
				if err != nil {
					fmt.Fprintf(e.stderr, "symedit: %v\n", err)
					if firstErr == nil {
						firstErr = err
					}
					continue
				}
				if c.Bool("json") {
					err = e.writeJSON(fileJSON{Path: f, Language: p.lang.Name, Symbols: nonNil(p.symbols)})
					if err == nil && e.side != nil {
						err = printOutline(e.sideEnv(), f, p) // the readable text too
					}
				} else {
					err = printOutline(e, f, p)
				}
				if err != nil {
					return err
				}
			}
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
