package metrics

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// ClusterScoreResult is the outcome of ClusterScores.
type ClusterScoreResult struct {
	// Topic[l] is topic l's score: the largest, over subgroups i, of the
	// share of subgroup i's documents that topic l holds.
	Topic []float64
	// Best[l] is the subgroup attaining Topic[l], the first in index order
	// among ties; -1 when no subgroup gets a positive score (the reference
	// reports subgroup 0 in that case).
	Best []int
	// Mean is the mean of Topic over all topics: the paper's clustering
	// score P.
	Mean float64
}

// ClusterScores is the SSNMF paper's clustering score P (Haddock, Kassab
// et al., appendix; jamiehadd/ssnmf, experiments/20news/utils_20news.py,
// clust_scores): for each topic l,
//
//	P_l = max_i Σ_d S'[d][l]·M[i][d] / Σ_d M[i][d],
//
// where M[i][d] = 1 if document d belongs to ground-truth subgroup i, and S'
// is, with soft = false, the one-hot argmax topic of each document (the
// first topic among tied maxima; an all-zero document gets no topic,
// TopicVsDoc) or, with soft = true, S with each document's row divided by
// its sum (an all-zero row stays zero). The score is the mean of P_l over
// topics. S is documents × topics (the transpose of the reference's S) and
// non-negative; groups[d] is document d's subgroup in [0, numGroups) or -1
// for none. Subgroups without documents are skipped, as the reference's
// NaN comparisons skip them.
func ClusterScores(S *mat.Dense, groups []int, numGroups int, soft bool) (*ClusterScoreResult, error) {
	if S == nil || S.IsEmpty() {
		return nil, errors.New("metrics: empty document-topic matrix")
	}
	docs, k := S.Dims()
	if len(groups) != docs {
		return nil, fmt.Errorf("metrics: %d subgroup labels for %d documents (rows of S)", len(groups), docs)
	}
	if numGroups <= 0 {
		return nil, fmt.Errorf("metrics: numGroups %d, want at least 1", numGroups)
	}
	size := make([]int, numGroups)
	for d, g := range groups {
		if g < -1 || g >= numGroups {
			return nil, fmt.Errorf("metrics: subgroup of document %d is %d, want -1 or 0..%d", d, g, numGroups-1)
		}
		if g >= 0 {
			size[g]++
		}
	}
	if _, err := maxNonNegative(S); err != nil {
		return nil, err
	}
	// mass[i][l] = Σ_{d in subgroup i} S'[d][l].
	mass := make([][]float64, numGroups)
	for i := range mass {
		mass[i] = make([]float64, k)
	}
	for d := 0; d < docs; d++ {
		g := groups[d]
		if g < 0 {
			continue
		}
		row := S.RawRowView(d)
		if !soft {
			best := -1
			for l, v := range row {
				if v > 0 && (best < 0 || v > row[best]) {
					best = l
				}
			}
			if best >= 0 {
				mass[g][best]++
			}
			continue
		}
		var sum float64
		for _, v := range row {
			sum += v
		}
		if sum == 0 {
			sum = 1
		}
		for l, v := range row {
			mass[g][l] += v / sum
		}
	}
	res := &ClusterScoreResult{Topic: make([]float64, k), Best: make([]int, k)}
	var total float64
	for l := 0; l < k; l++ {
		res.Best[l] = -1
		for i := 0; i < numGroups; i++ {
			if size[i] == 0 {
				continue
			}
			if s := mass[i][l] / float64(size[i]); s > res.Topic[l] {
				res.Topic[l], res.Best[l] = s, i
			}
		}
		total += res.Topic[l]
	}
	res.Mean = total / float64(k)
	return res, nil
}
