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
	gain, _ := curveGain(s.ChosenCandidate().Accuracy, lc.Accuracy, s.Scored, lc.Scored, s.Folds)
	svmGain, _ := curveGain(s.SVM.Accuracy, lc.SVM, s.Scored, lc.Scored, s.Folds)
	if s.Estimate.Gain != gain || s.SVMEstimate.Gain != svmGain || svmGain <= 0 {
		t.Errorf("curve %+v, estimate %+v, SVM's %+v: want gains %.2f and %.2f > 0", *lc, *s.Estimate, *s.SVMEstimate, gain, svmGain)
	}
	if s.Fits != len(s.Candidates)/len(Readouts())*AutoFolds+AutoFolds+1 {
		t.Errorf("%d fits for %d candidates", s.Fits, len(s.Candidates))
	}
	t.Logf("labeled %d: curve %+v, estimate %+v", s.Labeled, *lc, *s.Estimate)
}
