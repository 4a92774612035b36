//go:build amd64 && !purego

package kernels

// The float32 gather kernels (gather32_amd64.s): gather32SumW computes, for
// the W columns at dst and src (W = 52, 48, 16 or 4),
//
//	dst[c] = (add ≠ 0 ? dst[c] : 0) + Σ_{p<n} vals[p]·float64(src[idx[p]·sb/4 + c])
//
// with sb the row stride of src in bytes, summing over p in order with
// fused multiply-adds; the 52- and 48-wide kernels prefetch the rows they
// will gather a few entries ahead.

//go:noescape
func gather32Sum52(dst, vals *float64, idx *int32, n int, src *float32, sb, add int)

//go:noescape
func gather32Sum48(dst, vals *float64, idx *int32, n int, src *float32, sb, add int)

//go:noescape
func gather32Sum16(dst, vals *float64, idx *int32, n int, src *float32, sb, add int)

//go:noescape
func gather32Sum4(dst, vals *float64, idx *int32, n int, src *float32, sb, add int)

// GatherSum32 is dst[c] (+)= Σ_p vals[p]·float64(src[idx[p]·stride + c])
// for c < len(dst): GatherSum over a float32 copy of the gathered matrix
// (ToFloat32), half the bytes per gathered row, with float64 products and
// sums. len(dst) must be a multiple of 4 and the indices in range.
func GatherSum32(dst, vals []float64, idx []int32, src []float32, stride int, add bool) {
	n, w := len(vals), len(dst)
	if !haveAVX2FMA || n == 0 || w == 0 {
		gatherSum32Generic(dst, vals, idx, src, stride, add)
		return
	}
	_ = idx[n-1]
	sb, a := stride*4, 0
	if add {
		a = 1
	}
	// Each block of columns is a pass over the entries: as few passes as
	// the sixteen registers allow (k = 100 takes two).
	c := 0
	for ; c+52 <= w; c += 52 {
		gather32Sum52(&dst[c], &vals[0], &idx[0], n, &src[c], sb, a)
	}
	if c+48 <= w {
		gather32Sum48(&dst[c], &vals[0], &idx[0], n, &src[c], sb, a)
		c += 48
	}
	for ; c+16 <= w; c += 16 {
		gather32Sum16(&dst[c], &vals[0], &idx[0], n, &src[c], sb, a)
	}
	for ; c < w; c += 4 {
		gather32Sum4(&dst[c], &vals[0], &idx[0], n, &src[c], sb, a)
	}
}
