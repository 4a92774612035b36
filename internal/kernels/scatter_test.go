package kernels

import (
	"testing"

	"github.com/semitopic/semitopic/internal/rng"
)

// TestScatterAdd compares the scatter in use (assembly where available)
// with the portable one, which must agree to the bit, and with a plain
// loop, for many widths, strides, offsets and lengths; the rows no entry
// names must stay as they were.
func TestScatterAdd(t *testing.T) {
	r := rng.NewCompat(3, 1)
	for _, stride := range []int{4, 8, 20, 52, 100, 101, 104, 200} {
		const rows, off = 23, 5
		for _, n := range []int{0, 1, 2, 9, 23} {
			perm := r.Perm(rows)
			idx := make([]int32, n)
			vals := make([]float64, n)
			for p := range idx {
				idx[p] = int32(perm[p] + off)
				vals[p] = r.NormFloat64()
			}
			for w := 4; w <= stride; w += 4 {
				b := make([]float64, w)
				for c := range b {
					b[c] = r.NormFloat64()
				}
				start := make([]float64, rows*stride)
				for i := range start {
					start[i] = r.NormFloat64()
				}
				got := append([]float64(nil), start...)
				generic := append([]float64(nil), start...)
				want := append([]float64(nil), start...)
				ScatterAdd(got, stride, idx, off, vals, b)
				scatterAddGeneric(generic, stride, idx, off, vals, b)
				for p, v := range vals {
					row := want[(int(idx[p])-off)*stride:]
					for c, bc := range b {
						row[c] += float64(v * bc) // rounded: no fused multiply-add
					}
				}
				for i := range got {
					if got[i] != generic[i] || got[i] != want[i] {
						t.Fatalf("ScatterAdd stride %d n %d width %d: [%d] = %g (portable %g), want %g", stride, n, w, i, got[i], generic[i], want[i])
					}
				}
			}
		}
	}
}
