package text

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// noSpaceScripts are the scripts written without spaces between words,
// whose letters UAX #29 word segmentation leaves one by one.
var noSpaceScripts = []*unicode.RangeTable{unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar}

// inNoSpaceScript reports whether r belongs to a script written without
// spaces, counting the marks that continue its words (the prolonged sound
// mark ー, the iteration marks 々 and ゝ, the middle dot ・ excluded).
func inNoSpaceScript(r rune) bool {
	if r < 0x0E00 {
		return false
	}
	switch r {
	case 'ー', '々', 'ゝ', 'ゞ', 'ヽ', 'ヾ':
		return true
	}
	return unicode.In(r, noSpaceScripts...)
}

// tokenizeWords appends the tokens of the Words pattern.
func tokenizeWords(dst []string, s string) []string {
	state := -1
	run := -1 // start of the current run of no-space letters, or -1
	pos := 0
	for rest := s; len(rest) > 0; {
		var w string
		w, rest, state = uniseg.FirstWordInString(rest, state)
		start := pos
		pos += len(w)
		r, _ := utf8.DecodeRuneInString(w)
		if inNoSpaceScript(r) {
			if run < 0 {
				run = start
			}
			continue
		}
		if run >= 0 {
			dst = append(dst, s[run:start])
			run = -1
		}
		dst = appendWordParts(dst, w)
	}
	if run >= 0 {
		dst = append(dst, s[run:])
	}
	return dst
}

// appendWordParts appends the parts of a UAX #29 word between its
// apostrophes that hold a letter.
func appendWordParts(dst []string, w string) []string {
	for w != "" {
		i := strings.IndexAny(w, "'’")
		part := w
		if i >= 0 {
			part = w[:i]
			_, size := utf8.DecodeRuneInString(w[i:])
			w = w[i+size:]
		} else {
			w = ""
		}
		if hasLetter(part) {
			dst = append(dst, part)
		}
	}
	return dst
}

// hasLetter reports whether s holds a letter.
func hasLetter(s string) bool {
	for _, r := range s {
		if r < utf8.RuneSelf {
			if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
				return true
			}
			continue
		}
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// needsSegmenter reports whether a token holds a letter of a script that a
// dictionary segmenter cuts (Han, Hiragana, Katakana).
func needsSegmenter(t string) bool {
	for _, r := range t {
		if r >= 0x3000 && (unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) || r == 'ー') {
			return true
		}
	}
	return false
}
