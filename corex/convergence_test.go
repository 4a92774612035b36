package corex

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/blocks"
	"github.com/semitopic/semitopic/progress"
)

// TestConvergence checks the status of a fit in memory and out of core:
// at the limit, with the rule's measurement once it has one; converged,
// with restarts; without a rule.
func TestConvergence(t *testing.T) {
	x, vocab, _ := planted(200, 3, 6, 10, 5)
	src, err := blocks.FromCSR(x, nil, 64)
	if err != nil {
		t.Fatal(err)
	}
	const measure = "change of the mean total correlation over 5 iterations, in nats,"
	for _, c := range []struct {
		name    string
		cfg     Config
		want    progress.Status
		measure string
	}{
		{"MaxIter 1", Config{K: 3, MaxIter: 1}, progress.IterationLimit, ""},
		{"MaxIter 12", Config{K: 3, MaxIter: 12, Tol: 1e-300}, progress.IterationLimit, measure},
		{"converged", Config{K: 3, Restarts: 2, MaxIter: 500}, progress.Converged, measure},
		{"no rule", Config{K: 3, MaxIter: 12, Tol: -1}, progress.FixedIterations, ""},
	} {
		c.cfg.Vocab = vocab
		mem, err := Fit(context.Background(), x, c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		ooc, err := FitBlocks(context.Background(), src, blocks.NewMemStore(), c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		for where, m := range map[string]*Model{"in memory": mem, "out of core": ooc} {
			got := m.Convergence
			if got.Status != c.want || got.Measure != c.measure || got.MaxIter != c.cfg.MaxIter {
				t.Errorf("%s, %s: %+v after %d iterations, want %v measuring %q", c.name, where, got, m.Iterations, c.want, c.measure)
			}
			if c.want == progress.Converged && (m.Iterations >= c.cfg.MaxIter || got.Value >= got.Tol) {
				t.Errorf("%s, %s: %+v after %d iterations", c.name, where, got, m.Iterations)
			}
			if c.want == progress.IterationLimit && m.Iterations != c.cfg.MaxIter {
				t.Errorf("%s, %s: %d iterations", c.name, where, m.Iterations)
			}
		}
		// The status travels with the saved state.
		back, err := FromState(mem.State(), vocab)
		if err != nil || back.Convergence != mem.Convergence {
			t.Errorf("%s: state round trip: %v, %+v, want %+v", c.name, err, back.Convergence, mem.Convergence)
		}
	}
}

// TestStateWithoutConvergence loads a state saved before fits reported
// their status: it loads, with an unknown one.
func TestStateWithoutConvergence(t *testing.T) {
	x, vocab, _ := planted(60, 2, 4, 3, 1)
	m, err := Fit(context.Background(), x, Config{K: 2, Vocab: vocab, MaxIter: 5})
	if err != nil {
		t.Fatal(err)
	}
	s := m.State()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"convergence":{"status":"iteration-limit"`) {
		t.Fatalf("the state's JSON holds no status: %s", b)
	}
	old := strings.Replace(string(b), `"convergence":`, `"converged":false,"unused":`, 1)
	var back State
	if err := json.Unmarshal([]byte(old), &back); err != nil {
		t.Fatal(err)
	}
	back.Alpha, back.MI, back.MINats, back.Sign, back.Info = s.Alpha, s.MI, s.MINats, s.Sign, s.Info
	loaded, err := FromState(&back, vocab)
	if err != nil || loaded.Convergence.Status != progress.Unknown {
		t.Errorf("old state: %v, %+v", err, loaded)
	}
}
