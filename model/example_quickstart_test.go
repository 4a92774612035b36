package model_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/model"
)

// The README's Go quick start: steer two topics of the demo corpus with
// seed words, keep a word out of one, and read the topics and a new
// document's label. README.md shows this function's body; a test keeps
// the two equal.
func Example_quickStart() {
	ctx := context.Background()
	d, err := demo.Load() // or: corpus.NewReader("jsonl") … Read(ctx, path)
	if err != nil {
		panic(err)
	}
	anchors, err := model.ParseAnchors("anchors.txt", strings.NewReader(`
space:   rocket, orbit, astronaut
cooking: recipe, oven, -rocket
`))
	if err != nil {
		panic(err)
	}
	f, err := model.Fit(ctx, model.Text(d.Corpus, nil), model.Options{
		Kind: model.KindNMF, K: 8, Seed: 1,
		Supervision: model.Supervision{Anchors: anchors},
	})
	if err != nil {
		panic(err)
	}
	topics, _ := f.Model.Topics(4)
	for _, t := range topics[:2] {
		fmt.Printf("%s: %s %s %s %s\n", t.Name, t.Words[0].Word, t.Words[1].Word, t.Words[2].Word, t.Words[3].Word)
	}
	x, _ := f.Vectorize(ctx, []corpus.Document{{ID: "new", Text: "The astronaut boarded the rocket."}})
	p, _ := model.AsPredictor(f.Model)
	pred, _ := p.Predict(ctx, x.X)
	fmt.Println("new document:", pred.Labels[0])
	// Output:
	// space: rocket orbit astronaut telescope
	// cooking: recipe oven flour simmer
	// new document: [space]
}
