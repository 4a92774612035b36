package nmf

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
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
	q.solve(x, newGram(id, 3), []float64{1, -2, 3}, nil)
	if x[0] != 1 || x[1] != 0 || x[2] != 3 {
		t.Errorf("identity: x = %v", x)
	}
	// Zero and non-positive right-hand sides: x = 0.
	for _, b := range [][]float64{{0, 0, 0}, {-1, -2, -0.5}} {
		q.solve(x, newGram(id, 3), b, nil)
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
	q.solve(x, newGram(g, 3), b, nil)
	for i := range xs {
		if math.Abs(x[i]-xs[i]) > 1e-10 {
			t.Errorf("all passive: x = %v, want %v", x, xs)
		}
	}
	// Restricting to allowed variables.
	q.solve(x, newGram(id, 3), []float64{1, 2, 3}, []bool{true, false, true})
	if x[0] != 1 || x[1] != 0 || x[2] != 3 {
		t.Errorf("mask: x = %v", x)
	}
	// Rank-deficient: two identical columns; any split of 1 is optimal.
	q2 := newNNLS(2)
	x2 := make([]float64, 2)
	q2.solve(x2, newGram([]float64{1, 1, 1, 1}, 2), []float64{1, 1}, nil)
	if math.Abs(x2[0]+x2[1]-1) > 1e-12 || x2[0] < 0 || x2[1] < 0 {
		t.Errorf("rank-deficient: x = %v", x2)
	}
	// All-zero Gram matrix: nothing can be gained.
	q.solve(x, newGram(make([]float64, 9), 3), []float64{0, 0, 0}, nil)
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
			q.solve(x, newGram(g, k), b, allowed)
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

// lsProblem is min ‖Ax − y‖ over x ≥ 0 for a dense A (rows of a).
type lsProblem struct {
	a [][]float64
	y []float64
}

// normal returns G = AᵀA and b = Aᵀy, summed in the plain order.
func (p lsProblem) normal() (g, b []float64) {
	n := len(p.a[0])
	g, b = make([]float64, n*n), make([]float64, n)
	for i, row := range p.a {
		for s, as := range row {
			b[s] += as * p.y[i]
			for t, at := range row {
				g[s*n+t] += as * at
			}
		}
	}
	return g, b
}

// residual is ‖Ax − y‖, computed from A.
func (p lsProblem) residual(x []float64) float64 {
	r := 0.0
	for i, row := range p.a {
		v := -p.y[i]
		for t, at := range row {
			v += at * x[t]
		}
		r += v * v
	}
	return math.Sqrt(r)
}

// kkt checks the optimality conditions of x in the scaled sense, from A
// itself: with c_t = a_tᵀ(y − Ax)/‖a_t‖ (the gradient with respect to
// x̃_t = ‖a_t‖x_t), c_t ≤ tol where x_t = 0 and |c_t| ≤ tol where x_t > 0,
// for tol = rel·(‖y‖ + Σ‖a_t‖x_t). It returns a description of the worst
// violation, or "" if there is none.
func (p lsProblem) kkt(x []float64, rel float64) string {
	n := len(x)
	r := make([]float64, len(p.y))
	for i, row := range p.a {
		r[i] = p.y[i]
		for t, at := range row {
			r[i] -= at * x[t]
		}
	}
	ynorm := 0.0
	for _, v := range p.y {
		ynorm += v * v
	}
	norms := make([]float64, n)
	scale := math.Sqrt(ynorm)
	for t := 0; t < n; t++ {
		for _, row := range p.a {
			norms[t] += row[t] * row[t]
		}
		norms[t] = math.Sqrt(norms[t])
		scale += norms[t] * x[t]
	}
	tol := rel * scale
	worst, msg := 0.0, ""
	for t := 0; t < n; t++ {
		if x[t] < 0 {
			return fmt.Sprintf("x_%d = %g < 0", t, x[t])
		}
		if norms[t] == 0 {
			if x[t] != 0 {
				return fmt.Sprintf("zero column %d has x = %g", t, x[t])
			}
			continue
		}
		c := 0.0
		for i, row := range p.a {
			c += row[t] * r[i]
		}
		c /= norms[t]
		v := c
		if x[t] > 0 {
			v = math.Abs(c)
		}
		if v > tol && v-tol > worst {
			worst = v - tol
			msg = fmt.Sprintf("variable %d (x = %g, ‖a‖ = %g): scaled gradient %.3g, tolerance %.3g", t, x[t], norms[t], c, tol)
		}
	}
	return msg
}

// scipyFixture is testdata/nnls_scipy.json (see make_nnls_fixture.py).
type scipyFixture struct {
	Scipy    string `json:"scipy"`
	Problems []struct {
		Name     string      `json:"name"`
		M        int         `json:"m"`
		N        int         `json:"n"`
		A        [][]float64 `json:"a"`
		Y        []float64   `json:"y"`
		X        []float64   `json:"x"`
		Residual float64     `json:"residual"`
	} `json:"problems"`
}

// TestNNLSScipyFixture solves scipy.optimize.nnls's problems — badly
// scaled columns (10^±6), more variables than rows, nearly collinear and
// zero columns, zero solutions, the reproducer — through the Gram
// matrix and checks that the residual is no worse than scipy's (QR-based,
// on A itself) and that the scaled KKT conditions hold. The absolute
// allowance of 1e-10‖y‖ is for the consistent problems (zero residual),
// where forming AᵀA costs about eps·κ·‖y‖ in the residual (κ the condition
// number of the normalised columns): the worst here, two columns at an
// angle of 1e-5, is 5e-12‖y‖ above scipy. Without the scaling 22 of the 55
// problems failed, the reproducer with a residual of 0.8655 against
// scipy's 0.3656.
func TestNNLSScipyFixture(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "nnls_scipy.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fx scipyFixture
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatalf("reading nnls_scipy.json: %v", err)
	}
	if len(fx.Problems) < 30 {
		t.Fatalf("nnls_scipy.json has %d problems", len(fx.Problems))
	}
	for _, pr := range fx.Problems {
		p := lsProblem{pr.A, pr.Y}
		n := pr.N
		if len(pr.A) != pr.M || len(pr.Y) != pr.M || len(pr.X) != n || len(pr.A[0]) != n {
			t.Fatalf("%s: malformed problem", pr.Name)
		}
		g, b := p.normal()
		q := newNNLS(n)
		x := make([]float64, n)
		q.solve(x, newGram(g, n), b, nil)
		ynorm := 0.0
		for _, v := range pr.Y {
			ynorm += v * v
		}
		ynorm = math.Sqrt(ynorm)
		got := p.residual(x)
		if got > pr.Residual*(1+1e-6)+1e-10*ynorm {
			t.Errorf("%s: residual %.10g, scipy %s %.10g\nx = %v\nscipy x = %v", pr.Name, got, fx.Scipy, pr.Residual, x, pr.X)
		}
		if msg := p.kkt(x, 1e-12); msg != "" {
			t.Errorf("%s: KKT fails: %s\nx = %v", pr.Name, msg, x)
		}
	}
}

// TestNNLSIssueReproducer is the badly scaled problem of the issue (column
// norms about 0.14, 1e-4 and 3e4): scipy.optimize.nnls gives x = [3.27217,
// 10987.4, 0] with residual 0.365591; the unscaled solver stopped at
// [9.298, 0, 0] with residual 0.8655.
func TestNNLSIssueReproducer(t *testing.T) {
	p := lsProblem{
		a: [][]float64{
			{0.102595, 6.5e-05, 10440.001991},
			{0.01261, 4.3e-05, 17112.194462},
			{0.085239, 1.8e-05, 26324.803543},
			{0.020439, 6.5e-05, 2906.320566},
		},
		y: []float64{1.253, 0.601, 0.268, 0.578},
	}
	g, b := p.normal()
	x := make([]float64, 3)
	newNNLS(3).solve(x, newGram(g, 3), b, nil)
	want := []float64{3.2721720482413508, 10987.384261169642, 0}
	for i := range want {
		if math.Abs(x[i]-want[i]) > 1e-9*want[i] || (want[i] == 0) != (x[i] == 0) {
			t.Errorf("x = %v, scipy %v", x, want)
			break
		}
	}
	if r := p.residual(x); math.Abs(r-0.36559106778893974) > 1e-12 {
		t.Errorf("residual %.15g, scipy 0.36559106778893974", r)
	}
}

// TestNNLSScaleInvariance solves random problems whose columns are scaled
// by 10^U(−6, 6), some with nearly collinear columns, and compares with the
// brute-force optimum of the problem with unit columns: up to the scaling
// of the variables it is the same problem.
func TestNNLSScaleInvariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 300; trial++ {
		k := 1 + trial%7
		rows := k + 2
		if trial%5 == 1 {
			rows = max(1, k-2) // more variables than rows
		}
		a := make([][]float64, rows)
		for i := range a {
			a[i] = make([]float64, k)
			for j := range a[i] {
				a[i][j] = rng.Float64()
				if trial%2 == 1 {
					a[i][j] = rng.NormFloat64()
				}
			}
		}
		if trial%3 == 2 && k >= 2 {
			// Column 1 at an angle of about 1e-4 to column 0.
			for i := range a {
				a[i][1] = a[i][0] * (1 + 1e-4*rng.NormFloat64())
			}
		}
		// Unit columns, then the bad scaling.
		scale := make([]float64, k)
		for j := 0; j < k; j++ {
			nrm := 0.0
			for i := range a {
				nrm += a[i][j] * a[i][j]
			}
			scale[j] = math.Pow(10, -6+12*rng.Float64())
			for i := range a {
				a[i][j] /= math.Sqrt(nrm)
			}
		}
		y := make([]float64, rows)
		for i := range y {
			y[i] = rng.NormFloat64() + 0.3
		}
		unit := lsProblem{a, y}
		gu, bu := unit.normal()
		want, wx := bruteNNLS(gu, bu, nil)
		sa := make([][]float64, rows)
		for i := range a {
			sa[i] = make([]float64, k)
			for j := range a[i] {
				sa[i][j] = a[i][j] * scale[j]
			}
		}
		p := lsProblem{sa, y}
		g, b := p.normal()
		x := make([]float64, k)
		newNNLS(k).solve(x, newGram(g, k), b, nil)
		xu := make([]float64, k)
		for j := range x {
			xu[j] = x[j] * scale[j]
		}
		got := nnlsObjective(gu, bu, xu)
		if got > want+1e-9*(1+math.Abs(want)) {
			t.Fatalf("trial %d (k %d, rows %d): objective %.12g, brute force %.12g\nx (unit columns) = %v\nbrute x = %v", trial, k, rows, got, want, xu, wx)
		}
		if msg := p.kkt(x, 1e-12); msg != "" {
			t.Fatalf("trial %d: KKT fails: %s", trial, msg)
		}
	}
}

// TestNewGram checks the prepared matrix: unit diagonal, cosines off the
// diagonal, zero rows and columns (and zero inverse scales) for zero
// columns, and the input left alone.
func TestNewGram(t *testing.T) {
	g := []float64{
		4, 0, 2,
		0, 0, 0,
		2, 0, 9,
	}
	in := append([]float64(nil), g...)
	gm := newGram(g, 3)
	want := []float64{1, 0, 1.0 / 3, 0, 0, 0, 1.0 / 3, 0, 1}
	for i, v := range want {
		if math.Abs(gm.g[i]-v) > 1e-15 {
			t.Errorf("G̃ = %v, want %v", gm.g, want)
			break
		}
	}
	if gm.inv[0] != 0.5 || gm.inv[1] != 0 || math.Abs(gm.inv[2]-1.0/3) > 1e-16 {
		t.Errorf("inverse scales %v", gm.inv)
	}
	for i := range g {
		if g[i] != in[i] {
			t.Fatalf("newGram modified its input: %v", g)
		}
	}
	// A zero column stays at zero whatever its right-hand side says.
	x := make([]float64, 3)
	newNNLS(3).solve(x, gm, []float64{2, 5, 0}, nil)
	if x[0] != 0.5 || x[1] != 0 || x[2] != 0 {
		t.Errorf("x = %v, want [0.5 0 0]", x)
	}
}

// TestNNLSSharedGram solves many right-hand sides with one gram from
// several goroutines, each with its own solver, and compares with a
// sequential solve (run with -race to check the sharing).
func TestNNLSSharedGram(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const k, rows, nb = 12, 20, 64
	g, _ := gramProblem(rng, rows, k, true)
	gm := newGram(g, k)
	bs := make([][]float64, nb)
	want := make([][]float64, nb)
	q := newNNLS(k)
	for i := range bs {
		bs[i] = make([]float64, k)
		for j := range bs[i] {
			bs[i][j] = rng.NormFloat64()
		}
		want[i] = make([]float64, k)
		q.solve(want[i], gm, bs[i], nil)
	}
	got := make([][]float64, nb)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			q := newNNLS(k)
			for i := w; i < nb; i += 4 {
				got[i] = make([]float64, k)
				q.solve(got[i], gm, bs[i], nil)
			}
		}(w)
	}
	wg.Wait()
	for i := range bs {
		for j := range want[i] {
			if got[i][j] != want[i][j] {
				t.Fatalf("rhs %d: concurrent x = %v, sequential %v", i, got[i], want[i])
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
	w, err := fixedTransform(x, res.H, TransformConfig{})
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
	w2, err := fixedTransform(xd, res.H, TransformConfig{})
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
	w, err := fixedTransform(x, h, TransformConfig{Mask: mask})
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
	wk, err := fixedTransform(x, h, TransformConfig{Loss: KullbackLeibler, Mask: mask, MaxIter: 80, Tol: -1})
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
	if _, err := fixedTransform(x, randomFactor(k, 19, 0, 1), TransformConfig{}); err == nil {
		t.Errorf("column mismatch accepted")
	}
	if _, err := fixedTransform(x, h, TransformConfig{Mask: mat.NewDense(29, k, nil)}); err == nil {
		t.Errorf("mask of the wrong shape accepted")
	}
	z, err := fixedTransform(mat.NewDense(3, 20, nil), h, TransformConfig{Loss: KullbackLeibler})
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

// fixedTransform transforms x with the topics h fixed.
func fixedTransform(x Matrix, h *mat.Dense, cfg TransformConfig) (*mat.Dense, error) {
	f, err := NewFixedH(h)
	if err != nil {
		return nil, err
	}
	return f.Transform(context.Background(), x, cfg)
}

// PerDocument: under KL each document is transformed as a batch of one,
// so a subset transforms as the same rows of the whole; the whole batch
// at once (the default, as scikit-learn) does not.
func TestTransformPerDocument(t *testing.T) {
	x := randomSparse(30, 20, 0.3, 23)
	k := 4
	h := randomFactor(k, 20, 0.05, 7)
	mask := randomMask(30, k, 0.5, 8)
	cfg := TransformConfig{Loss: KullbackLeibler, Mask: mask, PerDocument: true}
	w, err := fixedTransform(x, h, cfg)
	if err != nil {
		t.Fatal(err)
	}
	rows := []int{3, 17, 0}
	sub := cfg
	sub.Mask = mat.NewDense(len(rows), k, nil)
	for r, i := range rows {
		sub.Mask.SetRow(r, mask.RawRowView(i))
	}
	ws, err := fixedTransform(x.SelectRows(rows), h, sub)
	if err != nil {
		t.Fatal(err)
	}
	for r, i := range rows {
		for j := 0; j < k; j++ {
			if ws.At(r, j) != w.At(i, j) {
				t.Fatalf("document %d, topic %d: %g in the subset, %g in the whole", i, j, ws.At(r, j), w.At(i, j))
			}
			if mask.At(i, j) == 0 && w.At(i, j) != 0 {
				t.Fatalf("document %d: forbidden topic %d has weight %g", i, j, w.At(i, j))
			}
		}
		// Each row is the batch-of-one transform.
		one := TransformConfig{Loss: KullbackLeibler, Mask: mat.NewDense(1, k, mask.RawRowView(i))}
		wi, err := fixedTransform(x.SelectRows([]int{i}), h, one)
		if err != nil {
			t.Fatal(err)
		}
		if d := maxRelDiff(wi, mat.NewDense(1, k, w.RawRowView(i))); d != 0 {
			t.Errorf("document %d differs from its batch-of-one transform by %g", i, d)
		}
	}
	batch, err := fixedTransform(x, h, TransformConfig{Loss: KullbackLeibler, Mask: mask})
	if err != nil {
		t.Fatal(err)
	}
	if maxRelDiff(batch, w) == 0 {
		t.Error("the whole-batch transform equals the per-document one: the test shows nothing")
	}
}
