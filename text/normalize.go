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
// input takes a fast path; the result is identical.
func Normalize(s string, nfkc, stripAccents bool, c Case) string {
	if isASCII(s) {
		if c == KeepCase {
			return s
		}
		return asciiLower(s)
	}
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
