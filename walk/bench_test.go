package walk_test

import (
	"path/filepath"
	"testing"

	"github.com/symedit/symedit/internal/goroot"
	"github.com/symedit/symedit/walk"
)

// BenchmarkExpand walks GOROOT/src (about 10,000 files in 900 folders)
// and the repository's testdata (a few folders), leaving the content
// checks to the caller as a warm symbol index does, so that the folder
// walk is what is timed: serially, and on up to GOMAXPROCS goroutines.
// Compare the two sub-benchmarks of one run; their ratio, not their
// ns/op, is the figure that carries from one machine to another.
func BenchmarkExpand(b *testing.B) {
	src := goroot.Src()
	if src == "" {
		b.Skip("no go command to find GOROOT/src")
	}
	trees := []struct{ name, dir string }{
		{"goroot", src},
		{"testdata", filepath.Join("..", "testdata")},
	}
	for _, tr := range trees {
		for _, m := range []struct {
			name   string
			expand func([]string, walk.Options) (walk.Result, error)
		}{{"serial", walk.ExpandSerial}, {"parallel", walk.Expand}} {
			b.Run(tr.name+"/"+m.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					r, err := m.expand([]string{tr.dir}, walk.Options{DeferContentChecks: true})
					if err != nil || len(r.Files) == 0 {
						b.Fatalf("%d files, %v", len(r.Files), err)
					}
				}
			})
		}
	}
}
