package segment

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/ikawaha/kagome-dict/ipa"
	"github.com/ikawaha/kagome/v2/tokenizer"
)

// japaneseAndKagome returns the Japanese segmenter and kagome's tokenizer
// on the same dictionary (IPADIC), skipping tb in a build without it.
func japaneseAndKagome(tb testing.TB) (Segmenter, *tokenizer.Tokenizer) {
	tb.Helper()
	if !slices.Contains(Languages(), "ja") {
		tb.Skip("built without the Japanese dictionary")
	}
	s, err := New("ja")
	if err != nil {
		tb.Fatal(err)
	}
	k, err := tokenizer.New(ipa.Dict(), tokenizer.OmitBosEos())
	if err != nil {
		tb.Fatal(err)
	}
	return s, k
}

// sampleRuns returns the runs of Han and kana of a language's sample text
// (testdata), cut where package text would cut them (at every other
// character), and their number of characters.
func sampleRuns(tb testing.TB, lang string) ([]string, int) {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", lang+".txt"))
	if err != nil {
		tb.Fatal(err)
	}
	runs := strings.FieldsFunc(string(b), func(r rune) bool {
		return !unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) && r != 'ー'
	})
	n := 0
	for _, r := range runs {
		n += utf8.RuneCountInString(r)
	}
	return runs, n
}

// TestKagomeAgreement checks that the Japanese segmenter cuts the sample
// text as kagome's tokenizer does with the same dictionary.
func TestKagomeAgreement(t *testing.T) {
	s, k := japaneseAndKagome(t)
	runs, _ := sampleRuns(t, "ja")
	words, same := 0, 0
	for _, run := range runs {
		var want []string
		for _, tok := range k.Tokenize(run) {
			want = append(want, tok.Surface)
		}
		got := s.Append(nil, run)
		words += len(want)
		if slices.Equal(got, want) {
			same += len(want)
		} else {
			t.Errorf("%q: %q, kagome %q", run, got, want)
		}
	}
	if words < 2000 {
		t.Errorf("only %d words", words)
	}
	t.Logf("%d of %d words as kagome cuts them", same, words)
}

// TestKagomeLongRuns checks runs of one character class longer than an
// unknown word may be (1,024 characters), where the groups of unknown
// words are capped and made anew, against kagome's cuts.
func TestKagomeLongRuns(t *testing.T) {
	s, k := japaneseAndKagome(t)
	for _, run := range []string{
		strings.Repeat("ヴ", 1100),
		strings.Repeat("サウンドサーバ", 160) + "です",
		"東京" + strings.Repeat("ァ", 1030) + "に" + strings.Repeat("ヶ", 5),
	} {
		var want []string
		for _, tok := range k.Tokenize(run) {
			want = append(want, tok.Surface)
		}
		if got := s.Append(nil, run); !slices.Equal(got, want) {
			t.Errorf("a run of %d characters: %d words, kagome %d (%q…, kagome %q…)",
				utf8.RuneCountInString(run), len(got), len(want), got[:min(len(got), 3)], want[:min(len(want), 3)])
		}
	}
}

// BenchmarkSegment measures each segmenter on its sample text, in
// characters per second.
func BenchmarkSegment(b *testing.B) {
	for _, lang := range Languages() {
		b.Run(lang, func(b *testing.B) {
			s, err := New(lang)
			if err != nil {
				b.Fatal(err)
			}
			runs, chars := sampleRuns(b, lang)
			var buf []string
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				for _, r := range runs {
					buf = s.Append(buf[:0], r)
				}
			}
			b.ReportMetric(float64(chars)*float64(b.N)/b.Elapsed().Seconds(), "chars/s")
		})
	}
}

// BenchmarkJapaneseKagome measures kagome's IPADIC tokenizer, which the
// Japanese segmenter cuts as (TestKagomeAgreement), on the same sample
// runs as BenchmarkSegment/ja, in characters per second: what a pure-Go
// lattice over the same dictionary costs elsewhere.
func BenchmarkJapaneseKagome(b *testing.B) {
	_, k := japaneseAndKagome(b)
	runs, chars := sampleRuns(b, "ja")
	var n int
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, r := range runs {
			n += len(k.Tokenize(r))
		}
	}
	b.ReportMetric(float64(chars)*float64(b.N)/b.Elapsed().Seconds(), "chars/s")
	if n == 0 {
		b.Fatal("kagome cut the sample into no words")
	}
}

// FuzzJapanese checks that the Japanese segmenter cuts any text as
// kagome's tokenizer does and that its words cover the text.
func FuzzJapanese(f *testing.F) {
	if !slices.Contains(Languages(), "ja") {
		f.Skip("built without the Japanese dictionary")
	}
	for _, s := range []string{"", "東京都に住んでいます", "すもももももももものうち", "JACKはサウンドサーバです。", "ｶﾀｶﾅ123abc", "\xff東", "ー々ゝ"} {
		f.Add(s)
	}
	s, k := japaneseAndKagome(f)
	f.Fuzz(func(t *testing.T, run string) {
		if !utf8.ValidString(run) {
			return // package text hands it runs of letters only
		}
		var want []string
		for _, tok := range k.Tokenize(run) {
			want = append(want, tok.Surface)
		}
		got := s.Append(nil, run)
		if !slices.Equal(got, want) {
			t.Fatalf("%q: %q, kagome %q", run, got, want)
		}
		if strings.Join(got, "") != run {
			t.Fatalf("%q: the words %q do not cover it", run, got)
		}
	})
}
