package nmf

import (
	"context"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/parallel"
)

// denseFit is the dense path: a dense X, or any X with dense general
// weights. Products go through gonum's (parallel) matrix multiplication,
// and the objective is evaluated directly from WH after every iteration.
type denseFit struct {
	cfg     Config
	n, m, k int
	x       *mat.Dense
	v       *mat.Dense // general weights with row weights folded in, or nil
	vx      *mat.Dense // V∘X (Frobenius with general weights)
	e       []float64  // row weights when v is nil (nil: all 1)
	w, h    *mat.Dense

	wh, r      *mat.Dense // n × m work
	numW, denW *mat.Dense // n × k
	numH, denH *mat.Dense // k × m
	g          *mat.Dense // k × k
	we         *mat.Dense // diag(e)·W
	fixedNum   bool       // numW (FixH) or numH (FixW) holds the fixed numerator
	den        []float64  // k
	parts      []float64  // n: per-document objective terms

	gd     guard
	cpl    *couplings // coupled terms, or nil
	rp     *rowParts  // what W's update adds to the data term's, or nil
	cn, cd []float64  // k: a row's combined numerator and denominator
	terms  []float64  // the terms' values at the latest objective
}

func newDenseFit(cfg Config, x *mat.Dense, w, h []float64) *denseFit {
	n, m := x.Dims()
	k := cfg.K
	f := &denseFit{cfg: cfg, n: n, m: m, k: k, x: x, e: cfg.RowWeights,
		w: mat.NewDense(n, k, w), h: mat.NewDense(k, m, h)}
	if cfg.Weights != nil {
		f.v = mat.DenseCopyOf(cfg.Weights)
		if f.e != nil {
			for i := 0; i < n; i++ {
				row := f.v.RawRowView(i)
				for j := range row {
					row[j] *= f.e[i]
				}
			}
		}
		f.e = nil
		if cfg.Loss == Frobenius {
			f.vx = mat.NewDense(n, m, nil)
			f.vx.MulElem(f.v, x)
		}
	}
	f.wh = mat.NewDense(n, m, nil)
	f.r = mat.NewDense(n, m, nil)
	f.numW = mat.NewDense(n, k, nil)
	f.denW = mat.NewDense(n, k, nil)
	f.numH = mat.NewDense(k, m, nil)
	f.denH = mat.NewDense(k, m, nil)
	f.g = mat.NewDense(k, k, nil)
	f.we = mat.NewDense(n, k, nil)
	f.den = make([]float64, k)
	f.parts = make([]float64, n)
	f.gd = guard{cfg.AddEpsilon}
	f.cpl = newCouplings(cfg, n, k, f.gd)
	f.rp = rowPartsFor(f.cpl, f.gd, cfg.DataWeight, f.e, n)
	f.cn, f.cd = make([]float64, k), make([]float64, k)
	return f
}

// total returns the objective α·data + Σ_c λ_c·L_c at the current
// factors, recording the terms' values.
func (f *denseFit) total() float64 {
	data := f.objective()
	f.terms = append(f.terms[:0], data)
	var coupled float64
	f.terms, coupled = f.cpl.objectives(f.w.RawMatrix().Data, f.terms)
	return f.cfg.DataWeight*data + coupled
}

// rowsPar runs fn over blocks of the n rows on all cores.
func (f *denseFit) rowsPar(fn func(lo, hi int)) {
	parallel.For(f.n, max(1, flopGrain/max(1, 4*f.m)), fn)
}

// objective evaluates the loss at (W, H) directly from WH.
func (f *denseFit) objective() float64 {
	f.wh.Mul(f.w, f.h)
	parts := f.parts
	kl := f.cfg.Loss == KullbackLeibler
	f.rowsPar(func(lo, hi int) {
		for i := lo; i < hi; i++ {
			xr, whr := f.x.RawRowView(i), f.wh.RawRowView(i)
			s := 0.0
			for j, x := range xr {
				wh := whr[j]
				var v float64
				if kl {
					v = wh
					if x != 0 {
						v += f.gd.kl(x, wh)
					}
				} else {
					v = 0.5 * (x - wh) * (x - wh)
				}
				if f.v != nil {
					v *= f.v.At(i, j)
				}
				s += v
			}
			if f.e != nil {
				s *= f.e[i]
			}
			parts[i] = s
		}
	})
	total := 0.0
	for _, p := range parts {
		total += p
	}
	return total
}

// ratio sets r = c∘X⊘WH (zero where x is zero) for the current W and H,
// with c the general weights, or the row weights when rowWeights is set,
// or 1.
func (f *denseFit) ratio(rowWeights bool) {
	f.wh.Mul(f.w, f.h)
	f.rowsPar(func(lo, hi int) {
		for i := lo; i < hi; i++ {
			xr, whr, rr := f.x.RawRowView(i), f.wh.RawRowView(i), f.r.RawRowView(i)
			for j, x := range xr {
				if x == 0 {
					rr[j] = 0
					continue
				}
				wh := f.gd.div(whr[j])
				c := 1.0
				if f.v != nil {
					c = f.v.At(i, j)
				} else if rowWeights && f.e != nil {
					c = f.e[i]
				}
				rr[j] = c * x / wh
			}
		}
	})
}

// weightedWH sets r = V∘WH for the current W and H.
func (f *denseFit) weightedWH() {
	f.wh.Mul(f.w, f.h)
	f.r.MulElem(f.v, f.wh)
}

// apply performs a ← a ∘ num ⊘ den, the divisors guarded by gd, leaving
// zero entries of a zero and setting results below floor to zero.
func apply(a, num, den *mat.Dense, floor float64, gd guard) {
	applyRows(a, num, den, floor, gd, nil, nil, nil)
}

// applyRows is apply with each row's numerator and denominator combined
// with rp (nil: nothing) in the buffers cn and cd (of a's width).
func applyRows(a, num, den *mat.Dense, floor float64, gd guard, rp *rowParts, cn, cd []float64) {
	r, c := a.Dims()
	for i := 0; i < r; i++ {
		ar := a.RawRowView(i)
		nr, dr := rp.combine(i, c, num.RawRowView(i), den.RawRowView(i), cn, cd)
		for j := 0; j < c; j++ {
			if ar[j] != 0 {
				v := ar[j] * (nr[j] / gd.div(dr[j]))
				if v < floor {
					v = 0
				}
				ar[j] = v
			}
		}
	}
}

// fillRows sets every row of d to v.
func fillRows(d *mat.Dense, v []float64) {
	r, _ := d.Dims()
	for i := 0; i < r; i++ {
		copy(d.RawRowView(i), v)
	}
}

// fillCols sets every column of d to v.
func fillCols(d *mat.Dense, v []float64) {
	for t, x := range v {
		row := d.RawRowView(t)
		for j := range row {
			row[j] = x
		}
	}
}

// updateW performs one multiplicative update of W.
func (f *denseFit) updateW() {
	fixed := f.cfg.FixH && f.fixedNum // numW (or denW for KL with V) is fixed
	switch {
	case f.cfg.Loss == Frobenius && f.v == nil:
		if !fixed {
			f.numW.Mul(f.x, f.h.T())
		}
		f.g.Mul(f.h, f.h.T())
		f.denW.Mul(f.w, f.g)
	case f.cfg.Loss == Frobenius:
		if !fixed {
			f.numW.Mul(f.vx, f.h.T())
		}
		f.weightedWH()
		f.denW.Mul(f.r, f.h.T())
	default:
		f.ratio(false)
		f.numW.Mul(f.r, f.h.T())
		if f.v != nil {
			if !fixed {
				f.denW.Mul(f.v, f.h.T())
			}
		} else {
			for t := range f.den {
				f.den[t] = sum(f.h.RawRowView(t))
			}
			fillRows(f.denW, f.den)
		}
	}
	f.fixedNum = f.cfg.FixH
	if f.cpl != nil {
		f.cpl.parts(f.w.RawMatrix().Data)
	}
	applyRows(f.w, f.numW, f.denW, minNormal, f.gd, f.rp, f.cn, f.cd)
}

// updateH performs one multiplicative update of H.
func (f *denseFit) updateH() {
	fixed := f.cfg.FixW && f.fixedNum
	switch {
	case f.cfg.Loss == Frobenius && f.v == nil:
		f.we.Copy(f.w)
		if f.e != nil {
			for i := 0; i < f.n; i++ {
				row := f.we.RawRowView(i)
				for t := range row {
					row[t] *= f.e[i]
				}
			}
		}
		if !fixed {
			f.numH.Mul(f.we.T(), f.x)
		}
		f.g.Mul(f.we.T(), f.w)
		f.denH.Mul(f.g, f.h)
	case f.cfg.Loss == Frobenius:
		if !fixed {
			f.numH.Mul(f.w.T(), f.vx)
		}
		f.weightedWH()
		f.denH.Mul(f.w.T(), f.r)
	default:
		f.ratio(true)
		f.numH.Mul(f.w.T(), f.r)
		if f.v != nil {
			if !fixed {
				f.denH.Mul(f.w.T(), f.v)
			}
		} else {
			clear(f.den)
			for i := 0; i < f.n; i++ {
				c := 1.0
				if f.e != nil {
					c = f.e[i]
				}
				for t, x := range f.w.RawRowView(i) {
					f.den[t] += c * x
				}
			}
			fillCols(f.denH, f.den)
		}
	}
	f.fixedNum = f.cfg.FixW
	apply(f.h, f.numH, f.denH, f.gd.hFloor(f.cfg.Loss), f.gd)
	f.cfg.hold.apply(f.h.RawMatrix().Data, f.m, f.m, 1)
}

// sum returns the sum of v.
func sum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

// run iterates until convergence, MaxIter or cancellation.
func (f *denseFit) run(ctx context.Context, tr *tracker) error {
	if tr.start(f.total()) {
		return nil
	}
	for !tr.done() {
		if err := ctx.Err(); err != nil {
			return err
		}
		switch {
		case f.cfg.FixW:
			f.updateH()
		case f.cfg.FixH:
			f.updateW()
		case f.cfg.Order == HFirst:
			f.updateH()
			f.cpl.updateB(f.w.RawMatrix().Data)
			f.updateW()
		default:
			f.updateW()
			f.updateH()
			f.cpl.updateB(f.w.RawMatrix().Data)
		}
		if tr.step(f.total()) {
			return nil
		}
	}
	return nil
}
