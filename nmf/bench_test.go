package nmf

import (
	"context"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

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
	tr := &tracker{maxIter: b.N}
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

// benchTransform times Transform (Frobenius, the NNLS path) of the first
// 2,000 documents of benchMatrix with topics H (k × 2,000) fitted by 30
// iterations on all 10,000, so H has the uneven row scales and near-zero
// entries of real topics. One op is the whole 2,000-document batch: the
// Gram matrix, the right-hand sides and one NNLS solve per document.
func benchTransform(b *testing.B, k int) {
	x := benchMatrix()
	res, err := Fit(context.Background(), x, Config{K: k, Init: InitRandom, Seed: 1, MaxIter: 30, Tol: -1})
	if err != nil {
		b.Fatal(err)
	}
	rows := make([]int, 2000)
	for i := range rows {
		rows[i] = i
	}
	batch := x.SelectRows(rows)
	b.ResetTimer()
	for b.Loop() {
		if _, err := fixedTransform(batch, res.H, TransformConfig{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTransform is the NNLS inference path: a 2,000-document batch
// with k = 90 topics.
func BenchmarkTransform(b *testing.B) { benchTransform(b, 90) }

// BenchmarkTransformK300 is the same batch with k = 300 topics, the largest
// models Transform is used with.
func BenchmarkTransformK300(b *testing.B) { benchTransform(b, 300) }

// BenchmarkNNLS times the NNLS solver alone, on one goroutine: one op is
// one document's solve with the k = 90 topics of benchTransform (the Gram
// matrix prepared once, outside the timing), cycling over the 2,000
// documents' right-hand sides. It reports the outer iterations per solve.
func BenchmarkNNLS(b *testing.B) {
	const k, docs = 90, 2000
	x := benchMatrix()
	res, err := Fit(context.Background(), x, Config{K: k, Init: InitRandom, Seed: 1, MaxIter: 30, Tol: -1})
	if err != nil {
		b.Fatal(err)
	}
	rows := make([]int, docs)
	for i := range rows {
		rows[i] = i
	}
	rhs := mat.NewDense(docs, k, nil)
	if err := sparse.MulDense(rhs, x.SelectRows(rows), mat.DenseCopyOf(res.H.T())); err != nil {
		b.Fatal(err)
	}
	var g mat.Dense
	g.Mul(res.H, res.H.T())
	gm := newGram(copyRaw(&g), k)
	q := newNNLS(k)
	w := make([]float64, k)
	iters, i := 0, 0
	b.ResetTimer()
	for b.Loop() {
		iters += q.solve(w, gm, rhs.RawRowView(i%docs), nil)
		i++
	}
	b.ReportMetric(float64(iters)/float64(i), "iters/solve")
}
