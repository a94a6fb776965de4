package ops_test

import (
	"os"
	"testing"

	"github.com/symedit/symedit/internal/symcache"
)

// TestMain points the cache folder (the symbol index's and the
// journal's) at a temporary folder, so that no test writes in the user's
// cache.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "symedit-ops-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv(symcache.EnvDir, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
