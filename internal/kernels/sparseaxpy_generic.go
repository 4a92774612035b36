//go:build !amd64 || purego

package kernels

// SparseAxpy adds a·vals[q] to w[idx[q]] for q < len(vals),
// sparseAxpyGeneric where no assembly kernel exists.
func SparseAxpy(w []float64, idx []int32, vals []float64, a float64) {
	sparseAxpyGeneric(w, idx, vals, a)
}
