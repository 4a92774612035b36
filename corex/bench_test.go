package corex_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/semitopic/semitopic/corex"
	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/datadir"
	"github.com/semitopic/semitopic/internal/rng"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/vectorize"
)

// synthetic returns n documents over nv words in 20 planted groups, about
// 55 words per document: the shape of 20 Newsgroups at a smaller scale.
func synthetic(n, nv int) *sparse.CSR {
	r := rng.New(1, 0, 2)
	var ts []sparse.Triplet
	group := nv / 20
	for d := 0; d < n; d++ {
		g := r.Intn(20)
		seen := map[int]bool{}
		for k := 0; k < 55; k++ {
			w := r.Intn(nv)
			if k%2 == 0 {
				w = g*group + r.Intn(group)
			}
			if !seen[w] {
				seen[w] = true
				ts = append(ts, sparse.Triplet{Row: d, Col: w, Val: 1})
			}
		}
	}
	x, err := sparse.FromTriplets(n, nv, ts)
	if err != nil {
		panic(err)
	}
	return x
}

// BenchmarkIteration times CorEx iterations, 50 topics, on 2,000
// synthetic documents × 4,000 words.
func BenchmarkIteration(b *testing.B) {
	x := synthetic(2000, 4000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := corex.Fit(context.Background(), x, corex.Config{K: 50, MaxIter: 10, Tol: -1, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(10*b.N), "ms/iteration")
}

// BenchmarkFit20NG is the speed target: 50 topics on the 20
// Newsgroups training set as the reference notebook vectorizes it, at most
// 200 iterations (bench/corex/compare.sh puts it beside the reference).
func BenchmarkFit20NG(b *testing.B) {
	p := datadir.Require(b, "20news-bydate/20news-bydate.tar.gz")
	ctx := context.Background()
	c, err := corpus.Newsgroups{Subset: "train", RemoveHeaders: true, RemoveFooters: true, RemoveQuotes: true}.Read(ctx, filepath.Clean(p))
	if err != nil {
		b.Fatal(err)
	}
	pl, err := vectorize.PipelinePreset("corex")
	if err != nil {
		b.Fatal(err)
	}
	v, err := pl.New()
	if err != nil {
		b.Fatal(err)
	}
	res, err := v.FitTransform(ctx, c.Docs)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var m *corex.Model
	for i := 0; i < b.N; i++ {
		if m, err = corex.Fit(ctx, res.X, corex.Config{K: 50, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(m.TC, "TC-nats")
	b.ReportMetric(float64(m.Iterations), "iterations")
}
