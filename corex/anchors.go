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
	// Strength is the anchor strength β of the pair; 0 for an exclusion
	// (Config.Exclude: the word's α for the topic is kept at zero).
	Strength float64
}

// anchorRef is an anchored topic of one word and its strength.
type anchorRef struct {
	topic    int
	strength float64
}

// resolveAnchors looks the anchor and excluded words up in the
// vocabulary. A word missing from it is skipped with a warning; a repeated
// (topic, word) pair keeps its first strength, with a warning. Invalid
// topics or strengths, and a word both anchored to and excluded from a
// topic, are errors. Exclusions come last, with strength 0.
func resolveAnchors(c Config) (pairs []AnchorWord, warnings []string, err error) {
	if len(c.Anchors) == 0 && len(c.Exclude) == 0 {
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
	excluded := map[[2]int]bool{}
	for a, ex := range c.Exclude {
		if ex.Topic < 0 || ex.Topic >= c.K {
			return nil, nil, fmt.Errorf("corex: exclusion %d: topic %d out of range [0,%d)", a, ex.Topic, c.K)
		}
		if ex.Strengths != nil {
			return nil, nil, fmt.Errorf("corex: exclusion %d (topic %d): excluded words take no strengths", a, ex.Topic)
		}
		for _, word := range ex.Words {
			i, ok := index[word]
			if !ok {
				warnings = append(warnings, fmt.Sprintf("excluded word %q (topic %d) is not in the vocabulary; skipped", word, ex.Topic))
				continue
			}
			key := [2]int{ex.Topic, i}
			if seen[key] {
				return nil, nil, fmt.Errorf("corex: word %q is both an anchor of topic %d and excluded from it", word, ex.Topic)
			}
			if excluded[key] {
				continue
			}
			excluded[key] = true
			pairs = append(pairs, AnchorWord{Topic: ex.Topic, Index: i, Word: word})
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
		if p.Strength > 0 { // an exclusion steers no document
			byTopic[p.Topic] = append(byTopic[p.Topic], p.Index)
		}
	}
	return byWord, byTopic
}
