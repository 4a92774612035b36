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

// tokenizeWords appends the tokens of the Words pattern. The text is
// cut at ASCII white space first, always a word boundary in UAX #29; a
// piece made only of the runes simpleWords knows is segmented by it, any
// other by uniseg (the two agree: TestSimpleWords).
func tokenizeWords(dst []string, s string) []string {
	for i := 0; i < len(s); {
		if asciiSpace(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && !asciiSpace(s[j]) {
			j++
		}
		if out, ok := simpleWords(dst, s[i:j]); ok {
			dst = out
		} else {
			// With the white space before it: marks that follow white
			// space belong to it (WB4).
			dst = unisegWords(dst, s[max(i-1, 0):j])
		}
		i = j
	}
	return dst
}

// asciiSpace reports whether b is ASCII white space: a space or one of
// \t \n \v \f \r.
func asciiSpace(b byte) bool { return b == ' ' || '\t' <= b && b <= '\r' }

// unisegWords appends the tokens of the Words pattern in s, segmented by
// uniseg.
func unisegWords(dst []string, s string) []string {
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
			dst = appendRun(dst, s[run:start])
			run = -1
		}
		dst = appendWordParts(dst, w)
	}
	if run >= 0 {
		dst = appendRun(dst, s[run:])
	}
	return dst
}

// appendRun appends a run of letters of the scripts written without
// spaces, if it holds a letter (not only marks).
func appendRun(dst []string, run string) []string {
	if hasLetter(run) {
		dst = append(dst, run)
	}
	return dst
}

// The UAX #29 word-break classes that simpleWords tells apart.
const (
	wbOther     = iota
	wbLetter    // ALetter: A–Z, a–z
	wbNumeric   // 0–9
	wbExtendNum // ExtendNumLet: _
	wbMidLetter // MidLetter: ':'
	wbMidNumLet // MidNumLet and Single_Quote: '.', '\''
	wbMidNum    // MidNum: ',', ';'
	wbKatakana  // Katakana, and the prolonged sound mark ー
	wbIdeo      // Han and Hiragana: Other, but runs of them are kept whole
	wbExtend    // Extend and Format: combining marks, joiners, direction marks
)

// wbClass returns the word-break class of an ASCII character other than
// white space.
func wbClass(b byte) int {
	switch {
	case 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z':
		return wbLetter
	case '0' <= b && b <= '9':
		return wbNumeric
	}
	switch b {
	case '_':
		return wbExtendNum
	case ':':
		return wbMidLetter
	case '.', '\'':
		return wbMidNumLet
	case ',', ';':
		return wbMidNum
	}
	return wbOther
}

// simpleClass returns the word-break class of r when simpleWords knows
// it: ASCII, the letters of Latin-1 and Latin Extended-A and -B, the
// modifier letters U+02B0–02C1 (Turkish ʼ), the letters of
// Greek, Cyrillic and Arabic and of the Hangul syllables, the Arabic
// digits, the CJK ideographs, Hiragana and Katakana, the combining
// diacritical and Arabic marks, the zero-width joiners, the typographic
// apostrophes and a few quotes, dashes and Arabic and CJK punctuation
// marks. TestSimpleWords checks each against uniseg.
func simpleClass(r rune) (int, bool) {
	switch {
	case r < utf8.RuneSelf:
		return wbClass(byte(r)), true
	case 0xC0 <= r && r <= 0x24F:
		if r == 0xD7 || r == 0xF7 {
			return wbOther, true
		}
		return wbLetter, true
	case 0x400 <= r && r <= 0x52F:
		if 0x482 <= r && r <= 0x489 {
			return 0, false // a sign and combining marks
		}
		return wbLetter, true
	case 0xAC00 <= r && r <= 0xD7A3:
		return wbLetter, true
	case 0x370 <= r && r <= 0x3FF: // Greek
		if isLetter(r) && r != 0x374 && r != 0x37A {
			return wbLetter, true
		}
		return 0, false
	case 0x300 <= r && r <= 0x36F, 0x200C <= r && r <= 0x200F:
		return wbExtend, true
	case 0x620 <= r && r <= 0x6D5: // Arabic letters and digits
		switch {
		case 0x660 <= r && r <= 0x669:
			return wbNumeric, true
		case 0x64B <= r && r <= 0x65F, r == 0x670:
			return wbExtend, true
		case isLetter(r):
			return wbLetter, true
		}
		return 0, false
	case 0x3041 <= r && r <= 0x3096, 0x3400 <= r && r <= 0x4DBF, 0x4E00 <= r && r <= 0x9FFF:
		return wbIdeo, true
	case 0x2B0 <= r && r <= 0x2C1: // modifier letters: ʼ of Turkish, Ukrainian
		return wbLetter, true
	case 0x30A1 <= r && r <= 0x30FA, r == 0x30FC:
		return wbKatakana, true
	}
	switch r {
	case 0x2018, 0x2019, 0x2024:
		return wbMidNumLet, true
	case 0xAB, 0xBB, 0x2013, 0x2014, 0x201C, 0x201D, 0x201E,
		0x060C, 0x061B, 0x061F, 0x06D4, // Arabic punctuation
		0x3001, 0x3002, 0x3008, 0x3009, 0x300A, 0x300B, 0x300C, 0x300D, 0x300E, 0x300F, 0x3010, 0x3011, 0x30FB: // CJK punctuation
		return wbOther, true
	}
	return 0, false
}

// simpleWords appends the tokens of the Words pattern in s, a piece
// without white space, segmented by the rules of UAX #29 that apply to
// the runes simpleClass knows (WB5–WB13b), with the runs of Han and kana
// kept whole as unisegWords keeps them; ok is false, and nothing is
// appended, when s holds another rune.
func simpleWords(dst []string, s string) (out []string, ok bool) {
	if out, ok := fastWords(dst, s); ok {
		return out, true
	}
	var clsBuf [48]int8
	var offBuf [49]int32
	cls, off := clsBuf[:0], offBuf[:0]
	for i, r := range s {
		c, ok := simpleClass(r)
		if !ok || r == utf8.RuneError {
			return dst, false
		}
		if c == wbExtend {
			if i == 0 {
				return dst, false // marks after white space belong to it
			}
			continue // WB4: the marks go with the rune before them
		}
		cls = append(cls, int8(c))
		off = append(off, int32(i))
	}
	off = append(off, int32(len(s)))
	at := func(i int) int {
		if i < 0 || i >= len(cls) {
			return -1
		}
		return int(cls[i])
	}
	start, run := 0, -1
	for i := 1; i < len(cls); i++ {
		pp, p, c, n := at(i-2), at(i-1), at(i), at(i+1)
		join := false
		switch {
		case p == wbLetter && c == wbLetter: // WB5
			join = true
		case p == wbLetter && (c == wbMidLetter || c == wbMidNumLet) && n == wbLetter: // WB6
			join = true
		case pp == wbLetter && (p == wbMidLetter || p == wbMidNumLet) && c == wbLetter: // WB7
			join = true
		case (p == wbNumeric || p == wbLetter) && (c == wbNumeric || c == wbLetter): // WB8–WB10
			join = true
		case pp == wbNumeric && (p == wbMidNum || p == wbMidNumLet) && c == wbNumeric: // WB11
			join = true
		case p == wbNumeric && (c == wbMidNum || c == wbMidNumLet) && n == wbNumeric: // WB12
			join = true
		case p == wbKatakana && c == wbKatakana: // WB13
			join = true
		case (p == wbLetter || p == wbNumeric || p == wbKatakana || p == wbExtendNum) && c == wbExtendNum: // WB13a
			join = true
		case p == wbExtendNum && (c == wbLetter || c == wbNumeric || c == wbKatakana): // WB13b
			join = true
		}
		if !join {
			dst, run = appendSimpleWord(dst, s, int(off[start]), int(off[i]), run, cls[start])
			start = i
		}
	}
	if start < len(cls) {
		dst, run = appendSimpleWord(dst, s, int(off[start]), len(s), run, cls[start])
	}
	if run >= 0 {
		dst = appendRun(dst, s[run:])
	}
	return dst, true
}

// fastWords appends the tokens of the Words pattern in s, a piece without
// white space, when it is made as most pieces are: runs of letters and
// runs of Han and kana between punctuation (the classes Other,
// MidLetter, MidNumLet and MidNum), each rune followed by any marks. There
// UAX #29 cuts around each punctuation rune, keeps the letters of a run
// together (WB5) and cuts between a letter and Han or kana, the words of
// the punctuation hold no letter, and the Han and kana of a run are kept
// whole as unisegWords keeps them: the tokens are the runs. ok is false,
// and dst is returned as it was, for any other piece (digits, '_', a
// punctuation rune between two letters, which WB6 and WB7 may join, marks
// after punctuation, runes simpleClass does not know), which simpleWords
// then cuts rule by rule. It decodes the runes of one and two bytes
// inline, which are most of the text of the alphabets.
func fastWords(dst []string, s string) (out []string, ok bool) {
	n0 := len(dst)
	// The run being read (start, its kind) and the classes of the two
	// runes before, marks left out (WB4).
	start, kind := -1, wbOther
	prev, prev2 := wbOther, wbOther
	for i := 0; i < len(s); {
		at, x := i, s[i]
		var c int
		switch {
		case x < utf8.RuneSelf:
			c = wbClass(x)
			i++
		case x&0xE0 == 0xC0 && x >= 0xC2 && i+1 < len(s) && s[i+1]&0xC0 == 0x80:
			r := rune(x&0x1F)<<6 | rune(s[i+1]&0x3F)
			// The letters most text is made of, then simpleClass.
			if 0x3B1 <= r && r <= 0x3C9 || 0x620 <= r && r <= 0x64A || 0x400 <= r && r <= 0x481 || 0xE0 <= r && r <= 0x17F && r != 0xF7 {
				c = wbLetter
			} else {
				var known bool
				if c, known = simpleClass(r); !known {
					return dst[:n0], false
				}
			}
			i += 2
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			var known bool
			if c, known = simpleClass(r); !known || r == utf8.RuneError {
				return dst[:n0], false
			}
			i += size
		}
		switch c {
		case wbExtend:
			if start < 0 {
				return dst[:n0], false // marks after punctuation, or after white space
			}
			continue
		case wbIdeo, wbKatakana:
			c = wbIdeo // Katakana joins Katakana (WB13), and the run of Han and kana holds both
		case wbLetter:
			if prev2 == wbLetter && (prev == wbMidLetter || prev == wbMidNumLet) {
				return dst[:n0], false // WB6 and WB7
			}
		case wbOther, wbMidLetter, wbMidNumLet, wbMidNum:
		default: // digits and '_'
			return dst[:n0], false
		}
		prev, prev2 = c, prev
		if c == kind && start >= 0 {
			continue
		}
		if start >= 0 {
			dst = append(dst, s[start:at])
		}
		start, kind = -1, c
		if c == wbLetter || c == wbIdeo {
			start = at
		}
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst, true
}

// appendSimpleWord appends the word s[start:end], whose first rune has the
// class first, as unisegWords does: a word that starts with Han or kana
// extends the run of them that starts at run (or starts one), any other
// ends that run (appended) and is appended by its parts. It returns the
// start of the run, or -1.
func appendSimpleWord(dst []string, s string, start, end, run int, first int8) ([]string, int) {
	if first == wbKatakana || first == wbIdeo {
		if run < 0 {
			run = start
		}
		return dst, run
	}
	if run >= 0 {
		dst = appendRun(dst, s[run:start])
	}
	return appendWordParts(dst, s[start:end]), -1
}

// appendWordParts appends the parts of a UAX #29 word between its
// apostrophes that hold a letter.
func appendWordParts(dst []string, w string) []string {
	start := 0
	for i := 0; i < len(w); i++ {
		size := 0
		switch {
		case w[i] == '\'':
			size = 1
		case w[i] == 0xE2 && strings.HasPrefix(w[i:], "’"):
			size = len("’")
		default:
			continue
		}
		if part := w[start:i]; hasLetter(part) {
			dst = append(dst, part)
		}
		start = i + size
		i += size - 1
	}
	if part := w[start:]; hasLetter(part) {
		dst = append(dst, part)
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
		if isLetter(r) {
			return true
		}
	}
	return false
}

// isLetter is unicode.IsLetter with the letters of Russian, Greek,
// Arabic, Hiragana, Katakana and the common CJK ideographs known without
// its tables.
func isLetter(r rune) bool {
	switch {
	case 0x410 <= r && r <= 0x44F, 0x3B1 <= r && r <= 0x3C9, 0x391 <= r && r <= 0x3A9 && r != 0x3A2,
		0x620 <= r && r <= 0x64A, 0x3041 <= r && r <= 0x3096, 0x30A1 <= r && r <= 0x30FA,
		0x4E00 <= r && r <= 0x9FA5:
		return true
	}
	return unicode.IsLetter(r)
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
