//go:build amd64 && !purego

package kernels

// haveAVX2FMA reports whether the CPU and the operating system support the
// AVX2 and FMA instructions of the assembly kernels. It is set once, at
// package initialisation, and never changes.
var haveAVX2FMA = detectAVX2FMA()

// Name names the arithmetic kernels in use: "AVX2+FMA assembly" or
// "portable Go".
func Name() string {
	if haveAVX2FMA {
		return "AVX2+FMA assembly"
	}
	return "portable Go"
}

func cpuidex(leaf, sub uint32) (a, b, c, d uint32)
func xgetbv0() (a, d uint32)

func detectAVX2FMA() bool {
	maxLeaf, _, _, _ := cpuidex(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, c1, _ := cpuidex(1, 0)
	const fma, osxsave, avx = 1 << 12, 1 << 27, 1 << 28
	if c1&fma == 0 || c1&osxsave == 0 || c1&avx == 0 {
		return false
	}
	if xcr0, _ := xgetbv0(); xcr0&6 != 6 { // XMM and YMM state saved by the OS
		return false
	}
	_, b7, _, _ := cpuidex(7, 0)
	return b7&(1<<5) != 0 // AVX2
}

// The assembly kernels (kernels_amd64.s). gatherSumW computes, for the W
// columns at dst and src (W = 32, 16 or 4):
//
//	dst[c] = (add ≠ 0 ? dst[c] : 0) + Σ_{p<n} vals[p]·src[idx[p]·sb/8 + c]
//
// with sb the row stride of src in bytes, summing over p in order with
// fused multiply-adds; gatherSum48 (W = 48) also prefetches the rows
// it will gather a few entries ahead. dotsGatherAVX computes out[p] = Σ_{c<k} a[c]·
// src[idx[p]·sb/8 + c] for p < n, k a multiple of 4.

//go:noescape
func gatherSum48(dst, vals *float64, idx *int32, n int, src *float64, sb, add int)

//go:noescape
func gatherSum32(dst, vals *float64, idx *int32, n int, src *float64, sb, add int)

//go:noescape
func gatherSum16(dst, vals *float64, idx *int32, n int, src *float64, sb, add int)

//go:noescape
func gatherSum4(dst, vals *float64, idx *int32, n int, src *float64, sb, add int)

//go:noescape
func dotsGatherAVX(out, a *float64, k int, idx *int32, n int, src *float64, sb int)

// GatherSum is dst[c] (+)= Σ_p vals[p]·src[idx[p]·stride + c] for
// c < len(dst) (see the package documentation); len(dst) must be a multiple of 4.
func GatherSum(dst, vals []float64, idx []int32, src []float64, stride int, add bool) {
	n, w := len(vals), len(dst)
	if !haveAVX2FMA || n == 0 || w == 0 {
		gatherSumGeneric(dst, vals, idx, src, stride, add)
		return
	}
	_ = idx[n-1]
	sb := stride * 8
	if add {
		c := 0
		for ; c+48 <= w; c += 48 {
			gatherSum48(&dst[c], &vals[0], &idx[0], n, &src[c], sb, 1)
		}
		for ; c+32 <= w; c += 32 {
			gatherSum32(&dst[c], &vals[0], &idx[0], n, &src[c], sb, 1)
		}
		for ; c+16 <= w; c += 16 {
			gatherSum16(&dst[c], &vals[0], &idx[0], n, &src[c], sb, 1)
		}
		for ; c < w; c += 4 {
			gatherSum4(&dst[c], &vals[0], &idx[0], n, &src[c], sb, 1)
		}
		return
	}
	// Without accumulation a last partial block can overlap the previous
	// one: it recomputes those columns with the same arithmetic.
	switch {
	case w >= 48:
		c := 0
		for ; c+48 <= w; c += 48 {
			gatherSum48(&dst[c], &vals[0], &idx[0], n, &src[c], sb, 0)
		}
		if c < w {
			gatherSum48(&dst[w-48], &vals[0], &idx[0], n, &src[w-48], sb, 0)
		}
	case w >= 32:
		gatherSum32(&dst[0], &vals[0], &idx[0], n, &src[0], sb, 0)
		if w > 32 {
			gatherSum32(&dst[w-32], &vals[0], &idx[0], n, &src[w-32], sb, 0)
		}
	case w >= 16:
		gatherSum16(&dst[0], &vals[0], &idx[0], n, &src[0], sb, 0)
		if w > 16 {
			gatherSum16(&dst[w-16], &vals[0], &idx[0], n, &src[w-16], sb, 0)
		}
	default:
		for c := 0; c < w; c += 4 {
			gatherSum4(&dst[c], &vals[0], &idx[0], n, &src[c], sb, 0)
		}
	}
}

// DotsGather is out[p] = Σ_c a[c]·src[idx[p]·stride + c] (see the package documentation);
// len(a) must be a multiple of 4.
func DotsGather(out, a []float64, idx []int32, src []float64, stride int) {
	n := len(idx)
	if !haveAVX2FMA || n == 0 || len(a) == 0 {
		dotsGatherGeneric(out, a, idx, src, stride)
		return
	}
	_ = out[n-1]
	dotsGatherAVX(&out[0], &a[0], len(a), &idx[0], n, &src[0], stride*8)
}
