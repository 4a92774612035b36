//go:build amd64 && !purego

package kernels

// logAVX2 and expAVX2 (logexp_amd64.s) set dst[i] to the logarithm and the
// exponential of src[i] for i < n, n a multiple of 4.

//go:noescape
func logAVX2(dst, src *float64, n int)

//go:noescape
func expAVX2(dst, src *float64, n int)

// expShiftSumAVX2 sets dst[i] = exp(src[i] − shift) for i < n, n a multiple
// of 4, adding lane i mod 4's results to acc[i mod 4].
//
//go:noescape
func expShiftSumAVX2(dst, src *float64, n int, shift float64, acc *[4]float64)

func logArch(dst, src []float64) {
	if !haveAVX2FMA {
		logGeneric(dst, src)
		return
	}
	n := len(src)
	m := n &^ 3
	if m > 0 {
		logAVX2(&dst[0], &src[0], m)
	}
	if m < n { // the last partial block through a buffer
		var b [4]float64
		copy(b[:], src[m:])
		logAVX2(&b[0], &b[0], 4)
		copy(dst[m:], b[:n-m])
	}
}

func expArch(dst, src []float64) {
	if !haveAVX2FMA {
		expGeneric(dst, src)
		return
	}
	n := len(src)
	m := n &^ 3
	if m > 0 {
		expAVX2(&dst[0], &src[0], m)
	}
	if m < n {
		var b [4]float64
		copy(b[:], src[m:])
		expAVX2(&b[0], &b[0], 4)
		copy(dst[m:], b[:n-m])
	}
}

func expShiftSumArch(z []float64, shift float64) float64 {
	if !haveAVX2FMA {
		return expShiftSumGeneric(z, shift)
	}
	var acc [4]float64
	n := len(z)
	m := n &^ 3
	if m > 0 {
		expShiftSumAVX2(&z[0], &z[0], m, shift, &acc)
	}
	if m < n { // the last partial block through a buffer, its own lanes added
		var b, tail [4]float64
		copy(b[:], z[m:])
		expShiftSumAVX2(&b[0], &b[0], 4, shift, &tail)
		copy(z[m:], b[:n-m])
		for j := range n - m {
			acc[j] += tail[j] // 0 + e is e
		}
	}
	return (acc[0] + acc[2]) + (acc[1] + acc[3])
}
