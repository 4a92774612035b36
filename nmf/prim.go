package nmf

// The engine's arithmetic goes through two gather primitives on row-major
// factors whose row length (stride) is a multiple of 4:
//
//	gatherSum(dst, vals, idx, src, stride, add):
//	    dst[c] (+)= Σ_p vals[p]·src[idx[p]·stride + c]   for c < len(dst)
//	dotsGather(out, a, idx, src, stride):
//	    out[p] = Σ_c a[c]·src[idx[p]·stride + c]          for c < len(a)
//
// A sparse row times a factor, a row times a k × k Gram matrix and a block
// of rank-1 Gram updates are all gatherSum; the KL ratios need dotsGather.
// On amd64 with AVX2 and FMA they run as assembly kernels that keep the
// sums in registers (see prim_amd64.go); elsewhere, or with the purego
// build tag, as the portable code below. Lengths must be multiples of 4
// and indices in range: the callers guarantee both.

import "gonum.org/v1/gonum/floats"

// gatherSumGeneric is the portable gatherSum.
func gatherSumGeneric(dst, vals []float64, idx []int32, src []float64, stride int, add bool) {
	if !add {
		clear(dst)
	}
	w := len(dst)
	for p, v := range vals {
		if v == 0 {
			continue
		}
		o := int(idx[p]) * stride
		floats.AddScaled(dst, v, src[o:o+w])
	}
}

// dotsGatherGeneric is the portable dotsGather.
func dotsGatherGeneric(out, a []float64, idx []int32, src []float64, stride int) {
	w := len(a)
	for p, j := range idx {
		o := int(j) * stride
		out[p] = floats.Dot(a, src[o:o+w])
	}
}

// padK rounds k up to a multiple of 4.
func padK(k int) int { return (k + 3) &^ 3 }
