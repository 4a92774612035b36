package progress_test

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/progress"
)

// A progress function records each iteration's objective; the same
// function serves every estimator.
func Example() {
	x := mat.NewDense(3, 3, []float64{1, 0, 2, 0, 3, 1, 2, 1, 0})
	var objectives []float64
	record := func(s progress.Step) { objectives = append(objectives, s.Objective) }
	m, err := nmf.Fit(context.Background(), x, nmf.Config{K: 2, MaxIter: 5, Tol: -1, Progress: record})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(objectives), "steps; the last is the fit's final objective:", math.Abs(objectives[4]-m.FinalObjective()) < 1e-12)
	// Output: 5 steps; the last is the fit's final objective: true
}

// A fit's result says how it ended; one stopped at its iteration limit
// may deserve a warning, as scikit-learn's ConvergenceWarning.
func ExampleConvergence() {
	x := mat.NewDense(3, 3, []float64{1, 0, 2, 0, 3, 1, 2, 1, 0})
	m, err := nmf.Fit(context.Background(), x, nmf.Config{K: 2, MaxIter: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	c := m.Convergence
	fmt.Println(c.Status, c.MaxIter, c.Measure)
	if c.Status == progress.IterationLimit {
		fmt.Println("warning: more iterations or a larger tolerance would change the result")
	}
	// Output:
	// iteration-limit 1 relative decrease of the objective
	// warning: more iterations or a larger tolerance would change the result
}
