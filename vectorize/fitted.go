package vectorize

import (
	"encoding/json"
	"fmt"

	"github.com/semitopic/semitopic/text"
)

// fittedJSON is a fitted vectorizer as MarshalFitted writes it: its
// pipeline and idf; the vocabulary is kept beside it by the caller.
type fittedJSON struct {
	Pipeline Pipeline  `json:"pipeline"`
	IDF      []float64 `json:"idf,omitempty"`
}

// MarshalFitted describes a fitted vectorizer in JSON — its text pipeline,
// options and idf, without the vocabulary, which the caller keeps (a
// sharded corpus's vocab.txt) — so that UnmarshalFitted can rebuild it to
// vectorize new documents as the corpus was.
func (v *Vectorizer) MarshalFitted() ([]byte, error) {
	if !v.Fitted() {
		return nil, fmt.Errorf("vectorize: the vectorizer is not fitted")
	}
	p := Pipeline{Text: v.analyzer.Options(), Vectorize: v.opts}
	p.Vectorize.Vocabulary = nil
	b, err := json.Marshal(fittedJSON{Pipeline: p, IDF: v.idf})
	if err != nil {
		return nil, fmt.Errorf("vectorize: %w", err)
	}
	return b, nil
}

// UnmarshalFitted rebuilds the vectorizer that MarshalFitted described,
// over the vocabulary it was fitted with.
func UnmarshalFitted(b []byte, vocab []string) (*Vectorizer, error) {
	var f fittedJSON
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("vectorize: a fitted vectorizer: %w", err)
	}
	a, err := text.NewAnalyzer(f.Pipeline.Text)
	if err != nil {
		return nil, fmt.Errorf("vectorize: a fitted vectorizer's text pipeline: %w", err)
	}
	v, err := NewFitted(a, f.Pipeline.Vectorize, vocab, f.IDF)
	if err != nil {
		return nil, fmt.Errorf("vectorize: a fitted vectorizer: %w", err)
	}
	return v, nil
}
