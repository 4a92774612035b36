package text

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/semitopic/semitopic/internal/enum"
)

// Case selects how letter case is normalised.
type Case uint8

// The case modes.
const (
	// Fold applies full Unicode case folding (golang.org/x/text/cases.Fold):
	// "Straße" and "STRASSE" both become "strasse".
	Fold Case = iota
	// Lower lower-cases as Python's str.lower and scikit-learn do
	// (including the Greek final sigma).
	Lower
	// KeepCase leaves case unchanged.
	KeepCase
)

var caseNames = []string{"fold", "lower", "keep"}

// MarshalText writes the mode's name, so that saved pipelines hold names.
func (c Case) MarshalText() ([]byte, error) { return enum.MarshalText(c, caseNames, "case mode") }

// UnmarshalJSON reads a mode's name, or the integer older files hold.
func (c *Case) UnmarshalJSON(b []byte) error {
	return enum.UnmarshalJSON(b, c, caseNames, "case mode")
}

// String returns the mode's name as accepted by ParseCase.
func (c Case) String() string { return enum.Name(c, caseNames, "Case") }

// ParseCase parses "fold", "lower" or "keep".
func ParseCase(s string) (Case, error) {
	c, err := enum.Parse[Case](s, caseNames, "case mode")
	return c, prefixed(err)
}

// isASCII reports whether s holds only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Normalize applies NFKC normalisation (when nfkc is set), accent stripping
// (when stripAccents is set: canonical decomposition, removal of combining
// marks, recomposition — "café" becomes "cafe") and the case mode c. ASCII
// input, and input made only of the runes foldable accepts, take fast
// paths; the result is identical.
func Normalize(s string, nfkc, stripAccents bool, c Case) string {
	if isASCII(s) {
		if c == KeepCase {
			return s
		}
		return asciiLower(s)
	}
	if !stripAccents {
		if out, ok := foldFast(s, c); ok {
			return out
		}
	}
	return normalizeSlow(s, nfkc, stripAccents, c)
}

// foldable reports whether NFKC leaves r as it is and both case folding
// and lower-casing map r, on its own, to unicode.ToLower(r) (but ß, which
// folds to "ss"): the runes of Latin-1, Latin Extended-A and -B,
// Cyrillic, the Hangul syllables and the dashes and quotes of General
// Punctuation, less the exceptions listed. TestFoldable checks every rune against
// golang.org/x/text.
func foldable(r rune) bool {
	switch {
	case r < 0x80:
		return true
	case r <= 0x24F:
		switch {
		case r == 0xA0, r == 0xA8, r == 0xAA, r == 0xAF, 0xB2 <= r && r <= 0xB5, 0xB8 <= r && r <= 0xBA, 0xBC <= r && r <= 0xBE,
			r == 0x130, r == 0x132, r == 0x133, r == 0x13F, r == 0x140, r == 0x149, r == 0x17F,
			0x1C4 <= r && r <= 0x1CC, 0x1F0 <= r && r <= 0x1F3:
			return false
		}
		return true
	case 0x400 <= r && r <= 0x52F, 0xAC00 <= r && r <= 0xD7A3:
		return true
	case 0x2010 <= r && r <= 0x201F:
		return r != 0x2011 && r != 0x2017
	}
	return false
}

// foldFast normalises s rune by rune when every rune is foldable (NFKC
// then changes nothing, and case maps each rune alone); ok is false
// otherwise.
func foldFast(s string, c Case) (out string, ok bool) {
	var b []byte // the result, once it differs from s
	for i := 0; i < len(s); {
		if x := s[i]; x < utf8.RuneSelf {
			if 'A' <= x && x <= 'Z' && c != KeepCase {
				if b == nil {
					b = append(make([]byte, 0, len(s)+8), s[:i]...)
				}
				x += 'a' - 'A'
			}
			if b != nil {
				b = append(b, x)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !foldable(r) || r == utf8.RuneError {
			return "", false
		}
		m := r
		if c != KeepCase {
			m = unicode.ToLower(r)
		}
		if m != r || r == 'ß' && c == Fold {
			if b == nil {
				b = append(make([]byte, 0, len(s)+8), s[:i]...)
			}
		}
		switch {
		case b == nil:
		case r == 'ß' && c == Fold:
			b = append(b, "ss"...)
		default:
			b = utf8.AppendRune(b, m)
		}
		i += size
	}
	if b == nil {
		return s, true
	}
	return string(b), true
}

// normalizeSlow is Normalize without its fast paths.
func normalizeSlow(s string, nfkc, stripAccents bool, c Case) string {
	if nfkc {
		s = norm.NFKC.String(s)
	}
	if stripAccents {
		t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
		if out, _, err := transform.String(t, s); err == nil {
			s = out
		}
	}
	switch c {
	case Fold:
		// A Caser is stateful; a fresh one per call keeps Normalize safe
		// for concurrent use.
		s = cases.Fold().String(s)
	case Lower:
		// cases.Lower handles the Greek final sigma as Python's str.lower.
		s = cases.Lower(language.Und).String(s)
	}
	return s
}

func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; 'A' <= c && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
