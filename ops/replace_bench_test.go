//go:build unix

package ops_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/symedit/symedit/internal/goroot"
	"github.com/symedit/symedit/ops"
)

// BenchmarkReplaceNetHTTP is bench/compare.sh's replace row inside one
// process: ResponseWriter becomes ResponseWriterX over a copy of Go's
// net/http (in Go 1.26, 112 .go files, 44 of them with 686 matches), every file named,
// with the syntax guard on and the files written; the next iteration
// replaces it back, so each one edits the same matches. The sub-benchmark
// "check=off" is the floor without the guard: reading, matching and
// writing; "dry-run" checks and builds every file's diff, writing nothing.
func BenchmarkReplaceNetHTTP(b *testing.B) {
	src := goroot.Src()
	if src == "" {
		b.Skip("go env GOROOT failed")
	}
	dir := b.TempDir()
	var paths []string
	err := filepath.WalkDir(filepath.Join(src, "net", "http"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		paths = append(paths, filepath.ToSlash(rel))
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		b.Fatal(err)
	}
	w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	for _, mode := range []ops.WriteOptions{{Check: "strict"}, {Check: "off"}, {Check: "strict", DryRun: true}} {
		name := "check=" + mode.Check
		if mode.DryRun {
			name = "dry-run" // the guard and every file's diff, nothing written
		}
		b.Run(name, func(b *testing.B) {
			words := [2]string{"ResponseWriter", "ResponseWriterX"}
			i, want := 0, 0
			cpu0 := cpuTime(b)
			for b.Loop() {
				k := i % 2
				if mode.DryRun {
					k = 0
				}
				res, err := w.Replace(context.Background(), ops.ReplaceRequest{Search: words[k], Replacement: words[1-k],
					Paths: paths, WalkOptions: ops.WalkOptions{Jobs: runtime.NumCPU()}, WriteOptions: mode})
				if i == 0 {
					want = res.TotalReplacements
				}
				if err != nil || res.TotalReplacements == 0 || res.TotalReplacements != want {
					b.Fatalf("%v: %d replacements, want %d (as the first run)", err, res.TotalReplacements, want)
				}
				i++
			}
			// CPU time of every thread (cgo's included), steadier than wall
			// time on a loaded machine.
			b.ReportMetric(float64((cpuTime(b)-cpu0).Milliseconds())/float64(i), "cpu-ms/op")
			if i%2 == 1 && !mode.DryRun { // leave the tree as it was for the next sub-benchmark
				if _, err := w.Replace(context.Background(), ops.ReplaceRequest{Search: words[1], Replacement: words[0], Paths: paths,
					WriteOptions: ops.WriteOptions{Check: "off"}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// cpuTime is the user and system CPU time the process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkReplaceLongLine is a replace on a file of one line holding n
// matches, at two sizes, with an expected count of 1 (refused at the
// second match, whatever n) and as a dry run of replacing every match
// (matching, the in-memory replacement and the diff): the ratio of the
// two sizes' ns/op is about 1 and about 4 when the work is linear.
func BenchmarkReplaceLongLine(b *testing.B) {
	dir := b.TempDir()
	w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	one := 1
	for _, n := range []int{20_000, 80_000} {
		name := fmt.Sprintf("line%d.txt", n)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Repeat("foo bar ", n)+"\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		for _, mode := range []string{"expect=1", "dry-run"} {
			req := ops.ReplaceRequest{Search: "foo", Replacement: "baz", Paths: []string{name}}
			if mode == "expect=1" {
				req.Expect = &one
			} else {
				req.DryRun = true
			}
			b.Run(fmt.Sprintf("matches=%d/%s", n, mode), func(b *testing.B) {
				for b.Loop() {
					res, _ := w.Replace(context.Background(), req)
					if res.TotalMatches == 0 {
						b.Fatalf("no match: %+v", res.Error)
					}
				}
			})
		}
	}
}
