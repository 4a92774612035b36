package kernels

import (
	"github.com/semitopic/semitopic/internal/rng"
	"math"
	"testing"
)

// TestGatherPrimitives compares the kernels in use (assembly where
// available) with the portable versions for many widths, strides, lengths
// and both modes.
func TestGatherPrimitives(t *testing.T) {
	t.Logf("kernels: %s", Name())
	rng := rng.NewCompat(1, 1)
	for _, stride := range []int{4, 5, 7, 8, 12, 16, 20, 32, 36, 48, 50, 51, 64, 92, 100} {
		rows := 37
		src := make([]float64, rows*stride+4)
		for i := range src {
			src[i] = rng.NormFloat64()
		}
		for _, n := range []int{0, 1, 2, 3, 7, 16, 33} {
			vals := make([]float64, n)
			idx := make([]int32, n)
			for p := range vals {
				vals[p] = rng.NormFloat64()
				idx[p] = int32(rng.IntN(rows))
			}
			for c0 := 0; c0 < stride; c0 += 4 {
				w := (stride - c0) &^ 3 // widths are multiples of 4; the stride need not be
				for _, add := range []bool{false, true} {
					got := make([]float64, w+3)
					want := make([]float64, w+3)
					for i := range got {
						got[i] = float64(i)
						want[i] = float64(i)
					}
					GatherSum(got[:w], vals, idx, src[c0:], stride, add)
					gatherSumGeneric(want[:w], vals, idx, src[c0:], stride, add)
					for i := range got {
						if math.Abs(got[i]-want[i]) > 1e-12*(1+math.Abs(want[i])) {
							t.Fatalf("gatherSum stride %d n %d c0 %d add %v: [%d] = %g, want %g", stride, n, c0, add, i, got[i], want[i])
						}
					}
				}
			}
			a := make([]float64, stride&^3)
			for i := range a {
				a[i] = rng.NormFloat64()
			}
			got := make([]float64, n+1)
			want := make([]float64, n+1)
			got[n], want[n] = 42, 42
			DotsGather(got[:n], a, idx, src, stride)
			dotsGatherGeneric(want[:n], a, idx, src, stride)
			for i := range got {
				if math.Abs(got[i]-want[i]) > 1e-12*(1+math.Abs(want[i])) {
					t.Fatalf("dotsGather stride %d n %d: [%d] = %g, want %g", stride, n, i, got[i], want[i])
				}
			}
		}
	}
}
