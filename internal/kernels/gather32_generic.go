//go:build !amd64 || purego

package kernels

// GatherSum32 is dst[c] (+)= Σ_p vals[p]·float64(src[idx[p]·stride + c])
// for c < len(dst), gatherSum32Generic where no assembly kernel exists.
func GatherSum32(dst, vals []float64, idx []int32, src []float32, stride int, add bool) {
	gatherSum32Generic(dst, vals, idx, src, stride, add)
}
