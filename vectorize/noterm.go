package vectorize

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/text"
)

// errNoToken is what selectVocab returns when no document has a single
// term, for the caller to find out which step of the pipeline left none
// (see noTermError).
var errNoToken = errors.New("vectorize: no term in any document")

// maxDiagnosed bounds the documents a streamed fit analyses again to say
// why none has a term.
const maxDiagnosed = 10_000

// errEnough stops the pass that diagnoses a streamed corpus.
var errEnough = errors.New("enough documents")

// noTermError says which step of the pipeline left no term in the
// documents that each visits (those the document filters keep), none of
// which has one: the texts are empty,
// the tokenizer found no token, the filters removed every token (and
// which removed how many), or the n-gram range asks for more tokens than
// a document has. complete is false when each visited only the first
// documents of the corpus.
func (v *Vectorizer) noTermError(each func(visit func(text string)) (complete bool, err error)) error {
	var st text.Steps
	most := 0 // the most tokens a document kept
	complete, err := each(func(s string) {
		if v.opts.MinChars > 0 && utf8.RuneCountInString(s) < v.opts.MinChars {
			return // dropped by the document filters, as in the fit
		}
		var one text.Steps
		v.analyzer.CountSteps(&one, s)
		if v.opts.MinTokens > 0 && one.Kept < v.opts.MinTokens {
			return
		}
		most = max(most, one.Kept)
		st.Texts, st.Blank, st.Tokens = st.Texts+one.Texts, st.Blank+one.Blank, st.Tokens+one.Tokens
		st.Numbers, st.Length, st.Stopwords, st.Empty, st.Kept = st.Numbers+one.Numbers, st.Length+one.Length,
			st.Stopwords+one.Stopwords, st.Empty+one.Empty, st.Kept+one.Kept
	})
	if err != nil {
		return err
	}
	o := v.analyzer.Options()
	docs := fmt.Sprintf("the %d documents", st.Texts)
	if !complete {
		docs = fmt.Sprintf("the first %d documents", st.Texts)
	}
	switch {
	case st.Texts == st.Blank:
		return fmt.Errorf("vectorize: no term: %s have no text", docs)
	case st.Tokens == 0:
		return fmt.Errorf("vectorize: no term: the tokenizer (tokens %s) finds no token in %s", o.Pattern, docs)
	case st.Kept == 0:
		var by []string
		add := func(n int, what string) {
			if n > 0 {
				by = append(by, fmt.Sprintf("%d by %s", n, what))
			}
		}
		add(st.Numbers, "dropping numbers")
		bounds := fmt.Sprintf("%d to %d characters", o.MinLength, o.MaxLength)
		if o.MaxLength == 0 {
			bounds = fmt.Sprintf("at least %d characters", o.MinLength)
		}
		add(st.Length, "the length bounds ("+bounds+")")
		lists := append(slices.Clone(o.Stopwords), fmt.Sprintf("%d extra words", len(o.ExtraStopwords)))
		if len(o.ExtraStopwords) == 0 {
			lists = lists[:len(lists)-1]
		}
		add(st.Stopwords, "the stopwords ("+strings.Join(lists, ", ")+")")
		add(st.Empty, "the morphology ("+o.Morph.String()+", which left nothing)")
		return fmt.Errorf("vectorize: no term: the tokenizer finds %d tokens in %s, and the filters remove them all: %s", st.Tokens, docs, strings.Join(by, ", "))
	}
	return fmt.Errorf("vectorize: no term: the n-gram range %d-%d needs documents of at least %d tokens, and %s have at most %d left after the filters",
		o.NGramMin, o.NGramMax, o.NGramMin, docs, most)
}

// texts visits the texts of the documents docs[i] for i in idx.
func texts(docs []corpus.Document, idx []int) func(visit func(string)) (bool, error) {
	return func(visit func(string)) (bool, error) {
		for _, i := range idx {
			visit(docs[i].Text)
		}
		return true, nil
	}
}

// streamTexts visits the texts of the first maxDiagnosed documents of src.
func streamTexts(ctx context.Context, src Source) func(visit func(string)) (bool, error) {
	return func(visit func(string)) (bool, error) {
		n := 0
		err := src(ctx, func(d corpus.Document) error {
			if n == maxDiagnosed {
				return errEnough
			}
			n++
			visit(d.Text)
			return nil
		})
		if errors.Is(err, errEnough) {
			return false, nil
		}
		return true, err
	}
}

// dfBoundsError says that the document-frequency bounds, low and high (as
// numbers of the n documents), left none of the terms whose document
// frequencies are df.
func (v *Vectorizer) dfBoundsError(df []int, n int, low, high float64) error {
	lo, hi, terms := math.MaxInt, 0, 0
	for _, f := range df {
		if f > 0 { // a term of the documents the filters dropped only has 0
			lo, hi, terms = min(lo, f), max(hi, f), terms+1
		}
	}
	minDF := fmt.Sprintf("min_df %v keeps the terms in at least %v of them", v.opts.MinDF, math.Ceil(low))
	if v.opts.MinDF.IsZero() {
		minDF = "no min_df"
	}
	maxDF := fmt.Sprintf("max_df %v those in at most %v", v.opts.MaxDF, math.Floor(high))
	if math.IsInf(high, 1) {
		maxDF = "no max_df"
	}
	return fmt.Errorf("vectorize: no term left after the document-frequency bounds on %d documents: %s, %s, and each of the %d terms is in %d to %d documents",
		n, minDF, maxDF, terms, lo, hi)
}
