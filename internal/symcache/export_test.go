package symcache

// SetMaxPending sets how many bytes of entries c's Put holds before it
// starts a write in the background (maxPending), so that a test makes
// it write with a few entries.
func SetMaxPending(c *Cache, n int) { c.maxPending = n }
