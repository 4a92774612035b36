package corex

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/rng"
)

// TestMarginalsBitForBit checks that the per-word marginals and the
// per-document pass, which compute their logarithms and exponentials four
// at a time (internal/kernels), give the bits of the one-at-a-time
// formulas with math.Log and math.Exp, over co-counts and scores that
// reach both sides of the series' threshold.
func TestMarginalsBitForBit(t *testing.T) {
	const n, m = 1000, 13
	r := rng.NewCompat(3, 1)
	logPY := make([]float64, m)
	for j := range logPY {
		logPY[j] = math.Log(0.02 + 0.9*r.Float64())
	}
	g := newMarg(n, logPY)
	w := newWordBuf(m)
	raw := make([]float64, m)
	for trial := 0; trial < 300; trial++ {
		wc := min(0.01+float64(r.IntN(n)), n-0.01)
		pdy := make([]float64, m)
		for j := range pdy {
			pdy[j] = wc * r.Float64() * math.Pow(10, -3*r.Float64())
		}
		hx := binaryEntropyBits(wc / n)
		g.wordRaw(w, pdy, wc, hx, raw)
		for j, v := range pdy {
			v = min(max(v, g.lo1[j]), g.hi1[j])
			p1 := v * g.inv1[j]
			p0 := min(max((wc-v)*g.inv0[j], 1e-300), 1-1e-16)
			want := [4]float64{math.Log(p1), log1mp(p1), math.Log(p0), log1mp(p0)}
			got := [4]float64{w.lp11[j], w.lp01[j], w.lp10[j], w.lp00[j]}
			if got != want {
				t.Fatalf("word %d topic %d: log marginals %v, want %v", trial, j, got, want)
			}
			h1 := (p1*want[0] + (1-p1)*want[1]) / math.Ln2
			h0 := (p0*want[2] + (1-p0)*want[3]) / math.Ln2
			if rr := hx + g.py[j]*h1 + (1-g.py[j])*h0; math.Abs(raw[j]-rr) > 1e-15*max(1, math.Abs(rr)) {
				t.Fatalf("word %d topic %d: MI %v, want %v", trial, j, raw[j], rr)
			}
		}
	}

	rows := 77
	u := mat.NewDense(rows, 2*m, nil)
	for l := 0; l < rows; l++ {
		for c := 0; c < 2*m; c++ {
			u.Set(l, c, 20*r.NormFloat64()*math.Pow(10, -2*r.Float64()))
		}
	}
	c0, c1 := make([]float64, m), make([]float64, m)
	for j := range c0 {
		c0[j], c1[j] = r.NormFloat64(), r.NormFloat64()
	}
	p, logP, logZ := mat.NewDense(rows, m, nil), mat.NewDense(rows, m, nil), mat.NewDense(rows, m, nil)
	latent(u, m, logPY, c0, c1, p, logP, logZ, nil)
	for l := 0; l < rows; l++ {
		for j := 0; j < m; j++ {
			a1 := logPY[j] + c1[j] + u.At(l, m+j)
			a0 := math.Log1p(-math.Exp(logPY[j])) + c0[j] + u.At(l, j)
			dlt := a1 - a0
			e := math.Exp(-math.Abs(dlt))
			l1p := log1pSmall(e)
			lz, lp, pv := a0+l1p, dlt-l1p, e/(1+e)
			if dlt > 0 {
				lz, lp, pv = a1+l1p, -l1p, 1/(1+e)
			}
			pv = min(max(pv, pClip), 1-pClip)
			if got := [3]float64{p.At(l, j), logP.At(l, j), logZ.At(l, j)}; got != [3]float64{pv, lp, lz} {
				t.Fatalf("document %d topic %d: p, log p, log Z %v, want %v", l, j, got, [3]float64{pv, lp, lz})
			}
		}
	}
}

// log1pSmall returns log(1 + e) for e in [0, 1] as the per-document pass
// computes it: its series below log1mpSeries, the logarithm above.
func log1pSmall(e float64) float64 {
	if e < log1mpSeries {
		return log1pSeries(e)
	}
	return math.Log(1 + e)
}
