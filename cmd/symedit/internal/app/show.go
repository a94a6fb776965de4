package app

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
)

func showCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "print a symbol's source lines",
		ArgsUsage: "LOCATION",
		Flags: append(readFlags(),
			&cli.BoolFlag{Name: "n", Usage: "prefix each line with its 1-based file line number"}),
		Action: func(c *cli.Context) error {
			args, err := e.positional(c, 1, 1, "LOCATION")
			if err != nil {
				return err
			}
			s, err := e.newSession(c)
			if err != nil {
				return err
			}
			defer s.close()
			t, err := s.locate(args[0])
			if err != nil {
				return e.fail(c, err, nil)
			}
			lines := t.doc.Lines(t.first, t.last)
			out := e.stdout
			if c.Bool("json") {
				err := e.writeJSON(map[string]any{
					"ok": true, "path": t.doc.Path, "language": t.lang.Name, "symbol": t.symbolJSON(),
					"first_line": t.first, "last_line": t.last, "text": strings.Join(lines, "\n") + "\n",
				})
				if err != nil || e.side == nil {
					return err
				}
				out = e.side // the readable text too, on the side channel
			}
			var b strings.Builder
			width := len(strconv.Itoa(t.last))
			for i, l := range lines {
				if c.Bool("n") {
					fmt.Fprintf(&b, "%*d  ", width, t.first+i)
				}
				b.WriteString(l)
				b.WriteByte('\n')
			}
			_, err = fmt.Fprint(out, b.String())
			return err
		},
	}
}
