package model

import (
	"math"
	"testing"
)

// tinyPredictions builds a record of two folds over labels 0 (big, ten
// labeled documents) and 1 (one labeled document, held out in fold 0 and
// so unseen there); hits says, per held-out document in order, whether
// the fold's model got it right.
func tinyPredictions(hits []bool) *Predictions {
	p := &Predictions{Labels: []string{"big", "small"}}
	for i := range 11 {
		l := 0
		if i == 10 {
			l = 1
		}
		p.Rows = append(p.Rows, i)
		p.Truth = append(p.Truth, []int{l})
	}
	folds := [][]int{{0, 2, 4, 6, 8, 10}, {1, 3, 5, 7, 9}}
	h := 0
	for _, test := range folds {
		var f FoldPredictions
		for _, i := range test {
			truth := p.Truth[i][0]
			pred := 1 - truth
			if hits[h] {
				pred = truth
			}
			h++
			f.Test, f.Model, f.SVM = append(f.Test, i), append(f.Model, pred), append(f.SVM, pred)
		}
		p.Folds = append(p.Folds, f)
	}
	return p
}

// A label whose only labeled document is held out is a certain miss in
// its fold, though the kept model learns it: the estimate credits it
// with the labels' recall at one document instead, and weights the
// labels by their shares of the documents without labels.
func TestEstimateClasses(t *testing.T) {
	hits := []bool{false, true, true, true, true, false, true, true, true, true, true}
	p := tinyPredictions(hits)
	mean, n := p.foldMean(EstimateModel)
	if n != 11 || math.Abs(mean-100*9.0/11) > 1e-9 {
		t.Fatalf("fold mean %.2f of %d, want 81.82 of 11", mean, n)
	}
	cc := p.classCurves(EstimateModel)
	if cc.Held[1] != 0 || cc.Held[0] != 10 || cc.Labeled[0] != 10 || cc.Labeled[1] != 1 {
		t.Fatalf("curves %+v", cc)
	}
	// Label 0: 9 of 10, no slope to move it (one size per fold); label
	// 1, measured nowhere, gets (9 hits + 1 pseudo-hit at chance 1/2 …)
	// moved to one document: with no slope, (9 + 1) / (10 + 2) ≈ 0.83.
	if math.Abs(cc.Recall[0]-0.9) > 1e-9 || math.Abs(cc.Recall[1]-10.0/12) > 1e-9 {
		t.Errorf("recalls %v, want 0.9 and 0.833", cc.Recall)
	}
	iv := p.Estimate(EstimateModel, 0)
	want := 100 * (10*0.9 + 1*10.0/12) / 11
	if math.Abs(iv.Accuracy-want) > 1e-9 || iv.Accuracy <= mean || iv.Shift != 0 || math.Abs(iv.Gain-(want-mean)) > 1e-9 {
		t.Errorf("estimate %+v, want %.2f above the mean %.2f", *iv, want, mean)
	}
	if !(iv.Low < iv.Accuracy && iv.Accuracy < iv.High) {
		t.Errorf("interval %+v", *iv)
	}
	// The documents without labels are nearly all of label 0: its recall
	// counts for nearly everything.
	p.Shares = []int{990, 10}
	iv = p.Estimate(EstimateModel, 2)
	if math.Abs(iv.Accuracy+2-90) > 0.5 || math.Abs(iv.Shift-(iv.Accuracy+2-want)) > 1e-9 || iv.Bias != 2 {
		t.Errorf("weighted by the shares: %+v, want label 0's recall 90 less the bias 2, and the shift from %.2f", *iv, want)
	}
}

// The learning curve: a label measured at two sizes gives the slope,
// and the recall at all its documents lies above the folds'.
func TestEstimateSlope(t *testing.T) {
	p := &Predictions{Labels: []string{"a", "b"}}
	// 12 documents of each label; fold f holds out documents with i%3 == f.
	for i := range 24 {
		p.Rows = append(p.Rows, i)
		p.Truth = append(p.Truth, []int{i % 2})
	}
	for f := range 3 {
		var fold, turned FoldPredictions
		for i := range 24 {
			if i%3 == f {
				// Folds (8 documents a label to learn from): 3 of 4 hits.
				fold.Test, fold.Model = append(fold.Test, i), append(fold.Model, i%2)
				if (i/3)%4 == 0 {
					fold.Model[len(fold.Model)-1] = 1 - i%2
				}
			} else {
				// Turned (4 a label): 1 of 2 hits.
				turned.Test, turned.Model = append(turned.Test, i), append(turned.Model, i%2)
				if i%4 < 2 {
					turned.Model[len(turned.Model)-1] = 1 - i%2
				}
			}
		}
		fold.SVM, turned.SVM = fold.Model, turned.Model
		p.Folds, p.Turned = append(p.Folds, fold), append(p.Turned, turned)
	}
	cc := p.classCurves(EstimateSVM)
	fr, _ := p.foldMean(EstimateSVM)
	if cc.Slope <= 0 {
		t.Fatalf("slope %v, want > 0 (recall rises from 4 to 8 documents)", cc.Slope)
	}
	for c, r := range cc.Recall {
		if r <= fr/100 {
			t.Errorf("label %d: recall at 12 documents %.3f, not above the folds' %.3f", c, r, fr/100)
		}
	}
	// The learning curve not measured (flatCurve): the turned folds hold
	// the SVM's predictions alone, and the SVM's estimate fits no slope
	// either, as if they were not there, so that it compares with the
	// kept model's like for like.
	svm := p.Estimate(EstimateSVM, 0)
	for f := range p.Turned {
		p.Turned[f].Model = nil
	}
	if cc := p.classCurves(EstimateSVM); cc.Slope != 0 {
		t.Errorf("turned folds with the SVM's predictions alone: SVM slope %v, want 0", cc.Slope)
	}
	flat := p.Estimate(EstimateSVM, 0)
	turned := p.Turned
	p.Turned = nil
	if none := p.Estimate(EstimateSVM, 0); *flat != *none || !(flat.Accuracy < svm.Accuracy) {
		t.Errorf("SVM estimate %+v with its turned folds alone, %+v without them, %+v with the curve measured: want the first two equal and below the third", *flat, *none, *svm)
	}
	p.Turned = turned
}

// Without the turned folds the folds measure a label at sizes a document
// or two apart; a slope fitted from them is noise and must not move the
// estimate. Here the fold that learned from more documents of label 0
// happens to hit them all and the other to miss half.
func TestClassCurvesNoSlopeWithoutTurnedFolds(t *testing.T) {
	p := &Predictions{Labels: []string{"a", "b"}}
	for i := range 12 {
		p.Rows = append(p.Rows, i)
		p.Truth = append(p.Truth, []int{i / 10}) // 10 of a, 2 of b
	}
	folds := [][]int{{0, 1, 2, 3, 10}, {4, 5, 6, 7, 8, 9, 11}}
	for f, test := range folds {
		var fp FoldPredictions
		for j, i := range test {
			pred := p.Truth[i][0]
			if f == 1 && j%2 == 0 {
				pred = 1 - pred
			}
			fp.Test, fp.Model, fp.SVM = append(fp.Test, i), append(fp.Model, pred), append(fp.SVM, pred)
		}
		p.Folds = append(p.Folds, fp)
	}
	if cc := p.classCurves(EstimateModel); cc.Slope != 0 {
		t.Errorf("slope %g from the folds alone, want 0", cc.Slope)
	}
}
