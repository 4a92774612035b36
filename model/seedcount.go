package model

import (
	"fmt"
	"slices"

	"github.com/semitopic/semitopic/sparse"
)

// SeedCount is the baseline that every model guided by seed words must
// beat: it gives each document the seeded topic whose seed words the
// document holds most of, counting each seed word present once, times its
// strength when the anchors give one (Anchor.Beta). A tie goes to the
// topic whose seed words weigh more in the document's row of x, then to
// the commoner topic of prior when it is given, else to the first; a
// document holding no seed word gets the commonest
// topic. The commonest topic is that of prior (for example the labeled
// documents' label counts, indexed like names) when it is given, and
// otherwise the one this rule gives most often to the documents of x that
// hold a seed word — no label is needed.
//
// The seeded topics are the anchors that name at least one seed word of
// the vocabulary, in order; names are their topic names, and pred[i] is
// document i's topic as an index into names.
func SeedCount(x *sparse.CSR, vocab []string, anchors []Anchor, prior []float64) (names []string, pred []int, err error) {
	if len(vocab) != x.Cols {
		return nil, nil, fmt.Errorf("model: seed count: %d vocabulary terms for %d columns", len(vocab), x.Cols)
	}
	col := make(map[string]int, len(vocab))
	for j, w := range vocab {
		col[w] = j
	}
	type seed struct {
		topic    int
		strength float64
	}
	seeds := map[int][]seed{} // column → the topics it seeds
	for _, a := range anchors {
		t := len(names)
		found := false
		for i, w := range a.Words {
			j, ok := col[w]
			if !ok {
				continue
			}
			s := 1.0
			if i < len(a.Beta) && a.Beta[i] > 0 {
				s = a.Beta[i]
			}
			seeds[j] = append(seeds[j], seed{t, s})
			found = true
		}
		if found {
			names = append(names, a.Topic)
		}
	}
	k := len(names)
	if k == 0 {
		return nil, nil, fmt.Errorf("model: seed count: no seed word is in the vocabulary")
	}
	if prior != nil && len(prior) != k {
		return nil, nil, fmt.Errorf("model: seed count: %d prior weights for %d seeded topics", len(prior), k)
	}
	count := make([]float64, k)
	weight := make([]float64, k)
	pred = make([]int, x.Rows)
	none := []int{}
	freq := make([]float64, k)
	for i := 0; i < x.Rows; i++ {
		clear(count)
		clear(weight)
		hit := false
		for p := x.Indptr[i]; p < x.Indptr[i+1]; p++ {
			v := x.Data[p]
			if v == 0 {
				continue
			}
			for _, s := range seeds[int(x.Indices[p])] {
				count[s.topic] += s.strength
				weight[s.topic] += s.strength * v
				hit = true
			}
		}
		if !hit {
			none = append(none, i)
			continue
		}
		best := 0
		for t := 1; t < k; t++ {
			if count[t] > count[best] || count[t] == count[best] && weight[t] > weight[best] ||
				count[t] == count[best] && weight[t] == weight[best] && prior != nil && prior[t] > prior[best] {
				best = t
			}
		}
		pred[i] = best
		freq[best]++
	}
	if prior == nil {
		prior = freq
	}
	common := 0
	for t := range prior {
		if prior[t] > prior[common] {
			common = t
		}
	}
	for _, i := range none {
		pred[i] = common
	}
	return slices.Clip(names), pred, nil
}
