package ssnmf

import (
	"context"
	"testing"

	"github.com/semitopic/semitopic/datasets"
	"github.com/semitopic/semitopic/internal/datadir"
	"github.com/semitopic/semitopic/metrics"
)

// TestNewsgroups fits the paper's best model on the SSNMF 20 Newsgroups
// protocol (one seed, tf-idf fitted on the training documents) and checks
// its validation accuracy against the paper's range (≈ 81–82% on test).
func TestNewsgroups(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the 20 Newsgroups fit in -short mode")
	}
	path := datadir.Require(t, "20news-bydate/20news-bydate.tar.gz")
	ctx := context.Background()
	ds, err := datasets.SSNMF20News(ctx, path, datasets.SSNMF20NewsOptions{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	y, _, err := OneHot(ds.Train.Class, len(ds.ClassNames))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Fit(ctx, ds.Train.X, Config{K: 13, Losses: DF, Y: y, Lambda: 100, Tol: 1e-3, MaxIter: 50, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	res.Represent = TransformConfig{Seed: 3}
	p, err := res.Predict(ctx, ds.Val.X)
	if err != nil {
		t.Fatal(err)
	}
	acc, err := metrics.Accuracy(ds.Val.Class, metrics.ArgmaxRows(p))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("(D,F)-SSNMF: %d iterations, validation accuracy %.4f", res.Iterations, acc)
	if acc < 0.78 {
		t.Errorf("validation accuracy %.4f, want ≥ 0.78 (the paper reports 81.88%% test accuracy)", acc)
	}
	top, err := res.TopTerms(ds.Vocab, 10)
	if err != nil || len(top) != 13 {
		t.Fatalf("top terms: %v", err)
	}
}
