//go:build amd64 && !purego

package kernels

// sparseDot (sparsedot_amd64.s) returns Σ_{q<n} w[idx[q]]·vals[q] in
// sparseDotGeneric's order, with SSE2's scalar instructions, which every
// amd64 processor has.
//
//go:noescape
func sparseDot(w *float64, idx *int32, vals *float64, n int) float64

// prefetchSparse (sparsedot_amd64.s) prefetches the cache lines of n int32
// at idx and n float64 at vals.
//
//go:noescape
func prefetchSparse(idx *int32, vals *float64, n int)

// SparseDot returns Σ_q w[idx[q]]·vals[q] for q < len(vals): the dot
// product of a sparse row (its column indices and values) with a dense
// vector. It sums in four interleaved partial sums, entry q in sum q mod
// 4, each product rounded before it is added, and returns (s0 + s1) +
// (s2 + s3); the assembly and the portable code agree to the bit
// (TestSparseDot). idx must be at least as long as vals and its entries
// in range of w: the callers guarantee it (a sparse matrix's column
// indices, w one weight per column).
func SparseDot(w []float64, idx []int32, vals []float64) float64 {
	n := len(vals)
	if n == 0 {
		return 0
	}
	_ = idx[n-1]
	return sparseDot(&w[0], &idx[0], &vals[0], n)
}

// PrefetchSparse asks the processor to bring the cache lines of a sparse
// row, its indices idx and values vals (len(vals) of each), into its
// caches: a row SparseDot will read soon, in an order the processor
// cannot guess (the random order of a coordinate descent). It is a hint
// and changes no result; the portable build does nothing.
func PrefetchSparse(idx []int32, vals []float64) {
	n := len(vals)
	if n == 0 {
		return
	}
	_ = idx[n-1]
	prefetchSparse(&idx[0], &vals[0], n)
}
