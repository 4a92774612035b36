package corex

import (
	"fmt"
	"math"
)

// AnchorWord is one anchored (topic, word) pair after vocabulary look-up.
type AnchorWord struct {
	// Topic is the anchored topic and Index the word's column.
	Topic, Index int
	// Word is the anchor word.
	Word string
	// Strength is the anchor strength β of the pair.
	Strength float64
}

// anchorRef is an anchored topic of one word and its strength.
type anchorRef struct {
	topic    int
	strength float64
}

// resolveAnchors looks the anchor words up in the vocabulary. A word
// missing from it is skipped with a warning; a repeated (topic, word) pair
// keeps its first strength, with a warning. Invalid topics or strengths are
// errors.
func resolveAnchors(c Config) (pairs []AnchorWord, warnings []string, err error) {
	if len(c.Anchors) == 0 {
		return nil, nil, nil
	}
	if c.Vocab == nil {
		return nil, nil, fmt.Errorf("corex: anchors need Config.Vocab to look their words up")
	}
	index := make(map[string]int, len(c.Vocab))
	for i := len(c.Vocab) - 1; i >= 0; i-- { // first occurrence wins
		index[c.Vocab[i]] = i
	}
	seen := map[[2]int]bool{}
	for a, an := range c.Anchors {
		if an.Topic < 0 || an.Topic >= c.K {
			return nil, nil, fmt.Errorf("corex: anchor %d: topic %d out of range [0,%d)", a, an.Topic, c.K)
		}
		if an.Strengths != nil && len(an.Strengths) != len(an.Words) {
			return nil, nil, fmt.Errorf("corex: anchor %d (topic %d): %d strengths for %d words", a, an.Topic, len(an.Strengths), len(an.Words))
		}
		for w, word := range an.Words {
			s := c.Beta
			if an.Strengths != nil && an.Strengths[w] != 0 {
				s = an.Strengths[w]
			}
			if !(s > 0) || math.IsInf(s, 0) {
				return nil, nil, fmt.Errorf("corex: anchor %q (topic %d): strength %v, want a finite value > 0", word, an.Topic, s)
			}
			i, ok := index[word]
			if !ok {
				warnings = append(warnings, fmt.Sprintf("anchor word %q (topic %d) is not in the vocabulary; skipped", word, an.Topic))
				continue
			}
			key := [2]int{an.Topic, i}
			if seen[key] {
				warnings = append(warnings, fmt.Sprintf("anchor word %q is anchored to topic %d twice; the first strength is kept", word, an.Topic))
				continue
			}
			seen[key] = true
			pairs = append(pairs, AnchorWord{Topic: an.Topic, Index: i, Word: word, Strength: s})
		}
	}
	return pairs, warnings, nil
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
		byTopic[p.Topic] = append(byTopic[p.Topic], p.Index)
	}
	return byWord, byTopic
}
