package vectorize

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/text"
)

// A pipeline's language is saved with it and read back, English writes
// none, and a fitted German vectorizer reads new text with its stems.
func TestPipelineLanguage(t *testing.T) {
	b, err := json.Marshal(DefaultPipeline())
	if err != nil || strings.Contains(string(b), "language") {
		t.Errorf("the English pipeline writes a language: %s (%v)", b, err)
	}
	p := DefaultPipeline()
	if p.Text, err = text.WithLanguage(p.Text, "de"); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p.String(), "language de, ") || !strings.Contains(p.String(), "stems") {
		t.Errorf("summary %q", p.String())
	}
	b, err = json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var back Pipeline
	if err := json.Unmarshal(b, &back); err != nil || back.Text.Language != "de" || back.Text.Pattern != text.Words || !slices.Equal(back.Text.Stopwords, []string{"nltk-de"}) {
		t.Fatalf("read back %+v (%v) from %s", back.Text, err, b)
	}
	docs := []corpus.Document{{ID: "a", Text: "Das Spiel und die Spiele"}, {ID: "b", Text: "Der Koch kocht eine Suppe"}}
	v, res, err := back.FitTransform(context.Background(), docs)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Vocab, []string{"koch", "kocht", "spiel", "supp"}) {
		t.Errorf("vocabulary %q", res.Vocab)
	}
	nr, err := v.Transform(context.Background(), []corpus.Document{{ID: "c", Text: "Spielen Spiele"}})
	if err != nil || nr.X.NNZ() != 1 {
		t.Errorf("new text: %v non-zeros (%v)", nr.X.NNZ(), err)
	}
}
