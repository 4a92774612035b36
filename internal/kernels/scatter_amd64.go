//go:build amd64 && !purego

package kernels

// scatterAdd (scatter_amd64.s) adds vals[p]·b[c] to dst[(idx[p]−off)·sb/8 + c]
// for p < n and c < w (a multiple of 4), rounding each product before the
// addition.
//
//go:noescape
func scatterAdd(dst *float64, sb int, idx *int32, off int, vals *float64, n int, b *float64, w int)

// ScatterAdd is dst[(idx[p]−off)·stride + c] += vals[p]·b[c] for every p
// and c < len(b): the transpose of a sparse row times a dense row, the
// scattered half of Xᵀ·B computed without Xᵀ (row i of X scattered with
// row i of B). Each product is rounded before it is added, as
// floats.AddScaled does, so the assembly and the portable code give the
// same bits. len(b) must be a multiple of 4, len(vals) ≤ len(idx), and
// the rows idx[p]−off in range; the entries of idx must differ (as the
// column indices of one sparse row do).
func ScatterAdd(dst []float64, stride int, idx []int32, off int, vals, b []float64) {
	n, w := len(vals), len(b)
	if !haveAVX2FMA || n == 0 || w == 0 {
		scatterAddGeneric(dst, stride, idx, off, vals, b)
		return
	}
	_ = idx[n-1]
	scatterAdd(&dst[0], stride*8, &idx[0], off, &vals[0], n, &b[0], w)
}
