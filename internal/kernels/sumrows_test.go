package kernels

import (
	"math"
	"slices"
	"testing"

	"github.com/semitopic/semitopic/internal/rng"
)

// TestSumRows compares the row sums in use (assembly where available) with
// the portable ones and with GatherSum with every value 1, bit for bit,
// for many widths, strides and lengths, adding to a dst that is not zero.
func TestSumRows(t *testing.T) {
	rng := rng.NewCompat(3, 1)
	for _, stride := range []int{4, 8, 16, 20, 48, 50, 52, 56, 64, 100, 101, 104, 120, 200} {
		rows := 29
		src := make([]float64, rows*stride+4)
		for i := range src {
			src[i] = rng.NormFloat64()
		}
		for _, n := range []int{0, 1, 2, 9, 10, 33} {
			idx := make([]int32, n)
			for p := range idx {
				idx[p] = int32(rng.IntN(rows))
			}
			ones := slices.Repeat([]float64{1}, n)
			for w := 4; w <= stride; w += 4 {
				start := make([]float64, w)
				for c := range start {
					start[c] = rng.NormFloat64()
				}
				got, port, want := slices.Clone(start), slices.Clone(start), slices.Clone(start)
				SumRows(got, idx, src, stride)
				sumRowsGeneric(port, idx, src, stride)
				GatherSum(want, ones, idx, src, stride, true)
				for c := range got {
					if math.Float64bits(got[c]) != math.Float64bits(want[c]) || math.Float64bits(port[c]) != math.Float64bits(want[c]) {
						t.Fatalf("stride %d, n %d, width %d: column %d: SumRows %v, portable %v, GatherSum %v", stride, n, w, c, got[c], port[c], want[c])
					}
				}
			}
		}
	}
}
