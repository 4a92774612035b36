package nmf_test

import (
	"context"
	"fmt"
	"log"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/blocks"
	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/supervision"
)

func ExampleFit() {
	// Six documents over four terms: the first three use terms 0 and 1,
	// the last three terms 2 and 3.
	x := mat.NewDense(6, 4, []float64{
		3, 1, 0, 0,
		2, 2, 0, 0,
		4, 1, 0, 0,
		0, 0, 1, 3,
		0, 0, 2, 2,
		0, 0, 1, 4,
	})
	res, err := nmf.Fit(context.Background(), x, nmf.Config{K: 2, Init: nmf.InitNNDSVDa, MaxIter: 500, Tol: 1e-10})
	if err != nil {
		log.Fatal(err)
	}
	// Group the documents by their strongest topic.
	groups := map[int][]int{}
	for i := 0; i < 6; i++ {
		row := res.W.RawRowView(i)
		topic := 0
		if row[1] > row[0] {
			topic = 1
		}
		groups[topic] = append(groups[topic], i)
	}
	fmt.Println("documents by topic:", groups[0], groups[1])
	fmt.Printf("objective fell from %.2f to %.2f\n", res.Objective[0], res.FinalObjective())
	// Output:
	// documents by topic: [3 4 5] [0 1 2]
	// objective fell from 73.34 to 1.59
}

func ExampleTSNMF() {
	// Four documents over six terms; documents 0 and 2 are labeled.
	x, err := sparse.FromTriplets(4, 6, []sparse.Triplet{
		{Row: 0, Col: 0, Val: 2}, {Row: 0, Col: 1, Val: 1},
		{Row: 1, Col: 0, Val: 1}, {Row: 1, Col: 1, Val: 2}, {Row: 1, Col: 5, Val: 1},
		{Row: 2, Col: 2, Val: 2}, {Row: 2, Col: 3, Val: 2},
		{Row: 3, Col: 3, Val: 1}, {Row: 3, Col: 4, Val: 3}, {Row: 3, Col: 5, Val: 2},
	})
	if err != nil {
		log.Fatal(err)
	}
	vocab := []string{"oil", "crude", "wheat", "grain", "ship", "port"}
	res, err := nmf.TSNMF(context.Background(), x, nmf.TSNMFConfig{
		Config:     nmf.Config{K: 3, Labels: [][]int{{0}, nil, {1}, nil}, Seed: 1, MaxIter: 300},
		LabelNames: []string{"crude", "grain"},
		Vocab:      vocab,
		TopN:       2,
	})
	if err != nil {
		log.Fatal(err)
	}
	for t, name := range res.TopicNames {
		fmt.Printf("%-8s supervised=%v top terms %v\n", name, res.Supervised[t], res.TopTerms[t])
	}
	fmt.Println("document 0 uses only topic 0:", res.W.At(0, 1) == 0 && res.W.At(0, 2) == 0)
	fmt.Println(res.Notes[0])
	// Output:
	// crude    supervised=true top terms [oil crude]
	// grain    supervised=true top terms [grain wheat]
	// topic-2  supervised=false top terms [ship port]
	// document 0 uses only topic 0: true
	// topic 2 (1 of 3) is unsupervised: allowed in the unlabeled documents only
}

func ExampleFixedH_Transform() {
	h := mat.NewDense(2, 3, []float64{
		1, 1, 0,
		0, 1, 1,
	})
	x := mat.NewDense(2, 3, []float64{
		2, 2, 0,
		1, 2, 1,
	})
	f, err := nmf.NewFixedH(h)
	if err != nil {
		log.Fatal(err)
	}
	w, err := f.Transform(context.Background(), x, nmf.TransformConfig{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%.3f\n", mat.Formatted(w))
	// Output:
	// ⎡2.000  0.000⎤
	// ⎣1.000  1.000⎦
}

func ExampleFitBlocks() {
	// Six documents over four terms, read in blocks of two documents; the
	// rows of W stay in the store, one vector per block.
	x := sparse.FromDense(mat.NewDense(6, 4, []float64{
		3, 1, 0, 0,
		2, 2, 0, 0,
		4, 1, 0, 0,
		0, 0, 1, 3,
		0, 0, 2, 2,
		0, 0, 1, 4,
	}))
	src, err := blocks.FromCSR(x, nil, 2)
	if err != nil {
		log.Fatal(err)
	}
	st := blocks.NewMemStore() // shard.NewStore(dir) keeps it on disk
	cfg := nmf.Config{K: 2, Seed: 1, MaxIter: 200, Tol: 1e-10}
	res, err := nmf.FitBlocks(context.Background(), src, st, cfg)
	if err != nil {
		log.Fatal(err)
	}
	// In memory, the same configuration gives the same fit.
	mem, err := nmf.Fit(context.Background(), x, nmf.Config{K: 2, Init: nmf.InitRandomAcol, Seed: 1, MaxIter: 200, Tol: 1e-10})
	if err != nil {
		log.Fatal(err)
	}
	w := make([]float64, 2*2) // block 1: documents 2 and 3, two topics
	if err := st.Load(res.WName, 1, w); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d iterations, objective %.4f (in memory %.4f)\n", res.Iterations, res.FinalObjective(), mem.FinalObjective())
	fmt.Printf("W of document 2: %.4f, in memory %.4f\n", w[:2], mem.W.RawRowView(2))
	// Output:
	// 16 iterations, objective 1.5862 (in memory 1.5862)
	// W of document 2: [1.1547 0.0000], in memory [1.1547 0.0000]
}

// Guided NMF without package model: seed terms name what two of three
// topics are about, and an exclusion keeps a term out of a topic.
func ExampleFit_seeds() {
	vocab := []string{"rocket", "orbit", "nasa", "goal", "match", "team", "oven", "flour", "recipe"}
	x, err := sparse.FromTriplets(6, 9, []sparse.Triplet{
		{Row: 0, Col: 0, Val: 2}, {Row: 0, Col: 1, Val: 1}, {Row: 0, Col: 2, Val: 1},
		{Row: 1, Col: 1, Val: 2}, {Row: 1, Col: 2, Val: 2}, {Row: 1, Col: 5, Val: 1},
		{Row: 2, Col: 3, Val: 2}, {Row: 2, Col: 4, Val: 2}, {Row: 2, Col: 5, Val: 1},
		{Row: 3, Col: 4, Val: 1}, {Row: 3, Col: 5, Val: 3},
		{Row: 4, Col: 6, Val: 2}, {Row: 4, Col: 7, Val: 1}, {Row: 4, Col: 8, Val: 2},
		{Row: 5, Col: 7, Val: 2}, {Row: 5, Col: 8, Val: 2}, {Row: 5, Col: 5, Val: 1},
	})
	if err != nil {
		log.Fatal(err)
	}
	res, err := nmf.Fit(context.Background(), x, nmf.Config{K: 3, Loss: nmf.KullbackLeibler, Seed: 1, MaxIter: 300,
		Seeds: supervision.Terms{
			// Topic 0 is space (rocket counts twice), topic 1 sport.
			Seeds: []supervision.Seed{{Topic: 0, Term: 0, Strength: 2}, {Topic: 0, Term: 1}, {Topic: 1, Term: 3}},
			// "team" may not describe topic 2.
			Exclude: []supervision.Exclusion{{Topic: 2, Term: 5}},
		}})
	if err != nil {
		log.Fatal(err)
	}
	top, err := nmf.TopTerms(res.H, vocab, 3)
	if err != nil {
		log.Fatal(err)
	}
	for t, terms := range top {
		fmt.Printf("topic %d: %v\n", t, terms)
	}
	fmt.Println("seeded topics:", res.Seeded, "- W has", res.W.RawMatrix().Rows, "rows, one per document")
	fmt.Println("topic 2 uses team:", res.H.At(2, 5) != 0)
	// Output:
	// topic 0: [rocket orbit nasa]
	// topic 1: [goal team match]
	// topic 2: [recipe flour oven]
	// seeded topics: [0 1] - W has 6 rows, one per document
	// topic 2 uses team: false
}
