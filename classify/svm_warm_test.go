package classify

import (
	"context"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/sparse"
)

// withExtra returns x's rows with extra dense features beside them: a
// feature per class, each row's cosine to the class's first few feature
// indices, as the topics beside the terms of the terms+topics readout.
func withExtra(x *sparse.CSR, classes int) *sparse.CSR {
	out := &sparse.CSR{Rows: x.Rows, Cols: x.Cols + classes, Indptr: make([]int, x.Rows+1)}
	for i := 0; i < x.Rows; i++ {
		cols, vals := x.Row(i)
		out.Indices = append(out.Indices, cols...)
		out.Data = append(out.Data, vals...)
		for c := range classes {
			v := 0.0
			for q, j := range cols {
				if int(j) >= c*7%x.Cols && int(j) < c*7%x.Cols+5 {
					v += vals[q]
				}
			}
			if v > 0 {
				out.Indices = append(out.Indices, int32(x.Cols+c))
				out.Data = append(out.Data, 0.5*v)
			}
		}
		out.Indptr[i+1] = len(out.Data)
	}
	return out
}

func sumIters(s *LinearSVC) int {
	n := 0
	for _, it := range s.Convergence().Iterations {
		n += it
	}
	return n
}

// A warm start from another fit's dual variables converges to the same
// optimum as a cold fit: the primal objectives agree, and so do the
// weights, to the solver's tolerance. From the fit's own duals the solver
// is done within a few iterations.
func TestLinearSVCWarmStart(t *testing.T) {
	ctx := context.Background()
	for _, loss := range []Loss{SquaredHinge, Hinge} {
		for _, classes := range []int{2, 4} {
			x, y := noisy(21, 300, 30, classes)
			both := withExtra(x, classes)
			terms := &LinearSVC{Loss: loss, Seed: 3, Tol: 1e-6, MaxIter: 100000, KeepDuals: true}
			if err := terms.Fit(ctx, x, y); err != nil {
				t.Fatal(err)
			}
			cold := &LinearSVC{Loss: loss, Seed: 3, Tol: 1e-6, MaxIter: 100000, KeepDuals: true}
			if err := cold.Fit(ctx, both, y); err != nil {
				t.Fatal(err)
			}
			warm := &LinearSVC{Loss: loss, Seed: 3, Tol: 1e-6, MaxIter: 100000, Start: terms.Duals()}
			if err := warm.Fit(ctx, both, y); err != nil {
				t.Fatal(err)
			}
			co, wo := cold.Convergence().Objective, warm.Convergence().Objective
			for k := range co {
				if math.Abs(co[k]-wo[k]) > 1e-6*co[k] {
					t.Errorf("%v, %d classes, problem %d: objective %.10g warm, %.10g cold", loss, classes, k, wo[k], co[k])
				}
			}
			if !mat.EqualApprox(cold.Coef(), warm.Coef(), 1e-3) {
				t.Errorf("%v, %d classes: warm and cold weights differ by more than the tolerance allows", loss, classes)
			}
			again := &LinearSVC{Loss: loss, Seed: 3, Tol: 1e-6, MaxIter: 100000, Start: cold.Duals()}
			if err := again.Fit(ctx, both, y); err != nil {
				t.Fatal(err)
			}
			if n, p := sumIters(again), len(again.Convergence().Iterations); n > 10*p || 20*n > sumIters(cold) {
				t.Errorf("%v, %d classes: %d iterations over %d problems from the fit's own duals, want at most 10 each and a twentieth of the cold fit's %d", loss, classes, n, p, sumIters(cold))
			}
		}
	}
}

// With the hinge loss the duals are bounded by C: a start above it is
// clipped, so a fit at a smaller C starts from a feasible point and
// reaches the cold fit's optimum.
func TestLinearSVCWarmStartClipped(t *testing.T) {
	ctx := context.Background()
	x, y := noisy(23, 200, 20, 3)
	big := &LinearSVC{Loss: Hinge, C: 10, Tol: 1e-6, MaxIter: 100000, KeepDuals: true}
	if err := big.Fit(ctx, x, y); err != nil {
		t.Fatal(err)
	}
	start := big.Duals()
	cold := &LinearSVC{Loss: Hinge, C: 0.5, Tol: 1e-6, MaxIter: 100000}
	warm := &LinearSVC{Loss: Hinge, C: 0.5, Tol: 1e-6, MaxIter: 100000, Start: start, KeepDuals: true}
	for _, s := range []*LinearSVC{cold, warm} {
		if err := s.Fit(ctx, x, y); err != nil {
			t.Fatal(err)
		}
	}
	for k, a := range warm.Duals() {
		for i, v := range a {
			if v > 0.5 {
				t.Fatalf("dual %d of problem %d is %g, above C = 0.5", i, k, v)
			}
		}
	}
	co, wo := cold.Convergence().Objective, warm.Convergence().Objective
	for k := range co {
		if math.Abs(co[k]-wo[k]) > 1e-6*co[k] {
			t.Errorf("problem %d: objective %.10g warm, %.10g cold", k, wo[k], co[k])
		}
	}
	if start[0][0] != big.Duals()[0][0] {
		t.Error("Fit changed the caller's Start")
	}
}

func TestLinearSVCBadStart(t *testing.T) {
	ctx := context.Background()
	x, y := noisy(25, 60, 10, 3)
	ok := make([][]float64, 3)
	for k := range ok {
		ok[k] = make([]float64, x.Rows)
	}
	short := [][]float64{ok[0], ok[1], ok[2][:5]}
	nan := [][]float64{ok[0], ok[1], append([]float64{math.NaN()}, ok[2][1:]...)}
	neg := [][]float64{ok[0], append([]float64{-1}, ok[1][1:]...), ok[2]}
	for _, c := range []struct {
		start [][]float64
		want  string
	}{
		{ok[:2], "has 2 binary problems, the labels make 3"},
		{short, "Start[2] has 5 dual variables for 60 rows"},
		{nan, "Start[2][0] = NaN"},
		{neg, "Start[1][0] = -1"},
	} {
		err := (&LinearSVC{Start: c.start}).Fit(ctx, x, y)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("start %v: error %v, want %q", c.want, err, c.want)
		}
	}
	if err := (&LinearSVC{Start: ok}).Fit(ctx, x, y); err != nil {
		t.Errorf("zero start: %v", err)
	}
}
