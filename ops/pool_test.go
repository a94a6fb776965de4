package ops

import (
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"
)

func TestForEachOrdered(t *testing.T) {
	for _, jobs := range []int{1, 3, 16, 200} {
		var got []int
		err := forEachOrdered(100, jobs, func(i int) int {
			time.Sleep(time.Duration(rand.IntN(300)) * time.Microsecond)
			return i * i
		}, func(i, r int) error {
			if r != i*i {
				t.Errorf("result %d for item %d", r, i)
			}
			got = append(got, i)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range got {
			if v != i {
				t.Fatalf("jobs %d: emitted out of order: %v", jobs, got)
			}
		}
		if len(got) != 100 {
			t.Fatalf("jobs %d: %d items emitted", jobs, len(got))
		}
	}
	if err := forEachOrdered(0, 4, func(int) int { return 0 }, func(int, int) error { return errors.New("called") }); err != nil {
		t.Errorf("no items: %v", err)
	}
}

func TestForEachOrderedStops(t *testing.T) {
	stop := errors.New("stop")
	var emitted int
	err := forEachOrdered(10000, 4, func(i int) int { return i }, func(i, _ int) error {
		emitted++
		if i == 5 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || emitted != 6 {
		t.Errorf("err %v after %d emits, want stop after 6", err, emitted)
	}
}

// TestForEachOrderedWindow: work never runs more than jobs*16 items ahead
// of the last emitted one, even when the first item is the slowest, and
// after emit fails no item beyond that window is started.
func TestForEachOrderedWindow(t *testing.T) {
	const n, jobs = 2000, 3
	var started atomic.Int64
	emitted := 0
	stop := errors.New("stop")
	err := forEachOrdered(n, jobs, func(i int) int {
		started.Add(1)
		if i == 0 {
			time.Sleep(20 * time.Millisecond) // the others run ahead, up to the window
		}
		return i
	}, func(i, _ int) error {
		// Item i gave its place back before emit: the others started
		// and not emitted fill the window at most.
		if ahead := started.Load() - int64(emitted) - 1; ahead > jobs*16 {
			t.Errorf("at item %d: %d more items started and not emitted, window %d", i, ahead, jobs*16)
		}
		emitted++
		if i == 500 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("err %v, want stop", err)
	}
	if s := started.Load(); s > int64(emitted+jobs*16) { // emitted counts the failed emit
		t.Errorf("%d items started after %d emits, window %d", s, emitted, jobs*16)
	}
}
