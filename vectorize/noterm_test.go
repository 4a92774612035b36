package vectorize

import (
	"context"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/text"
)

// A fit that leaves no term says which step of the pipeline emptied the
// vocabulary, with the effective values, in memory and streamed alike.
func TestNoTermSaysWhichStep(t *testing.T) {
	def := text.Default()
	cases := []struct {
		name  string
		text  text.Options
		opts  Options
		texts []string
		want  string
	}{
		{"empty texts", def, Options{}, []string{"", "  \n"}, "no term: the 2 documents have no text"},
		{"no token", def, Options{}, []string{"123 456", "7"}, "the tokenizer (tokens letters) finds no token in the 2 documents"},
		{"length", def, Options{}, []string{"w1 w2 w3", "w4 w1"}, "the tokenizer finds 5 tokens in the 2 documents, and the filters remove them all: 5 by the length bounds (at least 3 characters)"},
		{"stopwords", def, Options{}, []string{"the and of", "was it x"}, "6 tokens in the 2 documents, and the filters remove them all: 3 by the length bounds (at least 3 characters), 3 by the stopwords (nltk)"},
		{"n-grams", func() text.Options { o := def; o.NGramMin, o.NGramMax = 3, 3; return o }(), Options{}, []string{"stocks rose", "bonds"},
			"the n-gram range 3-3 needs documents of at least 3 tokens, and the 2 documents have at most 2 left"},
		{"df bounds", def, Options{MinDF: Count(3), MaxDF: Fraction(1.0)}, []string{"stocks rose", "stocks fell", "bonds"},
			"no term left after the document-frequency bounds on 3 documents: min_df 3 keeps the terms in at least 3 of them, max_df 1.0 those in at most 3, and each of the 4 terms is in 1 to 2 documents"},
		{"df bounds, no min", def, Options{MaxDF: Count(0), MinDF: Fraction(0.9)}, []string{"stocks rose", "stocks fell", "bonds"},
			"min_df 0.9 keeps the terms in at least 3 of them, no max_df"},
	}
	for _, c := range cases {
		a, err := text.NewAnalyzer(c.text)
		if err != nil {
			t.Fatal(err)
		}
		docs := docsOf(c.texts...)
		for _, stream := range []bool{false, true} {
			v, err := New(a, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			if stream {
				_, err = v.FitTransformStream(context.Background(), sliceSource(docs), nil, func(*corpus.Document, []int32, []float64) error { return nil })
			} else {
				_, err = v.FitTransform(context.Background(), docs)
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s (stream %v): err = %v\nwant %q", c.name, stream, err, c.want)
			}
		}
	}
}
