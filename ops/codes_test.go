package ops_test

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/symedit/symedit/ops"
)

// TestDocsCodeTable checks that docs/json.md's table of error codes lists
// exactly ops.Codes's codes, with the same exit codes.
func TestDocsCodeTable(t *testing.T) {
	doc, err := os.ReadFile("../docs/json.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("^\\| `([A-Z_]+)` \\| ([0-9]) \\|")
	documented := map[string]int{}
	for _, line := range strings.Split(string(doc), "\n") {
		m := row.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if _, dup := documented[m[1]]; dup {
			t.Errorf("docs/json.md lists %s twice", m[1])
		}
		documented[m[1]], _ = strconv.Atoi(m[2])
	}
	if len(documented) == 0 {
		t.Fatal("docs/json.md has no table of error codes")
	}
	for _, r := range ops.Codes() {
		got, ok := documented[string(r.Code)]
		switch {
		case !ok:
			t.Errorf("docs/json.md does not list %s (exit %d)", r.Code, r.Exit)
		case got != r.Exit:
			t.Errorf("docs/json.md says %s exits %d, ops.Codes says %d", r.Code, got, r.Exit)
		}
		delete(documented, string(r.Code))
	}
	for code, exit := range documented {
		t.Errorf("docs/json.md lists %s (exit %d), which ops.Codes does not have", code, exit)
	}
}

// TestCodeTableComplete checks that every code in Codes is listed once
// and that a code outside it exits ops.ExitError.
func TestCodeTableComplete(t *testing.T) {
	seen := map[ops.Code]bool{}
	for _, r := range ops.Codes() {
		if seen[r.Code] {
			t.Errorf("Codes lists %s twice", r.Code)
		}
		seen[r.Code] = true
	}
	if got := ops.ExitCode(fmt.Errorf("plain")); got != ops.ExitError {
		t.Errorf("exitCode(plain error) = %d, want %d", got, ops.ExitError)
	}
}

// TestErrorCodeSchema: the MCP output schema's description of an error's
// code (ops.Error's jsonschema tag) names every code of the table, and no
// code that is not in it, so the schema cannot fall behind the table.
func TestErrorCodeSchema(t *testing.T) {
	f, ok := reflect.TypeFor[ops.Error]().FieldByName("Code")
	if !ok {
		t.Fatal("ops.Error has no Code field")
	}
	desc := f.Tag.Get("jsonschema")
	named := map[string]bool{}
	for _, c := range regexp.MustCompile(`\b[A-Z][A-Z_]{2,}\b`).FindAllString(desc, -1) {
		named[c] = true
	}
	for _, r := range ops.Codes() {
		if !named[string(r.Code)] {
			t.Errorf("the code's description does not name %s: %q", r.Code, desc)
		}
		delete(named, string(r.Code))
	}
	for c := range named {
		t.Errorf("the code's description names %s, which is not in ops.Codes()", c)
	}
}
