package main

import (
	"math"
	"slices"
)

// quantile returns the q-quantile of xs, interpolated linearly between
// the order statistics (NumPy's default); NaN for no value.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	pos := q * float64(len(s)-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(s)-1)
	return s[lo] + (pos-float64(lo))*(s[hi]-s[lo])
}

// rate returns 100·k/n, NaN for n = 0.
func rate(k, n int) float64 {
	if n == 0 {
		return math.NaN()
	}
	return 100 * float64(k) / float64(n)
}
