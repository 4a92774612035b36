package metrics

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"
)

// This file holds the measures of agreement between two labelings of the
// same documents (a reference labeling "true" and a clustering "pred"):
// contingency table, entropy, mutual information, homogeneity,
// completeness, V-measure, normalized and adjusted mutual information, and
// the adjusted Rand index. Each
// follows scikit-learn 1.2.1 (sklearn/metrics/cluster/_supervised.py and
// _expected_mutual_info_fast.pyx) formula by formula, including the order in
// which terms are added, so that results agree to about 1e-15 and the edge
// cases are the same:
//
//   - empty labelings: homogeneity = completeness = V = NMI = AMI = ARI = 1;
//   - ARI is 1 whenever no pair of documents is split by one labeling and
//     joined by the other: identical partitions (up to label names), both
//     a single cluster, both all singletons, a single document;
//   - both labelings a single cluster: NMI = AMI = 1, MI = 0;
//   - one labeling a single cluster, the other not: MI = NMI = AMI = 0,
//     homogeneity or completeness 1 for the side with zero entropy;
//   - MI terms smaller than machine epsilon are dropped and the MI is
//     clipped at 0; an AMI denominator closer to 0 than epsilon is replaced
//     by ±epsilon, keeping its sign.
//
// One case cannot agree reliably: when the normalizer equals the expected
// mutual information in exact arithmetic (one labeling all singletons, so
// every arrangement has the same MI), AMI is 0/0 and both libraries return a
// ratio of rounding errors that depends on the last bits of log, lgamma and
// exp. The sums here follow scikit-learn's order (numpy's pairwise
// summation included), so such values mostly coincide, but not always.
//
// Labels are arbitrary non-negative integers (they need not be 0..k-1); a
// negative label is an error, since -1 means "no label" elsewhere in this
// package and such documents must be left out before comparing.

// Average selects the mean of the two entropies that normalizes NMI and
// AMI, as scikit-learn's average_method.
type Average int

const (
	// AverageArithmetic is (H(true)+H(pred))/2, scikit-learn's default.
	AverageArithmetic Average = iota
	// AverageMin is min(H(true), H(pred)).
	AverageMin
	// AverageGeometric is sqrt(H(true)·H(pred)).
	AverageGeometric
	// AverageMax is max(H(true), H(pred)).
	AverageMax
)

// String returns scikit-learn's name for the average.
func (a Average) String() string {
	switch a {
	case AverageArithmetic:
		return "arithmetic"
	case AverageMin:
		return "min"
	case AverageGeometric:
		return "geometric"
	case AverageMax:
		return "max"
	}
	return fmt.Sprintf("Average(%d)", int(a))
}

func (a Average) of(u, v float64) (float64, error) {
	switch a {
	case AverageArithmetic:
		return (u + v) / 2, nil
	case AverageMin:
		return math.Min(u, v), nil
	case AverageGeometric:
		return math.Sqrt(u * v), nil
	case AverageMax:
		return math.Max(u, v), nil
	}
	return 0, fmt.Errorf("metrics: unknown average %d", int(a))
}

// Contingency is the contingency table of two labelings: Counts[i][j] of the
// dense form is the number of documents with the i-th smallest true label and
// the j-th smallest predicted label. It is stored sparsely, since two
// labelings of n documents into many clusters have at most n non-zero cells.
type Contingency struct {
	// Classes and Clusters are the distinct labels of the true and the
	// predicted labeling, in increasing order.
	Classes, Clusters []int
	// ClassSizes[i] and ClusterSizes[j] count the documents of Classes[i]
	// and Clusters[j] (the row and column sums).
	ClassSizes, ClusterSizes []int
	// Cells lists the non-zero cells ordered by cluster, then class (the
	// order scipy.sparse.find reports them in).
	Cells []Cell
	// N is the number of documents.
	N int
}

// Cell is one non-zero entry of a Contingency table.
type Cell struct {
	Class, Cluster, Count int
}

// NewContingency builds the contingency table of two labelings of the same
// documents. It returns an error if their lengths differ or a label is
// negative.
func NewContingency(labelsTrue, labelsPred []int) (*Contingency, error) {
	if len(labelsTrue) != len(labelsPred) {
		return nil, fmt.Errorf("metrics: labelings have %d and %d documents", len(labelsTrue), len(labelsPred))
	}
	classes, ci, err := denseIndex(labelsTrue, "true")
	if err != nil {
		return nil, err
	}
	clusters, ki, err := denseIndex(labelsPred, "predicted")
	if err != nil {
		return nil, err
	}
	c := &Contingency{
		Classes:      classes,
		Clusters:     clusters,
		ClassSizes:   make([]int, len(classes)),
		ClusterSizes: make([]int, len(clusters)),
		N:            len(labelsTrue),
	}
	// Sort document indices by (cluster, class) and run-length encode.
	pairs := make([]uint64, len(ci))
	for d := range ci {
		pairs[d] = uint64(ki[d])<<32 | uint64(ci[d])
		c.ClassSizes[ci[d]]++
		c.ClusterSizes[ki[d]]++
	}
	slices.Sort(pairs)
	for d := 0; d < len(pairs); {
		e := d + 1
		for e < len(pairs) && pairs[e] == pairs[d] {
			e++
		}
		c.Cells = append(c.Cells, Cell{Class: int(pairs[d] & (1<<32 - 1)), Cluster: int(pairs[d] >> 32), Count: e - d})
		d = e
	}
	return c, nil
}

// denseIndex maps labels to 0..k-1 in increasing label order, like
// numpy.unique with return_inverse.
func denseIndex(labels []int, which string) (distinct, idx []int, err error) {
	for d, l := range labels {
		if l < 0 {
			return nil, nil, fmt.Errorf("metrics: %s label of document %d is %d: leave unlabeled documents out before comparing labelings", which, d, l)
		}
	}
	distinct = slices.Clone(labels)
	slices.Sort(distinct)
	distinct = slices.Compact(distinct)
	idx = make([]int, len(labels))
	for d, l := range labels {
		idx[d] = sort.SearchInts(distinct, l)
	}
	return distinct, idx, nil
}

// Dense returns the table as len(Classes) × len(Clusters) counts.
func (c *Contingency) Dense() [][]int {
	out := make([][]int, len(c.Classes))
	for i := range out {
		out[i] = make([]int, len(c.Clusters))
	}
	for _, cell := range c.Cells {
		out[cell.Class][cell.Cluster] = cell.Count
	}
	return out
}

// Entropy returns the Shannon entropy (natural logarithm) of a labeling:
// -Σ p log p over the label frequencies. A labeling with a single label, or
// no documents, has entropy 0. (scikit-learn's private entropy helper
// returns 1 for an empty labeling; no public measure here depends on that,
// because each treats empty input before computing entropies.)
func Entropy(labels []int) (float64, error) {
	_, idx, err := denseIndex(labels, "")
	if err != nil {
		return 0, err
	}
	if len(labels) == 0 {
		return 0, nil
	}
	sizes := make([]int, 0)
	for _, i := range idx {
		for i >= len(sizes) {
			sizes = append(sizes, 0)
		}
		sizes[i]++
	}
	return entropyOf(sizes), nil
}

// entropyOf is scikit-learn's entropy of a labeling from its cluster sizes
// (all positive): -Σ (n_i/N)(log n_i - log N), numpy-summed.
func entropyOf(sizes []int) float64 {
	if len(sizes) <= 1 {
		return 0
	}
	var total float64
	for _, s := range sizes {
		total += float64(s) // exact: integer-valued
	}
	logTotal := math.Log(total)
	terms := make([]float64, len(sizes))
	for i, s := range sizes {
		p := float64(s)
		terms[i] = (p / total) * (math.Log(p) - logTotal)
	}
	return -npSum(terms)
}

// MutualInfo returns the mutual information (natural logarithm) between the
// two labelings of c: Σ (n_ij/N) log(N n_ij / (a_i b_j)). It is 0 when
// either labeling has a single cluster.
func (c *Contingency) MutualInfo() float64 {
	if len(c.Classes) == 1 || len(c.Clusters) == 1 || c.N == 0 {
		return 0
	}
	n := float64(c.N)
	logN := math.Log(n)
	terms := make([]float64, len(c.Cells))
	for k, cell := range c.Cells {
		v := float64(cell.Count)
		nm := v / n
		outer := float64(int64(c.ClassSizes[cell.Class]) * int64(c.ClusterSizes[cell.Cluster]))
		logOuter := -math.Log(outer) + logN + logN
		t := float64(nm*(math.Log(v)-logN)) + float64(nm*logOuter) // no fused multiply-add
		if math.Abs(t) < epsilon {
			t = 0
		}
		terms[k] = t
	}
	return math.Max(npSum(terms), 0)
}

// epsilon is float64 machine epsilon, numpy's finfo(float64).eps.
const epsilon = 0x1p-52

// MutualInfo returns the mutual information (natural logarithm) between two
// labelings of the same documents, like scikit-learn's mutual_info_score.
// Empty labelings are an error (scikit-learn fails on them too).
func MutualInfo(labelsTrue, labelsPred []int) (float64, error) {
	if len(labelsTrue) == 0 && len(labelsPred) == 0 {
		return 0, errors.New("metrics: mutual information of empty labelings")
	}
	c, err := NewContingency(labelsTrue, labelsPred)
	if err != nil {
		return 0, err
	}
	return c.MutualInfo(), nil
}

// ExpectedMutualInfo returns the expected mutual information of two random
// labelings with the cluster sizes of c, under the hypergeometric model of
// Vinh, Epps and Bailey (2010): the sum over cells (i, j) and overlaps
// n_ij = max(1, a_i+b_j-N) .. min(a_i, b_j) of
// (n_ij/N) log(N n_ij/(a_i b_j)) times the hypergeometric probability of
// n_ij, the latter evaluated through log-gamma so that large N does not
// overflow. The terms are added in scikit-learn's order. It is 0 when either
// labeling has a single cluster.
func (c *Contingency) ExpectedMutualInfo() float64 {
	R, C := len(c.Classes), len(c.Clusters)
	if R <= 1 || C <= 1 {
		return 0
	}
	a, b := c.ClassSizes, c.ClusterSizes
	N := c.N
	n := float64(N)
	// lg[k] = lgamma(k) for k = 1..N+1, i.e. log((k-1)!).
	lg := make([]float64, N+2)
	for k := 1; k < len(lg); k++ {
		lg[k], _ = math.Lgamma(float64(k))
	}
	maxSize := max(slices.Max(a), slices.Max(b))
	term1 := make([]float64, maxSize+1)
	logNnij := make([]float64, maxSize+1)
	logN := math.Log(n)
	for nij := 1; nij <= maxSize; nij++ {
		term1[nij] = float64(nij) / n
		logNnij[nij] = logN + math.Log(float64(nij))
	}
	glnN := lg[N+1]
	var emi float64
	for i := 0; i < R; i++ {
		ai := a[i]
		logA := math.Log(float64(ai))
		glnA, glnNA := lg[ai+1], lg[N-ai+1]
		for j := 0; j < C; j++ {
			bj := b[j]
			logB := math.Log(float64(bj))
			glnB, glnNB := lg[bj+1], lg[N-bj+1]
			start := max(ai-N+bj, 1)
			end := min(ai, bj) + 1
			for nij := start; nij < end; nij++ {
				term2 := logNnij[nij] - logA - logB
				gln := glnA + glnB + glnNA + glnNB - glnN - lg[nij+1] - lg[ai-nij+1] - lg[bj-nij+1] - lg[N-ai-bj+nij+1]
				emi += float64(term1[nij] * term2 * math.Exp(gln))
			}
		}
	}
	return emi
}

// Agreement holds every measure of agreement between two labelings.
type Agreement struct {
	// EntropyTrue and EntropyPred are the entropies of the two labelings.
	EntropyTrue, EntropyPred float64
	// MI is the mutual information; EMI its expectation under chance.
	MI, EMI float64
	// Homogeneity (each cluster holds one class), Completeness (each class
	// falls in one cluster) and their harmonic mean VMeasure (beta = 1).
	Homogeneity, Completeness, VMeasure float64
	// NMI and AMI use the arithmetic mean of the entropies, scikit-learn's
	// default; see NormalizedMutualInfo and AdjustedMutualInfo for others.
	NMI, AMI float64
	// ARI is the adjusted Rand index (see AdjustedRandIndex).
	ARI float64
}

// CompareLabelings computes all the agreement measures of two labelings at
// once, sharing the contingency table, with scikit-learn's conventions (see
// the file comment above for the edge cases).
func CompareLabelings(labelsTrue, labelsPred []int) (*Agreement, error) {
	c, err := NewContingency(labelsTrue, labelsPred)
	if err != nil {
		return nil, err
	}
	ari, err := c.adjustedRand()
	if err != nil {
		return nil, err
	}
	ag := &Agreement{ARI: ari}
	if c.N == 0 {
		ag.Homogeneity, ag.Completeness, ag.VMeasure, ag.NMI, ag.AMI = 1, 1, 1, 1, 1
		return ag, nil
	}
	ag.EntropyTrue, ag.EntropyPred = entropyOf(c.ClassSizes), entropyOf(c.ClusterSizes)
	ag.MI = c.MutualInfo()
	ag.EMI = c.ExpectedMutualInfo()
	ag.Homogeneity, ag.Completeness, ag.VMeasure = hcv(ag.MI, ag.EntropyTrue, ag.EntropyPred, 1)
	ag.NMI = nmi(c, ag.MI, ag.EntropyTrue, ag.EntropyPred, AverageArithmetic)
	ag.AMI = ami(c, ag.MI, ag.EMI, ag.EntropyTrue, ag.EntropyPred, AverageArithmetic)
	return ag, nil
}

// HomogeneityCompletenessV returns homogeneity, completeness and the
// V-measure with weight beta (1 is the harmonic mean; beta > 1 favours
// completeness), as scikit-learn's homogeneity_completeness_v_measure:
// h = MI/H(true) and c = MI/H(pred), each 1 when its entropy is 0, and
// V = (1+beta)hc/(beta·h+c), 0 when h+c = 0. Empty labelings give 1, 1, 1.
func HomogeneityCompletenessV(labelsTrue, labelsPred []int, beta float64) (h, c, v float64, err error) {
	if !(beta > 0) || math.IsInf(beta, 0) {
		return 0, 0, 0, fmt.Errorf("metrics: V-measure beta %v, want a positive finite number", beta)
	}
	ct, err := NewContingency(labelsTrue, labelsPred)
	if err != nil {
		return 0, 0, 0, err
	}
	if ct.N == 0 {
		return 1, 1, 1, nil
	}
	h, c, v = hcv(ct.MutualInfo(), entropyOf(ct.ClassSizes), entropyOf(ct.ClusterSizes), beta)
	return h, c, v, nil
}

func hcv(mi, hTrue, hPred, beta float64) (h, c, v float64) {
	h, c = 1, 1
	if hTrue != 0 {
		h = mi / hTrue
	}
	if hPred != 0 {
		c = mi / hPred
	}
	if h+c != 0 {
		v = (1 + beta) * h * c / (beta*h + c)
	}
	return h, c, v
}

// NormalizedMutualInfo returns MI / avg(H(true), H(pred)), like
// scikit-learn's normalized_mutual_info_score: 1 when both labelings are a
// single cluster (or empty), 0 whenever MI is 0.
func NormalizedMutualInfo(labelsTrue, labelsPred []int, avg Average) (float64, error) {
	if _, err := avg.of(0, 0); err != nil {
		return 0, err
	}
	c, err := NewContingency(labelsTrue, labelsPred)
	if err != nil {
		return 0, err
	}
	return nmi(c, c.MutualInfo(), entropyOf(c.ClassSizes), entropyOf(c.ClusterSizes), avg), nil
}

func nmi(c *Contingency, mi, hTrue, hPred float64, avg Average) float64 {
	if len(c.Classes) == len(c.Clusters) && len(c.Classes) <= 1 {
		return 1
	}
	if mi == 0 {
		return 0
	}
	norm, _ := avg.of(hTrue, hPred)
	return mi / norm
}

// AdjustedMutualInfo returns the mutual information adjusted for chance,
// (MI - EMI) / (avg(H(true), H(pred)) - EMI), like scikit-learn's
// adjusted_mutual_info_score: 1 when both labelings are a single cluster (or
// empty), about 0 for independent labelings, and possibly negative. EMI is
// ExpectedMutualInfo.
func AdjustedMutualInfo(labelsTrue, labelsPred []int, avg Average) (float64, error) {
	if _, err := avg.of(0, 0); err != nil {
		return 0, err
	}
	c, err := NewContingency(labelsTrue, labelsPred)
	if err != nil {
		return 0, err
	}
	if len(c.Classes) == len(c.Clusters) && len(c.Classes) <= 1 {
		return 1, nil
	}
	return ami(c, c.MutualInfo(), c.ExpectedMutualInfo(), entropyOf(c.ClassSizes), entropyOf(c.ClusterSizes), avg), nil
}

func ami(c *Contingency, mi, emi, hTrue, hPred float64, avg Average) float64 {
	if len(c.Classes) == len(c.Clusters) && len(c.Classes) <= 1 {
		return 1
	}
	norm, _ := avg.of(hTrue, hPred)
	den := norm - emi
	// normalizer ≥ EMI in exact arithmetic; keep the sign of a rounded
	// difference but keep it away from zero (scikit-learn's guard).
	if den < 0 {
		den = math.Min(den, -epsilon)
	} else {
		den = math.Max(den, epsilon)
	}
	return (mi - emi) / den
}

// maxPairDocuments is the largest number of documents whose ordered pairs,
// n², fit in an int64 (⌊√(2⁶³−1)⌋), as scikit-learn's pair_confusion_matrix
// counts them.
const maxPairDocuments = 3037000499

// pairConfusion returns scikit-learn's pair_confusion_matrix of c: over
// the ordered pairs of distinct documents, tn counts those that both
// labelings separate, fp those only the prediction joins, fn those only
// the reference joins and tp those both join. Every count is at most n²,
// exact in int64 for n ≤ maxPairDocuments.
func (c *Contingency) pairConfusion() (tn, fp, fn, tp int64, err error) {
	if int64(c.N) > maxPairDocuments {
		return 0, 0, 0, 0, fmt.Errorf("metrics: %d documents: more than %d, whose pairs overflow int64 counts", c.N, int64(maxPairDocuments))
	}
	n := int64(c.N)
	var sumSquares, rowDot, colDot int64
	for _, cell := range c.Cells {
		v := int64(cell.Count)
		sumSquares += v * v
		rowDot += v * int64(c.ClusterSizes[cell.Cluster])
		colDot += v * int64(c.ClassSizes[cell.Class])
	}
	tp = sumSquares - n
	fp = rowDot - sumSquares
	fn = colDot - sumSquares
	tn = n*n - fp - fn - sumSquares
	return tn, fp, fn, tp, nil
}

// adjustedRand is adjusted_rand_score on the pair counts of c: 1 when
// fp = fn = 0, else 2(tp·tn − fn·fp) / ((tp+fn)(fn+tn) + (tp+fp)(fp+tn)).
// The products, up to about n⁴, are exact (math/big, as scikit-learn's
// Python integers), and each side is rounded to float64 once, to nearest,
// before the division, as Python's float arithmetic on integers does.
func (c *Contingency) adjustedRand() (float64, error) {
	tn, fp, fn, tp, err := c.pairConfusion()
	if err != nil {
		return 0, err
	}
	if fn == 0 && fp == 0 {
		return 1, nil
	}
	b := func(v int64) *big.Int { return big.NewInt(v) }
	mul := func(x, y *big.Int) *big.Int { return new(big.Int).Mul(x, y) }
	add := func(x, y *big.Int) *big.Int { return new(big.Int).Add(x, y) }
	num := new(big.Int).Sub(mul(b(tp), b(tn)), mul(b(fn), b(fp)))
	den := add(mul(add(b(tp), b(fn)), add(b(fn), b(tn))), mul(add(b(tp), b(fp)), add(b(fp), b(tn))))
	return 2 * toFloat(num) / toFloat(den), nil
}

// toFloat rounds x to the nearest float64, ties to even.
func toFloat(x *big.Int) float64 {
	f, _ := new(big.Float).SetInt(x).Float64()
	return f
}

// AdjustedRandIndex returns the Rand index adjusted for chance (Hubert and
// Arabie, 1985) of two labelings of the same documents, like
// scikit-learn's adjusted_rand_score: the share of document pairs on which
// the labelings agree (both join or both separate the pair), rescaled so
// that random labelings with the same cluster sizes score 0 on average and
// identical partitions 1. It can be negative, down to −0.5. It is 1 when no
// pair is joined by one labeling and separated by the other: empty
// labelings, a single document, identical partitions (label names aside),
// both labelings a single cluster or both all singletons. The pair counts
// are exact integers, as scikit-learn's pair_confusion_matrix, so results
// agree with it to the last bit.
//
// It returns an error if the lengths differ, a label is negative, or there
// are more than 3,037,000,499 documents (whose n² ordered pairs overflow
// int64 counts).
func AdjustedRandIndex(labelsTrue, labelsPred []int) (float64, error) {
	c, err := NewContingency(labelsTrue, labelsPred)
	if err != nil {
		return 0, err
	}
	return c.adjustedRand()
}
