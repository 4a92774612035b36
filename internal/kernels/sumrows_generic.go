//go:build !amd64 || purego

package kernels

// SumRows is dst[c] += Σ_p src[idx[p]·stride + c] for c < len(dst),
// sumRowsGeneric where no assembly kernel exists.
func SumRows(dst []float64, idx []int32, src []float64, stride int) {
	sumRowsGeneric(dst, idx, src, stride)
}
