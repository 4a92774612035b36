package nmf

import (
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/semitopic/semitopic/internal/kernels"
	"github.com/semitopic/semitopic/internal/parallel"
	"github.com/semitopic/semitopic/sparse"
)

// The kernels below work on row-major factors with a padded row length kp
// (k rounded up to a multiple of 4, the padding columns zero): a "rows × k"
// factor is a []float64 whose row i is a[i*kp:(i+1)*kp]. The sparse engine
// keeps W (n × k) and Hᵀ (m × k) so that both updates are the same
// row-wise operation, on X for W and on Xᵀ for H. Padding columns stay
// zero: multiplicative updates never change a zero entry.

// flopGrain is the least work, in floating-point operations, worth a
// goroutine of its own.
const flopGrain = 1 << 16

// Small entries of the factors are set to zero after an update (see the
// package documentation): below minNormal, the smallest normal float64,
// always, since subnormal operands slow the floating-point units by two
// orders of magnitude; and below klFloor, float64's machine epsilon, for H
// under the KL loss, as scikit-learn does.
const (
	minNormal = 0x1p-1022
	klFloor   = 0x1p-52
)

// guard is a fit's convention for the divisors of its updates and the
// logarithm of the KL loss (Config.AddEpsilon; see the package
// documentation).
type guard struct{ add float64 }

// div returns the divisor to use for d: add + d, or d with an exact zero
// replaced by Epsilon when add is 0.
func (g guard) div(d float64) float64 {
	if g.add > 0 {
		return g.add + d
	}
	if d == 0 {
		return Epsilon
	}
	return d
}

// kl returns x·log(x/z) − x for a stored x > 0 and its reconstruction z,
// with z guarded as div does, or x·log((x+add)/(z+add)) − x.
func (g guard) kl(x, z float64) float64 {
	if g.add > 0 {
		return x*math.Log((x+g.add)/(z+g.add)) - x
	}
	if z == 0 {
		z = Epsilon
	}
	return x*math.Log(x/z) - x
}

// hFloor is the floor of H's entries after an update: klFloor under the
// KL loss with scikit-learn's convention, else minNormal.
func (g guard) hFloor(loss Loss) float64 {
	if loss == KullbackLeibler && g.add == 0 {
		return klFloor
	}
	return minNormal
}

// rowParts is what the rest of the objective adds to the update of the
// rows of a factor that several terms share (W): the data term's
// numerator and denominator of row i are multiplied by scale[i] (nil: 1),
// then num[i] and den[i] (r × kp, nil: nothing) are added.
type rowParts struct {
	scale    []float64
	num, den []float64
}

// combine returns the numerator and denominator of row i of the update,
// writing them to cn and cd when rp changes them.
func (rp *rowParts) combine(i, kp int, num, den, cn, cd []float64) ([]float64, []float64) {
	if rp == nil {
		return num, den
	}
	sc := 1.0
	if rp.scale != nil {
		sc = rp.scale[i]
	}
	for t := range cn {
		cn[t], cd[t] = sc*num[t], sc*den[t]
	}
	if rp.num != nil {
		floats.Add(cn, rp.num[i*kp:(i+1)*kp])
		floats.Add(cd, rp.den[i*kp:(i+1)*kp])
	}
	return cn, cd
}

// gramBlock is the number of rows whose Gram contributions are added at a
// time (a rank-gramBlock update).
const gramBlock = 16

// scratch is one worker's buffers, allocated once per fit.
type scratch struct {
	num, den []float64 // kp
	cn, cd   []float64 // kp: numerator and denominator combined with rowParts
	gram     []float64 // kp × kp accumulator (upper triangle used)
	col      []float64 // kp accumulator
	nzIdx    []int32   // kp: indices of a row's non-zero entries
	nzVal    []float64 // kp: their values
	blockT   []float64 // kp × gramBlock: a block of weighted rows, transposed
	ratio    []float64 // longest row of X or Xᵀ: KL ratios or dot products
	sum, obj float64
}

// workspace holds the per-worker scratch of a fit.
type workspace struct {
	k, kp int
	iota  []int32 // 0, 1, …, max(kp, gramBlock)−1
	ws    []*scratch
}

// newWorkspace allocates the scratch for k topics and sparse rows of at
// most maxRow stored entries.
func newWorkspace(k, maxRow int) *workspace {
	kp := kernels.Pad(k)
	w := &workspace{k: k, kp: kp, ws: make([]*scratch, parallel.Workers())}
	w.iota = make([]int32, max(kp, gramBlock))
	for i := range w.iota {
		w.iota[i] = int32(i)
	}
	for i := range w.ws {
		w.ws[i] = &scratch{
			num:    make([]float64, kp),
			den:    make([]float64, kp),
			cn:     make([]float64, kp),
			cd:     make([]float64, kp),
			gram:   make([]float64, kp*kp),
			col:    make([]float64, kp),
			nzIdx:  make([]int32, kp),
			nzVal:  make([]float64, kp),
			blockT: make([]float64, kp*gramBlock),
			ratio:  make([]float64, maxRow),
		}
	}
	return w
}

// reset zeroes the accumulators selected.
func (w *workspace) reset(gram, col bool) {
	for _, s := range w.ws {
		if gram {
			clear(s.gram)
		}
		if col {
			clear(s.col)
		}
		s.sum, s.obj = 0, 0
	}
}

// sums returns the workers' scalar partial sums, added in worker order.
func (w *workspace) sums() (sum, obj float64) {
	for _, s := range w.ws {
		sum += s.sum
		obj += s.obj
	}
	return sum, obj
}

// gramTo adds the workers' upper-triangular Gram accumulators into dst
// (kp × kp, overwritten) and mirrors the upper triangle to the lower one.
func (w *workspace) gramTo(dst []float64) {
	kp := w.kp
	clear(dst)
	for _, s := range w.ws {
		for t := 0; t < kp; t++ {
			floats.Add(dst[t*kp+t:(t+1)*kp], s.gram[t*kp+t:(t+1)*kp])
		}
	}
	mirror(dst, kp)
}

// colTo adds the workers' column accumulators into dst (overwritten).
func (w *workspace) colTo(dst []float64) {
	clear(dst)
	for _, s := range w.ws {
		floats.Add(dst, s.col)
	}
}

// mirror copies the upper triangle of the k × k matrix g to its lower one.
func mirror(g []float64, k int) {
	for t := 0; t < k; t++ {
		for s := t + 1; s < k; s++ {
			g[s*k+t] = g[t*k+s]
		}
	}
}

// rowPrefix returns cumulative per-row work for balancing a pass over the
// rows of x: each row costs its stored entries plus perRow units.
func rowPrefix(x *sparse.CSR, perRow int) []int {
	p := make([]int, x.Rows+1)
	for i := 0; i < x.Rows; i++ {
		p[i+1] = p[i] + (x.Indptr[i+1] - x.Indptr[i]) + perRow
	}
	return p
}

// uniformPrefix returns the prefix of r rows of equal cost per.
func uniformPrefix(r, per int) []int {
	p := make([]int, r+1)
	for i := range p {
		p[i] = i * per
	}
	return p
}

// minWeight converts flopGrain into prefix units of about 2k operations.
func minWeight(k int) int { return max(1, flopGrain/(2*max(k, 1))) }

// rowTimesGram sets den = a·G (G kp × kp) over the non-zero entries of a
// only, so that masked topics cost nothing.
func rowTimesGram(s *scratch, den, a, g []float64, kp int) {
	n := 0
	for t, v := range a {
		if v != 0 {
			s.nzIdx[n], s.nzVal[n] = int32(t), v
			n++
		}
	}
	if n == 0 {
		clear(den)
		return
	}
	kernels.GatherSum(den, s.nzVal[:n], s.nzIdx[:n], g, kp, false)
}

// addGramBlock adds Σ_r wt_r a_rᵀa_r over the rows a[lo:hi] (hi − lo ≤
// gramBlock) to the upper part of the accumulator g (kp × kp): for each
// row t of g, the columns from t rounded down to a multiple of 4. wt nil
// means weights of 1.
func addGramBlock(s *scratch, g, a, wt []float64, lo, hi, kp int, iota []int32) {
	nb := hi - lo
	bt := s.blockT[:kp*nb]
	for r := 0; r < nb; r++ {
		wr := 1.0
		if wt != nil {
			wr = wt[lo+r]
		}
		row := a[(lo+r)*kp : (lo+r+1)*kp]
		for t, v := range row {
			bt[t*nb+r] = wr * v
		}
	}
	block := a[lo*kp : hi*kp]
	for t := 0; t < kp; t++ {
		vals := bt[t*nb : (t+1)*nb]
		zero := true
		for _, v := range vals {
			if v != 0 {
				zero = false
				break
			}
		}
		if zero {
			continue
		}
		c0 := t &^ 3
		kernels.GatherSum(g[t*kp+c0:(t+1)*kp], vals, iota[:nb], block[c0:], kp, true)
	}
}

// frobStep performs the Frobenius multiplicative update of the rows of a
// (r × kp, in place):
//
//	a_i ← a_i ∘ num_i ⊘ (a_i·G),  num_i = Σ_p xd[p]·b[xs.Indices[p]]
//
// over the stored entries p of row i of xs (or num_i = pre[i] when pre is
// not nil), combined with rp (nil: nothing) and guarded by gd. Zero
// entries of a stay zero and results below minNormal become zero. With
// row weights wt (nil: all 1) it returns Σ_i wt_i⟨num_i, a_i⟩ for the
// updated a (the data term's num_i), and leaves Σ_i wt_i a_iᵀa_i in the
// workers' Gram accumulators (upper part).
func frobStep(ws *workspace, a []float64, xs *sparse.CSR, xd, b, pre, g, wt []float64, prefix []int, gd guard, rp *rowParts) float64 {
	return frobStepG(ws, a, xs, xd, b, nil, pre, g, wt, prefix, gd, rp)
}

// frobStepG is frobStep gathering the rows of b32, a float32 copy of b,
// when b32 is not nil (GatherSum32: float64 products and sums of the
// float32 entries).
func frobStepG(ws *workspace, a []float64, xs *sparse.CSR, xd, b []float64, b32 []float32, pre, g, wt []float64, prefix []int, gd guard, rp *rowParts) float64 {
	kp := ws.kp
	ws.reset(true, false)
	parallel.ForWeighted(prefix, minWeight(kp), func(wi, lo, hi int) {
		s := ws.ws[wi]
		num, den := s.num, s.den
		cross := 0.0
		start := lo
		for i := lo; i < hi; i++ {
			ai := a[i*kp : (i+1)*kp]
			if pre != nil {
				num = pre[i*kp : (i+1)*kp]
			} else {
				p0, p1 := xs.Indptr[i], xs.Indptr[i+1]
				switch {
				case p0 == p1:
					clear(num)
				case b32 != nil:
					kernels.GatherSum32(num, xd[p0:p1], xs.Indices[p0:p1], b32, kp, false)
				default:
					kernels.GatherSum(num, xd[p0:p1], xs.Indices[p0:p1], b, kp, false)
				}
			}
			rowTimesGram(s, den, ai, g, kp)
			cn, cd := rp.combine(i, kp, num, den, s.cn, s.cd)
			for t, at := range ai {
				if at != 0 {
					v := at * (cn[t] / gd.div(cd[t]))
					if v < minNormal {
						v = 0
					}
					ai[t] = v
				}
			}
			r := 1.0
			if wt != nil {
				r = wt[i]
			}
			if r != 0 {
				cross += r * floats.Dot(num, ai)
			}
			if i+1-start == gramBlock || i+1 == hi {
				addGramBlock(s, s.gram, a, wt, start, i+1, kp, ws.iota)
				start = i + 1
			}
		}
		s.sum = cross
	})
	sum, _ := ws.sums()
	return sum
}

// gramOf sets g = Σ_i wt_i a_iᵀa_i for a (r × kp) in parallel; prefix
// balances the rows (uniformPrefix).
func gramOf(ws *workspace, g, a, wt []float64, prefix []int) {
	kp := ws.kp
	ws.reset(true, false)
	parallel.ForWeighted(prefix, minWeight(kp), func(wi, lo, hi int) {
		s := ws.ws[wi]
		for i := lo; i < hi; i += gramBlock {
			addGramBlock(s, s.gram, a, wt, i, min(i+gramBlock, hi), kp, ws.iota)
		}
	})
	ws.gramTo(g)
}

// klRow computes, for row i of xs, the ratios r_p = xr[p]/⟨a_i, b_j⟩ (the
// divisor guarded by gd, r_p = 0 where x_p = 0) into s.ratio and, when obj
// is set, returns Σ_p v_p (x_p log(x_p/⟨a_i,b_j⟩) − x_p) (guard.kl) with
// v_p = idxW[j] (or 1 when idxW is nil).
func klRow(s *scratch, ai []float64, xs *sparse.CSR, xr, b, idxW []float64, i, kp int, obj bool, gd guard) float64 {
	p0, p1 := xs.Indptr[i], xs.Indptr[i+1]
	idx := xs.Indices[p0:p1]
	ratio := s.ratio[:p1-p0]
	kernels.DotsGather(ratio, ai, idx, b, kp)
	part := 0.0
	for q, d := range ratio {
		x := xs.Data[p0+q]
		if x == 0 {
			ratio[q] = 0
			continue
		}
		ratio[q] = xr[p0+q] / gd.div(d)
		if obj {
			v := gd.kl(x, d)
			if idxW != nil {
				v *= idxW[idx[q]]
			}
			part += v
		}
	}
	return part
}

// klStep performs the KL multiplicative update of the rows of a (r × kp)
// into out:
//
//	out_i = a_i ∘ (Σ_p r_p·b_j) ⊘ den,  r_p = xr[p] / ⟨a_i, b_j⟩,
//
// over the stored entries p (column j) of row i of xs, the divisors
// guarded by gd, and the row's numerator and denominator combined with rp
// (nil: nothing). Zero entries of a stay zero. When obj is set it also
// returns the non-zero part of the KL objective at (a, b), Σ_p v_p (x_p
// log(x_p/⟨a_i,b_j⟩) − x_p) (guard.kl) with x_p = xs.Data[p] and v_p =
// rowW[i] (if rowW is set) or idxW[j] (if idxW is set) or 1. Entries of
// out below floor are set to zero. The workers' column accumulators
// receive Σ_i cw_i out_i (cw nil: all 1).
func klStep(ws *workspace, a, out []float64, xs *sparse.CSR, xr, b, den []float64, floor float64, obj bool, rowW, idxW, cw []float64, prefix []int, gd guard, rp *rowParts) float64 {
	kp := ws.kp
	ws.reset(false, true)
	parallel.ForWeighted(prefix, minWeight(kp), func(wi, lo, hi int) {
		s := ws.ws[wi]
		num, col := s.num, s.col
		part := 0.0
		for i := lo; i < hi; i++ {
			ai := a[i*kp : (i+1)*kp]
			oi := out[i*kp : (i+1)*kp]
			p0, p1 := xs.Indptr[i], xs.Indptr[i+1]
			if p0 == p1 {
				if rp == nil || rp.num == nil {
					clear(oi)
					continue
				}
				clear(num) // no data, but the other terms still move the row
			} else {
				rowPart := klRow(s, ai, xs, xr, b, idxW, i, kp, obj, gd)
				if obj && rowW != nil {
					rowPart *= rowW[i]
				}
				part += rowPart
				kernels.GatherSum(num, s.ratio[:p1-p0], xs.Indices[p0:p1], b, kp, false)
			}
			cn, cd := rp.combine(i, kp, num, den, s.cn, s.cd)
			for t, at := range ai {
				v := 0.0
				if at != 0 {
					v = at * (cn[t] / gd.div(cd[t]))
				}
				if v < floor {
					v = 0
				}
				oi[t] = v
			}
			if cw == nil {
				floats.Add(col, oi)
			} else if c := cw[i]; c != 0 {
				floats.AddScaled(col, c, oi)
			}
		}
		s.obj = part
	})
	_, o := ws.sums()
	return o
}

// klObjectiveNZ returns Σ_p v_i (x_p log(x_p/⟨a_i, b_j⟩) − x_p) over the
// stored entries of xs, with row weights rowW (nil: 1).
func klObjectiveNZ(ws *workspace, a []float64, xs *sparse.CSR, b, rowW []float64, prefix []int, gd guard) float64 {
	kp := ws.kp
	ws.reset(false, false)
	parallel.ForWeighted(prefix, minWeight(kp), func(wi, lo, hi int) {
		s := ws.ws[wi]
		part := 0.0
		for i := lo; i < hi; i++ {
			if xs.Indptr[i] == xs.Indptr[i+1] {
				continue
			}
			v := klRow(s, a[i*kp:(i+1)*kp], xs, xs.Data, b, nil, i, kp, true, gd)
			if rowW != nil {
				v *= rowW[i]
			}
			part += v
		}
		s.obj = part
	})
	_, o := ws.sums()
	return o
}

// frobCross returns Σ_i wt_i ⟨a_i, Σ_p xd[p] b_j⟩ over the rows of xs: the
// cross term ⟨diag(wt)A, X·B⟩ of the Frobenius objective.
func frobCross(ws *workspace, a []float64, xs *sparse.CSR, xd, b, wt []float64, prefix []int) float64 {
	kp := ws.kp
	ws.reset(false, false)
	parallel.ForWeighted(prefix, minWeight(kp), func(wi, lo, hi int) {
		s := ws.ws[wi]
		num := s.num
		part := 0.0
		for i := lo; i < hi; i++ {
			p0, p1 := xs.Indptr[i], xs.Indptr[i+1]
			if p0 == p1 {
				continue
			}
			kernels.GatherSum(num, xd[p0:p1], xs.Indices[p0:p1], b, kp, false)
			v := floats.Dot(num, a[i*kp:(i+1)*kp])
			if wt != nil {
				v *= wt[i]
			}
			part += v
		}
		s.sum = part
	})
	sum, _ := ws.sums()
	return sum
}

// colSums sets dst = Σ_i cw_i a_i over the rows of a (r × kp).
func colSums(dst, a, cw []float64, kp int) {
	clear(dst)
	for i := 0; i*kp < len(a); i++ {
		c := 1.0
		if cw != nil {
			c = cw[i]
		}
		if c != 0 {
			floats.AddScaled(dst, c, a[i*kp:(i+1)*kp])
		}
	}
}
