package nmf

import (
	"context"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/sparse"
)

// The tracker stops a fit whose objective stops being finite and names
// the iteration.
func TestTrackerStopsOnNonFinite(t *testing.T) {
	tr := &tracker{maxIter: 10, stop: RelativeDecrease{0}}
	if tr.start(3) || tr.step(2) {
		t.Fatal("stopped on finite objectives")
	}
	if !tr.step(math.NaN()) || !tr.done() {
		t.Fatal("did not stop on NaN")
	}
	if tr.err == nil || !strings.Contains(tr.err.Error(), "iteration 2") {
		t.Fatalf("err = %v", tr.err)
	}
	tr = &tracker{maxIter: 10}
	if !tr.start(math.Inf(1)) || tr.err == nil || !strings.Contains(tr.err.Error(), "start") {
		t.Fatalf("start: err = %v", tr.err)
	}
}

// Entries whose squares overflow are rejected before any work.
func TestFitRejectsHugeEntries(t *testing.T) {
	x := mat.NewDense(3, 3, []float64{1, 2, 1e308, 0, 1, 1, 2, 0, 1})
	_, err := Fit(context.Background(), x, Config{K: 2, MaxIter: 5})
	if err == nil || !strings.Contains(err.Error(), "row 0, column 2") {
		t.Fatalf("err = %v", err)
	}
}

// A nil model or matrix is an error, not a panic.
func TestTSNMFTransformNil(t *testing.T) {
	var r *TSNMFModel
	if _, err := r.Transform(context.Background(), mat.NewDense(1, 1, []float64{1})); err == nil {
		t.Error("nil result: no error")
	}
	r = &TSNMFModel{}
	r.H = mat.NewDense(1, 1, []float64{1})
	var x *sparse.CSR
	if _, err := r.TransformLabeled(context.Background(), x, nil); err == nil {
		t.Error("nil X: no error")
	}
}
