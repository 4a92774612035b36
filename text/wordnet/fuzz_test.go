package wordnet

import (
	"reflect"
	"testing"
	"unicode/utf8"
)

// FuzzLemmatize checks, for any string and any part-of-speech byte, that
// Lemmatize and Morphy do not panic and keep NLTK's invariants:
//   - a non-empty word never gives an empty lemma; an invalid part of
//     speech gives the word back and no candidates;
//   - Lemmatize is the first shortest candidate of Morphy, or the word;
//   - the candidates are distinct lemmas of that part of speech, and
//     agree with the literal NLTK algorithm where that one is affordable;
//   - lemmatizing the lemma again gives what NLTK gives: the lemma itself,
//     except for the 821 index lemmas that NLTK itself maps elsewhere
//     ("boss" → "bos", "feed" → "fee"; testdata/nltk_index.tsv.gz), for
//     which the second answer must be NLTK's. NLTK's lemmatize is not
//     idempotent ("bosses" → "boss" → "bos"), so neither is this one.
func FuzzLemmatize(f *testing.F) {
	l := mustLoad(f)
	fix := readIndex(f).fix
	for _, s := range []string{"churches", "running", "better", "has", "bosses", "asses",
		"feeding", "geeses", "eseseses", "hot_dogs", "Dogs", "", "cafés", "\xff", "mmmen"} {
		for _, p := range []byte("nvasr") {
			f.Add(s, p)
		}
	}
	f.Fuzz(func(t *testing.T, word string, tag byte) {
		pos := POS(tag)
		got := l.Lemmatize(word, pos)
		cands := l.Morphy(word, pos)
		if word != "" && got == "" {
			t.Fatalf("Lemmatize(%q, %v) is empty", word, pos)
		}
		if !pos.Valid() {
			if got != word || cands != nil {
				t.Fatalf("invalid %v: Lemmatize(%q) = %q, Morphy %q", pos, word, got, cands)
			}
			return
		}
		want := word
		for i, c := range cands {
			if !l.Has(c, pos) {
				t.Fatalf("Morphy(%q, %v): %q is no lemma", word, pos, c)
			}
			for _, d := range cands[:i] {
				if c == d {
					t.Fatalf("Morphy(%q, %v) = %q repeats %q", word, pos, cands, c)
				}
			}
			if i == 0 || utf8.RuneCountInString(c) < utf8.RuneCountInString(want) {
				want = c
			}
		}
		if got != want {
			t.Fatalf("Lemmatize(%q, %v) = %q, but Morphy gives %q", word, pos, got, cands)
		}
		if ref, ok := refMorphy(l, word, pos, 1<<12); ok && !reflect.DeepEqual(cands, ref) {
			t.Fatalf("Morphy(%q, %v) = %q, literal NLTK algorithm %q", word, pos, cands, ref)
		}
		if got != word {
			again, wantAgain := l.Lemmatize(got, pos), got
			if g, ok := fix[pos][got]; ok {
				wantAgain = g
			}
			if again != wantAgain {
				t.Fatalf("Lemmatize(%q, %v) = %q, then %q; NLTK gives %q", word, pos, got, again, wantAgain)
			}
		}
	})
}
