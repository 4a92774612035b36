package ssnmf

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// OneHot returns the documents × classes target matrix of single-label
// classes (labels[i] in 0..classes−1) and the label row weights for
// Config.LabelRowWeights: 1 for a labeled document, 0 for a document whose
// label is −1 (unlabeled: partial supervision), whose row of Y is zero.
func OneHot(labels []int, classes int) (y *mat.Dense, weights []float64, err error) {
	if len(labels) == 0 {
		return nil, nil, fmt.Errorf("ssnmf: OneHot: no documents")
	}
	if classes < 1 {
		return nil, nil, fmt.Errorf("ssnmf: OneHot: %d classes", classes)
	}
	y = mat.NewDense(len(labels), classes, nil)
	weights = make([]float64, len(labels))
	for i, l := range labels {
		switch {
		case l == -1:
		case l < 0 || l >= classes:
			return nil, nil, fmt.Errorf("ssnmf: OneHot: document %d has class %d, want 0..%d or −1 (unlabeled)", i, l, classes-1)
		default:
			y.Set(i, l, 1)
			weights[i] = 1
		}
	}
	return y, weights, nil
}

// MultiHot returns the documents × labels target matrix of label sets
// (multi-label: Y[i][l] = 1 for each l in labels[i]). An empty set is a
// document with no label, which still supervises (all its targets are 0);
// give it label weight 0 to leave it unlabeled instead.
func MultiHot(labels [][]int, classes int) (*mat.Dense, error) {
	if len(labels) == 0 {
		return nil, fmt.Errorf("ssnmf: MultiHot: no documents")
	}
	if classes < 1 {
		return nil, fmt.Errorf("ssnmf: MultiHot: %d labels", classes)
	}
	y := mat.NewDense(len(labels), classes, nil)
	for i, ls := range labels {
		for _, l := range ls {
			if l < 0 || l >= classes {
				return nil, fmt.Errorf("ssnmf: MultiHot: document %d has label %d, want 0..%d", i, l, classes-1)
			}
			y.Set(i, l, 1)
		}
	}
	return y, nil
}

// Targets returns a documents × 1 target matrix of real values for
// regression. The models are non-negative (Y ≈ W·Bᵀ with W, B ≥ 0), so the
// values must be finite and non-negative: shift or rescale them first.
func Targets(values []float64) (*mat.Dense, error) {
	if len(values) == 0 {
		return nil, fmt.Errorf("ssnmf: Targets: no documents")
	}
	y := mat.NewDense(len(values), 1, nil)
	for i, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return nil, fmt.Errorf("ssnmf: Targets: value %v of document %d is not a finite non-negative number", v, i)
		}
		y.Set(i, 0, v)
	}
	return y, nil
}
