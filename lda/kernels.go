package lda

import (
	"context"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/semitopic/semitopic/internal/parallel"
)

// eps is scikit-learn's guard added to each φ normaliser: the machine
// epsilon of float64.
const eps = 0x1p-52

// dot returns Σ a[t]·b[t]; a and b have the same length. It is gonum's
// SIMD kernel, twice as fast as a Go loop at k = 20.
func dot(a, b []float64) float64 { return floats.Dot(a, b) }

// axpy adds r·x to y elementwise; x and y have the same length.
func axpy(y []float64, r float64, x []float64) { floats.AddScaled(y, r, x) }

// meanChange returns the mean absolute difference of a and b.
func meanChange(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for t, v := range a {
		s += math.Abs(v - b[t])
	}
	return s / float64(len(a))
}

// forDocs runs fn over [0, n) in chunks handed out dynamically to one
// goroutine per core (parallel.ForDynamic), so that documents needing many
// E-step iterations do not leave a core idle. fn receives the worker index w
// in [0, workers) for its scratch space. It stops early and returns
// ctx.Err() when ctx is done.
func forDocs(ctx context.Context, n, workers int, fn func(w, lo, hi int)) error {
	// Small chunks balance the load; at least 8 per worker.
	chunk := max(1, min(16, n/(8*workers)))
	return parallel.ForDynamic(ctx, n, chunk, workers, func(w, lo, hi int) error {
		fn(w, lo, hi)
		return nil
	})
}

// searchCol returns the first position p in ids with ids[p] >= j.
func searchCol(ids []int32, j int) int {
	lo, hi := 0, len(ids)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if int(ids[mid]) < j {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}
