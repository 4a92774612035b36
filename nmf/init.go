package nmf

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/rng"
)

// nndsvdTruncate is scikit-learn's threshold below which NNDSVD entries are
// set to zero (_initialize_nmf's eps).
const nndsvdTruncate = 1e-6

// newRand returns the generator for a seed: PCG, with a fixed second word
// so that seeds 0, 1, ... give unrelated streams.
func newRand(seed uint64) *rng.Compat {
	return rng.NewCompat(seed, 0x6e6d662d73656564) // "nmf-seed"
}

// initFactors returns the starting W (n × k) and H (k × m) as row-major
// slices, with cfg already checked. It applies the masks to the factors
// that will be updated and lifts their allowed exact zeros (see Init).
func initFactors(ctx context.Context, d *data, op func() linOp, cfg Config) (w, h []float64, used Init, err error) {
	n, k := d.n, cfg.K
	used = cfg.Init
	if cfg.W0 != nil && (cfg.H0 != nil || cfg.Fixed != nil) {
		used = InitCustom
	}
	if cfg.Fixed != nil {
		// The engine reads the prepared H; only W needs a start.
		if cfg.W0 == nil {
			return nil, nil, used, fmt.Errorf("nmf: a fixed H needs W0")
		}
		w = copyRaw(cfg.W0)
		prepareFactor(w, cfg.WMask, liftZeros(cfg, d))
		return w, nil, used, nil
	}
	rnd := newRand(cfg.Seed)
	if cfg.W0 == nil || cfg.H0 == nil {
		switch cfg.Init {
		case InitRandom:
			w, h = initRandom(d, k, rnd)
		case InitRandomAcol:
			h = initAcol(d, k, cfg.AcolRows, nil, rnd)
			w = uniform(n*k, rnd)
		case InitLabelMean:
			h = initAcol(d, k, cfg.AcolRows, cfg.Labels, rnd)
			w = uniform(n*k, rnd)
		case InitNNDSVD, InitNNDSVDa, InitNNDSVDar:
			w, h, err = initNNDSVD(ctx, d, op(), k, cfg.Init, rnd)
			if err != nil {
				return nil, nil, used, err
			}
		}
	}
	if cfg.W0 != nil {
		w = copyRaw(cfg.W0)
	}
	if cfg.H0 != nil {
		h = copyRaw(cfg.H0)
	}
	fill := liftZeros(cfg, d)
	if !cfg.FixW {
		prepareFactor(w, cfg.WMask, fill)
	}
	if !cfg.FixH {
		prepareFactor(h, cfg.HMask, fill)
	}
	return w, h, used, nil
}

// liftZeros returns the value that replaces an exact zero of a starting
// factor: Epsilon·√(mean(X)/k), or 0 (zeros kept) under AddEpsilon.
func liftZeros(cfg Config, d *data) float64 {
	if cfg.AddEpsilon > 0 {
		return 0
	}
	return Epsilon * math.Sqrt(d.mean()/float64(cfg.K))
}

// prepareFactor zeroes the entries a mask forbids and replaces the exact
// zeros of the allowed ones by fill (none when fill is 0).
func prepareFactor(f []float64, mask *mat.Dense, fill float64) {
	var mk []float64
	if mask != nil {
		r, c := mask.Dims()
		mk = make([]float64, 0, r*c)
		for i := 0; i < r; i++ {
			mk = append(mk, mask.RawRowView(i)...)
		}
	}
	for i, v := range f {
		switch {
		case mk != nil && mk[i] == 0:
			f[i] = 0
		case v == 0 && fill != 0:
			f[i] = fill
		}
	}
}

// copyRaw returns the entries of a in row-major order.
func copyRaw(a *mat.Dense) []float64 {
	r, c := a.Dims()
	out := make([]float64, 0, r*c)
	for i := 0; i < r; i++ {
		out = append(out, a.RawRowView(i)...)
	}
	return out
}

// initRandom is scikit-learn's init='random': |N(0,1)|·√(mean(X)/k), H
// drawn before W.
func initRandom(d *data, k int, rnd *rng.Compat) (w, h []float64) {
	s := math.Sqrt(d.mean() / float64(k))
	h = make([]float64, k*d.m)
	for i := range h {
		h[i] = s * math.Abs(rnd.NormFloat64())
	}
	w = make([]float64, d.n*k)
	for i := range w {
		w[i] = s * math.Abs(rnd.NormFloat64())
	}
	return w, h
}

// uniform returns n draws from Uniform[0,1).
func uniform(n int, rnd *rng.Compat) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = rnd.Float64()
	}
	return out
}

// initAcol returns H (k × m) whose row t is the mean of the rows of X
// labeled t (when labels name any) or else of p rows drawn uniformly with
// replacement. Random rows are drawn topic by topic, only for the topics
// that need them.
func initAcol(d *data, k, p int, labels [][]int, rnd *rng.Compat) []float64 {
	var byTopic [][]int
	if labels != nil {
		byTopic = make([][]int, k)
		for i, ls := range labels {
			for q, t := range ls {
				dup := false
				for _, u := range ls[:q] {
					dup = dup || u == t
				}
				if !dup {
					byTopic[t] = append(byTopic[t], i)
				}
			}
		}
	}
	h := make([]float64, k*d.m)
	rows := make([]int, p)
	for t := 0; t < k; t++ {
		src := rows
		if byTopic != nil && len(byTopic[t]) > 0 {
			src = byTopic[t]
		} else {
			for q := range rows {
				rows[q] = rnd.IntN(d.n)
			}
		}
		ht := h[t*d.m : (t+1)*d.m]
		for _, i := range src {
			addRow(ht, d, i)
		}
		inv := 1 / float64(len(src))
		for j := range ht {
			ht[j] *= inv
		}
	}
	return h
}

// addRow adds row i of X to dst.
func addRow(dst []float64, d *data, i int) {
	if d.sp != nil {
		cols, vals := d.sp.Row(i)
		for q, j := range cols {
			dst[j] += vals[q]
		}
		return
	}
	for j, v := range d.dense.RawRowView(i) {
		dst[j] += v
	}
}

// initNNDSVD is scikit-learn's _initialize_nmf for the NNDSVD variants.
func initNNDSVD(ctx context.Context, d *data, op linOp, k int, method Init, rnd *rng.Compat) (w, h []float64, err error) {
	n, m := d.n, d.m
	svd, err := randomizedSVD(ctx, op, k, rsvdPowerIters(k, n, m), rnd)
	if err != nil {
		return nil, nil, err
	}
	w = make([]float64, n*k)
	h = make([]float64, k*m)
	x := make([]float64, n)
	y := make([]float64, m)
	for t := 0; t < k; t++ {
		mat.Col(x, t, svd.U)
		mat.Col(y, t, svd.V)
		if t == 0 {
			// The leading singular pair of a non-negative matrix is
			// non-negative up to sign.
			s := math.Sqrt(svd.S[0])
			for i, v := range x {
				w[i*k] = s * math.Abs(v)
			}
			for j, v := range y {
				h[j] = s * math.Abs(v)
			}
			continue
		}
		xp, xn := posNegNorms(x)
		yp, yn := posNegNorms(y)
		mp, mn := xp*yp, xn*yn
		var sign, xnrm, ynrm, sigma float64
		if mp > mn {
			sign, xnrm, ynrm, sigma = 1, xp, yp, mp
		} else {
			sign, xnrm, ynrm, sigma = -1, xn, yn, mn
		}
		lbd := math.Sqrt(svd.S[t] * sigma)
		for i, v := range x {
			if v*sign > 0 {
				w[i*k+t] = lbd * v * sign / xnrm
			}
		}
		for j, v := range y {
			if v*sign > 0 {
				h[t*m+j] = lbd * v * sign / ynrm
			}
		}
	}
	for i, v := range w {
		if v < nndsvdTruncate {
			w[i] = 0
		}
	}
	for i, v := range h {
		if v < nndsvdTruncate {
			h[i] = 0
		}
	}
	switch method {
	case InitNNDSVDa:
		avg := d.mean()
		for i, v := range w {
			if v == 0 {
				w[i] = avg
			}
		}
		for i, v := range h {
			if v == 0 {
				h[i] = avg
			}
		}
	case InitNNDSVDar:
		avg := d.mean()
		for i, v := range w {
			if v == 0 {
				w[i] = math.Abs(avg * rnd.NormFloat64() / 100)
			}
		}
		for i, v := range h {
			if v == 0 {
				h[i] = math.Abs(avg * rnd.NormFloat64() / 100)
			}
		}
	}
	return w, h, nil
}

// posNegNorms returns the Euclidean norms of the positive and negative
// parts of v.
func posNegNorms(v []float64) (pos, neg float64) {
	for _, x := range v {
		if x > 0 {
			pos += x * x
		} else {
			neg += x * x
		}
	}
	return math.Sqrt(pos), math.Sqrt(neg)
}
