package ssnmf

import (
	"context"
	"fmt"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/rng"
	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/progress"
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
		WMask: cfg.WMask, HMask: cfg.HMask,
		MaxIter: cfg.MaxIter, Stop: nmf.RelativeToFirst{Tol: cfg.Tol},
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
		W: r.W, H: r.H, Iterations: r.Iterations, Convergence: r.Convergence,
		Recon: rs * r.Terms[0],
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

// startFactor returns a copy of f0, or a uniform random r × c matrix.
func startFactor(f0 *mat.Dense, r, c int, seed, stream uint64) *mat.Dense {
	if f0 != nil {
		return mat.DenseCopyOf(f0)
	}
	return uniform(r, c, seed, stream)
}
