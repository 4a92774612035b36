package kernels

import (
	"math"
	"slices"
	"testing"

	"github.com/semitopic/semitopic/internal/rng"
)

// TestSparseDot compares the sparse dot product in use (assembly where
// available) with the portable one, which must agree to the bit, and with
// a plain sum in entry order, which must agree to rounding, ten times for
// every length up to 40 (each tail of the four partial sums) and for some
// longer ones; the inputs must stay as they were, and PrefetchSparse must leave
// them so too.
func TestSparseDot(t *testing.T) {
	r := rng.NewCompat(7, 1)
	const cols = 97
	w := make([]float64, cols)
	for j := range w {
		w[j] = r.NormFloat64()
	}
	wKeep := slices.Clone(w)
	lengths := []int{}
	for range 10 {
		for n := 0; n <= 40; n++ {
			lengths = append(lengths, n)
		}
	}
	lengths = append(lengths, 63, 64, 65, 97, 1000)
	for _, n := range lengths {
		idx := make([]int32, n)
		vals := make([]float64, n)
		for q := range idx {
			idx[q] = int32(r.IntN(cols))
			vals[q] = r.NormFloat64() * math.Exp(4*r.NormFloat64())
		}
		idxKeep, valsKeep := slices.Clone(idx), slices.Clone(vals)
		PrefetchSparse(idx, vals)
		got := SparseDot(w, idx, vals)
		portable := sparseDotGeneric(w, idx, vals)
		want, scale := 0.0, 0.0
		for q, j := range idx {
			want += w[j] * vals[q]
			scale += math.Abs(w[j] * vals[q])
		}
		if math.Float64bits(got) != math.Float64bits(portable) {
			t.Fatalf("n = %d: SparseDot = %v, portable %v: want the same bits", n, got, portable)
		}
		if d := math.Abs(got - want); d > 1e-14*scale {
			t.Fatalf("n = %d: SparseDot = %v, the sum in order %v (difference %g, sum of magnitudes %g)", n, got, want, d, scale)
		}
		if !slices.Equal(idx, idxKeep) || !slices.Equal(vals, valsKeep) || !slices.Equal(w, wKeep) {
			t.Fatalf("n = %d: the inputs changed", n)
		}
	}
	// A NaN or an infinity among the products comes through.
	if got := SparseDot([]float64{1, math.Inf(1)}, []int32{0, 1, 0, 0, 0}, []float64{1, 1, 1, 1, 1}); !math.IsInf(got, 1) {
		t.Errorf("SparseDot with an infinite weight = %v, want +Inf", got)
	}
	if got := SparseDot([]float64{1, 2}, []int32{1, 0, 1}, []float64{1, math.NaN(), 1}); !math.IsNaN(got) {
		t.Errorf("SparseDot with a NaN value = %v, want NaN", got)
	}
}
