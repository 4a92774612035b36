package lda

import (
	"fmt"
	"math"
	"slices"

	"github.com/semitopic/semitopic/sparse"
)

// prior is an entry of the topic-word prior above η: η_tw = η + v at
// position i = term·k + topic of λ.
type prior struct {
	i int
	v float64
}

// checkSupervision validates the supervision fields of a resolved config
// whose number of topics is known (the seeds and exclusions, whose terms
// the model knows, are checked by initSupervision).
func (o *Config) checkSupervision() error {
	k := o.K
	if math.IsNaN(o.SeedPrior) || math.IsInf(o.SeedPrior, 0) {
		return fmt.Errorf("lda: SeedPrior = %v, want a finite number", o.SeedPrior)
	}
	if o.SeedCounts != nil {
		if len(o.SeedCounts) != len(o.Seeds.Seeds) {
			return fmt.Errorf("lda: %d SeedCounts for %d seed terms", len(o.SeedCounts), len(o.Seeds.Seeds))
		}
		for i, c := range o.SeedCounts {
			if !(c >= 0) || math.IsInf(c, 0) {
				s := o.Seeds.Seeds[i]
				return fmt.Errorf("lda: seed %d (topic %d, term %d): count %v, want a finite number ≥ 0", i, s.Topic, s.Term, c)
			}
		}
	}
	if o.ZLabels && len(o.Seeds.Seeds) == 0 {
		return fmt.Errorf("lda: ZLabels restricts the seed terms to their topics, but there are no seed terms (Seeds.Seeds)")
	}
	for d, ts := range o.DocTopics {
		for _, t := range ts {
			if t < 0 || t >= k {
				return fmt.Errorf("lda: DocTopics of document %d: topic %d, want one in [0, %d)", d, t, k)
			}
		}
	}
	return nil
}

// initSupervision checks the seed terms and exclusions against the
// model's topics and terms and sets the model's restriction (z-labels
// and exclusions) and, when the corpus size is already known, its seed
// prior.
func (m *Model) initSupervision() error {
	o := &m.opts
	k := m.k
	if err := o.Seeds.Check(k, m.terms); err != nil {
		return fmt.Errorf("lda: Seeds: %w", err)
	}
	seeded := map[int]bool{} // term·k + topic of each seed term
	for _, s := range o.Seeds.Seeds {
		seeded[s.Term*k+s.Topic] = true
	}
	forbid := map[int]bool{}
	for _, e := range o.Seeds.Exclude {
		forbid[e.Term*k+e.Topic] = true
	}
	if o.ZLabels {
		for _, s := range o.Seeds.Seeds {
			for t := 0; t < k; t++ {
				if !seeded[s.Term*k+t] {
					forbid[s.Term*k+t] = true
				}
			}
		}
	}
	m.forbid = m.forbid[:0]
	for i := range forbid {
		m.forbid = append(m.forbid, i)
	}
	slices.Sort(m.forbid)
	// A term forbidden in every topic could not be generated at all.
	for p := 0; p+k <= len(m.forbid); p++ {
		if i := m.forbid[p]; i%k == 0 && m.forbid[p+k-1] == i+k-1 {
			return fmt.Errorf("lda: term %d is excluded from every topic", i/k)
		}
	}
	if o.seedCounted() {
		m.resolvePrior()
	}
	return nil
}

// seedCounted reports whether the seed terms' counts are known: any is
// positive.
func (o *Config) seedCounted() bool {
	for _, c := range o.SeedCounts {
		if c > 0 {
			return true
		}
	}
	return false
}

// needsCounts reports whether the seed prior waits for the seed words'
// counts.
func (m *Model) needsCounts() bool {
	return len(m.opts.Seeds.Seeds) > 0 && m.opts.SeedPrior >= 0 && m.extra == nil
}

// seedCounts adds into acc, one entry per seed word, the word's counts in
// rows [lo, hi) of x, document after document.
func (m *Model) seedCounts(acc []float64, x *sparse.CSR, lo, hi int) {
	seeds := m.opts.Seeds.Seeds
	at := map[int32][]int{}
	for i, s := range seeds {
		at[int32(s.Term)] = append(at[int32(s.Term)], i)
	}
	for d := lo; d < hi; d++ {
		for p := x.Indptr[d]; p < x.Indptr[d+1]; p++ {
			for _, i := range at[x.Indices[p]] {
				acc[i] += x.Data[p]
			}
		}
	}
}

// setCounts records the seed terms' counts (one per seed term, each
// multiplied by scale), then sets the seed prior and adds it to λ.
func (m *Model) setCounts(counts []float64, scale float64) {
	m.opts.SeedCounts = make([]float64, len(counts))
	for i, c := range counts {
		m.opts.SeedCounts[i] = c * scale
	}
	m.resolvePrior()
	m.seedLambda()
}

// resolvePrior sets the seed prior from the seed terms' counts: seed term
// w of topic t adds SeedPrior · Strength · count / (the number of topics
// w seeds) to η_tw. It does nothing without seed terms or with a negative
// SeedPrior.
func (m *Model) resolvePrior() {
	o := &m.opts
	if len(o.Seeds.Seeds) == 0 || o.SeedPrior < 0 || m.extra != nil {
		return
	}
	k := m.k
	topics := map[int]int{} // seed term -> number of topics it seeds
	for _, s := range o.Seeds.Seeds {
		topics[s.Term]++
	}
	byIndex := map[int]float64{}
	for i, s := range o.Seeds.Seeds {
		w := s.Strength
		if w == 0 {
			w = 1
		}
		byIndex[s.Term*k+s.Topic] += o.SeedPrior * w * o.SeedCounts[i] / float64(topics[s.Term])
	}
	m.extra = make([]prior, 0, len(byIndex))
	m.extraSum = make([]float64, k)
	for i, v := range byIndex {
		if v > 0 {
			m.extra = append(m.extra, prior{i, v})
		}
	}
	slices.SortFunc(m.extra, func(a, b prior) int { return a.i - b.i })
	for _, p := range m.extra {
		m.extraSum[p.i%k] += p.v
	}
}

// seedLambda adds the seed prior to λ, which starts the fit from it (the
// first E-step already prefers each seed word's topics, as GuidedLDA
// starts its sampler from seeded assignments), and recomputes
// exp(E[log β]).
func (m *Model) seedLambda() {
	for _, p := range m.extra {
		m.lambda[p.i] += p.v
	}
	m.updateExpElogBeta()
}

// applyPrior ends an M-step: it adds the seed prior to λ (all of it in a
// batch step, ρ of it in an online step of rate rho, as the online update
// mixes the prior in) and sets the forbidden entries to η exactly.
func (m *Model) applyPrior(batch bool, rho float64) {
	lam := m.lambda
	for _, p := range m.extra {
		if batch {
			lam[p.i] += p.v
		} else {
			lam[p.i] += rho * p.v
		}
	}
	for _, i := range m.forbid {
		lam[i] = m.eta
	}
}

// TopicPrior returns each topic's prior mass Σ_w η_tw: V·η plus the
// topic's seed prior (see Config.SeedPrior).
func (m *Model) TopicPrior() []float64 {
	out := make([]float64, m.k)
	for t := range out {
		out[t] = float64(m.terms) * m.eta
		if m.extraSum != nil {
			out[t] += m.extraSum[t]
		}
	}
	return out
}

// Forbidden reports whether the model's φ of term j in topic t is zero:
// j is a z-labels seed word of other topics only, or excluded from t.
func (m *Model) Forbidden(t, j int) bool {
	_, ok := slices.BinarySearch(m.forbid, j*m.k+t)
	return ok
}

// labeled reports whether any training document has labels
// (Config.DocTopics).
func (o *Config) labeled() bool {
	for _, ts := range o.DocTopics {
		if len(ts) > 0 {
			return true
		}
	}
	return false
}

// labelCounts adds into S (terms × k) the words of the labeled documents
// among rows [lo, hi) of x, whose row 0 is document doc0 of the corpus:
// each count of word j in a document is shared equally among the
// document's topics (Config.DocTopics, each counted once) that may use j,
// as a first E-step whose φ is uniform over those topics would share it;
// a word that none of them may use adds nothing. Documents are added in
// row order, so that out of core, adding a block's rows into the sum of
// the blocks before it runs exactly the additions over the whole matrix.
func (m *Model) labelCounts(S []float64, x *sparse.CSR, doc0, lo, hi int) {
	k, labels := m.k, m.opts.DocTopics
	in := make([]bool, k)
	var topics, use []int
	for d := lo; d < hi; d++ {
		if doc0+d >= len(labels) || len(labels[doc0+d]) == 0 {
			continue
		}
		topics = topics[:0]
		for _, t := range labels[doc0+d] {
			if !in[t] {
				in[t] = true
				topics = append(topics, t)
			}
		}
		for _, t := range topics {
			in[t] = false
		}
		for p := x.Indptr[d]; p < x.Indptr[d+1]; p++ {
			j := int(x.Indices[p])
			use = use[:0]
			for _, t := range topics {
				if len(m.forbid) == 0 || !m.Forbidden(t, j) {
					use = append(use, t)
				}
			}
			if len(use) == 0 {
				continue
			}
			c := x.Data[p] / float64(len(use))
			for _, t := range use {
				S[j*k+t] += c
			}
		}
	}
}

// startLabels adds the labeled documents' words S (labelCounts over the
// whole corpus) to λ, which starts each labeled topic from its documents
// (see Config.DocTopics), and recomputes exp(E[log β]).
func (m *Model) startLabels(S []float64) {
	for i, v := range S {
		m.lambda[i] += v
	}
	m.updateExpElogBeta()
}
