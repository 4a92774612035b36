package lda

import (
	"context"
	"math"
	"testing"

	"github.com/semitopic/semitopic/progress"
)

// TestConvergence checks how a fit says it ended: at the limit, with the
// change of the last two evaluated perplexities; converged by Tol; with
// no rule (no evaluations, the default); unknown for a model no fit made.
func TestConvergence(t *testing.T) {
	syn := plant(4, 3, 10, 150, 60, 0.3)
	ctx := context.Background()
	const measure = "change of the training perplexity between evaluations"
	for _, c := range []struct {
		name    string
		cfg     Config
		want    progress.Status
		measure string
	}{
		{"MaxIter 1", Config{K: 3, MaxIter: 1, EvaluateEvery: 1}, progress.IterationLimit, ""},
		{"MaxIter 3", Config{K: 3, MaxIter: 3, EvaluateEvery: 1, Tol: 1e-300}, progress.IterationLimit, measure},
		{"converged", Config{K: 3, MaxIter: 200, EvaluateEvery: 2, Tol: 0.5}, progress.Converged, measure},
		{"no evaluations", Config{K: 3, MaxIter: 3}, progress.FixedIterations, ""},
		{"a Tol that never stops", Config{K: 3, MaxIter: 3, EvaluateEvery: 1, Tol: -1}, progress.FixedIterations, ""},
	} {
		m, err := Fit(ctx, syn.x, c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		got := m.Convergence()
		if got.Status != c.want || got.Measure != c.measure || got.MaxIter != c.cfg.MaxIter {
			t.Errorf("%s: %+v after %d passes, want %v measuring %q", c.name, got, m.Passes(), c.want, c.measure)
			continue
		}
		if c.measure == "" {
			continue
		}
		h := m.History()
		want := math.Abs(h[len(h)-1].Objective - h[len(h)-1-c.cfg.EvaluateEvery].Objective)
		if got.Value != want || got.Tol != c.cfg.Tol || (c.want == progress.Converged) != (got.Value < got.Tol) {
			t.Errorf("%s: %+v, want the change %v", c.name, got, want)
		}
	}
	m, err := New(syn.x.Cols, Config{K: 3})
	if err != nil || m.Convergence().Status != progress.Unknown {
		t.Errorf("New: %v, %+v", err, m.Convergence())
	}
}
