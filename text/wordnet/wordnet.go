package wordnet

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/semitopic/semitopic/text/wordnet/internal/wndata"
)

// embedded is the generated data file (see internal/wndata for its format).
//
//go:embed wordnet.dat.gz
var embedded string

// POS is a WordNet part of speech. Its values are NLTK's one-letter tags.
type POS byte

// The parts of speech, with NLTK's tags.
const (
	Noun   POS = 'n'
	Verb   POS = 'v'
	Adj    POS = 'a'
	AdjSat POS = 's' // adjective satellite: same lemmas, rules and exceptions as Adj
	Adv    POS = 'r'
)

// ParsePOS returns the part of speech of an NLTK tag: "n", "v", "a", "s"
// or "r" (lower case only, as in NLTK).
func ParsePOS(tag string) (POS, error) {
	if len(tag) == 1 {
		if p := POS(tag[0]); p.Valid() {
			return p, nil
		}
	}
	return 0, fmt.Errorf("wordnet: unknown part of speech %q (want n, v, a, s or r)", tag)
}

// Valid reports whether p is one of Noun, Verb, Adj, AdjSat and Adv.
func (p POS) Valid() bool { return p.mask() != 0 }

// String returns the NLTK tag of p, or "POS(n)" for an invalid value.
func (p POS) String() string {
	if p.Valid() {
		return string(rune(p))
	}
	return fmt.Sprintf("POS(%d)", byte(p))
}

// mask returns p's bit in the lemma masks, 0 for an invalid p.
func (p POS) mask() uint8 {
	switch p {
	case Noun:
		return wndata.MaskNoun
	case Verb:
		return wndata.MaskVerb
	case Adj:
		return wndata.MaskAdj
	case AdjSat:
		return wndata.MaskAdjSat
	case Adv:
		return wndata.MaskAdv
	}
	return 0
}

// table returns the index of p's exception list and rule set (0 noun,
// 1 verb, 2 adjective and satellite, 3 adverb), -1 for an invalid p.
func (p POS) table() int {
	switch p {
	case Noun:
		return 0
	case Verb:
		return 1
	case Adj, AdjSat:
		return 2
	case Adv:
		return 3
	}
	return -1
}

// maskBits is the number of low bits of an index value that hold the
// part-of-speech mask; the rest is the lemma's offset in Lemmatizer.lemmas.
const maskBits = 5

// Lemmatizer lemmatizes English words as NLTK's WordNetLemmatizer does. It
// is read-only after Load and safe for concurrent use. The zero Lemmatizer
// knows no lemma and returns every word unchanged; use Load.
type Lemmatizer struct {
	lemmas string            // every lemma, back to back
	index  map[string]uint32 // lemma → offset in lemmas << maskBits | mask
	maxLen int               // byte length of the longest lemma
	exc    [4]map[string][]string
	rules  [4]ruleSet
}

// Load decodes the embedded WordNet 3.0 data. It takes a few tens of
// milliseconds and some 15 MB of memory: call it once and share the result.
func Load() (*Lemmatizer, error) {
	return decode(strings.NewReader(embedded))
}

// decode reads a data file in the format of internal/wndata.
func decode(r io.Reader) (*Lemmatizer, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("wordnet: data: %w", err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("wordnet: data: %w", err)
	}
	d := decoder{raw: raw}
	l, err := d.lemmatizer()
	if err != nil {
		return nil, fmt.Errorf("wordnet: data: byte %d: %w", d.pos, err)
	}
	return l, nil
}

// decoder walks the uncompressed data file.
type decoder struct {
	raw []byte
	pos int
}

func (d *decoder) uvarint(what string) (int, error) {
	v, n := binary.Uvarint(d.raw[d.pos:])
	if n <= 0 || v > uint64(len(d.raw)) {
		return 0, fmt.Errorf("bad %s", what)
	}
	d.pos += n
	return int(v), nil
}

func (d *decoder) take(n int, what string) ([]byte, error) {
	if n > len(d.raw)-d.pos {
		return nil, fmt.Errorf("truncated %s", what)
	}
	b := d.raw[d.pos : d.pos+n]
	d.pos += n
	return b, nil
}

// line returns the bytes up to the next '\n' and moves past it.
func (d *decoder) line(what string) ([]byte, error) {
	i := bytes.IndexByte(d.raw[d.pos:], '\n')
	if i < 0 {
		return nil, fmt.Errorf("truncated %s", what)
	}
	b := d.raw[d.pos : d.pos+i]
	d.pos += i + 1
	return b, nil
}

func (d *decoder) lemmatizer() (*Lemmatizer, error) {
	head, err := d.take(len(wndata.Magic)+1, "header")
	if err != nil {
		return nil, err
	}
	if string(head[:len(wndata.Magic)]) != wndata.Magic || head[len(wndata.Magic)] != wndata.Version {
		return nil, fmt.Errorf("not a version %d lemmatizer data file", wndata.Version)
	}
	l := &Lemmatizer{}
	for i, p := range [4]POS{Noun, Verb, Adj, Adv} {
		rs, err := newRuleSet(p)
		if err != nil {
			return nil, err
		}
		l.rules[i] = rs
	}

	// Lemmas: shared-prefix lengths, suffixes, masks.
	n, err := d.uvarint("lemma count")
	if err != nil {
		return nil, err
	}
	shared, err := d.take(n, "lemma prefix lengths")
	if err != nil {
		return nil, err
	}
	blob := make([]byte, 0, 12*n)
	offs := make([]uint32, n+1)
	prev := 0 // offset of the previous lemma in blob
	for i := 0; i < n; i++ {
		suf, err := d.line("lemma suffixes")
		if err != nil {
			return nil, err
		}
		s := int(shared[i])
		if s > len(blob)-prev {
			return nil, fmt.Errorf("lemma %d: shares %d bytes with a shorter lemma", i, s)
		}
		start := len(blob)
		blob = append(blob, blob[prev:prev+s]...)
		blob = append(blob, suf...)
		if len(blob)-start == 0 || len(blob)-start > wndata.MaxLemmaLen {
			return nil, fmt.Errorf("lemma %d: length %d out of range", i, len(blob)-start)
		}
		if i > 0 && bytes.Compare(blob[prev:start], blob[start:]) >= 0 {
			return nil, fmt.Errorf("lemma %d (%q): lemmas out of order", i, blob[start:])
		}
		offs[i] = uint32(start)
		prev = start
	}
	offs[n] = uint32(len(blob))
	if len(blob) >= 1<<(32-maskBits) {
		return nil, fmt.Errorf("%d bytes of lemmas: too many", len(blob))
	}
	masks, err := d.take(n, "lemma masks")
	if err != nil {
		return nil, err
	}
	l.lemmas = string(blob)
	l.index = make(map[string]uint32, n)
	for i := 0; i < n; i++ {
		m := masks[i]
		if m == 0 || m >= 1<<maskBits {
			return nil, fmt.Errorf("lemma %q: bad part-of-speech mask %#x", l.lemmas[offs[i]:offs[i+1]], m)
		}
		lemma := l.lemmas[offs[i]:offs[i+1]]
		l.index[lemma] = offs[i]<<maskBits | uint32(m)
		l.maxLen = max(l.maxLen, len(lemma))
	}

	// Exception lists. Their words are substrings of one copy of the rest
	// of the data.
	rest := string(d.raw[d.pos:])
	base := d.pos
	for t := range l.exc {
		n, err := d.uvarint("exception count")
		if err != nil {
			return nil, err
		}
		m := make(map[string][]string, n)
		prevForm := ""
		for i := 0; i < n; i++ {
			start := d.pos
			ln, err := d.line("exception line")
			if err != nil {
				return nil, err
			}
			text := rest[start-base : start-base+len(ln)]
			if !strings.HasSuffix(text, " ") {
				return nil, fmt.Errorf("exception line %q: no closing space", text)
			}
			words := strings.Split(text[:len(text)-1], " ")
			for _, w := range words {
				if w == "" {
					return nil, fmt.Errorf("exception line %q: empty word", text)
				}
			}
			if words[0] <= prevForm {
				return nil, fmt.Errorf("exception %q: forms out of order", words[0])
			}
			prevForm = words[0]
			m[words[0]] = words[1:len(words):len(words)]
		}
		l.exc[t] = m
	}
	if d.pos != len(d.raw) {
		return nil, fmt.Errorf("%d bytes after the data", len(d.raw)-d.pos)
	}
	return l, nil
}

// Has reports whether lemma is a WordNet lemma of the given part of speech
// (listed in its index file; every adjective is also a satellite). It is
// false for an invalid pos.
func (l *Lemmatizer) Has(lemma string, pos POS) bool {
	m := pos.mask()
	v, ok := l.index[lemma]
	return ok && m != 0 && uint8(v)&m != 0
}

// Lemmatize returns the lemma of word as the part of speech pos, exactly
// as NLTK's WordNetLemmatizer().lemmatize(word, pos) does: the first of the
// shortest candidates of Morphy, or word unchanged when there is none (and
// when pos is not valid). The word is used as given: no lower-casing, no
// trimming; collocations are joined by underscores, as in WordNet.
func (l *Lemmatizer) Lemmatize(word string, pos POS) string {
	var buf [8]string
	c := l.candidates(word, pos, buf[:0])
	if len(c) == 0 {
		return word
	}
	best, bestLen := c[0], utf8.RuneCountInString(c[0])
	for _, s := range c[1:] {
		if n := utf8.RuneCountInString(s); n < bestLen {
			best, bestLen = s, n
		}
	}
	return best
}

// Morphy returns the candidate lemmas of word as the part of speech pos, in
// the order of NLTK's wordnet._morphy(word, pos) (see the package
// documentation), without duplicates. It returns nil when there is none or
// pos is not valid.
func (l *Lemmatizer) Morphy(word string, pos POS) []string {
	return l.candidates(word, pos, nil)
}
