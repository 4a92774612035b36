package classify

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"github.com/semitopic/semitopic/internal/kernels"
	"github.com/semitopic/semitopic/internal/parallel"
	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/sparse"
)

// scipyFtol is scipy's default ftol of L-BFGS-B (factr 1e7 × machine
// epsilon), which scikit-learn does not change.
const scipyFtol = 2.220446049250313e-09

// LogisticRegression is L2-regularised multinomial (softmax) logistic
// regression, like scikit-learn 1.2's LogisticRegression(multi_class=
// "multinomial", solver="lbfgs") with its defaults (C=1, tol=1e-4,
// max_iter=100, fit_intercept=True). It minimises over the weights W
// (classes × features) and intercepts b
//
//	Σ_i [ logsumexp_k(z_ik) − z_i,y_i ] + ‖W‖²/(2C),   z_i = W·x_i + b,
//
// the intercepts not being penalised. Two classes are fitted the same way
// (two weight rows, which come out opposite), not as a binomial model.
//
// The solver is gonum's L-BFGS set up like scipy's L-BFGS-B as scikit-learn
// calls it: 10 correction pairs, a Moré–Thuente line search (sufficient
// decrease 1e-3, curvature 0.9), starting from zero, and stopping when the
// largest gradient component is below Tol, when an iteration reduces the
// objective by at most 2.2e-9 relative to max(|f|, 1), or after MaxIter
// iterations or 15,000 evaluations. The objective and its exact gradient
// (Xᵀ(P − Y) + W/C) are computed with sparse products over row blocks on
// all cores. The optimiser's path differs from scipy's in detail, so
// coefficients agree with scikit-learn's to about the tolerance.
//
// The zero value is ready to use with the defaults above.
type LogisticRegression struct {
	// C is the inverse regularisation strength; 0 means 1.
	C float64
	// Tol is the gradient tolerance (scipy's gtol); 0 means 1e-4.
	Tol float64
	// MaxIter bounds the L-BFGS iterations; 0 means 100.
	MaxIter int
	// NoIntercept fits z = W·x without intercepts.
	NoIntercept bool

	features  int
	coef      *mat.Dense // classes × features
	intercept []float64
	wt        []float64 // features × classes, row by row
	conv      Convergence
}

// Fit implements Classifier. It returns an error for invalid input or
// settings, or ctx's error if ctx is cancelled. Stopping at MaxIter or on a
// line search failure is not an error: see Convergence.
func (lr *LogisticRegression) Fit(ctx context.Context, x *sparse.CSR, y []int) error {
	const name = "logistic regression"
	c, tol, maxIter := lr.C, lr.Tol, lr.MaxIter
	if c == 0 {
		c = 1
	}
	if tol == 0 {
		tol = 1e-4
	}
	if maxIter == 0 {
		maxIter = 100
	}
	switch {
	case !(c > 0) || math.IsInf(c, 0):
		return fmt.Errorf("classify: %s: C = %g, want a finite value > 0", name, lr.C)
	case !(tol > 0) || math.IsInf(tol, 0):
		return fmt.Errorf("classify: %s: Tol = %g, want a finite value > 0", name, lr.Tol)
	case maxIter < 0:
		return fmt.Errorf("classify: %s: MaxIter = %d, want a value > 0", name, lr.MaxIter)
	}
	classes, _, err := checkTrain(name, x, y)
	if err != nil {
		return err
	}
	obj := newSoftmaxObjective(x, y, classes, 1/c, !lr.NoIntercept)
	prob := optimize.Problem{
		Func: obj.value,
		Grad: obj.gradient,
		Status: func() (optimize.Status, error) {
			if err := ctx.Err(); err != nil {
				return optimize.Failure, err
			}
			return optimize.NotTerminated, nil
		},
	}
	settings := &optimize.Settings{
		GradientThreshold: tol,
		Converger:         &scipyConverger{ftol: scipyFtol},
		// gonum counts the starting point as a major iteration; scipy
		// does not.
		MajorIterations: maxIter + 1,
		FuncEvaluations: 15000,
	}
	method := &optimize.LBFGS{
		Store:        10,
		Linesearcher: &optimize.MoreThuente{DecreaseFactor: 1e-3, CurvatureFactor: 0.9},
	}
	res, err := optimize.Minimize(prob, make([]float64, obj.dim()), settings, method)
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	if res == nil {
		return fmt.Errorf("classify: %s: %w", name, err)
	}
	conv := Convergence{
		Iterations: []int{max(res.Stats.MajorIterations-1, 0)},
		Objective:  []float64{res.F},
	}
	switch {
	case err != nil:
		conv.Message = "stopped early: " + err.Error()
	case res.Status == optimize.GradientThreshold:
		conv.Message = "gradient below tolerance"
	case res.Status == optimize.FunctionConvergence:
		conv.Message = "objective no longer decreasing (relative change ≤ 2.2e-9)"
	case res.Status == optimize.IterationLimit:
		conv.MaxIterReached = true
		conv.Message = fmt.Sprintf("reached MaxIter = %d before the tolerance", maxIter)
	default:
		conv.Message = "stopped: " + res.Status.String()
	}
	if math.IsNaN(res.F) || math.IsInf(res.F, 0) {
		return fmt.Errorf("classify: %s: the objective became %g (%s)", name, res.F, conv.Message)
	}
	f := x.Cols
	w := res.X
	coef := mat.NewDense(classes, f, nil)
	for j := 0; j < f; j++ {
		for k := 0; k < classes; k++ {
			coef.Set(k, j, w[j*classes+k])
		}
	}
	intercept := make([]float64, classes)
	if !lr.NoIntercept {
		copy(intercept, w[f*classes:])
	}
	lr.features = f
	lr.coef, lr.intercept, lr.conv = coef, intercept, conv
	lr.wt = transposed(coef)
	return nil
}

// NumClasses returns the number of classes of the fitted model (0 before
// Fit).
func (lr *LogisticRegression) NumClasses() int { return len(lr.intercept) }

// Coef returns a copy of the classes × features weights (scikit-learn's
// coef_ for more than two classes), or nil before Fit.
func (lr *LogisticRegression) Coef() *mat.Dense { return denseCopy(lr.coef) }

// Intercept returns a copy of the intercept of each class, or nil before
// Fit.
func (lr *LogisticRegression) Intercept() []float64 { return append([]float64(nil), lr.intercept...) }

// Convergence reports the L-BFGS iterations, the final objective and why
// the solver stopped.
func (lr *LogisticRegression) Convergence() Convergence { return lr.conv }

// Scores implements Classifier: the documents × classes matrix of linear
// predictors z = W·x + b (the logits).
func (lr *LogisticRegression) Scores(x *sparse.CSR) (*mat.Dense, error) {
	if err := checkPredict("logistic regression", x, lr.features); err != nil {
		return nil, err
	}
	return linearScores(x, lr.wt, len(lr.intercept), lr.intercept), nil
}

// PredictProba returns the documents × classes matrix of class
// probabilities, the softmax of the scores.
func (lr *LogisticRegression) PredictProba(x *sparse.CSR) (*mat.Dense, error) {
	z, err := lr.Scores(x)
	if err != nil || z.IsEmpty() {
		return z, err
	}
	r, _ := z.Dims()
	for i := 0; i < r; i++ {
		row := z.RawRowView(i)
		lse := logSumExp(row)
		for k, v := range row {
			row[k] = math.Exp(v - lse)
		}
	}
	return z, nil
}

// Predict implements Classifier: the class with the largest score.
func (lr *LogisticRegression) Predict(x *sparse.CSR) ([]int, error) {
	z, err := lr.Scores(x)
	if err != nil {
		return nil, err
	}
	return metrics.ArgmaxRows(z), nil
}

// softmaxObjective evaluates the penalised multinomial log loss and its
// gradient. The parameter vector is laid out as scikit-learn's: the
// features × classes matrix Wᵀ row by row (the classes of one feature
// together), then the intercepts.
type softmaxObjective struct {
	x         *sparse.CSR
	xt        *sparse.CSR // xᵀ, kept for the gradient's products
	y         []int
	classes   int
	lambda    float64 // 1/C
	intercept bool

	lastX []float64  // parameters of the cached evaluation
	f     float64    // objective at lastX
	resid *mat.Dense // P − Y at lastX, documents × classes
	loss  []float64  // per-document loss at lastX
}

func newSoftmaxObjective(x *sparse.CSR, y []int, classes int, lambda float64, intercept bool) *softmaxObjective {
	return &softmaxObjective{
		x: x, xt: x.T(), y: y, classes: classes, lambda: lambda, intercept: intercept,
		resid: mat.NewDense(x.Rows, classes, nil),
		loss:  make([]float64, x.Rows),
	}
}

func (o *softmaxObjective) dim() int {
	n := o.x.Cols * o.classes
	if o.intercept {
		n += o.classes
	}
	return n
}

// evaluate computes the objective and the residuals P − Y at w.
func (o *softmaxObjective) evaluate(w []float64) {
	k := o.classes
	nw := o.x.Cols * k
	mulNarrow(o.resid.RawMatrix().Data, o.x, w[:nw], k)
	var b []float64
	if o.intercept {
		b = w[nw:]
	}
	parallel.For(o.x.Rows, 256, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			z := o.resid.RawRowView(i)
			// logSumExp's arithmetic, keeping the exponentials: the
			// probabilities are exp(z − m)/Σ exp(z − m), which needs
			// no second exponential per class. The intercepts are
			// added in the pass that takes the maximum.
			m := math.Inf(-1)
			if b != nil {
				b := b[:len(z)]
				for c, v := range z {
					v += b[c]
					z[c] = v
					m = max(m, v) // no branch to mispredict
				}
			} else {
				for _, v := range z {
					m = max(m, v)
				}
			}
			if math.IsInf(m, 0) || math.IsNaN(m) {
				m = 0
			}
			zy := z[o.y[i]]
			s := kernels.ExpShiftSum(z, m)
			o.loss[i] = math.Log(s) + m - zy
			floats.Scale(1/s, z)
			z[o.y[i]] -= 1
		}
	})
	f := 0.0
	for _, v := range o.loss {
		f += v
	}
	reg := 0.0
	for _, v := range w[:nw] {
		reg += v * v
	}
	o.f = f + 0.5*o.lambda*reg
	o.lastX = append(o.lastX[:0], w...)
}

func (o *softmaxObjective) cached(w []float64) bool {
	if len(o.lastX) != len(w) {
		return false
	}
	for i, v := range w {
		if o.lastX[i] != v {
			return false
		}
	}
	return true
}

// value is optimize.Problem.Func.
func (o *softmaxObjective) value(w []float64) float64 {
	if !o.cached(w) {
		o.evaluate(w)
	}
	return o.f
}

// gradient is optimize.Problem.Grad: Xᵀ(P − Y) + λW for the weights and the
// column sums of P − Y for the intercepts.
func (o *softmaxObjective) gradient(grad, w []float64) {
	if !o.cached(w) {
		o.evaluate(w)
	}
	k := o.classes
	nw := o.x.Cols * k
	// Xᵀ(P − Y) as a row-wise product with the stored transpose: with
	// few classes this is several times faster than sparse.TMulDense, and
	// the transpose is paid for once per fit.
	mulNarrow(grad[:nw], o.xt, o.resid.RawMatrix().Data, k)
	for j := 0; j < nw; j++ {
		grad[j] += o.lambda * w[j]
	}
	if o.intercept {
		gb := grad[nw:]
		for c := range gb {
			gb[c] = 0
		}
		for i := 0; i < o.x.Rows; i++ {
			for c, v := range o.resid.RawRowView(i) {
				gb[c] += v
			}
		}
	}
}

// scipyConverger stops as scipy's L-BFGS-B does when an iteration reduces
// the objective by at most ftol·max(|f_old|, |f_new|, 1).
type scipyConverger struct {
	ftol  float64
	prev  float64
	first bool
}

// Init implements optimize.Converger.
func (sc *scipyConverger) Init(int) { sc.first = true }

// Converged implements optimize.Converger.
func (sc *scipyConverger) Converged(loc *optimize.Location) optimize.Status {
	f := loc.F
	if sc.first {
		sc.first = false
		sc.prev = f
		return optimize.NotTerminated
	}
	scale := math.Max(math.Max(math.Abs(sc.prev), math.Abs(f)), 1)
	done := sc.prev-f <= sc.ftol*scale
	sc.prev = f
	if done {
		return optimize.FunctionConvergence
	}
	return optimize.NotTerminated
}
