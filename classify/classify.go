package classify

import (
	"context"
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/kernels"
	"github.com/semitopic/semitopic/sparse"
)

// Classifier is satisfied by every classifier of this package.
type Classifier interface {
	// Fit learns from the documents × features matrix X and the class of
	// each document, y[i] in 0..C-1.
	Fit(ctx context.Context, X *sparse.CSR, y []int) error
	// Predict returns the predicted class of each row of X.
	Predict(X *sparse.CSR) ([]int, error)
	// Scores returns a documents × classes matrix whose row-wise arg max is
	// the prediction (the first maximum on ties). What a score means
	// depends on the classifier. For a matrix without rows it returns an
	// empty *mat.Dense.
	Scores(X *sparse.CSR) (*mat.Dense, error)
}

// ErrNotFitted is returned by the prediction methods of a classifier whose
// Fit has not succeeded.
var ErrNotFitted = errors.New("classify: classifier is not fitted")

// Convergence reports how an iterative solver stopped.
type Convergence struct {
	// Iterations holds the number of solver iterations of each
	// optimisation problem: one per one-vs-rest problem for LinearSVC (a
	// single one for two classes), one for LogisticRegression.
	Iterations []int
	// MaxIterReached reports whether some problem stopped because it used
	// up MaxIter iterations before meeting the tolerance (scikit-learn
	// warns with a ConvergenceWarning in that case).
	MaxIterReached bool
	// Objective holds the final primal objective of each problem.
	Objective []float64
	// Message says why the solver stopped, for example "gradient below
	// tolerance" or a line search failure of the L-BFGS solver.
	Message string
}

// checkTrain validates the training input shared by all classifiers and
// returns the number of classes and the documents per class.
func checkTrain(name string, x *sparse.CSR, y []int) (classes int, counts []int, err error) {
	if x == nil {
		return 0, nil, fmt.Errorf("classify: %s: nil matrix", name)
	}
	if err := x.Validate(); err != nil {
		return 0, nil, fmt.Errorf("classify: %s: invalid matrix: %w", name, err)
	}
	if x.Rows == 0 {
		return 0, nil, fmt.Errorf("classify: %s: no training documents", name)
	}
	if x.Cols == 0 {
		return 0, nil, fmt.Errorf("classify: %s: the matrix has no features", name)
	}
	if len(y) != x.Rows {
		return 0, nil, fmt.Errorf("classify: %s: %d labels for %d documents", name, len(y), x.Rows)
	}
	maxLabel := -1
	for i, c := range y {
		if c < 0 {
			return 0, nil, fmt.Errorf("classify: %s: document %d has negative class %d", name, i, c)
		}
		if c > maxLabel {
			maxLabel = c
		}
	}
	if maxLabel >= x.Rows {
		return 0, nil, fmt.Errorf("classify: %s: class %d with only %d documents: some class in 0..%d has no document", name, maxLabel, x.Rows, maxLabel)
	}
	classes = maxLabel + 1
	counts = make([]int, classes)
	for _, c := range y {
		counts[c]++
	}
	if classes < 2 {
		return 0, nil, fmt.Errorf("classify: %s: every document has class 0; at least two classes are needed", name)
	}
	for c, n := range counts {
		if n == 0 {
			return 0, nil, fmt.Errorf("classify: %s: class %d has no training documents (classes are 0..%d)", name, c, classes-1)
		}
	}
	return classes, counts, nil
}

// checkPredict validates a matrix given to a fitted classifier.
func checkPredict(name string, x *sparse.CSR, features int) error {
	if features == 0 {
		return fmt.Errorf("%w (%s)", ErrNotFitted, name)
	}
	if x == nil {
		return fmt.Errorf("classify: %s: nil matrix", name)
	}
	if err := x.Validate(); err != nil {
		return fmt.Errorf("classify: %s: invalid matrix: %w", name, err)
	}
	if x.Cols != features {
		return fmt.Errorf("classify: %s: matrix has %d features, the classifier was fitted on %d", name, x.Cols, features)
	}
	return nil
}

// linearScores returns the rows × k matrix x·wt + intercept, where wt is
// the features × k matrix stored row by row (intercept may be nil). It
// returns an empty matrix for a matrix without rows.
func linearScores(x *sparse.CSR, wt []float64, k int, intercept []float64) *mat.Dense {
	if x.Rows == 0 {
		return &mat.Dense{}
	}
	dst := mat.NewDense(x.Rows, k, nil)
	raw := dst.RawMatrix().Data
	mulNarrow(raw, x, wt, k)
	if intercept != nil {
		for i := 0; i < x.Rows; i++ {
			row := raw[i*k : i*k+k]
			for c := range row {
				row[c] += intercept[c]
			}
		}
	}
	return dst
}

// transposed returns the columns × rows transpose of m stored row by row.
func transposed(m *mat.Dense) []float64 {
	r, c := m.Dims()
	out := make([]float64, r*c)
	raw := m.RawMatrix()
	kernels.Transpose(out, r, raw.Data, raw.Stride, r, c)
	return out
}

// denseCopy returns a copy of m (nil for nil).
func denseCopy(m *mat.Dense) *mat.Dense {
	if m == nil {
		return nil
	}
	return mat.DenseCopyOf(m)
}
