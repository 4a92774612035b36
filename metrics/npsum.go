package metrics

// npSum adds a slice the way numpy's sum does for a contiguous float64
// array: blocks of 8192 elements, each added by pairwise summation with an
// eight-way unrolled base case of up to 128 elements, and the block sums
// accumulated in order. Reproducing numpy's order makes the clustering
// measures agree with scikit-learn to the last bit in the common case, and
// in particular lets degenerate cases (identical labelings, where the
// result is a ratio of two nearly equal differences) come out the same.
func npSum(a []float64) float64 {
	const block = 8192
	var s float64
	for lo := 0; lo < len(a); lo += block {
		s += pairwiseSum(a[lo:min(lo+block, len(a))])
	}
	return s
}

// pairwiseSum is numpy's pairwise_sum for float64 (loops_utils.h).
func pairwiseSum(a []float64) float64 {
	n := len(a)
	switch {
	case n < 8:
		var res float64
		for _, x := range a {
			res += x
		}
		return res
	case n <= 128:
		var r [8]float64
		copy(r[:], a[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			r[0] += a[i]
			r[1] += a[i+1]
			r[2] += a[i+2]
			r[3] += a[i+3]
			r[4] += a[i+4]
			r[5] += a[i+5]
			r[6] += a[i+6]
			r[7] += a[i+7]
		}
		res := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			res += a[i]
		}
		return res
	default:
		n2 := n / 2
		n2 -= n2 % 8
		return pairwiseSum(a[:n2]) + pairwiseSum(a[n2:])
	}
}
