package kernels

// sparseDotGeneric is the portable SparseDot: four partial sums, entry q
// going to sum q mod 4, each product rounded before it is added, the sums
// joined as (s0 + s1) + (s2 + s3) — the assembly's order, so the two agree
// to the bit.
func sparseDotGeneric(w []float64, idx []int32, vals []float64) float64 {
	idx = idx[:len(vals)]
	var s0, s1, s2, s3 float64
	q := 0
	for ; q+4 <= len(vals); q += 4 {
		c, v := idx[q:q+4:q+4], vals[q:q+4:q+4]
		s0 += w[c[0]] * v[0]
		s1 += w[c[1]] * v[1]
		s2 += w[c[2]] * v[2]
		s3 += w[c[3]] * v[3]
	}
	if q < len(vals) {
		s0 += w[idx[q]] * vals[q]
		q++
	}
	if q < len(vals) {
		s1 += w[idx[q]] * vals[q]
		q++
	}
	if q < len(vals) {
		s2 += w[idx[q]] * vals[q]
	}
	return (s0 + s1) + (s2 + s3)
}
