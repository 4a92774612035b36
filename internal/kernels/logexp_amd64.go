//go:build amd64 && !purego

package kernels

// logAVX2 and expAVX2 (logexp_amd64.s) set dst[i] to the logarithm and the
// exponential of src[i] for i < n, n a multiple of 4.

//go:noescape
func logAVX2(dst, src *float64, n int)

//go:noescape
func expAVX2(dst, src *float64, n int)

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
