package vectorize

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/semitopic/semitopic/internal/enum"
)

// Threshold is a document-frequency bound given either as a number of
// documents or as a fraction of them, like scikit-learn's int or float
// min_df/max_df.
type Threshold struct {
	// Count is the number of documents (when Frac is false).
	Count int `json:"count,omitempty"`
	// Fraction of documents in [0, 1] (when Frac is true).
	Fraction float64 `json:"fraction,omitempty"`
	Frac     bool    `json:"frac,omitempty"`
}

// Count returns a threshold of n documents.
func Count(n int) Threshold { return Threshold{Count: n} }

// Fraction returns a threshold of a fraction f of the documents.
func Fraction(f float64) Threshold { return Threshold{Fraction: f, Frac: true} }

// IsZero reports whether t is the zero Threshold (no bound).
func (t Threshold) IsZero() bool { return t == Threshold{} }

// ParseThreshold parses "5" as a count and "0.7" or "1.0" (anything with a
// decimal point or exponent) as a fraction, as Python's int/float
// distinction does for scikit-learn.
func ParseThreshold(s string) (Threshold, error) {
	s = strings.TrimSpace(s)
	if strings.ContainsAny(s, ".eE") {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || f < 0 || f > 1 {
			return Threshold{}, fmt.Errorf("document frequency %q: a fraction must be in [0, 1]", s)
		}
		return Fraction(f), nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return Threshold{}, fmt.Errorf("document frequency %q: want a count (5) or a fraction (0.7)", s)
	}
	return Count(n), nil
}

// String formats t so that ParseThreshold reads it back.
func (t Threshold) String() string {
	if t.Frac {
		s := strconv.FormatFloat(t.Fraction, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return s
	}
	return strconv.Itoa(t.Count)
}

// docs returns the bound as a number of documents out of n.
func (t Threshold) docs(n int) float64 {
	if t.Frac {
		return t.Fraction * float64(n)
	}
	return float64(t.Count)
}

// Norm is a row normalisation.
type Norm uint8

// The row normalisations.
const (
	NormNone Norm = iota
	NormL2
	NormL1
)

var normNames = [...]string{"none", "l2", "l1"}

// MarshalText writes the norm's name, so that saved pipelines hold names.
func (n Norm) MarshalText() ([]byte, error) { return enum.MarshalText(n, normNames[:], "norm") }

// UnmarshalJSON reads a norm's name, or the integer older files hold.
func (n *Norm) UnmarshalJSON(b []byte) error {
	return enum.UnmarshalJSON(b, n, normNames[:], "norm")
}

// String returns "none", "l2" or "l1".
func (n Norm) String() string { return enum.Name(n, normNames[:], "Norm") }

// ParseNorm parses "none", "l2" or "l1".
func ParseNorm(s string) (Norm, error) { return enum.Parse[Norm](s, normNames[:], "norm") }

// Options configures a Vectorizer. The zero value counts terms (tf) with an
// unlimited vocabulary and no filters.
type Options struct {
	// Binary clips counts to 1 (presence) before any other weighting.
	Binary bool `json:"binary,omitempty"`
	// Sublinear replaces a count tf by 1 + ln(tf).
	Sublinear bool `json:"sublinear,omitempty"`
	// IDF multiplies each column by its inverse document frequency:
	// ln((1+n)/(1+df)) + 1, or ln(n/df) + 1 when RawIDF is set.
	IDF    bool `json:"idf,omitempty"`
	RawIDF bool `json:"raw_idf,omitempty"`
	// Norm normalises each row after weighting.
	Norm Norm `json:"norm"`
	// MinDF and MaxDF bound the document frequency of vocabulary terms
	// (inclusive). The zero MaxDF means no upper bound.
	MinDF Threshold `json:"min_df"`
	MaxDF Threshold `json:"max_df"`
	// MaxFeatures keeps the terms with the highest total count (after the
	// df bounds); ties go to the alphabetically smaller term. 0 = all.
	MaxFeatures int `json:"max_features,omitempty"`
	// RankByDF makes MaxFeatures rank terms by document frequency instead
	// of total count: what scikit-learn's CountVectorizer does with
	// binary=True, since it binarises the counts before choosing.
	RankByDF bool `json:"rank_by_df,omitempty"`
	// SklearnTies breaks ties at the MaxFeatures cut as scikit-learn 1.2
	// does instead of alphabetically: in the order of numpy's default
	// argsort (an unstable introsort) of the negated frequencies of the
	// candidate terms taken in alphabetical order. With it the vocabulary
	// equals CountVectorizer's exactly.
	SklearnTies bool `json:"sklearn_ties,omitempty"`
	// DropDigitTerms removes the terms made only of digits (Python's
	// str.isdigit: decimal digits, superscripts, circled digits) from the
	// vocabulary after MaxFeatures has chosen it, as the Anchored CorEx
	// notebook does; the vocabulary is then smaller than MaxFeatures.
	DropDigitTerms bool `json:"drop_digit_terms,omitempty"`
	// MinChars drops documents whose raw text has fewer characters (the
	// TS-NMF paper drops Reuters documents under 250). Fit only.
	MinChars int `json:"min_chars,omitempty"`
	// MinTokens drops documents with fewer unigram tokens after the text
	// pipeline (before vocabulary pruning). Fit only.
	MinTokens int `json:"min_tokens,omitempty"`
	// Vocabulary, when set, fixes the vocabulary and its column order; the
	// df bounds and MaxFeatures then do not apply.
	Vocabulary []string `json:"vocabulary,omitempty"`
}

// Weighting names a weighting preset.
type Weighting string

// The weighting presets accepted by Preset.
const (
	TF     Weighting = "tf"     // raw counts, no normalisation
	Binary Weighting = "binary" // presence (0/1), no normalisation
	TFIDF  Weighting = "tfidf"  // counts × smooth idf, L2-normalised rows
)

// Preset returns the Options of a weighting preset.
func Preset(w Weighting) (Options, error) {
	switch w {
	case TF:
		return Options{}, nil
	case Binary:
		return Options{Binary: true}, nil
	case TFIDF:
		return Options{IDF: true, Norm: NormL2}, nil
	}
	return Options{}, fmt.Errorf("unknown weighting %q (want tf, binary or tfidf)", w)
}
