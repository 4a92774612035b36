package corex_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/semitopic/semitopic/corex"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/supervision"
)

// docs is a toy corpus: space, sport and cooking documents.
var docs = []string{
	"rocket orbit launch nasa", "orbit moon nasa shuttle", "launch rocket shuttle moon", "nasa orbit rocket",
	"team game season score", "game score team player", "season player team", "score game player season",
	"recipe oven flour sugar", "oven bake recipe flour", "sugar flour bake", "bake recipe oven sugar",
	"rocket game recipe", "moon team oven",
}

// binary returns the documents × words presence matrix and the vocabulary.
func binary(texts []string) (*sparse.CSR, []string) {
	index := map[string]int{}
	var vocab []string
	var ts []sparse.Triplet
	for d, t := range texts {
		for _, w := range strings.Fields(t) {
			if _, ok := index[w]; !ok {
				index[w] = len(vocab)
				vocab = append(vocab, w)
			}
			ts = append(ts, sparse.Triplet{Row: d, Col: index[w], Val: 1})
		}
	}
	x, err := sparse.FromTriplets(len(texts), len(vocab), ts)
	if err != nil {
		panic(err)
	}
	return x, vocab
}

func Example() {
	x, vocab := binary(docs)
	m, err := corex.Fit(context.Background(), x, corex.Config{K: 3, Seed: 1, Vocab: vocab, Restarts: 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	for j := 0; j < m.K; j++ {
		ws, _ := m.TopWords(j, 4, corex.ByMI)
		var terms []string
		for _, w := range ws {
			terms = append(terms, w.Term)
		}
		fmt.Printf("topic %d: %s\n", j, strings.Join(terms, ", "))
	}
	fmt.Println("TC is the sum of the topics' TC:", fmt.Sprintf("%.6f", m.TC) == fmt.Sprintf("%.6f", m.TCs[0]+m.TCs[1]+m.TCs[2]))
	// Output:
	// topic 0: flour, sugar, bake, recipe
	// topic 1: season, score, player, game
	// topic 2: orbit, nasa, launch, shuttle
	// TC is the sum of the topics' TC: true
}

func ExampleFit_anchors() {
	x, vocab := binary(docs)
	term := func(w string) int { return slices.Index(vocab, w) }
	m, err := corex.Fit(context.Background(), x, corex.Config{
		K: 3, Seed: 1, Vocab: vocab, Beta: 3,
		Seeds: supervision.Terms{
			// Topic 0 is anchored by game and team, topic 1 by rocket
			// and moon; topic 2 may not use oven.
			Seeds: []supervision.Seed{
				{Topic: 0, Term: term("game")}, {Topic: 0, Term: term("team")},
				{Topic: 1, Term: term("rocket")}, {Topic: 1, Term: term("moon")},
			},
			Exclude: []supervision.Exclusion{{Topic: 2, Term: term("oven")}},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for j := 0; j < 3; j++ {
		ws, _ := m.TopWords(j, 4, corex.ByWeightedMI)
		var terms []string
		for _, w := range ws {
			terms = append(terms, w.Term)
		}
		fmt.Printf("topic %d: %s\n", j, strings.Join(terms, ", "))
	}
	// Output:
	// topic 0: team, game, season, score
	// topic 1: rocket, moon, orbit, nasa
	// topic 2: flour, sugar, bake, recipe
}

func ExampleSuggestAnchors() {
	x, vocab := binary(docs[:12])
	labels := make([][]int, 12)
	for d := range labels {
		labels[d] = []int{d / 4} // space, sport, cooking
	}
	sug, err := corex.SuggestAnchors(x, labels, 3, 2, true)
	if err != nil {
		fmt.Println(err)
		return
	}
	for l, ws := range sug {
		fmt.Printf("label %d: %s %s\n", l, vocab[ws[0].Index], vocab[ws[1].Index])
	}
	// Output:
	// label 0: rocket orbit
	// label 1: team game
	// label 2: recipe oven
}

func ExampleFitHierarchy() {
	x, vocab := binary(docs)
	h, err := corex.FitHierarchy(context.Background(), x, corex.Config{K: 3, Seed: 1, Vocab: vocab, Restarts: 3}, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(h.Layers), "layers;", h.Layers[1].K, "topic on top of", h.Layers[0].K)
	_ = h.WriteTree(os.Stdout, 2)
	// Output:
	// 2 layers; 1 topic on top of 3
	// L2-0 (TC 0.235)
	//   L1-2 (TC 0.849): orbit, nasa
	//   L1-0 (TC 0.895): flour, sugar
	//   L1-1 (TC 0.895): season, score
}
