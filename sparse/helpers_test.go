package sparse

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomCSR returns a rows × cols matrix in which each entry is non-zero with
// probability density, with values in (-2, 2) \ {0}. Some rows and columns
// are forced empty so kernels see both.
func randomCSR(rng *rand.Rand, rows, cols int, density float64) *CSR {
	var ts []Triplet
	for i := 0; i < rows; i++ {
		if i%5 == 3 {
			continue // empty row
		}
		for j := 0; j < cols; j++ {
			if j%7 == 2 {
				continue // empty column
			}
			if rng.Float64() < density {
				v := rng.Float64()*4 - 2
				if v == 0 {
					v = 1
				}
				ts = append(ts, Triplet{i, j, v})
			}
		}
	}
	m, err := FromTriplets(rows, cols, ts)
	if err != nil {
		panic(err)
	}
	return m
}

// randomDense returns a rows × cols dense matrix with values in [0, 1); for
// an empty shape it returns an empty *mat.Dense.
func randomDense(rng *rand.Rand, rows, cols int) *mat.Dense {
	if rows == 0 || cols == 0 {
		return &mat.Dense{}
	}
	d := make([]float64, rows*cols)
	for i := range d {
		d[i] = rng.Float64()
	}
	return mat.NewDense(rows, cols, d)
}

// csrEqual reports whether a and b have the same shape, structure and values.
func csrEqual(a, b *CSR) bool {
	if a.Rows != b.Rows || a.Cols != b.Cols || len(a.Data) != len(b.Data) {
		return false
	}
	for i := range a.Indptr {
		if a.Indptr[i] != b.Indptr[i] {
			return false
		}
	}
	for p := range a.Data {
		if a.Indices[p] != b.Indices[p] || a.Data[p] != b.Data[p] {
			return false
		}
	}
	return true
}

// denseClose checks that got equals want to a relative tolerance, treating
// empty matrices as equal to any zero-sized shape.
func denseClose(t *testing.T, name string, got, want mat.Matrix, tol float64) {
	t.Helper()
	gr, gc := got.Dims()
	wr, wc := want.Dims()
	if gr != wr || gc != wc {
		t.Fatalf("%s: shape %d×%d, want %d×%d", name, gr, gc, wr, wc)
	}
	for i := 0; i < gr; i++ {
		for j := 0; j < gc; j++ {
			g, w := got.At(i, j), want.At(i, j)
			if !close(g, w, tol) {
				t.Fatalf("%s: (%d,%d) = %v, want %v", name, i, j, g, w)
			}
		}
	}
}

// close reports whether a and b agree to a relative tolerance (absolute near
// zero).
func close(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

func nanValue() float64 { return math.NaN() }
