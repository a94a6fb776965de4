package app

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/ops"
	"github.com/symedit/symedit/walk"
)

func linesCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "lines",
		Usage: "replace, insert or delete whole lines by 1-based number",
		Description: "LINE_EDITS (a file, or - for standard input) holds a JSON array, or {\"edits\": [...]}, of\n" +
			"  {\"start_line\": N, \"end_line\": M, \"new_content\": str}   (1-based, inclusive; \"\" deletes)\n" +
			"  {\"insert_after\": N, \"new_content\": str}                 (0 inserts at the top)\n" +
			"All line numbers refer to the file as it is; overlapping edits are refused.",
		ArgsUsage: "FILE LINE_EDITS",
		Flags:     writeFlags(),
		Action: e.withSession(2, 2, "FILE LINE_EDITS", func(s *session, args []string) error {
			return s.lines(args[0], args[1])
		}),
	}
}

func (s *session) lines(path, editsArg string) error {
	result := map[string]any{"path": path}
	raw, err := s.e.readInput(editsArg)
	if err != nil {
		return s.e.fail(s.c, fmt.Errorf("reading line edits: %w", err), result)
	}
	les, err := edit.ParseLineEdits(raw)
	if err != nil {
		return s.e.fail(s.c, err, result)
	}
	doc, err := s.read(path)
	if err != nil {
		return s.e.fail(s.c, err, result)
	}
	eds, err := doc.ApplyLineEdits(les)
	if err != nil {
		return s.e.fail(s.c, err, result)
	}
	content, err := edit.Apply(doc.Content, eds)
	if err != nil {
		return s.e.fail(s.c, err, result)
	}
	result["edits_applied"] = len(les)
	return s.finish(&change{doc: doc, lang: s.language(path), content: content, edits: eds,
		what: fmt.Sprintf("applied %d line edit(s)", len(les))}, result)
}

func writeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "write",
		Usage:     "write FILE's whole content from standard input (creating it and its folders if needed)",
		ArgsUsage: "FILE",
		Flags:     writeFlags(),
		Action: e.withSession(1, 1, "FILE", func(s *session, args []string) error {
			return s.write(args[0])
		}),
	}
}

func (s *session) write(path string) error {
	result := map[string]any{"path": path}
	content, err := s.e.readInput("-")
	if err != nil {
		return s.e.fail(s.c, fmt.Errorf("reading standard input: %w", err), result)
	}
	if _, err := edit.NewDocument(path, content); err != nil {
		return s.e.fail(s.c, &inputError{fmt.Errorf("the new content: %w", err)}, result)
	}
	if len(content) > edit.MaxFileSize {
		return s.e.fail(s.c, &inputError{fmt.Errorf("the new content is %d bytes, over the %d-byte limit", len(content), edit.MaxFileSize)}, result)
	}
	doc, err := s.files.ReadOrNew(path)
	if err != nil {
		return s.e.fail(s.c, err, result)
	}
	if s.expect != "" {
		if err := doc.CheckSHA256(s.expect); err != nil {
			return s.e.fail(s.c, err, result)
		}
	}
	what := fmt.Sprintf("wrote %d bytes", len(content))
	if doc.IsNew() {
		what = fmt.Sprintf("created with %d bytes", len(content))
	}
	result["bytes"] = len(content)
	return s.finish(&change{doc: doc, lang: s.language(path), content: content, what: what}, result)
}

// explicitFiles returns the arguments that name files rather than folders
// or patterns: the names distinctFiles checks.
func explicitFiles(args []string) []string {
	var out []string
	for _, a := range args {
		info, err := os.Stat(a)
		if (err == nil && !info.IsDir()) || (err != nil && !walk.IsPattern(a)) {
			out = append(out, a)
		}
	}
	return out
}

// distinctFiles refuses a file named twice (directly or through a link):
// each name would be edited from the same original and the second write
// would find the file changed by the first.
func distinctFiles(paths []string) error {
	seen := map[string]string{}
	for _, p := range paths {
		key, err := filepath.EvalSymlinks(p)
		if err != nil {
			continue // reading it will report the problem
		}
		if abs, err := filepath.Abs(key); err == nil {
			key = abs
		}
		if prev, ok := seen[key]; ok {
			return &ops.UsageError{Msg: fmt.Sprintf("%s and %s are the same file; name each file once", prev, p)}
		}
		seen[key] = p
	}
	return nil
}
