package classify_test

import (
	"context"
	"fmt"
	"log"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/classify"
	"github.com/semitopic/semitopic/sparse"
)

// Word counts of six short documents over the vocabulary
// [ball, goal, team, vote, party, law]: three about sport (class 0) and
// three about politics (class 1).
func trainingData() (*sparse.CSR, []int) {
	x := sparse.FromDense(mat.NewDense(6, 6, []float64{
		2, 1, 1, 0, 0, 0,
		0, 2, 1, 0, 0, 1,
		1, 0, 2, 0, 1, 0,
		0, 0, 0, 2, 1, 1,
		0, 1, 0, 1, 2, 0,
		0, 0, 1, 0, 1, 2,
	}))
	return x, []int{0, 0, 0, 1, 1, 1}
}

func ExampleMultinomialNB() {
	x, y := trainingData()
	var nb classify.MultinomialNB // α = 1, fitted priors
	if err := nb.Fit(context.Background(), x, y); err != nil {
		log.Fatal(err)
	}
	// "goal goal team" and "party law law". Smoothed, sport has 18 word
	// counts with goal 4 and team 5, politics goal 2 and team 2, so the
	// first document's odds are 4·4·5 : 2·2·2 = 10 : 1.
	test := sparse.FromDense(mat.NewDense(2, 6, []float64{
		0, 2, 1, 0, 0, 0,
		0, 0, 0, 0, 1, 2,
	}))
	p, err := nb.PredictProba(test)
	if err != nil {
		log.Fatal(err)
	}
	pred, _ := nb.Predict(test)
	fmt.Printf("P(sport) = %.3f, %.3f\n", p.At(0, 0), p.At(1, 0))
	fmt.Println("classes:", pred)
	// Output:
	// P(sport) = 0.909, 0.091
	// classes: [0 1]
}

func ExampleLinearSVC() {
	x, y := trainingData()
	x.NormalizeRowsL2()
	svm := &classify.LinearSVC{Seed: 1} // squared hinge, C = 1, as scikit-learn
	if err := svm.Fit(context.Background(), x, y); err != nil {
		log.Fatal(err)
	}
	pred, _ := svm.Predict(x)
	cv := svm.Convergence()
	fmt.Println("training predictions:", pred)
	fmt.Println("converged:", !cv.MaxIterReached)
	// Output:
	// training predictions: [0 0 0 1 1 1]
	// converged: true
}

func ExampleLogisticRegression() {
	x, y := trainingData()
	x.NormalizeRowsL2()
	var lr classify.LogisticRegression // multinomial, L-BFGS, C = 1
	if err := lr.Fit(context.Background(), x, y); err != nil {
		log.Fatal(err)
	}
	p, _ := lr.PredictProba(x)
	fmt.Printf("P(politics | document 4) = %.2f\n", p.At(3, 1))
	fmt.Println(lr.Convergence().Message)
	// Output:
	// P(politics | document 4) = 0.75
	// gradient below tolerance
}

// Every classifier satisfies Classifier, so baselines can be run in a loop.
func ExampleClassifier() {
	x, y := trainingData()
	x.NormalizeRowsL2()
	for _, c := range []classify.Classifier{
		&classify.MultinomialNB{},
		&classify.LinearSVC{},
		&classify.LogisticRegression{},
	} {
		if err := c.Fit(context.Background(), x, y); err != nil {
			log.Fatal(err)
		}
		pred, err := c.Predict(x)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%T: %v\n", c, pred)
	}
	// Output:
	// *classify.MultinomialNB: [0 0 0 1 1 1]
	// *classify.LinearSVC: [0 0 0 1 1 1]
	// *classify.LogisticRegression: [0 0 0 1 1 1]
}
