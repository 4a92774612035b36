package text

import (
	"bufio"
	"embed"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

//go:embed stopwords/*.txt
var stopwordFiles embed.FS

// stopwordFile gives the embedded file of the lists whose name is not
// their file's.
var stopwordFile = map[string]string{"nltk": "nltk-english.txt", "sklearn": "sklearn-english.txt"}

// StopwordLists names the embedded stopword lists, "nltk" and "sklearn"
// first, then the others sorted:
//
//   - "nltk": NLTK's English list (179 words), used by the TS-NMF,
//     theme-supervised NMF and SSNMF experiments;
//   - "sklearn": scikit-learn's ENGLISH_STOP_WORDS (318 words), used by the
//     CorEx and LDA reference setups (CountVectorizer(stop_words='english'));
//   - "nltk-CODE": NLTK's list of the language with that ISO 639-1 code
//     (nltk-de, nltk-fr, nltk-ru, nltk-zh, …; and nltk-hinglish), as NLTK
//     ships them (stopwords/README.nltk says where they come from);
//   - "semitopic-ja": Japanese function words in the forms the Japanese
//     segmenter cuts (NLTK has no Japanese list).
//   - "semitopic-el": Modern Greek function words (NLTK's Greek list is
//     of Ancient Greek).
//   - "semitopic-tr", "semitopic-ca", "semitopic-hu": the Turkish, Catalan
//     and Hungarian function words that NLTK's lists of those languages
//     lack (Language.MoreStopwords).
func StopwordLists() []string {
	var names []string
	entries, _ := stopwordFiles.ReadDir("stopwords")
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".txt")
		if !ok {
			continue
		}
		for list, file := range stopwordFile {
			if file == e.Name() {
				name = list
			}
		}
		if name != "nltk" && name != "sklearn" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return append([]string{"nltk", "sklearn"}, names...)
}

// Stopwords returns a copy of the named embedded list (see StopwordLists),
// in the order of its source file.
func Stopwords(name string) ([]string, error) {
	file, ok := stopwordFile[name]
	if !ok {
		file = name + ".txt"
	}
	if !slices.Contains(StopwordLists(), name) {
		return nil, errorf("unknown stopword list %q (valid: %s; no list at all removes none)", name, strings.Join(StopwordLists(), ", "))
	}
	f, err := stopwordFiles.Open("stopwords/" + file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadWordList(f)
}

// ReadWordList reads one word per line, trimming spaces; blank lines and
// lines starting with '#' are skipped.
func ReadWordList(r io.Reader) ([]string, error) {
	var words []string
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		w := strings.TrimSpace(sc.Text())
		if w == "" || strings.HasPrefix(w, "#") {
			continue
		}
		words = append(words, w)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	return words, nil
}

// stopSet builds the set of stopwords from named lists and extra words,
// normalised with the analyzer's case mode so that they match its tokens.
func stopSet(lists, extra []string, normalize func(string) string) (map[string]struct{}, error) {
	set := map[string]struct{}{}
	for _, name := range lists {
		words, err := Stopwords(name)
		if err != nil {
			return nil, err
		}
		for _, w := range words {
			set[normalize(w)] = struct{}{}
		}
	}
	for _, w := range extra {
		if w = strings.TrimSpace(w); w != "" {
			set[normalize(w)] = struct{}{}
		}
	}
	return set, nil
}

func sortedSet(set map[string]struct{}) []string {
	out := make([]string, 0, len(set))
	for w := range set {
		out = append(out, w)
	}
	sort.Strings(out)
	return out
}
