package supervision

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Seed ties a term to a topic: the topic should use the term.
type Seed struct {
	// Topic is the seeded topic and Term the term's column.
	Topic, Term int
	// Strength scales how hard the term pulls the topic, on the scale of
	// the algorithm that reads it; 0 means that algorithm's default.
	Strength float64
}

// Exclusion keeps a term out of a topic: the topic's weight for the term
// is exactly zero.
type Exclusion struct {
	// Topic is the topic and Term the column it may not use.
	Topic, Term int
}

// Terms is the guidance of a fit by terms: seed terms and exclusions. The
// zero value guides nothing.
type Terms struct {
	Seeds   []Seed
	Exclude []Exclusion
}

// Empty reports whether s holds neither seeds nor exclusions.
func (s Terms) Empty() bool { return len(s.Seeds) == 0 && len(s.Exclude) == 0 }

// Check validates s for k topics over m terms: every topic in [0, k),
// every term in [0, m), every strength a finite number ≥ 0, no (topic,
// term) pair seeded twice or excluded twice, and none both seeded and
// excluded. The error names the seed or exclusion at fault, its topic and
// its term, and carries no package prefix.
func (s Terms) Check(k, m int) error {
	where := func(what string, i, t, j int) error {
		switch {
		case t < 0 || t >= k:
			return fmt.Errorf("%s %d (topic %d, term %d): topic out of range [0, %d)", what, i, t, j, k)
		case j < 0 || j >= m:
			return fmt.Errorf("%s %d (topic %d, term %d): term out of range [0, %d)", what, i, t, j, m)
		}
		return nil
	}
	seeded := make(map[[2]int]int, len(s.Seeds))
	for i, sd := range s.Seeds {
		if err := where("seed", i, sd.Topic, sd.Term); err != nil {
			return err
		}
		if v := sd.Strength; math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return fmt.Errorf("seed %d (topic %d, term %d): strength %v, want a finite number ≥ 0 (0 for the default)", i, sd.Topic, sd.Term, v)
		}
		key := [2]int{sd.Topic, sd.Term}
		if p, dup := seeded[key]; dup {
			return fmt.Errorf("seed %d (topic %d, term %d): the pair is seed %d too", i, sd.Topic, sd.Term, p)
		}
		seeded[key] = i
	}
	excluded := make(map[[2]int]int, len(s.Exclude))
	for i, e := range s.Exclude {
		if err := where("exclusion", i, e.Topic, e.Term); err != nil {
			return err
		}
		key := [2]int{e.Topic, e.Term}
		if p, dup := excluded[key]; dup {
			return fmt.Errorf("exclusion %d (topic %d, term %d): the pair is exclusion %d too", i, e.Topic, e.Term, p)
		}
		if p, both := seeded[key]; both {
			return fmt.Errorf("exclusion %d (topic %d, term %d): the term is seed %d of the same topic", i, e.Topic, e.Term, p)
		}
		excluded[key] = i
	}
	return nil
}

// SeededTopics returns the topics that have a seed term, each once, in
// the order of their first seed.
func (s Terms) SeededTopics() []int {
	var out []int
	seen := map[int]bool{}
	for _, sd := range s.Seeds {
		if !seen[sd.Topic] {
			seen[sd.Topic] = true
			out = append(out, sd.Topic)
		}
	}
	return out
}

// Mask returns the exclusions as a k × m 0/1 mask of the topics' terms: 0
// where a topic may not use a term, 1 elsewhere; nil when s excludes
// nothing. The exclusions must be valid for k and m (Check).
func (s Terms) Mask(k, m int) *mat.Dense {
	if len(s.Exclude) == 0 {
		return nil
	}
	raw := make([]float64, k*m)
	for i := range raw {
		raw[i] = 1
	}
	for _, e := range s.Exclude {
		raw[e.Topic*m+e.Term] = 0
	}
	return mat.NewDense(k, m, raw)
}
