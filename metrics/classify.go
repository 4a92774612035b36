package metrics

import (
	"errors"
	"fmt"
)

// PRF holds a precision, a recall and their harmonic mean F1.
type PRF struct {
	Precision, Recall, F1 float64
}

// ClassificationReport holds accuracy and precision, recall and F1 per class
// and averaged, with scikit-learn's definitions (accuracy_score and
// precision_recall_fscore_support, scikit-learn 1.2.1):
//
//   - precision_c = TP_c / predicted_c, recall_c = TP_c / true_c,
//     F1_c = 2PR/(P+R); a 0/0 is 0 (scikit-learn's zero_division="warn",
//     which returns 0 and warns; here there is no warning, the Support and
//     Predicted counts show where it happened);
//   - Micro: the same formulas on the sums of TP, predicted and true over
//     the averaged classes;
//   - Macro: the unweighted mean of the per-class values over the averaged
//     classes; Weighted: their mean weighted by Support (0 when the
//     supports sum to 0).
type ClassificationReport struct {
	// Accuracy is the share of evaluated documents whose prediction is
	// right (for multi-label documents: whose predicted set equals the
	// true set, scikit-learn's subset accuracy).
	Accuracy float64
	// PerClass holds the values of every class 0..numClasses-1.
	PerClass []PRF
	// Support and Predicted count, per class, the evaluated documents that
	// truly have it and that are predicted to have it.
	Support, Predicted []int
	// Averaged lists the classes that enter Micro, Macro and Weighted.
	Averaged []int
	// Micro, Macro and Weighted are the averages over Averaged.
	Micro, Macro, Weighted PRF
	// Documents is the number of evaluated documents: those with a true
	// label. Abstained counts those among them predicted -1 (single-label)
	// or with an empty predicted set (multi-label).
	Documents, Abstained int
}

// Classification evaluates single-label predictions. yTrue[d] and yPred[d]
// are class indices in [0, numClasses) or -1. Documents whose true label is
// -1 are unlabeled and left out; a prediction of -1 is an abstention: it
// counts as wrong for accuracy and as a miss (false negative) for the true
// class, but is not a class of its own. The classes averaged are those that
// occur among the evaluated true labels or the predictions (scikit-learn's
// default, unique_labels(y_true, y_pred)), so the report equals
// scikit-learn's on the labeled documents with
// labels = sorted(set(y_true) ∪ set(y_pred) − {−1}).
func Classification(yTrue, yPred []int, numClasses int) (*ClassificationReport, error) {
	if err := checkSingle(yTrue, yPred, numClasses); err != nil {
		return nil, err
	}
	r := newReport(numClasses)
	tp := make([]int, numClasses)
	present := make([]bool, numClasses)
	correct := 0
	for d, t := range yTrue {
		if t < 0 {
			continue
		}
		p := yPred[d]
		r.Documents++
		r.Support[t]++
		present[t] = true
		if p < 0 {
			r.Abstained++
			continue
		}
		r.Predicted[p]++
		present[p] = true
		if p == t {
			tp[t]++
			correct++
		}
	}
	if r.Documents == 0 {
		return nil, errors.New("metrics: no labeled documents to evaluate")
	}
	for c, ok := range present {
		if ok {
			r.Averaged = append(r.Averaged, c)
		}
	}
	r.Accuracy = float64(correct) / float64(r.Documents)
	r.finish(tp)
	return r, nil
}

// MultiLabelClassification evaluates multi-label predictions: yTrue[d] and
// yPred[d] are sets of class indices in [0, numClasses), without
// repetitions. Documents with no true label (nil or empty) are unlabeled
// and left out; an empty predicted set is an abstention. Every class
// 0..numClasses-1 is averaged, as scikit-learn does for a label-indicator
// matrix with numClasses columns, and Accuracy is the subset accuracy.
func MultiLabelClassification(yTrue, yPred [][]int, numClasses int) (*ClassificationReport, error) {
	if len(yTrue) != len(yPred) {
		return nil, fmt.Errorf("metrics: %d true label sets but %d predicted", len(yTrue), len(yPred))
	}
	if numClasses <= 0 {
		return nil, fmt.Errorf("metrics: numClasses %d, want at least 1", numClasses)
	}
	r := newReport(numClasses)
	tp := make([]int, numClasses)
	mark := make([]int, numClasses) // mark[c] == d+1: c is a true label of d
	correct := 0
	for d := range yTrue {
		if err := checkSet(yTrue[d], numClasses, d, "true "); err != nil {
			return nil, err
		}
		if err := checkSet(yPred[d], numClasses, d, "predicted "); err != nil {
			return nil, err
		}
		if len(yTrue[d]) == 0 {
			continue
		}
		r.Documents++
		for _, c := range yTrue[d] {
			mark[c] = d + 1
			r.Support[c]++
		}
		hits := 0
		for _, c := range yPred[d] {
			r.Predicted[c]++
			if mark[c] == d+1 {
				tp[c]++
				hits++
			}
		}
		if len(yPred[d]) == 0 {
			r.Abstained++
		}
		if hits == len(yTrue[d]) && hits == len(yPred[d]) {
			correct++
		}
	}
	if r.Documents == 0 {
		return nil, errors.New("metrics: no labeled documents to evaluate")
	}
	for c := 0; c < numClasses; c++ {
		r.Averaged = append(r.Averaged, c)
	}
	r.Accuracy = float64(correct) / float64(r.Documents)
	r.finish(tp)
	return r, nil
}

func newReport(numClasses int) *ClassificationReport {
	return &ClassificationReport{
		PerClass:  make([]PRF, numClasses),
		Support:   make([]int, numClasses),
		Predicted: make([]int, numClasses),
	}
}

// finish fills the per-class values and the averages from the counts.
func (r *ClassificationReport) finish(tp []int) {
	for c := range r.PerClass {
		r.PerClass[c] = prf(tp[c], r.Predicted[c], r.Support[c])
	}
	var tpSum, predSum, trueSum int
	p := make([]float64, len(r.Averaged))
	rc := make([]float64, len(r.Averaged))
	f := make([]float64, len(r.Averaged))
	var wp, wr, wf []float64
	for k, c := range r.Averaged {
		tpSum += tp[c]
		predSum += r.Predicted[c]
		trueSum += r.Support[c]
		p[k], rc[k], f[k] = r.PerClass[c].Precision, r.PerClass[c].Recall, r.PerClass[c].F1
		w := float64(r.Support[c])
		wp, wr, wf = append(wp, p[k]*w), append(wr, rc[k]*w), append(wf, f[k]*w)
	}
	r.Micro = prf(tpSum, predSum, trueSum)
	if n := float64(len(r.Averaged)); n > 0 {
		r.Macro = PRF{npSum(p) / n, npSum(rc) / n, npSum(f) / n}
	}
	if trueSum > 0 {
		w := float64(trueSum)
		r.Weighted = PRF{npSum(wp) / w, npSum(wr) / w, npSum(wf) / w}
	}
}

// prf computes precision, recall and F1 from counts, 0 for any 0/0.
func prf(tp, pred, truth int) PRF {
	var out PRF
	if pred > 0 {
		out.Precision = float64(tp) / float64(pred)
	}
	if truth > 0 {
		out.Recall = float64(tp) / float64(truth)
	}
	if d := out.Precision + out.Recall; d != 0 {
		out.F1 = 2 * out.Precision * out.Recall / d
	}
	return out
}

// Accuracy returns the share of labeled documents (yTrue[d] ≥ 0) whose
// prediction equals the true label; predictions of -1 count as wrong. It is
// an error if no document is labeled.
func Accuracy(yTrue, yPred []int) (float64, error) {
	if len(yTrue) != len(yPred) {
		return 0, fmt.Errorf("metrics: %d true labels but %d predictions", len(yTrue), len(yPred))
	}
	n, correct := 0, 0
	for d, t := range yTrue {
		if t < -1 || yPred[d] < -1 {
			return 0, fmt.Errorf("metrics: document %d has label %d/%d; labels are ≥ 0, or -1 for none", d, t, yPred[d])
		}
		if t < 0 {
			continue
		}
		n++
		if yPred[d] == t {
			correct++
		}
	}
	if n == 0 {
		return 0, errors.New("metrics: no labeled documents to evaluate")
	}
	return float64(correct) / float64(n), nil
}

// ConfusionMatrix returns the numClasses × numClasses matrix whose entry
// [t][p] counts documents of true class t predicted as p, leaving out
// documents whose true label or prediction is -1 (scikit-learn's
// confusion_matrix with labels = 0..numClasses-1 drops them the same way).
func ConfusionMatrix(yTrue, yPred []int, numClasses int) ([][]int, error) {
	if err := checkSingle(yTrue, yPred, numClasses); err != nil {
		return nil, err
	}
	m := make([][]int, numClasses)
	for i := range m {
		m[i] = make([]int, numClasses)
	}
	for d, t := range yTrue {
		if p := yPred[d]; t >= 0 && p >= 0 {
			m[t][p]++
		}
	}
	return m, nil
}

func checkSingle(yTrue, yPred []int, numClasses int) error {
	if len(yTrue) != len(yPred) {
		return fmt.Errorf("metrics: %d true labels but %d predictions", len(yTrue), len(yPred))
	}
	if numClasses <= 0 {
		return fmt.Errorf("metrics: numClasses %d, want at least 1", numClasses)
	}
	for d, t := range yTrue {
		if t < -1 || t >= numClasses {
			return fmt.Errorf("metrics: true label of document %d is %d, want -1 or 0..%d", d, t, numClasses-1)
		}
		if p := yPred[d]; p < -1 || p >= numClasses {
			return fmt.Errorf("metrics: prediction for document %d is %d, want -1 or 0..%d", d, p, numClasses-1)
		}
	}
	return nil
}

// checkSet checks one document's label set: indices in range, no repeats.
// which qualifies "label" in messages ("true ", "predicted " or "").
func checkSet(set []int, n, d int, which string) error {
	for k, c := range set {
		if c < 0 || c >= n {
			return fmt.Errorf("metrics: %slabel %d of document %d is out of range 0..%d", which, c, d, n-1)
		}
		for _, e := range set[:k] {
			if e == c {
				return fmt.Errorf("metrics: document %d lists %slabel %d twice", d, which, c)
			}
		}
	}
	return nil
}
