package chunk_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/symedit/symedit/chunk"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden sections of testdata/*.txtar")

// TestGolden runs every testdata/*.txtar case. Each archive's comment holds
// "first: N" (the symbol's first file line); its files are "symbol" (the
// symbol's lines), "chunks.json" (the input), and the golden result: "want"
// (the new lines) or "error" (the rejection as JSON).
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			first := 1
			for _, line := range strings.Split(string(ar.Comment), "\n") {
				if v, ok := strings.CutPrefix(line, "first: "); ok {
					if first, err = strconv.Atoi(strings.TrimSpace(v)); err != nil {
						t.Fatal(err)
					}
				}
			}
			var symbol, input []byte
			for _, f := range ar.Files {
				switch f.Name {
				case "symbol":
					symbol = f.Data
				case "chunks.json":
					input = f.Data
				}
			}
			got := run(t, symbol, input, first)
			name := "want"
			if strings.HasPrefix(got, "{") {
				name = "error"
			}
			if *update {
				var kept []txtar.File
				for _, f := range ar.Files {
					if f.Name != "want" && f.Name != "error" {
						kept = append(kept, f)
					}
				}
				ar.Files = append(kept, txtar.File{Name: name, Data: []byte(got)})
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, f := range ar.Files {
				if f.Name == "want" || f.Name == "error" {
					if f.Name != name || string(f.Data) != got {
						t.Errorf("got %s:\n%s\nwant %s:\n%s", name, got, f.Name, f.Data)
					}
					return
				}
			}
			t.Fatalf("no golden want or error section; run go test -update")
		})
	}
}

// run applies the chunks and renders the new lines, or the error as
// indented JSON (starting with "{").
func run(t *testing.T, symbol, input []byte, first int) string {
	t.Helper()
	chunks, err := chunk.Parse(input)
	if err != nil {
		return marshal(t, map[string]any{"input_error": err.Error()})
	}
	lines := strings.Split(strings.TrimSuffix(string(symbol), "\n"), "\n")
	res, err := chunk.Apply(chunk.Target{Lines: lines, FirstLine: first}, chunks)
	if err != nil {
		var ce *chunk.Error
		if !errors.As(err, &ce) {
			return marshal(t, map[string]any{"input_error": err.Error()})
		}
		return marshal(t, ce)
	}
	return strings.Join(res.Lines, "\n") + "\n"
}

func marshal(t *testing.T, v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
