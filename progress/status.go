package progress

import (
	"fmt"
	"math"

	"github.com/semitopic/semitopic/internal/enum"
)

// Status says how a fit ended, as gonum's optimize.Status does for an
// optimisation: every estimator's result carries one (in its
// Convergence), and model.Info keeps it with a saved model.
type Status int

// The statuses.
const (
	// Unknown is the zero Status: how the fit ended was not recorded (a
	// model saved before fits reported it, or one no fit made).
	Unknown Status = iota
	// Converged: the fit's stopping rule was met.
	Converged
	// IterationLimit: the fit stopped at its iteration limit (MaxIter)
	// before its stopping rule was met. The result is usable, but more
	// iterations or a larger tolerance would change it (scikit-learn
	// warns with a ConvergenceWarning).
	IterationLimit
	// Cancelled: the fit's context was done before the fit ended. Fits
	// that return a result then (the state their last complete step
	// left) return the context's error with it.
	Cancelled
	// FixedIterations: the fit ran the iterations it was given with no
	// stopping rule to meet (a negative tolerance; LDA without
	// evaluations), so there is no convergence to report.
	FixedIterations
)

var statusNames = []string{"unknown", "converged", "iteration-limit", "cancelled", "fixed-iterations"}

// String returns the status's name: "unknown", "converged",
// "iteration-limit", "cancelled" or "fixed-iterations".
func (s Status) String() string { return enum.Name(s, statusNames, "Status") }

// MarshalText writes the status's name, so that saved files hold names.
func (s Status) MarshalText() ([]byte, error) {
	return enum.MarshalText(s, statusNames, "fit status")
}

// UnmarshalText reads a status's name.
func (s *Status) UnmarshalText(b []byte) error {
	v, err := enum.Parse[Status](string(b), statusNames, "fit status")
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Convergence is how a fit ended: its Status, the iteration limit it ran
// under and, where its stopping rule compares a measured quantity with a
// tolerance, the rule's last measurement. The zero value is an unknown
// ending.
type Convergence struct {
	// Status says how the fit ended.
	Status Status `json:"status"`
	// MaxIter is the iteration limit the fit ran under (passes for LDA,
	// iterations of each restart for CorEx, of each factorization for
	// theme models); 0 when unknown.
	MaxIter int `json:"max_iter,omitempty"`
	// Measure names what the stopping rule measured at its last check,
	// Value is that measurement and Tol the tolerance it was compared
	// with: the rule is met when Value < Tol. Measure is "" when the rule
	// made no check (too few iterations) or the estimator cannot describe
	// it (a stopping rule of the caller's).
	Measure string  `json:"measure,omitempty"`
	Value   float64 `json:"value,omitempty"`
	Tol     float64 `json:"tol,omitempty"`
}

// WithMeasure returns c with the stopping rule's last measurement, or c
// unchanged when value or tol is not a finite number.
func (c Convergence) WithMeasure(measure string, value, tol float64) Convergence {
	if math.IsNaN(value) || math.IsInf(value, 0) || math.IsNaN(tol) || math.IsInf(tol, 0) {
		return c
	}
	c.Measure, c.Value, c.Tol = measure, value, tol
	return c
}

// String describes the ending in words, as "converged (relative decrease
// of the objective 8.1e-05 < tol 0.0001)" or "stopped at its iteration
// limit (200) before converging (relative decrease of the objective
// 0.0031 ≥ tol 0.0001)".
func (c Convergence) String() string {
	measured := ""
	if c.Measure != "" {
		op := "≥"
		if c.Value < c.Tol {
			op = "<"
		}
		measured = fmt.Sprintf(" (%s %.2g %s tol %.2g)", c.Measure, c.Value, op, c.Tol)
	}
	limit := ""
	if c.MaxIter > 0 {
		limit = fmt.Sprintf(" (%d)", c.MaxIter)
	}
	switch c.Status {
	case Converged:
		return "converged" + measured
	case IterationLimit:
		return "stopped at its iteration limit" + limit + " before converging" + measured
	case Cancelled:
		return "cancelled before it ended"
	case FixedIterations:
		return "ran its fixed number of iterations" + limit + " with no stopping rule"
	}
	return c.Status.String()
}
