package model

import (
	"context"
	"testing"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/datadir"
	"github.com/semitopic/semitopic/vectorize"
)

// BenchmarkReutersSVMFolds times the automatic configuration's terms-only
// SVM on its 3 folds of Reuters' training set (as fit --kind tsnmf
// --labels-from-corpus makes them): each fold from zero, as svmFolds
// solves them, and each from the duals of the folds before it, the start
// it used to take; skipped without the corpus.
func BenchmarkReutersSVMFolds(b *testing.B) {
	path := datadir.Require(b, "reuters21578-nltk-apte/reuters.tar.gz")
	ctx := context.Background()
	c, err := corpus.ReutersNLTK{}.Read(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	c = c.Subset(corpus.SplitTrain)
	pl, err := vectorize.PipelinePreset(DefaultPreset(KindTSNMF))
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
	sup := Supervision{Labels: corpus.DocLabels(res.Docs)}
	_, idx := sup.labelIndex()
	cv := searchFolds(b, idx, 0)
	terms := termFeatures(res.X, termWeights(res.X))
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			if _, _, _, err := svmFolds(ctx, terms, idx, cv, 0, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("chained", func(b *testing.B) {
		for b.Loop() {
			var duals []*svmDuals
			for _, fold := range cv {
				_, _, d, err := svmFoldAccuracy(ctx, terms, idx, fold, 0, duals)
				if err != nil {
					b.Fatal(err)
				}
				duals = append(duals, d)
			}
		}
	})
}
