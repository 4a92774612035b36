package lda_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/lda"
	"github.com/semitopic/semitopic/vectorize"
)

// Fit LDA to the embedded demo corpus, list each topic's top words and
// infer the topics of a new document.
func ExampleFit() {
	ctx := context.Background()
	d, err := demo.Load()
	if err != nil {
		log.Fatal(err)
	}
	pl, err := vectorize.PipelinePreset("lda")
	if err != nil {
		log.Fatal(err)
	}
	v, err := pl.New()
	if err != nil {
		log.Fatal(err)
	}
	res, err := v.FitTransform(ctx, d.Corpus.Docs)
	if err != nil {
		log.Fatal(err)
	}
	m, err := lda.Fit(ctx, res.X, lda.Config{K: 8, MaxIter: 20, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d documents × %d terms, training perplexity %.0f\n", res.X.Rows, res.X.Cols, m.TrainPerplexity())
	topics, err := m.TopWords(res.Vocab, 4)
	if err != nil {
		log.Fatal(err)
	}
	for t, words := range topics {
		terms := make([]string, len(words))
		for i, w := range words {
			terms[i] = w.Term
		}
		fmt.Printf("topic %d: %s\n", t, strings.Join(terms, " "))
	}

	nd, err := v.Transform(ctx, []corpus.Document{{ID: "new", Text: "The striker scored a late goal and the team won the match."}})
	if err != nil {
		log.Fatal(err)
	}
	theta, err := m.Transform(ctx, nd.X)
	if err != nil {
		log.Fatal(err)
	}
	best := 0
	for t := range topics {
		if theta.At(0, t) > theta.At(0, best) {
			best = t
		}
	}
	fmt.Printf("new document: topic %d with probability %.2f\n", best, theta.At(0, best))
	// Output:
	// 480 documents × 298 terms, training perplexity 58
	// topic 0: bank people investor stock
	// topic 1: recipe soil people seed
	// topic 2: guitar melody people orchestra
	// topic 3: result clinical point answer
	// topic 4: goal striker people referee
	// topic 5: rocket orbit people astronaut
	// topic 6: patient doctor people vaccine
	// topic 7: software algorithm server people
	// new document: topic 4 with probability 0.78
}
