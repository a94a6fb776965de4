package ops_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/symedit/symedit/chunk"
	"github.com/symedit/symedit/internal/goroot"
	"github.com/symedit/symedit/ops"
)

// bigGoFile builds the file of bench/compare.sh's chunk row: Go's
// net/http/server.go followed by the declarations of transport.go (its
// package clause and imports dropped), cut after the last top-level
// closing brace at or before line 5,000.
func bigGoFile(tb testing.TB) []byte {
	tb.Helper()
	dir := filepath.Join(goroot.Src(), "net", "http")
	server, err := os.ReadFile(filepath.Join(dir, "server.go"))
	if err != nil {
		tb.Skip("Go's source tree is not available:", err)
	}
	transport, err := os.ReadFile(filepath.Join(dir, "transport.go"))
	if err != nil {
		tb.Skip("Go's source tree is not available:", err)
	}
	// Everything after the import block's closing ")" line.
	end := regexp.MustCompile(`(?m)^\)\n`).FindIndex(transport)
	if end == nil {
		tb.Fatal("transport.go has no import block")
	}
	lines := bytes.SplitAfter(append(append([]byte{}, server...), transport[end[1]:]...), []byte("\n"))
	cut := 0
	for i := 0; i < len(lines) && i < 5000; i++ {
		if string(lines[i]) == "}\n" {
			cut = i + 1
		}
	}
	if cut < 4000 {
		tb.Fatalf("the file has only %d lines up to its last closing brace", cut)
	}
	return bytes.Join(lines[:cut], nil)
}

// The chunks of bench/compare.sh's chunk row, inside (*conn).serve: log the
// remote address once known, and the chunk that takes it out again.
var (
	benchChunkAdd = chunk.Chunk{
		ContextBefore: []string{"\tif ra := c.rwc.RemoteAddr(); ra != nil {"},
		OldLines:      []string{"\t\tc.remoteAddr = ra.String()"},
		NewLines:      []string{"\t\tc.remoteAddr = ra.String()", "\t\tc.server.logf(\"http: serving %s\", c.remoteAddr)"},
		ContextAfter:  []string{"\t}"},
	}
	benchChunkRemove = chunk.Chunk{
		ContextBefore: benchChunkAdd.ContextBefore,
		OldLines:      benchChunkAdd.NewLines,
		NewLines:      benchChunkAdd.OldLines,
		ContextAfter:  benchChunkAdd.ContextAfter,
	}
)

// BenchmarkChunkVsShow runs, side by side on bench/compare.sh's 5,000-line
// Go file, what its target in BENCHMARKS.md compares (chunk <= 1.3x
// show): Show of conn/serve and Chunk
// of one line into it with the syntax guard on, as a real write (each
// iteration adds the line or takes it out again, so every one writes) and
// as a dry run, and for reference Chunk with the guard off. The ratio of
// chunk to show is the figure to read, since the machine is shared.
func BenchmarkChunkVsShow(b *testing.B) {
	src := bigGoFile(b)
	dir := b.TempDir()
	const rel = "big.go"
	if err := os.WriteFile(filepath.Join(dir, rel), src, 0o644); err != nil {
		b.Fatal(err)
	}
	w, err := ops.Open(ops.Options{Root: dir, Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	ctx := context.Background()
	loc := rel + "::conn/serve"
	b.Run("show", func(b *testing.B) {
		for b.Loop() {
			if res, err := w.Show(ctx, ops.ShowRequest{Location: loc}); err != nil || !res.OK {
				b.Fatal(err)
			}
		}
	})
	write := func(check string) func(b *testing.B) {
		return func(b *testing.B) {
			add := true
			for b.Loop() {
				c := benchChunkAdd
				if !add {
					c = benchChunkRemove
				}
				add = !add
				res, err := w.Chunk(ctx, ops.ChunkRequest{Location: loc, Chunks: ops.Chunks{c}, WriteOptions: ops.WriteOptions{Check: check}})
				if err != nil || !res.Written {
					b.Fatalf("%+v: %v", res, err)
				}
			}
			if !add { // leave the file as it was
				if _, err := w.Chunk(ctx, ops.ChunkRequest{Location: loc, Chunks: ops.Chunks{benchChunkRemove}}); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.Run("chunk", write(""))
	b.Run("chunk-dry-run", func(b *testing.B) {
		for b.Loop() {
			res, err := w.Chunk(ctx, ops.ChunkRequest{Location: loc, Chunks: ops.Chunks{benchChunkAdd}, WriteOptions: ops.WriteOptions{DryRun: true}})
			if err != nil || res.Diff == "" || res.Written {
				b.Fatalf("%+v: %v", res, err)
			}
		}
	})
	b.Run("chunk-check-off", write("off"))
	// The same, interleaved within each iteration, so that a load that
	// comes and goes on a shared machine weighs on each alike: the
	// metrics are each operation's time and its ratio to show.
	b.Run("side-by-side", func(b *testing.B) {
		steps := []struct {
			name string
			run  func() error
		}{
			{"show", func() error { _, err := w.Show(ctx, ops.ShowRequest{Location: loc}); return err }},
			{"chunk", func() error {
				_, err := w.Chunk(ctx, ops.ChunkRequest{Location: loc, Chunks: ops.Chunks{benchChunkAdd}})
				return err
			}},
			{"dry-run", func() error {
				_, err := w.Chunk(ctx, ops.ChunkRequest{Location: loc, Chunks: ops.Chunks{benchChunkRemove}, WriteOptions: ops.WriteOptions{DryRun: true}})
				return err
			}},
			{"undo", func() error { // not measured: the chunk taken out again
				_, err := w.Chunk(ctx, ops.ChunkRequest{Location: loc, Chunks: ops.Chunks{benchChunkRemove}})
				return err
			}},
		}
		total := make([]time.Duration, len(steps))
		for b.Loop() {
			for i, op := range steps {
				t0 := time.Now()
				if err := op.run(); err != nil {
					b.Fatal(op.name, err)
				}
				total[i] += time.Since(t0)
			}
		}
		n := float64(b.N)
		for i, op := range steps[:3] {
			b.ReportMetric(float64(total[i].Nanoseconds())/n, op.name+"-ns/op")
			if i > 0 {
				b.ReportMetric(float64(total[i])/float64(total[0]), op.name+"/show")
			}
		}
	})
}
