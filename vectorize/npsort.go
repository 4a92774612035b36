package vectorize

import "math/bits"

// npArgsort returns the permutation that numpy's default argsort
// (kind="quicksort", numpy 1.24) gives for v: an introsort that partitions
// around the median of three, sorts runs of at most 16 elements by
// insertion and falls back to heapsort past a depth of 2·⌊log₂ n⌋. It is
// not stable, and scikit-learn's CountVectorizer breaks ties at its
// max_features cut in its order; reproducing it reproduces scikit-learn's
// vocabulary exactly.
func npArgsort(v []int64) []int {
	n := len(v)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	if n < 2 {
		return idx
	}
	type span struct{ lo, hi, depth int }
	var stack []span
	lo, hi := 0, n-1
	depth := 2 * (bits.Len(uint(n)) - 1)
	for {
		if depth < 0 {
			npHeapsort(v, idx[lo:hi+1])
		} else {
			for hi-lo > 15 {
				mid := lo + (hi-lo)>>1
				if v[idx[mid]] < v[idx[lo]] {
					idx[mid], idx[lo] = idx[lo], idx[mid]
				}
				if v[idx[hi]] < v[idx[mid]] {
					idx[hi], idx[mid] = idx[mid], idx[hi]
				}
				if v[idx[mid]] < v[idx[lo]] {
					idx[mid], idx[lo] = idx[lo], idx[mid]
				}
				pivot := v[idx[mid]]
				i, j := lo, hi-1
				idx[mid], idx[j] = idx[j], idx[mid]
				for {
					for i++; v[idx[i]] < pivot; i++ {
					}
					for j--; pivot < v[idx[j]]; j-- {
					}
					if i >= j {
						break
					}
					idx[i], idx[j] = idx[j], idx[i]
				}
				idx[i], idx[hi-1] = idx[hi-1], idx[i]
				depth--
				// Continue with the smaller side; the larger waits.
				if i-lo < hi-i {
					stack = append(stack, span{i + 1, hi, depth})
					hi = i - 1
				} else {
					stack = append(stack, span{lo, i - 1, depth})
					lo = i + 1
				}
			}
			for i := lo + 1; i <= hi; i++ {
				x := idx[i]
				j := i
				for j > lo && v[x] < v[idx[j-1]] {
					idx[j] = idx[j-1]
					j--
				}
				idx[j] = x
			}
		}
		if len(stack) == 0 {
			return idx
		}
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		lo, hi, depth = top.lo, top.hi, top.depth
	}
}

// npHeapsort sorts the indices a by v as numpy's argsort heapsort does.
func npHeapsort(v []int64, a []int) {
	n := len(a)
	at := func(k int) *int { return &a[k-1] } // 1-based heap
	sift := func(tmp, i, n int) {
		for j := 2 * i; j <= n; {
			if j < n && v[*at(j)] < v[*at(j + 1)] {
				j++
			}
			if v[tmp] < v[*at(j)] {
				*at(i) = *at(j)
				i, j = j, 2*j
			} else {
				break
			}
		}
		*at(i) = tmp
	}
	for l := n / 2; l > 0; l-- {
		sift(*at(l), l, n)
	}
	for n > 1 {
		tmp := *at(n)
		*at(n) = *at(1)
		n--
		sift(tmp, 1, n)
	}
}
