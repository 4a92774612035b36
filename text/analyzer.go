package text

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/semitopic/semitopic/internal/enum"
	"github.com/semitopic/semitopic/text/segment"
	"github.com/semitopic/semitopic/text/wordnet"
)

// Morph selects the morphological normalisation of tokens.
type Morph uint8

// The morphology modes.
const (
	// NoMorph keeps tokens as they are.
	NoMorph Morph = iota
	// Lemma maps tokens to WordNet lemmas exactly as NLTK's
	// WordNetLemmatizer does (noun by default; see Options.LemmaPOS).
	Lemma
	// Stem applies the Snowball stemmer of Options.Language (English,
	// Porter2, when it is empty).
	Stem
)

var morphNames = [...]string{"none", "lemma", "stem"}

// MarshalText writes the mode's name, so that saved pipelines hold names.
func (m Morph) MarshalText() ([]byte, error) {
	return enum.MarshalText(m, morphNames[:], "morphology")
}

// UnmarshalJSON reads a mode's name, or the integer older files hold.
func (m *Morph) UnmarshalJSON(b []byte) error {
	return enum.UnmarshalJSON(b, m, morphNames[:], "morphology")
}

// String returns the mode's name as accepted by ParseMorph.
func (m Morph) String() string { return enum.Name(m, morphNames[:], "Morph") }

// ParseMorph parses "none", "lemma" or "stem".
func ParseMorph(s string) (Morph, error) {
	m, err := enum.Parse[Morph](s, morphNames[:], "morphology")
	return m, prefixed(err)
}

// Options configures an Analyzer. The zero value does nothing but split
// runs of letters and case-fold them; Default returns the documented
// defaults. Options are plain data so that saved models can record them.
type Options struct {
	// Language is the ISO 639-1 code of the text's language (see
	// Languages); empty means English, as before languages were known.
	// It picks the Snowball stemmer of Morph Stem and, for Chinese (zh)
	// and Japanese (ja), the dictionary segmenter that cuts runs of Han
	// and kana into words. WithLanguage also picks the language's
	// stopwords and token pattern.
	Language string `json:"language,omitempty"`
	// Clean is a cleaning step applied to the raw text before anything
	// else (NoClean by default).
	Clean Clean `json:"clean,omitempty"`
	// NFKC applies Unicode NFKC normalisation before the other steps.
	NFKC bool `json:"nfkc"`
	// StripAccents removes combining marks after canonical decomposition.
	StripAccents bool `json:"strip_accents,omitempty"`
	// Case is the case mode.
	Case Case `json:"case"`
	// Pattern is the token pattern.
	Pattern Pattern `json:"pattern"`
	// DropNumbers drops tokens made only of decimal digits.
	DropNumbers bool `json:"drop_numbers,omitempty"`
	// MinLength and MaxLength bound token length in characters; 0 means no
	// bound.
	MinLength int `json:"min_length,omitempty"`
	MaxLength int `json:"max_length,omitempty"`
	// Stopwords names embedded stopword lists to remove (see StopwordLists).
	Stopwords []string `json:"stopwords,omitempty"`
	// ExtraStopwords are further words to remove, normalised like tokens.
	ExtraStopwords []string `json:"extra_stopwords,omitempty"`
	// Morph is the morphological normalisation.
	Morph Morph `json:"morph"`
	// LemmaPOS lists WordNet parts of speech for the lemmatizer, comma
	// separated from "n", "v", "a", "s", "r". One part of speech (default
	// "n", NLTK's default) lemmatizes as that part of speech; several use the
	// first whose lemma differs from the token, as the theme-supervised NMF
	// code does with "n,v,r,a,s".
	LemmaPOS string `json:"lemma_pos,omitempty"`
	// FilterAfterMorph applies the length and stopword filters to the lemma
	// or stem instead of the token.
	FilterAfterMorph bool `json:"filter_after_morph,omitempty"`
	// StopStems also removes, after the morphology, the inflected forms of
	// stopwords that the lists do not hold: the tokens whose lemma or stem
	// is a stopword that some stopword stems to, and which begin with it
	// (Turkish bunun, birini → bu, bir; not Indonesian pengguna → guna,
	// whose stemmer took a prefix away, nor Portuguese forma → form, a
	// stem of foram but no stopword).
	// WithLanguage sets it for the languages it stems; English leaves it off.
	StopStems bool `json:"stop_stems,omitempty"`
	// NGramMin and NGramMax give the n-gram range; 0 means 1.
	NGramMin int `json:"ngram_min,omitempty"`
	NGramMax int `json:"ngram_max,omitempty"`
}

// Default returns the default pipeline: NFKC, case folding, runs of letters,
// tokens of at least 3 characters, NLTK's English stopwords, WordNet noun
// lemmas, unigrams — the preprocessing the NMF papers describe.
func Default() Options {
	return Options{
		NFKC:      true,
		Case:      Fold,
		Pattern:   Letters,
		MinLength: 3,
		Stopwords: []string{"nltk"},
		Morph:     Lemma,
		LemmaPOS:  "n",
		NGramMin:  1,
		NGramMax:  1,
	}
}

// Analyzer turns text into terms. It is safe for concurrent use; for heavy
// use from several goroutines, give each a Session, which caches
// morphological forms without locking.
type Analyzer struct {
	opts Options
	stop map[string]struct{}
	// stopMorph holds the stopwords' lemmas or stems (Options.StopStems).
	stopMorph map[string]struct{}
	lem       *wordnet.Lemmatizer
	pos       []wordnet.POS
	stem      func(string) string
	seg       segment.Segmenter
}

// Session is a single-goroutine handle on an Analyzer that remembers the
// lemma or stem of every token it has seen. It is not safe for concurrent
// use; its results equal the Analyzer's.
type Session struct {
	a     *Analyzer
	cache map[string]string
}

// Session returns a new Session of a.
func (a *Analyzer) Session() *Session {
	return &Session{a: a, cache: map[string]string{}}
}

// AppendTokens is Analyzer.AppendTokens with the session's cache.
func (s *Session) AppendTokens(dst []string, text string) []string {
	return s.a.appendTokens(dst, text, s.cache)
}

// NewAnalyzer checks o and prepares an Analyzer (loading the WordNet data
// when o.Morph is Lemma).
func NewAnalyzer(o Options) (*Analyzer, error) {
	if o.NGramMin == 0 {
		o.NGramMin = 1
	}
	if o.NGramMax == 0 {
		o.NGramMax = o.NGramMin
	}
	switch {
	case o.NGramMin < 1 || o.NGramMax < o.NGramMin:
		return nil, errorf("invalid n-gram range %d..%d", o.NGramMin, o.NGramMax)
	case o.MinLength < 0 || o.MaxLength < 0:
		return nil, errorf("negative token length bound")
	case o.MaxLength > 0 && o.MaxLength < o.MinLength:
		return nil, errorf("maximum token length %d below minimum %d", o.MaxLength, o.MinLength)
	case o.Case > KeepCase:
		return nil, errorf("invalid case mode %d", o.Case)
	case o.Pattern > Words:
		return nil, errorf("invalid token pattern %d", o.Pattern)
	case o.Morph > Stem:
		return nil, errorf("invalid morphology %d", o.Morph)
	case o.Clean > ThesisCleanWordPunct:
		return nil, errorf("invalid cleaning step %d", o.Clean)
	}
	a := &Analyzer{opts: o}
	var err error
	var lang Language
	if o.Language != "" {
		if lang, err = LookupLanguage(o.Language); err != nil {
			return nil, err
		}
		if lang.Code != o.Language {
			return nil, errorf("language %q: write it as %q", o.Language, lang.Code)
		}
	}
	if o.Morph == Stem {
		if a.stem, err = stemmer(o.Language); err != nil {
			return nil, err
		}
	}
	if lang.Segmenter {
		if a.seg, err = segment.New(lang.Code); err != nil {
			return nil, prefixed(err)
		}
	}
	a.stop, err = stopSet(o.Stopwords, o.ExtraStopwords, func(w string) string {
		return Normalize(w, o.NFKC, o.StripAccents, o.Case)
	})
	if err != nil {
		return nil, err
	}
	if o.Morph == Lemma {
		if o.LemmaPOS == "" {
			o.LemmaPOS = "n"
			a.opts.LemmaPOS = "n"
		}
		for _, s := range strings.Split(o.LemmaPOS, ",") {
			p, err := wordnet.ParsePOS(strings.TrimSpace(s))
			if err != nil {
				return nil, errorf("lemma parts of speech %q: %v", o.LemmaPOS, err)
			}
			a.pos = append(a.pos, p)
		}
		if a.lem, err = wordnet.Load(); err != nil {
			return nil, errorf("loading WordNet: %v", err)
		}
	}
	if o.StopStems && o.Morph != NoMorph && len(a.stop) > 0 {
		a.stopMorph = make(map[string]struct{}, len(a.stop))
		// Only stems that are stopwords themselves: Portuguese foram
		// stems to form, which would take forma with it.
		for w := range a.stop {
			if m := a.morph(w); m != "" {
				if _, ok := a.stop[m]; ok {
					a.stopMorph[m] = struct{}{}
				}
			}
		}
	}
	return a, nil
}

// Options returns the analyzer's options with defaults filled in.
func (a *Analyzer) Options() Options { return a.opts }

// StopwordSet returns the sorted stopwords the analyzer removes.
func (a *Analyzer) StopwordSet() []string { return sortedSet(a.stop) }

// IsStopword reports whether the analyzer removes w (already normalised)
// as a stopword, or, with Options.StopStems, its lemma or stem.
func (a *Analyzer) IsStopword(w string) bool {
	if _, ok := a.stop[w]; ok {
		return true
	}
	return a.stopMorph != nil && a.isInflectedStopword(w, a.morph(w))
}

// isInflectedStopword reports whether the token t, of lemma or stem m, is
// a stopword with endings (Options.StopStems): m is a stopword and a
// stopword's stem, and t begins with it, so that the morphology took only
// endings away. A word whose prefix the stemmer removed to leave a stopword's stem
// (Indonesian pengguna → guna, media → dia) is not a stopword's form, and
// stays.
func (a *Analyzer) isInflectedStopword(t, m string) bool {
	if _, ok := a.stopMorph[m]; !ok {
		return false
	}
	return strings.HasPrefix(t, m)
}

// Tokens returns the unigram tokens of s after all steps but n-grams.
func (a *Analyzer) Tokens(s string) []string {
	return a.AppendTokens(nil, s)
}

// AppendTokens appends the tokens of s to dst and returns it.
func (a *Analyzer) AppendTokens(dst []string, s string) []string {
	return a.appendTokens(dst, s, nil)
}

func (a *Analyzer) appendTokens(dst []string, s string, cache map[string]string) []string {
	o := &a.opts
	s = Normalize(o.Clean.apply(s), o.NFKC, o.StripAccents, o.Case)
	start := len(dst)
	dst = a.tokenize(dst, s)
	out := dst[:start]
	for _, t := range dst[start:] {
		if t, st := a.token(t, cache); st == stepKept {
			out = append(out, t)
		}
	}
	return out
}

// tokenize appends the tokens of the normalised text s: Tokenize under the
// analyzer's pattern, then, with a dictionary segmenter, the tokens that
// hold Han or kana cut into words (the parts with a letter).
func (a *Analyzer) tokenize(dst []string, s string) []string {
	start := len(dst)
	dst = Tokenize(dst, s, a.opts.Pattern)
	if a.seg == nil {
		return dst
	}
	// The tokens, or their words, go after them, then in their place:
	// no token is moved more than twice, and no words slice is made.
	end := len(dst)
	for i := start; i < end; i++ {
		t := dst[i]
		if !needsSegmenter(t) {
			dst = append(dst, t)
			continue
		}
		k := len(dst)
		dst = a.seg.Append(dst, t)
		kept := dst[:k]
		for _, w := range dst[k:] {
			if hasLetter(w) {
				kept = append(kept, w)
			}
		}
		dst = kept
	}
	n := copy(dst[start:], dst[end:])
	return dst[:start+n]
}

// What becomes of a token: kept, or removed by a step.
const (
	stepKept = iota
	stepNumber
	stepLength
	stepStopword
	stepEmpty
)

// token applies the steps after tokenizing to one token: it returns its
// form and stepKept, or the step that removed it.
func (a *Analyzer) token(t string, cache map[string]string) (string, int) {
	o := &a.opts
	if o.DropNumbers && IsNumber(t) {
		return "", stepNumber
	}
	if !o.FilterAfterMorph {
		if st := a.filter(t); st != stepKept {
			return "", st
		}
	}
	surface := t
	t = a.morphCached(t, cache)
	if o.FilterAfterMorph {
		if st := a.filter(t); st != stepKept {
			return "", st
		}
	}
	if a.stopMorph != nil && a.isInflectedStopword(surface, t) {
		return "", stepStopword
	}
	if t == "" {
		return "", stepEmpty
	}
	return t, stepKept
}

// Steps counts what the steps of an Analyzer do to the texts given to
// CountSteps, so that a caller can say which step left nothing.
type Steps struct {
	// Texts counts the texts, Blank those with nothing but white space.
	Texts, Blank int
	// Tokens counts the tokens the tokenizer found.
	Tokens int
	// Numbers, Length, Stopwords and Empty count the tokens removed by
	// DropNumbers, the length bounds, the stopwords and the morphology
	// (which left nothing of them); Kept those left.
	Numbers, Length, Stopwords, Empty, Kept int
}

// CountSteps adds to st what the analyzer's steps do to the text s (with
// the results of AppendTokens).
func (a *Analyzer) CountSteps(st *Steps, s string) {
	st.Texts++
	if strings.TrimSpace(s) == "" {
		st.Blank++
	}
	o := &a.opts
	s = Normalize(o.Clean.apply(s), o.NFKC, o.StripAccents, o.Case)
	toks := a.tokenize(nil, s)
	st.Tokens += len(toks)
	for _, t := range toks {
		switch _, step := a.token(t, nil); step {
		case stepKept:
			st.Kept++
		case stepNumber:
			st.Numbers++
		case stepLength:
			st.Length++
		case stepStopword:
			st.Stopwords++
		case stepEmpty:
			st.Empty++
		}
	}
}

// Terms returns the terms of s: its tokens and their n-grams.
func (a *Analyzer) Terms(s string) []string {
	terms, _ := a.AppendTerms(nil, nil, s)
	return terms
}

// AppendTerms appends the terms of s to dst, using buf as scratch space for
// the tokens, and returns the terms, the token buffer (for reuse) and the
// number of unigram tokens.
func (a *Analyzer) AppendTerms(dst, buf []string, s string) (terms, tokens []string) {
	tokens = a.AppendTokens(buf[:0], s)
	if a.opts.NGramMin == 1 && a.opts.NGramMax == 1 {
		return append(dst, tokens...), tokens
	}
	return NGrams(dst, tokens, a.opts.NGramMin, a.opts.NGramMax), tokens
}

// filter applies the length and stopword filters: stepKept, or the step
// that removes t.
func (a *Analyzer) filter(t string) int {
	o := &a.opts
	if o.MinLength > 0 || o.MaxLength > 0 {
		n := len(t)
		if !isASCII(t) {
			n = utf8.RuneCountInString(t)
		}
		if n < o.MinLength || (o.MaxLength > 0 && n > o.MaxLength) {
			return stepLength
		}
	}
	if len(a.stop) > 0 {
		if _, ok := a.stop[t]; ok {
			return stepStopword
		}
	}
	return stepKept
}

// Morph returns the morphological form of a normalised token under the
// analyzer's Morph mode.
func (a *Analyzer) Morph(t string) string { return a.morph(t) }

// morphCached is morph remembering results in cache when it is not nil.
func (a *Analyzer) morphCached(t string, cache map[string]string) string {
	if a.opts.Morph == NoMorph {
		return t
	}
	if cache == nil {
		return a.morph(t)
	}
	if m, ok := cache[t]; ok {
		return m
	}
	m := a.morph(t)
	// The token may be a substring of a large document, and so may its
	// form (the token itself, or a part of it): cache copies, so that the
	// document can be freed.
	key := strings.Clone(t)
	if m == t {
		m = key
	} else {
		m = strings.Clone(m)
	}
	cache[key] = m
	return m
}

func (a *Analyzer) morph(t string) string {
	var m string
	switch a.opts.Morph {
	case Lemma:
		m = t
		for _, p := range a.pos {
			if l := a.lem.Lemmatize(t, p); l != t {
				m = l
				break
			}
		}
	case Stem:
		m = a.stem(t)
	default:
		m = t
	}
	return m
}

// ErrNoTerm is returned by Term for a word that the analyzer drops
// entirely: a stopword, a number or a word outside the length bounds.
var ErrNoTerm = errors.New("the pipeline drops it (a stopword, a number or a word outside the length bounds)")

// Term returns the term that the analyzer makes of a word or a phrase
// typed by a person, such as a seed word: its tokens after normalisation,
// filtering and stemming, joined by single spaces as the n-grams are. A
// phrase of n tokens needs the analyzer to make n-grams (NGramMax ≥ n); a
// single word needs it to keep unigrams (NGramMin 1). The error is
// ErrNoTerm when nothing of s is left.
func (a *Analyzer) Term(s string) (string, error) {
	tokens := a.Tokens(s)
	n := len(tokens)
	switch {
	case n == 0:
		return "", ErrNoTerm
	case n > max(a.opts.NGramMax, 1):
		return "", fmt.Errorf("it is read as %d words (%s), but the pipeline's terms have at most %d (n-gram range %d–%d)",
			n, strings.Join(tokens, " "), max(a.opts.NGramMax, 1), max(a.opts.NGramMin, 1), max(a.opts.NGramMax, 1))
	case n < a.opts.NGramMin:
		return "", fmt.Errorf("it is read as %d word(s) (%s), but the pipeline's terms have at least %d", n, strings.Join(tokens, " "), a.opts.NGramMin)
	}
	return strings.Join(tokens, " "), nil
}
