package nmf

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/kernels"
	"github.com/semitopic/semitopic/sparse"
)

// sparseFit is the fast path: sparse X, optional row weights, masks as
// zeros in the factors. It keeps W (n × k) and Hᵀ (m × k) row-major, and X
// together with its transpose, so that the W update is a pass over the
// rows of X and the H update a pass over the rows of Xᵀ, each gathering
// rows of the other factor. No n × m array is ever formed.
//
// Under the Frobenius loss a large X is not transposed (transposeFreeNNZ):
// the H update's numerator Xᵀdiag(e)W is then sparse.TMulDense's tiled
// pass over X, which needs an m × k buffer instead of Xᵀ's 12 bytes per
// stored entry. With float32 gathers (Config.Gathers) the updates gather
// rows of a float32 copy of the other factor.
type sparseFit struct {
	cfg     Config
	n, m, k int
	kp      int // k rounded up to a multiple of 4: the row length of w and ht
	x, xt   *sparse.CSR
	xtw     []float64 // Xᵀ's stored values times the document weights (or xt.Data)
	e       []float64 // document weights, nil for none
	xnorm2  float64   // Σ_i e_i ‖x_i‖²

	w, ht   []float64 // current factors
	w2, ht2 []float64 // KL: next factors

	gH, gW []float64 // Gram matrices HHᵀ and Wᵀdiag(e)W (k × k)
	csW    []float64 // colsum(diag(e)W) (k)
	rsH    []float64 // rowsum(H) (k)
	den    []float64 // guarded KL denominators (k)
	pre    []float64 // fixed numerator X·Hᵀ (FixH) or Xᵀdiag(e)W (FixW)

	f32  []float32   // float32 copy of the factor gathered next (Config.Gathers), or nil
	preH []float64   // Xᵀdiag(e)W when Xᵀ is not kept (m × kp), or nil
	xe   *sparse.CSR // X with its rows scaled by e, for preH (X itself without weights)

	ws           *workspace
	prefW, prefH []int // work balancing over the rows of X and of Xᵀ
	prefGW       []int // uniform over the rows of W

	gd    guard
	cpl   *couplings // coupled terms, or nil
	rp    *rowParts  // what W's update adds to the data term's, or nil
	terms []float64  // the terms' values at the latest objective
}

// transposeFreeNNZ is the number of stored entries of X from which a
// Frobenius fit does not transpose X (see sparseFit; docs/results/speed.md
// for the measurements).
const transposeFreeNNZ = 1 << 23

// needsTranspose reports whether a sparse fit of X (nnz stored entries)
// with cfg reads Xᵀ.
func needsTranspose(cfg Config, nnz int) bool {
	return !cfg.FixH && (cfg.Loss == KullbackLeibler || nnz < transposeFreeNNZ)
}

// newSparseFit prepares the engine; w (n × k) and h (k × m) are the
// starting factors, and both become the engine's: w is updated in place
// when k is a multiple of 4, and h, once copied into the engine's layout,
// is the storage of the first m × kp buffer the engine needs (H's
// numerator without Xᵀ, or KL's next H) when it is long enough (k a
// multiple of 4), so that at scale the start's copy is not garbage beside
// a new buffer of its size in the peak memory. xt = Xᵀ may be nil when H
// is fixed or the loss is Frobenius (the H update then works on X).
func newSparseFit(cfg Config, x, xt *sparse.CSR, w, h []float64) *sparseFit {
	n, m, k := x.Rows, x.Cols, cfg.K
	kp := kernels.Pad(k)
	// buffer returns an m × kp buffer of zeros: h's storage the first
	// time when it is long enough, else a new one.
	spare := h
	if cfg.Fixed != nil || len(spare) < m*kp {
		spare = nil
	}
	buffer := func() []float64 {
		if spare == nil {
			return make([]float64, m*kp)
		}
		b := spare[:m*kp]
		spare = nil
		clear(b)
		return b
	}
	f := &sparseFit{cfg: cfg, n: n, m: m, k: k, kp: kp, x: x, xt: xt, e: cfg.RowWeights, gd: guard{cfg.AddEpsilon}}
	f.cpl = newCouplings(cfg, n, kp, f.gd)
	f.rp = rowPartsFor(f.cpl, f.gd, cfg.DataWeight, f.e, n)
	if kp == k {
		f.w = w // the caller's own copy, already in the engine's layout
	} else {
		f.w = make([]float64, n*kp)
		for i := 0; i < n; i++ {
			copy(f.w[i*kp:i*kp+k], w[i*k:(i+1)*k])
		}
	}
	if cfg.Fixed != nil {
		f.ht = cfg.Fixed.htPad // shared and read-only: H is fixed
	} else {
		f.ht = make([]float64, m*kp)
		kernels.Transpose(f.ht, kp, h, m, k, m)
	}
	if xt != nil {
		f.xtw = xt.Data
		if f.e != nil {
			f.xtw = make([]float64, len(xt.Data))
			for p, i := range xt.Indices {
				f.xtw[p] = xt.Data[p] * f.e[i]
			}
		}
	}
	if xt == nil && !cfg.FixH {
		f.xe = x // with FixW for the fixed numerator, else for preH
		if f.e != nil {
			xe := make([]float64, len(x.Data))
			for i := 0; i < n; i++ {
				for p := x.Indptr[i]; p < x.Indptr[i+1]; p++ {
					xe[p] = x.Data[p] * f.e[i]
				}
			}
			f.xe, _ = x.WithData(xe) // same length: no error
		}
		if !cfg.FixW {
			f.preH = buffer()
		}
	}
	if cfg.Loss == Frobenius && cfg.Gathers.float32For(x.NNZ()) {
		// A fixed factor's product is computed once (f.pre): only when both
		// factors move are they gathered, Hᵀ by the W update and, with Xᵀ,
		// W by the H update.
		if !cfg.FixW && !cfg.FixH {
			size := m * kp
			if xt != nil {
				size = max(size, n*kp)
			}
			f.f32 = make([]float32, size)
		}
	}
	for i := 0; i < n; i++ {
		_, vals := x.Row(i)
		s := floats.Dot(vals, vals)
		if f.e != nil {
			s *= f.e[i]
		}
		f.xnorm2 += s
	}
	f.gH = make([]float64, kp*kp)
	f.gW = make([]float64, kp*kp)
	f.csW = make([]float64, kp)
	f.rsH = make([]float64, kp)
	f.den = make([]float64, kp)
	perRow := 1
	if cfg.Loss == Frobenius {
		perRow = kp // the k × k products per row
	}
	f.prefW = rowPrefix(x, perRow)
	maxRow := x.MaxRowNNZ()
	switch {
	case xt != nil:
		f.prefH = rowPrefix(xt, perRow)
		maxRow = max(maxRow, xt.MaxRowNNZ())
	case !cfg.FixH:
		f.prefH = uniformPrefix(m, 2*kp) // the numerator is given
	}
	f.ws = newWorkspace(k, maxRow)
	f.prefGW = uniformPrefix(n, kp)
	if cfg.Loss == KullbackLeibler {
		if !cfg.FixW {
			f.w2 = make([]float64, n*kp)
		}
		if !cfg.FixH {
			f.ht2 = buffer()
		}
	}
	return f
}

// factors returns W and H as gonum matrices (a fixed, prepared H as it
// is). It ends the engine's use of its factors: when k is a multiple of 4
// the engine's W, unpadded, is returned without a copy, and H is written
// into the storage of a buffer the engine no longer needs (H's numerator,
// or KL's other H) when there is one, which at scale saves the n × k and
// k × m the result would otherwise add to the peak memory.
func (f *sparseFit) factors() (*mat.Dense, *mat.Dense) {
	k, kp := f.k, f.kp
	spare := f.preH
	if spare == nil {
		spare = f.ht2
	}
	f.w2, f.ht2, f.f32, f.preH = nil, nil, nil, nil
	var w *mat.Dense
	if kp == k {
		w = mat.NewDense(f.n, k, f.w[:f.n*k:f.n*k])
	} else {
		w = mat.NewDense(f.n, k, nil)
		for i := 0; i < f.n; i++ {
			copy(w.RawRowView(i), f.w[i*kp:i*kp+k])
		}
	}
	f.w = nil
	if f.cfg.Fixed != nil {
		return w, f.cfg.Fixed.H()
	}
	var hd []float64 // k × m; m × kp ≥ k × m values in spare
	if spare != nil {
		hd = spare[:k*f.m]
	}
	h := mat.NewDense(k, f.m, hd)
	raw := h.RawMatrix()
	kernels.Transpose(raw.Data, raw.Stride, f.ht, kp, f.m, k)
	return w, h
}

// run iterates until convergence, MaxIter or cancellation.
func (f *sparseFit) run(ctx context.Context, tr *tracker) error {
	if f.cfg.Loss == Frobenius {
		return f.runFrobenius(ctx, tr)
	}
	return f.runKL(ctx, tr)
}

// total returns the objective α·data + Σ_c λ_c·L_c at the current W,
// recording the terms' values.
func (f *sparseFit) total(data float64) float64 {
	f.terms = append(f.terms[:0], data)
	var coupled float64
	f.terms, coupled = f.cpl.objectives(f.w, f.terms)
	return f.cfg.DataWeight*data + coupled
}

// frobObjective returns ½(‖X‖²_e − 2·cross + ⟨G_W, G_H⟩).
func (f *sparseFit) frobObjective(cross float64) float64 {
	return 0.5 * (f.xnorm2 - 2*cross + floats.Dot(f.gW, f.gH))
}

// frobW updates W (Frobenius) and returns the cross term ⟨diag(e)X, WH⟩.
func (f *sparseFit) frobW() float64 {
	var pre []float64
	if f.cfg.FixH {
		pre = f.pre
	}
	if f.cpl != nil {
		f.cpl.parts(f.w)
	}
	var b32 []float32
	if f.f32 != nil && pre == nil {
		b32 = f.f32[:len(f.ht)]
		kernels.ToFloat32(b32, f.ht)
	}
	cross := frobStepG(f.ws, f.w, f.x, f.x.Data, f.ht, b32, pre, f.gH, f.e, f.prefW, f.gd, f.rp)
	f.ws.gramTo(f.gW)
	return cross
}

// frobH updates H (Frobenius) and returns the cross term.
func (f *sparseFit) frobH() (float64, error) {
	var pre []float64
	var b32 []float32
	switch {
	case f.cfg.FixW:
		pre = f.pre
	case f.xt == nil:
		pre = f.preH
		if err := sparse.TMulDense(mat.NewDense(f.m, f.kp, pre), f.xe, mat.NewDense(f.n, f.kp, f.w)); err != nil {
			return 0, fmt.Errorf("nmf: H update: %w", err)
		}
	case f.f32 != nil:
		b32 = f.f32[:len(f.w)]
		kernels.ToFloat32(b32, f.w)
	}
	cross := frobStepG(f.ws, f.ht, f.xt, f.xtw, f.w, b32, pre, f.gW, nil, f.prefH, f.gd, nil)
	f.ws.gramTo(f.gH)
	return cross, nil
}

func (f *sparseFit) runFrobenius(ctx context.Context, tr *tracker) error {
	cfg := f.cfg
	gramOf(f.ws, f.gH, f.ht, nil, uniformPrefix(f.m, f.kp))
	gramOf(f.ws, f.gW, f.w, f.e, f.prefGW)
	switch {
	case cfg.FixH:
		pre := mat.NewDense(f.n, f.kp, nil)
		if err := sparse.MulDense(pre, f.x, mat.NewDense(f.m, f.kp, f.ht)); err != nil {
			return err
		}
		f.pre = pre.RawMatrix().Data
	case cfg.FixW:
		pre := mat.NewDense(f.m, f.kp, nil)
		wd := mat.NewDense(f.n, f.kp, f.w)
		if f.xt == nil {
			if err := sparse.TMulDense(pre, f.xe, wd); err != nil {
				return err
			}
		} else {
			xtw, err := f.xt.WithData(f.xtw)
			if err != nil {
				return err
			}
			if err := sparse.MulDense(pre, xtw, wd); err != nil {
				return err
			}
		}
		f.pre = pre.RawMatrix().Data
	}
	var cross float64
	if f.pre != nil && cfg.FixW {
		cross = floats.Dot(f.pre, f.ht)
	} else {
		cross = frobCross(f.ws, f.w, f.x, f.x.Data, f.ht, f.e, f.prefW)
	}
	if tr.start(f.total(f.frobObjective(cross))) {
		return nil
	}
	for !tr.done() {
		if err := ctx.Err(); err != nil {
			return err
		}
		var err error
		switch {
		case cfg.FixW:
			cross, err = f.frobH()
		case cfg.FixH:
			cross = f.frobW()
		case cfg.Order == HFirst:
			if _, err = f.frobH(); err != nil {
				return err
			}
			f.holdFrob()
			f.cpl.updateB(f.w)
			cross = f.frobW()
		default:
			f.frobW()
			if cross, err = f.frobH(); err != nil {
				return err
			}
			if f.holdFrob() {
				cross = frobCross(f.ws, f.w, f.x, f.x.Data, f.ht, f.e, f.prefW)
			}
			f.cpl.updateB(f.w)
		}
		if err != nil {
			return err
		}
		if tr.step(f.total(f.frobObjective(cross))) {
			return nil
		}
	}
	return nil
}

// holdFrob holds the seed terms in H (Config.SeedRank) after a
// Frobenius update of H, with H's Gram matrix, and reports whether it
// changed H (the update's cross term ⟨X, WH⟩ is then stale).
func (f *sparseFit) holdFrob() bool {
	if !f.cfg.hold.apply(f.ht, f.m, 1, f.kp) {
		return false
	}
	gramOf(f.ws, f.gH, f.ht, nil, uniformPrefix(f.m, f.kp))
	return true
}

// holdKL holds the seed terms in H after a KL update of H, with H's row
// sums.
func (f *sparseFit) holdKL() {
	if f.cfg.hold.apply(f.ht, f.m, 1, f.kp) {
		colSums(f.rsH, f.ht, nil, f.kp)
	}
}

// klSumWH returns Σ_ij (diag(e)WH)_ij = ⟨colsum(diag(e)W), rowsum(H)⟩.
func (f *sparseFit) klSumWH() float64 { return floats.Dot(f.csW, f.rsH) }

// klW updates W (KL); with obj set it returns the non-zero part of the
// data term at the current state, which it evaluates on the way, and
// leaves the new W aside (in w2) until commitW.
func (f *sparseFit) klW(obj bool) float64 {
	if f.cpl != nil {
		f.cpl.parts(f.w)
	}
	return klStep(f.ws, f.w, f.w2, f.x, f.x.Data, f.ht, f.rsH, minNormal, obj, f.e, nil, f.e, f.prefW, f.gd, f.rp)
}

// commitW makes the W computed by klW current.
func (f *sparseFit) commitW() {
	f.w, f.w2 = f.w2, f.w
	f.ws.colTo(f.csW)
}

// klH is klW for H (the data term's own update).
func (f *sparseFit) klH(obj bool) float64 {
	return klStep(f.ws, f.ht, f.ht2, f.xt, f.xtw, f.w, f.csW, f.gd.hFloor(KullbackLeibler), obj, nil, f.e, nil, f.prefH, f.gd, nil)
}

// commitH makes the H computed by klH current.
func (f *sparseFit) commitH() {
	f.ht, f.ht2 = f.ht2, f.ht
	f.ws.colTo(f.rsH)
}

func (f *sparseFit) runKL(ctx context.Context, tr *tracker) error {
	cfg := f.cfg
	colSums(f.csW, f.w, f.e, f.kp)
	if cfg.Fixed != nil {
		copy(f.rsH, cfg.Fixed.rowSums)
	} else {
		colSums(f.rsH, f.ht, nil, f.kp)
	}
	// The first update of an iteration evaluates WH at X's non-zeros for
	// the current state, so it also yields that state's objective: the
	// convergence test for the previous iteration happens there, and the
	// new factor is kept aside until it passes.
	hFirst := cfg.FixW || (cfg.Order == HFirst && !cfg.FixH)
	var err error
	for !tr.done() {
		if err = ctx.Err(); err != nil {
			break
		}
		var nz float64
		if hFirst {
			nz = f.klH(true)
		} else {
			nz = f.klW(true)
		}
		if tr.observe(f.total(nz + f.klSumWH())) {
			return nil
		}
		if err = ctx.Err(); err != nil {
			// Progress may have cancelled: return the state just reported.
			return err
		}
		switch {
		case cfg.FixW:
			f.commitH()
		case cfg.FixH:
			f.commitW()
		case hFirst:
			f.commitH()
			f.holdKL()
			f.cpl.updateB(f.w)
			f.klW(false)
			f.commitW()
		default:
			f.commitW()
			f.klH(false)
			f.commitH()
			f.holdKL()
			f.cpl.updateB(f.w)
		}
		tr.advance()
	}
	// The objective of the final state is not known yet.
	nz := klObjectiveNZ(f.ws, f.w, f.x, f.ht, f.e, f.prefW, f.gd)
	tr.observe(f.total(nz + f.klSumWH()))
	return err
}
