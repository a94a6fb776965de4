package app

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/symedit/symedit/ops"
	"github.com/symedit/symedit/remedy"
)

// A refusal's remedy (remedy.Remedy: which options of the request to set,
// and to what) is data; the packages below never name a flag or a tool
// field in a message. Each front end says it in its own words, after the
// error: the CLI as the flags to rerun with, an MCP tool as the fields of
// its input to call again with, or, for an option the tool does not have,
// what the MCP tools do instead. Nothing rewrites a message, so the file
// text a message quotes reaches the caller byte for byte.

// words is how a front end names the options of a remedy: the CLI's flags
// (the zero value), or the fields of one MCP tool's input.
type words struct {
	// tool is the MCP tool whose input the remedy names; "" for the CLI.
	tool string
	// fields are that tool's input properties.
	fields map[string]bool
}

// purpose says what a remedy whose first option is o does, as the start of
// a sentence: "to accept that match".
func purpose(o remedy.Option) string {
	switch o {
	case remedy.Match:
		return "to accept that match"
	case remedy.Partial:
		return "to write the files that pass"
	case remedy.Check:
		return "to write it anyway, with a warning"
	case remedy.Lang:
		return "to name the file's language"
	case remedy.Root:
		return "to edit files in another folder"
	case remedy.AllowHardlinks:
		return "to write it anyway, splitting this name from the file's other links"
	case remedy.AllowReadOnly:
		return "to replace it anyway"
	case remedy.AllowMetadataLoss:
		return "to write it anyway, losing what the new file cannot keep"
	case remedy.AllowElision:
		return "to write the placeholder anyway, deleting the code it stands for"
	}
	return "to proceed"
}

// placeholder is the word standing for a value the caller chooses.
func placeholder(o remedy.Option) string {
	if o == remedy.Root {
		return "DIR"
	}
	return "NAME"
}

// cliFlag returns s as the CLI's flag: "--match indent", "--partial",
// "--lang NAME".
func cliFlag(s remedy.Setting) string {
	f := "--" + strings.ReplaceAll(string(s.Option), "_", "-")
	switch s.Value {
	case "true":
		return f
	case "":
		return f + " " + placeholder(s.Option)
	}
	return f + " " + s.Value
}

// mcpField returns s as an MCP tool's input field: `"match": "indent"`,
// `"partial": true`, `"lang": "NAME"`.
func mcpField(s remedy.Setting) string {
	v := s.Value
	switch v {
	case "true":
		return fmt.Sprintf("%q: true", s.Option)
	case "":
		v = placeholder(s.Option)
	}
	return fmt.Sprintf("%q: %q", s.Option, v)
}

// without says what the MCP tools do instead of option o, which the tool
// does not have.
func without(o remedy.Option) string {
	switch o {
	case remedy.Check:
		return "the MCP tools write only content the syntax guard checked and accepts: correct the text and call again"
	case remedy.Root:
		return "the MCP tools edit only inside the server's root"
	case remedy.Lang:
		return "this tool reads each file's language from its extension"
	case remedy.AllowHardlinks, remedy.AllowReadOnly, remedy.AllowMetadataLoss:
		return "the MCP tools do not write such a file"
	}
	return fmt.Sprintf("the MCP tools have no %q option", o)
}

// text returns r in w's words, as a sentence without a final period, or
// "" for no remedy.
func (w words) text(r remedy.Remedy) string {
	if len(r) == 0 {
		return ""
	}
	var parts []string
	for _, s := range r {
		if w.tool == "" {
			parts = append(parts, cliFlag(s))
			continue
		}
		if !w.fields[string(s.Option)] {
			return without(s.Option)
		}
		parts = append(parts, mcpField(s))
	}
	if w.tool == "" {
		return purpose(r[0].Option) + ", rerun with " + strings.Join(parts, " ")
	}
	return purpose(r[0].Option) + ", call again with " + strings.Join(parts, ", ")
}

// printError prints err as Main does for a command run without --json:
// "symedit: " and the error, then its remedy in the front end's words; a
// usage error names the CLI's flag for its field and points to --help.
func (e *env) printError(w io.Writer, err error) {
	var ue *ops.UsageError
	if errors.As(err, &ue) && e.words.tool == "" {
		if ue.Field != "" {
			// The request's field is the flag of the same name here.
			fmt.Fprintf(w, "symedit: --%s: %s\n", strings.ReplaceAll(ue.Field, "_", "-"), ue.Msg)
		} else {
			fmt.Fprintf(w, "symedit: %v\n", err)
		}
		fmt.Fprintln(w, "run 'symedit --help' or 'symedit COMMAND --help' for usage")
		return
	}
	fmt.Fprintf(w, "symedit: %v\n", err)
	if r := e.words.text(ops.AsError(err).Remedy); r != "" {
		fmt.Fprintf(w, "symedit: %s\n", r)
	}
}
