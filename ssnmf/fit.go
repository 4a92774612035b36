package ssnmf

import (
	"context"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/rng"
	"github.com/semitopic/semitopic/nmf"
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

// Fit fits the SSNMF model cfg.Model to X (documents × terms, sparse or
// dense) and the targets cfg.Y (nil for the unsupervised models) by the
// multiplicative updates of the package documentation. A cancelled context
// stops the fit between iterations; Fit then returns the partial result
// together with ctx.Err(). Bad input (shapes, negative or non-finite
// entries, an all-zero X, K < 1) is an error naming the field.
func Fit(ctx context.Context, x Matrix, cfg Config) (*Result, error) {
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
	eps := cfg.Epsilon

	w := startFactor(cfg.W0, n, k, cfg.Seed, streamW)
	h := startFactor(cfg.H0, k, m, cfg.Seed, streamH)
	ht := mat.NewDense(m, k, nil)
	transposeInto(ht, h)
	data := newDataTerm(d, cfg.Model.Recon, cfg.DataRowWeights, cfg.DataWeights, k, eps)

	var lab *labelTerm
	var b *mat.Dense
	if cfg.Y != nil {
		_, c := cfg.Y.Dims()
		b = startFactor(cfg.B0, c, k, cfg.Seed, streamB)
		lab = newLabelTerm(cfg.Model.Sup, cfg.Y, labelWeights(cfg), k, eps)
	}

	res := &Result{Model: cfg.Model, Lambda: cfg.Lambda, Epsilon: eps, W: w, H: h, B: b}
	objective := func() float64 {
		res.Recon = data.objective(w, h, ht)
		res.Sup = 0
		if lab != nil {
			res.Sup = lab.objective(w, b)
		}
		return res.Recon + cfg.Lambda*res.Sup
	}
	res.Objective = append(res.Objective, objective())
	if v := res.Objective[0]; math.IsNaN(v) || math.IsInf(v, 0) {
		return nil, fmt.Errorf("ssnmf: the objective is %v at the start: the computation overflowed the float64 range (rescale the data, for example with tf-idf or L2-normalised rows)", v)
	}

	numD, denD := mat.NewDense(n, k, nil), mat.NewDense(n, k, nil)
	var numL, denL *mat.Dense
	if lab != nil {
		numL, denL = mat.NewDense(n, k, nil), mat.NewDense(n, k, nil)
	}
	ca, cb := cfg.Model.coefficients()
	cb *= cfg.Lambda
	// The objective is needed after every iteration by the stopping rule
	// and Progress; without them only the final one is evaluated.
	track := cfg.Tol > 0 || cfg.Progress != nil
	finish := func() *Result {
		if !track && res.Iterations > 0 {
			res.Objective = append(res.Objective, objective())
		}
		res.Elapsed = time.Since(t0)
		return res
	}
	for it := 1; it <= cfg.MaxIter; it++ {
		if err := ctx.Err(); err != nil {
			return finish(), err
		}
		// A (our H), then B, then S (our W), each from the others' latest
		// values, as the reference's mult.
		data.updateH(w, h, ht)
		if lab != nil {
			lab.updateB(w, b)
		}
		data.wParts(numD, denD, w, h, ht)
		if lab == nil {
			muApply(w.RawMatrix().Data, numD.RawMatrix().Data, denD.RawMatrix().Data, eps)
		} else {
			lab.wParts(numL, denL, w, b)
			combineW(w, numD, denD, numL, denL, ca, cb, eps)
		}
		res.Iterations = it
		if err := checkFinite(it, w, h, b); err != nil {
			return nil, err
		}
		if !track {
			continue
		}
		obj := objective()
		res.Objective = append(res.Objective, obj)
		if cfg.Progress != nil {
			cfg.Progress(it, obj)
		}
		if it >= 2 && cfg.Tol > 0 {
			first := res.Objective[1]
			if first <= 0 || (res.Objective[it-1]-obj)/first < cfg.Tol {
				res.Converged = true
				break
			}
		}
	}
	res = finish()
	if err := res.Prepare(); err != nil {
		return nil, err
	}
	return res, nil
}

// checkFinite returns an error naming iteration it when a factor holds a
// NaN or infinite value (the sums propagate them), so that a fit that
// overflowed stops at once instead of returning useless factors.
func checkFinite(it int, fs ...*mat.Dense) error {
	for _, f := range fs {
		if f == nil {
			continue
		}
		if s := floats.Sum(f.RawMatrix().Data); math.IsNaN(s) || math.IsInf(s, 0) {
			return fmt.Errorf("ssnmf: iteration %d: the factors are no longer finite: the computation overflowed the float64 range (rescale the data, for example with tf-idf or L2-normalised rows)", it)
		}
	}
	return nil
}

// combineW applies W ← W ∘ (a·numD + b·numL) ⊘ (ε + a·denD + b·denL), where
// b already includes λ.
func combineW(w, numD, denD, numL, denL *mat.Dense, a, b, eps float64) {
	wr := w.RawMatrix().Data
	nd, dd := numD.RawMatrix().Data, denD.RawMatrix().Data
	nl, dl := numL.RawMatrix().Data, denL.RawMatrix().Data
	for i := range wr {
		wr[i] *= (a*nd[i] + b*nl[i]) / (eps + a*dd[i] + b*dl[i])
	}
}

// startFactor returns a copy of f0, or a uniform random r × c matrix.
func startFactor(f0 *mat.Dense, r, c int, seed, stream uint64) *mat.Dense {
	if f0 != nil {
		return mat.DenseCopyOf(f0)
	}
	return uniform(r, c, seed, stream)
}

// newDataTerm builds R for X: sparse kernels for a sparse X unless general
// dense weights are given.
func newDataTerm(d *dataMatrix, loss nmf.Loss, rowW []float64, weights *mat.Dense, k int, eps float64) dataTerm {
	if d.sp != nil && weights == nil {
		return newSparseTerm(loss, d.sp, rowW, k, eps)
	}
	x := d.dense
	if x == nil {
		x = d.sp.ToDense()
	}
	var v *mat.Dense
	if weights != nil {
		v = mat.DenseCopyOf(weights)
	}
	if rowW != nil {
		if v == nil {
			v = mat.NewDense(d.n, d.m, nil)
			for i, e := range rowW {
				row := v.RawRowView(i)
				for j := range row {
					row[j] = e
				}
			}
		} else {
			scaleRows(v, rowW)
		}
	}
	return newDenseTerm(loss, x, v, k, eps)
}

// labelWeights returns M = LabelWeights ∘ LabelRowWeights (broadcast), or
// nil when neither is given.
func labelWeights(cfg Config) *mat.Dense {
	if cfg.LabelWeights == nil && cfg.LabelRowWeights == nil {
		return nil
	}
	n, c := cfg.Y.Dims()
	var m *mat.Dense
	if cfg.LabelWeights != nil {
		m = mat.DenseCopyOf(cfg.LabelWeights)
	} else {
		m = mat.NewDense(n, c, nil)
		for i := 0; i < n; i++ {
			row := m.RawRowView(i)
			for j := range row {
				row[j] = 1
			}
		}
	}
	scaleRows(m, cfg.LabelRowWeights)
	return m
}
