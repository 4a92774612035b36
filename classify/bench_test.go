package classify

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/sparse"
)

// The benchmarks use 5,000 synthetic documents × 5,000 features (60 draws
// per document, 224k stored entries) and 5 classes, about the scale of the
// SSNMF paper's 20 Newsgroups training set (5,385 × 5,000, 279k entries).
func benchFit(b *testing.B, mk func() Classifier) {
	x, y := noisyWide(99, 5000, 5000, 5, 60)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := mk().Fit(ctx, x, y); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMultinomialNBFit(b *testing.B) {
	benchFit(b, func() Classifier { return &MultinomialNB{} })
}

func BenchmarkLinearSVCFit(b *testing.B) {
	benchFit(b, func() Classifier { return &LinearSVC{} })
}

func BenchmarkLogisticRegressionFit(b *testing.B) {
	benchFit(b, func() Classifier { return &LogisticRegression{} })
}

func BenchmarkLinearSVCPredict(b *testing.B) {
	x, y := noisyWide(99, 5000, 5000, 5, 60)
	s := &LinearSVC{}
	if err := s.Fit(context.Background(), x, y); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Predict(x); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProductMulDense times the classifiers' product, sparse.MulDense,
// for 5 classes.
func BenchmarkProductMulDense(b *testing.B) {
	x, _ := noisyWide(99, 5000, 5000, 5, 60)
	w := make([]float64, 5000*5)
	for i := range w {
		w[i] = float64(i%7) * 0.1
	}
	wt := mat.NewDense(5000, 5, w)
	dst := mat.NewDense(5000, 5, nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := sparse.MulDense(dst, x, wt); err != nil {
			b.Fatal(err)
		}
	}
}
