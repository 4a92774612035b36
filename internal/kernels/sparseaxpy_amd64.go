//go:build amd64 && !purego

package kernels

// sparseAxpy (sparseaxpy_amd64.s) adds a·vals[q] to w[idx[q]] for q < n,
// with SSE2's scalar instructions, as sparseAxpyGeneric does.
//
//go:noescape
func sparseAxpy(w *float64, idx *int32, vals *float64, n int, a float64)

// SparseAxpy adds a·vals[q] to w[idx[q]] for q < len(vals): a dense
// vector plus a multiple of a sparse row (its column indices and values),
// each product rounded before the addition, so that the assembly and the
// portable code agree to the bit (TestSparseAxpy). idx must be at least
// as long as vals and its entries in range of w, as for SparseDot.
func SparseAxpy(w []float64, idx []int32, vals []float64, a float64) {
	n := len(vals)
	if n == 0 {
		return
	}
	_ = idx[n-1]
	sparseAxpy(&w[0], &idx[0], &vals[0], n, a)
}
