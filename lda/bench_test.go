package lda

import (
	"context"
	"testing"
)

// benchCorpus is a synthetic corpus the size of a small real one: 2,000
// documents of about 100 words over 2,000 terms.
func benchCorpus() synthetic { return plant(42, 20, 100, 2000, 100, 0.1) }

// BenchmarkEStep measures one training E-step over the corpus, with λ
// after two passes of batch training.
func BenchmarkEStep(b *testing.B) {
	syn := benchCorpus()
	ctx := context.Background()
	m, err := Fit(ctx, syn.x, Config{K: 20, MaxIter: 2, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	w := newWork(m, syn.x.Rows)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := m.eStep(ctx, w, syn.x, 0, syn.x.Rows, true, true); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(syn.x.NNZ())*float64(b.N)/b.Elapsed().Seconds(), "nnz/s")
}

// BenchmarkSufficientStats measures gathering the statistics after an
// E-step.
func BenchmarkSufficientStats(b *testing.B) {
	syn := benchCorpus()
	ctx := context.Background()
	m, err := Fit(ctx, syn.x, Config{K: 20, MaxIter: 2, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	w := newWork(m, syn.x.Rows)
	if _, err := m.eStep(ctx, w, syn.x, 0, syn.x.Rows, true, true); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.sufficientStats(w, syn.x, 0, syn.x.Rows)
	}
}

// BenchmarkFit measures Fit with the defaults (batch, 10 passes).
func BenchmarkFit(b *testing.B) {
	syn := benchCorpus()
	for _, method := range []Method{Batch, Online} {
		b.Run(method.String(), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := Fit(context.Background(), syn.x, Config{K: 20, Method: method, Seed: uint64(i)}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPerplexity measures Perplexity (an E-step from γ = 1 and the
// bound).
func BenchmarkPerplexity(b *testing.B) {
	syn := benchCorpus()
	ctx := context.Background()
	m, err := Fit(ctx, syn.x, Config{K: 20, MaxIter: 2, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := m.Perplexity(ctx, syn.x); err != nil {
			b.Fatal(err)
		}
	}
}
