package nmf

import (
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/parallel"
	"github.com/semitopic/semitopic/internal/rng"
)

// rngSaltCoupled separates the streams of the coupled terms' starting B
// from the initialisations' stream.
const rngSaltCoupled = 0x636f75706c6564 // "coupled"

// coupledTerm is one Config.Coupled term λ·L(Y, W·Bᵀ) during a fit. It is
// dense: documents × targets is narrow.
type coupledTerm struct {
	loss   Loss
	lambda float64
	gd     guard
	y      *mat.Dense
	m      *mat.Dense // entry weights with the row weights folded in; nil: all ones
	my     *mat.Dense // M∘Y (y itself without weights)
	b      *mat.Dense // c × k, updated in place
	n, c   int
	ysq    float64 // ½‖Y‖² (Frobenius without weights)

	yh       *mat.Dense // n × c: W·Bᵀ, then its weighted form or the ratio
	num, den *mat.Dense // c × k
	pn, pd   *mat.Dense // n × k: the term's parts of the W update
	g, g2    *mat.Dense // k × k
	col      []float64  // k
}

// newCoupledTerm prepares term index idx of cfg (validated) for k topics.
func newCoupledTerm(t Coupled, idx, k int, seed uint64, gd guard) *coupledTerm {
	n, c := t.Y.Dims()
	ct := &coupledTerm{loss: t.Loss, lambda: t.Lambda, gd: gd, y: t.Y, my: t.Y, n: n, c: c}
	if t.Weights != nil || t.RowWeights != nil {
		ct.m = mat.NewDense(n, c, nil)
		for i := 0; i < n; i++ {
			row := ct.m.RawRowView(i)
			e := 1.0
			if t.RowWeights != nil {
				e = t.RowWeights[i]
			}
			if t.Weights != nil {
				for j, v := range t.Weights.RawRowView(i) {
					row[j] = v * e
				}
			} else {
				for j := range row {
					row[j] = e
				}
			}
		}
		ct.my = mat.NewDense(n, c, nil)
		ct.my.MulElem(ct.m, t.Y)
	}
	if t.B0 != nil {
		ct.b = mat.DenseCopyOf(t.B0)
	} else {
		src := rng.New(seed, uint64(idx+1), rngSaltCoupled)
		data := make([]float64, c*k)
		for i := range data {
			data[i] = src.Float64()
		}
		ct.b = mat.NewDense(c, k, data)
	}
	ct.yh = mat.NewDense(n, c, nil)
	ct.num = mat.NewDense(c, k, nil)
	ct.den = mat.NewDense(c, k, nil)
	ct.pn = mat.NewDense(n, k, nil)
	ct.pd = mat.NewDense(n, k, nil)
	ct.g = mat.NewDense(k, k, nil)
	ct.g2 = mat.NewDense(k, k, nil)
	ct.col = make([]float64, k)
	if ct.gram() {
		for i := 0; i < n; i++ {
			for _, v := range t.Y.RawRowView(i) {
				ct.ysq += v * v
			}
		}
		ct.ysq /= 2
	}
	return ct
}

// gram reports whether the term's products go through k × k Gram
// matrices instead of W·Bᵀ: an unweighted Frobenius term.
func (t *coupledTerm) gram() bool { return t.loss == Frobenius && t.m == nil }

// weighted fills yh with M∘(W·Bᵀ) (Frobenius) or M∘Y ⊘ W·Bᵀ (KL, the
// divisor guarded; zero where y is zero).
func (t *coupledTerm) weighted(w *mat.Dense) {
	t.yh.Mul(w, t.b.T())
	parallel.For(t.n, max(1, flopGrain/max(1, 4*t.c)), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := t.yh.RawRowView(i)
			if t.loss == Frobenius {
				if t.m != nil {
					for j, mv := range t.m.RawRowView(i) {
						row[j] *= mv
					}
				}
				continue
			}
			yr := t.my.RawRowView(i)
			for j := range row {
				if yr[j] == 0 {
					row[j] = 0
					continue
				}
				row[j] = yr[j] / t.gd.div(row[j])
			}
		}
	})
}

// colSums sets t.col to the column sums of a (r × k).
func (t *coupledTerm) colSums(a *mat.Dense) []float64 {
	clear(t.col)
	r, _ := a.Dims()
	for i := 0; i < r; i++ {
		for s, v := range a.RawRowView(i) {
			t.col[s] += v
		}
	}
	return t.col
}

// updateB applies B's multiplicative update at W.
func (t *coupledTerm) updateB(w *mat.Dense) {
	switch {
	case t.gram():
		t.num.Mul(t.y.T(), w) // Yᵀ W
		t.g.Mul(w.T(), w)
		t.den.Mul(t.b, t.g) // (W Bᵀ)ᵀ W = B WᵀW
	case t.loss == Frobenius:
		t.weighted(w)
		t.num.Mul(t.my.T(), w)
		t.den.Mul(t.yh.T(), w)
	default:
		t.weighted(w)
		t.num.Mul(t.yh.T(), w)
		if t.m != nil {
			t.den.Mul(t.m.T(), w)
		} else {
			fillRows(t.den, t.colSums(w))
		}
	}
	apply(t.b, t.num, t.den, minNormal, t.gd)
}

// addWParts adds the term's λ-weighted numerator and denominator of the W
// update at (W, B) to num and den (n × k).
func (t *coupledTerm) addWParts(num, den, w *mat.Dense) {
	switch {
	case t.gram():
		t.pn.Mul(t.y, t.b)
		t.g.Mul(t.b.T(), t.b)
		t.pd.Mul(w, t.g) // (W Bᵀ) B = W BᵀB
	case t.loss == Frobenius:
		t.weighted(w)
		t.pn.Mul(t.my, t.b)
		t.pd.Mul(t.yh, t.b)
	default:
		t.weighted(w)
		t.pn.Mul(t.yh, t.b)
		if t.m != nil {
			t.pd.Mul(t.m, t.b)
		} else {
			fillRows(t.pd, t.colSums(t.b))
		}
	}
	for i := 0; i < t.n; i++ {
		nr, dr := num.RawRowView(i), den.RawRowView(i)
		for s, v := range t.pn.RawRowView(i) {
			nr[s] += t.lambda * v
		}
		for s, v := range t.pd.RawRowView(i) {
			dr[s] += t.lambda * v
		}
	}
}

// objective returns L(Y, W·Bᵀ), without λ.
func (t *coupledTerm) objective(w *mat.Dense) float64 {
	if t.gram() {
		// ½‖Y − WBᵀ‖² = ½‖Y‖² − ⟨YᵀW, B⟩ + ½⟨WᵀW, BᵀB⟩.
		t.num.Mul(t.y.T(), w)
		cross := 0.0
		nr, br := t.num.RawMatrix().Data, t.b.RawMatrix().Data
		for i := range nr {
			cross += nr[i] * br[i]
		}
		t.g.Mul(w.T(), w)
		t.g2.Mul(t.b.T(), t.b)
		quad := 0.0
		g1, g2 := t.g.RawMatrix().Data, t.g2.RawMatrix().Data
		for i := range g1 {
			quad += g1[i] * g2[i]
		}
		return math.Max(0, t.ysq-cross+quad/2)
	}
	t.yh.Mul(w, t.b.T())
	s := 0.0
	for i := 0; i < t.n; i++ {
		yr, zr := t.y.RawRowView(i), t.yh.RawRowView(i)
		var mr []float64
		if t.m != nil {
			mr = t.m.RawRowView(i)
		}
		for j, y := range yr {
			z := zr[j]
			var d float64
			if t.loss == Frobenius {
				d = (y - z) * (y - z) / 2
			} else {
				d = z
				if y != 0 {
					d += t.gd.kl(y, z)
				}
			}
			if mr != nil {
				d *= mr[j]
			}
			s += d
		}
	}
	return s
}

// couplings is the coupled terms of a fit with the buffers they share.
type couplings struct {
	terms    []*coupledTerm
	num, den []float64 // n × kp: the terms' parts of the W update
	n, k, kp int
}

// newCouplings prepares cfg.Coupled (nil when there are none) for factors
// whose rows have length kp.
func newCouplings(cfg Config, n, kp int, gd guard) *couplings {
	if len(cfg.Coupled) == 0 {
		return nil
	}
	c := &couplings{n: n, k: cfg.K, kp: kp, num: make([]float64, n*kp), den: make([]float64, n*kp)}
	for i, t := range cfg.Coupled {
		c.terms = append(c.terms, newCoupledTerm(t, i, cfg.K, cfg.Seed, gd))
	}
	return c
}

// view returns the n × k matrix whose rows are the first k entries of the
// rows of a (n × kp): no copy.
func view(a []float64, n, k, kp int) *mat.Dense {
	var d mat.Dense
	d.SetRawMatrix(blas64.General{Rows: n, Cols: k, Stride: kp, Data: a[:(n-1)*kp+k]})
	return &d
}

// updateB updates every term's B at W (n × kp rows).
func (c *couplings) updateB(w []float64) {
	if c == nil {
		return
	}
	wv := view(w, c.n, c.k, c.kp)
	for _, t := range c.terms {
		t.updateB(wv)
	}
}

// parts fills c.num and c.den with the terms' parts of the W update at W.
func (c *couplings) parts(w []float64) {
	clear(c.num)
	clear(c.den)
	wv := view(w, c.n, c.k, c.kp)
	nv, dv := view(c.num, c.n, c.k, c.kp), view(c.den, c.n, c.k, c.kp)
	for _, t := range c.terms {
		t.addWParts(nv, dv, wv)
	}
}

// objectives appends each term's value at W to vals and returns it with
// Σ_c λ_c·L_c.
func (c *couplings) objectives(w []float64, vals []float64) ([]float64, float64) {
	if c == nil {
		return vals, 0
	}
	wv := view(w, c.n, c.k, c.kp)
	total := 0.0
	for _, t := range c.terms {
		v := t.objective(wv)
		vals = append(vals, v)
		total += t.lambda * v
	}
	return vals, total
}

// bs returns the fitted B of each term.
func (c *couplings) bs() []*mat.Dense {
	if c == nil {
		return nil
	}
	out := make([]*mat.Dense, len(c.terms))
	for i, t := range c.terms {
		out[i] = t.b
	}
	return out
}

// rowPartsFor returns the parts of W's update beyond the data term for a fit
// with data weight alpha and row weights e (nil: 1), or nil when the data
// term's own update is the whole update.
func rowPartsFor(c *couplings, gd guard, alpha float64, e []float64, n int) *rowParts {
	// A row's own weight cancels from its update unless other terms share
	// the update or ε is added to the divisor.
	if c == nil && (gd.add == 0 || e == nil && alpha == 1) {
		return nil
	}
	rp := &rowParts{}
	if c != nil {
		rp.num, rp.den = c.num, c.den
	}
	if e != nil || alpha != 1 {
		rp.scale = make([]float64, n)
		for i := range rp.scale {
			rp.scale[i] = alpha
			if e != nil {
				rp.scale[i] = alpha * e[i]
			}
		}
	}
	return rp
}
