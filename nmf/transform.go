package nmf

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/parallel"
	"github.com/semitopic/semitopic/sparse"
)

// TransformConfig configures Transform.
type TransformConfig struct {
	// Loss is the loss H was fitted with.
	Loss Loss
	// Mask is an optional documents × k 0/1 matrix: a document may only
	// use the topics where its row is 1 (for example its labels' topics).
	Mask *mat.Dense
	// MaxIter and Tol bound the multiplicative updates of the KL loss
	// (defaults as in Config); the Frobenius solve is exact and ignores
	// them.
	MaxIter int
	Tol     float64
}

// Transform returns W (documents × k) for the documents X (documents ×
// terms, sparse or dense) given fixed topics H (k × terms).
//
// For the Frobenius loss each row is the exact non-negative least-squares
// solution w = argmin_{w ≥ 0} ‖x − wH‖², found by an active-set
// (Lawson–Hanson) solve on the k × k Gram matrix HHᵀ with the right-hand
// side Hxᵀ computed sparsely. For KL it runs multiplicative updates on W
// with H fixed from the constant start √(mean(X)/k) (as scikit-learn's
// transform). Topics forbidden by the mask are exactly zero. An all-zero X
// gives an all-zero W.
func Transform(ctx context.Context, x Matrix, h *mat.Dense, cfg TransformConfig) (*mat.Dense, error) {
	if h == nil || h.IsEmpty() {
		return nil, fmt.Errorf("nmf: Transform: H is empty")
	}
	k, m := h.Dims()
	d, err := checkDataOpt(x, true)
	if err != nil {
		return nil, err
	}
	if d.m != m {
		return nil, fmt.Errorf("nmf: Transform: X has %d columns but H has %d", d.m, m)
	}
	if err := checkFactor("H", h, k, m); err != nil {
		return nil, err
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
	if cfg.Loss == KullbackLeibler {
		w0 := mat.NewDense(d.n, k, nil)
		avg := math.Sqrt(d.mean() / float64(k))
		raw := w0.RawMatrix().Data
		for i := range raw {
			raw[i] = avg
		}
		var xm Matrix = x
		if d.dense != nil {
			xm = d.dense
		}
		res, err := Fit(ctx, xm, Config{K: k, Loss: KullbackLeibler, W0: w0, H0: h, FixH: true,
			WMask: cfg.Mask, MaxIter: cfg.MaxIter, Tol: cfg.Tol})
		if res == nil {
			return nil, err
		}
		return res.W, err
	}
	// Frobenius: b_i = H x_iᵀ for all documents at once, then NNLS per row.
	b := mat.NewDense(d.n, k, nil)
	if d.sp != nil {
		if err := sparse.MulDense(b, d.sp, mat.DenseCopyOf(h.T())); err != nil {
			return nil, err
		}
	} else {
		b.Mul(d.dense, h.T())
	}
	var g mat.Dense
	g.Mul(h, h.T())
	graw := copyRaw(&g)
	solvers := make([]*nnls, parallel.Workers())
	allowed := make([][]bool, len(solvers))
	for i := range solvers {
		solvers[i] = newNNLS(k)
		allowed[i] = make([]bool, k)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	prefix := uniformPrefix(d.n, k*k)
	parallel.ForWeighted(prefix, flopGrain, func(wi, lo, hi int) {
		q, al := solvers[wi], allowed[wi]
		for i := lo; i < hi; i++ {
			var a []bool
			if cfg.Mask != nil {
				for t, v := range cfg.Mask.RawRowView(i) {
					al[t] = v != 0
				}
				a = al
			}
			q.solve(w.RawRowView(i), graw, b.RawRowView(i), a)
		}
	})
	return w, ctx.Err()
}
