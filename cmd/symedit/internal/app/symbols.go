package app

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"

	segjson "github.com/segmentio/encoding/json"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/symedit/symedit/ops"
	"github.com/symedit/symedit/symbols"
)

func symbolsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "symbols",
		Usage:     "list the symbols of files: PATH:LINE:COL: KIND NAME_PATH lines, or JSON Lines with --json",
		ArgsUsage: "FILE|DIR|PATTERN...",
		Flags: append(append(readFlags(), walkFlags()...),
			&cli.BoolFlag{Name: "no-cache", Usage: "neither read nor write the symbol index: read and parse every file"},
			&cli.StringFlag{Name: "name", Usage: "list only the symbols whose name path holds `PATTERN` (a glob when it has * ? or [; * does not cross /), and only the files that have one"},
			&cli.StringFlag{Name: "kind", Usage: "list only the symbols of `KIND` (" + kindNames() + ")"},
			&cli.BoolFlag{Name: "cache-stats", Usage: "print to standard error how many files came from the symbol index and how many were parsed"}),
		Action: e.withWorkspace(1, -1, "FILE...", func(c *cli.Context, w *ops.Workspace, args []string) error {
			return e.symbols(c, w, args)
		}),
	}
}

// symbols runs `symedit symbols`: each file's symbol lines (or, with --json,
// its ops.SymbolsFile as one JSON line) as soon as it and the files
// before it are done, then, after a walk, the summary on standard error.
func (e *env) symbols(c *cli.Context, w *ops.Workspace, args []string) error {
	wo, err := walkOptions(c)
	if err != nil {
		return err
	}
	json := c.Bool("json")
	var bar progress
	var printErr error // printing failed: Main prints it
	// Standard output is written in blocks unless it is a terminal, as
	// ripgrep does: a warm run over a large tree prints thousands of
	// files, one write each otherwise. It is flushed before anything goes
	// to standard error, so the two keep their order in one file.
	out, flush := e.blockBuffered()
	req := ops.SymbolsRequest{Paths: args, Lang: c.String("lang"), WalkOptions: wo, NoCache: c.Bool("no-cache"),
		Name: c.String("name"), Kind: c.String("kind")}
	// Each file's JSON line or outline is built on the goroutine that
	// listed it (Render), so that printing, on one goroutine, only writes:
	// on a warm run, where the index answers, encoding was the largest
	// part of the run.
	req.Render = func(f *ops.SymbolsFile) []byte {
		if json {
			return renderJSON(f) // nil: OnFile encodes it again and reports the error
		}
		var b bytes.Buffer
		appendOutline(&b, f)
		return b.Bytes()
	}
	req.OnFile = func(f *ops.SymbolsFile, n int) (err error) {
		defer func() { printErr = err }()
		if bar == (progress{}) {
			bar = e.progress(n, json)
		}
		defer bar.add()
		if f.Error != nil {
			if err := flush(); err != nil {
				return err
			}
			bar.clear()
			e.printError(e.stderr, f.Error)
			if !json {
				return nil
			}
		}
		if f.Rendered != nil {
			_, err := out.stdout.Write(f.Rendered)
			return err
		}
		if json {
			return out.writeJSON(f)
		}
		return printOutline(out, f)
	}
	res, err := w.Symbols(c.Context, req)
	bar.done()
	if ferr := flush(); ferr != nil && printErr == nil {
		printErr = ferr
	}
	if c.Bool("cache-stats") {
		st, where := res.Index, res.Index.Dir
		if where == "" {
			where = "off"
		}
		fmt.Fprintf(e.stderr, "symedit: index: %d from the index, %d parsed, %d written, %d corrupt, %d too recent to store (%s)\n",
			st.Hits, st.Parsed, st.Written, st.Corrupt, st.Racy, where)
	}
	if printErr != nil {
		return printErr
	}
	if res.Summary == "" { // the paths could not be expanded
		return err
	}
	if res.Walked {
		fmt.Fprintf(e.stderr, "symedit: %s\n", res.Summary)
	}
	if err != nil {
		return errSilent{err}
	}
	return nil
}

// renderJSON returns f's line of `symbols --json`: what encoding/json's
// Encoder writes with HTML escaping off, byte for byte (a test compares
// the two on real trees and crafted strings), written by
// github.com/segmentio/encoding/json, which builds an encoder for the
// type once instead of walking it by reflection for every value: a warm
// run over a large tree is mostly this encoding, 27% of its CPU with
// encoding/json. It is nil when the encoding fails.
func renderJSON(f *ops.SymbolsFile) []byte {
	var b bytes.Buffer
	enc := segjson.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(f) != nil {
		return nil
	}
	return b.Bytes()
}

// errSilent wraps an error already printed; Main prints nothing more but
// still takes its exit code.
type errSilent struct{ err error }

func (e errSilent) Error() string { return e.err.Error() }
func (e errSilent) Unwrap() error { return e.err }

// printOutline prints one line per symbol, in the form compilers, grep
// and editors use for a place in a file, so that an editor jumps to it
// and the start is a location the editing commands take as it is:
// "PATH:LINE:COL: KIND NAME_PATH (to LINE:COL)", the start (1-based
// line, 1-based byte column, decorators and annotations included) and
// the exclusive end, as the JSON's start and end. A file without symbols
// prints nothing, as grep prints nothing for a file without a match.
func printOutline(e *env, f *ops.SymbolsFile) error {
	var b bytes.Buffer
	appendOutline(&b, f)
	_, err := e.stdout.Write(b.Bytes())
	return err
}

// appendOutline writes printOutline's lines for f to b.
func appendOutline(b *bytes.Buffer, f *ops.SymbolsFile) {
	for _, s := range f.Symbols {
		fmt.Fprintf(b, "%s:%d:%d: %s %s (to %d:%d)\n", f.Path, s.Start.Line, s.Start.Column, s.Kind, s.NamePath, s.End.Line, s.End.Column)
	}
}

// blockBuffered returns e with its standard output buffered in 64 KiB
// blocks, and the function that writes out what is buffered, unless
// standard output is a terminal: then e itself and a flush that does
// nothing.
func (e *env) blockBuffered() (*env, func() error) {
	if f, ok := e.stdout.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return e, func() error { return nil }
	}
	b := bufio.NewWriterSize(e.stdout, 64<<10)
	be := *e
	be.stdout = b
	return &be, b.Flush
}

// kindNames lists every symbol kind (symbols.Kinds), comma-separated, for
// --kind's help: the list grows with the languages.
func kindNames() string {
	var names []string
	for _, k := range symbols.Kinds() {
		names = append(names, string(k))
	}
	return strings.Join(names, ", ")
}
