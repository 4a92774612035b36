package text

import (
	"unicode"
	"unicode/utf8"

	"github.com/semitopic/semitopic/internal/enum"
)

// Pattern selects what a token is.
type Pattern uint8

// The token patterns.
const (
	// Letters: maximal runs of Unicode letters; combining marks that follow a
	// letter stay in its token. The default.
	Letters Pattern = iota
	// LettersDigits: maximal runs of Unicode letters and decimal digits.
	LettersDigits
	// ASCIILetters: maximal runs of [a-zA-Z], the pattern of the SSNMF
	// paper's code. Every other character separates tokens.
	ASCIILetters
	// SklearnWords: scikit-learn's default token_pattern (?u)\b\w\w+\b, that
	// is maximal runs of at least two word characters, where a word character
	// is a Unicode letter or number (Python's str.isalnum) or '_'.
	SklearnWords
	// Words: the words of Unicode text segmentation (UAX #29) that hold a
	// letter, cut at apostrophes (French "l'homme" is "l" and "homme";
	// "d’État" is "d" and "État"). Runs of letters of the scripts written
	// without spaces (Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar),
	// which UAX #29 cuts into single characters, are kept whole for a
	// language's dictionary segmenter (Options.Language zh or ja) to cut
	// into words; without one they stay one token each. The pattern of
	// every language but English (WithLanguage).
	Words
)

var patternNames = [...]string{"letters", "alnum", "ascii", "sklearn", "words"}

// MarshalText writes the pattern's name, so that saved pipelines hold names.
func (p Pattern) MarshalText() ([]byte, error) {
	return enum.MarshalText(p, patternNames[:], "token pattern")
}

// UnmarshalJSON reads a pattern's name, or the integer older files hold.
func (p *Pattern) UnmarshalJSON(b []byte) error {
	return enum.UnmarshalJSON(b, p, patternNames[:], "token pattern")
}

// String returns the pattern's name as accepted by ParsePattern.
func (p Pattern) String() string { return enum.Name(p, patternNames[:], "Pattern") }

// ParsePattern parses "letters", "alnum", "ascii", "sklearn" or "words".
func ParsePattern(s string) (Pattern, error) {
	p, err := enum.Parse[Pattern](s, patternNames[:], "token pattern")
	return p, prefixed(err)
}

// inToken reports whether r may be part of a token; cont says whether r may
// only continue a token that has already started (combining marks).
func (p Pattern) inToken(r rune) (ok, contOnly bool) {
	switch p {
	case Letters:
		if r < utf8.RuneSelf {
			return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z', false
		}
		if unicode.IsLetter(r) {
			return true, false
		}
		return unicode.In(r, unicode.Mn, unicode.Mc), true
	case LettersDigits:
		if r < utf8.RuneSelf {
			return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9', false
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true, false
		}
		return unicode.In(r, unicode.Mn, unicode.Mc), true
	case ASCIILetters:
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z', false
	case SklearnWords:
		if r < utf8.RuneSelf {
			return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_', false
		}
		return unicode.IsLetter(r) || unicode.IsNumber(r), false
	}
	return false, false
}

// Tokenize appends the tokens of s under pattern p to dst and returns it.
// Tokens are substrings of s (no copies). Invalid UTF-8 bytes separate
// tokens.
func Tokenize(dst []string, s string, p Pattern) []string {
	if p == Words {
		return tokenizeWords(dst, s)
	}
	start := -1
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				r = -1
			}
		}
		ok, contOnly := false, false
		if r >= 0 {
			ok, contOnly = p.inToken(r)
		}
		switch {
		case ok && (!contOnly || start >= 0):
			if start < 0 {
				start = i
			}
		default:
			if start >= 0 {
				dst = appendToken(dst, s[start:i], p)
				start = -1
			}
		}
		i += size
	}
	if start >= 0 {
		dst = appendToken(dst, s[start:], p)
	}
	return dst
}

func appendToken(dst []string, tok string, p Pattern) []string {
	if p == SklearnWords && utf8.RuneCountInString(tok) < 2 {
		return dst
	}
	return append(dst, tok)
}

// IsNumber reports whether tok consists only of decimal digits.
func IsNumber(tok string) bool {
	if tok == "" {
		return false
	}
	for _, r := range tok {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}
