package metrics

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/parallel"
)

// JaccardOptions tunes TopicLabelJaccard. The zero value is not the default:
// use DefaultJaccardOptions, or pass nil.
type JaccardOptions struct {
	// Cutoff: after dividing W by its largest entry, entries at or below
	// Cutoff are set to 0 (the reference keeps only strengths > cutoff).
	// 0 keeps every positive entry.
	Cutoff float64
	// Resolved: a label counts as resolved when its matched similarity is
	// greater than this.
	Resolved float64
}

// DefaultJaccardOptions returns the settings of the TS-NMF paper's Reuters
// experiments: cutoff 0.001 and "resolved" above 0.1 (kelsey-macmillan/ws-nmf,
// reuters_tsnmf.py: create_doc_to_topic_dict(W, cutoff=0.001) and
// n_resolved = matches with score > 0.1).
func DefaultJaccardOptions() JaccardOptions {
	return JaccardOptions{Cutoff: 0.001, Resolved: 0.1}
}

// LabelMatch is the topic matched to one label and their similarity.
type LabelMatch struct {
	// Topic is the matched topic, or -1 if the label has no documents or
	// there were fewer topics than labels and it lost out.
	Topic int
	// Similarity is the weighted Jaccard similarity of the pair (0 when
	// unmatched).
	Similarity float64
}

// JaccardResult is the outcome of TopicLabelJaccard.
type JaccardResult struct {
	// Similarity[l][t] is the weighted Jaccard similarity of label l and
	// topic t (numLabels × topics).
	Similarity *mat.Dense
	// Matches[l] is label l's matched topic.
	Matches []LabelMatch
	// Mean is the mean matched similarity over the labels that have at
	// least one document, an unmatched label counting 0: the TS-NMF paper's
	// "average similarity" when there are at least as many topics as labels.
	Mean float64
	// MatchedMean is the mean over matched pairs only, which is exactly
	// what the reference code reports (np.mean(sim[ind_1, ind_2])); it
	// differs from Mean only when there are fewer topics than labels.
	MatchedMean float64
	// Resolved counts matched labels with similarity > Resolved.
	Resolved int
	// Scored counts the labels with at least one document.
	Scored int
}

// TopicLabelJaccard is the TS-NMF paper's measure of how well topics recover
// known labels (MacMillan & Wilson, "Topic supervised non-negative matrix
// factorization", §4), settled against the authors' code
// (kelsey-macmillan/ws-nmf, src/utils/post_processing.py and
// reuters_tsnmf.py):
//
//  1. W (documents × topics, non-negative) is divided by its largest entry
//     and entries at or below opts.Cutoff are set to 0
//     (create_doc_to_topic_dict).
//  2. Each topic column a and each label's 0/1 indicator column b are
//     compared by the weighted Jaccard similarity Σ min(a,b) / Σ max(a,b)
//     over all documents (weighted_jaccard_distance). All documents enter,
//     as in the reference: it scores the full label lists of every
//     document, not only the ones shown to the model, and an unlabeled
//     document with topic weight raises the denominator.
//  3. Labels are matched one-to-one to topics maximizing the total
//     similarity (linear_sum_assignment on the negated matrix; here Assign).
//  4. The result reports each label's match, the mean similarity and the
//     number of labels with similarity > opts.Resolved.
//
// Labels without any document are left out of the matching and of the means
// (in the reference they would break the similarity matrix's indexing);
// Scored says how many labels were scored. labels[d] lists document d's
// label indices in [0, numLabels) (nil for none). A nil opts means
// DefaultJaccardOptions. W must be finite and non-negative; an all-zero W
// gives similarity 0 everywhere.
func TopicLabelJaccard(W *mat.Dense, labels [][]int, numLabels int, opts *JaccardOptions) (*JaccardResult, error) {
	o := DefaultJaccardOptions()
	if opts != nil {
		o = *opts
	}
	if !(o.Cutoff >= 0) || o.Cutoff >= 1 || math.IsNaN(o.Resolved) {
		return nil, fmt.Errorf("metrics: Jaccard cutoff %v must be in [0, 1) and resolved threshold %v a number", o.Cutoff, o.Resolved)
	}
	if W == nil || W.IsEmpty() {
		return nil, errors.New("metrics: empty document-topic matrix")
	}
	if numLabels <= 0 {
		return nil, fmt.Errorf("metrics: numLabels %d, want at least 1", numLabels)
	}
	docs, k := W.Dims()
	if len(labels) != docs {
		return nil, fmt.Errorf("metrics: %d label sets for %d documents (rows of W)", len(labels), docs)
	}
	for d, set := range labels {
		if err := checkSet(set, numLabels, d, ""); err != nil {
			return nil, err
		}
	}
	wmax, err := maxNonNegative(W)
	if err != nil {
		return nil, err
	}
	size := make([]int, numLabels)
	for _, set := range labels {
		for _, l := range set {
			size[l]++
		}
	}
	sim := mat.NewDense(numLabels, k, nil)
	// Each topic is independent: split the topics over the cores, so the
	// sums (and the result) do not depend on the number of workers.
	parallel.For(k, 8, func(lo, hi int) {
		inter := make([]float64, numLabels)
		for t := lo; t < hi; t++ {
			for l := range inter {
				inter[l] = 0
			}
			var colSum float64
			if wmax > 0 {
				for d := 0; d < docs; d++ {
					a := W.At(d, t) / wmax
					if a <= o.Cutoff {
						continue
					}
					colSum += a
					for _, l := range labels[d] {
						inter[l] += a
					}
				}
			}
			for l := 0; l < numLabels; l++ {
				// b is 0/1 and a ∈ [0,1]: Σmin(a,b) = Σ_{d∈l} a,
				// Σmax(a,b) = |l| + Σ_{d∉l} a = |l| + colSum - inter.
				den := float64(size[l]) + colSum - inter[l]
				if den > 0 {
					sim.Set(l, t, inter[l]/den)
				}
			}
		}
	})
	res := &JaccardResult{Similarity: sim, Matches: make([]LabelMatch, numLabels)}
	var scored []int
	for l := range res.Matches {
		res.Matches[l].Topic = -1
		if size[l] > 0 {
			scored = append(scored, l)
		}
	}
	res.Scored = len(scored)
	if res.Scored == 0 {
		return nil, errors.New("metrics: no document has a label")
	}
	cost := make([]float64, len(scored)*k)
	for r, l := range scored {
		mat.Row(cost[r*k:(r+1)*k], l, sim)
	}
	rowToCol, _, err := assign(len(scored), k, cost, true)
	if err != nil {
		return nil, err
	}
	var sum float64
	matched := 0
	for r, t := range rowToCol {
		if t < 0 {
			continue
		}
		l := scored[r]
		s := sim.At(l, t)
		res.Matches[l] = LabelMatch{Topic: t, Similarity: s}
		sum += s
		matched++
		if s > o.Resolved {
			res.Resolved++
		}
	}
	res.Mean = sum / float64(res.Scored)
	if matched > 0 {
		res.MatchedMean = sum / float64(matched)
	}
	return res, nil
}

// maxNonNegative returns the largest entry of W after checking that every
// entry is finite and non-negative.
func maxNonNegative(W *mat.Dense) (float64, error) {
	r, c := W.Dims()
	var m float64
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			v := W.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return 0, fmt.Errorf("metrics: W[%d][%d] = %v, want a finite non-negative value", i, j, v)
			}
			m = math.Max(m, v)
		}
	}
	return m, nil
}
