package kernels

import (
	"math"
	"testing"

	"github.com/semitopic/semitopic/internal/rng"
)

// TestGatherSum32 compares the float32 gather in use (assembly where
// available) with the portable one and with GatherSum on the widened
// float32 values, for many widths, strides, lengths and both modes.
func TestGatherSum32(t *testing.T) {
	rng := rng.NewCompat(2, 1)
	for _, stride := range []int{4, 8, 16, 20, 48, 52, 56, 64, 100, 101, 104, 120, 200} {
		rows := 29
		src64 := make([]float64, rows*stride+4)
		for i := range src64 {
			src64[i] = rng.NormFloat64()
		}
		src := make([]float32, len(src64))
		ToFloat32(src, src64)
		wide := make([]float64, len(src)) // the float32 values, exactly
		for i, v := range src {
			wide[i] = float64(v)
			if d := math.Abs(wide[i] - src64[i]); d > 0x1p-24*math.Abs(src64[i]) {
				t.Fatalf("ToFloat32: %g → %g, off by %g", src64[i], wide[i], d)
			}
		}
		for _, n := range []int{0, 1, 2, 9, 10, 33} {
			vals := make([]float64, n)
			idx := make([]int32, n)
			for p := range vals {
				vals[p] = rng.NormFloat64()
				idx[p] = int32(rng.IntN(rows))
			}
			if n > 2 {
				vals[1] = 0
			}
			for w := 4; w <= stride; w += 4 {
				for _, add := range []bool{false, true} {
					got := make([]float64, w+3)
					want := make([]float64, w+3)
					generic := make([]float64, w+3)
					for i := range got {
						got[i], want[i], generic[i] = float64(i), float64(i), float64(i)
					}
					GatherSum32(got[:w], vals, idx, src, stride, add)
					gatherSum32Generic(generic[:w], vals, idx, src, stride, add)
					GatherSum(want[:w], vals, idx, wide, stride, add)
					for i := range got {
						tol := 1e-12 * (1 + math.Abs(want[i]))
						if math.Abs(got[i]-want[i]) > tol || math.Abs(generic[i]-want[i]) > tol {
							t.Fatalf("GatherSum32 stride %d n %d width %d add %v: [%d] = %g (portable %g), want %g", stride, n, w, add, i, got[i], generic[i], want[i])
						}
					}
				}
			}
		}
	}
}

// BenchmarkGatherSum compares the float64 and float32 gathers of 100-wide
// rows from a matrix too large for the caches, as in NMF's updates at
// scale.
func BenchmarkGatherSum(b *testing.B) {
	const rows, k, n = 1 << 18, 100, 256
	rng := rng.NewCompat(3, 1)
	src64 := make([]float64, rows*k)
	for i := range src64 {
		src64[i] = rng.Float64()
	}
	src := make([]float32, len(src64))
	ToFloat32(src, src64)
	vals := make([]float64, n)
	idx := make([]int32, n)
	for p := range vals {
		vals[p] = rng.Float64()
		idx[p] = int32(rng.IntN(rows))
	}
	dst := make([]float64, k)
	b.Run("float64", func(b *testing.B) {
		for b.Loop() {
			GatherSum(dst, vals, idx, src64, k, false)
		}
	})
	b.Run("float32", func(b *testing.B) {
		for b.Loop() {
			GatherSum32(dst, vals, idx, src, k, false)
		}
	})
}
