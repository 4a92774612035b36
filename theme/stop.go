package theme

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/sparse"
)

// StopRule selects when a factorization stops.
type StopRule int

// The stopping rules.
const (
	// StopSklearn is scikit-learn's rule for its multiplicative-update
	// solver, which the thesis' fits used: every 10 iterations, stop when
	// the error √(2·objective) fell by less than Tol times the error of
	// the starting point since the previous check (Tol 0 means 1e-4,
	// scikit-learn's default), or after MaxIter iterations.
	StopSklearn StopRule = iota
	// StopRelative is the nmf engine's rule: stop after the first
	// iteration whose relative decrease of the objective is below Tol
	// (0 means 1e-5), or after MaxIter iterations.
	StopRelative
)

var stopNames = []string{"sklearn", "relative"}

// String returns "sklearn" or "relative".
func (s StopRule) String() string {
	if s >= 0 && int(s) < len(stopNames) {
		return stopNames[s]
	}
	return fmt.Sprintf("StopRule(%d)", int(s))
}

// The default tolerances of the stopping rules.
const (
	DefaultSklearnTol  = 1e-4
	DefaultRelativeTol = 1e-5
)

// objective computes the engine's objective (½‖X−WH‖² or the generalized
// KL divergence) of X against W·H, with the engine's guard for a zero
// (WH)_ij at a stored entry. fixed, when not nil, is h prepared, whose
// transpose and row sums it reuses.
func objective(x *sparse.CSR, w, h *mat.Dense, fixed *nmf.FixedH, loss nmf.Loss) (float64, error) {
	n, _ := x.Dims()
	k, m := h.Dims()
	var ht *mat.Dense
	if fixed != nil {
		ht = fixed.T()
	} else {
		ht = mat.NewDense(m, k, nil)
		ht.CloneFrom(h.T())
	}
	wh := make([]float64, x.NNZ())
	if err := sparse.SampledDot(wh, x, w, ht); err != nil {
		return 0, err
	}
	if loss == nmf.KullbackLeibler {
		d := 0.0
		for p, v := range x.Data {
			q := wh[p]
			if q == 0 {
				q = nmf.Epsilon
			}
			if v > 0 {
				d += v*math.Log(v/q) - v
			}
		}
		colW := make([]float64, k)
		for i := 0; i < n; i++ {
			for t, v := range w.RawRowView(i) {
				colW[t] += v
			}
		}
		for t := 0; t < k; t++ {
			var rs float64
			if fixed != nil {
				rs = fixed.RowSums()[t]
			} else {
				for _, v := range h.RawRowView(t) {
					rs += v
				}
			}
			d += colW[t] * rs
		}
		return d, nil
	}
	f := 0.0
	for p, v := range x.Data {
		f += (v-wh[p])*(v-wh[p]) - wh[p]*wh[p]
	}
	var gw, gh mat.Dense
	gw.Mul(w.T(), w)
	gh.Mul(h, h.T())
	for a := 0; a < k; a++ {
		for b := 0; b < k; b++ {
			f += gw.At(a, b) * gh.At(a, b)
		}
	}
	return f / 2, nil
}

// errStopped marks a fit stopped by the scikit-learn rule.
var errStopped = errors.New("theme: stopped by the tolerance")

// fitWithRule runs nmf.Fit with the stopping rule: StopRelative passes
// tol to the engine; StopSklearn watches the objective through Progress
// and stops the fit (by cancelling its context) when scikit-learn would.
func fitWithRule(ctx context.Context, x *sparse.CSR, ec nmf.Config, rule StopRule, tol float64) (*nmf.Result, error) {
	if rule == StopRelative {
		if tol == 0 {
			tol = DefaultRelativeTol
		}
		ec.Tol = tol
		return nmf.Fit(ctx, x, ec)
	}
	if tol == 0 {
		tol = DefaultSklearnTol
	}
	// The starting point's error, with the masks applied as the engine
	// applies them.
	w0, h0 := ec.W0, ec.H0
	if ec.Fixed != nil {
		h0 = ec.Fixed.H()
	}
	if ec.WMask != nil && !ec.FixW {
		w0 = mat.DenseCopyOf(w0)
		w0.MulElem(w0, ec.WMask)
	}
	if ec.HMask != nil && !ec.FixH && ec.Fixed == nil {
		h0 = mat.DenseCopyOf(h0)
		h0.MulElem(h0, ec.HMask)
	}
	d0, err := objective(x, w0, h0, ec.Fixed, ec.Loss)
	if err != nil {
		return nil, err
	}
	e0 := math.Sqrt(2 * d0)
	prev := e0
	fctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stopped := false
	ec.Tol = -1
	ec.Progress = func(it int, obj float64) {
		if it%10 != 0 || stopped {
			return
		}
		e := math.Sqrt(2 * math.Max(obj, 0))
		if tol > 0 && (prev-e)/e0 < tol {
			stopped = true
			cancel(errStopped)
		}
		prev = e
	}
	res, err := nmf.Fit(fctx, x, ec)
	if stopped && res != nil && ctx.Err() == nil {
		res.Converged = true
		return res, nil
	}
	return res, err
}
