package nmf

import (
	"context"
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/kernels"
	"github.com/semitopic/semitopic/internal/parallel"
	"github.com/semitopic/semitopic/sparse"
)

// FixedH is a topic matrix H (k × terms) prepared once for computing the
// topic weights of many new documents with H fixed: it is validated once,
// and its transpose, row sums and (for the Frobenius loss) scaled Gram
// matrix HHᵀ are computed once, so that a Transform of one document costs
// in proportion to that document, not to the size of H. A saved model
// builds one when it is loaded and serves every request with it.
//
// A FixedH is read-only after NewFixedH returns and safe for concurrent
// use. H itself must not be modified while the FixedH is in use.
type FixedH struct {
	h       *mat.Dense
	k, m    int
	kp      int        // k padded for the engine's row layout
	ht      *mat.Dense // Hᵀ, m × k
	htPad   []float64  // Hᵀ row-major m × kp, zero padded: the sparse engine's layout
	rowSums []float64  // Σ_j h_tj, padded to kp
	max     float64    // largest entry of H

	gramOnce sync.Once
	gram     *gram     // the NNLS Gram matrix HHᵀ, built on first Frobenius use
	solvers  sync.Pool // of *nnls for k variables, reused across calls
}

// NewFixedH validates h (finite, non-negative, not all zero) and prepares
// it. It keeps h, not a copy.
func NewFixedH(h *mat.Dense) (*FixedH, error) {
	if h == nil || h.IsEmpty() {
		return nil, fmt.Errorf("nmf: H is empty")
	}
	k, m := h.Dims()
	if err := checkFactor("H", h, k, m); err != nil {
		return nil, err
	}
	f := &FixedH{h: h, k: k, m: m, kp: kernels.Pad(k), max: mat.Max(h)}
	f.solvers.New = func() any { return newNNLS(k) }
	if f.max == 0 {
		return nil, fmt.Errorf("nmf: H is all zero")
	}
	// Hᵀ, plain and padded, and each topic's sum in the order of the
	// terms, as a loop over them would take it.
	ht := make([]float64, m*k)
	f.htPad = make([]float64, m*f.kp)
	raw := h.RawMatrix()
	kernels.Transpose(ht, k, raw.Data, raw.Stride, k, m)
	kernels.Transpose(f.htPad, f.kp, raw.Data, raw.Stride, k, m)
	f.rowSums = make([]float64, f.kp)
	parallel.For(k, 8, func(lo, hi int) {
		for t := lo; t < hi; t++ {
			s := 0.0
			for _, v := range h.RawRowView(t) {
				s += v
			}
			f.rowSums[t] = s
		}
	})
	f.ht = mat.NewDense(m, k, ht)
	return f, nil
}

// H returns the matrix H.
func (f *FixedH) H() *mat.Dense { return f.h }

// T returns Hᵀ (terms × k). It is shared: do not modify it.
func (f *FixedH) T() *mat.Dense { return f.ht }

// RowSums returns Σ_j h_tj for each topic t. It is shared: do not modify
// it.
func (f *FixedH) RowSums() []float64 { return f.rowSums[:f.k] }

// Dims returns k and the number of terms.
func (f *FixedH) Dims() (k, terms int) { return f.k, f.m }

// nnlsGram returns the prepared Gram matrix HHᵀ of the NNLS solves.
func (f *FixedH) nnlsGram() *gram {
	f.gramOnce.Do(func() { f.gram = newGram(gramRows(f.h), f.k) })
	return f.gram
}

// gramChunk is the inner block of gonum's Dgemm (blas/gonum's blockSize).
const gramChunk = 64

// gramRows returns HHᵀ (k × k, row-major) with the bits of gonum's
// Dense.Mul(h, hᵀ) (blas/gonum's Dgemm: a dot product of whole rows when H
// has at most 64 rows, else the sum, in order, of the dot products of
// their 64-term chunks), computing each pair once, the rows spread over
// the cores: half of Mul's products. TestGramRowsMatchesMul holds it to
// Mul's bits.
func gramRows(h *mat.Dense) []float64 {
	k, m := h.Dims()
	raw := h.RawMatrix()
	g := make([]float64, k*k)
	whole := k <= gramChunk    // Dgemm's serial path: fewer than 4 blocks of C
	prefix := make([]int, k+1) // row i computes the k − i pairs (i, j ≥ i)
	for i := range k {
		prefix[i+1] = prefix[i] + k - i
	}
	parallel.ForWeighted(prefix, max(1, flopGrain/max(m, 1)), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			a := raw.Data[i*raw.Stride : i*raw.Stride+m]
			for j := i; j < k; j++ {
				b := raw.Data[j*raw.Stride : j*raw.Stride+m]
				s := 0.0
				if whole {
					s = floats.Dot(a, b)
				} else {
					for l := 0; l < m; l += gramChunk {
						e := min(l+gramChunk, m)
						s += floats.Dot(a[l:e], b[l:e])
					}
				}
				g[i*k+j], g[j*k+i] = s, s
			}
		}
	})
	return g
}

// Transform returns W (documents × k) for the documents X (documents ×
// terms, sparse or dense) given the fixed topics H (k × terms).
//
// For the Frobenius loss each row is the exact non-negative least-squares
// solution w = argmin_{w ≥ 0} ‖x − wH‖², found by an active-set
// (Lawson–Hanson) solve on the k × k Gram matrix HHᵀ with the right-hand
// side Hxᵀ computed sparsely. For KL it runs multiplicative updates on W
// with H fixed from the constant start √(mean(X)/k) (as scikit-learn's
// transform). Topics forbidden by the mask are exactly zero. An all-zero X
// gives an all-zero W.
func (f *FixedH) Transform(ctx context.Context, x Matrix, cfg TransformConfig) (*mat.Dense, error) {
	k, m := f.k, f.m
	d, err := checkDataOpt(x, true)
	if err != nil {
		return nil, err
	}
	if d.m != m {
		return nil, fmt.Errorf("nmf: Transform: X has %d columns but H has %d", d.m, m)
	}
	if cfg.Mask != nil {
		if err := checkMask("Mask", cfg.Mask, d.n, k); err != nil {
			return nil, err
		}
	}
	if cfg.Loss != Frobenius && cfg.Loss != KullbackLeibler {
		return nil, fmt.Errorf("nmf: Transform: unknown loss %v", cfg.Loss)
	}
	w := mat.NewDense(d.n, k, nil)
	if d.sum == 0 {
		return w, nil
	}
	if cfg.Loss == KullbackLeibler && cfg.PerDocument && d.n > 1 {
		return f.transformEach(ctx, d, cfg)
	}
	if cfg.Loss == KullbackLeibler {
		w0 := cfg.W0
		if w0 == nil {
			w0 = mat.NewDense(d.n, k, nil)
			avg := math.Sqrt(d.mean() / float64(k))
			raw := w0.RawMatrix().Data
			for i := range raw {
				raw[i] = avg
			}
		}
		var xm Matrix = x
		if d.dense != nil {
			xm = d.dense
		}
		res, err := Fit(ctx, xm, Config{K: k, Loss: KullbackLeibler, W0: w0, Fixed: f,
			WMask: cfg.Mask, MaxIter: cfg.MaxIter, Tol: cfg.Tol, AddEpsilon: cfg.AddEpsilon})
		if res == nil {
			return nil, err
		}
		return res.W, err
	}
	// Frobenius: b_i = H x_iᵀ for all documents at once, then NNLS per row.
	b := mat.NewDense(d.n, k, nil)
	if d.sp != nil {
		if err := sparse.MulDense(b, d.sp, f.ht); err != nil {
			return nil, err
		}
	} else {
		b.Mul(d.dense, f.ht)
	}
	gm := f.nnlsGram()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	prefix := uniformPrefix(d.n, k*k)
	parallel.ForWeighted(prefix, flopGrain, func(_, lo, hi int) {
		q := f.solvers.Get().(*nnls)
		defer f.solvers.Put(q)
		var al []bool
		if cfg.Mask != nil {
			al = make([]bool, k)
		}
		for i := lo; i < hi; i++ {
			var a []bool
			if cfg.Mask != nil {
				for t, v := range cfg.Mask.RawRowView(i) {
					al[t] = v != 0
				}
				a = al
			}
			q.solve(w.RawRowView(i), gm, b.RawRowView(i), a)
		}
	})
	return w, ctx.Err()
}

// transformEach transforms each document of d alone (TransformConfig's
// PerDocument), the documents spread over the cores.
func (f *FixedH) transformEach(ctx context.Context, d *data, cfg TransformConfig) (*mat.Dense, error) {
	k := f.k
	w := mat.NewDense(d.n, k, nil)
	one := cfg
	one.PerDocument = false
	errs := make([]error, d.n)
	parallel.For(d.n, 8, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if ctx.Err() != nil {
				errs[i] = ctx.Err()
				return
			}
			var xi Matrix
			if d.sp != nil {
				xi = d.sp.SelectRows([]int{i})
			} else {
				xi = mat.NewDense(1, d.m, d.dense.RawRowView(i))
			}
			c := one
			if cfg.Mask != nil {
				c.Mask = mat.NewDense(1, k, cfg.Mask.RawRowView(i))
			}
			if cfg.W0 != nil {
				c.W0 = mat.NewDense(1, k, cfg.W0.RawRowView(i))
			}
			wi, err := f.Transform(ctx, xi, c)
			if err != nil {
				errs[i] = err
				return
			}
			copy(w.RawRowView(i), wi.RawRowView(0))
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return w, nil
}
