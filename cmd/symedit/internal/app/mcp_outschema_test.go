package app

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/symedit/symedit/ops"
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

// TestMCPOutputSchemaDescriptions: every property of every tool's full
// output schema (the one its result type gives, of which the tools list
// the top level: listedSchema) has a description, so that the result
// types stay documented field by field.
func TestMCPOutputSchemaDescriptions(t *testing.T) {
	w, err := ops.Open(ops.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ts := newToolServer(w, time.Hour)
	newMCPServer(ts)
	if len(ts.outputs) < 14 {
		t.Fatalf("%d tools' output schemas recorded", len(ts.outputs))
	}
	total := 0
	for _, name := range slices.Sorted(maps.Keys(ts.outputs)) {
		js, err := json.Marshal(ts.outputs[name])
		if err != nil {
			t.Fatal(err)
		}
		var schema any
		if err := json.Unmarshal(js, &schema); err != nil {
			t.Fatal(err)
		}
		missing := undescribed(name, schema)
		total += len(missing)
		for _, p := range missing {
			t.Errorf("%s: no description", p)
		}
	}
	if total > 0 {
		t.Logf("%d properties without a description", total)
	}
}

// TestMCPToolListSize: the tool list a client fetches (and hands to the
// model in every session) stays under 40 KB, every tool with an input
// and an output schema, each output schema the top level of the result
// type's: every field of the result, no more and no fewer.
func TestMCPToolListSize(t *testing.T) {
	cs := serveInProcess(t, t.TempDir(), time.Hour, nil, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if len(js) >= 40<<10 {
		t.Errorf("tools/list is %d bytes, over 40 KB", len(js))
	}
	t.Logf("tools/list: %d bytes, %d tools", len(js), len(res.Tools))
	w, err := ops.Open(ops.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ts := newToolServer(w, time.Hour)
	newMCPServer(ts)
	for _, tool := range res.Tools {
		out, _ := tool.OutputSchema.(map[string]any)
		props, _ := out["properties"].(map[string]any)
		full := ts.outputs[tool.Name]
		if tool.InputSchema == nil || full == nil || len(props) == 0 {
			t.Errorf("%s: input %v, output %v", tool.Name, tool.InputSchema != nil, out)
			continue
		}
		if got, want := slices.Sorted(maps.Keys(props)), slices.Sorted(maps.Keys(full.Properties)); !slices.Equal(got, want) {
			t.Errorf("%s: listed output fields %q, the result's %q", tool.Name, got, want)
		}
	}
}
