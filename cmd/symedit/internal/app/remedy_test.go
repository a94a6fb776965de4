package app

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/symedit/symedit/remedy"
)

// sampleValue is a value of o as a refusal gives it.
func sampleValue(o remedy.Option) string {
	switch o {
	case remedy.Match:
		return "indent"
	case remedy.Check:
		return "warn"
	case remedy.Lang, remedy.Root:
		return ""
	}
	return "true"
}

// TestRemedyWordsCLI: every option a refusal may name is rendered as a
// flag that some command defines, with its value, after what it does.
func TestRemedyWordsCLI(t *testing.T) {
	flags := map[string]bool{}
	for _, c := range commands(&env{}) {
		for _, f := range c.Flags {
			for _, n := range f.Names() {
				flags["--"+n] = true
			}
		}
	}
	for _, o := range remedy.Options() {
		s := remedy.Setting{Option: o, Value: sampleValue(o)}
		got := words{}.text(remedy.Remedy{s})
		name, value, _ := strings.Cut(cliFlag(s), " ")
		if !flags[name] {
			t.Errorf("%s: flag %s is no command's", o, name)
		}
		if want := purpose(o) + ", rerun with " + cliFlag(s); got != want {
			t.Errorf("%s: %q, want %q", o, got, want)
		}
		if s.Value == "true" && value != "" || s.Value != "true" && value == "" {
			t.Errorf("%s: flag %q for value %q", o, cliFlag(s), s.Value)
		}
	}
	two := remedy.Remedy{{Option: remedy.AllowReadOnly, Value: "true"}, {Option: remedy.AllowMetadataLoss, Value: "true"}}
	if got, want := (words{}).text(two), "to replace it anyway, rerun with --allow-read-only --allow-metadata-loss"; got != want {
		t.Errorf("two settings: %q, want %q", got, want)
	}
	if got := (words{}).text(nil); got != "" {
		t.Errorf("no remedy: %q", got)
	}
}

// TestRemedyWordsMCP: a tool with the option's field names the field and
// its value as JSON; a tool without it says what the MCP tools do
// instead, never a CLI flag.
func TestRemedyWordsMCP(t *testing.T) {
	for _, o := range remedy.Options() {
		s := remedy.Setting{Option: o, Value: sampleValue(o)}
		with := words{tool: "t", fields: map[string]bool{string(o): true}}.text(remedy.Remedy{s})
		if want := purpose(o) + ", call again with " + mcpField(s); with != want {
			t.Errorf("%s with the field: %q, want %q", o, with, want)
		}
		lacking := words{tool: "t", fields: map[string]bool{}}.text(remedy.Remedy{s})
		if lacking != without(o) || strings.Contains(lacking, "--") {
			t.Errorf("%s without the field: %q", o, lacking)
		}
	}
	if got, want := mcpField(remedy.Setting{Option: remedy.Match, Value: "loose"}), `"match": "loose"`; got != want {
		t.Errorf("match: %s, want %s", got, want)
	}
	if got, want := mcpField(remedy.Setting{Option: remedy.Partial, Value: "true"}), `"partial": true`; got != want {
		t.Errorf("partial: %s, want %s", got, want)
	}
	// One setting the tool lacks makes the whole remedy unavailable.
	two := remedy.Remedy{{Option: remedy.Partial, Value: "true"}, {Option: remedy.AllowHardlinks, Value: "true"}}
	if got := (words{tool: "t", fields: map[string]bool{"partial": true}}).text(two); got != without(remedy.AllowHardlinks) {
		t.Errorf("two settings, one missing: %q", got)
	}
}

// frontEndWord matches what only a front end may write: a CLI flag of a
// remedy's option, or the phrases that name the way to call again.
var frontEndWord = regexp.MustCompile(`--(match|partial|check|lang|root|allow-[a-z-]+)\b|(?i)rerun with|call again with|symedit show`)

// TestNoFrontEndWordsBelow: the packages below the front ends write no
// flag or tool phrase into a string: a refusal's remedy is data, worded
// by each front end (this package), so no front end ever has a message
// to rewrite. Comments may name flags; string literals may not.
func TestNoFrontEndWordsBelow(t *testing.T) {
	root := "../../../.."
	for _, dir := range []string{"chunk", "edit", "files", "guard", "diff", "textedit", "reply", "match", "lang", "symbols", "walk", "ops", "remedy", "internal"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err == nil && frontEndWord.MatchString(s) {
					t.Errorf("%s: string %s names a front end's option", path, lit.Value)
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
