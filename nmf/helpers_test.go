package nmf

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/sparse"
)

// randomSparse returns an n × m sparse non-negative matrix with about a
// density fraction of stored entries, every row and column non-empty.
func randomSparse(n, m int, density float64, seed uint64) *sparse.CSR {
	rng := rand.New(rand.NewPCG(seed, 7))
	var ts []sparse.Triplet
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			if rng.Float64() < density || j == i%m || i == j%n {
				ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: rng.ExpFloat64()})
			}
		}
	}
	x, err := sparse.FromTriplets(n, m, ts)
	if err != nil {
		panic(err)
	}
	return x
}

// randomFactor returns an r × c matrix of Uniform(lo, lo+1) entries.
func randomFactor(r, c int, lo float64, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 11))
	f := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			f.Set(i, j, lo+rng.Float64())
		}
	}
	return f
}

// randomMask returns an r × c 0/1 matrix with about a fraction p of zeros,
// keeping at least one 1 per row.
func randomMask(r, c int, p float64, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 13))
	f := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if rng.Float64() >= p || j == i%c {
				f.Set(i, j, 1)
			}
		}
	}
	return f
}

// randomWeights returns n weights in [0.5, 3).
func randomWeights(n int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 17))
	e := make([]float64, n)
	for i := range e {
		e[i] = 0.5 + 2.5*rng.Float64()
	}
	return e
}

// denseObjective is the plain definition of the loss, written without any
// of the engine's tricks: weight(i, j) gives v_ij.
func denseObjective(x *mat.Dense, w, h *mat.Dense, loss Loss, weight func(i, j int) float64) float64 {
	var wh mat.Dense
	wh.Mul(w, h)
	n, m := x.Dims()
	total := 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			xv, v := x.At(i, j), wh.At(i, j)
			var term float64
			if loss == Frobenius {
				term = 0.5 * (xv - v) * (xv - v)
			} else {
				term = v - xv
				if xv > 0 {
					if v == 0 {
						v = Epsilon
					}
					term += xv * math.Log(xv/v)
				}
			}
			if weight != nil {
				term *= weight(i, j)
			}
			total += term
		}
	}
	return total
}

// relDiff returns |a−b| / max(|a|, |b|, tiny).
func relDiff(a, b float64) float64 {
	return math.Abs(a-b) / math.Max(math.Max(math.Abs(a), math.Abs(b)), 1e-300)
}

// maxRelDiff returns max |a−b| / max|a| over the entries of a and b.
func maxRelDiff(a, b *mat.Dense) float64 {
	scale := math.Max(mat.Norm(a, math.Inf(1)), 1e-300)
	var d mat.Dense
	d.Sub(a, b)
	return mat.Norm(&d, math.Inf(1)) / scale
}

// readFixture reads a MatrixMarket file from testdata.
func readFixture(t *testing.T, name string) *sparse.CSR {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := sparse.ReadMatrixMarket(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

// checkMonotone fails if the history ever increases by more than rounding.
func checkMonotone(t *testing.T, name string, hist []float64) {
	t.Helper()
	for i := 1; i < len(hist); i++ {
		if hist[i] > hist[i-1]*(1+1e-12) {
			t.Errorf("%s: objective increased at iteration %d: %.17g -> %.17g (rel %.3g)", name, i, hist[i-1], hist[i], (hist[i]-hist[i-1])/hist[i-1])
			return
		}
	}
}

// sparseFromDense converts a dense matrix to CSR.
func sparseFromDense(a *mat.Dense) *sparse.CSR { return sparse.FromDense(a) }
