//go:build !amd64 || purego

package kernels

// SparseDot returns Σ_q w[idx[q]]·vals[q], sparseDotGeneric where no
// assembly kernel exists.
func SparseDot(w []float64, idx []int32, vals []float64) float64 {
	return sparseDotGeneric(w, idx, vals)
}

// PrefetchSparse does nothing where no assembly kernel exists.
func PrefetchSparse(idx []int32, vals []float64) {}
