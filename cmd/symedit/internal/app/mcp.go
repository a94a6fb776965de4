package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/ops"
)

// The MCP server: every tool is typed (see
// addOp in mcpops.go): its input and output schemas are the ops request
// and result types', and a call runs the operation on the server's one
// ops.Workspace, in this process, concurrently with the other calls; the
// workspace's locks per file are the only state calls share.

func mcpCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "mcp",
		Usage: "serve every symedit operation as Model Context Protocol tools over standard input and output",
		Description: "Speaks MCP (newline-delimited JSON-RPC) on standard input and output until the client closes\n" +
			"standard input. Every path is confined to --root (default: the working directory); the server\n" +
			"runs in that folder, so relative paths, in arguments and in replies, are taken from it and\n" +
			"diffs name files relative to it. Register it with an MCP client as the command\n" +
			"  symedit mcp --root /path/to/repo",
		ArgsUsage: " ",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "root", EnvVars: []string{"SYMEDIT_ROOT"}, Usage: "confine every path to `DIR` and take relative paths from it (default: the working directory)"},
			&cli.DurationFlag{Name: "call-timeout", Value: 5 * time.Minute, Usage: "cancel a tool call's context after `DURATION`: it stops at its next parse or check and answers with an error"},
		},
		Action: func(c *cli.Context) error {
			if _, err := e.positional(c, 0, 0, "no arguments"); err != nil {
				return err
			}
			limit := c.Duration("call-timeout")
			if limit <= 0 {
				return &ops.UsageError{Msg: fmt.Sprintf("--call-timeout %v: want a positive duration such as 5m", limit)}
			}
			dir := c.String("root")
			if dir == "" {
				dir = "." // the working directory
			}
			// One workspace for every call, opened with the same check as
			// every command's --root; it is safe for concurrent use.
			w, err := ops.Open(ops.Options{Root: dir})
			if err != nil {
				return err
			}
			defer w.Close()
			// The root as the kernel resolves it (r/sub/.. with sub a link
			// is sub's real parent), never the text cleaned, which would
			// serve r instead.
			root := w.Root()
			// The server owns its process: it runs in the root, so that a
			// relative path means the same in a tool's arguments, in an
			// apply reply and in the diffs (which name files relative to
			// the working directory).
			if err := os.Chdir(root); err != nil {
				return err
			}
			t := &frameTransport{r: e.stdin, w: e.stdout, limit: maxFrame, drain: limit + 10*time.Second}
			ts := newToolServer(w, limit)
			err = newMCPServer(ts).Run(c.Context, t)
			if err == nil || errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
				return nil // the client closed the connection
			}
			return err
		},
	}
}

// toolServer holds what every call needs; it never changes after start.
// Paths are passed as sent: the server runs in the root, and the
// workspace (and --root) refuses any that lead out of it.
type toolServer struct {
	root  string         // absolute; the working directory
	w     *ops.Workspace // the root's workspace, for the typed tools
	limit time.Duration  // the most time one call may take
	// hook, when not nil (tests), is called inside every typed tool call
	// with the call's context, before the operation runs.
	hook func(ctx context.Context, tool string)
	// outputs holds each tool's full output schema, every nested field
	// described, by tool name: the tools list the top level alone
	// (listedSchema). Filled as the tools are registered, then only read.
	outputs map[string]*jsonschema.Schema
}

// newToolServer returns the server of w's tools, each call limited to
// limit.
func newToolServer(w *ops.Workspace, limit time.Duration) *toolServer {
	return &toolServer{root: w.Root(), w: w, limit: limit, outputs: map[string]*jsonschema.Schema{}}
}

// lineText is a string or an array of strings: a chunk's context.
type lineText any

// descChunks describes a chunk tool's chunks.
const descChunks = "The chunks, all checked against the symbol as it is now, then applied together. Each replaces old_lines, found between context_before and context_after, with new_lines. E.g. [{\"context_before\": \"        self._check_closed()\", \"old_lines\": [\"        assert self._popen is None\"], \"new_lines\": [\"        if self._popen is not None:\", \"            raise RuntimeError('started twice')\"], \"context_after\": \"        _cleanup()\"}]."

// inputTypes are the schemas of the input types whose JSON is not what
// their Go type says: lineText (a string or an array of strings) and
// ops.Chunks (a list of chunks as chunkSpec describes them; its
// UnmarshalJSON takes either form of context).
func inputTypes() map[reflect.Type]*jsonschema.Schema {
	m := map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[lineText](): {Types: []string{"string", "array"}, Items: &jsonschema.Schema{Type: "string"}},
	}
	chunks, err := jsonschema.For[[]chunkSpec](&jsonschema.ForOptions{TypeSchemas: m})
	if err != nil {
		panic(fmt.Sprintf("the schema of a chunk: %v", err))
	}
	notNull(chunks)
	chunks.Description = descChunks
	m[reflect.TypeFor[ops.Chunks]()] = chunks
	return m
}

// inputSchema is the input schema of T: the SDK's inference, with the
// types of inputTypes given the shape of their JSON.
func inputSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: inputTypes()})
	if err != nil {
		panic(fmt.Sprintf("input schema of %v: %v", reflect.TypeFor[T](), err))
	}
	notNull(s)
	return s
}

// notNull drops the "null" the inference allows for slices and pointers:
// an optional field is omitted, and a list is a list.
func notNull(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if i := slices.Index(s.Types, "null"); i >= 0 && len(s.Types) == 2 {
		s.Type, s.Types = s.Types[1-i], nil
	}
	notNull(s.Items)
	for _, p := range s.Properties {
		notNull(p)
	}
}

func boolPtr(b bool) *bool { return &b }

// readOnly and writes are the annotations of tools that only read and of
// tools that write files.
func readOnly(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: boolPtr(false)}
}

func writes(title string, idempotent bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, DestructiveHint: boolPtr(true), IdempotentHint: idempotent, OpenWorldHint: boolPtr(false)}
}

// Field descriptions shared by several tools.
const (
	descLocation = "The symbol. FILE::NAME_PATH names it: a full name path joined with '/' " +
		"(e.g. src/process.py::BaseProcess/start, pkg/server.go::Server/Serve) or a unique suffix of one " +
		"(src/process.py::start); a second same-named sibling is name[2]. FILE:LINE:COL or FILE:LINE names " +
		"the innermost symbol at that 1-based line and 1-based byte column (column 0 or one in the " +
		"indentation: the line's first non-blank column). FILE is relative to the server's root, or absolute inside it."
	descPath  = "The file, relative to the server's root (e.g. src/app.py), or absolute inside the root."
	descMatch = "The loosest match level allowed: exact (byte for byte), trailing (trailing white space " +
		"ignored), indent (also one constant indentation shift, e.g. a method sent flush-left or tabs for " +
		"spaces; new lines are shifted alike) or loose (also inner white space, typographic quotes and " +
		"dashes). Omitted: trailing for chunk, exact for edit and apply. A refusal names a level that would match."
	descDryRun = "true: write nothing; the result shows the unified diff and the syntax check. " +
		"Omitted or false: write the file when every check passes."
	descText = "indented as in the file; text sent entirely left of the symbol's indentation (e.g. a method " +
		"sent flush-left) is shifted to it, and the result says so."
	guidance = " Pick the cheapest edit: chunk for a few lines in a large symbol, replace_body for a small " +
		"symbol you rewrite, edit for exact text anywhere in a file, replace for the same change in many places, " +
		"apply for edits to several files."
	descGuard = " Nothing is written unless every check passes (an edit that adds syntax errors is refused); " +
		"a rejection sets isError, leaves the file unchanged and says why."
)

// Tool inputs. The jsonschema tags are the descriptions a model reads.

// chunkSpec is one chunk as the chunk tool's input schema describes it;
// ops.Chunks reads it (chunk.Parse).
type chunkSpec struct {
	ContextBefore lineText `json:"context_before,omitempty" jsonschema:"The line or lines just before old_lines, copied exactly from the symbol (indentation included): a string (several lines may be joined with \\n) or an array of strings. Omitted, an empty string or []: no constraint."`
	OldLines      []string `json:"old_lines" jsonschema:"The lines replaced, one string per line, copied exactly from the symbol (indentation included; trailing white space is ignored). []: insert new_lines between the context lines."`
	NewLines      []string `json:"new_lines" jsonschema:"The lines written in their place, one string per line, fully indented. []: delete old_lines."`
	ContextAfter  lineText `json:"context_after,omitempty" jsonschema:"The line or lines just after old_lines, in the same form as context_before. Omitted, an empty string or []: old_lines must end at the symbol's last line."`
}

// describe gives the fields that several tools share (location, path,
// dry_run, match, whose schema also gets the levels as an enum) and a
// tool's own text field their descriptions, unless the field's tag has
// one, and lang the language names as an enum.
func describe(s *jsonschema.Schema, text string) *jsonschema.Schema {
	shared := map[string]string{"location": descLocation, "path": descPath, "dry_run": descDryRun, "text": text, "match": descMatch}
	for name, p := range s.Properties {
		if p.Description == "" {
			p.Description = shared[name]
		}
		if name == "expect_sha256" || name == "expect_symbol_sha256" {
			// An empty string would turn the check off: the schema says
			// so to a model, and ops.SHA256 refuses it when decoded.
			p.Pattern = "^[0-9a-fA-F]{64}$"
		}
		if name == "match" {
			for _, l := range match.Levels {
				p.Enum = append(p.Enum, l.String())
			}
		}
		if name == "lang" {
			for _, n := range lang.Default().Names() {
				p.Enum = append(p.Enum, n)
			}
		}
	}
	return s
}

// newMCPServer makes the server and registers one tool per command, in
// the order of the groups below: reading, editing, symbol, journal.
func newMCPServer(ts *toolServer) *mcp.Server {
	// The same version as `symedit version` prints.
	srv := mcp.NewServer(&mcp.Implementation{Name: "symedit", Title: "symedit", Version: version()}, &mcp.ServerOptions{
		Instructions: "symedit edits source code by symbol (" + strings.Join(lang.Default().Names(), ", ") + ") precisely and " +
			"safely. Paths are relative to " + ts.root + " and never leave it. Find a symbol with symbols, read it with " +
			"show, then edit." + guidance + " A rejection (isError) leaves the file unchanged and shows the real lines: " +
			"correct the request from them and call again.",
		Capabilities: &mcp.ServerCapabilities{},
	})
	addReadingTools(srv, ts)
	addEditingTools(srv, ts)
	addSymbolTools(srv, ts)
	addJournalTools(srv, ts)
	return srv
}

// addReadingTools registers the tools that read and write nothing:
// symbols, check and show.
func addReadingTools(srv *mcp.Server, ts *toolServer) {
	addOp(srv, ts, &mcp.Tool{Name: "symbols", Annotations: readOnly("List symbols"),
		Description: "List the symbols (classes, functions, methods, types, ...) of source files: kind, name path and " +
			"position, as PATH:LINE:COL: KIND NAME_PATH (to LINE:COL) lines (text) and as {\"files\": [{\"path\", \"language\", \"symbols\"}]}. " +
			"Its PATH:LINE:COL and PATH::NAME_PATH are locations the editing tools take. A glob path is expanded inside the root to the " +
			"matching files in a supported language, which are listed together as several paths."},
		"", ts.w.Symbols, symbolsText)

	addOp(srv, ts, &mcp.Tool{Name: "check", Annotations: readOnly("Check syntax"),
		Description: "Report every syntax error in source files, as the syntax guard of the writing tools sees them " +
			"(tree-sitter ERROR and MISSING nodes, go/parser for Go, indentation for Python): file, 1-based line and " +
			"byte column, kind, message and the line's text. isError is set when any file has an error."},
		"", ts.w.Check, checkText)

	addOp(srv, ts, &mcp.Tool{Name: "show", Annotations: readOnly("Show a symbol"),
		Description: "Show one symbol's source lines (decorators and signature included) and its 1-based first_line " +
			"and last_line. Read a symbol before editing it: chunk context and old_lines are copied from these lines."},
		"", ts.w.Show, showText)
}

// addEditingTools registers the tools that edit text, lines or whole
// files: chunk, edit, lines, replace, write and apply.
func addEditingTools(srv *mcp.Server, ts *toolServer) {
	addOp(srv, ts, &mcp.Tool{Name: "chunk", Annotations: writes("Edit lines inside a symbol", false),
		Description: "Edit a few lines inside one symbol (function, method, class) with context-anchored chunks: send " +
			"only the lines that change plus a line or two of context around them, never line numbers and never the " +
			"whole body; the cheapest edit for a few lines in a large symbol. Every chunk is checked against the symbol " +
			"before anything is written; one that matches nowhere or in several places is rejected with the check " +
			"that failed, the real line there and the symbol's most similar lines: fix the chunk from them and call " +
			"again." + descGuard + " For a small symbol you rewrite, replace_body; for exact text elsewhere, edit."},
		"", ts.w.Chunk, func(e *env, res *ops.ChunkResult, err error) { writingText(e, &res.Result, err) })

	addOp(srv, ts, &mcp.Tool{Name: "edit", Annotations: writes("Replace exact text", false),
		Description: "Replace exact text in one file: each edit's old_text must occur exactly occurrences times " +
			"(default 1). Edits apply in order; all are checked before anything is written. Text not found is " +
			"rejected with the most similar places and what differs; another count lists every match. Use it for " +
			"exact text anywhere in a file (imports, constants, a line you know); inside a large symbol chunk is " +
			"cheaper." + descGuard},
		"", ts.w.Edit, func(e *env, res *ops.EditResult, err error) { writingText(e, &res.Result, err) })

	addOp(srv, ts, &mcp.Tool{Name: "lines", Annotations: writes("Edit lines by number", false),
		Description: "Replace, insert or delete whole lines by 1-based line number; every number refers to the file " +
			"as it is now, so read it first (show gives first_line). Use it when you know the numbers (a compiler " +
			"error, show's output); chunk and edit do not depend on numbers." + descGuard},
		"", ts.w.Lines, func(e *env, res *ops.LinesResult, err error) { writingText(e, &res.Result, err) })

	addOp(srv, ts, &mcp.Tool{Name: "replace", Annotations: writes("Search and replace", false),
		Description: "Search and replace in one or more files: literal text, or a Go RE2 regular expression with " +
			"regex. No match is rejected with similar lines; expect refuses unless the total number of matches is " +
			"exactly that. Every file is checked before any is written, and each file's result says replaced, refused " +
			"(with the reason) or not written. Use it for renames and the same mechanical " +
			"change in many places." + descGuard},
		"", ts.w.Replace, replaceText)

	addOp(srv, ts, &mcp.Tool{Name: "write", Annotations: writes("Write a whole file", true),
		Description: "Write a file's whole content, creating it (and its folders) if needed. For new files and " +
			"complete rewrites of small ones; to change existing code, chunk, replace_body and edit send far less." + descGuard},
		"", ts.w.Write, func(e *env, res *ops.WriteResult, err error) { writingText(e, &res.Result, err) })

	addOp(srv, ts, &mcp.Tool{Name: "apply", Annotations: writes("Apply edit blocks", false),
		Description: "Apply the edits of a reply (EDIT blocks with anchors, SEARCH/REPLACE blocks, unified diffs or " +
			"Codex apply_patch patches) across " +
			"several files as one transaction: the way to change several files in one call. Blocks for one file " +
			"apply in order; nothing is written unless every block applies (partial: each file whose blocks all " +
			"apply). A block that does not apply is reported with the nearest real lines; shell commands in the " +
			"reply are listed, never run." + descGuard},
		"", ts.w.Apply, applyText)
}

// addSymbolTools registers the tools that take a symbol and its new
// text, one table row each: replace_body, insert_before and
// insert_after.
func addSymbolTools(srv *mcp.Server, ts *toolServer) {
	for _, op := range []struct {
		tool, title, desc, text string
		idempotent              bool
		run                     func(context.Context, ops.SymbolTextRequest) (*ops.SymbolTextResult, error)
	}{
		{"replace_body", "Replace a symbol",
			"Replace a symbol's text (as show prints it) with text. Decorators, annotations, modifiers and " +
				"TypeScript overload signatures that text does not start with are kept, and the result says what " +
				"(replaced, kept). The cheapest edit for a small symbol you rewrite; for a few lines in a large one, chunk.",
			"The symbol's new text: signature and body, with its decorators or annotations to replace them too; " + descText, true, ts.w.ReplaceBody},
		{"insert_before", "Insert before a symbol",
			"Insert new code (a function, method, class, ...) on its own lines above a symbol and the comments and " +
				"decorators attached to it, keeping the language's blank lines between definitions.",
			"The code to insert, e.g. a whole new function; " + descText, false, ts.w.InsertBefore},
		{"insert_after", "Insert after a symbol",
			"Insert new code (a function, method, class, ...) on its own lines below a symbol, keeping the " +
				"language's blank lines between definitions.",
			"The code to insert, e.g. a whole new function; " + descText, false, ts.w.InsertAfter},
	} {
		addOp(srv, ts, &mcp.Tool{Name: op.tool, Annotations: writes(op.title, op.idempotent), Description: op.desc + descGuard},
			op.text, op.run, func(e *env, res *ops.SymbolTextResult, err error) { writingText(e, &res.Result, err) })
	}
}

// addJournalTools registers the tools of the operation journal: undo
// and journal.
func addJournalTools(srv *mcp.Server, ts *toolServer) {
	addOp(srv, ts, &mcp.Tool{Name: "undo", Annotations: writes("Undo an operation", false),
		Description: "Undo a writing tool's call as one transaction: every file it wrote, created, deleted or moved gets " +
			"its content before, all files or none. Pass the op_id of the result to undo (omitted: the last operation; " +
			"last: the last N, newest first). Refused (CHANGED), writing nothing, when a file changed since the " +
			"operation: files says which and how. The undo is recorded too: undoing it redoes. dry_run shows the diff."},
		"", ts.w.Undo, undoText)

	addOp(srv, ts, &mcp.Tool{Name: "journal", Annotations: readOnly("List recorded operations"),
		Description: "List the writing operations recorded for the root, oldest first: op_id (for undo), time, " +
			"operation, files, and whether each can still be undone (every file as the operation left it)."},
		"", ts.w.Journal, func(e *env, res *ops.JournalResult, err error) {
			if err != nil {
				e.printError(e.stderr, err)
				return
			}
			e.printJournal(res)
		})
}
