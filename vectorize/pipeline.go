package vectorize

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/text"
)

// Pipeline bundles the options of the text analyzer and the vectorizer: all
// that decides how documents become a matrix.
type Pipeline struct {
	Text      text.Options `json:"text"`
	Vectorize Options      `json:"vectorize"`
}

// New builds the analyzer and an unfitted vectorizer.
func (p Pipeline) New() (*Vectorizer, error) {
	a, err := text.NewAnalyzer(p.Text)
	if err != nil {
		return nil, err
	}
	return New(a, p.Vectorize)
}

// FitTransform builds the pipeline's vectorizer, learns its vocabulary
// from docs and returns the vectorizer with the documents' matrix.
func (p Pipeline) FitTransform(ctx context.Context, docs []corpus.Document) (*Vectorizer, *Result, error) {
	v, err := p.New()
	if err != nil {
		return nil, nil, err
	}
	res, err := v.FitTransform(ctx, docs)
	if err != nil {
		return nil, nil, err
	}
	return v, res, nil
}

// DefaultPipeline is text.Default (NFKC, case folding, letter runs of at
// least 3 characters, NLTK stopwords, WordNet noun lemmas) followed by
// tf-idf with L2-normalised rows.
func DefaultPipeline() Pipeline {
	return Pipeline{Text: text.Default(), Vectorize: Options{IDF: true, Norm: NormL2}}
}

type preset struct {
	doc  string
	make func() Pipeline
}

// presetTable holds the preprocessing the method papers describe. Each
// entry documents its source; the experiment commands use them.
func presetTable() map[string]preset {
	return map[string]preset{
		"default": {"NFKC, case folding, letters, 3+ characters, NLTK stopwords, WordNet noun lemmas; tf-idf, L2 rows",
			DefaultPipeline},
		"tsnmf": {"TS-NMF paper on Reuters: WordNet noun lemmas, then tokens of 3+ letters without NLTK stopwords; documents under 250 characters dropped; tf-idf of the 2,000 most frequent terms with min_df 2, L2 rows",
			func() Pipeline {
				t := text.Default()
				t.FilterAfterMorph = true
				return Pipeline{Text: t, Vectorize: Options{IDF: true, Norm: NormL2, MaxFeatures: 2000, MinDF: Count(2), MinChars: 250}}
			}},
		"theme": {"theme-supervised NMF thesis §7.1 (libs/text_preprocess.py): accents stripped, letter tokens of 3 to 15 characters, NLTK stopwords removed from the tokens, then WordNet lemmas trying n,v,r,a,s, uni- to trigrams of the lemmas; counts of the 10,000 most frequent terms. The thesis also cleans the text first (fix_bad_wording, text.CleanText: add --clean thesis) and drops documents with fewer than 27 tokens (its notebooks keep text.count(' ') > 25: add --min-tokens 27); the preset does neither, so that it keeps every document of a corpus it is the default pipeline for",
			func() Pipeline {
				t := text.Default()
				t.StripAccents = true
				t.MaxLength = 15
				t.LemmaPOS = "n,v,r,a,s"
				t.NGramMin, t.NGramMax = 1, 3
				return Pipeline{Text: t, Vectorize: Options{MaxFeatures: 10000}}
			}},
		"ssnmf": {"SSNMF paper on 20 Newsgroups: lower-cased [a-zA-Z]+ tokens, NLTK stopwords, min_df 5, max_df 0.7, tf-idf of the 5,000 most frequent terms, L2 rows",
			func() Pipeline {
				t := text.Options{Case: text.Lower, Pattern: text.ASCIILetters, Stopwords: []string{"nltk"}}
				return Pipeline{Text: t, Vectorize: Options{IDF: true, Norm: NormL2, MinDF: Count(5), MaxDF: Fraction(0.7), MaxFeatures: 5000}}
			}},
		"corex": {"Anchored CorEx reference notebook: scikit-learn's default tokens and English stopwords, binary presence of the 20,000 words in most documents with scikit-learn's tie order (CountVectorizer(binary=True, max_features=20000)), then the digit-only words dropped (20 Newsgroups train: 19,038 words)",
			func() Pipeline {
				t := text.Options{Case: text.Lower, Pattern: text.SklearnWords, Stopwords: []string{"sklearn"}}
				return Pipeline{Text: t, Vectorize: Options{Binary: true, MaxFeatures: 20000, RankByDF: true, SklearnTies: true, DropDigitTerms: true}}
			}},
		"lda": {"LDA baseline setup: scikit-learn's default tokens and English stopwords, counts of the 20,000 most frequent words with min_df 2, ties at the cut in scikit-learn's order (CountVectorizer(min_df=2, max_features=20000, stop_words='english'))",
			func() Pipeline {
				t := text.Options{Case: text.Lower, Pattern: text.SklearnWords, Stopwords: []string{"sklearn"}}
				return Pipeline{Text: t, Vectorize: Options{MinDF: Count(2), MaxFeatures: 20000, SklearnTies: true}}
			}},
	}
}

// PipelinePresets returns the preset names in sorted order.
func PipelinePresets() []string {
	presets := presetTable()
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// PipelinePresetDoc describes a preset in one line.
func PipelinePresetDoc(name string) string { return presetTable()[name].doc }

// PipelinePreset returns the named preset (see PipelinePresets).
func PipelinePreset(name string) (Pipeline, error) {
	p, ok := presetTable()[name]
	if !ok {
		return Pipeline{}, fmt.Errorf("unknown pipeline preset %q (want %s)", name, strings.Join(PipelinePresets(), ", "))
	}
	return p.make(), nil
}

// String summarises the pipeline in one line for reports, such as "NFKC,
// case fold, tokens letters, length 3..∞, stopwords nltk, lemmas(n),
// tf-idf, norm l2" for DefaultPipeline.
func (p Pipeline) String() string {
	t, v := p.Text, p.Vectorize
	var parts []string
	if t.Language != "" {
		parts = append(parts, "language "+t.Language)
	}
	if t.NFKC {
		parts = append(parts, "NFKC")
	}
	parts = append(parts, "case "+t.Case.String(), "tokens "+t.Pattern.String())
	if t.MinLength > 0 || t.MaxLength > 0 {
		parts = append(parts, fmt.Sprintf("length %d..%s", t.MinLength, orInf(t.MaxLength)))
	}
	if len(t.Stopwords) > 0 || len(t.ExtraStopwords) > 0 {
		sw := strings.Join(t.Stopwords, "+")
		if n := len(t.ExtraStopwords); n > 0 {
			sw += fmt.Sprintf(" and %d more", n)
		}
		if t.StopStems && t.Morph != text.NoMorph {
			sw += " with their stems"
		}
		parts = append(parts, "stopwords "+strings.TrimSpace(sw))
	}
	switch t.Morph {
	case text.Lemma:
		parts = append(parts, "lemmas("+t.LemmaPOS+")")
	case text.Stem:
		parts = append(parts, "stems")
	}
	if t.NGramMax > 1 {
		parts = append(parts, fmt.Sprintf("%d-%d-grams", max(t.NGramMin, 1), t.NGramMax))
	}
	w := "tf"
	switch {
	case v.Binary && v.IDF:
		w = "binary·idf"
	case v.Binary:
		w = "binary"
	case v.IDF:
		w = "tf-idf"
	}
	if v.Sublinear {
		w = "sublinear " + w
	}
	parts = append(parts, w, "norm "+v.Norm.String())
	if v.MaxFeatures > 0 {
		parts = append(parts, fmt.Sprintf("max %d terms", v.MaxFeatures))
	}
	if !v.MinDF.IsZero() || !v.MaxDF.IsZero() {
		parts = append(parts, fmt.Sprintf("df %v..%v", v.MinDF, orAll(v.MaxDF)))
	}
	return strings.Join(parts, ", ")
}

func orInf(n int) string {
	if n == 0 {
		return "∞"
	}
	return strconv.Itoa(n)
}

func orAll(t Threshold) string {
	if t.IsZero() {
		return "all"
	}
	return t.String()
}
