package ops

import (
	"context"
	"fmt"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/lang"
)

// WriteRequest writes a file's whole content, creating the file and its
// folders when they do not exist (`symedit write`, the MCP write tool,
// batch op "write").
type WriteRequest struct {
	// Path is the file, relative to the workspace's Dir (or absolute).
	Path string `json:"path"`
	// Content is the whole new content, exactly as it should be on disk:
	// UTF-8 text without NUL bytes, at most edit.MaxFileSize bytes.
	Content string `json:"content" jsonschema:"The file's whole new content, exactly as it should be on disk."`
	WriteOptions
}

// WriteResult is the result of a WriteRequest.
type WriteResult struct {
	Result
	// Bytes is the new content's length in bytes.
	Bytes int `json:"bytes" jsonschema:"The new content's length in bytes."`
	// Created reports that the file did not exist: the write creates it
	// (or, in a dry run, would).
	Created bool `json:"created,omitempty" jsonschema:"True when the file did not exist: the write creates it (or, in a dry run, would); omitted otherwise."`
}

// Write replaces req.Path's content with req.Content, or creates the file
// and its missing folders: the content is checked (text, size), the
// syntax guard runs, and the file is committed atomically (unless
// req.DryRun; a dry run creates no file and no folder), under the file's
// lock. A file that does not exist is created even with empty content.
// The result is never nil. The error is nil or the result's *Error:
// INVALID_INPUT (binary, non-UTF-8 or too large content), USAGE, SYNTAX,
// NOT_CHECKED, CHANGED (the file changed, or was created meanwhile; or
// ExpectSHA256 differs), OUTSIDE_ROOT, ERROR (a symbolic link to nothing,
// a folder, ...), ...
func (w *Workspace) Write(ctx context.Context, req WriteRequest) (*WriteResult, error) {
	ctx = withOp(ctx, "write")
	res := &WriteResult{}
	return res, w.writeFile(ctx, req.Path, req.WriteOptions, &res.Result,
		func() error { return checkContent(req.Path, []byte(req.Content)) },
		func(resolved) (*edit.Document, error) {
			// A write may create the file (read by its path, not by its
			// resolution: it may be gone since); the expected hash is
			// checked here, as readResolved does for the other operations.
			doc, err := w.files.ReadOrNew(req.Path)
			if err == nil && req.ExpectSHA256 != "" {
				err = doc.CheckSHA256(string(req.ExpectSHA256))
			}
			return doc, err
		},
		func(doc *edit.Document) (*change, error) {
			return planWrite(doc, language(req.Path, req.Lang), []byte(req.Content), res)
		})
}

// planWrite makes the change that gives doc (the file as read, a new file
// from files.Files.ReadOrNew, or a batch's in-memory document) the content
// content, and fills res's own fields. lang is the guard's language, nil
// for none.
func planWrite(doc *edit.Document, lang *lang.Language, content []byte, res *WriteResult) (*change, error) {
	if err := checkContent(doc.Path, content); err != nil {
		return nil, err
	}
	what := fmt.Sprintf("wrote %d bytes", len(content))
	if doc.IsNew() {
		what = fmt.Sprintf("created with %d bytes", len(content))
	}
	res.Bytes, res.Created = len(content), doc.IsNew()
	// A write hands over a content, not the places it changes: its one
	// edit replaces the whole file (the guard and the diff narrow it).
	whole := []edit.Edit{{Start: 0, End: len(doc.Content), New: string(content)}}
	return &change{doc: doc, lang: lang, content: content, edits: whole, what: what}, nil
}

// checkContent refuses new content that symedit would not read back
// (edit.NewDocument: binary, not UTF-8) or that is over edit.MaxFileSize
// bytes, as an *InputError.
func checkContent(path string, content []byte) error {
	if len(content) > edit.MaxFileSize {
		return &InputError{fmt.Errorf("the new content is %d bytes, over the %d-byte limit", len(content), edit.MaxFileSize)}
	}
	if _, err := edit.NewDocument(path, content); err != nil {
		return &InputError{fmt.Errorf("the new content: %w", err)}
	}
	return nil
}
