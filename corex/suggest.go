package corex

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/supervision"
)

// LabelMI returns the mutual information I(L:w), in nats, between each
// document label L (as a binary indicator: the document has the label or
// not) and each word's presence (a stored value > 0), as a numLabels ×
// terms matrix, together with the sign of each association (+1 when the
// word is more frequent in the label's documents than overall, −1 when
// less, 0 when equally). labels[d] lists document d's labels in
// [0, numLabels). Documents without labels are left out: their labels are
// unknown, and counting them as having none would make a word common in a
// label's unlabeled documents look unrelated to it — with few labeled
// documents the words of highest MI were then words of a single labeled
// document.
func LabelMI(X *sparse.CSR, labels [][]int, numLabels int) (*mat.Dense, [][]int8, error) {
	if X == nil {
		return nil, nil, fmt.Errorf("corex: nil input matrix")
	}
	if len(labels) != X.Rows {
		return nil, nil, fmt.Errorf("corex: %d label lists for %d documents", len(labels), X.Rows)
	}
	if numLabels < 1 || X.Cols == 0 || X.Rows == 0 {
		return nil, nil, fmt.Errorf("corex: label MI needs documents, terms and labels (have %d×%d, %d labels)", X.Rows, X.Cols, numLabels)
	}
	nv := X.Cols
	df := make([]float64, nv)
	nl := make([]float64, numLabels)
	co := make([]float64, numLabels*nv)
	labeled := 0
	for d, ls := range labels {
		if len(ls) == 0 {
			continue
		}
		labeled++
		cols, vals := X.Row(d)
		for _, l := range ls {
			if l < 0 || l >= numLabels {
				return nil, nil, fmt.Errorf("corex: document %d: label %d out of range [0,%d)", d, l, numLabels)
			}
			nl[l]++
			for k, c := range cols {
				if vals[k] > 0 {
					co[l*nv+int(c)]++
				}
			}
		}
		for k, c := range cols {
			if vals[k] > 0 {
				df[c]++
			}
		}
	}
	if labeled == 0 {
		return nil, nil, fmt.Errorf("corex: label MI: no document has a label")
	}
	n := float64(labeled)
	out := mat.NewDense(numLabels, nv, nil)
	sign := make([][]int8, numLabels)
	for l := 0; l < numLabels; l++ {
		sign[l] = make([]int8, nv)
		row := out.RawRowView(l)
		for i := 0; i < nv; i++ {
			n11 := co[l*nv+i]
			n10 := nl[l] - n11
			n01 := df[i] - n11
			n00 := n - n11 - n10 - n01
			row[i] = max(0, cellMI(n11, nl[l], df[i], n)+cellMI(n10, nl[l], n-df[i], n)+
				cellMI(n01, n-nl[l], df[i], n)+cellMI(n00, n-nl[l], n-df[i], n))
			switch a, b := n11*n, nl[l]*df[i]; {
			case a > b:
				sign[l][i] = 1
			case a < b:
				sign[l][i] = -1
			}
		}
	}
	return out, sign, nil
}

// labelSupport counts, per label and word, the label's documents where the
// word is present, and each label's documents.
func labelSupport(X *sparse.CSR, labels [][]int, numLabels int) ([]map[int]int, []int) {
	support := make([]map[int]int, numLabels)
	for l := range support {
		support[l] = map[int]int{}
	}
	docs := make([]int, numLabels)
	for d, ls := range labels {
		cols, vals := X.Row(d)
		for _, l := range ls {
			docs[l]++
			for k, c := range cols {
				if vals[k] > 0 {
					support[l][int(c)]++
				}
			}
		}
	}
	return support, docs
}

// cellMI is one cell's term p(a,b) log(p(a,b) / (p(a) p(b))) from counts.
func cellMI(nab, na, nb, n float64) float64 {
	if nab <= 0 {
		return 0
	}
	return nab / n * math.Log(nab*n/(na*nb))
}

// LabelWord is a word suggested as an anchor for a label.
type LabelWord struct {
	// Index is the word's column and MI its mutual information with the
	// label, in nats.
	Index int
	MI    float64
}

// LabelAnchors turns SuggestAnchors' words into anchors: label l anchors
// topic l with its suggested terms, in order, at the default strength
// (Config.Beta). A label without suggestions anchors nothing.
func LabelAnchors(sug [][]LabelWord) supervision.Terms {
	var out supervision.Terms
	for l, ws := range sug {
		for _, w := range ws {
			out.Seeds = append(out.Seeds, supervision.Seed{Topic: l, Term: w.Index})
		}
	}
	return out
}

// SuggestAnchors proposes anchor words for each label (paper §4.3 and
// §5.2.1): the n words whose presence has the highest mutual information
// I(L:w) with the label, among the words positively associated with it
// (more frequent in the label's documents than overall; the absence of a
// word is not an anchor) and present in at least two of the label's
// documents when it has two or more (a word of a single document says
// nothing about a label), ties broken by column. With dropShared, a word
// among the top n of several labels is removed from all of them (the lists
// are not refilled), as the paper does to keep anchored topics separable.
func SuggestAnchors(X *sparse.CSR, labels [][]int, numLabels, n int, dropShared bool) ([][]LabelWord, error) {
	if n < 1 {
		return nil, fmt.Errorf("corex: %d anchors per label requested, want at least 1", n)
	}
	mi, sign, err := LabelMI(X, labels, numLabels)
	if err != nil {
		return nil, err
	}
	support, docs := labelSupport(X, labels, numLabels)
	out := make([][]LabelWord, numLabels)
	count := map[int]int{}
	for l := range out {
		row := mi.RawRowView(l)
		var idx []int
		for i, v := range row {
			if sign[l][i] > 0 && v > 0 && support[l][i] >= min(2, docs[l]) {
				idx = append(idx, i)
			}
		}
		sort.SliceStable(idx, func(a, b int) bool { return row[idx[a]] > row[idx[b]] })
		idx = idx[:min(n, len(idx))]
		for _, i := range idx {
			out[l] = append(out[l], LabelWord{Index: i, MI: row[i]})
			count[i]++
		}
	}
	if dropShared {
		for l, ws := range out {
			kept := ws[:0]
			for _, w := range ws {
				if count[w.Index] == 1 {
					kept = append(kept, w)
				}
			}
			out[l] = kept
		}
	}
	return out, nil
}
