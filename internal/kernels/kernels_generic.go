//go:build !amd64 || purego

package kernels

// GatherSum is gatherSumGeneric where no assembly kernel exists.
func GatherSum(dst, vals []float64, idx []int32, src []float64, stride int, add bool) {
	gatherSumGeneric(dst, vals, idx, src, stride, add)
}

// DotsGather is dotsGatherGeneric where no assembly kernel exists.
func DotsGather(out, a []float64, idx []int32, src []float64, stride int) {
	dotsGatherGeneric(out, a, idx, src, stride)
}

// Name names the arithmetic kernels in use: "AVX2+FMA assembly" or
// "portable Go".
func Name() string { return "portable Go" }
