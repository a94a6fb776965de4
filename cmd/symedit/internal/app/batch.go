package app

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/chunk"
	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/grammars"
	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/symbols"
)

func batchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "batch",
		Usage: "run many operations in one process: JSON Lines in, JSON Lines out",
		Description: "OPS (a file, or - for standard input) holds one operation per line:\n" +
			"  {\"op\": \"chunk\", \"location\": \"a.py::C/m\", \"chunks\": [...]}\n" +
			"  {\"op\": \"edit\", \"path\": \"a.go\", \"edits\": [{\"old_text\": ..., \"new_text\": ...}]}\n" +
			"  {\"op\": \"lines\", \"path\": \"a.go\", \"edits\": [{\"start_line\": 1, \"end_line\": 2, \"new_content\": ...}]}\n" +
			"  {\"op\": \"replace\", \"path\": \"a.go\", \"search\": ..., \"replacement\": ..., \"regex\": false, \"ignore_case\": false, \"count\": 0}\n" +
			"  {\"op\": \"write\", \"path\": \"a.go\", \"content\": ...}\n" +
			"  {\"op\": \"replace-body\" | \"insert-before\" | \"insert-after\", \"location\": ..., \"text\": ...}\n" +
			"chunk and edit ops take \"match\": exact, trailing, indent or loose, as --match does.\n" +
			"Operations on one file apply in order, each on the result of the one before, and the file is\n" +
			"checked and committed once; different files run in parallel. One result line per operation,\n" +
			"in input order. --atomic commits nothing unless every operation of every file validates.",
		ArgsUsage: "OPS",
		Flags:     append(writeFlags(), &cli.BoolFlag{Name: "atomic", Usage: "commit nothing unless every operation validates"}),
		Action: e.withSession(1, 1, "OPS", func(s *session, args []string) error {
			return s.batch(args[0])
		}),
	}
}

// batchOp is one input line of `symedit batch`: the op name and the
// fields of the command it stands for.
type batchOp struct {
	Op          string          `json:"op"`
	Path        string          `json:"path"`
	Location    string          `json:"location"`
	Chunks      json.RawMessage `json:"chunks"`
	Edits       json.RawMessage `json:"edits"`
	Search      string          `json:"search"`
	Replacement string          `json:"replacement"`
	Regex       bool            `json:"regex"`
	IgnoreCase  bool            `json:"ignore_case"`
	Count       int             `json:"count"`
	Content     *string         `json:"content"`
	Text        *string         `json:"text"`
	Body        *string         `json:"body"`
	// Match is the loosest match level allowed (chunk and edit): ""
	// means the command's default, trailing for chunk, exact for edit.
	Match string `json:"match"`
}

// level returns the op's match level, or def when it sets none.
func (op batchOp) level(def match.Level) (match.Level, error) {
	if op.Match == "" {
		return def, nil
	}
	l, err := match.Parse(op.Match)
	if err != nil {
		return 0, &inputError{fmt.Errorf("match: %v", err)}
	}
	return l, nil
}

// batchResult is one output line of `symedit batch`.
type batchResult struct {
	Index  int        `json:"index"` // 1-based input line
	Op     string     `json:"op"`
	Path   string     `json:"path,omitempty"`
	Status string     `json:"status"` // applied, failed or skipped
	Error  *jsonError `json:"error,omitempty"`
	Diff   string     `json:"diff,omitempty"` // on the file's last op, with --dry-run or --diff
	Syntax any        `json:"syntax,omitempty"`

	err error
}

// batchFile is the work on one file: its operations in input order.
type batchFile struct {
	path string
	ops  []int // indexes into the ops
	doc  *edit.Document
	text []byte // the content after the ops applied so far
	lang *grammars.Language
	ch   *change
	out  outcome
	ok   bool
}

func (s *session) batch(src string) error {
	raw, err := s.e.readInput(src)
	if err != nil {
		return fmt.Errorf("reading operations: %w", err)
	}
	var ops []batchOp
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 1<<20), edit.MaxFileSize)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			return &inputError{fmt.Errorf("operation line %d is empty", n)}
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		var op batchOp
		if err := dec.Decode(&op); err != nil {
			return &inputError{fmt.Errorf("operation line %d: %v", n, err)}
		}
		if op.Path == "" && op.Location != "" {
			loc, err := symbols.ParseLocation(op.Location)
			if err != nil {
				return &inputError{fmt.Errorf("operation line %d: %v", n, err)}
			}
			op.Path = loc.Path
		}
		if op.Path == "" {
			return &inputError{fmt.Errorf("operation line %d: %q needs \"path\" or \"location\"", n, op.Op)}
		}
		ops = append(ops, op)
	}
	if err := sc.Err(); err != nil {
		return &inputError{fmt.Errorf("reading operations: %v", err)}
	}
	if len(ops) == 0 {
		return &inputError{errors.New("no operations")}
	}
	results := make([]batchResult, len(ops))
	var files []*batchFile
	byPath := map[string]*batchFile{}
	for i, op := range ops {
		results[i] = batchResult{Index: i + 1, Op: op.Op, Path: op.Path}
		f := byPath[op.Path]
		if f == nil {
			f = &batchFile{path: op.Path}
			byPath[op.Path], files = f, append(files, f)
		}
		f.ops = append(f.ops, i)
	}
	// Each file on its own goroutine (a bounded number at once): its ops
	// in order, then the syntax guard and the diff.
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.NumCPU())
	for _, f := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			s.batchFile(f, ops, results)
		}()
	}
	wg.Wait()
	allOK := true
	for _, f := range files {
		allOK = allOK && f.ok
	}
	var commitErr error
	if !s.dry && (allOK || !s.c.Bool("atomic")) {
		commitErr = s.batchCommit(files, results)
	} else if !allOK {
		for _, f := range files {
			if f.ok {
				for _, i := range f.ops {
					results[i].Status = statusSkipped
				}
			}
		}
	}
	var first error
	for _, r := range results {
		if err := s.e.writeJSON(r); err != nil {
			return err
		}
		if first == nil && r.err != nil {
			first = r.err
		}
	}
	if first == nil {
		first = commitErr
	}
	if first != nil {
		return errSilent{first}
	}
	return nil
}

// batchFile applies a file's operations in order; the first failure marks
// the rest skipped.
func (s *session) batchFile(f *batchFile, ops []batchOp, results []batchResult) {
	// fail marks op k failed and the file's other ops skipped: the file is
	// not written, so the ops before k do not take effect either.
	fail := func(k int, err error) {
		for _, i := range f.ops {
			results[i].Status = statusSkipped
		}
		results[f.ops[k]].Status, results[f.ops[k]].Error, results[f.ops[k]].err = statusFailed, toJSONError(err), err
	}
	first := ops[f.ops[0]]
	var err error
	if first.Op == "write" {
		f.doc, err = s.files.ReadOrNew(f.path)
	} else {
		f.doc, err = s.read(f.path)
	}
	if err == nil && s.expect != "" {
		err = f.doc.CheckSHA256(s.expect)
	}
	if err != nil {
		fail(0, err)
		return
	}
	f.lang = s.language(f.path)
	f.text = f.doc.Content
	for k, i := range f.ops {
		next, err := s.batchApply(f, ops[i])
		if err != nil {
			fail(k, err)
			return
		}
		f.text = next
		results[i].Status = statusApplied
	}
	f.ch = &change{doc: f.doc, lang: f.lang, content: f.text, what: fmt.Sprintf("%d operation(s)", len(f.ops))}
	out, err := s.check(f.ch)
	f.out = out
	last := &results[f.ops[len(f.ops)-1]]
	last.Diff = out.Diff
	if out.Syntax.Checked || out.Syntax.Skipped != "" {
		last.Syntax = syntaxJSON(out.Syntax)
	}
	if err != nil {
		fail(len(f.ops)-1, err)
		return
	}
	f.ok = true
}

// batchApply runs one operation on the file's current content.
func (s *session) batchApply(f *batchFile, op batchOp) ([]byte, error) {
	doc, err := edit.NewDocument(f.path, f.text)
	if err != nil {
		return nil, err
	}
	switch op.Op {
	case "write":
		if op.Content == nil {
			return nil, &inputError{errors.New(`write needs "content"`)}
		}
		return []byte(*op.Content), nil
	case "edit":
		edits, err := edit.ParseTextEdits(op.Edits)
		if err != nil {
			return nil, err
		}
		level, err := op.level(match.Exact)
		if err != nil {
			return nil, err
		}
		res, err := edit.ApplyTextEditsLevel(string(doc.Text), doc.EOL, edits, level)
		if err != nil {
			return nil, err
		}
		return append(append([]byte{}, doc.Content[:len(doc.Content)-len(doc.Text)]...), res.Text...), nil
	case "lines":
		les, err := edit.ParseLineEdits(op.Edits)
		if err != nil {
			return nil, err
		}
		eds, err := doc.ApplyLineEdits(les)
		if err != nil {
			return nil, err
		}
		return edit.Apply(doc.Content, eds)
	case "replace":
		sr, err := edit.Compile(edit.Search{Pattern: op.Search, Replacement: op.Replacement, Regex: op.Regex, IgnoreCase: op.IgnoreCase, Count: op.Count})
		if err != nil {
			return nil, &inputError{err}
		}
		text, n, _ := sr.Replace(string(doc.Text))
		if n == 0 {
			return nil, &replaceError{msg: fmt.Sprintf("no match for %q in %s", op.Search, f.path)}
		}
		return append(append([]byte{}, doc.Content[:len(doc.Content)-len(doc.Text)]...), text...), nil
	case "chunk", "replace-body", "insert-before", "insert-after":
		if f.lang == nil {
			_, err := grammars.Select(f.path, s.c.String("lang"))
			return nil, err
		}
		t, err := locateIn(doc, f.lang, op.Location)
		if err != nil {
			return nil, err
		}
		var ed edit.Edit
		if op.Op == "chunk" {
			chunks, err := chunk.Parse(op.Chunks)
			if err != nil {
				return nil, err
			}
			level, err := op.level(match.Trailing)
			if err != nil {
				return nil, err
			}
			res, err := chunk.ApplyLevel(chunk.Target{Lines: doc.Lines(t.first, t.last), FirstLine: t.first}, chunks, level)
			if err != nil {
				return nil, err
			}
			if ed, err = doc.ReplaceLines(t.first, t.last, res.Lines); err != nil {
				return nil, err
			}
		} else {
			text := op.Text
			if text == nil {
				text = op.Body
			}
			if text == nil {
				return nil, &inputError{fmt.Errorf("%s needs \"text\"", op.Op)}
			}
			for _, so := range symbolOps {
				if so.name == op.Op {
					if ed, _, err = so.apply(doc, t.lines(), *text); err != nil {
						return nil, &inputError{err}
					}
				}
			}
		}
		return edit.Apply(doc.Content, []edit.Edit{ed})
	}
	return nil, &inputError{fmt.Errorf("unknown op %q: want chunk, edit, lines, replace, write, replace-body, insert-before or insert-after", op.Op)}
}

// batchCommit writes the files whose operations all applied: every one as
// one transaction with --atomic, else each on its own.
func (s *session) batchCommit(files []*batchFile, results []batchResult) error {
	var ok []*batchFile
	for _, f := range files {
		if f.ok && !bytes.Equal(f.ch.content, f.doc.Content) {
			ok = append(ok, f)
		}
	}
	markFailed := func(f *batchFile, err error) {
		last := &results[f.ops[len(f.ops)-1]]
		last.Status, last.Error, last.err = statusFailed, toJSONError(err), err
		for _, i := range f.ops[:len(f.ops)-1] {
			results[i].Status = statusSkipped
		}
	}
	if s.c.Bool("atomic") {
		var docs []*edit.Document
		var contents [][]byte
		for _, f := range ok {
			docs, contents = append(docs, f.doc), append(contents, f.ch.content)
		}
		if err := s.files.CommitAll(docs, contents); err != nil {
			for _, f := range ok {
				markFailed(f, err)
			}
			return err
		}
		return nil
	}
	var errs []error
	for _, f := range ok {
		if err := s.files.Commit(f.doc, f.ch.content); err != nil {
			markFailed(f, err)
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
