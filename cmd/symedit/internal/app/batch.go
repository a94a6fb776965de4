package app

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/ops"
)

func batchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "batch",
		Usage: "run many operations in one process: JSON Lines in, JSON Lines out",
		Description: "OPS (a file, or - for standard input) holds one operation per line:\n" +
			"  {\"op\": \"chunk\", \"location\": \"a.py::C/m\", \"chunks\": [...]}\n" +
			"  {\"op\": \"edit\", \"path\": \"a.go\", \"edits\": [{\"old_text\": ..., \"new_text\": ...}]}\n" +
			"  {\"op\": \"lines\", \"path\": \"a.go\", \"edits\": [{\"start_line\": 1, \"end_line\": 2, \"new_content\": ...}]}\n" +
			"  {\"op\": \"replace\", \"path\": \"a.go\", \"search\": ..., \"replacement\": ..., \"regex\": false, \"ignore_case\": false, \"count\": 0, \"expect\": 1}\n" +
			"  {\"op\": \"write\", \"path\": \"a.go\", \"content\": ...}\n" +
			"  {\"op\": \"replace-body\" | \"insert-before\" | \"insert-after\", \"location\": ..., \"text\": ...}\n" +
			"chunk and edit ops take \"match\": exact, trailing, indent or loose, as --match does; any op\n" +
			"takes \"expect_sha256\", checked against its file as read.\n" +
			"Operations on one file apply in order, each on the result of the one before, and the file is\n" +
			"checked and committed once; different files run in parallel. One result line per operation,\n" +
			"in input order. --atomic commits nothing unless every operation of every file validates.",
		ArgsUsage: "OPS",
		Flags:     append(writeFlags(), &cli.BoolFlag{Name: "atomic", Usage: "commit nothing unless every operation validates"}),
		Action: e.withWorkspace(1, 1, "OPS", func(c *cli.Context, w *ops.Workspace, args []string) error {
			return e.batch(c, w, args[0])
		}),
	}
}

// batch runs `symedit batch`: each line of src (a file or "-") into an
// ops.BatchOp, all of them into one ops.BatchRequest, and each operation's
// result printed as one line of JSON, in input order. Malformed input (a
// line that is empty or not one strict operation object) is refused
// before any file is read.
func (e *env) batch(c *cli.Context, w *ops.Workspace, src string) error {
	raw, err := e.readInput(src)
	if err != nil {
		return fmt.Errorf("reading operations: %w", err)
	}
	req := ops.BatchRequest{Atomic: c.Bool("atomic"), WriteOptions: writeOptions(c)}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 1<<20), edit.MaxFileSize)
	for n := 1; sc.Scan(); n++ {
		op, err := decodeBatchOp(sc.Bytes())
		if err != nil {
			return &ops.InputError{Err: fmt.Errorf("operation line %d: %w", n, err)}
		}
		req.Ops = append(req.Ops, op)
	}
	if err := sc.Err(); err != nil {
		return &ops.InputError{Err: fmt.Errorf("reading operations: %w", err)}
	}
	if len(req.Ops) == 0 {
		return &ops.InputError{Err: errors.New("no operations")}
	}
	res, err := w.Batch(c.Context, req)
	if len(res.Ops) == 0 {
		return err // refused as a whole: nothing was read
	}
	for _, r := range res.Ops {
		if werr := e.writeJSON(r); werr != nil {
			return werr
		}
	}
	if err != nil {
		return errSilent{err}
	}
	return nil
}

// decodeBatchOp reads one input line: exactly one JSON object, an
// operation (ops.BatchOp's strict rules).
func decodeBatchOp(line []byte) (ops.BatchOp, error) {
	var op ops.BatchOp
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return op, errors.New("the line is empty")
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&op); err != nil {
		return op, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return op, errors.New("more than one JSON value on the line: one operation per line")
	}
	return op, nil
}
