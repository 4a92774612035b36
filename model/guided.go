package model

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/supervision"
)

// The anchors name topics and words; the algorithms take seed and
// excluded terms in term indices (package supervision). anchorTerms is
// the one translation from words to terms; the functions here name the
// topics the anchors steer.

// seeded reports whether any anchor has seed words.
func seeded(anchors []Anchor) bool {
	for _, a := range anchors {
		if len(a.Words) > 0 {
			return true
		}
	}
	return false
}

// anchorTopicNames names a model's k topics after the anchors: the topics
// with a seed word in the vocabulary first, in the anchors' order, then
// the others (exclusion words only, or no seed word known), then topic-N
// (the names are distinct). It is an error if the anchors name more than
// k topics. seededNames are the first group's names: the topics the seed
// words steer, which a model may predict.
func anchorTopicNames(kind string, anchors []Anchor, vocab []string, k int) (names, seededNames []string, err error) {
	col := termIndex(vocab)
	for _, a := range anchors {
		if anyTerm(col, a.Words) {
			seededNames = append(seededNames, a.Topic)
		}
	}
	names = append([]string(nil), seededNames...)
	for _, a := range anchors {
		if !anyTerm(col, a.Words) {
			names = append(names, a.Topic)
		}
	}
	if len(names) > k {
		return nil, nil, fmt.Errorf("model: the anchors name %d topics, more than this %s model's k = %d", len(names), kind, k)
	}
	// A free topic is topic-N, N its position from 1, unless the anchors
	// took that name: it then takes the first topic-N beyond k not taken.
	next := k
	for t := len(names); t < k; t++ {
		name := fmt.Sprintf("topic-%d", t+1)
		for slices.Contains(names, name) {
			next++
			name = fmt.Sprintf("topic-%d", next)
		}
		names = append(names, name)
	}
	return names, seededNames, nil
}

// unseededNames returns names with each topic that the anchors seed, but
// none of whose seed words is in the vocabulary, renamed to say that it
// is not steered — unless the topic is also a label's (labels), which
// steers it. It leaves names itself as it is.
func unseededNames(names []string, anchors []Anchor, labels, vocab []string) []string {
	col := termIndex(vocab)
	seeds, found := map[string]bool{}, map[string]bool{}
	for _, a := range anchors {
		if len(a.Words) == 0 || slices.Contains(labels, a.Topic) {
			continue
		}
		seeds[a.Topic] = true
		found[a.Topic] = found[a.Topic] || anyTerm(col, a.Words)
	}
	out := slices.Clone(names)
	for t, n := range out {
		if seeds[n] && !found[n] {
			out[t] = n + unseededSuffix
		}
	}
	return out
}

// anchorTerms translates the anchors' words into the terms of vocab for
// a model whose topics are named names: each seed word, with its
// strength (Anchor.Beta, 0 for the default), a seed term of the topic its
// anchor names, and each exclusion word an exclusion. The anchors of one
// topic are taken together, in the order their names first appear, and
// words in the order given. A word missing from vocab is left out and
// noted; an anchor naming no topic of names is an error listing them, as
// is a word given twice for one topic (as a seed or an exclusion word).
func anchorTerms(kind string, anchors []Anchor, names, vocab []string) (supervision.Terms, []string, error) {
	var out supervision.Terms
	if len(anchors) == 0 {
		return out, nil, nil
	}
	topic := make(map[string]int, len(names))
	for t, n := range names {
		if _, dup := topic[n]; !dup {
			topic[n] = t
		}
	}
	var order []string
	byName := map[string][]Anchor{}
	for _, a := range anchors {
		if _, ok := topic[a.Topic]; !ok {
			return out, nil, fmt.Errorf("model: the anchors name the topic %q; this %s model's topics are %s", a.Topic, kind, strings.Join(names, ", "))
		}
		if _, seen := byName[a.Topic]; !seen {
			order = append(order, a.Topic)
		}
		byName[a.Topic] = append(byName[a.Topic], a)
	}
	col := termIndex(vocab)
	var notes []string
	for _, name := range order {
		t := topic[name]
		given := map[string]bool{}
		var seeds, missing, exMissing []string
		for _, a := range byName[name] {
			for i, w := range a.Words {
				if given[w] {
					return out, nil, fmt.Errorf("model: anchors: topic %q names %q twice", name, w)
				}
				given[w] = true
				seeds = append(seeds, w)
				j, ok := col[w]
				if !ok {
					missing = append(missing, w)
					continue
				}
				s := supervision.Seed{Topic: t, Term: j}
				if i < len(a.Beta) {
					s.Strength = a.Beta[i]
				}
				out.Seeds = append(out.Seeds, s)
			}
		}
		for _, a := range byName[name] {
			for _, w := range a.Exclude {
				if given[w] {
					return out, nil, fmt.Errorf("model: anchors: topic %q names %q twice (as a seed or an exclusion word)", name, w)
				}
				given[w] = true
				j, ok := col[w]
				if !ok {
					exMissing = append(exMissing, w)
					continue
				}
				out.Exclude = append(out.Exclude, supervision.Exclusion{Topic: t, Term: j})
			}
		}
		switch {
		case len(missing) > 0 && len(missing) == len(seeds):
			notes = append(notes, fmt.Sprintf("topic %q: none of its seed words (%s) is in the vocabulary; it is not seeded", name, strings.Join(missing, ", ")))
		case len(missing) > 0:
			notes = append(notes, fmt.Sprintf("topic %q: the seed words %s are not in the vocabulary", name, strings.Join(missing, ", ")))
		}
		if len(exMissing) > 0 {
			notes = append(notes, fmt.Sprintf("topic %q: the excluded words %s are not in the vocabulary", name, strings.Join(exMissing, ", ")))
		}
	}
	return out, notes, nil
}

// anchorNames orders the topics the anchors name: those with a seed word
// in vocab first (with any seed word when vocab is nil), then the others
// — exclusion words only, or no seed word known — each group in the
// order the names first appear; seeded is the size of the first group.
// An anchor without a topic name or without words is an error.
func anchorNames(anchors []Anchor, vocab []string) (names []string, seeded int, err error) {
	var col map[string]int
	if vocab != nil {
		col = termIndex(vocab)
	}
	seeds := map[string]bool{}
	for _, a := range anchors {
		if a.Topic == "" {
			return nil, 0, fmt.Errorf("model: an anchor has no topic name")
		}
		if len(a.Beta) > 0 && len(a.Beta) != len(a.Words) {
			return nil, 0, fmt.Errorf("model: anchor %q has %d strengths for %d words", a.Topic, len(a.Beta), len(a.Words))
		}
		if len(a.Words) == 0 && len(a.Exclude) == 0 {
			return nil, 0, fmt.Errorf("model: anchor %q has no words", a.Topic)
		}
		seeds[a.Topic] = seeds[a.Topic] || (col == nil && len(a.Words) > 0) || (col != nil && anyTerm(col, a.Words))
	}
	seen := map[string]bool{}
	for pass := 0; pass < 2; pass++ {
		for _, a := range anchors {
			if !seen[a.Topic] && seeds[a.Topic] == (pass == 0) {
				seen[a.Topic] = true
				names = append(names, a.Topic)
			}
		}
		if pass == 0 {
			seeded = len(names)
		}
	}
	return names, seeded, nil
}

// seedError returns err with a topic's name for its index when err is
// about the weight of the topic's seed words (nmf.SeedWeightError), the
// topics being named names; else err.
func seedError(err error, names []string) error {
	var se *nmf.SeedWeightError
	if !errors.As(err, &se) || se.Topic >= len(names) {
		return err
	}
	// The strengths are bounded (checkAnchors), so only data at the edge
	// of the float64 range get here; the message speaks of the seed
	// words, never of a pseudo-document's row.
	return fmt.Errorf("model: topic %q: its seed words' strengths and the documents' scale give its seed words the weight %g, which the fit cannot use; keep strengths between %g and %g and rescale the data", names[se.Topic], se.Weight, MinStrength, MaxStrength)
}
