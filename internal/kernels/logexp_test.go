package kernels

import (
	"math"
	"math/big"
	"testing"

	"github.com/semitopic/semitopic/internal/rng"
)

// logInputs are the edge cases of the logarithm: zeros, subnormals, the
// ends of the normal range, 1 ± a few ulps, the branch point √2/2 of the
// reduction and its neighbours, infinities and NaNs of both signs.
func logInputs() []float64 {
	xs := []float64{0, math.Copysign(0, -1), 5e-324, 1e-320, 1e-310, 0x1p-1022 - 5e-324, 0x1p-1022, 0x1p-1022 + 5e-324,
		1e-300, 1e-16, 0.5, math.Sqrt2 / 2, 1, 2, 3, 10, math.E, math.MaxFloat64, math.SmallestNonzeroFloat64,
		math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN(), -1, -5e-324, -math.MaxFloat64}
	for i := 1; i <= 64; i++ {
		xs = append(xs, 1+float64(i)*0x1p-52, 1-float64(i)*0x1p-53, math.Nextafter(math.Sqrt2/2, 0)+float64(i-32)*0x1p-53)
	}
	for e := -1074; e <= 1023; e++ {
		xs = append(xs, math.Ldexp(1, e), math.Ldexp(1.5, e), math.Ldexp(0.75, e))
	}
	return xs
}

// expInputs are the edge cases of the exponential: zeros, tiny arguments,
// the ends of the normal and the subnormal results, overflow, large
// negative arguments, infinities and NaNs.
func expInputs() []float64 {
	xs := []float64{0, math.Copysign(0, -1), 5e-324, 1e-300, -1e-300, 1e-16, -1e-16, 1, -1, 0.5, -0.5,
		-708.39, -708.4, -708.3964185322641, -709, -720, -744, -745, -745.13, -745.1332191019411, -745.14, -745.2, -746, -800,
		-1075, -1e4, -1e10, -1e300, -math.MaxFloat64, 709, 709.78, 709.782712893384, 709.79, 710, 1e4, 1e300, math.MaxFloat64,
		math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN()}
	for i := -40; i <= 40; i++ {
		xs = append(xs, float64(i)*math.Ln2, math.Nextafter(float64(i)*math.Ln2/2, 0), float64(i)*0x1p-40)
	}
	return xs
}

// randomArgs returns n arguments of f: uniform in [lo, hi) and, for
// logScale, log-uniform.
func randomArgs(seed uint64, n int, lo, hi float64, logScale bool) []float64 {
	r := rng.NewCompat(seed, 7)
	xs := make([]float64, n)
	for i := range xs {
		u := lo + (hi-lo)*r.Float64()
		if logScale {
			u = math.Exp(u)
		}
		xs[i] = u
	}
	return xs
}

func sameBits(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// TestLogMatchesMath checks Log against math.Log bit for bit (and against
// logScalar for subnormal inputs), on the edge cases, over the whole
// range, near 1 and on (0, 1), for lengths that leave every remainder
// of a block of four, in place and not.
func TestLogMatchesMath(t *testing.T) {
	t.Logf("kernels: %s", Name())
	sets := [][]float64{logInputs(),
		randomArgs(1, 100003, -745, 709.7, true),
		randomArgs(2, 20001, 0.999, 1.001, false),
		randomArgs(3, 20002, 0, 1, false),
		randomArgs(4, 10003, -5e-324*(1<<52), 0x1p-1022, false)}
	for si, xs := range sets {
		got := make([]float64, len(xs))
		Log(got, xs)
		for i, x := range xs {
			want := math.Log(x)
			if x > 0 && x < 0x1p-1022 {
				want = logScalar(x)
			}
			if !sameBits(got[i], want) {
				t.Fatalf("set %d: Log(%v) = %v (%#x), want %v (%#x)", si, x, got[i], math.Float64bits(got[i]), want, math.Float64bits(want))
			}
		}
	}
	for n := 0; n <= 13; n++ {
		xs := randomArgs(uint64(n), n, -10, 10, true)
		want := make([]float64, n)
		logGeneric(want, xs)
		Log(xs, xs)
		for i := range xs {
			if !sameBits(xs[i], want[i]) {
				t.Fatalf("length %d in place: [%d] = %v, want %v", n, i, xs[i], want[i])
			}
		}
	}
}

// TestExpMatchesMath is TestLogMatchesMath for Exp.
func TestExpMatchesMath(t *testing.T) {
	sets := [][]float64{expInputs(),
		randomArgs(5, 100003, -746, 710, false),
		randomArgs(6, 20001, -1e-6, 1e-6, false),
		randomArgs(7, 20002, -800, -700, false)}
	for si, xs := range sets {
		got := make([]float64, len(xs))
		Exp(got, xs)
		for i, x := range xs {
			if want := math.Exp(x); !sameBits(got[i], want) {
				t.Fatalf("set %d: Exp(%v) = %v (%#x), want %v (%#x)", si, x, got[i], math.Float64bits(got[i]), want, math.Float64bits(want))
			}
		}
	}
	for n := 0; n <= 13; n++ {
		xs := randomArgs(uint64(n), n, -30, 30, false)
		want := make([]float64, n)
		expGeneric(want, xs)
		Exp(xs, xs)
		for i := range xs {
			if !sameBits(xs[i], want[i]) {
				t.Fatalf("length %d in place: [%d] = %v, want %v", n, i, xs[i], want[i])
			}
		}
	}
}

// TestLogExpUlps measures the error of Log and Exp in units in the last
// place against 300-bit references (math/big), on the edge cases and
// random arguments: Log below 1 ulp, Exp (math.Exp's amd64 algorithm)
// below 1.6 ulp wherever the result is a normal number.
func TestLogExpUlps(t *testing.T) {
	lxs := append(logInputs(), randomArgs(8, 600, -745, 709.7, true)...)
	lxs = append(lxs, randomArgs(9, 200, 0.99, 1.01, false)...)
	lgot := make([]float64, len(lxs))
	Log(lgot, lxs)
	worst := 0.0
	for i, x := range lxs {
		if !(x > 0) || math.IsInf(x, 1) || x == 1 {
			continue
		}
		u := ulps(lgot[i], bigLog(x))
		if u >= 1 {
			t.Errorf("Log(%v) = %v: %.3f ulp", x, lgot[i], u)
		}
		worst = max(worst, u)
	}
	t.Logf("Log: largest error %.3f ulp", worst)
	exs := append(expInputs(), randomArgs(10, 800, -708, 709.7, false)...)
	exs = append(exs, randomArgs(11, 200, -1, 1, false)...)
	egot := make([]float64, len(exs))
	Exp(egot, exs)
	worst = 0
	for i, x := range exs {
		if math.IsNaN(x) || x < -708.39 || x > 709.7 { // normal results only
			continue
		}
		u := ulps(egot[i], bigExp(x))
		if u >= 1.6 {
			t.Errorf("Exp(%v) = %v: %.3f ulp", x, egot[i], u)
		}
		worst = max(worst, u)
	}
	t.Logf("Exp: largest error %.3f ulp", worst)
}

const refPrec = 300

func newF() *big.Float { return new(big.Float).SetPrec(refPrec) }

// atanhBig is atanh(s) = Σ s^(2i+1)/(2i+1) for |s| ≤ 1/3.
func atanhBig(s *big.Float) *big.Float {
	sum, pow, s2 := newF().Set(s), newF().Set(s), newF().Mul(s, s)
	eps := newF().SetMantExp(big.NewFloat(1), -refPrec-4)
	for i := int64(3); ; i += 2 {
		pow.Mul(pow, s2)
		term := newF().Quo(pow, newF().SetInt64(i))
		if term.Sign() == 0 || newF().Abs(term).Cmp(eps) < 0 {
			return sum
		}
		sum.Add(sum, term)
	}
}

// ln2Big is ln 2 = 2 atanh(1/3).
var ln2Big = func() *big.Float {
	third := newF().Quo(newF().SetInt64(1), newF().SetInt64(3))
	return newF().Mul(atanhBig(third), newF().SetInt64(2))
}()

// bigLog is log x for positive finite x: k ln 2 + 2 atanh((m−1)/(m+1)),
// x = m·2^k, m in [√2/2, √2).
func bigLog(x float64) *big.Float {
	m, k := math.Frexp(x)
	if m < math.Sqrt2/2 {
		m, k = 2*m, k-1
	}
	mf := newF().SetFloat64(m)
	one := newF().SetInt64(1)
	s := newF().Quo(newF().Sub(mf, one), newF().Add(mf, one))
	r := newF().Mul(atanhBig(s), newF().SetInt64(2))
	return r.Add(r, newF().Mul(ln2Big, newF().SetInt64(int64(k))))
}

// bigExp is exp x: 2^k e^r, r = x − k ln 2, by its Taylor series.
func bigExp(x float64) *big.Float {
	k := math.Round(x / math.Ln2)
	r := newF().Sub(newF().SetFloat64(x), newF().Mul(ln2Big, newF().SetFloat64(k)))
	sum, term := newF().SetInt64(1), newF().SetInt64(1)
	eps := newF().SetMantExp(big.NewFloat(1), -refPrec-4)
	for i := int64(1); ; i++ {
		term.Mul(term, r)
		term.Quo(term, newF().SetInt64(i))
		if term.Sign() == 0 || newF().Abs(term).Cmp(eps) < 0 {
			break
		}
		sum.Add(sum, term)
	}
	return sum.SetMantExp(sum, int(k))
}

// ulps is |got − ref| in units in the last place of ref as a float64.
func ulps(got float64, ref *big.Float) float64 {
	if math.IsInf(got, 0) || math.IsNaN(got) {
		return math.Inf(1)
	}
	d := newF().Sub(newF().SetFloat64(got), ref)
	e := ref.MantExp(nil) // ref = mant·2^e, mant in [0.5, 1)
	u := math.Max(float64(e-53), -1074)
	d.SetMantExp(d, -int(u))
	v, _ := d.Float64()
	return math.Abs(v)
}

func BenchmarkLog(b *testing.B) {
	xs := randomArgs(1, 1024, -700, 700, true)
	dst := make([]float64, len(xs))
	b.Run("kernel", func(b *testing.B) {
		for b.Loop() {
			Log(dst, xs)
		}
	})
	b.Run("math", func(b *testing.B) {
		for b.Loop() {
			for i, x := range xs {
				dst[i] = math.Log(x)
			}
		}
	})
}

func BenchmarkExp(b *testing.B) {
	xs := randomArgs(1, 1024, -700, 700, false)
	dst := make([]float64, len(xs))
	b.Run("kernel", func(b *testing.B) {
		for b.Loop() {
			Exp(dst, xs)
		}
	})
	b.Run("math", func(b *testing.B) {
		for b.Loop() {
			for i, x := range xs {
				dst[i] = math.Exp(x)
			}
		}
	})
}

// TestExpShiftSum checks ExpShiftSum against its portable code and
// math.Exp, bit for bit, for every length up to a few blocks (each
// remainder of the last block), shifts that are the maximum, zero, huge
// and infinite, and entries that overflow, underflow or are NaN.
func TestExpShiftSum(t *testing.T) {
	special := []float64{math.Inf(-1), math.Inf(1), math.NaN(), -800, 800, 0}
	for n := 0; n <= 19; n++ {
		for si, shift := range []float64{0, 3.5, -700, 1e300, math.Inf(1), math.Inf(-1), math.NaN()} {
			xs := randomArgs(uint64(100*n+si), n, -40, 40, false)
			if n > 5 {
				xs[n/2] = special[(n+si)%len(special)]
			}
			if si == 0 && n > 0 {
				shift = xs[0]
				for _, v := range xs {
					shift = max(shift, v)
				}
			}
			got := append([]float64(nil), xs...)
			want := append([]float64(nil), xs...)
			gs := ExpShiftSum(got, shift)
			ws := expShiftSumGeneric(want, shift)
			if !sameBits(gs, ws) && !(math.IsNaN(gs) && math.IsNaN(ws)) {
				t.Fatalf("length %d, shift %v: sum %v, portable %v", n, shift, gs, ws)
			}
			for i, x := range xs {
				e := math.Exp(x - shift)
				if !sameBits(got[i], e) && !(math.IsNaN(got[i]) && math.IsNaN(e)) {
					t.Fatalf("length %d, shift %v: [%d] = exp(%v − shift) = %v, want %v", n, shift, i, x, got[i], e)
				}
				if !sameBits(want[i], e) && !(math.IsNaN(want[i]) && math.IsNaN(e)) {
					t.Fatalf("portable, length %d, shift %v: [%d] = %v, want %v", n, shift, i, want[i], e)
				}
			}
		}
	}
}
