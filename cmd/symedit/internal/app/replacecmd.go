package app

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/ops"
)

func replaceCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "replace",
		Usage: "search and replace in files: literal by default, --regex for Go RE2 patterns",
		Description: "With --regex, $1 and ${name} in REPLACEMENT expand submatches (\\1 is read as $1).\n" +
			"No match in any file is a rejection (exit 1) that shows similar lines. Every file is checked\n" +
			"before any is written, and each gets its line: replaced N, or refused with the reason (the\n" +
			"syntax guard's errors, an unreadable file). By default nothing is written unless every file\n" +
			"passes; --partial writes the files that pass (and still exits 1 or 2 if one was refused).\n" +
			"Each file is written atomically. FILE may be a folder or a quoted doublestar pattern, walked\n" +
			"as for symbols: then only the files with matches are listed.",
		ArgsUsage: "SEARCH REPLACEMENT FILE|DIR|PATTERN...",
		Flags: append(append(writeFlags(),
			&cli.BoolFlag{Name: "regex", Usage: "SEARCH is a Go RE2 regular expression"},
			&cli.BoolFlag{Name: "i", Usage: "match case-insensitively"},
			&cli.IntFlag{Name: "count", Usage: "replace at most the first `N` matches in each file (0: all)"},
			&cli.IntFlag{Name: "expect", Value: -1, Usage: "refuse unless there are exactly `N` matches over all files"},
			&cli.BoolFlag{Name: "partial", Usage: "write the files that pass, even when others are refused"},
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

// maxSimilarLines is the most similar lines a refused replace lists, over
// all its files.
const maxSimilarLines = 10

// Statuses of a file in `symedit replace` (replaceFile.Status).
const (
	// replaceOK: the file passed every check; written unless this is a
	// dry run.
	replaceOK = "replaced"
	// replaceNoMatch: a file named on the command line has no match; it
	// is left alone.
	replaceNoMatch = "no_match"
	// replaceRefused: the file failed (unreadable, the syntax guard, a
	// failed write); Error says why.
	replaceRefused = "refused"
	// replaceHeld: the file passed but was not written because the run
	// was refused as a whole (another file refused without --partial, or
	// --expect not met).
	replaceHeld = "not_written"
)

// replaceFile is one file's result in `symedit replace`: every file with
// matches (and every file named on the command line) gets one, as gofmt -l
// lists every file (issue 11, section 5).
type replaceFile struct {
	Path         string     `json:"path"`
	Status       string     `json:"status"` // replaceOK, replaceNoMatch, replaceRefused or replaceHeld
	Matches      int        `json:"matches"`
	Replacements int        `json:"replacements"`
	Written      bool       `json:"written"`
	Error        *jsonError `json:"error,omitempty"`
	Syntax       any        `json:"syntax,omitempty"`

	ch      *change
	err     error
	out     outcome
	matches []edit.Match
}

// replaceResult is the JSON result of `symedit replace`.
type replaceResult struct {
	OK                bool          `json:"ok"`
	Path              string        `json:"path"` // the FILE arguments, joined by spaces
	DryRun            bool          `json:"dry_run"`
	Files             []replaceFile `json:"files"`
	TotalMatches      int           `json:"total_matches"`
	TotalReplacements int           `json:"total_replacements"`
	Refused           int           `json:"refused"`
	Written           int           `json:"written"`
	Diff              *string       `json:"diff,omitempty"`
	Error             *jsonError    `json:"error,omitempty"`

	summary func() // prints a walk's summary line, or nil
}

// replaceRefusal is a replace that refused one file or more: the first
// error of the worst class decides the exit code.
type replaceRefusal struct {
	msg   string
	worst error
}

func (e *replaceRefusal) Error() string { return e.msg }
func (e *replaceRefusal) Unwrap() error { return e.worst }

func (s *session) replace(pattern, replacement string, args []string) error {
	res := &replaceResult{Path: strings.Join(args, " "), DryRun: s.dry, Files: []replaceFile{}}
	sr, err := edit.Compile(edit.Search{Pattern: pattern, Replacement: replacement, Regex: s.c.Bool("regex"),
		IgnoreCase: s.c.Bool("i"), Count: s.c.Int("count")})
	if err != nil {
		return s.replaceDone(res, &ops.UsageError{Msg: err.Error()})
	}
	if err := distinctFiles(explicitFiles(args)); err != nil {
		return s.replaceDone(res, err)
	}
	jobs, err := s.jobs()
	if err != nil {
		return s.replaceDone(res, err)
	}
	w, err := s.expand(args)
	if err != nil {
		return s.replaceDone(res, err)
	}
	where := strings.Join(w.Files, ", ")
	if w.Walked {
		where = fmt.Sprintf("the %d file(s) of %s", len(w.Files), strings.Join(args, " "))
	}
	// Read every file and replace in memory; a file that cannot be read is
	// refused, and the others still get their lines.
	bar := s.e.progress(len(w.Files), s.json)
	withMatches := 0
	_ = forEachOrdered(len(w.Files), jobs, func(i int) replaceFile {
		p := w.Files[i]
		f := replaceFile{Path: p}
		doc, err := s.read(p)
		if err != nil {
			f.Status, f.err = replaceRefused, err
			return f
		}
		text, n, matches := sr.Replace(string(doc.Text))
		content := append(append([]byte{}, doc.Content[:len(doc.Content)-len(doc.Text)]...), text...)
		f.Path, f.Matches, f.Replacements, f.matches = doc.Path, len(matches), n, matches
		f.ch = &change{doc: doc, lang: s.language(p), content: content,
			what: fmt.Sprintf("replaced %d of %d match(es)", n, len(matches))}
		f.Status = replaceOK
		if len(matches) == 0 {
			f.Status = replaceNoMatch
		}
		return f
	}, func(_ int, f replaceFile) error {
		bar.add()
		res.TotalMatches += f.Matches
		res.TotalReplacements += f.Replacements
		if f.Matches > 0 {
			withMatches++
		} else if w.Walked && f.err == nil {
			return nil // a walk lists only the files with matches
		}
		res.Files = append(res.Files, f)
		return nil
	})
	bar.done()
	res.summary = func() {
		s.summary(w, fmt.Sprintf("%d match(es) in %d of %d file(s)", res.TotalMatches, withMatches, len(w.Files)))
	}
	// The counts over all files mean something only when every file was
	// read; else the unreadable files are the refusal.
	if !slices.ContainsFunc(res.Files, func(f replaceFile) bool { return f.err != nil }) {
		if want := s.c.Int("expect"); want >= 0 && res.TotalMatches != want {
			hold(res.Files)
			return s.replaceDone(res, &replaceError{count: true, msg: fmt.Sprintf("expected %d match(es) of %s, found %d; nothing was written%s",
				want, strconv.Quote(pattern), res.TotalMatches, matchList(res.Files, res.TotalMatches))})
		}
		if res.TotalMatches == 0 {
			return s.replaceDone(res, noMatchError(pattern, where, res.Files))
		}
	}
	// Check every file (syntax guard, diff) before writing any.
	_ = forEachOrdered(len(res.Files), jobs, func(i int) replaceFile {
		f := res.Files[i]
		if f.Status == replaceOK {
			f.out, f.err = s.check(f.ch)
			if f.out.Syntax.Checked || f.out.Syntax.Skipped != "" {
				f.Syntax = syntaxJSON(f.out.Syntax)
			}
			if f.err != nil {
				f.Status = replaceRefused
			}
		}
		return f
	}, func(i int, f replaceFile) error {
		res.Files[i] = f
		return nil
	})
	var refusal error
	if res.Refused = countStatus(res.Files, replaceRefused); res.Refused > 0 {
		refusal = s.refusal(res)
	}
	if refusal == nil || s.c.Bool("partial") {
		for i := range res.Files {
			f := &res.Files[i]
			if f.Status != replaceOK {
				continue
			}
			if err := s.commit(f.ch, &f.out); err != nil {
				// Files before it are written, files after it are not:
				// each is reported as it is on disk.
				f.Status, f.err = replaceRefused, err
				res.Refused++
				for j := i + 1; j < len(res.Files); j++ {
					if res.Files[j].Status == replaceOK {
						res.Files[j].Status, res.Files[j].err = replaceHeld, fmt.Errorf("not written: writing %s failed first", f.Path)
					}
				}
				refusal = s.refusal(res)
				break
			}
			f.Written = f.out.Written
		}
	}
	if refusal != nil && !s.c.Bool("partial") {
		hold(res.Files)
	}
	return s.replaceDone(res, refusal)
}

// hold marks the files that passed as not written: the run was refused.
func hold(files []replaceFile) {
	for i := range files {
		if files[i].Status == replaceOK {
			files[i].Status = replaceHeld
		}
	}
}

// countStatus counts the files with status st.
func countStatus(files []replaceFile, st string) int {
	n := 0
	for _, f := range files {
		if f.Status == st {
			n++
		}
	}
	return n
}

// refusal is the error of a run that refused files: it says how many and
// what was written, and wraps the error of the worst class (an I/O error
// over a rejection) for the exit code.
func (s *session) refusal(res *replaceResult) error {
	var worst error
	for _, f := range res.Files {
		if f.Status == replaceRefused && (worst == nil || exitCode(f.err) > exitCode(worst)) {
			worst = f.err
		}
	}
	written := 0
	for _, f := range res.Files {
		if f.Written || (f.Status == replaceOK && s.c.Bool("partial")) {
			written++
		}
	}
	msg := fmt.Sprintf("refused %d of %d file(s)", res.Refused, len(res.Files))
	switch {
	case s.dry:
		msg += "; dry run, nothing was written"
	case s.c.Bool("partial"):
		msg += fmt.Sprintf("; --partial wrote the %d file(s) that passed", written)
	default:
		msg += "; nothing was written (--partial writes the files that pass)"
	}
	return &replaceRefusal{msg: msg, worst: worst}
}

// noMatchError is the refusal of a replace that found nothing, with the
// lines most similar to the pattern over all files, best first.
func noMatchError(pattern, where string, files []replaceFile) error {
	re := &replaceError{msg: fmt.Sprintf("no match for %s in %s; nothing was written", strconv.Quote(pattern), where)}
	for _, f := range files {
		if f.ch == nil {
			continue
		}
		// SimilarTo's content is already cut around the match on long lines.
		for _, n := range edit.SimilarTo(string(f.ch.doc.Text), f.ch.doc.EOL, pattern) {
			re.Similar = append(re.Similar, similarLine{f.ch.doc.Path, n.LineNumber, n.Content, n.SimilarityScore})
		}
	}
	slices.SortStableFunc(re.Similar, func(a, b similarLine) int { return cmp.Compare(b.Similarity, a.Similarity) })
	if len(re.Similar) > maxSimilarLines {
		re.Similar = re.Similar[:maxSimilarLines]
	}
	if len(re.Similar) > 0 {
		var b strings.Builder
		b.WriteString("\nsimilar lines:")
		for _, l := range re.Similar {
			fmt.Fprintf(&b, "\n  %s:%d: %s  (similarity %.2f)", l.Path, l.Line, l.Text, l.Similarity)
		}
		re.msg += b.String()
	}
	return re
}

// matchList renders the matches for a count error, file by file in order:
// at most edit.MaxMatchLocations of them, each with a window of its line,
// then how many more there are (issue 12, item 12).
func matchList(files []replaceFile, total int) string {
	var b strings.Builder
	listed := 0
	for _, f := range files {
		for _, m := range f.matches {
			if listed == edit.MaxMatchLocations {
				break
			}
			fmt.Fprintf(&b, "\n  %s:%d:%d: %s", f.Path, m.Line, m.Column, m.Display())
			listed++
		}
	}
	if listed == 0 {
		return ""
	}
	if listed < total {
		fmt.Fprintf(&b, "\n  ... and %d more", total-listed)
	}
	return ":" + b.String()
}

// replaceDone prints the result of a replace and returns err for the exit
// code: with --json one replaceResult object; else one line per file (see
// printReplaceFile; all on standard error for a dry run, whose standard
// output is the diff), the
// diff with --dry-run or --diff, and err for Main to print.
func (s *session) replaceDone(res *replaceResult, err error) error {
	res.OK = err == nil
	var diffs strings.Builder
	for i := range res.Files {
		f := &res.Files[i]
		if f.err != nil {
			f.Error = toJSONError(f.err)
		}
		if f.Written {
			res.Written++
		}
		diffs.WriteString(f.out.Diff)
	}
	if s.dry || s.diff {
		d := diffs.String()
		res.Diff = &d
	}
	e := s.e
	if s.json {
		if err != nil {
			res.Error = toJSONError(err)
		}
		if werr := e.writeJSON(res); werr != nil {
			return werr
		}
		if e.side == nil {
			if res.summary != nil {
				res.summary()
			}
			if err != nil {
				return errSilent{err}
			}
			return nil
		}
		e = e.sideEnv() // the readable text too, on the side channel
	}
	out := e.stdout
	if s.dry {
		out = e.stderr
	}
	for _, f := range res.Files {
		printReplaceFile(out, e.stderr, f)
	}
	if res.Diff != nil {
		fmt.Fprint(e.stdout, *res.Diff)
	}
	if res.summary != nil {
		res.summary()
	}
	if err != nil && s.json {
		printError(e.stderr, err)
		return errSilent{err}
	}
	return err
}

// printReplaceFile prints one file's line of a replace: what was replaced
// or why it was not written on out, why it was refused on stderr, and the
// guard's warnings on stderr.
func printReplaceFile(out, stderr io.Writer, f replaceFile) {
	switch f.Status {
	case replaceOK, replaceNoMatch:
		fmt.Fprintf(out, "%s: replaced %d of %d match(es)\n", f.Path, f.Replacements, f.Matches)
	case replaceHeld:
		why := "not written"
		if f.err != nil {
			why = f.err.Error()
		}
		fmt.Fprintf(out, "%s: %d match(es), %s\n", f.Path, f.Matches, why)
	case replaceRefused:
		msg := strings.TrimPrefix(f.err.Error(), f.Path+": ")
		fmt.Fprintf(stderr, "%s: refused: %s\n", f.Path, strings.TrimRight(msg, "\n"))
	}
	if f.Status == replaceOK && !f.out.Syntax.OK() {
		fmt.Fprintf(stderr, "warning: the edit adds %d syntax error(s):\n%s", len(f.out.Syntax.New), f.out.Syntax.Format(f.Path))
	}
}
