package nmf

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/supervision"
)

// seedHold holds seed terms among their topics' heaviest terms
// (Config.SeedRank): after each update of H, a seed term whose weight is
// not above its topic's (rank − s)-th largest weight among the topic's
// other terms (s the topic's seed terms, counted up to rank − 1) is
// raised just above it. The update is a projection, as exclusions are
// held at zero: the seed terms then rank within the topic's first rank
// terms, whatever their share of the data.
type seedHold struct {
	rank   int
	topics []int     // the seeded topics
	terms  [][]int   // each seeded topic's seed terms, sorted
	row    []float64 // scratch: one topic's weights
}

// holdSeeds sets cfg's hold of its seed terms when SeedRank asks for one
// (before the seeds become pseudo-documents), and returns its note ("" for
// none).
func holdSeeds(cfg *Config) string {
	if cfg.hold = newSeedHold(cfg.SeedRank, cfg.Seeds.Seeds); cfg.hold == nil {
		return ""
	}
	return fmt.Sprintf("seed terms held among their topics' %d heaviest terms (SeedRank)", cfg.SeedRank)
}

// newSeedHold returns the hold of seeds at rank, nil when rank is 0 or
// there are no seeds.
func newSeedHold(rank int, seeds []supervision.Seed) *seedHold {
	if rank <= 0 || len(seeds) == 0 {
		return nil
	}
	byTopic := map[int][]int{}
	for _, s := range seeds {
		if !slices.Contains(byTopic[s.Topic], s.Term) {
			byTopic[s.Topic] = append(byTopic[s.Topic], s.Term)
		}
	}
	h := &seedHold{rank: rank}
	for _, t := range slices.Sorted(maps.Keys(byTopic)) {
		terms := byTopic[t]
		slices.Sort(terms)
		h.topics = append(h.topics, t)
		h.terms = append(h.terms, terms)
	}
	return h
}

// apply holds the seed terms in h, where topic t's weight of term j is
// h[j*js+t*ts] for the m terms, and reports whether it changed h.
func (s *seedHold) apply(h []float64, m, ts, js int) bool {
	if s == nil {
		return false
	}
	changed := false
	for p, t := range s.topics {
		seeds := s.terms[p]
		q := s.rank - min(len(seeds), s.rank-1)
		// The q-th largest weight among the topic's other terms (the
		// seeds' set to 0, which TopIndices leaves out).
		s.row = slices.Grow(s.row[:0], m)[:m]
		for j := range m {
			s.row[j] = h[j*js+t*ts]
		}
		for _, j := range seeds {
			s.row[j] = 0
		}
		top := metrics.TopIndices(s.row, q)
		if len(top) < q {
			continue // fewer than q other terms of weight: the seeds rank anyway
		}
		floor := math.Nextafter(s.row[top[q-1]], math.Inf(1))
		for _, j := range seeds {
			if i := j*js + t*ts; h[i] < floor {
				h[i] = floor
				changed = true
			}
		}
	}
	return changed
}

// check validates the hold against k topics and m terms.
func (s *seedHold) check(k, m int) error {
	if s == nil {
		return nil
	}
	for p, t := range s.topics {
		if t < 0 || t >= k {
			return fmt.Errorf("nmf: SeedRank: a seed of topic %d, with K = %d", t, k)
		}
		for _, j := range s.terms[p] {
			if j < 0 || j >= m {
				return fmt.Errorf("nmf: SeedRank: seed term %d of %d terms", j, m)
			}
		}
	}
	return nil
}
