package vectorize

import (
	"strings"
)

// MaxNGram is the longest n-gram the vectorizer counts.
const MaxNGram = 3

// termKey identifies a term during Fit by the ids of its tokens, so that
// n-grams are counted without building their strings; only the terms that
// make the vocabulary are ever joined into strings.
type termKey struct {
	n   uint8
	tok [MaxNGram]int32
}

// termDict numbers tokens and terms. Each analysing worker has its own
// (local ids); merge maps them onto one global dictionary.
//
// With unigrams only (uni set), term ids are token ids and the term map is
// not used: each token's key is recorded as it is added.
type termDict struct {
	uni      bool
	tokIndex map[string]int32
	toks     []string
	index    map[termKey]int32
	keys     []termKey
}

func newTermDict(unigramsOnly bool) *termDict {
	return &termDict{uni: unigramsOnly, tokIndex: map[string]int32{}, index: map[termKey]int32{}}
}

// token returns the id of tok, adding a copy of it when new (tok may point
// into a large document).
func (d *termDict) token(tok string) int32 {
	id, ok := d.tokIndex[tok]
	if !ok {
		id = int32(len(d.toks))
		tok = strings.Clone(tok)
		d.tokIndex[tok] = id
		d.toks = append(d.toks, tok)
		if d.uni {
			d.keys = append(d.keys, termKey{n: 1, tok: [MaxNGram]int32{id}})
		}
	}
	return id
}

// term returns the id of k, adding it when new.
func (d *termDict) term(k termKey) int32 {
	if d.uni {
		return k.tok[0]
	}
	id, ok := d.index[k]
	if !ok {
		id = int32(len(d.keys))
		d.index[k] = id
		d.keys = append(d.keys, k)
	}
	return id
}

// appendTerms appends the term ids of the n-grams (nmin ≤ n ≤ nmax) of the
// token ids tok to dst.
func (d *termDict) appendTerms(dst []int32, tok []int32, nmin, nmax int) []int32 {
	if d.uni {
		return append(dst, tok...)
	}
	for n := nmin; n <= nmax && n <= len(tok); n++ {
		for i := 0; i+n <= len(tok); i++ {
			k := termKey{n: uint8(n)}
			copy(k.tok[:], tok[i:i+n])
			dst = append(dst, d.term(k))
		}
	}
	return dst
}

// merge adds the tokens and terms of local to d and returns the global id
// of each local term.
func (d *termDict) merge(local *termDict) []int32 {
	tokMap := make([]int32, len(local.toks))
	for l, t := range local.toks {
		tokMap[l] = d.token(t)
	}
	if d.uni {
		return tokMap
	}
	termMap := make([]int32, len(local.keys))
	for l, k := range local.keys {
		for i := 0; i < int(k.n); i++ {
			k.tok[i] = tokMap[k.tok[i]]
		}
		termMap[l] = d.term(k)
	}
	return termMap
}

// str returns the string of term id, its tokens joined with a space.
func (d *termDict) str(id int32) string {
	k := d.keys[id]
	if k.n == 1 {
		return d.toks[k.tok[0]]
	}
	var b strings.Builder
	for i := 0; i < int(k.n); i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(d.toks[k.tok[i]])
	}
	return b.String()
}

// lookup returns the id of the term string s (tokens separated by single
// spaces), or -1 when d does not hold it.
func (d *termDict) lookup(s string) int32 {
	parts := strings.Split(s, " ")
	if len(parts) > MaxNGram {
		return -1
	}
	k := termKey{n: uint8(len(parts))}
	for i, p := range parts {
		id, ok := d.tokIndex[p]
		if !ok {
			return -1
		}
		k.tok[i] = id
	}
	if d.uni {
		if k.n == 1 {
			return k.tok[0]
		}
		return -1
	}
	if id, ok := d.index[k]; ok {
		return id
	}
	return -1
}
