//go:build !amd64 || purego

package nmf

// gatherSum is gatherSumGeneric where no assembly kernel exists.
func gatherSum(dst, vals []float64, idx []int32, src []float64, stride int, add bool) {
	gatherSumGeneric(dst, vals, idx, src, stride, add)
}

// dotsGather is dotsGatherGeneric where no assembly kernel exists.
func dotsGather(out, a []float64, idx []int32, src []float64, stride int) {
	dotsGatherGeneric(out, a, idx, src, stride)
}

// Kernels names the arithmetic kernels in use: "AVX2+FMA assembly" or
// "portable Go".
func Kernels() string { return "portable Go" }
