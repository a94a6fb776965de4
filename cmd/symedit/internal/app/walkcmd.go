package app

import (
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"
)

// progressMin is the fewest files that get a progress bar: below it a
// run is too short for one.
const progressMin = 50

// walkFlags are the flags of the commands that take FILE... arguments that
// may be folders or patterns: the worker count and the walk's rules.
func walkFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "j", Value: runtime.NumCPU(), Usage: "process `N` files at once (default: the number of cores)"},
		&cli.GenericFlag{Name: "exclude", Value: &patternList{}, Usage: "leave out of folder and pattern walks what doublestar `PATTERN` matches (the path below the walked folder, or the base name); repeatable"},
		&cli.BoolFlag{Name: "no-ignore", Usage: "walk what .gitignore files and .git/info/exclude ignore too"},
		&cli.BoolFlag{Name: "hidden", Usage: "walk hidden files and folders too (never .git)"},
	}
}

// patternList is a repeatable flag's values, taken whole: a pattern such as
// {a,b} keeps its commas (cli.StringSliceFlag would split it).
type patternList []string

func (p *patternList) Set(v string) error { *p = append(*p, v); return nil }
func (p *patternList) String() string     { return strings.Join(*p, " ") }

// progress is a progress bar on standard error, or nothing.
type progress struct{ bar *progressbar.ProgressBar }

// progress returns a progress bar for n files, shown only when standard
// error is a terminal, there are more than progressMin files and the
// output is not JSON; else an inert one.
func (e *env) progress(n int, json bool) progress {
	if json || n <= progressMin {
		return progress{}
	}
	f, ok := e.stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return progress{}
	}
	return progress{progressbar.NewOptions(n,
		progressbar.OptionSetWriter(f),
		progressbar.OptionSetDescription("symedit"),
		progressbar.OptionShowCount(),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetPredictTime(true),
	)}
}

// shown reports whether the bar is drawn.
func (p progress) shown() bool { return p.bar != nil }

// add counts one file done.
func (p progress) add() {
	if p.bar != nil {
		_ = p.bar.Add(1)
	}
}

// clear erases the bar before a message is printed on standard error; the
// next add draws it again.
func (p progress) clear() {
	if p.bar != nil {
		_ = p.bar.Clear()
	}
}

// done erases the bar for good.
func (p progress) done() {
	if p.bar != nil {
		_ = p.bar.Finish()
		_ = p.bar.Clear()
	}
}
