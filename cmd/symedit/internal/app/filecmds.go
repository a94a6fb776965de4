package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/edit"
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

func replaceCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "replace",
		Usage: "search and replace in files: literal by default, --regex for Go RE2 patterns",
		Description: "With --regex, $1 and ${name} in REPLACEMENT expand submatches (\\1 is read as $1).\n" +
			"No match in any file is a rejection (exit 1) that shows similar lines. Every file is checked\n" +
			"before any is written; each is then written atomically. FILE may be a folder or a quoted\n" +
			"doublestar pattern, walked as for symbols: then only the files with matches are listed.",
		ArgsUsage: "SEARCH REPLACEMENT FILE|DIR|PATTERN...",
		Flags: append(append(writeFlags(),
			&cli.BoolFlag{Name: "regex", Usage: "SEARCH is a Go RE2 regular expression"},
			&cli.BoolFlag{Name: "i", Usage: "match case-insensitively"},
			&cli.IntFlag{Name: "count", Usage: "replace at most the first `N` matches in each file (0: all)"},
			&cli.IntFlag{Name: "expect", Value: -1, Usage: "refuse unless there are exactly `N` matches over all files"},
		), walkFlags()...),
		Action: e.withSession(3, -1, "SEARCH REPLACEMENT FILE...", func(s *session, args []string) error {
			return s.replace(args[0], args[1], args[2:])
		}),
	}
}

// replaceError is a replace refused for its match count: no match at all,
// or not the --expect number.
type replaceError struct {
	msg     string
	count   bool // refused for --expect, not for finding nothing
	Similar []similarLine
}

func (e *replaceError) Error() string { return e.msg }

// similarLine is a line resembling the search text.
type similarLine struct {
	Path       string  `json:"path"`
	Line       int     `json:"line"`
	Text       string  `json:"text"`
	Similarity float64 `json:"similarity"`
}

func (s *session) replace(pattern, replacement string, paths []string) error {
	result := map[string]any{"path": strings.Join(paths, " ")}
	sr, err := edit.Compile(edit.Search{Pattern: pattern, Replacement: replacement, Regex: s.c.Bool("regex"),
		IgnoreCase: s.c.Bool("i"), Count: s.c.Int("count")})
	if err != nil {
		return s.e.fail(s.c, &usageError{msg: err.Error()}, result)
	}
	type fileChange struct {
		ch      *change
		n       int
		matches []edit.Match
	}
	if err := distinctFiles(explicitFiles(paths)); err != nil {
		return s.e.fail(s.c, err, result)
	}
	jobs, err := s.jobs()
	if err != nil {
		return s.e.fail(s.c, err, result)
	}
	w, err := s.expand(paths)
	if err != nil {
		return s.e.fail(s.c, err, result)
	}
	where := strings.Join(w.Files, ", ")
	if w.Walked {
		where = fmt.Sprintf("the %d file(s) of %s", len(w.Files), strings.Join(paths, " "))
	}
	paths = w.Files
	var changes []fileChange
	total, replaced, withMatches := 0, 0, 0
	type read struct {
		fc  fileChange
		err error
	}
	bar := s.e.progress(len(paths), s.json)
	err = forEachOrdered(len(paths), jobs, func(i int) read {
		p := paths[i]
		doc, err := s.read(p)
		if err != nil {
			return read{err: err}
		}
		text, n, matches := sr.Replace(string(doc.Text))
		content := append(append([]byte{}, doc.Content[:len(doc.Content)-len(doc.Text)]...), text...)
		return read{fc: fileChange{&change{doc: doc, lang: s.language(p), content: content,
			what: fmt.Sprintf("replaced %d of %d match(es)", n, len(matches))}, n, matches}}
	}, func(_ int, r read) error {
		bar.add()
		if r.err != nil {
			return r.err
		}
		total += len(r.fc.matches)
		replaced += r.fc.n
		if len(r.fc.matches) > 0 {
			withMatches++
		} else if w.Walked {
			return nil // a walk lists and keeps only the files with matches
		}
		changes = append(changes, r.fc)
		return nil
	})
	bar.done()
	if err != nil {
		return s.e.fail(s.c, err, result)
	}
	if w.Walked {
		paths = make([]string, len(changes))
		for i, fc := range changes {
			paths[i] = fc.ch.doc.Path
		}
	}
	defer s.summary(w, fmt.Sprintf("%d match(es) in %d of %d file(s)", total, withMatches, len(w.Files)))
	if want := s.c.Int("expect"); want >= 0 && total != want {
		return s.e.fail(s.c, &replaceError{count: true, msg: fmt.Sprintf("expected %d match(es) of %s, found %d; nothing was written%s",
			want, strconv.Quote(pattern), total, matchList(paths, matchesOf(changes, func(fc fileChange) []edit.Match { return fc.matches })))}, result)
	}
	if total == 0 {
		re := &replaceError{msg: fmt.Sprintf("no match for %s in %s; nothing was written", strconv.Quote(pattern), where)}
		for _, fc := range changes {
			for _, n := range edit.SimilarTo(string(fc.ch.doc.Text), fc.ch.doc.EOL, pattern) {
				re.Similar = append(re.Similar, similarLine{fc.ch.doc.Path, n.LineNumber, n.Content, n.SimilarityScore})
			}
		}
		if len(re.Similar) > 0 {
			var b strings.Builder
			b.WriteString("\nsimilar lines:")
			for _, l := range re.Similar {
				fmt.Fprintf(&b, "\n  %s:%d: %s  (similarity %.2f)", l.Path, l.Line, l.Text, l.Similarity)
			}
			re.msg += b.String()
		}
		return s.e.fail(s.c, re, result)
	}
	// Check every file (syntax guard, diff) before writing any.
	outs := make([]outcome, len(changes))
	type checked struct {
		out outcome
		err error
	}
	if err := forEachOrdered(len(changes), jobs, func(i int) checked {
		out, err := s.check(changes[i].ch)
		return checked{out, err}
	}, func(i int, r checked) error {
		outs[i] = r.out
		return r.err
	}); err != nil {
		return s.e.fail(s.c, err, result)
	}
	var files []map[string]any
	var diffs strings.Builder
	for i, fc := range changes {
		if err := s.commit(fc.ch, &outs[i]); err != nil {
			return s.e.fail(s.c, fmt.Errorf("%w (files before it in the list were written)", err), result)
		}
		diffs.WriteString(outs[i].Diff)
		files = append(files, map[string]any{"path": fc.ch.doc.Path, "replacements": fc.n, "matches": len(fc.matches), "written": outs[i].Written})
	}
	result["ok"], result["dry_run"], result["files"], result["total_replacements"] = true, s.dry, files, replaced
	if s.dry || s.diff {
		result["diff"] = diffs.String()
	}
	e := s.e
	if s.json {
		if err := e.writeJSON(result); err != nil || e.side == nil {
			return err
		}
		e = e.sideEnv() // the readable text too, on the side channel
	}
	out := e.stdout
	if s.dry {
		out = e.stderr
	}
	for i, fc := range changes {
		fmt.Fprintf(out, "%s: %s\n", fc.ch.doc.Path, fc.ch.what)
		if !outs[i].Syntax.OK() {
			fmt.Fprintf(e.stderr, "warning: the edit adds %d syntax error(s):\n%s", len(outs[i].Syntax.New), outs[i].Syntax.Format(fc.ch.doc.Path))
		}
	}
	if s.dry || s.diff {
		fmt.Fprint(e.stdout, diffs.String())
	}
	return nil
}

func matchesOf[T any](items []T, f func(T) []edit.Match) [][]edit.Match {
	out := make([][]edit.Match, len(items))
	for i, it := range items {
		out[i] = f(it)
	}
	return out
}

// matchList renders every match for a count error, file by file in the
// order given.
func matchList(paths []string, matches [][]edit.Match) string {
	var b strings.Builder
	for i, ms := range matches {
		for _, m := range ms {
			fmt.Fprintf(&b, "\n  %s:%d:%d: %s", paths[i], m.Line, m.Column, m.Text)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return ":" + b.String()
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
			return &usageError{msg: fmt.Sprintf("%s and %s are the same file; name each file once", prev, p)}
		}
		seen[key] = p
	}
	return nil
}
