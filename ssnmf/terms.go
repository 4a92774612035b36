package ssnmf

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/parallel"
	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/sparse"
)

// grain is the least work, in floating-point operations, worth a goroutine.
const grain = 1 << 15

// dataTerm is the reconstruction term R(X, WH) of the objective, in our
// orientation (X documents × terms ≈ W·H).
type dataTerm interface {
	// updateH applies the multiplicative update of H at (w, h) in place
	// and refreshes ht = hᵀ.
	updateH(w, h, ht *mat.Dense)
	// wParts fills num and den (documents × k) with the term's numerator
	// and denominator of the W update at (w, h).
	wParts(num, den, w, h, ht *mat.Dense)
	// objective returns R at (w, h).
	objective(w, h, ht *mat.Dense) float64
}

// muApply sets f ← f ∘ num ⊘ (eps + den) element-wise (all of equal size).
func muApply(f, num, den []float64, eps float64) {
	parallel.For(len(f), grain, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			f[i] *= num[i] / (eps + den[i])
		}
	})
}

// transposeInto writes aᵀ into dst.
func transposeInto(dst, a *mat.Dense) {
	r, c := a.Dims()
	raw := dst.RawMatrix()
	for i := 0; i < r; i++ {
		for j, v := range a.RawRowView(i) {
			raw.Data[j*raw.Stride+i] = v
		}
	}
	_ = c
}

// scaleRows multiplies row i of a by e[i] (nothing when e is nil).
func scaleRows(a *mat.Dense, e []float64) {
	if e == nil {
		return
	}
	for i, s := range e {
		row := a.RawRowView(i)
		for t := range row {
			row[t] *= s
		}
	}
}

// rowSums returns the row sums of a.
func rowSums(a *mat.Dense) []float64 {
	r, _ := a.Dims()
	out := make([]float64, r)
	for i := range out {
		for _, v := range a.RawRowView(i) {
			out[i] += v
		}
	}
	return out
}

// weightedColSums returns Σ_i e_i a[i][t] (e nil: plain column sums).
func weightedColSums(a *mat.Dense, e []float64) []float64 {
	r, c := a.Dims()
	out := make([]float64, c)
	for i := 0; i < r; i++ {
		s := 1.0
		if e != nil {
			s = e[i]
		}
		if s == 0 {
			continue
		}
		for t, v := range a.RawRowView(i) {
			out[t] += s * v
		}
	}
	return out
}

// divTerm returns z log((z+eps)/(zh+eps)) − z, the part of the
// I-divergence at an entry that depends on z (the +ẑ part is summed apart).
func divTerm(z, zh, eps float64) float64 {
	if z == 0 {
		return 0
	}
	return z*math.Log((z+eps)/(zh+eps)) - z
}

// entryLoss is one entry's contribution to a dense term's objective: the
// squared error or the I-divergence of x from its reconstruction z, times
// weights[j] when weights is not nil.
func entryLoss(loss nmf.Loss, x, z, eps float64, weights []float64, j int) float64 {
	var d float64
	if loss == nmf.Frobenius {
		d = (x - z) * (x - z)
	} else {
		d = divTerm(x, z, eps) + z
	}
	if weights != nil {
		d *= weights[j]
	}
	return d
}

// sparseTerm is R for a sparse X with optional per-document weights e:
// every product is a sparse kernel and nothing documents × terms is dense.
type sparseTerm struct {
	loss nmf.Loss
	x    *sparse.CSR
	e    []float64 // nil: all ones
	eps  float64
	n, m int
	k    int
	xsq  float64 // Σ e_i ‖x_i‖²

	we       *mat.Dense // n × k: diag(e)·W
	num, den *mat.Dense // k × m
	g        *mat.Dense // k × k
	wh       []float64  // (W·H) at the stored entries
	r        []float64  // ratio e∘X/(ε+WH) at the stored entries
	rx       *sparse.CSR
	whOK     bool // wh holds W·H for the current W and H
	partial  []float64
	// rhFixed, when set, is the row sums of a fixed H (transforms), which
	// the W update then need not recompute.
	rhFixed []float64
}

// newTransformTerm is the I-divergence term of a transform with H fixed,
// whose row sums are rh: it holds only what the W update uses.
func newTransformTerm(x *sparse.CSR, k int, eps float64, rh []float64) *sparseTerm {
	t := &sparseTerm{loss: nmf.KullbackLeibler, x: x, eps: eps, n: x.Rows, m: x.Cols, k: k, rhFixed: rh}
	t.wh = make([]float64, x.NNZ())
	t.partial = make([]float64, parallel.Workers())
	t.r = make([]float64, x.NNZ())
	t.rx, _ = x.WithData(t.r)
	return t
}

func newSparseTerm(loss nmf.Loss, x *sparse.CSR, e []float64, k int, eps float64) *sparseTerm {
	t := &sparseTerm{loss: loss, x: x, e: e, eps: eps, n: x.Rows, m: x.Cols, k: k}
	t.num = mat.NewDense(k, t.m, nil)
	t.g = mat.NewDense(k, k, nil)
	t.wh = make([]float64, x.NNZ())
	t.partial = make([]float64, parallel.Workers())
	if loss == nmf.Frobenius {
		t.den = mat.NewDense(k, t.m, nil)
		if e != nil {
			t.we = mat.NewDense(t.n, k, nil)
		}
		for i := 0; i < t.n; i++ {
			_, vals := x.Row(i)
			s := 0.0
			for _, v := range vals {
				s += v * v
			}
			if e != nil {
				s *= e[i]
			}
			t.xsq += s
		}
	} else {
		t.r = make([]float64, x.NNZ())
		t.rx, _ = x.WithData(t.r)
	}
	return t
}

// weight returns e_i.
func (t *sparseTerm) weight(i int) float64 {
	if t.e == nil {
		return 1
	}
	return t.e[i]
}

// rowsPar runs fn over row blocks of X balanced by stored entries, with the
// worker index for partial sums, and returns the sum of fn's results.
func (t *sparseTerm) rowsPar(fn func(lo, hi int) float64) float64 {
	for i := range t.partial {
		t.partial[i] = 0
	}
	parallel.ForWeighted(t.x.Indptr, max(1, grain/(2*t.k)), func(b, lo, hi int) {
		t.partial[b] += fn(lo, hi)
	})
	s := 0.0
	for _, v := range t.partial {
		s += v
	}
	return s
}

// sample fills wh with W·H at the stored entries.
func (t *sparseTerm) sample(w, ht *mat.Dense) {
	// Shapes are checked at construction; SampledDot cannot fail here.
	_ = sparse.SampledDot(t.wh, t.x, w, ht)
}

// ratio fills r with e_i·x/(ε + wh) at the stored entries.
func (t *sparseTerm) ratio() {
	x, eps := t.x, t.eps
	t.rowsPar(func(lo, hi int) float64 {
		for i := lo; i < hi; i++ {
			ei := t.weight(i)
			for p := x.Indptr[i]; p < x.Indptr[i+1]; p++ {
				t.r[p] = ei * x.Data[p] / (eps + t.wh[p])
			}
		}
		return 0
	})
}

func (t *sparseTerm) updateH(w, h, ht *mat.Dense) {
	hraw := h.RawMatrix().Data
	if t.loss == nmf.Frobenius {
		we := w
		if t.e != nil {
			t.we.Copy(w)
			scaleRows(t.we, t.e)
			we = t.we
		}
		_ = sparse.DenseTMul(t.num, we, t.x) // k × m: Wᵀ diag(e) X
		t.g.Mul(w.T(), we)                   // Wᵀ diag(e) W
		t.den.Mul(t.g, h)
		muApply(hraw, t.num.RawMatrix().Data, t.den.RawMatrix().Data, t.eps)
	} else {
		if !t.whOK {
			t.sample(w, ht)
		}
		t.ratio()
		_ = sparse.DenseTMul(t.num, w, t.rx) // Wᵀ (e∘X ⊘ WH)
		cw := weightedColSums(w, t.e)        // Wᵀ V: the same for every term
		for s := 0; s < t.k; s++ {
			row := h.RawRowView(s)
			nr := t.num.RawRowView(s)
			d := t.eps + cw[s]
			for j := range row {
				row[j] *= nr[j] / d
			}
		}
	}
	t.whOK = false
	transposeInto(ht, h)
}

func (t *sparseTerm) wParts(num, den, w, h, ht *mat.Dense) {
	if t.loss == nmf.Frobenius {
		_ = sparse.MulDense(num, t.x, ht) // X Hᵀ
		scaleRows(num, t.e)
		t.g.Mul(h, h.T())
		den.Mul(w, t.g) // W H Hᵀ
		scaleRows(den, t.e)
		return
	}
	t.sample(w, ht)
	t.ratio()
	_ = sparse.MulDense(num, t.rx, ht) // (e∘X ⊘ WH) Hᵀ
	rh := t.rhFixed
	if rh == nil {
		rh = rowSums(h)
	}
	for i := 0; i < t.n; i++ {
		ei := t.weight(i)
		row := den.RawRowView(i)
		for s := range row {
			row[s] = ei * rh[s]
		}
	}
	t.whOK = false
}

func (t *sparseTerm) objective(w, h, ht *mat.Dense) float64 {
	t.sample(w, ht)
	x := t.x
	if t.loss == nmf.Frobenius {
		cross := t.rowsPar(func(lo, hi int) float64 {
			s := 0.0
			for i := lo; i < hi; i++ {
				si := 0.0
				for p := x.Indptr[i]; p < x.Indptr[i+1]; p++ {
					si += x.Data[p] * t.wh[p]
				}
				s += t.weight(i) * si
			}
			return s
		})
		t.g.Mul(h, h.T())
		quad := 0.0
		tmp := make([]float64, t.k)
		for i := 0; i < t.n; i++ {
			ei := t.weight(i)
			if ei == 0 {
				continue
			}
			wi := w.RawRowView(i)
			for s := range tmp {
				tmp[s] = 0
			}
			for a, va := range wi {
				if va == 0 {
					continue
				}
				for b, gv := range t.g.RawRowView(a) {
					tmp[b] += va * gv
				}
			}
			q := 0.0
			for b, vb := range wi {
				q += tmp[b] * vb
			}
			quad += ei * q
		}
		return math.Max(0, t.xsq-2*cross+quad)
	}
	t.whOK = true
	eps := t.eps
	nz := t.rowsPar(func(lo, hi int) float64 {
		s := 0.0
		for i := lo; i < hi; i++ {
			ei := t.weight(i)
			if ei == 0 {
				continue
			}
			si := 0.0
			for p := x.Indptr[i]; p < x.Indptr[i+1]; p++ {
				si += divTerm(x.Data[p], t.wh[p], eps)
			}
			s += ei * si
		}
		return s
	})
	// Σ_ij e_i (WH)_ij = Σ_t (Σ_i e_i w_it)(Σ_j h_tj).
	cw := weightedColSums(w, t.e)
	rh := rowSums(h)
	tot := 0.0
	for s := range cw {
		tot += cw[s] * rh[s]
	}
	return nz + tot
}

// denseTerm is R for a dense X with optional dense weights V (documents ×
// terms; nil means all ones).
type denseTerm struct {
	loss nmf.Loss
	x    *mat.Dense
	v    *mat.Dense
	vx   *mat.Dense // V∘X (x itself when v is nil)
	eps  float64
	n, m int
	k    int

	prod     *mat.Dense // n × m: W·H
	prodOK   bool       // prod holds W·H for the current W and H
	wh       *mat.Dense // n × m: V∘(W·H) or the ratio
	num, den *mat.Dense // k × m
	g        *mat.Dense // k × k
}

func newDenseTerm(loss nmf.Loss, x, v *mat.Dense, k int, eps float64) *denseTerm {
	n, m := x.Dims()
	t := &denseTerm{loss: loss, x: x, v: v, vx: x, eps: eps, n: n, m: m, k: k}
	if v != nil {
		t.vx = mat.NewDense(n, m, nil)
		t.vx.MulElem(v, x)
	}
	t.prod = mat.NewDense(n, m, nil)
	t.wh = mat.NewDense(n, m, nil)
	t.num = mat.NewDense(k, m, nil)
	t.den = mat.NewDense(k, m, nil)
	t.g = mat.NewDense(k, k, nil)
	return t
}

// rowsPar runs fn over row blocks of the n × m matrices.
func (t *denseTerm) rowsPar(fn func(lo, hi int)) {
	parallel.For(t.n, max(1, grain/max(1, 4*t.m)), fn)
}

// weighted fills wh with V∘(W·H) (nmf.Frobenius) or the ratio V∘X ⊘ (ε + W·H)
// (I-divergence).
func (t *denseTerm) weighted(w, h *mat.Dense) {
	if !t.prodOK {
		t.prod.Mul(w, h)
	}
	t.rowsPar(func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := t.wh.RawRowView(i)
			copy(row, t.prod.RawRowView(i))
			var vr []float64
			if t.v != nil {
				vr = t.v.RawRowView(i)
			}
			if t.loss == nmf.Frobenius {
				if vr != nil {
					for j := range row {
						row[j] *= vr[j]
					}
				}
				continue
			}
			xr := t.vx.RawRowView(i)
			for j := range row {
				row[j] = xr[j] / (t.eps + row[j])
			}
		}
	})
}

func (t *denseTerm) updateH(w, h, ht *mat.Dense) {
	if t.loss != nmf.Frobenius || t.v != nil {
		t.weighted(w, h)
	}
	switch {
	case t.loss == nmf.Frobenius && t.v == nil:
		t.num.Mul(w.T(), t.x)
		t.g.Mul(w.T(), w)
		t.den.Mul(t.g, h)
	case t.loss == nmf.Frobenius:
		t.num.Mul(w.T(), t.vx)
		t.den.Mul(w.T(), t.wh)
	case t.v == nil:
		t.num.Mul(w.T(), t.wh)
		cw := weightedColSums(w, nil)
		for s := 0; s < t.k; s++ {
			row := t.den.RawRowView(s)
			for j := range row {
				row[j] = cw[s]
			}
		}
	default:
		t.num.Mul(w.T(), t.wh)
		t.den.Mul(w.T(), t.v)
	}
	muApply(h.RawMatrix().Data, t.num.RawMatrix().Data, t.den.RawMatrix().Data, t.eps)
	transposeInto(ht, h)
	t.prodOK = false
}

func (t *denseTerm) wParts(num, den, w, h, ht *mat.Dense) {
	t.prodOK = false // W·H of the new H; W changes next
	switch {
	case t.loss == nmf.Frobenius && t.v == nil:
		num.Mul(t.x, ht)
		t.g.Mul(h, ht)
		den.Mul(w, t.g)
	case t.loss == nmf.Frobenius:
		t.weighted(w, h)
		num.Mul(t.vx, ht)
		den.Mul(t.wh, ht)
	case t.v == nil:
		t.weighted(w, h)
		num.Mul(t.wh, ht)
		rh := rowSums(h)
		for i := 0; i < t.n; i++ {
			copy(den.RawRowView(i), rh)
		}
	default:
		t.weighted(w, h)
		num.Mul(t.wh, ht)
		den.Mul(t.v, ht)
	}
}

func (t *denseTerm) objective(w, h, ht *mat.Dense) float64 {
	t.prod.Mul(w, h)
	t.prodOK = true
	part := make([]float64, t.n)
	t.rowsPar(func(lo, hi int) {
		for i := lo; i < hi; i++ {
			xr, zr := t.x.RawRowView(i), t.prod.RawRowView(i)
			var vr []float64
			if t.v != nil {
				vr = t.v.RawRowView(i)
			}
			s := 0.0
			for j, x := range xr {
				s += entryLoss(t.loss, x, zr[j], t.eps, vr, j)
			}
			part[i] = s
		}
	})
	s := 0.0
	for _, v := range part {
		s += v
	}
	return s
}

// labelTerm is the supervision term Q(Y, W·Bᵀ), dense (documents ×
// targets is narrow), with label weights M (nil: all ones).
type labelTerm struct {
	loss nmf.Loss
	y    *mat.Dense
	m    *mat.Dense // nil: all ones
	my   *mat.Dense // M∘Y
	eps  float64
	n, c int

	yh       *mat.Dense // n × c: W·Bᵀ, then its weighted form or ratio
	num, den *mat.Dense // c × k
	g, g2    *mat.Dense // k × k
	ysq      float64    // ‖Y‖² (nmf.Frobenius without weights)
}

func newLabelTerm(loss nmf.Loss, y, m *mat.Dense, k int, eps float64) *labelTerm {
	n, c := y.Dims()
	t := &labelTerm{loss: loss, y: y, m: m, my: y, eps: eps, n: n, c: c}
	if m != nil {
		t.my = mat.NewDense(n, c, nil)
		t.my.MulElem(m, y)
	}
	t.yh = mat.NewDense(n, c, nil)
	t.num = mat.NewDense(c, k, nil)
	t.den = mat.NewDense(c, k, nil)
	t.g = mat.NewDense(k, k, nil)
	t.g2 = mat.NewDense(k, k, nil)
	if loss == nmf.Frobenius && m == nil {
		for i := 0; i < n; i++ {
			for _, v := range y.RawRowView(i) {
				t.ysq += v * v
			}
		}
	}
	return t
}

// gram reports whether the term uses Gram matrices instead of W·Bᵀ: an
// unweighted nmf.Frobenius term, whose products with W·Bᵀ factor through the
// k × k matrices WᵀW and BᵀB.
func (t *labelTerm) gram() bool { return t.loss == nmf.Frobenius && t.m == nil }

// weighted fills yh with M∘(W·Bᵀ) (nmf.Frobenius) or M∘Y ⊘ (ε + W·Bᵀ)
// (I-divergence).
func (t *labelTerm) weighted(w, b *mat.Dense) {
	t.yh.Mul(w, b.T())
	parallel.For(t.n, max(1, grain/max(1, 4*t.c)), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := t.yh.RawRowView(i)
			if t.loss == nmf.Frobenius {
				if t.m != nil {
					for j, mv := range t.m.RawRowView(i) {
						row[j] *= mv
					}
				}
				continue
			}
			yr := t.my.RawRowView(i)
			for j := range row {
				row[j] = yr[j] / (t.eps + row[j])
			}
		}
	})
}

// updateB applies B's multiplicative update at (w, b).
func (t *labelTerm) updateB(w, b *mat.Dense) {
	if t.gram() {
		t.num.Mul(t.y.T(), w) // Yᵀ W
		t.g.Mul(w.T(), w)
		t.den.Mul(b, t.g) // (W Bᵀ)ᵀ W = B WᵀW
		muApply(b.RawMatrix().Data, t.num.RawMatrix().Data, t.den.RawMatrix().Data, t.eps)
		return
	}
	t.weighted(w, b)
	if t.loss == nmf.Frobenius {
		t.num.Mul(t.my.T(), w)
		t.den.Mul(t.yh.T(), w)
	} else {
		t.num.Mul(t.yh.T(), w)
		if t.m != nil {
			t.den.Mul(t.m.T(), w)
		} else {
			cw := weightedColSums(w, nil)
			for j := 0; j < t.c; j++ {
				copy(t.den.RawRowView(j), cw)
			}
		}
	}
	muApply(b.RawMatrix().Data, t.num.RawMatrix().Data, t.den.RawMatrix().Data, t.eps)
}

// wParts fills num and den (n × k) with the term's parts of the W update.
func (t *labelTerm) wParts(num, den, w, b *mat.Dense) {
	if t.gram() {
		num.Mul(t.y, b)
		t.g.Mul(b.T(), b)
		den.Mul(w, t.g) // (W Bᵀ) B = W BᵀB
		return
	}
	t.weighted(w, b)
	if t.loss == nmf.Frobenius {
		num.Mul(t.my, b)
		den.Mul(t.yh, b)
		return
	}
	num.Mul(t.yh, b)
	if t.m != nil {
		den.Mul(t.m, b)
		return
	}
	cb := weightedColSums(b, nil)
	for i := 0; i < t.n; i++ {
		copy(den.RawRowView(i), cb)
	}
}

// objective returns Q at (w, b).
func (t *labelTerm) objective(w, b *mat.Dense) float64 {
	if t.gram() {
		// ‖Y − WBᵀ‖² = ‖Y‖² − 2⟨YᵀW, B⟩ + ⟨WᵀW, BᵀB⟩.
		t.num.Mul(t.y.T(), w)
		cross := 0.0
		nr, br := t.num.RawMatrix().Data, b.RawMatrix().Data
		for i := range nr {
			cross += nr[i] * br[i]
		}
		t.g.Mul(w.T(), w)
		t.g2.Mul(b.T(), b)
		quad := 0.0
		g1, g2 := t.g.RawMatrix().Data, t.g2.RawMatrix().Data
		for i := range g1 {
			quad += g1[i] * g2[i]
		}
		return math.Max(0, t.ysq-2*cross+quad)
	}
	t.yh.Mul(w, b.T())
	s := 0.0
	for i := 0; i < t.n; i++ {
		yr, zr := t.y.RawRowView(i), t.yh.RawRowView(i)
		var mr []float64
		if t.m != nil {
			mr = t.m.RawRowView(i)
		}
		for j, y := range yr {
			s += entryLoss(t.loss, y, zr[j], t.eps, mr, j)
		}
	}
	return s
}
