package ssnmf

import (
	"context"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/sparse"
)

// benchText returns a sparse 5,000 × 5,000 matrix with 60 stored entries
// per row (the density of the 20 Newsgroups tf-idf) and one-hot targets of
// 5 classes.
func benchText() (*sparse.CSR, *mat.Dense) {
	r := rand.New(rand.NewPCG(1, 2))
	const n, m, per = 5000, 5000, 60
	var ts []sparse.Triplet
	class := make([]int, n)
	for i := 0; i < n; i++ {
		class[i] = i % 5
		for p := 0; p < per; p++ {
			ts = append(ts, sparse.Triplet{Row: i, Col: r.IntN(m), Val: r.Float64()})
		}
	}
	x, err := sparse.FromTriplets(n, m, ts)
	if err != nil {
		panic(err)
	}
	y, _, _ := OneHot(class, 5)
	return x, y
}

// BenchmarkFitSparse times 10 iterations of each model on text-like sparse
// data at rank 13 (the 20 Newsgroups setting).
func BenchmarkFitSparse(b *testing.B) {
	x, y := benchText()
	for _, m := range Models() {
		b.Run(m.Slug(), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := Fit(context.Background(), x, Config{K: 13, Losses: m, Y: y, Lambda: 100, MaxIter: 10, Tol: 1e-300}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFitDense times 10 iterations of each model on the synthetic
// experiment's dense 500 × 500 data and targets at rank 5.
func BenchmarkFitDense(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	x, y := randomDense(500, 500, 1, r), randomDense(500, 500, 1, r)
	for _, m := range Models() {
		b.Run(m.Slug(), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := Fit(context.Background(), x, Config{K: 5, Losses: m, Y: y, Lambda: 1, MaxIter: 10, Tol: -1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
