package text

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/semitopic/semitopic/text/internal/snowball"
)

// Language is what the pipeline knows of a language: its stopword list,
// its Snowball stemmer and whether a dictionary segments its words.
type Language struct {
	// Code is the ISO 639-1 code, as Options.Language and --language take
	// it.
	Code string
	// Name is the language's English name.
	Name string
	// Stopwords names the embedded stopword list of the language (see
	// StopwordLists), or is empty when there is none.
	Stopwords string
	// MoreStopwords names an embedded list of the function words that
	// Stopwords lacks, written for semitopic and used beside it, or is
	// empty.
	MoreStopwords string
	// Stemmer reports whether a Snowball stemmer exists for it (Morph
	// Stem).
	Stemmer bool
	// Segmenter reports whether a dictionary segments its words (package
	// text/segment); other languages are cut at Unicode word boundaries.
	// A build without the language's dictionary refuses the language.
	Segmenter bool
	// Note says what the pipeline does not do for the language, if
	// anything.
	Note string
}

// stemFuncs are the Snowball stemmers (package text/internal/snowball,
// generated from the Snowball project's sources) by language code: one for
// every language the Snowball project has an algorithm for.
var stemFuncs = map[string]func(*snowball.Env) bool{
	"ar": snowball.StemArabic, "ca": snowball.StemCatalan, "cs": snowball.StemCzech, "da": snowball.StemDanish,
	"de": snowball.StemGerman, "el": snowball.StemGreek, "en": snowball.StemEnglish, "eo": snowball.StemEsperanto,
	"es": snowball.StemSpanish, "et": snowball.StemEstonian, "eu": snowball.StemBasque, "fa": snowball.StemPersian,
	"fi": snowball.StemFinnish, "fr": snowball.StemFrench, "ga": snowball.StemIrish, "hi": snowball.StemHindi,
	"hu": snowball.StemHungarian, "hy": snowball.StemArmenian, "id": snowball.StemIndonesian, "it": snowball.StemItalian,
	"lt": snowball.StemLithuanian, "ne": snowball.StemNepali, "nl": snowball.StemDutch, "no": snowball.StemNorwegian,
	"pl": snowball.StemPolish, "pt": snowball.StemPortuguese, "ro": snowball.StemRomanian, "ru": snowball.StemRussian,
	"sr": snowball.StemSerbian, "sv": snowball.StemSwedish, "ta": snowball.StemTamil, "tr": snowball.StemTurkish,
	"yi": snowball.StemYiddish,
}

// languageTable lists every language the pipeline knows, by code.
var languageTable = []Language{
	{Code: "ar", Name: "Arabic"},
	{Code: "az", Name: "Azerbaijani"},
	{Code: "bn", Name: "Bengali"},
	{Code: "ca", Name: "Catalan", MoreStopwords: "semitopic-ca"},
	{Code: "cs", Name: "Czech"},
	{Code: "da", Name: "Danish"},
	{Code: "de", Name: "German"},
	{Code: "el", Name: "Greek", Stopwords: "semitopic-el"},
	{Code: "en", Name: "English", Stopwords: "nltk"},
	{Code: "eo", Name: "Esperanto"},
	{Code: "es", Name: "Spanish"},
	{Code: "et", Name: "Estonian"},
	{Code: "eu", Name: "Basque"},
	{Code: "fa", Name: "Persian"},
	{Code: "fi", Name: "Finnish"},
	{Code: "fr", Name: "French"},
	{Code: "ga", Name: "Irish"},
	{Code: "he", Name: "Hebrew"},
	{Code: "hi", Name: "Hindi"},
	{Code: "hu", Name: "Hungarian", MoreStopwords: "semitopic-hu"},
	{Code: "hy", Name: "Armenian"},
	{Code: "id", Name: "Indonesian"},
	{Code: "it", Name: "Italian"},
	{Code: "ja", Name: "Japanese", Stopwords: "semitopic-ja", Segmenter: true},
	{Code: "kk", Name: "Kazakh"},
	{Code: "ko", Name: "Korean", Note: "words are the spans between spaces (UAX #29 words), with their particles attached; no morphological analysis"},
	{Code: "lt", Name: "Lithuanian"},
	{Code: "ne", Name: "Nepali"},
	{Code: "nl", Name: "Dutch"},
	{Code: "no", Name: "Norwegian"},
	{Code: "pl", Name: "Polish"},
	{Code: "pt", Name: "Portuguese"},
	{Code: "ro", Name: "Romanian"},
	{Code: "ru", Name: "Russian"},
	{Code: "sl", Name: "Slovene"},
	{Code: "sr", Name: "Serbian"},
	{Code: "sv", Name: "Swedish"},
	{Code: "ta", Name: "Tamil"},
	{Code: "tg", Name: "Tajik"},
	{Code: "th", Name: "Thai", Note: "no word segmenter: each run of Thai letters between spaces or punctuation is one token (a phrase); segment the text first (spaces between words) for word topics"},
	{Code: "tr", Name: "Turkish", MoreStopwords: "semitopic-tr"},
	{Code: "yi", Name: "Yiddish"},
	{Code: "zh", Name: "Chinese", Segmenter: true},
}

// Languages returns every language the pipeline knows, sorted by code.
func Languages() []Language {
	out := make([]Language, len(languageTable))
	for i, l := range languageTable {
		out[i] = completeLanguage(l)
	}
	return out
}

// completeLanguage fills in what follows from the embedded data.
func completeLanguage(l Language) Language {
	if l.Stopwords == "" && slices.Contains(StopwordLists(), "nltk-"+l.Code) {
		l.Stopwords = "nltk-" + l.Code
	}
	_, l.Stemmer = stemFuncs[l.Code]
	return l
}

// languageAliases are codes read as another: Norwegian Bokmål and Nynorsk
// as Norwegian (NLTK's list and Snowball's stemmer are Bokmål's).
var languageAliases = map[string]string{"nb": "no", "nn": "no"}

// LookupLanguage returns the language of an ISO 639-1 code (case does
// not matter; nb and nn are Norwegian, no).
func LookupLanguage(code string) (Language, error) {
	c := strings.ToLower(strings.TrimSpace(code))
	if a, ok := languageAliases[c]; ok {
		c = a
	}
	i := sort.Search(len(languageTable), func(i int) bool { return languageTable[i].Code >= c })
	if i < len(languageTable) && languageTable[i].Code == c {
		return completeLanguage(languageTable[i]), nil
	}
	codes := make([]string, len(languageTable))
	for i, l := range languageTable {
		codes[i] = l.Code
	}
	return Language{}, errorf("unknown language %q (known ISO 639-1 codes: %s)", code, strings.Join(codes, ", "))
}

// englishLists are the embedded English stopword lists, which WithLanguage
// replaces by the language's own.
var englishLists = []string{"nltk", "sklearn"}

// WithLanguage returns o set up for a language: Language set (empty for
// English, so that English pipelines stay as they were), the English
// stopword lists replaced by the language's lists (Language.Stopwords and
// MoreStopwords), lemmas (WordNet, English
// only) replaced by the language's Snowball stems or by none (with
// StopStems, so that inflected stopwords go too), the tokens
// cut at Unicode word boundaries (Words; of at least 2 characters where
// the pattern was scikit-learn's), accents stripped for Greek
// (capitals drop them), and for Chinese, Japanese,
// Korean and Thai a minimum length of at most 2 characters (most of their
// words have two). Options that do not depend on the language are kept.
// For English o is returned unchanged.
func WithLanguage(o Options, code string) (Options, error) {
	l, err := LookupLanguage(code)
	if err != nil {
		return o, err
	}
	if l.Code == "en" {
		return o, nil
	}
	o.Language = l.Code
	var lists []string
	replaced := false
	for _, s := range o.Stopwords {
		if slices.Contains(englishLists, s) {
			replaced = true
			continue
		}
		lists = append(lists, s)
	}
	if replaced {
		for _, s := range []string{l.Stopwords, l.MoreStopwords} {
			if s != "" && !slices.Contains(lists, s) {
				lists = append(lists, s)
			}
		}
	}
	o.Stopwords = lists
	if o.Morph == Lemma || o.Morph == Stem {
		o.Morph = NoMorph
		if l.Stemmer {
			o.Morph = Stem
		}
		o.LemmaPOS = ""
	}
	// Inflected stopwords (Turkish bunun, bunda) share the stopword's stem.
	o.StopStems = o.Morph == Stem
	if o.Pattern == SklearnWords {
		// scikit-learn's tokens have two characters at least.
		o.MinLength = max(o.MinLength, 2)
	}
	o.Pattern = Words
	switch l.Code {
	case "el":
		// Greek drops its accents in capitals (ΜΟΥ, μου): stripped, the
		// forms of a word meet, and the stopwords are stripped alike.
		o.StripAccents = true
	case "zh", "ja", "ko", "th":
		o.MinLength = min(o.MinLength, 2)
	}
	return o, nil
}

// Warnings says what the options do that a person may not expect of
// their language: WordNet lemmas on a language other than English, a
// language without stopword list or stemmer. It is empty for English.
func (o Options) Warnings() []string {
	if o.Language == "" || o.Language == "en" {
		return nil
	}
	l, err := LookupLanguage(o.Language)
	if err != nil {
		return nil
	}
	var w []string
	if o.Morph == Lemma {
		w = append(w, fmt.Sprintf("lemmas are English (WordNet): the %s words are left as they are unless WordNet knows them; --morph stem uses the %s Snowball stemmer", l.Name, l.Name))
		if !l.Stemmer {
			w[len(w)-1] = fmt.Sprintf("lemmas are English (WordNet): the %s words are left as they are unless WordNet knows them; %s has no Snowball stemmer here, --morph none avoids the lemmatizer", l.Name, l.Name)
		}
	}
	switch {
	case l.Stopwords == "":
		w = append(w, fmt.Sprintf("no stopword list for %s: add one with --stopwords-file", l.Name))
	case !slices.Contains(o.Stopwords, l.Stopwords) && len(o.ExtraStopwords) == 0:
		w = append(w, fmt.Sprintf("the %s stopword list is not used: --stopwords %s removes it", l.Name, l.Stopwords))
	}
	if l.Note != "" {
		w = append(w, l.Name+": "+l.Note)
	}
	return w
}

// stemmer returns the Snowball stemmer of a language code ("" is English).
// The English stemmer returns words of at most two bytes as they are and
// lower-cases its input, as the Porter2 implementation semitopic used
// before (github.com/kljensen/snowball) did, so that English stems do not
// move.
func stemmer(code string) (func(string) string, error) {
	if code == "" {
		code = "en"
	}
	f, ok := stemFuncs[code]
	if !ok {
		l, err := LookupLanguage(code)
		if err != nil {
			return nil, err
		}
		var have []string
		for c := range stemFuncs {
			have = append(have, c)
		}
		sort.Strings(have)
		return nil, errorf("no Snowball stemmer for %s (%s); stemmers exist for %s: use morphology none", l.Name, l.Code, strings.Join(have, ", "))
	}
	if code == "en" {
		return func(w string) string {
			w = strings.ToLower(strings.TrimSpace(w))
			if len(w) <= 2 {
				return w
			}
			env := snowball.NewEnv(w)
			f(env)
			return env.Current()
		}, nil
	}
	return func(w string) string {
		env := snowball.NewEnv(w)
		f(env)
		return env.Current()
	}, nil
}
