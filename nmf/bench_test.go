package nmf

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/semitopic/semitopic/sparse"
)

// benchMatrix returns a synthetic documents × terms matrix shaped like the
// Reuters tf-idf benchmark: 10,000 × 2,000, about 40 terms per document
// drawn from a Zipf law over the vocabulary (so a few columns are dense,
// as in text), about 366,000 stored entries after duplicates are summed.
func benchMatrix() *sparse.CSR {
	const n, m = 10000, 2000
	rng := rand.New(rand.NewPCG(1, 2))
	zipf := rand.NewZipf(rng, 1.1, 10, m-1)
	var ts []sparse.Triplet
	for i := 0; i < n; i++ {
		for q := 0; q < 40; q++ {
			ts = append(ts, sparse.Triplet{Row: i, Col: int(zipf.Uint64()), Val: rng.Float64()})
		}
	}
	x, err := sparse.FromTriplets(n, m, ts)
	if err != nil {
		panic(err)
	}
	return x
}

// benchIterations times iterations of the sparse engine (k = 90) after its
// setup: b.N iterations of one fit, the objective computed at each.
func benchIterations(b *testing.B, loss Loss) {
	x := benchMatrix()
	k := 90
	d, err := checkData(x)
	if err != nil {
		b.Fatal(err)
	}
	w, h := initRandom(d, k, newRand(1))
	f := newSparseFit(Config{K: k, Loss: loss}, x, x.T(), w, h)
	b.ResetTimer()
	tr := &tracker{maxIter: b.N, tol: -1}
	if err := f.run(context.Background(), tr); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(x.NNZ()), "nnz")
}

// BenchmarkFrobeniusIteration is one Frobenius iteration (W and H updates
// and the objective) on a 10,000 × 2,000 sparse matrix with k = 90.
func BenchmarkFrobeniusIteration(b *testing.B) { benchIterations(b, Frobenius) }

// BenchmarkKLIteration is one KL iteration on the same matrix.
func BenchmarkKLIteration(b *testing.B) { benchIterations(b, KullbackLeibler) }
