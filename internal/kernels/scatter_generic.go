//go:build !amd64 || purego

package kernels

// ScatterAdd is dst[(idx[p]−off)·stride + c] += vals[p]·b[c] for every p
// and c < len(b), scatterAddGeneric where no assembly kernel exists.
func ScatterAdd(dst []float64, stride int, idx []int32, off int, vals, b []float64) {
	scatterAddGeneric(dst, stride, idx, off, vals, b)
}
