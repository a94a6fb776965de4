package app

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/symedit/symedit/internal/goroot"
	"github.com/symedit/symedit/internal/symcache"
)

// BenchmarkSymbolsIndex runs `symbols --json` over Go's net tree (390
// files) in three ways, side by side: cold (an empty index: every file is
// read, parsed and stored), warm (every file from the index) and
// --no-cache (read and parsed, nothing stored).
func BenchmarkSymbolsIndex(b *testing.B) {
	src := goroot.Src()
	if src == "" {
		b.Skip("no go command")
	}
	tree := filepath.Join(src, "net")
	run := func(b *testing.B, args ...string) {
		if code := Main(append([]string{"symedit", "symbols", "--json"}, append(args, tree)...), strings.NewReader(""), io.Discard, io.Discard); code != ExitOK {
			b.Fatalf("exit %d", code)
		}
	}
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			b.Setenv(symcache.EnvDir, b.TempDir())
			b.StartTimer()
			run(b)
		}
	})
	b.Run("warm", func(b *testing.B) {
		b.Setenv(symcache.EnvDir, b.TempDir())
		run(b)
		for b.Loop() {
			run(b)
		}
	})
	b.Run("no-cache", func(b *testing.B) {
		for b.Loop() {
			run(b, "--no-cache")
		}
	})
}
