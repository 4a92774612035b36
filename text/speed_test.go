package text

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/semitopic/semitopic/internal/cputime"
)

// speedSample returns the sample descriptions of a language
// (testdata/sample, or package segment's for Chinese and Japanese),
// repeated until they hold at least size characters, and their number of
// characters.
func speedSample(tb testing.TB, code string, size int) ([]string, int) {
	tb.Helper()
	path := filepath.Join("testdata", "sample", code+".txt")
	if code == "zh" || code == "ja" {
		path = filepath.Join("segment", "testdata", code+".txt")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	docs := strings.Split(strings.TrimSpace(string(b)), "\n")
	var texts []string
	chars := 0
	for chars < size {
		for _, d := range docs {
			texts = append(texts, d)
			chars += utf8.RuneCountInString(d)
		}
	}
	return texts, chars
}

// speedPass reads the texts once with a new Session, as the languages
// experiment's speed part does, and returns the processor time it took
// (the time on the clock where that is not known).
func speedPass(a *Analyzer, texts []string) time.Duration {
	s := a.Session()
	var buf []string
	t := time.Now()
	c, ok := cputime.Now()
	for _, x := range texts {
		buf = s.AppendTokens(buf[:0], x)
	}
	if c2, ok2 := cputime.Now(); ok && ok2 {
		return c2 - c
	}
	return time.Since(t)
}

// BenchmarkAnalyzer measures the analyzer of each language's own pipeline
// (WithLanguage on the default) as the languages experiment's speed part
// does, in processor time: passes over the language's sample text, each taking turns with a
// pass of the English default pipeline over as many characters of the
// English sample, so that the ratio en÷lang (English documents per second
// over the language's) compares passes made under the same load. Like the
// experiment it keeps the fastest pass of each, the one the machine's load
// disturbed least; docs/s counts documents of 1,000 characters.
func BenchmarkAnalyzer(b *testing.B) {
	const size = 1_000_000
	en, err := NewAnalyzer(Default())
	if err != nil {
		b.Fatal(err)
	}
	enTexts, enChars := speedSample(b, "en", size)
	for _, code := range []string{"en", "de", "ru", "tr", "el", "ar", "zh", "ja"} {
		b.Run(code, func(b *testing.B) {
			o, err := WithLanguage(Default(), code)
			if err != nil {
				b.Fatal(err)
			}
			a, err := NewAnalyzer(o)
			if err != nil {
				b.Fatal(err)
			}
			texts, chars := speedSample(b, code, size)
			var d, dEn time.Duration
			b.ResetTimer()
			for i := range b.N {
				if t := speedPass(a, texts); i == 0 || t < d {
					d = t
				}
				if t := speedPass(en, enTexts); i == 0 || t < dEn {
					dEn = t
				}
			}
			perSec := float64(chars) / 1000 / d.Seconds()
			perSecEn := float64(enChars) / 1000 / dEn.Seconds()
			b.ReportMetric(perSec, "docs/s")
			b.ReportMetric(perSecEn/perSec, "en÷lang")
		})
	}
}
