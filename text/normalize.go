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
// input, and input made only of the runes foldable accepts (and, when
// accents are stripped, combining marks), take fast paths; the result is
// identical.
func Normalize(s string, nfkc, stripAccents bool, c Case) string {
	if isASCII(s) {
		if c == KeepCase {
			return s
		}
		return asciiLower(s)
	}
	if out, ok := foldFast(s, nfkc, stripAccents, c); ok {
		return out
	}
	return normalizeSlow(s, nfkc, stripAccents, c)
}

// foldable reports whether NFKC leaves r as it is, r is a starter that
// never combines with the rune before it, and both case folding and
// lower-casing map r, on its own, to unicode.ToLower(r) (but ß, which
// folds to "ss", ς, which folds to σ, and Σ, which lower-cases to ς at the
// end of a word): the runes of Latin-1, Latin Extended-A and -B, Greek,
// Cyrillic, Hebrew, Arabic, the CJK symbols, Hiragana, Katakana, the CJK
// ideographs, the Hangul syllables and the dashes and quotes of General
// Punctuation, the zero-width spaces, joiners and direction marks and the
// modifier letter apostrophe, less the exceptions listed; İ lower-cases to
// i and a combining dot. TestFoldable checks every rune against
// golang.org/x/text.
func foldable(r rune) bool {
	switch {
	case r < 0x80:
		return true
	case r <= 0x24F:
		switch {
		case r == 0xA0, r == 0xA8, r == 0xAA, r == 0xAF, 0xB2 <= r && r <= 0xB5, 0xB8 <= r && r <= 0xBA, 0xBC <= r && r <= 0xBE,
			r == 0x132, r == 0x133, r == 0x13F, r == 0x140, r == 0x149, r == 0x17F,
			0x1C4 <= r && r <= 0x1CC, 0x1F0 <= r && r <= 0x1F3:
			return false
		}
		return true
	case 0x370 <= r && r <= 0x3FF: // Greek
		switch {
		case r == 0x374, r == 0x37A, r == 0x37E, 0x384 <= r && r <= 0x385, r == 0x387, r == 0x390, r == 0x3B0,
			0x3D0 <= r && r <= 0x3D6, 0x3F0 <= r && r <= 0x3F2, 0x3F4 <= r && r <= 0x3F5, r == 0x3F9:
			return false
		}
		return true
	case 0x400 <= r && r <= 0x52F: // Cyrillic, less its marks
		return r < 0x483 || r > 0x487
	case 0xAC00 <= r && r <= 0xD7A3:
		return true
	case 0x5C8 <= r && r <= 0x5FF: // Hebrew letters and punctuation
		return true
	case 0x600 <= r && r <= 0x6FF: // Arabic, less its marks
		switch {
		case 0x610 <= r && r <= 0x61A, 0x64B <= r && r <= 0x65F, r == 0x670, 0x675 <= r && r <= 0x678,
			0x6D6 <= r && r <= 0x6DC, 0x6DF <= r && r <= 0x6E4, 0x6E7 <= r && r <= 0x6E8, 0x6EA <= r && r <= 0x6ED:
			return false
		}
		return true
	case r == 0x2BC: // the modifier letter apostrophe
		return true
	case 0x200B <= r && r <= 0x200F: // zero-width space and joiners, direction marks
		return true
	case 0x2010 <= r && r <= 0x201F:
		return r != 0x2011 && r != 0x2017
	case 0x3001 <= r && r <= 0x30FE: // CJK symbols, Hiragana, Katakana
		switch {
		case 0x302A <= r && r <= 0x302F, r == 0x3036, 0x3038 <= r && r <= 0x303A, 0x3099 <= r && r <= 0x309C, r == 0x309F:
			return false
		}
		return true
	case 0x3400 <= r && r <= 0x4DBF, 0x4E00 <= r && r <= 0x9FFF: // CJK ideographs
		return true
	}
	return false
}

// nfkcMapped returns what NFKC makes of a few runes that it maps to
// ASCII and that text often holds: the no-break and ideographic spaces,
// the ellipsis and the fullwidth forms of ASCII (U+FF01–FF5E) of Chinese
// and Japanese text; ok is false for any other rune.
func nfkcMapped(r rune) (m string, ok bool) {
	switch {
	case r == 0xA0, r == 0x3000:
		return " ", true
	case r == 0x2026:
		return "...", true
	case 0xFF01 <= r && r <= 0xFF5E:
		return asciiChars[r-0xFF01 : r-0xFF01+1], true
	}
	return "", false
}

// asciiChars are the printable ASCII characters but the space.
const asciiChars = "!\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"

// arabicMarkCCC returns the canonical combining class of the Arabic
// vowel marks, shadda and sukun (U+064B–0652) and the superscript alef
// (U+0670), which NFKC leaves as they are and composes with nothing, but
// puts in the order of their classes; ok is false for any other rune.
func arabicMarkCCC(r rune) (ccc uint8, ok bool) {
	switch {
	case 0x64B <= r && r <= 0x652:
		return uint8(27 + r - 0x64B), true
	case r == 0x670:
		return 35, true
	}
	return 0, false
}

// toLower is unicode.ToLower with the capitals of Latin-1, Greek and
// Russian, and the scripts without case, looked up without its tables.
func toLower(r rune) rune {
	switch {
	case 0x410 <= r && r <= 0x42F, 0x391 <= r && r <= 0x3A9 && r != 0x3A2, 0xC0 <= r && r <= 0xDE && r != 0xD7:
		return r + 0x20
	case 0x400 <= r && r <= 0x40F:
		return r + 0x50
	case 0x430 <= r && r <= 0x45F, 0x3B1 <= r && r <= 0x3C9, 0xDF <= r && r <= 0xFF,
		0x5D0 <= r && r <= 0x6FF, 0x3000 <= r && r <= 0x9FFF, 0xAC00 <= r && r <= 0xD7A3:
		return r // no capitals: lower case, Hebrew, Arabic, CJK, Hangul
	}
	return unicode.ToLower(r)
}

// appendMarksSorted appends the Arabic marks of s to b, stably sorted by
// their combining classes.
func appendMarksSorted(b []byte, s string) []byte {
	var buf [16]rune
	marks := buf[:0]
	for _, r := range s {
		marks = append(marks, r)
	}
	for i := 1; i < len(marks); i++ {
		for j := i; j > 0; j-- {
			a, _ := arabicMarkCCC(marks[j-1])
			c, _ := arabicMarkCCC(marks[j])
			if a <= c {
				break
			}
			marks[j-1], marks[j] = marks[j], marks[j-1]
		}
	}
	for _, r := range marks {
		b = utf8.AppendRune(b, r)
	}
	return b
}

// foldFast normalises s rune by rune when every rune is foldable or, with
// nfkc, one of the runes nfkcMapped knows, or an Arabic vowel mark (put
// in canonical order with nfkc), or, with stripAccents, a combining mark (NFKC then
// changes nothing but the mapped runes, accent stripping drops the marks
// and the marks of each rune's canonical decomposition, and case maps
// each rune alone); ok is false otherwise.
func foldFast(s string, nfkc, stripAccents bool, c Case) (out string, ok bool) {
	// b is the result, once it differs from s, up to s[done:]: the bytes
	// from done to i are the same in the result, copied when a rune that
	// changes, or the end, is reached.
	var b []byte
	done := 0
	for i := 0; i < len(s); {
		x := s[i]
		if x < utf8.RuneSelf {
			if 'A' <= x && x <= 'Z' && c != KeepCase {
				b = append(appendSame(b, s, done, i), x+'a'-'A')
				done = i + 1
			}
			i++
			continue
		}
		if 0xC3 <= x && x <= 0xDB && i+1 < len(s) && s[i+1]&0xC0 == 0x80 {
			r := rune(x&0x1F)<<6 | rune(s[i+1]&0x3F)
			if stripAccents {
				// The lower-case letters without marks of Greek (but
				// ς) and Russian (but й), and the Arabic letters
				// without hamza or madda: the same.
				if 0x3B1 <= r && r <= 0x3C9 && r != 0x3C2 || 0x430 <= r && r <= 0x44F && r != 0x439 || 0x627 <= r && r <= 0x64A {
					i += 2
					continue
				}
			} else if 0xE0 <= r && r <= 0xFF || 0x430 <= r && r <= 0x45F || 0x3AC <= r && r <= 0x3CE && r != 0x3B0 && r != 0x3C2 ||
				0x100 <= r && r <= 0x17F && latinExtALower(r) && foldable(r) || 0x620 <= r && r <= 0x64A || 0x5C8 <= r && r <= 0x6FF && foldable(r) {
				// The lower-case letters of Latin-1 (but ß), Latin
				// Extended-A, Greek (but ς) and Russian, and Hebrew
				// and Arabic (without case, but their marks; the
				// Arabic letters first): the same.
				i += 2
				continue
			}
		}
		if 0xE3 <= x && x <= 0xED && !stripAccents && i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
			// U+3000–U+DFFF: the CJK symbols, kana and ideographs and
			// the Hangul syllables, without case, so the same when
			// foldable.
			if r := rune(x&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F); 0x4E00 <= r && r <= 0x9FFF || 0xAC00 <= r && r <= 0xD7A3 || foldable(r) {
				i += 3
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		m := r
		var repl string // what m becomes, when not one rune (-1 for m: nothing)
		switch {
		case r == utf8.RuneError:
			return "", false
		case foldable(r):
			if stripAccents {
				if m, ok = stripRune(s[i : i+size]); !ok {
					return "", false
				}
			}
		case stripAccents && unicode.Is(unicode.Mn, r):
			m = -1 // dropped
		default:
			if _, known := arabicMarkCCC(r); known {
				// The marks that follow one another, in the order of
				// their classes (NFKC's canonical ordering).
				k := i
				sorted := true
				var last uint8
				for k < len(s) {
					r2, n2 := utf8.DecodeRuneInString(s[k:])
					cc, ok2 := arabicMarkCCC(r2)
					if !ok2 {
						break
					}
					sorted = sorted && cc >= last
					last = cc
					k += n2
				}
				if nfkc && !sorted {
					b = appendMarksSorted(appendSame(b, s, done, i), s[i:k])
					done = k
				}
				i = k
				continue
			}
			var known bool
			if !nfkc {
				return "", false
			}
			if repl, known = nfkcMapped(r); !known {
				return "", false
			}
			m = -1
			if c != KeepCase {
				repl = asciiLower(repl)
			}
		}
		switch {
		case m < 0 || c == KeepCase:
		case m == 'Σ' && c == Lower && i > 0:
			return "", false // σ or ς, as the runes around it say
		case m == 'ß' && c == Fold:
			m, repl = -1, "ss"
		case m == 'İ':
			m, repl = -1, "i\u0307"
		case m == 'ς' && c == Fold:
			m = 'σ'
		default:
			m = toLower(m)
		}
		switch {
		case m == r:
			i += size
			continue
		case m < 0:
			b = append(appendSame(b, s, done, i), repl...)
		default:
			b = utf8.AppendRune(appendSame(b, s, done, i), m)
		}
		i += size
		done = i
	}
	if b == nil {
		return s, true
	}
	return string(append(b, s[done:]...)), true
}

// latinExtALower reports whether r, a rune of Latin Extended-A
// (U+0100–017F), is a lower-case letter that lower-casing and case
// folding leave as it is: the second of each pair of capital and small
// letter (TestFoldFast checks every one).
func latinExtALower(r rune) bool {
	switch {
	case r <= 0x137, 0x14A <= r && r <= 0x177:
		return r%2 == 1
	case 0x138 <= r && r <= 0x148, 0x17A <= r && r <= 0x17E:
		return r%2 == 0
	}
	return false
}

// appendSame appends s[done:i], bytes that normalisation leaves as they
// are, to b, the result so far, made when b is nil.
func appendSame(b []byte, s string, done, i int) []byte {
	if b == nil {
		b = make([]byte, 0, len(s)+8)
	}
	return append(b, s[done:i]...)
}

// greekBase returns the base letter of a Greek vowel with tonos or
// dialytika (the foldable ones), or 0 for any other rune.
func greekBase(r rune) rune {
	switch r {
	case 'Ά':
		return 'Α'
	case 'Έ':
		return 'Ε'
	case 'Ή':
		return 'Η'
	case 'Ί', 'Ϊ':
		return 'Ι'
	case 'Ό':
		return 'Ο'
	case 'Ύ', 'Ϋ':
		return 'Υ'
	case 'Ώ':
		return 'Ω'
	case 'ά':
		return 'α'
	case 'έ':
		return 'ε'
	case 'ή':
		return 'η'
	case 'ί', 'ϊ':
		return 'ι'
	case 'ό':
		return 'ο'
	case 'ύ', 'ϋ':
		return 'υ'
	case 'ώ':
		return 'ω'
	}
	return 0
}

// stripRune returns the first rune of s, a foldable rune, without its
// accents: the first rune of its canonical decomposition when the rest
// are combining marks (Mn), the rune itself when it has no decomposition
// or one without marks (the Hangul syllables); ok is false when its
// decomposition mixes marks and other runes.
func stripRune(s string) (r rune, ok bool) {
	r, _ = utf8.DecodeRuneInString(s)
	switch {
	case r < 0xC0, 0x391 <= r && r <= 0x3A9, 0x3B1 <= r && r <= 0x3C9,
		0x410 <= r && r <= 0x44F && r != 0x419 && r != 0x439, 0x627 <= r && r <= 0x64A:
		return r, true // no decomposition: Latin-1 but its letters, the Greek, Russian and Arabic letters without marks
	}
	if b := greekBase(r); b != 0 {
		return b, true
	}
	d := norm.NFD.PropertiesString(s).Decomposition()
	if d == nil {
		return r, true
	}
	base, n := utf8.DecodeRune(d)
	marks, others := 0, 0
	for _, m := range string(d[n:]) {
		if unicode.Is(unicode.Mn, m) {
			marks++
		} else {
			others++
		}
	}
	switch {
	case marks == 0:
		return r, true
	case others == 0:
		return base, true
	}
	return r, false
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
