package walk

import "sync/atomic"

// ExpandSerial is Expand reading the folders one at a time, on the
// calling goroutine: the walk that the concurrent one must equal.
func ExpandSerial(args []string, opt Options) (Result, error) {
	opt.serial = true
	return Expand(args, opt)
}

// ExpandCounting is Expand, also returning how many goroutines its
// walks started to read folders.
func ExpandCounting(args []string, opt Options) (Result, int64, error) {
	opt.started = new(atomic.Int64)
	r, err := Expand(args, opt)
	return r, opt.started.Load(), err
}
