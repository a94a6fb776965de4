package reply_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/symedit/symedit/reply"
)

// TestFailureCodeSchema: the MCP output schema's description of a block
// failure's code (reply.Failure's jsonschema tag) names exactly the
// package's Code constants, read from match.go's source (outside the
// parentheses that explain each), so the schema cannot fall behind them.
func TestFailureCodeSchema(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "match.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]bool{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if !strings.HasPrefix(name.Name, "Code") || i >= len(vs.Values) {
					continue
				}
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					v, _ := strconv.Unquote(lit.Value)
					consts[v] = true
				}
			}
		}
	}
	if len(consts) == 0 {
		t.Fatal("no Code constants in match.go")
	}
	field, ok := reflect.TypeFor[reply.Failure]().FieldByName("Code")
	if !ok {
		t.Fatal("reply.Failure has no Code field")
	}
	// The codes, without what the parentheses say of each.
	desc := regexp.MustCompile(`\([^)]*\)`).ReplaceAllString(field.Tag.Get("jsonschema"), "")
	named := map[string]bool{}
	for _, c := range regexp.MustCompile(`\b[A-Z][A-Z_]{2,}\b`).FindAllString(desc, -1) {
		named[c] = true
	}
	if !reflect.DeepEqual(named, consts) {
		t.Errorf("the code's description names %v; the constants are %v", named, consts)
	}
}
