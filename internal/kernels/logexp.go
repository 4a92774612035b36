package kernels

import "math"

// Log sets dst[i] = log(src[i]) for i < len(src), four at a time on amd64
// processors with AVX2 and FMA. The result is math.Log's, bit for bit,
// for every input but the subnormal numbers, which get fdlibm's result
// (math.Log's amd64 assembly treats them as normal numbers); math.Log is
// accurate to less than 1 ulp. dst must be at least as long as src and
// may be src itself.
func Log(dst, src []float64) {
	logArch(dst[:len(src)], src)
}

// Exp sets dst[i] = exp(src[i]) for i < len(src), four at a time on amd64
// processors with AVX2 and FMA. The result is math.Exp's, bit for bit,
// for every input. dst must be at least as long as src and may be src
// itself.
func Exp(dst, src []float64) {
	expArch(dst[:len(src)], src)
}

// ExpShiftSum sets z[i] = exp(z[i] − shift) for every i and returns their
// sum: the exponentials of a softmax, shifted by the row's maximum. Each
// exponential is math.Exp's, bit for bit (see Exp); the sum is taken in
// four partial sums, of the entries whose index is 0, 1, 2 and 3 modulo 4,
// added as (s₀ + s₂) + (s₁ + s₃), the same bits in the assembly and the
// portable code (TestExpShiftSum).
func ExpShiftSum(z []float64, shift float64) float64 {
	return expShiftSumArch(z, shift)
}

// expShiftSumGeneric is the portable ExpShiftSum.
func expShiftSumGeneric(z []float64, shift float64) float64 {
	var s [4]float64
	for i, v := range z {
		e := math.Exp(v - shift)
		z[i] = e
		s[i&3] += e
	}
	return (s[0] + s[2]) + (s[1] + s[3])
}

// logGeneric is the portable Log.
func logGeneric(dst, src []float64) {
	for i, x := range src {
		dst[i] = logScalar(x)
	}
}

// expGeneric is the portable Exp.
func expGeneric(dst, src []float64) {
	for i, x := range src {
		dst[i] = math.Exp(x)
	}
}

// logScalar is Log of one number.
func logScalar(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return logFdlibm(x)
	}
	return math.Log(x)
}

// logFdlibm is fdlibm's logarithm of a positive finite x, with the
// operations of math.Log's amd64 assembly in their order (the conversions
// keep the compiler from fusing a product with a sum).
func logFdlibm(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01
		ln2Lo = 1.90821492927058770002e-10
		l1    = 6.666666666666735130e-01
		l2    = 3.999999999940941908e-01
		l3    = 2.857142874366239149e-01
		l4    = 2.222219843214978396e-01
		l5    = 1.818357216161805012e-01
		l6    = 1.531383769920937332e-01
		l7    = 1.479819860511658591e-01
	)
	f1, ki := math.Frexp(x)
	k := float64(ki)
	if f1 <= math.Sqrt2/2 {
		f1 *= 2
		k--
	}
	f := f1 - 1
	s := f / (2 + f)
	s2 := s * s
	s4 := s2 * s2
	t1 := s2 * float64(l1+s4*float64(l3+s4*float64(l5+float64(s4*l7))))
	t2 := s4 * float64(l2+s4*float64(l4+float64(s4*l6)))
	r := t1 + t2
	hfsq := 0.5 * f * f
	return float64(k*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(k*ln2Lo))) - f)
}
