package app

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"
)

// undescribed returns the path of every property of schema (a JSON
// schema as the client receives it) that has no description, at any
// depth: through properties, items, prefixItems, additionalProperties,
// $defs and definitions, and anyOf, oneOf and allOf. where is the path
// of schema itself; a property's path is where.NAME, an array's items
// where[], a definition's where.$defs.NAME, an alternative's where|N.
func undescribed(where string, schema any) []string {
	m, _ := schema.(map[string]any)
	if m == nil {
		return nil
	}
	var missing []string
	props, _ := m["properties"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(props)) {
		p := props[name]
		pm, _ := p.(map[string]any)
		if d, _ := pm["description"].(string); strings.TrimSpace(d) == "" {
			missing = append(missing, where+"."+name)
		}
		missing = append(missing, undescribed(where+"."+name, p)...)
	}
	missing = append(missing, undescribed(where+"[]", m["items"])...)
	if pre, ok := m["prefixItems"].([]any); ok {
		for i, s := range pre {
			missing = append(missing, undescribed(fmt.Sprintf("%s[%d]", where, i), s)...)
		}
	}
	missing = append(missing, undescribed(where+".*", m["additionalProperties"])...)
	for _, key := range []string{"$defs", "definitions"} {
		defs, _ := m[key].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(defs)) {
			missing = append(missing, undescribed(where+"."+key+"."+name, defs[name])...)
		}
	}
	for _, key := range []string{"anyOf", "oneOf", "allOf"} {
		alts, _ := m[key].([]any)
		for i, s := range alts {
			missing = append(missing, undescribed(fmt.Sprintf("%s|%s%d", where, key, i), s)...)
		}
	}
	return missing
}

// TestUndescribed: the walk finds a property without a description at
// every depth it promises, and none where all have one, so that
// TestMCPOutputSchemaDescriptions can fail.
func TestUndescribed(t *testing.T) {
	bare := map[string]any{"type": "string"}
	described := map[string]any{"type": "object", "description": "d", "properties": map[string]any{"x": bare}}
	schema := map[string]any{"type": "object", "properties": map[string]any{
		"a":     bare,
		"list":  map[string]any{"description": "d", "items": described},
		"tuple": map[string]any{"description": "d", "prefixItems": []any{described}},
		"map":   map[string]any{"description": "d", "additionalProperties": described},
		"alt":   map[string]any{"description": "d", "anyOf": []any{described}, "oneOf": []any{described}, "allOf": []any{described}},
		"ok":    map[string]any{"description": "d", "properties": map[string]any{"y": map[string]any{"description": "d"}}},
	}, "$defs": map[string]any{"T": described}}
	got := undescribed("t", schema)
	slices.Sort(got)
	want := []string{"t.$defs.T.x", "t.a", "t.alt|allOf0.x", "t.alt|anyOf0.x", "t.alt|oneOf0.x", "t.list[].x", "t.map.*.x", "t.tuple[0].x"}
	if !slices.Equal(got, want) {
		t.Errorf("undescribed = %q, want %q", got, want)
	}
}

// TestMCPOutputSchemaDescriptions: every property of every tool's output
// schema, as the server lists it, has a description, so that a model
// reading the schema learns what each result field means.
func TestMCPOutputSchemaDescriptions(t *testing.T) {
	cs := serveInProcess(t, t.TempDir(), time.Hour, nil, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) == 0 {
		t.Fatal("no tools")
	}
	total := 0
	for _, tool := range res.Tools {
		if tool.OutputSchema == nil {
			t.Errorf("%s: no output schema", tool.Name)
			continue
		}
		missing := undescribed(tool.Name, tool.OutputSchema)
		total += len(missing)
		for _, p := range missing {
			t.Errorf("%s: no description", p)
		}
	}
	if total > 0 {
		t.Logf("%d properties without a description", total)
	}
}
