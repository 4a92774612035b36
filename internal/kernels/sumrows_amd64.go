//go:build amd64 && !purego

package kernels

// The row-sum kernels (sumrows_amd64.s): sumRowsW computes, for the W
// columns at dst and src (W = 52, 48, 16 or 4),
//
//	dst[c] += Σ_{p<n} src[idx[p]·sb/8 + c]
//
// with sb the row stride of src in bytes, adding in order of p.

//go:noescape
func sumRows52(dst *float64, idx *int32, n int, src *float64, sb int)

//go:noescape
func sumRows48(dst *float64, idx *int32, n int, src *float64, sb int)

//go:noescape
func sumRows16(dst *float64, idx *int32, n int, src *float64, sb int)

//go:noescape
func sumRows4(dst *float64, idx *int32, n int, src *float64, sb int)

// SumRows is dst[c] += Σ_p src[idx[p]·stride + c] for c < len(dst): the
// sum of the rows of src that idx selects, added in order of p, which
// is GatherSum with every value 1 to the bit (a product by 1 is exact)
// without reading values or multiplying. It is the product of a binary
// sparse row by a dense matrix. len(dst) must be a multiple of 4 and the
// indices in range: every gathered row must have len(dst) values within
// src.
func SumRows(dst []float64, idx []int32, src []float64, stride int) {
	n, w := len(idx), len(dst)
	if !haveAVX2FMA || n == 0 || w == 0 {
		sumRowsGeneric(dst, idx, src, stride)
		return
	}
	sb := stride * 8
	// Each block of columns is a pass over the entries: as few passes as
	// the sixteen registers allow (k = 50, padded to 52, takes one; 100
	// two).
	c := 0
	for ; c+52 <= w; c += 52 {
		sumRows52(&dst[c], &idx[0], n, &src[c], sb)
	}
	if c+48 <= w {
		sumRows48(&dst[c], &idx[0], n, &src[c], sb)
		c += 48
	}
	for ; c+16 <= w; c += 16 {
		sumRows16(&dst[c], &idx[0], n, &src[c], sb)
	}
	for ; c < w; c += 4 {
		sumRows4(&dst[c], &idx[0], n, &src[c], sb)
	}
}
