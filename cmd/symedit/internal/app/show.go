package app

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/ops"
)

func showCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "print a symbol's source lines",
		ArgsUsage: "LOCATION",
		Description: locationHelp + "Example:\n" +
			"  symedit show -n testdata/src/python/process.py::BaseProcess/start",
		Flags: append(readFlags(),
			&cli.BoolFlag{Name: "n", Usage: "prefix each line with its 1-based file line number"},
			&cli.BoolFlag{Name: "visible", Usage: "mark tabs (→), trailing spaces (·), CRs (␍), no-break spaces (⍽) and other invisible characters ([U+200B])"}),
		Action: e.withWorkspace(1, 1, "LOCATION", func(c *cli.Context, w *ops.Workspace, args []string) error {
			res, err := w.Show(c.Context, ops.ShowRequest{Location: args[0], LineNumbers: c.Bool("n"), Visible: c.Bool("visible"), Lang: c.String("lang")})
			return e.printShow(c, res, err)
		}),
	}
}

// printShow prints a show result: with --json the result marshalled,
// else the listing; a refusal's error is returned for Main to print (with
// --json, returned silent).
func (e *env) printShow(c *cli.Context, res *ops.ShowResult, err error) error {
	if c.Bool("json") {
		if werr := e.writeJSON(res); werr != nil {
			return werr
		}
		if err != nil {
			return errSilent{err}
		}
		return nil
	}
	if err != nil {
		return err
	}
	_, werr := fmt.Fprint(e.stdout, res.Listing())
	return werr
}
