package main

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/text"
	"github.com/semitopic/semitopic/vectorize"
)

// pipelineFlags are the text-pipeline and vectorizer flags shared by every
// command that turns documents into a matrix. A preset sets them all; flags
// given explicitly override it.
type pipelineFlags struct {
	preset        string
	language      string
	detected      *text.Detection // what --language auto found, once detectLanguage ran
	clean         string
	pattern       string
	caseMode      string
	noNFKC        bool
	stripAccents  bool
	minLen        int
	maxLen        int
	dropNumbers   bool
	stopwords     string
	stopwordsFile string
	morph         string
	lemmaPOS      string
	filterAfter   bool
	stopStems     bool
	ngrams        string
	weight        string
	norm          string
	sublinear     bool
	minDF         string
	maxDF         string
	maxFeatures   int
	sklearnTies   bool
	minChars      int
	minTokens     int
}

func (p *pipelineFlags) register(fs *pflag.FlagSet) {
	var presets []string
	for _, n := range vectorize.PipelinePresets() {
		presets = append(presets, fmt.Sprintf("%s (%s)", n, vectorize.PipelinePresetDoc(n)))
	}
	fs.StringVar(&p.preset, "preset", "default", "pipeline preset; explicit flags override it. Presets:\n"+strings.Join(presets, "\n"))
	fs.StringVar(&p.language, "language", "en", "the text's language: an ISO 639-1 code ("+languageCodes()+") or auto (detected from a sample of the corpus, and said). "+
		"It picks the language's stopword list in place of the English ones, its Snowball stemmer in place of the English lemmas or stems (none where Snowball has no algorithm), Unicode (UAX #29) word tokens and, for zh and ja, a dictionary segmenter; "+
		"explicit flags override each. Saved with the model, so that predict, transform and serve read new text alike")
	fs.StringVar(&p.clean, "clean", "none", "cleaning of the raw text before the pipeline: none, thesis (the theme-supervised NMF thesis' fix_bad_wording on white-space tokens: lower case, URLs dropped, contractions expanded, non-letters deleted inside tokens), thesis-wordpunct (the same on NLTK WordPunct tokens)")
	fs.StringVar(&p.pattern, "tokens", "letters", "token pattern: letters (runs of letters), alnum (letters and digits), ascii ([a-zA-Z]+), sklearn ((?u)\\b\\w\\w+\\b), words (Unicode UAX #29 words holding a letter, cut at apostrophes; runs of Han, kana and Thai kept whole for --language zh or ja to segment; the default of --language other than en)")
	fs.StringVar(&p.caseMode, "case", "fold", "case mode: fold (Unicode case folding), lower, keep")
	fs.BoolVar(&p.noNFKC, "no-nfkc", false, "skip Unicode NFKC normalisation")
	fs.BoolVar(&p.stripAccents, "strip-accents", false, "remove accents (café -> cafe)")
	fs.IntVar(&p.minLen, "min-len", 3, "minimum token length in characters (0 = none)")
	fs.IntVar(&p.maxLen, "max-len", 0, "maximum token length in characters (0 = none)")
	fs.BoolVar(&p.dropNumbers, "drop-numbers", false, "drop tokens made only of digits")
	fs.StringVar(&p.stopwords, "stopwords", "nltk", "stopword lists to remove, comma separated: nltk (English, 179 words), sklearn (English, 318 words), nltk-CODE (NLTK's list of another language: "+nltkLists()+"), semitopic-ja (Japanese function words), semitopic-el (Modern Greek function words), semitopic-tr, semitopic-ca, semitopic-hu (the Turkish, Catalan, Hungarian function words NLTK's lists lack), or none; --language replaces the English lists by its own")
	fs.StringVar(&p.stopwordsFile, "stopwords-file", "", "file of extra stopwords, one per line")
	fs.StringVar(&p.morph, "morph", "lemma", "morphology: lemma (WordNet, as NLTK; English only), stem (the Snowball stemmer of --language, English by default), none")
	fs.StringVar(&p.lemmaPOS, "lemma-pos", "n", "WordNet parts of speech for the lemmatizer, comma separated from n,v,a,s,r; several = first that changes the word")
	fs.BoolVar(&p.filterAfter, "filter-after-morph", false, "apply the length and stopword filters to lemmas/stems instead of tokens")
	fs.BoolVar(&p.stopStems, "stop-stems", false, "also remove the inflected forms of stopwords: tokens whose stem or lemma is a stopword that some stopword stems to, and begins them (Turkish bunun -> bu); default on for a --language other than en with --morph stem")
	fs.StringVar(&p.ngrams, "ngrams", "1", "n-gram range: N or MIN-MAX (at most 1-3 is sensible)")
	fs.StringVar(&p.weight, "weight", "tfidf", "weighting: tf (counts), binary (presence), tfidf (smooth idf)")
	fs.StringVar(&p.norm, "norm", "", "row normalisation: l2, l1, none (default: l2 for tfidf, none otherwise)")
	fs.BoolVar(&p.sublinear, "sublinear", false, "use 1+ln(tf) instead of tf")
	fs.StringVar(&p.minDF, "min-df", "1", "minimum document frequency: a count (5) or a fraction (0.01)")
	fs.StringVar(&p.maxDF, "max-df", "1.0", "maximum document frequency: a count or a fraction")
	fs.IntVar(&p.maxFeatures, "max-features", 0, "keep the N most frequent terms (0 = all)")
	fs.BoolVar(&p.sklearnTies, "sklearn-ties", false, "at the --max-features cut, break ties among equally frequent terms in scikit-learn 1.2's order (numpy's argsort) instead of alphabetically, for a vocabulary equal to scikit-learn's")
	fs.IntVar(&p.minChars, "min-chars", 0, "drop documents with fewer characters")
	fs.IntVar(&p.minTokens, "min-tokens", 0, "drop documents with fewer tokens after the text pipeline")
}

// pipelineFlagNames are the flags register adds.
var pipelineFlagNames = []string{"preset", "language", "clean", "tokens", "case", "no-nfkc", "strip-accents", "min-len", "max-len", "drop-numbers",
	"stopwords", "stopwords-file", "morph", "lemma-pos", "filter-after-morph", "stop-stems", "ngrams", "weight", "norm", "sublinear",
	"min-df", "max-df", "max-features", "sklearn-ties", "min-chars", "min-tokens"}

// changed reports whether any pipeline flag was given.
func (p *pipelineFlags) changed(cmd *cobra.Command) bool {
	for _, n := range pipelineFlagNames {
		if cmd.Flags().Changed(n) {
			return true
		}
	}
	return false
}

// build returns the pipeline: the preset, overridden by every flag the user
// set explicitly.
func (p *pipelineFlags) build(cmd *cobra.Command) (vectorize.Pipeline, error) {
	pl, err := vectorize.PipelinePreset(p.preset)
	if err != nil {
		return pl, fmt.Errorf("--preset: %w", err)
	}
	set := func(name string) bool { return cmd.Flags().Changed(name) }
	t := &pl.Text
	v := &pl.Vectorize
	if set("language") {
		if p.language == "auto" {
			return pl, fmt.Errorf("--language auto: this command cannot read the corpus before it sets up the pipeline; give the language's code")
		}
		if pl.Text, err = text.WithLanguage(pl.Text, p.language); err != nil {
			return pl, fmt.Errorf("--language: %w", err)
		}
	}
	if set("clean") {
		if t.Clean, err = text.ParseClean(p.clean); err != nil {
			return pl, fmt.Errorf("--clean: %w", err)
		}
	}
	if set("tokens") {
		if t.Pattern, err = text.ParsePattern(p.pattern); err != nil {
			return pl, fmt.Errorf("--tokens: %w", err)
		}
	}
	if set("case") {
		if t.Case, err = text.ParseCase(p.caseMode); err != nil {
			return pl, fmt.Errorf("--case: %w", err)
		}
	}
	if set("no-nfkc") {
		t.NFKC = !p.noNFKC
	}
	if set("strip-accents") {
		t.StripAccents = p.stripAccents
	}
	if set("min-len") {
		t.MinLength = p.minLen
	}
	if set("max-len") {
		t.MaxLength = p.maxLen
	}
	if set("drop-numbers") {
		t.DropNumbers = p.dropNumbers
	}
	if set("stopwords") {
		t.Stopwords = nil
		lists := text.StopwordLists()
		for _, s := range strings.Split(p.stopwords, ",") {
			s = strings.TrimSpace(s)
			if s != "" && s != "none" && !slices.Contains(lists, s) {
				return pl, fmt.Errorf("--stopwords: unknown list %q (valid: nltk, sklearn, none, or another language's list: %s, semitopic-ja, semitopic-el, semitopic-tr, semitopic-ca, semitopic-hu; several are separated by commas)", s, nltkLists())
			}
			if s != "" && s != "none" {
				t.Stopwords = append(t.Stopwords, s)
			}
		}
	}
	if p.stopwordsFile != "" {
		f, err := os.Open(p.stopwordsFile)
		if err != nil {
			return pl, fmt.Errorf("--stopwords-file: %w", err)
		}
		words, err := text.ReadWordList(f)
		f.Close()
		if err != nil {
			return pl, fmt.Errorf("--stopwords-file %s: %w", p.stopwordsFile, err)
		}
		t.ExtraStopwords = append(t.ExtraStopwords, words...)
	}
	if set("morph") {
		if t.Morph, err = text.ParseMorph(p.morph); err != nil {
			return pl, fmt.Errorf("--morph: %w", err)
		}
	}
	if set("lemma-pos") {
		t.LemmaPOS = p.lemmaPOS
	}
	if set("filter-after-morph") {
		t.FilterAfterMorph = p.filterAfter
	}
	if set("stop-stems") {
		t.StopStems = p.stopStems
	}
	if set("ngrams") {
		lo, hi, err := parseRange(p.ngrams)
		if err != nil {
			return pl, fmt.Errorf("--ngrams: %w", err)
		}
		t.NGramMin, t.NGramMax = lo, hi
	}
	if set("weight") {
		w, err := vectorize.Preset(vectorize.Weighting(p.weight))
		if err != nil {
			return pl, fmt.Errorf("--weight: %w", err)
		}
		// Keep the preset's vocabulary and document settings.
		v.Binary, v.IDF, v.RawIDF, v.Norm, v.Sublinear = w.Binary, w.IDF, w.RawIDF, w.Norm, w.Sublinear
	}
	if set("norm") {
		if v.Norm, err = vectorize.ParseNorm(p.norm); err != nil {
			return pl, fmt.Errorf("--norm: %w", err)
		}
	}
	if set("sublinear") {
		v.Sublinear = p.sublinear
	}
	if set("min-df") {
		if v.MinDF, err = vectorize.ParseThreshold(p.minDF); err != nil {
			return pl, fmt.Errorf("--min-df: %w", err)
		}
	}
	if set("max-df") {
		if v.MaxDF, err = vectorize.ParseThreshold(p.maxDF); err != nil {
			return pl, fmt.Errorf("--max-df: %w", err)
		}
	}
	if set("max-features") {
		if p.maxFeatures < 0 {
			return pl, fmt.Errorf("--max-features: %d: want a number ≥ 0", p.maxFeatures)
		}
		v.MaxFeatures = p.maxFeatures
	}
	if set("sklearn-ties") {
		v.SklearnTies = p.sklearnTies
	}
	if set("min-chars") {
		v.MinChars = p.minChars
	}
	if set("min-tokens") {
		v.MinTokens = p.minTokens
	}
	for _, w := range pl.Text.Warnings() {
		fmt.Fprintf(cmd.ErrOrStderr(), "note: %s\n", w)
	}
	return pl, nil
}

// languageCodes lists the codes --language takes.
func languageCodes() string {
	var codes []string
	for _, l := range text.Languages() {
		codes = append(codes, l.Code)
	}
	return strings.Join(codes, ", ")
}

// nltkLists lists the nltk-CODE stopword lists.
func nltkLists() string {
	var lists []string
	for _, l := range text.StopwordLists() {
		if strings.HasPrefix(l, "nltk-") {
			lists = append(lists, l)
		}
	}
	return strings.Join(lists, ", ")
}

// detectSample is how many documents --language auto reads.
const detectSample = 200

// detectLanguage resolves --language auto: it detects the language of
// docs from up to 200 of them spread over the corpus, says what it found
// on stderr, and sets the flag to its code. Other values are left alone.
func (p *pipelineFlags) detectLanguage(cmd *cobra.Command, docs []corpus.Document) error {
	if p.language != "auto" || !cmd.Flags().Changed("language") {
		return nil
	}
	step := max(1, len(docs)/detectSample)
	var sample []string
	for i := 0; i < len(docs) && len(sample) < detectSample; i += step {
		sample = append(sample, docs[i].Text)
	}
	d, err := text.DetectLanguage(sample)
	if err != nil {
		return fmt.Errorf("--language auto: %w", err)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "language: detected %v\n", d)
	if d.Share() < 0.5 {
		fmt.Fprintf(cmd.ErrOrStderr(), "note: fewer than half the texts are in %s: a corpus of several languages is read as %s; give --language to choose\n", d.Language.Name, d.Language.Name)
	}
	p.language, p.detected = d.Language.Code, &d
	return nil
}

// parseRange parses "N" or "MIN-MAX".
func parseRange(s string) (int, int, error) {
	a, b, found := strings.Cut(s, "-")
	lo, err := strconv.Atoi(strings.TrimSpace(a))
	if err != nil {
		return 0, 0, fmt.Errorf("%q: want N or MIN-MAX", s)
	}
	hi := lo
	if found {
		if hi, err = strconv.Atoi(strings.TrimSpace(b)); err != nil {
			return 0, 0, fmt.Errorf("%q: want N or MIN-MAX", s)
		}
	}
	if lo < 1 || hi < lo {
		return 0, 0, fmt.Errorf("%q: want 1 <= MIN <= MAX", s)
	}
	return lo, hi, nil
}
