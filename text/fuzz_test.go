package text

import (
	"testing"
	"unicode/utf8"
)

func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"", "hello world", "naïve café", "e\u0301", "\xff\xfe", "a_b 12 x2", "ＡＢＣ ﬁ", "日本語のテキスト"} {
		f.Add(s)
	}
	a, err := NewAnalyzer(Default())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range []Pattern{Letters, LettersDigits, ASCIILetters, SklearnWords} {
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
			}
		}
		for _, tok := range a.Tokens(s) {
			if utf8.RuneCountInString(tok) < 1 {
				t.Fatalf("empty analyzed token")
			}
		}
	})
}
