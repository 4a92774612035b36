package model

import (
	"math"
	"slices"
	"testing"
)

// The recorded predictions are the ones the folds were scored with: their
// hit rates give back each fold's accuracy, the kept candidate's and the
// SVM's, and the learning curve's SVM accuracy.
func TestPredictionsMatchFolds(t *testing.T) {
	f := fitDemo(t, Options{Kind: KindTSNMF, Seed: 3, Auto: true}, true)
	s := f.Info.Search
	p := s.Predictions
	if p == nil || len(p.Folds) != AutoFolds || len(p.Rows) != s.Labeled {
		t.Fatalf("predictions %+v", p)
	}
	truth := map[int][]int{}
	for j, i := range p.Rows {
		truth[i] = p.Truth[j]
	}
	rate := func(test, pred []int) float64 {
		if len(pred) != len(test) {
			t.Fatalf("%d predictions for %d documents", len(pred), len(test))
		}
		hits := 0
		for j, i := range test {
			if slices.Contains(truth[i], pred[j]) {
				hits++
			}
		}
		return 100 * float64(hits) / float64(len(test))
	}
	c := s.ChosenCandidate()
	for k, fold := range p.Folds {
		if got := rate(fold.Test, fold.Model); math.Abs(got-c.Folds[k]) > 1e-9 {
			t.Errorf("fold %d: kept candidate's predictions score %.2f, the fold %.2f", k, got, c.Folds[k])
		}
		if got := rate(fold.Test, fold.SVM); math.Abs(got-s.SVM.Folds[k]) > 1e-9 {
			t.Errorf("fold %d: SVM's predictions score %.2f, the fold %.2f", k, got, s.SVM.Folds[k])
		}
	}
	if s.Curve == nil || len(p.Turned) != AutoFolds {
		t.Fatalf("learning curve %+v, %d turned folds", s.Curve, len(p.Turned))
	}
	var svm, model float64
	for _, fold := range p.Turned {
		svm += rate(fold.Test, fold.SVM) / AutoFolds
		if s.Curve.Fits > 0 {
			model += rate(fold.Test, fold.Model) / AutoFolds
		}
	}
	if math.Abs(svm-s.Curve.SVM) > 1e-9 || (s.Curve.Fits > 0 && math.Abs(model-s.Curve.Accuracy) > 1e-9) {
		t.Errorf("turned folds score %.2f (SVM %.2f), the curve %+v", model, svm, *s.Curve)
	}
}
