package nmf

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/rng"
)

// TestGramRowsMatchesMul holds gramRows to the bits of gonum's
// Dense.Mul(h, hᵀ), which FixedH's Gram matrix was before, on both sides
// of Dgemm's change of path at 64 rows and with terms that are and are not
// a multiple of its 64-term chunks.
func TestGramRowsMatchesMul(t *testing.T) {
	r := rng.NewCompat(3, 1)
	for _, c := range []struct{ k, m int }{{1, 5}, {3, 130}, {64, 1000}, {65, 1000}, {90, 2221}, {130, 640}} {
		h := mat.NewDense(c.k, c.m, nil)
		raw := h.RawMatrix().Data
		for i := range raw {
			if r.Float64() < 0.7 {
				raw[i] = r.Float64() * 3
			}
		}
		var want mat.Dense
		want.Mul(h, h.T())
		got := gramRows(h)
		for i := range c.k {
			for j := range c.k {
				if w := want.At(i, j); math.Float64bits(got[i*c.k+j]) != math.Float64bits(w) {
					t.Fatalf("k %d, terms %d: [%d][%d] = %v, Mul %v", c.k, c.m, i, j, got[i*c.k+j], w)
				}
			}
		}
	}
}
