package parallel

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

func TestForCoversRangeOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 1000} {
		seen := make([]int, n)
		For(n, 1, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				seen[i]++
			}
		})
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("n=%d: index %d visited %d times", n, i, c)
			}
		}
	}
}

func TestForWeightedCoversRangeOnce(t *testing.T) {
	cases := [][]int{
		{0},
		{0, 5},
		{0, 0, 0, 0},
		{0, 100, 100, 101, 250, 250, 900},
		{3, 4, 5, 6, 7, 8, 9, 10, 11},
	}
	for _, prefix := range cases {
		n := len(prefix) - 1
		seen := make([]int, n)
		var mu sync.Mutex
		workers := map[int]bool{}
		ForWeighted(prefix, 1, func(b, lo, hi int) {
			mu.Lock()
			if workers[b] {
				t.Errorf("worker index %d used twice", b)
			}
			workers[b] = true
			mu.Unlock()
			if b < 0 || b >= Workers() {
				t.Errorf("worker index %d out of range", b)
			}
			for i := lo; i < hi; i++ {
				seen[i]++
			}
		})
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("prefix %v: index %d visited %d times", prefix, i, c)
			}
		}
	}
}

func TestForDynamicCoversRangeOnce(t *testing.T) {
	for _, c := range []struct{ n, chunk, workers int }{
		{0, 1, 0}, {1, 1, 0}, {1, 16, 4}, {7, 1, 3}, {7, 3, 8}, {1000, 16, 0}, {1000, 1, 5}, {1001, 64, 2}, {10, 0, 2}, {50, 7, 1},
	} {
		seen := make([]int, c.n)
		want := c.workers
		if want < 1 {
			want = Workers()
		}
		busy := make([]atomic.Bool, want)
		next := 0 // the chunk one worker must see next
		err := ForDynamic(context.Background(), c.n, c.chunk, c.workers, func(w, lo, hi int) error {
			if w < 0 || w >= want {
				t.Errorf("%+v: worker index %d out of range", c, w)
				return nil
			}
			if busy[w].Swap(true) {
				t.Errorf("%+v: worker index %d used by two goroutines at once", c, w)
			}
			defer busy[w].Store(false)
			if hi <= lo || hi-lo > max(c.chunk, 1) {
				t.Errorf("%+v: chunk [%d,%d)", c, lo, hi)
			}
			if want == 1 {
				if lo != next {
					t.Errorf("%+v: chunk [%d,%d) after [..,%d)", c, lo, hi, next)
				}
				next = hi
			}
			for i := lo; i < hi; i++ {
				seen[i]++
			}
			return nil
		})
		if err != nil {
			t.Errorf("%+v: %v", c, err)
		}
		for i, k := range seen {
			if k != 1 {
				t.Fatalf("%+v: index %d visited %d times", c, i, k)
			}
		}
	}
}

func TestForDynamicStopsOnError(t *testing.T) {
	boom := errors.New("boom")
	for _, workers := range []int{1, 4} {
		var calls atomic.Int64
		err := ForDynamic(context.Background(), 1000, 1, workers, func(_, lo, _ int) error {
			calls.Add(1)
			if lo == 10 {
				return boom
			}
			return nil
		})
		if err != boom {
			t.Fatalf("%d workers: error %v, want %v", workers, err, boom)
		}
		// Chunks are handed out in order, and none after the error.
		if n := calls.Load(); workers == 1 && n != 11 {
			t.Errorf("one worker: %d chunks ran, want 11", n)
		}
	}
}

func TestForDynamicCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran := false
	if err := ForDynamic(ctx, 100, 1, 2, func(_, _, _ int) error { ran = true; return nil }); err != context.Canceled {
		t.Errorf("cancelled before: error %v, want %v", err, context.Canceled)
	}
	if ran {
		t.Error("cancelled before: fn ran")
	}
	if err := ForDynamic(ctx, 0, 1, 2, func(_, _, _ int) error { return nil }); err != context.Canceled {
		t.Errorf("empty range, cancelled: error %v, want %v", err, context.Canceled)
	}

	for _, workers := range []int{1, 3} {
		ctx, cancel := context.WithCancel(context.Background())
		var calls atomic.Int64
		err := ForDynamic(ctx, 1000, 1, workers, func(_, lo, _ int) error {
			calls.Add(1)
			if lo == 20 {
				cancel()
			}
			return nil
		})
		cancel()
		if err != context.Canceled {
			t.Errorf("%d workers, cancelled during: error %v, want %v", workers, err, context.Canceled)
		}
		if n := calls.Load(); workers == 1 && n != 21 {
			t.Errorf("one worker: %d chunks ran after cancelling at chunk 20, want 21", n)
		}
	}
}
