package text

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/semitopic/semitopic/text/segment"
)

func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"", "hello world", "naïve café", "e\u0301", "\xff\xfe", "a_b 12 x2", "ＡＢＣ ﬁ", "日本語のテキスト",
		"Die Kinder spielen gern Spiele.", "L'homme d’État", "Дети играют в игры", "Τα παιδιά παίζουν", "يلعب الأطفال في الحديقة",
		"自然语言处理是人工智能的一个重要方向。", "JACKはレイテンシの少ないサウンドサーバです。", "학교에서 공부합니다", "ภาษาไทยเป็นภาษา", "中\xffー々ゝ",
		"مُحَمَّدٌ رَسُولُ", "İSTANBUL’da…\u00a0ΟΔΟΣ", "می\u200cخواهم"} {
		f.Add(s)
	}
	var analyzers []*Analyzer
	for _, lang := range []string{"en", "de", "zh", "ja", "th"} {
		if lang == "ja" && !slices.Contains(segment.Languages(), "ja") {
			continue // built without the Japanese dictionary
		}
		o, err := WithLanguage(Default(), lang)
		if err != nil {
			f.Fatal(err)
		}
		a, err := NewAnalyzer(o)
		if err != nil {
			f.Fatal(err)
		}
		analyzers = append(analyzers, a)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if fast, slow := tokenizeWords(nil, s), unisegWords(nil, s); !slices.Equal(fast, slow) {
			t.Fatalf("words of %q: %q, by uniseg alone %q", s, fast, slow)
		}
		for _, c := range []Case{Fold, Lower, KeepCase} {
			for _, strip := range []bool{false, true} {
				if fast, slow := Normalize(s, true, strip, c), normalizeSlow(s, true, strip, c); fast != slow {
					t.Fatalf("Normalize(%q, %v, strip accents %v) = %q, without its fast paths %q", s, c, strip, fast, slow)
				}
			}
		}
		for _, p := range []Pattern{Letters, LettersDigits, ASCIILetters, SklearnWords, Words} {
			for _, tok := range Tokenize(nil, s, p) {
				if tok == "" {
					t.Fatalf("%v: empty token", p)
				}
				if !utf8.ValidString(tok) {
					t.Fatalf("%v: invalid UTF-8 token %q", p, tok)
				}
				if p == SklearnWords && utf8.RuneCountInString(tok) < 2 {
					t.Fatalf("sklearn token shorter than 2: %q", tok)
				}
				if p == Words && !strings.Contains(s, tok) {
					t.Fatalf("words: token %q is not in the text", tok)
				}
			}
		}
		for _, a := range analyzers {
			var st Steps
			a.CountSteps(&st, s)
			toks := a.Tokens(s)
			if st.Kept != len(toks) {
				t.Fatalf("%s: %d tokens, steps count %d kept", a.opts.Language, len(toks), st.Kept)
			}
			for _, tok := range toks {
				if tok == "" || !utf8.ValidString(tok) {
					t.Fatalf("%s: analyzed token %q", a.opts.Language, tok)
				}
			}
		}
	})
}
