package classify

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/sparse"
)

// MinAlpha is the smallest smoothing MultinomialNB uses: a smaller positive
// Alpha is raised to it, as scikit-learn 1.2 does when force_alpha is false
// (its default), to keep the logarithms finite.
const MinAlpha = 1e-10

// MultinomialNB is multinomial naive Bayes with Lidstone smoothing, equal to
// scikit-learn 1.2's MultinomialNB. Feature values are counts (tf-idf
// weights work too, as in the SSNMF paper's baseline); they must not be
// negative.
//
// Fit computes, for class c and feature j, with N_cj the sum of feature j
// over the documents of class c and F features,
//
//	feature_log_prob[c][j] = log(N_cj + α) − log(Σ_j N_cj + F·α)
//	class_log_prior[c]     = log(n_c / n)           (fitted prior)
//
// and a document x scores jll[c] = Σ_j x_j·feature_log_prob[c][j] +
// class_log_prior[c], normalised to log posteriors by subtracting
// logsumexp(jll).
//
// The zero value is ready to use with scikit-learn's defaults: α = 1 and
// priors fitted from the class frequencies.
type MultinomialNB struct {
	// Alpha is the additive (Lidstone) smoothing; 0 means 1 (Laplace).
	// Values in (0, MinAlpha) are raised to MinAlpha; negative values are an
	// error.
	Alpha float64
	// UniformPrior uses the prior 1/C for every class instead of the class
	// frequencies (scikit-learn's fit_prior=False).
	UniformPrior bool
	// ClassPrior, when set, gives the prior probability of each class
	// (scikit-learn's class_prior); it must have one non-negative entry per
	// class and overrides UniformPrior. The values are used as given, not
	// renormalised, as scikit-learn does.
	ClassPrior []float64

	features       int
	classCount     []float64
	featureCount   *mat.Dense // C × F
	featureLogProb *mat.Dense // C × F
	flpT           []float64  // F × C row by row, for the products
	classLogPrior  []float64
}

// Fit implements Classifier. It returns an error for invalid input (see
// the package documentation) and for negative feature values.
func (nb *MultinomialNB) Fit(ctx context.Context, x *sparse.CSR, y []int) error {
	const name = "multinomial naive Bayes"
	alpha := nb.Alpha
	switch {
	case alpha < 0 || math.IsNaN(alpha) || math.IsInf(alpha, 0):
		return fmt.Errorf("classify: %s: smoothing Alpha = %g, want a finite value ≥ 0", name, alpha)
	case alpha == 0:
		alpha = 1
	case alpha < MinAlpha:
		alpha = MinAlpha
	}
	classes, counts, err := checkTrain(name, x, y)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	var logPrior []float64
	switch {
	case nb.ClassPrior != nil:
		if len(nb.ClassPrior) != classes {
			return fmt.Errorf("classify: %s: %d class priors for %d classes", name, len(nb.ClassPrior), classes)
		}
		logPrior = make([]float64, classes)
		for c, p := range nb.ClassPrior {
			if !(p >= 0) || math.IsInf(p, 0) {
				return fmt.Errorf("classify: %s: prior of class %d is %g, want a finite value ≥ 0", name, c, p)
			}
			logPrior[c] = math.Log(p)
		}
	case nb.UniformPrior:
		logPrior = make([]float64, classes)
		for c := range logPrior {
			logPrior[c] = -math.Log(float64(classes))
		}
	default:
		logPrior = make([]float64, classes)
		total := math.Log(float64(x.Rows))
		for c, n := range counts {
			logPrior[c] = math.Log(float64(n)) - total
		}
	}

	// Feature counts Yᵀ·X, Y being the one-hot class indicator, summed
	// in document order as scikit-learn's safe_sparse_dot(Y.T, X).
	fc := mat.NewDense(classes, x.Cols, nil)
	for i, c := range y {
		cols, vals := x.Row(i)
		row := fc.RawRowView(c)
		for p, v := range vals {
			if v < 0 {
				return fmt.Errorf("classify: %s: document %d, feature %d has negative value %g (counts must be non-negative)", name, i, cols[p], v)
			}
			row[cols[p]] += v
		}
	}
	flp := mat.NewDense(classes, x.Cols, nil)
	for c := 0; c < classes; c++ {
		src, dst := fc.RawRowView(c), flp.RawRowView(c)
		sum := 0.0
		for j, v := range src {
			dst[j] = v + alpha
			sum += dst[j]
		}
		logSum := math.Log(sum)
		for j, v := range dst {
			dst[j] = math.Log(v) - logSum
		}
	}
	nb.features = x.Cols
	nb.classCount = make([]float64, classes)
	for c, n := range counts {
		nb.classCount[c] = float64(n)
	}
	nb.featureCount = fc
	nb.featureLogProb = flp
	nb.flpT = transposed(flp)
	nb.classLogPrior = logPrior
	return nil
}

// NumClasses returns the number of classes of the fitted model (0 before
// Fit).
func (nb *MultinomialNB) NumClasses() int { return len(nb.classLogPrior) }

// FeatureLogProb returns a copy of the classes × features matrix of
// smoothed log probabilities log P(feature | class) (scikit-learn's
// feature_log_prob_), or nil before Fit.
func (nb *MultinomialNB) FeatureLogProb() *mat.Dense { return denseCopy(nb.featureLogProb) }

// FeatureCount returns a copy of the classes × features matrix of summed
// feature values per class (feature_count_), or nil before Fit.
func (nb *MultinomialNB) FeatureCount() *mat.Dense { return denseCopy(nb.featureCount) }

// ClassLogPrior returns a copy of the log prior of each class
// (class_log_prior_), or nil before Fit.
func (nb *MultinomialNB) ClassLogPrior() []float64 {
	return append([]float64(nil), nb.classLogPrior...)
}

// ClassCount returns the number of training documents of each class
// (class_count_), or nil before Fit.
func (nb *MultinomialNB) ClassCount() []float64 {
	return append([]float64(nil), nb.classCount...)
}

// JointLogLikelihood returns the documents × classes matrix of unnormalised
// log posteriors log P(c) + Σ_j x_j log P(j | c).
func (nb *MultinomialNB) JointLogLikelihood(x *sparse.CSR) (*mat.Dense, error) {
	if err := checkPredict("multinomial naive Bayes", x, nb.features); err != nil {
		return nil, err
	}
	return linearScores(x, nb.flpT, len(nb.classLogPrior), nb.classLogPrior), nil
}

// Scores implements Classifier: the log posterior probability of each class
// (scikit-learn's predict_log_proba), the joint log likelihood minus its
// logsumexp over the classes.
func (nb *MultinomialNB) Scores(x *sparse.CSR) (*mat.Dense, error) {
	jll, err := nb.JointLogLikelihood(x)
	if err != nil || jll.IsEmpty() {
		return jll, err
	}
	r, _ := jll.Dims()
	for i := 0; i < r; i++ {
		row := jll.RawRowView(i)
		lse := logSumExp(row)
		for k := range row {
			row[k] -= lse
		}
	}
	return jll, nil
}

// PredictProba returns the documents × classes matrix of posterior
// probabilities (scikit-learn's predict_proba: exp of the log posteriors).
func (nb *MultinomialNB) PredictProba(x *sparse.CSR) (*mat.Dense, error) {
	s, err := nb.Scores(x)
	if err != nil || s.IsEmpty() {
		return s, err
	}
	expInPlace(s)
	return s, nil
}

// Predict implements Classifier: the class with the largest joint log
// likelihood.
func (nb *MultinomialNB) Predict(x *sparse.CSR) ([]int, error) {
	jll, err := nb.JointLogLikelihood(x)
	if err != nil {
		return nil, err
	}
	return metrics.ArgmaxRows(jll), nil
}

// logSumExp returns log Σ exp(a) computed as scipy.special.logsumexp does:
// the maximum is factored out unless it is infinite.
func logSumExp(a []float64) float64 {
	m := math.Inf(-1)
	for _, v := range a {
		if v > m {
			m = v
		}
	}
	if math.IsInf(m, 0) || math.IsNaN(m) {
		m = 0
	}
	s := 0.0
	for _, v := range a {
		s += math.Exp(v - m)
	}
	return math.Log(s) + m
}

// expInPlace replaces every element of m by its exponential.
func expInPlace(m *mat.Dense) {
	r, _ := m.Dims()
	for i := 0; i < r; i++ {
		row := m.RawRowView(i)
		for k, v := range row {
			row[k] = math.Exp(v)
		}
	}
}
