package classify

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/sparse"
)

func csr(t testing.TB, rows [][]float64) *sparse.CSR {
	t.Helper()
	return sparse.FromDense(mat.NewDense(len(rows), len(rows[0]), flatten(rows)))
}

func flatten(rows [][]float64) []float64 {
	var out []float64
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}

// separable returns documents whose non-zero features all belong to their
// class's own block of features, so that every class is linearly separable
// from the others.
func separable(seed uint64, docs, classes, perClass int) (*sparse.CSR, []int) {
	r := rand.New(rand.NewPCG(seed, 1))
	var ts []sparse.Triplet
	y := make([]int, docs)
	for i := range y {
		c := i % classes
		y[i] = c
		for k := 0; k < 3; k++ {
			j := c*perClass + r.IntN(perClass)
			ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: float64(1 + r.IntN(4))})
		}
	}
	x, err := sparse.FromTriplets(docs, classes*perClass, ts)
	if err != nil {
		panic(err)
	}
	return x, y
}

// noisy returns L2-normalised count data where every class prefers a few
// features but all features occur in every class.
func noisy(seed uint64, docs, features, classes int) (*sparse.CSR, []int) {
	return noisyWide(seed, docs, features, classes, 12)
}

// noisyWide is noisy with words draws per document.
func noisyWide(seed uint64, docs, features, classes, words int) (*sparse.CSR, []int) {
	r := rand.New(rand.NewPCG(seed, 2))
	var ts []sparse.Triplet
	y := make([]int, docs)
	for i := range y {
		c := r.IntN(classes)
		y[i] = c
		for k := 0; k < words; k++ {
			j := r.IntN(features)
			if k%3 == 0 {
				j = (c*7 + r.IntN(5)) % features
			}
			ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: 1})
		}
	}
	x, err := sparse.FromTriplets(docs, features, ts)
	if err != nil {
		panic(err)
	}
	x.NormalizeRowsL2()
	return x, y
}

func accuracy(pred, y []int) float64 {
	return float64(agreement(pred, y)) / float64(len(y))
}

func classifiers() map[string]func() Classifier {
	return map[string]func() Classifier{
		"nb":  func() Classifier { return &MultinomialNB{} },
		"svm": func() Classifier { return &LinearSVC{} },
		"svm-hinge": func() Classifier {
			return &LinearSVC{Loss: Hinge}
		},
		"lr": func() Classifier { return &LogisticRegression{} },
	}
}

func TestMultinomialNBHandChecked(t *testing.T) {
	// Class 0 has documents [2 1 0] and [1 0 0]: feature sums [3 1 0];
	// with α = 1 the smoothed counts are [4 2 1] out of 7. Class 1 has
	// [0 1 3]: smoothed [1 2 4] out of 7. Priors are 2/3 and 1/3.
	x := csr(t, [][]float64{{2, 1, 0}, {1, 0, 0}, {0, 1, 3}})
	var nb MultinomialNB
	if err := nb.Fit(context.Background(), x, []int{0, 0, 1}); err != nil {
		t.Fatal(err)
	}
	l := math.Log
	wantFLP := [][]float64{{l(4. / 7), l(2. / 7), l(1. / 7)}, {l(1. / 7), l(2. / 7), l(4. / 7)}}
	if e := maxDiff(t, nb.FeatureLogProb(), wantFLP); e > 1e-15 {
		t.Errorf("feature log probabilities off by %g:\n%v", e, mat.Formatted(nb.FeatureLogProb()))
	}
	if e := maxDiffVec(nb.ClassLogPrior(), []float64{l(2. / 3), l(1. / 3)}); e > 1e-15 {
		t.Errorf("class log priors %v", nb.ClassLogPrior())
	}
	// [1 0 1]: class 0 scores (2/3)(4/7)(1/7), class 1 (1/3)(1/7)(4/7),
	// half as much, so P(0|x) = 2/3. [0 0 2]: (2/3)(1/7)² against
	// (1/3)(4/7)², eight times more, so P(1|x) = 8/9. An empty document
	// gets the priors.
	test := csr(t, [][]float64{{1, 0, 1}, {0, 0, 2}, {0, 0, 0}})
	p, err := nb.PredictProba(test)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{2. / 3, 1. / 3}, {1. / 9, 8. / 9}, {2. / 3, 1. / 3}}
	if e := maxDiff(t, p, want); e > 1e-15 {
		t.Errorf("probabilities off by %g:\n%v", e, mat.Formatted(p))
	}
	pred, err := nb.Predict(test)
	if err != nil {
		t.Fatal(err)
	}
	if pred[0] != 0 || pred[1] != 1 || pred[2] != 0 {
		t.Errorf("predictions %v, want [0 1 0]", pred)
	}

	// Uniform priors and α = 0.5: class 0 smoothed [3.5 1.5 0.5] out of 5.5.
	nb = MultinomialNB{Alpha: 0.5, UniformPrior: true}
	if err := nb.Fit(context.Background(), x, []int{0, 0, 1}); err != nil {
		t.Fatal(err)
	}
	if got, want := nb.FeatureLogProb().At(0, 2), l(0.5/5.5); math.Abs(got-want) > 1e-15 {
		t.Errorf("α = 0.5: log P(feature 2 | class 0) = %g, want %g", got, want)
	}
	if e := maxDiffVec(nb.ClassLogPrior(), []float64{l(0.5), l(0.5)}); e > 1e-15 {
		t.Errorf("uniform priors %v", nb.ClassLogPrior())
	}
}

func TestSeparableDataIsLearned(t *testing.T) {
	for _, classes := range []int{2, 4} {
		x, y := separable(7, 120, classes, 6)
		for name, mk := range classifiers() {
			c := mk()
			if err := c.Fit(context.Background(), x, y); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			pred, err := c.Predict(x)
			if err != nil {
				t.Fatal(err)
			}
			if a := accuracy(pred, y); a != 1 {
				t.Errorf("%s, %d classes: training accuracy %.3f, want 1", name, classes, a)
			}
			s, err := c.Scores(x)
			if err != nil {
				t.Fatal(err)
			}
			if r, k := s.Dims(); r != x.Rows || k != classes {
				t.Errorf("%s: scores are %d×%d, want %d×%d", name, r, k, x.Rows, classes)
			}
			if am := metrics.ArgmaxRows(s); agreement(am, pred) != len(pred) {
				t.Errorf("%s: arg max of the scores differs from Predict", name)
			}
		}
	}
}

func TestGradientMatchesFiniteDifferences(t *testing.T) {
	x, y := noisy(3, 40, 9, 3)
	r := rand.New(rand.NewPCG(5, 5))
	for _, intercept := range []bool{true, false} {
		o := newSoftmaxObjective(x, y, 3, 1/0.7, intercept)
		w := make([]float64, o.dim())
		for i := range w {
			w[i] = r.NormFloat64()
		}
		grad := make([]float64, len(w))
		o.gradient(grad, w)
		const h = 1e-6
		for i := range w {
			wp := append([]float64(nil), w...)
			wm := append([]float64(nil), w...)
			wp[i] += h
			wm[i] -= h
			fd := (o.value(wp) - o.value(wm)) / (2 * h)
			if d := math.Abs(fd - grad[i]); d > 1e-6*math.Max(1, math.Abs(fd)) {
				t.Errorf("intercept=%v: ∂f/∂w[%d] = %.9g, finite difference %.9g", intercept, i, grad[i], fd)
			}
		}
		// The value must not depend on the gradient having been asked for.
		f0 := o.value(w)
		o2 := newSoftmaxObjective(x, y, 3, 1/0.7, intercept)
		if f1 := o2.value(w); f1 != f0 {
			t.Errorf("cached value %g, fresh value %g", f0, f1)
		}
	}
}

func TestLinearSVCOptimality(t *testing.T) {
	// At the optimum of ½‖w‖² + C Σ max(0, 1 − y_i w·x̃_i)², with x̃ the
	// documents extended by the bias feature, the gradient
	// w − 2C Σ y_i x̃_i max(0, 1 − y_i w·x̃_i) vanishes.
	x, y := noisy(11, 150, 20, 2)
	s := &LinearSVC{C: 0.8, Tol: 1e-10, MaxIter: 100000}
	if err := s.Fit(context.Background(), x, y); err != nil {
		t.Fatal(err)
	}
	w := append(mat.Row(nil, 0, s.Coef()), s.Intercept()[0])
	g := append([]float64(nil), w...)
	for i := 0; i < x.Rows; i++ {
		cols, vals := x.Row(i)
		yi := -1.0
		if y[i] == 1 {
			yi = 1
		}
		f := w[len(w)-1]
		for q, j := range cols {
			f += w[j] * vals[q]
		}
		if m := 1 - yi*f; m > 0 {
			for q, j := range cols {
				g[j] -= 2 * s.C * yi * vals[q] * m
			}
			g[len(g)-1] -= 2 * s.C * yi * m
		}
	}
	for j, v := range g {
		if math.Abs(v) > 1e-7 {
			t.Errorf("primal gradient[%d] = %g at the solution", j, v)
		}
	}
	if s.Convergence().MaxIterReached {
		t.Error("did not converge")
	}
}

func TestLinearSVCDeterministic(t *testing.T) {
	x, y := noisy(13, 200, 30, 4)
	fit := func(seed uint64, procs int) *LinearSVC {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		s := &LinearSVC{Seed: seed}
		if err := s.Fit(context.Background(), x, y); err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b, c := fit(1, 2), fit(1, 1), fit(2, 2)
	if !mat.Equal(a.Coef(), b.Coef()) || a.Intercept()[0] != b.Intercept()[0] {
		t.Error("the same seed gave different models on 1 and 2 cores")
	}
	if mat.Equal(a.Coef(), c.Coef()) {
		t.Error("seeds 1 and 2 gave identical models; the seed has no effect")
	}
	if !mat.EqualApprox(a.Coef(), c.Coef(), 1e-2) {
		t.Error("seeds 1 and 2 gave models further apart than the tolerance allows")
	}
}

func TestConvergenceReport(t *testing.T) {
	x, y := noisy(17, 200, 30, 3)
	s := &LinearSVC{MaxIter: 2, Loss: Hinge}
	if err := s.Fit(context.Background(), x, y); err != nil {
		t.Fatal(err)
	}
	cv := s.Convergence()
	if !cv.MaxIterReached || len(cv.Iterations) != 3 || cv.Iterations[0] != 2 {
		t.Errorf("SVM with MaxIter 2: %+v", cv)
	}
	lr := &LogisticRegression{MaxIter: 3}
	if err := lr.Fit(context.Background(), x, y); err != nil {
		t.Fatal(err)
	}
	if cv := lr.Convergence(); !cv.MaxIterReached || cv.Iterations[0] != 3 {
		t.Errorf("logistic regression with MaxIter 3: %+v", cv)
	}
	lr = &LogisticRegression{}
	if err := lr.Fit(context.Background(), x, y); err != nil {
		t.Fatal(err)
	}
	if cv := lr.Convergence(); cv.MaxIterReached || cv.Objective[0] <= 0 {
		t.Errorf("logistic regression: %+v", cv)
	}
}

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	good := csr(t, [][]float64{{1, 0}, {0, 1}, {1, 1}})
	nan := &sparse.CSR{Rows: 2, Cols: 2, Indptr: []int{0, 1, 2}, Indices: []int32{0, 1}, Data: []float64{1, math.NaN()}}
	neg := csr(t, [][]float64{{1, 0}, {0, -1}, {1, 1}})
	cases := []struct {
		name string
		x    *sparse.CSR
		y    []int
		want string
	}{
		{"nil matrix", nil, []int{0, 1}, "nil matrix"},
		{"length mismatch", good, []int{0, 1}, "2 labels for 3 documents"},
		{"negative class", good, []int{0, -1, 1}, "negative class"},
		{"single class", good, []int{0, 0, 0}, "at least two classes"},
		{"missing class", good, []int{0, 2, 2}, "class 1 has no training documents"},
		{"huge class", good, []int{0, 1, 1 << 30}, "has no document"},
		{"NaN", nan, []int{0, 1}, "invalid matrix"},
		{"no rows", sparse.Zeros(0, 2), []int{}, "no training documents"},
		{"no columns", sparse.Zeros(2, 0), []int{0, 1}, "no features"},
	}
	for name, mk := range classifiers() {
		for _, c := range cases {
			err := mk().Fit(ctx, c.x, c.y)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s, %s: error %v, want one containing %q", name, c.name, err, c.want)
			}
		}
		cl := mk()
		if _, err := cl.Predict(good); !errors.Is(err, ErrNotFitted) {
			t.Errorf("%s: Predict before Fit: %v", name, err)
		}
		if err := cl.Fit(ctx, good, []int{0, 1, 1}); err != nil {
			t.Fatal(err)
		}
		if _, err := cl.Predict(sparse.Zeros(2, 3)); err == nil || !strings.Contains(err.Error(), "3 features") {
			t.Errorf("%s: wrong feature count: %v", name, err)
		}
		if _, err := cl.Scores(nan); err == nil {
			t.Errorf("%s: NaN at prediction: no error", name)
		}
		if _, err := cl.Scores(nil); err == nil {
			t.Errorf("%s: nil at prediction: no error", name)
		}
		s, err := cl.Scores(sparse.Zeros(0, 2))
		if err != nil || !s.IsEmpty() {
			t.Errorf("%s: no rows: %v, %v", name, s, err)
		}
		p, err := cl.Predict(sparse.Zeros(0, 2))
		if err != nil || len(p) != 0 {
			t.Errorf("%s: no rows: %v, %v", name, p, err)
		}
	}
	if err := new(MultinomialNB).Fit(ctx, neg, []int{0, 1, 1}); err == nil || !strings.Contains(err.Error(), "document 1, feature 1 has negative value -1") {
		t.Errorf("negative count: %v", err)
	}
	params := []struct {
		name string
		c    Classifier
	}{
		{"negative alpha", &MultinomialNB{Alpha: -1}},
		{"NaN alpha", &MultinomialNB{Alpha: math.NaN()}},
		{"prior count", &MultinomialNB{ClassPrior: []float64{1}}},
		{"negative prior", &MultinomialNB{ClassPrior: []float64{1, -0.5}}},
		{"negative C", &LinearSVC{C: -1}},
		{"infinite C", &LinearSVC{C: math.Inf(1)}},
		{"negative tol", &LinearSVC{Tol: -1}},
		{"negative scaling", &LinearSVC{InterceptScaling: -1}},
		{"negative MaxIter", &LinearSVC{MaxIter: -1}},
		{"unknown loss", &LinearSVC{Loss: 7}},
		{"LR negative C", &LogisticRegression{C: -2}},
		{"LR NaN tol", &LogisticRegression{Tol: math.NaN()}},
		{"LR negative MaxIter", &LogisticRegression{MaxIter: -3}},
	}
	for _, p := range params {
		if err := p.c.Fit(ctx, good, []int{0, 1, 1}); err == nil {
			t.Errorf("%s: no error", p.name)
		}
	}
	if _, err := ParseLoss("hinge"); err != nil {
		t.Error(err)
	}
	if _, err := ParseLoss("log"); err == nil {
		t.Error("ParseLoss accepted log")
	}
	if Hinge.String() != "hinge" || SquaredHinge.String() != "squared_hinge" {
		t.Error("loss names")
	}
}

func TestCancelledContext(t *testing.T) {
	x, y := noisy(19, 100, 20, 3)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, mk := range classifiers() {
		if err := mk().Fit(ctx, x, y); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: Fit with a cancelled context: %v", name, err)
		}
	}
}

func TestBinaryScoresAndProbabilities(t *testing.T) {
	x, y := noisy(23, 120, 25, 2)
	s := &LinearSVC{}
	lr := &LogisticRegression{}
	for _, c := range []Classifier{s, lr} {
		if err := c.Fit(context.Background(), x, y); err != nil {
			t.Fatal(err)
		}
	}
	if r, k := s.Coef().Dims(); r != 1 || k != 25 {
		t.Errorf("binary SVM Coef is %d×%d, want 1×25", r, k)
	}
	d, _ := s.DecisionFunction(x)
	sc, _ := s.Scores(x)
	for i := 0; i < x.Rows; i++ {
		if sc.At(i, 1) != d.At(i, 0) || sc.At(i, 0) != -d.At(i, 0) {
			t.Fatalf("row %d: scores %v, decision %g", i, sc.RawRowView(i), d.At(i, 0))
		}
	}
	// Multinomial weights of two classes come out opposite.
	w := lr.Coef()
	for j := 0; j < 25; j++ {
		if math.Abs(w.At(0, j)+w.At(1, j)) > 1e-6 {
			t.Errorf("feature %d: weights %g and %g are not opposite", j, w.At(0, j), w.At(1, j))
		}
	}
	p, _ := lr.PredictProba(x)
	for i := 0; i < x.Rows; i++ {
		if math.Abs(p.At(i, 0)+p.At(i, 1)-1) > 1e-12 {
			t.Fatalf("row %d: probabilities %v", i, p.RawRowView(i))
		}
	}
}

func TestEmptyDocuments(t *testing.T) {
	// Rows without features: with the hinge loss and no intercept their
	// diagonal entry is zero, which the dual update must survive.
	x := csr(t, [][]float64{{1, 0}, {0, 0}, {0, 1}, {0, 0}})
	y := []int{0, 0, 1, 1}
	for name, mk := range map[string]func() Classifier{
		"nb":              func() Classifier { return &MultinomialNB{} },
		"svm":             func() Classifier { return &LinearSVC{NoIntercept: true} },
		"svm-hinge":       func() Classifier { return &LinearSVC{Loss: Hinge, NoIntercept: true} },
		"svm-hinge-icept": func() Classifier { return &LinearSVC{Loss: Hinge} },
		"lr":              func() Classifier { return &LogisticRegression{NoIntercept: true} },
	} {
		c := mk()
		if err := c.Fit(context.Background(), x, y); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s, err := c.Scores(x)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range s.RawMatrix().Data {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%s: scores %v", name, mat.Formatted(s))
			}
		}
		pred, _ := c.Predict(x)
		if pred[0] != 0 || pred[2] != 1 {
			t.Errorf("%s: predictions %v", name, pred)
		}
	}
}
