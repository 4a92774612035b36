package metrics

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// Argmax returns the index of the largest value of row, the first among
// ties as numpy's argmax; NaN values are passed over (0 when every value is
// NaN), and an empty row gives -1. It is the one arg max of semitopic.
func Argmax[T cmp.Ordered](row []T) int {
	best := -1
	for j, v := range row {
		if v != v { // NaN
			continue
		}
		if best < 0 || v > row[best] {
			best = j
		}
	}
	if best < 0 && len(row) > 0 {
		return 0
	}
	return best
}

// ArgmaxRows returns Argmax of each row of scores (documents × labels or
// topics): the predicted class or the hard cluster of each document. An
// empty matrix gives nil.
func ArgmaxRows(scores *mat.Dense) []int {
	if scores == nil || scores.IsEmpty() {
		return nil
	}
	n, _ := scores.Dims()
	out := make([]int, n)
	for i := range out {
		out[i] = Argmax(scores.RawRowView(i))
	}
	return out
}

// TopIndices returns the indices of the n largest positive values of row,
// largest first, ties broken by lower index; values ≤ 0 and NaN are left
// out, so a row with fewer than n positive values gives a shorter list, and
// n ≤ 0 gives all of them. It is the one top-words rule of semitopic: a
// topic's words are TopIndices of its row of weights.
func TopIndices(row []float64, n int) []int {
	if n > 0 && n < len(row)/8 {
		return topSelect(row, n)
	}
	var idx []int
	for j, v := range row {
		if v > 0 {
			idx = append(idx, j)
		}
	}
	// Larger first, ties by lower index: a total order, so that the
	// unstable sort gives the stable sort's order.
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case row[a] > row[b]:
			return -1
		case row[a] < row[b]:
			return 1
		}
		return a - b
	})
	if n > 0 && n < len(idx) {
		idx = idx[:n:n]
	}
	return idx
}

// topSelect is TopIndices for n much smaller than the row: one pass that
// keeps the n best positions seen in a heap whose root is the worst of
// them (a lower value, or among equal values the higher index), so that a
// row of m values costs O(m log n) instead of a sort of every positive
// value. The order is TopIndices's: largest first, ties by lower index.
func topSelect(row []float64, n int) []int {
	// worse reports whether position a ranks below position b.
	worse := func(a, b int) bool { return row[a] < row[b] || row[a] == row[b] && a > b }
	h := make([]int, 0, n)
	down := func(i int) {
		for {
			c := 2*i + 1
			if c >= len(h) {
				return
			}
			if c+1 < len(h) && worse(h[c+1], h[c]) {
				c++
			}
			if !worse(h[c], h[i]) {
				return
			}
			h[i], h[c] = h[c], h[i]
			i = c
		}
	}
	for j, v := range row {
		if !(v > 0) {
			continue
		}
		if len(h) < n {
			h = append(h, j)
			for i := len(h) - 1; i > 0; {
				p := (i - 1) / 2
				if !worse(h[i], h[p]) {
					break
				}
				h[i], h[p] = h[p], h[i]
				i = p
			}
			continue
		}
		// j comes after every position in the heap, so it ranks above
		// the root only with a strictly larger value.
		if v > row[h[0]] {
			h[0] = j
			down(0)
		}
	}
	sort.Slice(h, func(a, b int) bool { return worse(h[b], h[a]) })
	return h
}

// Threshold returns, for each row of scores, the columns whose score is at
// least t, in increasing order (multi-label prediction). With atLeastOne,
// a row with no score at t or above gets its arg max instead of no label.
func Threshold(scores *mat.Dense, t float64, atLeastOne bool) [][]int {
	if scores == nil || scores.IsEmpty() {
		return nil
	}
	n, _ := scores.Dims()
	out := make([][]int, n)
	for i := range out {
		row := scores.RawRowView(i)
		for j, v := range row {
			if v >= t {
				out[i] = append(out[i], j)
			}
		}
		if atLeastOne && len(out[i]) == 0 {
			out[i] = []int{Argmax(row)}
		}
	}
	return out
}

// ChooseThreshold returns the threshold t that maximises the micro-averaged
// F1 of Threshold(scores, t, false) against the true label sets (one per
// row, columns of scores), and that F1: choose it on validation documents,
// then apply it to test documents. Every distinct cut is tried; t is the
// midpoint between the lowest score kept and the next lower score, so it
// generalises between the two. It returns an error for mismatched shapes,
// labels out of range, a NaN score, or no true labels at all.
func ChooseThreshold(scores *mat.Dense, truth [][]int) (t, f1 float64, err error) {
	if scores == nil || scores.IsEmpty() {
		return 0, 0, errors.New("metrics: ChooseThreshold: empty scores")
	}
	n, c := scores.Dims()
	if len(truth) != n {
		return 0, 0, fmt.Errorf("metrics: ChooseThreshold: %d label sets for %d documents", len(truth), n)
	}
	type cell struct {
		v    float64
		true bool
	}
	cells := make([]cell, 0, n*c)
	positives := 0
	for i := 0; i < n; i++ {
		row := scores.RawRowView(i)
		set := make(map[int]bool, len(truth[i]))
		for _, l := range truth[i] {
			if l < 0 || l >= c {
				return 0, 0, fmt.Errorf("metrics: ChooseThreshold: document %d has label %d, want 0..%d", i, l, c-1)
			}
			if !set[l] {
				set[l] = true
				positives++
			}
		}
		for j, v := range row {
			if math.IsNaN(v) {
				return 0, 0, fmt.Errorf("metrics: ChooseThreshold: score of document %d, label %d is NaN", i, j)
			}
			cells = append(cells, cell{v, set[j]})
		}
	}
	if positives == 0 {
		return 0, 0, errors.New("metrics: ChooseThreshold: no true labels")
	}
	sort.Slice(cells, func(a, b int) bool { return cells[a].v > cells[b].v })
	best, bestT := -1.0, math.Inf(1)
	tp := 0
	for p := 0; p < len(cells); {
		// Keep every cell with the score cells[p].v.
		q := p
		for q < len(cells) && cells[q].v == cells[p].v {
			if cells[q].true {
				tp++
			}
			q++
		}
		score := 2 * float64(tp) / float64(q+positives)
		if score > best {
			best = score
			if q < len(cells) {
				bestT = (cells[p].v + cells[q].v) / 2
			} else {
				bestT = math.Inf(-1)
			}
		}
		p = q
	}
	return bestT, best, nil
}
