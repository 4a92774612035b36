package theme

import (
	"math/rand/v2"

	"github.com/semitopic/semitopic/sparse"
)

// synthetic builds a corpus of docsPerTheme documents per theme: theme j
// uses its own block of 12 terms (two sub-blocks of 6, one per document
// half) and every document uses a block of 8 common terms. The last theme
// doubles as a second theme of every 5th document of theme 0.
func synthetic(themes, docsPerTheme int, seed uint64) (*sparse.CSR, [][]int) {
	r := rand.New(rand.NewPCG(seed, 1))
	const block, common = 12, 8
	m := themes*block + common
	var dense [][]float64
	var labels [][]int
	for j := 0; j < themes; j++ {
		for d := 0; d < docsPerTheme; d++ {
			row := make([]float64, m)
			half := d % 2
			for a := 0; a < 40; a++ {
				t := j*block + half*6 + r.IntN(6)
				row[t]++
			}
			ls := []int{j}
			if j == 0 && d%5 == 0 && themes > 1 {
				k := themes - 1
				for a := 0; a < 20; a++ {
					row[k*block+r.IntN(block)]++
				}
				ls = append(ls, k)
			}
			for a := 0; a < 25; a++ {
				row[themes*block+r.IntN(common)]++
			}
			dense = append(dense, row)
			labels = append(labels, ls)
		}
	}
	indptr := []int{0}
	var idx []int32
	var data []float64
	for _, row := range dense {
		for c, v := range row {
			if v != 0 {
				idx = append(idx, int32(c))
				data = append(data, v)
			}
		}
		indptr = append(indptr, len(idx))
	}
	x, err := sparse.NewCSR(len(dense), m, indptr, idx, data)
	if err != nil {
		panic(err)
	}
	return x, labels
}

// hide returns labels with every k-th document unlabeled, and the hidden
// documents.
func hide(labels [][]int, k int) ([][]int, []int) {
	out := make([][]int, len(labels))
	var hidden []int
	for i, l := range labels {
		if i%k == k-1 {
			hidden = append(hidden, i)
			continue
		}
		out[i] = l
	}
	return out, hidden
}

func themeNames(k int) []string {
	names := make([]string, k)
	for j := range names {
		names[j] = string(rune('a' + j))
	}
	return names
}
