package kernels

// sparseAxpyGeneric is the portable SparseAxpy: each product rounded
// before it is added, as the assembly does.
func sparseAxpyGeneric(w []float64, idx []int32, vals []float64, a float64) {
	idx = idx[:len(vals)]
	for q, j := range idx {
		w[j] += a * vals[q]
	}
}
