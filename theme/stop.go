package theme

import (
	"fmt"

	"github.com/semitopic/semitopic/nmf"
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

// engineStop returns the nmf stopping rule for rule and tol (0: the
// rule's default tolerance).
func engineStop(rule StopRule, tol float64) nmf.Stop {
	if rule == StopRelative {
		if tol == 0 {
			tol = DefaultRelativeTol
		}
		return nmf.RelativeDecrease{Tol: tol}
	}
	if tol == 0 {
		tol = DefaultSklearnTol
	}
	return nmf.SklearnEvery10{Tol: tol}
}
