package ops

import (
	"sync"
	"sync/atomic"
)

// forEachOrdered runs work(i) for every i in [0, n) on up to jobs
// goroutines and calls emit(i, result) on the calling goroutine in the
// order of i, each as soon as its work and all earlier emits are done (the
// sequencer of gofmt: output in input order, work in any order). At most
// jobs*16 results wait for their turn, which bounds the memory held when
// one file is slow. When emit returns an error, no more work is started,
// the work running is awaited and the error is returned. work must be safe
// for concurrent use.
//
// A worker takes a place in that window, then the next i from a shared
// counter: no goroutine hands the indexes out, so a run over 100,000
// small files (a warm symbol index) does not pay a rendezvous of two
// goroutines for each.
func forEachOrdered[T any](n, jobs int, work func(i int) T, emit func(i int, r T) error) error {
	if n == 0 {
		return nil
	}
	jobs = max(1, min(jobs, n))
	done := make([]chan T, n)
	for i := range done {
		done[i] = make(chan T, 1)
	}
	var next atomic.Int64
	stop := make(chan struct{})
	window := make(chan struct{}, jobs*16)
	var wg sync.WaitGroup
	for range jobs {
		wg.Go(func() {
			for {
				select {
				case window <- struct{}{}:
				case <-stop:
					return
				}
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				done[i] <- work(i)
			}
		})
	}
	var err error
	for i := range n {
		r := <-done[i]
		<-window
		if err = emit(i, r); err != nil {
			break
		}
	}
	close(stop)
	wg.Wait()
	return err
}
