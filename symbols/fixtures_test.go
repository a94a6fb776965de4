package symbols_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden from the extractor's output")

// repoTestdata is the repository's shared testdata directory.
const repoTestdata = "../testdata"

// fixture is one source file under ../testdata/src.
type fixture struct {
	Rel  string // path relative to the repository root, slash-separated: testdata/src/go/list.go
	File string // path to read it from this package's directory
	Lang *lang.Language
	Src  []byte
}

// fixtures returns every source file under ../testdata/src whose extension
// selects a language, in path order.
func fixtures(t testing.TB) []fixture {
	t.Helper()
	root := filepath.Join(repoTestdata, "src")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("no fixtures: %v", err)
	}
	var out []fixture
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		lang, err := lang.ForPath(p)
		if err != nil {
			return nil // LICENSE, README.md, ...
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel("..", p)
		if err != nil {
			return err
		}
		out = append(out, fixture{Rel: filepath.ToSlash(rel), File: p, Lang: lang, Src: src})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Skip("no fixtures under " + root)
	}
	return out
}

// fileSymbols is one JSON Lines record of symedit's symbol output.
type fileSymbols struct {
	Path     string           `json:"path"`
	Language string           `json:"language"`
	Symbols  []symbols.Symbol `json:"symbols"`
}

// goldenPath is the golden file of a fixture: testdata/golden/<path under
// testdata/src>.json in this package.
func goldenPath(f fixture) string {
	return filepath.Join("testdata", "golden", filepath.FromSlash(strings.TrimPrefix(f.Rel, "testdata/src/"))+".json")
}

// goldenText formats a JSON Lines record for review: the record's fields
// on the first line and one symbol per line. Compacting it (json.Compact)
// gives back the JSON Lines record.
func goldenText(rec fileSymbols) ([]byte, error) {
	head, err := json.Marshal(struct {
		Path     string `json:"path"`
		Language string `json:"language"`
	}{rec.Path, rec.Language})
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Write(head[:len(head)-1])
	b.WriteString(`,"symbols":[`)
	for i, s := range rec.Symbols {
		if i > 0 {
			b.WriteByte(',')
		}
		line, err := json.Marshal(s)
		if err != nil {
			return nil, err
		}
		b.WriteString("\n  ")
		b.Write(line)
	}
	b.WriteString("\n]}\n")
	return b.Bytes(), nil
}

// TestGolden compares each fixture's JSON Lines record
// {"path","language","symbols":[...]} with its golden file (the record with
// one symbol per line, see goldenText). Run with -update to rewrite the
// golden files.
func TestGolden(t *testing.T) {
	for _, f := range fixtures(t) {
		t.Run(f.Rel, func(t *testing.T) {
			syms, err := symbols.Extract(context.Background(), f.Src, f.Lang)
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, f.Lang.Name, f.Src, syms)
			rec := fileSymbols{Path: f.Rel, Language: f.Lang.Name, Symbols: syms}
			line, err := json.Marshal(rec)
			if err != nil {
				t.Fatal(err)
			}
			text, err := goldenText(rec)
			if err != nil {
				t.Fatal(err)
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, text); err != nil || !bytes.Equal(compact.Bytes(), line) {
				t.Fatalf("golden formatting does not compact to the JSON Lines record (%v)", err)
			}
			gp := goldenPath(f)
			if *update {
				if err := os.MkdirAll(filepath.Dir(gp), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(gp, text, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(gp)
			if err != nil {
				t.Fatalf("%v (run go test ./symbols -run TestGolden -update to create it)", err)
			}
			if bytes.Equal(text, want) {
				return
			}
			var wantRec fileSymbols
			if err := json.Unmarshal(want, &wantRec); err != nil {
				t.Fatalf("%s: %v", gp, err)
			}
			var gotRec fileSymbols
			_ = json.Unmarshal(line, &gotRec) // drops the json:"-" fields, as wantRec
			reportFirstDifference(t, gp, gotRec, wantRec)
		})
	}
}

func reportFirstDifference(t *testing.T, gp string, got, want fileSymbols) {
	t.Helper()
	defer t.Errorf("%s is out of date; if the change is intended, run go test ./symbols -run TestGolden -update", gp)
	if got.Path != want.Path || got.Language != want.Language {
		t.Errorf("path, language = %s, %s; golden %s, %s", got.Path, got.Language, want.Path, want.Language)
		return
	}
	for i := 0; i < len(got.Symbols) || i < len(want.Symbols); i++ {
		switch {
		case i >= len(got.Symbols):
			t.Errorf("symbol %d missing: golden has %+v", i, want.Symbols[i])
			return
		case i >= len(want.Symbols):
			t.Errorf("symbol %d extra: %+v", i, got.Symbols[i])
			return
		case !reflect.DeepEqual(got.Symbols[i], want.Symbols[i]):
			t.Errorf("symbol %d:\n got    %+v\n golden %+v", i, got.Symbols[i], want.Symbols[i])
			return
		}
	}
	t.Errorf("same symbols but different bytes (formatting)")
}

// manifestLine is one line of a hand-written testdata/symbols/*.expect
// manifest: "<name_path> <kind> <start_line> <end_line>".
type manifestLine struct {
	NamePath   string
	Kind       symbols.Kind
	Start, End int
}

func (m manifestLine) String() string {
	return m.NamePath + " " + string(m.Kind) + " " + strconv.Itoa(m.Start) + " " + strconv.Itoa(m.End)
}

func readManifest(t *testing.T, p string) []manifestLine {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var out []manifestLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		// The last three fields are kind, start and end; the name path is
		// the rest (it may contain spaces in TypeScript computed names).
		f := strings.Fields(line)
		if len(f) < 4 {
			t.Fatalf("%s:%d: want <name_path> <kind> <start_line> <end_line>, got %q", p, n, line)
		}
		k := len(f) - 3
		start, err1 := strconv.Atoi(f[k+1])
		end, err2 := strconv.Atoi(f[k+2])
		if err1 != nil || err2 != nil {
			t.Fatalf("%s:%d: bad line numbers in %q", p, n, line)
		}
		out = append(out, manifestLine{strings.Join(f[:k], " "), symbols.Kind(f[k]), start, end})
	}
	return out
}

// TestManifests compares the extractor with the hand-written manifests
// ../testdata/symbols/<file name>.expect: name path, kind, first and last
// line of every symbol, in source order.
func TestManifests(t *testing.T) {
	byBase := map[string]fixture{}
	for _, f := range fixtures(t) {
		byBase[path.Base(f.Rel)] = f
	}
	manifests, err := filepath.Glob(filepath.Join(repoTestdata, "symbols", "*.expect"))
	if err != nil {
		t.Fatal(err)
	}
	if len(manifests) == 0 {
		t.Skip("no manifests")
	}
	for _, mp := range manifests {
		base := strings.TrimSuffix(filepath.Base(mp), ".expect")
		t.Run(base, func(t *testing.T) {
			f, ok := byBase[base]
			if !ok {
				t.Fatalf("%s: no fixture named %s under %s/src", mp, base, repoTestdata)
			}
			want := readManifest(t, mp)
			syms, err := symbols.Extract(context.Background(), f.Src, f.Lang)
			if err != nil {
				t.Fatal(err)
			}
			var got []manifestLine
			for _, s := range syms {
				got = append(got, manifestLine{s.NamePath, s.Kind, s.Start.Line, s.LastLine()})
			}
			gotSet, wantSet := map[manifestLine]bool{}, map[manifestLine]bool{}
			for _, g := range got {
				gotSet[g] = true
			}
			for _, w := range want {
				wantSet[w] = true
				if !gotSet[w] {
					t.Errorf("%s: manifest line %q not extracted", f.Rel, w)
				}
			}
			for _, g := range got {
				if !wantSet[g] {
					t.Errorf("%s: extracted %q, not in the manifest", f.Rel, g)
				}
			}
			if !t.Failed() && !reflect.DeepEqual(got, want) {
				t.Errorf("%s: same symbols, different order:\n got %v\nwant %v", f.Rel, got, want)
			}
		})
	}
}

// TestConcurrentExtract runs Extract over all fixtures from 8 goroutines at
// once (run it with -race) and checks that every result equals the
// sequential one.
func TestConcurrentExtract(t *testing.T) {
	fxs := fixtures(t)
	want := make([][]symbols.Symbol, len(fxs))
	for i, f := range fxs {
		syms, err := symbols.Extract(context.Background(), f.Src, f.Lang)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = syms
	}
	const workers, rounds = 8, 3
	var wg sync.WaitGroup
	errs := make(chan string, workers*rounds*len(fxs))
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				for k := range fxs {
					i := (k + w) % len(fxs) // different goroutines on different files
					syms, err := symbols.Extract(context.Background(), fxs[i].Src, fxs[i].Lang)
					if err != nil {
						errs <- fxs[i].Rel + ": " + err.Error()
					} else if !reflect.DeepEqual(syms, want[i]) {
						errs <- fxs[i].Rel + ": result differs from the sequential one"
					}
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestTruncatedFixtures extracts every prefix of each fixture cut at a few
// hundred points: no panic, no error, and the invariants hold on broken
// input.
func TestTruncatedFixtures(t *testing.T) {
	for _, f := range fixtures(t) {
		step := max(1, len(f.Src)/200)
		for n := 0; n < len(f.Src); n += step {
			src := f.Src[:n]
			syms, err := symbols.Extract(context.Background(), src, f.Lang)
			if err != nil {
				t.Fatalf("%s[:%d]: %v", f.Rel, n, err)
			}
			checkInvariants(t, f.Lang.Name, src, syms)
			if t.Failed() {
				t.Fatalf("%s[:%d]: invariants broken", f.Rel, n)
			}
		}
	}
}
