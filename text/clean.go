package text

import (
	"strings"
	"unicode"

	"github.com/semitopic/semitopic/internal/enum"
)

// thesisReplacements are the whole-token replacements of the thesis code's
// fix_bad_wording (libs/text_preprocess.py, the repl table, later entries
// overriding earlier ones as in a Python dict literal). Its regular-
// expression keys (r"\br\b", ...) can never equal a token and are left
// out.
var thesisReplacements = map[string]string{
	"&lt;3": " heart ", ":d": " smile ", ":dd": " smile ", ":p": " smile ", "8)": " smile ",
	":-)": " smile ", ":)": " smile ", ";)": " smile ", "(-:": " smile ", "(:": " smile ",
	"yay!": " good ", "yay": " good ", "yaay": " good ", "yaaay": " good ", "yaaaay": " good ", "yaaaaay": " good ",
	":/": " worry ", ":&gt;": " angry ", ":')": " sad ", ":-(": " sad ", ":(": " sad ", ":s": " sad ", ":-s": " sad ",
	"m": "am", "r": "are", "u": "you", "haha": "ha", "hahaha": "ha",
	"don't": "do not", "doesn't": "does not", "didn't": "did not", "hasn't": "has not", "haven't": "have not",
	"hadn't": "had not", "won't": "will not", "wouldn't": "would not", "can't": "can not", "cannot": "can not",
	"i'm": "i am", "i'll": "i will", "its": "it is", "it's": "it is", "'s": " is", "that's": "that is",
	"weren't": "were not",
}

// Clean is a cleaning step applied to a document's raw text before every
// other step of the pipeline (Options.Clean).
type Clean uint8

// The cleaning steps.
const (
	// NoClean leaves the text as it is.
	NoClean Clean = iota
	// ThesisClean is CleanText, the theme-supervised NMF thesis' first step.
	ThesisClean
	// ThesisCleanWordPunct is CleanWordPunct, that step on NLTK's
	// WordPunct tokens (the thesis code's Reuters text).
	ThesisCleanWordPunct
)

var cleanNames = []string{"none", "thesis", "thesis-wordpunct"}

// String returns the step's name as accepted by ParseClean.
func (c Clean) String() string { return enum.Name(c, cleanNames, "Clean") }

// ParseClean parses "none", "thesis" or "thesis-wordpunct".
func ParseClean(s string) (Clean, error) {
	c, err := enum.Parse[Clean](s, cleanNames, "cleaning step")
	return c, prefixed(err)
}

// MarshalText writes the step's name, so that saved pipelines hold names.
func (c Clean) MarshalText() ([]byte, error) {
	return enum.MarshalText(c, cleanNames, "cleaning step")
}

// UnmarshalJSON reads a step's name.
func (c *Clean) UnmarshalJSON(b []byte) error {
	return enum.UnmarshalJSON(b, c, cleanNames, "cleaning step")
}

// apply cleans s.
func (c Clean) apply(s string) string {
	switch c {
	case ThesisClean:
		return CleanText(s)
	case ThesisCleanWordPunct:
		return CleanWordPunct(s)
	}
	return s
}

// CleanText applies the first cleaning step of the theme-supervised NMF
// thesis (Suyunu 2020, §7.1; fix_bad_wording in the reference code's
// libs/text_preprocess.py) to text whose tokens are separated by white
// space: each token is lower-cased, dropped if it starts with "http"
// or "www", replaced by the table of contractions and emoticons ("didn't"
// → "did not") if it is one of them, and then every character other than
// an ASCII letter, a space, '?' or '!' is deleted — so "Atlanta's" becomes
// "atlantas" and "mid-week" "midweek", not two tokens. The rest of the
// thesis pipeline (tokens of 3–15 letters, stopwords, lemmas, n-grams) is
// the "theme" preset of package vectorize; Options.Clean runs this step
// inside a pipeline.
//
// White space is Python's (str.split): Unicode white space and the
// separators U+001C–U+001F.
func CleanText(text string) string {
	return cleanTokens(pyFields(text))
}

// CleanWordPunct is CleanText on the tokens of NLTK's WordPunctTokenizer
// (runs of word characters, \w+, or of other non-space characters): the
// text the thesis code cleans for Reuters, ' '.join(reuters.words(f)).
func CleanWordPunct(text string) string {
	return cleanTokens(wordPunctTokens(text))
}

func cleanTokens(tokens []string) string {
	var sb strings.Builder
	for _, tok := range tokens {
		tok = strings.ToLower(tok)
		if strings.HasPrefix(tok, "http") || strings.HasPrefix(tok, "www") {
			continue
		}
		if r, ok := thesisReplacements[tok]; ok {
			tok = r
		}
		for _, c := range tok {
			if ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') {
				sb.WriteRune(unicode.ToLower(c))
			} else if c == ' ' || c == '?' || c == '!' {
				sb.WriteRune(c)
			}
		}
		sb.WriteByte(' ')
	}
	return sb.String()
}

// pySpace reports whether Python's str.split treats r as white space.
func pySpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// pyFields splits s at runs of Python white space.
func pyFields(s string) []string {
	return strings.FieldsFunc(s, pySpace)
}

// isWordChar reports whether r is a Python regular-expression word
// character (\w): a letter, a number or '_'.
func isWordChar(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// wordPunctTokens splits s as NLTK's WordPunctTokenizer (\w+|[^\w\s]+).
func wordPunctTokens(s string) []string {
	var out []string
	start, kind := -1, 0 // kind 1: word run, 2: punctuation run
	for i, r := range s {
		k := 2
		switch {
		case isWordChar(r):
			k = 1
		case pySpace(r):
			k = 0
		}
		if k != kind {
			if kind != 0 {
				out = append(out, s[start:i])
			}
			start, kind = i, k
		}
	}
	if kind != 0 {
		out = append(out, s[start:])
	}
	return out
}
