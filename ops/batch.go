package ops

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/internal/jsontext"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/textedit"
)

// The operation names of a BatchOp: its "op" field, the MCP tools' names.
const (
	OpChunk        = "chunk"
	OpEdit         = "edit"
	OpLines        = "lines"
	OpReplace      = "replace"
	OpWrite        = "write"
	OpReplaceBody  = "replace_body"
	OpInsertBefore = "insert_before"
	OpInsertAfter  = "insert_after"
	// OpShow and OpSymbols read and write nothing: they give the symbol
	// or the symbols of the file as the batch's earlier operations left
	// it (BatchOpResult.Show, Outline).
	OpShow    = "show"
	OpSymbols = "symbols"
)

// batchOpNames lists the operation names for messages.
const batchOpNames = "chunk, edit, lines, replace, write, replace_body, insert_before, insert_after, show or symbols"

// batchCommandNames maps the CLI's names of operations (replace-body) to
// batch's, the MCP tools' (replace_body): a caller that knows one
// vocabulary is not refused in the other.
var batchCommandNames = map[string]string{
	"replace-body":  OpReplaceBody,
	"insert-before": OpInsertBefore,
	"insert-after":  OpInsertAfter,
}

// batchRequired are the fields an op's line must have because their
// absence would read as "".
var batchRequired = map[string][]string{
	OpWrite:        {"content"},
	OpReplace:      {"search", "replacement"},
	OpReplaceBody:  {"text"},
	OpInsertBefore: {"text"},
	OpInsertAfter:  {"text"},
}

// BatchOp is one operation of a BatchRequest: Op names it and the request
// of that operation is set, every other one nil: Chunk for OpChunk, Edit
// for OpEdit, Lines for OpLines, Replace for OpReplace, Write for OpWrite,
// SymbolText for OpReplaceBody, OpInsertBefore and OpInsertAfter.
//
// As JSON (one line of `symedit batch`) it is one object: "op" and the
// fields of that operation's request, the same names as the CLI's
// requests and the MCP tools' inputs, such as {"op": "chunk", "location":
// "a.py::C/m", "chunks": [...]}. UnmarshalJSON reads it strictly: an
// unknown field, a missing or unknown "op", or a malformed field value
// (chunks, edits) is an error, and so is a missing "content" (write),
// "search" or "replacement" (replace) or "text" (replace-body,
// insert-before, insert-after): read as "", it would empty a file or
// delete text. So batch and the other front ends can never drift apart.
type BatchOp struct {
	Op         string
	Chunk      *ChunkRequest
	Edit       *EditRequest
	Lines      *LinesRequest
	Replace    *BatchReplace
	Write      *WriteRequest
	SymbolText *SymbolTextRequest
	Show       *ShowRequest
	Symbols    *BatchSymbols
}

// BatchSymbols is a batch's "symbols" operation: the symbols of one file,
// Path, as the batch's earlier operations left it, filtered by Name and
// Kind as SymbolsRequest's.
type BatchSymbols struct {
	// Path is the file, relative to the workspace's Dir (or absolute).
	Path string `json:"path"`
	// Name and Kind keep only the matching symbols (SymbolsRequest's).
	Name string `json:"name,omitempty"`
	Kind string `json:"kind,omitempty"`
}

// BatchReplace is a replace in one file, a batch's "replace" operation:
// ReplaceRequest's search, replacement, regex, ignore_case, count and
// expect, with the file in Path. Every match of Search in the file (as
// the batch's earlier operations left it) is replaced in memory, the
// first Count of them with Count; no match at all is NO_MATCH_TEXT (with
// the most similar lines), and with Expect another number of matches than
// *Expect is COUNT. Paths, Partial, WalkOptions and OnFile are for
// several files: set on a batch operation they are a *UsageError.
type BatchReplace struct {
	// Path is the file, relative to the workspace's Dir (or absolute).
	Path string `json:"path"`
	ReplaceRequest
}

// UnmarshalJSON reads one operation strictly: {"op": NAME, ...the fields
// of NAME's request}. Errors: *InputError for text that would not decode
// as sent (invalid UTF-8, a \u escape of a lone surrogate: see package
// internal/jsontext), a missing or unknown op or a missing required field, json's errors for an unknown field or a value
// of the wrong type, and the requests' own parse errors
// (*chunk.InputError, *textedit.TextEditInputError, *edit.LineEditError) for
// malformed chunks or edits.
func (op *BatchOp) UnmarshalJSON(data []byte) error {
	var head map[string]json.RawMessage
	if err := jsontext.Check(data); err != nil {
		return &InputError{fmt.Errorf("bad JSON: %w", err)}
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return err
	}
	if err := json.Unmarshal(head["op"], &op.Op); head["op"] == nil || err != nil {
		return &InputError{fmt.Errorf(`no "op" string: want one of %s`, batchOpNames)}
	}
	sent := op.Op // what the caller wrote, for the messages
	if name, ok := batchCommandNames[op.Op]; ok {
		op.Op = name // the CLI's name for the same operation
	}
	*op = BatchOp{Op: op.Op}
	// A field whose absence would silently mean "" is required: a write
	// without "content" would empty the file, a replace without
	// "replacement" delete every match.
	for _, key := range batchRequired[op.Op] {
		if _, ok := head[key]; !ok {
			return &InputError{fmt.Errorf("op %q needs %q", sent, key)}
		}
	}
	var into any
	switch op.Op {
	case OpChunk:
		op.Chunk = &ChunkRequest{}
		into = &struct {
			Op string `json:"op"`
			*ChunkRequest
		}{ChunkRequest: op.Chunk}
	case OpEdit:
		op.Edit = &EditRequest{}
		into = &struct {
			Op string `json:"op"`
			*EditRequest
		}{EditRequest: op.Edit}
	case OpLines:
		op.Lines = &LinesRequest{}
		into = &struct {
			Op string `json:"op"`
			*LinesRequest
		}{LinesRequest: op.Lines}
	case OpReplace:
		op.Replace = &BatchReplace{}
		into = &struct {
			Op string `json:"op"`
			*BatchReplace
		}{BatchReplace: op.Replace}
	case OpWrite:
		op.Write = &WriteRequest{}
		into = &struct {
			Op string `json:"op"`
			*WriteRequest
		}{WriteRequest: op.Write}
	case OpReplaceBody, OpInsertBefore, OpInsertAfter:
		op.SymbolText = &SymbolTextRequest{}
		into = &struct {
			Op string `json:"op"`
			*SymbolTextRequest
		}{SymbolTextRequest: op.SymbolText}
	case OpShow:
		op.Show = &ShowRequest{}
		into = &struct {
			Op string `json:"op"`
			*ShowRequest
		}{ShowRequest: op.Show}
	case OpSymbols:
		op.Symbols = &BatchSymbols{}
		into = &struct {
			Op string `json:"op"`
			*BatchSymbols
		}{BatchSymbols: op.Symbols}
	default:
		return &InputError{fmt.Errorf("unknown op %q: want %s", op.Op, batchOpNames)}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(into)
}

// MarshalJSON writes the operation as UnmarshalJSON reads it: "op" and
// the fields of its request.
func (op BatchOp) MarshalJSON() ([]byte, error) {
	var req any
	switch {
	case op.Chunk != nil:
		req = op.Chunk
	case op.Edit != nil:
		req = op.Edit
	case op.Lines != nil:
		req = op.Lines
	case op.Replace != nil:
		req = op.Replace
	case op.Write != nil:
		req = op.Write
	case op.SymbolText != nil:
		req = op.SymbolText
	case op.Show != nil:
		req = op.Show
	case op.Symbols != nil:
		req = op.Symbols
	}
	fields := map[string]json.RawMessage{}
	if req != nil {
		b, err := json.Marshal(req)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &fields); err != nil {
			return nil, err
		}
	}
	name, err := json.Marshal(op.Op)
	if err != nil {
		return nil, err
	}
	fields["op"] = name
	if op.Replace != nil && len(op.Replace.Paths) == 0 {
		delete(fields, "paths") // ReplaceRequest's, for several files
	}
	return json.Marshal(fields)
}

// BatchRequest runs several operations in one call (`symedit batch`).
// Operations on one file apply in order, each on the result of the one
// before, in memory; the file is then checked by the syntax guard once
// and committed once. Different files run in parallel.
type BatchRequest struct {
	// Ops are the operations, in order. Two paths that name one file
	// (through a link, or "./a.go" and "a.go") are one file: their
	// operations apply in order on the same content.
	Ops []BatchOp `json:"ops"`
	// Atomic commits nothing unless every operation of every file
	// validates; the files are then committed as one transaction
	// (files.Files.Commit, AllOrNone: a failed commit puts back the files already
	// written). Without it, a file whose operations all validate is
	// written whatever happens to the others.
	Atomic bool `json:"atomic,omitempty"`
	// WriteOptions apply to every file: DryRun, Check, Diff and Lang
	// here, never on an operation (a *UsageError); ExpectSHA256 is checked
	// against every file. An operation's own ExpectSHA256 is checked
	// against its file as read, before any operation applies.
	WriteOptions
}

// The statuses of a BatchOpResult.
const (
	// BatchApplied: the operation applied; its file was written unless
	// this is a dry run.
	BatchApplied = "applied"
	// BatchFailed: the operation was refused or failed; Error says why.
	// Its file is not written.
	BatchFailed = "failed"
	// BatchSkipped: the operation applied or was not tried, but its file
	// was not written: an operation of the same file failed, or, with
	// Atomic, an operation of another file did.
	BatchSkipped = "skipped"
)

// BatchOpResult is the result of one operation of a batch: one output
// line of `symedit batch`.
type BatchOpResult struct {
	// Index is the operation's 1-based place in BatchRequest.Ops (the
	// input line).
	Index int `json:"index"`
	// Op is the operation's name.
	Op string `json:"op"`
	// Path is the operation's file, as the operation named it.
	Path string `json:"path,omitempty"`
	// Status is BatchApplied, BatchFailed or BatchSkipped.
	Status string `json:"status"`
	// Error is why a BatchFailed operation failed, or nil.
	Error *Error `json:"error,omitempty"`
	// Diff is the unified diff of all the file's operations, on the file's
	// last operation, for a dry run (a refused one too) and with
	// WriteOptions.Diff.
	Diff string `json:"diff,omitempty"`
	// Syntax is the syntax guard's report on the file after all its
	// operations, on the file's last operation, when the guard ran.
	Syntax *Syntax `json:"syntax,omitempty"`
	// SHA256Before, SHA256After and Lines are the file's receipt (see
	// Result), on the file's last operation, once all its operations
	// were computed.
	SHA256Before string `json:"sha256_before,omitempty" jsonschema:"The file's SHA-256 as it was read, on the file's last operation; omitted for a new file or when nothing was computed."`
	SHA256After  string `json:"sha256_after,omitempty" jsonschema:"The SHA-256 of the file's content after all its operations, on the file's last operation: the next call's expect_sha256; omitted when nothing was computed."`
	Lines        int    `json:"lines,omitempty" jsonschema:"How many lines the file has after all its operations, on the file's last operation; omitted when nothing was computed."`
	// Symbols is what all the file's operations did to its symbols (see
	// Result.Symbols), on the file's last operation.
	Symbols *SymbolChanges `json:"symbols,omitempty" jsonschema:"What all the file's operations did to its symbols: added, changed (with new ranges and the SHA-256 of their new text) and removed, on the file's last operation; omitted when the file is in no supported language, the syntax guard did not check it, or an operation failed."`
	// Show is a show operation's result: the symbol as the batch's
	// earlier operations on its file left it (its SHA256 that content's).
	Show *ShowResult `json:"show,omitempty"`
	// Outline is a symbols operation's result: the file's symbols as
	// the batch's earlier operations left it.
	Outline *SymbolsFile `json:"outline,omitempty"`
}

// BatchResult is the result of a BatchRequest. Its Result has no path and
// no diff (each operation's result has the file's): ok (no operation
// failed), changed (a file that passed changes), written (a file was
// written), dry_run, summary ("N operation(s) on K file(s): A applied, F
// failed, S skipped") and error: the first failed operation's *Error in
// input order, or, for a request refused before any file was read, USAGE
// or INVALID_INPUT naming the operation (Ops is then empty).
type BatchResult struct {
	Result
	// Ops are the operations' results, in input order. Never nil.
	Ops []BatchOpResult `json:"ops"`
}

// batchOpError is an operation refused before any file is read: its
// 1-based index, its name and why.
type batchOpError struct {
	index int
	op    string
	err   error
}

func (e *batchOpError) Error() string {
	if e.op == "" {
		return fmt.Sprintf("operation %d: %v", e.index, e.err)
	}
	return fmt.Sprintf("operation %d (%s): %v", e.index, e.op, e.err)
}

func (e *batchOpError) Unwrap() error { return e.err }

// batchFile is one file's work in a batch.
type batchFile struct {
	key  string // the lock key: one file, whatever its names
	path string // the path of its first operation
	ops  []int  // indexes into the request's ops, in order
	ch   *change
	out  outcome
	ok   bool
}

// Batch runs req: it checks every operation as a request (its name, its
// path or location, its match level, its line edits, its search) before
// any file is read; then, for each file on its own goroutine (up to the
// number of CPUs at once), it reads the file, applies its operations in
// order in memory with the operations' own plan functions (each sees the
// result of the one before), runs the syntax guard once on the result and
// commits it once, holding the file's lock from the read to the commit
// (with Atomic, the lock of every file, taken in one order, until the
// transaction is committed). A failed operation leaves its file
// unwritten: its other operations are skipped. The result is never nil
// and always has one result per operation, in input order, unless the
// request was refused as a whole. The error is nil or the result's
// *Error.
func (w *Workspace) Batch(ctx context.Context, req BatchRequest) (*BatchResult, error) {
	ctx = withOp(ctx, "batch")
	res := &BatchResult{Ops: []BatchOpResult{}}
	res.DryRun = req.DryRun
	paths, err := checkBatch(req)
	if err != nil {
		return res, res.Fail(err)
	}
	results, files := w.groupBatch(req, paths)
	if req.Atomic {
		all := make([]string, len(files))
		for i, f := range files {
			all[i] = f.path
		}
		unlock, err := w.lockAll(ctx, all)
		if err != nil {
			return res, res.Fail(err)
		}
		defer unlock()
	}
	w.runBatchFiles(ctx, req, files, results)
	if req.Atomic {
		w.commitBatch(ctx, req, files, results)
	}
	return w.batchResult(ctx, res, files, results)
}

// checkBatch checks req as a whole and then each operation as a request,
// before any file is read, and returns each operation's path; the first
// refusal is the request's.
func checkBatch(req BatchRequest) (paths []string, err error) {
	if err := req.WriteOptions.validate(); err != nil {
		return nil, err
	}
	if len(req.Ops) == 0 {
		return nil, &UsageError{Msg: "no operations"}
	}
	paths = make([]string, len(req.Ops))
	for i, op := range req.Ops {
		p, err := op.check()
		if err != nil {
			return nil, &batchOpError{index: i + 1, op: op.Op, err: err}
		}
		paths[i] = p
	}
	return paths, nil
}

// groupBatch returns each operation's result as it stands before any
// runs, and the files the operations edit, in the order of their first
// operation, each with its operations in input order: two names of one
// file (one lock key) are one file, so that its operations see each
// other's results and it is written once.
func (w *Workspace) groupBatch(req BatchRequest, paths []string) (results []BatchOpResult, files []*batchFile) {
	results = make([]BatchOpResult, len(req.Ops))
	byKey := map[string]*batchFile{}
	for i, op := range req.Ops {
		results[i] = BatchOpResult{Index: i + 1, Op: op.Op, Path: paths[i]}
		key := w.lockKey(paths[i])
		f := byKey[key]
		if f == nil {
			f = &batchFile{key: key, path: paths[i]}
			byKey[key], files = f, append(files, f)
		}
		f.ops = append(f.ops, i)
	}
	return results, files
}

// runBatchFiles applies each file's operations (batchFile), the files on
// up to the number of CPUs goroutines at once. Without Atomic, each file
// holds its own lock from its read to its commit, and is committed as
// soon as it passes (unless a dry run); with Atomic, the caller holds
// every lock and commits afterwards (commitBatch).
func (w *Workspace) runBatchFiles(ctx context.Context, req BatchRequest, files []*batchFile, results []BatchOpResult) {
	_ = forEachOrdered(len(files), runtime.NumCPU(), func(i int) struct{} {
		f := files[i]
		if !req.Atomic {
			unlock, err := w.locks.lock(ctx, f.key)
			if err != nil {
				batchFail(f, 0, err, results)
				return struct{}{}
			}
			defer unlock()
		}
		w.batchFile(ctx, f, req, results)
		if f.ok && !req.Atomic && !req.DryRun {
			if err := w.commit(ctx, f.ch, req.WriteOptions, &f.out); err != nil {
				f.ok = false
				batchFail(f, len(f.ops)-1, err, results)
			}
		}
		return struct{}{}
	}, func(int, struct{}) error { return nil })
}

// commitBatch ends an Atomic batch: when a file failed, the operations of
// the files that passed are skipped, since none is written; else (unless
// a dry run) the files that changed are written in one transaction, and
// when it fails, each of them fails with its last operation.
func (w *Workspace) commitBatch(ctx context.Context, req BatchRequest, files []*batchFile, results []BatchOpResult) {
	allOK := true
	for _, f := range files {
		allOK = allOK && f.ok
	}
	if !allOK {
		for _, f := range files {
			if f.ok {
				for _, i := range f.ops {
					results[i].Status = BatchSkipped
				}
			}
		}
	}
	if allOK && !req.DryRun {
		var chs []*change
		var changed []*batchFile
		for _, f := range files {
			if f.ch.changed() {
				chs, changed = append(chs, f.ch), append(changed, f)
			}
		}
		if err := w.commitAtomic(ctx, chs); err != nil {
			for _, f := range changed {
				f.ok = false
				batchFail(f, len(f.ops)-1, err, results)
			}
		} else {
			for _, f := range changed {
				f.out.written = true
			}
		}
	}
}

// batchResult completes res with results: records the files written
// for undo, counts the operations by status for the summary, and returns
// the first failed operation's error as the batch's.
func (w *Workspace) batchResult(ctx context.Context, res *BatchResult, files []*batchFile, results []BatchOpResult) (*BatchResult, error) {
	res.Ops = results
	var recs []written
	for _, f := range files {
		if f.out.written {
			recs = append(recs, written{doc: f.ch.doc, content: f.ch.content})
		}
	}
	w.record(ctx, recs, nil, &res.Result)
	applied, failed, skipped := 0, 0, 0
	for _, r := range results {
		switch r.Status {
		case BatchApplied:
			applied++
		case BatchFailed:
			failed++
		default:
			skipped++
		}
	}
	for _, f := range files {
		res.Written = res.Written || f.out.written
		res.Changed = res.Changed || f.ok && f.ch.changed()
	}
	res.Summary = fmt.Sprintf("%d operation(s) on %d file(s): %d applied, %d failed, %d skipped", len(results), len(files), applied, failed, skipped)
	for _, r := range results {
		if r.Error != nil {
			res.OK, res.Error = false, r.Error
			return res, r.Error
		}
	}
	res.OK = true
	return res, nil
}

// batchFail marks the file's k-th operation failed with err and its other
// operations skipped: the file is not written, so the operations before k
// do not take effect either.
func batchFail(f *batchFile, k int, err error, results []BatchOpResult) {
	for _, i := range f.ops {
		results[i].Status = BatchSkipped
	}
	r := &results[f.ops[k]]
	r.Status, r.Error = BatchFailed, AsError(err)
}

// readBatchFile reads f (a file its first operation writes may be new)
// and checks it against the request's ExpectSHA256, then each operation's,
// before any operation runs: every operation names the content it was
// written against, the file as read. It returns nil when f fails, marked
// failed at the operation whose check failed (the first for a read or the
// request's).
func (w *Workspace) readBatchFile(f *batchFile, req BatchRequest, results []BatchOpResult) *edit.Document {
	var doc *edit.Document
	var err error
	if req.Ops[f.ops[0]].Op == OpWrite {
		doc, err = w.files.ReadOrNew(f.path)
	} else {
		doc, err = w.files.Read(f.path)
	}
	if err != nil {
		batchFail(f, 0, err, results)
		return nil
	}
	if req.ExpectSHA256 != "" {
		if err := doc.CheckSHA256(string(req.ExpectSHA256)); err != nil {
			batchFail(f, 0, err, results)
			return nil
		}
	}
	for k, i := range f.ops {
		if sum := req.Ops[i].options().ExpectSHA256; sum != "" {
			if err := doc.CheckSHA256(string(sum)); err != nil {
				batchFail(f, k, err, results)
				return nil
			}
		}
	}
	return doc
}

// batchFile reads f, applies its operations in order and checks the
// result; f.ok reports that every operation applied and the guard passed
// (f.ch is then the change to commit).
func (w *Workspace) batchFile(ctx context.Context, f *batchFile, req BatchRequest, results []BatchOpResult) {
	if err := ctx.Err(); err != nil {
		batchFail(f, 0, err, results)
		return
	}
	doc := w.readBatchFile(f, req, results)
	if doc == nil {
		return
	}
	lang := language(f.path, req.Lang)
	cur, content := doc, doc.Content
	var edits []edit.Edit // the operations' edits so far, as edits of doc as read
	// first is the first operation's parse of doc as read, if it parsed
	// it: the guard's parse of the content before. This call owns it and
	// closes it once the check is done; the later operations' parses are
	// of intermediate contents, of no use to the guard, and closed at once.
	var first *parsed
	defer func() { first.close() }()
	for k, i := range f.ops {
		ch, p, err := req.Ops[i].plan(ctx, cur, lang, req.Lang, &results[i])
		if k == 0 {
			first = p
		} else {
			p.close()
		}
		if err == nil {
			// The operation's edits are of its input, the result of the
			// ones before: mapped through theirs, they are edits of the
			// file as read, which the guard and the diff take.
			content = ch.content
			edits, err = edit.Compose(len(doc.Content), edits, ch.edits)
		}
		if err == nil && k < len(f.ops)-1 {
			// The next operation works on this one's result.
			cur, err = edit.NewDocument(doc.Path, content)
		}
		if err != nil {
			batchFail(f, k, err, results)
			return
		}
		results[i].Status = BatchApplied
	}
	f.ch = &change{doc: doc, lang: lang, content: content, edits: edits, what: fmt.Sprintf("%d operation(s)", len(f.ops))}
	if first != nil {
		// The first operation located its symbol in doc as read: the
		// guard need not parse it again.
		f.ch.located = first
	}
	out, err := w.check(ctx, f.ch, req.WriteOptions)
	f.out = out
	last := &results[f.ops[len(f.ops)-1]]
	last.Diff, last.Syntax, last.Symbols = out.diff, syntaxOf(out.syntax), out.symbols
	last.SHA256Before, last.SHA256After, last.Lines = f.ch.receipt()
	if err != nil {
		batchFail(f, len(f.ops)-1, err, results)
		return
	}
	f.ok = true
}

// options returns the operation's request's write options.
func (op BatchOp) options() WriteOptions {
	switch {
	case op.Chunk != nil:
		return op.Chunk.WriteOptions
	case op.Edit != nil:
		return op.Edit.WriteOptions
	case op.Lines != nil:
		return op.Lines.WriteOptions
	case op.Replace != nil:
		return op.Replace.WriteOptions
	case op.Write != nil:
		return op.Write.WriteOptions
	case op.SymbolText != nil:
		return op.SymbolText.WriteOptions
	case op.Show != nil:
		// show writes nothing; its lang is the batch's, as a writing
		// operation's is, and refused on the operation the same way.
		return WriteOptions{Lang: op.Show.Lang}
	}
	return WriteOptions{}
}

// check checks op as a request, before any file is read, and returns its
// file's path. Errors: *UsageError (a missing or mismatched request, an
// unknown op, a location that does not parse, an empty path, a match
// level or search that does not exist, write options set on the
// operation), *InputError, *edit.LineEditError (malformed line edits).
func (op BatchOp) check() (string, error) {
	set := 0
	for _, p := range []bool{op.Chunk != nil, op.Edit != nil, op.Lines != nil, op.Replace != nil, op.Write != nil, op.SymbolText != nil, op.Show != nil, op.Symbols != nil} {
		if p {
			set++
		}
	}
	if set != 1 {
		return "", &UsageError{Msg: fmt.Sprintf("%d requests set: set exactly the one op %q names", set, op.Op)}
	}
	o := op.options()
	if o.DryRun || o.Diff || o.Check != "" || o.Lang != "" {
		return "", &UsageError{Msg: "dry_run, diff, check and lang are set for the whole batch, not on an operation"}
	}
	if err := o.validate(); err != nil {
		return "", err
	}
	mismatch := func(want bool) error {
		if !want {
			return &UsageError{Msg: fmt.Sprintf("op %q does not go with the request set", op.Op)}
		}
		return nil
	}
	switch op.Op {
	case OpChunk:
		if err := mismatch(op.Chunk != nil); err != nil {
			return "", err
		}
		if _, err := matchLevel(op.Chunk.Match, 0); err != nil {
			return "", err
		}
		return locationPath(op.Chunk.Location)
	case OpEdit:
		if err := mismatch(op.Edit != nil); err != nil {
			return "", err
		}
		if _, err := matchLevel(op.Edit.Match, 0); err != nil {
			return "", err
		}
		return op.Edit.Path, checkPath(op.Edit.Path)
	case OpLines:
		if err := mismatch(op.Lines != nil); err != nil {
			return "", err
		}
		if _, err := op.Lines.Edits.lineEdits(); err != nil {
			return "", err
		}
		return op.Lines.Path, checkPath(op.Lines.Path)
	case OpReplace:
		if err := mismatch(op.Replace != nil); err != nil {
			return "", err
		}
		if err := op.Replace.check(); err != nil {
			return "", err
		}
		return op.Replace.Path, checkPath(op.Replace.Path)
	case OpWrite:
		if err := mismatch(op.Write != nil); err != nil {
			return "", err
		}
		return op.Write.Path, checkPath(op.Write.Path)
	case OpReplaceBody, OpInsertBefore, OpInsertAfter:
		if err := mismatch(op.SymbolText != nil); err != nil {
			return "", err
		}
		return locationPath(op.SymbolText.Location)
	case OpShow:
		if err := mismatch(op.Show != nil); err != nil {
			return "", err
		}
		return locationPath(op.Show.Location)
	case OpSymbols:
		if err := mismatch(op.Symbols != nil); err != nil {
			return "", err
		}
		if _, err := op.Symbols.request().filter(); err != nil {
			return "", err
		}
		return op.Symbols.Path, checkPath(op.Symbols.Path)
	}
	return "", &UsageError{Msg: fmt.Sprintf("unknown op %q: want %s", op.Op, batchOpNames)}
}

// locationPath returns a location's file, or a *UsageError.
func locationPath(location string) (string, error) {
	loc, err := ParseLocation(location)
	if err != nil {
		return "", err
	}
	return loc.Path, nil
}

// check checks the replace as a request: one file, a search that
// compiles, an expected count that is not negative. The error is a
// *UsageError.
func (r *BatchReplace) check() error {
	switch {
	case len(r.Paths) > 0:
		return &UsageError{Msg: `a batch's replace names its one file in "path", not "paths"`}
	case r.Partial:
		return &UsageError{Msg: `"partial" is for a replace in several files; a batch's replace has one (see --atomic)`}
	case len(r.Exclude) > 0 || r.NoIgnore || r.Hidden || r.Jobs != 0 || r.OnFile != nil:
		return &UsageError{Msg: "walk options and OnFile are for a replace in several files; a batch's replace has one"}
	case r.Expect != nil && *r.Expect < 0:
		return &UsageError{Msg: fmt.Sprintf("expect %d: want 0 or more matches", *r.Expect)}
	}
	_, err := r.searcher()
	return err
}

// searcher compiles the replace's search; the error is a *UsageError.
func (r *BatchReplace) searcher() (*textedit.Searcher, error) {
	sr, err := textedit.Compile(textedit.Search{Pattern: r.Search, Replacement: r.Replacement, Regex: r.Regex, IgnoreCase: r.IgnoreCase, Count: r.Count})
	if err != nil {
		return nil, &UsageError{Msg: err.Error()}
	}
	return sr, nil
}

// plan applies op to doc (the file as read, or as the batch's earlier
// operations left it) with the operation's own plan function and returns
// its change (the new content and the byte edits of doc.Content that
// make it) and, for an operation that located a symbol, the parse
// of doc it located it in (nil for the others), which the caller owns and
// closes (parsed.close); on error nothing is kept. lang is the file's
// language, nil for none; langName is the request's Lang, for the error
// of a symbol operation on a file in no supported language.
func (op BatchOp) plan(ctx context.Context, doc *edit.Document, language *lang.Language, langName string, res *BatchOpResult) (*change, *parsed, error) {
	locate := func(location string) (*target, error) {
		if language == nil {
			return nil, noLanguage(doc.Path, langName)
		}
		return locateIn(ctx, doc, language, location)
	}
	var ch *change
	var err error
	var t *target
	switch op.Op {
	case OpChunk:
		if t, err = locate(op.Chunk.Location); err == nil {
			ch, err = planChunk(t, *op.Chunk, &ChunkResult{})
		}
	case OpEdit:
		ch, err = planEdit(ctx, doc, language, *op.Edit, &EditResult{})
	case OpLines:
		ch, err = planLines(doc, language, *op.Lines, &LinesResult{})
	case OpReplace:
		ch, err = planBatchReplace(ctx, doc, language, op.Replace)
	case OpWrite:
		ch, err = planWrite(doc, language, []byte(op.Write.Content), &WriteResult{})
	case OpReplaceBody, OpInsertBefore, OpInsertAfter:
		if t, err = locate(op.SymbolText.Location); err == nil {
			kind := map[string]symbolTextOp{OpReplaceBody: replaceBody, OpInsertBefore: insertBefore, OpInsertAfter: insertAfter}[op.Op]
			ch, err = planSymbolText(t, kind, op.SymbolText.Text, &SymbolTextResult{})
		}
	case OpShow:
		if t, err = locate(op.Show.Location); err == nil {
			path, _ := locationPath(op.Show.Location) // checked before any file was read
			res.Show = t.show(path, *op.Show)
			ch = unchanged(t.doc, t.lang)
		}
	case OpSymbols:
		ch, res.Outline, err = planOutline(ctx, doc, language, langName, op.Symbols)
	default:
		err = &UsageError{Msg: fmt.Sprintf("unknown op %q: want %s", op.Op, batchOpNames)}
	}
	if err != nil {
		if t != nil {
			t.close()
		}
		return nil, nil, err
	}
	if t != nil {
		return ch, t.parsed, nil
	}
	return ch, nil, nil
}

// planBatchReplace replaces r's matches in doc in memory with Replace's
// plan function. No match is NO_MATCH_TEXT (the most similar lines in its
// Nearest), another number than r.Expect is COUNT (*ReplaceError).
func planBatchReplace(ctx context.Context, doc *edit.Document, lang *lang.Language, r *BatchReplace) (*change, error) {
	sr, err := r.searcher()
	if err != nil {
		return nil, err
	}
	limit := 0
	if r.Expect != nil {
		limit = *r.Expect + 1 // one past is a refusal already: stop counting there
	}
	ch, _, matches, err := planReplace(ctx, doc, lang, sr, limit)
	if err != nil {
		return nil, cancelled(ctx)
	}
	switch {
	case limit > 0 && len(matches) >= limit:
		return nil, &ReplaceError{Count: true, Msg: fmt.Sprintf("expected %d match(es) of %s in %s, found more than %d",
			*r.Expect, strconv.Quote(r.Search), doc.Path, *r.Expect)}
	case r.Expect != nil && len(matches) != *r.Expect:
		return nil, &ReplaceError{Count: true, Msg: fmt.Sprintf("expected %d match(es) of %s in %s, found %d",
			*r.Expect, strconv.Quote(r.Search), doc.Path, len(matches))}
	case len(matches) == 0:
		return nil, noMatchError(ctx, r.Search, doc.Path, []*replaceFile{{ch: ch}})
	}
	return ch, nil
}

// request returns the symbols request whose filter b's Name and Kind are.
func (b *BatchSymbols) request() SymbolsRequest {
	return SymbolsRequest{Path: b.Path, Name: b.Name, Kind: b.Kind}
}

// unchanged returns the change that leaves doc as it is: what a batch's
// read-only operation contributes to its file.
func unchanged(doc *edit.Document, l *lang.Language) *change {
	return &change{doc: doc, lang: l, content: doc.Content}
}

// planOutline lists doc's symbols for a batch's symbols operation b: the
// file as the earlier operations left it, its SHA-256 and its symbols'
// (as a symbols run gives them), filtered by b's Name and Kind. Its
// change leaves doc as it is. A file in no supported language is
// UNSUPPORTED_LANGUAGE.
func planOutline(ctx context.Context, doc *edit.Document, l *lang.Language, langName string, b *BatchSymbols) (*change, *SymbolsFile, error) {
	if l == nil {
		return nil, nil, noLanguage(doc.Path, langName)
	}
	keep, err := b.request().filter()
	if err != nil {
		return nil, nil, err
	}
	p, err := parse(ctx, doc, l, false)
	if err != nil {
		return nil, nil, err
	}
	f := &SymbolsFile{Path: b.Path, Language: l.Name, Symbols: []ListedSymbol{}}
	f.list(p.entry(), keep)
	return unchanged(doc, l), f, nil
}

// noLanguage is the error of an operation that needs path's language
// where the batch found none: lang.Select's (UNSUPPORTED_LANGUAGE, or the
// unknown name langName).
func noLanguage(path, langName string) error {
	_, err := lang.Select(path, langName)
	if err == nil {
		err = errors.New("no language")
	}
	return err
}
