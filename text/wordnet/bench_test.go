package wordnet

import (
	"archive/zip"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/internal/datadir"
)

func BenchmarkLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(); err != nil {
			b.Fatal(err)
		}
	}
}

// token is a word with the part of speech its tag gives.
type token struct {
	word string
	pos  POS
}

// brownTokens reads the running text of the Brown corpus (NLTK's
// brown.zip), lower-cased, with Brown tags mapped to WordNet parts of
// speech (nouns and anything else as Noun, as NLTK's default).
func brownTokens(b *testing.B, limit int) []token {
	path := datadir.Require(b, "brown/brown.zip")
	z, err := zip.OpenReader(path)
	if err != nil {
		b.Fatal(err)
	}
	defer z.Close()
	name := regexp.MustCompile(`^brown/c[a-r][0-9][0-9]$`)
	var toks []token
	for _, f := range z.File {
		if !name.MatchString(f.Name) {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			b.Fatal(err)
		}
		text, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			b.Fatalf("%s: %v", f.Name, err)
		}
		for _, tok := range strings.Fields(string(text)) {
			i := strings.LastIndexByte(tok, '/')
			if i <= 0 {
				continue
			}
			word, tag := strings.ToLower(tok[:i]), tok[i+1:]
			pos := Noun
			switch {
			case strings.HasPrefix(tag, "vb"):
				pos = Verb
			case strings.HasPrefix(tag, "jj"):
				pos = Adj
			case strings.HasPrefix(tag, "rb"):
				pos = Adv
			}
			toks = append(toks, token{word, pos})
			if len(toks) == limit {
				return toks
			}
		}
	}
	return toks
}

// BenchmarkLemmatizeBrown lemmatizes the Brown corpus's running text
// (the first 200,000 tokens, punctuation included) with the parts of
// speech of its tags: one op is one token.
func BenchmarkLemmatizeBrown(b *testing.B) {
	l := mustLoad(b)
	toks := brownTokens(b, 200000)
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		t := toks[i]
		l.Lemmatize(t.word, t.pos)
		if i++; i == len(toks) {
			i = 0
		}
	}
}

// BenchmarkLemmatizeFixtureNouns lemmatizes the fixture's distinct words
// (Brown vocabulary, exception forms, inflected lemmas) as nouns: a harder
// mix than running text, with no external data needed.
func BenchmarkLemmatizeFixtureNouns(b *testing.B) {
	l := mustLoad(b)
	rows := readFixture(b)
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		l.Lemmatize(rows[i].word, Noun)
		if i++; i == len(rows) {
			i = 0
		}
	}
}
