package model

import (
	"context"
	"fmt"
	"slices"

	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
)

// LearningCurve is a second point on the learning curve of the kept
// candidate and of the linear SVM: their cross-validated accuracy when
// each fold's model learns from one fold's labeled documents (Share of
// them) and is scored on the others', where the search's own folds learn
// from all but one fold. Its predictions give each label's learning curve
// a second size, from which the estimate carries each label's recall to
// all its labeled documents (classCurves): with few labels, accuracy still
// rises steeply with their number, and a cross-validated mean alone
// underestimates the model it chose. curveGain, over the two points,
// decides whether the point is worth measuring (flatCurve).
type LearningCurve struct {
	Share    float64 `json:"share"`
	Accuracy float64 `json:"accuracy"`
	SVM      float64 `json:"svm"`
	// Scored counts the held-out documents scored, over all the folds.
	Scored int `json:"scored"`
	// Fits counts the kept candidate's fits made to measure its point. It
	// is 0, and Accuracy not measured, when the SVM's curve shows the
	// labels' gain from two thirds to all of them to be surely under a
	// point (flatCurve): with thousands of labels the candidate's would
	// cost as many fits as a candidate for a change under a point; the
	// estimates then fit no slope, the SVM's as the kept model's
	// (classCurves), so that they compare like for like.
	Fits int `json:"fits"`
}

// flatCurve reports whether a gain (points) with standard error se is
// surely under a point: not worth measuring another curve for.
func flatCurve(gain, se float64) bool { return gain+2*se < 1 }

// smallFolds turns the folds cv around: each learns from one fold's
// held-out documents and is scored on every other labeled document. It
// returns nil when some turned fold's documents hold fewer than two
// labels, from which no model learns to tell labels apart.
func smallFolds(idx [][]int, cv []cvFold) []cvFold {
	var out []cvFold
	for _, f := range cv {
		seen := map[int]bool{}
		for _, i := range f.test {
			for _, l := range idx[i] {
				seen[l] = true
			}
		}
		if len(seen) < 2 {
			return nil
		}
		turned := cvFold{train: f.test}
		for _, i := range f.train {
			turned.test = append(turned.test, i)
			if !slices.ContainsFunc(idx[i], func(l int) bool { return seen[l] }) {
				turned.unseen++
			}
		}
		out = append(out, turned)
	}
	return out
}

// measureCurve measures s.Curve: the chosen candidate and the linear SVM
// on the turned folds of r's folds (smallFolds), the candidate's fits made
// as r makes a round of the search's. It leaves s.Curve nil when the folds
// cannot be turned.
func (s *Search) measureCurve(ctx context.Context, r *racer, terms *sparse.CSR, seed uint64) error {
	small := smallFolds(r.idx, r.cv)
	if len(small) == 0 {
		return nil
	}
	svm, svmPred, _, err := svmFolds(ctx, terms, r.idx, small, seed, r.duals)
	if err != nil {
		return fmt.Errorf("learning curve: %w", err)
	}
	if p := s.Predictions; p != nil {
		for f, fold := range small {
			p.Turned = append(p.Turned, FoldPredictions{Test: fold.test, SVM: svmPred[f]})
		}
	}
	lc := &LearningCurve{Share: 1 / float64(s.Folds), SVM: svm.Accuracy}
	for _, fold := range small {
		lc.Scored += len(fold.test)
	}
	s.Curve = lc
	if flatCurve(curveGain(s.SVM.Accuracy, lc.SVM, s.Scored, lc.Scored, s.Folds)) {
		return nil
	}
	c := s.ChosenCandidate().Options
	turned := *r
	turned.cv, turned.readouts, turned.keep = small, []string{c.Readout}, false
	if d := s.ChosenCandidate().duals; len(d) > 0 {
		// Its terms+topics readouts start from the candidate's own on the
		// search's folds, as the kept model's does.
		turned.duals = d
	}
	folds := make([]int, len(small))
	res := [][]raceResult{make([]raceResult, len(small))}
	for f := range folds {
		folds[f] = f
	}
	if err := turned.round(ctx, []Options{c}, folds, [][]bool{{true}}, res); err != nil {
		return fmt.Errorf("learning curve: %w", err)
	}
	var accs []float64
	for f, a := range res[0] {
		accs = append(accs, a.acc[0])
		if p := s.Predictions; p != nil {
			p.Turned[f].Model = a.pred[0]
		}
		lc.Fits++
		if a.status == progress.IterationLimit {
			s.AtLimit++
		}
	}
	lc.Accuracy = newEstimate(accs).Accuracy
	s.Fits += lc.Fits
	return nil
}
