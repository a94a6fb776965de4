// Command tokens measures how many tokens a model spends to send one edit of
// a real function as symedit chunks, against the whole new body, the
// equivalent SEARCH/REPLACE blocks and a unified diff.
//
// It takes real functions from this machine's Go source tree (GOROOT/src)
// and CPython standard library, applies seeded realistic edits to each,
// derives the minimal unique chunks of every edit (context grows until
// chunk.Apply of that chunk alone is unambiguous), checks that chunk.Apply
// of all of them reproduces the edited function exactly (it stops with
// FAIL otherwise), and counts tokens with a real BPE tokenizer (o200k_base,
// embedded: nothing is downloaded). It is a separate module so that the
// tokenizer stays out of symedit's binary.
//
//	cd bench/tokens && go run .   (or: make bench-tokens)
package main

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

var buckets = []struct {
	name   string
	lo, hi int // lines, hi exclusive
}{{"<50", 5, 50}, {"50-100", 50, 100}, {"100-200", 100, 200}, {"200+", 200, 1 << 30}}

func bucketOf(n int) int {
	for i, b := range buckets {
		if n >= b.lo && n < b.hi {
			return i
		}
	}
	return -1
}

func main() {
	seed := flag.Uint64("seed", 6, "random seed (the same seed gives the same table)")
	per := flag.Int("per-bucket", 25, "functions per size bucket and language")
	enc := flag.String("encoding", "o200k_base", "tiktoken encoding: o200k_base or cl100k_base")
	pyDir := flag.String("python", "", "CPython stdlib folder (default: asked of python3)")
	flag.Parse()
	if err := run(*seed, *per, *enc, *pyDir); err != nil {
		fmt.Fprintln(os.Stderr, "tokens:", err)
		os.Exit(1)
	}
}

func run(seed uint64, per int, encName, pyDir string) error {
	tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
	tk, err := tiktoken.GetEncoding(encName)
	if err != nil {
		return err
	}
	count := func(s string) int { return len(tk.EncodeOrdinary(s)) }

	goSrc := filepath.Join(runtime.GOROOT(), "src")
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		goSrc = filepath.Join(strings.TrimSpace(string(out)), "src")
	}
	if pyDir == "" {
		out, err := exec.Command("python3", "-c", `import sysconfig; print(sysconfig.get_paths()["stdlib"])`).Output()
		if err != nil {
			return fmt.Errorf("python3: %v (pass -python DIR)", err)
		}
		pyDir = strings.TrimSpace(string(out))
	}
	r := rand.New(rand.NewPCG(seed, 0x73796d65646974))
	var fns []*function
	for _, tree := range []struct{ dir, lang string }{{goSrc, "go"}, {pyDir, "python"}} {
		got, files, err := collect(tree.dir, tree.lang, per, r)
		if err != nil {
			return err
		}
		fmt.Printf("%s: %d functions from %d files of %s\n", tree.lang, len(got), files, tree.dir)
		fns = append(fns, got...)
	}

	rows, err := measure(fns, r, count)
	if err != nil {
		return err
	}
	report(os.Stdout, rows, encName, seed)
	return nil
}

// collect picks up to per functions of each size bucket from the tree,
// visiting its files in a seeded random order, at most two per file.
func collect(dir, lang string, per int, r *rand.Rand) ([]*function, int, error) {
	var files []string
	ext := map[string]string{"go": ".go", "python": ".py"}[lang]
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if name == "testdata" || name == "test" || name == "tests" || name == "site-packages" || name == "idle_test" || name == "__pycache__" {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && strings.HasSuffix(name, ext) && !strings.HasSuffix(name, "_test.go") && !strings.HasPrefix(name, "z") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	sort.Strings(files)
	r.Shuffle(len(files), func(i, j int) { files[i], files[j] = files[j], files[i] })
	gl, err := lang.ByName(lang)
	if err != nil {
		return nil, 0, err
	}
	have := make([]int, len(buckets))
	var out []*function
	visited := 0
	for _, path := range files {
		if slices.Min(have) >= per || visited >= 1500 {
			break
		}
		visited++
		src, err := os.ReadFile(path)
		if err != nil || len(src) > 1<<20 {
			continue
		}
		syms, err := symbols.Extract(context.Background(), src, gl)
		if err != nil {
			return nil, 0, err
		}
		lines := strings.Split(string(src), "\n")
		taken := 0
		idx := r.Perm(len(syms))
		for _, k := range idx {
			s := syms[k]
			if s.Kind != symbols.KindFunction && s.Kind != symbols.KindMethod || taken >= 2 {
				continue
			}
			first, last := s.Start.Line, s.LastLine()
			b := bucketOf(last - first + 1)
			if b < 0 || have[b] >= per || last > len(lines) {
				continue
			}
			rel, _ := filepath.Rel(filepath.Dir(dir), path)
			fl := slices.Clone(lines[first-1 : last])
			for i := range fl {
				fl[i] = strings.TrimSuffix(fl[i], "\r")
			}
			out = append(out, &function{path: rel, name: s.Name, lang: lang, first: first, lines: fl})
			have[b]++
			taken++
		}
	}
	return out, visited, nil
}

// row is one measured edit.
type row struct {
	lang, kind             string
	bucket, lines, nchunks int
	chunks, body, sr, diff int
	path, name             string
}

// measure applies every edit kind that fits to every function.
func measure(fns []*function, r *rand.Rand, count func(string) int) ([]row, error) {
	var rows []row
	skipped := 0
	for _, f := range fns {
		for _, k := range editKinds {
			new, ok := k.apply(f, r)
			if !ok || slices.Equal(new, f.lines) {
				continue
			}
			t, err := derive(f, new)
			if err == errNoUnique {
				skipped++
				continue
			}
			if err != nil {
				return nil, err
			}
			rows = append(rows, row{
				lang: f.lang, kind: k.name, bucket: bucketOf(len(f.lines)), lines: len(f.lines), nchunks: t.nchunks,
				chunks: count(t.chunks), body: count(t.body), sr: count(t.searchReplace), diff: count(t.diff),
				path: f.path, name: f.name,
			})
		}
	}
	if skipped > 0 {
		fmt.Printf("skipped %d edits that no context inside the function makes unique\n", skipped)
	}
	return rows, nil
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// table prints one line per group: edits, total tokens of each form, and
// the savings of chunks against the whole body (over the totals, and the
// median of the per-edit savings).
func table(w *os.File, title string, rows []row, key func(row) string, order []string) {
	fmt.Fprintf(w, "\n%s\n\n", title)
	fmt.Fprintf(w, "| %-14s | edits | chunks | whole body | SEARCH/REPLACE | unified diff | chunk tokens / edit (median) | savings vs body (total) | savings vs body (median) |\n", "")
	fmt.Fprintf(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, g := range order {
		var n, c, b, s, d int
		var per, ct []float64
		for _, x := range rows {
			if key(x) != g {
				continue
			}
			n++
			c += x.chunks
			b += x.body
			s += x.sr
			d += x.diff
			per = append(per, 100*(1-float64(x.chunks)/float64(x.body)))
			ct = append(ct, float64(x.chunks))
		}
		if n == 0 {
			continue
		}
		fmt.Fprintf(w, "| %-14s | %5d | %6d | %10d | %14d | %12d | %28.0f | %22.1f%% | %23.1f%% |\n",
			g, n, c, b, s, d, median(ct), 100*(1-float64(c)/float64(b)), median(per))
	}
}

func report(w *os.File, rows []row, enc string, seed uint64) {
	fmt.Fprintf(w, "\n%d edits, tokens counted with %s, seed %d; every edit's chunks reproduced the edited function exactly\n", len(rows), enc, seed)
	var order []string
	for _, b := range buckets {
		order = append(order, b.name+" lines")
	}
	all := func(row) string { return "all" }
	table(w, "By function size (Go and Python):", rows, func(x row) string { return buckets[x.bucket].name + " lines" }, order)
	table(w, "All edits:", rows, all, []string{"all"})
	var kinds []string
	for _, k := range editKinds {
		kinds = append(kinds, k.name)
	}
	table(w, "By edit kind:", rows, func(x row) string { return x.kind }, kinds)
	table(w, "By language:", rows, func(x row) string { return x.lang }, []string{"go", "python"})
}
