package ssnmf

import (
	"context"
	"fmt"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/rng"
	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
)

// Matrix is a data matrix: a *sparse.CSR, or any gonum mat.Matrix (dense).
type Matrix = nmf.Matrix

// rngSalt separates this package's random streams from other packages'.
const rngSalt = 0x55a3f0e1

// Random streams of a seed, one per factor, so that a factor's start does
// not depend on whether the others are drawn.
const (
	streamW = 1 + iota
	streamH
	streamB
	streamTransform
)

// uniform returns an r × c matrix of Uniform[0, 1) entries drawn from the
// given stream of seed (row by row), as the reference's np.random.rand.
func uniform(r, c int, seed, stream uint64) *mat.Dense {
	src := rng.New(seed, stream, rngSalt)
	data := make([]float64, r*c)
	for i := range data {
		data[i] = src.Float64()
	}
	return mat.NewDense(r, c, data)
}

// scale returns the factor of a loss in the paper's objective relative
// to the nmf engine's: the paper's ‖·‖² is twice the engine's ½‖·‖².
func scale(l nmf.Loss) float64 {
	if l == nmf.Frobenius {
		return 2
	}
	return 1
}

// Fit fits the SSNMF model cfg.Losses to X (documents × terms, sparse or
// dense) and the targets cfg.Y (nil for the unsupervised models) by the
// multiplicative updates of the package documentation, on the nmf
// engine. A cancelled context stops the fit between iterations; Fit then
// returns the partial result together with ctx.Err(). Bad input (shapes,
// negative or non-finite entries, an all-zero X, K < 1) is an error
// naming the field.
func Fit(ctx context.Context, x Matrix, cfg Config) (*Model, error) {
	t0 := time.Now()
	d, err := checkX(x)
	if err != nil {
		return nil, err
	}
	cfg, err = cfg.resolve(d)
	if err != nil {
		return nil, err
	}
	var g *nmf.Guide
	wmask := cfg.WMask
	var notes []string
	if len(cfg.Seeds.Seeds) > 0 {
		if d, cfg, g, wmask, notes, err = guided(d, cfg); err != nil {
			return nil, err
		}
	}
	n, m, k := d.n, d.m, cfg.K
	var xm Matrix = d.dense
	if d.sp != nil {
		xm = d.sp
	}
	// The paper's objective is R + λQ with R, Q = ‖·‖² or D; the
	// engine's is α·R' + λ'·Q' with R', Q' = ½‖·‖² or D. With s = 2 when
	// every term is a squared norm, else 1, α = (R/R')/s and λ' =
	// λ·(Q/Q')/s, the paper's objective is s times the engine's, and the
	// engine's W update, α·(R's parts) + λ'·(Q's parts), is the
	// reference's: it halves the gradient of a squared norm only when no
	// divergence is beside it, so (α, λ'/λ) is (1, 1) for (F,F) and (D,D),
	// (2, 1) for (F,D) and (1, 2) for (D,F).
	rs, qs := scale(cfg.Losses.Recon), scale(cfg.Losses.Sup)
	s := rs
	if cfg.Y != nil && cfg.Losses.Sup != nmf.Frobenius {
		s = 1
	}
	ec := nmf.Config{
		K: k, Loss: cfg.Losses.Recon, Seed: cfg.Seed, Init: nmf.InitCustom,
		W0:         startFactor(cfg.W0, n, k, cfg.Seed, streamW),
		H0:         startFactor(cfg.H0, k, m, cfg.Seed, streamH),
		RowWeights: cfg.DataRowWeights, Weights: cfg.DataWeights,
		WMask: wmask, HMask: cfg.Seeds.Mask(k, m),
		MaxIter: cfg.MaxIter, MinIter: cfg.MinIter, Stop: nmf.RelativeToFirst{Tol: cfg.Tol},
		DataWeight: rs / s, AddEpsilon: cfg.Epsilon, Order: nmf.HFirst,
	}
	if cfg.StartLabels != nil && cfg.H0 == nil {
		ec.H0, ec.Init, ec.Labels = nil, nmf.InitLabelMean, cfg.StartLabels
	}
	if cfg.Progress != nil {
		ec.Progress = func(st progress.Step) {
			st.Objective *= s
			cfg.Progress(st)
		}
	}
	if cfg.Y != nil {
		_, c := cfg.Y.Dims()
		ec.Coupled = []nmf.Coupled{{
			Y: cfg.Y, Loss: cfg.Losses.Sup, Lambda: cfg.Lambda * qs / s,
			Weights: cfg.LabelWeights, RowWeights: cfg.LabelRowWeights,
			B0: startFactor(cfg.B0, c, k, cfg.Seed, streamB),
		}}
	}
	r, err := nmf.Fit(ctx, xm, ec)
	if r == nil {
		return nil, fmt.Errorf("ssnmf: %w", err)
	}
	res := &Model{
		Losses: cfg.Losses, Lambda: cfg.Lambda, Epsilon: cfg.Epsilon,
		W: g.Strip(r.W), H: r.H, Iterations: r.Iterations, Convergence: r.Convergence,
		Recon: rs * r.Terms[0], Seeded: g.Topics(), Notes: notes,
	}
	for _, v := range r.Objective {
		res.Objective = append(res.Objective, s*v)
	}
	if len(r.B) > 0 {
		res.B, res.Sup = r.B[0], qs*r.Terms[1]
	}
	if perr := res.Prepare(); perr != nil && err == nil {
		return nil, perr
	}
	res.Elapsed = time.Since(t0)
	return res, err
}

// guided stacks the pseudo-documents of cfg's seed terms under the
// documents d (nmf.NewGuide): it returns the stacked data, the
// configuration of the stacked fit — the reconstruction's row weights,
// the label term's rows (zero weight, or with SeedLabels a labeled
// document of the topic's class), the seeded start of H and of B — the
// guide, the W mask that keeps each pseudo-document to its topic, and
// notes. Without a document holding a seed term the guide is nil and
// the fit is unseeded.
func guided(d *dataMatrix, cfg Config) (*dataMatrix, Config, *nmf.Guide, *mat.Dense, []string, error) {
	x := d.sp
	if x == nil {
		x = sparse.FromDense(d.dense)
	}
	k := cfg.K
	g, notes, err := nmf.NewGuide(x, k, cfg.Seeds, cfg.DataRowWeights, cfg.Losses.Recon, cfg.SeedWeight)
	if err != nil {
		return nil, cfg, nil, nil, nil, fmt.Errorf("ssnmf: %w", err)
	}
	if g == nil {
		return d, cfg, nil, nil, notes, nil
	}
	xs, dataW, wmask, err := g.Stack(x, cfg.DataRowWeights, cfg.WMask, k)
	if err != nil {
		return nil, cfg, nil, nil, nil, fmt.Errorf("ssnmf: %w", err)
	}
	n, topics := d.n, g.Topics()
	if cfg.Y != nil {
		_, c := cfg.Y.Dims()
		ys := mat.NewDense(n+len(topics), c, nil)
		ys.Slice(0, n, 0, c).(*mat.Dense).Copy(cfg.Y)
		lw := make([]float64, n+len(topics))
		if cfg.LabelRowWeights != nil {
			copy(lw, cfg.LabelRowWeights)
		} else {
			for i := 0; i < n; i++ {
				lw[i] = 1
			}
		}
		if cfg.SeedLabels {
			for r, t := range topics {
				if cl := cfg.TopicClasses[t]; cl >= 0 {
					ys.Set(n+r, cl, 1)
					lw[n+r] = 1
				}
			}
		}
		cfg.Y, cfg.LabelRowWeights = ys, lw
		if cfg.B0 == nil && cfg.TopicClasses != nil {
			var note string
			if cfg.B0, note = seededStartB(cfg.TopicClasses, c, k); note != "" {
				notes = append(notes, note)
			}
		}
	}
	cfg.DataRowWeights, cfg.StartLabels = dataW, g.StartLabels(x)
	cfg.W0 = g.StackW(cfg.W0, cfg.H0, cfg.Losses.Recon)
	ds, err := checkX(xs)
	if err != nil {
		return nil, cfg, nil, nil, nil, err
	}
	return ds, cfg, g, wmask, notes, nil
}

// seededStartB returns the starting B (c classes × k topics) of a seeded
// fit: a topic standing for a class (classes[t] ≥ 0) maps to it with
// weight 1, and every other entry starts at 1/(k−1), positive so that
// the multiplicative updates can still move it (an entry at 0 stays 0),
// and so that the topic weighs in its class's row as much as the other
// topics together (see Config.TopicClasses). It returns nil when no
// topic stands for a class, and a note otherwise.
func seededStartB(classes []int, c, k int) (*mat.Dense, string) {
	b := mat.NewDense(c, k, nil)
	off := 1.0
	if k > 1 {
		off = 1 / float64(k-1)
	}
	named := 0
	for cl := 0; cl < c; cl++ {
		for t := 0; t < k; t++ {
			b.Set(cl, t, off)
			if classes[t] == cl {
				b.Set(cl, t, 1)
				named++
			}
		}
	}
	if named == 0 {
		return nil, ""
	}
	return b, fmt.Sprintf("seeded start: a seeded topic starts as the mean of the documents holding its seed words, and B maps each of the %d topics standing for a class to that class", named)
}

// startFactor returns a copy of f0, or a uniform random r × c matrix.
func startFactor(f0 *mat.Dense, r, c int, seed, stream uint64) *mat.Dense {
	if f0 != nil {
		return mat.DenseCopyOf(f0)
	}
	return uniform(r, c, seed, stream)
}
