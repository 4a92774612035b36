package parallel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers reports how many goroutines a parallel loop uses: GOMAXPROCS.
func Workers() int {
	w := runtime.GOMAXPROCS(0)
	if w < 1 {
		w = 1
	}
	return w
}

// For calls fn on contiguous blocks [lo, hi) that together cover [0, n),
// one block per worker, and waits for all of them. Blocks never overlap, so fn
// may write to per-index outputs without locking. For n below minPerBlock·2 it
// runs fn(0, n) on the calling goroutine.
func For(n, minPerBlock int, fn func(lo, hi int)) {
	if n <= 0 {
		return
	}
	w := Workers()
	if minPerBlock < 1 {
		minPerBlock = 1
	}
	if max := n / minPerBlock; w > max {
		w = max
	}
	if w <= 1 {
		fn(0, n)
		return
	}
	var wg sync.WaitGroup
	for b := 0; b < w; b++ {
		lo, hi := b*n/w, (b+1)*n/w
		if lo == hi {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(lo, hi)
		}()
	}
	wg.Wait()
}

// ForWeighted is For with blocks balanced by weight instead of count: prefix
// holds n+1 non-decreasing cumulative weights (a CSR row pointer is one), and
// each block receives about the same share of prefix[n]-prefix[0]. The worker
// index b (0 ≤ b < Workers()) is passed so callers can keep per-worker
// accumulators.
func ForWeighted(prefix []int, minWeight int, fn func(b, lo, hi int)) {
	n := len(prefix) - 1
	if n <= 0 {
		return
	}
	total := prefix[n] - prefix[0]
	w := Workers()
	if minWeight < 1 {
		minWeight = 1
	}
	if max := total / minWeight; w > max {
		w = max
	}
	if w > n {
		w = n
	}
	if w <= 1 {
		fn(0, 0, n)
		return
	}
	var wg sync.WaitGroup
	lo := 0
	for b := 0; b < w; b++ {
		hi := n
		if b < w-1 {
			target := prefix[0] + int(int64(total)*int64(b+1)/int64(w))
			hi = searchPrefix(prefix, lo, target)
		}
		if hi > lo {
			wg.Add(1)
			go func(b, lo, hi int) {
				defer wg.Done()
				fn(b, lo, hi)
			}(b, lo, hi)
		}
		lo = hi
	}
	wg.Wait()
}

// searchPrefix returns the smallest i in [lo, n] with prefix[i] >= target.
func searchPrefix(prefix []int, lo, target int) int {
	hi := len(prefix) - 1
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if prefix[mid] < target {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// ForDynamic calls fn on chunks [lo, hi) of at most chunk indices that
// together cover [0, n), handed out in increasing order to whichever of at
// most workers goroutines is free (Workers() of them when workers < 1, and
// never more than there are chunks), so that uneven work keeps every core
// busy. It waits for all of them; with one goroutine it runs on the calling
// one.
//
// fn receives the index w in [0, workers) of the goroutine running it. No two
// goroutines share an index, so callers may keep per-worker scratch state in
// a slice of workers entries and use it without locking. Which goroutine runs
// which chunk depends on timing: a result must not depend on w.
//
// ctx is checked before each chunk. Once ctx is done or fn has returned an
// error, no further chunk is handed out; the chunks under way finish.
// ForDynamic returns the first error fn returned, or else ctx.Err().
func ForDynamic(ctx context.Context, n, chunk, workers int, fn func(w, lo, hi int) error) error {
	if n <= 0 {
		return ctx.Err()
	}
	if workers < 1 {
		workers = Workers()
	}
	chunk = max(chunk, 1)
	workers = min(workers, (n-1)/chunk+1)
	var (
		next  atomic.Int64
		stop  atomic.Bool
		once  sync.Once
		first error
	)
	run := func(w int) {
		for !stop.Load() && ctx.Err() == nil {
			lo := int(next.Add(int64(chunk)) - int64(chunk))
			if lo >= n {
				return
			}
			if err := fn(w, lo, min(lo+chunk, n)); err != nil {
				once.Do(func() { first = err })
				stop.Store(true)
			}
		}
	}
	if workers == 1 {
		run(0)
	} else {
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Go(func() { run(w) })
		}
		wg.Wait()
	}
	if first != nil {
		return first
	}
	return ctx.Err()
}
