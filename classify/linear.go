package classify

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/sparse"
)

// Linear is a fitted linear classifier reduced to its coefficients: what a
// LinearSVC or a LogisticRegression keeps to score new documents, in a form
// that can be saved and loaded. Scores are x·Coefᵀ + Intercept; with a single
// row of coefficients (a binary problem) they are −d and d for classes 0
// and 1, as LinearSVC.Scores.
type Linear struct {
	// Coef is problems × features; problems is the number of classes, or
	// 1 for a binary problem.
	Coef *mat.Dense
	// Intercept has one value per problem.
	Intercept []float64

	wt []float64 // Coefᵀ row by row
}

// NewLinear returns the linear classifier with the given coefficients
// (problems × features) and intercepts, checking their shapes and values.
func NewLinear(coef *mat.Dense, intercept []float64) (*Linear, error) {
	if coef == nil || coef.IsEmpty() {
		return nil, fmt.Errorf("classify: linear classifier without coefficients")
	}
	p, f := coef.Dims()
	if len(intercept) != p {
		return nil, fmt.Errorf("classify: %d intercepts for %d problems", len(intercept), p)
	}
	for i := 0; i < p; i++ {
		for j := 0; j < f; j++ {
			if v := coef.At(i, j); v != v || v > 1e300 || v < -1e300 {
				return nil, fmt.Errorf("classify: coefficient (%d, %d) is %v", i, j, v)
			}
		}
	}
	return &Linear{Coef: coef, Intercept: intercept, wt: transposed(coef)}, nil
}

// Linear returns the fitted SVM's coefficients as a Linear classifier.
func (s *LinearSVC) Linear() *Linear {
	return &Linear{Coef: denseCopy(s.coef), Intercept: append([]float64(nil), s.intercept...), wt: append([]float64(nil), s.wt...)}
}

// Linear returns the fitted model's coefficients as a Linear classifier
// (whose scores are the logits).
func (lr *LogisticRegression) Linear() *Linear {
	return &Linear{Coef: denseCopy(lr.coef), Intercept: append([]float64(nil), lr.intercept...), wt: append([]float64(nil), lr.wt...)}
}

// NumClasses returns the number of classes scored.
func (l *Linear) NumClasses() int {
	if len(l.Intercept) == 1 {
		return 2
	}
	return len(l.Intercept)
}

// Features returns the number of features.
func (l *Linear) Features() int { _, f := l.Coef.Dims(); return f }

// Scores returns the documents × classes scores of x.
func (l *Linear) Scores(x *sparse.CSR) (*mat.Dense, error) {
	if err := checkPredict("linear classifier", x, l.Features()); err != nil {
		return nil, err
	}
	wt := l.wt
	if wt == nil { // built as a struct literal
		wt = transposed(l.Coef)
	}
	d := linearScores(x, wt, len(l.Intercept), l.Intercept)
	if len(l.Intercept) != 1 {
		return d, nil
	}
	return twoClassScores(d), nil
}

// twoClassScores turns the single decision value d of a binary problem
// into the scores −d and d of classes 0 and 1.
func twoClassScores(d *mat.Dense) *mat.Dense {
	if d.IsEmpty() {
		return d
	}
	r, _ := d.Dims()
	out := mat.NewDense(r, 2, nil)
	for i := 0; i < r; i++ {
		v := d.At(i, 0)
		out.Set(i, 0, -v)
		out.Set(i, 1, v)
	}
	return out
}
