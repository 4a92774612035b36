package kernels

// gatherSum32Generic is the portable GatherSum32.
func gatherSum32Generic(dst, vals []float64, idx []int32, src []float32, stride int, add bool) {
	if !add {
		clear(dst)
	}
	w := len(dst)
	for p, v := range vals {
		if v == 0 {
			continue
		}
		row := src[int(idx[p])*stride:]
		row = row[:w]
		for c, s := range row {
			dst[c] += v * float64(s)
		}
	}
}

// ToFloat32 sets dst[i] = float32(src[i]) (rounded to nearest) for i <
// len(src): the float32 copy of a factor that GatherSum32 reads. dst must
// be at least as long as src.
func ToFloat32(dst []float32, src []float64) {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = float32(v)
	}
}
