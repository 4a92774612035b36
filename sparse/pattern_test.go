package sparse

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestMulPatternMatchesMulDense checks that MulPattern of a binary matrix
// gives MulDense's bits, at widths with and without a partial block of
// four columns, with rows that gather the last rows of b (read past the
// padded width by the scalar loop), on one core and on several.
func TestMulPatternMatchesMulDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, k := range []int{1, 2, 3, 4, 5, 7, 48, 50, 52, 100} {
		for _, shape := range [][2]int{{1, 1}, {3, 2}, {40, 30}, {200, 61}} {
			a := randomCSR(rng, shape[0], shape[1], 0.4).Binarized()
			// Rows that hold the last column, so that the last row of b
			// is gathered.
			a = withLastColumn(t, a)
			b := randomDense(rng, shape[1], k)
			for _, procs := range []int{1, 4} {
				withProcs(procs, func() {
					want, got := mat.NewDense(shape[0], k, nil), mat.NewDense(shape[0], k, nil)
					if err := MulDense(want, a, b); err != nil {
						t.Fatal(err)
					}
					got.Apply(func(_, _ int, _ float64) float64 { return math.NaN() }, got) // stale values must go
					if err := MulPattern(got, a, b); err != nil {
						t.Fatal(err)
					}
					for i := 0; i < shape[0]; i++ {
						for j := 0; j < k; j++ {
							if g, w := got.At(i, j), want.At(i, j); math.Float64bits(g) != math.Float64bits(w) {
								t.Fatalf("k %d, %v, %d cores: (%d, %d) = %v, MulDense %v", k, shape, procs, i, j, g, w)
							}
						}
					}
				})
			}
		}
	}
}

// withLastColumn returns binary a with an entry in its last column in every
// other row.
func withLastColumn(t *testing.T, a *CSR) *CSR {
	t.Helper()
	var ts []Triplet
	for i := 0; i < a.Rows; i++ {
		cols, _ := a.Row(i)
		for _, j := range cols {
			ts = append(ts, Triplet{i, int(j), 1})
		}
		if i%2 == 0 && (len(cols) == 0 || int(cols[len(cols)-1]) != a.Cols-1) {
			ts = append(ts, Triplet{i, a.Cols - 1, 1})
		}
	}
	m, err := FromTriplets(a.Rows, a.Cols, ts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMulPatternIgnoresValues checks that stored values count as 1.
func TestMulPatternIgnoresValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	a := randomCSR(rng, 30, 20, 0.3)
	if a.IsBinary() {
		t.Fatal("randomCSR returned a binary matrix")
	}
	b := randomDense(rng, 20, 6)
	want, got := mat.NewDense(30, 6, nil), mat.NewDense(30, 6, nil)
	if err := MulDense(want, a.Binarized(), b); err != nil {
		t.Fatal(err)
	}
	if err := MulPattern(got, a, b); err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(got, want) {
		t.Fatalf("MulPattern = %v, want %v", mat.Formatted(got), mat.Formatted(want))
	}
	if !a.Binarized().IsBinary() {
		t.Fatal("IsBinary is false for a binarized matrix")
	}
}

// TestMulPatternErrors checks the shape and argument errors.
func TestMulPatternErrors(t *testing.T) {
	a := Zeros(3, 4)
	for _, c := range []struct {
		dst, b *mat.Dense
		a      *CSR
		want   string
	}{
		{mat.NewDense(3, 2, nil), mat.NewDense(5, 2, nil), a, "shape mismatch"},
		{mat.NewDense(2, 2, nil), mat.NewDense(4, 2, nil), a, "shape mismatch"},
		{mat.NewDense(3, 2, nil), mat.NewDense(4, 2, nil), nil, "nil sparse matrix"},
		{nil, mat.NewDense(4, 2, nil), a, "nil destination"},
	} {
		err := MulPattern(c.dst, c.a, c.b)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("MulPattern: error %v, want %q", err, c.want)
		}
	}
	// An empty a with zero rows gives nothing to compute.
	if err := MulPattern(&mat.Dense{}, Zeros(0, 4), mat.NewDense(4, 2, nil)); err != nil {
		t.Errorf("zero rows: %v", err)
	}
}

// TestTMulPatternMatchesMulPattern checks that TMulPattern(a, b) gives the
// bits of MulPattern over aᵀ, stored values taken as 1, at widths with and
// without a partial block of four columns, with the last row of b
// scattered (copied to a padded row), with empty rows and columns, on one
// core and on several (several tiles per worker, a tile per worker).
func TestTMulPatternMatchesMulPattern(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, k := range []int{1, 2, 3, 4, 5, 7, 48, 50, 52, 100} {
		for _, shape := range [][2]int{{1, 1}, {2, 3}, {30, 40}, {61, 200}, {300, 20}} {
			a := randomCSR(rng, shape[0], shape[1], 0.4)
			// Every other column's entries in the last row, so that the
			// last row of b is scattered.
			at := withLastColumn(t, a.T()).T()
			b := randomDense(rng, shape[0], k)
			for _, procs := range []int{1, 4} {
				withProcs(procs, func() {
					want, got := mat.NewDense(shape[1], k, nil), mat.NewDense(shape[1], k, nil)
					if err := MulPattern(want, at.T(), b); err != nil {
						t.Fatal(err)
					}
					got.Apply(func(_, _ int, _ float64) float64 { return math.NaN() }, got) // stale values must go
					if err := TMulPattern(got, at, b); err != nil {
						t.Fatal(err)
					}
					for i := 0; i < shape[1]; i++ {
						for j := 0; j < k; j++ {
							if g, w := got.At(i, j), want.At(i, j); math.Float64bits(g) != math.Float64bits(w) {
								t.Fatalf("k %d, %v, %d cores: (%d, %d) = %v, MulPattern over aᵀ %v", k, shape, procs, i, j, g, w)
							}
						}
					}
				})
			}
		}
	}
}

// TestTMulPatternErrors checks the shape and argument errors.
func TestTMulPatternErrors(t *testing.T) {
	a := Zeros(3, 4)
	for _, c := range []struct {
		dst, b *mat.Dense
		a      *CSR
		want   string
	}{
		{mat.NewDense(4, 2, nil), mat.NewDense(5, 2, nil), a, "shape mismatch"},
		{mat.NewDense(3, 2, nil), mat.NewDense(3, 2, nil), a, "shape mismatch"},
		{mat.NewDense(4, 2, nil), mat.NewDense(3, 2, nil), nil, "nil sparse matrix"},
		{nil, mat.NewDense(3, 2, nil), a, "nil destination"},
	} {
		err := TMulPattern(c.dst, c.a, c.b)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("TMulPattern: error %v, want %q", err, c.want)
		}
	}
	// No rows: the product is zero.
	got := mat.NewDense(4, 2, []float64{1, 1, 1, 1, 1, 1, 1, 1})
	if err := TMulPattern(got, Zeros(0, 4), &mat.Dense{}); err != nil {
		t.Fatalf("zero rows: %v", err)
	}
	if !mat.Equal(got, mat.NewDense(4, 2, nil)) {
		t.Errorf("zero rows: %v, want zeros", mat.Formatted(got))
	}
}
