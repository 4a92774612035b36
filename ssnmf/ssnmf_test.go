package ssnmf

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/supervision"
)

// planted draws a documents × terms matrix from k planted topics: each
// document mixes its main topic (class = topic % classes) with a little of
// the others; about half the entries are zero.
func planted(n, m, k, classes int, seed uint64) (x *mat.Dense, class []int) {
	r := rand.New(rand.NewPCG(seed, 1))
	h := mat.NewDense(k, m, nil)
	for t := 0; t < k; t++ {
		for j := 0; j < m; j++ {
			if j%k == t || r.Float64() < 0.1 {
				h.Set(t, j, r.Float64()+0.2)
			}
		}
	}
	w := mat.NewDense(n, k, nil)
	class = make([]int, n)
	for i := 0; i < n; i++ {
		main := r.IntN(k)
		class[i] = main % classes
		for t := 0; t < k; t++ {
			if t == main {
				w.Set(i, t, 1+r.Float64())
			} else if r.Float64() < 0.2 {
				w.Set(i, t, 0.2*r.Float64())
			}
		}
	}
	x = mat.NewDense(n, m, nil)
	x.Mul(w, h)
	return x, class
}

func randomDense(r, c int, density float64, rnd *rand.Rand) *mat.Dense {
	d := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if rnd.Float64() < density {
				d.Set(i, j, rnd.Float64())
			}
		}
	}
	return d
}

// TestObjectiveNonIncreasing checks every model's objective on small random
// problems, sparse and dense, with data and label masks.
func TestObjectiveNonIncreasing(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	n, m, k, c := 30, 25, 4, 3
	x := randomDense(n, m, 0.4, rnd)
	y := randomDense(n, c, 0.6, rnd)
	rowW := make([]float64, n)
	labW := make([]float64, n)
	for i := range rowW {
		rowW[i] = float64(rnd.IntN(2)) + 0.5*rnd.Float64() // general, some < 1
		if rnd.Float64() < 0.4 {
			labW[i] = 1
		}
	}
	mask := mat.NewDense(n, m, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			if rnd.Float64() < 0.8 {
				mask.Set(i, j, 1)
			}
		}
	}
	lmask := randomDense(n, c, 0.7, rnd) // general label weights
	models := append(Models(), Losses{Recon: nmf.Frobenius}, Losses{Recon: nmf.KullbackLeibler})
	for mi, mod := range models {
		supervised := mi < 4
		for _, variant := range []string{"plain", "rows", "mask"} {
			for _, sp := range []bool{true, false} {
				// Progress makes the fit record every iteration's objective.
				cfg := Config{K: k, Losses: mod, MaxIter: 60, Tol: -1, Seed: uint64(mi), Progress: func(progress.Step) {}}
				switch variant {
				case "rows":
					cfg.DataRowWeights = rowW
				case "mask":
					cfg.DataWeights = mask
				}
				if supervised {
					cfg.Y, cfg.Lambda = y, 2.5
					switch variant {
					case "rows":
						cfg.LabelRowWeights = labW
					case "mask":
						cfg.LabelWeights = lmask
					}
				}
				var xm Matrix = x
				if sp {
					xm = sparse.FromDense(x)
				}
				res, err := Fit(context.Background(), xm, cfg)
				if err != nil {
					t.Fatal(err)
				}
				obj := res.Objective
				if len(obj) != 61 {
					t.Fatalf("%v %s: %d objectives, want 61", mod, variant, len(obj))
				}
				for i := 1; i < len(obj); i++ {
					if obj[i] > obj[i-1]*(1+1e-9)+1e-12 {
						t.Errorf("%v %s sparse=%v: objective rose from %.12g to %.12g at iteration %d", mod, variant, sp, obj[i-1], obj[i], i)
						break
					}
				}
				if !(obj[len(obj)-1] < 0.5*obj[0]) {
					t.Errorf("%v %s sparse=%v: objective %.4g → %.4g barely decreased", mod, variant, sp, obj[0], obj[len(obj)-1])
				}
			}
		}
	}
}

// TestLambdaZeroIsNMF checks that with λ = 0 the representation and topics
// are plain NMF's: the same iterates as alternating one-sided updates of
// package nmf (H with W fixed, then W with H fixed, as the reference's
// order), and the reconstruction objective is twice nmf's (which has ½ in
// front of the squared norm).
func TestLambdaZeroIsNMF(t *testing.T) {
	x, class := planted(40, 30, 4, 2, 9)
	xs := sparse.FromDense(x)
	y, _, err := OneHot(class, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, mod := range Models() {
		const iters = 15
		res, err := Fit(context.Background(), xs, Config{K: 4, Losses: mod, Y: y, Lambda: 0, MaxIter: iters, Tol: -1, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		loss := nmf.Frobenius
		if mod.Recon == nmf.KullbackLeibler {
			loss = nmf.KullbackLeibler
		}
		w, h := uniform(40, 4, 5, streamW), uniform(4, 30, 5, streamH)
		var last *nmf.Model
		for it := 0; it < iters; it++ {
			rh, err := nmf.Fit(context.Background(), xs, nmf.Config{K: 4, Loss: loss, W0: w, H0: h, FixW: true, MaxIter: 1, Tol: -1})
			if err != nil {
				t.Fatal(err)
			}
			h = rh.H
			rw, err := nmf.Fit(context.Background(), xs, nmf.Config{K: 4, Loss: loss, W0: w, H0: h, FixH: true, MaxIter: 1, Tol: -1})
			if err != nil {
				t.Fatal(err)
			}
			w, last = rw.W, rw
		}
		if d := maxRelDiff(res.W, w); d > 1e-6 {
			t.Errorf("%v: W differs from NMF's by %.3g", mod, d)
		}
		if d := maxRelDiff(res.H, h); d > 1e-6 {
			t.Errorf("%v: H differs from NMF's by %.3g", mod, d)
		}
		want := last.FinalObjective()
		if loss == nmf.Frobenius {
			want *= 2
		}
		if math.Abs(res.Recon-want) > 1e-6*want {
			t.Errorf("%v: reconstruction term %.10g, NMF's objective gives %.10g", mod, res.Recon, want)
		}
		if len(res.Objective) != res.Iterations+1 {
			t.Errorf("%v: %d objectives recorded for %d iterations, want one per iteration and the start", mod, len(res.Objective), res.Iterations)
		}
		if res.FinalObjective() != res.Recon {
			t.Errorf("%v: with λ = 0 the objective %.10g should be the reconstruction term %.10g", mod, res.FinalObjective(), res.Recon)
		}
	}
}

// TestTransformNNLSConsistent checks the nmf.Frobenius representation of the
// training documents: per document it reconstructs at least as well as
// the fitted W (it is the exact NNLS solution), and with λ = 0 on an exact
// low-rank X a long fit's W is that solution.
func TestTransformNNLSConsistent(t *testing.T) {
	x, class := planted(50, 40, 4, 2, 11)
	y, _, _ := OneHot(class, 2)
	for _, lam := range []float64{0, 5} {
		res, err := Fit(context.Background(), x, Config{K: 4, Losses: FF, Y: y, Lambda: lam, MaxIter: 3000, Tol: -1, Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		wt, err := res.Transform(context.Background(), sparse.FromDense(x))
		if err != nil {
			t.Fatal(err)
		}
		resid := func(w *mat.Dense, i int) float64 {
			var r mat.VecDense
			r.MulVec(res.H.T(), w.RowView(i))
			s := 0.0
			for j := 0; j < 40; j++ {
				d := x.At(i, j) - r.AtVec(j)
				s += d * d
			}
			return s
		}
		for i := 0; i < 50; i++ {
			if a, b := resid(wt, i), resid(res.W, i); a > b*(1+1e-9)+1e-12 {
				t.Errorf("λ=%g document %d: NNLS residual %.6g above the fitted W's %.6g", lam, i, a, b)
			}
		}
		if lam == 0 {
			if d := maxRelDiff(wt, res.W); d > 1e-3 {
				t.Errorf("λ=0: NNLS representation differs from the fitted W by %.3g", d)
			}
		}
	}
}

func microF1(pred, truth [][]int) float64 {
	tp, np, nt := 0, 0, 0
	for i := range pred {
		set := map[int]bool{}
		for _, l := range truth[i] {
			set[l] = true
		}
		for _, l := range pred[i] {
			if set[l] {
				tp++
			}
		}
		np += len(pred[i])
		nt += len(truth[i])
	}
	return 2 * float64(tp) / float64(np+nt)
}

// TestMultiLabel plants documents made of one or two of four topics and
// labels them with their topics: the threshold chosen on validation
// documents must recover the test documents' label sets.
func TestMultiLabel(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	const k, m = 4, 40
	h := mat.NewDense(k, m, nil)
	for tp := 0; tp < k; tp++ {
		for j := tp * 10; j < tp*10+10; j++ {
			h.Set(tp, j, 0.5+r.Float64())
		}
	}
	gen := func(n int) (*mat.Dense, [][]int) {
		w := mat.NewDense(n, k, nil)
		labels := make([][]int, n)
		for i := 0; i < n; i++ {
			a := r.IntN(k)
			labels[i] = []int{a}
			w.Set(i, a, 0.5+r.Float64())
			if r.Float64() < 0.5 {
				b := (a + 1 + r.IntN(k-1)) % k
				w.Set(i, b, 0.5+r.Float64())
				labels[i] = []int{min(a, b), max(a, b)}
			}
		}
		x := mat.NewDense(n, m, nil)
		x.Mul(w, h)
		for i := 0; i < n; i++ { // noise
			for j := 0; j < m; j++ {
				if r.Float64() < 0.1 {
					x.Set(i, j, x.At(i, j)+0.1*r.Float64())
				}
			}
		}
		return x, labels
	}
	xtr, ltr := gen(200)
	xva, lva := gen(80)
	xte, lte := gen(80)
	y, err := MultiHot(ltr, k)
	if err != nil {
		t.Fatal(err)
	}
	for _, mod := range Models() {
		res, err := Fit(context.Background(), sparse.FromDense(xtr), Config{K: k, Losses: mod, Y: y, Lambda: 1, MaxIter: 500, Tol: 1e-7, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		res.Represent = TransformConfig{Iter: 200}
		pv, err := res.Predict(context.Background(), sparse.FromDense(xva))
		if err != nil {
			t.Fatal(err)
		}
		th, f1v, err := metrics.ChooseThreshold(pv, lva)
		if err != nil {
			t.Fatal(err)
		}
		pt, err := res.Predict(context.Background(), sparse.FromDense(xte))
		if err != nil {
			t.Fatal(err)
		}
		f1 := microF1(metrics.Threshold(pt, th, true), lte)
		if f1 < 0.95 {
			t.Errorf("%v: test micro-F1 %.3f (validation %.3f, threshold %.3g), want ≥ 0.95", mod, f1, f1v, th)
		}
	}
}

// TestRegression plants a non-negative target y = w·b* and checks that
// every model predicts held-out targets closely.
func TestRegression(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	const k, m = 3, 30
	h := randomDense(k, m, 0.6, r)
	bstar := []float64{2, 0.5, 3}
	gen := func(n int) (*mat.Dense, []float64) {
		w := randomDense(n, k, 0.8, r)
		x := mat.NewDense(n, m, nil)
		x.Mul(w, h)
		y := make([]float64, n)
		for i := range y {
			for tp := 0; tp < k; tp++ {
				y[i] += w.At(i, tp) * bstar[tp]
			}
		}
		return x, y
	}
	xtr, ytr := gen(150)
	xte, yte := gen(50)
	yt, err := Targets(ytr)
	if err != nil {
		t.Fatal(err)
	}
	for _, mod := range Models() {
		res, err := Fit(context.Background(), xtr, Config{K: k, Losses: mod, Y: yt, Lambda: 1, MaxIter: 3000, Tol: 1e-9, Seed: 4})
		if err != nil {
			t.Fatal(err)
		}
		res.Represent = TransformConfig{Iter: 500}
		p, err := res.Predict(context.Background(), xte)
		if err != nil {
			t.Fatal(err)
		}
		var se, st, mean float64
		for _, v := range yte {
			mean += v / float64(len(yte))
		}
		for i, v := range yte {
			d := p.At(i, 0) - v
			se += d * d
			st += (v - mean) * (v - mean)
		}
		if r2 := 1 - se/st; r2 < 0.95 {
			t.Errorf("%v: test R² %.4f, want ≥ 0.95", mod, r2)
		}
	}
}

// TestTransductive checks the transductive fit equals Fit on the stacked
// documents with zero label weight for the test rows, and that it
// classifies the planted test documents.
func TestTransductive(t *testing.T) {
	x, class := planted(120, 40, 4, 4, 41)
	train, test := mat.DenseCopyOf(x.Slice(0, 90, 0, 40)), mat.DenseCopyOf(x.Slice(90, 120, 0, 40))
	y, _, _ := OneHot(class[:90], 4)
	cfg := Config{K: 4, Losses: DD, Y: y, Lambda: 10, MaxIter: 200, Seed: 3}
	res, wt, err := Transductive(context.Background(), sparse.FromDense(train), sparse.FromDense(test), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := wt.Dims(); r != 30 {
		t.Fatalf("test representation has %d rows", r)
	}
	yy, lw, _ := OneHot(append(append([]int(nil), class[:90]...), make([]int, 30)...), 4)
	for i := 90; i < 120; i++ {
		lw[i] = 0
	}
	c2 := cfg
	c2.Y, c2.LabelRowWeights = yy, lw
	ref, err := Fit(context.Background(), x, c2)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxRelDiff(res.W, ref.W); d > 1e-9 {
		t.Errorf("transductive W differs from the stacked fit by %.3g", d)
	}
	s, _ := res.Scores(wt)
	acc, _ := metrics.Accuracy(class[90:], metrics.ArgmaxRows(s))
	if acc < 0.9 {
		t.Errorf("transductive test accuracy %.3f, want ≥ 0.9", acc)
	}
	if _, _, err := Transductive(context.Background(), sparse.FromDense(train), test, cfg); err == nil {
		t.Error("mixing sparse and dense should be an error")
	}
}

func TestSelect(t *testing.T) {
	x, class := planted(160, 40, 6, 3, 51)
	xtr, xva := sparse.FromDense(x.Slice(0, 110, 0, 40)), sparse.FromDense(x.Slice(110, 160, 0, 40))
	y, _, _ := OneHot(class[:110], 3)
	grid := Grid{Lambdas: []float64{0, 10}, Tols: []float64{1e-3}, Ks: []int{3, 6}, Seeds: []uint64{1, 2}}
	sel, err := Select(context.Background(), xtr, xva, Config{Losses: DF, Y: y, MaxIter: 100}, grid, TransformConfig{},
		func(s *mat.Dense) (float64, error) { return metrics.Accuracy(class[110:], metrics.ArgmaxRows(s)) })
	if err != nil {
		t.Fatal(err)
	}
	if len(sel.Candidates) != 4 {
		t.Fatalf("%d candidates, want 4", len(sel.Candidates))
	}
	for _, c := range sel.Candidates {
		if len(c.Scores) != 2 || c.Mean > sel.Best.Mean {
			t.Errorf("candidate %+v (best %+v)", c, sel.Best)
		}
	}
	if sel.Best.Mean < 0.8 {
		t.Errorf("best validation accuracy %.3f", sel.Best.Mean)
	}
	cfg := sel.Config(Config{Losses: DF})
	if cfg.K != sel.Best.K || cfg.Lambda != sel.Best.Lambda {
		t.Errorf("Config does not carry the selection: %+v", cfg)
	}
}

func TestErrors(t *testing.T) {
	x := mat.NewDense(4, 3, []float64{1, 0, 2, 0, 1, 1, 3, 0, 0, 1, 1, 1})
	y, _, _ := OneHot([]int{0, 1, 0, 1}, 2)
	neg := mat.DenseCopyOf(x)
	neg.Set(1, 2, -1)
	nan := mat.DenseCopyOf(x)
	nan.Set(0, 0, math.NaN())
	cases := []struct {
		name string
		x    Matrix
		cfg  Config
		want string
	}{
		{"K", x, Config{K: 0}, "K = 0"},
		{"negative X", neg, Config{K: 2}, "negative entry"},
		{"NaN X", nan, Config{K: 2}, "non-finite"},
		{"zero X", mat.NewDense(2, 2, nil), Config{K: 1}, "all zero"},
		{"nil X", nil, Config{K: 1}, "nil"},
		{"Y rows", x, Config{K: 2, Y: mat.NewDense(3, 2, nil)}, "Y has 3 rows"},
		{"lambda", x, Config{K: 2, Y: y, Lambda: -1}, "λ"},
		{"row weights", x, Config{K: 2, DataRowWeights: []float64{1, 1}}, "2 data row weights for 4 documents"},
		{"label weights without Y", x, Config{K: 2, LabelRowWeights: []float64{1, 1, 1, 1}}, "without targets"},
		{"W0 shape", x, Config{K: 2, W0: mat.NewDense(4, 3, nil)}, "W0 is 4×3"},
		{"B0 shape", x, Config{K: 2, Y: y, B0: mat.NewDense(3, 2, nil)}, "B0 is 3×2"},
		{"negative Y", x, Config{K: 2, Y: mat.NewDense(4, 1, []float64{1, -2, 0, 1})}, "Y has a negative"},
		{"maxiter", x, Config{K: 2, MaxIter: -3}, "MaxIter"},
		{"epsilon", x, Config{K: 2, Epsilon: math.Inf(1)}, "Epsilon"},
		{"model", x, Config{K: 2, Losses: Losses{Recon: 7}}, "unknown loss"},
	}
	for _, c := range cases {
		_, err := Fit(context.Background(), c.x, c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	res, err := Fit(context.Background(), x, Config{K: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := res.Scores(res.W); err == nil {
		t.Error("Scores of an unsupervised model should be an error")
	}
	if _, err := res.Transform(context.Background(), mat.NewDense(2, 5, nil)); err == nil {
		t.Error("Transform with the wrong width should be an error")
	}
	if _, _, err := OneHot([]int{0, 3}, 2); err == nil {
		t.Error("OneHot with a class out of range should be an error")
	}
	if _, err := Targets([]float64{1, -1}); err == nil {
		t.Error("negative regression targets should be an error")
	}
}

func TestCancel(t *testing.T) {
	x, _ := planted(30, 20, 3, 3, 61)
	ctx, cancel := context.WithCancel(context.Background())
	res, err := Fit(ctx, x, Config{K: 3, MaxIter: 100, Tol: -1, Progress: func(st progress.Step) {
		if st.Iter == 5 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || res == nil || res.Iterations != 5 || len(res.Objective) != 6 || res.Convergence.Status != progress.Cancelled {
		t.Fatalf("cancelled fit: err %v, result %v", err, res)
	}
}

// TestIterationLimit checks that a fit stopped by MaxIter says so, with
// the rule's last measurement, and that one without a rule says that.
func TestIterationLimit(t *testing.T) {
	x, _ := planted(30, 20, 3, 3, 61)
	res, err := Fit(context.Background(), x, Config{K: 3, MaxIter: 3, Tol: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	c, o := res.Convergence, res.Objective
	if c.Status != progress.IterationLimit || c.MaxIter != 3 || c.Tol != 1e-3 || math.Abs(c.Value-(o[2]-o[3])/o[1]) > 1e-12 {
		t.Errorf("MaxIter 3: %+v, objectives %v", c, o)
	}
	res, err = Fit(context.Background(), x, Config{K: 3, MaxIter: 3, Tol: -1})
	if err != nil || res.Convergence.Status != progress.FixedIterations {
		t.Errorf("no rule: %v, %+v", err, res.Convergence)
	}
}

func TestTransformEmptyRowsAndStopping(t *testing.T) {
	x, class := planted(40, 20, 3, 3, 71)
	y, w, _ := OneHot(append(class[:30], -1, -1, -1, -1, -1, -1, -1, -1, -1, -1), 3)
	for _, mod := range Models() {
		res, err := Fit(context.Background(), sparse.FromDense(x), Config{K: 3, Losses: mod, Y: y, LabelRowWeights: w, Lambda: 1, Tol: 1e-3, MaxIter: 500})
		if err != nil {
			t.Fatal(err)
		}
		if res.Convergence.Status != progress.Converged || res.Iterations >= 500 {
			t.Errorf("%v: did not stop by the tolerance (%d iterations)", mod, res.Iterations)
		}
		it := res.Iterations
		o := res.Objective
		if (o[it-1]-o[it])/o[1] >= 1e-3 || (it > 2 && (o[it-2]-o[it-1])/o[1] < 1e-3) {
			t.Errorf("%v: stopped at iteration %d against the rule", mod, it)
		}
		z := sparse.Zeros(2, 20)
		wt, err := res.Transform(context.Background(), z)
		if err != nil {
			t.Fatal(err)
		}
		if mat.Max(wt) != 0 {
			t.Errorf("%v: empty documents get a non-zero representation", mod)
		}
	}
}

func TestParseModel(t *testing.T) {
	for s, want := range map[string]Losses{"(F,F)": FF, "F,D": FD, "fro-div": FD, "DF": DF, "d-d": DD, "6": DD, "3": FF, "kl,fro": DF} {
		got, err := ParseModel(s)
		if err != nil || got != want {
			t.Errorf("ParseModel(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "F", "X,Y", "7"} {
		if _, err := ParseModel(s); err == nil {
			t.Errorf("ParseModel(%q) should fail", s)
		}
	}
	for _, m := range Models() {
		if p, _ := ParseModel(m.String()); p != m {
			t.Errorf("%v does not round-trip", m)
		}
		if p, _ := ParseModel(m.Slug()); p != m {
			t.Errorf("%v slug does not round-trip", m)
		}
	}
	if DF.RefNumber() != 5 || FD.RefNumber() != 4 {
		t.Error("RefNumber")
	}
}

func TestNormalizedBAndTopTerms(t *testing.T) {
	x, class := planted(60, 12, 3, 3, 81)
	y, _, _ := OneHot(class, 3)
	res, err := Fit(context.Background(), x, Config{K: 3, Losses: FF, Y: y, Lambda: 1, MaxIter: 200})
	if err != nil {
		t.Fatal(err)
	}
	nb, err := res.NormalizedB()
	if err != nil {
		t.Fatal(err)
	}
	for tp := 0; tp < 3; tp++ {
		s := 0.0
		for c := 0; c < 3; c++ {
			s += nb.At(c, tp)
		}
		if math.Abs(s-1) > 1e-12 {
			t.Errorf("column %d of normalised B sums to %g", tp, s)
		}
	}
	vocab := strings.Fields("a b c d e f g h i j k l")
	top, err := res.TopTerms(vocab, 4)
	if err != nil || len(top) != 3 || len(top[0]) != 4 {
		t.Fatalf("TopTerms: %v, %v", top, err)
	}
}

// TestUnweightedLabelsShortcut checks that the Gram-matrix shortcut of an
// unweighted nmf.Frobenius supervision term gives the iterates of the general
// (weighted) form with all-one weights.
func TestUnweightedLabelsShortcut(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	x := randomDense(25, 20, 0.5, rnd)
	y := randomDense(25, 6, 0.7, rnd)
	ones := mat.NewDense(25, 6, nil)
	for i := 0; i < 25; i++ {
		for j := 0; j < 6; j++ {
			ones.Set(i, j, 1)
		}
	}
	for _, mod := range []Losses{FF, DF} {
		cfg := Config{K: 3, Losses: mod, Y: y, Lambda: 3, MaxIter: 40, Tol: -1}
		a, err := Fit(context.Background(), x, cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.LabelWeights = ones
		b, err := Fit(context.Background(), x, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if d := maxRelDiff(a.W, b.W); d > 1e-9 {
			t.Errorf("%v: W differs by %.3g", mod, d)
		}
		if d := maxRelDiff(a.B, b.B); d > 1e-9 {
			t.Errorf("%v: B differs by %.3g", mod, d)
		}
		if d := math.Abs(a.FinalObjective()-b.FinalObjective()) / b.FinalObjective(); d > 1e-9 {
			t.Errorf("%v: objective differs by %.3g", mod, d)
		}
	}
}

func TestTransformSameStartIndependentOfBatch(t *testing.T) {
	x := mat.NewDense(6, 5, []float64{
		1, 0, 2, 0, 1,
		0, 3, 0, 1, 0,
		2, 1, 0, 0, 4,
		0, 0, 1, 5, 0,
		1, 1, 1, 1, 1,
		3, 0, 0, 2, 0,
	})
	r, err := Fit(context.Background(), x, Config{K: 3, Losses: Losses{nmf.KullbackLeibler, nmf.Frobenius}, Seed: 1, MaxIter: 30})
	if err != nil {
		t.Fatal(err)
	}
	r.Represent = TransformConfig{Seed: 7, SameStart: true}
	all, err := r.Transform(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 6; i++ {
		one, err := r.Transform(context.Background(), x.Slice(i, i+1, 0, 5))
		if err != nil {
			t.Fatal(err)
		}
		for j := 0; j < 3; j++ {
			if one.At(0, j) != all.At(i, j) {
				t.Fatalf("row %d alone differs from row %d in the batch", i, i)
			}
		}
	}
}

// Exclusions reach the engine: a topic's weight for a term excluded from
// it is exactly zero after the fit, in every model, and a bad exclusion is
// an error that names it.
func TestExclusions(t *testing.T) {
	x, class := planted(40, 20, 3, 3, 72)
	y, w, _ := OneHot(class, 3)
	seeds := supervision.Terms{Exclude: []supervision.Exclusion{{Topic: 0, Term: 3}, {Topic: 2, Term: 19}}}
	for _, mod := range Models() {
		res, err := Fit(context.Background(), sparse.FromDense(x), Config{K: 3, Losses: mod, Y: y, LabelRowWeights: w, Lambda: 1, MaxIter: 30, Seeds: seeds})
		if err != nil {
			t.Fatal(err)
		}
		if res.H.At(0, 3) != 0 || res.H.At(2, 19) != 0 {
			t.Errorf("%v: excluded entries %v %v", mod, res.H.At(0, 3), res.H.At(2, 19))
		}
		if res.H.At(0, 4) == 0 || res.H.At(1, 3) == 0 {
			t.Errorf("%v: allowed entries are zero", mod)
		}
	}
	if _, err := Fit(context.Background(), sparse.FromDense(x), Config{K: 3, Seeds: supervision.Terms{Exclude: []supervision.Exclusion{{Topic: 3, Term: 0}}}}); err == nil || !strings.Contains(err.Error(), "exclusion 0 (topic 3, term 0): topic out of range") {
		t.Errorf("an exclusion of topic 3 of 3: %v", err)
	}
}

// Guided SSNMF: each seeded topic's pseudo-document is stacked under the
// documents with weight μ in the reconstruction term and none in the
// label term (or, with SeedLabels, a labeled document of its topic's
// class); H starts from the documents holding the seed terms and B from
// TopicClasses; the result has the documents' rows of W.
func TestSeeds(t *testing.T) {
	x, class := planted(40, 21, 3, 3, 9)
	xs := sparse.FromDense(x)
	y, w, _ := OneHot(class, 3)
	seeds := supervision.Terms{Seeds: []supervision.Seed{{Topic: 1, Term: 1}, {Topic: 1, Term: 4, Strength: 2}, {Topic: 0, Term: 3}}}
	cfg := Config{K: 3, Losses: DF, Y: y, LabelRowWeights: w, Lambda: 1, MaxIter: 30, Seeds: seeds, SeedWeight: 2, TopicClasses: []int{2, 1, -1}}
	d, err := checkX(xs)
	if err != nil {
		t.Fatal(err)
	}
	for _, labels := range []bool{false, true} {
		c := cfg
		c.SeedLabels = labels
		gd, gc, g, wmask, notes, err := guided(d, c)
		if err != nil {
			t.Fatal(err)
		}
		want, _, _ := nmf.NewGuide(xs, 3, seeds, nil, nmf.KullbackLeibler, 2)
		if gd.n != 42 || g == nil || !slices.Equal(g.Topics(), []int{1, 0}) || !slices.Equal(g.Topics(), want.Topics()) {
			t.Fatalf("stacked %d rows, guide topics %v", gd.n, g.Topics())
		}
		if r, _ := wmask.Dims(); r != 42 || wmask.At(40, 0) != 0 || wmask.At(40, 1) != 1 || wmask.At(41, 0) != 1 || wmask.At(41, 1) != 0 {
			t.Errorf("W mask of the pseudo-documents %v", mat.Formatted(wmask.Slice(40, 42, 0, 3)))
		}
		// Pseudo-document 0 is topic 1's, which stands for class 1;
		// pseudo-document 1 is topic 0's, class 2.
		lw := gc.LabelRowWeights[40:]
		switch {
		case !labels && (lw[0] != 0 || lw[1] != 0 || mat.Sum(gc.Y.Slice(40, 42, 0, 3)) != 0):
			t.Errorf("unlabeled pseudo-documents: label weights %v, rows %v", lw, mat.Formatted(gc.Y.Slice(40, 42, 0, 3)))
		case labels && (lw[0] != 1 || lw[1] != 1 || gc.Y.At(40, 1) != 1 || gc.Y.At(41, 2) != 1 || mat.Sum(gc.Y.Slice(40, 42, 0, 3)) != 2):
			t.Errorf("labeled pseudo-documents: label weights %v, rows %v", lw, mat.Formatted(gc.Y.Slice(40, 42, 0, 3)))
		}
		if !slices.Equal(gc.DataRowWeights[:40], slices.Repeat([]float64{1}, 40)) || !(gc.DataRowWeights[40] > 0) {
			t.Errorf("data row weights %v", gc.DataRowWeights[38:])
		}
		if gc.B0 == nil || gc.B0.At(2, 0) != 1 || gc.B0.At(1, 1) != 1 || gc.B0.At(0, 0) != 0.5 || len(gc.StartLabels) != 42 || len(notes) < 3 {
			t.Errorf("seeded start: B0 %v, %d start labels, notes %q", gc.B0, len(gc.StartLabels), notes)
		}
		res, err := Fit(context.Background(), xs, c)
		if err != nil {
			t.Fatal(err)
		}
		if r, _ := res.W.Dims(); r != 40 || !slices.Equal(res.Seeded, []int{1, 0}) || !strings.Contains(strings.Join(res.Notes, "|"), "guided NMF") {
			t.Errorf("W has %d rows, seeded %v, notes %q", r, res.Seeded, res.Notes)
		}
	}
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{K: 3, Seeds: seeds, W0: mat.NewDense(40, 3, nil)}, "W0 need H0"},
		{Config{K: 3, Seeds: seeds, TopicClasses: []int{0}}, "TopicClasses has 1 entries"},
		{Config{K: 3, Y: y, Seeds: seeds, TopicClasses: []int{0, 3, -1}}, "topic 1 stands for class 3"},
		{Config{K: 3, Y: y, Seeds: seeds, SeedLabels: true}, "SeedLabels"},
		{Config{K: 3, Seeds: supervision.Terms{Seeds: []supervision.Seed{{Topic: 0, Term: 21}}}}, "seed 0 (topic 0, term 21): term out of range"},
		{Config{K: 3, Seeds: seeds, SeedWeight: -1}, "SeedWeight"},
	} {
		if _, err := Fit(context.Background(), xs, c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error saying %q", c.cfg.Seeds, err, c.want)
		}
	}
}

// StartLabels starts H at the mean of the documents listing each topic:
// on a planted problem whose documents list their planted topic, each
// topic after one iteration weighs its planted terms (those j with j % 3
// = t) at least twice as much as the others, as the uniform start's does
// not; bad lists are errors that name the field.
func TestStartLabels(t *testing.T) {
	x, class := planted(60, 24, 3, 3, 5)
	labels := make([][]int, len(class))
	for i, c := range class {
		labels[i] = []int{c}
	}
	labels[0] = nil // a document that lists no topic
	aligned := func(h *mat.Dense) bool {
		for tp := 0; tp < 3; tp++ {
			in, out := 0.0, 0.0
			for j := 0; j < 24; j++ {
				if j%3 == tp {
					in += h.At(tp, j) / 8
				} else {
					out += h.At(tp, j) / 16
				}
			}
			if in < 2*out {
				return false
			}
		}
		return true
	}
	for _, mod := range Models() {
		plain, err := Fit(context.Background(), x, Config{K: 3, Losses: mod, Seed: 2, MaxIter: 1})
		if err != nil {
			t.Fatal(err)
		}
		started, err := Fit(context.Background(), x, Config{K: 3, Losses: mod, Seed: 2, MaxIter: 1, StartLabels: labels})
		if err != nil {
			t.Fatal(err)
		}
		if !aligned(started.H) || aligned(plain.H) {
			t.Errorf("%v: topics aligned with the planted ones: %v with StartLabels, %v without", mod, aligned(started.H), aligned(plain.H))
		}
	}
	for name, bad := range map[string][][]int{"entries": labels[:10], "topic 3": append([][]int{{3}}, labels[1:]...)} {
		if _, err := Fit(context.Background(), x, Config{K: 3, StartLabels: bad}); err == nil || !strings.Contains(err.Error(), "StartLabels") || !strings.Contains(err.Error(), strings.Fields(name)[len(strings.Fields(name))-1]) {
			t.Errorf("StartLabels with bad %s: %v", name, err)
		}
	}
}

// A seeded fit starts from given W0, H0 and B0 (a warm start): from a
// seeded fit's own factors it starts at that fit's objective, with the
// pseudo-documents' rows of W at their best weight for H0, and ends
// with the documents' rows of W; exclusions stay exactly zero.
func TestSeedsFromFactors(t *testing.T) {
	x, class := planted(40, 21, 3, 3, 9)
	xs := sparse.FromDense(x)
	y, w, _ := OneHot(class, 3)
	seeds := supervision.Terms{Seeds: []supervision.Seed{{Topic: 1, Term: 1}, {Topic: 0, Term: 3}}, Exclude: []supervision.Exclusion{{Topic: 2, Term: 4}}}
	for _, mod := range Models() {
		cfg := Config{K: 3, Losses: mod, Y: y, LabelRowWeights: w, Lambda: 1, MaxIter: 300, Tol: 1e-7, Seeds: seeds}
		cold, err := Fit(context.Background(), xs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.W0, cfg.H0, cfg.B0 = cold.W, cold.H, cold.B
		warm, err := Fit(context.Background(), xs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if r, _ := warm.W.Dims(); r != 40 || !slices.Equal(warm.Seeded, cold.Seeded) {
			t.Fatalf("%v: W has %d rows, seeded %v", mod, r, warm.Seeded)
		}
		if d := math.Abs(warm.Objective[0]-cold.FinalObjective()) / cold.FinalObjective(); d > 1e-3 {
			t.Errorf("%v: the start's objective %v is not the fit's %v (relative %g)", mod, warm.Objective[0], cold.FinalObjective(), d)
		}
		if warm.H.At(2, 4) != 0 {
			t.Errorf("%v: excluded entry %v", mod, warm.H.At(2, 4))
		}
	}
}
