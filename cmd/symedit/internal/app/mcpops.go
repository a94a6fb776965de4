package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v2"

	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/ops"
)

// The typed tools: a tool whose operation is
// in package ops is registered with the SDK's typed handler, the ops
// request type as its input and the ops result type as its output, so
// that both schemas come from the Go types and every such tool declares
// an outputSchema. A call runs the operation on the server's one
// ops.Workspace, in this process and concurrently with the other calls
// (the SDK runs every tools/call in its own goroutine; the workspace locks
// per file). Its result is isError (the operation's error is not nil),
// the text the CLI prints for the same request as text content, and the
// typed result as structured content.

// errCallLimit is the cause of a call's context when the server's time
// limit for one call (--call-timeout) stopped it.
var errCallLimit = errors.New("the server's time limit for one call")

// stoppedError is a call the client cancelled, or the server's time limit
// stopped, before its operation ran (code ERROR).
type stoppedError struct{ why string }

func (e *stoppedError) Error() string { return "the call was " + e.why + "; nothing was run" }

// stopReason says why ctx, a call's context derived from parent (the
// SDK's, which the client's notifications/cancelled cancels) with the time
// limit, is done: "cancelled by the client" or "stopped at the server's
// time limit for one call (5m0s)"; "" while it is not done.
func (ts *toolServer) stopReason(parent, ctx context.Context) string {
	switch {
	case ctx.Err() == nil:
		return ""
	case parent.Err() != nil:
		return "cancelled by the client"
	case errors.Is(context.Cause(ctx), errCallLimit):
		return fmt.Sprintf("stopped at the server's time limit for one call (%v)", ts.limit)
	}
	return "stopped: " + context.Cause(ctx).Error()
}

// failResult records err in res, a result of an ops operation (a
// pointer to a struct with a Fail method, or with OK and Error fields,
// as every result has), and returns it as an *ops.Error.
func failResult(res any, err error) error {
	if f, ok := res.(interface{ Fail(error) error }); ok {
		return f.Fail(err)
	}
	e := ops.AsError(err)
	v := reflect.ValueOf(res).Elem()
	v.FieldByName("OK").SetBool(false)
	v.FieldByName("Error").Set(reflect.ValueOf(e))
	return e
}

// isResult reports whether t is a pointer to an ops result type that
// failResult takes.
func isResult(t reflect.Type) bool {
	if t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return false
	}
	if t.Implements(reflect.TypeFor[interface{ Fail(error) error }]()) {
		return true
	}
	ok, hasOK := t.Elem().FieldByName("OK")
	e, hasErr := t.Elem().FieldByName("Error")
	return hasOK && hasErr && ok.Type.Kind() == reflect.Bool && e.Type == reflect.TypeFor[*ops.Error]()
}

// addOp registers the tool t for an ops operation: input Req (its schema
// inputSchema's, with the shared descriptions; text describes a "text"
// field), output Res, a pointer to the operation's result type (its schema
// outputSchema's; see isResult). op runs the operation; render prints on
// e's streams the text the CLI prints for its result and error (see
// writingText), a refusal's remedy in the tool's words.
func addOp[Req any, Res any](srv *mcp.Server, ts *toolServer, t *mcp.Tool, text string,
	op func(context.Context, Req) (Res, error), render func(e *env, res Res, err error)) {
	if !isResult(reflect.TypeFor[Res]()) {
		panic(fmt.Sprintf("tool %s: %v is not a pointer to an ops result", t.Name, reflect.TypeFor[Res]()))
	}
	in := describe(inputSchema[Req](), text)
	full := outputSchema[Res]()
	t.InputSchema, t.OutputSchema, ts.outputs[t.Name] = in, listedSchema(full), full
	w := words{tool: t.Name, fields: map[string]bool{}}
	for name := range in.Properties {
		w.fields[name] = true
	}
	mcp.AddTool(srv, t, func(parent context.Context, _ *mcp.CallToolRequest, req Req) (*mcp.CallToolResult, Res, error) {
		ctx, cancel := context.WithTimeoutCause(parent, ts.limit, errCallLimit)
		defer cancel()
		if ts.hook != nil {
			ts.hook(ctx, t.Name)
		}
		var res Res
		var err error
		var b strings.Builder
		e := &env{stdout: &b, stderr: &b, words: w}
		if why := ts.stopReason(parent, ctx); why != "" {
			// Stopped before it ran: the operation is not started.
			res = reflect.New(reflect.TypeFor[Res]().Elem()).Interface().(Res)
			err = failResult(res, &stoppedError{why: why})
			e.printError(&b, err)
		} else {
			res, err = op(ctx, req)
			render(e, res, err)
			if why := ts.stopReason(parent, ctx); why != "" && err != nil {
				fmt.Fprintf(&b, "symedit: the call was %s; a file it was writing is either as it was or completely written\n", why)
			}
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}, IsError: err != nil}, res, nil
	})
}

// noFlags is a command context with no flag set: the CLI's printers,
// given it, print what the command prints without flags (no --json, no
// --diff).
func noFlags() *cli.Context {
	return cli.NewContext(nil, flag.NewFlagSet("mcp", flag.ContinueOnError), nil)
}

// writingText prints what the CLI prints, on both streams in order, for a
// writing operation's result res and error err without flags: the summary
// line, a dry run's diff and the syntax report, or, for a refusal, a dry
// run's diff, the error and its remedy. Unlike the CLI's, a usage error is
// not followed by the pointer to --help: a tool has no flags.
func writingText(e *env, res *ops.Result, err error) {
	if perr := e.printText(noFlags(), res, err); perr != nil {
		e.printError(e.stderr, perr)
	}
}

// resultTypes are the schemas of the result types whose JSON is not what
// their Go type says (a custom MarshalText or MarshalJSON).
func resultTypes() map[reflect.Type]*jsonschema.Schema {
	var levels []any
	for _, l := range match.Levels {
		levels = append(levels, l.String())
	}
	integer := func(d string) *jsonschema.Schema { return &jsonschema.Schema{Type: "integer", Description: d} }
	return map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[match.Level](): {Type: "string", Enum: levels, Description: "A match level."},
		reflect.TypeFor[match.Shift](): {Type: "object", Description: "An indentation shift from the sent lines to the file's.",
			Properties: map[string]*jsonschema.Schema{
				"columns":     integer("The shift in columns (negative: to the left)."),
				"tab_width":   integer("The columns a tab counts for."),
				"tabs":        {Type: "boolean", Description: "The file indents with tabs."},
				"needle_tabs": {Type: "boolean", Description: "The sent lines indent with tabs."},
				"text":        {Type: "string", Description: "The shift in words: \"+4 spaces\"."},
			}},
	}
}

// outputSchema is the output schema of T (a result type, or a pointer to
// one): the SDK's inference, with the types of resultTypes given the
// shape of their JSON. The SDK validates every result against it. Every
// property's description is its field's jsonschema tag, in the packages
// that declare the types (TestMCPOutputSchemaDescriptions checks that
// none is missing).
func outputSchema[T any]() *jsonschema.Schema {
	rt := reflect.TypeFor[T]()
	if rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	s, err := jsonschema.ForType(rt, &jsonschema.ForOptions{TypeSchemas: resultTypes()})
	if err != nil {
		panic(fmt.Sprintf("output schema of %v: %v", rt, err))
	}
	return s
}

// listedSchema is the output schema a tool lists: full's top level, each
// property with its type alone. A client hands every tool's schemas to
// the model in every session, and the full output schemas, every nested
// field described, weighed about 300 KB, ten times the input schemas and
// descriptions together; the top level keeps the result's shape (which
// fields, of which types, the SDK still checks every result against it)
// at a few hundred bytes a tool. What the fields mean is said once, in
// the server's instructions and the tools' descriptions; the full schemas
// stay the types' documentation (TestMCPOutputSchemaDescriptions).
func listedSchema(full *jsonschema.Schema) *jsonschema.Schema {
	out := &jsonschema.Schema{Type: full.Type, Types: full.Types, Required: full.Required,
		Properties: make(map[string]*jsonschema.Schema, len(full.Properties)), PropertyOrder: full.PropertyOrder}
	for name, p := range full.Properties {
		out.Properties[name] = &jsonschema.Schema{Type: p.Type, Types: p.Types}
	}
	return out
}

// showText prints what `symedit show` prints: the symbol's lines
// (numbered when the request asked), or the error.
func showText(e *env, res *ops.ShowResult, err error) {
	if err != nil {
		e.printError(e.stderr, err)
		return
	}
	fmt.Fprint(e.stdout, res.Listing())
}

// undoText prints what `symedit undo` prints: a line per file, the diff
// of a dry run, or for a refusal each changed file and the error.
func undoText(e *env, res *ops.UndoResult, err error) {
	if perr := e.printUndo(res, err); perr != nil {
		e.printError(e.stderr, perr)
	}
}

// checkText prints what `symedit check` prints, on both streams in order:
// each file's read failure or syntax errors and the guard's note for a
// file it did not check, then the summary; or the error when the paths
// could not be expanded.
func checkText(e *env, res *ops.CheckResult, err error) {
	for _, f := range res.Files {
		if f.Error != nil {
			e.printError(e.stderr, f.Error)
			continue
		}
		rep := f.Report()
		for _, p := range rep.New {
			fmt.Fprint(e.stdout, problemLine(f.Path, p))
		}
		if !rep.Checked {
			fmt.Fprint(e.stdout, "note: "+rep.Format(f.Path))
		}
	}
	if res.Summary == "" {
		if err != nil {
			e.printError(e.stderr, err)
		}
		return
	}
	fmt.Fprintf(e.stderr, "symedit: %s\n", res.Summary)
}

// symbolsText prints what `symedit symbols` prints, on both streams in
// order: each file's symbol lines or read failure, then, after a walk, the
// summary; or the error when the paths could not be expanded.
func symbolsText(e *env, res *ops.SymbolsResult, err error) {
	for i := range res.Files {
		f := &res.Files[i]
		if f.Error != nil {
			e.printError(e.stderr, f.Error)
			continue
		}
		if perr := printOutline(e, f); perr != nil {
			e.printError(e.stderr, perr)
		}
	}
	switch {
	case res.Summary == "":
		if err != nil {
			e.printError(e.stderr, err)
		}
	case res.Walked:
		fmt.Fprintf(e.stderr, "symedit: %s\n", res.Summary)
	}
}

// applyText prints what `symedit apply` prints, on both streams in order:
// a line per block, the malformed blocks, the shell suggestions, a line
// per file, a dry run's diffs and the syntax warnings, then the error.
func applyText(e *env, res *ops.ApplyResult, err error) {
	e.applyText(noFlags(), res)
	if err != nil {
		e.printError(e.stderr, err)
	}
}

// replaceText prints what `symedit replace` prints, on both streams in
// order: a line per file, a dry run's diffs, after a walk the summary,
// then the error.
func replaceText(e *env, res *ops.ReplaceResult, err error) {
	if perr := e.printReplace(noFlags(), res, err); perr != nil {
		e.printError(e.stderr, perr)
	}
}
