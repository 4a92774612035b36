package model_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/vectorize"
)

// exampleCSV writes a small labeled CSV corpus and returns its path.
func exampleCSV() string {
	dir, _ := os.MkdirTemp("", "semitopic-example")
	p := filepath.Join(dir, "docs.csv")
	rows := "id,text,label\n" +
		"1,\"The rocket reached orbit and the astronaut saw the planet.\",space\n" +
		"2,\"A telescope on the satellite photographed a distant galaxy.\",space\n" +
		"3,\"Knead the dough, add flour and bake it in a hot oven.\",cooking\n" +
		"4,\"Simmer the garlic sauce, then season the roast with pepper.\",cooking\n" +
		"5,\"The launch of the rocket was delayed by the weather.\",\n" +
		"6,\"Butter and flour make the pastry for the dessert.\",\n"
	os.WriteFile(p, []byte(rows), 0o644)
	return p
}

// Fit TS-NMF on a CSV file whose label column marks a few documents: the
// unlabeled ones get the topics of the labels they resemble. The text is
// read with the kind's default pipeline (model.Text with no pipeline).
func ExampleFit_tsnmfOnCSV() {
	ctx := context.Background()
	c, err := corpus.CSV{}.Read(ctx, exampleCSV())
	if err != nil {
		panic(err)
	}
	f, err := model.Fit(ctx, model.Text(c, nil), model.Options{Kind: model.KindTSNMF, Seed: 1, LabelsFromCorpus: true})
	if err != nil {
		panic(err)
	}
	topics, err := f.Model.Topics(3)
	if err != nil {
		panic(err)
	}
	for _, t := range topics {
		fmt.Println(t.Name, "—", t.Words[0].Word, t.Words[1].Word, t.Words[2].Word)
	}
	x, _ := f.Vectorize(ctx, []corpus.Document{{ID: "new", Text: "An astronaut on the rocket."}})
	p, _ := model.AsPredictor(f.Model)
	pred, _ := p.Predict(ctx, x.X)
	fmt.Println("new document:", pred.Labels[0])
	// Output:
	// cooking — flour add bake
	// space — rocket astronaut orbit
	// new document: [space]
}

// Save a fitted model, load it back and transform new text with it: the
// saved file carries the vocabulary and the whole text pipeline.
func ExampleLoad() {
	ctx := context.Background()
	c, _ := corpus.CSV{}.Read(ctx, exampleCSV())
	f, _ := model.Fit(ctx, model.Text(c, nil), model.Options{Kind: model.KindTSNMF, Seed: 1, LabelsFromCorpus: true})
	var file bytes.Buffer
	if err := model.Save(&file, f); err != nil {
		panic(err)
	}
	g, err := model.Load(&file)
	if err != nil {
		panic(err)
	}
	x, _ := g.Vectorize(ctx, []corpus.Document{{ID: "q", Text: "Bake the bread in the oven."}})
	w, _ := g.Model.Transform(ctx, x.X)
	fmt.Printf("%s model, %d topics; weights of the new document: cooking %.2f, space %.2f\n",
		g.Model.Kind(), g.Model.NumTopics(), w.At(0, 0), w.At(0, 1))
	// Output:
	// tsnmf model, 2 topics; weights of the new document: cooking 0.69, space 0.00
}

// Classify with SSNMF: a joint factorization of the documents and their
// labels gives topics and a classifier at once. The text is read with the
// default pipeline instead of the kind's own.
func ExampleFit_ssnmfClassify() {
	ctx := context.Background()
	c, _ := corpus.CSV{}.Read(ctx, exampleCSV())
	pl := vectorize.DefaultPipeline()
	f, err := model.Fit(ctx, model.Text(c, &pl), model.Options{Kind: model.KindSSNMF, Seed: 1, Loss: "F,F", LabelsFromCorpus: true})
	if err != nil {
		panic(err)
	}
	x, _ := f.Vectorize(ctx, []corpus.Document{
		{ID: "a", Text: "The astronaut repaired the satellite in orbit."},
		{ID: "b", Text: "Season the sauce with garlic and pepper."},
	})
	pred, _ := f.Model.(model.Predictor).Predict(ctx, x.X)
	fmt.Println(pred.Labels)
	// Output: [[space] [cooking]]
}

// Fit Anchored CorEx with a few anchor words per topic: the anchored
// topics gather the words that co-occur with their anchors, and the rest
// of the topics explain what else the corpus holds.
func ExampleFit_corexAnchors() {
	ctx := context.Background()
	d, err := demo.Load()
	if err != nil {
		panic(err)
	}
	sup := model.Supervision{Anchors: []model.Anchor{
		{Topic: "space", Words: []string{"rocket", "orbit"}},
		// A strength per word: "recipe" pulls harder than the default β.
		{Topic: "cooking", Words: []string{"recipe", "oven"}, Beta: []float64{5, 0}},
	}}
	binary := vectorize.Pipeline{Text: vectorize.DefaultPipeline().Text, Vectorize: vectorize.Options{Binary: true}}
	f, err := model.Fit(ctx, model.Text(d.Corpus, &binary), model.Options{Kind: model.KindCorEx, K: 8, Beta: 2, Seed: 1, Supervision: sup})
	if err != nil {
		panic(err)
	}
	topics, err := f.Model.Topics(4)
	if err != nil {
		panic(err)
	}
	for _, t := range topics[:2] {
		fmt.Printf("%s (TC %.1f nats):", t.Name, t.Score)
		for _, w := range t.Words {
			fmt.Print(" ", w.Word)
		}
		fmt.Println()
	}
	// Output:
	// space (TC 4.3 nats): rocket orbit astronaut telescope
	// cooking (TC 5.7 nats): recipe oven flour simmer
}

// Fit NMF on a matrix that another tool vectorized, and read the kinds'
// declarations: the options each takes.
func ExampleFit_matrix() {
	ctx := context.Background()
	vocab := []string{"rocket", "orbit", "flour", "oven"}
	x, _ := sparse.FromTriplets(4, 4, []sparse.Triplet{
		{Row: 0, Col: 0, Val: 2}, {Row: 0, Col: 1, Val: 1}, {Row: 1, Col: 1, Val: 2}, {Row: 1, Col: 0, Val: 1},
		{Row: 2, Col: 2, Val: 2}, {Row: 2, Col: 3, Val: 1}, {Row: 3, Col: 3, Val: 2}, {Row: 3, Col: 2, Val: 1},
	})
	f, err := model.Fit(ctx, model.Matrix(x, vocab), model.Options{Kind: model.KindNMF, K: 2, Seed: 1})
	if err != nil {
		panic(err)
	}
	topics, _ := f.Model.Topics(2)
	for _, t := range topics {
		fmt.Println(t.Name, t.Words[0].Word, t.Words[1].Word)
	}
	_, err = model.Fit(ctx, model.Matrix(x, vocab), model.Options{Kind: model.KindNMF, K: 2, Lambda: 10})
	fmt.Println(err)
	// Output:
	// topic-1 rocket orbit
	// topic-2 flour oven
	// model: option --lambda does not apply to nmf models (nmf takes: -k/--topics, --seed, --max-iter, --tol, --loss, --gathers, --init, --beta, --seed-rank, --readout)
}
