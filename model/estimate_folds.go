package model

import (
	"context"
	"fmt"

	"github.com/semitopic/semitopic/sparse"
)

// Predictions are what a search's estimates rest on, document by
// document: the labeled documents, and in each fold of the
// cross-validation (and of the learning curve's turned folds) the kept
// candidate's and the linear SVM's predictions for the held-out ones.
// Labels are indices into Labels, -1 where a model predicts none.
type Predictions struct {
	// Labels are the label names.
	Labels []string `json:"labels"`
	// Rows are the labeled documents (rows of the fitted matrix) and
	// Truth their labels, Truth[j] those of Rows[j].
	Rows  []int   `json:"rows"`
	Truth [][]int `json:"truth"`
	// Folds are the cross-validation's folds: each fold's models learn
	// from every labeled document outside its Test.
	Folds []FoldPredictions `json:"folds"`
	// Turned are the learning curve's folds (Search.Curve), Turned[f]
	// learning from Folds[f].Test alone; nil when not measured. Their
	// Model is nil when the kept candidate's curve was not measured
	// (LearningCurve.Fits).
	Turned []FoldPredictions `json:"turned,omitempty"`
	// Shares counts, per label, the documents without labels that the
	// kept model predicts it for (none: the final model is not yet
	// fitted, or every document has labels): the labels' shares of the
	// corpus, as far as the model can tell (see Estimate).
	Shares []int `json:"shares,omitempty"`
}

// FoldPredictions is one fold: its held-out documents (rows of the
// fitted matrix) and each model's first predicted label for each.
type FoldPredictions struct {
	Test  []int `json:"test"`
	Model []int `json:"model"`
	SVM   []int `json:"svm"`
}

// newPredictions starts the record of a search over the labels names of
// the documents idx, with the folds cv and the SVM's predictions in them.
func newPredictions(names []string, idx [][]int, cv []cvFold, svm [][]int) *Predictions {
	p := &Predictions{Labels: names}
	for i, ls := range idx {
		if len(ls) > 0 {
			p.Rows = append(p.Rows, i)
			p.Truth = append(p.Truth, ls)
		}
	}
	for f, fold := range cv {
		p.Folds = append(p.Folds, FoldPredictions{Test: fold.test, SVM: svm[f]})
	}
	return p
}

// firstLabels returns, for each document's predicted labels, the index
// in names of the first (-1 for none, or a name not among them).
func firstLabels(pred [][]string, names []string) []int {
	pos := make(map[string]int, len(names))
	for j, n := range names {
		pos[n] = j
	}
	out := make([]int, len(pred))
	for j, ls := range pred {
		out[j] = -1
		if len(ls) > 0 {
			if q, ok := pos[ls[0]]; ok {
				out[j] = q
			}
		}
	}
	return out
}

// setShares counts in s.Predictions.Shares the labels the final model m
// predicts for the rows of x that have no labels, and sets the estimates
// (setEstimates), which weigh the labels by them. Nothing scored, it does
// nothing.
func (s *Search) setShares(ctx context.Context, m Model, x *sparse.CSR) error {
	p := s.Predictions
	if p == nil {
		return nil
	}
	labeled := make([]bool, x.Rows)
	for _, i := range p.Rows {
		labeled[i] = true
	}
	var rows []int
	for i, l := range labeled {
		if !l {
			rows = append(rows, i)
		}
	}
	if pr, ok := m.(Predictor); ok && len(rows) > 0 {
		pred, err := pr.Predict(ctx, x.SelectRows(rows))
		if err != nil {
			return fmt.Errorf("model: automatic configuration, the labels' shares of the documents without labels: %w", err)
		}
		p.Shares = make([]int, len(p.Labels))
		for _, l := range firstLabels(pred.Labels, p.Labels) {
			if l >= 0 {
				p.Shares[l]++
			}
		}
	}
	s.setEstimates()
	return nil
}
