package ops

import (
	"errors"
	"math/rand/v2"
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
