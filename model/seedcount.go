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
	names, seeds, err := seedColumns(x, vocab, anchors)
	if err != nil {
		return nil, nil, err
	}
	k := len(names)
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

// seed is one seeded topic of a seed word, with the word's strength.
type seed struct {
	topic    int
	strength float64
}

// seedColumns maps the seed words of anchors to the columns of x: the
// seeded topics (the anchors with a seed word in the vocabulary, in
// order) and, per column, the topics it seeds.
func seedColumns(x *sparse.CSR, vocab []string, anchors []Anchor) ([]string, map[int][]seed, error) {
	if len(vocab) != x.Cols {
		return nil, nil, fmt.Errorf("model: seed words: %d vocabulary terms for %d columns", len(vocab), x.Cols)
	}
	col := termIndex(vocab)
	var names []string
	seeds := map[int][]seed{}
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
	if len(names) == 0 {
		return nil, nil, fmt.Errorf("model: seed words: none is in the vocabulary")
	}
	return names, seeds, nil
}

// SeedLabels labels the documents that the seed words single out: a
// document is labeled with a seeded topic's name when that topic's seed
// words are the majority of the seed words it holds — counted as
// SeedCount counts them, each seed word present once, times its strength
// — that is, when they outnumber all the other topics' together. A
// document holding none, or no such majority, stays unlabeled. (Requiring
// the seed words of one topic only would leave long documents, which hold
// a few seed words of many topics, unlabeled.) A kind that learns from
// labels uses them when it is given seed words alone, so that the seed
// words label the documents they leave little doubt about and the model
// carries the topics to the rest. It returns the labels, one entry per
// document of x (nil when unlabeled), and the number of documents labeled.
func SeedLabels(x *sparse.CSR, vocab []string, anchors []Anchor) ([][]string, int, error) {
	names, seeds, err := seedColumns(x, vocab, anchors)
	if err != nil {
		return nil, 0, err
	}
	labels := make([][]string, x.Rows)
	count := make([]float64, len(names))
	n := 0
	for i := 0; i < x.Rows; i++ {
		clear(count)
		total := 0.0
		for p := x.Indptr[i]; p < x.Indptr[i+1]; p++ {
			if x.Data[p] == 0 {
				continue
			}
			for _, s := range seeds[int(x.Indices[p])] {
				count[s.topic] += s.strength
				total += s.strength
			}
		}
		for t, c := range count {
			if c > total-c {
				labels[i] = []string{names[t]}
				n++
				break
			}
		}
	}
	return labels, n, nil
}

// labelBySeeds gives sup, when it has seed words and no labels, the labels
// of SeedLabels for kind, with a note saying how many documents they
// label; it leaves sup as it is otherwise.
func labelBySeeds(kind string, x *sparse.CSR, vocab []string, sup Supervision) (Supervision, []string, error) {
	if sup.labeled() || !seeded(sup.Anchors) {
		return sup, nil, nil
	}
	labels, n, err := SeedLabels(x, vocab, sup.Anchors)
	if err != nil {
		return sup, nil, fmt.Errorf("model: %s with seed words and no labels: %w", kind, err)
	}
	if n == 0 {
		return sup, nil, fmt.Errorf("model: %s with seed words and no labels: in no document are most seed words of one topic, so none can be labeled by them", kind)
	}
	sup.Labels = labels
	return sup, []string{fmt.Sprintf("no labels given: the seed words label the %d documents most of whose seed words are one topic's (%.1f%% of %d)", n, 100*float64(n)/float64(x.Rows), x.Rows)}, nil
}

// termIndex maps each vocabulary term to its column.
func termIndex(vocab []string) map[string]int {
	col := make(map[string]int, len(vocab))
	for j, w := range vocab {
		col[w] = j
	}
	return col
}

// anyTerm reports whether any of words is in the vocabulary col indexes.
func anyTerm(col map[string]int, words []string) bool {
	for _, w := range words {
		if _, ok := col[w]; ok {
			return true
		}
	}
	return false
}
