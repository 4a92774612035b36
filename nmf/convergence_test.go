package nmf

import (
	"context"
	"errors"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/blocks"
	"github.com/semitopic/semitopic/progress"
)

// blockData is a rank-3 block matrix: an easy fit, which converges.
func blockData() *mat.Dense {
	x := mat.NewDense(30, 12, nil)
	for i := 0; i < 30; i++ {
		for j := 0; j < 12; j++ {
			if i/10 == j/4 {
				x.Set(i, j, 1+float64((i+j)%3))
			}
		}
	}
	return x
}

// TestFitConvergence checks the status of every way a fit ends, and what
// the rule measured last.
func TestFitConvergence(t *testing.T) {
	x := blockData()
	ctx := context.Background()
	for _, c := range []struct {
		name    string
		cfg     Config
		want    progress.Status
		measure string
	}{
		{"limit", Config{K: 3, MaxIter: 1}, progress.IterationLimit, "relative decrease of the objective"},
		{"converged", Config{K: 3, MaxIter: 500}, progress.Converged, "relative decrease of the objective"},
		{"no rule", Config{K: 3, MaxIter: 4, Tol: -1}, progress.FixedIterations, ""},
		{"sklearn limit", Config{K: 3, Init: InitRandom, MaxIter: 15, Stop: SklearnEvery10{Tol: 1e-12}}, progress.IterationLimit, "decrease of the error over 10 iterations relative to the start's"},
		{"sklearn before a check", Config{K: 3, Init: InitRandom, MaxIter: 5, Stop: SklearnEvery10{Tol: 1e-4}}, progress.IterationLimit, ""},
		{"sklearn converged", Config{K: 3, Init: InitRandom, MaxIter: 500, Stop: SklearnEvery10{Tol: 1e-4}}, progress.Converged, "decrease of the error over 10 iterations relative to the start's"},
		{"relative to first", Config{K: 3, Init: InitRandom, MaxIter: 3, Stop: RelativeToFirst{Tol: 1e-12}}, progress.IterationLimit, "decrease of the objective relative to the first iteration's"},
		{"sklearn no rule", Config{K: 3, MaxIter: 3, Stop: SklearnEvery10{}}, progress.FixedIterations, ""},
	} {
		res, err := Fit(ctx, x, c.cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := res.Convergence
		if got.Status != c.want || got.Measure != c.measure || got.MaxIter != max(c.cfg.MaxIter, 1) {
			t.Errorf("%s: %+v after %d iterations, want %v measuring %q", c.name, got, res.Iterations, c.want, c.measure)
			continue
		}
		switch c.want {
		case progress.IterationLimit:
			if res.Iterations != c.cfg.MaxIter || (got.Measure != "" && got.Value < got.Tol) {
				t.Errorf("%s: %+v after %d iterations", c.name, got, res.Iterations)
			}
			if s := got.String(); !strings.HasPrefix(s, "stopped at its iteration limit (") {
				t.Errorf("%s: %q", c.name, s)
			}
		case progress.Converged:
			if res.Iterations >= c.cfg.MaxIter || got.Value >= got.Tol {
				t.Errorf("%s: %+v after %d iterations", c.name, got, res.Iterations)
			}
		}
	}
	// The relative decrease is the last one of the history.
	res, err := Fit(ctx, x, Config{K: 3, MaxIter: 2})
	if err != nil {
		t.Fatal(err)
	}
	h := res.Objective
	if want := (h[1] - h[2]) / h[1]; res.Convergence.Value != want || res.Convergence.Tol != DefaultTol {
		t.Errorf("%+v, want value %v and tol %v", res.Convergence, want, DefaultTol)
	}
	// A rule of the caller's is reported without a measure.
	res, err = Fit(ctx, x, Config{K: 3, MaxIter: 3, Stop: neverStop{}})
	if err != nil || res.Convergence != (progress.Convergence{Status: progress.IterationLimit, MaxIter: 3}) {
		t.Errorf("caller's rule: %v, %+v", err, res)
	}
}

type neverStop struct{}

func (neverStop) Converged([]float64) bool { return false }

// TestFitCancelledConvergence checks that a cancelled fit's partial result
// says so, in memory and out of core, for NMF and TS-NMF.
func TestFitCancelledConvergence(t *testing.T) {
	x := randomSparse(150, 30, 0.2, 4)
	fits := map[string]func(ctx context.Context, cfg Config) (*Model, error){
		"in memory": func(ctx context.Context, cfg Config) (*Model, error) { return Fit(ctx, x, cfg) },
		"TS-NMF": func(ctx context.Context, cfg Config) (*Model, error) {
			r, err := TSNMF(ctx, x, TSNMFConfig{Config: cfg})
			if r == nil {
				return nil, err
			}
			return &r.Model, err
		},
		"out of core": func(ctx context.Context, cfg Config) (*Model, error) {
			src, _ := blocks.FromCSR(x, nil, 40)
			return FitBlocks(ctx, src, blocks.NewMemStore(), cfg)
		},
		"TS-NMF out of core": func(ctx context.Context, cfg Config) (*Model, error) {
			labels := make([][]string, x.Rows)
			labels[0] = []string{"a"}
			src, _ := blocks.FromCSR(x, labels, 40)
			r, err := TSNMFBlocks(ctx, src, blocks.NewMemStore(), TSNMFConfig{Config: cfg, LabelNames: []string{"a"}})
			if r == nil {
				return nil, err
			}
			return &r.Model, err
		},
	}
	for name, fit := range fits {
		ctx, cancel := context.WithCancel(context.Background())
		cfg := Config{K: 3, Seed: 1, MaxIter: 50, Tol: -1, Progress: func(s progress.Step) {
			if s.Iter == 2 {
				cancel()
			}
		}}
		res, err := fit(ctx, cfg)
		cancel()
		if !errors.Is(err, context.Canceled) || res == nil || res.Convergence.Status != progress.Cancelled {
			t.Errorf("%s, cancelled: %v, %+v", name, err, res)
		}
		// Out of core too, the limit and the rule are reported.
		cfg.Progress, cfg.MaxIter, cfg.Tol = nil, 1, 0
		if res, err = fit(context.Background(), cfg); err != nil || res.Convergence.Status != progress.IterationLimit || res.Convergence.MaxIter != 1 {
			t.Errorf("%s, MaxIter 1: %v, %+v", name, err, res)
		}
		cfg.MaxIter, cfg.Tol = 500, 1e-2
		if res, err = fit(context.Background(), cfg); err != nil || res.Convergence.Status != progress.Converged || res.Iterations >= 500 {
			t.Errorf("%s, tol 1e-2: %v, %+v", name, err, res)
		}
	}
}

// MinIter keeps the rule from stopping a fit early: a tolerance that
// stops the fit after its first iteration stops it after MinIter, still
// converged; MaxIter bounds it; a negative MinIter is an error.
func TestMinIter(t *testing.T) {
	x := blockData()
	ctx := context.Background()
	for _, c := range []struct {
		cfg   Config
		iters int
		want  progress.Status
	}{
		{Config{K: 3, Tol: 0.9}, 1, progress.Converged},
		{Config{K: 3, Tol: 0.9, MinIter: 7}, 7, progress.Converged},
		{Config{K: 3, Tol: 0.9, MinIter: 7, MaxIter: 4}, 4, progress.IterationLimit},
	} {
		r, err := Fit(ctx, x, c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		if r.Iterations != c.iters || r.Convergence.Status != c.want {
			t.Errorf("MinIter %d, MaxIter %d: %d iterations, %v; want %d, %v", c.cfg.MinIter, c.cfg.MaxIter, r.Iterations, r.Convergence, c.iters, c.want)
		}
	}
	if _, err := Fit(ctx, x, Config{K: 3, MinIter: -1}); err == nil || !strings.Contains(err.Error(), "MinIter") {
		t.Errorf("MinIter -1: %v", err)
	}
}
