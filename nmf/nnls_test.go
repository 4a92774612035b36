package nmf

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// nnlsObjective is ½xᵀGx − bᵀx.
func nnlsObjective(g, b, x []float64) float64 {
	k := len(b)
	f := 0.0
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			f += 0.5 * x[i] * g[i*k+j] * x[j]
		}
		f -= b[i] * x[i]
	}
	return f
}

// bruteNNLS minimises ½xᵀGx − bᵀx over x ≥ 0 (x_i = 0 where not allowed)
// by trying every support set: the unconstrained minimiser on each set
// (minimum-norm, through an SVD, so singular G is fine) is a candidate when
// it is non-negative. The problem is convex, so the best candidate is the
// optimum.
func bruteNNLS(g, b []float64, allowed []bool) (best float64, bestX []float64) {
	k := len(b)
	best = 0 // x = 0
	bestX = make([]float64, k)
	for set := 1; set < 1<<k; set++ {
		var idx []int
		ok := true
		for i := 0; i < k; i++ {
			if set&(1<<i) != 0 {
				if allowed != nil && !allowed[i] {
					ok = false
				}
				idx = append(idx, i)
			}
		}
		if !ok {
			continue
		}
		p := len(idx)
		gs := mat.NewDense(p, p, nil)
		bs := mat.NewDense(p, 1, nil)
		for a, i := range idx {
			for c, j := range idx {
				gs.Set(a, c, g[i*k+j])
			}
			bs.Set(a, 0, b[i])
		}
		var svd mat.SVD
		if !svd.Factorize(gs, mat.SVDFull) {
			continue
		}
		s := svd.Values(nil)
		rank := 0
		for _, v := range s {
			if v > 1e-10*s[0] {
				rank++
			}
		}
		if rank == 0 {
			continue
		}
		var z mat.Dense
		svd.SolveTo(&z, bs, rank)
		x := make([]float64, k)
		feasible := true
		for a, i := range idx {
			x[i] = z.At(a, 0)
			if x[i] < -1e-9 {
				feasible = false
			}
			x[i] = math.Max(x[i], 0)
		}
		if !feasible {
			continue
		}
		if f := nnlsObjective(g, b, x); f < best {
			best, bestX = f, x
		}
	}
	return best, bestX
}

// gramProblem returns G = AᵀA and b = Aᵀy for a random A (rows × k) with
// optionally duplicated or zero columns, and y.
func gramProblem(rng *rand.Rand, rows, k int, degenerate bool) (g, b []float64) {
	a := mat.NewDense(rows, k, nil)
	for i := 0; i < rows; i++ {
		for j := 0; j < k; j++ {
			a.Set(i, j, rng.Float64())
		}
	}
	if degenerate && k >= 3 {
		// A duplicated column and a zero column.
		for i := 0; i < rows; i++ {
			a.Set(i, 1, a.At(i, 0))
			a.Set(i, k-1, 0)
		}
	}
	y := mat.NewVecDense(rows, nil)
	for i := 0; i < rows; i++ {
		y.SetVec(i, rng.NormFloat64()+0.3)
	}
	var gm mat.Dense
	gm.Mul(a.T(), a)
	var bv mat.VecDense
	bv.MulVec(a.T(), y)
	return copyRaw(&gm), bv.RawVector().Data
}

func TestNNLSKnownSolutions(t *testing.T) {
	q := newNNLS(3)
	x := make([]float64, 3)
	// Identity: the solution is max(b, 0).
	id := []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}
	q.solve(x, id, []float64{1, -2, 3}, nil)
	if x[0] != 1 || x[1] != 0 || x[2] != 3 {
		t.Errorf("identity: x = %v", x)
	}
	// Zero and non-positive right-hand sides: x = 0.
	for _, b := range [][]float64{{0, 0, 0}, {-1, -2, -0.5}} {
		q.solve(x, id, b, nil)
		if x[0] != 0 || x[1] != 0 || x[2] != 0 {
			t.Errorf("b = %v: x = %v", b, x)
		}
	}
	// All passive: b = G x* with x* > 0 gives x*.
	rng := rand.New(rand.NewPCG(1, 2))
	g, _ := gramProblem(rng, 10, 3, false)
	xs := []float64{0.5, 1.5, 2}
	b := make([]float64, 3)
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			b[i] += g[i*3+j] * xs[j]
		}
	}
	q.solve(x, g, b, nil)
	for i := range xs {
		if math.Abs(x[i]-xs[i]) > 1e-10 {
			t.Errorf("all passive: x = %v, want %v", x, xs)
		}
	}
	// Restricting to allowed variables.
	q.solve(x, id, []float64{1, 2, 3}, []bool{true, false, true})
	if x[0] != 1 || x[1] != 0 || x[2] != 3 {
		t.Errorf("mask: x = %v", x)
	}
	// Rank-deficient: two identical columns; any split of 1 is optimal.
	q2 := newNNLS(2)
	x2 := make([]float64, 2)
	q2.solve(x2, []float64{1, 1, 1, 1}, []float64{1, 1}, nil)
	if math.Abs(x2[0]+x2[1]-1) > 1e-12 || x2[0] < 0 || x2[1] < 0 {
		t.Errorf("rank-deficient: x = %v", x2)
	}
	// All-zero Gram matrix: nothing can be gained.
	q.solve(x, make([]float64, 9), []float64{0, 0, 0}, nil)
	if x[0] != 0 || x[1] != 0 || x[2] != 0 {
		t.Errorf("zero Gram: x = %v", x)
	}
}

// TestNNLSBruteForce compares with an enumeration of all active sets on
// many random problems, full-rank, rank-deficient (fewer rows than
// columns) and degenerate (duplicate and zero columns), some with masks.
func TestNNLSBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for k := 1; k <= 7; k++ {
		q := newNNLS(k)
		x := make([]float64, k)
		for trial := 0; trial < 150; trial++ {
			rows := k + 3
			if trial%3 == 1 {
				rows = max(1, k-2) // rank-deficient
			}
			g, b := gramProblem(rng, rows, k, trial%3 == 2)
			var allowed []bool
			if trial%4 == 3 {
				allowed = make([]bool, k)
				for i := range allowed {
					allowed[i] = rng.Float64() < 0.6
				}
			}
			q.solve(x, g, b, allowed)
			for i, v := range x {
				if v < 0 || (allowed != nil && !allowed[i] && v != 0) {
					t.Fatalf("k=%d trial %d: infeasible x = %v (allowed %v)", k, trial, x, allowed)
				}
			}
			got := nnlsObjective(g, b, x)
			want, wx := bruteNNLS(g, b, allowed)
			scale := 1 + math.Abs(want)
			if got > want+1e-9*scale {
				t.Fatalf("k=%d trial %d (rows %d): objective %.12g, brute force %.12g\nx = %v\nbrute x = %v", k, trial, rows, got, want, x, wx)
			}
		}
	}
}

func TestTransformFrobeniusReproducesFit(t *testing.T) {
	x := randomSparse(40, 30, 0.25, 21)
	k := 3
	res, err := Fit(context.Background(), x, Config{K: k, Init: InitNNDSVDa, MaxIter: 3000, Tol: 1e-13})
	if err != nil {
		t.Fatal(err)
	}
	w, err := Transform(context.Background(), x, res.H, TransformConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if d := maxRelDiff(res.W, w); d > 1e-6 {
		t.Errorf("transform of the training documents differs from the fitted W by %.3g", d)
	}
	// The exact solve is never worse than the fitted rows.
	xd := x.ToDense()
	for i := 0; i < 40; i++ {
		fit := rowError(xd, res.W, res.H, i)
		got := rowError(xd, w, res.H, i)
		if got > fit+1e-12*(1+fit) {
			t.Errorf("row %d: transform error %.15g above the fitted %.15g", i, got, fit)
		}
	}
	// Dense input gives the same.
	w2, err := Transform(context.Background(), xd, res.H, TransformConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if d := maxRelDiff(w, w2); d > 1e-12 {
		t.Errorf("dense transform differs by %.3g", d)
	}
}

// rowError is ‖x_i − w_i H‖².
func rowError(x, w, h *mat.Dense, i int) float64 {
	_, m := x.Dims()
	var r mat.VecDense
	r.MulVec(h.T(), w.RowView(i))
	s := 0.0
	for j := 0; j < m; j++ {
		d := x.At(i, j) - r.AtVec(j)
		s += d * d
	}
	return s
}

func TestTransformMaskAndKL(t *testing.T) {
	x := randomSparse(30, 20, 0.3, 22)
	k := 4
	h := randomFactor(k, 20, 0.05, 5)
	mask := randomMask(30, k, 0.5, 6)
	w, err := Transform(context.Background(), x, h, TransformConfig{Mask: mask})
	if err != nil {
		t.Fatal(err)
	}
	var g mat.Dense
	g.Mul(h, h.T())
	var b mat.Dense
	b.Mul(x.ToDense(), h.T())
	for i := 0; i < 30; i++ {
		allowed := make([]bool, k)
		for t2 := range allowed {
			allowed[t2] = mask.At(i, t2) != 0
			if !allowed[t2] && w.At(i, t2) != 0 {
				t.Fatalf("row %d: forbidden topic %d has weight %g", i, t2, w.At(i, t2))
			}
		}
		want, _ := bruteNNLS(copyRaw(&g), b.RawRowView(i), allowed)
		got := nnlsObjective(copyRaw(&g), b.RawRowView(i), w.RawRowView(i))
		if got > want+1e-10*(1+math.Abs(want)) {
			t.Errorf("row %d: objective %g, brute force %g", i, got, want)
		}
	}
	// KL: multiplicative updates with H fixed, the same as Fit with FixH.
	wk, err := Transform(context.Background(), x, h, TransformConfig{Loss: KullbackLeibler, Mask: mask, MaxIter: 80, Tol: -1})
	if err != nil {
		t.Fatal(err)
	}
	avg := math.Sqrt(x.Sum() / (30 * 20) / float64(k))
	w0 := mat.NewDense(30, k, nil)
	for i := 0; i < 30; i++ {
		for t2 := 0; t2 < k; t2++ {
			w0.Set(i, t2, avg)
		}
	}
	res, err := Fit(context.Background(), x, Config{K: k, Loss: KullbackLeibler, W0: w0, H0: h, FixH: true, WMask: mask, MaxIter: 80, Tol: -1})
	if err != nil {
		t.Fatal(err)
	}
	if d := maxRelDiff(wk, res.W); d > 1e-12 {
		t.Errorf("KL transform differs from Fit with FixH by %.3g", d)
	}
	checkMonotone(t, "KL transform", res.Objective)
	// Errors and the all-zero case.
	if _, err := Transform(context.Background(), x, randomFactor(k, 19, 0, 1), TransformConfig{}); err == nil {
		t.Errorf("column mismatch accepted")
	}
	if _, err := Transform(context.Background(), x, h, TransformConfig{Mask: mat.NewDense(29, k, nil)}); err == nil {
		t.Errorf("mask of the wrong shape accepted")
	}
	z, err := Transform(context.Background(), mat.NewDense(3, 20, nil), h, TransformConfig{Loss: KullbackLeibler})
	if err != nil || mat.Max(z) != 0 {
		t.Errorf("all-zero X: W = %v, err = %v", z, err)
	}
}

// TestRandomizedSVD compares the randomized SVD with gonum's full SVD on
// small sparse and dense matrices.
func TestRandomizedSVD(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial, c := range []struct {
		n, m, rank, k int
		noise         float64
	}{{60, 40, 5, 5, 1e-3}, {40, 70, 6, 4, 1e-3}, {30, 20, 20, 20, 1}, {25, 25, 3, 3, 0}} {
		a := mat.NewDense(c.n, c.m, nil)
		u := randomFactor(c.n, c.rank, 0, uint64(trial)+1)
		v := randomFactor(c.rank, c.m, 0, uint64(trial)+2)
		a.Mul(u, v)
		for i := 0; i < c.n; i++ {
			for j := 0; j < c.m; j++ {
				a.Set(i, j, a.At(i, j)+c.noise*rng.Float64())
			}
		}
		var full mat.SVD
		if !full.Factorize(a, mat.SVDThin) {
			t.Fatal("gonum SVD failed")
		}
		s := full.Values(nil)
		var fu, fv mat.Dense
		full.UTo(&fu)
		full.VTo(&fv)
		for _, op := range []linOp{denseOp{a}, sparseOpOf(a)} {
			r, err := randomizedSVD(context.Background(), op, c.k, rsvdPowerIters(c.k, c.n, c.m), newRand(uint64(trial)))
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < c.k; i++ {
				if d := relDiff(r.S[i], s[i]); d > 1e-8 {
					t.Errorf("case %d: singular value %d: %.15g vs %.15g", trial, i, r.S[i], s[i])
				}
				// Singular vectors agree up to sign where the value is
				// separated from its neighbours.
				if i+1 < len(s) && s[i]-s[i+1] < 1e-3*s[0] {
					continue
				}
				du := math.Abs(mat.Dot(r.U.ColView(i), fu.ColView(i)))
				dv := math.Abs(mat.Dot(r.V.ColView(i), fv.ColView(i)))
				if du < 1-1e-8 || dv < 1-1e-8 {
					t.Errorf("case %d: singular vectors %d: |u·u'| = %.12f, |v·v'| = %.12f", trial, i, du, dv)
				}
			}
		}
	}
}

func sparseOpOf(a *mat.Dense) linOp {
	x := sparseFromDense(a)
	return sparseOp{x, x.T()}
}
