// Package probe holds counters that the packages below the front ends
// bump at the places where a call waits or loops, so that tests can tell
// that a call is waiting, or how much work it did, without measuring
// time (a loaded machine makes any time-based assertion flaky). Counting
// is one atomic add: cheap enough to stay in production code.
package probe

import (
	"context"
	"sync/atomic"
)

var (
	// PathLockWaits counts the times a call of an ops.Workspace found a
	// file's in-process lock held by another call and started waiting.
	PathLockWaits atomic.Int64
	// FolderLockWaits counts the times a commit found a folder's flock
	// held (by another symedit process) and started waiting.
	FolderLockWaits atomic.Int64
	// SearchSteps counts the steps of the text searches: one per match a
	// replace finds, one per byte a replace scans to find a line's end,
	// one per iteration of the edit engine's search and similar-line
	// loops. Tests compare it at two input sizes (linear growth) and
	// before and after a cancellation (the work stopped).
	SearchSteps atomic.Int64
	// TreeNodes counts the syntax tree nodes symbol extraction visits to
	// learn their parents and siblings (one walk per file).
	TreeNodes atomic.Int64
	// TreeClimbs counts the times symbol extraction asked tree-sitter for
	// a node's parent or sibling instead: each such question descends
	// from the root, a cost in the node's depth.
	TreeClimbs atomic.Int64
)

// StepsContext is a context that says it is cancelled once SearchSteps
// passes After: a cancellation in the middle of a search, at a point
// counted in steps, not in time, for the tests that a search stops. Its
// Done channel is the parent's (a search asks Err).
type StepsContext struct {
	context.Context
	After int64
	at    atomic.Int64
}

// Err returns context.Canceled once SearchSteps passes After, else nil.
func (c *StepsContext) Err() error {
	if n := SearchSteps.Load(); n > c.After {
		c.at.CompareAndSwap(0, n)
		return context.Canceled
	}
	return nil
}

// At returns SearchSteps when Err first said cancelled, or 0.
func (c *StepsContext) At() int64 { return c.at.Load() }

// counterKey is the context key of one of the per-call counters below:
// a counter carried by the context, not a package-level one, counts one
// call's work only, whatever other goroutines do meanwhile.
type counterKey int

const (
	parsesKey    counterKey = iota // WithParses
	readsKey                       // WithReads
	ownParsedKey                   // WithOwnParsed
	queriesKey                     // WithQueries
)

// withCounter returns a context carrying n under k.
func withCounter(ctx context.Context, k counterKey, n *atomic.Int64) context.Context {
	return context.WithValue(ctx, k, n)
}

// count adds delta to the counter ctx carries under k, if it carries one.
func count(ctx context.Context, k counterKey, delta int64) {
	if n, ok := ctx.Value(k).(*atomic.Int64); ok {
		n.Add(delta)
	}
}

// WithParses returns a context that carries n: every tree-sitter parse
// made under it by the packages that parse (symbols' extraction, the
// syntax guard), a full or an incremental one, adds one to n
// (CountParse). n must not be nil.
func WithParses(ctx context.Context, n *atomic.Int64) context.Context {
	return withCounter(ctx, parsesKey, n)
}

// CountParse adds one to the parse counter ctx carries (WithParses), if
// it carries one. Call it once per tree-sitter parse, just before it.
func CountParse(ctx context.Context) { count(ctx, parsesKey, 1) }

// WithReads returns a context that carries n: every read of a whole
// file's bytes made under it by a multi-file operation (replace's first
// look at a walked file, and its read of a file for editing) adds one
// to n (CountRead), so that a test can tell that a file without a match
// is read once, not how long the reads took. n must not be nil.
func WithReads(ctx context.Context, n *atomic.Int64) context.Context {
	return withCounter(ctx, readsKey, n)
}

// CountRead adds one to the read counter ctx carries (WithReads), if it
// carries one. Call it once per read of a file's bytes.
func CountRead(ctx context.Context) { count(ctx, readsKey, 1) }

// WithOwnParsed returns a context that carries n: every parse by a
// language's own parser (go/parser) that symbol extraction makes under
// it adds the number of bytes it hands to that parser to n
// (CountOwnParsed), so that a test can tell how much of a file was
// parsed, not how long it took. n must not be nil.
func WithOwnParsed(ctx context.Context, n *atomic.Int64) context.Context {
	return withCounter(ctx, ownParsedKey, n)
}

// CountOwnParsed adds bytes, the length of a text handed to a
// language's own parser, to the counter ctx carries (WithOwnParsed), if
// it carries one.
func CountOwnParsed(ctx context.Context, bytes int) { count(ctx, ownParsedKey, int64(bytes)) }

// WithQueries returns a context that carries n: every run of a
// language's symbols query over a whole tree-sitter tree that symbol
// extraction makes under it adds one to n (CountQuery), so that a test
// can tell that an extraction was spared (a query over a large file
// costs a good part of its parse), not how long it took. n must not be
// nil.
func WithQueries(ctx context.Context, n *atomic.Int64) context.Context {
	return withCounter(ctx, queriesKey, n)
}

// CountQuery adds one to the query counter ctx carries (WithQueries), if
// it carries one. Call it once per symbols query over a whole tree.
func CountQuery(ctx context.Context) { count(ctx, queriesKey, 1) }
