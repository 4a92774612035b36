package classify

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/kernels"
	"github.com/semitopic/semitopic/internal/parallel"
	"github.com/semitopic/semitopic/internal/rng"
	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/sparse"
)

// Loss selects the loss function of LinearSVC.
type Loss uint8

// The losses of LinearSVC.
const (
	// SquaredHinge is max(0, 1 − y·f(x))², the L2 loss of LIBLINEAR's
	// solver 1 (L2R_L2LOSS_SVC_DUAL) and scikit-learn's default.
	SquaredHinge Loss = iota
	// Hinge is max(0, 1 − y·f(x)), the L1 loss of LIBLINEAR's solver 3
	// (L2R_L1LOSS_SVC_DUAL).
	Hinge
)

// String returns "squared_hinge" or "hinge", scikit-learn's names.
func (l Loss) String() string {
	switch l {
	case SquaredHinge:
		return "squared_hinge"
	case Hinge:
		return "hinge"
	}
	return fmt.Sprintf("Loss(%d)", uint8(l))
}

// ParseLoss parses "squared_hinge" or "hinge".
func ParseLoss(s string) (Loss, error) {
	switch s {
	case "squared_hinge":
		return SquaredHinge, nil
	case "hinge":
		return Hinge, nil
	}
	return 0, fmt.Errorf("classify: unknown SVM loss %q (want squared_hinge or hinge)", s)
}

// LinearSVC is a linear support vector machine trained one-vs-rest, like
// scikit-learn 1.2's LinearSVC with its defaults (penalty="l2",
// loss="squared_hinge", dual=True, C=1, tol=1e-4, max_iter=1000,
// fit_intercept=True, intercept_scaling=1, multi_class="ovr").
//
// Each binary problem (class c against the rest; for two classes a single
// problem with class 1 positive, as scikit-learn does) minimises
//
//	½‖w‖² + C Σ_i loss(y_i (w·x_i + b·s))     with s = InterceptScaling,
//
// by LIBLINEAR's dual coordinate descent (Hsieh et al., "A dual coordinate
// descent method for large-scale linear SVM", ICML 2008, Algorithm 3, with
// the shrinking of LIBLINEAR's solve_l2r_l1l2_svc): the coordinates are
// visited in a fresh random order every outer iteration, bound variables
// that are unlikely to move are shrunk out of the active set, and the
// solver stops when the projected gradient's spread max PG − min PG over
// the whole set drops to Tol, or after MaxIter outer iterations. One
// departure from LIBLINEAR: where it would pass over the whole set to
// check it (once the active set has converged, after a warm start, and
// when the last pass leaves nothing to shrink), this solver computes the
// gradients of the whole set at the current weights, in row order and
// without updating anything — a fraction of a pass's cost, most rows
// being at their bound with their margin met — and, unless that spread
// is within Tol, goes on over the rows that are not optimal where they
// are (those at a bound whose gradient points out of it are left for the
// next check). The stopping rule and the optimum are LIBLINEAR's; the
// path, and so the result within Tol, differ. As in
// LIBLINEAR, the intercept is the weight of an extra feature of constant
// value s and so is regularised like the other weights; the reported
// intercept is s·b.
//
// The random orders come from Seed (one stream per binary problem), so a
// seed gives the same model whatever the number of cores; they differ from
// LIBLINEAR's, so models agree with scikit-learn's to the solver tolerance,
// not bit for bit. The binary problems of a multi-class fit run in parallel.
//
// The zero value is ready to use with the defaults above.
type LinearSVC struct {
	// C is the inverse regularisation strength; 0 means 1.
	C float64
	// Loss is SquaredHinge (the default) or Hinge.
	Loss Loss
	// Tol is the stopping tolerance on the projected gradient; 0 means 1e-4.
	Tol float64
	// MaxIter bounds the outer iterations of each binary problem; 0 means
	// 1000.
	MaxIter int
	// NoIntercept fits w·x without an intercept.
	NoIntercept bool
	// InterceptScaling is the value of the constant intercept feature; 0
	// means 1. Larger values regularise the intercept less.
	InterceptScaling float64
	// Seed seeds the random coordinate orders.
	Seed uint64
	// Start, when not nil, warm-starts the solver from dual variables
	// instead of zero (as LIBLINEAR's warm start does for its primal
	// solvers; the dual is the one this solver walks): Start[k][i] is the
	// dual variable of row i in binary problem k, laid out as Duals
	// returns them — typically those of a fit on the same rows with other
	// features (the terms alone, say, before the terms and topics). Any
	// values ≥ 0 are a feasible start, those above C clipped to C with the
	// Hinge loss, so a start changes how many iterations the solver needs,
	// not the optimum it converges to (within Tol); one far from it can
	// cost more iterations than zero.
	Start [][]float64
	// KeepDuals keeps the fitted dual variables for Duals (one float64 per
	// binary problem and training row); off, a fitted model holds none.
	KeepDuals bool

	features  int
	classes   int
	coef      *mat.Dense // problems × features
	intercept []float64  // one per problem
	wt        []float64  // features × problems, row by row
	duals     [][]float64
	conv      Convergence
}

func (s *LinearSVC) params() (c, tol, scaling float64, maxIter int, err error) {
	c, tol, scaling, maxIter = s.C, s.Tol, s.InterceptScaling, s.MaxIter
	if c == 0 {
		c = 1
	}
	if tol == 0 {
		tol = 1e-4
	}
	if scaling == 0 {
		scaling = 1
	}
	if maxIter == 0 {
		maxIter = 1000
	}
	switch {
	case !(c > 0) || math.IsInf(c, 0):
		err = fmt.Errorf("regularization C = %g, want a finite value > 0", s.C)
	case !(tol > 0) || math.IsInf(tol, 0):
		err = fmt.Errorf("tolerance Tol = %g, want a finite value > 0", s.Tol)
	case !(scaling > 0) || math.IsInf(scaling, 0):
		err = fmt.Errorf("InterceptScaling = %g, want a finite value > 0", s.InterceptScaling)
	case maxIter < 0:
		err = fmt.Errorf("MaxIter = %d, want a value > 0", s.MaxIter)
	case s.Loss != SquaredHinge && s.Loss != Hinge:
		err = fmt.Errorf("unknown loss %v", s.Loss)
	}
	return
}

// Fit implements Classifier. It returns an error for invalid input or
// settings, or ctx's error if ctx is cancelled. Not reaching the tolerance
// within MaxIter iterations is not an error: see Convergence.
func (s *LinearSVC) Fit(ctx context.Context, x *sparse.CSR, y []int) error {
	const name = "linear SVM"
	c, tol, scaling, maxIter, err := s.params()
	if err != nil {
		return fmt.Errorf("classify: %s: %w", name, err)
	}
	classes, _, err := checkTrain(name, x, y)
	if err != nil {
		return err
	}
	bias := -1.0
	if !s.NoIntercept {
		bias = scaling
	}
	p := newDCDProblem(x, y, bias, c, s.Loss == Hinge, tol, maxIter)
	problems := classes
	if classes == 2 {
		problems = 1
	}
	if err := checkStart(s.Start, problems, x.Rows); err != nil {
		return fmt.Errorf("classify: %s: %w", name, err)
	}
	dim := x.Cols
	if bias > 0 {
		dim++
	}
	ws := make([][]float64, problems)
	duals := make([][]float64, problems)
	iters := make([]int, problems)
	objs := make([]float64, problems)
	errs := make([]error, problems)
	// Workers take problems one at a time as they become free, so that
	// uneven problems keep both cores busy; every problem has its own
	// random stream, so the result does not depend on which worker solves
	// it. Errors are reported in problem order.
	err = parallel.ForDynamic(ctx, problems, 1, 0, func(_, k, _ int) error {
		pos := k
		if classes == 2 {
			pos = 1
		}
		w := make([]float64, dim)
		alpha := make([]float64, x.Rows)
		if s.Start != nil {
			copy(alpha, s.Start[k])
		}
		var st dcdStats
		st, errs[k] = p.solve(ctx, pos, w, alpha, rng.New(s.Seed, uint64(k), 0x9e3779b97f4a7c15))
		iters[k], objs[k] = st.iterations, st.objective
		ws[k], duals[k] = w, alpha
		return nil
	})
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	if err != nil {
		return err
	}
	coef := mat.NewDense(problems, x.Cols, nil)
	intercept := make([]float64, problems)
	conv := Convergence{Iterations: iters, Objective: objs, Message: "projected gradient within tolerance"}
	for k, w := range ws {
		copy(coef.RawRowView(k), w[:x.Cols])
		if bias > 0 {
			intercept[k] = bias * w[x.Cols]
		}
		if iters[k] >= maxIter {
			conv.MaxIterReached = true
		}
	}
	if conv.MaxIterReached {
		conv.Message = fmt.Sprintf("reached MaxIter = %d before the tolerance", maxIter)
	}
	s.features, s.classes = x.Cols, classes
	s.coef, s.intercept, s.conv = coef, intercept, conv
	s.wt = transposed(coef)
	s.duals = nil
	if s.KeepDuals {
		s.duals = duals
	}
	return nil
}

// checkStart checks a warm start (LinearSVC.Start): nil, or problems rows
// of rows finite values ≥ 0.
func checkStart(start [][]float64, problems, rows int) error {
	if start == nil {
		return nil
	}
	if len(start) != problems {
		return fmt.Errorf("warm start Start has %d binary problems, the labels make %d", len(start), problems)
	}
	for k, a := range start {
		if len(a) != rows {
			return fmt.Errorf("warm start Start[%d] has %d dual variables for %d rows", k, len(a), rows)
		}
		for i, v := range a {
			if !(v >= 0) || math.IsInf(v, 0) {
				return fmt.Errorf("warm start Start[%d][%d] = %g, want a finite value ≥ 0", k, i, v)
			}
		}
	}
	return nil
}

// Duals returns a copy of the fitted dual variables, one slice per binary
// problem (the rows of Coef) with one value per training row: what Start
// takes to warm-start another fit on the same rows. It is nil before Fit
// and when the fit did not keep them (KeepDuals).
func (s *LinearSVC) Duals() [][]float64 {
	if s.duals == nil {
		return nil
	}
	out := make([][]float64, len(s.duals))
	for k, a := range s.duals {
		out[k] = append([]float64(nil), a...)
	}
	return out
}

// NumClasses returns the number of classes of the fitted model (0 before
// Fit).
func (s *LinearSVC) NumClasses() int { return s.classes }

// Coef returns a copy of the weights (scikit-learn's coef_): one row per
// binary problem — classes × features, or 1 × features for two classes,
// where the row scores class 1 against class 0. It is nil before Fit.
func (s *LinearSVC) Coef() *mat.Dense { return denseCopy(s.coef) }

// Intercept returns a copy of the intercepts (intercept_), one per row of
// Coef, or nil before Fit.
func (s *LinearSVC) Intercept() []float64 { return append([]float64(nil), s.intercept...) }

// Convergence reports the iterations of each binary problem and whether
// any reached MaxIter.
func (s *LinearSVC) Convergence() Convergence { return s.conv }

// DecisionFunction returns w·x + b for every document and binary problem
// (scikit-learn's decision_function): documents × classes, or documents × 1
// for two classes, where a positive value predicts class 1.
func (s *LinearSVC) DecisionFunction(x *sparse.CSR) (*mat.Dense, error) {
	if err := checkPredict("linear SVM", x, s.features); err != nil {
		return nil, err
	}
	return linearScores(x, s.wt, len(s.intercept), s.intercept), nil
}

// Scores implements Classifier: the decision function, documents ×
// classes. For two classes the columns are −d and d, d being the single
// decision value.
func (s *LinearSVC) Scores(x *sparse.CSR) (*mat.Dense, error) {
	d, err := s.DecisionFunction(x)
	if err != nil || s.classes != 2 {
		return d, err
	}
	return twoClassScores(d), nil
}

// Predict implements Classifier: the class with the largest decision value;
// for two classes, class 1 when the decision value is positive.
func (s *LinearSVC) Predict(x *sparse.CSR) ([]int, error) {
	d, err := s.DecisionFunction(x)
	if err != nil {
		return nil, err
	}
	if s.classes != 2 {
		return metrics.ArgmaxRows(d), nil
	}
	out := make([]int, x.Rows)
	for i := range out {
		if d.At(i, 0) > 0 {
			out[i] = 1
		}
	}
	return out, nil
}

// dcdProblem holds what the binary problems of one fit share.
type dcdProblem struct {
	x       *sparse.CSR
	y       []int
	qd      []float64 // ‖x_i‖², including the bias feature
	bias    float64   // value of the bias feature, or < 0 for none
	c       float64
	hinge   bool
	tol     float64
	maxIter int
	// checkEvery makes the checks compute every row, skipping none (see
	// checker): the reference the skips are tested against.
	checkEvery bool
}

// newDCDProblem returns the problems of a fit on x with labels y.
func newDCDProblem(x *sparse.CSR, y []int, bias, c float64, hinge bool, tol float64, maxIter int) *dcdProblem {
	p := &dcdProblem{x: x, y: y, bias: bias, c: c, hinge: hinge, tol: tol, maxIter: maxIter}
	p.qd = make([]float64, x.Rows)
	for i := range p.qd {
		_, vals := x.Row(i)
		q := 0.0
		for _, v := range vals {
			q += v * v
		}
		if bias > 0 {
			q += bias * bias
		}
		p.qd[i] = q
	}
	return p
}

// dcdStats says how a problem was solved: its outer iterations (passes of
// the descent and checks), the rows its checks skipped, whether it stopped
// at a check, and the primal objective at the end.
type dcdStats struct {
	iterations, skipped int
	atCheck             bool
	objective           float64
}

// solve runs the dual coordinate descent for the problem "class pos against
// the rest" from the dual variables alpha (≥ 0; zero for a cold start),
// leaving the final ones in alpha and the weights (and, with a bias, the
// bias weight last) in w, which must be zero on entry.
func (p *dcdProblem) solve(ctx context.Context, pos int, w, alpha []float64, r rng.Source) (dcdStats, error) {
	l := p.x.Rows
	nf := p.x.Cols
	diag, upper := 0.5/p.c, math.Inf(1)
	if p.hinge {
		diag, upper = 0, p.c
	}
	// w = Σ α_i y_i x_i of the start.
	for i, a := range alpha {
		if a == 0 {
			continue
		}
		a = math.Min(a, upper)
		alpha[i] = a
		if p.y[i] != pos {
			a = -a
		}
		cols, vals := p.x.Row(i)
		kernels.SparseAxpy(w, cols, vals, a)
		if p.bias > 0 {
			w[nf] += a * p.bias
		}
	}
	index := make([]int, l)
	for i := range index {
		index[i] = i
	}
	active := l
	pgMaxOld, pgMinOld := math.Inf(1), math.Inf(-1)
	// check says that the next iteration is a check of the whole set (see
	// checker) rather than a pass of the descent: first when the start is
	// not zero, after the active set has converged, and when the last
	// pass over every row leaves nothing to shrink.
	check := slices.ContainsFunc(alpha, func(a float64) bool { return a != 0 })
	chk := checker{every: p.checkEvery}
	iter := 0
	for iter < p.maxIter {
		if err := ctx.Err(); err != nil {
			return dcdStats{iter, chk.skipped, false, math.NaN()}, err
		}
		if check {
			pgMax, pgMin := chk.check(p, pos, w, alpha, diag, upper)
			g := chk.g
			iter++
			if pgMax-pgMin <= p.tol {
				// The check's gradients are the final weights': the
				// objective needs no other pass.
				return dcdStats{iter, chk.skipped, true, p.primalChecked(w, alpha, chk.g, diag)}, nil
			}
			pgMaxOld, pgMinOld = shrinkBounds(pgMax, pgMin)
			// The next pass visits the rows that are not optimal where
			// they are: those at a bound whose gradient points out of it
			// are left out (the next check sees them again).
			shrunk := func(i int) bool { return alpha[i] == 0 && g[i] > 0 || alpha[i] == upper && g[i] < 0 }
			active = 0
			for i := range l {
				if !shrunk(i) {
					index[active] = i
					active++
				}
			}
			for i, n := 0, active; i < l; i++ {
				if shrunk(i) {
					index[n] = i
					n++
				}
			}
			check = false
			if active == 0 {
				// Nothing to move, yet the set is not within tolerance:
				// cannot happen with exact arithmetic; visit every row.
				active = l
			}
			continue
		}
		pgMaxNew, pgMinNew := math.Inf(-1), math.Inf(1)
		for i := 0; i < active; i++ {
			j := i + r.Intn(active-i)
			index[i], index[j] = index[j], index[i]
		}
		for s := 0; s < active; s++ {
			i := index[s]
			yi := -1.0
			if p.y[i] == pos {
				yi = 1
			}
			if s+2 < active {
				// The rows come in random order, which no hardware
				// prefetcher follows: ask for the cache lines of the row
				// two visits ahead while this one is worked on.
				n := index[s+2]
				lo, hi := p.x.Indptr[n], p.x.Indptr[n+1]
				kernels.PrefetchSparse(p.x.Indices[lo:hi], p.x.Data[lo:hi])
			}
			lo, hi := p.x.Indptr[i], p.x.Indptr[i+1]
			cols, vals := p.x.Indices[lo:hi], p.x.Data[lo:hi]
			g := kernels.SparseDot(w, cols, vals)
			if p.bias > 0 {
				g += w[nf] * p.bias
			}
			g = g*yi - 1 + alpha[i]*diag

			pg := 0.0
			switch {
			case alpha[i] == 0:
				if g > pgMaxOld {
					active--
					index[s], index[active] = index[active], index[s]
					s--
					continue
				}
				if g < 0 {
					pg = g
				}
			case alpha[i] == upper:
				if g < pgMinOld {
					active--
					index[s], index[active] = index[active], index[s]
					s--
					continue
				}
				if g > 0 {
					pg = g
				}
			default:
				pg = g
			}
			pgMaxNew = math.Max(pgMaxNew, pg)
			pgMinNew = math.Min(pgMinNew, pg)

			if math.Abs(pg) > 1e-12 {
				old := alpha[i]
				alpha[i] = math.Min(math.Max(old-g/(p.qd[i]+diag), 0), upper)
				d := (alpha[i] - old) * yi
				kernels.SparseAxpy(w, cols, vals, d)
				if p.bias > 0 {
					w[nf] += d * p.bias
				}
			}
		}
		iter++
		if pgMaxNew-pgMinNew <= p.tol {
			if active == l {
				break
			}
			// Converged on the active set: check the whole set.
			check = true
			continue
		}
		pgMaxOld, pgMinOld = shrinkBounds(pgMaxNew, pgMinNew)
		if active == l && math.IsInf(pgMaxOld, 1) && (math.IsInf(upper, 1) || math.IsInf(pgMinOld, -1)) {
			// The next pass could shrink nothing: check instead.
			check = true
		}
	}
	return dcdStats{iter, chk.skipped, false, p.primal(pos, w)}, nil
}

// shrinkBounds returns the thresholds of the next pass's shrinking from
// the largest and smallest projected gradient of the last: a row at 0
// whose gradient is above the first, or at the upper bound below the
// second, is shrunk; as in LIBLINEAR, a bound on the wrong side of 0
// shrinks nothing.
func shrinkBounds(pgMax, pgMin float64) (float64, float64) {
	if pgMax <= 0 {
		pgMax = math.Inf(1)
	}
	if pgMin >= 0 {
		pgMin = math.Inf(-1)
	}
	return pgMax, pgMin
}

// checker checks the whole set of a problem's rows (check), as a pass of
// the descent measures its projected gradients but without moving
// anything: the rows in their order, each dot product with the same w,
// which the memory reads ahead of (a pass of the descent visits the rows
// in random order and updates w as it goes). Most rows of a check move
// nowhere (their dual is 0 and their margin met), so the passes LIBLINEAR
// makes over the whole set after converging on the active one cost most
// of its time; a check costs a fraction of one.
//
// It also skips, exactly, the rows whose gradient it can bound: a row
// whose dual was 0 at the last check and still is has moved by at most
// ‖w − w_last‖·‖x_i‖ (Cauchy–Schwarz), so when its gradient then, less
// that, is still positive (by a margin far above rounding), its projected
// gradient is 0 and it stays out of the next pass, as it would had its
// gradient been computed.
type checker struct {
	// g holds each row's gradient at the last check, or for a row skipped
	// a lower bound of it (positive); low holds the same for the rows
	// whose dual was 0 then and −∞ for the others.
	g, low []float64
	// last is w at the last check, valid when seen.
	last []float64
	seen bool
	// every turns the skips off; skipped counts them.
	every   bool
	skipped int
}

// skipMargin is how far above 0 a bound must be to skip a row, relative to
// the size of the dot product (1 + ‖w‖·‖x_i‖): far above its rounding
// error, which is about the number of terms times 1.1e-16 of that.
const skipMargin = 1e-9

// check computes, at the weights w and duals alpha, the gradient of every
// row (c.g) and returns the largest and smallest projected gradient over
// the whole set.
func (c *checker) check(p *dcdProblem, pos int, w, alpha []float64, diag, upper float64) (pgMax, pgMin float64) {
	l, nf := p.x.Rows, p.x.Cols
	if c.g == nil {
		c.g, c.low, c.last = make([]float64, l), make([]float64, l), make([]float64, len(w))
	}
	// moved is ‖w − w_last‖ (+∞ at the first check: nothing is skipped)
	// and size ‖w‖.
	moved, size := math.Inf(1), 0.0
	if c.seen && !c.every {
		moved = 0
		for j, v := range w {
			d := v - c.last[j]
			moved += d * d
			size += v * v
		}
		moved, size = math.Sqrt(moved), math.Sqrt(size)
	}
	copy(c.last, w)
	c.seen = true
	pgMax, pgMin = math.Inf(-1), math.Inf(1)
	for i := range l {
		if alpha[i] == 0 {
			n := math.Sqrt(p.qd[i])
			if b := c.low[i] - moved*n; b > skipMargin*(1+size*n) {
				c.g[i], c.low[i] = b, b
				c.skipped++
				pgMax, pgMin = max(pgMax, 0), min(pgMin, 0)
				continue
			}
		}
		lo, hi := p.x.Indptr[i], p.x.Indptr[i+1]
		v := kernels.SparseDot(w, p.x.Indices[lo:hi], p.x.Data[lo:hi])
		if p.bias > 0 {
			v += w[nf] * p.bias
		}
		if p.y[i] != pos {
			v = -v
		}
		v = v - 1 + alpha[i]*diag
		c.g[i], c.low[i] = v, math.Inf(-1)
		pg := 0.0
		switch {
		case alpha[i] == 0:
			pg = min(v, 0)
			c.low[i] = v
		case alpha[i] == upper:
			pg = max(v, 0)
		default:
			pg = v
		}
		pgMax, pgMin = max(pgMax, pg), min(pgMin, pg)
	}
	return pgMax, pgMin
}

// primalChecked is primal from the gradients g of a check at w (see
// checker): row i's margin 1 − y_i·w·x_i is α_i·diag − g_i, and a row the
// check skipped has a positive gradient at a zero dual, so no loss.
func (p *dcdProblem) primalChecked(w, alpha, g []float64, diag float64) float64 {
	return p.objective(w, func(i int) float64 { return alpha[i]*diag - g[i] })
}

// primal returns ½‖w‖² + C Σ loss for the problem "class pos against the
// rest".
func (p *dcdProblem) primal(pos int, w []float64) float64 {
	nf := p.x.Cols
	return p.objective(w, func(i int) float64 {
		cols, vals := p.x.Row(i)
		f := kernels.SparseDot(w, cols, vals)
		if p.bias > 0 {
			f += w[nf] * p.bias
		}
		yi := -1.0
		if p.y[i] == pos {
			yi = 1
		}
		return 1 - yi*f
	})
}

// objective returns ½‖w‖² + C Σ_i loss(margin(i)) over the rows, where
// margin(i) is row i's 1 − y_i·w·x_i and the loss is its positive part
// (hinge) or that squared.
func (p *dcdProblem) objective(w []float64, margin func(i int) float64) float64 {
	reg := 0.0
	for _, v := range w {
		reg += v * v
	}
	loss := 0.0
	for i := range p.x.Rows {
		if m := margin(i); m > 0 {
			if p.hinge {
				loss += m
			} else {
				loss += m * m
			}
		}
	}
	return 0.5*reg + p.c*loss
}
