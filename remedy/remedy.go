// Package remedy says, as data, what a refused request changes to proceed:
// which option of the request to set, and to what. The packages that refuse
// (chunk, reply, edit, lang, ops) attach a Remedy to their errors and
// word their messages without naming any front end's spelling of the
// option; each front end renders the Remedy in its own words: the CLI as a
// flag ("--match indent"), the MCP server as a field of the tool's input
// ("match": "indent"), or as what its tools do instead when they have no
// such field. So no front end rewrites a message after it is built, and the
// file text a message quotes reaches every caller byte for byte.
package remedy

// Option names a request option by its JSON field in package ops's
// requests (and the MCP tools' inputs): "match", "partial", ...
type Option string

// The options a refusal may name.
const (
	// Match is the match level (value: "trailing", "indent" or "loose").
	Match Option = "match"
	// Partial writes the files that pass of a replace or apply (value
	// "true").
	Partial Option = "partial"
	// Check is the syntax guard's mode (value "warn": write with a
	// warning).
	Check Option = "check"
	// Lang names the language of a file whose extension does not (value
	// "": the caller chooses the language's name).
	Lang Option = "lang"
	// Root is the folder edits are confined to (value "": the caller
	// chooses a folder holding the file).
	Root Option = "root"
	// AllowHardlinks edits a file with several hard links (value "true").
	AllowHardlinks Option = "allow_hardlinks"
	// AllowReadOnly replaces a file this user may not write (value
	// "true").
	AllowReadOnly Option = "allow_read_only"
	// AllowMetadataLoss writes a file whose owner, special mode bits or
	// extended attributes the new file cannot keep (value "true").
	AllowMetadataLoss Option = "allow_metadata_loss"
	// AllowElision writes an edit whose new side holds a placeholder
	// line ("// ... existing code ...") where its old side has code
	// (value "true").
	AllowElision Option = "allow_elision"
)

// Options returns every Option a refusal may name, in the order above.
func Options() []Option {
	return []Option{Match, Partial, Check, Lang, Root, AllowHardlinks, AllowReadOnly, AllowMetadataLoss, AllowElision}
}

// Setting is one option of a request and the value to give it: a match
// level's name, "true" for a boolean option, "warn" for check, or "" when
// the caller chooses the value (a language's name, a folder).
type Setting struct {
	Option Option `json:"option" jsonschema:"The request's option to set, by its field name: match, partial, check, lang, root, allow_hardlinks, allow_read_only, allow_metadata_loss or allow_elision."`
	Value  string `json:"value,omitempty" jsonschema:"The value to give it: a match level, true for a boolean option, warn for check; omitted when the caller chooses it (a language's name, a folder)."`
}

// Remedy is the change that lets a refused request proceed: every Setting
// applied together, in order. A nil Remedy is none.
type Remedy []Setting

// Set returns the Remedy of one setting.
func Set(o Option, value string) Remedy { return Remedy{{Option: o, Value: value}} }

// Carrier is an error that carries a Remedy (nil when it has none).
type Carrier interface {
	error
	Remedy() Remedy
}

// Of returns the remedy of the outermost error in err's tree (err, then
// what it wraps, depth first as errors.As walks it) that carries a
// non-nil one, or nil. The outermost wins because a wrapping error knows
// more: a replace that refused some files offers to write the ones that
// pass, whatever refused each of them.
func Of(err error) Remedy {
	for err != nil {
		if c, ok := err.(Carrier); ok {
			if r := c.Remedy(); r != nil {
				return r
			}
		}
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if r := Of(e); r != nil {
					return r
				}
			}
			return nil
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		default:
			return nil
		}
	}
	return nil
}
