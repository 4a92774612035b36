package kernels

import "gonum.org/v1/gonum/floats"

// gatherSumGeneric is the portable GatherSum.
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

// dotsGatherGeneric is the portable DotsGather.
func dotsGatherGeneric(out, a []float64, idx []int32, src []float64, stride int) {
	w := len(a)
	for p, j := range idx {
		o := int(j) * stride
		out[p] = floats.Dot(a, src[o:o+w])
	}
}

// Pad rounds k up to a multiple of 4.
func Pad(k int) int { return (k + 3) &^ 3 }
