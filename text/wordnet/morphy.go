package wordnet

import (
	"fmt"
	"strings"

	"github.com/semitopic/semitopic/text/wordnet/internal/wndata"
)

// A form met while applying the suffix rules is always a prefix of the
// word followed by a suffix of one of the rules' endings: a rule removes
// an ending and appends its own, and no rule's suffix ends strictly inside
// an ending (newRuleSet checks this). So a form is held as a pair — the
// length n of the word's prefix and the id of the tail — packed into one
// int, n*len(tails)+id, and kept canonical (n as large as possible: the
// tail is empty or differs from the word at n), so that two different
// pairs are always two different strings.

// rule turns a form ending in suffix into one ending in the tail ending.
type rule struct {
	suffix string
	ending int // tail id of the ending
}

// ruleSet holds the suffix rules of one part of speech.
type ruleSet struct {
	rules []rule
	tails []string // every suffix of every ending; tails[0] == ""
	rest  []int    // rest[id] is the id of tails[id][1:] (0 for id 0)
}

// newRuleSet returns the rules of p, in NLTK's order.
func newRuleSet(p POS) (ruleSet, error) {
	var pairs []string // suffix, ending, suffix, ending, ...
	switch p {
	case Noun:
		pairs = []string{"s", "", "ses", "s", "ves", "f", "xes", "x", "zes", "z",
			"ches", "ch", "shes", "sh", "men", "man", "ies", "y"}
	case Verb:
		pairs = []string{"s", "", "ies", "y", "es", "e", "es", "", "ed", "e",
			"ed", "", "ing", "e", "ing", ""}
	case Adj, AdjSat:
		pairs = []string{"er", "", "est", "", "er", "e", "est", "e"}
	case Adv:
	default:
		return ruleSet{}, fmt.Errorf("no rules for part of speech %v", p)
	}
	rs := ruleSet{tails: []string{""}}
	id := map[string]int{"": 0}
	for i := 0; i < len(pairs); i += 2 {
		end := pairs[i+1]
		for k := len(end) - 1; k >= 0; k-- { // shortest tail first
			if _, ok := id[end[k:]]; !ok {
				id[end[k:]] = len(rs.tails)
				rs.tails = append(rs.tails, end[k:])
			}
		}
		rs.rules = append(rs.rules, rule{suffix: pairs[i], ending: id[end]})
	}
	rs.rest = make([]int, len(rs.tails))
	for i, t := range rs.tails {
		if t != "" {
			rs.rest[i] = id[t[1:]]
		}
	}
	for _, r := range rs.rules {
		if r.suffix == "" {
			return ruleSet{}, fmt.Errorf("part of speech %v: empty rule suffix", p)
		}
		for _, t := range rs.tails {
			if len(r.suffix) < len(t) && strings.HasSuffix(t, r.suffix) {
				return ruleSet{}, fmt.Errorf("part of speech %v: rule suffix %q ends inside ending %q", p, r.suffix, t)
			}
		}
	}
	return rs, nil
}

// hasSuffix reports whether word[:n]+tail ends with suffix.
func hasSuffix(word string, n int, tail, suffix string) bool {
	if len(suffix) <= len(tail) {
		return strings.HasSuffix(tail, suffix)
	}
	m := len(suffix) - len(tail)
	return m <= n && strings.HasSuffix(suffix, tail) && word[n-m:n] == suffix[:m]
}

// candidates appends to out the candidate lemmas of word (see Morphy).
func (l *Lemmatizer) candidates(word string, pos POS, out []string) []string {
	mask := pos.mask()
	t := pos.table()
	if mask == 0 || t < 0 {
		return out
	}
	start := len(out)

	// 0. A word of the exception list gets only itself and its base forms.
	if bases, ok := l.exc[t][word]; ok {
		out = l.appendLemma(out, start, word, mask)
		for _, b := range bases {
			out = l.appendLemma(out, start, b, mask)
		}
		return out
	}

	rs := &l.rules[t]
	k := len(rs.tails)
	if k == 0 { // a zero Lemmatizer
		return out
	}
	w := len(word)

	// seen marks the forms already met, the word itself included. NLTK
	// keeps every form of a round, duplicates too, so that a round can hold
	// exponentially many; here each string enters one round at most, which
	// provably gives the same candidates in the same order:
	//  (1) a later copy of a form within one round yields only forms that
	//      its first copy yielded earlier in the next round, so it cannot
	//      change which lemmas come first;
	//  (2) a form met again in round q after its first meeting in round
	//      p < q is no lemma (the search did not stop at p), and the forms
	//      d rule steps below it were met by round p+d, before round q+d
	//      where NLTK meets them again; a form met in a round before the
	//      stopping one is no lemma, so dropping these drops no candidate;
	//  (3) when a round has no new form, every later NLTK round holds only
	//      forms met before, none a lemma, so NLTK too ends with nothing.
	// The canonical encoding above makes "same pair" mean "same string".
	var seenBuf [8]uint64
	seen := seenBuf[:]
	if bits := (w + 1) * k; bits > 64*len(seenBuf) {
		seen = make([]uint64, (bits+63)/64)
	}
	f0 := w * k
	seen[f0/64] |= 1 << (f0 % 64)

	var curBuf, nextBuf [16]int
	cur := append(curBuf[:0], f0)
	next := nextBuf[:0]
	for round := 1; len(cur) > 0; round++ {
		// Apply every rule to every form of the previous round.
		next = next[:0]
		for _, f := range cur {
			n, tail := f/k, rs.tails[f%k]
			for _, r := range rs.rules {
				if !hasSuffix(word, n, tail, r.suffix) {
					continue
				}
				// The suffix covers the tail (newRuleSet checks that), so the
				// new form is word[:m] + ending.
				m, id := n+len(tail)-len(r.suffix), r.ending
				for id != 0 && m < w && word[m] == rs.tails[id][0] {
					m, id = m+1, rs.rest[id]
				}
				g := m*k + id
				if seen[g/64]&(1<<(g%64)) != 0 {
					continue
				}
				seen[g/64] |= 1 << (g % 64)
				next = append(next, g)
			}
		}
		// The first round also keeps the word itself, in front.
		if round == 1 {
			out = l.appendForm(out, word, f0, k, rs, mask)
		}
		for _, g := range next {
			out = l.appendForm(out, word, g, k, rs, mask)
		}
		if len(out) > start {
			return out
		}
		cur, next = next, cur
	}
	return out
}

// appendForm appends the form f of word to out if it is a lemma of the
// part of speech mask. The forms of one search are distinct strings, so no
// duplicate check is needed.
func (l *Lemmatizer) appendForm(out []string, word string, f, k int, rs *ruleSet, mask uint8) []string {
	n, tail := f/k, rs.tails[f%k]
	size := n + len(tail)
	if size > l.maxLen || size == 0 {
		return out
	}
	var v uint32
	var ok bool
	if tail == "" {
		v, ok = l.index[word[:n]]
	} else {
		var buf [wndata.MaxLemmaLen]byte
		copy(buf[copy(buf[:], word[:n]):], tail)
		v, ok = l.index[string(buf[:size])]
	}
	if !ok || uint8(v)&mask == 0 {
		return out
	}
	off := int(v >> maskBits)
	return append(out, l.lemmas[off:off+size])
}

// appendLemma appends s to out if it is a lemma of the part of speech mask
// not already in out[start:].
func (l *Lemmatizer) appendLemma(out []string, start int, s string, mask uint8) []string {
	v, ok := l.index[s]
	if !ok || uint8(v)&mask == 0 {
		return out
	}
	for _, o := range out[start:] {
		if o == s {
			return out
		}
	}
	off := int(v >> maskBits)
	return append(out, l.lemmas[off:off+len(s)])
}
