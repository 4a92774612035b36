package vectorize_test

import (
	"context"
	"fmt"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/vectorize"
)

func ExampleVectorizer_FitTransform() {
	docs := []corpus.Document{
		{ID: "a", Text: "Rockets reach orbit."},
		{ID: "b", Text: "The rocket launch was delayed."},
		{ID: "c", Text: "Bake bread in a hot oven."},
	}
	v, err := vectorize.DefaultPipeline().New()
	if err != nil {
		panic(err)
	}
	res, err := v.FitTransform(context.Background(), docs)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.X.Rows, "documents ×", res.X.Cols, "terms:", res.Vocab)
	fmt.Printf("rocket in document a: %.3f\n", res.X.At(0, 8))

	// New documents use the fitted vocabulary; unknown terms are counted.
	more, _ := v.Transform(context.Background(), []corpus.Document{{ID: "d", Text: "A rocket and a comet."}})
	fmt.Println("out of vocabulary:", more.OOV, "of", more.Terms)
	// Output:
	// 3 documents × 9 terms: [bake bread delayed hot launch orbit oven reach rocket]
	// rocket in document a: 0.474
	// out of vocabulary: 1 of 2
}
