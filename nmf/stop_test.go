package nmf

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/progress"
)

func TestRelativeDecrease(t *testing.T) {
	r := RelativeDecrease{Tol: 0.1}
	for _, c := range []struct {
		hist []float64
		want bool
	}{
		{[]float64{10}, false},
		{[]float64{10, 8}, false},  // 20% decrease
		{[]float64{10, 9.5}, true}, // 5%
		{[]float64{10, 11}, true},  // an increase
		{[]float64{0, 0}, true},    // nothing left to decrease
		{[]float64{10, 8, 7.9}, true},
	} {
		if got := r.Converged(c.hist); got != c.want {
			t.Errorf("%v: converged %v, want %v", c.hist, got, c.want)
		}
	}
	if (RelativeDecrease{Tol: -1}).Converged([]float64{10, 11}) {
		t.Error("a negative Tol stopped")
	}
}

func TestSklearnEvery10(t *testing.T) {
	s := SklearnEvery10{Tol: 1e-2}
	// e = √(2f): f_0 = 50 gives e0 = 10.
	hist := make([]float64, 31)
	for i := range hist {
		e := 10 - math.Min(float64(i), 20)*0.2 // falls 2 per 10 iterations until 20, then flat
		hist[i] = e * e / 2
	}
	for t0 := 1; t0 <= 30; t0++ {
		got := s.Converged(hist[:t0+1])
		want := t0 == 30 // the first check with a fall below 1% of e0
		if got != want {
			t.Errorf("after %d iterations: converged %v, want %v", t0, got, want)
		}
	}
	if (SklearnEvery10{}).Converged(hist) {
		t.Error("Tol 0 stopped")
	}
}

// TestFitStopRule checks that Fit applies Config.Stop: the scikit-learn
// rule stops a Frobenius fit on a multiple of 10 iterations.
func TestFitStopRule(t *testing.T) {
	x := mat.NewDense(30, 12, nil)
	for i := 0; i < 30; i++ {
		for j := 0; j < 12; j++ {
			v := float64((i*7 + j*5) % 11)
			if i/10 == j/4 {
				v += 20
			}
			x.Set(i, j, v)
		}
	}
	res, err := Fit(context.Background(), x, Config{K: 3, Seed: 1, Init: InitRandom, MaxIter: 500, Stop: SklearnEvery10{Tol: 1e-4}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Convergence.Status != progress.Converged || res.Iterations%10 != 0 || res.Iterations >= 500 {
		t.Errorf("stopped after %d iterations (%v), want a multiple of 10 below 500", res.Iterations, res.Convergence)
	}
	def, err := Fit(context.Background(), x, Config{K: 3, Seed: 1, Init: InitRandom, MaxIter: 500})
	if err != nil {
		t.Fatal(err)
	}
	set, err := Fit(context.Background(), x, Config{K: 3, Seed: 1, Init: InitRandom, MaxIter: 500, Stop: RelativeDecrease{Tol: DefaultTol}})
	if err != nil {
		t.Fatal(err)
	}
	if def.Iterations != set.Iterations || !mat.Equal(def.W, set.W) {
		t.Errorf("RelativeDecrease{DefaultTol} differs from the default rule: %d vs %d iterations", set.Iterations, def.Iterations)
	}
}
