package corex

import (
	"fmt"
	"math"
)

// AnchorWord is one anchored or excluded (topic, term) pair of a fit.
type AnchorWord struct {
	// Topic is the anchored topic and Index the term's column.
	Topic, Index int
	// Word is the term's word in Config.Vocab ("" without a vocabulary).
	Word string
	// Strength is the anchor strength β of the pair; 0 for an exclusion
	// (Config.Seeds.Exclude: the word's α for the topic is kept at zero).
	Strength float64
}

// anchorRef is an anchored topic of one word and its strength.
type anchorRef struct {
	topic    int
	strength float64
}

// resolveAnchors returns the fit's anchored pairs — the seed terms of
// c.Seeds in order, each with its strength (c.Beta for 0), then the
// exclusions with strength 0 — after checking them against the topics
// and the terms (supervision.Terms.Check).
func resolveAnchors(c Config, terms int) ([]AnchorWord, error) {
	if err := c.Seeds.Check(c.K, terms); err != nil {
		return nil, fmt.Errorf("corex: Seeds: %w", err)
	}
	word := func(j int) string {
		if c.Vocab == nil {
			return ""
		}
		return c.Vocab[j]
	}
	var pairs []AnchorWord
	for _, sd := range c.Seeds.Seeds {
		s := c.Beta
		if sd.Strength != 0 {
			s = sd.Strength
		}
		if !(s > 0) || math.IsInf(s, 0) {
			return nil, fmt.Errorf("corex: anchor of topic %d, term %d: strength %v, want a finite value > 0", sd.Topic, sd.Term, s)
		}
		pairs = append(pairs, AnchorWord{Topic: sd.Topic, Index: sd.Term, Word: word(sd.Term), Strength: s})
	}
	for _, e := range c.Seeds.Exclude {
		pairs = append(pairs, AnchorWord{Topic: e.Topic, Index: e.Term, Word: word(e.Term)})
	}
	return pairs, nil
}

// anchorTable returns, for each word, its anchored topics (nil for a word
// that is not an anchor), and for each topic its anchor columns.
func anchorTable(pairs []AnchorWord, terms, k int) (byWord [][]anchorRef, byTopic [][]int) {
	if len(pairs) == 0 {
		return nil, nil
	}
	byWord = make([][]anchorRef, terms)
	byTopic = make([][]int, k)
	for _, p := range pairs {
		byWord[p.Index] = append(byWord[p.Index], anchorRef{p.Topic, p.Strength})
		if p.Strength > 0 { // an exclusion steers no document
			byTopic[p.Topic] = append(byTopic[p.Topic], p.Index)
		}
	}
	return byWord, byTopic
}
