package text

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/abadojack/whatlanggo"
)

// Detection is the language DetectLanguage found in a sample of texts.
type Detection struct {
	// Language is the language most texts are in.
	Language Language
	// Found is the code the detector gave most texts, also when the
	// pipeline does not know that language (then Language is empty).
	Found string
	// Texts counts the texts with enough letters to tell; Votes those of
	// them detected as Language.
	Texts, Votes int
	// Others counts the texts detected as each other language (ISO 639-1
	// codes, or the detector's name of a language without one).
	Others map[string]int
}

// Share is the fraction of the texts detected as the language.
func (d Detection) Share() float64 {
	if d.Texts == 0 {
		return 0
	}
	return float64(d.Votes) / float64(d.Texts)
}

// String says what was found, as "de (German) in 187 of 200 texts, also
// en 9, fr 4".
func (d Detection) String() string {
	s := fmt.Sprintf("%s (%s) in %d of %d texts", d.Language.Code, d.Language.Name, d.Votes, d.Texts)
	type other struct {
		code string
		n    int
	}
	var others []other
	for c, n := range d.Others {
		others = append(others, other{c, n})
	}
	sort.Slice(others, func(i, j int) bool {
		if others[i].n != others[j].n {
			return others[i].n > others[j].n
		}
		return others[i].code < others[j].code
	})
	for i, o := range others {
		if i == 3 {
			s += ", …"
			break
		}
		if i == 0 {
			s += ", also"
		} else {
			s += ","
		}
		s += fmt.Sprintf(" %s %d", o.code, o.n)
	}
	return s
}

// detectChars is how much of each text the detector reads.
const detectChars = 2000

// DetectLanguage finds the language of a corpus from a sample of its
// texts: each text (its first 2,000 bytes) is given to the trigram
// detector github.com/abadojack/whatlanggo, and the language most texts
// are in wins. Texts with fewer than 20 letters are not counted. It fails
// when no text can be told, or when the winner is a language the pipeline
// does not know (see Languages).
func DetectLanguage(texts []string) (Detection, error) {
	votes := map[string]int{}
	d := Detection{Others: map[string]int{}}
	for _, t := range texts {
		if len(t) > detectChars {
			// Cut at the start of a character.
			i := detectChars
			for i > 0 && !utf8.RuneStart(t[i]) {
				i--
			}
			t = t[:i]
		}
		if letters(t) < 20 {
			continue
		}
		d.Texts++
		l := whatlanggo.DetectLang(t)
		code := l.Iso6391()
		if code == "" {
			code = strings.ToLower(l.String())
		}
		if a, ok := languageAliases[code]; ok {
			code = a
		}
		votes[code]++
	}
	if d.Texts == 0 {
		return d, errorf("detecting the language: no text of the %d has 20 letters", len(texts))
	}
	best := ""
	for c, n := range votes {
		if n > votes[best] || n == votes[best] && c < best {
			best = c
		}
	}
	d.Votes, d.Found = votes[best], best
	for c, n := range votes {
		if c != best {
			d.Others[c] = n
		}
	}
	l, err := LookupLanguage(best)
	if err != nil {
		return d, errorf("detected %q in %d of %d texts, a language the pipeline does not know; give --language", best, d.Votes, d.Texts)
	}
	d.Language = l
	return d, nil
}

// letters counts the letters of s, up to 20.
func letters(s string) int {
	n := 0
	for _, r := range s {
		if r < utf8.RuneSelf {
			if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
				n++
			}
		} else if unicode.IsLetter(r) {
			n++
		}
		if n >= 20 {
			break
		}
	}
	return n
}
