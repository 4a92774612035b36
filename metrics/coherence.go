package metrics

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/parallel"
	"github.com/semitopic/semitopic/sparse"
)

// TopicScores holds a per-topic quality measure and its mean.
type TopicScores struct {
	// PerTopic[t] is topic t's value, NaN for a topic with fewer than two
	// words (no word pairs).
	PerTopic []float64
	// Mean is the mean over the topics with a value; Scored counts them.
	Mean   float64
	Scored int
}

// gensimEpsilon is the smoothing gensim adds to co-document probabilities
// (gensim.topic_coherence.direct_confirmation_measure.EPSILON).
const gensimEpsilon = 1e-12

// UMass returns the UMass coherence of each topic (Mimno, Wallach, Talley,
// Leenders & McCallum 2011, "Optimizing semantic coherence in topic
// models", Eq. 1): for a topic's words v_1..v_M in rank order,
//
//	C = Σ_{m=2..M} Σ_{l=1..m-1} log((D(v_m, v_l) + 1) / D(v_l)),
//
// where D(v) counts the documents (rows of X) containing v and D(v, v') those
// containing both. The conditioning word v_l is always the higher-ranked of
// the pair, as in the paper and in gensim's u_mass (segmentation s_one_pre:
// pairs (W', W*) with W* ranked before W'). X is documents × terms; an entry
// > 0 means the word is present. topics[t] lists topic t's word (column)
// indices, best first, without repetitions (see TopWords). A pair whose
// conditioning word occurs in no document is undefined in the formula and
// contributes 0 (gensim does the same for words it has not counted). The
// value is a sum, so it scales with the number of pairs; see UMassGensim
// for gensim's per-pair mean.
func UMass(X *sparse.CSR, topics [][]int) (*TopicScores, error) {
	return coherence(X, topics, func(c cooc, hi, lo int) float64 {
		if c.df[lo] == 0 {
			return 0
		}
		return math.Log(float64(c.co(hi, lo)+1) / float64(c.df[lo]))
	}, false)
}

// UMassGensim returns gensim's CoherenceModel(coherence="u_mass") value of
// each topic: the mean over the same pairs as UMass of
// log((D(v_m, v_l)/N + ε) / (D(v_l)/N)) with ε = 1e-12 and N the number of
// documents, instead of Mimno's sum with +1 smoothing. Pairs whose
// conditioning word occurs in no document contribute 0, as in gensim.
func UMassGensim(X *sparse.CSR, topics [][]int) (*TopicScores, error) {
	return coherence(X, topics, func(c cooc, hi, lo int) float64 {
		if c.df[lo] == 0 {
			return 0
		}
		n := float64(c.n)
		return math.Log((float64(c.co(hi, lo))/n + gensimEpsilon) / (float64(c.df[lo]) / n))
	}, true)
}

// NPMI returns the mean normalized pointwise mutual information over the
// pairs of each topic's words (Bouma 2009; Lau, Newman & Baldwin 2014),
// with probabilities estimated from documents as co-occurrence windows:
// p(v) = D(v)/N, p(v, v') = D(v, v')/N and
//
//	NPMI(v, v') = log(p(v, v') / (p(v) p(v'))) / −log p(v, v').
//
// It is exact, with no smoothing epsilon: a pair that never co-occurs takes
// the limit −1 (gensim instead adds ε = 1e-12, which gives a value slightly
// above −1), and a pair present in every document takes the limit 1. The
// arguments are as for UMass.
func NPMI(X *sparse.CSR, topics [][]int) (*TopicScores, error) {
	return coherence(X, topics, func(c cooc, a, b int) float64 {
		dab := c.co(a, b)
		if dab == 0 {
			return -1
		}
		if dab == c.n {
			return 1
		}
		n := float64(c.n)
		pab := float64(dab) / n
		pa, pb := float64(c.df[a])/n, float64(c.df[b])/n
		return math.Log(pab/(pa*pb)) / -math.Log(pab)
	}, true)
}

// coherence evaluates pair(c, later, earlier) over the pairs of each topic
// (later ranked after earlier) and sums them, or averages them with mean.
// The arguments of pair are word slots of c.
func coherence(X *sparse.CSR, topics [][]int, pair func(c cooc, later, earlier int) float64, mean bool) (*TopicScores, error) {
	c, slots, err := newCooc(X, topics)
	if err != nil {
		return nil, err
	}
	res := &TopicScores{PerTopic: make([]float64, len(topics))}
	parallel.For(len(topics), 4, func(lo, hi int) {
		for t := lo; t < hi; t++ {
			words := slots[t]
			if len(words) < 2 {
				res.PerTopic[t] = math.NaN()
				continue
			}
			var sum float64
			pairs := 0
			for m := 1; m < len(words); m++ {
				for l := 0; l < m; l++ {
					v := pair(c, words[m], words[l])
					sum += v
					pairs++
				}
			}
			if mean {
				sum /= float64(pairs)
			}
			res.PerTopic[t] = sum
		}
	})
	var total float64
	for _, v := range res.PerTopic {
		if !math.IsNaN(v) {
			total += v
			res.Scored++
		}
	}
	if res.Scored > 0 {
		res.Mean = total / float64(res.Scored)
	} else {
		res.Mean = math.NaN()
	}
	return res, nil
}

// cooc holds the document lists of the distinct words of a set of topics,
// from which single and pair document counts are computed without ever
// forming a terms × terms matrix.
type cooc struct {
	n    int       // documents
	df   []int     // df[s]: documents containing the word in slot s
	docs [][]int32 // docs[s]: those documents, increasing
}

// co counts the documents containing both slot a and slot b words by
// merging their sorted document lists.
func (c cooc) co(a, b int) int {
	x, y := c.docs[a], c.docs[b]
	i, j, n := 0, 0, 0
	for i < len(x) && j < len(y) {
		switch {
		case x[i] < y[j]:
			i++
		case x[i] > y[j]:
			j++
		default:
			n++
			i++
			j++
		}
	}
	return n
}

// newCooc validates X and topics, gathers the document lists of the
// topics' distinct words in one parallel pass over X, and returns the
// topics rewritten as slot indices.
func newCooc(X *sparse.CSR, topics [][]int) (cooc, [][]int, error) {
	if X == nil {
		return cooc{}, nil, errors.New("metrics: nil document-term matrix")
	}
	if X.Rows == 0 {
		return cooc{}, nil, errors.New("metrics: document-term matrix has no documents")
	}
	if len(topics) == 0 {
		return cooc{}, nil, errors.New("metrics: no topics")
	}
	slotOf := make(map[int]int)
	slots := make([][]int, len(topics))
	var words []int
	for t, tw := range topics {
		slots[t] = make([]int, len(tw))
		for i, w := range tw {
			if w < 0 || w >= X.Cols {
				return cooc{}, nil, fmt.Errorf("metrics: topic %d word %d is term %d, out of range 0..%d", t, i, w, X.Cols-1)
			}
			for _, v := range tw[:i] {
				if v == w {
					return cooc{}, nil, fmt.Errorf("metrics: topic %d lists term %d twice", t, w)
				}
			}
			s, ok := slotOf[w]
			if !ok {
				s = len(words)
				slotOf[w] = s
				words = append(words, w)
			}
			slots[t][i] = s
		}
	}
	colSlot := make([]int32, X.Cols)
	for j := range colSlot {
		colSlot[j] = -1
	}
	for s, w := range words {
		colSlot[w] = int32(s)
	}
	// Each worker collects the lists of its contiguous row block; the
	// blocks are joined in row order, so every list comes out sorted.
	parts := make([][][]int32, parallel.Workers())
	errs := make([]error, len(parts))
	parallel.ForWeighted(X.Indptr, 1<<14, func(b, lo, hi int) {
		part := make([][]int32, len(words))
		for d := lo; d < hi; d++ {
			for k := X.Indptr[d]; k < X.Indptr[d+1]; k++ {
				s := colSlot[X.Indices[k]]
				if s < 0 {
					continue
				}
				v := X.Data[k]
				if v < 0 || math.IsNaN(v) {
					if errs[b] == nil {
						errs[b] = fmt.Errorf("metrics: X[%d][%d] = %v: presence needs values ≥ 0", d, X.Indices[k], v)
					}
					continue
				}
				if v > 0 {
					part[s] = append(part[s], int32(d))
				}
			}
		}
		parts[b] = part
	})
	for _, err := range errs {
		if err != nil {
			return cooc{}, nil, err
		}
	}
	c := cooc{n: X.Rows, df: make([]int, len(words)), docs: make([][]int32, len(words))}
	for s := range words {
		for _, part := range parts {
			if part != nil {
				c.docs[s] = append(c.docs[s], part[s]...)
			}
		}
		c.df[s] = len(c.docs[s])
	}
	return c, slots, nil
}

// TopWords returns, for each topic (row) of a topics × terms matrix H, the
// indices of its n largest entries in decreasing order, ties broken by
// lower index, leaving out entries ≤ 0: an all-zero (empty) topic gets an
// empty list and a topic with fewer than n positive weights a shorter one.
func TopWords(H *mat.Dense, n int) ([][]int, error) {
	if H == nil || H.IsEmpty() {
		return nil, errors.New("metrics: empty topic-term matrix")
	}
	if n <= 0 {
		return nil, fmt.Errorf("metrics: %d top words requested, want at least 1", n)
	}
	k, _ := H.Dims()
	out := make([][]int, k)
	for t := 0; t < k; t++ {
		row := H.RawRowView(t)
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("metrics: H[%d][%d] = %v", t, j, v)
			}
		}
		out[t] = TopIndices(row, n)
	}
	return out, nil
}

// TopicDiversity is the share of distinct words among the top n words of all
// topics (Dieng, Ruiz & Blei 2020, "Topic modeling in embedding spaces",
// §5: 1 when no word is shared, 1/K when all K topics have the same words).
// Each topic contributes its first n words (all of them if it has fewer, or
// if n ≤ 0); the denominator is the number of words contributed. It is an
// error if no topic has a word.
func TopicDiversity(topics [][]int, n int) (float64, error) {
	prefixes, err := topicPrefixes(topics, n)
	if err != nil {
		return 0, err
	}
	seen := make(map[int]bool)
	total := 0
	for _, tw := range prefixes {
		for _, w := range tw {
			seen[w] = true
		}
		total += len(tw)
	}
	if total == 0 {
		return 0, errors.New("metrics: topic diversity of topics without words")
	}
	return float64(len(seen)) / float64(total), nil
}

// TopicOverlap is the mean, over all pairs of topics, of the Jaccard
// overlap |A ∩ B| / |A ∪ B| of their top-n word sets (0 for two empty sets).
// 0 means no two topics share a top word, 1 that all topics have the same
// top words. The CorEx paper discusses topic overlap when sweeping the
// anchor strength (Gallagher et al. 2017, §5.2) but neither it nor the
// reference code (gregversteeg/corex_topic) defines a formula; this is the
// definition semitopic uses. n is as for TopicDiversity; at least two topics
// are needed.
func TopicOverlap(topics [][]int, n int) (float64, error) {
	if len(topics) < 2 {
		return 0, fmt.Errorf("metrics: topic overlap needs at least 2 topics, got %d", len(topics))
	}
	prefixes, err := topicPrefixes(topics, n)
	if err != nil {
		return 0, err
	}
	sets := make([]map[int]bool, len(topics))
	for t, tw := range prefixes {
		sets[t] = make(map[int]bool, len(tw))
		for _, w := range tw {
			sets[t][w] = true
		}
	}
	var sum float64
	pairs := 0
	for a := range sets {
		for b := a + 1; b < len(sets); b++ {
			inter := 0
			for w := range sets[a] {
				if sets[b][w] {
					inter++
				}
			}
			if union := len(sets[a]) + len(sets[b]) - inter; union > 0 {
				sum += float64(inter) / float64(union)
			}
			pairs++
		}
	}
	return sum / float64(pairs), nil
}

// topicPrefixes cuts each topic to its first n words (n ≤ 0: all) and
// checks that no topic repeats a word.
func topicPrefixes(topics [][]int, n int) ([][]int, error) {
	out := make([][]int, len(topics))
	for t, tw := range topics {
		if n > 0 && len(tw) > n {
			tw = tw[:n]
		}
		seen := make(map[int]bool, len(tw))
		for _, w := range tw {
			if seen[w] {
				return nil, fmt.Errorf("metrics: topic %d lists word %d twice", t, w)
			}
			seen[w] = true
		}
		out[t] = tw
	}
	return out, nil
}
