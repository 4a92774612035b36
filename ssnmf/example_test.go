package ssnmf_test

import (
	"context"
	"fmt"
	"log"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/ssnmf"
)

// exampleData returns six short "documents" over six terms: three about
// sport (terms 0–2) and three about finance (terms 3–5).
func exampleData() (*sparse.CSR, []string) {
	vocab := []string{"goal", "match", "team", "bank", "market", "stock"}
	x := mat.NewDense(6, 6, []float64{
		4, 2, 1, 0, 0, 0,
		2, 4, 1, 0, 1, 0,
		1, 2, 3, 0, 0, 0,
		0, 0, 0, 3, 2, 1,
		0, 1, 0, 2, 4, 2,
		0, 0, 0, 1, 2, 4,
	})
	return sparse.FromDense(x), vocab
}

// Fit a (D,F) model — I-divergence reconstruction, nmf.Frobenius supervision —
// on labeled documents, then classify new ones with the topics fixed.
func ExampleFit() {
	x, vocab := exampleData()
	// Classes 0 (sport) and 1 (finance); the last document is unlabeled.
	y, labeled, err := ssnmf.OneHot([]int{0, 0, 0, 1, 1, -1}, 2)
	if err != nil {
		log.Fatal(err)
	}
	res, err := ssnmf.Fit(context.Background(), x, ssnmf.Config{
		K: 2, Losses: ssnmf.DF, Y: y, LabelRowWeights: labeled, Lambda: 1, MaxIter: 300, Tol: 1e-6, Seed: 1,
	})
	if err != nil {
		log.Fatal(err)
	}
	top, _ := res.TopTerms(vocab, 3)
	b, _ := res.NormalizedB()
	for t := range top {
		fmt.Printf("topic %d: %v, sport %.2f, finance %.2f\n", t, top[t], b.At(0, t), b.At(1, t))
	}

	docs := sparse.FromDense(mat.NewDense(2, 6, []float64{
		0, 0, 1, 2, 2, 0, // bank, market (and team)
		2, 1, 0, 0, 0, 0, // goal, match
	}))
	res.Represent = ssnmf.TransformConfig{Iter: 100}
	p, err := res.Predict(context.Background(), docs)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("predicted classes:", metrics.ArgmaxRows(p))
	// Output:
	// topic 0: [match goal team], sport 1.00, finance 0.00
	// topic 1: [market stock bank], sport 0.00, finance 1.00
	// predicted classes: [1 0]
}
