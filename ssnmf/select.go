package ssnmf

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Grid is the hyperparameter grid of Select. Empty lists keep the base
// configuration's value.
type Grid struct {
	Lambdas []float64
	Tols    []float64
	Ks      []int
	// Seeds are the initialisations fitted per grid point, whose validation
	// scores are averaged (empty: the base configuration's seed alone).
	Seeds []uint64
}

// PaperGrid returns the grid the paper searched for 20 Newsgroups (the
// reference's ssnmf_search: λ ∈ {10, 100, 1000}, tol ∈ {1e-4, 1e-3, 1e-2})
// at the given k.
func PaperGrid(k int) Grid {
	return Grid{Lambdas: []float64{10, 100, 1000}, Tols: []float64{1e-4, 1e-3, 1e-2}, Ks: []int{k}}
}

// Candidate is one grid point's validation result.
type Candidate struct {
	Lambda float64
	Tol    float64
	K      int
	// Scores holds the validation score of each seed, Mean their mean.
	Scores []float64
	Mean   float64
	// Iterations holds each fit's number of iterations.
	Iterations []int
}

// Selection is the outcome of Select.
type Selection struct {
	// Best is the candidate with the highest mean validation score (the
	// first in grid order among ties).
	Best Candidate
	// Candidates lists every grid point in grid order (λ, then tol, then
	// k).
	Candidates []Candidate
}

// Config returns base with the selected λ, tol and k.
func (s *Selection) Config(base Config) Config {
	base.Lambda, base.Tol, base.K = s.Best.Lambda, s.Best.Tol, s.Best.K
	return base
}

// Select chooses λ, tol and k on a validation split: for every grid point
// and seed it fits base (with cfg.Y the training targets) on the training
// documents, represents the validation documents with the topics fixed
// (Transform with tcfg), scores them (Scores) and passes the validation
// scores to score, which returns a number to maximise (for example
// metrics.Accuracy of metrics.ArgmaxRows against the validation labels).
func Select(ctx context.Context, train, val Matrix, base Config, grid Grid, tcfg TransformConfig, score func(valScores *mat.Dense) (float64, error)) (*Selection, error) {
	if base.Y == nil {
		return nil, fmt.Errorf("ssnmf: Select needs training targets Y")
	}
	if score == nil {
		return nil, fmt.Errorf("ssnmf: Select needs a score function")
	}
	lambdas, tols, ks, seeds := grid.Lambdas, grid.Tols, grid.Ks, grid.Seeds
	if len(lambdas) == 0 {
		lambdas = []float64{base.Lambda}
	}
	if len(tols) == 0 {
		tols = []float64{base.Tol}
	}
	if len(ks) == 0 {
		ks = []int{base.K}
	}
	if len(seeds) == 0 {
		seeds = []uint64{base.Seed}
	}
	sel := &Selection{}
	best := -1
	for _, lam := range lambdas {
		for _, tol := range tols {
			for _, k := range ks {
				c := Candidate{Lambda: lam, Tol: tol, K: k}
				for _, seed := range seeds {
					cfg := base
					cfg.Lambda, cfg.Tol, cfg.K, cfg.Seed = lam, tol, k, seed
					res, err := Fit(ctx, train, cfg)
					if err != nil {
						return nil, fmt.Errorf("ssnmf: Select: λ=%g tol=%g k=%d seed %d: %w", lam, tol, k, seed, err)
					}
					tc := tcfg
					tc.Seed = seed
					res.Represent = tc
					p, err := res.Predict(ctx, val)
					if err != nil {
						return nil, fmt.Errorf("ssnmf: Select: λ=%g tol=%g k=%d seed %d: %w", lam, tol, k, seed, err)
					}
					s, err := score(p)
					if err != nil {
						return nil, fmt.Errorf("ssnmf: Select: scoring: %w", err)
					}
					c.Scores = append(c.Scores, s)
					c.Iterations = append(c.Iterations, res.Iterations)
					c.Mean += s
				}
				c.Mean /= float64(len(c.Scores))
				sel.Candidates = append(sel.Candidates, c)
				if math.IsNaN(c.Mean) {
					continue
				}
				if best < 0 || c.Mean > sel.Candidates[best].Mean {
					best = len(sel.Candidates) - 1
				}
			}
		}
	}
	if best < 0 {
		return nil, fmt.Errorf("ssnmf: Select: every candidate scored NaN")
	}
	sel.Best = sel.Candidates[best]
	return sel, nil
}
