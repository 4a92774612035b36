package kernels

// sumRowsGeneric is the portable SumRows.
func sumRowsGeneric(dst []float64, idx []int32, src []float64, stride int) {
	w := len(dst)
	for _, j := range idx {
		row := src[int(j)*stride:]
		row = row[:w]
		for c, v := range row {
			dst[c] += v
		}
	}
}
