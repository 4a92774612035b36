package lab

import (
	"fmt"
	"math"
)

// MeanSD returns the mean and sample standard deviation of xs (sd 0 for
// fewer than two values).
func MeanSD(xs []float64) (mean, sd float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	for _, x := range xs {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(xs)-1))
}

// PM formats mean ± sd of xs with the given decimals.
func PM(xs []float64, decimals int) string {
	m, s := MeanSD(xs)
	if len(xs) < 2 {
		return fmt.Sprintf("%.*f", decimals, m)
	}
	return fmt.Sprintf("%.*f ± %.*f", decimals, m, decimals, s)
}

// Mean returns the mean of xs (NaN for none).
func Mean(xs []float64) float64 { m, _ := MeanSD(xs); return m }

// OfN writes k of n as a percentage with one decimal and the counts,
// "75.0% (3/4)"; "—" when n is 0.
func OfN(k, n int) string {
	if n == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f%% (%d/%d)", 100*float64(k)/float64(n), k, n)
}
