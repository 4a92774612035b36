package nmf

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
)

// sklearnObjectives reads testdata/sklearn_objectives.txt: loss → iterations
// → objective.
func sklearnObjectives(t *testing.T) map[string]map[int]float64 {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "sklearn_objectives.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]map[int]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 3 {
			continue
		}
		it, err1 := strconv.Atoi(fs[1])
		v, err2 := strconv.ParseFloat(fs[2], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad line %q", sc.Text())
		}
		if out[fs[0]] == nil {
			out[fs[0]] = map[int]float64{}
		}
		out[fs[0]][it] = v
	}
	return out
}

// TestMatchesScikitLearn fits the fixture from scikit-learn's starting
// factors and compares the objective after 0…100 iterations and the final
// factors with what scikit-learn 1.2.1 computed (gen_sklearn.py), on the
// sparse and the dense path.
func TestMatchesScikitLearn(t *testing.T) {
	x := readFixture(t, "x.mtx")
	w0 := readFixture(t, "w0.mtx").ToDense()
	h0 := readFixture(t, "h0.mtx").ToDense()
	want := sklearnObjectives(t)
	for _, loss := range []Loss{Frobenius, KullbackLeibler} {
		short := map[Loss]string{Frobenius: "fro", KullbackLeibler: "kl"}[loss]
		for _, dense := range []bool{false, true} {
			var xm Matrix = x
			if dense {
				xm = x.ToDense()
			}
			res, err := Fit(context.Background(), xm, Config{K: 4, Loss: loss, W0: w0, H0: h0, MaxIter: 100, Tol: -1})
			if err != nil {
				t.Fatal(err)
			}
			if res.Iterations != 100 || len(res.Objective) != 101 {
				t.Fatalf("%v: %d iterations, %d objectives", loss, res.Iterations, len(res.Objective))
			}
			for it, v := range want[short] {
				if d := relDiff(res.Objective[it], v); d > 1e-9 {
					t.Errorf("%v dense=%v: objective after %d iterations %.15g, scikit-learn %.15g (rel %.2g)", loss, dense, it, res.Objective[it], v, d)
				}
			}
			wW := readFixture(t, "sklearn_"+short+"_W.mtx").ToDense()
			wH := readFixture(t, "sklearn_"+short+"_H.mtx").ToDense()
			if d := maxRelDiff(wW, res.W); d > 1e-7 {
				t.Errorf("%v dense=%v: W differs from scikit-learn's by %.3g", loss, dense, d)
			}
			if d := maxRelDiff(wH, res.H); d > 1e-7 {
				t.Errorf("%v dense=%v: H differs from scikit-learn's by %.3g", loss, dense, d)
			}
		}
	}
}

// TestNNDSVDMatchesScikitLearn compares the NNDSVD initialisations with
// scikit-learn's _initialize_nmf on a matrix whose top singular subspace is
// well separated (so the randomized SVDs of both converge to it).
func TestNNDSVDMatchesScikitLearn(t *testing.T) {
	x := readFixture(t, "x.mtx")
	for _, c := range []struct {
		init Init
		name string
	}{{InitNNDSVD, "nndsvd"}, {InitNNDSVDa, "nndsvda"}} {
		d, err := checkData(x)
		if err != nil {
			t.Fatal(err)
		}
		w, h, err := initNNDSVD(context.Background(), d, sparseOp{x, x.T()}, 4, c.init, newRand(3))
		if err != nil {
			t.Fatal(err)
		}
		wantW := readFixture(t, "sklearn_"+c.name+"_W.mtx").ToDense()
		wantH := readFixture(t, "sklearn_"+c.name+"_H.mtx").ToDense()
		if dd := maxRelDiff(wantW, mat.NewDense(40, 4, w)); dd > 1e-6 {
			t.Errorf("%s: W differs from scikit-learn's by %.3g", c.name, dd)
		}
		if dd := maxRelDiff(wantH, mat.NewDense(4, 30, h)); dd > 1e-6 {
			t.Errorf("%s: H differs from scikit-learn's by %.3g", c.name, dd)
		}
	}
}

// problem is a random test problem.
type problem struct {
	name   string
	x      *sparse.CSR
	k      int
	wmask  *mat.Dense
	hmask  *mat.Dense
	rowW   []float64
	dense  *mat.Dense // general weights
	w0, h0 *mat.Dense
}

func problems() []problem {
	var ps []problem
	for s := uint64(1); s <= 4; s++ {
		n, m, k := 30+int(s)*7, 20+int(s)*5, 2+int(s)
		x := randomSparse(n, m, 0.15+0.05*float64(s), s)
		w0 := randomFactor(n, k, 0.1, s+100)
		h0 := randomFactor(k, m, 0.1, s+200)
		ps = append(ps,
			problem{name: fmt.Sprintf("plain-%d", s), x: x, k: k, w0: w0, h0: h0},
			problem{name: fmt.Sprintf("masks-%d", s), x: x, k: k, w0: w0, h0: h0,
				wmask: randomMask(n, k, 0.4, s+300), hmask: randomMask(k, m, 0.3, s+400)},
			problem{name: fmt.Sprintf("rowweights-%d", s), x: x, k: k, w0: w0, h0: h0,
				wmask: randomMask(n, k, 0.4, s+300), rowW: randomWeights(n, s+500)},
			problem{name: fmt.Sprintf("denseweights-%d", s), x: x, k: k, w0: w0, h0: h0,
				hmask: randomMask(k, m, 0.3, s+400), rowW: randomWeights(n, s+500),
				dense: randomFactor(n, m, 0, s+600)},
		)
	}
	return ps
}

func (p problem) config(loss Loss, iters int) Config {
	return Config{K: p.k, Loss: loss, W0: p.w0, H0: p.h0, WMask: p.wmask, HMask: p.hmask,
		RowWeights: p.rowW, Weights: p.dense, MaxIter: iters, Tol: -1}
}

func (p problem) weight() func(i, j int) float64 {
	return func(i, j int) float64 {
		v := 1.0
		if p.rowW != nil {
			v *= p.rowW[i]
		}
		if p.dense != nil {
			v *= p.dense.At(i, j)
		}
		return v
	}
}

// TestMonotoneAndMasks checks on several random problems, for both losses,
// that the objective never increases (beyond rounding), that forbidden
// entries are exactly zero and allowed ones positive, and that the reported
// objective equals the plainly computed one.
func TestMonotoneAndMasks(t *testing.T) {
	for _, p := range problems() {
		for _, loss := range []Loss{Frobenius, KullbackLeibler} {
			name := p.name + "/" + loss.String()
			res, err := Fit(context.Background(), p.x, p.config(loss, 150))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			checkMonotone(t, name, res.Objective)
			if res.Objective[len(res.Objective)-1] >= res.Objective[0] {
				t.Errorf("%s: no progress: %g -> %g", name, res.Objective[0], res.FinalObjective())
			}
			for _, c := range []struct {
				f, mask *mat.Dense
				what    string
			}{{res.W, p.wmask, "W"}, {res.H, p.hmask, "H"}} {
				r, cc := c.f.Dims()
				for i := 0; i < r; i++ {
					for j := 0; j < cc; j++ {
						v := c.f.At(i, j)
						allowed := c.mask == nil || c.mask.At(i, j) != 0
						if !allowed && v != 0 {
							t.Fatalf("%s: forbidden %s(%d,%d) = %g", name, c.what, i, j, v)
						}
						if allowed && !(v >= 0) {
							t.Fatalf("%s: %s(%d,%d) = %g", name, c.what, i, j, v)
						}
						// Tiny entries are flushed to zero (package doc).
						floor := minNormal
						if loss == KullbackLeibler && c.what == "H" {
							floor = klFloor
						}
						if v != 0 && v < floor {
							t.Fatalf("%s: %s(%d,%d) = %g is below the floor %g", name, c.what, i, j, v, floor)
						}
					}
				}
			}
			want := denseObjective(p.x.ToDense(), res.W, res.H, loss, p.weight())
			if d := relDiff(res.FinalObjective(), want); d > 1e-10 {
				t.Errorf("%s: objective %.15g, dense reference %.15g (rel %.2g)", name, res.FinalObjective(), want, d)
			}
		}
	}
}

// TestObjectiveSparseEqualsDenseReference checks the starting objective
// (computed sparsely from the Gram and sampled products) against the plain
// dense definition, with row weights and masks.
func TestObjectiveSparseEqualsDenseReference(t *testing.T) {
	for _, p := range problems() {
		for _, loss := range []Loss{Frobenius, KullbackLeibler} {
			res, err := Fit(context.Background(), p.x, p.config(loss, 1))
			if err != nil {
				t.Fatal(err)
			}
			w0 := mat.DenseCopyOf(p.w0)
			h0 := mat.DenseCopyOf(p.h0)
			if p.wmask != nil {
				w0.MulElem(w0, p.wmask)
			}
			if p.hmask != nil {
				h0.MulElem(h0, p.hmask)
			}
			want := denseObjective(p.x.ToDense(), w0, h0, loss, p.weight())
			if d := relDiff(res.Objective[0], want); d > 1e-12 {
				t.Errorf("%s/%v: starting objective %.17g, dense reference %.17g (rel %.2g)", p.name, loss, res.Objective[0], want, d)
			}
		}
	}
}

// TestSparsePathEqualsDensePath fits the same problems given as CSR and as
// a dense matrix (two different implementations).
func TestSparsePathEqualsDensePath(t *testing.T) {
	for _, p := range problems() {
		if p.dense != nil {
			continue // always the dense path
		}
		for _, loss := range []Loss{Frobenius, KullbackLeibler} {
			a, err := Fit(context.Background(), p.x, p.config(loss, 60))
			if err != nil {
				t.Fatal(err)
			}
			b, err := Fit(context.Background(), p.x.ToDense(), p.config(loss, 60))
			if err != nil {
				t.Fatal(err)
			}
			name := p.name + "/" + loss.String()
			if d := maxRelDiff(a.W, b.W); d > 1e-9 {
				t.Errorf("%s: W sparse vs dense differ by %.3g", name, d)
			}
			if d := maxRelDiff(a.H, b.H); d > 1e-9 {
				t.Errorf("%s: H sparse vs dense differ by %.3g", name, d)
			}
			for i := range a.Objective {
				if d := relDiff(a.Objective[i], b.Objective[i]); d > 1e-10 {
					t.Errorf("%s: objective %d: %.15g vs %.15g", name, i, a.Objective[i], b.Objective[i])
					break
				}
			}
		}
	}
}

// TestWeightsAllOnes checks that dense weights of ones change nothing, that
// dense weights equal to the row weights match the row-weight fast path, and
// that X's values under a zero weight (missing data) do not matter.
func TestWeightsAllOnes(t *testing.T) {
	x := randomSparse(35, 25, 0.3, 9)
	k := 4
	w0, h0 := randomFactor(35, k, 0.1, 1), randomFactor(k, 25, 0.1, 2)
	e := randomWeights(35, 3)
	ones := mat.NewDense(35, 25, nil)
	rowsAsDense := mat.NewDense(35, 25, nil)
	for i := 0; i < 35; i++ {
		for j := 0; j < 25; j++ {
			ones.Set(i, j, 1)
			rowsAsDense.Set(i, j, e[i])
		}
	}
	for _, loss := range []Loss{Frobenius, KullbackLeibler} {
		base := Config{K: k, Loss: loss, W0: w0, H0: h0, MaxIter: 40, Tol: -1}
		a, _ := Fit(context.Background(), x, base)
		c := base
		c.Weights = ones
		b, err := Fit(context.Background(), x, c)
		if err != nil {
			t.Fatal(err)
		}
		if d := maxRelDiff(a.W, b.W); d > 1e-9 {
			t.Errorf("%v: weights of ones change W by %.3g", loss, d)
		}
		c = base
		c.RowWeights = e
		a, _ = Fit(context.Background(), x, c)
		c = base
		c.Weights = rowsAsDense
		b, _ = Fit(context.Background(), x, c)
		if d := maxRelDiff(a.H, b.H); d > 1e-9 {
			t.Errorf("%v: dense weights e_i vs row weights: H differs by %.3g", loss, d)
		}
		if d := relDiff(a.FinalObjective(), b.FinalObjective()); d > 1e-10 {
			t.Errorf("%v: dense weights e_i vs row weights: objective %g vs %g", loss, a.FinalObjective(), b.FinalObjective())
		}
		// Missing data: entries with weight 0 may hold anything.
		miss := randomMask(35, 25, 0.3, 4)
		x2 := x.ToDense()
		x3 := mat.DenseCopyOf(x2)
		for i := 0; i < 35; i++ {
			for j := 0; j < 25; j++ {
				if miss.At(i, j) == 0 {
					x3.Set(i, j, 100+float64(i*j))
				}
			}
		}
		c = base
		c.Weights = miss
		a, _ = Fit(context.Background(), x2, c)
		b, _ = Fit(context.Background(), x3, c)
		if !mat.Equal(a.W, b.W) || !mat.Equal(a.H, b.H) {
			t.Errorf("%v: values under a zero weight changed the fit", loss)
		}
		checkMonotone(t, "missing", a.Objective)
	}
}

// TestFixedFactors checks that FixH and FixW leave the fixed factor
// bit-for-bit untouched and still decrease the objective.
func TestFixedFactors(t *testing.T) {
	x := randomSparse(40, 30, 0.2, 5)
	k := 5
	w0, h0 := randomFactor(40, k, 0.1, 1), randomFactor(k, 30, 0.1, 2)
	mask := randomMask(40, k, 0.5, 3)
	for _, loss := range []Loss{Frobenius, KullbackLeibler} {
		for _, dense := range []bool{false, true} {
			var xm Matrix = x
			if dense {
				xm = x.ToDense()
			}
			r, err := Fit(context.Background(), xm, Config{K: k, Loss: loss, H0: h0, FixH: true, WMask: mask, RowWeights: randomWeights(40, 4), MaxIter: 50, Tol: -1})
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(r.H, h0) {
				t.Errorf("%v dense=%v: FixH changed H", loss, dense)
			}
			checkMonotone(t, "FixH", r.Objective)
			r, err = Fit(context.Background(), xm, Config{K: k, Loss: loss, W0: w0, FixW: true, MaxIter: 50, Tol: -1})
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(r.W, w0) {
				t.Errorf("%v dense=%v: FixW changed W", loss, dense)
			}
			checkMonotone(t, "FixW", r.Objective)
			if r.FinalObjective() >= r.Objective[0] {
				t.Errorf("%v dense=%v: FixW made no progress", loss, dense)
			}
		}
	}
}

// TestStoppingRule checks the tolerance rule on both losses (KL evaluates
// the objective one pass late internally; the result must not show it).
func TestStoppingRule(t *testing.T) {
	x := randomSparse(50, 40, 0.2, 8)
	for _, loss := range []Loss{Frobenius, KullbackLeibler} {
		for _, fix := range []string{"", "W", "H"} {
			cfg := Config{K: 4, Loss: loss, Init: InitRandom, Seed: 1, Tol: 1e-3, MaxIter: 500}
			switch fix {
			case "W":
				cfg.W0, cfg.FixW = randomFactor(50, 4, 0.1, 1), true
			case "H":
				cfg.H0, cfg.FixH = randomFactor(4, 40, 0.1, 1), true
			}
			var reported []float64
			cfg.Progress = func(st progress.Step) {
				it, obj := st.Iter, st.Objective
				if it != len(reported)+1 {
					t.Errorf("progress for iteration %d after %d reports", it, len(reported))
				}
				reported = append(reported, obj)
			}
			res, err := Fit(context.Background(), x, cfg)
			if err != nil {
				t.Fatal(err)
			}
			h := res.Objective
			name := loss.String() + " fix " + fix
			if res.Convergence.Status != progress.Converged || res.Iterations >= 500 || len(h) != res.Iterations+1 {
				t.Fatalf("%s: %v after %d iterations, %d objectives", name, res.Convergence.Status, res.Iterations, len(h))
			}
			for i := 1; i < len(h)-1; i++ {
				if (h[i-1]-h[i])/h[i-1] < 1e-3 {
					t.Errorf("%s: should have stopped after iteration %d", name, i)
				}
			}
			if n := len(h) - 1; (h[n-1]-h[n])/h[n-1] >= 1e-3 {
				t.Errorf("%s: stopped after iteration %d without meeting the tolerance", name, n)
			}
			if len(reported) != res.Iterations {
				t.Errorf("%s: %d progress reports for %d iterations", name, len(reported), res.Iterations)
			}
			for i, v := range reported {
				if v != h[i+1] {
					t.Errorf("%s: reported objective %d is %g, history has %g", name, i+1, v, h[i+1])
				}
			}
			want := denseObjective(x.ToDense(), res.W, res.H, loss, nil)
			if d := relDiff(res.FinalObjective(), want); d > 1e-10 {
				t.Errorf("%s: final objective %g does not describe the returned factors (%g)", name, res.FinalObjective(), want)
			}
		}
	}
}

// TestCancel cancels fits from the progress callback: the partial result
// comes back with ctx.Err() and a consistent history.
func TestCancel(t *testing.T) {
	x := randomSparse(50, 40, 0.2, 8)
	for _, loss := range []Loss{Frobenius, KullbackLeibler} {
		for _, dense := range []bool{false, true} {
			ctx, cancel := context.WithCancel(context.Background())
			cfg := Config{K: 4, Loss: loss, Init: InitRandom, Tol: -1, MaxIter: 100}
			cfg.Progress = func(st progress.Step) {
				if st.Iter == 3 {
					cancel()
				}
			}
			var xm Matrix = x
			if dense {
				xm = x.ToDense()
			}
			res, err := Fit(ctx, xm, cfg)
			cancel()
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("%v: err = %v, want context.Canceled", loss, err)
			}
			// Cancelled from Progress after iteration 3, the fit returns
			// the state that iteration reached.
			if res == nil || res.Iterations != 3 || len(res.Objective) != res.Iterations+1 {
				t.Fatalf("%v: partial result %+v", loss, res)
			}
			want := denseObjective(x.ToDense(), res.W, res.H, loss, nil)
			if d := relDiff(res.FinalObjective(), want); d > 1e-10 {
				t.Errorf("%v: final objective %g does not describe the returned factors (%g)", loss, res.FinalObjective(), want)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Fit(ctx, x, Config{K: 2}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before the start: err = %v", err)
	}
	// A start that needs no work is the partial result of a fit cancelled
	// before its first iteration.
	res, err := Fit(ctx, x, Config{K: 2, Init: InitRandom})
	if !errors.Is(err, context.Canceled) || res == nil || res.Iterations != 0 || len(res.Objective) != 1 {
		t.Errorf("cancelled before the first iteration: err = %v, result %+v", err, res)
	}
}

// TestDeterministic checks that a seed fixes the result.
func TestDeterministic(t *testing.T) {
	x := randomSparse(40, 30, 0.2, 2)
	for _, init := range []Init{InitRandom, InitRandomAcol, InitNNDSVD, InitNNDSVDa, InitNNDSVDar} {
		a, err := Fit(context.Background(), x, Config{K: 5, Init: init, Seed: 7, MaxIter: 20})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Fit(context.Background(), x, Config{K: 5, Init: init, Seed: 7, MaxIter: 20})
		c, _ := Fit(context.Background(), x, Config{K: 5, Init: init, Seed: 8, MaxIter: 20})
		if !mat.Equal(a.W, b.W) || !mat.Equal(a.H, b.H) {
			t.Errorf("%v: same seed, different result", init)
		}
		if init != InitNNDSVD && init != InitNNDSVDa && mat.Equal(a.W, c.W) {
			t.Errorf("%v: different seeds, same result", init)
		}
		if a.Init != init {
			t.Errorf("Model.Init = %v, want %v", a.Init, init)
		}
	}
}

// TestBadInput checks that bad data and configurations are errors.
func TestBadInput(t *testing.T) {
	x := randomSparse(10, 8, 0.3, 1)
	nanX := x.ToDense()
	nanX.Set(2, 3, math.NaN())
	negX := x.Clone()
	negX.Data[5] = -1
	zeroX := sparse.Zeros(10, 8)
	ok := Config{K: 3}
	cases := []struct {
		name string
		x    Matrix
		cfg  Config
		want string
	}{
		{"nil X", nil, ok, "nil"},
		{"NaN", nanX, ok, "non-finite entry NaN at row 2, column 3"},
		{"negative", negX, ok, "negative entry"},
		{"all zero", zeroX, ok, "all zero"},
		{"empty", &mat.Dense{}, ok, "empty"},
		{"type", dimsOnly{}, ok, "unsupported type nmf.dimsOnly"},
		{"K=0", x, Config{}, "K = 0"},
		{"NNDSVD K>min", x, Config{K: 9, Init: InitNNDSVD}, "needs K ≤ min(n, m) = 8"},
		{"auto NNDSVDa no", x, Config{K: 9, Init: InitNNDSVDa}, "needs K"},
		{"mask shape", x, Config{K: 3, WMask: mat.NewDense(10, 4, nil)}, "WMask is 10×4, want 10×3"},
		{"mask value", x, Config{K: 3, HMask: maskWith(3, 8, 0.5)}, "HMask has an entry other than 0 or 1: 0.5 at (1, 1)"},
		{"W0 shape", x, Config{K: 3, W0: mat.NewDense(3, 10, nil)}, "W0 is 3×10"},
		{"H0 negative", x, Config{K: 3, H0: withEntry(3, 8, -1)}, "H0 has a negative entry"},
		{"fix both", x, Config{K: 3, W0: randomFactor(10, 3, 0, 1), H0: randomFactor(3, 8, 0, 1), FixW: true, FixH: true}, "both set"},
		{"fix without", x, Config{K: 3, FixH: true}, "FixH needs H0"},
		{"fixed zero", x, Config{K: 3, H0: mat.NewDense(3, 8, nil), FixH: true}, "all zero"},
		{"row weights len", x, Config{K: 3, RowWeights: []float64{1}}, "1 row weights for 10 documents"},
		{"row weight NaN", x, Config{K: 3, RowWeights: append(make([]float64, 9), math.NaN())}, "document 9"},
		{"row weights zero", x, Config{K: 3, RowWeights: make([]float64, 10)}, "all row weights are zero"},
		{"weights shape", x, Config{K: 3, Weights: mat.NewDense(8, 10, nil)}, "Weights is 8×10"},
		{"labels", x, Config{K: 3, Init: InitLabelMean, Labels: make([][]int, 9)}, "9 label lists"},
		{"label range", x, Config{K: 3, Init: InitLabelMean, Labels: append(make([][]int, 9), []int{3})}, "document 9: label topic 3"},
		{"loss", x, Config{K: 3, Loss: 7}, "unknown loss"},
		{"custom", x, Config{K: 3, Init: InitCustom, W0: randomFactor(10, 3, 0, 1)}, "needs both W0 and H0"},
		{"max iter", x, Config{K: 3, MaxIter: -1}, "MaxIter"},
	}
	for _, c := range cases {
		_, err := Fit(context.Background(), c.x, c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to mention %q", c.name, err, c.want)
		}
	}
	// K > min(n, m) is allowed with random initialisations.
	for _, init := range []Init{InitAuto, InitRandom, InitRandomAcol} {
		res, err := Fit(context.Background(), x, Config{K: 12, Init: init, MaxIter: 5})
		if err != nil {
			t.Errorf("K > min(n,m) with %v: %v", init, err)
		} else if init == InitAuto && res.Init != InitRandom {
			t.Errorf("auto with K > min(n,m) chose %v", res.Init)
		}
	}
}

type dimsOnly struct{}

func (dimsOnly) Dims() (int, int) { return 2, 2 }

func maskWith(r, c int, v float64) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	m.Set(1, 1, v)
	return m
}

func withEntry(r, c int, v float64) *mat.Dense {
	m := randomFactor(r, c, 0, 1)
	m.Set(r-1, c-1, v)
	return m
}

// TestEmptyRowsAndColumns checks documents and terms without entries.
func TestEmptyRowsAndColumns(t *testing.T) {
	x, err := sparse.FromTriplets(6, 5, []sparse.Triplet{{Row: 0, Col: 0, Val: 1}, {Row: 2, Col: 1, Val: 2}, {Row: 3, Col: 1, Val: 1}, {Row: 5, Col: 4, Val: 3}})
	if err != nil {
		t.Fatal(err)
	}
	for _, loss := range []Loss{Frobenius, KullbackLeibler} {
		res, err := Fit(context.Background(), x, Config{K: 2, Loss: loss, Init: InitRandom, MaxIter: 50, Tol: -1})
		if err != nil {
			t.Fatal(err)
		}
		checkMonotone(t, "empty rows "+loss.String(), res.Objective)
		for _, v := range res.W.RawMatrix().Data {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%v: W has %v", loss, v)
			}
		}
		if s := mat.Sum(res.W.RowView(1)) + mat.Sum(res.W.RowView(4)); s > 1e-6 {
			t.Errorf("%v: empty documents keep weight %g", loss, s)
		}
	}
}

// TestSingleTopic checks k = 1 (the smallest padding case) on both paths.
func TestSingleTopic(t *testing.T) {
	x := randomSparse(20, 15, 0.3, 12)
	for _, loss := range []Loss{Frobenius, KullbackLeibler} {
		a, err := Fit(context.Background(), x, Config{K: 1, Loss: loss, Init: InitRandom, MaxIter: 30, Tol: -1})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Fit(context.Background(), x.ToDense(), Config{K: 1, Loss: loss, Init: InitRandom, MaxIter: 30, Tol: -1})
		if err != nil {
			t.Fatal(err)
		}
		if d := maxRelDiff(a.W, b.W); d > 1e-9 {
			t.Errorf("%v: k = 1, sparse and dense W differ by %.3g", loss, d)
		}
		checkMonotone(t, "k=1", a.Objective)
	}
}

// TestTinyEntriesFlushed checks the two flushing rules on a block-diagonal
// X, where the off-block entries of both factors decay geometrically.
// Without the rules, after 5 KL iterations H(0,2) is about 1e-144, and
// after 720 Frobenius iterations it is subnormal.
func TestTinyEntriesFlushed(t *testing.T) {
	x := mat.NewDense(4, 4, []float64{1, 2, 0, 0, 2, 1, 0, 0, 0, 0, 1, 2, 0, 0, 2, 1})
	w0 := mat.NewDense(4, 2, []float64{1, 0.1, 1, 0.1, 0.1, 1, 0.1, 1})
	h0 := mat.NewDense(2, 4, []float64{1, 1, 0.1, 0.1, 0.1, 0.1, 1, 1})
	for _, c := range []struct {
		loss  Loss
		iters int
	}{{KullbackLeibler, 5}, {Frobenius, 720}} {
		for _, dense := range []bool{false, true} {
			var xm Matrix = x
			if !dense {
				xm = sparse.FromDense(x)
			}
			res, err := Fit(context.Background(), xm, Config{K: 2, Loss: c.loss, W0: w0, H0: h0, MaxIter: c.iters, Tol: -1})
			if err != nil {
				t.Fatal(err)
			}
			if res.H.At(0, 2) != 0 || res.H.At(1, 0) != 0 {
				t.Errorf("%v dense=%v: off-block H entries %g, %g not flushed to zero", c.loss, dense, res.H.At(0, 2), res.H.At(1, 0))
			}
			checkMonotone(t, c.loss.String(), res.Objective)
		}
	}
}
