package kernels

import "gonum.org/v1/gonum/floats"

// scatterAddGeneric is the portable ScatterAdd: floats.AddScaled per
// entry, which rounds each product before the addition as the assembly
// does.
func scatterAddGeneric(dst []float64, stride int, idx []int32, off int, vals, b []float64) {
	w := len(b)
	for p, v := range vals {
		o := (int(idx[p]) - off) * stride
		floats.AddScaled(dst[o:o+w], v, b)
	}
}
