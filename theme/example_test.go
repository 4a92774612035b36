package theme_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/theme"
)

// corpus returns eight documents over six terms: "ball" and "goal" for
// sport, "vote" and "law" for politics, "say" and "year" everywhere.
func corpus() (*mat.Dense, []string) {
	vocab := []string{"ball", "goal", "vote", "law", "say", "year"}
	x := mat.NewDense(8, 6, []float64{
		4, 2, 0, 0, 3, 1,
		3, 3, 0, 0, 2, 2,
		5, 1, 0, 0, 2, 1,
		2, 4, 0, 0, 3, 2,
		0, 0, 4, 2, 3, 1,
		0, 0, 3, 3, 2, 2,
		0, 0, 2, 4, 2, 1,
		0, 0, 5, 1, 3, 2,
	})
	return x, vocab
}

func ExampleFit() {
	x, _ := corpus()
	themes := []string{"sport", "politics"}
	// Documents 3 and 7 are unlabeled: the fit scores them.
	labels := [][]int{{0}, {0}, {0}, nil, {1}, {1}, {1}, nil}
	m, err := theme.Fit(context.Background(), x, theme.Config{
		Themes: themes, Labels: labels,
		Subtopics: 1, Loss: nmf.KullbackLeibler, Seed: 1,
	})
	if err != nil {
		log.Fatal(err)
	}
	s, err := m.TrainingScores()
	if err != nil {
		log.Fatal(err)
	}
	for _, i := range []int{3, 7} {
		fmt.Printf("document %d: %s\n", i, themes[s.Rank(i)[0]])
	}
	// Output:
	// document 3: sport
	// document 7: politics
}

func ExampleModel_ThemeScores() {
	x, _ := corpus()
	themes := []string{"sport", "politics"}
	labels := [][]int{{0}, {0}, {0}, {0}, {1}, {1}, {1}, {1}}
	m, err := theme.Fit(context.Background(), x, theme.Config{Themes: themes, Labels: labels, Subtopics: 1, Loss: nmf.KullbackLeibler, Mode: theme.Combined})
	if err != nil {
		log.Fatal(err)
	}
	// A new document about politics.
	s, err := m.ThemeScores(context.Background(), mat.NewDense(1, 6, []float64{0, 0, 2, 2, 1, 1}), theme.TransformOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(themes[s.Rank(0)[0]])
	// Output: politics
}

func ExampleWriteInterpretation() {
	x, vocab := corpus()
	labels := [][]int{{0}, {0}, {0}, {0}, {1}, {1}, {1}, {1}}
	m, err := theme.Fit(context.Background(), x, theme.Config{Themes: []string{"sport", "politics"}, Labels: labels, Subtopics: 1, Loss: nmf.KullbackLeibler})
	if err != nil {
		log.Fatal(err)
	}
	in, err := m.Interpret(vocab, theme.InterpretOptions{TopN: 2, Lambdas: []float64{1}})
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range in.Themes {
		fmt.Println(t.Theme, t.Terms[0].Max[0].Term, t.Terms[0].Max[1].Term)
	}
	// The full text form:
	if err := theme.WriteInterpretation(os.Stdout, m, vocab, theme.InterpretOptions{TopN: 2, Lambdas: []float64{1}}); err != nil {
		log.Fatal(err)
	}
	// Output:
	// sport ball goal
	// politics vote law
	// mode separated, 1 subtopics per theme
	//
	// == sport
	// λ=1  subtopic 1  ball (0.3500), goal (0.2500)
	// λ=1  max         ball (0.3500), goal (0.2500)
	// λ=1  sum         ball (0.3500), goal (0.2500)
	//      background  vote (0.3500), say (0.2500)
	//
	// == politics
	// λ=1  subtopic 1  vote (0.3500), law (0.2500)
	// λ=1  max         vote (0.3500), law (0.2500)
	// λ=1  sum         vote (0.3500), law (0.2500)
	//      background  ball (0.3500), say (0.2500)
}

func ExampleThemeScore() {
	// A subtopic weight of 100 against a background weight of 5.
	fmt.Printf("%.2f\n", theme.ThemeScore(100, 5))
	// Output: 0.95
}
