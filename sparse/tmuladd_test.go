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
		if err := TMulDenseAdd(got, a, nil, b); err != nil {
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
	if err := TMulDenseAdd(mat.NewDense(19, 4, nil), a, nil, mat.NewDense(10, 4, nil)); err == nil {
		t.Error("TMulDenseAdd accepted a destination of the wrong shape")
	}
	if err := TMulDenseAdd(mat.NewDense(20, 4, nil), a, make([]float64, 9), mat.NewDense(10, 4, nil)); err == nil {
		t.Error("TMulDenseAdd accepted 9 row scales for 10 rows")
	}
}

// TestTMulDenseAddScaled checks that row scales give the bits of scaling
// a's values first (the copy an out-of-core TS-NMF pass made of each
// block) and adding aᵀ·b of the scaled copy.
func TestTMulDenseAddScaled(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, k := range []int{4, 50, 52} {
		a := randomCSR(r, 300, 700, 0.05)
		b := randomDense(r, a.Rows, k)
		start := randomDense(r, a.Cols, k)
		scale := make([]float64, a.Rows)
		for i := range scale {
			scale[i] = 0.1 + 3*r.Float64()
		}
		c := *a
		c.Data = make([]float64, len(a.Data))
		for i := 0; i < a.Rows; i++ {
			for p := a.Indptr[i]; p < a.Indptr[i+1]; p++ {
				c.Data[p] = a.Data[p] * scale[i]
			}
		}
		want := mat.DenseCopyOf(start)
		if err := TMulDenseAdd(want, &c, nil, b); err != nil {
			t.Fatal(err)
		}
		got := mat.DenseCopyOf(start)
		if err := TMulDenseAdd(got, a, scale, b); err != nil {
			t.Fatal(err)
		}
		for j := 0; j < a.Cols; j++ {
			for q := 0; q < k; q++ {
				if g, w := got.At(j, q), want.At(j, q); math.Float64bits(g) != math.Float64bits(w) {
					t.Fatalf("k = %d: dst[%d,%d] = %v, the scaled copy gives %v", k, j, q, g, w)
				}
			}
		}
	}
}
