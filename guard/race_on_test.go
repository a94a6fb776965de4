//go:build race

package guard_test

// raceOn reports that the tests run under the race detector, which makes
// parsing about 20 times slower: long tests check a sample then.
const raceOn = true
