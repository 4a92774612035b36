package classify

import (
	"context"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/rng"
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

// The checks of the whole set skip rows whose gradient they can bound
// (checker): the fit must be the one computing every row gives, to the
// bit, and some rows must have been skipped, or the test tests nothing.
// Warm and cold, both losses, a tight and a loose tolerance.
func TestLinearSVCCheckSkipsExactly(t *testing.T) {
	ctx := context.Background()
	x, y := noisy(31, 600, 40, 5)
	both := withExtra(x, 5)
	skipped := 0
	for _, hinge := range []bool{false, true} {
		for _, tol := range []float64{0.1, 1e-4} {
			// The warm start: the terms alone's duals, as the automatic
			// configuration's readouts start.
			terms := &LinearSVC{Loss: SquaredHinge, Seed: 5, Tol: 0.1, KeepDuals: true}
			if hinge {
				terms.Loss = Hinge
			}
			if err := terms.Fit(ctx, x, y); err != nil {
				t.Fatal(err)
			}
			for _, start := range [][][]float64{nil, terms.Duals()} {
				solve := func(every bool) ([][]float64, [][]float64, int) {
					p := newDCDProblem(both, y, 1, 1, hinge, tol, 1000)
					p.checkEvery = every
					var ws, as [][]float64
					n := 0
					for k := range 5 {
						w := make([]float64, both.Cols+1)
						a := make([]float64, both.Rows)
						if start != nil {
							copy(a, start[k])
						}
						st, err := p.solve(ctx, k, w, a, rng.New(5, uint64(k), 1))
						if err != nil {
							t.Fatal(err)
						}
						ws, as, n = append(ws, w), append(as, a), n+st.skipped
					}
					return ws, as, n
				}
				w1, a1, n1 := solve(false)
				w2, a2, n2 := solve(true)
				if n2 != 0 {
					t.Fatalf("checkEvery skipped %d rows", n2)
				}
				skipped += n1
				for k := range w1 {
					for j := range w1[k] {
						if math.Float64bits(w1[k][j]) != math.Float64bits(w2[k][j]) {
							t.Fatalf("hinge %v, tol %g, warm %v: weight %d of problem %d is %v with skips, %v without", hinge, tol, start != nil, j, k, w1[k][j], w2[k][j])
						}
					}
					for i := range a1[k] {
						if math.Float64bits(a1[k][i]) != math.Float64bits(a2[k][i]) {
							t.Fatalf("hinge %v, tol %g, warm %v: dual %d of problem %d is %v with skips, %v without", hinge, tol, start != nil, i, k, a1[k][i], a2[k][i])
						}
					}
				}
			}
		}
	}
	if skipped == 0 {
		t.Fatal("no check skipped a row: the test compares nothing")
	}
	t.Logf("%d rows skipped in all", skipped)
}

// TestLinearSVCObjectiveAtCheck checks the objective a problem reports
// when its descent stops at a check (taken from the check's gradients)
// against the primal objective computed afresh from the weights, with and
// without the check's skips, for both losses, cold and warm: the two sums
// differ only by rounding.
func TestLinearSVCObjectiveAtCheck(t *testing.T) {
	ctx := context.Background()
	x, y := noisy(37, 500, 40, 4)
	atCheck := 0
	for _, hinge := range []bool{false, true} {
		for _, tol := range []float64{0.1, 1e-4} {
			for _, every := range []bool{false, true} {
				p := newDCDProblem(x, y, 1, 0.5, hinge, tol, 1000)
				p.checkEvery = every
				for k := range 4 {
					w := make([]float64, x.Cols+1)
					a := make([]float64, x.Rows)
					st, err := p.solve(ctx, k, w, a, rng.New(9, uint64(k), 1))
					if err != nil {
						t.Fatal(err)
					}
					want := p.primal(k, w)
					if math.Abs(st.objective-want) > 1e-12*math.Abs(want) {
						t.Errorf("hinge %v, tol %g, every %v, problem %d: objective %.17g, afresh %.17g", hinge, tol, every, k, st.objective, want)
					}
					if st.atCheck {
						atCheck++
					}
				}
			}
		}
	}
	if atCheck == 0 {
		t.Fatal("no problem took its objective from a check")
	}
}
