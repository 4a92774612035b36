package beam

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/blocks"
	"github.com/semitopic/semitopic/corex"
	"github.com/semitopic/semitopic/lda"
	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/shard"
)

// The main module's trainers give on Beam what blocks.Run gives in memory,
// to 1e-9 relative: the same passes with the blocks' sums taken in another
// order.

// beamFit runs tr on Beam over c, returning the state folder's store.
func (c *corpus) beamFit(t *testing.T, tr blocks.Trainer) *shard.Store {
	t.Helper()
	state := filepath.Join(t.TempDir(), "state")
	if err := Run(context.Background(), nil, c.dir, state, tr); err != nil {
		t.Fatal(err)
	}
	st, err := shard.NewStore(state)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// span returns block i's first document and number of documents.
func (c *corpus) span(i int) (int, int) {
	return i * c.rows, min(c.rows, c.x.Rows-i*c.rows)
}

func (c *corpus) numBlocks() int { return (c.x.Rows + c.rows - 1) / c.rows }

// raw returns a's values row after row.
func raw(a mat.Matrix) []float64 {
	r, k := a.Dims()
	out := make([]float64, 0, r*k)
	for i := range r {
		for j := range k {
			out = append(out, a.At(i, j))
		}
	}
	return out
}

// sameSteps checks two progress histories.
func sameObjectives(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range want {
		if math.IsNaN(want[i]) != math.IsNaN(got[i]) {
			t.Fatalf("%s[%d] = %v, want %v", what, i, got[i], want[i])
		}
		if !math.IsNaN(want[i]) {
			closeTo(t, fmt.Sprintf("%s[%d]", what, i), got[i:i+1], want[i:i+1], 1e-9)
		}
	}
}

func TestNMFMatchesInMemory(t *testing.T) {
	c := writeCorpus(t, 61, 23, 15, 11)
	docs, terms := c.x.Rows, c.x.Cols
	cases := []struct {
		name string
		new  func() (*nmf.Trainer, error)
	}{
		{"frobenius", func() (*nmf.Trainer, error) {
			return nmf.NewTrainer(docs, terms, nmf.Config{K: 4, Seed: 3, MaxIter: 12, Tol: -1})
		}},
		{"kl-tol", func() (*nmf.Trainer, error) {
			return nmf.NewTrainer(docs, terms, nmf.Config{K: 3, Loss: nmf.KullbackLeibler, Seed: 5, MaxIter: 40, Tol: 1e-3})
		}},
		{"tsnmf", func() (*nmf.Trainer, error) {
			return nmf.NewTSNMFTrainer(docs, terms, nmf.TSNMFConfig{Config: nmf.Config{K: 3, Seed: 9, MaxIter: 10, Tol: -1}, LabelNames: []string{"a", "b"}})
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want, err := tc.new()
			if err != nil {
				t.Fatal(err)
			}
			mem := c.inMemory(t, want)
			got, err := tc.new()
			if err != nil {
				t.Fatal(err)
			}
			st := c.beamFit(t, got)
			wm, err := want.Model()
			if err != nil {
				t.Fatal(err)
			}
			gm, err := got.Model()
			if err != nil {
				t.Fatal(err)
			}
			if gm.Iterations != wm.Iterations || gm.Convergence.Status != wm.Convergence.Status || gm.Convergence.Status == progress.Cancelled {
				t.Fatalf("%d iterations (%v), want %d (%v)", gm.Iterations, gm.Convergence.Status, wm.Iterations, wm.Convergence.Status)
			}
			sameObjectives(t, "objective", gm.Objective, wm.Objective)
			closeTo(t, "H", raw(gm.H), raw(wm.H), 1e-9)
			for i := range c.numBlocks() {
				_, rows := c.span(i)
				gw, err := got.W(st, i, rows)
				if err != nil {
					t.Fatal(err)
				}
				ww, err := want.W(mem, i, rows)
				if err != nil {
					t.Fatal(err)
				}
				closeTo(t, fmt.Sprintf("W of block %d", i), raw(gw), raw(ww), 1e-9)
			}
		})
	}
}

func TestLDAMatchesInMemory(t *testing.T) {
	c := writeCorpus(t, 50, 17, 12, 12)
	cases := map[string]lda.Config{
		"batch":  {K: 3, Seed: 5, MaxIter: 4, EvaluateEvery: 2},
		"online": {K: 2, Seed: 6, MaxIter: 2, Method: lda.Online, BatchSize: 20},
	}
	for name, cfg := range cases {
		t.Run(name, func(t *testing.T) {
			want, err := lda.NewTrainer(c.x.Rows, c.x.Cols, cfg)
			if err != nil {
				t.Fatal(err)
			}
			c.inMemory(t, want)
			got, err := lda.NewTrainer(c.x.Rows, c.x.Cols, cfg)
			if err != nil {
				t.Fatal(err)
			}
			c.beamFit(t, got)
			wm, err := want.Model()
			if err != nil {
				t.Fatal(err)
			}
			gm, err := got.Model()
			if err != nil {
				t.Fatal(err)
			}
			if gm.Passes() != wm.Passes() || gm.Steps() != wm.Steps() {
				t.Fatalf("%d passes, %d steps; want %d, %d", gm.Passes(), gm.Steps(), wm.Passes(), wm.Steps())
			}
			closeTo(t, "λ", raw(gm.Components()), raw(wm.Components()), 1e-9)
			sameObjectives(t, "training perplexity", []float64{gm.TrainPerplexity()}, []float64{wm.TrainPerplexity()})
			gh, wh := gm.History(), wm.History()
			if len(gh) != len(wh) {
				t.Fatalf("%d steps of history, want %d", len(gh), len(wh))
			}
			for i := range wh {
				sameObjectives(t, fmt.Sprintf("history %d", i), []float64{gh[i].Objective, gh[i].Inner}, []float64{wh[i].Objective, wh[i].Inner})
			}
		})
	}
}

func TestCorExMatchesInMemory(t *testing.T) {
	c := writeCorpus(t, 64, 21, 16, 13)
	cfg := corex.Config{K: 3, Seed: 2, MaxIter: 15, Restarts: 2}
	want, err := corex.NewTrainer(c.x.Rows, c.x.Cols, cfg)
	if err != nil {
		t.Fatal(err)
	}
	mem := c.inMemory(t, want)
	got, err := corex.NewTrainer(c.x.Rows, c.x.Cols, cfg)
	if err != nil {
		t.Fatal(err)
	}
	st := c.beamFit(t, got)
	wm, err := want.Model()
	if err != nil {
		t.Fatal(err)
	}
	gm, err := got.Model()
	if err != nil {
		t.Fatal(err)
	}
	if gm.Iterations != wm.Iterations || gm.Convergence.Status != wm.Convergence.Status || gm.Convergence.Status == progress.Cancelled || gm.Seed != wm.Seed {
		t.Fatalf("%d iterations (%v, seed %d), want %d (%v, %d)", gm.Iterations, gm.Convergence.Status, gm.Seed, wm.Iterations, wm.Convergence.Status, wm.Seed)
	}
	sameObjectives(t, "history", gm.History, wm.History)
	sameObjectives(t, "restart TCs", gm.RestartTCs, wm.RestartTCs)
	closeTo(t, "TCs", gm.TCs, wm.TCs, 1e-9)
	closeTo(t, "p(y)", gm.PY, wm.PY, 1e-9)
	closeTo(t, "α", raw(gm.Alpha()), raw(wm.Alpha()), 1e-9)
	closeTo(t, "MI", raw(gm.MI()), raw(wm.MI()), 1e-9)
	for i := range c.numBlocks() {
		_, rows := c.span(i)
		gd, err := corex.LoadDocTopics(st, i, rows, cfg.K)
		if err != nil {
			t.Fatal(err)
		}
		wd, err := corex.LoadDocTopics(mem, i, rows, cfg.K)
		if err != nil {
			t.Fatal(err)
		}
		closeTo(t, fmt.Sprintf("p(y|x) of block %d", i), raw(gd.P), raw(wd.P), 1e-9)
		closeTo(t, fmt.Sprintf("log Z of block %d", i), raw(gd.LogZ), raw(wd.LogZ), 1e-9)
	}
}
