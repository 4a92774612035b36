package nmf

import (
	"context"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
)

// Fit factorizes X (documents × terms, a *sparse.CSR or a dense gonum
// matrix) as X ≈ WH with the configuration cfg; see the package
// documentation for the model, the updates and the stopping rule.
//
// Bad input — a NaN, infinite or negative entry, an all-zero or empty X,
// K < 1, an NNDSVD initialisation with K > min(n, m), factors, masks or
// weights of the wrong shape or with bad values — is reported as an error
// before any work. If ctx is cancelled during the fit, Fit returns the
// factors reached so far, with their objective history, together with
// ctx.Err().
func Fit(ctx context.Context, x Matrix, cfg Config) (*Model, error) {
	t0 := time.Now()
	d, err := checkData(x)
	if err != nil {
		return nil, err
	}
	d, cfg, g, notes, err := guided(d, cfg)
	if err != nil {
		return nil, err
	}
	cfg, err = checkConfig(cfg, d)
	if err != nil {
		return nil, err
	}
	if err := checkScale(d); err != nil {
		return nil, err
	}
	res, err := fitChecked(ctx, t0, d, cfg)
	if res != nil {
		res.Notes = append(res.Notes, notes...)
		g.finish(res)
	}
	return res, err
}

// maxEntry bounds the entries a fit accepts: the objectives and the SVD of
// the NNDSVD start square them, and beyond √(max float64) ≈ 1.3e154 the
// squares overflow.
const maxEntry = 1e150

// checkScale reports an entry of X so large that the fit would overflow,
// before any work, naming it.
func checkScale(d *data) error {
	report := func(v float64, i, j int) error {
		return fmt.Errorf("nmf: X has the entry %g at row %d, column %d; entries above %g overflow the float64 range when squared (rescale the data, for example with tf-idf or L2-normalised rows)", v, i, j, maxEntry)
	}
	if d.sp != nil {
		for i := 0; i < d.n; i++ {
			cols, vals := d.sp.Row(i)
			for p, v := range vals {
				if v > maxEntry {
					return report(v, i, int(cols[p]))
				}
			}
		}
		return nil
	}
	for i := 0; i < d.n; i++ {
		for j, v := range d.dense.RawRowView(i) {
			if v > maxEntry {
				return report(v, i, j)
			}
		}
	}
	return nil
}

// fitChecked runs a fit on validated data and configuration.
func fitChecked(ctx context.Context, t0 time.Time, d *data, cfg Config) (*Model, error) {
	var xt *sparse.CSR
	transpose := func() *sparse.CSR {
		if xt == nil {
			xt = d.sp.T()
		}
		return xt
	}
	op := func() linOp {
		if d.sp != nil {
			return sparseOp{d.sp, transpose()}
		}
		return denseOp{d.dense}
	}
	w, h, used, err := initFactors(ctx, d, op, cfg)
	if err != nil {
		return nil, err
	}
	// w and h are the starts' copies: the fit holds the caller's no longer,
	// so that a caller who drops them too gets that memory back.
	cfg.W0, cfg.H0 = nil, nil
	stop := cfg.Stop
	if stop == nil {
		stop = RelativeDecrease{cfg.Tol}
	}
	tr := &tracker{maxIter: cfg.MaxIter, minIter: cfg.MinIter, stop: stop, report: cfg.Progress, t0: t0}
	var wm, hm *mat.Dense
	var terms []float64
	var bs []*mat.Dense
	if d.sp != nil && cfg.Weights == nil {
		var xtp *sparse.CSR
		if needsTranspose(cfg, d.sp.NNZ()) { // the H update is the only user of Xᵀ
			xtp = transpose()
		}
		xt = nil // an NNDSVD start's transpose is not kept beyond it
		f := newSparseFit(cfg, d.sp, xtp, w, h)
		err = f.run(ctx, tr)
		wm, hm = f.factors()
		terms, bs = f.terms, f.cpl.bs()
	} else {
		xd := d.dense
		if xd == nil {
			xd = d.sp.ToDense()
		}
		if h == nil {
			h = copyRaw(cfg.Fixed.H())
		}
		f := newDenseFit(cfg, xd, w, h)
		err = f.run(ctx, tr)
		wm, hm = f.w, f.h
		terms, bs = f.terms, f.cpl.bs()
	}
	if cfg.Fixed != nil {
		hm = cfg.Fixed.H()
	}
	if err == nil && tr.err != nil {
		return nil, tr.err
	}
	res := &Model{
		W:           wm,
		H:           hm,
		Loss:        cfg.Loss,
		Objective:   tr.hist,
		Iterations:  tr.iters,
		Convergence: tr.convergence(err != nil && ctx.Err() != nil),
		Init:        used,
		Elapsed:     time.Since(t0),
		B:           bs,
		Terms:       append([]float64(nil), terms...),
	}
	return res, err
}

// tracker keeps the objective history and applies the stopping rule.
type tracker struct {
	maxIter   int
	minIter   int // the rule stops no fit before it
	stop      Stop
	report    progress.Func
	t0        time.Time
	hist      []float64
	iters     int
	converged bool
	// err is set when the objective stops being a finite number; the fit
	// then stops and returns it instead of non-finite factors.
	err error
}

// finite records an error and reports false when obj is NaN or infinite.
func (t *tracker) finite(obj float64) bool {
	if !math.IsNaN(obj) && !math.IsInf(obj, 0) {
		return true
	}
	at := fmt.Sprintf("iteration %d", t.iters)
	if t.iters == 0 {
		at = "the start"
	}
	t.err = fmt.Errorf("nmf: the objective is %v at %s: the computation overflowed the float64 range (rescale the data, for example with tf-idf or L2-normalised rows)", obj, at)
	return false
}

// convergence reports how the fit ended; cancelled says that it was
// stopped before.
func (t *tracker) convergence(cancelled bool) progress.Convergence {
	return convergence(t.stop, t.hist, t.converged, cancelled, t.maxIter)
}

// done reports whether no further iteration should run.
func (t *tracker) done() bool { return t.converged || t.err != nil || t.iters >= t.maxIter }

// start records the objective of the starting point.
func (t *tracker) start(obj float64) bool {
	t.hist = append(t.hist[:0], obj)
	return !t.finite(obj)
}

// step counts one more iteration with objective obj and reports whether
// the tolerance stops the fit.
func (t *tracker) step(obj float64) bool {
	t.iters++
	return t.observe(obj)
}

// advance counts one more iteration whose objective is not known yet.
func (t *tracker) advance() { t.iters++ }

// observe records the objective of the current state (after t.iters
// iterations), reports it, and reports whether the tolerance stops the
// fit there.
func (t *tracker) observe(obj float64) bool {
	t.hist = append(t.hist, obj)
	if !t.finite(obj) {
		return true
	}
	if t.iters == 0 {
		return false
	}
	if t.report != nil {
		t.report(progress.Step{Iter: t.iters, Total: t.maxIter, Runs: 1, Objective: obj, Elapsed: time.Since(t.t0)})
	}
	if t.stop != nil && t.iters >= t.minIter && t.stop.Converged(t.hist) {
		t.converged = true
		return true
	}
	return false
}
