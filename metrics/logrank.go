package metrics

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/parallel"
	"github.com/semitopic/semitopic/internal/rng"
)

// The theme-supervised NMF thesis (Suyunu 2020, Eq. 7.1) scores a topic
// model by where each labeled document's theme lands in the ranking of the
// document's topic weights: with K themes and rank r (1 = the document's
// strongest topic), a document-theme pair earns log K − log r, and the
// corpus score is the sum of these over documents and their themes divided
// by the best achievable sum, Σ_d Σ_{r=1..m_d} (log K − log r) for a
// document with m_d themes (TSNMF.ipynb and TSNMF_Class_Analysis.ipynb:
// prediction_score_perc = 100·Σ scores / max_score). The definitions below
// follow suyunu/theme-supervised-nmf, with these decisions where it is
// silent or where its behaviour depends on accidents:
//
//   - Ties: a topic tied with others takes the worst position among them,
//     rank = #{topics with weight ≥ its weight}. The reference ranks with
//     numpy's argsort()[::-1], which orders ties by topic index (reversed),
//     so an all-zero row would rank the highest-numbered topic first and
//     earn credit for nothing; the pessimistic rank gives an uninformative
//     row no credit and makes the score independent of topic numbering.
//   - More topics than themes (k > K): ranks are taken among all k topics
//     and a pair ranked below K earns 0 instead of a negative score, so
//     every score stays in [0, 1] and a theme's topic must be among the
//     document's K strongest to earn anything. With k = K (the thesis'
//     setting) nothing is clipped. Ranking among all k topics keeps the
//     score a sum over (document, theme) of a function of the mapped
//     topic alone, which is what lets MapThemesExact solve it exactly.
//   - Unlabeled documents (nil theme list) are not scored.

// LogRankResult is the outcome of LogRankAccuracy.
type LogRankResult struct {
	// Docs[d] is document d's score in [0, 1]: its sum of log K − log r
	// over its themes divided by the best possible sum. NaN for documents
	// without themes.
	Docs []float64
	// Score is Sum/Max in [0, 1] (×100: the thesis' percentage).
	Score float64
	// Sum is the sum of log K − log r over labeled documents and their
	// themes (the thesis' prediction_score and the genetic algorithm's
	// objective); Max is the best achievable value of Sum.
	Sum, Max float64
	// Labeled counts the scored documents.
	Labeled int
}

// LogRankAccuracy computes the thesis' log rank accuracy of a
// document-topic matrix W (documents × k topics, finite) against document
// themes: themes[d] lists document d's theme indices in [0, numThemes), nil
// for unlabeled documents. themeToTopic[j] is the topic that stands for
// theme j (distinct topics); nil means the identity, topic j for theme j, as
// for a supervised model whose topics are the themes. numThemes must be at
// least 2 (with one theme every ranking is perfect and the score 0/0) and at
// most k. See the comment above for ties and for k > numThemes.
func LogRankAccuracy(W *mat.Dense, themes [][]int, numThemes int, themeToTopic []int) (*LogRankResult, error) {
	rk, err := newRanker(W, themes, numThemes)
	if err != nil {
		return nil, err
	}
	mapping, err := rk.checkMapping(themeToTopic)
	if err != nil {
		return nil, err
	}
	res := &LogRankResult{Docs: make([]float64, rk.docs)}
	raw := make([]float64, rk.docs)
	parallel.For(rk.docs, 64, func(lo, hi int) {
		ranks := make([]int32, rk.k)
		order := make([]int, rk.k)
		for d := lo; d < hi; d++ {
			if len(themes[d]) == 0 {
				continue
			}
			rk.ranks(d, ranks, order)
			for _, j := range themes[d] {
				raw[d] += rk.gain[ranks[mapping[j]]]
			}
		}
	})
	// Sum in document order, independent of the number of cores.
	for d, set := range themes {
		if len(set) == 0 {
			res.Docs[d] = math.NaN()
			continue
		}
		res.Docs[d] = raw[d] / rk.best[len(set)]
		res.Labeled++
		res.Sum += raw[d]
		res.Max += rk.best[len(set)]
	}
	if res.Labeled == 0 {
		return nil, errors.New("metrics: no document has a theme")
	}
	res.Score = res.Sum / res.Max
	return res, nil
}

// ThemeTopicScores returns the numThemes × k matrix S whose entry [j][t] is
// the log rank score theme j would collect if topic t stood for it: the sum
// over documents with theme j of log K − log rank_d(t) (0 below rank K).
// The log rank accuracy of any mapping m is then Σ_j S[j][m[j]] / Max,
// which is why the best mapping is a linear assignment problem
// (MapThemesExact). The arguments are those of LogRankAccuracy.
func ThemeTopicScores(W *mat.Dense, themes [][]int, numThemes int) (*mat.Dense, error) {
	S, _, err := themeScores(W, themes, numThemes)
	return S, err
}

// themeScores validates the inputs and returns ThemeTopicScores and the
// best achievable sum.
func themeScores(W *mat.Dense, themes [][]int, numThemes int) (*mat.Dense, float64, error) {
	rk, err := newRanker(W, themes, numThemes)
	if err != nil {
		return nil, 0, err
	}
	return rk.scores()
}

// ThemeMapping is a topic for each theme and its log rank objective.
type ThemeMapping struct {
	// ThemeToTopic[j] is the topic standing for theme j.
	ThemeToTopic []int
	// Objective is the sum of log K − log r over labeled documents and
	// their themes under this mapping (LogRankResult.Sum); Score is
	// Objective / Max (LogRankResult.Score).
	Objective, Score float64
}

// MapThemesExact returns the mapping of themes to distinct topics that
// maximizes the log rank accuracy on the labeled documents, exactly: the
// score decomposes into Σ_j S[j][m[j]] with S from ThemeTopicScores, so the
// best mapping is the maximum-weight assignment of the numThemes × k matrix
// S (Assign). Ties between equally good mappings are broken as Assign
// breaks them.
func MapThemesExact(W *mat.Dense, themes [][]int, numThemes int) (*ThemeMapping, error) {
	S, maxSum, err := themeScores(W, themes, numThemes)
	if err != nil {
		return nil, err
	}
	mapping, total, err := Assign(S, true)
	if err != nil {
		return nil, err
	}
	return &ThemeMapping{ThemeToTopic: mapping, Objective: total, Score: total / maxSum}, nil
}

// GAOptions configures MapThemesGA. Use DefaultGAOptions and change fields,
// or pass nil for the defaults.
type GAOptions struct {
	// Population is the number of individuals (≥ 2).
	Population int
	// Generations is the number of generations (≥ 0).
	Generations int
	// Crossover and Mutation are the probabilities, in [0, 1], that a
	// child is made by crossover (otherwise it copies one parent, chosen
	// by a fair coin; the reference reuses the crossover draw for that
	// choice, which favours the second parent) and that it is then
	// mutated.
	Crossover, Mutation float64
	// RandomInit starts from distinct random permutations instead of the
	// greedy construction.
	RandomInit bool
	// Seed seeds the PCG generator behind every random choice.
	Seed uint64
}

// DefaultGAOptions returns the reference code's settings: population 3,
// crossover and mutation probability 1 (run_ga's defaults in
// libs/genetic_algorithm.py), 100 generations (stopGeneration=100 in
// TSNMF.ipynb and TSNMF_Class_Generator.ipynb), and seed 1, with the greedy
// initial population the thesis describes (§7.3.2, initialization_greedy).
// run_ga itself defaults to random initialization (greedyInit=False) and the
// notebooks do not change that; set RandomInit for that behaviour, which
// ends much further from the optimum (see the package tests).
func DefaultGAOptions() GAOptions {
	return GAOptions{Population: 3, Generations: 100, Crossover: 1, Mutation: 1, Seed: 1}
}

// GAResult is the outcome of MapThemesGA.
type GAResult struct {
	ThemeMapping
	// Best[g] is the best objective in the population after generation g
	// (Best[0]: the initial population).
	Best []float64
}

// MapThemesGA searches the mapping of themes to topics that maximizes the
// log rank accuracy on the labeled documents with the thesis' genetic
// algorithm (§7.3.2; libs/genetic_algorithm.py, run_ga), for unsupervised
// models whose topics carry no theme. An individual is a permutation of the
// k topics whose first numThemes positions are the themes' topics (with
// k = numThemes, exactly the reference's encoding; with k > numThemes the
// tail holds the unused topics, which crossover and mutation can bring in):
//
//   - initial population: for each individual, the themes in random order
//     each take the unused topic with the highest score for that theme
//     (strictly positive; otherwise a random unused topic)
//     — initialization_greedy; or distinct random permutations with
//     RandomInit;
//   - selection: the population sorted by objective (ties by index), the
//     k-th worst chosen with probability 2k/(M(M+1)), two parents drawn
//     with replacement per child;
//   - crossover: two-point order crossover (two distinct cut points in
//     1..n-1; the child keeps the first parent outside [a, b) and fills
//     [a, b) with the second parent's missing genes in that parent's
//     order);
//   - mutation: shift mutation (the gene at the later of two distinct
//     positions moves to the earlier one, the ones between shift right);
//   - elitism: the previous population's best replaces a random child.
//
// The objective of a mapping m is Σ_j S[j][m[j]] with S from
// ThemeTopicScores, computed once, which gives the same values as the
// reference's calculateObj without ranking every document for every
// individual. The answer never beats MapThemesExact; the result reports how
// close it came. ctx is checked every generation.
func MapThemesGA(ctx context.Context, W *mat.Dense, themes [][]int, numThemes int, opts *GAOptions) (*GAResult, error) {
	o := DefaultGAOptions()
	if opts != nil {
		o = *opts
	}
	if o.Population < 2 || o.Generations < 0 || !(o.Crossover >= 0 && o.Crossover <= 1) || !(o.Mutation >= 0 && o.Mutation <= 1) {
		return nil, fmt.Errorf("metrics: GA options %+v: want population ≥ 2, generations ≥ 0 and probabilities in [0, 1]", o)
	}
	S, maxSum, err := themeScores(W, themes, numThemes)
	if err != nil {
		return nil, err
	}
	_, k := S.Dims()
	ga := &geneticMapper{
		K:    numThemes,
		n:    k,
		S:    S,
		rng:  rng.NewCompat(o.Seed, 0x5eed7e3e),
		opts: o,
	}
	pop := ga.initial()
	obj := ga.evaluate(pop)
	res := &GAResult{Best: []float64{slices.Max(obj)}}
	for g := 0; g < o.Generations; g++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("metrics: genetic algorithm stopped at generation %d: %w", g, err)
		}
		pop, obj = ga.generation(pop, obj)
		res.Best = append(res.Best, slices.Max(obj))
	}
	best := 0
	for i := range obj {
		if obj[i] > obj[best] {
			best = i
		}
	}
	res.ThemeToTopic = slices.Clone(pop[best][:numThemes])
	res.Objective = obj[best]
	res.Score = obj[best] / maxSum
	return res, nil
}

// geneticMapper holds the state of one MapThemesGA run.
type geneticMapper struct {
	K, n int // themes; genes (topics)
	S    *mat.Dense
	rng  gaRand
	opts GAOptions
}

// gaRand is what the genetic algorithm draws from: an *rng.Compat in
// MapThemesGA (a test gives it a *rand.Rand, which has the same methods
// and streams).
type gaRand interface {
	Float64() float64
	IntN(n int) int
	Perm(n int) []int
}

func (ga *geneticMapper) objective(ind []int) float64 {
	var s float64
	for j := 0; j < ga.K; j++ {
		s += ga.S.At(j, ind[j])
	}
	return s
}

func (ga *geneticMapper) evaluate(pop [][]int) []float64 {
	obj := make([]float64, len(pop))
	for i, ind := range pop {
		obj[i] = ga.objective(ind)
	}
	return obj
}

// initial builds the first population.
func (ga *geneticMapper) initial() [][]int {
	pop := make([][]int, 0, ga.opts.Population)
	if ga.opts.RandomInit {
		// Distinct permutations, as the reference's initialization, with
		// a bound on retries for tiny problems that have fewer
		// permutations than individuals.
		for len(pop) < ga.opts.Population {
			var p []int
			for try := 0; try < 100; try++ {
				p = ga.rng.Perm(ga.n)
				if !slices.ContainsFunc(pop, func(q []int) bool { return slices.Equal(p, q) }) {
					break
				}
			}
			pop = append(pop, p)
		}
		return pop
	}
	for len(pop) < ga.opts.Population {
		ind := make([]int, ga.n)
		used := make([]bool, ga.n)
		for _, j := range ga.rng.Perm(ga.K) {
			best, bestObj := -1, 0.0
			for t := 0; t < ga.n; t++ {
				if !used[t] && ga.S.At(j, t) > bestObj {
					best, bestObj = t, ga.S.At(j, t)
				}
			}
			if best < 0 {
				var free []int
				for t := 0; t < ga.n; t++ {
					if !used[t] {
						free = append(free, t)
					}
				}
				best = free[ga.rng.IntN(len(free))]
			}
			used[best] = true
			ind[j] = best
		}
		// The unused topics fill the tail in random order.
		var rest []int
		for t := 0; t < ga.n; t++ {
			if !used[t] {
				rest = append(rest, t)
			}
		}
		for i, p := range ga.rng.Perm(len(rest)) {
			ind[ga.K+i] = rest[p]
		}
		pop = append(pop, ind)
	}
	return pop
}

// generation produces the next population from pop and its objectives.
func (ga *geneticMapper) generation(pop [][]int, obj []float64) ([][]int, []float64) {
	M := len(pop)
	// Rank selection over the population sorted by objective, ties by
	// index: the k-th worst (k = 1..M) has probability 2k/(M(M+1)).
	order := make([]int, M)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return obj[order[a]] < obj[order[b]] })
	cum := make([]float64, M)
	var acc float64
	for k := range order {
		acc += float64(2*(k+1)) / float64(M*(M+1))
		cum[k] = acc
	}
	pick := func() []int {
		u := ga.rng.Float64() * acc
		k := sort.Search(M, func(k int) bool { return cum[k] > u })
		return pop[order[min(k, M-1)]]
	}
	children := make([][]int, M)
	for c := range children {
		p0, p1 := pick(), pick()
		if ga.rng.Float64() < ga.opts.Crossover {
			children[c] = ga.crossover(p0, p1)
		} else if ga.rng.IntN(2) == 0 {
			children[c] = slices.Clone(p0)
		} else {
			children[c] = slices.Clone(p1)
		}
		if ga.rng.Float64() < ga.opts.Mutation {
			ga.mutate(children[c])
		}
	}
	// Elitism: the previous best replaces a random child.
	best := 0
	for i := range obj {
		if obj[i] > obj[best] {
			best = i
		}
	}
	children[ga.rng.IntN(M)] = slices.Clone(pop[best])
	return children, ga.evaluate(children)
}

// crossover is the two-point order crossover of the reference with random
// cut points.
func (ga *geneticMapper) crossover(p0, p1 []int) []int {
	n := len(p0)
	if n < 3 { // no two distinct cut points in 1..n-1
		return slices.Clone(p0)
	}
	a := 1 + ga.rng.IntN(n-1)
	b := 1 + ga.rng.IntN(n-2)
	if b >= a {
		b++
	}
	return orderCrossover(p0, p1, min(a, b), max(a, b))
}

// orderCrossover returns p0 with positions [a, b) refilled by the genes
// missing from the rest, in the order they appear in p1.
func orderCrossover(p0, p1 []int, a, b int) []int {
	child := slices.Clone(p0)
	in := make([]bool, len(p0))
	for i := range child {
		if i < a || i >= b {
			in[child[i]] = true
		}
	}
	src := 0
	for i := a; i < b; i++ {
		for in[p1[src]] {
			src++
		}
		child[i] = p1[src]
		in[p1[src]] = true
	}
	return child
}

// mutate applies the reference's shift mutation in place at two random
// distinct positions.
func (ga *geneticMapper) mutate(ind []int) {
	n := len(ind)
	if n < 2 {
		return
	}
	a := ga.rng.IntN(n)
	b := ga.rng.IntN(n - 1)
	if b >= a {
		b++
	}
	shift(ind, min(a, b), max(a, b))
}

// shift moves the gene at position b to position a < b, shifting the genes
// in between one place right.
func shift(ind []int, a, b int) {
	g := ind[b]
	copy(ind[a+1:b+1], ind[a:b])
	ind[a] = g
}

// ranker holds the validated inputs shared by the log rank functions and
// the gains log K − log r.
type ranker struct {
	W      *mat.Dense
	themes [][]int
	K, k   int
	docs   int
	gain   []float64 // gain[r] = max(0, log K − log r), r = 1..k
	best   []float64 // best[m] = Σ_{r=1..m} gain[r]
}

func newRanker(W *mat.Dense, themes [][]int, numThemes int) (*ranker, error) {
	if W == nil || W.IsEmpty() {
		return nil, errors.New("metrics: empty document-topic matrix")
	}
	docs, k := W.Dims()
	if len(themes) != docs {
		return nil, fmt.Errorf("metrics: %d theme lists for %d documents (rows of W)", len(themes), docs)
	}
	if numThemes < 2 {
		return nil, fmt.Errorf("metrics: log rank accuracy needs at least 2 themes, got %d", numThemes)
	}
	if numThemes > k {
		return nil, fmt.Errorf("metrics: %d themes but only %d topics: each theme needs its own topic", numThemes, k)
	}
	for d, set := range themes {
		if err := checkSet(set, numThemes, d, "theme "); err != nil {
			return nil, err
		}
	}
	for i := 0; i < docs; i++ {
		for j := 0; j < k; j++ {
			if v := W.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("metrics: W[%d][%d] = %v", i, j, v)
			}
		}
	}
	rk := &ranker{W: W, themes: themes, K: numThemes, k: k, docs: docs,
		gain: make([]float64, k+1), best: make([]float64, numThemes+1)}
	logK := math.Log(float64(numThemes))
	for r := 1; r <= numThemes; r++ {
		rk.gain[r] = logK - math.Log(float64(r))
		rk.best[r] = rk.best[r-1] + rk.gain[r]
	}
	return rk, nil
}

// checkMapping validates themeToTopic, or returns the identity for nil.
func (rk *ranker) checkMapping(m []int) ([]int, error) {
	if m == nil {
		m = make([]int, rk.K)
		for j := range m {
			m[j] = j
		}
		return m, nil
	}
	if len(m) != rk.K {
		return nil, fmt.Errorf("metrics: mapping has %d entries for %d themes", len(m), rk.K)
	}
	used := make([]bool, rk.k)
	for j, t := range m {
		if t < 0 || t >= rk.k {
			return nil, fmt.Errorf("metrics: theme %d mapped to topic %d, out of range 0..%d", j, t, rk.k-1)
		}
		if used[t] {
			return nil, fmt.Errorf("metrics: topic %d stands for two themes", t)
		}
		used[t] = true
	}
	return m, nil
}

// ranks fills ranks[t] with document d's pessimistic rank of topic t: the
// number of topics whose weight is at least W[d][t]. order is scratch.
func (rk *ranker) ranks(d int, ranks []int32, order []int) {
	row := rk.W.RawRowView(d)
	for t := range order {
		order[t] = t
	}
	sort.Slice(order, func(a, b int) bool { return row[order[a]] > row[order[b]] })
	for lo := 0; lo < len(order); {
		hi := lo + 1
		for hi < len(order) && row[order[hi]] == row[order[lo]] {
			hi++
		}
		for _, t := range order[lo:hi] {
			ranks[t] = int32(hi)
		}
		lo = hi
	}
}

// scores computes ThemeTopicScores and the best achievable sum. Document
// ranks are computed in parallel; the sums run in document order, so the
// result does not depend on the number of cores.
func (rk *ranker) scores() (*mat.Dense, float64, error) {
	allRanks := make([]int32, rk.docs*rk.k)
	parallel.For(rk.docs, 64, func(lo, hi int) {
		order := make([]int, rk.k)
		for d := lo; d < hi; d++ {
			if len(rk.themes[d]) > 0 {
				rk.ranks(d, allRanks[d*rk.k:(d+1)*rk.k], order)
			}
		}
	})
	S := mat.NewDense(rk.K, rk.k, nil)
	var maxSum float64
	labeled := 0
	for d, set := range rk.themes {
		if len(set) == 0 {
			continue
		}
		labeled++
		maxSum += rk.best[len(set)]
		ranks := allRanks[d*rk.k : (d+1)*rk.k]
		for _, j := range set {
			row := S.RawRowView(j)
			for t, r := range ranks {
				row[t] += rk.gain[r]
			}
		}
	}
	if labeled == 0 {
		return nil, 0, errors.New("metrics: no document has a theme")
	}
	return S, maxSum, nil
}
