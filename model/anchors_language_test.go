package model

import (
	"slices"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/text"
	"github.com/semitopic/semitopic/text/segment"
)

// Seed words in any language go through the language's pipeline: German
// "Spiele" and "Spiel" are one stem, "und" is a stopword, and Japanese
// seeds are segmented as the documents are.
func TestAnalyzeAnchorsLanguages(t *testing.T) {
	analyzer := func(lang string) *text.Analyzer {
		o, err := text.WithLanguage(text.Default(), lang)
		if err != nil {
			t.Fatal(err)
		}
		a, err := text.NewAnalyzer(o)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	got, notes, err := AnalyzeAnchors(analyzer("de"), []Anchor{{Topic: "sport", Words: []string{"Spiele", "Spiel", "und", "Tore"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got[0].Words, []string{"spiel", "und", "tor"}) {
		t.Errorf("German seeds read as %q", got[0].Words)
	}
	joined := strings.Join(notes, "\n")
	if !strings.Contains(joined, `"Spiele" and "Spiel" are both read as "spiel"`) || !strings.Contains(joined, `"und"`) {
		t.Errorf("notes:\n%s", joined)
	}
	if !slices.Contains(segment.Languages(), "ja") {
		t.Skip("built without the Japanese dictionary (-tags semitopic_noja)")
	}
	got, _, err = AnalyzeAnchors(analyzer("ja"), []Anchor{{Topic: "音楽", Words: []string{"サウンド", "オーディオ"}}})
	if err != nil || !slices.Equal(got[0].Words, []string{"サウンド", "オーディオ"}) {
		t.Errorf("Japanese seeds read as %q (%v)", got[0].Words, err)
	}
	// A Japanese phrase is several words: with unigrams only, an error
	// names them.
	if _, _, err := AnalyzeAnchors(analyzer("ja"), []Anchor{{Topic: "音楽", Words: []string{"サウンドサーバ"}}}); err == nil || !strings.Contains(err.Error(), "サウンド サーバ") {
		t.Errorf("a two-word Japanese seed: %v", err)
	}
}
