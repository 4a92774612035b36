package nmf

import (
	"math"

	"github.com/semitopic/semitopic/progress"
)

// A Stop is a stopping rule: after every iteration it is shown the
// objective history — objective[0] at the starting point (masks applied),
// objective[t] after t iterations — and says whether the fit has
// converged. Fit also stops after Config.MaxIter iterations whatever the
// rule says. A Stop must not keep state: one value may serve several fits.
type Stop interface {
	Converged(objective []float64) bool
}

// RelativeDecrease stops after the first iteration whose relative decrease
// of the objective, (f_{t−1} − f_t)/f_{t−1}, is below Tol (or whose
// previous objective is not positive); a negative Tol never stops. It is
// the engine's rule (Config.Tol), which the TS-NMF reference code uses.
type RelativeDecrease struct{ Tol float64 }

// Converged implements Stop.
func (r RelativeDecrease) Converged(objective []float64) bool {
	t := len(objective) - 1
	if r.Tol < 0 || t < 1 {
		return false
	}
	prev := objective[t-1]
	return prev <= 0 || (prev-objective[t])/prev < r.Tol
}

// SklearnEvery10 is scikit-learn's rule for its multiplicative-update
// solver (NMF(solver="mu")): every 10 iterations it compares the error
// e = √(2·objective) with the error at the previous check (the starting
// point's at iteration 10) and stops when it fell by less than Tol times
// the starting point's error. Tol ≤ 0 never stops.
type SklearnEvery10 struct{ Tol float64 }

// Converged implements Stop.
func (s SklearnEvery10) Converged(objective []float64) bool {
	t := len(objective) - 1
	if s.Tol <= 0 || t < 10 || t%10 != 0 {
		return false
	}
	e0 := math.Sqrt(2 * objective[0])
	prev := e0
	if t > 10 {
		prev = math.Sqrt(2 * math.Max(objective[t-10], 0))
	}
	e := math.Sqrt(2 * math.Max(objective[t], 0))
	return (prev-e)/e0 < s.Tol
}

// RelativeToFirst is the SSNMF reference code's rule: from iteration 2 on,
// it stops when the iteration decreased the objective by less than Tol
// times the objective after the first iteration, (f_{t−1} − f_t)/f_1 <
// Tol (or when f_1 is not positive). Tol ≤ 0 never stops.
type RelativeToFirst struct{ Tol float64 }

// Converged implements Stop.
func (r RelativeToFirst) Converged(objective []float64) bool {
	t := len(objective) - 1
	if r.Tol <= 0 || t < 2 {
		return false
	}
	first := objective[1]
	return first <= 0 || (objective[t-1]-objective[t])/first < r.Tol
}

// A described stopping rule is one of this package's: a fit reports what
// it measured last (Model.Convergence) and whether it could stop the fit
// at all. A rule of the caller's is reported by its status alone.
type described interface {
	// measure returns what the rule compared with its tolerance at its
	// last check in objective, and false when it made none.
	measure(objective []float64) (name string, value, tol float64, ok bool)
	// stops reports whether the rule can stop a fit (its tolerance allows
	// it).
	stops() bool
}

func (r RelativeDecrease) stops() bool { return r.Tol >= 0 }

func (r RelativeDecrease) measure(objective []float64) (string, float64, float64, bool) {
	t := len(objective) - 1
	if t < 1 || objective[t-1] <= 0 {
		return "", 0, 0, false
	}
	prev := objective[t-1]
	return "relative decrease of the objective", (prev - objective[t]) / prev, r.Tol, true
}

func (s SklearnEvery10) stops() bool { return s.Tol > 0 }

func (s SklearnEvery10) measure(objective []float64) (string, float64, float64, bool) {
	t := (len(objective) - 1) / 10 * 10 // the last check
	if t < 10 || objective[0] <= 0 {
		return "", 0, 0, false
	}
	e0 := math.Sqrt(2 * objective[0])
	prev := e0
	if t > 10 {
		prev = math.Sqrt(2 * math.Max(objective[t-10], 0))
	}
	e := math.Sqrt(2 * math.Max(objective[t], 0))
	return "decrease of the error over 10 iterations relative to the start's", (prev - e) / e0, s.Tol, true
}

func (r RelativeToFirst) stops() bool { return r.Tol > 0 }

func (r RelativeToFirst) measure(objective []float64) (string, float64, float64, bool) {
	t := len(objective) - 1
	if t < 2 || objective[1] <= 0 {
		return "", 0, 0, false
	}
	return "decrease of the objective relative to the first iteration's", (objective[t-1] - objective[t]) / objective[1], r.Tol, true
}

// convergence reports how a fit under the rule stop ended after the
// objective history hist: cancelled, converged (the rule said so), or
// stopped at maxIter.
func convergence(stop Stop, hist []float64, converged, cancelled bool, maxIter int) progress.Convergence {
	c := progress.Convergence{Status: progress.IterationLimit, MaxIter: maxIter}
	d, ok := stop.(described)
	switch {
	case cancelled:
		c.Status = progress.Cancelled
	case converged:
		c.Status = progress.Converged
	case ok && !d.stops():
		c.Status = progress.FixedIterations
		return c
	}
	if ok {
		if name, v, tol, ok := d.measure(hist); ok {
			c = c.WithMeasure(name, v, tol)
		}
	}
	return c
}
