package kernels

import (
	"math"
	"slices"
	"testing"

	"github.com/semitopic/semitopic/internal/rng"
)

// TestSparseAxpy compares the sparse axpy in use (assembly where
// available) with the portable one, bit for bit, for every length up to
// 40 (each tail of the unrolled loop) and some longer ones, with columns
// repeated within a row, which must be added in turn; idx and vals must
// stay as they were.
func TestSparseAxpy(t *testing.T) {
	r := rng.NewCompat(11, 1)
	const cols = 23
	lengths := []int{}
	for range 10 {
		for n := 0; n <= 40; n++ {
			lengths = append(lengths, n)
		}
	}
	lengths = append(lengths, 63, 64, 65, 97, 1000)
	for _, n := range lengths {
		w := make([]float64, cols)
		for j := range w {
			w[j] = r.NormFloat64()
		}
		idx := make([]int32, n)
		vals := make([]float64, n)
		for q := range idx {
			idx[q] = int32(r.IntN(cols))
			vals[q] = r.NormFloat64() * math.Exp(4*r.NormFloat64())
		}
		a := r.NormFloat64()
		idxKeep, valsKeep := slices.Clone(idx), slices.Clone(vals)
		got, want := slices.Clone(w), slices.Clone(w)
		SparseAxpy(got, idx, vals, a)
		sparseAxpyGeneric(want, idx, vals, a)
		for j := range got {
			if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
				t.Fatalf("n = %d: w[%d] = %v, portable %v: want the same bits", n, j, got[j], want[j])
			}
		}
		if !slices.Equal(idx, idxKeep) || !slices.Equal(vals, valsKeep) {
			t.Fatalf("n = %d: idx or vals changed", n)
		}
	}
	// Entries in order: 0 + 1e16 + 1 − 1e16 is 0 in floating point (the
	// 1 is lost), where adding the 1 last would leave 1.
	w := []float64{0}
	SparseAxpy(w, []int32{0, 0, 0, 0, 0}, []float64{1e16, 1, -1e16, 0, 0}, 1)
	if w[0] != 0 {
		t.Errorf("SparseAxpy added out of order: %v, want 0", w[0])
	}
}
