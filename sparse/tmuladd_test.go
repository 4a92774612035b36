package sparse

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestTMulDenseAdd checks that TMulDenseAdd adds aᵀ·b to what dst holds
// with the bits of a loop over the rows of aᵀ that adds each rounded
// product a[i,j]·b[i,c] in turn (the out-of-core NMF pass's running
// total), at widths on and off the kernels' multiples of 4, and that it
// refuses a wrong shape.
func TestTMulDenseAdd(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, k := range []int{4, 8, 50, 52} {
		a := randomCSR(r, 300, 700, 0.05)
		b := randomDense(r, a.Rows, k)
		start := randomDense(r, a.Cols, k)
		got := mat.DenseCopyOf(start)
		if err := TMulDenseAdd(got, a, b); err != nil {
			t.Fatal(err)
		}
		at := a.T()
		want := mat.DenseCopyOf(start)
		for j := 0; j < at.Rows; j++ {
			for p := at.Indptr[j]; p < at.Indptr[j+1]; p++ {
				for c := 0; c < k; c++ {
					prod := at.Data[p] * b.At(int(at.Indices[p]), c)
					want.Set(j, c, want.At(j, c)+prod)
				}
			}
		}
		for j := 0; j < a.Cols; j++ {
			for c := 0; c < k; c++ {
				if g, w := got.At(j, c), want.At(j, c); math.Float64bits(g) != math.Float64bits(w) {
					t.Fatalf("k = %d: dst[%d,%d] = %v, the loop gives %v", k, j, c, g, w)
				}
			}
		}
	}
	a := randomCSR(r, 10, 20, 0.3)
	if err := TMulDenseAdd(mat.NewDense(19, 4, nil), a, mat.NewDense(10, 4, nil)); err == nil {
		t.Error("TMulDenseAdd accepted a destination of the wrong shape")
	}
}
