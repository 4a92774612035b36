package model

import (
	"context"
	"testing"

	"github.com/semitopic/semitopic/vectorize"
)

// With a few labeled documents per label, the turned folds learn from
// too few to know every label: the SVM's curve rises, the kept
// candidate's point is measured, and each estimate gains what its curve
// gives.
func TestLearningCurveMeasured(t *testing.T) {
	c := demoCorpus(t)
	per := map[string]int{}
	for i := range c.Docs {
		d := &c.Docs[i]
		if len(d.Labels) == 0 {
			continue
		}
		if per[d.Labels[0]] >= 3 {
			d.Labels = nil
			continue
		}
		per[d.Labels[0]]++
	}
	o := Options{Kind: KindTSNMF, Seed: 1, Auto: true, LabelsFromCorpus: true}
	f, err := fitCorpus(context.Background(), c, vectorize.DefaultPipeline(), o)
	if err != nil {
		t.Fatal(err)
	}
	s := f.Info.Search
	lc := s.Curve
	if lc == nil || lc.Fits != AutoFolds {
		t.Fatalf("learning curve %+v: want the kept candidate's %d fits", lc, AutoFolds)
	}
	if p := s.Predictions; p == nil || len(p.Turned) != AutoFolds || p.Turned[0].Model == nil || len(p.Shares) != s.Classes {
		t.Fatalf("predictions %+v", p)
	}
	est, svm := s.Predictions.Estimate(EstimateModel, s.Estimate.Bias), s.Predictions.Estimate(EstimateSVM, 0)
	if *est != *s.Estimate || *svm != *s.SVMEstimate || s.Predictions.classCurves(EstimateSVM).Slope <= 0 {
		t.Errorf("curve %+v, estimate %+v, SVM's %+v: want %+v and %+v, the SVM's curve rising", *lc, *s.Estimate, *s.SVMEstimate, *est, *svm)
	}
	if s.Fits != len(s.Candidates)/len(Readouts())*AutoFolds+AutoFolds+1 {
		t.Errorf("%d fits for %d candidates", s.Fits, len(s.Candidates))
	}
	t.Logf("labeled %d: curve %+v, estimate %+v", s.Labeled, *lc, *s.Estimate)
}
