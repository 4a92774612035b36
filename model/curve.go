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
// from all but one fold. From the two points the estimate extrapolates to
// the kept model, which learns from every labeled document: with few
// labels, accuracy still rises steeply with their number, and a
// cross-validated mean alone underestimates the model it chose
// (curveGain).
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
	// cost as many fits as a candidate for no change to the estimate.
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
// on the turned folds of cv (smallFolds). It leaves s.Curve nil when the
// folds cannot be turned.
func (s *Search) measureCurve(ctx context.Context, x *sparse.CSR, vocab []string, sup Supervision, idx [][]int, cv []cvFold, idf []float64, terms *sparse.CSR, seed uint64, report progress.Func) error {
	small := smallFolds(idx, cv)
	if len(small) == 0 {
		return nil
	}
	c := s.ChosenCandidate().Options
	lc := &LearningCurve{Share: 1 / float64(s.Folds)}
	var svms []float64
	for f, fold := range small {
		sv, err := svmFoldAccuracy(ctx, terms, idx, fold, seed)
		if err != nil {
			return fmt.Errorf("model: automatic configuration, learning curve of the linear SVM, fold %d: %w", f+1, err)
		}
		svms = append(svms, sv)
		lc.Scored += len(fold.test)
	}
	lc.SVM = newEstimate(svms).Accuracy
	s.Curve = lc
	if flatCurve(curveGain(s.SVM.Accuracy, lc.SVM, s.Scored, lc.Scored, s.Folds)) {
		return nil
	}
	var accs []float64
	for f, fold := range small {
		fa, _, status, err := foldAccuracies(ctx, x, vocab, sup, idx, fold, c, []string{c.Readout}, idf, report)
		if err != nil {
			return fmt.Errorf("model: automatic configuration, learning curve of %s, fold %d: %w", describeSettings(c), f+1, err)
		}
		lc.Fits++
		if status == progress.IterationLimit {
			s.AtLimit++
		}
		accs = append(accs, fa[0])
	}
	lc.Accuracy = newEstimate(accs).Accuracy
	s.Fits += lc.Fits
	return nil
}
