//go:build !linux

package symcache

import "os"

// readEntry reads the entry file name (os.ReadFile off Linux).
func readEntry(name string) ([]byte, error) { return os.ReadFile(name) }
